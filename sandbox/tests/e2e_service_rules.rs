//! The sandbox refuses what the service refuses and accepts what it accepts (issue 11):
//! exact money, calendar dates, the envelope, notification ids across restarts, slow
//! clients, frozen and dormant payees, and where the live service is known to differ
//! from the document. Params are raw JSON, so these tests do not depend on the shape of
//! the generated request types.

mod common;

use std::collections::BTreeMap;

use baas_sandbox::Sandbox;
use common::raw::{call, confirm, ok, post_envelope, transfer};
use rust_decimal::Decimal;
use serde_json::{json, Value};

fn dec(v: &Value) -> Decimal {
    let text = v
        .as_str()
        .unwrap_or_else(|| panic!("an amount as a string: {v}"));
    text.parse().unwrap_or_else(|_| panic!("an amount: {text}"))
}

async fn shown_balance(sb: &Sandbox, account: &str) -> Decimal {
    let data = ok(
        sb,
        "/query/getAccountDetails",
        json!({"accountId": account}),
    )
    .await;
    dec(&data["balance"])
}

// ============================================================================ money

#[tokio::test]
async fn amounts_finer_than_the_minor_unit_are_refused() {
    let sb = Sandbox::start().await.unwrap();
    let before = sb.totals();
    let transfer_of = |amount: &str| {
        json!({"payerAccountId": "1000000001", "payeeBankCode": "46",
            "payeeAccountId": "1000000003", "currency": "KES", "amount": amount})
    };
    for amount in ["0.005", "0.001", "1500.001", "10.0000001"] {
        let answer = call(&sb, "/trans/v2/applyForTransfer", transfer_of(amount)).await;
        assert_eq!(answer["code"], "12001", "{amount}: {answer}");
        // The spec's rule (decision request-amounts) answers where it applies, the
        // sandbox's own minor-unit check everywhere else.
        let msg = answer["msg"].as_str().unwrap();
        assert!(
            msg.contains("minor unit") || msg.contains("at most 2 decimal places"),
            "{answer}"
        );
    }
    // The spec's rule counts the places of the text sent (decision request-amounts):
    // `0.500` is refused like a finer amount; `0.50` is the same amount and passes.
    let answer = call(&sb, "/trans/v2/applyForTransfer", transfer_of("0.500")).await;
    assert_eq!(answer["code"], "12001", "{answer}");
    let data = ok(&sb, "/trans/v2/applyForTransfer", transfer_of("0.50")).await;
    assert!(data["txId"].is_string());

    // Every other amount the sandbox takes.
    let cases = [
        (
            "/trans/v2/applyForFcExchange",
            json!({"sourceCurrency": "EUR", "targetCurrency": "KES", "sourceAccount": "2000000003",
                "targetAccount": "2000000001", "sourceAmount": "0.005"}),
        ),
        (
            "/trans/v2/applyForFcExchange",
            json!({"sourceCurrency": "EUR", "targetCurrency": "KES", "sourceAccount": "2000000003",
                "targetAccount": "2000000001", "targetAmount": "100.001"}),
        ),
        (
            "/utilityPayment/v2/airtimePayment",
            json!({"accountId": "1000000001", "mobileNumber": "254700000001",
                "networkProvider": 0, "amount": "10.001"}),
        ),
        (
            "/utilityPayment/v2/airtimeBulkPayment",
            json!({"accountId": "1000000001", "mobileDetails": [
                {"mobileNumber": "254700000001", "networkProvider": 0, "amount": "10"},
                {"mobileNumber": "254700000002", "networkProvider": 1, "amount": "0.009"}]}),
        ),
        (
            "/utilityPayment/v2/billPayment",
            json!({"accountId": "1000000001", "billType": 0, "billOrderNumber": "DSTV-1001",
                "amount": "1.999"}),
        ),
        (
            "/trans/telegraphicTransfer",
            json!({"accountId": "1000000001", "beneficiarySwiftBic": "DEUTDEFF",
                "beneficiaryBankName": "Deutsche Bank", "beneficiaryBankCity": "Frankfurt",
                "beneficiaryAccountId": "DE89370400440532013000", "beneficiaryAccountCcy": "EUR",
                "beneficiaryName": "Max", "amount": "100.125", "amountType": 0,
                "paymentChannel": "SWIFT", "paymentPurposeId": "GDDS",
                "senderAddress": "Nairobi", "chargeType": "OUR"}),
        ),
        (
            "/trans/txReversal",
            json!({"payerAccountId": "1000000001", "benificiaryName": "Jane",
                "benificiaryType": "0", "benificiaryAccount": "254700000009",
                "benificiaryBankCode": "M-PESA", "amount": "0.005"}),
        ),
        (
            "/trans/applyForCnyExpress",
            json!({"payerAccountId": "2000000001", "beneficiaryType": "2",
                "beneficiaryName": "Shanghai Tea Co", "beneficiaryIdNumber": "91310000",
                "beneficiaryBankCode": "ICBC",
                "beneficiaryBankName": "Industrial and Commercial Bank of China",
                "beneficiaryBankAddress": "Shanghai", "beneficiaryAccountId": "6222000011112222",
                "paymentPurpose": "PURCHASE_GOODS", "supportDocumentFile": "aGk=",
                "supportDocumentType": "pdf", "companyRegisDocumentFile": "aGk=",
                "companyRegisDocumentType": "pdf", "invoiceDocumentType": "pdf",
                "oderArray": [{"productName": "tea", "quantity": 1, "amount": "10.005",
                    "orderTime": 1_750_000_000_000_i64, "platform": "shop"}]}),
        ),
    ];
    for (path, params) in cases {
        let answer = call(&sb, path, params.clone()).await;
        assert_eq!(answer["code"], "12001", "{path} {params}: {answer}");
        let msg = answer["msg"].as_str().unwrap();
        assert!(
            msg.contains("minor unit") || msg.contains("at most 2 decimal places"),
            "{path}: {answer}"
        );
    }
    assert_eq!(sb.totals(), before);
}

#[tokio::test]
async fn the_shown_balance_can_always_be_moved() {
    let sb = Sandbox::start().await.unwrap();
    // A thousandth used to leave 99999.999 in the ledger, shown as 100000.00; moving
    // the shown 100000.00 then failed with "balance 100000.00, needed 100000.00".
    let answer = call(
        &sb,
        "/trans/v2/applyForTransfer",
        json!({"payerAccountId": "1000000004", "payeeBankCode": "46",
            "payeeAccountId": "1000000001", "currency": "KES", "amount": "0.001"}),
    )
    .await;
    assert_eq!(answer["code"], "12001", "{answer}");
    let shown = shown_balance(&sb, "1000000004").await;
    assert_eq!(shown.to_string(), "100000.00");
    transfer(&sb, "1000000004", "46", "1000000001", &shown.to_string()).await;
    assert_eq!(shown_balance(&sb, "1000000004").await, Decimal::ZERO);
    assert_eq!(sb.balance("1000000004").unwrap().to_string(), "0.00");
}

/// Every figure the sandbox reports (balances, transaction rows with their fees,
/// closing balances) adds up to its ledger, after transfers with fees, FX, airtime,
/// a bill and a reversal.
#[tokio::test]
async fn every_reported_figure_sums_to_the_ledger() {
    let sb = Sandbox::start().await.unwrap();
    let totals = sb.totals();
    let accounts = [
        "1000000001",
        "1000000003",
        "1000000004",
        "2000000001",
        "2000000003",
    ];
    let mut opening = BTreeMap::new();
    for a in accounts {
        opening.insert(a, shown_balance(&sb, a).await);
    }
    let start = baas_runtime::envelope::now_millis();

    // Sub-cent amounts: refused now; if a sandbox took them, the rounded figures it
    // reports would no longer add up to its ledger below.
    for (payer, payee, amount) in [
        ("1000000001", "1000000003", "0.005"),
        ("1000000004", "1000000001", "0.001"),
    ] {
        let answer = call(
            &sb,
            "/trans/v2/applyForTransfer",
            json!({"payerAccountId": payer, "payeeBankCode": "46", "payeeAccountId": payee,
                "currency": "KES", "amount": amount}),
        )
        .await;
        if let Some(tx) = answer["data"]["txId"].as_str() {
            confirm(&sb, tx).await;
        }
    }
    transfer(&sb, "1000000001", "46", "1000000003", "0.01").await;
    transfer(&sb, "1000000001", "46", "1000000003", "1499.99").await;
    transfer(&sb, "1000000003", "M-PESA", "254700000009", "333.33").await; // fee 1.67
    transfer(&sb, "1000000004", "68", "0123456789", "0.03").await; // fee 0.00
    let reversed = transfer(&sb, "1000000004", "01", "0123456789", "1234.57").await;
    ok(&sb, "/trans/txReversal", json!({"transactionId": reversed})).await;
    // FX needs no OTP: booked at once.
    ok(
        &sb,
        "/trans/v2/applyForFcExchange",
        json!({"sourceCurrency": "EUR", "targetCurrency": "KES", "sourceAccount": "2000000003",
            "targetAccount": "2000000001", "sourceAmount": "0.07"}),
    )
    .await;
    let airtime = ok(
        &sb,
        "/utilityPayment/v2/airtimePayment",
        json!({"accountId": "1000000001", "mobileNumber": "254700000001",
            "networkProvider": 1, "amount": "99.99"}),
    )
    .await;
    confirm(&sb, airtime["paymentId"].as_str().unwrap()).await;

    for a in accounts {
        let shown = shown_balance(&sb, a).await;
        assert_eq!(
            Some(shown),
            sb.balance(a).map(|b| b.to_string().parse().unwrap()),
            "{a}"
        );
        let list = ok(
            &sb,
            "/query/getTransList",
            json!({"userId": "U1001", "accountId": a, "txType": [], "txStatus": [8],
                "startTime": start, "endTime": 4_102_444_800_000_i64, "pageNo": 1,
                "pageSize": 50, "orderByDesc": 0}),
        )
        .await;
        let mut sum = opening[a];
        for row in list["result"].as_array().unwrap() {
            let amount = dec(&row["amount"]);
            let fee = dec(&row["extInfo"]["fee"]);
            match row["txType"].as_str().unwrap() {
                // transfer in, reversal
                "TTID0003" | "TTID0011" => sum += amount,
                _ => sum -= amount + fee,
            }
        }
        assert_eq!(sum, shown, "{a}: rows {list}");
    }
    assert_eq!(sb.totals(), totals);
}

// ============================================================================ dates

/// `YYYY-MM-DD` of a day counted from 1970-01-01 (H. Hinnant's civil_from_days).
fn date_of(days: i64) -> String {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02}")
}

#[tokio::test]
async fn closing_balance_dates_exist_and_have_ended() {
    let sb = Sandbox::start().await.unwrap();
    let today = baas_runtime::envelope::now_millis().div_euclid(86_400_000);
    let path = "/report/queryClosingBalance";
    for (date, want) in [
        ("2026-13-45", "12001"),
        ("2026-02-30", "12001"),
        ("2025-02-29", "12001"),
        ("2026-04-31", "12001"),
        ("2099-01-01", "15001"),
        (&date_of(today), "15001"),
        (&date_of(today + 1), "15001"),
        ("2024-02-29", "00000"),
        ("2025-12-31", "00000"),
        (&date_of(today - 1), "00000"),
    ] {
        let answer = call(&sb, path, json!({ "queryDate": date })).await;
        assert_eq!(answer["code"], want, "{date}: {answer}");
    }
}

// ============================================================================ envelope

/// An envelope with `timestamp`, `locale`, `salt` and `params` written as given (an
/// empty string leaves the member out).
fn envelope(timestamp: &str, locale: &str, salt: &str, params: &str) -> String {
    static N: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
    let n = N.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    let mut members = vec![
        format!(
            r#""requestId":"ENV{}{n:06}""#,
            baas_runtime::envelope::now_millis()
        ),
        r#""sender":"sandbox-partner""#.to_owned(),
    ];
    for (name, value) in [
        ("timestamp", timestamp),
        ("locale", locale),
        ("salt", salt),
        ("params", params),
    ] {
        if !value.is_empty() {
            members.push(format!(r#""{name}":{value}"#));
        }
    }
    format!("{{{}}}", members.join(","))
}

#[tokio::test]
async fn the_envelope_is_what_the_document_says() {
    let sb = Sandbox::start().await.unwrap();
    let path = "/query/getAccountDetails";
    let now = baas_runtime::envelope::now_millis();
    let (ms, seconds) = (now.to_string(), (now / 1000).to_string());
    let quoted = format!("\"{now}\"");
    let params = r#"{"accountId":"1000000001"}"#;
    let good = envelope(&ms, r#""en_KE""#, r#""Qx81kdj20s""#, params);
    assert_eq!(post_envelope(&sb, path, &good).await["code"], "00000");

    let refused = [
        // timestamp: seconds, a string, a float, 1e30, microseconds, missing
        envelope(&seconds, r#""en_KE""#, r#""Qx81kdj20s""#, params),
        envelope(&quoted, r#""en_KE""#, r#""Qx81kdj20s""#, params),
        envelope(&format!("{now}.0"), r#""en_KE""#, r#""Qx81kdj20s""#, params),
        envelope("1e30", r#""en_KE""#, r#""Qx81kdj20s""#, params),
        envelope(
            &(now * 1000).to_string(),
            r#""en_KE""#,
            r#""Qx81kdj20s""#,
            params,
        ),
        envelope("", r#""en_KE""#, r#""Qx81kdj20s""#, params),
        // salt: missing, empty, a number
        envelope(&ms, r#""en_KE""#, "", params),
        envelope(&ms, r#""en_KE""#, r#""""#, params),
        envelope(&ms, r#""en_KE""#, "12345", params),
        // locale: `xx`, 5, missing, the wrong case, a hyphen
        envelope(&ms, r#""xx""#, r#""Qx81kdj20s""#, params),
        envelope(&ms, "5", r#""Qx81kdj20s""#, params),
        envelope(&ms, "", r#""Qx81kdj20s""#, params),
        envelope(&ms, r#""en_ke""#, r#""Qx81kdj20s""#, params),
        envelope(&ms, r#""en-KE""#, r#""Qx81kdj20s""#, params),
        // params: [], null, a string, missing
        envelope(&ms, r#""en_KE""#, r#""Qx81kdj20s""#, "[]"),
        envelope(&ms, r#""en_KE""#, r#""Qx81kdj20s""#, "null"),
        envelope(&ms, r#""en_KE""#, r#""Qx81kdj20s""#, r#""x""#),
        envelope(&ms, r#""en_KE""#, r#""Qx81kdj20s""#, ""),
    ];
    for body in refused {
        let answer = post_envelope(&sb, path, &body).await;
        assert_eq!(answer["code"], "12001", "{body}: {answer}");
    }
    let answer = post_envelope(
        &sb,
        path,
        &envelope(&seconds, r#""en_KE""#, r#""Qx81kdj20s""#, params),
    )
    .await;
    assert!(
        answer["msg"].as_str().unwrap().contains("seconds"),
        "{answer}"
    );
    // The key itself is never sent.
    let leaked = good.replacen(
        r#""sender""#,
        r#""senderKey":"sandbox-test-key-not-a-secret","sender""#,
        1,
    );
    let leaked = leaked.replacen("ENV", "LEAK", 1);
    assert_eq!(post_envelope(&sb, path, &leaked).await["code"], "12001");
    // A requestId that is not a string.
    let numeric = envelope(&ms, r#""en_KE""#, r#""Qx81kdj20s""#, params)
        .replacen(r#""requestId":"ENV"#, r#""requestId":1"#, 1)
        .replacen(r#"","sender""#, r#","sender""#, 1);
    assert_eq!(
        post_envelope(&sb, path, &numeric).await["code"],
        "12002",
        "{numeric}"
    );
    // An operation without parameters sends {}.
    let empty = envelope(&ms, r#""en_KE""#, r#""Qx81kdj20s""#, "{}");
    let answer = post_envelope(&sb, "/staticData/getBankCodes", &empty).await;
    assert_eq!(answer["code"], "00000", "{answer}");
}

// ============================================================================ notifications

/// The requestId of the first closing-balance notification of a fresh sandbox.
async fn first_notification_id() -> String {
    let sb = Sandbox::start().await.unwrap();
    ok(
        &sb,
        "/report/queryClosingBalance",
        json!({"queryDate": "2025-06-30"}),
    )
    .await;
    sb.deliveries_settled().await;
    let deliveries = sb.deliveries();
    assert_eq!(deliveries.len(), 1, "{deliveries:?}");
    deliveries[0].request_id.clone()
}

#[tokio::test]
async fn notification_request_ids_are_new_after_a_restart() {
    // A receiver deduplicates on (requestId, notificationType): the first notification
    // after a restart must not repeat the first one of the previous run.
    let first_run = first_notification_id().await;
    let second_run = first_notification_id().await;
    assert_ne!(first_run, second_run);
    assert!(first_run.ends_with("0015"), "{first_run}");
}

// ============================================================================ slow clients

async fn read_all_within(
    stream: &mut tokio::net::TcpStream,
    limit: std::time::Duration,
) -> Option<String> {
    use tokio::io::AsyncReadExt;
    let mut answer = Vec::new();
    match tokio::time::timeout(limit, stream.read_to_end(&mut answer)).await {
        Ok(_) => Some(String::from_utf8_lossy(&answer).into_owned()),
        Err(_) => None,
    }
}

#[tokio::test]
async fn slow_clients_are_cut_off() {
    use std::time::{Duration, Instant};
    use tokio::io::AsyncWriteExt;
    let defaults = baas_sandbox::SandboxConfig::default();
    assert!(defaults.header_read_timeout <= Duration::from_secs(10));
    assert!(defaults.body_read_timeout <= Duration::from_secs(20));
    let mut config = baas_sandbox::SandboxConfig::default();
    config.header_read_timeout = Duration::from_millis(300);
    config.body_read_timeout = Duration::from_millis(300);
    let sb = Sandbox::start_with(config).await.unwrap();

    // Half a body: answered with 12001 and closed.
    let started = Instant::now();
    let mut stream = tokio::net::TcpStream::connect(sb.addr()).await.unwrap();
    stream
        .write_all(b"POST /query/getAccountDetails HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"requestId\":")
        .await
        .unwrap();
    let answer = read_all_within(&mut stream, Duration::from_secs(5))
        .await
        .expect("the connection is closed, not held");
    assert!(answer.contains("\"12001\""), "{answer}");
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "{:?}",
        started.elapsed()
    );

    // Half the headers: disconnected.
    let started = Instant::now();
    let mut stream = tokio::net::TcpStream::connect(sb.addr()).await.unwrap();
    stream
        .write_all(b"POST /query/getAccountDetails HTTP/1.1\r\nHost: x\r\n")
        .await
        .unwrap();
    read_all_within(&mut stream, Duration::from_secs(5))
        .await
        .expect("the connection is closed, not held");
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "{:?}",
        started.elapsed()
    );

    // A normal call still works.
    ok(
        &sb,
        "/query/getAccountDetails",
        json!({"accountId": "1000000001"}),
    )
    .await;
}

// ============================================================================ payees

#[tokio::test]
async fn a_frozen_payee_is_refused_and_a_dormant_one_is_credited() {
    let sb = Sandbox::start().await.unwrap();
    let before = sb.totals();
    let v = ok(
        &sb,
        "/account/validateAccount",
        json!({"accountId": "2000000004", "accountType": 0}),
    )
    .await;
    assert_eq!(v["freezeStatus"], 1);
    let to_frozen = call(
        &sb,
        "/trans/v2/applyForTransfer",
        json!({"payerAccountId": "1000000001", "payeeBankCode": "46",
            "payeeAccountId": "2000000004", "currency": "KES", "amount": "10"}),
    )
    .await;
    assert_eq!(to_frozen["code"], "11000", "{to_frozen}");
    assert!(
        to_frozen["msg"].as_str().unwrap().contains("frozen"),
        "{to_frozen}"
    );
    let fx_to_frozen = call(
        &sb,
        "/trans/v2/applyForFcExchange",
        json!({"sourceCurrency": "EUR", "targetCurrency": "KES", "sourceAccount": "2000000003",
            "targetAccount": "2000000004", "sourceAmount": "1"}),
    )
    .await;
    assert_eq!(fx_to_frozen["code"], "11000", "{fx_to_frozen}");
    assert_eq!(shown_balance(&sb, "2000000004").await.to_string(), "10.00");

    // Dormant: credited, and still dormant (only activateAccount ends dormancy).
    transfer(&sb, "1000000001", "46", "1000000005", "100").await;
    let d = ok(
        &sb,
        "/query/getAccountDetails",
        json!({"accountId": "1000000005"}),
    )
    .await;
    assert_eq!(d["balance"], "420.00");
    assert_eq!(d["dormantStatus"], 1);
    assert_eq!(sb.totals(), before);
}

// ============================================================================ live behaviour

#[tokio::test]
async fn page_size_over_50_answers_15002_as_live() {
    let sb = Sandbox::start().await.unwrap();
    let cases = [
        (
            "/query/getAbnormalAccountList",
            json!({"pageNo": 1, "pageSize": 51}),
        ),
        (
            "/query/getTransList",
            json!({"userId": "U1001", "accountId": "1000000001", "txType": [], "txStatus": [],
                "startTime": 0, "endTime": 1, "pageNo": 1, "pageSize": 100, "orderByDesc": 1}),
        ),
        (
            "/trans/getInterBankTransferList",
            json!({"accountId": "1000000001", "startTime": 0, "endTime": 1, "pageNo": 1,
                "pageSize": 51}),
        ),
        (
            "/utilityPayment/bulkPaymentQuery",
            json!({"bulkPaymentOrderId": "BULK1", "pageNo": 1, "pageSize": 51}),
        ),
        (
            "/query/getCnyTransList",
            json!({"userId": "U2001", "accountId": "2000000001", "startTime": "0",
                "endTime": "1", "pageNo": "1", "pageSize": "51"}),
        ),
    ];
    for (path, params) in cases {
        let answer = call(&sb, path, params).await;
        assert_eq!(answer["code"], "15002", "{path}: {answer}");
    }
    let answer = call(
        &sb,
        "/query/getAbnormalAccountList",
        json!({"pageNo": 1, "pageSize": 50}),
    )
    .await;
    assert_eq!(answer["code"], "00000", "{answer}");
}

#[tokio::test]
async fn get_trans_list_without_user_id_or_filters_is_answered_as_live() {
    let sb = Sandbox::start().await.unwrap();
    transfer(&sb, "1000000001", "46", "1000000004", "12.34").await;
    let data = ok(
        &sb,
        "/query/getTransList",
        json!({"accountId": "1000000001", "startTime": 0, "endTime": 4_102_444_800_000_i64,
            "pageNo": 1, "pageSize": 10, "orderByDesc": 1}),
    )
    .await;
    assert_eq!(data["totalRows"], 2, "{data}"); // the seeded one and this one
    let row = &data["result"][0];
    assert_eq!(row["txType"], "TTID0002", "{row}");
    assert_eq!(row["oppoAccountName"], "Brian Otieno", "{row}");
    assert_eq!(row["paymentChannel"], "INTERNAL_TRANSFER", "{row}");
    assert!(row["extInfo"].is_object(), "{row}");
    for invented in ["direction", "counterparty", "fee"] {
        assert!(row.get(invented).is_none(), "{invented} in {row}");
    }
    let list = ok(&sb, "/staticData/getBankCodes", json!({})).await;
    let codes: Vec<&str> = list["bankCodeList"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["bankCode"].as_str().unwrap())
        .collect();
    assert!(codes.contains(&"46"), "{list}");
    let choice = call(
        &sb,
        "/trans/v2/applyForTransfer",
        json!({"payerAccountId": "1000000001", "payeeBankCode": "CHOICE",
            "payeeAccountId": "1000000004", "currency": "KES", "amount": "1"}),
    )
    .await;
    assert_eq!(choice["code"], "10000", "{choice}");
}

#[tokio::test]
async fn otp_type_is_sms_or_email_in_lower_case() {
    let sb = Sandbox::start().await.unwrap();
    let data = ok(
        &sb,
        "/trans/v2/applyForTransfer",
        json!({"payerAccountId": "1000000001", "payeeBankCode": "46",
            "payeeAccountId": "1000000004", "currency": "KES", "amount": "1"}),
    )
    .await;
    let tx = data["txId"].as_str().unwrap();
    for otp_type in ["SMS", "Email", "whatsapp", "WHATSAPP", ""] {
        let answer = call(
            &sb,
            "/common/sendOtp",
            json!({"businessId": tx, "otpType": otp_type}),
        )
        .await;
        assert_eq!(answer["code"], "12001", "{otp_type}: {answer}");
    }
    for otp_type in ["sms", "email"] {
        ok(
            &sb,
            "/common/sendOtp",
            json!({"businessId": tx, "otpType": otp_type}),
        )
        .await;
    }
}
