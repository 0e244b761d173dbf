//! Example values of every operation's params, within the field rules and the constraints
//! (required fields, values within the rules, and the fields the constraints then
//! require): what the Postman collection sends and what every SDK's docs show.
//!
//! A decimal the wire carries as a JSON number is kept as a marked JSON string while it is
//! a [`Value`], so no example passes through a float: [`unquote_numbers`] writes it back as
//! its literal text, [`decimal_text`] reads it as text.

use serde_json::{json, Map, Value};

use crate::model::{
    Api, Condition, ConstraintKind, DecimalWire, EnumWireType, Field, Number, Operation, Params,
    Requirement, TypeRef,
};
use crate::rules::Example;

/// How an example decimal sent as a JSON number is marked while it is a JSON string:
/// `unquote_numbers` writes it back as its literal text.
const NUMBER_MARKER: &str = "\u{0}number:";

/// The decimal text of an example value: a string, or a marked number's literal text.
pub(crate) fn decimal_text(value: &str) -> &str {
    value.strip_prefix(NUMBER_MARKER).unwrap_or(value)
}

/// A value of `n` (exact text) as the example: `n` itself.
fn number_text(n: &Number) -> String {
    n.to_string()
}

/// What the field's rules say about an example value.
fn example_facts(field: &Field) -> Example {
    let mut example = Example::default();
    for rule in &field.rules {
        rule.kind.example(&mut example);
    }
    example
}

/// An example value of one (non-array) type, within the field's rules.
fn example_value(api: &Api, ty: &TypeRef, field: &Field) -> Value {
    let facts = example_facts(field);
    match ty {
        TypeRef::Date => json!("2026-11-27"),
        TypeRef::Document => json!("ZXhhbXBsZQ=="),
        TypeRef::String => {
            let mut text = String::from("example");
            while (text.chars().count() as u64) < facts.min_chars {
                text.push('x');
            }
            let text: String = text
                .chars()
                .take(usize::try_from(facts.max_chars).unwrap_or(usize::MAX))
                .collect();
            json!(text)
        }
        TypeRef::Int | TypeRef::Long => {
            let mut value: i64 = 1;
            if let Some(min) = facts.int_min {
                value = value.max(min);
            }
            if let Some(max) = facts.int_max {
                value = value.min(max);
            }
            json!(value)
        }
        TypeRef::Decimal { wire } => {
            let text = facts
                .decimal_min
                .as_ref()
                .map_or_else(|| "1".to_owned(), number_text);
            match wire {
                DecimalWire::String => json!(text),
                // The literal text is written as is (see `raw_body`).
                DecimalWire::Number => Value::String(format!("{NUMBER_MARKER}{text}")),
            }
        }
        TypeRef::Bool => json!(true),
        TypeRef::Scalar => json!("example"),
        TypeRef::Json => json!({}),
        TypeRef::Enum { name } => match api.enum_def(name) {
            Some(e) => {
                let v = e
                    .values
                    .iter()
                    .find(|v| v.deprecated.is_none())
                    .or_else(|| e.values.first());
                match (v, e.wire_type) {
                    (Some(v), EnumWireType::Integer) => v.integer.map_or(json!(0), |i| json!(i)),
                    (Some(v), EnumWireType::String) => json!(v.wire),
                    (None, _) => Value::Null,
                }
            }
            None => Value::Null,
        },
        TypeRef::Record { name, .. } => match api.record(name) {
            Some(r) => example_object(api, &r.fields, &[]),
            None => json!({}),
        },
        TypeRef::Array { item } => example_value(api, item, field),
    }
}

fn example_field(api: &Api, field: &Field) -> Value {
    match &field.ty {
        TypeRef::Array { item } => {
            let count = example_facts(field).min_items.unwrap_or(1).max(1);
            let one = example_value(api, item, field);
            Value::Array((0..count).map(|_| one.clone()).collect())
        }
        ty => example_value(api, ty, field),
    }
}

/// The required fields, then those the constraints require given the others.
fn example_object(api: &Api, fields: &[Field], constraints: &[&ConstraintKind]) -> Value {
    let mut map = Map::new();
    let mut wanted: Vec<&str> = fields
        .iter()
        .filter(|f| f.required == Requirement::Required)
        .map(|f| f.wire_name.as_str())
        .collect();
    for c in constraints {
        match c {
            ConstraintKind::AtLeastOneOf { fields } | ConstraintKind::ExactlyOneOf { fields } => {
                if !fields
                    .iter()
                    .any(|f| wanted.contains(&f.wire_name.as_str()))
                {
                    if let Some(first) = fields.first() {
                        wanted.push(&first.wire_name);
                    }
                }
            }
            ConstraintKind::RequiredIf { .. } | ConstraintKind::ServerSide { .. } => {}
        }
    }
    for f in fields
        .iter()
        .filter(|f| wanted.contains(&f.wire_name.as_str()))
    {
        map.insert(f.wire_name.clone(), example_field(api, f));
    }
    // A `required_if` whose condition the example meets: add its field too.
    for c in constraints {
        if let ConstraintKind::RequiredIf {
            field,
            when: Condition::Equals { field: when, value },
        } = c
        {
            let holds = map.get(&when.wire_name).is_some_and(|v| match v {
                Value::String(s) => s == value,
                other => serde_json::from_str::<Value>(value).is_ok_and(|v| &v == other),
            });
            if holds && !map.contains_key(&field.wire_name) {
                if let Some(f) = fields.iter().find(|f| f.wire_name == field.wire_name) {
                    map.insert(f.wire_name.clone(), example_field(api, f));
                }
            }
        }
    }
    Value::Object(map)
}

/// The example `params` of an operation.
pub fn example_params(api: &Api, op: &Operation) -> Value {
    match &op.params {
        Params::Fields { fields } => {
            let constraints: Vec<&ConstraintKind> =
                op.constraints.iter().map(|c| &c.kind).collect();
            example_object(api, fields, &constraints)
        }
        Params::Unspecified { .. } => json!({}),
    }
}

/// The example `params` of an operation as JSON text (decimals sent as numbers written
/// as their literal text): what the requests of the collection carry.
pub fn example_params_text(api: &Api, op: &Operation) -> String {
    unquote_numbers(&serde_json::to_string(&example_params(api, op)).unwrap_or_default())
}

/// `"\u0000number:1.50"` → `1.50`.
pub fn unquote_numbers(text: &str) -> String {
    let marker = "\"\\u0000number:";
    let mut out = String::new();
    let mut rest = text;
    while let Some(at) = rest.find(marker) {
        out.push_str(&rest[..at]);
        let after = &rest[at + marker.len()..];
        let end = after.find('"').unwrap_or(after.len());
        out.push_str(&after[..end]);
        rest = after.get(end + 1..).unwrap_or("");
    }
    out.push_str(rest);
    out
}
