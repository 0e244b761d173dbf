//! The schema in step with the loader: property names equal the `spec_file`
//! structs' fields, and every spec file (which the loader accepts) validates.

use super::*;
use crate::spec_file as sf;
use serde::de::{self, Deserialize, Visitor};
use std::path::Path;

/// A deserializer that only records the field names a struct asks for.
struct FieldNames<'a>(&'a mut Vec<&'static str>);

impl<'de> de::Deserializer<'de> for FieldNames<'_> {
    type Error = de::value::Error;
    fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Self::Error> {
        Err(de::Error::custom("not a struct"))
    }
    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        fields: &'static [&'static str],
        _: V,
    ) -> Result<V::Value, Self::Error> {
        self.0.extend(fields);
        Err(de::Error::custom("recorded"))
    }
    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct seq tuple
        tuple_struct map enum identifier ignored_any
    }
}

fn fields_of<T: for<'de> Deserialize<'de>>() -> Vec<String> {
    let mut names = Vec::new();
    let _ = T::deserialize(FieldNames(&mut names));
    let mut names: Vec<String> = names.into_iter().map(str::to_owned).collect();
    names.sort();
    names
}

fn properties(schema: &Value, definition: &str) -> Vec<String> {
    let def = if definition.is_empty() {
        schema
    } else {
        &schema["definitions"][definition]
    };
    let mut names: Vec<String> = def["properties"]
        .as_object()
        .unwrap_or_else(|| panic!("definition {definition} has properties"))
        .keys()
        .cloned()
        .collect();
    names.sort();
    names
}

#[test]
fn property_names_are_the_loaders_fields() {
    let s = schema();
    let pairs: Vec<(&str, Vec<String>)> = vec![
        ("api", fields_of::<sf::ApiSpec>()),
        ("envelope", fields_of::<sf::EnvelopeSpec>()),
        ("resultCode", fields_of::<sf::ResultCodeSpec>()),
        ("notification", fields_of::<sf::NotificationSpec>()),
        ("payload", fields_of::<sf::PayloadSpec>()),
        ("decision", fields_of::<sf::DecisionSpec>()),
        ("enum", fields_of::<sf::EnumSpec>()),
        ("enumValue", fields_of::<sf::EnumValueSpec>()),
        ("fieldSet", fields_of::<sf::FieldSetSpec>()),
        ("record", fields_of::<sf::RecordSpec>()),
        ("field", fields_of::<sf::FieldSpec>()),
        ("range", fields_of::<sf::RangeSpec>()),
        ("ruleBody", fields_of::<sf::RuleBody>()),
        ("rule", fields_of::<sf::RuleSpec>()),
        ("when", fields_of::<sf::WhenSpec>()),
        ("requiredIf", fields_of::<sf::RequiredIfSpec>()),
        ("serverSideConstraint", fields_of::<sf::ServerSideSpec>()),
        ("constraintBody", fields_of::<sf::ConstraintBody>()),
        ("constraint", fields_of::<sf::ConstraintSpec>()),
        ("response", fields_of::<sf::ResponseSpec>()),
        ("operation", fields_of::<sf::OperationSpec>()),
        ("otpStep", fields_of::<sf::OtpStepSpec>()),
        ("otpSend", fields_of::<sf::OtpSendSpec>()),
        ("otpConfirm", fields_of::<sf::OtpConfirmSpec>()),
        ("otpGroup", fields_of::<sf::OtpGroupSpec>()),
        ("paging", fields_of::<sf::PagingSpec>()),
        ("finalStates", fields_of::<sf::FinalStatesSpec>()),
    ];
    for (definition, fields) in &pairs {
        assert!(!fields.is_empty(), "{definition}: no fields recorded");
        assert_eq!(
            &properties(&s, definition),
            fields,
            "definition `{definition}` of spec.schema.json differs from its spec_file struct"
        );
    }
    let mut top: Vec<String> = crate::load::TOP_LEVEL_KEYS
        .iter()
        .map(|k| (*k).to_owned())
        .collect();
    top.sort();
    assert_eq!(properties(&s, ""), top, "top-level keys");
    // Every definition is either checked above or made of scalars / references.
    let checked: Vec<&str> = pairs.iter().map(|(d, _)| *d).collect();
    for (name, def) in s["definitions"].as_object().expect("definitions") {
        if def.get("properties").is_some() {
            assert!(
                checked.contains(&name.as_str()) || name == "unspecifiedParams",
                "definition `{name}` has properties but no struct to compare with"
            );
        }
    }
}

// ---- a small validator for the keywords this schema uses ----

fn resolve<'a>(root: &'a Value, schema: &'a Value) -> &'a Value {
    match schema.get("$ref").and_then(Value::as_str) {
        Some(reference) => {
            let name = reference.trim_start_matches("#/definitions/");
            resolve(root, &root["definitions"][name])
        }
        None => schema,
    }
}

fn type_matches(ty: &str, v: &Value) -> bool {
    match ty {
        "string" => v.is_string(),
        "number" => v.is_number(),
        "integer" => v.is_i64() || v.is_u64(),
        "boolean" => v.is_boolean(),
        "object" => v.is_object(),
        "array" => v.is_array(),
        _ => false,
    }
}

fn validate(root: &Value, schema: &Value, v: &Value, at: &str, errors: &mut Vec<String>) {
    let schema = resolve(root, schema);
    if let Some(ty) = schema.get("type") {
        let ok = match ty {
            Value::String(t) => type_matches(t, v),
            Value::Array(ts) => ts
                .iter()
                .filter_map(Value::as_str)
                .any(|t| type_matches(t, v)),
            _ => true,
        };
        if !ok {
            errors.push(format!("{at}: not of type {ty}"));
            return;
        }
    }
    if let Some(values) = schema.get("enum").and_then(Value::as_array) {
        if !values.contains(v) {
            errors.push(format!("{at}: {v} is not one of {values:?}"));
        }
    }
    if let Some(min) = schema.get("minimum").and_then(Value::as_i64) {
        if v.as_i64().is_some_and(|n| n < min) {
            errors.push(format!("{at}: below {min}"));
        }
    }
    if let Some(one_of) = schema.get("oneOf").and_then(Value::as_array) {
        let passing = one_of
            .iter()
            .filter(|s| {
                let mut e = Vec::new();
                validate(root, s, v, at, &mut e);
                e.is_empty()
            })
            .count();
        if passing != 1 {
            errors.push(format!("{at}: matches {passing} of oneOf"));
        }
    }
    if let (Some(items), Some(list)) = (schema.get("items"), v.as_array()) {
        for (i, item) in list.iter().enumerate() {
            validate(root, items, item, &format!("{at}[{i}]"), errors);
        }
    }
    if let Some(map) = v.as_object() {
        let props = schema.get("properties").and_then(Value::as_object);
        for (key, value) in map {
            match props.and_then(|p| p.get(key)) {
                Some(s) => validate(root, s, value, &format!("{at}.{key}"), errors),
                None if schema.get("additionalProperties") == Some(&json!(false)) => {
                    errors.push(format!("{at}: unknown key `{key}`"))
                }
                None => {}
            }
        }
        for key in schema
            .get("required")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
        {
            if !map.contains_key(key) {
                errors.push(format!("{at}: missing `{key}`"));
            }
        }
        if let Some(min) = schema.get("minProperties").and_then(Value::as_u64) {
            if (map.len() as u64) < min {
                errors.push(format!("{at}: fewer than {min} keys"));
            }
        }
        if let Some(deps) = schema.get("dependencies").and_then(Value::as_object) {
            for (key, needs) in deps {
                if map.contains_key(key) {
                    for need in needs
                        .as_array()
                        .into_iter()
                        .flatten()
                        .filter_map(Value::as_str)
                    {
                        if !map.contains_key(need) {
                            errors.push(format!("{at}: `{key}` needs `{need}`"));
                        }
                    }
                }
            }
        }
    }
}

fn spec_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("spec folder") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            spec_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "yaml") {
            out.push(path);
        }
    }
}

fn spec_dir() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../spec")
}

#[test]
fn every_spec_file_validates_and_names_the_schema() {
    let root = schema();
    let mut files = Vec::new();
    spec_files(&spec_dir(), &mut files);
    assert!(files.len() >= 5, "spec files found: {files:?}");
    for path in files {
        let text = std::fs::read_to_string(&path).expect("readable");
        let value: Value = serde_yaml::from_str(&text).expect("YAML");
        let mut errors = Vec::new();
        validate(&root, &root, &value, "", &mut errors);
        assert!(errors.is_empty(), "{}: {errors:#?}", path.display());
        let depth = path
            .strip_prefix(spec_dir())
            .map(|p| p.components().count())
            .unwrap_or(1);
        let line = format!(
            "# yaml-language-server: $schema={}generated/{SPEC_SCHEMA_PATH}",
            "../".repeat(depth)
        );
        assert!(
            text.lines().next() == Some(line.as_str()),
            "{} must start with `{line}` (editors find the schema there)",
            path.display()
        );
    }
}

#[test]
fn the_schema_refuses_what_the_loader_refuses() {
    let root = schema();
    let cases = [
        "group: x\n",                                                   // group without operations
        "recrods: []\n",                                                // unknown top-level key
        "enums:\n  - { name: A, wire_type: string, values: [], dco: x }\n", // unknown key
        "enums:\n  - { name: A, wire_type: text, values: [] }\n",      // bad wire_type
        "records:\n  - name: A\n    fields:\n      - { name: a, type: string, required: maybe }\n",
        "records:\n  - name: A\n    fields:\n      - { name: a, type: string, rules: [ { max_chars: -1 } ] }\n",
    ];
    for text in cases {
        let value: Value = serde_yaml::from_str(text).expect("YAML");
        let mut errors = Vec::new();
        validate(&root, &root, &value, "", &mut errors);
        assert!(!errors.is_empty(), "the schema accepts {text:?}");
        let loaded = crate::check_sources("spec", &[("spec/x.yaml".into(), text.into())]);
        assert!(loaded.is_err(), "the loader accepts {text:?}");
    }
}
