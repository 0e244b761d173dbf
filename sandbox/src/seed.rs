//! Deterministic seed data: the same accounts, balances, bills, applicants and
//! counterparties on every start. Only timestamps that must be "recent" (the last
//! activity of active accounts) follow the clock; everything else is fixed.
//!
//! | account      | user  | currency | type | balance      | notes                         |
//! |--------------|-------|----------|------|--------------|-------------------------------|
//! | 1000000001   | U1001 | KES      | C001 | 250000.00    | short code `A1001`            |
//! | 1000000002   | U1001 | USD      | C001 | 5000.00      |                               |
//! | 1000000003   | U1001 | KES      | C002 | 1500.00      | wallet                        |
//! | 1000000004   | U1002 | KES      | C001 | 100000.00    | short code `B1002`            |
//! | 1000000005   | U1002 | KES      | C001 | 320.00       | dormant                       |
//! | 2000000001   | U2001 | KES      | B001 | 1000000.00   | Jambo Traders Ltd (SME)       |
//! | 2000000002   | U2001 | KES      | B001 | 50000.00     | sub-account `Jambo Traders Ltd_Payroll` |
//! | 2000000003   | U2001 | EUR      | B001 | 20000.00     |                               |
//! | 2000000004   | U2001 | KES      | B001 | 10.00        | frozen                        |
//! | 2000000005   | U2001 | CNY      | B001 | 100000.00    | pays CNY Express transfers    |
//!
//! Each currency account holds enough for the payments it exists for: KES for
//! transfers, airtime and bills; USD for SWIFT; EUR for SWIFT and FX; CNY for CNY
//! Express transfers paid in CNY (up to 70,000 CNY without an invoice, more with one).

use rust_decimal::Decimal;
use serde_json::json;

use crate::bank::{
    fees_account, fx_account, outside_account, Account, Bank, Bill, PersonalApplicant,
    SmeApplicant, Tx, CURRENCIES, DAY_MS,
};

/// Fixed creation time of seeded accounts (2024-01-01T00:00:00Z, unix seconds).
pub const SEED_CREATE_TIME: i64 = 1_704_067_200;
/// Fixed time of seeded past transactions and applications (2024-03-01T00:00:00Z, ms).
pub const SEED_PAST_MS: i64 = 1_709_251_200_000;
/// A seeded transaction completed long ago: its reversal is refused (older than 1 month).
pub const OLD_TX_ID: &str = "TX0000000OLD";

#[allow(clippy::too_many_arguments)]
fn account(
    id: &str,
    user: &str,
    name: &str,
    currency: &str,
    account_type: &str,
    balance: Decimal,
    short_code: Option<&str>,
    business: Option<&str>,
    now_ms: i64,
) -> Account {
    Account {
        id: id.into(),
        name: name.into(),
        currency: currency.into(),
        account_type: account_type.into(),
        short_code: short_code.map(Into::into),
        status: 0,
        create_time: SEED_CREATE_TIME,
        balance,
        dormant: false,
        frozen: false,
        restricted: false,
        user_id: user.into(),
        business_name: business.map(Into::into),
        last_activity_ms: now_ms,
        system: false,
    }
}

impl Bank {
    /// The seeded bank at time `now_ms` (epoch ms).
    pub fn seeded(now_ms: i64) -> Bank {
        let mut bank = Bank::default();
        let d = |units: i64| Decimal::new(units * 100, 2);
        let jambo = Some("Jambo Traders Ltd");
        let rows = [
            (
                "1000000001",
                "U1001",
                "Alice Wanjiku",
                "KES",
                "C001",
                d(250_000),
                Some("A1001"),
                None,
            ),
            (
                "1000000002",
                "U1001",
                "Alice Wanjiku",
                "USD",
                "C001",
                d(5_000),
                None,
                None,
            ),
            (
                "1000000003",
                "U1001",
                "Alice Wanjiku",
                "KES",
                "C002",
                d(1_500),
                None,
                None,
            ),
            (
                "1000000004",
                "U1002",
                "Brian Otieno",
                "KES",
                "C001",
                d(100_000),
                Some("B1002"),
                None,
            ),
            (
                "1000000005",
                "U1002",
                "Brian Otieno",
                "KES",
                "C001",
                d(320),
                None,
                None,
            ),
            (
                "2000000001",
                "U2001",
                "Jambo Traders Ltd",
                "KES",
                "B001",
                d(1_000_000),
                None,
                jambo,
            ),
            (
                "2000000002",
                "U2001",
                "Jambo Traders Ltd_Payroll",
                "KES",
                "B001",
                d(50_000),
                None,
                jambo,
            ),
            (
                "2000000003",
                "U2001",
                "Jambo Traders Ltd",
                "EUR",
                "B001",
                d(20_000),
                None,
                jambo,
            ),
            (
                "2000000004",
                "U2001",
                "Jambo Traders Ltd",
                "KES",
                "B001",
                d(10),
                None,
                jambo,
            ),
            (
                "2000000005",
                "U2001",
                "Jambo Traders Ltd",
                "CNY",
                "B001",
                d(100_000),
                None,
                jambo,
            ),
        ];
        for (id, user, name, ccy, ty, bal, sc, biz) in rows {
            bank.add_account(account(id, user, name, ccy, ty, bal, sc, biz, now_ms));
        }
        if let Some(a) = bank.accounts.get_mut("1000000005") {
            a.dormant = true;
            a.last_activity_ms = SEED_PAST_MS;
        }
        if let Some(a) = bank.accounts.get_mut("2000000004") {
            a.frozen = true;
        }
        for ccy in CURRENCIES {
            for id in [fees_account(ccy), outside_account(ccy), fx_account(ccy)] {
                let mut a = account(&id, "", &id, ccy, "SYS", Decimal::ZERO, None, None, now_ms);
                a.system = true;
                bank.add_account(a);
            }
        }
        // A transaction completed long ago (reversal window passed).
        bank.txs.insert(
            OLD_TX_ID.into(),
            Tx {
                id: OLD_TX_ID.into(),
                account_id: "1000000001".into(),
                tx_type: crate::bank::tx_type::TRANSFER_OUT,
                credit: false,
                amount: d(100),
                fee: Decimal::ZERO,
                currency: "KES".into(),
                status: crate::bank::tx_status::SUCCEEDED,
                create_time: SEED_PAST_MS,
                complete_time: Some(SEED_PAST_MS + DAY_MS / 24),
                oppo: crate::bank::Oppo {
                    account_id: "1000000004".into(),
                    name: "Brian Otieno".into(),
                    bank_code: crate::bank::INTERNAL_BANK_CODE.into(),
                    channel: Some("INTERNAL_TRANSFER"),
                    external: false,
                },
                narrative: "Transfer to 1000000004".into(),
                remark: "seeded".into(),
                credited_account: Some("1000000004".into()),
                reversed_by: None,
            },
        );
        let bills = [
            (
                0,
                "DSTV-1001",
                "2025-07-31",
                Decimal::new(249_900, 2),
                "254700000001",
            ),
            (
                1,
                "GOTV-3003",
                "2025-07-15",
                Decimal::new(89_900, 2),
                "254700000001",
            ),
            (
                3,
                "STAR-4004",
                "2025-08-05",
                Decimal::new(120_000, 2),
                "254700000002",
            ),
            (
                6,
                "WATER-2002",
                "2025-07-20",
                Decimal::new(135_050, 2),
                "254700000002",
            ),
        ];
        for (ty, number, due, amount, mobile) in bills {
            bank.bills.insert(
                (ty, number.into()),
                Bill {
                    due_date: due.into(),
                    due_amount: amount,
                    mobile: mobile.into(),
                },
            );
        }
        bank.paybills
            .insert("888880".into(), "Kenya Power Prepaid".into());
        bank.paybills
            .insert("247247".into(), "Sandbox Paybill".into());
        bank.tills.insert("522533".into(), "Sandbox Grocers".into());
        bank.personal = personal_applicants();
        bank.sme = sme_applicants();
        bank
    }
}

fn kyc(
    id: &str,
    user: &str,
    first: &str,
    last: &str,
    mobile: &str,
    status: i64,
    profile_check: i64,
) -> serde_json::Value {
    json!({
        "onboardingRequestId": id, "baasChannelId": "sandbox-partner", "userId": user,
        "firstName": first, "middleName": "", "lastName": last, "gender": "0",
        "nationality": "KE", "idType": "101", "idNumber": format!("ID{}", mobile.chars().rev().take(6).collect::<Vec<_>>().into_iter().rev().collect::<String>()),
        "birthday": "1990-05-17", "address": "Nairobi", "countryCode": "254", "mobile": mobile,
        "employmentStatus": "1", "monthlyIncome": "2", "kraPin": "A000000001Z",
        "businessIndustry": "retail", "specifyIndustry": "", "profileCheck": profile_check,
        "profileCheckResultCode": "0", "profileCheckResultText": "",
        "createTime": SEED_PAST_MS, "updateTime": SEED_PAST_MS, "status": status
    })
}

fn personal_applicants() -> Vec<PersonalApplicant> {
    vec![
        PersonalApplicant {
            kyc: kyc(
                "OBR-P-0001",
                "U1001",
                "Alice",
                "Wanjiku",
                "254700000001",
                3,
                2,
            ),
            status_text: "Passed",
            rejection_id: None,
            rejection_msg: None,
            account_id: Some("1000000001"),
            account_type: Some("C001"),
        },
        PersonalApplicant {
            kyc: kyc(
                "OBR-P-0002",
                "U1003",
                "Chris",
                "Mutua",
                "254700000003",
                4,
                3,
            ),
            status_text: "Rejected",
            rejection_id: Some("R01"),
            rejection_msg: Some("ID photo unreadable"),
            account_id: None,
            account_type: None,
        },
        PersonalApplicant {
            kyc: kyc("OBR-P-0003", "U1004", "Dora", "Njeri", "254700000004", 9, 4),
            status_text: "Manual Reviewing",
            rejection_id: None,
            rejection_msg: None,
            account_id: None,
            account_type: None,
        },
    ]
}

fn member(id: &str, first: &str, last: &str) -> serde_json::Value {
    json!({
        "memberId": id, "countryCode": "254", "mobile": "254711000000", "idType": "101",
        "idNumber": format!("ID-{id}"), "firstName": first, "middleName": "", "lastName": last,
        "fullName": format!("{first} {last}"), "kraPin": "A000000002Z",
        "idFrontFileUrl": format!("sandbox://files/{id}/id-front"), "idFrontFileType": "image",
        "selfieFileUrl": format!("sandbox://files/{id}/selfie"), "selfieFileType": "image",
        "idBackFileUrl": format!("sandbox://files/{id}/id-back"), "idBackFileType": "image",
        "kraPinFileUrl": format!("sandbox://files/{id}/kra-pin"), "kraPinFileType": "pdf"
    })
}

#[allow(clippy::too_many_arguments)]
fn sme_info(
    id: &str,
    name: &str,
    business_type: i64,
    cert: &str,
    status: i64,
    reject_ids: &[&str],
    reject_msgs: &[&str],
    user: &str,
) -> serde_json::Map<String, serde_json::Value> {
    let value = json!({
        "onboardingRequestId": id, "smeName": name, "businessType": business_type,
        "countryCode": "254", "mobile": "254722000000", "email": "owner@example.invalid",
        "krapin": "P000000001Q", "businessCertificateNumber": cert, "channel": "sandbox-partner",
        "channelUserId": user,
        "onboardingMediaInfos": [{
            "fileUrl": format!("sandbox://files/{id}/certificate"), "mediaType": "document",
            "contentType": "application/pdf", "fileTypeId": "1", "fileKey": format!("{id}-cert"),
            "fileId": format!("{id}-F1")
        }],
        "status": status, "rejectReasonIds": reject_ids, "rejectReasonMsgs": reject_msgs,
        "createTime": SEED_PAST_MS, "auditTime": SEED_PAST_MS + DAY_MS,
        "businessIndustry": "trade", "specifyIndustry": "", "businessAddress": "Mombasa Road, Nairobi"
    });
    match value {
        serde_json::Value::Object(map) => map,
        _ => serde_json::Map::new(),
    }
}

fn sme_applicants() -> Vec<SmeApplicant> {
    let mut store = sme_info(
        "OBR-B-0001",
        "Mama Mboga Store",
        1,
        "BN-1001",
        3,
        &[],
        &[],
        "U2002",
    );
    for (k, v) in [
        ("ownerFullName", json!("Esther Achieng")),
        ("ownerIdNumber", json!("ID-445566")),
        ("ownerIdType", json!("101")),
        ("ownerBirthDay", json!("1985-02-11")),
        ("kinFullName", json!("Peter Achieng")),
        ("kinCountryCode", json!("254")),
        ("kinMobile", json!("254733000000")),
        ("kinRelationship", json!("spouse")),
    ] {
        store.insert(k.into(), v);
    }
    let with_members = |mut m: serde_json::Map<String, serde_json::Value>, company: &str| {
        m.insert(
            "shareholdersMemberInfos".into(),
            json!([
                member("M1", "Faith", "Kamau"),
                member("M2", "George", "Omondi")
            ]),
        );
        m.insert(
            "shareholdersCompanyInfos".into(),
            json!([{ "companyId": "C1", "companyName": company, "registrationFileKey": "C1-reg",
                     "registrationFileUrl": "sandbox://files/C1/registration", "registrationFileType": "pdf" }]),
        );
        serde_json::Value::Object(m)
    };
    vec![
        SmeApplicant {
            business_type: 1,
            info: serde_json::Value::Object(store),
            account_id: None,
            account_type: None,
        },
        SmeApplicant {
            business_type: 2,
            info: with_members(
                sme_info(
                    "OBR-B-0002",
                    "Jambo Traders Ltd",
                    2,
                    "CPR-2002",
                    7,
                    &[],
                    &[],
                    "U2001",
                ),
                "Jambo Holdings",
            ),
            account_id: Some("2000000001"),
            account_type: Some("B001"),
        },
        SmeApplicant {
            business_type: 3,
            info: with_members(
                sme_info(
                    "OBR-B-0003",
                    "Kilima Partners",
                    3,
                    "PN-3003",
                    4,
                    &["R11"],
                    &["partnership deed missing"],
                    "U2003",
                ),
                "Kilima Group",
            ),
            account_id: None,
            account_type: None,
        },
        SmeApplicant {
            business_type: 5,
            info: with_members(
                sme_info(
                    "OBR-B-0004",
                    "Maji Safi CBO",
                    5,
                    "NGO-4004",
                    2,
                    &[],
                    &[],
                    "U2004",
                ),
                "Maji Safi Trust",
            ),
            account_id: None,
            account_type: None,
        },
    ]
}
