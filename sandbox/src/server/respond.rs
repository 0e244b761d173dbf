//! Answers: unsigned `code`/`msg`, and signed envelopes (with the test hook that
//! tampers the next one).

use std::sync::atomic::Ordering;

use baas_runtime::{PrivateKey, RawJson};

use super::Shared;
use crate::error::codes;
use crate::json::Json;

/// An unsigned code/msg answer, for requests whose sender (hence key) is unknown.
pub(super) fn unsigned(code: &str, msg: &str) -> Vec<u8> {
    serde_json::to_vec(&serde_json::json!({ "code": code, "msg": msg })).unwrap_or_default()
}

/// Drops `null` members (the runtime never signs a null, and absent reads the same).
pub(super) fn strip_nulls(v: serde_json::Value) -> serde_json::Value {
    match v {
        serde_json::Value::Object(m) => serde_json::Value::Object(
            m.into_iter()
                .filter(|(_, v)| !v.is_null())
                .map(|(k, v)| (k, strip_nulls(v)))
                .collect(),
        ),
        serde_json::Value::Array(a) => serde_json::Value::Array(
            a.into_iter()
                .filter(|v| !v.is_null())
                .map(strip_nulls)
                .collect(),
        ),
        other => other,
    }
}

pub(super) fn sign_response(
    shared: &Shared,
    key: &PrivateKey,
    request_id: &str,
    locale: &str,
    code: &str,
    msg: &str,
    data: Option<serde_json::Value>,
) -> Vec<u8> {
    let data = data
        .map(strip_nulls)
        .filter(|d| !d.is_null())
        .and_then(|d| RawJson::from_string(d.to_string()).ok());
    let signed = baas_runtime::envelope::signed_response_body(
        request_id,
        &shared.service_sender,
        locale,
        code,
        msg,
        data.as_ref(),
        key,
    );
    let mut body = match signed {
        Ok(b) => b,
        Err(e) => unsigned(codes::SYSTEM, &format!("cannot sign the response: {e}")),
    };
    if shared.tamper_next.swap(false, Ordering::SeqCst) {
        body = tamper(body);
    }
    body
}

/// Changes the signed body after signing: the `msg` text gets a suffix.
fn tamper(body: Vec<u8>) -> Vec<u8> {
    match Json::parse(&String::from_utf8_lossy(&body)) {
        Ok(Json::Object(mut map)) => {
            let msg = map
                .get("msg")
                .and_then(Json::as_text)
                .unwrap_or_default()
                .to_owned();
            map.insert("msg".into(), Json::String(format!("{msg} (tampered)")));
            Json::Object(map).to_json_string().into_bytes()
        }
        _ => body,
    }
}
