//! The accept loop and one HTTP exchange: method, path, reading the body within its
//! limits, the checks (on a blocking thread for a large body), and the answer as HTTP.
//!
//! What an unverified request can cost is bounded here: at most
//! [`crate::SandboxConfig::max_connections`] connections are served at once (the others
//! wait in the backlog), no body is read past
//! [`crate::SandboxConfig::max_body_bytes`], and a body over [`LARGE_BODY_BYTES`] is
//! only read with one of [`crate::SandboxConfig::large_bodies_at_once`] permits and
//! checked on a blocking thread, so parsing it never holds an async worker that other
//! requests need.

use std::net::SocketAddr;
use std::sync::atomic::Ordering;
use std::sync::Arc;

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::body::{Body, Incoming};
use hyper::{Method, Request, Response, StatusCode};
use hyper_util::rt::TokioIo;
use tokio::net::TcpListener;
use tokio::sync::OwnedSemaphorePermit;
use tokio::time::Instant;

use super::request::{answer, too_large, Answer, Send, NO_SUCH_PATH};
use super::respond::unsigned;
use super::{admin, operations_on, Shared};
use crate::error::codes;
use crate::LARGE_BODY_BYTES;

/// How long a stopping sandbox lets each connection finish the request in flight.
pub(crate) const SHUTDOWN_GRACE: std::time::Duration = std::time::Duration::from_secs(5);

/// Accepts connections until `shutdown` fires, at most `shared.max_connections` at
/// once: the next one is accepted when one of them closes.
pub(crate) async fn serve(
    listener: TcpListener,
    shared: Arc<Shared>,
    mut shutdown: tokio::sync::watch::Receiver<bool>,
) {
    let connections = Arc::new(tokio::sync::Semaphore::new(shared.max_connections));
    loop {
        let permit = tokio::select! {
            permit = connections.clone().acquire_owned() => permit,
            _ = shutdown.changed() => break,
        };
        // The semaphore is never closed.
        let Ok(permit) = permit else { break };
        tokio::select! {
            accepted = listener.accept() => {
                let Ok((stream, peer)) = accepted else {
                    // e.g. too many open files: back off instead of spinning on the error.
                    tokio::time::sleep(std::time::Duration::from_millis(50)).await;
                    continue;
                };
                let shared = shared.clone();
                let header_timeout = shared.header_read_timeout;
                let mut stop = shutdown.clone();
                tokio::spawn(async move {
                    let _permit = permit;
                    let service = hyper::service::service_fn(move |req| {
                        let shared = shared.clone();
                        async move {
                            // An error makes hyper close the connection unanswered.
                            handle(shared, req, peer).await.ok_or(DroppedAnswer)
                        }
                    });
                    // A client that sends its headers too slowly is disconnected (so is
                    // one idle that long between requests: its permit is not held
                    // forever).
                    let conn = hyper::server::conn::http1::Builder::new()
                        .timer(hyper_util::rt::TokioTimer::new())
                        .header_read_timeout(header_timeout)
                        .serve_connection(TokioIo::new(stream), service);
                    tokio::pin!(conn);
                    tokio::select! {
                        _ = conn.as_mut() => {}
                        _ = stop.changed() => {
                            // Stopping finishes the request in flight (its answer is
                            // sent, so a money call stopped mid-way has a known outcome)
                            // and takes no new one on this connection; bounded in time.
                            conn.as_mut().graceful_shutdown();
                            let _ = tokio::time::timeout(SHUTDOWN_GRACE, conn).await;
                        }
                    }
                });
            }
            _ = shutdown.changed() => break,
        }
    }
}

fn json_response(status: StatusCode, body: Vec<u8>) -> Response<Full<Bytes>> {
    let mut response = Response::new(Full::new(Bytes::from(body)));
    *response.status_mut() = status;
    response.headers_mut().insert(
        hyper::header::CONTENT_TYPE,
        hyper::header::HeaderValue::from_static("application/json"),
    );
    response
}

/// An unsigned `12001` after which the connection is closed (the rest of the body is
/// never read).
fn refuse_and_close(msg: &str) -> Response<Full<Bytes>> {
    let mut response = json_response(
        StatusCode::OK,
        unsigned(codes::INVALID_PARAMETER.as_str(), msg),
    );
    response.headers_mut().insert(
        hyper::header::CONNECTION,
        hyper::header::HeaderValue::from_static("close"),
    );
    response
}

/// A fault closed the connection instead of answering.
#[derive(Debug)]
struct DroppedAnswer;

impl std::fmt::Display for DroppedAnswer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("answer dropped by a fault")
    }
}

impl std::error::Error for DroppedAnswer {}

/// The HTTP answer, or `None` when a fault drops it (the connection is closed).
async fn handle(
    shared: Arc<Shared>,
    req: Request<Incoming>,
    peer: SocketAddr,
) -> Option<Response<Full<Bytes>>> {
    let method = req.method().clone();
    let path = req.uri().path().to_owned();
    if shared.admin && (path == admin::PREFIX || path.starts_with("/_sandbox/")) {
        let timeout = shared.body_read_timeout;
        return Some(admin::serve(&shared, req, peer, timeout).await);
    }
    shared.requests_seen.fetch_add(1, Ordering::SeqCst);
    if method != Method::POST {
        shared.remember(
            &method,
            &path,
            &Answer::bare(codes::GET_NOT_SUPPORTED.as_str()),
        );
        return Some(json_response(
            StatusCode::OK,
            unsigned(codes::GET_NOT_SUPPORTED.as_str(), "only POST is supported"),
        ));
    }
    let candidates = operations_on(&path);
    if candidates.is_empty() {
        shared.remember(&method, &path, &Answer::bare("HTTP 500"));
        return Some(json_response(
            StatusCode::INTERNAL_SERVER_ERROR,
            unsigned(codes::SYSTEM.as_str(), NO_SUCH_PATH),
        ));
    }
    let body = match read_body(&shared, req.into_body()).await {
        Ok(read) => read,
        Err(refusal) => {
            shared.remember(
                &method,
                &path,
                &Answer::bare(codes::INVALID_PARAMETER.as_str()),
            );
            return Some(match refusal {
                Unread::TooLarge => refuse_and_close(&too_large(shared.max_body_bytes)),
                // A body that stops arriving: answer, and close the connection.
                Unread::Slow => refuse_and_close(&format!(
                    "the body did not arrive within {} ms",
                    shared.body_read_timeout.as_millis()
                )),
                Unread::Broken(e) => json_response(
                    StatusCode::OK,
                    unsigned(
                        codes::INVALID_PARAMETER.as_str(),
                        &format!("cannot read the body: {e}"),
                    ),
                ),
            });
        }
    };
    // With a state file, answering writes it (and waits for the disk): on a blocking
    // thread, as a large body's checks.
    let answer = match body.lane {
        None if shared.store.is_none() => answer(&shared, &candidates, &body.bytes),
        lane => {
            let shared = shared.clone();
            let checked = tokio::task::spawn_blocking(move || {
                let answer = answer(&shared, &candidates, &body.bytes);
                drop(lane);
                answer
            });
            checked.await.unwrap_or_else(|_| {
                Answer::unsigned(
                    codes::SYSTEM.as_str(),
                    "the sandbox failed while checking the request (a sandbox defect)",
                )
            })
        }
    };
    shared.remember(&method, &path, &answer);
    match answer.send {
        Send::Now => {}
        Send::Drop => return None,
        Send::After(by) => tokio::time::sleep(by).await,
    }
    Some(json_response(StatusCode::OK, answer.body))
}

/// A body read whole, with the permit it was read under when it is large.
struct Read {
    bytes: Vec<u8>,
    lane: Option<OwnedSemaphorePermit>,
}

/// Why a body was not read whole.
enum Unread {
    /// Over `max_body_bytes` (declared or received).
    TooLarge,
    /// Not there within `body_read_timeout`.
    Slow,
    /// The connection failed.
    Broken(hyper::Error),
}

/// Reads the body, refusing it once its declared or received length passes
/// `max_body_bytes`. A large body ([`LARGE_BODY_BYTES`]) is read under a permit of
/// `shared.large_bodies`, taken before its first byte when the `Content-Length` says
/// so, else when the bytes received pass the mark. The time spent waiting for a permit
/// does not count against `body_read_timeout`.
async fn read_body(shared: &Shared, mut body: Incoming) -> Result<Read, Unread> {
    let max = shared.max_body_bytes;
    let declared = body.size_hint().exact();
    let declared = match declared.map(usize::try_from) {
        Some(Ok(n)) if n <= max => Some(n),
        Some(_) => return Err(Unread::TooLarge),
        None => None,
    };
    let mut lane = None;
    if declared.is_some_and(|n| n > LARGE_BODY_BYTES) {
        lane = Some(large_body_permit(shared).await?);
    }
    let mut deadline = Instant::now() + shared.body_read_timeout;
    let mut bytes = Vec::with_capacity(declared.unwrap_or(0));
    loop {
        let frame = match tokio::time::timeout_at(deadline, body.frame()).await {
            Err(_) => return Err(Unread::Slow),
            Ok(None) => return Ok(Read { bytes, lane }),
            Ok(Some(Err(e))) => return Err(Unread::Broken(e)),
            Ok(Some(Ok(frame))) => frame,
        };
        // Trailers are not part of the body.
        let Ok(data) = frame.into_data() else {
            continue;
        };
        let len = bytes.len().saturating_add(data.len());
        if len > max {
            return Err(Unread::TooLarge);
        }
        if lane.is_none() && len > LARGE_BODY_BYTES {
            let waiting = Instant::now();
            lane = Some(large_body_permit(shared).await?);
            deadline += waiting.elapsed();
        }
        bytes.extend_from_slice(&data);
    }
}

async fn large_body_permit(shared: &Shared) -> Result<OwnedSemaphorePermit, Unread> {
    // The semaphore is never closed; were it, the body is refused as too large.
    shared
        .large_bodies
        .clone()
        .acquire_owned()
        .await
        .map_err(|_| Unread::TooLarge)
}
