//! Unit tests of the domain core through [`Bank::handle`], without HTTP.

use baas_client::enums::ResultCode;
use rust_decimal::Decimal;
use serde_json::{json, Value};

use crate::bank::{otp_for, Bank, DAY_MS};
use crate::error::{codes, ApiError};
use crate::json::Json;

mod closing;
mod seed;
mod values;

/// The typed request of `operation` that `params` make, as the server decodes it.
fn typed(operation: &str, params: &Value) -> Result<baas_client::dispatch::Request, ApiError> {
    let name = baas_client::dispatch::OPERATIONS
        .iter()
        .find(|o| o.name == operation)
        .map(|o| o.name)
        .unwrap_or_else(|| panic!("no operation {operation}"));
    crate::server::decode_request(&[name], Json::from_value(params))
}

const NOW: i64 = 1_750_000_000_000;

struct T {
    bank: Bank,
    n: u32,
    /// The clock of the next call.
    now: i64,
}

impl T {
    fn new() -> T {
        T {
            bank: Bank::seeded(NOW),
            n: 0,
            now: NOW,
        }
    }
    /// Calls `operation` with `params` as the server does: decoded into the typed request
    /// first (a refusal of the decoders is returned as the server answers it).
    fn call(&mut self, operation: &str, params: Value) -> Result<Value, ApiError> {
        self.n += 1;
        let request = typed(operation, &params)?;
        self.bank
            .handle(request, &format!("REQ{}", self.n), self.now)
    }
    fn ok(&mut self, operation: &str, params: Value) -> Value {
        match self.call(operation, params) {
            Ok(v) => v,
            Err(e) => panic!("{operation}: {e}"),
        }
    }
    fn code(&mut self, operation: &str, params: Value) -> ResultCode {
        match self.call(operation, params) {
            Ok(_) => codes::OK,
            Err(e) => e.code,
        }
    }
    fn confirm(&mut self, id: &str) {
        self.ok("sendOtp", json!({"businessId": id, "otpType": "sms"}));
        self.ok(
            "confirmOperation",
            json!({"businessId": id, "otpCode": otp_for(id)}),
        );
    }
    fn bal(&self, id: &str) -> Decimal {
        self.bank.balance(id).unwrap_or_default()
    }
}

fn transfer(payer: &str, payee: &str, amount: &str) -> Value {
    json!({"payerAccountId": payer, "payeeBankCode": "46", "payeeAccountId": payee,
           "currency": "KES", "amount": amount})
}

#[test]
fn transfer_moves_money_only_after_the_otp() {
    let mut t = T::new();
    let totals = t.bank.totals();
    let tx = t.ok(
        "applyForTransfer",
        transfer("1000000001", "1000000004", "100.50"),
    );
    let tx = tx["txId"].as_str().unwrap().to_owned();
    assert_eq!(t.bal("1000000001"), Decimal::new(25_000_000, 2));
    let r = t.ok("getTransResult", json!({"txId": tx}));
    assert_eq!(r["txStatus"], 1);
    // No OTP sent yet.
    assert_eq!(
        t.code(
            "confirmOperation",
            json!({"businessId": tx, "otpCode": otp_for(&tx)})
        ),
        codes::WRONG_OTP
    );
    t.ok("sendOtp", json!({"businessId": tx, "otpType": "sms"}));
    assert_eq!(
        t.code(
            "confirmOperation",
            json!({"businessId": tx, "otpCode": "000000x"})
        ),
        codes::WRONG_OTP
    );
    t.ok(
        "confirmOperation",
        json!({"businessId": tx, "otpCode": otp_for(&tx)}),
    );
    assert_eq!(t.bal("1000000001"), Decimal::new(24_989_950, 2));
    assert_eq!(t.bal("1000000004"), Decimal::new(10_010_050, 2));
    assert_eq!(t.ok("getTransResult", json!({"txId": tx}))["txStatus"], 8);
    // Confirming twice is refused.
    assert_eq!(
        t.code(
            "confirmOperation",
            json!({"businessId": tx, "otpCode": otp_for(&tx)})
        ),
        codes::INVALID_PARAMETER
    );
    assert_eq!(t.bank.totals(), totals);
    let list = t.ok(
        "getTransList",
        json!({"accountId": "1000000004", "txType": [], "txStatus": [8],
        "startTime": 0, "endTime": NOW, "pageNo": 1, "pageSize": 10, "orderByDesc": 1}),
    );
    assert_eq!(list["totalRows"], 1);
    assert_eq!(list["result"][0]["txType"], "TTID0003"); // transfer in
}

#[test]
fn insufficient_funds_and_external_fees() {
    let mut t = T::new();
    assert_eq!(
        t.code(
            "applyForTransfer",
            transfer("1000000003", "1000000004", "1500.01")
        ),
        codes::INSUFFICIENT_BALANCE
    );
    let totals = t.bank.totals();
    let tx = t.ok("applyForTransfer", json!({"payerAccountId": "1000000003",
        "payeeBankCode": "M-PESA", "payeeAccountId": "254700000009", "currency": "KES", "amount": "1000"}));
    let tx = tx["txId"].as_str().unwrap().to_owned();
    // Spend the money elsewhere before confirming: the confirmation is then refused.
    let other = t.ok(
        "applyForTransfer",
        transfer("1000000003", "1000000004", "900"),
    );
    t.confirm(other["txId"].as_str().unwrap());
    t.ok("sendOtp", json!({"businessId": tx, "otpType": "sms"}));
    assert_eq!(
        t.code(
            "confirmOperation",
            json!({"businessId": tx, "otpCode": otp_for(&tx)})
        ),
        codes::INSUFFICIENT_BALANCE
    );
    assert_eq!(t.ok("getTransResult", json!({"txId": tx}))["txStatus"], 4);
    let fee = t.ok(
        "fetchTransactionFee",
        json!({"payerAccountId": "1000000001",
        "benificiaryName": "X", "benificiaryType": "0", "benificiaryAccount": "1",
        "benificiaryBankCode": "M-PESA", "amount": "1000"}),
    );
    assert_eq!(fee["feeAmount"], "5.00");
    assert_eq!(t.bank.totals(), totals);
}

#[test]
fn grouped_applications_confirm_with_one_otp() {
    let mut t = T::new();
    let a = t.ok(
        "applyForTransfer",
        transfer("1000000001", "1000000004", "10"),
    )["txId"]
        .clone();
    let b = t.ok(
        "airtimePayment",
        json!({"accountId": "1000000001",
        "mobileNumber": "254700000001", "networkProvider": 0, "amount": "50"}),
    );
    let g = t.ok(
        "groupApplications",
        json!({"applicationIdList": [a, b["paymentId"]]}),
    );
    let g = g["applicationId"].as_str().unwrap().to_owned();
    assert_eq!(
        t.code("sendOtp", json!({"businessId": a, "otpType": "sms"})),
        codes::INVALID_PARAMETER
    );
    t.confirm(&g);
    assert_eq!(t.bal("1000000001"), Decimal::new(24_994_000, 2));
    let pay = t.ok("paymentQuery", json!({"paymentId": b["paymentId"]}));
    assert_eq!(pay["status"], 8);
}

#[test]
fn dormancy_activation_and_cancellation() {
    let mut t = T::new();
    assert_eq!(
        t.code(
            "applyForTransfer",
            transfer("1000000005", "1000000004", "1")
        ),
        codes::NO_PERMISSION
    );
    let abnormal = t.ok(
        "getAbnormalAccountList",
        json!({"pageNo": 1, "pageSize": 50}),
    );
    assert_eq!(abnormal["total"], 2);
    assert_eq!(
        t.code(
            "getAbnormalAccountList",
            json!({"pageNo": 1, "pageSize": 51})
        ),
        codes::PAGE_SIZE
    );
    // Activation requested with request REQ4, then cancelled.
    let r = t.ok("activateAccount", json!({"accountId": "1000000005"}));
    assert_eq!(r["accountId"], "1000000005");
    let req = format!("REQ{}", t.n);
    t.ok("cancelAccountOperation", json!({"requestId": req}));
    assert_eq!(
        t.code("sendOtp", json!({"businessId": req, "otpType": "sms"})),
        codes::INVALID_PARAMETER
    );
    t.ok("activateAccount", json!({"accountId": "1000000005"}));
    let req = format!("REQ{}", t.n);
    t.confirm(&req);
    assert_eq!(
        t.code("cancelAccountOperation", json!({"requestId": req})),
        codes::INVALID_PARAMETER
    );
    let d = t.ok("getAccountDetails", json!({"accountId": "1000000005"}));
    assert_eq!(d["dormantStatus"], 0);
    // Six months without transactions: dormant again.
    t.bank.refresh_dormancy(NOW + 184 * DAY_MS);
    let d = t.ok("getAccountDetails", json!({"accountId": "1000000005"}));
    assert_eq!(d["dormantStatus"], 1);
}

#[test]
fn a_grouped_activation_cannot_be_cancelled_alone() {
    let mut t = T::new();
    t.ok("activateAccount", json!({"accountId": "1000000005"}));
    let req = format!("REQ{}", t.n);
    let g = t.ok("groupApplications", json!({"applicationIdList": [req]}));
    let g = g["applicationId"].as_str().unwrap().to_owned();
    assert_eq!(
        t.code("cancelAccountOperation", json!({"requestId": req})),
        codes::INVALID_PARAMETER
    );
    // The group still carries the activation out, consistently with the refusal.
    t.confirm(&g);
    let d = t.ok("getAccountDetails", json!({"accountId": "1000000005"}));
    assert_eq!(d["dormantStatus"], 0);
}

#[test]
fn sub_account_names_follow_the_rule() {
    let mut t = T::new();
    t.ok(
        "editSubAccountName",
        json!({"accountId": "2000000002", "subAccountName": "Ops"}),
    );
    assert_eq!(
        t.ok("getAccountDetails", json!({"accountId": "2000000002"}))["accountName"],
        "Jambo Traders Ltd_Ops"
    );
    t.ok("editSubAccountName", json!({"accountId": "2000000002"}));
    assert_eq!(
        t.ok("getAccountDetails", json!({"accountId": "2000000002"}))["accountName"],
        "Jambo Traders Ltd"
    );
    // "Jambo Traders Ltd_" is 18 characters: 237 more fit, 238 do not.
    let fits = "é".repeat(237);
    t.ok(
        "editSubAccountName",
        json!({"accountId": "2000000002", "subAccountName": fits}),
    );
    let err = t.call(
        "editSubAccountName",
        json!({"accountId": "2000000002", "subAccountName": "é".repeat(238)}),
    );
    let err = err.unwrap_err();
    assert_eq!(err.code, codes::INVALID_PARAMETER);
    assert!(
        err.msg.contains("subAccountName") && err.msg.contains("256"),
        "{}",
        err.msg
    );
    assert_eq!(
        t.code(
            "editSubAccountName",
            json!({"accountId": "1000000001", "subAccountName": "x"})
        ),
        codes::INVALID_PARAMETER
    );
}

#[test]
fn short_codes() {
    let mut t = T::new();
    assert_eq!(
        t.code("applyForShortCode", json!({"accountId": "1000000001"})),
        codes::SHORT_CODE_EXISTS
    );
    assert_eq!(
        t.code("queryForShortCode", json!({"accountId": "1000000002"})),
        codes::NOT_FOUND
    );
    let sc = t.ok("applyForShortCode", json!({"accountId": "1000000002"}))["shortCode"].clone();
    assert_eq!(
        t.ok("queryForShortCode", json!({"accountId": "1000000002"}))["shortCode"],
        sc
    );
    assert_eq!(
        t.ok("queryAccountByShortCode", json!({"shortCode": sc}))["accountId"],
        "1000000002"
    );
    assert_eq!(
        t.code("queryAccountByShortCode", json!({"shortCode": "NOPE"})),
        codes::NO_ACCOUNT
    );
    assert_eq!(
        t.code("getAccountDetails", json!({"accountId": "SYS-FEES-KES"})),
        codes::NO_ACCOUNT
    );
}

#[test]
fn reversal_window() {
    let mut t = T::new();
    let totals = t.bank.totals();
    assert_eq!(
        t.code(
            "txReversal",
            json!({"transactionId": crate::seed::OLD_TX_ID})
        ),
        codes::INVALID_PARAMETER
    );
    let tx = t.ok(
        "applyForTransfer",
        transfer("1000000001", "1000000004", "300"),
    )["txId"]
        .as_str()
        .unwrap()
        .to_owned();
    assert_eq!(
        t.code("txReversal", json!({"transactionId": tx})),
        codes::INVALID_PARAMETER
    );
    t.confirm(&tx);
    let app = t.ok(
        "txReversal",
        json!({"transactionId": tx, "reversalReason": "duplicate"}),
    );
    let rec = t.ok(
        "queryTxReversal",
        json!({"applicationId": app["applicationId"]}),
    );
    assert_eq!(rec["transactionId"], tx.as_str());
    assert_eq!(t.bal("1000000001"), Decimal::new(25_000_000, 2));
    assert_eq!(
        t.code("txReversal", json!({"transactionId": tx})),
        codes::INVALID_PARAMETER
    );
    assert_eq!(t.bank.totals(), totals);
}

#[test]
fn fx_cny_and_closing_balance_notify() {
    let mut t = T::new();
    let totals = t.bank.totals();
    let fx = t.ok(
        "applyForFcExchange",
        json!({"sourceCurrency": "KES", "targetCurrency": "EUR",
        "sourceAccount": "2000000001", "targetAccount": "2000000003", "targetAmount": "100"}),
    );
    let id = fx["applicationId"].as_str().unwrap().to_owned();
    // No OTP step for FX: the conversion is booked at once.
    assert_eq!(t.bal("2000000003"), Decimal::new(2_010_000, 2));
    assert_eq!(
        t.ok("getFxRequestStatus", json!({"applicationId": id}))["status"],
        6
    );
    let cny = t.ok("applyForCnyExpress", json!({"payerAccountId": "2000000001", "beneficiaryType": "2",
        "beneficiaryName": "上海贸易", "beneficiaryIdNumber": "91310000", "beneficiaryBankCode": "BOC",
        "beneficiaryBankName": "Bank of China", "beneficiaryBankAddress": "Shanghai", "beneficiaryAccountId": "6222",
        "paymentPurpose": "PURCHASE_GOODS", "supportDocumentFile": "aGk=", "supportDocumentType": "pdf",
        "companyRegisDocumentFile": "aGk=", "companyRegisDocumentType": "pdf", "invoiceDocumentType": "pdf",
        "oderArray": [{"productName": "tea", "quantity": 2, "amount": "1000.5", "orderTime": NOW, "platform": "shop"}]}));
    let cid = cny["applicationId"].as_str().unwrap().to_owned();
    t.confirm(&cid);
    let d = t.ok("getCnyTransferDetails", json!({"applicationId": cid}));
    assert_eq!(d["amount"], "1000.5000");
    assert_eq!(d["status"], 8);
    // NOW is 2025-06-15 (UTC): the day before has ended, NOW's own day has not.
    t.ok("queryClosingBalance", json!({"queryDate": "2025-06-14"}));
    assert_eq!(
        t.code("queryClosingBalance", json!({"queryDate": "2025-06-15"})),
        codes::TIME_RANGE
    );
    assert_eq!(
        t.code("queryClosingBalance", json!({"queryDate": "30/06/2025"})),
        codes::INVALID_PARAMETER
    );
    let types: Vec<String> = t
        .bank
        .take_outbox()
        .iter()
        .map(crate::bank::Outgoing::notification_type)
        .collect();
    assert_eq!(types, ["0026", "0028", "0015"]);
    assert_eq!(t.bank.totals(), totals);
}

/// The document gives `getOnboardingRequestId` two optional parameters and no rule
/// that one of them be given (it gives one for `getOnboardingStatus`): a request with
/// neither passes the generated validators and is a lookup that finds nothing (14001),
/// never a refusal for a missing parameter (12001, the sandbox's answer before).
#[test]
fn get_onboarding_request_id_requires_neither_user_id_nor_mobile() {
    let mut t = T::new();
    for params in [json!({}), json!({"userId": ""}), json!({"mobile": ""})] {
        assert_eq!(
            t.code("getOnboardingRequestId", params.clone()),
            codes::NOT_FOUND,
            "{params}"
        );
    }
    assert_eq!(
        t.ok("getOnboardingRequestId", json!({"mobile": "254700000004"}))["onboardingRequestId"],
        "OBR-P-0003"
    );
    // getOnboardingStatus keeps the document's rule.
    assert_eq!(
        t.code("getOnboardingStatus", json!({})),
        codes::INVALID_PARAMETER
    );
}

#[test]
fn onboarding_and_bills() {
    let mut t = T::new();
    assert_eq!(
        t.ok("getOnboardingStatus", json!({"mobile": "254700000003"}))["rejectionReasonId"],
        "R01"
    );
    assert_eq!(
        t.code("getOnboardingStatus", json!({})),
        codes::INVALID_PARAMETER
    );
    assert_eq!(
        t.ok("getOnboardingRequestId", json!({"userId": "U1004"}))["onboardingRequestId"],
        "OBR-P-0003"
    );
    assert_eq!(
        t.ok(
            "getBusinessOnboardingStatus",
            json!({"businessCerNo": "CPR-2002"})
        )["onboardingStatus"],
        7
    );
    assert_eq!(
        t.code(
            "getStoreOnboardingInfo",
            json!({"onboardingRequestId": "OBR-B-0002"})
        ),
        codes::NOT_FOUND
    );
    let info = t.ok(
        "getCompanyOnboardingInfo",
        json!({"onboardingRequestId": "OBR-B-0002"}),
    );
    assert_eq!(
        info["shareholdersMemberInfos"][1]["fullName"],
        "George Omondi"
    );
    let bill = t.ok(
        "billQuery",
        json!({"billType": 6, "billOrderNumber": "WATER-2002"}),
    );
    assert_eq!(bill["dueAmount"], "1350.50");
    let pay = t.ok(
        "billPayment",
        json!({"accountId": "1000000001", "billType": 6, "billOrderNumber": "WATER-2002"}),
    );
    t.confirm(pay["paymentId"].as_str().unwrap());
    let bill = t.ok(
        "billQuery",
        json!({"billType": 6, "billOrderNumber": "WATER-2002"}),
    );
    assert_eq!(bill["dueAmount"], "0.00");
}

#[test]
fn a_request_id_shaped_like_a_sandbox_id_does_not_collide() {
    // The businessId of an addEmail (or activation) request is the partner's
    // requestId; a partner may pick one that looks like the id the sandbox generates
    // next ("TX" + 10 digits).
    let mut t = T::new();
    let rid = format!("TX{:010}", t.bank.counter + 1);
    let r = t
        .bank
        .handle(typed("addEmail", &json!({})).unwrap(), &rid, NOW)
        .unwrap();
    assert_eq!(r["businessId"], rid.as_str());
    let tx = t.ok(
        "applyForTransfer",
        transfer("1000000001", "1000000004", "10"),
    )["txId"]
        .as_str()
        .unwrap()
        .to_owned();
    assert_ne!(tx, rid);
    t.confirm(&tx);
    t.confirm(&rid);
    assert_eq!(t.bal("1000000004"), Decimal::new(10_001_000, 2));
    // No transaction record was left behind by a refused application.
    let rows = t.ok(
        "getTransList",
        json!({"accountId": "1000000001", "startTime": 0, "endTime": NOW + 1,
               "pageNo": 1, "pageSize": 50, "orderByDesc": 0}),
    );
    let submitted = rows["result"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["txStatus"] == 1)
        .count();
    assert_eq!(submitted, 0, "{rows}");
}
