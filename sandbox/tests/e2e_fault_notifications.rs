//! Faults on notifications (issue 23 item 1): lost, delivered twice with the same
//! requestId, delayed, out of order, wrongly signed; seen by a receiver that verifies
//! each with the runtime.

mod common;

use std::convert::Infallible;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use baas_client::enums::Currency;
use baas_client::fx::{ApplyForFcExchangeRequest, ApplyForFcExchangeRequired};
use baas_client::Client;
use baas_runtime::notification::{self, Verifier};
use baas_sandbox::faults::{Fault, NotificationFault};
use baas_sandbox::Sandbox;
use bytes::Bytes;
use common::{amount, start};
use http_body_util::{BodyExt, Full};
use hyper_util::rt::TokioIo;

/// What the receiver got, in arrival order: (requestId, type, when) of each verified
/// delivery, and the count of refused signatures.
#[derive(Default)]
struct Received {
    verified: Vec<(String, String, Instant)>,
    bad_signatures: u32,
}

/// A receiver on 127.0.0.1 that answers `ok` to each verified notification.
async fn receiver(sb: &Sandbox) -> Arc<Mutex<Received>> {
    let state = Arc::new(Mutex::new(Received::default()));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!(
        "http://127.0.0.1:{}/cb",
        listener.local_addr().unwrap().port()
    );
    let key: Arc<Verifier> = Arc::new(sb.notification_verifier());
    let shared = state.clone();
    tokio::spawn(async move {
        while let Ok((stream, _)) = listener.accept().await {
            let (key, state) = (key.clone(), shared.clone());
            tokio::spawn(async move {
                let service = hyper::service::service_fn(
                    move |req: hyper::Request<hyper::body::Incoming>| {
                        let (key, state) = (key.clone(), state.clone());
                        async move {
                            let body = req.into_body().collect().await.unwrap().to_bytes();
                            let answer = match key.verify(&body) {
                                Ok(n) => {
                                    state.lock().unwrap().verified.push((
                                        n.request_id.clone(),
                                        n.notification_type.clone(),
                                        Instant::now(),
                                    ));
                                    notification::ACK
                                }
                                Err(_) => {
                                    state.lock().unwrap().bad_signatures += 1;
                                    "bad signature"
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
    sb.set_callback_url(&url).unwrap();
    state
}

/// An FX exchange (booked at once, notified with 0026); returns its applicationId.
async fn exchange(c: &Client) -> String {
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
    .expect("applyForFcExchange")
    .application_id
    .expect("an applicationId")
}

async fn settled(sb: &Sandbox) {
    tokio::time::timeout(Duration::from_secs(60), sb.deliveries_settled())
        .await
        .expect("deliveries settle");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_duplicated_notification_arrives_twice_with_one_request_id() {
    let (sb, c) = start().await;
    let got = receiver(&sb).await;
    sb.inject(Fault::notification("0026", NotificationFault::Duplicate));
    exchange(&c).await;
    settled(&sb).await;
    let got = got.lock().unwrap();
    assert_eq!(got.verified.len(), 2);
    assert_eq!(got.verified[0].0, got.verified[1].0);
    assert_eq!(got.verified[0].1, "0026");
    let acknowledged: Vec<_> = sb
        .deliveries()
        .into_iter()
        .filter(|d| d.acknowledged)
        .collect();
    assert_eq!(acknowledged.len(), 2);
    assert_eq!(acknowledged[0].request_id, acknowledged[1].request_id);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_lost_notification_never_arrives_and_the_next_one_does() {
    let (sb, c) = start().await;
    let got = receiver(&sb).await;
    sb.inject(Fault::notification("any", NotificationFault::Lose));
    exchange(&c).await;
    exchange(&c).await;
    settled(&sb).await;
    assert_eq!(got.lock().unwrap().verified.len(), 1);
    let log = sb.deliveries();
    assert_eq!(log.len(), 2, "{log:?}");
    assert!(
        !log[0].acknowledged && log[0].outcome.starts_with("lost"),
        "{log:?}"
    );
    assert!(log[1].acknowledged, "{log:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_delayed_notification_arrives_late() {
    let (sb, c) = start().await;
    let got = receiver(&sb).await;
    sb.inject(Fault::notification(
        "0026",
        NotificationFault::Delay(Duration::from_millis(700)),
    ));
    let asked = Instant::now();
    exchange(&c).await;
    settled(&sb).await;
    let got = got.lock().unwrap();
    assert_eq!(got.verified.len(), 1);
    assert!(got.verified[0].2 - asked >= Duration::from_millis(700));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reordered_notification_arrives_after_the_next_one() {
    let (sb, c) = start().await;
    let got = receiver(&sb).await;
    sb.inject(Fault::notification("0026", NotificationFault::Reorder));
    exchange(&c).await;
    exchange(&c).await;
    settled(&sb).await;
    let log = sb.deliveries();
    // Notification requestIds are numbered in the order they were produced.
    let produced: Vec<String> = {
        let mut ids: Vec<String> = log.iter().map(|d| d.request_id.clone()).collect();
        ids.sort();
        ids.dedup();
        ids
    };
    assert_eq!(produced.len(), 2);
    let arrived: Vec<String> = got
        .lock()
        .unwrap()
        .verified
        .iter()
        .map(|v| v.0.clone())
        .collect();
    assert_eq!(arrived, [produced[1].clone(), produced[0].clone()]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_wrongly_signed_notification_is_refused_by_the_receiver() {
    let (sb, c) = start().await;
    let got = receiver(&sb).await;
    sb.inject(Fault::notification("0026", NotificationFault::BadSignature));
    exchange(&c).await;
    settled(&sb).await;
    let got = got.lock().unwrap();
    assert!(got.verified.is_empty());
    assert_eq!(got.bad_signatures, baas_sandbox::MAX_DELIVERIES);
    assert!(sb.deliveries().iter().all(|d| !d.acknowledged));
}
