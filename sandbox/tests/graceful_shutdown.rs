//! Stopping the sandbox finishes the request in flight: its answer is sent, so a client
//! whose money call was being read when the sandbox stopped knows its outcome.

use std::time::Duration;

use baas_sandbox::Sandbox;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_request_in_flight_is_answered_when_the_sandbox_stops() {
    let sandbox = Sandbox::start().await.expect("sandbox");
    let addr = sandbox.base_url().trim_start_matches("http://").to_owned();
    let params = serde_json::json!({ "accountId": "1000000001" });
    let signed = baas_runtime::envelope::sign_request(
        &params,
        sandbox.sender(),
        "en_KE",
        &sandbox.private_key(),
    )
    .expect("signs");
    let body = signed.body;
    let (first, rest) = body.split_at(body.len() / 2);
    let mut stream = TcpStream::connect(&addr).await.expect("connects");
    let head = format!(
        "POST /query/getAccountDetails HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes()).await.expect("head");
    stream.write_all(first).await.expect("first half");
    // The request is being read: stop the sandbox, then send the rest.
    tokio::time::sleep(Duration::from_millis(200)).await;
    drop(sandbox);
    tokio::time::sleep(Duration::from_millis(200)).await;
    stream.write_all(rest).await.expect("second half");
    let mut answer = Vec::new();
    tokio::time::timeout(Duration::from_secs(10), stream.read_to_end(&mut answer))
        .await
        .expect("answered in time")
        .expect("read");
    let text = String::from_utf8_lossy(&answer);
    assert!(text.starts_with("HTTP/1.1 200"), "{text}");
    let json = text.split("\r\n\r\n").nth(1).unwrap_or_default();
    let value: serde_json::Value = serde_json::from_str(json).expect("a JSON answer");
    assert_eq!(value["code"], "00000", "{value}");
    assert_eq!(value["requestId"], signed.request_id.as_str());
    assert!(value["signature"].is_string());
}
