//! `Offline`: the server's request path without a socket (the entry point of the
//! `sandbox_request` fuzz target) answers as the HTTP server does, and records
//! notifications without a runtime.

use baas_runtime::envelope::{open_response, sign_request, Expect};
use baas_runtime::PrivateKey;
use baas_sandbox::{Offline, DEFAULT_KEY, DEFAULT_SENDER};

fn code_of(body: &[u8]) -> String {
    let v: serde_json::Value = serde_json::from_slice(body).expect("the answer is JSON");
    v["code"].as_str().unwrap_or_default().to_owned()
}

fn signed(params: serde_json::Value) -> baas_runtime::envelope::SignedRequest {
    sign_request(
        &params,
        DEFAULT_SENDER,
        "en_KE",
        &PrivateKey::new(DEFAULT_KEY),
    )
    .expect("signed")
}

#[test]
fn answers_like_the_server_without_a_socket() {
    let sandbox = Offline::new();
    assert_eq!(code_of(&sandbox.answer("/no/such/path", b"{}")), "10000");
    let details = "/query/getAccountDetails";
    assert_eq!(code_of(&sandbox.answer(details, b"\xff not json")), "12001");
    let unknown_sender = sandbox.answer(details, br#"{"sender":"nobody"}"#);
    assert_eq!(code_of(&unknown_sender), "12003");

    let request = signed(serde_json::json!({ "accountId": "1000000001" }));
    let body = sandbox.answer(details, &request.body);
    assert_eq!(code_of(&body), "00000");
    let expect = Expect {
        request_id: &request.request_id,
        accept_unsigned_success: false,
    };
    let key = PrivateKey::new(DEFAULT_KEY);
    let data: serde_json::Value = open_response(Some(200), &body, &key, expect).unwrap();
    assert_eq!(data["accountId"], "1000000001", "{data}");
    // The same request again is a replay.
    assert_eq!(code_of(&sandbox.answer(details, &request.body)), "12002");
}

/// A notification produced while no callback URL is set is recorded as undeliverable
/// by the call that produced it: when the answer is back, the record is there, and no
/// task (nor runtime) was needed. It used to be recorded by a spawned task, which an
/// `Offline` sandbox never ran, so the notification was lost.
#[test]
fn a_notification_without_a_callback_url_is_recorded_when_produced() {
    let sandbox = Offline::new();
    let request = signed(serde_json::json!({ "queryDate": "2025-06-30" }));
    let body = sandbox.answer("/report/queryClosingBalance", &request.body);
    assert_eq!(
        code_of(&body),
        "00000",
        "{}",
        String::from_utf8_lossy(&body)
    );
    let log = sandbox.deliveries();
    assert_eq!(log.len(), 1, "{log:?}");
    assert_eq!(log[0].notification_type, "0015");
    assert_eq!(log[0].attempt, 0);
    assert!(!log[0].acknowledged);
    assert_eq!(log[0].outcome, "no callback URL configured");
}
