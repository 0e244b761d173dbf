//! The admin page (`/_sandbox/`, issue 23): fetched over HTTP, it shows the accounts,
//! the ledger, pending applications with the OTP that confirms them (a transfer is
//! confirmed here with the OTP read from the page's JSON), recent requests with their
//! answers, notification deliveries and the faults in force; everything escaped, never
//! the key, and nothing it serves counts as a request of the API.

mod common;

use baas_client::enums::{Currency, FxCurrency, OtpType};
use baas_client::fx::{ApplyForFcExchangeRequest, ApplyForFcExchangeRequired};
use baas_client::otp::*;
use baas_client::transfers::*;
use baas_client::{Client, RawJson};
use baas_runtime::transport::reqwest;
use baas_sandbox::faults::{AnswerFault, Fault};
use baas_sandbox::{Sandbox, SandboxConfig, DEFAULT_KEY};
use common::{amount, start};
use serde_json::Value;

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
            &ApplyForTransferRequest::new(ApplyForTransferRequired {
                payer_account_id: "1000000001".into(),
                payee_bank_code: "46".into(),
                payee_account_id: "B1002".into(),
                currency: Currency::Kes,
                amount: amount("1000.50"),
            })
            .remark(REMARK),
        )
        .await
        .unwrap()
        .tx_id
        .unwrap();
    c.send_otp(&SendOtpRequest::new(SendOtpRequired {
        business_id: tx.clone(),
        otp_type: OtpType::Sms,
    }))
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
    c.confirm_operation(&ConfirmOperationRequest::new(ConfirmOperationRequired {
        business_id: tx.clone(),
        otp_code: otp,
    }))
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
        &ApplyForFcExchangeRequest::new(ApplyForFcExchangeRequired {
            source_currency: FxCurrency::Kes,
            target_currency: FxCurrency::Eur,
            source_account: "2000000001".into(),
            target_account: "2000000003".into(),
        })
        .source_amount(amount("1402.50")),
    )
    .await
    .unwrap();
    sb.inject(Fault::answer("getBankCodes", AnswerFault::DropAnswer));
    let mut config = sb.client_config();
    config.max_retries = 0;
    let once = Client::new(config).unwrap();
    assert!(once
        .get_bank_codes(&GetBankCodesRequest::new(RawJson::empty_object()))
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
