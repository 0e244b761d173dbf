//! Callback notifications: verify a received body, read its type and params, answer
//! [`ACK`], and remember what was processed across restarts.
//!
//! The service POSTs a signed envelope (`requestId`, `sender`, `notificationType`,
//! `locale`, `timestamp`, `salt`, `signature`, `params`) signed like a request with the
//! partner's key. It re-delivers (up to 5 times) until it receives the plain body `ok`,
//! so a receiver must be idempotent: [`Notification::delivery_id`] is the same for
//! every delivery of one notification.
//!
//! A [`Verifier`] accepts a body only when all of these hold, so that no other signed
//! message (an answer, a notification of another partner's service, an old
//! notification) can be passed off as a notification:
//!
//! - the signature holds over the exact bytes received, and the body could not be re-cut
//!   into another message with the same canonical string (see
//!   [`crate::canonical::Flattened::parse_unambiguous`]: no key holding `&`, `=`, `.`,
//!   `[` or `]`, no `null`, no value holding `&path=`);
//! - it is a notification: `requestId`, `notificationType`, `timestamp` and `salt` are
//!   present, and the members of an answer (`code`, `msg`, `data`) are absent;
//! - its `sender` is the service's, as configured (the live sender name is opaque: the
//!   bank tells you yours);
//! - its `timestamp` is within the freshness window: at most [`DEFAULT_MAX_AGE`] old and
//!   at most [`DEFAULT_MAX_SKEW`] ahead of this machine's clock, both configurable.
//!
//! Keep the delivery ids you processed for longer than any re-delivery can come, counted
//! from when you processed them (a [`SeenFile`] does, across restarts, for
//! [`DEFAULT_KEEP`]): the service re-signs a re-delivery with a fresh timestamp, so
//! after an outage longer than the window only the id tells it was processed.

use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::envelope::{new_salt, now_millis};
use crate::error::{Error, ErrorKind};
use crate::raw_json::RawJson;
use crate::secret::PrivateKey;

mod seen;
pub use seen::{SeenFile, DEFAULT_KEEP};

/// The body to answer once a notification is processed (or recognised as a duplicate).
pub const ACK: &str = "ok";

/// How old a notification's `timestamp` may be by default: 24 hours. The service
/// re-delivers up to 5 times and may keep the first delivery's timestamp, so the window
/// must cover its whole re-delivery schedule (not public); a day leaves room for it and
/// for a receiver that was down for hours.
pub const DEFAULT_MAX_AGE: Duration = Duration::from_secs(24 * 60 * 60);

/// How far ahead of this machine's clock a `timestamp` may be by default: 5 minutes of
/// clock skew.
pub const DEFAULT_MAX_SKEW: Duration = Duration::from_secs(5 * 60);

/// Members of an answer, never of a notification: a body carrying one is an answer
/// being passed off as a notification.
const ANSWER_MEMBERS: [&str; 3] = ["code", "msg", "data"];

/// A verified notification.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Notification {
    /// The notification number, e.g. `"0028"` (CNY transfer).
    pub notification_type: String,
    /// The notification's requestId.
    pub request_id: String,
    /// The service's sender name (checked by [`Verifier`]; `None` only from [`verify`]).
    pub sender: Option<String>,
    /// The locale, when given.
    pub locale: Option<String>,
    /// Epoch milliseconds (always present in a verified notification; an `Option` for
    /// compatibility).
    pub timestamp: Option<i64>,
    /// The payload, verbatim (`{}` when absent).
    pub params: RawJson,
}

/// Identifies one notification across its deliveries: (`requestId`, `notificationType`).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct DeliveryId {
    /// The notification's requestId.
    pub request_id: String,
    /// The notification number.
    pub notification_type: String,
}

impl Notification {
    /// The key to recognise a repeated delivery: store it once processed, and answer
    /// [`ACK`] without processing again when it is seen a second time.
    pub fn delivery_id(&self) -> DeliveryId {
        DeliveryId {
            request_id: self.request_id.clone(),
            notification_type: self.notification_type.clone(),
        }
    }

    /// The answer body, [`ACK`].
    pub fn ack(&self) -> &'static str {
        ACK
    }
}

/// Verifies received notification bodies for one partner key and one service sender.
///
/// ```
/// use baas_runtime::notification::{self, Verifier};
/// use baas_runtime::{PrivateKey, RawJson};
///
/// let key = PrivateKey::new("partner-key");
/// let verifier = Verifier::new(key.clone(), "apigw.baas.example");
/// let params = RawJson::from_string(r#"{"jobId":"J1"}"#.to_owned()).unwrap();
/// let body = notification::signed_body("0015", "N1", "apigw.baas.example", "en_KE", &params, &key).unwrap();
/// assert_eq!(verifier.verify(&body).unwrap().notification_type, "0015");
/// // Signed with the same key but by another sender: refused.
/// let other = notification::signed_body("0015", "N2", "someone-else", "en_KE", &params, &key).unwrap();
/// assert!(verifier.verify(&other).is_err());
/// ```
#[derive(Clone)]
pub struct Verifier {
    key: PrivateKey,
    service_sender: String,
    max_age: Duration,
    max_skew: Duration,
}

impl std::fmt::Debug for Verifier {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Verifier")
            .field("key", &self.key)
            .field("service_sender", &self.service_sender)
            .field("max_age", &self.max_age)
            .field("max_skew", &self.max_skew)
            .finish()
    }
}

impl Verifier {
    /// A verifier for notifications signed with `key` and sent by `service_sender` (the
    /// service's sender name as your bank gives it), with the default window.
    pub fn new(key: PrivateKey, service_sender: impl Into<String>) -> Verifier {
        Verifier {
            key,
            service_sender: service_sender.into(),
            max_age: DEFAULT_MAX_AGE,
            max_skew: DEFAULT_MAX_SKEW,
        }
    }

    /// Accepts timestamps at most `max_age` old (default [`DEFAULT_MAX_AGE`]). Keep the
    /// processed delivery ids at least this long.
    #[must_use]
    pub fn max_age(mut self, max_age: Duration) -> Verifier {
        self.max_age = max_age;
        self
    }

    /// Accepts timestamps at most `max_skew` ahead of this clock (default
    /// [`DEFAULT_MAX_SKEW`]).
    #[must_use]
    pub fn max_skew(mut self, max_skew: Duration) -> Verifier {
        self.max_skew = max_skew;
        self
    }

    /// The window's length into the past.
    pub fn window(&self) -> Duration {
        self.max_age
    }

    /// Verifies a received body now (see the [module](self) for every rule).
    ///
    /// # Errors
    ///
    /// [`ErrorKind::Decode`] for a body that is not a JSON object or lacks a member,
    /// [`ErrorKind::SignatureMissing`], [`ErrorKind::SignatureInvalid`], and
    /// [`ErrorKind::Untrusted`] for a body that could be re-cut, carries an answer's
    /// members, comes from another sender or is outside the window.
    pub fn verify(&self, body: &[u8]) -> Result<Notification, Error> {
        self.verify_at(body, now_millis())
    }

    /// [`Verifier::verify`] as at `now_ms` (epoch milliseconds), for tests.
    ///
    /// # Errors
    ///
    /// As [`Verifier::verify`].
    pub fn verify_at(&self, body: &[u8], now_ms: i64) -> Result<Notification, Error> {
        let n = verify_body(body, &self.key)?;
        if n.sender.as_deref() != Some(self.service_sender.as_str()) {
            return Err(untrusted(format!(
                "the notification's sender is {:?}, not the service's {:?}",
                n.sender.as_deref().unwrap_or(""),
                self.service_sender
            )));
        }
        let timestamp = n.timestamp.unwrap_or(i64::MIN);
        let age = i128::from(now_ms) - i128::from(timestamp);
        if age > i128::try_from(self.max_age.as_millis()).unwrap_or(i128::MAX) {
            return Err(untrusted(format!(
                "the notification is dated {timestamp}, more than {} s before now ({now_ms}): \
                 refused as stale (a replay, or a window shorter than the re-delivery schedule)",
                self.max_age.as_secs()
            )));
        }
        if -age > i128::try_from(self.max_skew.as_millis()).unwrap_or(i128::MAX) {
            return Err(untrusted(format!(
                "the notification is dated {timestamp}, more than {} s after now ({now_ms}): \
                 check this machine's clock",
                self.max_skew.as_secs()
            )));
        }
        Ok(n)
    }
}

fn untrusted(reason: String) -> Error {
    ErrorKind::Untrusted { reason }.into()
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Fields {
    request_id: String,
    /// A JSON string, as the service sends it (`"0028"`); a number (`28`, `28.0`, `-28`)
    /// is refused in every language (the shared vectors' `notification_types`).
    notification_type: String,
    sender: Option<String>,
    locale: Option<String>,
    timestamp: i64,
    #[allow(dead_code)]
    salt: String,
    params: Option<RawJson>,
    code: Option<serde::de::IgnoredAny>,
    msg: Option<serde::de::IgnoredAny>,
    data: Option<serde::de::IgnoredAny>,
}

/// Verifies a received notification body without checking its sender or its age:
/// use a [`Verifier`], which does. Kept for receivers that check both themselves.
///
/// # Errors
///
/// As [`Verifier::verify`], but for the sender and the window.
pub fn verify(body: &[u8], key: &PrivateKey) -> Result<Notification, Error> {
    verify_body(body, key)
}

/// The checks of [`Verifier`] but the sender and the window; what an error quotes of the
/// body never shows the key (as in Java and PHP).
fn verify_body(body: &[u8], key: &PrivateKey) -> Result<Notification, Error> {
    checked_body(body, key).map_err(|e| e.redacting(key))
}

fn checked_body(body: &[u8], key: &PrivateKey) -> Result<Notification, Error> {
    let flat = crate::canonical::Flattened::parse_unambiguous(body).map_err(|e| {
        if matches!(e, crate::canonical::CanonicalError::Ambiguous { .. }) {
            return Error::from(ErrorKind::Untrusted {
                reason: format!("the notification could be re-cut into another message: {e}"),
            });
        }
        Error::decode(
            None,
            format!("notification is not a usable JSON object: {e}"),
            body,
            Some(Box::new(e)),
        )
    })?;
    match crate::sign::verify_flattened(&flat, key) {
        Ok(()) => {}
        Err(crate::sign::VerifyError::Missing) => return Err(ErrorKind::SignatureMissing.into()),
        Err(_) => return Err(ErrorKind::SignatureInvalid.into()),
    }
    let text = std::str::from_utf8(body)
        .map_err(|e| Error::decode(None, format!("notification is not UTF-8: {e}"), body, None))?;
    let fields: Fields = serde_json::from_str(text).map_err(|e| {
        Error::decode(
            None,
            format!("not a notification (requestId, notificationType, timestamp and salt are required): {e}"),
            body,
            Some(Box::new(e)),
        )
    })?;
    let answer_members = [
        fields.code.is_some(),
        fields.msg.is_some(),
        fields.data.is_some(),
    ];
    if let Some((name, _)) = ANSWER_MEMBERS
        .iter()
        .zip(answer_members)
        .find(|(_, present)| *present)
    {
        return Err(untrusted(format!(
            "the body carries `{name}`, a member of an answer, not of a notification"
        )));
    }
    Ok(Notification {
        notification_type: fields.notification_type,
        request_id: fields.request_id,
        sender: fields.sender,
        locale: fields.locale,
        timestamp: Some(fields.timestamp),
        params: fields.params.unwrap_or_default(),
    })
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Outgoing<'a> {
    request_id: &'a str,
    sender: &'a str,
    notification_type: &'a str,
    locale: &'a str,
    timestamp: i64,
    salt: &'a str,
    params: &'a RawJson,
}

/// Tool for test servers: a signed notification body (fresh timestamp and salt).
///
/// # Errors
///
/// [`ErrorKind::Encode`] when the body cannot be signed (a `params` that could be
/// re-cut, see [`crate::canonical::Flattened::parse_unambiguous`]).
pub fn signed_body(
    notification_type: &str,
    request_id: &str,
    sender: &str,
    locale: &str,
    params: &RawJson,
    key: &PrivateKey,
) -> Result<Vec<u8>, Error> {
    signed_body_at(
        notification_type,
        request_id,
        sender,
        locale,
        params,
        key,
        now_millis(),
    )
}

/// [`signed_body`] dated `timestamp` (epoch milliseconds), for tests of the window.
///
/// # Errors
///
/// As [`signed_body`].
pub fn signed_body_at(
    notification_type: &str,
    request_id: &str,
    sender: &str,
    locale: &str,
    params: &RawJson,
    key: &PrivateKey,
    timestamp: i64,
) -> Result<Vec<u8>, Error> {
    let salt = new_salt()?;
    let outgoing = Outgoing {
        request_id,
        sender,
        notification_type,
        locale,
        timestamp,
        salt: &salt,
        params,
    };
    let bytes = serde_json::to_vec(&outgoing).map_err(|e| ErrorKind::Encode {
        message: e.to_string(),
        source: Some(Box::new(e)),
    })?;
    crate::sign::sign_and_attach(bytes, key).map_err(|e| {
        ErrorKind::Encode {
            message: e.to_string(),
            source: Some(Box::new(e)),
        }
        .into()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const SVC: &str = "svc";

    fn key() -> PrivateKey {
        PrivateKey::new("k")
    }

    fn params(text: &str) -> RawJson {
        RawJson::from_string(text.to_owned()).unwrap()
    }

    fn refused_as_untrusted(result: Result<Notification, Error>) -> String {
        match result.map_err(Error::into_kind) {
            Err(ErrorKind::Untrusted { reason }) => reason,
            other => panic!("expected Untrusted, got {other:?}"),
        }
    }

    #[test]
    fn verify_and_dedup() {
        let verifier = Verifier::new(key(), SVC);
        let p = params(r#"{"applicationId":"A1","amount":100.50}"#);
        let body = signed_body("0028", "N1", SVC, "en_KE", &p, &key()).unwrap();
        let n = verifier.verify(&body).unwrap();
        assert_eq!(n.notification_type, "0028");
        assert_eq!(n.params.get(), r#"{"applicationId":"A1","amount":100.50}"#);
        assert_eq!(n.ack(), "ok");
        let again = verifier.verify(&body).unwrap();
        assert_eq!(again.delivery_id(), n.delivery_id());
        let other = verifier
            .verify(&signed_body("0028", "N2", SVC, "en_KE", &p, &key()).unwrap())
            .unwrap();
        assert_ne!(other.delivery_id(), n.delivery_id());
        let tampered = String::from_utf8(body).unwrap().replace("100.50", "100.5");
        assert!(matches!(
            verifier
                .verify(tampered.as_bytes())
                .map_err(Error::into_kind),
            Err(ErrorKind::SignatureInvalid)
        ));
        assert!(matches!(
            verifier
                .verify(br#"{"requestId":"x","notificationType":"0028"}"#)
                .map_err(Error::into_kind),
            Err(ErrorKind::SignatureMissing)
        ));
        assert!(matches!(
            verifier.verify(b"ok").map_err(Error::into_kind),
            Err(ErrorKind::Decode { .. })
        ));
        // One rule in every language: a string as the service sends it, any number refused.
        for number in ["15", "28.0", "2.8e1", "-28"] {
            let numeric = signed(&format!(
                r#"{{"requestId":"N3","sender":"svc","notificationType":{number},"timestamp":{},"salt":"s"}}"#,
                now_millis()
            ));
            assert!(
                matches!(
                    verifier.verify(&numeric).map_err(Error::into_kind),
                    Err(ErrorKind::Decode { .. })
                ),
                "{number}"
            );
        }
    }

    /// Signs a hand-written body with the test key.
    fn signed(text: &str) -> Vec<u8> {
        crate::sign::sign_and_attach(text.as_bytes().to_vec(), &key()).unwrap()
    }

    #[test]
    fn only_the_service_sender_within_the_window() {
        let verifier = Verifier::new(key(), SVC);
        let p = params(r#"{"jobId":"J"}"#);
        let now = now_millis();
        let by_other = signed_body("0015", "N1", "svc2", "en_KE", &p, &key()).unwrap();
        assert!(refused_as_untrusted(verifier.verify(&by_other)).contains("sender"));
        // Dated 2020-01-01: a replay of an old notification.
        let old =
            signed_body_at("0015", "N1", SVC, "en_KE", &p, &key(), 1_577_836_800_000).unwrap();
        assert!(refused_as_untrusted(verifier.verify(&old)).contains("stale"));
        let ahead =
            signed_body_at("0015", "N1", SVC, "en_KE", &p, &key(), now + 3_600_000).unwrap();
        assert!(refused_as_untrusted(verifier.verify(&ahead)).contains("clock"));
        // The window's edges, and a window set by the receiver.
        let day =
            signed_body_at("0015", "N1", SVC, "en_KE", &p, &key(), now - 23 * 3_600_000).unwrap();
        assert!(verifier.verify_at(&day, now).is_ok());
        let hour = Verifier::new(key(), SVC).max_age(Duration::from_secs(3600));
        assert!(hour.verify_at(&day, now).is_err());
        assert_eq!(hour.window(), Duration::from_secs(3600));
        // No timestamp, salt or sender: not a notification.
        for body in [
            r#"{"requestId":"N","sender":"svc","notificationType":"0015","salt":"s","params":{}}"#,
            r#"{"requestId":"N","sender":"svc","notificationType":"0015","timestamp":1,"params":{}}"#,
        ] {
            assert!(matches!(
                verifier.verify(&signed(body)).map_err(Error::into_kind),
                Err(ErrorKind::Decode { .. })
            ));
        }
        let no_sender = format!(
            r#"{{"requestId":"N","notificationType":"0015","timestamp":{now},"salt":"s","params":{{}}}}"#
        );
        assert!(refused_as_untrusted(verifier.verify(&signed(&no_sender))).contains("sender"));
        assert!(format!("{verifier:?}").contains("[redacted]"));
        assert!(!format!("{verifier:?}").contains("\"k\""));
    }

    /// The attack of issue 17: a signed 12005 answer echoing a locale that holds pairs
    /// re-cuts into a notification with the same canonical string.
    #[test]
    fn an_answer_re_cut_into_a_notification_is_refused() {
        let now = now_millis();
        let locale = "en_KE&notificationType=0028&params.amount=50000.00&params.zz=";
        // What an oracle signed (written by hand: our signers refuse to sign it).
        let answer = format!(
            r#"{{"code":"12005","locale":"{locale}","msg":"Invalid signature","requestId":"R1","salt":"s","sender":"svc","timestamp":{now}}}"#
        );
        let flat = crate::canonical::Flattened::parse(answer.as_bytes()).unwrap();
        let signature = flat.signature_hex(&key());
        // `msg=...` sorts between `locale` and `notificationType`: the re-cut body takes
        // it into its last value, and keeps `code` (nothing sorts before it).
        let recut = format!(
            r#"{{"code":"12005","locale":"en_KE","notificationType":"0028","params":{{"amount":"50000.00","zz":"&msg=Invalid signature"}},"requestId":"R1","salt":"s","sender":"svc","timestamp":{now},"signature":"{signature}"}}"#
        );
        // The re-cut body carries the answer's signature, and it holds...
        let recut_flat = crate::canonical::Flattened::parse(recut.as_bytes()).unwrap();
        assert_eq!(recut_flat.signature_hex(&key()), signature);
        // ...but it could be re-cut (its value holds `&msg=`)...
        let reason = refused_as_untrusted(Verifier::new(key(), SVC).verify(recut.as_bytes()));
        assert!(reason.contains("re-cut"), "{reason}");
        // ...and it carries an answer's `code`: refused for that too.
        let with_code = signed(&format!(
            r#"{{"code":"12005","locale":"en_KE","notificationType":"0028","params":{{"amount":"50000.00"}},"requestId":"R1","salt":"s","sender":"svc","timestamp":{now}}}"#
        ));
        let reason = refused_as_untrusted(Verifier::new(key(), SVC).verify(&with_code));
        assert!(reason.contains("`code`"), "{reason}");
        // The answer itself, signed, is no notification either.
        let answer_signed = format!(
            "{},\"signature\":\"{signature}\"}}",
            answer.trim_end_matches('}')
        );
        assert!(Verifier::new(key(), SVC)
            .verify(answer_signed.as_bytes())
            .is_err());
    }

    #[test]
    fn bodies_that_could_be_re_cut_are_refused() {
        let verifier = Verifier::new(key(), SVC);
        let now = now_millis();
        let base = |extra: &str| {
            format!(
                r#"{{"requestId":"N","sender":"svc","notificationType":"0028","timestamp":{now},"salt":"s","params":{{"a":"1"{extra}}}}}"#
            )
        };
        for extra in [
            r#","b":[null]"#,
            r#","x.y":"1""#,
            r#","remark":"x&params.amount=9""#,
        ] {
            let text = base(extra);
            let flat = crate::canonical::Flattened::parse(text.as_bytes()).unwrap();
            let body = format!(
                "{},\"signature\":\"{}\"}}",
                text.strip_suffix('}').unwrap_or(&text),
                flat.signature_hex(&key())
            );
            let reason = refused_as_untrusted(verifier.verify(body.as_bytes()));
            assert!(reason.contains("re-cut"), "{reason}");
        }
    }
}
