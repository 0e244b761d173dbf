//! Message envelopes: building and signing requests, opening and verifying responses.
//!
//! Besides what the client uses, this module offers tools for test servers (a sandbox
//! reuses them): [`verify_request`] checks a received request, and
//! [`signed_response_body`] builds a signed response.

use std::borrow::Cow;
use std::time::{SystemTime, UNIX_EPOCH};

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

#[cfg(test)]
use crate::canonical::Flattened;
use crate::canonical::{Ambiguity, Borrowed, CanonicalError};
use crate::error::{Error, ErrorKind, SUCCESS_CODE};
use crate::raw_json::RawJson;
use crate::secret::PrivateKey;
use crate::sign;

/// Fills a buffer from this thread's CSPRNG (seeded from the operating system's; see
/// [`crate::random`]).
fn random_bytes<const N: usize>() -> Result<[u8; N], Error> {
    let mut buf = [0u8; N];
    crate::random::fill(&mut buf).map_err(|e| ErrorKind::Random {
        message: e.to_string(),
    })?;
    Ok(buf)
}

/// Appends the lowercase hex digits of `bytes` (at most 16) to `out`.
fn push_hex(out: &mut String, bytes: &[u8]) {
    let mut hex = [0u8; 32];
    let n = 2 * bytes.len().min(16);
    let Some(hex) = hex.get_mut(..n) else {
        return;
    };
    sign::hex_into(bytes, hex);
    out.push_str(std::str::from_utf8(hex).unwrap_or_default());
}

/// The requestId of `random` (the sender and 32 hex digits).
fn request_id_of(sender: &str, random: &[u8]) -> String {
    let mut id = String::with_capacity(sender.len() + 2 * random.len());
    id.push_str(sender);
    push_hex(&mut id, random);
    id
}

/// The salt of `random` (24 hex digits).
fn salt_of(random: &[u8]) -> String {
    let mut salt = String::with_capacity(2 * random.len());
    push_hex(&mut salt, random);
    salt
}

/// A new requestId: the sender followed by 32 random hex digits (a format that works
/// live), unique per call.
pub fn new_request_id(sender: &str) -> Result<String, Error> {
    Ok(request_id_of(sender, &random_bytes::<16>()?))
}

/// A new salt: 24 random hex digits from the CSPRNG (see [`crate::random`]).
pub fn new_salt() -> Result<String, Error> {
    Ok(salt_of(&random_bytes::<12>()?))
}

/// Now, in epoch milliseconds (0 if the clock is before 1970).
pub fn now_millis() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
        .unwrap_or(0)
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct RequestEnvelope<'a, P: ?Sized> {
    request_id: &'a str,
    sender: &'a str,
    locale: &'a str,
    timestamp: i64,
    salt: &'a str,
    params: &'a P,
}

/// A signed request, ready to send.
#[derive(Debug, Clone)]
pub struct SignedRequest {
    /// The requestId in the envelope (the response must echo it).
    pub request_id: String,
    /// The exact bytes to send (the signed text plus the signature).
    pub body: Vec<u8>,
}

/// Builds the envelope of `params` (new requestId, timestamp and salt), serializes it
/// and signs those exact bytes. A `null` anywhere is refused: the runtime never sends
/// one (integrations disagree on how nulls are signed).
pub fn sign_request<P: Serialize + ?Sized>(
    params: &P,
    sender: &str,
    locale: &str,
    key: &PrivateKey,
) -> Result<SignedRequest, Error> {
    // One draw for both the requestId and the salt.
    let random = random_bytes::<28>()?;
    let (id, salt) = random.split_at(16);
    // The salt's hex on the stack: it lives only while the envelope is serialized.
    let mut salt_hex = [0u8; 24];
    sign::hex_into(salt, &mut salt_hex);
    let salt = std::str::from_utf8(&salt_hex).map_err(|e| ErrorKind::Random {
        message: e.to_string(),
    })?;
    sign_checked(params, request_id_of(sender, id), salt, sender, locale, key)
}

/// [`sign_request`] with a requestId the caller chose (to store it before sending, to
/// reconcile or cancel by it). Refused when empty or not printable ASCII.
pub fn sign_request_with_id<P: Serialize + ?Sized>(
    params: &P,
    request_id: String,
    sender: &str,
    locale: &str,
    key: &PrivateKey,
) -> Result<SignedRequest, Error> {
    if request_id.is_empty() || !request_id.bytes().all(|b| b.is_ascii_graphic()) {
        return Err(ErrorKind::Encode {
            message: format!(
                "requestId {request_id:?} must be non-empty printable ASCII without spaces"
            ),
            source: None,
        }
        .into());
    }
    sign_checked(params, request_id, &new_salt()?, sender, locale, key)
}

/// Signs the envelope of a checked requestId and a salt.
fn sign_checked<P: Serialize + ?Sized>(
    params: &P,
    request_id: String,
    salt: &str,
    sender: &str,
    locale: &str,
    key: &PrivateKey,
) -> Result<SignedRequest, Error> {
    let head = crate::canonical::RequestHead {
        request_id: &request_id,
        sender,
        locale,
        timestamp: now_millis(),
        salt,
    };
    // Most requests: the envelope's own members written and hashed in their known
    // order, only `params` paired as it is written. Anything that pass leaves is signed
    // as the envelope struct, by the generic pass or by parsing it back.
    if let Some(body) = crate::canonical::sign_request_envelope(&head, params, key) {
        return Ok(SignedRequest { request_id, body });
    }
    let envelope = RequestEnvelope {
        request_id: &request_id,
        sender,
        locale,
        timestamp: head.timestamp,
        salt,
        params,
    };
    let body = sign_envelope(&envelope, key)?;
    Ok(SignedRequest { request_id, body })
}

/// Serializes an envelope without `signature`, signs the bytes and splices the
/// signature in.
fn sign_envelope<T: Serialize + ?Sized>(envelope: &T, key: &PrivateKey) -> Result<Vec<u8>, Error> {
    let encode = |message: String, source: Option<crate::error::BoxError>| {
        ErrorKind::Encode { message, source }.into()
    };
    // Most envelopes: written and hashed in one pass, with the pairs collected from
    // the very values written (no parse of our own bytes). Anything that pass does not
    // take (a rule to judge, a null, a float, a raw value) is written and parsed back
    // below, which signs it or refuses it as it always did.
    if let Some((bytes, digest)) = crate::canonical::serialize_signed(envelope, key) {
        let hex = sign::digest_hex(&digest);
        return sign::attach_signature(bytes, sign::hex_str(&hex))
            .map_err(|e| encode(e.to_string(), Some(Box::new(e))));
    }
    // Sized for a typical envelope, so serializing rarely grows the buffer, with room
    // for the signature spliced in afterwards.
    let mut bytes = Vec::with_capacity(512);
    serde_json::to_writer(&mut bytes, envelope)
        .map_err(|e| encode(e.to_string(), Some(Box::new(e))))?;
    // Nothing is signed that could be re-cut into another message with the same
    // canonical string (a value holding `&path=`, a key holding `&`, `=`, `.`, `[`, `]`,
    // a null).
    // The bytes just serialized are flattened in place (no copy of them).
    let signature = {
        let flat = Borrowed::parse_unambiguous(&bytes)
            .and_then(Borrowed::without_nulls)
            .map_err(|e| match &e {
                CanonicalError::Ambiguous {
                    path,
                    rule: Ambiguity::Null,
                } => encode(
                    format!("`{path}` is null; a null is never sent (leave the field out)"),
                    Some(Box::new(e)),
                ),
                _ => encode(
                    format!("{e}; such a message is never signed"),
                    Some(Box::new(e)),
                ),
            })?;
        if flat.has_signature_key() {
            let e = CanonicalError::AlreadySigned;
            return Err(encode(e.to_string(), Some(Box::new(e))));
        }
        flat.signature_hex_bytes(key)
    };
    sign::attach_signature(bytes, sign::hex_str(&signature))
        .map_err(|e| encode(e.to_string(), Some(Box::new(e))))
}

/// A verified request, as a test server sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct ReceivedRequest {
    /// The request's requestId.
    pub request_id: String,
    /// The sender name.
    pub sender: String,
    /// The locale as sent.
    pub locale: String,
    /// Epoch milliseconds.
    pub timestamp: i64,
    /// The salt.
    pub salt: String,
    /// The parameters, verbatim (`{}` when absent).
    pub params: RawJson,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct RequestFields {
    request_id: String,
    sender: String,
    locale: String,
    timestamp: i64,
    salt: String,
    params: Option<RawJson>,
}

/// Tool for test servers: verifies a received request's signature and returns its
/// envelope. Errors: [`ErrorKind::Decode`] for a malformed body or envelope,
/// [`ErrorKind::SignatureMissing`], [`ErrorKind::SignatureInvalid`].
pub fn verify_request(body: &[u8], key: &PrivateKey) -> Result<ReceivedRequest, Error> {
    let flat = flatten_received(None, body)?;
    check_signature(&flat, key)?;
    let fields: RequestFields = decode_json(None, body, "request envelope")?;
    Ok(ReceivedRequest {
        request_id: fields.request_id,
        sender: fields.sender,
        locale: fields.locale,
        timestamp: fields.timestamp,
        salt: fields.salt,
        params: fields.params.unwrap_or_default(),
    })
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ResponseEnvelope<'a> {
    request_id: &'a str,
    sender: &'a str,
    locale: &'a str,
    timestamp: i64,
    salt: &'a str,
    code: &'a str,
    msg: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    data: Option<&'a RawJson>,
}

/// Tool for test servers: a signed response envelope (fresh timestamp and salt) with
/// `data` when given, signed with the partner's key as the service does.
pub fn signed_response_body(
    request_id: &str,
    sender: &str,
    locale: &str,
    code: &str,
    msg: &str,
    data: Option<&RawJson>,
    key: &PrivateKey,
) -> Result<Vec<u8>, Error> {
    let salt = new_salt()?;
    let envelope = ResponseEnvelope {
        request_id,
        sender,
        locale,
        timestamp: now_millis(),
        salt: &salt,
        code,
        msg,
        data,
    };
    sign_envelope(&envelope, key)
}

/// The members of an answer's envelope, read from the words of the canonical parse
/// (see [`response_fields`]).
struct ResponseFields<'a> {
    /// Texts borrowed from the body (owned only when they hold an escape): an answer
    /// that succeeds allocates none of them.
    request_id: Option<Cow<'a, str>>,
    code: Option<Cow<'a, str>>,
    msg: Option<Cow<'a, str>>,
    /// The text of `data` (`None` when absent or `null`).
    data: Option<&'a str>,
    /// Members of a notification or a request, never of an answer (present and not
    /// `null`).
    notification_type: bool,
    params: bool,
}

/// The envelope's members of a body already parsed for its signature, each decoded from
/// its own text: the body is not parsed a second time (serde reads `requestId`, `code`
/// and `msg`, and later `data`, nothing else). Decodes as the serde derive of these
/// members did: `null` is absent, a `code` may be a JSON integer, a member of the
/// wrong type is [`ErrorKind::Decode`].
fn response_fields<'a>(
    status: Option<u16>,
    body: &'a [u8],
    flat: &Borrowed<'a>,
) -> Result<ResponseFields<'a>, Error> {
    // A small body read by the lean pass: its members found as it read their keys,
    // and its strings known to hold no escape (see `plain`).
    let plain_members = flat.plain_envelope_members();
    let lean = plain_members.unwrap_or_default();
    let found = match plain_members {
        Some(members) => members.map(|text| text.map(str::as_bytes)),
        None => flat.top_members(crate::canonical::ENVELOPE_MEMBERS),
    };
    let [request_id, code, msg, data, notification_type, params] = found;
    fn member<'de, T: Deserialize<'de> + 'de>(
        status: Option<u16>,
        body: &[u8],
        name: &str,
        text: Option<&'de [u8]>,
    ) -> Result<Option<T>, Error> {
        let Some(text) = text else {
            return Ok(None);
        };
        serde_json::from_slice::<Option<T>>(text).map_err(|e| {
            Error::decode(
                status,
                format!("cannot decode the response envelope: `{name}`: {e}"),
                body,
                Some(Box::new(e)),
            )
        })
    }
    let not_null = |text: Option<&[u8]>| text.is_some_and(|t| t != b"null");
    let data = match data.filter(|t| *t != b"null") {
        Some(_) if lean[3].is_some() => lean[3],
        Some(text) => Some(std::str::from_utf8(text).map_err(|e| {
            Error::decode(
                status,
                format!("the response envelope is not UTF-8: {e}"),
                body,
                Some(Box::new(e)),
            )
        })?),
        None => None,
    };
    // Most members are strings without an escape: their text between the quotes is
    // the value (the parse checked it), no deserializer needed.
    let plain = |n: usize, text: Option<&'a [u8]>| {
        let plain = match lean.get(n).copied().flatten() {
            // Read by the lean pass: no escape, so no quote, between the quotes.
            Some(text) => text.strip_prefix('"').and_then(|t| t.strip_suffix('"')),
            None => plain_string(text?),
        };
        plain.map(Cow::Borrowed)
    };
    Ok(ResponseFields {
        request_id: match plain(0, request_id) {
            Some(text) => Some(text),
            None => member::<Text<'_>>(status, body, "requestId", request_id)?.map(|t| t.0),
        },
        code: match plain(1, code) {
            Some(text) => Some(text),
            None => member::<CodeText<'_>>(status, body, "code", code)?.map(|c| c.0),
        },
        msg: match plain(2, msg) {
            Some(text) => Some(text),
            None => member::<Text<'_>>(status, body, "msg", msg)?.map(|t| t.0),
        },
        data,
        notification_type: not_null(notification_type),
        params: not_null(params),
    })
}

/// The text of a JSON string value of a parsed body that holds no escape (its bytes
/// between the quotes); `None` for any other value.
fn plain_string(text: &[u8]) -> Option<&str> {
    let inner = text.strip_prefix(b"\"")?.strip_suffix(b"\"")?;
    if inner.contains(&b'\\') || inner.contains(&b'"') {
        return None;
    }
    std::str::from_utf8(inner).ok()
}

/// A result code as text (also accepted as a JSON integer), borrowed when it can be.
struct CodeText<'a>(Cow<'a, str>);

impl<'de> Deserialize<'de> for CodeText<'de> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<CodeText<'de>, D::Error> {
        crate::wire_enum::deserialize_str(d).map(CodeText)
    }
}

/// A JSON string, borrowed from the body when it has no escape.
struct Text<'a>(Cow<'a, str>);

impl<'de> Deserialize<'de> for Text<'de> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Text<'de>, D::Error> {
        struct Visitor;
        impl<'de> serde::de::Visitor<'de> for Visitor {
            type Value = Text<'de>;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a string")
            }
            fn visit_borrowed_str<E>(self, v: &'de str) -> Result<Text<'de>, E> {
                Ok(Text(Cow::Borrowed(v)))
            }
            fn visit_str<E>(self, v: &str) -> Result<Text<'de>, E> {
                Ok(Text(Cow::Owned(v.to_owned())))
            }
            fn visit_string<E>(self, v: String) -> Result<Text<'de>, E> {
                Ok(Text(Cow::Owned(v)))
            }
        }
        d.deserialize_str(Visitor)
    }
}

/// Flattens a received body, refusing one that could be re-cut into another message
/// with the same canonical string ([`crate::canonical::Flattened::parse_unambiguous`]).
/// Read in place: no copy of the body.
fn flatten_received(status: Option<u16>, body: &[u8]) -> Result<Borrowed<'_>, Error> {
    Borrowed::parse_unambiguous(body).map_err(|e| {
        if matches!(e, CanonicalError::Ambiguous { .. }) {
            return ErrorKind::Untrusted {
                reason: format!("it could be re-cut into another message: {e}"),
            }
            .into();
        }
        Error::decode(
            status,
            format!("body is not a usable JSON object: {e}"),
            body,
            Some(Box::new(e)),
        )
    })
}

fn decode_json<'a, T: Deserialize<'a>>(
    status: Option<u16>,
    body: &'a [u8],
    what: &str,
) -> Result<T, Error> {
    let text = std::str::from_utf8(body).map_err(|e| {
        Error::decode(
            status,
            format!("the {what} is not UTF-8: {e}"),
            body,
            Some(Box::new(e)),
        )
    })?;
    serde_json::from_str(text).map_err(|e| {
        Error::decode(
            status,
            format!("cannot decode the {what}: {e}"),
            body,
            Some(Box::new(e)),
        )
    })
}

fn check_signature(flat: &Borrowed<'_>, key: &PrivateKey) -> Result<(), Error> {
    match sign::verify_borrowed(flat, key) {
        Ok(()) => Ok(()),
        Err(sign::VerifyError::Missing) => Err(ErrorKind::SignatureMissing.into()),
        Err(_) => Err(ErrorKind::SignatureInvalid.into()),
    }
}

/// What to expect of a response, for [`open_response`].
#[derive(Debug, Clone, Copy)]
pub struct Expect<'a> {
    /// The requestId that was sent.
    pub request_id: &'a str,
    /// Accept an unsigned success (see [`crate::Config::accept_unsigned_success`]).
    pub accept_unsigned_success: bool,
}

/// Opens a response body: checks it is a JSON object, verifies its signature, checks
/// the echoed requestId, maps `code != 00000` to [`ErrorKind::Api`] and decodes `data`
/// (absent or null `data` decodes from `{}`).
///
/// A failure that is unsigned (only code and msg, as the document allows) or whose
/// signature does not verify becomes an [`ErrorKind::Api`] with `verified: false`, so the
/// service's code is not hidden (a `12005` answered to a wrong key cannot verify under
/// that key). A success must verify: unsigned it is refused with
/// [`ErrorKind::SignatureMissing`] unless `expect.accept_unsigned_success`; tampered, with
/// [`ErrorKind::SignatureInvalid`].
pub fn open_response<R: DeserializeOwned>(
    status: Option<u16>,
    body: &[u8],
    key: &PrivateKey,
    expect: Expect<'_>,
) -> Result<R, Error> {
    // What it quotes of the body never shows the key (as in Java and PHP).
    open_checked(status, body, key, expect).map_err(|e| e.redacting(key))
}

fn open_checked<R: DeserializeOwned>(
    status: Option<u16>,
    body: &[u8],
    key: &PrivateKey,
    expect: Expect<'_>,
) -> Result<R, Error> {
    let flat = flatten_received(status, body)?;
    let fields = response_fields(status, body, &flat)?;
    // A notification or a request is never an answer, signed or not.
    for (name, present) in [
        ("notificationType", fields.notification_type),
        ("params", fields.params),
    ] {
        if present {
            return Err(ErrorKind::Untrusted {
                reason: format!("the answer carries `{name}`, a member of another kind of message"),
            }
            .into());
        }
    }
    let code = fields
        .code
        .ok_or_else(|| Error::decode(status, "the response has no `code`", body, None))?;
    let success = code == SUCCESS_CODE;
    let verified = match sign::verify_borrowed(&flat, key) {
        Ok(()) => true,
        // A failure carries no data to trust. The document allows it unsigned, and one
        // whose signature does not verify is no less trustworthy than that, so both
        // surface the service's code (a 12005 under a wrong key stays visible) marked
        // unverified. A success is refused unless its signature holds.
        Err(_) if !success => false,
        Err(sign::VerifyError::Missing) if expect.accept_unsigned_success => false,
        Err(sign::VerifyError::Missing) => return Err(ErrorKind::SignatureMissing.into()),
        Err(_) => return Err(ErrorKind::SignatureInvalid.into()),
    };
    match fields.request_id.as_deref() {
        Some(id) if id == expect.request_id => {}
        None if !verified && !success => {}
        received => {
            return Err(ErrorKind::RequestIdMismatch {
                expected: expect.request_id.to_owned(),
                received: received.map(str::to_owned),
            }
            .into())
        }
    }
    if !success {
        return Err(ErrorKind::Api {
            code: code.into_owned(),
            msg: fields.msg.map(Cow::into_owned).unwrap_or_default(),
            request_id: fields.request_id.map(Cow::into_owned),
            verified,
            // The client marks the codes its spec calls retryable.
            retryable: false,
        }
        .into());
    }
    // A small body's `data` from what its lean pass read (no second scan of it); any
    // other, or one that decoding leaves, read by serde_json.
    if let Some(decoded) = fields.data.and_then(|text| flat.decode_data::<R>(text)) {
        return Ok(decoded);
    }
    let data = fields.data.unwrap_or("{}");
    serde_json::from_str(data).map_err(|e| {
        Error::decode(
            status,
            format!("cannot decode `data`: {e}"),
            data.as_bytes(),
            Some(Box::new(e)),
        )
    })
}

#[cfg(test)]
mod tests;
