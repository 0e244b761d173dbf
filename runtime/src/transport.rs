//! The HTTP seam: a [`Transport`] trait and the default HTTPS implementation.
//!
//! No HTTP library type appears in this API: a transport receives an [`HttpRequest`]
//! (URL, JSON body, time limit, body size limit) and returns an [`HttpResponse`]
//! (status and body bytes) or an [`Error`] saying whether the request may have
//! reached the service.

use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, RwLock};
use std::time::Duration;

use crate::error::{Error, ErrorKind};

mod direct;

/// A boxed `Send` future, the return type of [`Transport::post_json`].
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// One JSON POST.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct HttpRequest {
    /// Full URL.
    pub url: String,
    /// The exact bytes to send, content type `application/json`.
    pub body: Vec<u8>,
    /// Time limit for the whole exchange.
    pub timeout: Duration,
    /// Largest response body to accept; beyond it answer [`ErrorKind::ResponseTooLarge`].
    pub max_response_bytes: usize,
}

impl HttpRequest {
    /// A request (for custom transports' tests).
    pub fn new(
        url: impl Into<String>,
        body: Vec<u8>,
        timeout: Duration,
        max_response_bytes: usize,
    ) -> HttpRequest {
        HttpRequest {
            url: url.into(),
            body,
            timeout,
            max_response_bytes,
        }
    }
}

/// What came back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HttpResponse {
    /// HTTP status code.
    pub status: u16,
    /// The body, at most the request's `max_response_bytes`.
    pub body: Vec<u8>,
}

/// Sends JSON POST requests. Implementations report failures as
/// [`ErrorKind::Transport`], [`ErrorKind::Timeout`] or [`ErrorKind::ResponseTooLarge`], and must say
/// truthfully whether the request may have reached the service: the client re-sends a
/// call that moves money only when it provably did not.
pub trait Transport: Send + Sync {
    /// Posts `request.body` to `request.url` and reads the whole response body.
    fn post_json(&self, request: HttpRequest) -> BoxFuture<'_, Result<HttpResponse, Error>>;

    /// True when the transport itself ends every exchange at `request.timeout`
    /// (connecting, sending and reading the whole body) with an
    /// [`ErrorKind::Timeout`] that says whether the request may have reached the
    /// service, as [`HttpsTransport`] does: the client then sets no timer of its own
    /// (one timer per call, not two). False by default: the client bounds the call
    /// itself.
    fn enforces_timeout(&self) -> bool {
        false
    }
}

/// The `reqwest` this runtime is built on (0.12), to build a client for
/// [`HttpsTransport::from_client`] without depending on `reqwest` yourself:
/// `baas_client::transport::reqwest::Client::builder()`. A `reqwest` of another major
/// version in your `Cargo.toml` is another crate, whose `Client` this does not take.
pub use reqwest;

/// The default transport: HTTPS (rustls, webpki roots), redirects off, and no proxy
/// from the environment.
///
/// `HTTP_PROXY`, `HTTPS_PROXY` and `ALL_PROXY` are ignored unless asked for
/// ([`HttpsTransport::with_env_proxy`]): a variable set for other programs would
/// otherwise route signed bodies, in clear when the URL is plain-http loopback (a
/// sandbox), through a proxy the caller never chose.
///
/// [`HttpsTransport::new`] posts on hyper-util's pooled client directly (the pool,
/// connector and TLS stack reqwest uses, without reqwest's per-request layers: issue
/// 36); [`HttpsTransport::with_env_proxy`] and [`HttpsTransport::from_client`] post
/// through reqwest.
#[derive(Clone)]
pub struct HttpsTransport {
    http: Http,
}

#[derive(Clone)]
enum Http {
    Direct {
        pool: direct::Pool,
        /// The URLs posted to, parsed once each (see [`cached`]).
        uris: Parsed<http::Uri>,
    },
    Reqwest {
        client: reqwest::Client,
        /// The URLs posted to, parsed once each (see [`cached`]).
        urls: Parsed<reqwest::Url>,
    },
}

/// URLs kept parsed, by their text.
type Parsed<T> = Arc<RwLock<Vec<(String, T)>>>;

impl std::fmt::Debug for HttpsTransport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut out = f.debug_struct("HttpsTransport");
        match &self.http {
            Http::Direct { .. } => out.field("client", &"hyper-util pool"),
            Http::Reqwest { client, .. } => out.field("client", client),
        };
        out.finish_non_exhaustive()
    }
}

/// URLs kept parsed (a client posts to one URL per operation of the API).
const PARSED_URLS: usize = 128;

/// `url` parsed by `parse`, from `cache` when it was parsed before (up to
/// [`PARSED_URLS`] kept): parsing a URL (host, IDNA, percent-encoding) costs more than
/// the rest of what a call does on this side of the socket but the signature.
fn cached<T: Clone, E>(
    cache: &Parsed<T>,
    url: String,
    parse: impl FnOnce(&str) -> Result<T, E>,
) -> Result<T, (String, E)> {
    if let Ok(urls) = cache.read() {
        if let Some((_, parsed)) = urls.iter().find(|(text, _)| *text == url) {
            return Ok(parsed.clone());
        }
    }
    let parsed = match parse(&url) {
        Ok(parsed) => parsed,
        Err(e) => return Err((url, e)),
    };
    if let Ok(mut urls) = cache.write() {
        if urls.len() < PARSED_URLS && !urls.iter().any(|(text, _)| *text == url) {
            urls.push((url, parsed.clone()));
        }
    }
    Ok(parsed)
}

/// A URL as reqwest reads it (normalized: IDNA, percent-encoding, default port), as
/// an `http::Uri`.
fn uri_of(text: &str) -> Result<http::Uri, String> {
    let url = reqwest::Url::parse(text).map_err(|e| e.to_string())?;
    http::Uri::try_from(url.as_str()).map_err(|e| e.to_string())
}

impl HttpsTransport {
    /// A transport with this connect timeout, connecting directly (no proxy).
    pub fn new(connect_timeout: Duration) -> Result<HttpsTransport, Error> {
        let pool = direct::pool(connect_timeout).map_err(|message| ErrorKind::Config {
            field: "transport",
            message: format!("cannot build the HTTP client: {message}"),
        })?;
        Ok(HttpsTransport {
            http: Http::Direct {
                pool,
                uris: Arc::default(),
            },
        })
    }

    /// A transport that uses the proxy the environment names (`HTTPS_PROXY`,
    /// `HTTP_PROXY`, `ALL_PROXY`, `NO_PROXY`), for networks where the service is only
    /// reachable through one (through reqwest, which reads them).
    pub fn with_env_proxy(connect_timeout: Duration) -> Result<HttpsTransport, Error> {
        let client = reqwest::Client::builder()
            .connect_timeout(connect_timeout)
            .redirect(reqwest::redirect::Policy::none())
            .user_agent(concat!("baas-runtime/", env!("CARGO_PKG_VERSION")))
            .build()
            .map_err(|e| ErrorKind::Config {
                field: "transport",
                message: format!("cannot build the HTTP client: {e}"),
            })?;
        Ok(HttpsTransport::from_client(client))
    }

    /// A transport on a `reqwest::Client` built by the caller: a proxy, extra root
    /// certificates, a client certificate, a custom user agent. Build it with
    /// `.redirect(reqwest::redirect::Policy::none())`: a followed redirect could send a
    /// signed request twice. Failures are classified as with [`HttpsTransport::new`]: a
    /// connection that never opened (to the proxy too) is "not sent", anything after it
    /// "may have reached the service"; a proxy's own error page (502, 503, 504) is not a
    /// signed answer and counts as "may have reached".
    ///
    /// The client must be a **reqwest 0.12** `Client`: build it with the re-exported
    /// [`reqwest`](mod@reqwest) (`transport::reqwest`), which is always the version this takes,
    /// or with `reqwest = "0.12"` in your own `Cargo.toml` (another major version is a
    /// different type: "expected `reqwest::Client`, found `reqwest::Client`", E0308).
    ///
    /// ```
    /// use std::time::Duration;
    /// use baas_runtime::transport::{reqwest, HttpsTransport};
    ///
    /// let client = reqwest::Client::builder()
    ///     .redirect(reqwest::redirect::Policy::none())
    ///     .connect_timeout(Duration::from_secs(5))
    ///     .build()?;
    /// let transport = HttpsTransport::from_client(client);
    /// # drop(transport);
    /// # Ok::<(), reqwest::Error>(())
    /// ```
    pub fn from_client(client: reqwest::Client) -> HttpsTransport {
        HttpsTransport {
            http: Http::Reqwest {
                client,
                urls: Arc::default(),
            },
        }
    }
}

fn map_reqwest(e: reqwest::Error, timeout: Duration, reading_body: bool) -> Error {
    let never_left = !reading_body && e.is_connect();
    if e.is_timeout() {
        return Error::timeout(timeout, !never_left);
    }
    let what = if reading_body {
        "reading the response body failed"
    } else if e.is_connect() {
        "could not connect"
    } else {
        "the request failed"
    };
    Error::transport(format!("{what}: {e}"), !never_left, Some(Box::new(e)))
}

impl Transport for HttpsTransport {
    /// reqwest's timeout of each request covers the whole exchange, body included.
    fn enforces_timeout(&self) -> bool {
        true
    }

    fn post_json(&self, request: HttpRequest) -> BoxFuture<'_, Result<HttpResponse, Error>> {
        Box::pin(async move {
            let HttpRequest {
                url,
                body,
                timeout,
                max_response_bytes,
            } = request;
            let (client, urls) = match &self.http {
                Http::Direct { pool, uris } => {
                    let uri = cached(uris, url, uri_of).map_err(|(url, e)| {
                        // Nothing was sent: there is nowhere to send it.
                        Error::transport(format!("the URL {url:?} is not usable: {e}"), false, None)
                    })?;
                    let (status, body) =
                        direct::post(pool, uri, body, timeout, max_response_bytes).await?;
                    return Ok(HttpResponse { status, body });
                }
                Http::Reqwest { client, urls } => (client, urls),
            };
            // Text that does not parse is handed to reqwest as it is, which reports it.
            let builder = match cached(urls, url, reqwest::Url::parse) {
                Ok(url) => client.post(url),
                Err((text, _)) => client.post(text),
            };
            let mut response = builder
                .header(reqwest::header::CONTENT_TYPE, "application/json")
                .timeout(timeout)
                .body(body)
                .send()
                .await
                .map_err(|e| map_reqwest(e, timeout, false))?;
            let status = response.status().as_u16();
            let limit = max_response_bytes;
            let announced = response.content_length();
            if announced.is_some_and(|n| n > limit as u64) {
                return Err(ErrorKind::ResponseTooLarge { limit }.into());
            }
            // The announced length (within the limit) is reserved once; the body is
            // still counted as it comes, whatever was announced.
            let reserve = announced.and_then(|n| usize::try_from(n).ok()).unwrap_or(0);
            let mut body = Vec::with_capacity(reserve);
            while let Some(chunk) = response
                .chunk()
                .await
                .map_err(|e| map_reqwest(e, timeout, true))?
            {
                if body.len() + chunk.len() > limit {
                    return Err(ErrorKind::ResponseTooLarge { limit }.into());
                }
                body.extend_from_slice(&chunk);
            }
            Ok(HttpResponse { status, body })
        })
    }
}
