//! The generated `ResultCode` and `NotificationType` across crates: an error from a real
//! (loopback sandbox) call maps to its typed code, codes this version does not know stay
//! `Unknown`, and both enums hold exactly what `spec/` lists.

use std::path::Path;

use baas_client::account::GetAccountDetailsRequest;
use baas_client::enums::Currency;
use baas_client::transfers::ApplyForTransferRequest;
use baas_client::{Client, Error, NotificationType, ResultCode};

fn api_error(code: &str) -> Error {
    Error::Api {
        code: code.to_owned(),
        msg: "from the test".to_owned(),
        request_id: None,
        verified: true,
    }
}

#[tokio::test]
async fn sandbox_errors_map_to_their_result_codes() {
    let sandbox = baas_sandbox::Sandbox::start()
        .await
        .expect("sandbox starts");
    let client = Client::new(sandbox.client_config()).expect("client");

    // Account 1000000003 holds less than 1500.01 (see sandbox/src/seed.rs): refused at
    // application with 14009, before any OTP.
    let err = client
        .apply_for_transfer(&ApplyForTransferRequest::new(
            "1000000003",
            "46", // this bank (sandbox rules)
            "1000000004",
            Currency::Kes,
            "1500.01".parse().expect("amount"),
        ))
        .await
        .expect_err("insufficient funds");
    assert_eq!(
        ResultCode::from_error(&err),
        Some(ResultCode::InsufficientBalance),
        "{err}"
    );
    assert!(!ResultCode::InsufficientBalance.is_retryable());

    let err = client
        .get_account_details(&GetAccountDetailsRequest::new("42"))
        .await
        .expect_err("no such account");
    assert_eq!(
        ResultCode::from_error(&err),
        Some(ResultCode::AccountNotFound)
    );
}

#[tokio::test]
async fn errors_that_are_not_api_errors_have_no_result_code() {
    let sandbox = baas_sandbox::Sandbox::start()
        .await
        .expect("sandbox starts");
    let client = Client::new(sandbox.client_config()).expect("client");
    // A remark over 100 characters breaks a client-side rule: refused before it is sent.
    let err = client
        .apply_for_transfer(
            &ApplyForTransferRequest::new(
                "1000000001",
                "46", // this bank (sandbox rules)
                "1000000004",
                Currency::Kes,
                "1".parse().expect("amount"),
            )
            .remark("x".repeat(101)),
        )
        .await
        .expect_err("an over-long remark is refused by the client");
    assert!(matches!(err, Error::InvalidRequest(_)), "{err}");
    assert_eq!(ResultCode::from_error(&err), None);
    assert_eq!(sandbox.requests_seen(), 0);

    assert_eq!(ResultCode::from_error(&Error::SignatureMissing), None);
}

#[test]
fn unknown_codes_are_kept() {
    let code = ResultCode::from_error(&api_error("99999")).expect("an API error");
    assert_eq!(code, ResultCode::Unknown("99999".to_owned()));
    assert_eq!(code.as_str(), "99999");
    assert!(!code.is_retryable());

    assert_eq!(
        ResultCode::from_error(&api_error("10001")),
        Some(ResultCode::SystemBusy)
    );
    assert!(ResultCode::SystemBusy.is_retryable());
    // The wire value decides: a hand-built Unknown of a retryable code counts too.
    assert!(ResultCode::Unknown("10001".to_owned()).is_retryable());

    assert_eq!(
        "12005".parse::<ResultCode>(),
        Ok(ResultCode::InvalidSignature)
    );
    assert_eq!(ResultCode::InvalidSignatureAlias.to_string(), "12004");
    let decoded: ResultCode = serde_json::from_str("\"14009\"").expect("decodes");
    assert_eq!(decoded, ResultCode::InsufficientBalance);
    assert_eq!(
        serde_json::to_string(&ResultCode::Unknown("77777".into())).expect("encodes"),
        "\"77777\""
    );
}

#[test]
fn notification_types_match_by_wire_value() {
    let kind = |t: &str| match NotificationType::from(t) {
        NotificationType::CnyTransfer => "cny",
        NotificationType::ForeignExchange => "fx",
        NotificationType::FileJob => "file job",
        NotificationType::Unknown(_) => "unknown",
        _ => "another known type",
    };
    assert_eq!(kind("0028"), "cny");
    assert_eq!(kind("0026"), "fx");
    assert_eq!(kind("0015"), "file job");
    assert_eq!(kind("0099"), "unknown");
    let t: NotificationType = serde_json::from_str("\"0042\"").expect("decodes");
    assert_eq!(t, NotificationType::Unknown("0042".to_owned()));
    assert_eq!(t.to_string(), "0042");
}

/// Every code and notification of `spec/` is a variant with its wire value, spec order,
/// name and retryability; nothing else is.
#[test]
fn enums_hold_exactly_what_the_spec_lists() {
    let spec = Path::new(env!("CARGO_MANIFEST_DIR")).join("../spec");
    let checked = baas_codegen::check_spec(&spec).unwrap_or_else(|e| panic!("{e}"));
    let api = &checked.api;

    let codes: Vec<(String, String, bool)> = ResultCode::KNOWN
        .iter()
        .map(|c| (c.as_str().to_owned(), format!("{c:?}"), c.is_retryable()))
        .collect();
    let expected: Vec<(String, String, bool)> = api
        .result_codes
        .iter()
        .map(|c| (c.code.clone(), c.name.clone(), c.retryable))
        .collect();
    assert_eq!(codes, expected);
    for c in ResultCode::KNOWN {
        assert_eq!(&ResultCode::from_wire(c.as_str()), c);
    }
    assert_eq!(
        ResultCode::from_wire(&api.success_code),
        ResultCode::Success
    );

    let notes: Vec<(String, String)> = NotificationType::KNOWN
        .iter()
        .map(|n| (n.as_str().to_owned(), format!("{n:?}")))
        .collect();
    let expected: Vec<(String, String)> = api
        .notifications
        .iter()
        .map(|n| (n.notification_type.clone(), n.name.clone()))
        .collect();
    assert_eq!(notes, expected);
}
