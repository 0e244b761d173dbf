//! What the plan must hold for the spec in `spec/`: every operation planned with the
//! calls the model gives it, the OTP flow by wire names its operations have, and no
//! sentence naming a file partners do not have.

use std::path::Path;

use super::{build, BusinessIdPlan, Doc, SdkPlan};
use crate::model::{Api, BusinessId};

fn spec() -> (Api, SdkPlan) {
    let spec = Path::new(env!("CARGO_MANIFEST_DIR")).join("../spec");
    let checked = crate::check_spec(&spec).expect("spec/ checks");
    let plan = build(&checked.api);
    (checked.api, plan)
}

#[test]
fn every_operation_has_the_calls_the_model_gives_it() {
    let (api, plan) = spec();
    assert_eq!(plan.operations().count(), api.operations().count());
    for (op, p) in api.operations().zip(plan.operations()) {
        assert_eq!(op.name, p.wire_name);
        let paged = op.paging.as_ref().is_some_and(|x| x.items.is_some());
        assert_eq!(p.calls.pages.is_some(), paged, "{}: pages", op.name);
        assert_eq!(
            p.calls.pending.is_some(),
            op.business_id.is_some(),
            "{}",
            op.name
        );
        assert_eq!(
            p.calls.until_final.is_some(),
            op.final_states.is_some(),
            "{}",
            op.name
        );
        if let (Some(BusinessId::ResponseField { wire_name, .. }), Some(pending)) =
            (&op.business_id, &p.calls.pending)
        {
            assert_eq!(
                pending.business_id,
                BusinessIdPlan::ResponseField(wire_name.clone())
            );
        }
        assert_eq!(p.moves_money, op.moves_money);
        let moves = p
            .doc
            .paragraphs
            .iter()
            .any(|s| s == super::sentences::MOVES_MONEY);
        assert_eq!(moves, op.moves_money, "{}: the money sentence", op.name);
        assert_eq!(
            p.needs_otp.is_some(),
            op.otp,
            "{}: the OTP sentence",
            op.name
        );
        if let Some(needs) = &p.needs_otp {
            assert!(p.doc.paragraphs.contains(needs), "{}", op.name);
            assert!(p.request_doc.paragraphs.contains(needs), "{}", op.name);
        }
    }
    assert!(plan.operations().any(|o| o.needs_otp.is_some()));
    // The spec pages, confirms and waits somewhere: the checks above are not vacuous.
    assert!(plan.operations().any(|o| o.calls.pages.is_some()));
    assert!(plan.operations().any(|o| o.calls.pending.is_some()));
    assert!(plan.operations().any(|o| o.calls.until_final.is_some()));
}

#[test]
fn the_otp_steps_name_parameters_their_operations_have() {
    let (_, plan) = spec();
    let otp = plan.otp.as_ref().expect("the spec has an OTP flow");
    for step in [&otp.send, &otp.confirm] {
        let op = plan.operation(&step.operation).expect("step operation");
        assert!(
            op.param(&step.business_id).is_some(),
            "{}.{}",
            step.operation,
            step.business_id
        );
        assert!(
            op.param(&step.other).is_some(),
            "{}.{}",
            step.operation,
            step.other
        );
    }
    let group = otp.group.as_ref().expect("the spec groups applications");
    let op = plan.operation(&group.operation).expect("group operation");
    assert!(op.param(&group.business_id).is_some());
    let answer: Vec<&str> = plan
        .answer_fields(op)
        .iter()
        .map(|f| f.wire_name.as_str())
        .collect();
    assert!(
        answer.contains(&group.other.as_str()),
        "{} in {answer:?}",
        group.other
    );
}

fn docs(plan: &SdkPlan) -> Vec<&Doc> {
    let mut docs = Vec::new();
    for op in plan.operations() {
        docs.extend([&op.doc, &op.request_doc, op.response.doc()]);
        docs.extend(
            op.params()
                .iter()
                .flat_map(|f| [&f.sent_doc, &f.received_doc]),
        );
    }
    for r in &plan.records {
        docs.push(&r.doc);
        docs.extend(r.fields.iter().flat_map(|f| [&f.sent_doc, &f.received_doc]));
    }
    for e in &plan.enums {
        docs.push(&e.doc);
        docs.extend(e.values.iter().map(|v| &v.doc));
    }
    docs.extend(plan.notifications.iter().map(|n| &n.doc));
    docs
}

#[test]
fn no_sentence_names_a_file_partners_do_not_have_or_is_empty() {
    let (_, plan) = spec();
    let docs = docs(&plan);
    assert!(docs.len() > 500, "{} docs", docs.len());
    for doc in docs {
        for p in &doc.paragraphs {
            assert!(!p.is_empty());
            assert!(!p.contains(".md"), "{p}");
            assert!(!p.contains("  ") && !p.contains('\n'), "{p:?}");
        }
    }
}

#[test]
fn required_fields_have_the_required_check_and_checks_come_from_the_registry() {
    let (api, plan) = spec();
    for (op, p) in api.operations().zip(plan.operations()) {
        if let crate::model::Params::Fields { fields } = &op.params {
            for (f, fp) in fields.iter().zip(p.params()) {
                assert_eq!(f.wire_name, fp.wire_name);
                assert_eq!(fp.required(), !f.optional_when_sent());
                let client_rules = f
                    .rules
                    .iter()
                    .filter(|r| {
                        r.kind.check(&f.ty).is_some()
                            || r.kind.check(super::shapes::element(&f.ty)).is_some()
                    })
                    .count();
                assert_eq!(fp.checks.len(), client_rules, "{}.{}", op.name, f.wire_name);
            }
        }
    }
}

/// A required string or document must not be empty (the service reads either as not sent),
/// and the plan says so once for every renderer: `non_empty` is the field's type's empty
/// value exactly when the field is required. The spec has required documents
/// (`applyForCnyExpress`'s files) and a conditional one named by a constraint (`invoice`).
#[test]
fn a_required_string_or_document_must_not_be_empty() {
    use crate::model::{ConstraintKind, Emptiness, TypeRef};
    let (_, plan) = spec();
    let mut seen = (0, 0);
    for p in plan.operations() {
        for f in p.params() {
            let want = match (&f.ty, f.required()) {
                (TypeRef::String, true) => Some(Emptiness::Text),
                (TypeRef::Document, true) => Some(Emptiness::Document),
                _ => None,
            };
            assert_eq!(f.non_empty(), want, "{}.{}", p.wire_name, f.wire_name);
            match want {
                Some(Emptiness::Text) => seen.0 += 1,
                Some(Emptiness::Document) => seen.1 += 1,
                None => {}
            }
        }
    }
    assert!(seen.0 > 50 && seen.1 >= 2, "{seen:?}");
    let cny = plan
        .operations()
        .find(|p| p.wire_name == "applyForCnyExpress")
        .expect("applyForCnyExpress");
    let invoice = cny
        .constraints
        .iter()
        .find_map(|c| match &c.kind {
            ConstraintKind::RequiredIf { field, .. } if field.wire_name == "invoice" => Some(field),
            _ => None,
        })
        .expect("invoice is required_if");
    assert_eq!(invoice.empty, Some(Emptiness::Document));
}

/// A decision marking more than three items applies throughout (listed once); one marking
/// three or fewer is linked from each.
#[test]
fn a_decision_is_blanket_beyond_three_items() {
    let (mut api, _) = spec();
    api.decisions.push(crate::model::Decision {
        id: "t1".into(),
        about: "a test".into(),
        source_text: String::new(),
        decision: "Decided.".into(),
        reason: "Because.".into(),
    });
    let mut marked = 0;
    for r in &mut api.records {
        for f in &mut r.fields {
            if marked < 3 {
                f.decisions.push("t1".into());
                marked += 1;
            }
        }
    }
    assert_eq!(marked, 3);
    let blanket = |api: &Api| build(api).decision("t1").expect("planned").blanket;
    assert!(!blanket(&api));
    api.enums[0].decisions.push("t1".into());
    assert!(blanket(&api));
}

/// The Rust names the plan gives a call's fields are the names of the fields it plans
/// for that operation: a renderer reading either finds the same field.
#[test]
fn the_rust_names_of_calls_are_those_of_their_fields() {
    let (_, plan) = spec();
    let rust_of = |fields: &[super::FieldPlan], wire: &str| {
        fields
            .iter()
            .find(|f| f.wire_name == wire)
            .map(|f| f.rust_name.clone())
    };
    for op in plan.operations() {
        if let Some(p) = &op.calls.pages {
            assert_eq!(rust_of(op.params(), &p.page), Some(p.rust.page.clone()));
            assert_eq!(rust_of(op.params(), &p.size), Some(p.rust.size.clone()));
            let answer = plan.answer_fields(op);
            assert_eq!(rust_of(answer, &p.items), Some(p.rust.items.clone()));
            let total = p.total.as_ref().and_then(|t| rust_of(answer, t));
            assert_eq!(total, p.rust.total.as_ref().map(|t| t.0.clone()));
        }
        if let Some(p) = &op.calls.pending {
            let field = match &p.business_id {
                BusinessIdPlan::ResponseField(wire) => rust_of(plan.answer_fields(op), wire),
                BusinessIdPlan::RequestId => None,
            };
            assert_eq!(field, p.business_id_rust, "{}", op.wire_name);
        }
        if let Some(s) = &op.calls.settle {
            let query = plan.operation(&s.query).expect("the query is planned");
            assert_eq!(query.type_name, s.query_type_name);
            assert_eq!(
                rust_of(query.params(), &s.param),
                Some(s.param_rust.clone())
            );
        }
    }
    let otp = plan.otp.as_ref().expect("the spec has an OTP flow");
    for step in [&otp.send, &otp.confirm] {
        let op = plan.operation(&step.operation).expect("step operation");
        assert_eq!(op.type_name, step.type_name);
        assert_eq!(op.rust_name, step.rust_name);
        assert_eq!(
            rust_of(op.params(), &step.business_id),
            Some(step.rust.0.clone())
        );
        assert_eq!(rust_of(op.params(), &step.other), Some(step.rust.1.clone()));
    }
}
