//! Calls with raw JSON params and hand-made envelopes (independent of the shape of the
//! generated request types).

use std::time::Duration;

use baas_runtime::transport::{HttpRequest, Transport};
use baas_runtime::HttpsTransport;
use baas_sandbox::json::Json;
use baas_sandbox::{signing, Sandbox};
use serde_json::Value;

/// POSTs `body` to `path`; the HTTP status and the answer as JSON (Null if not JSON).
pub async fn post(sandbox: &Sandbox, path: &str, body: Vec<u8>) -> (u16, Value) {
    let t = HttpsTransport::new(Duration::from_secs(10)).unwrap();
    let url = format!("{}{path}", sandbox.base_url());
    let r = t
        .post_json(HttpRequest::new(
            url,
            body,
            Duration::from_secs(10),
            1 << 24,
        ))
        .await
        .expect("the sandbox answers");
    (
        r.status,
        serde_json::from_slice(&r.body).unwrap_or(Value::Null),
    )
}

/// Calls `path` with `params` in an envelope the runtime signs (fresh requestId, salt,
/// timestamp); returns the whole answer.
pub async fn call(sandbox: &Sandbox, path: &str, params: Value) -> Value {
    let signed = baas_runtime::envelope::sign_request(
        &params,
        sandbox.sender(),
        "en_KE",
        &sandbox.private_key(),
    )
    .unwrap();
    post(sandbox, path, signed.body).await.1
}

/// The `code` of [`call`].
pub async fn code(sandbox: &Sandbox, path: &str, params: Value) -> String {
    let answer = call(sandbox, path, params).await;
    answer["code"].as_str().unwrap_or("(none)").to_owned()
}

/// The `data` of [`call`], which must succeed.
pub async fn ok(sandbox: &Sandbox, path: &str, params: Value) -> Value {
    let answer = call(sandbox, path, params.clone()).await;
    assert_eq!(answer["code"], "00000", "{path} {params}: {answer}");
    answer.get("data").cloned().unwrap_or(Value::Null)
}

/// Signs an envelope written by hand (numbers kept as written) with the sandbox's own
/// signer, and POSTs it.
pub async fn post_envelope(sandbox: &Sandbox, path: &str, envelope: &str) -> Value {
    let message = Json::parse(envelope).expect("test envelope is JSON");
    let key = String::from_utf8(sandbox.private_key().expose().to_vec()).unwrap();
    let body = signing::signed(message, &key).to_json_string();
    post(sandbox, path, body.into_bytes()).await.1
}

/// sendOtp + confirmOperation with raw params; the answer of confirmOperation.
pub async fn confirm(sandbox: &Sandbox, business_id: &str) -> Value {
    ok(
        sandbox,
        "/common/sendOtp",
        serde_json::json!({"businessId": business_id, "otpType": "sms"}),
    )
    .await;
    call(
        sandbox,
        "/common/confirmOperation",
        serde_json::json!({"businessId": business_id, "otpCode": sandbox.otp_for(business_id)}),
    )
    .await
}

/// Applies for an internal or outgoing KES transfer and confirms it; the txId.
pub async fn transfer(
    sandbox: &Sandbox,
    payer: &str,
    bank: &str,
    payee: &str,
    amount: &str,
) -> String {
    let data = ok(
        sandbox,
        "/trans/v2/applyForTransfer",
        serde_json::json!({"payerAccountId": payer, "payeeBankCode": bank,
            "payeeAccountId": payee, "payeeAccountName": "Payee", "currency": "KES", "amount": amount}),
    )
    .await;
    let tx = data["txId"].as_str().unwrap().to_owned();
    let answer = confirm(sandbox, &tx).await;
    assert_eq!(answer["code"], "00000", "confirm {tx}: {answer}");
    tx
}
