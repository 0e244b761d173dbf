//! Large hostile bodies sent again and again, and normal requests timed meanwhile: for
//! `tests/latency_under_load.rs` and `benches/latency.rs` (which includes this file by
//! path).

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use baas_runtime::transport::{HttpRequest, Transport};
use baas_runtime::HttpsTransport;
use baas_sandbox::Sandbox;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// An unsigned body of the partner's of about `size` bytes, one long string in params:
/// read whole, parsed and hashed before its signature is found wrong.
pub fn large_body(size: usize) -> Vec<u8> {
    format!(
        r#"{{"requestId":"heavy","sender":"sandbox-partner","locale":"en_KE","timestamp":1650533105687,"salt":"9f8e7d6c5b4a39281706f5e4","signature":"{}","params":{{"accountId":"{}"}}}}"#,
        "0".repeat(64),
        "1".repeat(size.saturating_sub(256))
    )
    .into_bytes()
}

/// Senders of large bodies running in the background until dropped.
pub struct Load {
    stop: Arc<AtomicBool>,
    /// Large bodies answered so far.
    pub answered: Arc<AtomicU64>,
    tasks: Vec<tokio::task::JoinHandle<()>>,
}

impl Load {
    /// `senders` tasks, each POSTing `body` to the sandbox over a new connection and
    /// reading the answer, again and again.
    pub fn start(sandbox: &Sandbox, senders: usize, body: Arc<Vec<u8>>) -> Load {
        let stop = Arc::new(AtomicBool::new(false));
        let answered = Arc::new(AtomicU64::new(0));
        let tasks = (0..senders)
            .map(|_| {
                let (stop, answered, body) = (stop.clone(), answered.clone(), body.clone());
                let addr = sandbox.addr();
                tokio::spawn(async move {
                    while !stop.load(Ordering::SeqCst) {
                        if send(addr, &body).await {
                            answered.fetch_add(1, Ordering::SeqCst);
                        }
                    }
                })
            })
            .collect();
        Load {
            stop,
            answered,
            tasks,
        }
    }
}

impl Drop for Load {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        for task in &self.tasks {
            task.abort();
        }
    }
}

/// One POST of `body` on a new connection; true when an answer came.
async fn send(addr: std::net::SocketAddr, body: &[u8]) -> bool {
    let Ok(mut stream) = TcpStream::connect(addr).await else {
        return false;
    };
    let head = format!(
        "POST /query/getAccountDetails HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    if stream.write_all(head.as_bytes()).await.is_err() || stream.write_all(body).await.is_err() {
        return false;
    }
    let mut answer = Vec::new();
    stream.read_to_end(&mut answer).await.is_ok() && !answer.is_empty()
}

/// A client for normal requests, on one kept-alive connection.
pub fn client() -> HttpsTransport {
    HttpsTransport::new(Duration::from_secs(10)).expect("transport")
}

/// One normal request (getAccountDetails, signed by the runtime); its latency. It must
/// succeed.
pub async fn normal_request(sandbox: &Sandbox, transport: &HttpsTransport) -> Duration {
    let params = serde_json::json!({"accountId": "1000000001"});
    let signed = baas_runtime::envelope::sign_request(
        &params,
        sandbox.sender(),
        "en_KE",
        &sandbox.private_key(),
    )
    .expect("signs");
    let url = format!("{}/query/getAccountDetails", sandbox.base_url());
    let started = Instant::now();
    let answer = transport
        .post_json(HttpRequest::new(
            url,
            signed.body,
            Duration::from_secs(60),
            1 << 20,
        ))
        .await
        .expect("an answer");
    let took = started.elapsed();
    let value: serde_json::Value = serde_json::from_slice(&answer.body).expect("JSON");
    assert_eq!(value["code"], "00000", "{value}");
    took
}

/// The median of `n` normal requests' latencies.
pub async fn median_latency(sandbox: &Sandbox, transport: &HttpsTransport, n: usize) -> Duration {
    let mut times = Vec::with_capacity(n);
    for _ in 0..n {
        times.push(normal_request(sandbox, transport).await);
    }
    times.sort();
    times[n / 2]
}

/// Normal requests one after another until `load` has had `answered` large bodies
/// answered (so the requests overlap their reading and checking) and at least `min`
/// requests were made; the median latency and the number of requests.
pub async fn median_latency_under(
    sandbox: &Sandbox,
    transport: &HttpsTransport,
    load: &Load,
    answered: u64,
    min: usize,
) -> (Duration, usize) {
    let until = load.answered.load(Ordering::SeqCst) + answered;
    let mut times = Vec::new();
    while times.len() < min || load.answered.load(Ordering::SeqCst) < until {
        times.push(normal_request(sandbox, transport).await);
    }
    times.sort();
    (times[times.len() / 2], times.len())
}
