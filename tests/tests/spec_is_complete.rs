//! What the checked model of `spec/` must hold for partners to need no raw JSON, paging
//! loop or OTP plumbing (issue 19, "Done when"): no answer, received record field or
//! notification payload is untyped JSON except those a decision keeps opaque; every OTP
//! operation has a business id; every paged operation has a pager; every status query
//! with final values compares them as a value set.

use std::path::Path;

use baas_codegen::model::{Api, Field, Params, Response, TypeRef};

/// The decision that keeps an operation's shapes opaque (nothing public shows them).
const OPAQUE: &str = "email-shapes-opaque";

fn api() -> Api {
    let spec = Path::new(env!("CARGO_MANIFEST_DIR")).join("../spec");
    baas_codegen::check_spec(&spec)
        .unwrap_or_else(|d| panic!("spec/ does not check:\n{d}"))
        .api
}

fn is_json(t: &TypeRef) -> bool {
    match t {
        TypeRef::Json => true,
        TypeRef::Array { item } => is_json(item),
        _ => false,
    }
}

fn json_fields(owner: &str, fields: &[Field], out: &mut Vec<String>) {
    for f in fields.iter().filter(|f| is_json(&f.ty)) {
        out.push(format!("{owner}.{}", f.wire_name));
    }
}

#[test]
fn nothing_received_is_raw_json_but_what_a_decision_keeps_opaque() {
    let api = api();
    let mut untyped = Vec::new();
    let mut opaque = Vec::new();
    for op in api.operations() {
        match &op.response {
            Response::Unspecified { .. } => {
                if op.decisions.iter().any(|d| d == OPAQUE) {
                    opaque.push(op.name.clone());
                } else {
                    untyped.push(format!("{} (response not shown)", op.name));
                }
            }
            Response::Fields { fields, .. } => json_fields(&op.name, fields, &mut untyped),
            Response::Record { .. } | Response::Empty { .. } => {}
        }
    }
    for r in api.records.iter().filter(|r| r.used_in_response) {
        json_fields(&r.name, &r.fields, &mut untyped);
    }
    assert!(untyped.is_empty(), "untyped answers or fields: {untyped:?}");
    assert_eq!(opaque, ["addEmail", "verifyEmailAddress"]);
    let typed = api
        .notifications
        .iter()
        .filter(|n| n.payload.is_some())
        .count();
    let not_shown: Vec<&str> = api
        .notifications
        .iter()
        .filter(|n| n.payload.is_none())
        .map(|n| n.notification_type.as_str())
        .collect();
    // The document's own three, and every payload integrations report, are typed; what
    // is only a name stays raw.
    assert!(typed >= 18, "{typed} typed payloads");
    assert_eq!(not_shown, ["0021", "0023", "0027"]);
}

#[test]
fn every_otp_operation_has_a_business_id_and_every_paged_one_a_pager() {
    let api = api();
    assert!(api.otp_flow.is_some(), "the spec marks an OTP flow");
    for op in api.operations() {
        assert_eq!(
            op.otp,
            op.business_id.is_some(),
            "{}: an OTP operation has a business id, and only it",
            op.name
        );
        if let Some(p) = &op.paging {
            assert!(p.items.is_some(), "{} pages without a pager", op.name);
        }
        // A paged operation is one whose parameters number the pages.
        if let Params::Fields { fields } = &op.params {
            let numbered = fields.iter().any(|f| f.wire_name == "pageNo");
            assert_eq!(
                numbered,
                op.paging.is_some(),
                "{}: pageNo without paging",
                op.name
            );
        }
    }
}

#[test]
fn waiters_compare_value_sets() {
    let api = api();
    let waiters: Vec<(&str, Option<&str>)> = api
        .operations()
        .filter_map(|op| {
            op.final_states
                .as_ref()
                .map(|f| (op.name.as_str(), f.enum_name.as_deref()))
        })
        .collect();
    assert_eq!(
        waiters,
        [
            ("getFxRequestStatus", Some("FxRequestStatus")),
            ("getTransResult", Some("TxStatus")),
            (
                "getInterBankTransferDetails",
                Some("InterBankApplicationStatus")
            ),
            ("paymentQuery", Some("UtilityPaymentStatus")),
        ]
    );
}
