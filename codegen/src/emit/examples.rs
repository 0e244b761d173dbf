//! A short example of each operation's call, as a doctest of its client method: the
//! request built from values that pass its rules (the plan's example params, which the
//! Postman collection carries too, so both show the same call), then the call. Compiled by `cargo test`, so an
//! example cannot drift from the API it shows.

use serde_json::Value;

use crate::model::TypeRef;
use crate::plan::{FieldPlan, OperationPlan, RequestPlan, SdkPlan};

/// The crate name partners write.
const CRATE: &str = "baas_client";

/// The decimal literal `text` (`"100.50"`) as `Amount::new`.
fn amount(text: &str) -> String {
    let (whole, frac) = text.split_once('.').unwrap_or((text, ""));
    let digits = format!("{whole}{frac}");
    let mantissa: i64 = digits.parse().unwrap_or(1);
    format!("{CRATE}::Amount::new({mantissa}, {})", frac.len())
}

/// Where an example expression goes, which decides how a record is written there.
#[derive(Clone, Copy, PartialEq)]
enum Place {
    /// A place of a known type (a struct field, an item of one's `vec!`):
    /// `TypeRequired { .. }.into()`, one name.
    Typed,
    /// A setter's `impl Into<Type>`: the `TypeRequired { .. }` literal as it is.
    Into,
    /// Anywhere else (an item of a setter's `vec!`): `Type::new(TypeRequired { .. })`.
    Other,
}

/// A Rust expression of type `ty` (sent shape) for the example JSON value `v`.
fn expr(plan: &SdkPlan, ty: &TypeRef, v: &Value, place: Place) -> String {
    match ty {
        TypeRef::String => format!("{:?}.into()", v.as_str().unwrap_or("example")),
        TypeRef::Int | TypeRef::Long => v.as_i64().unwrap_or(1).to_string(),
        TypeRef::Decimal { .. } => amount(v.as_str().map_or("1", |s| s)),
        TypeRef::Bool => v.as_bool().unwrap_or(true).to_string(),
        TypeRef::Date => format!(
            "{:?}.parse::<{CRATE}::Date>().expect(\"a date\")",
            v.as_str().unwrap_or("2026-11-27")
        ),
        TypeRef::Document => format!("{CRATE}::Document::from(b\"%PDF-1.7 example\".to_vec())"),
        TypeRef::Scalar | TypeRef::Json => format!("{CRATE}::RawJson::empty_object()"),
        TypeRef::Enum { name } => {
            let wire = match v {
                Value::String(s) => s.clone(),
                other => other.to_string(),
            };
            // A checked enum lists at least one value.
            let variant = plan
                .enum_plan(name)
                .and_then(|d| {
                    d.values
                        .iter()
                        .find(|x| x.wire == wire)
                        .or_else(|| d.values.first())
                })
                .map_or("Unknown", |x| x.name.as_str());
            format!("{CRATE}::enums::{name}::{variant}")
        }
        TypeRef::Record { name, .. } => match plan.record(name) {
            Some(r) => build(
                plan,
                &format!("{CRATE}::records::{name}"),
                &format!("{CRATE}::records::{name}Required"),
                &r.fields,
                v,
                place,
            ),
            None => "Default::default()".to_owned(),
        },
        TypeRef::Array { item } => {
            let items: Vec<String> = v
                .as_array()
                .map(|a| {
                    let place = if place == Place::Typed {
                        Place::Typed
                    } else {
                        Place::Other
                    };
                    a.iter().map(|x| expr(plan, item, x, place)).collect()
                })
                .unwrap_or_default();
            format!("vec![{}]", items.join(", "))
        }
    }
}

/// `Type::new(TypeRequired { .. })` (or `Type::new()`) with the setters of the optional
/// fields the example carries; without setters, where one name is enough (`place`), the
/// `TypeRequired { .. }` literal alone (`From<TypeRequired> for Type`).
fn build(
    plan: &SdkPlan,
    ty: &str,
    required: &str,
    fields: &[FieldPlan],
    v: &Value,
    place: Place,
) -> String {
    let (literal, setters) = parts(plan, required, fields, v);
    let mut out = match (literal, place) {
        (Some(literal), Place::Typed) if setters.is_empty() => format!("{literal}.into()"),
        (Some(literal), Place::Into) if setters.is_empty() => literal,
        (Some(literal), _) => format!("{ty}::new({literal})"),
        (None, _) => format!("{ty}::new()"),
    };
    for setter in setters {
        out.push('\n');
        out.push_str(&setter);
    }
    out
}

/// The `TypeRequired { .. }` literal (none when every field is optional) and the
/// `.setter(value)` lines of the optional fields the example carries.
fn parts(
    plan: &SdkPlan,
    required: &str,
    fields: &[FieldPlan],
    v: &Value,
) -> (Option<String>, Vec<String>) {
    let obj = v.as_object();
    let given = |f: &&FieldPlan| obj.is_some_and(|o| o.contains_key(&f.wire_name));
    let value = |f: &FieldPlan, place: Place| {
        let x = obj
            .and_then(|o| o.get(&f.wire_name))
            .unwrap_or(&Value::Null);
        expr(plan, &f.ty, x, place)
    };
    let req: Vec<&FieldPlan> = fields.iter().filter(|f| f.required()).collect();
    let literal = (!req.is_empty()).then(|| {
        let inits: Vec<String> = req
            .iter()
            .map(|f| format!("    {}: {},", f.rust_name, indent(&value(f, Place::Typed))))
            .collect();
        format!("{required} {{\n{}\n}}", inits.join("\n"))
    });
    let setters = fields
        .iter()
        .filter(|f| !f.required())
        .filter(given)
        .map(|f| {
            // A setter takes `impl Into<..>`: a text is given as it is.
            let v = match (&f.ty, obj.and_then(|o| o.get(&f.wire_name))) {
                (TypeRef::String, Some(Value::String(s))) => format!("{s:?}"),
                _ => value(f, Place::Into),
            };
            format!(".{}({})", f.rust_name, indent(&v))
        })
        .collect();
    (literal, setters)
}

/// Continuation lines of a nested value, indented one level.
fn indent(text: &str) -> String {
    text.replace('\n', "\n    ")
}

/// The example lines (Markdown, a `no_run` doctest) of `op`'s client method: its
/// required fields as a struct literal (or its JSON params), the optional fields the
/// example carries as setters on the call, then `.send()`.
pub fn method_example(plan: &SdkPlan, op: &OperationPlan) -> Vec<String> {
    let method = op.rust_name.trim_start_matches("r#");
    let mut lines = vec![
        "```no_run".to_owned(),
        format!("# async fn example(client: &{CRATE}::Client) -> Result<(), {CRATE}::Error> {{"),
    ];
    let (argument, setters) = match &op.request {
        RequestPlan::Fields(fields) => {
            let required = format!("{}Required", op.type_name);
            let (literal, setters) = parts(plan, &required, fields, &op.example);
            if literal.is_some() {
                lines.push(format!("use {CRATE}::{}::{required};", op.group));
            }
            (literal.unwrap_or_default(), setters)
        }
        RequestPlan::Free { .. } => (format!("{CRATE}::RawJson::empty_object()"), Vec::new()),
    };
    lines.push("let response = client".to_owned());
    lines.push(format!(
        "    .{method}({})",
        argument.replace('\n', "\n    ")
    ));
    for setter in setters {
        lines.push(format!("    {}", setter.replace('\n', "\n    ")));
    }
    lines.push("    .send()".to_owned());
    lines.push("    .await?;".to_owned());
    lines.push("# let _ = response;".to_owned());
    lines.push("# Ok(())".to_owned());
    lines.push("# }".to_owned());
    lines.push("```".to_owned());
    lines
        .iter()
        .flat_map(|l| l.lines().map(str::to_owned))
        .collect()
}
