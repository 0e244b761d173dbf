//! A partner's unit test with the shipped mock: typed stubs per operation, recorded
//! requests, and the real client path (validation, signing, verification, decoding)
//! without a network or a sandbox.

use std::sync::Arc;

use baas_client::account::{GetAccountDetailsRequest, GetAccountDetailsRequired};
use baas_client::enums::{Currency, ResultCode};
use baas_client::mock::{Failure, MockTransport, Refusal};
use baas_client::records::Account;
use baas_client::transfers::{
    ApplyForTransferRequest, ApplyForTransferRequired, ApplyForTransferResponse,
};
use baas_client::{Amount, CallOptions, Client, Config, ErrorKind, Outcome, PrivateKey};

fn mocked() -> (Arc<MockTransport>, Client) {
    let key = PrivateKey::new("unit-test-key");
    let mock = Arc::new(MockTransport::new(key.clone()));
    let client = Client::with_transport(
        Config::new("https://mock.invalid", "partner", key),
        mock.clone(),
    )
    .expect("client");
    (mock, client)
}

fn transfer(amount: &str) -> ApplyForTransferRequest {
    ApplyForTransferRequest::new(ApplyForTransferRequired {
        payer_account_id: "1000000001".into(),
        payee_bank_code: "46".into(),
        payee_account_id: "1000000004".into(),
        currency: Currency::Kes,
        amount: amount.parse().expect("amount"),
    })
}

#[tokio::test]
async fn stubs_answer_typed_and_requests_are_recorded() {
    let (mock, client) = mocked();
    // One expression per stub (`with_*`, feature `mock`): a `#[non_exhaustive]` answer
    // took a `default()` and one assignment per field.
    mock.on::<GetAccountDetailsRequest, _>(|req| {
        Ok::<_, Refusal>(
            Account::default()
                .with_account_id(req.account_id.clone())
                .with_balance(Amount::new(1230, 2)),
        )
    });
    let account = client
        .get_account_details(GetAccountDetailsRequired {
            account_id: "1000000001".into(),
        })
        .send()
        .await
        .expect("answered");
    assert_eq!(account.account_id.as_deref(), Some("1000000001"));
    assert_eq!(
        account.balance.map(|b| b.to_string()).as_deref(),
        Some("12.30")
    );
    let seen = mock.requests_of::<GetAccountDetailsRequest>();
    assert_eq!(seen.len(), 1);
    assert_eq!(seen[0].account_id, "1000000001");
}

#[tokio::test]
async fn refusals_and_failures_are_the_real_errors() {
    let (mock, client) = mocked();
    mock.on::<ApplyForTransferRequest, _>(|req| {
        if req.amount.to_string() == "999999.00" {
            Err(Refusal::new("14009", "insufficient balance"))
        } else {
            let mut r = ApplyForTransferResponse::default();
            r.tx_id = Some("TX1".into());
            Ok(r)
        }
    });
    let err = client
        .apply_for_transfer(transfer("999999.00"))
        .send()
        .await
        .unwrap_err();
    assert_eq!(
        ResultCode::from_error(&err),
        Some(ResultCode::InsufficientBalance)
    );
    assert!(
        matches!(err.kind(), ErrorKind::Api { verified: true, .. }),
        "signed by the mock"
    );
    let ok = client
        .apply_for_transfer(transfer("10.00"))
        .send()
        .await
        .expect("applied");
    assert_eq!(ok.tx_id.as_deref(), Some("TX1"));

    // Invalid input never reaches the mock.
    let before = mock.requests().len();
    let err = client
        .apply_for_transfer(transfer("0.001"))
        .send()
        .await
        .unwrap_err();
    assert_eq!(err.outcome(), Outcome::NotSent);
    assert_eq!(mock.requests().len(), before);

    // A money call whose answer never came: an unknown outcome, not retried.
    mock.fail::<ApplyForTransferRequest>(Failure::NoAnswer);
    let before = mock.requests().len();
    let err = client
        .apply_for_transfer(transfer("10.00"))
        .send()
        .await
        .unwrap_err();
    assert!(
        matches!(err.kind(), ErrorKind::OutcomeUnknown { .. }),
        "{err:?}"
    );
    assert!(!err.is_retryable());
    assert_eq!(mock.requests().len(), before + 1, "sent once");

    // An operation without a stub is "not sent", with the reason.
    let err = client
        .get_account_details(GetAccountDetailsRequired {
            account_id: "1".into(),
        })
        .send()
        .await
        .unwrap_err();
    assert!(err.to_string().contains("no stub"), "{err}");
}

/// The call builder: a requestId given with `.options(..)` is the one sent and echoed,
/// `.send_with_details()` returns it with the raw data, setters on the call reach the
/// request, and `.pending()` reads the business id from the answer of a call sent with
/// those options.
#[tokio::test]
async fn the_call_carries_options_setters_and_its_pending_application() {
    let (mock, client) = mocked();
    mock.on::<ApplyForTransferRequest, _>(|req| {
        let mut r = ApplyForTransferResponse::default();
        r.tx_id = Some(format!("TX-{}", req.remark.as_deref().unwrap_or("none")));
        Ok(r)
    });
    let success = client
        .apply_for_transfer(transfer("10.00"))
        .remark("invoice42")
        .options(CallOptions::new().request_id("partner-ref-1"))
        .send_with_details()
        .await
        .expect("answered");
    assert_eq!(success.request_id, "partner-ref-1");
    assert_eq!(success.data.tx_id.as_deref(), Some("TX-invoice42"));
    assert!(success.raw_data.get().contains("TX-invoice42"));

    let pending = client
        .apply_for_transfer(transfer("11.00"))
        .options(CallOptions::new().request_id("partner-ref-2"))
        .pending()
        .await
        .expect("an application");
    assert_eq!(pending.business_id(), "TX-none");

    let sent: Vec<String> = mock.requests().into_iter().map(|r| r.request_id).collect();
    assert_eq!(sent, ["partner-ref-1", "partner-ref-2"]);
    let remarks: Vec<Option<String>> = mock
        .requests_of::<ApplyForTransferRequest>()
        .into_iter()
        .map(|r| r.remark)
        .collect();
    assert_eq!(remarks, [Some("invoice42".to_owned()), None]);
}

/// A rule broken through a setter on the call is refused before anything is sent.
#[tokio::test]
async fn a_setter_on_the_call_is_validated_before_sending() {
    let (mock, client) = mocked();
    let error = client
        .apply_for_transfer(transfer("10.00"))
        .remark("x".repeat(101))
        .send()
        .await
        .unwrap_err();
    assert_eq!(error.outcome(), Outcome::NotSent);
    assert!(error.to_string().contains("remark"), "{error}");
    assert!(mock.requests().is_empty());
}
