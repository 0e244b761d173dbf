//! Failures of the connection itself: timeouts, a connection closed after sending, a
//! connection refused. Which of them may have reached the service decides what is retried.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use baas_runtime::{
    Client, Config, Error, ErrorKind, HttpRequest, HttpResponse, HttpsTransport, Transport,
};

use super::server::*;

#[tokio::test]
async fn timeout_is_retried_only_for_safe_calls() {
    let server = serve(|_| Reply::Hang).await;
    let mut cfg = config(&server);
    cfg.request_timeout = Duration::from_millis(200);
    cfg.max_retries = 1;
    let client = Client::new(cfg).unwrap();
    let err = client.execute(&transfer()).await.unwrap_err();
    // A money call that timed out after sending: the outcome is unknown, said as such
    // with the requestId the service may have seen, and never retryable (a generic
    // retry layer would move the money twice).
    match err.kind() {
        ErrorKind::OutcomeUnknown { source } => {
            assert_eq!(err.operation(), Some("applyForTransfer"));
            let request_id = err.request_id().unwrap_or_default();
            assert!(request_id.starts_with("client1"), "{request_id}");
            assert_eq!(err.attempts(), 1);
            assert!(
                matches!(
                    source.kind(),
                    ErrorKind::Timeout {
                        may_have_reached_service: true,
                        ..
                    }
                ),
                "{source:?}"
            );
        }
        other => panic!("{other:?}"),
    }
    assert!(!err.is_retryable());
    assert_eq!(err.outcome(), baas_runtime::Outcome::Unknown);
    assert_eq!(
        server.hits.load(Ordering::SeqCst),
        1,
        "money movement is never re-sent"
    );
    server.hits.store(0, Ordering::SeqCst);
    let err = client.execute(&account()).await.unwrap_err();
    assert!(matches!(err.kind(), ErrorKind::Timeout { .. }), "{err:?}");
    assert!(
        err.is_retryable(),
        "a call that moves no money may be repeated"
    );
    assert_eq!(
        (err.operation(), err.attempts()),
        (Some("getAccountDetails"), 2)
    );
    assert!(err.request_id().is_some_and(|id| id.starts_with("client1")));
    assert_eq!(
        server.hits.load(Ordering::SeqCst),
        2,
        "a safe call is retried"
    );
}

#[tokio::test]
async fn connection_closed_after_sending_may_have_reached() {
    let server = serve(|_| Reply::Close).await;
    let err = Client::new(config(&server))
        .unwrap()
        .execute(&transfer())
        .await
        .unwrap_err();
    let ErrorKind::OutcomeUnknown { source } = err.kind() else {
        panic!("{err:?}");
    };
    assert!(
        matches!(
            source.kind(),
            ErrorKind::Transport {
                may_have_reached_service: true,
                ..
            }
        ),
        "{source:?}"
    );
    assert_eq!(server.hits.load(Ordering::SeqCst), 1);
}

/// Counts attempts through the default transport.
struct Counting {
    inner: HttpsTransport,
    calls: AtomicUsize,
}

impl Transport for Counting {
    fn post_json(
        &self,
        request: HttpRequest,
    ) -> baas_runtime::transport::BoxFuture<'_, Result<HttpResponse, Error>> {
        self.calls.fetch_add(1, Ordering::SeqCst);
        self.inner.post_json(request)
    }
}

#[tokio::test]
async fn connection_refused_never_left_so_even_money_is_retried() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    drop(listener);
    let mut cfg = Config::new(format!("http://{addr}"), "client1", key());
    cfg.retry_backoff = Duration::from_millis(1);
    let counting = Arc::new(Counting {
        inner: HttpsTransport::new(Duration::from_secs(1)).unwrap(),
        calls: AtomicUsize::new(0),
    });
    let client = Client::with_transport(cfg, counting.clone()).unwrap();
    let err = client.execute(&transfer()).await.unwrap_err();
    assert!(
        matches!(
            err.kind(),
            ErrorKind::Transport {
                may_have_reached_service: false,
                ..
            }
        ),
        "{err:?}"
    );
    assert!(err.is_retryable() && !err.may_have_reached_service());
    assert_eq!(counting.calls.load(Ordering::SeqCst), 3);
    assert_eq!(
        (err.operation(), err.attempts()),
        (Some("applyForTransfer"), 3)
    );
    assert!(err.request_id().is_some(), "the last attempt's requestId");
}
