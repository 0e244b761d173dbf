//! OpenAPI 3.1 of the whole API, generated from the checked [`Api`] only (no lookups
//! in the spec files): `generated/openapi/openapi.json`.
//!
//! What JSON Schema can say is said with its keywords: types, `required`, value sets as
//! `enum`, lengths, integer bounds, item counts, decimals sent as strings with a
//! `pattern`, Base64 with `contentEncoding`, and the operation's constraints as
//! `if`/`then`, `anyOf` and `oneOf`. What it cannot say is an `x-baas-…` extension: the
//! signing algorithm (`x-baas-signing`), money movement, OTP, paging, server-side rules,
//! decimal bounds on string amounts, provenance and the recorded decisions.
//!
//! Sent shapes (request params and records used in requests) are strict, as the
//! sandbox decodes them: required fields are `required`, unknown fields are refused
//! (`additionalProperties: false`). Received shapes (response data) list every field
//! as optional and allow unknown ones, as the generated client reads them.
//!
//! Two operations on one path (the reversal request and the fee call on
//! `/trans/txReversal`) are one path item whose request body is `oneOf` the two
//! requests, each named in `x-baas-operations`: the path is the wire's, not invented.
//!
//! Output is deterministic: object keys are sorted (serde_json's map), lists keep the
//! model's order.

use serde_json::{json, Map, Value};

use crate::emit::{Content, EmittedFile};
use crate::model::{
    Api, Condition, Constraint, ConstraintKind, DecimalWire, EnumDef, EnumWireType, Field,
    Operation, ParamRef, Params, Record, Requirement, Response, RuleKind, Source, TypeRef,
};
use crate::rules::{DecimalSyntax, SchemaOut};

/// Path of the document below the output root (`generated/`).
pub const OPENAPI_PATH: &str = "openapi/openapi.json";

/// The signing algorithm in words and as data (`x-baas-signing`), shared with the
/// Postman collection.
pub fn signing_extension() -> Value {
    json!({
        "algorithm": "SHA-256 (plain, not HMAC) of the canonical string, written as lowercase hex into `signature`",
        "canonical_string": [
            "Take the message object as sent (or received) without its top-level `signature` member.",
            "Flatten it to `path=value` pairs: object members as `parent.key` (a top-level member is just `key`), array elements as `path[i]` (i from 0, in decimal), an empty object as `path={}`, an empty array as `path=[]`; null values are skipped (never send one).",
            "Values: a string as its unescaped text (UTF-8), a number as its literal text in the JSON bytes (`100.50` stays `100.50`), a boolean as `true` or `false`.",
            "Add the pair `senderKey=<private key>`.",
            "Sort the complete pair strings by their UTF-8 bytes (not by key: `amount2=…` sorts before `amount=…`, `[10]` before `[1]`).",
            "Join them with `&`."
        ],
        "flatten": {
            "object_member": "parent.key",
            "array_element": "path[i]",
            "empty_object": "path={}",
            "empty_array": "path=[]",
            "null": "skipped",
            "string": "unescaped text",
            "number": "literal text as in the JSON bytes",
            "boolean": "true | false"
        },
        "sort": "complete `path=value` strings, by bytes",
        "join": "&",
        "key_pair": "senderKey",
        "hash": "sha256",
        "encoding": "lowercase hex",
        "timestamp": "epoch milliseconds, a JSON integer",
        "locale": "signed exactly as sent (en_KE), never lower-cased",
        "request": "sign the envelope (requestId, sender, locale, timestamp, salt, params) and send it with `signature`; senderKey is never sent",
        "response": "verify: remove `signature`, add senderKey (the partner's own key), flatten, sort, join, hash and compare; numbers are taken as their literal text in the received bytes",
        "notifications": "signed like a request, with the partner's key; answer the plain body `ok`",
        "example": {
            "message": {
                "requestId": "APPREQ00990320fed02000",
                "sender": "client1",
                "locale": "en_KE",
                "timestamp": 1_650_533_105_687_i64,
                "salt": "QcEwsZ123da",
                "params": { "name": "Tester" }
            },
            "key": "yourkey",
            "canonical_string": "locale=en_KE&params.name=Tester&requestId=APPREQ00990320fed02000&salt=QcEwsZ123da&sender=client1&senderKey=yourkey&timestamp=1650533105687",
            "signature": "ce4f419f667b7d5621892337c23905b894472e6b186f06a0e237528b011ab2f2"
        }
    })
}

/// The generated files: the OpenAPI document.
pub fn files(api: &Api) -> Vec<EmittedFile> {
    vec![EmittedFile {
        path: OPENAPI_PATH.to_owned(),
        content: Content::Text(to_text(&document(api))),
    }]
}

/// Pretty JSON with a final newline.
pub(crate) fn to_text(value: &Value) -> String {
    let mut text = serde_json::to_string_pretty(value).unwrap_or_default();
    text.push('\n');
    text
}

/// Which way a shape travels.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Direction {
    /// Sent by the partner: strict, validated.
    Sent,
    /// Received by the partner: every field optional, unknown fields allowed.
    Received,
}

fn schema_ref(name: &str) -> Value {
    json!({ "$ref": format!("#/components/schemas/{name}") })
}

fn source_text(source: Source) -> &'static str {
    match source {
        Source::Seed => "seed",
        Source::Docs => "docs",
        Source::Live => "live",
        Source::OnePeer => "one_peer",
    }
}

/// Adds `x-baas-source` unless the fact is the source document's own.
fn put_source(map: &mut Map<String, Value>, source: Source) {
    if source != Source::Seed {
        map.insert("x-baas-source".into(), json!(source_text(source)));
    }
}

fn put_decisions(map: &mut Map<String, Value>, decisions: &[String]) {
    if !decisions.is_empty() {
        map.insert("x-baas-decisions".into(), json!(decisions));
    }
}

fn put_deprecated(map: &mut Map<String, Value>, note: Option<&String>) {
    if let Some(note) = note {
        map.insert("deprecated".into(), json!(true));
        map.insert("x-baas-deprecated".into(), json!(note));
    }
}

fn put_doc(map: &mut Map<String, Value>, doc: &str) {
    if !doc.is_empty() {
        map.insert("description".into(), json!(doc));
    }
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

/// The schema of one value of type `ty` (not an array), with the rules that apply to
/// each value.
fn value_schema(
    api: &Api,
    ty: &TypeRef,
    rules: &[&RuleKind],
    dir: Direction,
) -> Map<String, Value> {
    let mut map = Map::new();
    let mut patterns: Vec<String> = Vec::new();
    let server_side: Vec<String> = Vec::new();
    let sent = dir == Direction::Sent;
    match ty {
        TypeRef::String => {
            map.insert("type".into(), json!("string"));
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
        TypeRef::Json => {
            map.insert(
                "x-baas-json".into(),
                json!("any JSON; its shape is not shown"),
            );
        }
        TypeRef::Enum { name } if sent => {
            map.insert("$ref".into(), json!(format!("#/components/schemas/{name}")));
        }
        // A received value set is open: a value the spec does not list is kept
        // (`Unknown`), so the schema names the set and accepts any value of its type.
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
        TypeRef::Array { item } => return value_schema(api, item, rules, dir),
    }
    let mut out = SchemaOut {
        map,
        patterns,
        server_side,
    };
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
fn field_schema(api: &Api, field: &Field, dir: Direction) -> Value {
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
fn object_schema(api: &Api, fields: &[Field], dir: Direction) -> Map<String, Value> {
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

fn enum_schema(e: &EnumDef) -> Value {
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

fn record_schema(api: &Api, r: &Record, dir: Direction) -> Value {
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

fn param_type<'a>(op: &'a Operation, wire_name: &str) -> Option<&'a TypeRef> {
    match &op.params {
        Params::Fields { fields } => fields
            .iter()
            .find(|f| f.wire_name == wire_name)
            .map(|f| &f.ty),
        Params::Unspecified { .. } => None,
    }
}

/// "Present": set, and for a string non-empty.
fn present(p: &ParamRef) -> Value {
    if p.text {
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
fn constraint_schema(api: &Api, op: &Operation, c: &Constraint) -> Option<Value> {
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
fn constraint_extension(c: &Constraint) -> Value {
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

fn params_schema(api: &Api, op: &Operation) -> Value {
    match &op.params {
        Params::Fields { fields } => {
            let mut map = object_schema(api, fields, Direction::Sent);
            let all: Vec<Value> = op
                .constraints
                .iter()
                .filter_map(|c| constraint_schema(api, op, c))
                .collect();
            if !all.is_empty() {
                map.insert("allOf".into(), Value::Array(all));
            }
            if !op.constraints.is_empty() {
                map.insert(
                    "x-baas-constraints".into(),
                    Value::Array(op.constraints.iter().map(constraint_extension).collect()),
                );
            }
            map.insert(
                "description".into(),
                json!(format!("`params` of {}.", op.name)),
            );
            Value::Object(map)
        }
        Params::Unspecified { note } => json!({
            "type": "object",
            "description": format!("`params` of {}: not shown. {note}", op.name),
            "x-baas-unspecified": note
        }),
    }
}

/// The envelope fields of one direction, but `params` / `data`.
fn envelope_properties(api: &Api, fields: &[Field], skip: &str) -> Map<String, Value> {
    let mut properties = Map::new();
    for f in fields.iter().filter(|f| f.wire_name != skip) {
        let mut schema = field_schema(api, f, Direction::Received);
        if let Value::Object(m) = &mut schema {
            match f.wire_name.as_str() {
                "signature" => {
                    m.insert("pattern".into(), json!("^[0-9a-f]{64}$"));
                }
                "locale" => {
                    m.insert("pattern".into(), json!("^[a-z]{2,3}_[A-Z]{2}$"));
                }
                "timestamp" => {
                    m.insert("x-baas-unit".into(), json!("epoch milliseconds"));
                }
                _ => {}
            }
        }
        properties.insert(f.wire_name.clone(), schema);
    }
    properties
}

fn request_schema(api: &Api, op: &Operation) -> Value {
    let mut properties = envelope_properties(api, &api.envelope.request, "params");
    properties.insert(
        "params".into(),
        schema_ref(&format!("{}Params", op.type_name)),
    );
    let required: Vec<&str> = api
        .envelope
        .request
        .iter()
        .filter(|f| f.required == Requirement::Required)
        .map(|f| f.wire_name.as_str())
        .collect();
    json!({
        "type": "object",
        "description": format!("The signed request envelope of {}, `params` inside.", op.name),
        "properties": properties,
        "required": required,
        "additionalProperties": false,
        "x-baas-signed": true
    })
}

fn response_schema(api: &Api, op: &Operation) -> Value {
    let mut properties = envelope_properties(api, &api.envelope.response, "data");
    let data = match &op.response {
        Response::Fields { .. } => Some(schema_ref(&format!("{}Data", op.type_name))),
        Response::Record { received_name, .. } => Some(schema_ref(received_name)),
        Response::Unspecified { note } => Some(json!({
            "description": format!("`data` of {}: not shown. {note}", op.name),
            "x-baas-unspecified": note
        })),
        Response::Empty { .. } => None,
    };
    let mut description = format!(
        "The signed response envelope of {}: `data` only when `code` is `{}`.",
        op.name, api.success_code
    );
    match (&op.response, data) {
        (Response::Empty { note }, _) => {
            description.push_str(" No `data`: ");
            description.push_str(note);
        }
        (_, Some(data)) => {
            properties.insert("data".into(), data);
        }
        (_, None) => {}
    }
    json!({
        "type": "object",
        "description": description,
        "properties": properties,
        "required": ["code", "msg"],
        "x-baas-signed": true
    })
}

fn response_source(op: &Operation) -> Option<Source> {
    match &op.response {
        Response::Fields { source, .. } | Response::Record { source, .. } => Some(*source),
        _ => None,
    }
}

/// `x-baas-…` of one operation.
fn operation_extensions(op: &Operation, map: &mut Map<String, Value>) {
    map.insert("x-baas-operation".into(), json!(op.name));
    map.insert("x-baas-moves-money".into(), json!(op.moves_money));
    map.insert("x-baas-otp".into(), json!(op.otp));
    if let Some(id) = &op.business_id {
        map.insert("x-baas-business-id".into(), json!(id));
    }
    if let Some(paging) = &op.paging {
        map.insert(
            "x-baas-paging".into(),
            json!({
                "page": paging.page.wire_name,
                "size": paging.size.wire_name,
                "first_page": paging.first_page,
                "items": paging.items.as_ref().map(|i| &i.wire_name),
                "total": paging.total.as_ref().map(|t| &t.wire_name),
            }),
        );
    }
    if let Params::Unspecified { note } = &op.params {
        map.insert("x-baas-params-unspecified".into(), json!(note));
    }
    match &op.response {
        Response::Unspecified { note } => {
            map.insert("x-baas-response-unspecified".into(), json!(note));
        }
        Response::Empty { note } => {
            map.insert("x-baas-response-empty".into(), json!(note));
        }
        _ => {}
    }
    if let Some(source) = response_source(op).filter(|s| *s != Source::Seed) {
        map.insert("x-baas-response-source".into(), json!(source_text(source)));
    }
    put_source(map, op.source);
    put_decisions(map, &op.decisions);
}

fn operation_doc(op: &Operation) -> String {
    let mut doc = op.doc.clone();
    if let Some(note) = &op.deprecated {
        if !doc.is_empty() {
            doc.push(' ');
        }
        doc.push_str(&format!("Deprecated: {note}"));
    }
    doc
}

fn lower_camel_join(names: &[&str]) -> String {
    let mut out = String::new();
    for (i, n) in names.iter().enumerate() {
        if i == 0 {
            out.push_str(n);
        } else {
            out.push_str("Or");
            let mut chars = n.chars();
            if let Some(c) = chars.next() {
                out.extend(c.to_uppercase());
                out.push_str(chars.as_str());
            }
        }
    }
    out
}

/// The `post` of a path: one operation, or the operations sharing it.
fn path_item(api: &Api, ops: &[&Operation]) -> Value {
    let response_desc = format!(
        "HTTP 200 for every answer, success or business error: `code` says which (`{}` is success). Signed with the partner's key (x-baas-signing).",
        api.success_code
    );
    let mut post = Map::new();
    let body_schema;
    let response;
    if let [op] = ops {
        post.insert("operationId".into(), json!(op.name));
        post.insert("summary".into(), json!(op.name));
        post.insert("tags".into(), json!([op.group]));
        put_doc(&mut post, &operation_doc(op));
        if op.deprecated.is_some() {
            post.insert("deprecated".into(), json!(true));
        }
        operation_extensions(op, &mut post);
        body_schema = schema_ref(&format!("{}Request", op.type_name));
        response = schema_ref(&format!("{}Response", op.type_name));
    } else {
        let names: Vec<&str> = ops.iter().map(|o| o.name.as_str()).collect();
        post.insert("operationId".into(), json!(lower_camel_join(&names)));
        post.insert("summary".into(), json!(names.join(" or ")));
        let mut tags: Vec<&str> = ops.iter().map(|o| o.group.as_str()).collect();
        tags.dedup();
        post.insert("tags".into(), json!(tags));
        let mut doc = format!(
            "{} operations share this path; the params tell them apart (exactly one request shape matches).",
            ops.len()
        );
        for op in ops {
            doc.push_str(&format!("\n\n**{}**: {}", op.name, operation_doc(op)));
        }
        post.insert("description".into(), json!(doc));
        if ops.iter().all(|o| o.deprecated.is_some()) {
            post.insert("deprecated".into(), json!(true));
        }
        let each: Vec<Value> = ops
            .iter()
            .map(|op| {
                let mut m = Map::new();
                m.insert(
                    "request".into(),
                    schema_ref(&format!("{}Request", op.type_name)),
                );
                m.insert(
                    "response".into(),
                    schema_ref(&format!("{}Response", op.type_name)),
                );
                put_deprecated(&mut m, op.deprecated.as_ref());
                operation_extensions(op, &mut m);
                Value::Object(m)
            })
            .collect();
        post.insert("x-baas-operations".into(), Value::Array(each));
        post.insert(
            "x-baas-moves-money".into(),
            json!(ops.iter().any(|o| o.moves_money)),
        );
        post.insert("x-baas-otp".into(), json!(ops.iter().any(|o| o.otp)));
        let mut decisions: Vec<String> = Vec::new();
        for op in ops {
            for d in &op.decisions {
                if !decisions.contains(d) {
                    decisions.push(d.clone());
                }
            }
        }
        put_decisions(&mut post, &decisions);
        body_schema = json!({
            "oneOf": ops.iter().map(|o| schema_ref(&format!("{}Request", o.type_name))).collect::<Vec<_>>()
        });
        response = json!({
            "anyOf": ops.iter().map(|o| schema_ref(&format!("{}Response", o.type_name))).collect::<Vec<_>>()
        });
    }
    post.insert(
        "requestBody".into(),
        json!({
            "required": true,
            "content": { "application/json": { "schema": body_schema } }
        }),
    );
    post.insert(
        "responses".into(),
        json!({
            "200": {
                "description": response_desc,
                "content": { "application/json": { "schema": response } }
            }
        }),
    );
    json!({ "post": post })
}

fn notification_webhook(api: &Api, n: &crate::model::Notification) -> Value {
    let mut properties = envelope_properties(api, &api.envelope.request, "params");
    properties.insert(
        "notificationType".into(),
        json!({ "type": "string", "const": n.notification_type }),
    );
    properties.insert(
        "params".into(),
        json!({ "description": n.payload_note, "x-baas-unspecified": n.payload_note }),
    );
    let mut post = Map::new();
    post.insert(
        "operationId".into(),
        json!(format!("notification{}", n.name)),
    );
    post.insert(
        "summary".into(),
        json!(format!("Notification {} ({})", n.notification_type, n.name)),
    );
    let mut doc = n.doc.clone();
    doc.push_str(" Delivered up to 5 times until the answer's body is `ok`: process each (requestId, notificationType) once.");
    post.insert("description".into(), json!(doc));
    post.insert("x-baas-relates-to".into(), json!(n.relates_to));
    put_source(&mut post, n.source);
    post.insert(
        "requestBody".into(),
        json!({
            "required": true,
            "content": { "application/json": { "schema": {
                "type": "object",
                "properties": properties,
                "required": ["requestId", "sender", "notificationType", "timestamp", "salt", "signature", "params"],
                "x-baas-signed": true
            } } }
        }),
    );
    post.insert(
        "responses".into(),
        json!({
            "200": {
                "description": "Acknowledged: the body is `ok`.",
                "content": { "text/plain": { "schema": { "type": "string", "const": "ok" } } }
            }
        }),
    );
    json!({ "post": post })
}

/// The whole document.
pub fn document(api: &Api) -> Value {
    let mut schemas = Map::new();
    for e in &api.enums {
        schemas.insert(e.name.clone(), enum_schema(e));
    }
    for r in &api.records {
        if r.used_in_request || !r.used_in_response {
            schemas.insert(r.name.clone(), record_schema(api, r, Direction::Sent));
        }
        if r.used_in_response {
            schemas.insert(
                r.received_name.clone(),
                record_schema(api, r, Direction::Received),
            );
        }
    }
    if !api.result_codes.is_empty() {
        schemas.insert(
            "ResultCode".into(),
            json!({
                "type": "string",
                "description": "Result codes known to the spec (`code` of a response). The list is open: other codes are answered too.",
                "enum": api.result_codes.iter().map(|c| &c.code).collect::<Vec<_>>(),
                "x-enum-varnames": api.result_codes.iter().map(|c| &c.name).collect::<Vec<_>>(),
                "x-enum-descriptions": api.result_codes.iter().map(|c| &c.text).collect::<Vec<_>>(),
                "x-baas-retryable": api.result_codes.iter().filter(|c| c.retryable).map(|c| &c.code).collect::<Vec<_>>(),
                "x-baas-open": "a response may carry a code not listed here"
            }),
        );
    }
    let mut paths = Map::new();
    let mut order: Vec<&str> = Vec::new();
    for op in api.operations() {
        schemas.insert(format!("{}Params", op.type_name), params_schema(api, op));
        schemas.insert(format!("{}Request", op.type_name), request_schema(api, op));
        schemas.insert(
            format!("{}Response", op.type_name),
            response_schema(api, op),
        );
        if let Response::Fields { fields, .. } = &op.response {
            let mut map = object_schema(api, fields, Direction::Received);
            map.insert(
                "description".into(),
                json!(format!("`data` of {}.", op.name)),
            );
            schemas.insert(format!("{}Data", op.type_name), Value::Object(map));
        }
        if !order.contains(&op.path.as_str()) {
            order.push(&op.path);
        }
    }
    for path in order {
        let ops: Vec<&Operation> = api.operations().filter(|o| o.path == path).collect();
        paths.insert(path.to_owned(), path_item(api, &ops));
    }
    let mut webhooks = Map::new();
    for n in &api.notifications {
        webhooks.insert(
            format!("notification{}", n.notification_type),
            notification_webhook(api, n),
        );
    }
    let tags: Vec<Value> = api
        .groups
        .iter()
        .map(|g| json!({ "name": g.name, "description": g.doc }))
        .collect();
    let decisions: Vec<Value> = api
        .decisions
        .iter()
        .map(|d| {
            json!({
                "id": d.id, "about": d.about, "source_text": d.source_text,
                "decision": d.decision, "reason": d.reason
            })
        })
        .collect();
    let otp_flow = api.otp_flow.as_ref().map(|f| {
        json!({
            "send": f.send.operation,
            "confirm": f.confirm.operation,
            "group": f.group.as_ref().map(|g| &g.operation),
            "business_id_of": api.operations()
                .filter_map(|o| o.business_id.as_ref().map(|_| o.name.clone()))
                .collect::<Vec<_>>()
        })
    });
    let description = format!(
        "Generated by `baas-codegen` from `spec/` (a rendering of `{}`): do not edit.\n\n\
         Every call is `POST <base URL><path>` with a JSON envelope signed as `x-baas-signing` says \
         (the signature is part of the body, so no security scheme applies). Every answer is HTTP 200: \
         `code` `{}` is success, any other code is a business error and carries no `data`. \
         A path that does not exist answers HTTP 500.\n\n\
         Requests are strict (unknown params are refused); responses may carry fields and values \
         not listed here, and clients ignore or keep them. Decimal amounts are JSON strings (or numbers, \
         where `type: number`) whose text is signed as written: never pass them through a float.",
        api.source_document, api.success_code
    );
    json!({
        "openapi": "3.1.0",
        "info": {
            "title": api.title,
            "version": "1",
            "description": description
        },
        "servers": [
            {
                "url": "http://127.0.0.1:{port}",
                "description": "baas-sandbox (cargo run -p baas-sandbox --bin baas-sandbox -- --port 8080)",
                "variables": { "port": { "default": "8080" } }
            }
        ],
        "tags": tags,
        "paths": paths,
        "webhooks": webhooks,
        "components": { "schemas": schemas },
        "x-baas-signing": signing_extension(),
        "x-baas-otp-flow": otp_flow,
        "x-baas-decisions": decisions,
        "x-baas-success-code": api.success_code
    })
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

    #[test]
    fn operation_ids_of_a_shared_path() {
        assert_eq!(
            lower_camel_join(&["txReversal", "fetchTransactionFee"]),
            "txReversalOrFetchTransactionFee"
        );
    }
}
