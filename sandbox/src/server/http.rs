//! The accept loop and one HTTP exchange: method, path, reading the body within its
//! limits, and the answer as HTTP.

use std::convert::Infallible;
use std::sync::atomic::Ordering;
use std::sync::Arc;

use bytes::Bytes;
use http_body_util::{BodyExt, Full, Limited};
use hyper::body::Incoming;
use hyper::{Method, Request, Response, StatusCode};
use hyper_util::rt::TokioIo;
use tokio::net::TcpListener;

use super::request::{answer, Answer};
use super::respond::unsigned;
use super::{operations_on, Shared, MAX_BODY_BYTES};
use crate::error::codes;

/// Accepts connections until `shutdown` fires.
pub(crate) async fn serve(
    listener: TcpListener,
    shared: Arc<Shared>,
    mut shutdown: tokio::sync::watch::Receiver<bool>,
) {
    loop {
        tokio::select! {
            accepted = listener.accept() => {
                let Ok((stream, _)) = accepted else {
                    // e.g. too many open files: back off instead of spinning on the error.
                    tokio::time::sleep(std::time::Duration::from_millis(50)).await;
                    continue;
                };
                let shared = shared.clone();
                let header_timeout = shared.header_read_timeout;
                let mut stop = shutdown.clone();
                tokio::spawn(async move {
                    let service = hyper::service::service_fn(move |req| {
                        let shared = shared.clone();
                        async move { Ok::<_, Infallible>(handle(shared, req).await) }
                    });
                    // A client that sends its headers too slowly is disconnected.
                    let conn = hyper::server::conn::http1::Builder::new()
                        .timer(hyper_util::rt::TokioTimer::new())
                        .header_read_timeout(header_timeout)
                        .serve_connection(TokioIo::new(stream), service);
                    tokio::select! {
                        _ = conn => {}
                        _ = stop.changed() => {}
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

async fn handle(shared: Arc<Shared>, req: Request<Incoming>) -> Response<Full<Bytes>> {
    shared.requests_seen.fetch_add(1, Ordering::SeqCst);
    let method = req.method().clone();
    let path = req.uri().path().to_owned();
    if method != Method::POST {
        shared.remember(&method, &path, &Answer::bare(codes::GET_NOT_SUPPORTED));
        return json_response(
            StatusCode::OK,
            unsigned(codes::GET_NOT_SUPPORTED, "only POST is supported"),
        );
    }
    let candidates = operations_on(&path);
    if candidates.is_empty() {
        shared.remember(&method, &path, &Answer::bare("HTTP 500"));
        return json_response(
            StatusCode::INTERNAL_SERVER_ERROR,
            unsigned(codes::SYSTEM, &format!("no such path: {path}")),
        );
    }
    let read = Limited::new(req.into_body(), MAX_BODY_BYTES).collect();
    let body = match tokio::time::timeout(shared.body_read_timeout, read).await {
        Ok(Ok(collected)) => collected.to_bytes(),
        // A body that stops arriving: answer, and close the connection (the rest of
        // the body is never read).
        Err(_) => {
            shared.remember(&method, &path, &Answer::bare(codes::INVALID_PARAMETER));
            let msg = format!(
                "the body did not arrive within {} ms",
                shared.body_read_timeout.as_millis()
            );
            let mut response =
                json_response(StatusCode::OK, unsigned(codes::INVALID_PARAMETER, &msg));
            response.headers_mut().insert(
                hyper::header::CONNECTION,
                hyper::header::HeaderValue::from_static("close"),
            );
            return response;
        }
        Ok(Err(e)) => {
            shared.remember(&method, &path, &Answer::bare(codes::INVALID_PARAMETER));
            return json_response(
                StatusCode::OK,
                unsigned(
                    codes::INVALID_PARAMETER,
                    &format!("cannot read the body: {e}"),
                ),
            );
        }
    };
    let answer = answer(&shared, &candidates, &body);
    shared.remember(&method, &path, &answer);
    json_response(StatusCode::OK, answer.body)
}
