//! The OTP flow through `PendingApplication` against the sandbox: the partner never
//! looks up which field of which response is the business id.

mod common;

use baas_client::account::GetAccountDetailsRequired;
use baas_client::enums::{Currency, OtpType};
use baas_client::transfers::{ApplyForTransferRequest, ApplyForTransferRequired};
use baas_client::Client;
use common::{amount, start};

fn transfer(value: &str) -> ApplyForTransferRequest {
    ApplyForTransferRequest::new(ApplyForTransferRequired {
        payer_account_id: "1000000001".into(),
        payee_bank_code: "46".into(),
        payee_account_id: "1000000004".into(),
        currency: Currency::Kes,
        amount: amount(value),
    })
}

async fn balance(client: &Client, account: &str) -> String {
    client
        .get_account_details(GetAccountDetailsRequired {
            account_id: account.into(),
        })
        .send()
        .await
        .expect("account")
        .balance
        .expect("balance")
        .to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn apply_send_and_confirm_through_the_handle() {
    let (sandbox, client) = start().await;
    let before = balance(&client, "1000000001").await;
    let pending = client
        .apply_for_transfer(transfer("100.00"))
        .pending()
        .await
        .expect("applied");
    assert_eq!(
        Some(pending.business_id()),
        pending.response().tx_id.as_deref(),
        "a transfer's business id is its txId"
    );
    assert_eq!(
        balance(&client, "1000000001").await,
        before,
        "nothing moves yet"
    );
    pending.send_otp(OtpType::Sms).await.expect("OTP sent");
    // A wrong code is refused and moves nothing.
    let wrong = pending.confirm("000000").await.expect_err("wrong code");
    assert!(wrong.api_code().is_some(), "{wrong}");
    pending
        .confirm(sandbox.otp_for(pending.business_id()))
        .await
        .expect("confirmed");
    assert_ne!(
        balance(&client, "1000000001").await,
        before,
        "the money moved"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn grouped_applications_are_confirmed_with_one_otp() {
    let (sandbox, client) = start().await;
    let before = balance(&client, "1000000004").await;
    let a = client
        .apply_for_transfer(transfer("1.00"))
        .pending()
        .await
        .expect("a");
    let b = client
        .apply_for_transfer(transfer("2.00"))
        .pending()
        .await
        .expect("b");
    let group = client
        .group_pending(&[a.business_id(), b.business_id()])
        .await
        .expect("grouped");
    assert_ne!(group.business_id(), a.business_id());
    group.send_otp(OtpType::Sms).await.expect("OTP sent");
    group
        .confirm(sandbox.otp_for(group.business_id()))
        .await
        .expect("confirmed");
    let after: rust_decimal::Decimal = balance(&client, "1000000004").await.parse().unwrap();
    let before: rust_decimal::Decimal = before.parse().unwrap();
    assert_eq!(
        after - before,
        rust_decimal::Decimal::new(300, 2),
        "both moved"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn waiting_ends_at_a_final_state_or_the_deadline() {
    use baas_client::transfers::{GetTransResultRequest, GetTransResultRequired};
    use baas_client::{ErrorKind, WaitPolicy};
    use std::time::Duration;

    let (sandbox, client) = start().await;
    let policy = WaitPolicy::new(
        Duration::from_millis(10),
        Duration::from_millis(40),
        Duration::from_millis(300),
    );
    // Not confirmed: the state stays 1 (waiting for the OTP) and the deadline ends it.
    let waiting = client
        .apply_for_transfer(transfer("5.00"))
        .pending()
        .await
        .expect("applied");
    let query = GetTransResultRequest::new(GetTransResultRequired {
        tx_id: waiting.business_id().into(),
    });
    let seen = sandbox.requests_seen();
    let err = client
        .get_trans_result(query.clone())
        .until_final(&policy)
        .await
        .expect_err("never final");
    match err.kind() {
        ErrorKind::WaitDeadline { last_state, .. } => {
            assert_eq!(err.operation(), Some("getTransResult"));
            assert_eq!(last_state.as_deref(), Some("1"));
            assert!(err.request_id().is_some(), "the last query's requestId");
        }
        other => panic!("{other:?}"),
    }
    let polls = sandbox.requests_seen() - seen;
    assert!((2..=12).contains(&polls), "polled with backoff: {polls}");
    assert_eq!(
        u64::from(err.attempts()),
        polls,
        "attempts counts the queries"
    );

    // Confirmed: the first final state ends the wait with its response.
    let done = client
        .apply_for_transfer(transfer("6.00"))
        .pending()
        .await
        .expect("applied");
    done.send_otp(OtpType::Sms).await.expect("OTP");
    done.confirm(sandbox.otp_for(done.business_id()))
        .await
        .expect("confirmed");
    let query = GetTransResultRequest::new(GetTransResultRequired {
        tx_id: done.business_id().into(),
    });
    let result = client
        .get_trans_result(query)
        .until_final(&policy)
        .await
        .expect("final");
    assert_eq!(
        result.tx_status,
        Some(baas_client::enums::TxStatus::Succeeded)
    );
}

/// Amounts the service would refuse never leave: finer than the minor unit, zero or
/// negative (decision request-amounts), so their outcome is "not sent", not "unknown".
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn amounts_the_service_refuses_are_not_sent() {
    let (sandbox, client) = start().await;
    for bad in ["0.001", "-500", "0", "0.00"] {
        let err = client
            .apply_for_transfer(transfer(bad))
            .send()
            .await
            .expect_err(bad);
        assert!(
            matches!(err.kind(), baas_client::ErrorKind::InvalidRequest(_)),
            "{bad}: {err}"
        );
        assert_eq!(err.outcome(), baas_client::Outcome::NotSent, "{bad}");
    }
    assert_eq!(sandbox.requests_seen(), 0);
}
