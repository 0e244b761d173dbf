//! Issue 17: the default transport goes direct even when the environment names a proxy,
//! so a signed body meant for plain-http loopback never goes in clear to a proxy the
//! caller did not choose. Its own test binary: it sets process environment variables,
//! which other tests running in parallel threads would otherwise see.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use baas_runtime::{HttpRequest, HttpsTransport, Transport};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;

/// A server that counts connections and answers every request `200 {}`.
async fn counting_server() -> (String, Arc<AtomicUsize>) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let hits = Arc::new(AtomicUsize::new(0));
    let counter = hits.clone();
    tokio::spawn(async move {
        while let Ok((mut stream, _)) = listener.accept().await {
            counter.fetch_add(1, Ordering::SeqCst);
            tokio::spawn(async move {
                let mut buf = [0u8; 8192];
                let _ = stream.read(&mut buf).await;
                let _ = stream
                    .write_all(
                        b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}",
                    )
                    .await;
            });
        }
    });
    (url, hits)
}

fn request(url: &str) -> HttpRequest {
    HttpRequest::new(
        format!("{url}/account/getAccountDetails"),
        b"{}".to_vec(),
        Duration::from_secs(5),
        1024,
    )
}

#[tokio::test]
async fn environment_proxies_are_used_only_when_asked_for() {
    let (service, service_hits) = counting_server().await;
    let (proxy, proxy_hits) = counting_server().await;
    for name in ["HTTP_PROXY", "http_proxy", "ALL_PROXY"] {
        std::env::set_var(name, &proxy);
    }
    std::env::remove_var("NO_PROXY");
    std::env::remove_var("no_proxy");
    let direct = HttpsTransport::new(Duration::from_secs(5)).unwrap();
    let proxied = HttpsTransport::with_env_proxy(Duration::from_secs(5)).unwrap();

    direct.post_json(request(&service)).await.unwrap();
    assert_eq!(
        proxy_hits.load(Ordering::SeqCst),
        0,
        "the default went through the proxy"
    );
    assert_eq!(service_hits.load(Ordering::SeqCst), 1);

    // The same environment is honoured when asked for: the test can tell the difference.
    proxied.post_json(request(&service)).await.unwrap();
    assert_eq!(proxy_hits.load(Ordering::SeqCst), 1);
    assert_eq!(service_hits.load(Ordering::SeqCst), 1);
}
