//! What the conformance runner (`tests/tests/conformance.rs`) checks, apart from running
//! the steps: the keys a step may have, and the answers, errors and items it expects.

use baas_client::enums::ResultCode;
use baas_client::{Error, ErrorKind, Outcome};
use serde_json::{Map, Value};

/// The keys a step of each kind may have, and the keys of its `expect`: anything else
/// fails the scenario, so a step a runner does not understand is never skipped.
const CALL_KEYS: [&str; 7] = [
    "call", "mode", "params", "fault", "save", "pending", "expect",
];
const CALL_EXPECT: [&str; 9] = [
    "outcome",
    "sent",
    "fields",
    "error",
    "code",
    "result_code",
    "retryable",
    "violations",
    "items",
];
const SETTLE_KEYS: [&str; 3] = ["settle", "fault", "expect"];
const SETTLE_EXPECT: [&str; 7] = [
    "settled",
    "state",
    "final",
    "sent",
    "error",
    "code",
    "retryable",
];
const NOTIFICATION_KEYS: [&str; 2] = ["notification", "expect"];
const NOTIFICATION_EXPECT: [&str; 4] = ["outcome", "error", "fields", "new"];

pub fn check_keys(at: &str, step: &Value) {
    let (keys, expect_keys): (&[&str], &[&str]) = if step.get("notification").is_some() {
        (&NOTIFICATION_KEYS, &NOTIFICATION_EXPECT)
    } else if step.get("settle").is_some() {
        (&SETTLE_KEYS, &SETTLE_EXPECT)
    } else if step.get("call").is_some() {
        (&CALL_KEYS, &CALL_EXPECT)
    } else {
        panic!("{at}: a step is a call, a settle or a notification: {step}");
    };
    let step = step.as_object().expect("a step is an object");
    for key in step.keys() {
        assert!(keys.contains(&key.as_str()), "{at}: unknown step key {key}");
    }
    if let Some(expect) = step.get("expect") {
        for key in expect.as_object().expect("expect is an object").keys() {
            assert!(
                expect_keys.contains(&key.as_str()),
                "{at}: unknown expect key {key}"
            );
        }
    }
}

/// The body without its `"signature":"…"` member (and the comma before it).
pub fn strip_signature(body: &[u8]) -> Vec<u8> {
    let text = String::from_utf8_lossy(body).into_owned();
    let Some(start) = text.find("\"signature\":\"") else {
        return body.to_vec();
    };
    let value_start = start + "\"signature\":\"".len();
    let end = value_start + text[value_start..].find('"').expect("signature ends");
    let (mut from, mut to) = (start, end + 1);
    if text[..from].ends_with(',') {
        from -= 1;
    } else if text[to..].starts_with(',') {
        to += 1;
    }
    format!("{}{}", &text[..from], &text[to..]).into_bytes()
}

/// A value as the text a scenario compares: strings as they are, anything else as JSON.
pub fn text(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// `InsufficientBalance` → `insufficient_balance`.
pub fn snake(name: &str) -> String {
    let mut out = String::new();
    for (i, c) in name.chars().enumerate() {
        if c.is_ascii_uppercase() {
            if i > 0 {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

pub fn error_name(error: &Error) -> &'static str {
    match error.kind() {
        ErrorKind::InvalidRequest(_) => "invalid_request",
        ErrorKind::Api { .. } => "api",
        ErrorKind::OutcomeUnknown { .. } => "outcome_unknown",
        ErrorKind::SignatureMissing => "signature_missing",
        ErrorKind::SignatureInvalid => "signature_invalid",
        ErrorKind::Untrusted { .. } => "untrusted",
        ErrorKind::Transport { .. } => "transport",
        ErrorKind::Timeout { .. } => "timeout",
        ErrorKind::Decode { .. } => "decode",
        ErrorKind::RequestIdMismatch { .. } => "request_id_mismatch",
        ErrorKind::WaitDeadline { .. } => "wait_deadline",
        _ => "other",
    }
}

pub fn outcome_name(outcome: Outcome) -> &'static str {
    match outcome {
        Outcome::NotSent => "not_sent",
        Outcome::Refused => "refused",
        _ => "unknown",
    }
}

pub fn check_fields(at: &str, data: &Value, fields: &Map<String, Value>) {
    for (name, want) in fields {
        let got = data.get(name).map(text);
        assert_eq!(
            got.as_deref(),
            Some(text(want).as_str()),
            "{at}: field {name} of {data}"
        );
    }
}

pub fn check_error(at: &str, error: &Error, expect: &Map<String, Value>) {
    if let Some(kind) = expect.get("error") {
        assert_eq!(error_name(error), text(kind), "{at}: error kind of {error}");
    }
    if let Some(code) = expect.get("code") {
        assert_eq!(
            error.api_code(),
            Some(text(code).as_str()),
            "{at}: code of {error}"
        );
    }
    if let Some(name) = expect.get("result_code") {
        let typed = ResultCode::from_error(error).map(|c| snake(&format!("{c:?}")));
        assert_eq!(
            typed.as_deref(),
            Some(text(name).as_str()),
            "{at}: typed code of {error}"
        );
    }
    if let Some(retryable) = expect.get("retryable") {
        assert_eq!(
            Some(error.is_retryable()),
            retryable.as_bool(),
            "{at}: retryable of {error}"
        );
    }
    if let Some(violations) = expect.get("violations") {
        let ErrorKind::InvalidRequest(errors) = error.kind() else {
            panic!("{at}: expected violations, got {error}");
        };
        let got: Vec<Value> = errors
            .violations()
            .iter()
            .map(|v| {
                Value::Array(vec![
                    Value::String(v.field.clone()),
                    Value::String(snake(&format!("{:?}", v.rule))),
                ])
            })
            .collect();
        assert_eq!(&Value::Array(got), violations, "{at}: violations");
    }
}

pub fn check_items(at: &str, items: &[Value], expect: &Map<String, Value>) {
    if let Some(count) = expect.get("count") {
        assert_eq!(items.len().to_string(), text(count), "{at}: item count");
    }
    if let Some(min) = expect.get("min_count").and_then(Value::as_u64) {
        assert!(
            items.len() as u64 >= min,
            "{at}: {} items < {min}",
            items.len()
        );
    }
    if let Some(key) = expect.get("unique").and_then(Value::as_str) {
        let mut keys: Vec<String> = items
            .iter()
            .map(|i| i.get(key).map(text).unwrap_or_default())
            .collect();
        keys.sort();
        let n = keys.len();
        keys.dedup();
        assert_eq!(keys.len(), n, "{at}: an item twice by {key}");
    }
    if let Some(Value::Object(fields)) = expect.get("contains") {
        assert!(
            items.iter().any(|i| fields
                .iter()
                .all(|(k, v)| i.get(k).map(text) == Some(text(v)))),
            "{at}: no item with {fields:?}"
        );
    }
}
