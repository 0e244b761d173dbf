//! Schemas of values, fields, objects, value sets and records, in one direction.

use serde_json::{json, Map, Value};

use super::annotate::{put_decisions, put_deprecated, put_doc, put_source};
use crate::model::{Api, DecimalWire, EnumDef, EnumWireType, Field, Record, Requirement, TypeRef};
use crate::rules::RuleKind;
use crate::rules::{DecimalSyntax, SchemaOut};

/// Which way a shape travels.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Direction {
    /// Sent by the partner: strict, validated.
    Sent,
    /// Received by the partner: every field optional, unknown fields allowed.
    Received,
}

/// A `$ref` to a component schema.
pub(super) fn schema_ref(name: &str) -> Value {
    json!({ "$ref": format!("#/components/schemas/{name}") })
}

/// How a decimal sent as a JSON string may be written: the runtime's `Amount` syntax
/// (`-`, digits, one `.` and digits), narrowed by the rules. At most 16 digits before
/// the point and 12 after (28 significant digits, what `Amount` holds).
fn decimal_pattern(syntax: DecimalSyntax) -> String {
    let sign = if syntax.negative { "-?" } else { "" };
    let places = syntax.places.unwrap_or(12).min(12);
    if syntax.whole || places == 0 {
        format!("^{sign}[0-9]{{1,16}}$")
    } else {
        format!("^{sign}[0-9]{{1,16}}(\\.[0-9]{{1,{places}}})?$")
    }
}

/// The schema of one value of type `ty` (an array's item, for an array), with the rules
/// that apply to each value.
pub(super) fn value_schema(
    api: &Api,
    ty: &TypeRef,
    rules: &[&RuleKind],
    dir: Direction,
) -> Map<String, Value> {
    let mut ty = ty;
    while let TypeRef::Array { item } = ty {
        ty = item;
    }
    let sent = dir == Direction::Sent;
    let (map, patterns) = type_keywords(api, ty, rules, sent);
    with_rules(
        ty,
        rules,
        sent,
        SchemaOut {
            map,
            patterns,
            server_side: Vec::new(),
        },
    )
}

/// Standard Base64 with padding: whole groups of four, the last one padded.
const BASE64_PATTERN: &str = "^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$";

/// The keywords of a value's type (not an array), and the patterns its wire syntax
/// needs (a decimal sent as a string).
fn type_keywords(
    api: &Api,
    ty: &TypeRef,
    rules: &[&RuleKind],
    sent: bool,
) -> (Map<String, Value>, Vec<String>) {
    let mut map = Map::new();
    let mut patterns: Vec<String> = Vec::new();
    match ty {
        TypeRef::String => {
            map.insert("type".into(), json!("string"));
        }
        TypeRef::Date => {
            map.insert("type".into(), json!("string"));
            map.insert("format".into(), json!("date"));
            map.insert("pattern".into(), json!("^[0-9]{4}-[0-9]{2}-[0-9]{2}$"));
        }
        // Standard Base64 with padding (decision `document-type`).
        TypeRef::Document => {
            map.insert("type".into(), json!("string"));
            map.insert("format".into(), json!("byte"));
            map.insert("contentEncoding".into(), json!("base64"));
            patterns.push(BASE64_PATTERN.to_owned());
        }
        TypeRef::Int | TypeRef::Long => {
            map.insert("type".into(), json!("integer"));
            let format = if *ty == TypeRef::Int {
                "int32"
            } else {
                "int64"
            };
            map.insert("format".into(), json!(format));
        }
        TypeRef::Decimal { wire } => {
            map.insert("x-baas-decimal".into(), json!(true));
            match wire {
                DecimalWire::String => {
                    map.insert("type".into(), json!("string"));
                    map.insert("format".into(), json!("decimal"));
                    let mut syntax = DecimalSyntax::default();
                    if sent {
                        for rule in rules {
                            rule.decimal_syntax(&mut syntax);
                        }
                    }
                    patterns.push(decimal_pattern(syntax));
                }
                DecimalWire::Number => {
                    map.insert("type".into(), json!("number"));
                }
            }
        }
        TypeRef::Bool => {
            map.insert("type".into(), json!("boolean"));
        }
        TypeRef::Scalar => {
            map.insert("type".into(), json!(["string", "number", "boolean"]));
            map.insert(
                "x-baas-scalar".into(),
                json!("a string, number or boolean whose type is not shown; read as its text"),
            );
        }
        TypeRef::Json => {
            map.insert(
                "x-baas-json".into(),
                json!("any JSON; its shape is not shown"),
            );
        }
        TypeRef::Enum { name } if sent && !api.enum_def(name).is_some_and(|e| e.open) => {
            map.insert("$ref".into(), json!(format!("#/components/schemas/{name}")));
        }
        // A received value set is open: a value the spec does not list is kept
        // (`Unknown`), so the schema names the set and accepts any value of its type. So
        // is a sent one whose set is open (a `one_of` rule narrows it with `enum`).
        TypeRef::Enum { name } => {
            let wire = match api.enum_def(name).map(|e| e.wire_type) {
                Some(EnumWireType::Integer) => "integer",
                _ => "string",
            };
            map.insert("anyOf".into(), json!([schema_ref(name), { "type": wire }]));
            map.insert("x-baas-open-enum".into(), json!(name));
        }
        TypeRef::Record {
            name,
            received_name,
        } => {
            let target = if sent { name } else { received_name };
            map.insert(
                "$ref".into(),
                json!(format!("#/components/schemas/{target}")),
            );
        }
        TypeRef::Array { item } => return type_keywords(api, item, rules, sent),
    }
    (map, patterns)
}

/// The rules' keywords added to a value's (sent), or their server-side texts (received);
/// the patterns become `pattern`, or `allOf` patterns when there are several.
fn with_rules(
    ty: &TypeRef,
    rules: &[&RuleKind],
    sent: bool,
    mut out: SchemaOut,
) -> Map<String, Value> {
    for rule in rules {
        if sent {
            rule.json_schema(ty, &mut out);
        } else if let Some(text) = rule.server_side_text() {
            out.server_side.push(text.to_owned());
        }
    }
    let SchemaOut {
        mut map,
        patterns,
        server_side,
    } = out;
    match patterns.len() {
        0 => {}
        1 => {
            map.insert("pattern".into(), json!(patterns[0]));
        }
        _ => {
            let all: Vec<Value> = patterns.iter().map(|p| json!({ "pattern": p })).collect();
            map.insert("allOf".into(), Value::Array(all));
        }
    }
    if !server_side.is_empty() {
        map.insert("x-baas-server-side".into(), json!(server_side));
    }
    map
}

/// The schema of a field: its type, its rules (sent shapes), its doc and extensions.
pub(super) fn field_schema(api: &Api, field: &Field, dir: Direction) -> Value {
    let per_value: Vec<&RuleKind> = field
        .rules
        .iter()
        .map(|r| &r.kind)
        .filter(|k| !k.key().on_the_array())
        .collect();
    let mut map = match &field.ty {
        TypeRef::Array { item } => {
            let mut array = Map::new();
            array.insert("type".into(), json!("array"));
            array.insert(
                "items".into(),
                Value::Object(value_schema(api, item, &per_value, dir)),
            );
            if dir == Direction::Sent {
                for rule in &field.rules {
                    rule.kind.json_schema_array(&mut array);
                }
            }
            array
        }
        ty => value_schema(api, ty, &per_value, dir),
    };
    let mut doc = field.doc.clone();
    for rule in &field.rules {
        if !rule.doc.is_empty() {
            if !doc.is_empty() {
                doc.push(' ');
            }
            doc.push_str(&rule.doc);
        }
    }
    put_doc(&mut map, &doc);
    if field.required == Requirement::Conditional {
        map.insert("x-baas-required".into(), json!("conditional"));
    }
    put_source(&mut map, field.source);
    put_decisions(&mut map, &field.decisions);
    put_deprecated(&mut map, field.deprecated.as_ref());
    Value::Object(map)
}

/// An object of fields in one direction.
pub(super) fn object_schema(api: &Api, fields: &[Field], dir: Direction) -> Map<String, Value> {
    let mut map = Map::new();
    map.insert("type".into(), json!("object"));
    let mut properties = Map::new();
    for f in fields {
        properties.insert(f.wire_name.clone(), field_schema(api, f, dir));
    }
    map.insert("properties".into(), Value::Object(properties));
    if dir == Direction::Sent {
        let required: Vec<&str> = fields
            .iter()
            .filter(|f| f.required == Requirement::Required)
            .map(|f| f.wire_name.as_str())
            .collect();
        if !required.is_empty() {
            map.insert("required".into(), json!(required));
        }
        map.insert("additionalProperties".into(), json!(false));
    }
    map
}

pub(super) fn enum_schema(e: &EnumDef) -> Value {
    let mut map = Map::new();
    let (ty, values): (&str, Vec<Value>) = match e.wire_type {
        EnumWireType::String => ("string", e.values.iter().map(|v| json!(v.wire)).collect()),
        EnumWireType::Integer => (
            "integer",
            e.values
                .iter()
                .map(|v| v.integer.map_or_else(|| json!(v.wire), |i| json!(i)))
                .collect(),
        ),
    };
    map.insert("type".into(), json!(ty));
    map.insert("enum".into(), Value::Array(values));
    put_doc(&mut map, &e.doc);
    map.insert(
        "x-enum-varnames".into(),
        json!(e.values.iter().map(|v| &v.name).collect::<Vec<_>>()),
    );
    map.insert(
        "x-enum-descriptions".into(),
        json!(e.values.iter().map(|v| &v.doc).collect::<Vec<_>>()),
    );
    let deprecated: Map<String, Value> = e
        .values
        .iter()
        .filter_map(|v| v.deprecated.as_ref().map(|d| (v.wire.clone(), json!(d))))
        .collect();
    if !deprecated.is_empty() {
        map.insert("x-baas-deprecated-values".into(), Value::Object(deprecated));
    }
    map.insert(
        "x-baas-open".into(),
        json!("a response may carry a value not listed here; clients keep it (Unknown)"),
    );
    put_source(&mut map, e.source);
    put_decisions(&mut map, &e.decisions);
    Value::Object(map)
}

pub(super) fn record_schema(api: &Api, r: &Record, dir: Direction) -> Value {
    let mut map = object_schema(api, &r.fields, dir);
    let mut doc = r.doc.clone();
    if r.has_two_shapes() {
        let shape = match dir {
            Direction::Sent => "The shape sent in requests.",
            Direction::Received => "The shape received in responses.",
        };
        if !doc.is_empty() {
            doc.push(' ');
        }
        doc.push_str(shape);
    }
    put_doc(&mut map, &doc);
    put_source(&mut map, r.source);
    put_decisions(&mut map, &r.decisions);
    Value::Object(map)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decimal_patterns() {
        assert_eq!(
            decimal_pattern(DecimalSyntax {
                negative: true,
                places: None,
                whole: false
            }),
            "^-?[0-9]{1,16}(\\.[0-9]{1,12})?$"
        );
        assert_eq!(
            decimal_pattern(DecimalSyntax {
                negative: false,
                places: Some(2),
                whole: false
            }),
            "^[0-9]{1,16}(\\.[0-9]{1,2})?$"
        );
        assert_eq!(
            decimal_pattern(DecimalSyntax {
                negative: false,
                places: None,
                whole: true
            }),
            "^[0-9]{1,16}$"
        );
    }
}
