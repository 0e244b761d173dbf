//! The seed a partner starts from: every currency account can make the payments it
//! exists for, and the seeded records are exactly the spec's records.

use baas_client::records::{
    CompanyOnboardingInfo, OrganisationOnboardingInfo, PartnershipOnboardingInfo, PersonalKyc,
    StoreOnboardingInfo,
};
use rust_decimal::Decimal;
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::{json, Value};

use super::T;
use crate::bank::Bank;

/// A CNY Express application of `amount` CNY paid from `payer`.
fn cny_express(payer: &str, amount: &str) -> Value {
    json!({"payerAccountId": payer, "beneficiaryType": "2", "beneficiaryName": "上海贸易",
        "beneficiaryIdNumber": "91310000", "beneficiaryBankCode": "ICBC",
        "beneficiaryBankName": "Industrial and Commercial Bank of China",
        "beneficiaryBankAddress": "Shanghai", "beneficiaryAccountId": "6222",
        "paymentPurpose": "PURCHASE_GOODS", "supportDocumentFile": "aGk=",
        "supportDocumentType": "pdf", "companyRegisDocumentFile": "aGk=",
        "companyRegisDocumentType": "pdf", "invoiceDocumentType": "pdf",
        "oderArray": [{"productName": "tea", "quantity": 2, "amount": amount,
            "orderTime": super::NOW, "platform": "shop"}]})
}

/// A SWIFT transfer of `amount` in the currency of `account`.
fn swift(account: &str, amount: &str) -> Value {
    json!({"accountId": account, "beneficiarySwiftBic": "DEUTDEFF",
        "beneficiaryBankName": "Deutsche Bank", "beneficiaryBankCity": "Frankfurt",
        "beneficiaryAccountId": "DE89370400440532013000", "beneficiaryAccountCcy": "EUR",
        "beneficiaryName": "Hans Muster", "amount": amount, "amountType": 0,
        "paymentChannel": "SWIFT", "paymentPurposeId": "GDDS", "senderAddress": "Nairobi",
        "chargeType": "BEN"})
}

#[test]
fn the_cny_account_pays_a_cny_express_transfer_and_the_others_their_payments() {
    let mut t = T::new();
    let totals = t.bank.totals();
    assert_eq!(t.bal("2000000005"), Decimal::new(10_000_000, 2));
    let cny = t.ok("applyForCnyExpress", cny_express("2000000005", "50000"));
    t.confirm(cny["applicationId"].as_str().unwrap());
    assert_eq!(t.bal("2000000005"), Decimal::new(5_000_000, 2));
    let d = t.ok(
        "getCnyTransferDetails",
        json!({"applicationId": cny["applicationId"]}),
    );
    assert_eq!(d["status"], 8);
    // SWIFT from the USD and the EUR account.
    for (account, left) in [("1000000002", 400_000), ("2000000003", 1_900_000)] {
        let tt = t.ok("telegraphicTransfer", swift(account, "1000"));
        t.confirm(tt["applicationId"].as_str().unwrap());
        assert_eq!(t.bal(account), Decimal::new(left, 2), "{account}");
    }
    assert_eq!(t.bank.totals(), totals);
}

/// `seeded` decodes as `T` and is written back unchanged: nothing the spec does not
/// declare, every value of its declared JSON type.
fn exactly<T: DeserializeOwned + Serialize>(seeded: &Value) {
    let typed: T = serde_json::from_value(seeded.clone()).expect("decodes");
    assert_eq!(&serde_json::to_value(typed).unwrap(), seeded);
}

#[test]
fn seeded_onboarding_records_are_the_spec_records() {
    let bank = Bank::seeded(super::NOW);
    assert_eq!(bank.personal.len(), 3);
    for a in &bank.personal {
        exactly::<PersonalKyc>(&a.kyc);
    }
    assert_eq!(bank.sme.len(), 4);
    for a in &bank.sme {
        match a.business_type {
            1 => exactly::<StoreOnboardingInfo>(&a.info),
            2 => exactly::<CompanyOnboardingInfo>(&a.info),
            3 => exactly::<PartnershipOnboardingInfo>(&a.info),
            5 => exactly::<OrganisationOnboardingInfo>(&a.info),
            other => panic!("business type {other}"),
        }
    }
}

/// The README's sandbox tables (seeded accounts, bank codes, CNY Express banks and
/// nationalities) say what the sandbox holds and accepts.
#[test]
fn the_readme_lists_the_seed_and_the_values_the_sandbox_accepts() {
    use crate::bank::money_text;
    use crate::ops::{BANK_CODES, CNY_BANKS, CNY_NATIONALITIES};
    let readme = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../README.md"));
    let row = |first: &str| {
        readme
            .lines()
            .find(|l| l.starts_with(&format!("| `{first}` |")))
            .unwrap_or_else(|| panic!("README has no row for {first}"))
    };
    let bank = Bank::seeded(super::NOW);
    for a in bank.accounts.values().filter(|a| !a.system) {
        let line = row(&a.id);
        let balance = money_text(a.balance, 2);
        for cell in [&a.user_id, &a.name, &a.currency, &a.account_type, &balance] {
            assert!(line.contains(&format!("| {cell} |")), "{line}: {cell}");
        }
    }
    for (code, name, _) in BANK_CODES {
        assert!(row(code).contains(&format!("| {name} |")), "{code}");
    }
    for (code, name) in CNY_BANKS {
        assert!(row(code).contains(&format!("| {name} |")), "{code}");
    }
    let nationalities: Vec<String> = CNY_NATIONALITIES.iter().map(|n| format!("`{n}`")).collect();
    assert!(readme.contains(&format!(
        "`beneficiaryCountryCode` one of {}",
        nationalities.join(", ")
    )));
}
