//! Envelope rules over real HTTP: validation failures never leave the client, a
//! tampered response is refused, bad signatures, replays, GET and unknown paths.

mod common;

use std::time::Duration;

use baas_client::account::GetAccountDetailsRequired;
use baas_client::cny::{
    ApplyForCnyExpressRequest, ApplyForCnyExpressRequired, GetCnyTransListRequired,
};
use baas_client::enums::{BeneficiaryType, CnyDocumentType, Currency, PaymentPurpose};
use baas_client::records::{OrderItem, OrderItemRequired};
use baas_client::transfers::{ApplyForTransferRequest, ApplyForTransferRequired};
use baas_runtime::transport::{HttpRequest, Transport};
use baas_runtime::{HttpsTransport, PrivateKey};
use common::{amount, start};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

async fn post(url: &str, body: Vec<u8>) -> (u16, serde_json::Value) {
    let t = HttpsTransport::new(Duration::from_secs(5)).unwrap();
    let r = t
        .post_json(HttpRequest::new(url, body, Duration::from_secs(5), 1 << 20))
        .await
        .unwrap();
    (
        r.status,
        serde_json::from_slice(&r.body).unwrap_or(serde_json::Value::Null),
    )
}

#[tokio::test]
async fn invalid_request_never_reaches_the_sandbox() {
    let (sb, c) = start().await;
    let before = sb.requests_seen();
    // Remark over 100 characters and an order of 600,000 CNY over the 500,000 limit.
    let bad = ApplyForTransferRequest::new(ApplyForTransferRequired {
        payer_account_id: "1000000001".into(),
        payee_bank_code: "46".into(),
        payee_account_id: "1000000004".into(),
        currency: Currency::Kes,
        amount: amount("1"),
    })
    .remark("r".repeat(101));
    let err = c.apply_for_transfer(bad).send().await.unwrap_err();
    assert!(err.to_string().contains("remark"), "{err}");
    let order = OrderItem::new(OrderItemRequired {
        product_name: "tea".into(),
        quantity: 1,
        amount: amount("600000"),
        order_time: 1,
        platform: "shop".into(),
    });
    let cny = ApplyForCnyExpressRequest::new(ApplyForCnyExpressRequired {
        payer_account_id: "2000000001".into(),
        beneficiary_type: BeneficiaryType::Individual,
        beneficiary_name: "n".into(),
        beneficiary_id_number: "1".into(),
        beneficiary_bank_code: "ICBC".into(),
        beneficiary_bank_name: "b".into(),
        beneficiary_bank_address: "a".into(),
        beneficiary_account_id: "1".into(),
        payment_purpose: PaymentPurpose::PurchaseGoods,
        support_document_file: b"hi".into(),
        support_document_type: CnyDocumentType::Pdf,
        company_regis_document_file: b"hi".into(),
        company_regis_document_type: CnyDocumentType::Pdf,
        invoice_document_type: CnyDocumentType::Pdf,
        order_array: vec![order],
    });
    let err = c.apply_for_cny_express(cny).send().await.unwrap_err();
    let text = err.to_string();
    assert!(
        text.contains("oderArray[0].amount")
            && text.contains("beneficiaryCountryCode")
            && text.contains("invoice"),
        "{text}"
    );
    assert_eq!(
        sb.requests_seen(),
        before,
        "the sandbox saw a request that failed validation"
    );
    assert!(sb.requests().is_empty());
}

#[tokio::test]
async fn tampered_response_is_refused() {
    let (sb, c) = start().await;
    sb.tamper_next_response();
    let err = c
        .get_account_details(GetAccountDetailsRequired {
            account_id: "1000000001".into(),
        })
        .send()
        .await
        .unwrap_err();
    assert!(
        matches!(err.kind(), baas_client::ErrorKind::SignatureInvalid),
        "{err:?}"
    );
    // The next response is intact again.
    c.get_account_details(GetAccountDetailsRequired {
        account_id: "1000000001".into(),
    })
    .send()
    .await
    .unwrap();
}

#[tokio::test]
async fn signature_replay_params_and_transport_rules() {
    let (sb, _c) = start().await;
    let key = sb.private_key();
    let url = format!("{}/query/getAccountDetails", sb.base_url());
    let params = serde_json::json!({"accountId": "1000000001"});
    let signed = baas_runtime::envelope::sign_request(&params, sb.sender(), "en_KE", &key).unwrap();

    // Wrong key: 12005, unsigned (the sandbox signs nothing it has not verified).
    let wrong = baas_runtime::envelope::sign_request(
        &params,
        sb.sender(),
        "en_KE",
        &PrivateKey::new("other"),
    )
    .unwrap();
    let (status, body) = post(&url, wrong.body).await;
    assert_eq!((status, body["code"].as_str()), (200, Some("12005")));
    assert_eq!(body["msg"], "Invalid signature");
    assert_eq!(body.as_object().map(|m| m.len()), Some(2), "{body}");

    // A changed amount after signing: 12005.
    let text = String::from_utf8(signed.body.clone())
        .unwrap()
        .replace("1000000001", "1000000004");
    assert_eq!(post(&url, text.into_bytes()).await.1["code"], "12005");

    // First use works; the same requestId again is refused.
    assert_eq!(post(&url, signed.body.clone()).await.1["code"], "00000");
    assert_eq!(post(&url, signed.body).await.1["code"], "12002");

    // Params the generated decoder refuses (unknown field) or validators refuse.
    let p = serde_json::json!({"accountId": "1", "bogus": 1});
    let s = baas_runtime::envelope::sign_request(&p, sb.sender(), "en_KE", &key).unwrap();
    let (_, body) = post(&url, s.body).await;
    assert_eq!(body["code"], "12001");
    assert!(body["msg"].as_str().unwrap().contains("bogus"), "{body}");
    let p = serde_json::json!({"pageNo": 1, "pageSize": 51});
    let s = baas_runtime::envelope::sign_request(&p, sb.sender(), "en_KE", &key).unwrap();
    let (_, body) = post(
        &format!("{}/query/getAbnormalAccountList", sb.base_url()),
        s.body,
    )
    .await;
    // pageSize over 50 answers 15002, as the live service does (the generated client
    // refuses it before sending).
    assert_eq!(body["code"], "15002");
    assert!(body["msg"].as_str().unwrap().contains("pageSize"), "{body}");

    // Unknown sender: 12003.
    let s = baas_runtime::envelope::sign_request(&params, "stranger", "en_KE", &key).unwrap();
    assert_eq!(post(&url, s.body).await.1["code"], "12003");

    // Unknown path: HTTP 500.
    let s = baas_runtime::envelope::sign_request(&params, sb.sender(), "en_KE", &key).unwrap();
    assert_eq!(
        post(&format!("{}/no/such/path", sb.base_url()), s.body)
            .await
            .0,
        500
    );

    // GET: code 12000.
    let mut stream = tokio::net::TcpStream::connect(sb.addr()).await.unwrap();
    stream
        .write_all(b"GET /query/getAccountDetails HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        .await
        .unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).await.unwrap();
    assert!(
        answer.starts_with("HTTP/1.1 200") && answer.contains("\"12000\""),
        "{answer}"
    );
}

#[tokio::test]
async fn business_errors_over_http() {
    let (_sb, c) = start().await;
    let err = c
        .apply_for_transfer(ApplyForTransferRequired {
            payer_account_id: "1000000003".into(),
            payee_bank_code: "46".into(),
            payee_account_id: "1000000004".into(),
            currency: Currency::Kes,
            amount: amount("1500.01"),
        })
        .send()
        .await
        .unwrap_err();
    assert_eq!(err.api_code(), Some("14009"));
    let err = c
        .get_account_details(GetAccountDetailsRequired {
            account_id: "42".into(),
        })
        .send()
        .await
        .unwrap_err();
    assert_eq!(err.api_code(), Some("13000"));
    // getCnyTransList declares pageSize a string: no client range check, the service's
    // own 15002 answers it.
    let err = c
        .get_cny_trans_list(GetCnyTransListRequired {
            user_id: "U2001".into(),
            account_id: "2000000001".into(),
            start_time: 0,
            end_time: 4_102_444_800_000,
            page_no: "1".into(),
            page_size: "51".into(),
        })
        .send()
        .await
        .unwrap_err();
    assert_eq!(err.api_code(), Some("15002"), "{err}");
}

#[tokio::test]
async fn a_running_sandbox_never_shows_the_key() {
    let mut config = baas_sandbox::SandboxConfig::default();
    config.key = "a-real-looking-key-9b2e".into();
    let sb = baas_sandbox::Sandbox::start_with(config.clone())
        .await
        .unwrap();
    let shown = format!("{sb:?} {sb:#?} {config:?}");
    assert!(!shown.contains("a-real-looking-key-9b2e"), "{shown}");
}
