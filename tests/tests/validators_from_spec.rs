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

/// Marker standing for a Base64 text of this many zero bytes: the text of the 30 MB
/// invoice case is spliced into the params JSON only when it is sent
/// ([`params_text`]), so it is never built as a `Value`, cloned or escaped.
const ZEROS_MARKER: &str = "@zeros-base64:";

fn base64_zeros(bytes: u64) -> Value {
    Value::String(format!("{ZEROS_MARKER}{bytes}@"))
}

/// The JSON text of `params`, with each [`base64_zeros`] marker replaced by its text.
fn params_text(params: &Value) -> String {
    let text = params.to_string();
    if !text.contains(ZEROS_MARKER) {
        return text;
    }
    let mut out = String::new();
    let mut rest = text.as_str();
    while let Some(start) = rest.find(ZEROS_MARKER) {
        out.push_str(&rest[..start]);
        let after = &rest[start + ZEROS_MARKER.len()..];
        let end = after.find('@').expect("marker end");
        let n: usize = after[..end].parse().expect("marker size");
        // n zero bytes in Base64: "AAAA" per 3 bytes, then the padded rest.
        out.push_str(&"AAAA".repeat(n / 3));
        out.push_str(match n % 3 {
            1 => "AA==",
            2 => "AAA=",
            _ => "",
        });
        rest = &after[end + 1..];
    }
    out.push_str(rest);
    out
}

/// A decimal as JSON in its wire form.
fn decimal(text: &str, wire: DecimalWire) -> Value {
    match wire {
        DecimalWire::String => Value::String(text.to_owned()),
        DecimalWire::Number => serde_json::from_str(text).expect("decimal text is a JSON number"),
    }
}

fn wire_of(ty: &TypeRef) -> DecimalWire {
    match ty {
        TypeRef::Decimal { wire } => *wire,
        TypeRef::Array { item } => wire_of(item),
        _ => DecimalWire::String,
    }
}

fn bound(rules: &[baas_codegen::model::Rule]) -> (Option<String>, Option<String>) {
    let mut lo = None;
    let mut hi = None;
    for r in rules {
        if let RuleKind::Range { min, max } = &r.kind {
            lo = min.map(|n| n.to_string());
            hi = max.map(|n| n.to_string());
        }
    }
    (lo, hi)
}

/// A valid scalar for a (non-array) type under the field's rules.
fn valid_scalar(api: &Api, ty: &TypeRef, rules: &[baas_codegen::model::Rule]) -> Value {
    match ty {
        TypeRef::String => {
            let mut len = 1u64;
            for r in rules {
                if let RuleKind::MinChars { min } = r.kind {
                    len = len.max(min);
                }
            }
            Value::String("a".repeat(len as usize))
        }
        TypeRef::Int | TypeRef::Long => {
            let (lo, hi) = bound(rules);
            let mut n: i64 = 1;
            if let Some(lo) = lo {
                n = n.max(lo.parse().expect("int bound"));
            }
            if let Some(hi) = hi {
                n = n.min(hi.parse().expect("int bound"));
            }
            json!(n)
        }
        TypeRef::Decimal { wire } => {
            let (lo, hi) = bound(rules);
            let text = match (lo, hi) {
                (Some(lo), _) if lo.parse::<f64>().unwrap_or(0.0) > 1.0 => lo,
                (_, Some(hi)) if hi.parse::<f64>().unwrap_or(2.0) < 1.0 => hi,
                _ => "1".to_owned(),
            };
            decimal(&text, *wire)
        }
        TypeRef::Bool => json!(true),
        TypeRef::Date => json!("2026-11-27"),
        TypeRef::Document => json!("QUJD"),
        TypeRef::Json | TypeRef::Scalar => json!({}),
        TypeRef::Enum { name } => {
            let def = api.enum_def(name).expect("enum declared");
            // The first value a `one_of` rule takes, else the set's first.
            let allowed = rules.iter().find_map(|r| match &r.kind {
                RuleKind::OneOf { values } => values.first(),
                _ => None,
            });
            let first = allowed.unwrap_or(&def.values[0].wire);
            match def.wire_type {
                EnumWireType::String => json!(first),
                EnumWireType::Integer => json!(first.parse::<i64>().expect("integer wire")),
            }
        }
        TypeRef::Record { name, .. } => {
            let record = api.record(name).expect("record declared");
            minimal_object(api, &record.fields)
        }
        TypeRef::Array { .. } => unreachable!("arrays handled by valid_value"),
    }
}

/// A valid value of a field (arrays get `min_items` valid elements, at least one).
fn valid_value(api: &Api, field: &Field) -> Value {
    match &field.ty {
        TypeRef::Array { item } => {
            let mut n = 1;
            for r in &field.rules {
                if let RuleKind::MinItems { min } = r.kind {
                    n = n.max(min as usize);
                }
            }
            Value::Array(vec![valid_scalar(api, item, &field.rules); n])
        }
        ty => valid_scalar(api, ty, &field.rules),
    }
}

fn minimal_object(api: &Api, fields: &[Field]) -> Value {
    let mut map = Map::new();
    for f in fields
        .iter()
        .filter(|f| f.required == Requirement::Required)
    {
        map.insert(f.wire_name.clone(), valid_value(api, f));
    }
    Value::Object(map)
}

/// Minimal valid params of an operation: required fields, plus whatever the
/// constraints need.
fn base_params(api: &Api, fields: &[Field], constraints: &[ConstraintKind]) -> Value {
    let mut params = minimal_object(api, fields);
    let find = |name: &str| fields.iter().find(|f| f.wire_name == name).expect("param");
    for c in constraints {
        match c {
            ConstraintKind::RequiredIf { field, .. } => {
                params[field.wire_name.as_str()] = valid_value(api, find(&field.wire_name));
            }
            ConstraintKind::AtLeastOneOf { fields: names }
            | ConstraintKind::ExactlyOneOf { fields: names } => {
                let present = names.iter().any(|n| params.get(&n.wire_name).is_some());
                if !present {
                    params[names[0].wire_name.as_str()] =
                        valid_value(api, find(&names[0].wire_name));
                }
            }
            ConstraintKind::ServerSide { .. } => {}
        }
    }
    params
}

/// One rule case: a field reached through `steps` (wire names; records in arrays at
/// index 0) whose value is replaced.
struct Target<'a> {
    /// Path of the field in messages (`oderArray[0].amount`).
    path: String,
    /// JSON pointer parts from the params root to the field.
    pointer: Vec<String>,
    field: &'a Field,
}

/// Every field reachable from the params, with its parents filled in `params`.
fn targets<'a>(
    api: &'a Api,
    fields: &'a [Field],
    prefix: &str,
    pointer: &[String],
    out: &mut Vec<Target<'a>>,
) {
    for f in fields {
        let path = if prefix.is_empty() {
            f.wire_name.clone()
        } else {
            format!("{prefix}.{}", f.wire_name)
        };
        let mut ptr = pointer.to_vec();
        ptr.push(f.wire_name.clone());
        out.push(Target {
            path: path.clone(),
            pointer: ptr.clone(),
            field: f,
        });
        match &f.ty {
            TypeRef::Record { name, .. } => {
                let r = api.record(name).expect("record");
                targets(api, &r.fields, &path, &ptr, out);
            }
            TypeRef::Array { item } => {
                if let TypeRef::Record { name, .. } = item.as_ref() {
                    let r = api.record(name).expect("record");
                    let mut p = ptr.clone();
                    p.push("0".to_owned());
                    targets(api, &r.fields, &format!("{path}[0]"), &p, out);
                }
            }
            _ => {}
        }
    }
}

/// Sets the value at `pointer` (wire names; `0` after an array of records), creating
/// absent parents from valid values.
fn set(api: &Api, node: &mut Value, scope: &[Field], pointer: &[String], value: Value) {
    let key = &pointer[0];
    let field = scope.iter().find(|f| &f.wire_name == key).expect("field");
    let obj = node.as_object_mut().expect("object");
    if pointer.len() == 1 {
        obj.insert(key.clone(), value);
        return;
    }
    let child = obj
        .entry(key.clone())
        .or_insert_with(|| valid_value(api, field));
    match &field.ty {
        TypeRef::Record { name, .. } => {
            let r = api.record(name).expect("record");
            set(api, child, &r.fields, &pointer[1..], value);
        }
        TypeRef::Array { item } => match item.as_ref() {
            TypeRef::Record { name, .. } => {
                let r = api.record(name).expect("record");
                set(api, &mut child[0], &r.fields, &pointer[2..], value);
            }
            _ => unreachable!("only records have nested fields"),
        },
        _ => unreachable!("only records have nested fields"),
    }
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
fn every_constraint_holds_both_ways() {
    let mut total = 0;
    for (suite, api, dispatch) in suites() {
        let checked = constraint_cases(&api, dispatch);
        // Every constraint the client checks was tried both ways, none skipped.
        let client_checked = api
            .operations()
            .flat_map(|op| &op.constraints)
            .filter(|c| !matches!(c.kind, ConstraintKind::ServerSide { .. }))
            .count();
        assert_eq!(checked, client_checked, "{suite}: constraints not tried");
        total += checked;
    }
    assert!(
        total >= 5,
        "the suites hold {total} constraints: the test lost its cases"
    );
}

/// Checks every constraint of `api` both ways; returns how many.
fn constraint_cases(api: &Api, dispatch: Dispatch) -> usize {
    let mut checked = 0;
    for op in api.operations() {
        let Params::Fields { fields } = &op.params else {
            continue;
        };
        let kinds: Vec<ConstraintKind> = op.constraints.iter().map(|c| c.kind.clone()).collect();
        let base = base_params(api, fields, &kinds);
        let find = |name: &str| fields.iter().find(|f| f.wire_name == name).expect("param");
        for kind in &kinds {
            match kind {
                ConstraintKind::RequiredIf { field, when } => {
                    let field = &field.wire_name;
                    let mut holds = base.clone();
                    match when {
                        Condition::Equals { field: cf, value } => {
                            let cf = &cf.wire_name;
                            let cfield = find(cf);
                            let v = match &cfield.ty {
                                TypeRef::Enum { name }
                                    if api.enum_def(name).expect("enum").wire_type
                                        == EnumWireType::Integer =>
                                {
                                    json!(value.parse::<i64>().expect("int"))
                                }
                                TypeRef::Int | TypeRef::Long => {
                                    json!(value.parse::<i64>().expect("int"))
                                }
                                TypeRef::Bool => json!(value == "true"),
                                _ => json!(value),
                            };
                            holds[cf.as_str()] = v;
                        }
                        Condition::SumGreaterThan { array, item, value } => {
                            let (array, item_field) = (&array.wire_name, &item.wire_name);
                            let value = &value.to_string();
                            let afield = find(array);
                            let mut element = match &afield.ty {
                                TypeRef::Array { item } => valid_scalar(api, item, &[]),
                                _ => unreachable!(),
                            };
                            let rec = match &afield.ty {
                                TypeRef::Array { item } => match item.as_ref() {
                                    TypeRef::Record { name, .. } => {
                                        api.record(name).expect("record")
                                    }
                                    _ => unreachable!(),
                                },
                                _ => unreachable!(),
                            };
                            let ifield = rec
                                .fields
                                .iter()
                                .find(|f| &f.wire_name == item_field)
                                .expect("item field");
                            let wire = wire_of(&ifield.ty);
                            // At the threshold the condition does not hold.
                            element[item_field.as_str()] = decimal(value, wire);
                            let mut at = base.clone();
                            at[array.as_str()] = json!([element.clone()]);
                            at.as_object_mut().expect("object").remove(field);
                            expect_valid(
                                dispatch,
                                &op.name,
                                &at,
                                &format!("sum of {array} at {value}, {field} absent"),
                            );
                            let x: baas_runtime::Amount = value.parse().expect("amount");
                            let past = (x + baas_runtime::Amount::new(1, 2)).expect("no overflow");
                            element[item_field.as_str()] = decimal(&past.to_string(), wire);
                            holds[array.as_str()] = json!([element]);
                        }
                    }
                    let mut with = holds.clone();
                    with[field.as_str()] = valid_value(api, find(field));
                    expect_valid(
                        dispatch,
                        &op.name,
                        &with,
                        &format!("{field} present while required"),
                    );
                    // Present but empty (a string's or a document's `""`) is absent.
                    if find(field).ty.emptiness().is_some() {
                        let mut empty = holds.clone();
                        empty[field.as_str()] = json!("");
                        expect_violation(
                            dispatch,
                            &op.name,
                            &empty,
                            field,
                            Violated::RequiredIf,
                            &format!("{field} empty while required"),
                        );
                    }
                    holds.as_object_mut().expect("object").remove(field);
                    expect_violation(
                        dispatch,
                        &op.name,
                        &holds,
                        field,
                        Violated::RequiredIf,
                        &format!("{field} absent while required"),
                    );
                }
                ConstraintKind::AtLeastOneOf { fields: names } => {
                    let names: Vec<String> = names.iter().map(|n| n.wire_name.clone()).collect();
                    let names = &names;
                    let mut none = base.clone();
                    for n in names {
                        none.as_object_mut().expect("object").remove(n);
                    }
                    let first_path = &names[0];
                    match dispatch(&op.name, &params_text(&none)) {
                        Outcome::Invalid(errors) => assert!(
                            errors
                                .violations()
                                .iter()
                                .any(|v| v.rule == Violated::AtLeastOneOf),
                            "{}: none of {names:?}: {errors}",
                            op.name
                        ),
                        Outcome::Valid => {
                            panic!("{}: none of {names:?} ({first_path}): valid", op.name)
                        }
                        Outcome::Other(other) => {
                            panic!("{}: none of {names:?} ({first_path}): {other}", op.name)
                        }
                    }
                    for n in names {
                        let mut one = none.clone();
                        one[n.as_str()] = valid_value(api, find(n));
                        expect_valid(dispatch, &op.name, &one, &format!("only {n} of {names:?}"));
                    }
                }
                ConstraintKind::ExactlyOneOf { fields: names } => {
                    let names: Vec<String> = names.iter().map(|n| n.wire_name.clone()).collect();
                    let names = &names;
                    let mut two = base.clone();
                    for n in names.iter().take(2) {
                        two[n.as_str()] = valid_value(api, find(n));
                    }
                    match dispatch(&op.name, &params_text(&two)) {
                        Outcome::Invalid(errors) => assert!(
                            errors
                                .violations()
                                .iter()
                                .any(|v| v.rule == Violated::ExactlyOneOf),
                            "{}: two of {names:?}: {errors}",
                            op.name
                        ),
                        Outcome::Valid => panic!("{}: two of {names:?}: valid", op.name),
                        Outcome::Other(other) => {
                            panic!("{}: two of {names:?}: {other}", op.name)
                        }
                    }
                }
                ConstraintKind::ServerSide { .. } => continue,
            }
            checked += 1;
        }
    }
    checked
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
