//! The shared vectors of answers bound to their request (`answers`) and of the one
//! `notificationType` rule (`notification_types`) in `tests/data/signing-vectors.json`
//! (issue 35), which the Python, TypeScript, Java and PHP verifiers pass too.

use baas_runtime::envelope::{open_response, Expect};
use baas_runtime::notification::Verifier;
use baas_runtime::{ErrorKind, PrivateKey};
use serde_json::Value;

fn load() -> Value {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tests/data/signing-vectors.json"
    );
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn text<'v>(v: &'v Value, field: &str) -> &'v str {
    v[field]
        .as_str()
        .unwrap_or_else(|| panic!("no `{field}` in {v}"))
}

fn outcome(v: &Value) -> String {
    let expect = Expect {
        request_id: text(v, "request_id"),
        accept_unsigned_success: false,
    };
    let key = PrivateKey::new(text(v, "key"));
    match open_response::<Value>(Some(200), text(v, "body").as_bytes(), &key, expect) {
        Ok(_) => "success".to_owned(),
        Err(e) => match e.into_kind() {
            ErrorKind::Api { code, verified, .. } => format!("failure {code} verified={verified}"),
            ErrorKind::RequestIdMismatch { .. } => "refused request_id_mismatch".to_owned(),
            ErrorKind::Untrusted { .. } => "refused wrong_kind".to_owned(),
            ErrorKind::SignatureMissing => "refused signature_missing".to_owned(),
            ErrorKind::SignatureInvalid => "refused signature_invalid".to_owned(),
            ErrorKind::Decode { .. } => "refused malformed".to_owned(),
            other => format!("unexpected {other:?}"),
        },
    }
}

#[test]
fn answers_are_bound_to_their_request_and_kind() {
    let all = load();
    let answers = all["answers"].as_array().unwrap();
    assert!(answers.len() >= 13);
    for v in answers {
        let e = &v["expect"];
        let expected = match text(e, "outcome") {
            "success" => "success".to_owned(),
            "failure" => format!("failure {} verified={}", text(e, "code"), e["verified"]),
            _ => format!("refused {}", text(e, "refusal")),
        };
        assert_eq!(outcome(v), expected, "{}", text(v, "name"));
    }
}

#[test]
fn a_notification_type_is_a_json_string_and_any_number_is_refused() {
    let all = load();
    let types = all["notification_types"].as_array().unwrap();
    assert!(types.len() >= 9);
    for v in types {
        let verifier = Verifier::new(PrivateKey::new(text(v, "key")), text(v, "service_sender"));
        let now = v["now_ms"].as_i64().unwrap();
        let got = match verifier.verify_at(text(v, "body").as_bytes(), now) {
            Ok(n) => format!("accepted {}", n.notification_type),
            Err(_) => "refused".to_owned(),
        };
        let e = &v["expect"];
        let expected = match text(e, "outcome") {
            "accepted" => format!("accepted {}", text(e, "notification_type")),
            _ => "refused".to_owned(),
        };
        assert_eq!(got, expected, "{}", text(v, "name"));
    }
}

/// A received body quoted in a decode error never shows the key (issue 35: Java and PHP
/// redacted it, Rust did not).
#[test]
fn a_decode_error_quotes_the_body_with_the_key_redacted() {
    let key = PrivateKey::new("partner-secret-key");
    let bodies: [&[u8]; 3] = [
        br#"{"requestId":"R1","code":"00000","senderKey":"partner-secret-key""#,
        br#"{"requestId":"R1","code":["partner-secret-key"],"msg":"ok"}"#,
        br#"{"requestId":"N1","notificationType":"0028","note":"partner-secret-key"}"#,
    ];
    for body in bodies {
        let expect = Expect {
            request_id: "R1",
            accept_unsigned_success: false,
        };
        let answer = open_response::<Value>(Some(200), body, &key, expect).unwrap_err();
        let notification = baas_runtime::notification::verify(body, &key).unwrap_err();
        for e in [answer, notification] {
            let shown = format!("{e} {e:?}");
            assert!(!shown.contains("partner-secret-key"), "{shown}");
        }
    }
}
