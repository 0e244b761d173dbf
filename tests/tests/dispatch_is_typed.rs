//! The `server` feature's dispatch decodes params into the typed request of their
//! operation, grouped as the spec groups operations, so a server's handlers match on
//! types (a spec change they do not follow stops them compiling).

use baas_client::dispatch::{self, decode, DecodeError, Request, OPERATIONS};

#[test]
fn params_decode_into_the_operations_typed_request() {
    let request = decode("getAccountDetails", r#"{"accountId":"1000000001"}"#).expect("decodes");
    assert_eq!(request.operation(), "getAccountDetails");
    match request {
        Request::Account(dispatch::account::Request::GetAccountDetails(r)) => {
            assert_eq!(r.account_id, "1000000001");
        }
        other => panic!("decoded as {other:?}"),
    }
    let transfer = decode(
        "applyForTransfer",
        r#"{"payerAccountId":"1","payeeBankCode":"46","payeeAccountId":"2","currency":"KES","amount":"10.50"}"#,
    )
    .expect("decodes");
    let Request::Transfers(dispatch::transfers::Request::ApplyForTransfer(t)) = transfer else {
        panic!("decoded as {transfer:?}");
    };
    assert_eq!(t.amount.to_string(), "10.50", "money keeps its exact text");
}

#[test]
fn bad_params_say_why() {
    assert!(matches!(
        decode("getAccountDetails", r#"{"accountId":"1","typo":1}"#),
        Err(DecodeError::Malformed(m)) if m.contains("typo")
    ));
    assert!(matches!(
        decode("getAccountDetails", r#"{"accountId":""}"#),
        Err(DecodeError::Invalid(e)) if e.violations()[0].field == "accountId"
    ));
    assert!(matches!(
        decode("noSuchOperation", "{}"),
        Err(DecodeError::UnknownOperation(name)) if name == "noSuchOperation"
    ));
}

#[test]
fn every_operation_has_a_typed_variant() {
    for info in OPERATIONS {
        match decode(info.name, "not json") {
            Err(DecodeError::Malformed(_)) => {}
            other => panic!("{}: {other:?}", info.name),
        }
    }
}
