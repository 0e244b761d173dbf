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
    }
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
