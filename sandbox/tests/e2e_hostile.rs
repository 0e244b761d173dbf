//! Hostile input over real HTTP: amounts at the edge of the decimal type, deep JSON,
//! bytes that are not UTF-8, bodies over the size limit. Every one gets an answer (no
//! dropped connection), no money moves, and the sandbox keeps serving afterwards.

mod common;

use baas_client::account::GetAccountDetailsRequired;
use baas_client::enums::{AmountType, ChargeType, Currency, FeeBeneficiaryType, PaymentChannel};
use baas_client::fx::{ApplyForFcExchangeRequest, ApplyForFcExchangeRequired};
use baas_client::reversal::FetchTransactionFeeRequired;
use baas_client::transfers::{ApplyForTransferRequired, TelegraphicTransferRequired};
use common::{amount, raw, start};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// The largest value of the decimal type (28 digits): every product or sum with it
/// overflows.
const HUGE: &str = "79228162514264337593543950335";

/// The sandbox still serves a normal call.
async fn still_serving(c: &baas_client::Client) {
    c.get_account_details(GetAccountDetailsRequired {
        account_id: "1000000001".into(),
    })
    .send()
    .await
    .expect("the sandbox still serves");
}

#[tokio::test]
async fn amounts_at_the_limit_of_the_decimal_type_are_refused_not_panicked_on() {
    let (sb, c) = start().await;
    let before = sb.totals();

    // To an account whose id sorts before the payer's: its new balance used to be
    // computed first and overflowed (a panic, a dropped connection); debits are checked
    // first now.
    let r = c
        .apply_for_transfer(ApplyForTransferRequired {
            payer_account_id: "1000000004".into(),
            payee_bank_code: "46".into(),
            payee_account_id: "1000000001".into(),
            currency: Currency::Kes,
            amount: amount(HUGE),
        })
        .send()
        .await;
    assert_eq!(r.unwrap_err().api_code(), Some("14009"));

    // Outside the bank: amount plus fee overflows.
    let r = c
        .apply_for_transfer(ApplyForTransferRequired {
            payer_account_id: "1000000001".into(),
            payee_bank_code: "M-PESA".into(),
            payee_account_id: "0700000000".into(),
            currency: Currency::Kes,
            amount: amount(HUGE),
        })
        .send()
        .await;
    assert_eq!(r.unwrap_err().api_code(), Some("12001"));

    // FX: EUR to KES multiplies by 140.25; the other way the amount fits but nobody
    // holds it.
    let r = c
        .apply_for_fc_exchange(
            ApplyForFcExchangeRequest::new(ApplyForFcExchangeRequired {
                source_currency: Currency::Eur,
                target_currency: Currency::Kes,
                source_account: "2000000003".into(),
                target_account: "2000000001".into(),
            })
            .source_amount(amount(HUGE)),
        )
        .send()
        .await;
    assert_eq!(r.unwrap_err().api_code(), Some("12001"));
    let r = c
        .apply_for_fc_exchange(
            ApplyForFcExchangeRequest::new(ApplyForFcExchangeRequired {
                source_currency: Currency::Eur,
                target_currency: Currency::Kes,
                source_account: "2000000003".into(),
                target_account: "2000000001".into(),
            })
            .target_amount(amount(HUGE)),
        )
        .send()
        .await;
    assert_eq!(r.unwrap_err().api_code(), Some("14009"));

    // The fee of a huge amount still fits.
    let fee = c
        .fetch_transaction_fee(FetchTransactionFeeRequired {
            payer_account_id: "1000000001".into(),
            benificiary_name: "Jane".into(),
            benificiary_type: FeeBeneficiaryType::Individual,
            benificiary_account: "254700000009".into(),
            benificiary_bank_code: "M-PESA".into(),
            amount: amount(HUGE),
        })
        .send()
        .await
        .unwrap();
    assert!(fee.fee_amount.is_some(), "{fee:?}");

    // SWIFT with the amount in the beneficiary's currency (EUR) from a KES account.
    let r = c
        .telegraphic_transfer(TelegraphicTransferRequired {
            account_id: "1000000001".into(),
            beneficiary_swift_bic: "DEUTDEFF".into(),
            beneficiary_bank_name: "Deutsche Bank".into(),
            beneficiary_bank_city: "Frankfurt".into(),
            beneficiary_account_id: "DE89370400440532013000".into(),
            beneficiary_account_ccy: Currency::Eur,
            beneficiary_name: "Max Mustermann".into(),
            amount: amount(HUGE),
            amount_type: AmountType::CreditAccountCurrency,
            payment_channel: PaymentChannel::Swift,
            payment_purpose_id: "GDDS".into(),
            sender_address: "Nairobi".into(),
            charge_type: ChargeType::Our,
        })
        .send()
        .await;
    assert_eq!(r.unwrap_err().api_code(), Some("12001"));

    still_serving(&c).await;
    assert_eq!(sb.totals(), before);
}

#[tokio::test]
async fn deep_json_bad_utf8_and_oversized_bodies_get_an_answer() {
    let (sb, c) = start().await;
    let path = "/query/getAccountDetails";

    // 100,000 nested arrays: refused before any recursion into them.
    let deep = format!(
        "{{\"params\":{}1{}}}",
        "[".repeat(100_000),
        "]".repeat(100_000)
    );
    assert_eq!(
        raw::post(&sb, path, deep.into_bytes()).await.1["code"],
        "12001"
    );

    // Not UTF-8.
    let body = b"{\"requestId\":\"\xff\xfe\"}".to_vec();
    assert_eq!(raw::post(&sb, path, body).await.1["code"], "12001");

    // A repeated key (which copy would the signature cover?).
    let body = br#"{"sender":"sandbox-partner","params":{"accountId":"1","accountId":"2"}}"#;
    let answer = raw::post(&sb, path, body.to_vec()).await.1;
    assert_eq!(answer["code"], "12001");
    assert!(
        answer["msg"].as_str().unwrap().contains("duplicate key"),
        "{answer}"
    );

    // Not an object; empty.
    assert_eq!(
        raw::post(&sb, path, b"[1,2]".to_vec()).await.1["code"],
        "12001"
    );
    assert_eq!(raw::post(&sb, path, Vec::new()).await.1["code"], "12001");

    // A body over the limit: the sandbox stops reading and answers.
    let limit = 48 * 1024 * 1024;
    let mut stream = tokio::net::TcpStream::connect(sb.addr()).await.unwrap();
    let head = format!(
        "POST /query/getAccountDetails HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        limit + 1
    );
    stream.write_all(head.as_bytes()).await.unwrap();
    let chunk = vec![b' '; 1 << 20];
    let mut sent = 0;
    while sent <= limit {
        // The sandbox may close its side once it has answered: stop writing then.
        if stream.write_all(&chunk).await.is_err() {
            break;
        }
        sent += chunk.len();
    }
    let mut answer = Vec::new();
    let _ = stream.read_to_end(&mut answer).await;
    let answer = String::from_utf8_lossy(&answer);
    assert!(answer.contains("\"12001\""), "{answer}");

    still_serving(&c).await;
}

/// A callback receiver on 127.0.0.1 that answers `ok` to every POST; its URL.
async fn ok_receiver() -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        while let Ok((mut stream, _)) = listener.accept().await {
            tokio::spawn(async move {
                let mut request = Vec::new();
                let mut buf = [0u8; 4096];
                // Headers, then as many bytes as Content-Length says.
                loop {
                    let Ok(n) = stream.read(&mut buf).await else {
                        return;
                    };
                    if n == 0 {
                        return;
                    }
                    request.extend_from_slice(&buf[..n]);
                    let text = String::from_utf8_lossy(&request).to_lowercase();
                    if let Some(end) = text.find("\r\n\r\n") {
                        let len: usize = text
                            .lines()
                            .find_map(|l| l.strip_prefix("content-length:"))
                            .and_then(|v| v.trim().parse().ok())
                            .unwrap_or(0);
                        if request.len() >= end + 4 + len {
                            break;
                        }
                    }
                }
                let _ = stream
                    .write_all(
                        b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok",
                    )
                    .await;
            });
        }
    });
    format!("http://{addr}/callbacks")
}

#[tokio::test]
async fn a_large_signed_request_is_served_off_the_async_workers() {
    // Over 64 KiB (a long salt): read under a permit and checked on a blocking thread,
    // from where the operation runs and its notification is delivered.
    let (sb, c) = start().await;
    sb.set_callback_url(&ok_receiver().await).unwrap();
    let envelope = format!(
        r#"{{"requestId":"LARGE-1","sender":"{}","locale":"en_KE","timestamp":{},"salt":"{}","params":{{"queryDate":"2025-06-30"}}}}"#,
        sb.sender(),
        baas_runtime::envelope::now_millis(),
        "s".repeat(100 * 1024)
    );
    let answer = raw::post_envelope(&sb, "/report/queryClosingBalance", &envelope).await;
    assert_eq!(answer["code"], "00000", "{}", answer["msg"]);
    assert_eq!(answer["requestId"], "LARGE-1");
    sb.deliveries_settled().await;
    let deliveries = sb.deliveries();
    assert!(
        deliveries.len() == 1 && deliveries[0].acknowledged,
        "{deliveries:?}"
    );
    still_serving(&c).await;
}
