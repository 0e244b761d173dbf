//! The generated `ResultCode` and `NotificationType` across crates: an error from a real
//! (loopback sandbox) call maps to its typed code, codes this version does not know stay
//! `Unknown`, and both enums hold exactly what `spec/` lists.

use std::path::Path;

use baas_client::account::GetAccountDetailsRequired;
use baas_client::enums::Currency;
use baas_client::enums::{NotificationType, ResultCode};
use baas_client::transfers::{ApplyForTransferRequest, ApplyForTransferRequired};
use baas_client::{Client, Error, ErrorKind};

fn api_error(code: &str) -> Error {
    Error::from(ErrorKind::Api {
        code: code.to_owned(),
        msg: "from the test".to_owned(),
        request_id: None,
        verified: true,
        retryable: false,
    })
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
        .apply_for_transfer(ApplyForTransferRequired {
            payer_account_id: "1000000003".into(),
            payee_bank_code: "46".into(),
            payee_account_id: "1000000004".into(),
            currency: Currency::Kes,
            amount: "1500.01".parse().expect("amount"),
        })
        .send()
        .await
        .expect_err("insufficient funds");
    assert_eq!(
        ResultCode::from_error(&err),
        Some(ResultCode::InsufficientBalance),
        "{err}"
    );
    assert!(!ResultCode::InsufficientBalance.is_retryable());

    let err = client
        .get_account_details(GetAccountDetailsRequired {
            account_id: "42".into(),
        })
        .send()
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
            ApplyForTransferRequest::new(ApplyForTransferRequired {
                payer_account_id: "1000000001".into(),
                payee_bank_code: "46".into(),
                payee_account_id: "1000000004".into(),
                currency: Currency::Kes,
                amount: "1".parse().expect("amount"),
            })
            .remark("x".repeat(101)),
        )
        .send()
        .await
        .expect_err("an over-long remark is refused by the client");
    assert!(matches!(err.kind(), ErrorKind::InvalidRequest(_)), "{err}");
    assert_eq!(ResultCode::from_error(&err), None);
    assert_eq!(sandbox.requests_seen(), 0);

    assert_eq!(
        ResultCode::from_error(&Error::from(ErrorKind::SignatureMissing)),
        None
    );
}

#[test]
fn unknown_codes_are_kept() {
    let code = ResultCode::from_error(&api_error("99999")).expect("an API error");
    assert!(matches!(&code, ResultCode::Unknown(v) if v.as_str() == "99999"));
    assert_eq!(code.as_str(), "99999");
    assert!(!code.is_retryable());

    assert_eq!(
        ResultCode::from_error(&api_error("10001")),
        Some(ResultCode::SystemBusy)
    );
    assert!(ResultCode::SystemBusy.is_retryable());
    // A known wire value always decodes as its variant, never as `Unknown`.
    let busy: ResultCode = serde_json::from_str("\"10001\"").expect("decodes");
    assert_eq!(busy, ResultCode::SystemBusy);
    // Partners' text is parsed strictly: a value the spec does not list is an error.
    assert!("1000l".parse::<ResultCode>().is_err());
    assert!("".parse::<ResultCode>().is_err());

    assert_eq!(
        "12005".parse::<ResultCode>(),
        Ok(ResultCode::InvalidSignature)
    );
    assert_eq!(ResultCode::InvalidSignatureAlias.to_string(), "12004");
    let decoded: ResultCode = serde_json::from_str("\"14009\"").expect("decodes");
    assert_eq!(decoded, ResultCode::InsufficientBalance);
    let unknown: ResultCode = serde_json::from_str("\"77777\"").expect("decodes");
    assert_eq!(
        serde_json::to_string(&unknown).expect("encodes"),
        "\"77777\""
    );
}

#[test]
fn notification_types_match_by_wire_value() {
    let decode = |t: &str| -> NotificationType {
        serde_json::from_value(serde_json::Value::from(t)).expect("decodes")
    };
    let kind = |t: &str| match decode(t) {
        NotificationType::CnyTransfer => "cny",
        NotificationType::ForeignExchange => "fx",
        NotificationType::ClosingBalances => "closing balances",
        NotificationType::Unknown(_) => "unknown",
        _ => "another known type",
    };
    assert_eq!(kind("0028"), "cny");
    assert_eq!(kind("0026"), "fx");
    assert_eq!(kind("0015"), "closing balances");
    assert_eq!(kind("0099"), "unknown");
    assert_eq!(kind("0003"), "another known type");
    let t: NotificationType = serde_json::from_str("\"0042\"").expect("decodes");
    assert!(matches!(&t, NotificationType::Unknown(v) if v.as_str() == "0042"));
    assert!("0042".parse::<NotificationType>().is_err());
    assert_eq!("0028".parse(), Ok(NotificationType::CnyTransfer));
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
        assert_eq!(c.as_str().parse::<ResultCode>().as_ref(), Ok(c));
        let decoded: ResultCode =
            serde_json::from_value(serde_json::Value::from(c.as_str())).expect("decodes");
        assert_eq!(&decoded, c, "a known wire value decodes as its variant");
    }
    assert_eq!(
        api.success_code.parse::<ResultCode>(),
        Ok(ResultCode::Success)
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

/// The retry policy is the spec's: the generated client gives the runtime exactly the
/// codes `spec/` marks retryable, and the runtime keeps no list of its own.
#[test]
fn the_client_retries_the_codes_the_spec_marks_retryable() {
    let api = baas_codegen::check_spec(std::path::Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../spec"
    )))
    .expect("spec checks")
    .api;
    let from_spec: Vec<&str> = api
        .result_codes
        .iter()
        .filter(|c| c.retryable)
        .map(|c| c.code.as_str())
        .collect();
    assert_eq!(ResultCode::RETRYABLE_CODES, from_spec.as_slice());
    let key = baas_client::PrivateKey::new("k");
    let client =
        Client::new(baas_client::Config::new("http://127.0.0.1:9", "s", key)).expect("client");
    assert_eq!(
        client.runtime().retryable_codes(),
        ResultCode::RETRYABLE_CODES
    );
    let bare = baas_runtime::Client::new(baas_client::Config::new(
        "http://127.0.0.1:9",
        "s",
        baas_client::PrivateKey::new("k"),
    ))
    .expect("client");
    assert!(bare.retryable_codes().is_empty());
}
