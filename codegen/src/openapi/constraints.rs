//! An operation's constraints across fields: as JSON Schema where it can say them
//! (`if`/`then`, `anyOf`, `oneOf`), and in words and names (`x-baas-constraints`).

use serde_json::{json, Value};

use super::annotate::{put_decisions, put_doc, put_source};
use crate::model::{
    Api, Condition, Constraint, ConstraintKind, EnumWireType, Operation, ParamRef, Params, TypeRef,
};

fn param_type<'a>(op: &'a Operation, wire_name: &str) -> Option<&'a TypeRef> {
    match &op.params {
        Params::Fields { fields } => fields
            .iter()
            .find(|f| f.wire_name == wire_name)
            .map(|f| &f.ty),
        Params::Unspecified { .. } => None,
    }
}

/// "Present": set, and for a string or a document (its Base64 text) non-empty.
fn present(p: &ParamRef) -> Value {
    if p.empty.is_some() {
        json!({ "required": [p.wire_name], "properties": { &p.wire_name: { "minLength": 1 } } })
    } else {
        json!({ "required": [p.wire_name] })
    }
}

/// The value a condition compares with, typed as the parameter is on the wire.
fn condition_value(api: &Api, op: &Operation, field: &ParamRef, value: &str) -> Value {
    let integer = match param_type(op, &field.wire_name) {
        Some(TypeRef::Int | TypeRef::Long) => true,
        Some(TypeRef::Enum { name }) => api
            .enum_def(name)
            .is_some_and(|e| e.wire_type == EnumWireType::Integer),
        _ => false,
    };
    match value.parse::<i64>() {
        Ok(i) if integer => json!(i),
        _ => json!(value),
    }
}

/// A constraint as JSON Schema, where it can be one.
pub(super) fn constraint_schema(api: &Api, op: &Operation, c: &Constraint) -> Option<Value> {
    match &c.kind {
        ConstraintKind::RequiredIf {
            field,
            when: Condition::Equals { field: when, value },
        } => Some(json!({
            "if": {
                "properties": { &when.wire_name: { "const": condition_value(api, op, when, value) } },
                "required": [when.wire_name]
            },
            "then": present(field)
        })),
        ConstraintKind::RequiredIf {
            when: Condition::SumGreaterThan { .. },
            ..
        }
        | ConstraintKind::ServerSide { .. } => None,
        ConstraintKind::AtLeastOneOf { fields } => Some(json!({
            "anyOf": fields.iter().map(present).collect::<Vec<_>>()
        })),
        ConstraintKind::ExactlyOneOf { fields } => Some(json!({
            "oneOf": fields.iter().map(present).collect::<Vec<_>>()
        })),
    }
}

/// A constraint in words and names (`x-baas-constraints`).
pub(super) fn constraint_extension(c: &Constraint) -> Value {
    let names = |fields: &[ParamRef]| -> Vec<String> {
        fields.iter().map(|f| f.wire_name.clone()).collect()
    };
    let mut map = match &c.kind {
        ConstraintKind::RequiredIf { field, when } => {
            let when = match when {
                Condition::Equals { field, value } => {
                    json!({ "field": field.wire_name, "equals": value })
                }
                Condition::SumGreaterThan { array, item, value } => json!({
                    "sum": format!("{}[].{}", array.wire_name, item.wire_name),
                    "greater_than": value.to_string()
                }),
            };
            json!({ "required_if": { "field": field.wire_name, "when": when } })
        }
        ConstraintKind::AtLeastOneOf { fields } => json!({ "at_least_one_of": names(fields) }),
        ConstraintKind::ExactlyOneOf { fields } => json!({ "exactly_one_of": names(fields) }),
        ConstraintKind::ServerSide { fields, text } => {
            json!({ "server_side": { "fields": fields, "text": text } })
        }
    };
    if let Value::Object(m) = &mut map {
        put_doc(m, &c.doc);
        put_source(m, c.source);
        put_decisions(m, &c.decisions);
    }
    map
}
