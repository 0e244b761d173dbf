//! Client configuration.

use std::time::Duration;

use crate::error::Error;
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
    /// default: such a response is refused with [`Error::SignatureMissing`]. Turn on
    /// only if the service is known to omit signatures; the data is then not
    /// authenticated.
    pub accept_unsigned_success: bool,
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
        }
    }

    /// Checks every setting; the error names the first unusable one.
    pub fn check(&self) -> Result<(), Error> {
        let bad = |field, message: &str| {
            Err(Error::Config {
                field,
                message: message.to_owned(),
            })
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
            Some(_) => {}
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
        let base = self.base_url.trim_end_matches('/');
        if path.starts_with('/') {
            format!("{base}{path}")
        } else {
            format!("{base}/{path}")
        }
    }
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
        let field = |c: Config| match c.check() {
            Err(Error::Config { field, .. }) => field,
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
}
