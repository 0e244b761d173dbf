//! Answers: unsigned `code`/`msg`, and signed envelopes (with the test hook that
//! tampers the next one).

use std::collections::BTreeMap;
use std::sync::atomic::Ordering;

use baas_runtime::{PrivateKey, RawJson};

use super::envelope::{is_locale, is_request_id};
use super::Shared;
use crate::error::codes;
use crate::json::Json;
use crate::recut;

/// An unsigned code/msg answer: to a request whose sender, body or signature did not
/// pass (the sandbox signs nothing it has not verified), and for the sandbox's own
/// defects. `msg` is the sandbox's text and quotes nothing of the request.
pub(super) fn unsigned(code: &str, msg: &str) -> Vec<u8> {
    serde_json::to_vec(&serde_json::json!({ "code": code, "msg": msg })).unwrap_or_default()
}

/// Drops `null` members (the runtime never signs a null, and absent reads the same).
fn strip_nulls(v: serde_json::Value) -> serde_json::Value {
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

/// Who a signed answer is for: a request whose signature held, with the requestId and
/// locale the answer echoes, each checked here so that nothing else can be echoed.
pub(super) struct Verified<'a> {
    key: &'a PrivateKey,
    request_id: String,
    locale: String,
}

/// The locale of a signed answer when the request's is not a locale tag.
const DEFAULT_LOCALE: &str = "en_KE";

impl<'a> Verified<'a> {
    /// For a request verified with `key`: `None` when its requestId cannot be echoed
    /// ([`is_request_id`]); a locale that is not a tag is answered with `en_KE`.
    pub(super) fn new(key: &'a PrivateKey, message: &Json) -> Option<Verified<'a>> {
        let request_id = match message.get("requestId") {
            Some(Json::String(id)) if is_request_id(id) => id.clone(),
            _ => return None,
        };
        let locale = match message.get("locale") {
            Some(Json::String(l)) if is_locale(l) => l.clone(),
            _ => DEFAULT_LOCALE.to_owned(),
        };
        Some(Verified {
            key,
            request_id,
            locale,
        })
    }

    pub(super) fn request_id(&self) -> &str {
        &self.request_id
    }
}

/// The one place the sandbox signs an answer.
///
/// Nothing is signed whose canonical string could be re-cut ([`crate::recut`]): the
/// requestId and locale were checked by [`Verified::new`]; a `msg` that quotes the
/// request in a way that reads as a pair has its `&` written `%26` (a message for
/// people, and the value that holds the `&` was accepted on its own); `data` that
/// breaks a rule is a defect of the sandbox, answered with an unsigned `10000` rather
/// than signed (the runtime would refuse to sign it too).
pub(super) fn sign_response(
    shared: &Shared,
    to: &Verified<'_>,
    code: &str,
    msg: &str,
    data: Option<serde_json::Value>,
) -> Vec<u8> {
    let data = data.map(strip_nulls).filter(|d| !d.is_null());
    let msg = if recut::value_reads_as_pair(msg) {
        msg.replace('&', "%26")
    } else {
        msg.to_owned()
    };
    let mut unsigned_envelope = BTreeMap::from([
        ("requestId".to_owned(), Json::String(to.request_id.clone())),
        (
            "sender".to_owned(),
            Json::String(shared.service_sender.clone()),
        ),
        ("locale".to_owned(), Json::String(to.locale.clone())),
        ("code".to_owned(), Json::String(code.to_owned())),
        ("msg".to_owned(), Json::String(msg.clone())),
    ]);
    if let Some(d) = &data {
        unsigned_envelope.insert("data".to_owned(), Json::from_value(d));
    }
    if let Some(breach) = recut::first_breach(&Json::Object(unsigned_envelope)) {
        return unsigned(
            codes::SYSTEM.as_str(),
            &format!(
                "the sandbox will not sign this answer: {:?} rule at `{}` (a sandbox defect)",
                breach.rule, breach.path
            ),
        );
    }
    let data = data.and_then(|d| RawJson::from_string(d.to_string()).ok());
    let signed = baas_runtime::envelope::signed_response_body(
        &to.request_id,
        &shared.service_sender,
        &to.locale,
        code,
        &msg,
        data.as_ref(),
        to.key,
    );
    let mut body = match signed {
        Ok(b) => b,
        Err(e) => {
            return unsigned(
                codes::SYSTEM.as_str(),
                &format!("cannot sign the response: {e}"),
            )
        }
    };
    debug_assert!(
        signed_body_is_unambiguous(&body),
        "the sandbox signed an answer that could be re-cut: {}",
        String::from_utf8_lossy(&body)
    );
    if shared.tamper_next.swap(false, Ordering::SeqCst) {
        body = tamper(body);
    }
    body
}

/// The one place the sandbox signs a notification: its `params` are the typed payload
/// written through the generated record of its type ([`super::notify::prepare`] wrote
/// them, and a state file keeps them as that text); as [`sign_response`], nothing
/// whose canonical string could be re-cut (its params come from stored values, each
/// accepted under the same rules, but are checked again as a whole).
pub(super) fn sign_notification(
    shared: &Shared,
    key: &PrivateKey,
    request_id: &str,
    notification_type: &str,
    params: &str,
) -> Result<Vec<u8>, String> {
    let params = RawJson::from_string(params.to_owned()).map_err(|e| e.to_string())?;
    let params_json = Json::parse(params.get()).map_err(|e| e.to_string())?;
    let unsigned_envelope = BTreeMap::from([
        ("requestId".to_owned(), Json::String(request_id.to_owned())),
        (
            "sender".to_owned(),
            Json::String(shared.service_sender.clone()),
        ),
        (
            "notificationType".to_owned(),
            Json::String(notification_type.to_owned()),
        ),
        ("locale".to_owned(), Json::String(DEFAULT_LOCALE.to_owned())),
        ("params".to_owned(), params_json),
    ]);
    if let Some(breach) = recut::first_breach(&Json::Object(unsigned_envelope)) {
        return Err(format!(
            "the sandbox will not sign it: {:?} rule at `{}` (a sandbox defect)",
            breach.rule, breach.path
        ));
    }
    let body = baas_runtime::notification::signed_body(
        notification_type,
        request_id,
        &shared.service_sender,
        DEFAULT_LOCALE,
        &params,
        key,
    )
    .map_err(|e| e.to_string())?;
    debug_assert!(
        signed_body_is_unambiguous(&body),
        "the sandbox signed a notification that could be re-cut: {}",
        String::from_utf8_lossy(&body)
    );
    Ok(body)
}

/// The signed `body` reads back as an object that breaks no re-cut rule.
fn signed_body_is_unambiguous(body: &[u8]) -> bool {
    std::str::from_utf8(body)
        .ok()
        .and_then(|text| Json::parse(text).ok())
        .is_some_and(|message| recut::first_breach(&message).is_none())
}

/// The signed `body` without its `signature` member.
pub(super) fn unsign(body: Vec<u8>) -> Vec<u8> {
    match Json::parse(&String::from_utf8_lossy(&body)) {
        Ok(Json::Object(mut map)) => {
            map.remove("signature");
            Json::Object(map).to_json_string().into_bytes()
        }
        _ => body,
    }
}

/// The signed `body` with a signature of the same form that does not match it (each
/// hex digit of the real one replaced by another).
pub(super) fn bad_signature(body: Vec<u8>) -> Vec<u8> {
    match Json::parse(&String::from_utf8_lossy(&body)) {
        Ok(Json::Object(mut map)) => {
            let wrong: String = map
                .get("signature")
                .and_then(Json::as_text)
                .unwrap_or("00")
                .chars()
                .map(|c| if c == '0' { '1' } else { '0' })
                .collect();
            map.insert("signature".into(), Json::String(wrong));
            Json::Object(map).to_json_string().into_bytes()
        }
        _ => body,
    }
}

/// Changes the signed body after signing: the `msg` text gets a suffix.
pub(super) fn tamper(body: Vec<u8>) -> Vec<u8> {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bank::Bank;
    use crate::SandboxConfig;

    fn shared() -> Shared {
        Shared::new(
            Bank::seeded(baas_runtime::envelope::now_millis()),
            "baas-sandbox".into(),
            &SandboxConfig::default(),
        )
    }

    fn answer_of(body: &[u8]) -> serde_json::Value {
        serde_json::from_slice(body).unwrap()
    }

    #[test]
    fn nothing_that_could_be_re_cut_is_signed() {
        let shared = shared();
        let key = PrivateKey::new("k");
        let request = Json::parse(r#"{"requestId":"R1","locale":"en_KE"}"#).unwrap();
        let to = Verified::new(&key, &request).unwrap();

        // Data holding a value that reads as a pair: a defect, answered unsigned.
        let data = serde_json::json!({"result": [{"remark": "x&data.result[1].amount=9"}]});
        let body = sign_response(&shared, &to, "00000", "ok", Some(data));
        let answer = answer_of(&body);
        assert_eq!(answer["code"], "10000", "{answer}");
        assert!(answer.get("signature").is_none(), "{answer}");

        // A message quoting text that now reads as a pair: its `&` is written `%26`.
        let body = sign_response(&shared, &to, "12001", "x: `a&b` is not. c=d", None);
        assert_eq!(baas_runtime::sign::verify(&body, &key), Ok(()));
        assert_eq!(answer_of(&body)["msg"], "x: `a%26b` is not. c=d");
        // One that does not keeps its `&`.
        let body = sign_response(&shared, &to, "12001", "x: `Tom & Jerry`", None);
        assert_eq!(answer_of(&body)["msg"], "x: `Tom & Jerry`");

        // Notifications: the same check before signing.
        let cny = |id: &str| {
            let mut p = baas_client::records::CnyTransferResult::default();
            p.application_id = Some(id.to_owned());
            baas_client::notifications::Payload::CnyTransfer(p)
                .to_params()
                .unwrap()
                .get()
                .to_owned()
        };
        let refused = sign_notification(&shared, &key, "N1", "0028", &cny("A&amount=1"));
        assert!(refused.is_err(), "{refused:?}");
        let signed = sign_notification(&shared, &key, "N1", "0028", &cny("A1")).unwrap();
        assert_eq!(baas_runtime::sign::verify(&signed, &key), Ok(()));
        assert_eq!(answer_of(&signed)["notificationType"], "0028");
        assert_eq!(
            answer_of(&signed)["params"],
            serde_json::json!({"applicationId": "A1"})
        );
    }

    #[test]
    fn only_a_checked_request_id_and_locale_are_echoed() {
        let key = PrivateKey::new("k");
        for (request, echoed) in [
            (
                r#"{"requestId":"R-1_a:b/c","locale":"sw_TZ"}"#,
                Some("sw_TZ"),
            ),
            (r#"{"requestId":"R1","locale":"en_KE&x=1"}"#, Some("en_KE")),
            (r#"{"requestId":"R1"}"#, Some("en_KE")),
            (r#"{"requestId":"R1&x=1","locale":"en_KE"}"#, None),
            (r#"{"requestId":"R 1","locale":"en_KE"}"#, None),
            (r#"{"requestId":1,"locale":"en_KE"}"#, None),
            (r#"{"locale":"en_KE"}"#, None),
        ] {
            let message = Json::parse(request).unwrap();
            let to = Verified::new(&key, &message);
            assert_eq!(to.map(|t| t.locale), echoed.map(str::to_owned), "{request}");
        }
    }
}
