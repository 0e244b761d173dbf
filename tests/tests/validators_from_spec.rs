//! Validators tested from the spec itself: for every client-checked rule of every
//! operation (on its parameters and on the records they contain), a value at the limit
//! passes and one past it fails naming that field path and rule; every constraint is
//! exercised both ways. The cases are derived from the checked model, not listed by
//! hand, and run through the generated `dispatch::validate_params`.
//!
//! The rule cases run on `spec/` (through `baas-client`) and on every generator fixture
//! (through its compiled module in `baas_tests::fixtures`), and every rule kind of the
//! model must have been exercised by at least one case: a rule kind that the real spec
//! does not use yet is still covered by the `rule_kinds` fixture, and a new rule kind
//! without cases fails the test.

use std::collections::BTreeSet;
use std::path::Path;

use baas_codegen::model::{
    Api, Condition, ConstraintKind, DecimalWire, Emptiness, EnumWireType, Field, Params,
    Requirement, TypeRef,
};
use baas_codegen::rules::{RuleKey, RuleKind};
use baas_runtime::RuleKind as Violated;
use baas_runtime::ValidationErrors;
use serde_json::{json, Map, Value};

#[path = "validators_from_spec/constraints.rs"]
mod constraints;
#[path = "validators_from_spec/values.rs"]
mod values;
use values::*;

fn api() -> Api {
    let spec = Path::new(env!("CARGO_MANIFEST_DIR")).join("../spec");
    match baas_codegen::check_spec(&spec) {
        Ok(checked) => checked.api,
        Err(diagnostics) => panic!("spec/ does not check:\n{diagnostics}"),
    }
}

/// What a generated `dispatch::validate_params` answered, whichever crate generated it.
enum Outcome {
    Valid,
    Invalid(ValidationErrors),
    Other(String),
}

/// `validate_params` of one generated crate.
type Dispatch = fn(&str, &str) -> Outcome;

/// The `Dispatch` of the generated module at `$m` (`baas_client`, or a fixture module).
macro_rules! dispatch_of {
    ($($m:ident)::+) => {{
        fn dispatch(operation: &str, params: &str) -> Outcome {
            use $($m)::+::dispatch::{validate_params, ParamsCheck};
            match validate_params(operation, params) {
                ParamsCheck::Valid => Outcome::Valid,
                ParamsCheck::Invalid(errors) => Outcome::Invalid(errors),
                other => Outcome::Other(other.to_string()),
            }
        }
        dispatch as Dispatch
    }};
}

/// The real spec and every generator fixture, each with its generated dispatch.
fn suites() -> Vec<(String, Api, Dispatch)> {
    let fixture = |name: &str, dispatch: Dispatch| {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("fixtures/gen")
            .join(name);
        match baas_codegen::check_spec(&dir) {
            Ok(checked) => (format!("fixture {name}"), checked.api, dispatch),
            Err(diagnostics) => panic!("fixture {name} does not check:\n{diagnostics}"),
        }
    };
    vec![
        ("spec/".to_owned(), api(), dispatch_of!(baas_client)),
        fixture(
            "conditional_rule",
            dispatch_of!(baas_tests::fixtures::conditional_rule),
        ),
        fixture(
            "keyword_field",
            dispatch_of!(baas_tests::fixtures::keyword_field),
        ),
        fixture(
            "nested_records",
            dispatch_of!(baas_tests::fixtures::nested_records),
        ),
        fixture("rule_kinds", dispatch_of!(baas_tests::fixtures::rule_kinds)),
        fixture(
            "unspecified_response",
            dispatch_of!(baas_tests::fixtures::unspecified_response),
        ),
        fixture("value_set", dispatch_of!(baas_tests::fixtures::value_set)),
    ]
}

/// The name of a client-checked rule kind (its spec key, which is also the name the
/// runtimes give the violated rule); `None` for rules only the service checks.
fn kind_name(rule: &RuleKind) -> Option<&'static str> {
    let key = rule.key();
    key.client_checked().then(|| key.spec_key())
}

/// Every client-checked rule kind, from the registry: each needs at least one derived
/// case, so a new rule kind without one fails this test.
fn checked_kinds() -> Vec<&'static str> {
    RuleKey::ALL
        .into_iter()
        .filter(|k| k.client_checked())
        .map(RuleKey::spec_key)
        .collect()
}

/// Rules that state nothing a value could break (`min_chars: 0`, `min_items: 0`): the
/// only rules allowed to have no case.
fn vacuous(rule: &RuleKind) -> bool {
    matches!(
        rule,
        RuleKind::MinChars { min: 0 } | RuleKind::MinItems { min: 0 }
    )
}

/// (at the limit, past it) for a rule, as values of the field (whole arrays for
/// item-count rules, single-element arrays for element rules).
fn cases(api: &Api, field: &Field, rule: &RuleKind) -> Vec<(Value, Value)> {
    let element_ty = match &field.ty {
        TypeRef::Array { item } => item.as_ref().clone(),
        ty => ty.clone(),
    };
    let is_array = matches!(field.ty, TypeRef::Array { .. });
    let wrap = |v: Value| if is_array { Value::Array(vec![v]) } else { v };
    let wire = wire_of(&field.ty);
    let others_allow_zero = !field
        .rules
        .iter()
        .any(|r| matches!(r.kind, RuleKind::Positive));
    let s = |n: u64| Value::String("a".repeat(n as usize));
    match rule {
        RuleKind::MaxChars { max } => vec![(wrap(s(*max)), wrap(s(max + 1)))],
        RuleKind::MinChars { min } if *min > 0 => vec![(wrap(s(*min)), wrap(s(min - 1)))],
        RuleKind::Alphanumeric => {
            // Letters of both cases and digits, as long as the field's length rules allow;
            // past it: the same text with a `-`.
            let (mut lo, mut hi) = (1u64, 4u64);
            for r in &field.rules {
                match r.kind {
                    RuleKind::MinChars { min } => lo = lo.max(min),
                    RuleKind::MaxChars { max } => hi = hi.min(max),
                    _ => {}
                }
            }
            let len = hi.max(lo) as usize;
            let at: String = "aZ09".chars().cycle().take(len).collect();
            let mut past: String = at.chars().take(len - 1).collect();
            past.push('-');
            vec![(wrap(json!(at)), wrap(json!(past)))]
        }
        RuleKind::Base64MaxBytes { max } => {
            // The document's own size counts (not its Base64 text's); text that is not
            // Base64 is no document at all (a decode error, tested in the runtime).
            vec![(wrap(base64_zeros(*max)), wrap(base64_zeros(max + 1)))]
        }
        RuleKind::Range { min, max } => {
            let (min, max) = (min.map(|n| n.to_string()), max.map(|n| n.to_string()));
            let (min, max) = (&min, &max);
            let mut out = Vec::new();
            match element_ty {
                TypeRef::Int | TypeRef::Long => {
                    if let Some(hi) = max {
                        let hi: i64 = hi.parse().expect("bound");
                        out.push((wrap(json!(hi)), wrap(json!(hi + 1))));
                    }
                    if let Some(lo) = min {
                        let lo: i64 = lo.parse().expect("bound");
                        if lo > 0 || others_allow_zero {
                            out.push((wrap(json!(lo)), wrap(json!(lo - 1))));
                        }
                    }
                }
                _ => {
                    // Decimal bounds: step by the bound's last place.
                    let step = |b: &str| {
                        let places = b.split_once('.').map_or(0, |(_, f)| f.len());
                        if places == 0 {
                            "1".to_owned()
                        } else {
                            format!("0.{}1", "0".repeat(places - 1))
                        }
                    };
                    let add = |a: &str, b: &str| {
                        let x: baas_runtime::Amount = a.parse().expect("amount");
                        let y: baas_runtime::Amount = b.parse().expect("amount");
                        (x + y).expect("no overflow").to_string()
                    };
                    let sub = |a: &str, b: &str| {
                        let x: baas_runtime::Amount = a.parse().expect("amount");
                        let y: baas_runtime::Amount = b.parse().expect("amount");
                        x.checked_sub(y).expect("no overflow").to_string()
                    };
                    if let Some(hi) = max {
                        out.push((
                            wrap(decimal(hi, wire)),
                            wrap(decimal(&add(hi, &step(hi)), wire)),
                        ));
                    }
                    if let Some(lo) = min {
                        let zero_ok =
                            others_allow_zero || !lo.starts_with('0') && !lo.starts_with('-');
                        if zero_ok || lo != "0" {
                            out.push((
                                wrap(decimal(lo, wire)),
                                wrap(decimal(&sub(lo, &step(lo)), wire)),
                            ));
                        }
                    }
                }
            }
            out
        }
        RuleKind::Positive => match element_ty {
            TypeRef::Int | TypeRef::Long => vec![(wrap(json!(1)), wrap(json!(0)))],
            // The smallest positive value the field's other rules allow.
            _ if field.rules.iter().any(|r| r.kind == RuleKind::Whole) => {
                vec![(wrap(decimal("1", wire)), wrap(decimal("0", wire)))]
            }
            _ => vec![(wrap(decimal("0.01", wire)), wrap(decimal("0", wire)))],
        },
        RuleKind::Whole => vec![(wrap(decimal("5", wire)), wrap(decimal("5.5", wire)))],
        RuleKind::DecimalPlaces { places } => {
            let at = format!("1.{}1", "0".repeat(*places as usize - 1));
            let past = format!("1.{}1", "0".repeat(*places as usize));
            vec![(wrap(decimal(&at, wire)), wrap(decimal(&past, wire)))]
        }
        RuleKind::MaxItems { max } | RuleKind::MinItems { min: max } => {
            let item = match &field.ty {
                TypeRef::Array { item } => valid_scalar(api, item, &field.rules),
                _ => unreachable!("item rules are on arrays"),
            };
            let n = *max as usize;
            let (at, past) = if matches!(rule, RuleKind::MaxItems { .. }) {
                (n, n + 1)
            } else {
                (n, n.saturating_sub(1))
            };
            if matches!(rule, RuleKind::MinItems { .. }) && n == 0 {
                return vec![];
            }
            vec![(
                Value::Array(vec![item.clone(); at]),
                Value::Array(vec![item; past]),
            )]
        }
        RuleKind::OneOf { values } => {
            // Past the rule: a value the set lists and the rule does not, or (an open set)
            // a code the set does not list either.
            let TypeRef::Enum { name } = &element_ty else {
                unreachable!("one_of is on value sets")
            };
            let def = api.enum_def(name).expect("enum declared");
            let past = def
                .values
                .iter()
                .map(|v| v.wire.clone())
                .find(|w| !values.contains(w))
                .or_else(|| def.open.then(|| "ZZZ".to_owned()));
            past.map(|p| vec![(wrap(json!(values[0])), wrap(json!(p)))])
                .unwrap_or_default()
        }
        RuleKind::MinChars { .. } | RuleKind::ServerSide { .. } => vec![],
    }
}

fn violated(rule: &RuleKind) -> Violated {
    match rule {
        RuleKind::MaxChars { .. } => Violated::MaxChars,
        RuleKind::MinChars { .. } => Violated::MinChars,
        RuleKind::Range { .. } => Violated::Range,
        RuleKind::Positive => Violated::Positive,
        RuleKind::Whole => Violated::Whole,
        RuleKind::DecimalPlaces { .. } => Violated::DecimalPlaces,
        RuleKind::Alphanumeric => Violated::Alphanumeric,
        RuleKind::Base64MaxBytes { .. } => Violated::Base64MaxBytes,
        RuleKind::MaxItems { .. } => Violated::MaxItems,
        RuleKind::MinItems { .. } => Violated::MinItems,
        RuleKind::OneOf { .. } => Violated::OneOf,
        RuleKind::ServerSide { .. } => unreachable!("never checked by the client"),
    }
}

fn expect_valid(dispatch: Dispatch, op: &str, params: &Value, what: &str) {
    match dispatch(op, &params_text(params)) {
        Outcome::Valid => {}
        Outcome::Invalid(errors) => {
            panic!("{op}: {what}: expected valid, got {errors}\nparams: {params}")
        }
        Outcome::Other(other) => {
            panic!("{op}: {what}: expected valid, got {other}\nparams: {params}")
        }
    }
}

fn expect_violation(
    dispatch: Dispatch,
    op: &str,
    params: &Value,
    path: &str,
    rule: Violated,
    what: &str,
) {
    match dispatch(op, &params_text(params)) {
        Outcome::Invalid(errors) => assert!(
            errors
                .violations()
                .iter()
                .any(|v| v.field == path && v.rule == rule),
            "{op}: {what}: expected {rule:?} on {path}, got {errors}\nparams: {params}"
        ),
        Outcome::Valid => {
            panic!("{op}: {what}: expected a violation of {path}, got valid\nparams: {params}")
        }
        Outcome::Other(other) => {
            panic!("{op}: {what}: expected a violation of {path}, got {other}\nparams: {params}")
        }
    }
}

#[test]
fn every_rule_passes_at_its_limit_and_fails_past_it() {
    let mut covered: BTreeSet<&'static str> = BTreeSet::new();
    for (suite, api, dispatch) in suites() {
        let count = rule_cases(&api, dispatch, &mut covered);
        eprintln!("{suite}: {count} rule cases checked");
    }
    let checked: BTreeSet<&'static str> = checked_kinds().into_iter().collect();
    assert!(checked.len() >= 10, "the registry lists {checked:?}");
    let missing: Vec<&str> = checked
        .iter()
        .copied()
        .filter(|k| !covered.contains(k))
        .collect();
    assert!(
        missing.is_empty(),
        "rule kinds with no derived case in spec/ or any fixture: {missing:?}; \
         add a field with the rule to tests/fixtures/gen/rule_kinds"
    );
    assert_eq!(
        covered, checked,
        "a case ran for a kind the registry does not check"
    );
}

/// Runs the limit cases of every client-checked rule of `api`, adding the kinds
/// exercised to `covered`; returns how many cases ran.
fn rule_cases(api: &Api, dispatch: Dispatch, covered: &mut BTreeSet<&'static str>) -> usize {
    let mut checked_rules = 0;
    for op in api.operations() {
        let Params::Fields { fields } = &op.params else {
            continue;
        };
        let kinds: Vec<ConstraintKind> = op.constraints.iter().map(|c| c.kind.clone()).collect();
        let base = base_params(api, fields, &kinds);
        expect_valid(dispatch, &op.name, &base, "minimal params");
        let mut all = Vec::new();
        targets(api, fields, "", &[], &mut all);
        for target in &all {
            for rule in &target.field.rules {
                let Some(kind) = kind_name(&rule.kind) else {
                    continue; // checked by the service only
                };
                let rule_cases = cases(api, target.field, &rule.kind);
                assert!(
                    !rule_cases.is_empty() || vacuous(&rule.kind),
                    "{}: no case derived for {:?} on {}",
                    op.name,
                    rule.kind,
                    target.path
                );
                if !rule_cases.is_empty() {
                    covered.insert(kind);
                }
                let element_rule = matches!(target.field.ty, TypeRef::Array { .. })
                    && !matches!(
                        rule.kind,
                        RuleKind::MaxItems { .. } | RuleKind::MinItems { .. }
                    );
                let path = if element_rule {
                    format!("{}[0]", target.path)
                } else {
                    target.path.clone()
                };
                // A field of an `exactly_one_of` is tried alone: the others leave.
                let top = target.path.split(['.', '[']).next().unwrap_or_default();
                let exclusive: Vec<String> = kinds
                    .iter()
                    .filter_map(|k| match k {
                        ConstraintKind::ExactlyOneOf { fields } => Some(fields),
                        _ => None,
                    })
                    .filter(|fs| fs.iter().any(|f| f.wire_name == top))
                    .flat_map(|fs| fs.iter().map(|f| f.wire_name.clone()))
                    .filter(|n| n != top)
                    .collect();
                let base = {
                    let mut b = base.clone();
                    if let Some(map) = b.as_object_mut() {
                        for n in &exclusive {
                            map.remove(n);
                        }
                    }
                    b
                };
                for (at, past) in rule_cases {
                    let mut ok = base.clone();
                    set(api, &mut ok, fields, &target.pointer, at);
                    expect_valid(
                        dispatch,
                        &op.name,
                        &ok,
                        &format!("{path} at the limit of {:?}", rule.kind),
                    );
                    let past_text = past.to_string();
                    let mut bad = base.clone();
                    set(api, &mut bad, fields, &target.pointer, past);
                    let violated_rule = match &rule.kind {
                        RuleKind::Base64MaxBytes { .. } if past_text.contains("not base64!") => {
                            Violated::Base64
                        }
                        _ => violated(&rule.kind),
                    };
                    expect_violation(
                        dispatch,
                        &op.name,
                        &bad,
                        &path,
                        violated_rule,
                        &format!("{path} past {:?}: {past_text}", rule.kind),
                    );
                    checked_rules += 1;
                }
            }
        }
    }
    checked_rules
}

/// A required field of a type with an empty value (`TypeRef::emptiness`: a string, a
/// document) left empty is refused as `required`, as an absent one would be: an empty string
/// as `""`, an empty document as its Base64 text `""`.
#[test]
fn every_required_string_or_document_refuses_empty() {
    for (suite, api, dispatch) in suites() {
        let (mut strings, mut documents) = (0, 0);
        for op in api.operations() {
            let Params::Fields { fields } = &op.params else {
                continue;
            };
            let kinds: Vec<ConstraintKind> =
                op.constraints.iter().map(|c| c.kind.clone()).collect();
            let base = base_params(&api, fields, &kinds);
            for field in fields
                .iter()
                .filter(|f| f.required == Requirement::Required)
            {
                let what = match field.ty.emptiness() {
                    Some(Emptiness::Text) => {
                        strings += 1;
                        "required string left empty"
                    }
                    Some(Emptiness::Document) => {
                        documents += 1;
                        "required document of no bytes"
                    }
                    None => continue,
                };
                let mut params = base.clone();
                params[field.wire_name.as_str()] = json!("");
                expect_violation(
                    dispatch,
                    &op.name,
                    &params,
                    &field.wire_name,
                    Violated::Required,
                    what,
                );
            }
        }
        eprintln!("{suite}: {strings} required strings, {documents} required documents checked");
        if suite == "spec/" {
            assert!(strings > 50, "too few required strings found: {strings}");
            assert!(
                documents >= 2,
                "too few required documents found: {documents}"
            );
        }
    }
}

#[test]
fn unknown_operations_and_malformed_params_are_reported() {
    use baas_client::dispatch::{validate_params, ParamsCheck};
    assert!(matches!(
        validate_params("noSuchOperation", "{}"),
        ParamsCheck::UnknownOperation
    ));
    let api = api();
    let first = api
        .operations()
        .find(|o| matches!(o.params, Params::Fields { .. }))
        .expect("an operation");
    assert!(matches!(
        validate_params(&first.name, "[1,2"),
        ParamsCheck::Malformed(_)
    ));
    assert!(matches!(
        validate_params(&first.name, r#"{"definitelyNotAParameter": 1}"#),
        ParamsCheck::Malformed(_)
    ));
}
