//! The admin page (`/_sandbox/`, issue 23): fetched over HTTP, it shows the accounts,
//! the ledger, pending applications with the OTP that confirms them (a transfer is
//! confirmed here with the OTP read from the page's JSON), recent requests with their
//! answers, notification deliveries and the faults in force; everything escaped, never
//! the key, and nothing it serves counts as a request of the API.

mod common;

use baas_client::enums::{Currency, OtpType};
use baas_client::fx::{ApplyForFcExchangeRequest, ApplyForFcExchangeRequired};
use baas_client::otp::*;
use baas_client::transfers::*;
use baas_client::{Client, RawJson};
use baas_runtime::transport::reqwest;
use baas_sandbox::faults::{AnswerFault, Fault};
use baas_sandbox::{Sandbox, SandboxConfig, DEFAULT_KEY};
use common::{amount, start};
use serde_json::Value;
use std::sync::{Arc, Mutex};

async fn get(url: &str) -> (u16, String, String) {
    let response = reqwest::Client::builder()
        .no_proxy()
        .build()
        .unwrap()
        .get(url)
        .send()
        .await
        .expect("the admin page answers");
    let status = response.status().as_u16();
    let kind = response
        .headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_owned();
    (status, kind, response.text().await.unwrap())
}

async fn api(sb: &Sandbox, what: &str) -> Value {
    let (status, kind, body) = get(&format!("{}api/{what}", sb.admin_url())).await;
    assert_eq!((status, kind.as_str()), (200, "application/json"), "{body}");
    serde_json::from_str(&body).unwrap()
}

const REMARK: &str = "<script>alert('x')</script> & rent";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_page_shows_what_happened_and_confirms_with_its_otp() {
    let (sb, c) = start().await;
    let tx = c
        .apply_for_transfer(
            ApplyForTransferRequest::new(ApplyForTransferRequired {
                payer_account_id: "1000000001".into(),
                payee_bank_code: "46".into(),
                payee_account_id: "B1002".into(),
                currency: Currency::Kes,
                amount: amount("1000.50"),
            })
            .remark(REMARK),
        )
        .send()
        .await
        .unwrap()
        .tx_id
        .unwrap();
    c.send_otp(SendOtpRequired {
        business_id: tx.clone(),
        otp_type: OtpType::Sms,
    })
    .send()
    .await
    .unwrap();
    sb.inject(Fault::answer("getTransList", AnswerFault::Unsigned).times(3));
    let seen = sb.requests_seen();

    let (status, kind, page) = get(&sb.admin_url()).await;
    assert_eq!((status, kind.as_str()), (200, "text/html; charset=utf-8"));
    assert!(page.contains(&format!("<td>{tx}</td>")), "{page}");
    assert!(page.contains(&format!("<td>{}</td>", sb.otp_for(&tx))));
    assert!(page.contains("<td>1000000001</td>") && page.contains("<td>250000.00</td>"));
    assert!(page.contains("unsigned on operation getTransList, next 3"));
    assert!(page.contains("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; rent"));
    assert!(!page.contains("<script>"), "unescaped markup on the page");
    assert!(!page.contains(DEFAULT_KEY), "the key is shown");

    // The OTP as the page's JSON gives it confirms the transfer.
    let pending = api(&sb, "applications").await;
    let row = pending
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["business_id"] == tx.as_str())
        .expect("the transfer is pending");
    assert_eq!(row["operation"], "applyForTransfer");
    assert_eq!(row["otp_sent"], true);
    let otp = row["otp"].as_str().unwrap().to_owned();
    c.confirm_operation(ConfirmOperationRequired {
        business_id: tx.clone(),
        otp_code: otp,
    })
    .send()
    .await
    .expect("the page's OTP confirms");
    assert!(api(&sb, "applications")
        .await
        .as_array()
        .unwrap()
        .is_empty());

    let accounts = api(&sb, "accounts").await;
    let balance = |id: &str| {
        accounts
            .as_array()
            .unwrap()
            .iter()
            .find(|a| a["id"] == id)
            .map(|a| a["balance"].clone())
    };
    assert_eq!(balance("1000000001"), Some("248999.50".into()));
    assert_eq!(balance("1000000004"), Some("101000.50".into()));
    let ledger = api(&sb, "transactions").await;
    assert!(ledger
        .as_array()
        .unwrap()
        .iter()
        .any(|t| t["id"] == tx.as_str() && t["status"] == 8 && t["remark"] == REMARK));
    let requests = api(&sb, "requests").await;
    let newest = &requests[0];
    assert_eq!(newest["operation"], "confirmOperation");
    assert_eq!(newest["code"], "00000");
    assert!(newest["answer"].as_str().unwrap().contains("\"signature\""));
    assert_eq!(api(&sb, "faults").await[0]["remaining"], 3);
    // Looking counted no request of the API.
    assert_eq!(sb.requests_seen(), seen + 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn deliveries_and_dropped_answers_are_shown() {
    let (sb, c) = start().await;
    c.apply_for_fc_exchange(
        ApplyForFcExchangeRequest::new(ApplyForFcExchangeRequired {
            source_currency: Currency::Kes,
            target_currency: Currency::Eur,
            source_account: "2000000001".into(),
            target_account: "2000000003".into(),
        })
        .source_amount(amount("1402.50")),
    )
    .send()
    .await
    .unwrap();
    sb.inject(Fault::answer("getBankCodes", AnswerFault::DropAnswer));
    let mut config = sb.client_config();
    config.max_retries = 0;
    let once = Client::new(config).unwrap();
    assert!(once
        .get_bank_codes(GetBankCodesRequest::new(RawJson::empty_object()))
        .send()
        .await
        .is_err());
    let deliveries = api(&sb, "deliveries").await;
    assert_eq!(deliveries[0]["notification_type"], "0026");
    assert_eq!(deliveries[0]["outcome"], "no callback URL configured");
    let requests = api(&sb, "requests").await;
    assert_eq!(requests[0]["operation"], "getBankCodes");
    assert_eq!(requests[0]["sent"], "dropped (fault)");
    let state = api(&sb, "state").await;
    assert_eq!(state["faults"][0]["hits"], 1);
    let (_, _, page) = get(&sb.admin_url()).await;
    assert!(page.contains("<td>dropped (fault)</td>") && page.contains("<td>0026</td>"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_admin_the_path_is_the_apis() {
    let mut config = SandboxConfig::default();
    config.admin = false;
    let sb = Sandbox::start_with(config).await.unwrap();
    let (status, _, body) = get(&sb.admin_url()).await;
    assert_eq!(status, 200);
    let answer: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(answer["code"], "12000", "{body}");
    assert_eq!(sb.requests_seen(), 1);
}

async fn post(
    sb: &Sandbox,
    action: &str,
    content_type: &str,
    body: String,
    origin: Option<&str>,
) -> (u16, String) {
    let client = reqwest::Client::builder()
        .no_proxy()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap();
    let mut request = client
        .post(format!("{}{action}", sb.admin_url()))
        .header("content-type", content_type)
        .body(body);
    if let Some(origin) = origin {
        request = request.header("origin", origin);
    }
    let response = request.send().await.expect("the admin page answers");
    (response.status().as_u16(), response.text().await.unwrap())
}

fn form(pairs: &[(&str, &str)]) -> String {
    let mut url = reqwest::Url::parse("http://form/").unwrap();
    url.query_pairs_mut().extend_pairs(pairs);
    url.query().unwrap_or_default().to_owned()
}

const FORM: &str = "application/x-www-form-urlencoded";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn faults_and_the_clock_are_set_from_the_page() {
    let (sb, c) = start().await;
    let yaml = "faults:\n  - operation: getBankCodes\n    fault: unsigned\n";
    // From another site's page: refused, nothing set.
    let (status, _) = post(
        &sb,
        "faults",
        FORM,
        form(&[("scenario", yaml)]),
        Some("http://evil.example"),
    )
    .await;
    assert_eq!(status, 403);
    assert!(sb.faults().is_empty());
    // The page's own form: set, and back to the page.
    let own = format!("http://{}", sb.addr());
    let (status, _) = post(&sb, "faults", FORM, form(&[("scenario", yaml)]), Some(&own)).await;
    assert_eq!(status, 303);
    assert_eq!(sb.faults().len(), 1);
    let err = c
        .get_bank_codes(GetBankCodesRequest::new(RawJson::empty_object()))
        .send()
        .await
        .unwrap_err();
    assert!(
        matches!(err.kind(), baas_client::ErrorKind::SignatureMissing),
        "{err:?}"
    );
    // A bad scenario as YAML: its line and what was expected.
    let (status, body) = post(
        &sb,
        "faults",
        "application/yaml",
        "faults:\n  - operation: getBankCodes\n    fault: melt\n".into(),
        None,
    )
    .await;
    assert_eq!(status, 400);
    let answer: Value = serde_json::from_str(&body).unwrap();
    assert!(
        answer["error"]
            .as_str()
            .unwrap()
            .starts_with("scenario:2: faults[0]: unknown fault `melt`"),
        "{body}"
    );
    let (status, _) = post(&sb, "faults/clear", FORM, String::new(), None).await;
    assert_eq!(status, 303);
    assert!(sb.faults().is_empty());

    let before = api(&sb, "state").await["clock_ms"].as_i64().unwrap();
    let (status, _) = post(
        &sb,
        "clock",
        FORM,
        form(&[("advance_ms", "86400000")]),
        None,
    )
    .await;
    assert_eq!(status, 303);
    let after = api(&sb, "state").await["clock_ms"].as_i64().unwrap();
    assert!(after - before >= 86_400_000, "{before} -> {after}");
    let (status, _) = post(&sb, "clock", FORM, form(&[("advance_ms", "soon")]), None).await;
    assert_eq!(status, 400);
    let (status, _) = post(&sb, "explode", FORM, String::new(), None).await;
    assert_eq!(status, 404);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_notification_is_delivered_again_from_the_page() {
    let (sb, c) = start().await;
    let received = Arc::new(Mutex::new(Vec::<String>::new()));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    sb.set_callback_url(&format!(
        "http://127.0.0.1:{}/cb",
        listener.local_addr().unwrap().port()
    ))
    .unwrap();
    let verifier = Arc::new(sb.notification_verifier());
    let got = received.clone();
    tokio::spawn(async move {
        while let Ok((stream, _)) = listener.accept().await {
            let (verifier, got) = (verifier.clone(), got.clone());
            tokio::spawn(async move {
                let service = hyper::service::service_fn(
                    move |req: hyper::Request<hyper::body::Incoming>| {
                        let (verifier, got) = (verifier.clone(), got.clone());
                        async move {
                            let body = http_body_util::BodyExt::collect(req.into_body())
                                .await
                                .unwrap()
                                .to_bytes();
                            if let Ok(n) = verifier.verify(&body) {
                                got.lock().unwrap().push(n.request_id);
                            }
                            Ok::<_, std::convert::Infallible>(hyper::Response::new(
                                http_body_util::Full::new(bytes::Bytes::from("ok")),
                            ))
                        }
                    },
                );
                let _ = hyper::server::conn::http1::Builder::new()
                    .serve_connection(hyper_util::rt::TokioIo::new(stream), service)
                    .await;
            });
        }
    });
    c.apply_for_fc_exchange(
        ApplyForFcExchangeRequest::new(ApplyForFcExchangeRequired {
            source_currency: Currency::Kes,
            target_currency: Currency::Eur,
            source_account: "2000000001".into(),
            target_account: "2000000003".into(),
        })
        .source_amount(amount("1402.50")),
    )
    .send()
    .await
    .unwrap();
    sb.deliveries_settled().await;
    let id = received.lock().unwrap()[0].clone();
    let (_, _, page) = get(&sb.admin_url()).await;
    assert!(page.contains(&format!("<option value=\"{id}\">")), "{page}");
    let (status, _) = post(&sb, "redeliver", FORM, form(&[("request_id", &id)]), None).await;
    assert_eq!(status, 303);
    sb.deliveries_settled().await;
    assert_eq!(*received.lock().unwrap(), [id.clone(), id.clone()]);
    let acknowledged = sb
        .deliveries()
        .iter()
        .filter(|d| d.acknowledged && d.request_id == id)
        .count();
    assert_eq!(acknowledged, 2);
    let (status, body) = post(&sb, "redeliver", "text/plain", "NTF-none".into(), None).await;
    assert_eq!(status, 400, "{body}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_signature_shows_the_canonical_string_expected_without_the_key() {
    let (sb, c) = start().await;
    let mut config = sb.client_config();
    config.private_key = baas_runtime::PrivateKey::new("a-wrong-key-7f3a");
    let wrong = Client::new(config).unwrap();
    let refused = wrong
        .get_bank_codes(GetBankCodesRequest::new(RawJson::empty_object()))
        .send()
        .await
        .unwrap_err();
    assert_eq!(refused.api_code(), Some("12005"));
    c.get_bank_codes(GetBankCodesRequest::new(RawJson::empty_object()))
        .send()
        .await
        .unwrap();
    let requests = api(&sb, "requests").await;
    let (good, bad) = (&requests[0], &requests[1]);
    assert_eq!(
        (
            good["signature_verified"].as_bool(),
            good["expected"].as_str()
        ),
        (Some(true), None)
    );
    assert_eq!(bad["code"], "12005");
    assert_eq!(bad["signature_verified"], false);
    let expected = bad["expected"].as_str().unwrap();
    assert!(
        expected.contains("sender=sandbox-partner&senderKey=[redacted]&"),
        "{expected}"
    );
    let (_, _, page) = get(&sb.admin_url()).await;
    assert!(page.contains("senderKey=[redacted]"));
    for secret in [DEFAULT_KEY, "a-wrong-key-7f3a"] {
        assert!(!page.contains(secret) && !requests.to_string().contains(secret));
    }
}
