//! The generated client against the sandbox over HTTP on loopback: every operation at
//! least once, and the OTP flows.

mod common;

use std::collections::BTreeSet;

use baas_client::account::*;
use baas_client::cny::*;
use baas_client::enums::*;
use baas_client::fx::*;
use baas_client::onboarding::*;
use baas_client::other::*;
use baas_client::otp::*;
use baas_client::records::{MobileDetail, OrderItem};
use baas_client::transfers::*;
use baas_client::user::*;
use baas_client::utility::*;
use baas_client::RawJson;
use common::{amount, code, confirm, start};

const T0: i64 = 0;
const T1: i64 = 4_102_444_800_000; // 2100-01-01

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_operation_at_least_once() {
    let (sb, c) = start().await;

    // ---- accounts ----
    let acc = c
        .get_account_details(&GetAccountDetailsRequest::new("1000000001"))
        .await
        .unwrap();
    assert_eq!(acc.balance, Some(amount("250000.00")));
    assert_eq!(acc.account_type, Some(AccountType::Current));
    assert_eq!(acc.short_code.as_deref(), Some("A1001"));
    let list = c
        .query_account_list_by_user_id(&QueryAccountListByUserIdRequest::new("U1001"))
        .await
        .unwrap();
    assert_eq!(list.accounts.unwrap_or_default().len(), 3);
    let abnormal = c
        .get_abnormal_account_list(&GetAbnormalAccountListRequest::new(1, 50))
        .await
        .unwrap();
    assert_eq!(abnormal.total, Some(2));
    let sc = c
        .apply_for_short_code(&ApplyForShortCodeRequest::new("1000000002"))
        .await
        .unwrap();
    let short = sc.short_code.unwrap();
    let q = c
        .query_for_short_code(&QueryForShortCodeRequest::new("1000000002"))
        .await
        .unwrap();
    assert_eq!(q.short_code.as_deref(), Some(short.as_str()));
    let q = c
        .query_account_by_short_code(&QueryAccountByShortCodeRequest::new(short.clone()))
        .await
        .unwrap();
    assert_eq!(q.account_id.as_deref(), Some("1000000002"));
    assert_eq!(
        code(
            c.apply_for_short_code(&ApplyForShortCodeRequest::new("1000000002"))
                .await
        ),
        "13302"
    );

    // Dormant account: activation requested, cancelled, requested again, confirmed.
    assert_eq!(
        code(
            c.apply_for_transfer(&ApplyForTransferRequest::new(
                "1000000005",
                "46",
                "1000000004",
                Currency::Kes,
                amount("1")
            ))
            .await
        ),
        "11000"
    );
    c.activate_account(&ActivateAccountRequest::new("1000000005"))
        .await
        .unwrap();
    let first = sb
        .requests()
        .last()
        .and_then(|r| r.request_id.clone())
        .unwrap();
    c.cancel_account_operation(&CancelAccountOperationRequest::new(first.clone()))
        .await
        .unwrap();
    assert_eq!(
        code(c.send_otp(&SendOtpRequest::new(first, OtpType::Sms)).await),
        "12001"
    );
    let act = c
        .activate_account(&ActivateAccountRequest::new("1000000005"))
        .await
        .unwrap();
    assert_eq!(act.account_id.as_deref(), Some("1000000005"));
    let second = sb
        .requests()
        .last()
        .and_then(|r| r.request_id.clone())
        .unwrap();
    confirm(&c, &sb, &second).await;
    let acc = c
        .get_account_details(&GetAccountDetailsRequest::new("1000000005"))
        .await
        .unwrap();
    assert_eq!(acc.dormant_status, Some(DormantStatus::Normal));

    let renamed = c
        .edit_sub_account_name(
            &EditSubAccountNameRequest::new("2000000002").sub_account_name("Payroll 2"),
        )
        .await
        .unwrap();
    assert!(renamed.application_id.is_some());
    let acc = c
        .get_account_details(&GetAccountDetailsRequest::new("2000000002"))
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
                &EditSubAccountNameRequest::new("2000000002").sub_account_name(too_long)
            )
            .await
        ),
        "12001"
    );
    let v = c
        .validate_account(&ValidateAccountRequest::new(
            "B1002",
            ValidateAccountType::Internal,
        ))
        .await
        .unwrap();
    assert_eq!(v.account_name.as_deref(), Some("Brian Otieno"));
    let v = c
        .validate_account(&ValidateAccountRequest::new(
            "522533",
            ValidateAccountType::MobileMoneyTill,
        ))
        .await
        .unwrap();
    assert_eq!(v.account_name.as_deref(), Some("Sandbox Grocers"));
    assert_eq!(
        code(
            c.validate_account(&ValidateAccountRequest::new(
                "999",
                ValidateAccountType::Internal
            ))
            .await
        ),
        "13000"
    );

    // ---- small transfer, OTP flow, queries, reversal ----
    let tx = c
        .apply_for_transfer(
            &ApplyForTransferRequest::new(
                "1000000001",
                "46",
                "B1002",
                Currency::Kes,
                amount("1000.50"),
            )
            .remark("rent"),
        )
        .await
        .unwrap();
    let tx = tx.tx_id.unwrap();
    c.send_otp(&SendOtpRequest::new(tx.clone(), OtpType::Sms))
        .await
        .unwrap();
    assert_eq!(
        code(
            c.confirm_operation(&ConfirmOperationRequest::new(tx.clone(), "999999x"))
                .await
        ),
        "11203"
    );
    c.confirm_operation(&ConfirmOperationRequest::new(tx.clone(), sb.otp_for(&tx)))
        .await
        .unwrap();
    assert_eq!(sb.balance("1000000001"), Some(amount("248999.50")));
    assert_eq!(sb.balance("1000000004"), Some(amount("101000.50")));
    let result = c
        .get_trans_result(&GetTransResultRequest::new(tx.clone()))
        .await
        .unwrap();
    let result: serde_json::Value = result.parse().unwrap();
    assert_eq!(result["txStatus"], 8);
    let trans = c
        .get_trans_list(
            &GetTransListRequest::new(
                "1000000001",
                Vec::<String>::new(),
                vec![TxStatus::Processing, TxStatus::Succeeded],
                T0,
                T1,
                1,
                10,
                OrderByDesc::NewestFirst,
            )
            .user_id("U1001"),
        )
        .await
        .unwrap();
    assert_eq!(trans.total_rows, Some(2)); // the seeded old one and this one
    let first = &trans.result.unwrap()[0];
    assert_eq!(first.tx_id.as_deref(), Some(tx.as_str()));
    assert_eq!(first.amount, Some(amount("1000.50")));
    assert_eq!(
        code(
            c.get_trans_list(&GetTransListRequest::new(
                "1000000001",
                vec!["TTID0002".to_owned()],
                Vec::<TxStatus>::new(),
                T1,
                T0,
                1,
                10,
                OrderByDesc::OldestFirst
            ))
            .await
        ),
        "15001"
    );
    let rev = c
        .tx_reversal(&TxReversalRequest::new(tx.clone()).reversal_reason("sent twice"))
        .await
        .unwrap();
    let rev_id = rev.application_id.unwrap();
    let rec = c
        .query_tx_reversal(&QueryTxReversalRequest::new(rev_id))
        .await
        .unwrap();
    assert_eq!(rec.transaction_id.as_deref(), Some(tx.as_str()));
    assert_eq!(sb.balance("1000000001"), Some(amount("250000.00")));
    assert_eq!(
        code(
            c.tx_reversal(&TxReversalRequest::new(baas_sandbox::seed::OLD_TX_ID))
                .await
        ),
        "12001"
    );
    let fee = c
        .fetch_transaction_fee(&FetchTransactionFeeRequest::new(
            "1000000001",
            "Jane",
            FeeBeneficiaryType::Individual,
            "254700000009",
            "M-PESA",
            amount("2000"),
        ))
        .await
        .unwrap();
    assert_eq!(fee.fee_amount, Some(amount("10.00")));
    let codes = c
        .get_bank_codes(&GetBankCodesRequest::new(RawJson::empty_object()))
        .await
        .unwrap();
    let list = codes.bank_code_list.unwrap_or_default();
    assert!(
        list.iter().any(|b| b.get().contains(r#""bankCode":"46""#)),
        "{list:?}"
    );

    // ---- business transfer, airtime, bills ----
    let bt = c
        .apply_for_mobile_money_business_transfer(
            &ApplyForMobileMoneyBusinessTransferRequest::new(
                "2000000001",
                "888880",
                PayType::Paybill,
                amount("1500"),
            )
            .payee_reference_number("METER-1"),
        )
        .await
        .unwrap();
    confirm(&c, &sb, &bt.tx_id.unwrap()).await;
    let air = c
        .airtime_payment(&AirtimePaymentRequest::new(
            "1000000001",
            "254700000001",
            NetworkProvider::First,
            amount("100"),
        ))
        .await
        .unwrap();
    let pid = air.payment_id.unwrap();
    confirm(&c, &sb, &pid).await;
    let pq = c
        .payment_query(&PaymentQueryRequest::new(pid))
        .await
        .unwrap();
    assert_eq!(pq.parse::<serde_json::Value>().unwrap()["status"], 8);
    let bulk = c
        .airtime_bulk_payment(&AirtimeBulkPaymentRequest::new(
            "1000000001",
            vec![
                MobileDetail::new("254700000001", NetworkProvider::First, amount("50")),
                MobileDetail::new("254700000002", NetworkProvider::Third, amount("75.50")),
            ],
        ))
        .await
        .unwrap();
    let bulk_id = bulk.bulk_payment_order_id.unwrap();
    confirm(&c, &sb, &bulk_id).await;
    let bq = c
        .bulk_payment_query(&BulkPaymentQueryRequest::new(bulk_id.clone(), 1, 10))
        .await
        .unwrap();
    assert_eq!(bq.parse::<serde_json::Value>().unwrap()["totalRows"], 2);
    // pageSize 51 is refused by the generated validator before anything is sent.
    let seen = sb.requests_seen();
    assert!(matches!(
        c.bulk_payment_query(&BulkPaymentQueryRequest::new(bulk_id, 1, 51))
            .await,
        Err(baas_client::Error::InvalidRequest(_))
    ));
    assert_eq!(sb.requests_seen(), seen);
    let bill = c
        .bill_query(&BillQueryRequest::new(BillType::SatelliteTv1, "DSTV-1001"))
        .await
        .unwrap();
    assert_eq!(bill.due_amount, Some(amount("2499.00")));
    let bp = c
        .bill_payment(&BillPaymentRequest::new(
            "1000000001",
            BillType::SatelliteTv1,
            "DSTV-1001",
        ))
        .await
        .unwrap();
    confirm(&c, &sb, &bp.payment_id.unwrap()).await;
    let bill = c
        .bill_query(&BillQueryRequest::new(BillType::SatelliteTv1, "DSTV-1001"))
        .await
        .unwrap();
    assert_eq!(bill.due_amount, Some(amount("0.00")));
    assert_eq!(sb.balance("1000000001"), Some(amount("247275.50")));

    // ---- SWIFT ----
    let tt = c
        .telegraphic_transfer(&TelegraphicTransferRequest::new(
            "1000000002",
            "DEUTDEFF",
            "Deutsche Bank",
            "Frankfurt",
            "DE89370400440532013000",
            "EUR",
            "Hans Muster",
            amount("1000"),
            AmountType::DebitAccountCurrency,
            PaymentChannel::Swift,
            "GDDS",
            "Nairobi",
            ChargeType::Our,
        ))
        .await
        .unwrap();
    let tt = tt.application_id.unwrap();
    c.send_acc_admin_otp(&SendAccAdminOtpRequest::new(
        tt.clone(),
        OtpType::Email,
        "1000000002",
        "ID123456",
        IdType::KenyaNationalId,
    ))
    .await
    .unwrap();
    c.confirm_operation(&ConfirmOperationRequest::new(tt.clone(), sb.otp_for(&tt)))
        .await
        .unwrap();
    assert_eq!(sb.balance("1000000002"), Some(amount("3995.00")));
    let list = c
        .get_inter_bank_transfer_list(&GetInterBankTransferListRequest::new(
            "1000000002",
            T0,
            T1,
            1,
            10,
        ))
        .await
        .unwrap();
    assert_eq!(list.parse::<serde_json::Value>().unwrap()["totalRows"], 1);
    let d = c
        .get_inter_bank_transfer_details(&GetInterBankTransferDetailsRequest::new(tt, "1000000002"))
        .await
        .unwrap();
    assert_eq!(d.parse::<serde_json::Value>().unwrap()["status"], 6);

    // ---- FX ----
    let rate = c
        .get_foreign_exchange_rate(&GetForeignExchangeRateRequest::new(CurrencyPair::EurKes))
        .await
        .unwrap();
    assert_eq!(rate.parse::<serde_json::Value>().unwrap()["rate"], "140.25");
    let fx = c
        .apply_for_fc_exchange(
            &ApplyForFcExchangeRequest::new("KES", "EUR", "2000000001", "2000000003")
                .target_amount(amount("100")),
        )
        .await
        .unwrap();
    let fx_id = fx.parse::<serde_json::Value>().unwrap()["applicationId"]
        .as_str()
        .unwrap()
        .to_owned();
    confirm(&c, &sb, &fx_id).await;
    let st = c
        .get_fx_request_status(&GetFxRequestStatusRequest::new(fx_id))
        .await
        .unwrap();
    assert_eq!(st.parse::<serde_json::Value>().unwrap()["status"], 6);
    assert_eq!(sb.balance("2000000003"), Some(amount("20100.00")));

    // ---- CNY Express ----
    let order = OrderItem::new(
        "green tea",
        3,
        amount("1200.50"),
        1_750_000_000_000,
        "shop.example",
    );
    let cny = c
        .apply_for_cny_express(
            &ApplyForCnyExpressRequest::new(
                "2000000001",
                BeneficiaryType::Individual,
                "李雷",
                "110101199001011234",
                "ICBC",
                "Industrial and Commercial Bank of China",
                "Beijing",
                "6222020200112233",
                PaymentPurpose::PurchaseGoods,
                "aGVsbG8=",
                CnyDocumentType::Pdf,
                "aGVsbG8=",
                CnyDocumentType::Image,
                CnyDocumentType::Pdf,
                vec![order],
            )
            .beneficiary_country_code("CN"),
        )
        .await
        .unwrap();
    let cny_id = cny.application_id.unwrap();
    confirm(&c, &sb, &cny_id).await;
    let d = c
        .get_cny_transfer_details(&GetCnyTransferDetailsRequest::new(cny_id.clone()))
        .await
        .unwrap();
    assert_eq!(d.amount, Some(amount("1200.5000")));
    assert_eq!(d.orders.unwrap_or_default().len(), 1);
    let l = c
        .get_cny_trans_list(&GetCnyTransListRequest::new(
            "U2001",
            "2000000001",
            T0,
            T1,
            "1",
            "10",
        ))
        .await
        .unwrap();
    assert_eq!(l.total_rows, Some(1));

    // ---- group of applications, one OTP ----
    let a = c
        .apply_for_transfer(&ApplyForTransferRequest::new(
            "1000000004",
            "46",
            "1000000001",
            Currency::Kes,
            amount("10"),
        ))
        .await
        .unwrap()
        .tx_id
        .unwrap();
    let b = c
        .apply_for_transfer(&ApplyForTransferRequest::new(
            "1000000004",
            "M-PESA",
            "254711111111",
            Currency::Kes,
            amount("20"),
        ))
        .await
        .unwrap()
        .tx_id
        .unwrap();
    let g = c
        .group_applications(&GroupApplicationsRequest::new(vec![a.clone(), b]))
        .await
        .unwrap()
        .application_id
        .unwrap();
    assert_eq!(
        code(c.send_otp(&SendOtpRequest::new(a, OtpType::Sms)).await),
        "12001"
    );
    confirm(&c, &sb, &g).await;
    assert_eq!(sb.balance("1000000004"), Some(amount("99969.90")));

    // ---- closing balance, user email requests ----
    let job = c
        .query_closing_balance(&QueryClosingBalanceRequest::new("2025-06-30"))
        .await
        .unwrap();
    assert!(job.job_id.is_some());
    c.add_email(&AddEmailRequest::new(
        RawJson::from_string(r#"{"email":"a@example.invalid"}"#.into()).unwrap(),
    ))
    .await
    .unwrap();
    let rid = sb
        .requests()
        .last()
        .and_then(|r| r.request_id.clone())
        .unwrap();
    c.cancel_account_operation(&CancelAccountOperationRequest::new(rid))
        .await
        .unwrap();
    c.verify_email_address(&VerifyEmailAddressRequest::new(RawJson::empty_object()))
        .await
        .unwrap();
    let rid = sb
        .requests()
        .last()
        .and_then(|r| r.request_id.clone())
        .unwrap();
    confirm(&c, &sb, &rid).await;

    // ---- onboarding ----
    let s = c
        .get_onboarding_status(&GetOnboardingStatusRequest::new().user_id("U1001"))
        .await
        .unwrap();
    assert_eq!(s.account_id.as_deref(), Some("1000000001"));
    let kyc = c
        .get_user_kyc(&GetUserKycRequest::new("OBR-P-0002"))
        .await
        .unwrap();
    assert_eq!(kyc.first_name.as_deref(), Some("Chris"));
    let media = c
        .get_kyc_media_list(&GetKycMediaListRequest::new("OBR-P-0001"))
        .await
        .unwrap();
    assert_eq!(media.media_list.unwrap_or_default().len(), 2);
    let r = c
        .get_onboarding_request_id(&GetOnboardingRequestIdRequest::new().mobile("254700000004"))
        .await
        .unwrap();
    assert_eq!(r.onboarding_request_id.as_deref(), Some("OBR-P-0003"));
    let s = c
        .get_business_onboarding_status(
            &GetBusinessOnboardingStatusRequest::new().business_cer_no("CPR-2002"),
        )
        .await
        .unwrap();
    assert_eq!(s.onboarding_status, Some(OnboardingStatus::AccountOpened));
    let r = c
        .get_business_onboarding_request_id(&GetBusinessOnboardingRequestIdRequest::new("PN-3003"))
        .await
        .unwrap();
    assert_eq!(r.onboarding_request_id.as_deref(), Some("OBR-B-0003"));
    let i = c
        .get_store_onboarding_info(&GetStoreOnboardingInfoRequest::new("OBR-B-0001"))
        .await
        .unwrap();
    assert_eq!(i.owner_full_name.as_deref(), Some("Esther Achieng"));
    let i = c
        .get_company_onboarding_info(&GetCompanyOnboardingInfoRequest::new("OBR-B-0002"))
        .await
        .unwrap();
    assert_eq!(i.shareholders_member_infos.unwrap_or_default().len(), 2);
    let i = c
        .get_partnership_onboarding_info(&GetPartnershipOnboardingInfoRequest::new("OBR-B-0003"))
        .await
        .unwrap();
    assert_eq!(i.sme_name.as_deref(), Some("Kilima Partners"));
    let i = c
        .get_organisation_onboarding_info(&GetOrganisationOnboardingInfoRequest::new("OBR-B-0004"))
        .await
        .unwrap();
    assert_eq!(i.business_type, Some(BusinessType::NgoCbo));
    assert_eq!(
        code(
            c.get_store_onboarding_info(&GetStoreOnboardingInfoRequest::new("OBR-B-0002"))
                .await
        ),
        "14001"
    );

    // Every operation of the generated client succeeded at least once.
    let succeeded: BTreeSet<String> = sb
        .requests()
        .into_iter()
        .filter(|r| r.code == "00000")
        .filter_map(|r| r.operation)
        .collect();
    let missing: Vec<&str> = baas_client::dispatch::OPERATIONS
        .iter()
        .map(|o| o.name)
        .filter(|n| !succeeded.contains(*n))
        .collect();
    assert!(
        missing.is_empty(),
        "operations never exercised: {missing:?}"
    );
}
