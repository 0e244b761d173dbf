//! Client configuration.

use std::time::Duration;

use crate::error::{Error, ErrorKind};
use crate::secret::PrivateKey;

/// Default locale (`<language>_<COUNTRY>`, signed exactly as written).
pub const DEFAULT_LOCALE: &str = "en_KE";
/// Default time to establish a connection.
pub const DEFAULT_CONNECT_TIMEOUT: Duration = Duration::from_secs(10);
/// Default time for a whole call (sending the request and reading the response).
pub const DEFAULT_REQUEST_TIMEOUT: Duration = Duration::from_secs(30);
/// Default limit of a response body.
pub const DEFAULT_MAX_RESPONSE_BYTES: usize = 8 * 1024 * 1024;
/// Default number of automatic retries of a retryable failure.
pub const DEFAULT_MAX_RETRIES: u32 = 2;
/// Default wait before the first retry (doubled for each further one).
pub const DEFAULT_RETRY_BACKOFF: Duration = Duration::from_millis(200);

/// Everything a [`crate::Client`] needs. `Debug` never shows the private key.
///
/// ```
/// use baas_runtime::{Config, PrivateKey};
/// let mut config = Config::new("https://sandbox.example", "client1", PrivateKey::new("key"));
/// config.locale = "en_KE".to_owned();
/// assert!(!format!("{config:?}").contains("\"key\""));
/// ```
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Config {
    /// Base URL, e.g. `https://api.example.com` (operation paths are appended).
    pub base_url: String,
    /// The partner's sender name.
    pub sender: String,
    /// The partner's private key.
    pub private_key: PrivateKey,
    /// Locale sent in every envelope and signed as written (default `en_KE`).
    pub locale: String,
    /// Time to establish a connection (default 10 s).
    pub connect_timeout: Duration,
    /// Time for a whole call (default 30 s).
    pub request_timeout: Duration,
    /// Largest response body accepted (default 8 MiB).
    pub max_response_bytes: usize,
    /// Automatic retries of a retryable failure (default 2). A call that moves money is
    /// retried only when its bytes provably never left.
    pub max_retries: u32,
    /// Wait before the first retry, doubled for each next one (default 200 ms).
    pub retry_backoff: Duration,
    /// Accept a success response (`code` `00000`) that carries no signature. Off by
    /// default: such a response is refused with [`ErrorKind::SignatureMissing`]. Turn on
    /// only if the service is known to omit signatures; the data is then not
    /// authenticated.
    pub accept_unsigned_success: bool,
    /// Allow a plain `http://` base URL to a host other than loopback. Off by default:
    /// signing authenticates a message but does not hide it, so customer data and
    /// account numbers would cross the network in clear text. `http://` to `localhost`,
    /// `127.x.x.x` or `[::1]` (a local sandbox) is always allowed.
    pub allow_insecure_http: bool,
    /// Record each call's parameters (as JSON) in its `tracing` span. Off by default:
    /// parameters carry account numbers and names. The private key is never recorded.
    pub trace_params: bool,
}

impl Config {
    /// A configuration with the default locale, timeouts and limits.
    pub fn new(
        base_url: impl Into<String>,
        sender: impl Into<String>,
        private_key: PrivateKey,
    ) -> Config {
        Config {
            base_url: base_url.into(),
            sender: sender.into(),
            private_key,
            locale: DEFAULT_LOCALE.to_owned(),
            connect_timeout: DEFAULT_CONNECT_TIMEOUT,
            request_timeout: DEFAULT_REQUEST_TIMEOUT,
            max_response_bytes: DEFAULT_MAX_RESPONSE_BYTES,
            max_retries: DEFAULT_MAX_RETRIES,
            retry_backoff: DEFAULT_RETRY_BACKOFF,
            accept_unsigned_success: false,
            allow_insecure_http: false,
            trace_params: false,
        }
    }

    /// Checks every setting; the error names the first unusable one.
    pub fn check(&self) -> Result<(), Error> {
        let bad = |field, message: &str| {
            Err(ErrorKind::Config {
                field,
                message: message.to_owned(),
            }
            .into())
        };
        let url = self.base_url.as_str();
        let rest = url
            .strip_prefix("https://")
            .or_else(|| url.strip_prefix("http://"));
        match rest {
            None => return bad("base_url", "must start with https:// or http://"),
            Some("") => return bad("base_url", "has no host"),
            Some(_) if url.chars().any(|c| c.is_whitespace() || c.is_control()) => {
                return bad("base_url", "must not contain whitespace")
            }
            Some(rest) => {
                if url.starts_with("http://") && !self.allow_insecure_http && !is_loopback(rest) {
                    return bad(
                        "base_url",
                        "plain http:// is allowed only to loopback (a local sandbox); use https:// \
                         (or set allow_insecure_http)",
                    );
                }
            }
        }
        if self.sender.trim().is_empty() {
            return bad("sender", "must not be empty");
        }
        if self.private_key.is_empty() {
            return bad("private_key", "must not be empty");
        }
        let valid_locale = self.locale.split_once('_').is_some_and(|(l, c)| {
            !l.is_empty()
                && !c.is_empty()
                && (l.chars().chain(c.chars())).all(|ch| ch.is_ascii_alphabetic())
        });
        if !valid_locale {
            return bad(
                "locale",
                "must have the form <language>_<COUNTRY>, e.g. en_KE",
            );
        }
        if self.connect_timeout.is_zero() {
            return bad("connect_timeout", "must be greater than zero");
        }
        if self.request_timeout.is_zero() {
            return bad("request_timeout", "must be greater than zero");
        }
        if self.max_response_bytes == 0 {
            return bad("max_response_bytes", "must be greater than zero");
        }
        Ok(())
    }

    /// The URL of an operation path (`/trans/...`).
    pub fn url(&self, path: &str) -> String {
        // Pieces pushed, not `format!`: this runs once per call.
        let base = self.base_url.trim_end_matches('/');
        let mut url = String::with_capacity(base.len() + 1 + path.len());
        url.push_str(base);
        if !path.starts_with('/') {
            url.push('/');
        }
        url.push_str(path);
        url
    }
}

/// Whether the authority part of a URL (after the scheme) names a loopback host.
fn is_loopback(after_scheme: &str) -> bool {
    let authority = after_scheme
        .split(['/', '?', '#'])
        .next()
        .unwrap_or_default();
    // No credentials in the URL: `http://127.0.0.1@evil.example` is not loopback.
    if authority.contains('@') {
        return false;
    }
    if let Some(port) = authority.strip_prefix("[::1]") {
        return port.is_empty() || port.starts_with(':');
    }
    let host = authority.split(':').next().unwrap_or_default();
    if host.eq_ignore_ascii_case("localhost") {
        return true;
    }
    let octets: Vec<&str> = host.split('.').collect();
    octets.len() == 4
        && octets.first() == Some(&"127")
        && octets
            .iter()
            .all(|o| o.len() <= 3 && o.parse::<u8>().is_ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checks_and_redacts() {
        let ok = Config::new(
            "https://x.example/",
            "client1",
            PrivateKey::new("s3cr3t-key"),
        );
        assert!(ok.check().is_ok());
        assert_eq!(ok.url("/a/b"), "https://x.example/a/b");
        let shown = format!("{ok:?}");
        assert!(!shown.contains("s3cr3t"), "{shown}");
        assert!(shown.contains("[redacted]"));
        let field = |c: Config| match c.check().map_err(Error::into_kind) {
            Err(ErrorKind::Config { field, .. }) => field,
            other => panic!("{other:?}"),
        };
        assert_eq!(
            field(Config::new("ftp://x", "a", PrivateKey::new("k"))),
            "base_url"
        );
        assert_eq!(
            field(Config::new("https://", "a", PrivateKey::new("k"))),
            "base_url"
        );
        assert_eq!(
            field(Config::new("https://x", " ", PrivateKey::new("k"))),
            "sender"
        );
        assert_eq!(
            field(Config::new("https://x", "a", PrivateKey::new(""))),
            "private_key"
        );
        let mut c = Config::new("https://x", "a", PrivateKey::new("k"));
        c.locale = "en-KE".into();
        assert_eq!(field(c), "locale");
        let mut c = Config::new("https://x", "a", PrivateKey::new("k"));
        c.request_timeout = Duration::ZERO;
        assert_eq!(field(c), "request_timeout");
    }

    #[test]
    fn plain_http_only_to_loopback() {
        let check = |url: &str| Config::new(url, "a", PrivateKey::new("k")).check().is_ok();
        for ok in [
            "http://127.0.0.1:8080",
            "http://127.1.2.3/base",
            "http://localhost",
            "http://LOCALHOST:9/",
            "http://[::1]:4000",
            "https://api.example",
        ] {
            assert!(check(ok), "{ok} refused");
        }
        for refused in [
            "http://api.example",
            "http://10.0.0.1:8080",
            "http://127.0.0.1.evil.example",
            "http://127.0.0.1@evil.example",
            "http://localhost.evil.example",
            "http://[::1].evil.example",
            "http://1270.0.0.1",
        ] {
            assert!(!check(refused), "{refused} accepted");
        }
        let mut c = Config::new("http://api.example", "a", PrivateKey::new("k"));
        c.allow_insecure_http = true;
        assert!(c.check().is_ok());
    }
}
