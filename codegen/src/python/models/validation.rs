//! The rule checks of sent shapes (`_validate_at`): each field's type and the plan's
//! checks, and an operation's constraints, as calls of `baas_runtime.validate.Validator`.

use super::super::names::{decimal, ident, string};
use crate::model::{Condition, ConstraintKind, Emptiness, ParamRef, TypeRef};
use crate::plan::{param_words, ConstraintPlan, FieldPlan};
use crate::rules::{Check, CheckArg, CheckLevel, CheckValue};
use crate::text::Out;

/// The type check of one value, as a condition (`v.is_type(...)`).
fn type_check(ty: &TypeRef, open: bool, value: &str, path: &str) -> Option<String> {
    Some(match ty {
        TypeRef::Enum { name } if open => {
            format!("v.is_type({path}, {value}, ({name}, str), \"a {name} or a code\")")
        }
        TypeRef::String => format!("v.is_type({path}, {value}, str, \"a str\")"),
        TypeRef::Int => format!("v.is_int({path}, {value}, 32)"),
        TypeRef::Long => format!("v.is_int({path}, {value}, 64)"),
        TypeRef::Decimal { .. } => format!("v.is_decimal({path}, {value})"),
        TypeRef::Bool => format!("v.is_type({path}, {value}, bool, \"a bool\")"),
        TypeRef::Date => format!("v.is_date({path}, {value})"),
        TypeRef::Document => format!("v.is_document({path}, {value})"),
        TypeRef::Json | TypeRef::Scalar => return None,
        TypeRef::Enum { name } | TypeRef::Record { name, .. } => {
            format!("v.is_type({path}, {value}, {name}, \"a {name}\")")
        }
        TypeRef::Array { .. } => format!("v.is_list({path}, {value})"),
    })
}

/// A validator call of `check` on the value held in `value` at `path`.
pub(in crate::python) fn call(check: &Check, path: &str, value: &str) -> String {
    let value = match check.value {
        CheckValue::Text | CheckValue::Amount | CheckValue::Integer => value.to_owned(),
        CheckValue::Length | CheckValue::Size => format!("len({value})"),
        CheckValue::Wire => format!("_w.enum_text({value})"),
    };
    let mut parts = vec![path.to_owned(), value];
    for a in &check.args {
        parts.push(match a {
            CheckArg::Count(n) => n.to_string(),
            CheckArg::Places(n) => n.to_string(),
            CheckArg::Integer(Some(n)) => n.to_string(),
            CheckArg::Amount(Some(n)) => decimal(*n),
            CheckArg::Integer(None) | CheckArg::Amount(None) => "None".to_owned(),
            CheckArg::Texts(values) => {
                let items: Vec<String> = values.iter().map(|v| string(v)).collect();
                format!("({},)", items.join(", "))
            }
        });
    }
    format!("v.{}({})", check.method, parts.join(", "))
}

/// The checks at `level` of a value of type `ty` held in `value` at `path` (a record's
/// own checks last).
fn checks(
    field: &FieldPlan,
    level: CheckLevel,
    ty: &TypeRef,
    value: &str,
    path: &str,
) -> Vec<String> {
    let mut lines: Vec<String> = field
        .checks
        .iter()
        .filter(|c| c.level == level)
        .map(|c| call(c, path, value))
        .collect();
    if let (CheckLevel::Value, TypeRef::Record { .. }) = (level, ty) {
        lines.push(format!("{value}._validate_at(v, {path})"));
    }
    lines
}

/// Writes `lines` under `cond` (or as they are when there is no condition).
fn guarded(out: &mut Out, cond: Option<String>, lines: &[String]) {
    match cond {
        Some(cond) if lines.is_empty() => out.line(&cond),
        Some(cond) => {
            out.line(&format!("if {cond}:"));
            out.indent();
            for l in lines {
                out.line(l);
            }
            out.dedent();
        }
        None => {
            for l in lines {
                out.line(l);
            }
        }
    }
}

/// The checks of one field: its type, then its checks (as the Rust runtime's order), and
/// for an array each element's type and checks.
pub fn field_checks(out: &mut Out, field: &FieldPlan) {
    let id = ident(&field.words);
    let value = format!("self.{id}");
    let element = format!("{id}_item");
    let (mut body, elements) = match &field.ty {
        TypeRef::Array { item } => (
            checks(field, CheckLevel::Array, &field.ty, &value, "p"),
            Some((
                type_check(item, field.open_values, &element, "q"),
                checks(field, CheckLevel::Value, item, &element, "q"),
            ))
            .filter(|(t, c)| t.is_some() || !c.is_empty()),
        ),
        ty => (checks(field, CheckLevel::Value, ty, &value, "p"), None),
    };
    if let Some(emptiness) = field.non_empty() {
        body.insert(
            0,
            format!("v.required(p, {})", not_empty(emptiness, &value)),
        );
    }
    let cond = type_check(&field.ty, field.open_values, &value, "p");
    if cond.is_none() && body.is_empty() && elements.is_none() {
        return;
    }
    out.line(&format!("p = at.field({})", string(&field.wire_name)));
    if !field.required() {
        out.line(&format!("if {value} is not None:"));
        out.indent();
    }
    match (cond, elements) {
        (Some(cond), Some((item_type, item_checks))) => {
            out.line(&format!("if {cond}:"));
            out.indent();
            for l in &body {
                out.line(l);
            }
            out.line(&format!("for i, {element} in enumerate({value}):"));
            out.indent();
            out.line("q = p.index(i)");
            guarded(out, item_type, &item_checks);
            out.dedent();
            out.dedent();
        }
        (cond, _) => guarded(out, cond, &body),
    }
    if !field.required() {
        out.dedent();
    }
}

/// The Python name of a parameter a constraint names.
fn param(p: &ParamRef) -> String {
    ident(&param_words(p))
}

/// That a value of a type with an empty value is not empty (a `str`, or a document's
/// `bytes`, which never equal `""`).
fn not_empty(emptiness: Emptiness, value: &str) -> String {
    match emptiness {
        Emptiness::Text => format!("{value} != \"\""),
        Emptiness::Document => format!("{value} != b\"\""),
    }
}

/// Whether a parameter is present: set, and for a string or a document non-empty.
fn present(p: &ParamRef) -> String {
    let value = format!("self.{}", param(p));
    match (p.empty, p.optional) {
        (Some(e), true) => format!("({value} is not None and {})", not_empty(e, &value)),
        (None, true) => format!("{value} is not None"),
        (Some(e), false) => not_empty(e, &value),
        (None, false) => "True".to_owned(),
    }
}

fn condition_expr(condition: &Condition) -> String {
    match condition {
        Condition::Equals { field, value } => {
            format!("_w.wire_text(self.{}) == {}", param(field), string(value))
        }
        Condition::SumGreaterThan { array, item, value } => {
            let id = param(array);
            let item_id = param(item);
            let items = if array.optional {
                format!("(self.{id} or ())")
            } else {
                format!("self.{id}")
            };
            format!(
                "sum((x.{item_id} for x in {items} if x.{item_id} is not None), Decimal(0)) > {}",
                decimal(*value)
            )
        }
    }
}

/// The check of a constraint across fields (nothing for one only the service checks).
pub fn constraint_check(out: &mut Out, c: &ConstraintPlan) {
    let pairs = |refs: &[ParamRef]| {
        let items: Vec<String> = refs
            .iter()
            .map(|p| format!("({}, {})", string(&p.wire_name), present(p)))
            .collect();
        format!("[{}]", items.join(", "))
    };
    match &c.kind {
        ConstraintKind::RequiredIf { field, when } => out.line(&format!(
            "v.required_if(at.field({}), {}, {}, {})",
            string(&field.wire_name),
            present(field),
            condition_expr(when),
            string(c.condition.as_deref().unwrap_or_default())
        )),
        ConstraintKind::AtLeastOneOf { fields } => {
            out.line(&format!("v.at_least_one_of(at, {})", pairs(fields)))
        }
        ConstraintKind::ExactlyOneOf { fields } => {
            out.line(&format!("v.exactly_one_of(at, {})", pairs(fields)))
        }
        ConstraintKind::ServerSide { .. } => {}
    }
}
