//! The one error type of the runtime.

use std::fmt;
use std::time::Duration;

use crate::validate::ValidationErrors;

/// A boxed error kept as the source of an [`Error`].
pub type BoxError = Box<dyn std::error::Error + Send + Sync + 'static>;

/// Result code of a successful call.
pub const SUCCESS_CODE: &str = "00000";

/// Longest body excerpt kept in [`ErrorKind::Decode`], in bytes.
pub const SNIPPET_MAX_BYTES: usize = 256;

/// An error of the SDK: what went wrong ([`Error::kind`]) and, for an error a
/// [`crate::Client`] call returns, which call it concerns ([`Error::operation`],
/// [`Error::request_id`], [`Error::attempts`]). Never contains the private key.
///
/// Errors made outside a call (by [`crate::notification::verify`], by a
/// [`crate::Transport`], by a decoder) carry no call until the client attaches it.
#[derive(Debug)]
pub struct Error {
    kind: ErrorKind,
    /// Boxed: most errors of a program are `Ok` paths never taken, and a small `Error`
    /// keeps every `Result` small.
    call: Option<Box<Call>>,
}

/// The call an [`Error`] concerns.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Call {
    operation: &'static str,
    request_id: Option<String>,
    attempts: u32,
}

/// What went wrong (see [`Error::kind`]).
#[derive(Debug)]
#[non_exhaustive]
pub enum ErrorKind {
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
        /// The requestId the response echoes, when it carries one (the requestId that
        /// was sent is [`Error::request_id`]).
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
    /// [`Error::operation`] is the status query, [`Error::attempts`] the number of
    /// queries and [`Error::request_id`] that of the last one answered.
    WaitDeadline {
        /// The last state it reported, if any.
        last_state: Option<String>,
        /// How long it waited.
        after: Duration,
    },
    /// A call that may move money failed after its bytes may have reached the service
    /// (a timeout, a broken connection, an unreadable answer): the application may or
    /// may not exist now. Never retryable as such: look it up first (by
    /// [`Error::request_id`], the requestId of the last attempt, or with the operation's
    /// query call), then decide.
    OutcomeUnknown {
        /// The failure of the last attempt.
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
    /// A received body (answer or notification) was refused although it may carry a
    /// valid signature: it could be re-cut into another message with the same canonical
    /// string, carries members of another kind of message, comes from another sender, or
    /// is outside the notification window. Treat it as unsigned: for a call, nothing
    /// verified came back.
    Untrusted {
        /// Why it was refused.
        reason: String,
    },
    /// A file the SDK keeps for you could not be read or written (a
    /// [`crate::notification::SeenFile`]), or a document's file could not be read
    /// ([`crate::Document::from_path`]); nothing was sent. `source` is the operating
    /// system's error ([`std::io::Error::kind`] tells, e.g., `PermissionDenied`).
    Storage {
        /// The file.
        path: std::path::PathBuf,
        /// What failed, e.g. `cannot write the processed-ids file`.
        message: String,
        /// The operating system's error.
        source: std::io::Error,
    },
}

impl Error {
    /// What went wrong.
    pub fn kind(&self) -> &ErrorKind {
        &self.kind
    }

    /// What went wrong, by value (the call it concerns is dropped).
    pub fn into_kind(self) -> ErrorKind {
        self.kind
    }

    /// Spec name of the operation the call was for (`confirmOperation`); `None` for an
    /// error made outside a [`crate::Client`] call.
    pub fn operation(&self) -> Option<&'static str> {
        self.call.as_ref().map(|c| c.operation)
    }

    /// The requestId of the call's last attempt (the caller's own when one was given in
    /// [`crate::CallOptions`]): what the service saw, if anything reached it, and what to
    /// look up or cancel. `None` when nothing was signed, or outside a call.
    pub fn request_id(&self) -> Option<&str> {
        self.call.as_ref().and_then(|c| c.request_id.as_deref())
    }

    /// How many attempts the call made: 0 when the request was refused before any (an
    /// invalid request), 1 when it was not tried again; for [`ErrorKind::WaitDeadline`],
    /// the number of status queries. 0 outside a call.
    pub fn attempts(&self) -> u32 {
        self.call.as_ref().map_or(0, |c| c.attempts)
    }

    /// This error, said of a call: `operation` (its spec name), the requestId of its last
    /// attempt, and how many attempts it made. The client does this for every error it
    /// returns; a helper built on the client (a status waiter, a pending application)
    /// does it for the errors it makes itself.
    pub fn in_call(
        mut self,
        operation: &'static str,
        request_id: Option<String>,
        attempts: u32,
    ) -> Error {
        self.call = Some(Box::new(Call {
            operation,
            request_id,
            attempts,
        }));
        self
    }

    /// A transport failure (for [`crate::Transport`] implementations).
    pub fn transport(
        message: impl Into<String>,
        may_have_reached_service: bool,
        source: Option<BoxError>,
    ) -> Error {
        ErrorKind::Transport {
            message: message.into(),
            may_have_reached_service,
            source,
        }
        .into()
    }

    /// A timeout (for [`crate::Transport`] implementations).
    pub fn timeout(after: Duration, may_have_reached_service: bool) -> Error {
        ErrorKind::Timeout {
            after,
            may_have_reached_service,
        }
        .into()
    }

    /// A file the SDK keeps could not be read or written ([`ErrorKind::Storage`]).
    pub fn storage(
        path: impl Into<std::path::PathBuf>,
        message: impl Into<String>,
        source: std::io::Error,
    ) -> Error {
        ErrorKind::Storage {
            path: path.into(),
            message: message.into(),
            source,
        }
        .into()
    }

    /// A decode failure with a bounded snippet of `body`.
    pub fn decode(
        status: Option<u16>,
        message: impl Into<String>,
        body: &[u8],
        source: Option<BoxError>,
    ) -> Error {
        ErrorKind::Decode {
            status,
            message: message.into(),
            snippet: snippet(body),
            source,
        }
        .into()
    }

    /// This error with the key written [`crate::REDACTED`] wherever it quotes what was
    /// received: a received body may hold the key (a service or proxy that echoes what
    /// it was sent), and errors get logged. The snippet of a [`ErrorKind::Decode`] loses
    /// every occurrence of the key and a start of it cut off by the snippet's end; its
    /// message too; its source is dropped if its text shows the key.
    pub(crate) fn redacting(mut self, key: &crate::PrivateKey) -> Error {
        let Ok(secret) = std::str::from_utf8(key.expose()) else {
            return self;
        };
        if secret.is_empty() {
            return self;
        }
        if let ErrorKind::Decode {
            message,
            snippet,
            source,
            ..
        } = &mut self.kind
        {
            *message = message.replace(secret, crate::REDACTED);
            *snippet = redact_quoted(snippet, secret);
            if source
                .as_ref()
                .is_some_and(|e| e.to_string().contains(secret))
            {
                *source = None;
            }
        }
        self
    }

    /// True when trying again may succeed: transport failures and timeouts of calls
    /// that move no money, result codes the spec marks retryable, and gateway statuses
    /// 502/503/504. Never for [`ErrorKind::OutcomeUnknown`]: a call that may move money
    /// and may have reached the service is looked up, not repeated.
    pub fn is_retryable(&self) -> bool {
        match &self.kind {
            ErrorKind::Transport { .. } | ErrorKind::Timeout { .. } => true,
            ErrorKind::Api { retryable, .. } => *retryable,
            ErrorKind::OutcomeUnknown { .. } => false,
            ErrorKind::Decode {
                status: Some(502..=504),
                ..
            } => true,
            _ => false,
        }
    }

    /// False only when the request bytes provably never reached the service.
    pub fn may_have_reached_service(&self) -> bool {
        match &self.kind {
            ErrorKind::InvalidRequest(_)
            | ErrorKind::Config { .. }
            | ErrorKind::Encode { .. }
            | ErrorKind::Random { .. }
            | ErrorKind::Storage { .. } => false,
            ErrorKind::Transport {
                may_have_reached_service,
                ..
            }
            | ErrorKind::Timeout {
                may_have_reached_service,
                ..
            } => *may_have_reached_service,
            _ => true,
        }
    }

    /// The API result code, for [`ErrorKind::Api`].
    pub fn api_code(&self) -> Option<&str> {
        match &self.kind {
            ErrorKind::Api { code, .. } => Some(code),
            _ => None,
        }
    }

    /// What is known of the call's effect.
    pub fn outcome(&self) -> Outcome {
        match &self.kind {
            ErrorKind::Api { verified: true, .. } => Outcome::Refused,
            ErrorKind::OutcomeUnknown { .. } => Outcome::Unknown,
            _ if self.may_have_reached_service() => Outcome::Unknown,
            _ => Outcome::NotSent,
        }
    }

    /// Sets whether an [`ErrorKind::Api`] is retryable, from the spec's codes.
    pub(crate) fn mark_retryable(&mut self, codes: &[&str]) {
        if let ErrorKind::Api {
            code, retryable, ..
        } = &mut self.kind
        {
            *retryable = codes.contains(&code.as_str());
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
    /// The service answered with a result code other than success, in an answer whose
    /// signature holds ([`ErrorKind::Api`] with `verified`). An unsigned or wrongly
    /// signed refusal proves nothing (anyone on the path can write one): its outcome is
    /// [`Outcome::Unknown`], and for a call that moves money the error is
    /// [`ErrorKind::OutcomeUnknown`].
    Refused,
    /// The bytes may have reached the service and no verified answer came back: the
    /// call may have taken effect.
    Unknown,
}

/// At most [`SNIPPET_MAX_BYTES`] bytes of text from the start of a body (invalid UTF-8
/// shown as U+FFFD), cut at a character boundary, with `…` when something was cut.
/// `text` (a snippet of a received body) with every occurrence of `secret` replaced by
/// [`crate::REDACTED`], and, when the snippet was cut (`…`), a start of `secret` that the
/// cut left at its end too.
fn redact_quoted(text: &str, secret: &str) -> String {
    let whole = text.replace(secret, crate::REDACTED);
    if let Some(head) = whole.strip_suffix('…') {
        if let Some((i, _)) = head
            .char_indices()
            .find(|(i, _)| head.get(*i..).is_some_and(|tail| secret.starts_with(tail)))
        {
            return format!("{}{}…", head.get(..i).unwrap_or_default(), crate::REDACTED);
        }
    }
    whole
}

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

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ErrorKind::InvalidRequest(e) => write!(f, "invalid request: {e}"),
            ErrorKind::Config { field, message } => {
                write!(f, "invalid configuration `{field}`: {message}")
            }
            ErrorKind::Encode { message, .. } => write!(f, "cannot encode the request: {message}"),
            ErrorKind::Transport {
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
            ErrorKind::Timeout {
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
            ErrorKind::ResponseTooLarge { limit } => {
                write!(f, "response body larger than the limit of {limit} bytes")
            }
            ErrorKind::Api {
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
            ErrorKind::SignatureMissing => f.write_str(
                "the received response or notification carries no signature, so it is refused \
                 (a success response without one is accepted only with \
                 Config::accept_unsigned_success)",
            ),
            ErrorKind::SignatureInvalid => f.write_str(
                "the signature of the received response or notification does not verify: \
                 check that the configured private key is the one the service signs with, \
                 and compare the received body with `baas-sign --verify`",
            ),
            ErrorKind::Decode {
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
            ErrorKind::RequestIdMismatch { expected, received } => match received {
                Some(r) => write!(f, "response requestId `{r}` does not echo `{expected}`"),
                None => write!(f, "response has no requestId (expected `{expected}`)"),
            },
            ErrorKind::Random { message } => write!(f, "random generator failed: {message}"),
            ErrorKind::Untrusted { reason } => write!(f, "received body refused: {reason}"),
            ErrorKind::Storage {
                path,
                message,
                source,
            } => write!(f, "{message} {}: {source}", path.display()),
            ErrorKind::WaitDeadline { last_state, after } => write!(
                f,
                "no final state reported within {} s (last state: {})",
                after.as_secs(),
                last_state.as_deref().unwrap_or("none")
            ),
            ErrorKind::OutcomeUnknown { source } => write!(
                f,
                "may have taken effect: {source}; look the application up before sending it again"
            ),
        }
    }
}

impl fmt::Display for Error {
    /// The call, when there is one, then what went wrong:
    /// `confirmOperation (requestId client1…, 1 attempt): no response within …`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(call) = &self.call {
            f.write_str(call.operation)?;
            let attempts = match call.attempts {
                1 => "1 attempt".to_owned(),
                n => format!("{n} attempts"),
            };
            match &call.request_id {
                Some(id) => write!(f, " (requestId {id}, {attempts}): ")?,
                None => write!(f, " ({attempts}): ")?,
            }
        }
        self.kind.fmt(f)
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.kind {
            ErrorKind::InvalidRequest(e) => Some(e),
            ErrorKind::Encode { source, .. }
            | ErrorKind::Transport { source, .. }
            | ErrorKind::Decode { source, .. } => source
                .as_ref()
                .map(|s| &**s as &(dyn std::error::Error + 'static)),
            ErrorKind::OutcomeUnknown { source, .. } => Some(&**source),
            ErrorKind::Storage { source, .. } => Some(source),
            _ => None,
        }
    }
}

impl From<ErrorKind> for Error {
    fn from(kind: ErrorKind) -> Error {
        Error { kind, call: None }
    }
}

impl From<ValidationErrors> for Error {
    fn from(e: ValidationErrors) -> Error {
        ErrorKind::InvalidRequest(e).into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signature_errors_say_what_to_check() {
        // Also returned by notification::verify: the text must not claim a response.
        let missing = Error::from(ErrorKind::SignatureMissing).to_string();
        assert!(missing.contains("response or notification"), "{missing}");
        assert!(missing.contains("accept_unsigned_success"), "{missing}");
        let invalid = Error::from(ErrorKind::SignatureInvalid).to_string();
        assert!(invalid.contains("response or notification"), "{invalid}");
        assert!(invalid.contains("private key"), "{invalid}");
        assert!(invalid.contains("baas-sign --verify"), "{invalid}");
    }

    #[test]
    fn a_quoted_body_never_shows_the_key() {
        let key = crate::PrivateKey::new("s3cr3t-key");
        let quoted = |body: &[u8]| {
            let e = Error::decode(Some(200), "bad: s3cr3t-key", body, None).redacting(&key);
            match e.into_kind() {
                ErrorKind::Decode {
                    message, snippet, ..
                } => format!("{message} {snippet}"),
                other => panic!("{other:?}"),
            }
        };
        let shown = quoted(br#"{"senderKey":"s3cr3t-key","x":1}"#);
        assert!(!shown.contains("s3cr3t"), "{shown}");
        assert!(shown.contains("[redacted]"), "{shown}");
        // The key cut in two by the snippet's end.
        let mut long = vec![b'x'; SNIPPET_MAX_BYTES - 4];
        long.extend_from_slice(b"s3cr3t-key and more");
        let shown = quoted(&long);
        assert!(shown.ends_with("[redacted]…"), "{shown}");
        assert!(!shown.contains("s3cr"), "{shown}");
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
        let api = |code: &str, retryable: bool| {
            Error::from(ErrorKind::Api {
                code: code.into(),
                msg: String::new(),
                request_id: None,
                verified: true,
                retryable,
            })
        };
        assert!(api("10001", true).is_retryable());
        assert!(!api("10001", false).is_retryable());
        assert!(!api("12005", false).is_retryable());
        assert!(api("10001", true).may_have_reached_service());
        assert_eq!(api("12005", false).outcome(), Outcome::Refused);
        let unknown = Error::from(ErrorKind::OutcomeUnknown {
            source: Box::new(Error::timeout(Duration::from_secs(1), true)),
        })
        .in_call("confirmOperation", Some("client1abc".into()), 1);
        assert!(
            !unknown.is_retryable(),
            "an unknown outcome of a money call is never retried"
        );
        assert!(unknown.may_have_reached_service());
        assert_eq!(unknown.outcome(), Outcome::Unknown);
        assert!(unknown.to_string().starts_with(
            "confirmOperation (requestId client1abc, 1 attempt): may have taken effect"
        ));
        assert!(std::error::Error::source(&unknown).is_some());
        assert_eq!(
            Error::transport("refused", false, None).outcome(),
            Outcome::NotSent
        );
        assert!(!Error::from(ErrorKind::SignatureInvalid).is_retryable());
        assert!(Error::decode(Some(503), "x", b"", None).is_retryable());
        assert!(!Error::decode(Some(500), "x", b"", None).is_retryable());
    }
}

#[cfg(test)]
mod call_tests {
    use super::*;

    #[test]
    fn an_error_says_its_call_and_keeps_its_kind() {
        let bare = Error::timeout(Duration::from_secs(2), true);
        assert_eq!(bare.operation(), None);
        assert_eq!(bare.request_id(), None);
        assert_eq!(bare.attempts(), 0);
        assert_eq!(bare.to_string(), bare.kind().to_string());
        let said = bare.in_call("getTransList", Some("client1r".into()), 3);
        assert_eq!(said.operation(), Some("getTransList"));
        assert_eq!(said.request_id(), Some("client1r"));
        assert_eq!(said.attempts(), 3);
        assert!(matches!(said.kind(), ErrorKind::Timeout { after, .. } if after.as_secs() == 2));
        assert_eq!(
            said.to_string(),
            "getTransList (requestId client1r, 3 attempts): no response within 2000 ms (the request may have reached the service)"
        );
        let mut v = crate::Validator::new();
        v.positive_int(crate::FieldPath::ROOT.field("pageNo"), 0);
        let invalid = v.finish().expect_err("pageNo 0 is refused");
        let unsent = Error::from(invalid).in_call("getTransList", None, 0);
        assert!(unsent
            .to_string()
            .starts_with("getTransList (0 attempts): invalid request"));
        assert_eq!(unsent.outcome(), Outcome::NotSent);
        // Small, so that every Result of the API stays small.
        assert!(
            std::mem::size_of::<Error>() <= 128,
            "{}",
            std::mem::size_of::<Error>()
        );
    }
}
