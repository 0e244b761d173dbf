//! A JSON Schema (draft-07) of the spec format, `spec/*.yaml` (`spec/SCHEMA.md` in
//! prose, `spec_file.rs` as serde structs): `generated/spec-schema/spec.schema.json`.
//!
//! Each spec file names it in a `# yaml-language-server: $schema=…` line, so an editor
//! completes and checks keys while a maintainer types; CI validates every spec file
//! with it (check-jsonschema). It says what the *loader* accepts: the shape of each
//! file (keys, nesting, scalar kinds). What the checker decides (types resolve, rules
//! fit their types, names are unique) is left to `baas-codegen check`.
//!
//! The loader reads a string from any non-null scalar (`code: 00000`, `wire: -1`), so a
//! loader string is `type: [string, number, boolean]` here. The tests below keep the
//! property names of every definition equal to the fields of its `spec_file` struct,
//! and validate every file of `spec/` with the schema.

use serde_json::{json, Map, Value};

use crate::emit::{Content, EmittedFile};
use crate::rules::{ArgShape, RuleKey};

/// Path of the schema below the output root (`generated/`).
pub const SPEC_SCHEMA_PATH: &str = "spec-schema/spec.schema.json";

/// The generated files: the schema. It does not depend on the model.
pub fn files() -> Vec<EmittedFile> {
    vec![EmittedFile {
        path: SPEC_SCHEMA_PATH.to_owned(),
        content: Content::Text(crate::openapi::to_text(&schema())),
    }]
}

fn r(name: &str) -> Value {
    json!({ "$ref": format!("#/definitions/{name}") })
}

fn list_of(name: &str) -> Value {
    json!({ "type": "array", "items": r(name) })
}

/// An object of the spec: these properties, no others.
fn object(description: &str, required: &[&str], properties: Value) -> Value {
    let mut map = Map::new();
    map.insert("type".into(), json!("object"));
    map.insert("description".into(), json!(description));
    map.insert("properties".into(), properties);
    if !required.is_empty() {
        map.insert("required".into(), json!(required));
    }
    map.insert("additionalProperties".into(), json!(false));
    Value::Object(map)
}

/// The rule keys (shared by the short and the long form of a rule), from the rule
/// registry.
fn rule_keys() -> Map<String, Value> {
    let mut map = Map::new();
    for key in RuleKey::ALL {
        let mut schema = match key.arg() {
            ArgShape::Count | ArgShape::Places => r("count"),
            ArgShape::Range => r("range"),
            ArgShape::Text => r("text"),
            ArgShape::Flag => json!({ "type": "boolean" }),
        };
        if let (Value::Object(m), Some(summary)) = (&mut schema, key.summary()) {
            m.insert("description".into(), json!(summary));
        }
        map.insert(key.spec_key().to_owned(), schema);
    }
    map
}

/// The constraint keys (shared by the short and the long form of a constraint).
fn constraint_keys() -> Map<String, Value> {
    let Value::Object(map) = json!({
        "required_if": r("requiredIf"),
        "at_least_one_of": { "$ref": "#/definitions/names", "description": "at least one of these parameters is present" },
        "exactly_one_of": { "$ref": "#/definitions/names", "description": "exactly one of these parameters is present" },
        "server_side": r("serverSideConstraint")
    }) else {
        unreachable!("a JSON object literal")
    };
    map
}

/// The whole schema.
pub fn schema() -> Value {
    let mut rule = rule_keys();
    rule.insert(
        "rule".into(),
        json!({ "$ref": "#/definitions/ruleBody", "description": "long form: the rule, with source and doc beside it" }),
    );
    rule.insert("source".into(), r("source"));
    rule.insert("doc".into(), r("text"));
    let mut constraint = constraint_keys();
    constraint.insert(
        "constraint".into(),
        json!({ "$ref": "#/definitions/constraintBody", "description": "long form: the constraint, with source, doc and decisions beside it" }),
    );
    constraint.insert("source".into(), r("source"));
    constraint.insert("doc".into(), r("text"));
    constraint.insert("decisions".into(), r("names"));

    let definitions: Map<String, Value> = [
        ("text", json!({
            "description": "Text: any non-null YAML scalar (the loader reads it as written).",
            "type": ["string", "number", "boolean"]
        })),
        ("names", json!({ "type": "array", "items": r("text") })),
        ("count", json!({ "type": "integer", "minimum": 0 })),
        ("source", json!({
            "description": "Provenance: seed (the source document, the default), docs, live or one_peer (public-facts.md).",
            "enum": ["seed", "docs", "live", "one_peer"]
        })),
        ("type", json!({
            "description": "string | int | long | decimal | bool | json | an enum or record name | array<T>",
            "type": ["string", "number", "boolean"],
            "examples": ["string", "int", "long", "decimal", "bool", "json", "array<string>"]
        })),
        ("api", object("The API as a whole.", &["title", "source_document", "success_code"], json!({
            "title": r("text"),
            "source_document": r("text"),
            "content_type": r("text"),
            "method": r("text"),
            "success_code": r("text"),
            "version": { "$ref": "#/definitions/text", "description": "the API's version (free text)" },
            "client_version": { "$ref": "#/definitions/text", "description": "the generated crate's semver version" }
        }))),
        ("envelope", object("The signed message envelope.", &["request", "response"], json!({
            "request": list_of("field"),
            "response": list_of("field")
        }))),
        ("resultCode", object("A result code: its variant of the generated ResultCode enum.", &["code", "name", "text"], json!({
            "code": r("text"),
            "name": r("text"),
            "text": r("text"),
            "source": r("source"),
            "retryable": { "type": "boolean", "description": "set only where a fact says a retry is allowed (default false)" }
        }))),
        ("notification", object("A notification the service sends.", &["type", "name"], json!({
            "type": { "$ref": "#/definitions/text", "description": "wire text, e.g. \"0028\"" },
            "name": r("text"),
            "doc": r("text"),
            "relates_to": { "$ref": "#/definitions/names", "description": "operation names" },
            "payload": r("payload"),
            "source": r("source")
        }))),
        ("payload", object("A notification's payload (only \"not shown\" is expressible).", &["unspecified"], json!({
            "unspecified": r("text")
        }))),
        ("decision", object("A recorded ambiguity of the source document and what the spec decided.", &["id", "about", "source_text", "decision", "reason"], json!({
            "id": r("text"),
            "about": r("text"),
            "source_text": r("text"),
            "decision": r("text"),
            "reason": r("text")
        }))),
        ("enum", object("A value set.", &["name", "wire_type", "values"], json!({
            "name": r("text"),
            "wire_type": { "enum": ["string", "integer"] },
            "doc": r("text"),
            "source": r("source"),
            "values": list_of("enumValue"),
            "decisions": r("names")
        }))),
        ("enumValue", object("A value of a value set.", &["wire", "name"], json!({
            "wire": r("text"),
            "name": r("text"),
            "doc": r("text"),
            "source": r("source"),
            "deprecated": { "$ref": "#/definitions/text", "description": "what to use instead" }
        }))),
        ("fieldSet", object("Fields written once and included by records.", &["name", "doc", "fields"], json!({
            "name": r("text"),
            "doc": r("text"),
            "fields": list_of("field"),
            "include": { "$ref": "#/definitions/names", "description": "never allowed on a field set (the checker says why)" }
        }))),
        ("record", object("A record (a JSON object type).", &["name", "fields"], json!({
            "name": r("text"),
            "doc": r("text"),
            "source": r("source"),
            "include": { "$ref": "#/definitions/names", "description": "field sets whose fields come first" },
            "fields": list_of("field"),
            "decisions": r("names")
        }))),
        ("field", object("A parameter, record field, response field or envelope field.", &["name", "type"], json!({
            "name": { "$ref": "#/definitions/text", "description": "wire name, exact" },
            "type": r("type"),
            "required": { "enum": [true, false, "conditional"], "description": "default false; conditional needs a constraint" },
            "doc": r("text"),
            "rules": list_of("rule"),
            "source": r("source"),
            "decisions": r("names"),
            "rust_name": r("text"),
            "wire": { "enum": ["string", "number"], "description": "decimals only: how the amount is written in JSON" },
            "deprecated": { "$ref": "#/definitions/text", "description": "what to use instead" }
        }))),
        ("range", object("Inclusive bounds as decimal text.", &[], json!({
            "min": r("text"),
            "max": r("text")
        }))),
        ("ruleBody", object("One rule key.", &[], Value::Object(rule_keys()))),
        ("rule", json!({
            "type": "object",
            "description": "One rule key (short form), or `rule:` with `source:` / `doc:` (long form).",
            "properties": Value::Object(rule),
            "minProperties": 1,
            "additionalProperties": false
        })),
        ("unspecifiedParams", object("Params the document does not show.", &["unspecified"], json!({
            "unspecified": r("text")
        }))),
        ("when", object("The condition of required_if: `field` + `equals`, or `sum` + `greater_than`.", &[], json!({
            "field": r("text"),
            "equals": r("text"),
            "sum": { "$ref": "#/definitions/text", "description": "array[].field" },
            "greater_than": r("text")
        }))),
        ("requiredIf", object("`field` must be present when `when` holds.", &["field", "when"], json!({
            "field": r("text"),
            "when": r("when")
        }))),
        ("serverSideConstraint", object("A rule across fields that only the service checks.", &["fields", "text"], json!({
            "fields": r("names"),
            "text": r("text")
        }))),
        ("constraintBody", object("One constraint key.", &[], Value::Object(constraint_keys()))),
        ("constraint", json!({
            "type": "object",
            "description": "One constraint key (short form), or `constraint:` with `source:` / `doc:` / `decisions:` (long form).",
            "properties": Value::Object(constraint),
            "minProperties": 1,
            "additionalProperties": false
        })),
        ("response", object("Exactly one of fields, record, unspecified, empty.", &[], json!({
            "fields": list_of("field"),
            "record": r("text"),
            "unspecified": r("text"),
            "empty": r("text"),
            "source": r("source")
        }))),
        ("paging", object("How the operation pages its results.", &["page", "size"], json!({
            "page": r("text"),
            "size": r("text"),
            "first_page": r("count"),
            "items": r("text"),
            "total": r("text")
        }))),
        ("finalStates", object("For a status query: the response field holding the state and its final values.", &["field", "values"], json!({
            "field": r("text"),
            "values": { "type": "array", "items": { "type": ["string", "integer"] } }
        }))),
        ("otpStep", object("The step of the OTP flow this operation is (exactly one key).", &[], json!({
            "send": r("otpSend"),
            "confirm": r("otpConfirm"),
            "group": r("otpGroup")
        }))),
        ("otpSend", object("Sends the OTP of an application.", &["business_id", "channel"], json!({
            "business_id": r("text"),
            "channel": r("text")
        }))),
        ("otpConfirm", object("Confirms an application with its OTP.", &["business_id", "code"], json!({
            "business_id": r("text"),
            "code": r("text")
        }))),
        ("otpGroup", object("Groups applications under one, confirmed with one OTP.", &["ids", "result"], json!({
            "ids": r("text"),
            "result": r("text")
        }))),
        ("operation", object("An operation: one POST path.", &["name", "path"], json!({
            "name": r("text"),
            "path": r("text"),
            "doc": r("text"),
            "source": r("source"),
            "moves_money": { "type": "boolean" },
            "otp": { "type": "boolean" },
            "params": {
                "description": "a list of fields (`[]` for none), or `{ unspecified: \"...\" }`",
                "oneOf": [list_of("field"), r("unspecifiedParams")]
            },
            "constraints": list_of("constraint"),
            "response": r("response"),
            "decisions": r("names"),
            "deprecated": { "$ref": "#/definitions/text", "description": "what to use instead" },
            "paging": r("paging"),
            "business_id": r("text"),
            "otp_step": r("otpStep"),
            "final_states": r("finalStates")
        }))),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_owned(), v))
    .collect();
    json!({
        "$schema": "http://json-schema.org/draft-07/schema#",
        "$id": "https://baas-sdk.invalid/spec.schema.json",
        "title": "baas-sdk spec file (spec/*.yaml)",
        "description": "Generated by baas-codegen (codegen/src/spec_schema.rs): do not edit. The format is spec/SCHEMA.md; `baas-codegen check` decides the rest.",
        "type": "object",
        "minProperties": 1,
        "properties": {
            "api": r("api"),
            "envelope": r("envelope"),
            "result_codes": list_of("resultCode"),
            "notifications": list_of("notification"),
            "decisions": list_of("decision"),
            "enums": list_of("enum"),
            "field_sets": list_of("fieldSet"),
            "records": list_of("record"),
            "group": { "$ref": "#/definitions/text", "description": "module name of the generated code (snake_case)" },
            "group_doc": r("text"),
            "operations": list_of("operation")
        },
        "dependencies": {
            "group": ["operations"],
            "operations": ["group"]
        },
        "additionalProperties": false,
        "definitions": definitions
    })
}

#[cfg(test)]
mod tests {
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
}
