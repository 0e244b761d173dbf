//! The default transport's HTTP client (issue 36): hyper-util's pooled HTTP/1.1 client
//! over hyper-rustls, the same pool, connector and TLS stack reqwest 0.12 uses, without
//! reqwest's per-request layers. On loopback reqwest's own work was about a third of a
//! call's instructions on the calling thread: each request's URL parsed twice more (its
//! redirect layer parses it even with redirects off, and its response parses it back),
//! the header map cloned, the default headers merged, two futures boxed. Here a request
//! is a URI kept parsed, three static headers and the body moved in, not copied.
//!
//! Behaviour kept from the reqwest transport: HTTPS with rustls (the process's default
//! crypto provider if one is installed, ring otherwise) and the webpki roots, plain HTTP
//! for loopback sandboxes, no proxy, no redirect followed, TCP_NODELAY, the connect
//! timeout, idle connections kept 90 s, `user-agent: baas-runtime/<version>`. The time
//! limit covers the whole exchange (connecting, sending, the whole body), and a failure
//! says "not sent" only when the connection never opened.

use std::time::Duration;

use bytes::Bytes;
use http::header::{HeaderValue, ACCEPT, CONTENT_LENGTH, CONTENT_TYPE, USER_AGENT};
use http_body_util::{BodyExt, Full};
use hyper_rustls::HttpsConnector;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::client::legacy::Client;
use hyper_util::rt::{TokioExecutor, TokioTimer};

use crate::error::{Error, ErrorKind};

/// The pooled client.
pub(super) type Pool = Client<HttpsConnector<HttpConnector>, Full<Bytes>>;

/// A pool connecting with this timeout; the message says why it cannot be built.
pub(super) fn pool(connect_timeout: Duration) -> Result<Pool, String> {
    let provider = rustls::crypto::CryptoProvider::get_default()
        .cloned()
        .unwrap_or_else(|| std::sync::Arc::new(rustls::crypto::ring::default_provider()));
    let roots = rustls::RootCertStore {
        roots: webpki_roots::TLS_SERVER_ROOTS.to_vec(),
    };
    // No ALPN: HTTP/1.1 is what a server assumes without it (hyper-rustls refuses a
    // configuration that names protocols before it does).
    let tls = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| format!("no TLS version this crypto provider supports: {e}"))?
        .with_root_certificates(roots)
        .with_no_client_auth();
    let mut http = HttpConnector::new();
    http.enforce_http(false);
    http.set_nodelay(true);
    http.set_connect_timeout(Some(connect_timeout));
    http.set_keepalive(Some(Duration::from_secs(15)));
    let https = hyper_rustls::HttpsConnectorBuilder::new()
        .with_tls_config(tls)
        .https_or_http()
        .enable_http1()
        .wrap_connector(http);
    Ok(Client::builder(TokioExecutor::new())
        .pool_idle_timeout(Duration::from_secs(90))
        .pool_timer(TokioTimer::new())
        .timer(TokioTimer::new())
        .build(https))
}

const USER_AGENT_TEXT: &str = concat!("baas-runtime/", env!("CARGO_PKG_VERSION"));

/// Posts `body` to `uri` and reads the whole answer within `timeout`: its status and
/// body, at most `limit` bytes.
pub(super) async fn post(
    pool: &Pool,
    uri: http::Uri,
    body: Vec<u8>,
    timeout: Duration,
    limit: usize,
) -> Result<(u16, Vec<u8>), Error> {
    match tokio::time::timeout(timeout, exchange(pool, uri, body, limit)).await {
        Ok(result) => result,
        // The connect timeout is shorter (a connection that never opened is an error
        // of its own, "not sent"): past this one the bytes may have left.
        Err(_) => Err(Error::timeout(timeout, true)),
    }
}

async fn exchange(
    pool: &Pool,
    uri: http::Uri,
    body: Vec<u8>,
    limit: usize,
) -> Result<(u16, Vec<u8>), Error> {
    let mut request = http::Request::new(Full::new(Bytes::from(body)));
    *request.method_mut() = http::Method::POST;
    *request.uri_mut() = uri;
    let headers = request.headers_mut();
    headers.reserve(3);
    headers.insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
    headers.insert(USER_AGENT, HeaderValue::from_static(USER_AGENT_TEXT));
    headers.insert(ACCEPT, HeaderValue::from_static("*/*"));
    let response = pool.request(request).await.map_err(|e| {
        let never_left = e.is_connect();
        let what = if never_left {
            "could not connect"
        } else {
            "the request failed"
        };
        failed(what, !never_left, e)
    })?;
    let status = response.status().as_u16();
    let announced = response
        .headers()
        .get(CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if announced.is_some_and(|n| n > limit as u64) {
        return Err(ErrorKind::ResponseTooLarge { limit }.into());
    }
    // The announced length (within the limit) is reserved once; the body is still
    // counted as it comes, whatever was announced.
    let reserve = announced.and_then(|n| usize::try_from(n).ok()).unwrap_or(0);
    let mut out = Vec::with_capacity(reserve);
    let mut incoming = response.into_body();
    while let Some(frame) = incoming.frame().await {
        let frame = frame.map_err(|e| failed("reading the response body failed", true, e))?;
        if let Ok(data) = frame.into_data() {
            if out.len() + data.len() > limit {
                return Err(ErrorKind::ResponseTooLarge { limit }.into());
            }
            out.extend_from_slice(&data);
        }
    }
    Ok((status, out))
}

/// A transport error saying `what` failed, with the chain of causes in its message.
fn failed(
    what: &str,
    may_have_reached: bool,
    e: impl std::error::Error + Send + Sync + 'static,
) -> Error {
    let mut message = format!("{what}: {e}");
    let mut cause = e.source();
    while let Some(c) = cause {
        message.push_str(": ");
        message.push_str(&c.to_string());
        cause = c.source();
    }
    Error::transport(message, may_have_reached, Some(Box::new(e)))
}
