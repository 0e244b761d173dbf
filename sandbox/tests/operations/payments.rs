//! Operation groups that move money: transfers with their OTP flow, queries and
//! reversal, business transfers, airtime and bills, SWIFT, FX, CNY Express, groups of
//! applications.

use baas_client::cny::*;
use baas_client::enums::*;
use baas_client::fx::*;
use baas_client::otp::*;
use baas_client::records::{MobileDetail, MobileDetailRequired, OrderItem, OrderItemRequired};
use baas_client::reversal::*;
use baas_client::transfers::*;
use baas_client::utility::*;
use baas_client::{Client, RawJson};
use baas_sandbox::Sandbox;

use super::{T0, T1};
use crate::common::{amount, code, confirm};

/// Small transfer, OTP flow, queries, reversal.
pub async fn small_transfer_otp_flow_queries_reversal(sb: &Sandbox, c: &Client) {
    let tx = c
        .apply_for_transfer(
            ApplyForTransferRequest::new(ApplyForTransferRequired {
                payer_account_id: "1000000001".into(),
                payee_bank_code: "46".into(),
                payee_account_id: "B1002".into(),
                currency: Currency::Kes,
                amount: amount("1000.50"),
            })
            .remark("rent"),
        )
        .send()
        .await
        .unwrap();
    let tx = tx.tx_id.unwrap();
    c.send_otp(SendOtpRequired {
        business_id: tx.clone(),
        otp_type: OtpType::Sms,
    })
    .send()
    .await
    .unwrap();
    assert_eq!(
        code(
            c.confirm_operation(ConfirmOperationRequired {
                business_id: tx.clone(),
                otp_code: "999999x".into()
            })
            .send()
            .await
        ),
        "11203"
    );
    c.confirm_operation(ConfirmOperationRequired {
        business_id: tx.clone(),
        otp_code: sb.otp_for(&tx),
    })
    .send()
    .await
    .unwrap();
    assert_eq!(sb.balance("1000000001"), Some(amount("248999.50")));
    assert_eq!(sb.balance("1000000004"), Some(amount("101000.50")));
    let result = c
        .get_trans_result(GetTransResultRequired { tx_id: tx.clone() })
        .send()
        .await
        .unwrap();
    assert_eq!(result.tx_status, Some(TxStatus::Succeeded));
    assert_eq!(result.tx_id.as_deref(), Some(tx.as_str()));
    assert_eq!(result.payment_channel.as_deref(), Some("INTERNAL_TRANSFER"));
    let trans = c
        .get_trans_list(
            GetTransListRequest::new(GetTransListRequired {
                account_id: "1000000001".into(),
                tx_type: Vec::<TxType>::new(),
                tx_status: vec![TxStatus::Processing, TxStatus::Succeeded],
                start_time: T0,
                end_time: T1,
                page_no: 1,
                page_size: 10,
                order_by_desc: OrderByDesc::NewestFirst,
            })
            .user_id("U1001"),
        )
        .send()
        .await
        .unwrap();
    assert_eq!(trans.total_rows, Some(2)); // the seeded old one and this one
    let first = &trans.result.unwrap()[0];
    assert_eq!(first.tx_id.as_deref(), Some(tx.as_str()));
    assert_eq!(first.amount, Some(amount("1000.50")));
    assert_eq!(
        code(
            c.get_trans_list(GetTransListRequired {
                account_id: "1000000001".into(),
                tx_type: vec![TxType::TransferOut],
                tx_status: Vec::<TxStatus>::new(),
                start_time: T1,
                end_time: T0,
                page_no: 1,
                page_size: 10,
                order_by_desc: OrderByDesc::OldestFirst
            })
            .send()
            .await
        ),
        "15001"
    );
    let rev = c
        .tx_reversal(
            TxReversalRequest::new(TxReversalRequired {
                transaction_id: tx.clone(),
            })
            .reversal_reason("sent twice"),
        )
        .send()
        .await
        .unwrap();
    let rev_id = rev.application_id.unwrap();
    let rec = c
        .query_tx_reversal(QueryTxReversalRequired {
            application_id: rev_id,
        })
        .send()
        .await
        .unwrap();
    assert_eq!(rec.transaction_id.as_deref(), Some(tx.as_str()));
    assert_eq!(sb.balance("1000000001"), Some(amount("250000.00")));
    assert_eq!(
        code(
            c.tx_reversal(TxReversalRequired {
                transaction_id: baas_sandbox::seed::OLD_TX_ID.into()
            })
            .send()
            .await
        ),
        "12001"
    );
    let fee = c
        .fetch_transaction_fee(FetchTransactionFeeRequired {
            payer_account_id: "1000000001".into(),
            benificiary_name: "Jane".into(),
            benificiary_type: FeeBeneficiaryType::Individual,
            benificiary_account: "254700000009".into(),
            benificiary_bank_code: "M-PESA".into(),
            amount: amount("2000"),
        })
        .send()
        .await
        .unwrap();
    assert_eq!(fee.fee_amount, Some(amount("10.00")));
    let codes = c
        .get_bank_codes(GetBankCodesRequest::new(RawJson::empty_object()))
        .send()
        .await
        .unwrap();
    let list = codes.bank_code_list.unwrap_or_default();
    assert!(
        list.iter().any(|b| b.bank_code.as_deref() == Some("46")),
        "{list:?}"
    );
}

/// Business transfer, airtime, bills.
pub async fn business_transfer_airtime_bills(sb: &Sandbox, c: &Client) {
    let bt = c
        .apply_for_mobile_money_business_transfer(
            ApplyForMobileMoneyBusinessTransferRequest::new(
                ApplyForMobileMoneyBusinessTransferRequired {
                    payer_account_id: "2000000001".into(),
                    payee_short_code: "888880".into(),
                    pay_type: PayType::Paybill,
                    amount: amount("1500"),
                },
            )
            .payee_reference_number("METER-1"),
        )
        .send()
        .await
        .unwrap();
    confirm(c, sb, &bt.tx_id.unwrap()).await;
    let air = c
        .airtime_payment(AirtimePaymentRequired {
            account_id: "1000000001".into(),
            mobile_number: "254700000001".into(),
            network_provider: NetworkProvider::First,
            amount: amount("100"),
        })
        .send()
        .await
        .unwrap();
    let pid = air.payment_id.unwrap();
    confirm(c, sb, &pid).await;
    let pq = c
        .payment_query(PaymentQueryRequired { payment_id: pid })
        .send()
        .await
        .unwrap();
    assert_eq!(pq.status, Some(UtilityPaymentStatus::Succeeded));
    let bulk = c
        .airtime_bulk_payment(AirtimeBulkPaymentRequired {
            account_id: "1000000001".into(),
            mobile_details: vec![
                MobileDetail::new(MobileDetailRequired {
                    mobile_number: "254700000001".into(),
                    network_provider: NetworkProvider::First,
                    amount: amount("50"),
                }),
                MobileDetail::new(MobileDetailRequired {
                    mobile_number: "254700000002".into(),
                    network_provider: NetworkProvider::Third,
                    amount: amount("75.50"),
                }),
            ],
        })
        .send()
        .await
        .unwrap();
    let bulk_id = bulk.bulk_payment_order_id.unwrap();
    confirm(c, sb, &bulk_id).await;
    let bq = c
        .bulk_payment_query(BulkPaymentQueryRequired {
            bulk_payment_order_id: bulk_id.clone(),
            page_no: 1,
            page_size: 10,
        })
        .send()
        .await
        .unwrap();
    assert_eq!(bq.total_rows, Some(2));
    assert_eq!(bq.status, Some(UtilityPaymentStatus::Succeeded));
    // pageSize 51 is refused by the generated validator before anything is sent.
    let seen = sb.requests_seen();
    assert!(matches!(
        c.bulk_payment_query(BulkPaymentQueryRequired {
            bulk_payment_order_id: bulk_id,
            page_no: 1,
            page_size: 51
        })
        .send()
        .await
        .map_err(baas_client::Error::into_kind),
        Err(baas_client::ErrorKind::InvalidRequest(_))
    ));
    assert_eq!(sb.requests_seen(), seen);
    let bill = c
        .bill_query(BillQueryRequired {
            bill_type: BillType::SatelliteTv1,
            bill_order_number: "DSTV-1001".into(),
        })
        .send()
        .await
        .unwrap();
    assert_eq!(bill.due_amount, Some(amount("2499.00")));
    let bp = c
        .bill_payment(BillPaymentRequired {
            account_id: "1000000001".into(),
            bill_type: BillType::SatelliteTv1,
            bill_order_number: "DSTV-1001".into(),
        })
        .send()
        .await
        .unwrap();
    confirm(c, sb, &bp.payment_id.unwrap()).await;
    let bill = c
        .bill_query(BillQueryRequired {
            bill_type: BillType::SatelliteTv1,
            bill_order_number: "DSTV-1001".into(),
        })
        .send()
        .await
        .unwrap();
    assert_eq!(bill.due_amount, Some(amount("0.00")));
    assert_eq!(sb.balance("1000000001"), Some(amount("247275.50")));
}

/// SWIFT.
pub async fn swift(sb: &Sandbox, c: &Client) {
    let tt = c
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
        .send()
        .await
        .unwrap();
    let tt = tt.application_id.unwrap();
    c.send_acc_admin_otp(SendAccAdminOtpRequired {
        business_id: tt.clone(),
        otp_type: OtpType::Email,
        account_id: "1000000002".into(),
        acc_manager_id_number: "ID123456".into(),
        id_type: IdType::KenyaNationalId,
    })
    .send()
    .await
    .unwrap();
    c.confirm_operation(ConfirmOperationRequired {
        business_id: tt.clone(),
        otp_code: sb.otp_for(&tt),
    })
    .send()
    .await
    .unwrap();
    assert_eq!(sb.balance("1000000002"), Some(amount("3995.00")));
    let list = c
        .get_inter_bank_transfer_list(GetInterBankTransferListRequired {
            account_id: "1000000002".into(),
            start_time: T0,
            end_time: T1,
            page_no: 1,
            page_size: 10,
        })
        .send()
        .await
        .unwrap();
    assert_eq!(list.total_rows, Some(1));
    let d = c
        .get_inter_bank_transfer_details(GetInterBankTransferDetailsRequired {
            application_id: tt,
            account_id: "1000000002".into(),
        })
        .send()
        .await
        .unwrap();
    assert_eq!(d.status, Some(InterBankApplicationStatus::InTransit));
}

/// FX.
pub async fn fx(sb: &Sandbox, c: &Client) {
    let rate = c
        .get_foreign_exchange_rate(GetForeignExchangeRateRequired {
            currency_pair: CurrencyPair::EurKes,
        })
        .send()
        .await
        .unwrap();
    assert_eq!(rate.rate, Some(amount("140.25")));
    let fx = c
        .apply_for_fc_exchange(
            ApplyForFcExchangeRequest::new(ApplyForFcExchangeRequired {
                source_currency: Currency::Kes,
                target_currency: Currency::Eur,
                source_account: "2000000001".into(),
                target_account: "2000000003".into(),
            })
            .target_amount(amount("100")),
        )
        .send()
        .await
        .unwrap();
    let fx_id = fx.application_id.unwrap();
    // No OTP: the conversion is booked at once (decision otp-scope).
    let st = c
        .get_fx_request_status(GetFxRequestStatusRequired {
            application_id: fx_id,
        })
        .send()
        .await
        .unwrap();
    assert_eq!(st.status, Some(FxRequestStatus::Successful));
    assert_eq!(sb.balance("2000000003"), Some(amount("20100.00")));
}

/// CNY Express.
pub async fn cny_express(sb: &Sandbox, c: &Client) {
    let order = OrderItem::new(OrderItemRequired {
        product_name: "green tea".into(),
        quantity: 3,
        amount: amount("1200.50"),
        order_time: 1_750_000_000_000,
        platform: "shop.example".into(),
    });
    let cny = c
        .apply_for_cny_express(
            ApplyForCnyExpressRequest::new(ApplyForCnyExpressRequired {
                payer_account_id: "2000000001".into(),
                beneficiary_type: BeneficiaryType::Individual,
                beneficiary_name: "李雷".into(),
                beneficiary_id_number: "110101199001011234".into(),
                beneficiary_bank_code: "ICBC".into(),
                beneficiary_bank_name: "Industrial and Commercial Bank of China".into(),
                beneficiary_bank_address: "Beijing".into(),
                beneficiary_account_id: "6222020200112233".into(),
                payment_purpose: PaymentPurpose::PurchaseGoods,
                support_document_file: b"hello".into(),
                support_document_type: CnyDocumentType::Pdf,
                company_regis_document_file: b"hello".into(),
                company_regis_document_type: CnyDocumentType::Image,
                invoice_document_type: CnyDocumentType::Pdf,
                order_array: vec![order],
            })
            .beneficiary_country_code("CN"),
        )
        .send()
        .await
        .unwrap();
    let cny_id = cny.application_id.unwrap();
    confirm(c, sb, &cny_id).await;
    let d = c
        .get_cny_transfer_details(GetCnyTransferDetailsRequired {
            application_id: cny_id.clone(),
        })
        .send()
        .await
        .unwrap();
    assert_eq!(d.amount, Some(amount("1200.5000")));
    assert_eq!(d.orders.unwrap_or_default().len(), 1);
    let l = c
        .get_cny_trans_list(GetCnyTransListRequired {
            user_id: "U2001".into(),
            account_id: "2000000001".into(),
            start_time: T0,
            end_time: T1,
            page_no: "1".into(),
            page_size: "10".into(),
        })
        .send()
        .await
        .unwrap();
    assert_eq!(l.total_rows, Some(1));
}

/// Group of applications, one OTP.
pub async fn group_of_applications_one_otp(sb: &Sandbox, c: &Client) {
    let a = c
        .apply_for_transfer(ApplyForTransferRequired {
            payer_account_id: "1000000004".into(),
            payee_bank_code: "46".into(),
            payee_account_id: "1000000001".into(),
            currency: Currency::Kes,
            amount: amount("10"),
        })
        .send()
        .await
        .unwrap()
        .tx_id
        .unwrap();
    let b = c
        .apply_for_transfer(ApplyForTransferRequired {
            payer_account_id: "1000000004".into(),
            payee_bank_code: "M-PESA".into(),
            payee_account_id: "254711111111".into(),
            currency: Currency::Kes,
            amount: amount("20"),
        })
        .send()
        .await
        .unwrap()
        .tx_id
        .unwrap();
    let g = c
        .group_applications(GroupApplicationsRequired {
            application_id_list: vec![a.clone(), b],
        })
        .send()
        .await
        .unwrap()
        .application_id
        .unwrap();
    assert_eq!(
        code(
            c.send_otp(SendOtpRequired {
                business_id: a,
                otp_type: OtpType::Sms
            })
            .send()
            .await
        ),
        "12001"
    );
    confirm(c, sb, &g).await;
    assert_eq!(sb.balance("1000000004"), Some(amount("99969.90")));
}
