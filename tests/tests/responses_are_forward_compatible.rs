//! Generated response types decode whatever the service may reasonably send: fields
//! added later, optional fields left out, enum values the spec does not list, and the
//! other JSON spelling of a string or an integer. Amounts keep their exact text.

use baas_client::account::GetAbnormalAccountListResponse;
use baas_client::enums::{AccountStatus, AccountType};
use baas_client::records::Account;

#[test]
fn an_account_with_new_fields_and_new_values_decodes() {
    let account: Account = serde_json::from_str(
        r#"{"accountId":"1000000001","accountType":"Z999","accountStatus":7,
            "balance":"12.30","newField":{"nested":[1,2]},"anotherNewField":null}"#,
    )
    .expect("decodes");
    assert_eq!(account.account_id.as_deref(), Some("1000000001"));
    assert!(matches!(&account.account_type, Some(AccountType::Unknown(v)) if v.as_str() == "Z999"));
    assert!(matches!(account.account_status, Some(AccountStatus::Unknown(v)) if v.get() == 7));
    assert_eq!(
        account.balance.map(|b| b.to_string()).as_deref(),
        Some("12.30")
    );
    // An unknown value goes back out as it came in.
    let out = serde_json::to_value(&account).expect("encodes");
    assert_eq!(out["accountType"], "Z999");
    assert_eq!(out["accountStatus"], 7);
}

#[test]
fn missing_fields_are_none() {
    let account: Account = serde_json::from_str("{}").expect("decodes");
    assert_eq!(account, Account::default());
}

#[test]
fn strings_and_integers_accept_either_spelling() {
    let spelled_as_spec: Account = serde_json::from_str(
        r#"{"accountId":"1000000001","createTime":1650533105687,"balance":"100.50"}"#,
    )
    .expect("decodes");
    let spelled_otherwise: Account = serde_json::from_str(
        r#"{"accountId":1000000001,"createTime":"1650533105687","balance":100.50}"#,
    )
    .expect("decodes");
    assert_eq!(spelled_as_spec, spelled_otherwise);
    assert_eq!(
        spelled_otherwise.balance.map(|b| b.to_string()).as_deref(),
        Some("100.50"),
        "a number amount keeps its literal text"
    );
    let list: GetAbnormalAccountListResponse =
        serde_json::from_str(r#"{"total":"3","resultArray":[]}"#).expect("decodes");
    assert_eq!(list.total, Some(3));
}

#[test]
fn a_different_shape_is_still_an_error() {
    // Leniency is about spelling, not shape: an object where a count belongs is refused
    // rather than silently dropped.
    assert!(
        serde_json::from_str::<GetAbnormalAccountListResponse>(r#"{"total":{"n":3}}"#).is_err()
    );
    assert!(serde_json::from_str::<GetAbnormalAccountListResponse>(r#"{"total":"3.5"}"#).is_err());
}
