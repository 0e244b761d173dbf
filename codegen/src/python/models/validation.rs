//! The rule checks of sent shapes (`_validate_at`): each field's type and rules, and an
//! operation's constraints, as calls of `baas_runtime.validate.Validator`; and the
//! constraints in words for docstrings.

use super::super::names::{decimal, ident, string};
use super::super::Out;
use crate::model::{Condition, Constraint, ConstraintKind, Field, ParamRef, TypeRef};
use crate::rules::{CheckArg, CheckLevel, CheckValue};

/// The type check of one value, as a condition (`v.is_type(...)`).
fn type_check(ty: &TypeRef, value: &str, path: &str) -> Option<String> {
    Some(match ty {
        TypeRef::String => format!("v.is_type({path}, {value}, str, \"a str\")"),
        TypeRef::Int => format!("v.is_int({path}, {value}, 32)"),
        TypeRef::Long => format!("v.is_int({path}, {value}, 64)"),
        TypeRef::Decimal { .. } => format!("v.is_decimal({path}, {value})"),
        TypeRef::Bool => format!("v.is_type({path}, {value}, bool, \"a bool\")"),
        TypeRef::Json | TypeRef::Scalar => return None,
        TypeRef::Enum { name } | TypeRef::Record { name, .. } => {
            format!("v.is_type({path}, {value}, {name}, \"a {name}\")")
        }
        TypeRef::Array { .. } => format!("v.is_list({path}, {value})"),
    })
}

/// The rule checks of one value of scalar type `ty` held in `value` at `path`.
fn scalar_checks(field: &Field, ty: &TypeRef, value: &str, path: &str) -> Vec<String> {
    let mut lines: Vec<String> = field
        .rules
        .iter()
        .filter_map(|r| r.kind.check(ty))
        .filter(|c| c.level == CheckLevel::Value)
        .map(|check| {
            let v = match check.value {
                CheckValue::Text | CheckValue::Amount | CheckValue::Integer => value.to_owned(),
                CheckValue::Length => format!("len({value})"),
            };
            call(check.method, path, &v, &check.args)
        })
        .collect();
    if let TypeRef::Record { .. } = ty {
        lines.push(format!("{value}._validate_at(v, {path})"));
    }
    lines
}

fn call(method: &str, path: &str, value: &str, args: &[CheckArg]) -> String {
    let mut parts = vec![path.to_owned(), value.to_owned()];
    for a in args {
        parts.push(match a {
            CheckArg::Count(n) => n.to_string(),
            CheckArg::Places(n) => n.to_string(),
            CheckArg::Integer(Some(n)) => n.to_string(),
            CheckArg::Amount(Some(n)) => decimal(*n),
            CheckArg::Integer(None) | CheckArg::Amount(None) => "None".to_owned(),
        });
    }
    format!("v.{method}({})", parts.join(", "))
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

/// The checks of one field: its type, then its rules (as the Rust runtime's order).
pub fn field_checks(out: &mut Out, field: &Field) {
    let id = ident(&field.rust_name);
    let value = format!("self.{id}");
    let path = format!("at.field({})", string(&field.wire_name));
    let optional = field.optional_when_sent();
    let mut body: Vec<String> = Vec::new();
    let mut nested: Option<(String, Vec<String>, Vec<String>)> = None;
    match &field.ty {
        TypeRef::Array { item } => {
            for check in field
                .rules
                .iter()
                .filter_map(|r| r.kind.check(&field.ty))
                .filter(|c| c.level == CheckLevel::Array)
            {
                body.push(call(
                    check.method,
                    "p",
                    &format!("len({value})"),
                    &check.args,
                ));
            }
            let element = format!("{id}_item");
            let element_checks = scalar_checks(field, item, &element, "q");
            let element_type = type_check(item, &element, "q");
            nested = Some((element_type.unwrap_or_default(), element_checks, Vec::new()));
        }
        ty => body.extend(scalar_checks(field, ty, &value, "p")),
    }
    if !optional && field.ty == TypeRef::String {
        body.insert(0, format!("v.required(p, {value} != \"\")"));
    }
    let cond = type_check(&field.ty, &value, "p");
    if cond.is_none() && body.is_empty() && nested.is_none() {
        return;
    }
    out.line(&format!("p = {path}"));
    if optional {
        out.line(&format!("if {value} is not None:"));
        out.indent();
    }
    let has_elements = nested
        .as_ref()
        .is_some_and(|(t, c, _)| !t.is_empty() || !c.is_empty());
    match (cond, has_elements) {
        (Some(cond), true) => {
            out.line(&format!("if {cond}:"));
            out.indent();
            for l in &body {
                out.line(l);
            }
            elements(out, &value, &format!("{id}_item"), nested);
            out.dedent();
        }
        (cond, _) => guarded(out, cond, &body),
    }
    if optional {
        out.dedent();
    }
}

fn elements(
    out: &mut Out,
    value: &str,
    element: &str,
    nested: Option<(String, Vec<String>, Vec<String>)>,
) {
    let Some((type_cond, checks, _)) = nested else {
        return;
    };
    out.line(&format!("for i, {element} in enumerate({value}):"));
    out.indent();
    out.line("q = p.index(i)");
    let cond = (!type_cond.is_empty()).then_some(type_cond);
    guarded(out, cond, &checks);
    out.dedent();
}

/// Whether a parameter is present: set, and for strings non-empty.
fn present(p: &ParamRef) -> String {
    let id = ident(&p.rust_name);
    match (p.text, p.optional) {
        (true, true) => format!("(self.{id} is not None and self.{id} != \"\")"),
        (false, true) => format!("self.{id} is not None"),
        (true, false) => format!("self.{id} != \"\""),
        (false, false) => "True".to_owned(),
    }
}

fn condition_text(condition: &Condition) -> String {
    match condition {
        Condition::Equals { field, value } => format!("{} is {value}", field.wire_name),
        Condition::SumGreaterThan { array, item, value } => format!(
            "the sum of {}[].{} is greater than {value}",
            array.wire_name, item.wire_name
        ),
    }
}

fn condition_expr(condition: &Condition) -> String {
    match condition {
        Condition::Equals { field, value } => {
            format!(
                "_w.wire_text(self.{}) == {}",
                ident(&field.rust_name),
                string(value)
            )
        }
        Condition::SumGreaterThan { array, item, value } => {
            let id = ident(&array.rust_name);
            let item_id = ident(&item.rust_name);
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

pub fn constraint_check(out: &mut Out, c: &Constraint) {
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
            string(&condition_text(when))
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

/// A constraint in words for a request's docstring.
pub fn constraint_words(c: &Constraint) -> String {
    let refs = |fields: &[ParamRef]| {
        fields
            .iter()
            .map(|f| format!("`{}`", f.wire_name))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let text = match &c.kind {
        ConstraintKind::RequiredIf { field, when } => {
            format!(
                "`{}` is required when {}.",
                field.wire_name,
                condition_text(when)
            )
        }
        ConstraintKind::AtLeastOneOf { fields } => {
            format!("at least one of {} is required.", refs(fields))
        }
        ConstraintKind::ExactlyOneOf { fields } => {
            format!("exactly one of {} is required.", refs(fields))
        }
        ConstraintKind::ServerSide { fields, text } => {
            let names: Vec<String> = fields.iter().map(|f| format!("`{f}`")).collect();
            format!(
                "{} (checked by the service only: {})",
                names.join(", "),
                text.trim()
            )
        }
    };
    if c.doc.trim().is_empty() {
        text
    } else {
        format!("{text} {}", c.doc.trim())
    }
}
