//! Clients that send their headers slowly do not hold up the others (issue 35): with
//! 300 connections each holding half a request head, a normal signed query is answered
//! within a second (it used to wait behind 64 of them, 8–10 s, until they timed out).
//! The slow connections are loopback and bounded (the sandbox cuts each after its
//! header timeout).
//!
//! Alone in its test binary, so no other test competes for the two workers.

mod common;

use std::time::{Duration, Instant};

use baas_sandbox::Sandbox;
use common::heavy::{client, normal_request};
use tokio::io::AsyncWriteExt;

const SLOW: usize = 300;
/// Most a normal query may take while the slow clients hold their connections.
const LIMIT: Duration = Duration::from_secs(1);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_normal_query_is_answered_while_300_clients_send_headers_slowly() {
    let sandbox = Sandbox::start().await.unwrap();
    let transport = client();
    let idle = normal_request(&sandbox, &transport).await;
    let mut slow = Vec::with_capacity(SLOW);
    for _ in 0..SLOW {
        let mut stream = tokio::net::TcpStream::connect(sandbox.addr())
            .await
            .unwrap();
        stream
            .write_all(b"POST /query/getAccountDetails HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-")
            .await
            .unwrap();
        slow.push(stream);
    }
    // Let the sandbox accept them all before measuring.
    tokio::time::sleep(Duration::from_millis(300)).await;
    // A new connection for each query (as a new client would open).
    let mut times = Vec::new();
    for _ in 0..5 {
        let fresh = client();
        let started = Instant::now();
        tokio::time::timeout(Duration::from_secs(30), normal_request(&sandbox, &fresh))
            .await
            .expect("answered within 30 s");
        times.push(started.elapsed());
    }
    times.sort();
    let worst = *times.last().unwrap();
    println!(
        "idle {idle:?}; with {SLOW} slow-header connections open: {times:?} (worst {worst:?})"
    );
    assert!(
        worst < LIMIT,
        "a normal query took {worst:?} with {SLOW} slow clients"
    );
    // Still held open by the sandbox (they are not refused, only cut off after the
    // header timeout).
    drop(slow);
}
