//! Settling a confirmation whose outcome is unknown (issue 34 item 9), against the
//! sandbox: a confirmation lost before it arrived (`lose_request`: no effect) settles as
//! not confirmed, and a second confirmation with the same OTP moves the money once; one
//! whose answer was lost after its effect (`drop_answer`) settles as confirmed; a lookup
//! that keeps failing leaves it unknown.

mod common;

use std::time::Duration;

use baas_client::enums::{Currency, NetworkProvider, OtpType, TxStatus, UtilityPaymentStatus};
use baas_client::transfers::ApplyForTransferRequired;
use baas_client::utility::AirtimePaymentRequired;
use baas_client::{Client, ErrorKind, Outcome, Settlement};
use baas_sandbox::faults::{scenario, AnswerFault, Fault};
use baas_sandbox::Sandbox;
use common::amount;

const PAYER: &str = "1000000001";
const PAYEE: &str = "1000000004";

/// A sandbox and a client with a 400 ms timeout and quick retries.
async fn start() -> (Sandbox, Client) {
    let sandbox = Sandbox::start().await.expect("sandbox starts");
    let mut config = sandbox.client_config();
    config.request_timeout = Duration::from_millis(400);
    config.retry_backoff = Duration::from_millis(10);
    (sandbox, Client::new(config).expect("client builds"))
}

fn transfer() -> ApplyForTransferRequired {
    ApplyForTransferRequired {
        payer_account_id: PAYER.into(),
        payee_bank_code: "46".into(),
        payee_account_id: PAYEE.into(),
        currency: Currency::Kes,
        amount: amount("1000.50"),
    }
}

/// Requests the sandbox logged for `operation`, with the code each got.
fn logged(sb: &Sandbox, operation: &str) -> Vec<String> {
    sb.requests()
        .into_iter()
        .filter(|r| r.operation.as_deref() == Some(operation))
        .map(|r| r.code)
        .collect()
}

fn moved_once(sb: &Sandbox, totals: &std::collections::BTreeMap<String, baas_client::Amount>) {
    assert_eq!(sb.balance(PAYER), Some(amount("248999.50")));
    assert_eq!(sb.balance(PAYEE), Some(amount("101000.50")));
    assert_eq!(&sb.totals(), totals);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_confirmation_lost_before_it_arrived_settles_as_not_confirmed_and_is_confirmed_again_once(
) {
    let (sb, c) = start().await;
    assert_eq!(sb.service_sender(), baas_sandbox::SERVICE_SENDER);
    assert_eq!(sb.service_sender(), "baas-sandbox");
    let totals = sb.totals();
    let before = (sb.balance(PAYER), sb.balance(PAYEE));
    let pending = c
        .apply_for_transfer(transfer())
        .pending()
        .await
        .expect("applied");
    pending.send_otp(OtpType::Sms).await.expect("sendOtp");
    let tx = pending.business_id().to_owned();
    sb.inject(Fault::answer("confirmOperation", AnswerFault::LoseRequest).when("businessId", &tx));
    let otp = sb.otp_for(&tx);

    let err = pending.confirm(otp.clone()).await.unwrap_err();
    assert!(
        matches!(err.kind(), ErrorKind::OutcomeUnknown { .. }),
        "{err:?}"
    );
    assert_eq!(err.outcome(), Outcome::Unknown);
    // Nothing happened: no money moved, and the log shows the request as lost.
    assert_eq!((sb.balance(PAYER), sb.balance(PAYEE)), before);
    assert_eq!(logged(&sb, "confirmOperation"), ["lost"]);

    match pending.settle().await {
        Settlement::NotConfirmed { state, otp_rule } => {
            assert_eq!(state, TxStatus::Submitted);
            assert!(otp_rule.contains("same OTP"), "{otp_rule}");
        }
        other => panic!("expected NotConfirmed, got {other:?}"),
    }
    // The rule allows the same OTP again while the application waits for it.
    pending.confirm(otp).await.expect("confirmed again");
    match pending.settle().await {
        Settlement::Confirmed { state, is_final } => {
            assert_eq!(state, TxStatus::Succeeded);
            assert!(is_final);
        }
        other => panic!("expected Confirmed, got {other:?}"),
    }
    moved_once(&sb, &totals);
    assert_eq!(logged(&sb, "confirmOperation"), ["lost", "00000"]);
    assert_eq!(sb.faults()[0].hits, 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_confirmation_whose_answer_was_lost_settles_as_confirmed() {
    let (sb, c) = start().await;
    let totals = sb.totals();
    let pending = c
        .apply_for_transfer(transfer())
        .pending()
        .await
        .expect("applied");
    pending.send_otp(OtpType::Sms).await.expect("sendOtp");
    let tx = pending.business_id().to_owned();
    sb.inject(Fault::answer("confirmOperation", AnswerFault::DropAnswer).when("businessId", &tx));
    let err = pending.confirm(sb.otp_for(&tx)).await.unwrap_err();
    assert_eq!(err.outcome(), Outcome::Unknown, "{err:?}");
    let settled = pending.settle().await;
    assert!(!settled.safe_to_confirm_again());
    match settled {
        Settlement::Confirmed { state, is_final } => {
            assert_eq!(state, TxStatus::Succeeded);
            assert!(is_final);
        }
        other => panic!("expected Confirmed, got {other:?}"),
    }
    moved_once(&sb, &totals);
    assert_eq!(logged(&sb, "confirmOperation"), ["00000"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_lookup_that_keeps_failing_leaves_it_unknown_and_a_payment_settles_by_its_query() {
    let (sb, c) = start().await;
    let pending = c
        .apply_for_transfer(transfer())
        .pending()
        .await
        .expect("applied");
    // Busy three times: the query is tried three times (two retries), then given up.
    sb.inject(
        Fault::answer(
            "getTransResult",
            AnswerFault::Code {
                code: "10001".into(),
                effect: false,
            },
        )
        .times(3),
    );
    match pending.settle().await {
        Settlement::StillUnknown { error } => {
            assert_eq!(error.api_code(), Some("10001"), "{error:?}");
            assert_eq!(error.operation(), Some("getTransResult"));
        }
        other => panic!("expected StillUnknown, got {other:?}"),
    }
    assert!(matches!(
        pending.settle().await,
        Settlement::NotConfirmed {
            state: TxStatus::Submitted,
            ..
        }
    ));

    // An airtime payment settles through paymentQuery (status 1: waiting for its OTP).
    let payment = c
        .airtime_payment(AirtimePaymentRequired {
            account_id: PAYER.into(),
            mobile_number: "254700000001".into(),
            network_provider: NetworkProvider::First,
            amount: amount("100"),
        })
        .pending()
        .await
        .expect("airtime applied");
    payment.send_otp(OtpType::Sms).await.expect("sendOtp");
    let id = payment.business_id().to_owned();
    sb.inject(Fault::answer("confirmOperation", AnswerFault::LoseRequest).when("businessId", &id));
    let err = payment.confirm(sb.otp_for(&id)).await.unwrap_err();
    assert_eq!(err.outcome(), Outcome::Unknown);
    assert!(matches!(
        payment.settle().await,
        Settlement::NotConfirmed {
            state: UtilityPaymentStatus::WaitingForOtp,
            ..
        }
    ));
    payment
        .confirm(sb.otp_for(&id))
        .await
        .expect("confirmed again");
    assert!(matches!(
        payment.settle().await,
        Settlement::Confirmed { is_final: true, .. }
    ));
}

#[test]
fn lose_request_reads_from_a_scenario_and_names_itself() {
    let faults = scenario::parse(
        "t.yaml",
        "faults:\n  - operation: confirmOperation\n    fault: lose_request\n",
    )
    .expect("reads");
    assert_eq!(faults.len(), 1);
    assert_eq!(
        faults[0].to_string(),
        "lose_request on operation confirmOperation, next 1"
    );
}

#[tokio::test]
async fn a_lookup_without_a_state_or_with_one_the_sdk_does_not_list_is_still_unknown() {
    use baas_client::mock::MockTransport;
    use baas_client::transfers::{
        ApplyForTransferRequest, ApplyForTransferResponse, GetTransResultRequest,
        GetTransResultResponse,
    };
    use baas_client::{Config, PrivateKey};
    use std::sync::Arc;

    let key = PrivateKey::new("unit-test-key");
    let mock = Arc::new(MockTransport::new(key.clone()));
    mock.on::<ApplyForTransferRequest, _>(|_| {
        Ok(serde_json::from_str::<ApplyForTransferResponse>(r#"{"txId":"T1"}"#).expect("answer"))
    });
    let mut config = Config::new("https://mock.invalid", "me", key);
    config.max_retries = 0;
    let client = Client::with_transport(config, mock.clone()).expect("client");
    let pending = client
        .apply_for_transfer(transfer())
        .pending()
        .await
        .expect("applied");
    for (answer, says) in [
        (r#"{"txId":"T1"}"#, "no state"),
        (r#"{"txId":"T1","txStatus":3}"#, "not one this SDK lists"),
    ] {
        let response: GetTransResultResponse = serde_json::from_str(answer).expect("answer");
        mock.on::<GetTransResultRequest, _>(move |_| Ok(response.clone()));
        match pending.settle().await {
            Settlement::StillUnknown { error } => {
                assert!(
                    matches!(error.kind(), ErrorKind::Decode { .. }),
                    "{error:?}"
                );
                assert!(error.to_string().contains(says), "{error}");
                assert_eq!(error.operation(), Some("getTransResult"));
            }
            other => panic!("expected StillUnknown, got {other:?}"),
        }
    }
    let processing: GetTransResultResponse =
        serde_json::from_str(r#"{"txId":"T1","txStatus":2}"#).expect("answer");
    mock.on::<GetTransResultRequest, _>(move |_| Ok(processing.clone()));
    assert!(matches!(
        pending.settle().await,
        Settlement::Confirmed {
            state: TxStatus::Processing,
            is_final: false
        }
    ));
}
