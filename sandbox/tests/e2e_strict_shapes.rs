//! Every answer and notification the sandbox sends has exactly the shape the spec
//! declares: over every operation group (the same run as `e2e_operations`'s coverage
//! test), each answer's `data` and each notification's `params` is captured as sent,
//! decoded into the generated response type of its operation (or the payload record of
//! its notification type), written back with the `server` feature and compared with
//! what was sent. A member the spec does not declare is dropped by the decode; a value
//! of another JSON type than declared comes back in the declared one (`"8"` for an
//! integer `8`): either fails, naming the operation and the member.

mod common;
mod operations;

use std::collections::BTreeSet;
use std::convert::Infallible;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use baas_client::dispatch::{self, Request};
use baas_client::notifications::Payload;
use baas_client::Client;
use baas_runtime::notification::{self, Notification, Verifier};
use baas_runtime::transport::BoxFuture;
use baas_runtime::{HttpRequest, HttpResponse, HttpsTransport, Operation, Transport};
use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper_util::rt::TokioIo;
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;

/// One call as it went over the wire.
struct Exchange {
    path: String,
    request: Vec<u8>,
    response: Vec<u8>,
}

/// The default transport, keeping a copy of every request and answer body.
struct Recorder {
    inner: HttpsTransport,
    base_url: String,
    log: Arc<Mutex<Vec<Exchange>>>,
}

impl Transport for Recorder {
    fn post_json(
        &self,
        request: HttpRequest,
    ) -> BoxFuture<'_, Result<HttpResponse, baas_runtime::Error>> {
        Box::pin(async move {
            let path = request.url.trim_start_matches(&self.base_url).to_owned();
            let sent = request.body.clone();
            let answer = self.inner.post_json(request).await?;
            self.log.lock().unwrap().push(Exchange {
                path,
                request: sent,
                response: answer.body.clone(),
            });
            Ok(answer)
        })
    }
}

/// A callback receiver on 127.0.0.1 keeping every verified notification; its URL.
async fn receiver(verifier: Verifier, got: Arc<Mutex<Vec<Notification>>>) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let verifier = Arc::new(verifier);
    tokio::spawn(async move {
        while let Ok((stream, _)) = listener.accept().await {
            let (verifier, got) = (verifier.clone(), got.clone());
            let service = hyper::service::service_fn(move |req: hyper::Request<_>| {
                let (verifier, got) = (verifier.clone(), got.clone());
                async move {
                    let body: Bytes = BodyExt::collect(req.into_body())
                        .await
                        .map(|b| b.to_bytes())
                        .unwrap_or_default();
                    let answer = match verifier.verify(&body) {
                        Ok(n) => {
                            got.lock().unwrap().push(n);
                            notification::ACK
                        }
                        Err(_) => "bad signature",
                    };
                    Ok::<_, Infallible>(hyper::Response::new(Full::new(Bytes::from(answer))))
                }
            });
            tokio::spawn(async move {
                let _ = hyper::server::conn::http1::Builder::new()
                    .serve_connection(TokioIo::new(stream), service)
                    .await;
            });
        }
    });
    format!("http://127.0.0.1:{port}/callbacks")
}

/// The first member where `typed` (the decoded value written back) differs from
/// `sent`, under `at`: `None` when they are equal.
fn first_difference(at: &str, sent: &Value, typed: Option<&Value>) -> Option<String> {
    match (sent, typed) {
        (Value::Object(s), Some(Value::Object(t))) => {
            for (k, v) in s {
                if let Some(d) = first_difference(&format!("{at}.{k}"), v, t.get(k)) {
                    return Some(d);
                }
            }
            t.keys()
                .find(|k| !s.contains_key(*k))
                .map(|k| format!("`{at}.{k}` was not sent but is written back"))
        }
        (Value::Array(s), Some(Value::Array(t))) if s.len() == t.len() => s
            .iter()
            .zip(t)
            .enumerate()
            .find_map(|(i, (s, t))| first_difference(&format!("{at}[{i}]"), s, Some(t))),
        (_, None) => Some(format!("`{at}` is not declared by the spec (sent {sent})")),
        (s, Some(t)) if s == t => None,
        (s, Some(t)) => Some(format!(
            "`{at}` was sent as {s}, but its declared type reads it as {t}"
        )),
    }
}

/// Decodes `sent` as `T` and writes it back: `Err` names the first member that differs.
fn strict<T: DeserializeOwned + Serialize>(sent: &Value) -> Result<(), String> {
    let decoded: T =
        serde_json::from_value(sent.clone()).map_err(|e| format!("does not decode: {e}"))?;
    let typed =
        serde_json::to_value(&decoded).map_err(|e| format!("cannot be written back: {e}"))?;
    match first_difference("data", sent, Some(&typed)) {
        Some(d) => Err(d),
        None => Ok(()),
    }
}

/// [`strict`] with the response type of the operation `_request` belongs to.
fn answer_of<O: Operation>(_request: &O, data: &Value) -> Result<(), String>
where
    O::Response: DeserializeOwned + Serialize,
{
    strict::<O::Response>(data)
}

/// `match` over the operations of one group, each checked against its response type
/// (every variant listed: an operation the sandbox serves and the test does not check
/// stops this test compiling).
macro_rules! by_operation {
    ($request:expr, $data:expr, $group:ident: $($variant:ident),+ $(,)?) => {{
        use dispatch::$group::Request as R;
        match $request {
            $(R::$variant(r) => answer_of(r, $data),)+
        }
    }};
}

/// The typed request of a recorded call and whether its answer's `data` has exactly
/// the shape of the operation's response type.
fn check_answer(request: &Request, data: &Value) -> Result<(), String> {
    match request {
        Request::Account(r) => by_operation!(r, data, account: GetAccountDetails,
            QueryAccountListByUserId, GetAbnormalAccountList, ApplyForShortCode,
            QueryForShortCode, QueryAccountByShortCode, ActivateAccount, EditSubAccountName,
            CancelAccountOperation, ValidateAccount, QueryClosingBalance),
        Request::Cny(r) => by_operation!(r, data, cny: ApplyForCnyExpress, GetCnyTransList,
            GetCnyTransferDetails),
        Request::Fx(r) => by_operation!(r, data, fx: GetForeignExchangeRate, ApplyForFcExchange,
            GetFxRequestStatus),
        Request::Onboarding(r) => by_operation!(r, data, onboarding: GetOnboardingStatus,
            GetUserKyc, GetKycMediaList, GetOnboardingRequestId, GetBusinessOnboardingStatus,
            GetBusinessOnboardingRequestId, GetStoreOnboardingInfo, GetCompanyOnboardingInfo,
            GetOrganisationOnboardingInfo, GetPartnershipOnboardingInfo),
        Request::Otp(r) => by_operation!(r, data, otp: SendOtp, ConfirmOperation, SendAccAdminOtp,
            GroupApplications),
        Request::Reversal(r) => by_operation!(r, data, reversal: TxReversal, QueryTxReversal,
            FetchTransactionFee),
        Request::Transfers(r) => by_operation!(r, data, transfers:
            ApplyForMobileMoneyBusinessTransfer, ApplyForTransfer, GetTransList, GetTransResult,
            TelegraphicTransfer, GetInterBankTransferList, GetInterBankTransferDetails,
            GetBankCodes),
        Request::User(r) => by_operation!(r, data, user: AddEmail, VerifyEmailAddress),
        Request::Utility(r) => by_operation!(r, data, utility: AirtimePayment,
            AirtimeBulkPayment, BillQuery, BillPayment, PaymentQuery, BulkPaymentQuery),
    }
}

/// The typed request a recorded call made (the operation of its path whose request
/// type decodes its params, as the sandbox reads it).
fn request_of(e: &Exchange) -> Request {
    let message: Value = serde_json::from_slice(&e.request).expect("the client sent JSON");
    let params = message["params"].to_string();
    dispatch::OPERATIONS
        .iter()
        .filter(|o| o.path == e.path)
        .find_map(|o| dispatch::decode(o.name, &params).ok())
        .unwrap_or_else(|| panic!("no operation of {} takes {params}", e.path))
}

/// Whether `params` has exactly the shape of the payload record of its type.
fn check_notification(n: &Notification) -> Result<(), String> {
    let sent: Value = n.params.parse().map_err(|e| e.to_string())?;
    let payload = Payload::from_notification(n).map_err(|e| e.to_string())?;
    if let Payload::Other { .. } = payload {
        return Err("has no payload record".to_owned());
    }
    let written = payload.to_params().map_err(|e| e.to_string())?;
    let typed: Value = written.parse().map_err(|e| e.to_string())?;
    first_difference("params", &sent, Some(&typed)).map_or(Ok(()), Err)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_answer_and_notification_has_the_declared_shape() {
    let sb = baas_sandbox::Sandbox::start().await.unwrap();
    let log = Arc::new(Mutex::new(Vec::new()));
    let transport = Recorder {
        inner: HttpsTransport::new(Duration::from_secs(10)).unwrap(),
        base_url: sb.base_url(),
        log: log.clone(),
    };
    let c = Client::with_transport(sb.client_config(), Arc::new(transport)).unwrap();
    let notifications = Arc::new(Mutex::new(Vec::new()));
    sb.set_callback_url(&receiver(sb.notification_verifier(), notifications.clone()).await)
        .unwrap();

    operations::every_group(&sb, &c).await;
    tokio::time::timeout(Duration::from_secs(60), sb.deliveries_settled())
        .await
        .expect("deliveries settle");

    let mut problems = Vec::new();
    let mut checked = BTreeSet::new();
    for e in log.lock().unwrap().iter() {
        let answer: Value = serde_json::from_slice(&e.response).expect("the sandbox answers JSON");
        if answer["code"] != "00000" {
            continue;
        }
        let request = request_of(e);
        let operation = request.operation();
        // An answer with code and msg only is the empty response type's answer.
        let data = answer
            .get("data")
            .cloned()
            .unwrap_or_else(|| Value::Object(Default::default()));
        if let Err(problem) = check_answer(&request, &data) {
            problems.push(format!("{operation}: {problem}"));
        }
        checked.insert(operation);
    }
    let unchecked: Vec<&str> = dispatch::OPERATIONS
        .iter()
        .map(|o| o.name)
        .filter(|n| !checked.contains(n))
        .collect();
    assert!(
        unchecked.is_empty(),
        "no successful answer checked for {unchecked:?}"
    );

    let mut types = BTreeSet::new();
    for n in notifications.lock().unwrap().iter() {
        if let Err(problem) = check_notification(n) {
            problems.push(format!("notification {}: {problem}", n.notification_type));
        }
        types.insert(n.notification_type.clone());
    }
    // Every notification type the sandbox sends: closing balances, FX, CNY.
    assert_eq!(
        types,
        BTreeSet::from(["0015", "0026", "0028"].map(String::from))
    );
    assert!(
        problems.is_empty(),
        "shapes the spec does not declare:\n{}",
        problems.join("\n")
    );
}

#[test]
fn an_undeclared_member_or_another_json_type_is_named() {
    let declared = serde_json::json!({"applicationId": "FX1", "status": 6, "amount": "100.00"});
    assert_eq!(strict::<baas_client::records::FxRequest>(&declared), Ok(()));
    let extra = serde_json::json!({"applicationId": "FX1", "status": 6, "note": "x"});
    let e = strict::<baas_client::records::FxRequest>(&extra).unwrap_err();
    assert!(e.contains("`data.note` is not declared"), "{e}");
    let as_text = serde_json::json!({"applicationId": "FX1", "status": "6"});
    let e = strict::<baas_client::records::FxRequest>(&as_text).unwrap_err();
    assert!(e.contains("`data.status` was sent as \"6\""), "{e}");
    let nested =
        serde_json::json!({"result": [{"txId": "T1", "extInfo": {"fee": "0.00", "zz": 1}}]});
    let e = strict::<baas_client::transfers::GetTransListResponse>(&nested).unwrap_err();
    assert!(
        e.contains("`data.result[0].extInfo.zz` is not declared"),
        "{e}"
    );
}
