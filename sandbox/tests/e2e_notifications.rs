//! Notifications 0015, 0026 and 0028: POSTed signed to the callback URL, verified with
//! the runtime, retried until the receiver answers `ok`, at most 5 deliveries.

mod common;

use std::collections::BTreeSet;
use std::convert::Infallible;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use baas_client::account::QueryClosingBalanceRequired;
use baas_client::cny::ApplyForCnyExpressRequired;
use baas_client::enums::NotificationType;
use baas_client::enums::{BeneficiaryType, CnyDocumentType, Currency, PaymentPurpose};
use baas_client::fx::{ApplyForFcExchangeRequest, ApplyForFcExchangeRequired};
use baas_client::records::{OrderItem, OrderItemRequired};
use baas_runtime::notification::{self, DeliveryId, Notification, Verifier};
use bytes::Bytes;
use common::{amount, confirm, start};
use http_body_util::{BodyExt, Full};
use hyper_util::rt::TokioIo;

#[derive(Default)]
struct Receiver {
    /// Deliveries to refuse before answering ok (per notification).
    refuse_first: u32,
    attempts: Vec<DeliveryId>,
    processed: Vec<Notification>,
    seen: BTreeSet<DeliveryId>,
    rejected_signatures: u32,
}

/// A callback receiver on 127.0.0.1; returns its URL.
async fn receiver(key: Verifier, state: Arc<Mutex<Receiver>>) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let key = Arc::new(key);
    tokio::spawn(async move {
        while let Ok((stream, _)) = listener.accept().await {
            let (key, state) = (key.clone(), state.clone());
            tokio::spawn(async move {
                let service = hyper::service::service_fn(
                    move |req: hyper::Request<hyper::body::Incoming>| {
                        let (key, state) = (key.clone(), state.clone());
                        async move {
                            let body = req
                                .into_body()
                                .collect()
                                .await
                                .map(|b| b.to_bytes())
                                .unwrap_or_default();
                            let answer = match key.verify(&body) {
                                Err(_) => {
                                    state.lock().unwrap().rejected_signatures += 1;
                                    "bad signature"
                                }
                                Ok(n) => {
                                    let mut s = state.lock().unwrap();
                                    let id = n.delivery_id();
                                    let earlier =
                                        s.attempts.iter().filter(|a| **a == id).count() as u32;
                                    s.attempts.push(id.clone());
                                    if earlier < s.refuse_first {
                                        "busy"
                                    } else {
                                        if s.seen.insert(id) {
                                            s.processed.push(n);
                                        }
                                        notification::ACK
                                    }
                                }
                            };
                            Ok::<_, Infallible>(hyper::Response::new(Full::new(Bytes::from(
                                answer,
                            ))))
                        }
                    },
                );
                let _ = hyper::server::conn::http1::Builder::new()
                    .serve_connection(TokioIo::new(stream), service)
                    .await;
            });
        }
    });
    format!("http://127.0.0.1:{}/callbacks", addr.port())
}

/// Waits until the sandbox has finished every delivery (bounded: a hang fails the test
/// instead of blocking the suite).
async fn settled(sb: &baas_sandbox::Sandbox) {
    tokio::time::timeout(Duration::from_secs(60), sb.deliveries_settled())
        .await
        .expect("deliveries settle");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn notifications_are_signed_retried_and_verified() {
    let (sb, c) = start().await;
    let state = Arc::new(Mutex::new(Receiver {
        refuse_first: 2,
        ..Receiver::default()
    }));
    sb.set_callback_url(&receiver(sb.notification_verifier(), state.clone()).await)
        .unwrap();

    let job = c
        .query_closing_balance(QueryClosingBalanceRequired {
            query_date: "2025-06-30".parse().expect("a date"),
        })
        .send()
        .await
        .unwrap()
        .job_id
        .unwrap();
    let fx = c
        .apply_for_fc_exchange(
            ApplyForFcExchangeRequest::new(ApplyForFcExchangeRequired {
                source_currency: Currency::Kes,
                target_currency: Currency::Eur,
                source_account: "2000000001".into(),
                target_account: "2000000003".into(),
            })
            .source_amount(amount("14025")),
        )
        .send()
        .await
        .unwrap();
    let fx_id = fx.application_id.clone().expect("an FX request id");
    // No OTP for FX: booked (and notified) at once.
    let order = OrderItem::new(OrderItemRequired {
        product_name: "tea".into(),
        quantity: 1,
        amount: amount("100"),
        order_time: 1,
        platform: "shop".into(),
    });
    let cny = c
        .apply_for_cny_express(ApplyForCnyExpressRequired {
            payer_account_id: "2000000001".into(),
            beneficiary_type: BeneficiaryType::Enterprise,
            beneficiary_name: "上海公司".into(),
            beneficiary_id_number: "9131".into(),
            beneficiary_bank_code: "BOC".into(),
            beneficiary_bank_name: "Bank of China".into(),
            beneficiary_bank_address: "Shanghai".into(),
            beneficiary_account_id: "6222".into(),
            payment_purpose: PaymentPurpose::RelatedPartyPayment,
            support_document_file: b"hi".into(),
            support_document_type: CnyDocumentType::Pdf,
            company_regis_document_file: b"hi".into(),
            company_regis_document_type: CnyDocumentType::Pdf,
            invoice_document_type: CnyDocumentType::Pdf,
            order_array: vec![order],
        })
        .send()
        .await
        .unwrap();
    let cny_id = cny.application_id.unwrap();
    confirm(&c, &sb, &cny_id).await;

    // The sandbox's own log is written after the receiver answered: waiting for the
    // receiver alone raced with the last acknowledgement.
    settled(&sb).await;
    let s = state.lock().unwrap();
    assert_eq!(s.processed.len(), 3);
    assert_eq!(s.rejected_signatures, 0);
    let mut by_type: Vec<(String, serde_json::Value)> = s
        .processed
        .iter()
        .map(|n| {
            (
                n.notification_type.clone(),
                n.params.parse::<serde_json::Value>().unwrap(),
            )
        })
        .collect();
    by_type.sort_by(|a, b| a.0.cmp(&b.0));
    assert_eq!(by_type[0].0, "0015");
    assert_eq!(by_type[0].1["jobId"], job.as_str());
    assert_eq!(by_type[1].0, "0026");
    assert_eq!(by_type[1].1["applicationId"], fx_id.as_str());
    assert_eq!(by_type[1].1["amount"], "100.00");
    assert_eq!(by_type[2].0, "0028");
    assert_eq!(by_type[2].1["applicationId"], cny_id.as_str());
    // The generated enum types a verified notification (through the client crate's
    // re-exported `notification` module, all a partner depends on).
    let mut typed: Vec<NotificationType> = s
        .processed
        .iter()
        .map(NotificationType::from_notification)
        .collect();
    typed.sort_by(|a, b| a.as_str().cmp(b.as_str()));
    assert_eq!(
        typed,
        [
            NotificationType::ClosingBalances,
            NotificationType::ForeignExchange,
            NotificationType::CnyTransfer
        ]
    );
    let _: fn(&Verifier, &[u8]) -> Result<Notification, baas_client::Error> =
        baas_client::notification::Verifier::verify;
    // Each was delivered three times (two refusals, then ok) with the same requestId.
    assert_eq!(s.attempts.len(), 9);
    drop(s);
    let log = sb.deliveries();
    assert_eq!(log.iter().filter(|d| d.acknowledged).count(), 3);
    assert!(log.iter().all(|d| d.attempt <= 3));
}

#[tokio::test]
async fn delivery_stops_after_five_attempts() {
    let mut config = baas_sandbox::SandboxConfig::default();
    config.retry_backoff = Duration::from_millis(1);
    let sb = baas_sandbox::Sandbox::start_with(config).await.unwrap();
    let c = baas_client::Client::new(sb.client_config()).unwrap();
    let state = Arc::new(Mutex::new(Receiver {
        refuse_first: 100,
        ..Receiver::default()
    }));
    // The receiver answers "busy" to every delivery.
    sb.set_callback_url(&receiver(sb.notification_verifier(), state.clone()).await)
        .unwrap();
    c.query_closing_balance(QueryClosingBalanceRequired {
        query_date: "2025-06-30".parse().expect("a date"),
    })
    .send()
    .await
    .unwrap();
    // Settled means the delivery task has ended: no later attempt can come.
    settled(&sb).await;
    let log = sb.deliveries();
    assert_eq!(log.len(), baas_sandbox::MAX_DELIVERIES as usize);
    assert!(log.iter().all(|d| !d.acknowledged && d.outcome == "busy"));
    let attempts: Vec<u32> = log.iter().map(|d| d.attempt).collect();
    assert_eq!(attempts, [1, 2, 3, 4, 5]);
    assert_eq!(state.lock().unwrap().attempts.len(), 5);
    assert!(state.lock().unwrap().processed.is_empty());
    assert!(sb.set_callback_url("http://10.0.0.1:80/x").is_err());
}

#[tokio::test]
async fn without_a_callback_url_the_notification_is_logged_as_undeliverable() {
    let (sb, c) = start().await;
    c.query_closing_balance(QueryClosingBalanceRequired {
        query_date: "2025-06-30".parse().expect("a date"),
    })
    .send()
    .await
    .unwrap();
    settled(&sb).await;
    let log = sb.deliveries();
    assert_eq!(log.len(), 1);
    assert_eq!(log[0].attempt, 0);
    assert_eq!(log[0].outcome, "no callback URL configured");
}
