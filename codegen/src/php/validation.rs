//! The checks of sent shapes as PHP: each field's rule checks (the registry's validator
//! methods) and an operation's constraints across fields. Used by the request classes
//! (`operations`) and the sent records (`types`), below both.

use super::names;
use super::PhpFile;
use crate::model::{Condition, ConstraintKind, Emptiness, ParamRef, TypeRef};
use crate::plan::{FieldPlan, OperationPlan, SdkPlan, Words};
use crate::rules::{CheckArg, CheckLevel, CheckValue};

fn arg(a: &CheckArg) -> String {
    match a {
        CheckArg::Count(n) => n.to_string(),
        CheckArg::Places(n) => n.to_string(),
        CheckArg::Integer(Some(n)) => n.to_string(),
        CheckArg::Amount(Some(n)) => names::string(&n.to_string()),
        CheckArg::Integer(None) | CheckArg::Amount(None) => "null".to_owned(),
        CheckArg::Texts(values) => {
            let items: Vec<String> = values.iter().map(|v| names::string(v)).collect();
            format!("[{}]", items.join(", "))
        }
    }
}

/// A validator call on `value` at `at`.
fn call(check: &crate::rules::Check, at: &str, value: &str) -> String {
    let value = match check.value {
        CheckValue::Length => format!("count({value})"),
        CheckValue::Size => format!("{value}->length()"),
        CheckValue::Text | CheckValue::Integer | CheckValue::Amount => value.to_owned(),
        // A value set's case, or (an open set's) a code given as text.
        CheckValue::Wire => format!("(is_string({value}) ? {value} : {value}->value)"),
    };
    let mut args = vec![at.to_owned(), value];
    args.extend(check.args.iter().map(arg));
    format!(
        "$v->{}({});",
        Words::of(check.method).camel(),
        args.join(", ")
    )
}

/// The checks of one sent field, written into `validate()`.
pub fn field_checks(f: &mut PhpFile, plan: &SdkPlan, field: &FieldPlan) {
    let _ = plan;
    let name = names::prop(&field.wire_name, &field.words);
    let this = format!("$this->{name}");
    let at = format!("$at->field({})", names::string(&field.wire_name));
    if let Some(emptiness) = field.non_empty() {
        f.body.line(&format!(
            "$v->required({at}, {});",
            not_empty(emptiness, &this)
        ));
    }
    let mut lines = Vec::new();
    match &field.ty {
        TypeRef::Array { item } => {
            let mut inner = Vec::new();
            for check in field.checks.iter().filter(|c| c.level == CheckLevel::Array) {
                inner.push(call(check, &at, &this));
            }
            let mut each = Vec::new();
            if !matches!(item.as_ref(), TypeRef::Array { .. }) {
                for check in field.checks.iter().filter(|c| c.level == CheckLevel::Value) {
                    each.push(call(check, &format!("{at}->index($i)"), "$item"));
                }
                if let TypeRef::Record { .. } = item.as_ref() {
                    each.push(format!("$item->validate($v, {at}->index($i));"));
                }
            }
            if !each.is_empty() {
                inner.push(format!("foreach ({this} as $i => $item) {{"));
                inner.extend(each.into_iter().map(|l| format!("    {l}")));
                inner.push("}".to_owned());
            }
            match names::list_item_check(item, field.open_values) {
                Some(check) => {
                    f.runtime("Validator");
                    lines.push(format!("if ($v->listOf({at}, {this}, {check})) {{"));
                    lines.extend(inner.into_iter().map(|l| format!("    {l}")));
                    lines.push("}".to_owned());
                }
                None => lines.extend(inner),
            }
        }
        TypeRef::Record { .. } => {
            for check in &field.checks {
                lines.push(call(check, &at, &this));
            }
            lines.push(format!("{this}->validate($v, {at});"));
        }
        _ => {
            for check in &field.checks {
                lines.push(call(check, &at, &this));
            }
        }
    }
    if lines.is_empty() {
        return;
    }
    if field.required() {
        for l in lines {
            f.body.line(&l);
        }
    } else {
        f.body.line(&format!("if ({this} !== null) {{"));
        f.body.indent();
        for l in lines {
            f.body.line(&l);
        }
        f.body.dedent();
        f.body.line("}");
    }
}

/// That a value of a type with an empty value is not empty (a string, or a `Document`).
fn not_empty(emptiness: Emptiness, value: &str) -> String {
    match emptiness {
        Emptiness::Text => format!("{value} !== ''"),
        Emptiness::Document => format!("{value}->length() !== 0"),
    }
}

/// Whether a parameter is present: set and, for a string or a document, not empty.
fn present(p: &ParamRef, fields: &[FieldPlan]) -> String {
    let value = format!("$this->{}", prop_of(&p.wire_name, fields));
    match (p.optional, p.empty) {
        (true, Some(e)) => format!("({value} !== null && {})", not_empty(e, &value)),
        (true, None) => format!("{value} !== null"),
        (false, Some(e)) => not_empty(e, &value),
        (false, None) => "true".to_owned(),
    }
}

pub fn prop_of(wire: &str, fields: &[FieldPlan]) -> String {
    fields.iter().find(|f| f.wire_name == wire).map_or_else(
        || names::prop(wire, &Words::of(wire)),
        |f| names::prop(&f.wire_name, &f.words),
    )
}

/// A condition as a PHP expression over the request's properties.
fn condition(plan: &SdkPlan, c: &Condition, fields: &[FieldPlan], f: &mut PhpFile) -> String {
    match c {
        Condition::Equals { field, value } => {
            let name = prop_of(&field.wire_name, fields);
            let ty = fields
                .iter()
                .find(|x| x.wire_name == field.wire_name)
                .map(|x| &x.ty);
            match ty {
                Some(TypeRef::Enum { name: set }) => {
                    let integer = plan.enum_plan(set).is_some_and(|e| e.integer);
                    let literal = match value.parse::<i64>() {
                        Ok(n) if integer => n.to_string(),
                        _ => names::string(value),
                    };
                    format!("$this->{name}?->value === {literal}")
                }
                Some(TypeRef::Int | TypeRef::Long) => match value.parse::<i64>() {
                    Ok(n) => format!("$this->{name} === {n}"),
                    Err(_) => format!("(string) $this->{name} === {}", names::string(value)),
                },
                _ => format!("$this->{name} === {}", names::string(value)),
            }
        }
        Condition::SumGreaterThan { array, item, value } => {
            f.runtime("Decimal");
            let list = prop_of(&array.wire_name, fields);
            let record = fields
                .iter()
                .find(|x| x.wire_name == array.wire_name)
                .and_then(|x| match &x.ty {
                    TypeRef::Array { item } => match item.as_ref() {
                        TypeRef::Record { name, .. } => plan.record(name),
                        _ => None,
                    },
                    _ => None,
                });
            let (class, member) = match record {
                Some(r) => (
                    names::class_named(&r.name),
                    prop_of(&item.wire_name, &r.fields),
                ),
                None => (
                    "object".to_owned(),
                    names::prop(&item.wire_name, &Words::of(&item.wire_name)),
                ),
            };
            let fallback = if item.optional {
                " ?? Decimal::zero()"
            } else {
                ""
            };
            format!(
                "Decimal::sum(array_map(static fn ({class} $x): Decimal => $x->{member}{fallback}, $this->{list} ?? []))->compareTo({}) > 0",
                names::string(&value.to_string())
            )
        }
    }
}

/// The validator calls of an operation's constraints (the service's own checks have none).
pub fn constraint_lines(plan: &SdkPlan, op: &OperationPlan, f: &mut PhpFile) -> Vec<String> {
    let fields = op.params();
    let mut out = Vec::new();
    for c in op.constraints.iter().filter(|c| c.checked) {
        match &c.kind {
            ConstraintKind::RequiredIf { field, when } => {
                let cond = condition(plan, when, fields, f);
                let words = c.condition.clone().unwrap_or_default();
                out.push(format!(
                    "$v->requiredIf($at->field({}), {}, {cond}, {});",
                    names::string(&field.wire_name),
                    present(field, fields),
                    names::string(&words)
                ));
            }
            ConstraintKind::AtLeastOneOf { fields: set }
            | ConstraintKind::ExactlyOneOf { fields: set } => {
                let method = if matches!(c.kind, ConstraintKind::AtLeastOneOf { .. }) {
                    "atLeastOneOf"
                } else {
                    "exactlyOneOf"
                };
                let members: Vec<String> = set
                    .iter()
                    .map(|p| format!("{} => {}", names::string(&p.wire_name), present(p, fields)))
                    .collect();
                out.push(format!("$v->{method}($at, [{}]);", members.join(", ")));
            }
            ConstraintKind::ServerSide { .. } => {}
        }
    }
    out
}
