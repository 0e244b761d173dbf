//! Everyday partner tasks that used to need hand-written JSON decoding, paging loops or
//! OTP plumbing (issue 19), written only with the generated client against the
//! in-process sandbox: every answer is read through its typed fields, every list through
//! a pager, every OTP application through its `*_pending` handle, every wait through a
//! `*_until_final` waiter. If one of these needs raw JSON again, it stops compiling.

use std::time::Duration;

use baas_client::account::QueryAccountListByUserIdRequired;
use baas_client::account::{ActivateAccountRequest, ActivateAccountRequired};
use baas_client::enums::{
    AmountType, ChargeType, Currency, CurrencyPair, FxRequestStatus, InterBankApplicationStatus,
    NetworkProvider, OtpType, PaymentChannel, UtilityPaymentStatus,
};
use baas_client::fx::{
    ApplyForFcExchangeRequest, ApplyForFcExchangeRequired, GetForeignExchangeRateRequired,
    GetFxRequestStatusRequired,
};
use baas_client::pending::PendingApplication;
use baas_client::transfers::{
    GetInterBankTransferDetailsRequired, GetInterBankTransferListRequired,
    TelegraphicTransferRequired,
};
use baas_client::utility::{AirtimePaymentRequired, PaymentQueryRequired};
use baas_client::{Amount, CallOptions, Client, WaitPolicy};
use baas_sandbox::Sandbox;

fn amount(text: &str) -> Amount {
    text.parse().expect("an amount")
}

fn quick() -> WaitPolicy {
    WaitPolicy::new(
        Duration::from_millis(5),
        Duration::from_millis(20),
        Duration::from_secs(5),
    )
}

async fn start() -> (Sandbox, Client) {
    let sandbox = Sandbox::start().await.expect("sandbox starts");
    let client = Client::new(sandbox.client_config()).expect("client");
    (sandbox, client)
}

#[tokio::test]
async fn fx_rate_conversion_and_its_final_status_are_typed() {
    let (_sandbox, client) = start().await;
    let rate = client
        .get_foreign_exchange_rate(GetForeignExchangeRateRequired {
            currency_pair: CurrencyPair::EurKes,
        })
        .send()
        .await
        .expect("a rate");
    assert_eq!(rate.currency_pair, Some(CurrencyPair::EurKes));
    assert!(rate.rate.expect("a rate") > amount("1"));

    let fx = client
        .apply_for_fc_exchange(
            ApplyForFcExchangeRequest::new(ApplyForFcExchangeRequired {
                source_currency: Currency::Eur,
                target_currency: Currency::Kes,
                source_account: "2000000003".into(),
                target_account: "2000000001".into(),
            })
            .source_amount(amount("100")),
        )
        .send()
        .await
        .expect("an FX request");
    assert_eq!(fx.source_amount, Some(amount("100.00")));
    let status = client
        .get_fx_request_status(GetFxRequestStatusRequired {
            application_id: fx.application_id.expect("an id"),
        })
        .until_final(&quick())
        .await
        .expect("a final state");
    assert_eq!(status.status, Some(FxRequestStatus::Successful));
    assert_eq!(status.amount, fx.target_amount);
}

#[tokio::test]
async fn airtime_is_confirmed_through_its_pending_handle_and_waited_for() {
    let (sandbox, client) = start().await;
    let before = sandbox.balance("1000000001").expect("seeded");
    let pending = client
        .airtime_payment(AirtimePaymentRequired {
            account_id: "1000000001".into(),
            mobile_number: "254700000001".into(),
            network_provider: NetworkProvider::First,
            amount: amount("100"),
        })
        .pending()
        .await
        .expect("an application");
    pending.send_otp(OtpType::Sms).await.expect("OTP sent");
    pending
        .confirm(sandbox.otp_for(pending.business_id()))
        .await
        .expect("confirmed");
    let payment = client
        .payment_query(PaymentQueryRequired {
            payment_id: pending.business_id().to_owned(),
        })
        .until_final(&quick())
        .await
        .expect("final");
    assert_eq!(payment.status, Some(UtilityPaymentStatus::Succeeded));
    assert_eq!(payment.amount, Some(amount("100.00")));
    let after = sandbox.balance("1000000001").expect("seeded");
    assert_eq!(before.checked_sub(after), Some(amount("100.00")));
}

#[tokio::test]
async fn a_swift_transfer_is_listed_by_the_pager_and_waited_for() {
    let (sandbox, client) = start().await;
    let pending = client
        .telegraphic_transfer(TelegraphicTransferRequired {
            account_id: "1000000002".into(),
            beneficiary_swift_bic: "DEUTDEFF".into(),
            beneficiary_bank_name: "Deutsche Bank".into(),
            beneficiary_bank_city: "Frankfurt".into(),
            beneficiary_account_id: "DE89370400440532013000".into(),
            beneficiary_account_ccy: Currency::Eur,
            beneficiary_name: "Hans Muster".into(),
            amount: amount("1000"),
            amount_type: AmountType::DebitAccountCurrency,
            payment_channel: PaymentChannel::Swift,
            payment_purpose_id: "GDDS".into(),
            sender_address: "Nairobi".into(),
            charge_type: ChargeType::Our,
        })
        .pending()
        .await
        .expect("an application");
    let id = pending.business_id().to_owned();
    pending.send_otp(OtpType::Sms).await.expect("OTP sent");
    pending
        .confirm(sandbox.otp_for(&id))
        .await
        .expect("confirmed");
    let detail = client
        .get_inter_bank_transfer_details(GetInterBankTransferDetailsRequired {
            application_id: id.clone(),
            account_id: "1000000002".into(),
        })
        .until_final(&quick())
        .await
        .expect("final");
    assert_eq!(detail.status, Some(InterBankApplicationStatus::InTransit));
    assert_eq!(detail.beneficiary_bic.as_deref(), Some("DEUTDEFF"));
    let mut items = client
        .get_inter_bank_transfer_list(GetInterBankTransferListRequired {
            account_id: "1000000002".into(),
            start_time: 0,
            end_time: 4_102_444_800_000,
            page_no: 1,
            page_size: 50,
        })
        .pages()
        .items();
    let mut listed = Vec::new();
    while let Some(item) = items.next_item().await {
        listed.push(item.expect("every page"));
    }
    assert!(listed
        .iter()
        .any(|t| t.application_id.as_deref() == Some(id.as_str())));
}

#[tokio::test]
async fn an_account_is_activated_by_its_request_id_and_listed_with_its_balance() {
    let (sandbox, client) = start().await;
    // A call sent with a requestId of the partner's still gets its OTP handle.
    let request = ActivateAccountRequest::new(ActivateAccountRequired {
        account_id: "1000000005".into(),
    });
    let success = client
        .runtime()
        .execute_with(&request, &CallOptions::new().request_id("partner-ref-0001"))
        .await
        .expect("an application");
    let pending =
        PendingApplication::from_success::<ActivateAccountRequest>(client.clone(), success)
            .expect("a handle");
    assert_eq!(pending.business_id(), "partner-ref-0001");
    pending.send_otp(OtpType::Sms).await.expect("OTP sent");
    pending
        .confirm(sandbox.otp_for("partner-ref-0001"))
        .await
        .expect("confirmed");

    let list = client
        .query_account_list_by_user_id(QueryAccountListByUserIdRequired {
            user_id: "U1002".into(),
        })
        .send()
        .await
        .expect("accounts");
    let accounts = list.accounts.expect("accounts");
    assert!(!accounts.is_empty());
    for a in &accounts {
        let id = a.account_id.as_deref().expect("an id");
        assert_eq!(a.balance, sandbox.balance(id), "{id}: listed balance");
    }
}
