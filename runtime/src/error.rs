//! The one error type of the runtime.

use std::fmt;
use std::time::Duration;

use crate::validate::ValidationErrors;

/// A boxed error kept as the source of an [`Error`].
pub type BoxError = Box<dyn std::error::Error + Send + Sync + 'static>;

/// Result code of a successful call.
pub const SUCCESS_CODE: &str = "00000";

/// Longest body excerpt kept in [`Error::Decode`], in bytes.
pub const SNIPPET_MAX_BYTES: usize = 256;

/// Everything that can go wrong with a call. Never contains the private key.
#[derive(Debug)]
#[non_exhaustive]
pub enum Error {
    /// The request breaks rules of the specification; nothing was signed or sent.
    InvalidRequest(ValidationErrors),
    /// The configuration cannot be used (`field` names the setting).
    Config {
        /// Name of the setting.
        field: &'static str,
        /// What is wrong with it.
        message: String,
    },
    /// The request could not be serialized or signed; nothing was sent.
    Encode {
        /// What failed.
        message: String,
        /// Underlying error.
        source: Option<BoxError>,
    },
    /// The HTTP exchange failed.
    Transport {
        /// What failed.
        message: String,
        /// False only when the request bytes provably never left (e.g. connection
        /// refused); true means the service may have received and executed it.
        may_have_reached_service: bool,
        /// Underlying error.
        source: Option<BoxError>,
    },
    /// No complete response within the configured time.
    Timeout {
        /// The time limit.
        after: Duration,
        /// True unless the connection was never established.
        may_have_reached_service: bool,
    },
    /// The response body exceeds the configured size limit.
    ResponseTooLarge {
        /// The limit in bytes.
        limit: usize,
    },
    /// The service answered with a result code other than `00000`.
    Api {
        /// Result code, e.g. `12005`.
        code: String,
        /// Result text.
        msg: String,
        /// The echoed requestId, when the response carries one.
        request_id: Option<String>,
        /// False when the response was unsigned (the document allows failure responses
        /// with only code and msg) or its signature did not verify: its content is not
        /// authenticated. A `12005` that is not verified usually means the configured
        /// private key is wrong (check it with `baas-sign`).
        verified: bool,
        /// Whether the spec marks this code retryable (set by [`crate::Client`] from the
        /// codes it was given, see [`crate::Client::with_retryable_codes`]; the runtime
        /// keeps no list of its own).
        retryable: bool,
    },
    /// A status query did not report a final state before the deadline (see
    /// [`crate::Client::wait_until`]). The operation it follows may still complete.
    WaitDeadline {
        /// Spec name of the status query.
        operation: &'static str,
        /// The last state it reported, if any.
        last_state: Option<String>,
        /// How long it waited.
        after: Duration,
    },
    /// A call that may move money failed after its bytes may have reached the service
    /// (a timeout, a broken connection, an unreadable answer): the application may or
    /// may not exist now. Never retryable as such: look it up first (its requestId, or
    /// the operation's query call), then decide. `source` is the failure itself.
    OutcomeUnknown {
        /// Spec name of the operation (`confirmOperation`).
        operation: &'static str,
        /// The requestId of the last attempt (what the service would have seen).
        request_id: String,
        /// How many attempts were sent (1 when the call was not re-sent).
        attempts: u32,
        /// What went wrong.
        source: Box<Error>,
    },
    /// The response, or a notification given to [`crate::notification::verify`], carries
    /// no signature (and unsigned successes are not accepted, see
    /// [`crate::Config::accept_unsigned_success`]).
    SignatureMissing,
    /// The signature of the response, or of a notification given to
    /// [`crate::notification::verify`], does not match its body: usually a private key
    /// that differs from the service's, or a body changed on the way.
    SignatureInvalid,
    /// The response (or a JSON value) could not be decoded.
    Decode {
        /// HTTP status of the response, when there was one.
        status: Option<u16>,
        /// What failed.
        message: String,
        /// The first bytes of the body (at most [`SNIPPET_MAX_BYTES`]), lossy UTF-8.
        snippet: String,
        /// Underlying error.
        source: Option<BoxError>,
    },
    /// The response's requestId does not echo the request's.
    RequestIdMismatch {
        /// The requestId that was sent.
        expected: String,
        /// The requestId received (none when absent).
        received: Option<String>,
    },
    /// The operating system's random generator failed (salt or requestId).
    Random {
        /// What failed.
        message: String,
    },
}

impl Error {
    /// A transport failure (for [`crate::Transport`] implementations).
    pub fn transport(
        message: impl Into<String>,
        may_have_reached_service: bool,
        source: Option<BoxError>,
    ) -> Error {
        Error::Transport {
            message: message.into(),
            may_have_reached_service,
            source,
        }
    }

    /// A timeout (for [`crate::Transport`] implementations).
    pub fn timeout(after: Duration, may_have_reached_service: bool) -> Error {
        Error::Timeout {
            after,
            may_have_reached_service,
        }
    }

    /// A decode failure with a bounded snippet of `body`.
    pub fn decode(
        status: Option<u16>,
        message: impl Into<String>,
        body: &[u8],
        source: Option<BoxError>,
    ) -> Error {
        Error::Decode {
            status,
            message: message.into(),
            snippet: snippet(body),
            source,
        }
    }

    /// True when trying again may succeed: transport failures and timeouts of calls
    /// that move no money, result codes the spec marks retryable, and gateway statuses
    /// 502/503/504. Never for [`Error::OutcomeUnknown`]: a call that may move money and
    /// may have reached the service is looked up, not repeated.
    pub fn is_retryable(&self) -> bool {
        match self {
            Error::Transport { .. } | Error::Timeout { .. } => true,
            Error::Api { retryable, .. } => *retryable,
            Error::OutcomeUnknown { .. } => false,
            Error::Decode {
                status: Some(502..=504),
                ..
            } => true,
            _ => false,
        }
    }

    /// False only when the request bytes provably never reached the service.
    pub fn may_have_reached_service(&self) -> bool {
        match self {
            Error::InvalidRequest(_)
            | Error::Config { .. }
            | Error::Encode { .. }
            | Error::Random { .. } => false,
            Error::Transport {
                may_have_reached_service,
                ..
            }
            | Error::Timeout {
                may_have_reached_service,
                ..
            } => *may_have_reached_service,
            _ => true,
        }
    }

    /// The API result code, for [`Error::Api`].
    pub fn api_code(&self) -> Option<&str> {
        match self {
            Error::Api { code, .. } => Some(code),
            _ => None,
        }
    }

    /// What is known of the call's effect.
    pub fn outcome(&self) -> Outcome {
        match self {
            Error::Api { .. } => Outcome::Refused,
            Error::OutcomeUnknown { .. } => Outcome::Unknown,
            e if e.may_have_reached_service() => Outcome::Unknown,
            _ => Outcome::NotSent,
        }
    }
}

/// What is known of a failed call's effect (see [`Error::outcome`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Outcome {
    /// Nothing was sent (invalid request, configuration, encoding, or the connection
    /// provably never opened): safe to fix and send again.
    NotSent,
    /// The service answered with a result code other than success ([`Error::Api`]; see
    /// its `verified`).
    Refused,
    /// The bytes may have reached the service and no verified answer came back: the
    /// call may have taken effect.
    Unknown,
}

/// At most [`SNIPPET_MAX_BYTES`] bytes of text from the start of a body (invalid UTF-8
/// shown as U+FFFD), cut at a character boundary, with `…` when something was cut.
pub(crate) fn snippet(body: &[u8]) -> String {
    let mut head = body
        .get(..body.len().min(SNIPPET_MAX_BYTES))
        .unwrap_or_default();
    if head.len() < body.len() {
        // A character split by the cut is left out rather than shown as U+FFFD.
        for k in 1..=head.len().min(3) {
            let split = head.len() - k;
            let tail = head.get(split..).unwrap_or_default();
            if matches!(std::str::from_utf8(tail), Err(e) if e.valid_up_to() == 0 && e.error_len().is_none())
            {
                head = head.get(..split).unwrap_or_default();
                break;
            }
        }
    }
    // Lossy decoding widens each invalid byte to three bytes: bound the text again.
    let mut text = String::from_utf8_lossy(head).into_owned();
    let mut end = text.len().min(SNIPPET_MAX_BYTES);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let cut = end < text.len() || head.len() < body.len();
    text.truncate(end);
    if cut {
        text.push('…');
    }
    text
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::InvalidRequest(e) => write!(f, "invalid request: {e}"),
            Error::Config { field, message } => {
                write!(f, "invalid configuration `{field}`: {message}")
            }
            Error::Encode { message, .. } => write!(f, "cannot encode the request: {message}"),
            Error::Transport {
                message,
                may_have_reached_service,
                ..
            } => {
                let reached = if *may_have_reached_service {
                    "the request may have reached the service"
                } else {
                    "the request did not leave"
                };
                write!(f, "transport error: {message} ({reached})")
            }
            Error::Timeout {
                after,
                may_have_reached_service,
            } => {
                let reached = if *may_have_reached_service {
                    "the request may have reached the service"
                } else {
                    "no connection was made"
                };
                write!(f, "no response within {} ms ({reached})", after.as_millis())
            }
            Error::ResponseTooLarge { limit } => {
                write!(f, "response body larger than the limit of {limit} bytes")
            }
            Error::Api {
                code,
                msg,
                request_id,
                verified,
                ..
            } => {
                write!(f, "API error {code}: {msg}")?;
                if let Some(id) = request_id {
                    write!(f, " (requestId {id})")?;
                }
                if !verified {
                    f.write_str(" [response not verified: unsigned or signature mismatch]")?;
                    if code == "12005" {
                        f.write_str("; check the private key and the signed text with baas-sign")?;
                    }
                }
                Ok(())
            }
            Error::SignatureMissing => f.write_str(
                "the received response or notification carries no signature, so it is refused \
                 (a success response without one is accepted only with \
                 Config::accept_unsigned_success)",
            ),
            Error::SignatureInvalid => f.write_str(
                "the signature of the received response or notification does not verify: \
                 check that the configured private key is the one the service signs with, \
                 and compare the received body with `baas-sign --verify`",
            ),
            Error::Decode {
                status,
                message,
                snippet,
                ..
            } => {
                f.write_str("cannot decode the response")?;
                if let Some(s) = status {
                    write!(f, " (HTTP {s})")?;
                }
                write!(f, ": {message}; body starts {snippet:?}")
            }
            Error::RequestIdMismatch { expected, received } => match received {
                Some(r) => write!(f, "response requestId `{r}` does not echo `{expected}`"),
                None => write!(f, "response has no requestId (expected `{expected}`)"),
            },
            Error::Random { message } => write!(f, "random generator failed: {message}"),
            Error::WaitDeadline {
                operation,
                last_state,
                after,
            } => write!(
                f,
                "{operation} reported no final state within {} s (last state: {})",
                after.as_secs(),
                last_state.as_deref().unwrap_or("none")
            ),
            Error::OutcomeUnknown {
                operation,
                request_id,
                attempts,
                source,
            } => write!(
                f,
                "{operation} (requestId {request_id}, {attempts} attempt(s)) may have taken effect: {source}; \
                 look the application up before sending it again"
            ),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::InvalidRequest(e) => Some(e),
            Error::Encode { source, .. }
            | Error::Transport { source, .. }
            | Error::Decode { source, .. } => source
                .as_ref()
                .map(|s| &**s as &(dyn std::error::Error + 'static)),
            Error::OutcomeUnknown { source, .. } => Some(&**source),
            _ => None,
        }
    }
}

impl From<ValidationErrors> for Error {
    fn from(e: ValidationErrors) -> Error {
        Error::InvalidRequest(e)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signature_errors_say_what_to_check() {
        // Also returned by notification::verify: the text must not claim a response.
        let missing = Error::SignatureMissing.to_string();
        assert!(missing.contains("response or notification"), "{missing}");
        assert!(missing.contains("accept_unsigned_success"), "{missing}");
        let invalid = Error::SignatureInvalid.to_string();
        assert!(invalid.contains("response or notification"), "{invalid}");
        assert!(invalid.contains("private key"), "{invalid}");
        assert!(invalid.contains("baas-sign --verify"), "{invalid}");
    }

    #[test]
    fn snippet_is_bounded_and_char_safe() {
        let long = "é".repeat(400);
        let s = snippet(long.as_bytes());
        assert!(s.len() <= SNIPPET_MAX_BYTES + "…".len());
        assert!(s.ends_with('…'));
        assert_eq!(snippet(b"<html>"), "<html>");
        assert_eq!(snippet(b"\xff\xfe"), "\u{fffd}\u{fffd}");
        // Invalid bytes widen to three-byte replacement characters; the bound holds.
        let garbage = [0xffu8; 300];
        let s = snippet(&garbage);
        assert!(
            s.len() <= SNIPPET_MAX_BYTES + "…".len(),
            "{} bytes",
            s.len()
        );
        assert!(s.starts_with('\u{fffd}') && s.ends_with('…'));
        let mixed: Vec<u8> = b"ok \xff".iter().copied().cycle().take(1000).collect();
        assert!(snippet(&mixed).len() <= SNIPPET_MAX_BYTES + "…".len());
        // A character split by the cut is left out, not shown as U+FFFD.
        let mut split = vec![b'a'; SNIPPET_MAX_BYTES - 1];
        split.extend_from_slice("é and more".as_bytes());
        assert_eq!(
            snippet(&split),
            format!("{}…", "a".repeat(SNIPPET_MAX_BYTES - 1))
        );
    }

    #[test]
    fn retry_and_reach() {
        assert!(Error::transport("refused", false, None).is_retryable());
        assert!(!Error::transport("refused", false, None).may_have_reached_service());
        assert!(Error::timeout(Duration::from_secs(1), true).may_have_reached_service());
        // Whether a code is retryable is the spec's word, carried by the error.
        let api = |code: &str, retryable: bool| Error::Api {
            code: code.into(),
            msg: String::new(),
            request_id: None,
            verified: true,
            retryable,
        };
        assert!(api("10001", true).is_retryable());
        assert!(!api("10001", false).is_retryable());
        assert!(!api("12005", false).is_retryable());
        assert!(api("10001", true).may_have_reached_service());
        assert_eq!(api("12005", false).outcome(), Outcome::Refused);
        let unknown = Error::OutcomeUnknown {
            operation: "confirmOperation",
            request_id: "client1abc".into(),
            attempts: 1,
            source: Box::new(Error::timeout(Duration::from_secs(1), true)),
        };
        assert!(
            !unknown.is_retryable(),
            "an unknown outcome of a money call is never retried"
        );
        assert!(unknown.may_have_reached_service());
        assert_eq!(unknown.outcome(), Outcome::Unknown);
        assert!(unknown
            .to_string()
            .contains("confirmOperation (requestId client1abc"));
        assert!(std::error::Error::source(&unknown).is_some());
        assert_eq!(
            Error::transport("refused", false, None).outcome(),
            Outcome::NotSent
        );
        assert!(!Error::SignatureInvalid.is_retryable());
        assert!(Error::decode(Some(503), "x", b"", None).is_retryable());
        assert!(!Error::decode(Some(500), "x", b"", None).is_retryable());
    }
}
