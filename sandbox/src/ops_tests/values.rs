//! Values the handlers read: calendar dates, wire values the spec does not list, the
//! rate of every currency pair, and the one path shared by the fee call and reversals.

use serde_json::{json, Value};

use super::T;
use crate::error::codes;
use crate::json::Json;

#[test]
fn calendar_days() {
    // queryDate is a `baas_client::Date` (decision date-type): a request with another text
    // does not decode, and is refused as the service refuses it (12001).
    let day = |t: &str| {
        t.parse::<baas_client::Date>()
            .ok()
            .map(baas_client::Date::days)
    };
    assert_eq!(day("1970-01-01"), Some(0));
    assert_eq!(day("2000-03-01"), Some(11_017));
    assert_eq!(day("2024-02-29"), Some(19_782));
    let mut t = T::new();
    for bad in [
        "2026-13-45",
        "2026-02-30",
        "2025-02-29",
        "2100-02-29",
        "2026-00-10",
        "2026-1-01",
        "26-01-01x",
    ] {
        assert_eq!(day(bad), None, "{bad}");
        assert_eq!(
            t.code("queryClosingBalance", json!({ "queryDate": bad })),
            codes::INVALID_PARAMETER,
            "{bad}"
        );
    }
    assert_eq!(day("2000-02-29"), Some(11_016));
}

#[test]
fn values_the_spec_does_not_list_are_refused_with_the_served_ones() {
    // The generated enums keep an unlisted wire value as `Unknown`; the handlers refuse
    // it as the service does (12001), naming the field and the values served.
    let mut t = T::new();
    let refused = |t: &mut T, operation: &str, params: Value| match t.call(operation, params) {
        Ok(v) => panic!("{operation} accepted: {v}"),
        Err(e) => {
            assert_eq!(e.code, codes::INVALID_PARAMETER, "{operation}: {e}");
            e.msg
        }
    };
    let msg = refused(
        &mut t,
        "airtimePayment",
        json!({"accountId": "1000000001", "mobileNumber": "254700000001",
               "networkProvider": 7, "amount": "10"}),
    );
    assert_eq!(msg, "networkProvider: 7 is not one of 0, 1, 2");
    let msg = refused(
        &mut t,
        "airtimeBulkPayment",
        json!({"accountId": "1000000001", "mobileDetails": [
            {"mobileNumber": "254700000001", "networkProvider": 0, "amount": "10"},
            {"mobileNumber": "254700000002", "networkProvider": 9, "amount": "10"}]}),
    );
    assert_eq!(
        msg,
        "mobileDetails[1].networkProvider: 9 is not one of 0, 1, 2"
    );
    let msg = refused(
        &mut t,
        "applyForMobileMoneyBusinessTransfer",
        json!({"payerAccountId": "1000000001", "payeeShortCode": "400200",
               "payType": "5", "amount": "10"}),
    );
    assert_eq!(msg, "payType: 5 is not one of 0, 1");
    let swift = |amount_type: Value, charge: &str| {
        json!({"accountId": "1000000001", "beneficiarySwiftBic": "DEUTDEFF",
            "beneficiaryBankName": "Deutsche Bank", "beneficiaryBankCity": "Frankfurt",
            "beneficiaryAccountId": "DE89370400440532013000", "beneficiaryAccountCcy": "EUR",
            "beneficiaryName": "Max", "amount": "100", "amountType": amount_type,
            "paymentChannel": "SWIFT", "paymentPurposeId": "GDDS",
            "senderAddress": "Nairobi", "chargeType": charge})
    };
    let msg = refused(&mut t, "telegraphicTransfer", swift(json!(3), "OUR"));
    assert_eq!(msg, "amountType: 3 is not one of 0, 1");
    let msg = refused(&mut t, "telegraphicTransfer", swift(json!(0), "ALL"));
    assert_eq!(msg, "chargeType: ALL is not one of OUR, BEN, SHA");
    let msg = refused(
        &mut t,
        "validateAccount",
        json!({"accountId": "1000000001", "accountType": 4}),
    );
    assert_eq!(msg, "accountType: 4 is not one of 0, 1, 2");
    let msg = refused(
        &mut t,
        "getForeignExchangeRate",
        json!({"currencyPair": "KES/XYZ"}),
    );
    assert!(
        msg.starts_with("currencyPair: KES/XYZ is not one of USD/KES, "),
        "{msg}"
    );
    let msg = refused(
        &mut t,
        "sendOtp",
        json!({"businessId": "X", "otpType": "SMS"}),
    );
    assert_eq!(
        msg,
        "otpType: `SMS` is not one of sms, email (lower case, as the document writes it)"
    );
    // Nothing moved.
    assert_eq!(t.bank.totals(), T::new().bank.totals());
}

#[test]
fn every_currency_pair_of_the_spec_has_a_rate() {
    use baas_client::enums::CurrencyPair;
    let mut t = T::new();
    for pair in CurrencyPair::KNOWN {
        let r = t.ok(
            "getForeignExchangeRate",
            json!({"currencyPair": pair.as_str()}),
        );
        assert_eq!(r["currencyPair"], pair.as_str());
        assert!(r["rate"].as_str().is_some_and(|r| r != "0"), "{pair}: {r}");
    }
}

#[test]
fn the_fee_call_and_the_reversal_share_a_path_and_decode_apart() {
    use baas_client::dispatch::{reversal, Request};
    let candidates: Vec<&'static str> = baas_client::dispatch::OPERATIONS
        .iter()
        .filter(|o| o.path == "/trans/txReversal")
        .map(|o| o.name)
        .collect();
    assert_eq!(candidates.len(), 2, "{candidates:?}");
    let fee = json!({"payerAccountId": "1000000001", "benificiaryName": "Jane",
        "benificiaryType": "0", "benificiaryAccount": "254700000009",
        "benificiaryBankCode": "M-PESA", "amount": "100"});
    let decoded = crate::server::decode_request(&candidates, Json::from_value(&fee));
    assert!(
        matches!(
            decoded,
            Ok(Request::Reversal(reversal::Request::FetchTransactionFee(_)))
        ),
        "{decoded:?}"
    );
    let reversal = json!({"transactionId": "TX0000000001", "reversalReason": "duplicate"});
    let decoded = crate::server::decode_request(&candidates, Json::from_value(&reversal));
    assert!(
        matches!(
            decoded,
            Ok(Request::Reversal(reversal::Request::TxReversal(_)))
        ),
        "{decoded:?}"
    );
    // Params neither type decodes: 12001 with both types' problems.
    let decoded = crate::server::decode_request(&candidates, Json::from_value(&json!({"x": 1})));
    let Err(e) = decoded else {
        panic!("{decoded:?}")
    };
    assert_eq!(e.code, codes::INVALID_PARAMETER);
    assert_eq!(e.msg.matches("malformed params").count(), 2, "{}", e.msg);
    // The fee itself, through the typed handler.
    let mut t = T::new();
    assert_eq!(t.ok("fetchTransactionFee", fee)["feeAmount"], "0.50");
}
