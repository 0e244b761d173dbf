//! Values for the cases: a valid value of every type within its rules, the smallest valid
//! params of an operation, and the places a rule's field sits in them.

use super::*;

/// Marker standing for a Base64 text of this many zero bytes: the text of the 30 MB
/// invoice case is spliced into the params JSON only when it is sent
/// ([`params_text`]), so it is never built as a `Value`, cloned or escaped.
pub(crate) const ZEROS_MARKER: &str = "@zeros-base64:";

pub(crate) fn base64_zeros(bytes: u64) -> Value {
    Value::String(format!("{ZEROS_MARKER}{bytes}@"))
}

/// The JSON text of `params`, with each [`base64_zeros`] marker replaced by its text.
pub(crate) fn params_text(params: &Value) -> String {
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
pub(crate) fn decimal(text: &str, wire: DecimalWire) -> Value {
    match wire {
        DecimalWire::String => Value::String(text.to_owned()),
        DecimalWire::Number => serde_json::from_str(text).expect("decimal text is a JSON number"),
    }
}

pub(crate) fn wire_of(ty: &TypeRef) -> DecimalWire {
    match ty {
        TypeRef::Decimal { wire } => *wire,
        TypeRef::Array { item } => wire_of(item),
        _ => DecimalWire::String,
    }
}

pub(crate) fn bound(rules: &[baas_codegen::model::Rule]) -> (Option<String>, Option<String>) {
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
pub(crate) fn valid_scalar(api: &Api, ty: &TypeRef, rules: &[baas_codegen::model::Rule]) -> Value {
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
pub(crate) fn valid_value(api: &Api, field: &Field) -> Value {
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

pub(crate) fn minimal_object(api: &Api, fields: &[Field]) -> Value {
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
pub(crate) fn base_params(api: &Api, fields: &[Field], constraints: &[ConstraintKind]) -> Value {
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
pub(crate) struct Target<'a> {
    /// Path of the field in messages (`oderArray[0].amount`).
    pub(crate) path: String,
    /// JSON pointer parts from the params root to the field.
    pub(crate) pointer: Vec<String>,
    pub(crate) field: &'a Field,
}

/// Every field reachable from the params, with its parents filled in `params`.
pub(crate) fn targets<'a>(
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
pub(crate) fn set(api: &Api, node: &mut Value, scope: &[Field], pointer: &[String], value: Value) {
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
