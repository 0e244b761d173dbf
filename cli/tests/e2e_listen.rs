//! `baas listen --forward-to`: a notification of the sandbox reaches a partner's test
//! receiver through the listener, verified, as the exact bytes the sandbox sent; and
//! `baas sandbox trigger` makes the sandbox send one.

mod common;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::process::Stdio;
use std::sync::mpsc;
use std::time::Duration;

use baas_runtime::notification::Verifier;
use baas_runtime::PrivateKey;
use baas_sandbox::{Sandbox, DEFAULT_KEY, SERVICE_SENDER};

/// A receiver on loopback answering `ok` to each POST; each body received goes to the
/// channel.
fn receiver() -> (String, mpsc::Receiver<Vec<u8>>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}/callbacks", listener.local_addr().unwrap());
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { continue };
            let mut reader = BufReader::new(stream.try_clone().unwrap());
            let mut length = 0usize;
            loop {
                let mut line = String::new();
                if reader.read_line(&mut line).unwrap_or(0) == 0 || line == "\r\n" {
                    break;
                }
                let lower = line.to_ascii_lowercase();
                if let Some(v) = lower.strip_prefix("content-length:") {
                    length = v.trim().parse().unwrap_or(0);
                }
            }
            let mut body = vec![0; length];
            if reader.read_exact(&mut body).is_ok() {
                let _ = tx.send(body);
            }
            let _ = stream
                .write_all(b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\nconnection: close\r\n\r\nok");
        }
    });
    (url, rx)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_notification_is_verified_and_forwarded_as_received() {
    let sandbox = Sandbox::start().await.unwrap();
    let (receiver_url, bodies) = receiver();
    let mut listen = common::baas(&sandbox);
    listen
        .args(["listen", "--port", "0", "--forward-to", &receiver_url])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = listen.spawn().unwrap();
    let mut stderr = BufReader::new(child.stderr.take().unwrap());
    let mut first = String::new();
    stderr.read_line(&mut first).unwrap();
    let url = first
        .trim()
        .strip_prefix("baas listen: listening on ")
        .unwrap_or_else(|| panic!("{first}"))
        .to_owned();
    sandbox.set_callback_url(&url).unwrap();

    let triggered = common::call(&sandbox, &["sandbox", "trigger", "0026"]).await;
    assert_eq!(triggered.code, 0, "{}", triggered.stderr);

    let body = tokio::task::spawn_blocking(move || bodies.recv_timeout(Duration::from_secs(30)))
        .await
        .unwrap()
        .expect("the receiver got the notification");
    let verifier = Verifier::new(PrivateKey::new(DEFAULT_KEY), SERVICE_SENDER);
    let notification = verifier.verify(&body).expect("forwarded bytes verify");
    assert_eq!(notification.notification_type, "0026");
    sandbox.deliveries_settled().await;
    let delivered = sandbox.deliveries();
    assert!(
        delivered
            .iter()
            .any(|d| d.notification_type == "0026" && d.acknowledged),
        "the receiver's ok reached the sandbox: {delivered:?}"
    );

    child.kill().unwrap();
    let mut out = String::new();
    child
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut out)
        .unwrap();
    let _ = child.wait();
    let line: serde_json::Value = serde_json::from_str(out.lines().next().unwrap()).unwrap();
    assert_eq!(line["type"], "0026");
    assert_eq!(line["delivery"], "first");
    assert_eq!(line["typed"], true);
    assert_eq!(
        line["delivery_id"],
        format!("{}/0026", notification.request_id)
    );
}
