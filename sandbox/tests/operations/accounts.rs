//! Operation groups on accounts and people: accounts, closing balances and the e-mail
//! requests, onboarding.

use baas_client::account::*;
use baas_client::enums::*;
use baas_client::onboarding::*;
use baas_client::otp::*;
use baas_client::transfers::*;
use baas_client::user::*;
use baas_client::{Client, RawJson};
use baas_sandbox::Sandbox;

use crate::common::{amount, code, confirm};

/// Accounts.
pub async fn accounts(sb: &Sandbox, c: &Client) {
    let acc = c
        .get_account_details(GetAccountDetailsRequired {
            account_id: "1000000001".into(),
        })
        .send()
        .await
        .unwrap();
    assert_eq!(acc.balance, Some(amount("250000.00")));
    assert_eq!(acc.account_type, Some(AccountType::Current));
    assert_eq!(acc.short_code.as_deref(), Some("A1001"));
    let list = c
        .query_account_list_by_user_id(QueryAccountListByUserIdRequired {
            user_id: "U1001".into(),
        })
        .send()
        .await
        .unwrap();
    assert_eq!(list.accounts.unwrap_or_default().len(), 3);
    let abnormal = c
        .get_abnormal_account_list(GetAbnormalAccountListRequired {
            page_no: 1,
            page_size: 50,
        })
        .send()
        .await
        .unwrap();
    assert_eq!(abnormal.total, Some(2));
    let sc = c
        .apply_for_short_code(ApplyForShortCodeRequired {
            account_id: "1000000002".into(),
        })
        .send()
        .await
        .unwrap();
    let short = sc.short_code.unwrap();
    let q = c
        .query_for_short_code(QueryForShortCodeRequired {
            account_id: "1000000002".into(),
        })
        .send()
        .await
        .unwrap();
    assert_eq!(q.short_code.as_deref(), Some(short.as_str()));
    let q = c
        .query_account_by_short_code(QueryAccountByShortCodeRequired {
            short_code: short.clone(),
        })
        .send()
        .await
        .unwrap();
    assert_eq!(q.account_id.as_deref(), Some("1000000002"));
    assert_eq!(
        code(
            c.apply_for_short_code(ApplyForShortCodeRequired {
                account_id: "1000000002".into()
            })
            .send()
            .await
        ),
        "13302"
    );

    // Dormant account: activation requested, cancelled, requested again, confirmed.
    assert_eq!(
        code(
            c.apply_for_transfer(ApplyForTransferRequired {
                payer_account_id: "1000000005".into(),
                payee_bank_code: "46".into(),
                payee_account_id: "1000000004".into(),
                currency: Currency::Kes,
                amount: amount("1")
            })
            .send()
            .await
        ),
        "11000"
    );
    c.activate_account(ActivateAccountRequired {
        account_id: "1000000005".into(),
    })
    .send()
    .await
    .unwrap();
    let first = sb
        .requests()
        .last()
        .and_then(|r| r.request_id.clone())
        .unwrap();
    c.cancel_account_operation(CancelAccountOperationRequired {
        request_id: first.clone(),
    })
    .send()
    .await
    .unwrap();
    assert_eq!(
        code(
            c.send_otp(SendOtpRequired {
                business_id: first,
                otp_type: OtpType::Sms
            })
            .send()
            .await
        ),
        "12001"
    );
    let act = c
        .activate_account(ActivateAccountRequired {
            account_id: "1000000005".into(),
        })
        .send()
        .await
        .unwrap();
    assert_eq!(act.account_id.as_deref(), Some("1000000005"));
    let second = sb
        .requests()
        .last()
        .and_then(|r| r.request_id.clone())
        .unwrap();
    confirm(c, sb, &second).await;
    let acc = c
        .get_account_details(GetAccountDetailsRequired {
            account_id: "1000000005".into(),
        })
        .send()
        .await
        .unwrap();
    assert_eq!(acc.dormant_status, Some(DormantStatus::Normal));

    let renamed = c
        .edit_sub_account_name(
            EditSubAccountNameRequest::new(EditSubAccountNameRequired {
                account_id: "2000000002".into(),
            })
            .sub_account_name("Payroll 2"),
        )
        .send()
        .await
        .unwrap();
    assert!(renamed.application_id.is_some());
    let acc = c
        .get_account_details(GetAccountDetailsRequired {
            account_id: "2000000002".into(),
        })
        .send()
        .await
        .unwrap();
    assert_eq!(
        acc.account_name.as_deref(),
        Some("Jambo Traders Ltd_Payroll 2")
    );
    let too_long = "x".repeat(238);
    assert_eq!(
        code(
            c.edit_sub_account_name(
                EditSubAccountNameRequest::new(EditSubAccountNameRequired {
                    account_id: "2000000002".into()
                })
                .sub_account_name(too_long)
            )
            .send()
            .await
        ),
        "12001"
    );
    let v = c
        .validate_account(ValidateAccountRequired {
            account_id: "B1002".into(),
            account_type: ValidateAccountType::Internal,
        })
        .send()
        .await
        .unwrap();
    assert_eq!(v.account_name.as_deref(), Some("Brian Otieno"));
    let v = c
        .validate_account(ValidateAccountRequired {
            account_id: "522533".into(),
            account_type: ValidateAccountType::MobileMoneyTill,
        })
        .send()
        .await
        .unwrap();
    assert_eq!(v.account_name.as_deref(), Some("Sandbox Grocers"));
    assert_eq!(
        code(
            c.validate_account(ValidateAccountRequired {
                account_id: "999".into(),
                account_type: ValidateAccountType::Internal
            })
            .send()
            .await
        ),
        "13000"
    );
}

/// Closing balance, user email requests.
pub async fn closing_balance_user_email_requests(sb: &Sandbox, c: &Client) {
    let job = c
        .query_closing_balance(QueryClosingBalanceRequired {
            query_date: "2025-06-30".parse().expect("a date"),
        })
        .send()
        .await
        .unwrap();
    assert!(job.job_id.is_some());
    c.add_email(AddEmailRequest::new(
        RawJson::from_string(r#"{"email":"a@example.invalid"}"#.into()).unwrap(),
    ))
    .send()
    .await
    .unwrap();
    let rid = sb
        .requests()
        .last()
        .and_then(|r| r.request_id.clone())
        .unwrap();
    c.cancel_account_operation(CancelAccountOperationRequired { request_id: rid })
        .send()
        .await
        .unwrap();
    c.verify_email_address(VerifyEmailAddressRequest::new(RawJson::empty_object()))
        .send()
        .await
        .unwrap();
    let rid = sb
        .requests()
        .last()
        .and_then(|r| r.request_id.clone())
        .unwrap();
    confirm(c, sb, &rid).await;
}

/// Onboarding.
pub async fn onboarding(_sb: &Sandbox, c: &Client) {
    let s = c
        .get_onboarding_status()
        .user_id("U1001")
        .send()
        .await
        .unwrap();
    assert_eq!(s.account_id.as_deref(), Some("1000000001"));
    let kyc = c
        .get_user_kyc(GetUserKycRequired {
            onboarding_request_id: "OBR-P-0002".into(),
        })
        .send()
        .await
        .unwrap();
    assert_eq!(kyc.first_name.as_deref(), Some("Chris"));
    let media = c
        .get_kyc_media_list(GetKycMediaListRequired {
            onboarding_request_id: "OBR-P-0001".into(),
        })
        .send()
        .await
        .unwrap();
    assert_eq!(media.media_list.unwrap_or_default().len(), 2);
    let r = c
        .get_onboarding_request_id()
        .mobile("254700000004")
        .send()
        .await
        .unwrap();
    assert_eq!(r.onboarding_request_id.as_deref(), Some("OBR-P-0003"));
    let s = c
        .get_business_onboarding_status()
        .business_cer_no("CPR-2002")
        .send()
        .await
        .unwrap();
    assert_eq!(s.onboarding_status, Some(OnboardingStatus::AccountOpened));
    let r = c
        .get_business_onboarding_request_id(GetBusinessOnboardingRequestIdRequired {
            business_cer_no: "PN-3003".into(),
        })
        .send()
        .await
        .unwrap();
    assert_eq!(r.onboarding_request_id.as_deref(), Some("OBR-B-0003"));
    let i = c
        .get_store_onboarding_info(GetStoreOnboardingInfoRequired {
            onboarding_request_id: "OBR-B-0001".into(),
        })
        .send()
        .await
        .unwrap();
    assert_eq!(i.owner_full_name.as_deref(), Some("Esther Achieng"));
    let i = c
        .get_company_onboarding_info(GetCompanyOnboardingInfoRequired {
            onboarding_request_id: "OBR-B-0002".into(),
        })
        .send()
        .await
        .unwrap();
    assert_eq!(i.shareholders_member_infos.unwrap_or_default().len(), 2);
    let i = c
        .get_partnership_onboarding_info(GetPartnershipOnboardingInfoRequired {
            onboarding_request_id: "OBR-B-0003".into(),
        })
        .send()
        .await
        .unwrap();
    assert_eq!(i.sme_name.as_deref(), Some("Kilima Partners"));
    let i = c
        .get_organisation_onboarding_info(GetOrganisationOnboardingInfoRequired {
            onboarding_request_id: "OBR-B-0004".into(),
        })
        .send()
        .await
        .unwrap();
    assert_eq!(i.business_type, Some(BusinessType::NgoCbo));
    assert_eq!(
        code(
            c.get_store_onboarding_info(GetStoreOnboardingInfoRequired {
                onboarding_request_id: "OBR-B-0002".into()
            })
            .send()
            .await
        ),
        "14001"
    );
}
