//! The envelope's rules beyond the signature, and the params through the generated
//! decoders and validators.

use baas_client::dispatch::{decode, DecodeError};

use crate::error::{codes, ApiError};
use crate::json::Json;

/// Largest difference between a request's `timestamp` and the wall clock. The
/// document leaves the allowed clock difference "not shown"; a day is generous to
/// any real clock and still refuses epoch seconds (or microseconds) sent as
/// milliseconds.
pub const TIMESTAMP_WINDOW_MS: i64 = 24 * 60 * 60 * 1000;
/// Operations whose `pageSize` the service limits to 50 (answering `15002` above it).
const PAGED: [&str; 5] = [
    "getTransList",
    "getAbnormalAccountList",
    "getInterBankTransferList",
    "bulkPaymentQuery",
    "getCnyTransList",
];

/// The typed request that `params` of a call to a path with operations `candidates`
/// make, through the generated decoders and validators. Before decoding, as the live
/// service does: a `pageSize` over 50 answers `15002` ([`page_size_over_limit`]) and
/// getTransList tolerates missing filters ([`tolerate_missing_filters`]). Two
/// operations may share a path (the fee call and the reversal request): the one whose
/// request type decodes the params is meant. Params no candidate accepts answer
/// `12001` with every candidate's problems.
pub(crate) fn decode_request(
    candidates: &[&'static str],
    mut params: Json,
) -> Result<baas_client::dispatch::Request, ApiError> {
    if let Some(size) = page_size_over_limit(candidates, &params) {
        let msg = format!("pageSize: {size} is over the maximum of 50");
        return Err(ApiError::new(codes::PAGE_SIZE, msg));
    }
    if candidates.contains(&"getTransList") {
        tolerate_missing_filters(&mut params);
    }
    let params_text = params.to_json_string();
    let mut problems = Vec::new();
    for name in candidates {
        match decode(name, &params_text) {
            Ok(request) => return Ok(request),
            Err(DecodeError::Invalid(errors)) => problems.push(errors.to_string()),
            Err(DecodeError::Malformed(m)) => problems.push(format!("malformed params: {m}")),
            Err(_) => problems.push(format!(
                "operation {name} is unknown to the generated decoders"
            )),
        }
    }
    Err(ApiError::new(codes::INVALID_PARAMETER, problems.join("; ")))
}

/// The envelope rules of the document ("Message envelope", "Signing a request")
/// beyond the signature and the requestId: `timestamp` a JSON integer of epoch
/// milliseconds (within [`TIMESTAMP_WINDOW_MS`] of `now_ms`), `locale` a string
/// `<language>_<COUNTRY>`, `salt` a non-empty string, `params` an object, and no
/// `senderKey` (step 7: it is never sent). A partner sending seconds or a string
/// learns it here, not in production.
pub(super) fn check_envelope(message: &Json, now_ms: i64) -> Result<(), String> {
    match message.get("timestamp") {
        None => return Err("timestamp: is required (epoch milliseconds)".into()),
        Some(Json::Number(n)) => {
            let digits = n.strip_prefix('-').unwrap_or(n);
            let ms = if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
                n.parse::<i64>().ok()
            } else {
                None
            };
            let Some(ms) = ms else {
                return Err(format!(
                    "timestamp: `{n}` is not an integer of epoch milliseconds (a JSON integer, type long)"
                ));
            };
            if ms.abs_diff(now_ms) > TIMESTAMP_WINDOW_MS.unsigned_abs() {
                let hint = if (ms.saturating_mul(1000)).abs_diff(now_ms)
                    <= TIMESTAMP_WINDOW_MS.unsigned_abs()
                {
                    " (it looks like epoch seconds)"
                } else {
                    ""
                };
                return Err(format!(
                    "timestamp: {ms} is not the current time in epoch milliseconds{hint}; the sandbox accepts {} hours either side of its clock ({now_ms})",
                    TIMESTAMP_WINDOW_MS / 3_600_000
                ));
            }
        }
        Some(other) => {
            return Err(format!(
                "timestamp: a JSON {} is not a JSON integer of epoch milliseconds (type long)",
                type_name(other)
            ))
        }
    }
    match message.get("locale") {
        Some(Json::String(l)) if is_locale(l) => {}
        Some(other) => {
            return Err(format!(
                "locale: this JSON {} is not a locale tag <language>_<COUNTRY> such as en_KE",
                type_name(other)
            ))
        }
        None => return Err("locale: is required (a tag such as en_KE)".into()),
    }
    match message.get("salt") {
        Some(Json::String(s)) if !s.is_empty() => {}
        Some(_) => return Err("salt: must be a non-empty string, new per message".into()),
        None => return Err("salt: is required (a random string, new per message)".into()),
    }
    match message.get("params") {
        Some(Json::Object(_)) => {}
        Some(other) => {
            return Err(format!(
                "params: must be a JSON object, not a JSON {} (an operation without parameters sends {{}})",
                type_name(other)
            ))
        }
        None => return Err("params: is required (an object; {} when there are none)".into()),
    }
    if message.get("senderKey").is_some() {
        return Err(
            "senderKey: is never sent; it is only added to the string that is hashed".into(),
        );
    }
    Ok(())
}

/// What kind of JSON value `value` is, for messages that must not quote it (the
/// sandbox signs them, and a quoted value could read as more of the message).
fn type_name(value: &Json) -> &'static str {
    match value {
        Json::Null => "null",
        Json::Bool(_) => "boolean",
        Json::Number(_) => "number",
        Json::String(_) => "string",
        Json::Array(_) => "array",
        Json::Object(_) => "object",
    }
}

/// Longest requestId accepted (the runtime's are the sender and 32 hex digits).
pub const MAX_REQUEST_ID_LEN: usize = 128;

/// A requestId the sandbox can echo in a signed answer: 1 to [`MAX_REQUEST_ID_LEN`]
/// printable ASCII characters other than space, `&` and `=` (the document says only
/// "a string"; these keep the answer's signed text unambiguous, and a bounded length
/// keeps the replay memory bounded).
pub(super) fn is_request_id(text: &str) -> bool {
    (1..=MAX_REQUEST_ID_LEN).contains(&text.len())
        && text
            .bytes()
            .all(|b| b.is_ascii_graphic() && b != b'&' && b != b'=')
}

/// `<language>_<COUNTRY>`: 2 or 3 lower-case letters, `_`, 2 upper-case letters.
pub(super) fn is_locale(text: &str) -> bool {
    let Some((language, country)) = text.split_once('_') else {
        return false;
    };
    (2..=3).contains(&language.len())
        && language.bytes().all(|b| b.is_ascii_lowercase())
        && country.len() == 2
        && country.bytes().all(|b| b.is_ascii_uppercase())
}

/// The `pageSize` of a paged operation when it is over 50: the live service answers
/// it with `15002` (public-facts.md **\[live\]**), before any other parameter check,
/// although the generated client refuses it before sending.
fn page_size_over_limit(candidates: &[&'static str], params: &Json) -> Option<i64> {
    if !candidates.iter().any(|c| PAGED.contains(c)) {
        return None;
    }
    let size: i64 = params.get("pageSize")?.as_text()?.trim().parse().ok()?;
    (size > 50).then_some(size)
}

/// getTransList without `txType` or `txStatus` is answered as with `[]` (all types,
/// all statuses): integrations omit them and the service's sandbox tolerates it
/// (public-facts.md **\[live\]**), although the document marks both required.
fn tolerate_missing_filters(params: &mut Json) {
    if let Json::Object(map) = params {
        for filter in ["txType", "txStatus"] {
            map.entry(filter.to_owned())
                .or_insert_with(|| Json::Array(Vec::new()));
        }
    }
}
