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

mod annotate;
mod constraints;
mod paths;
mod schemas;
mod signing;

use serde_json::{json, Map, Value};

use crate::artifact::{Content, EmittedFile};
use crate::model::{Api, Operation, Response};
use schemas::{enum_schema, object_schema, record_schema, Direction};
pub use signing::signing_extension;

/// Path of the document below the output root (`generated/`).
pub const OPENAPI_PATH: &str = "openapi/openapi.json";

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

/// The whole document.
pub fn document(api: &Api) -> Value {
    let mut schemas = components(api);
    let mut order: Vec<&str> = Vec::new();
    for op in api.operations() {
        operation_schemas(api, op, &mut schemas);
        if !order.contains(&op.path.as_str()) {
            order.push(&op.path);
        }
    }
    let mut paths = Map::new();
    for path in order {
        let ops: Vec<&Operation> = api.operations().filter(|o| o.path == path).collect();
        paths.insert(path.to_owned(), paths::path_item(api, &ops));
    }
    let mut webhooks = Map::new();
    for n in &api.notifications {
        webhooks.insert(
            format!("notification{}", n.notification_type),
            paths::notification_webhook(api, n),
        );
    }
    let tags: Vec<Value> = api
        .groups
        .iter()
        .map(|g| json!({ "name": g.name, "description": g.doc }))
        .collect();
    json!({
        "openapi": "3.1.0",
        "info": {
            "title": api.title,
            "version": "1",
            "description": description(api)
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
        "x-baas-otp-flow": otp_flow(api),
        "x-baas-decisions": decisions(api),
        "x-baas-success-code": api.success_code
    })
}

/// The component schemas that are not an operation's: value sets, records (each shape
/// it is used in) and the result codes.
fn components(api: &Api) -> Map<String, Value> {
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
    schemas
}

/// An operation's component schemas: `<Type>Params`, `<Type>Request`, `<Type>Response`
/// and, for inline response fields, `<Type>Data`.
fn operation_schemas(api: &Api, op: &Operation, schemas: &mut Map<String, Value>) {
    schemas.insert(
        format!("{}Params", op.type_name),
        paths::params_schema(api, op),
    );
    schemas.insert(
        format!("{}Request", op.type_name),
        paths::request_schema(api, op),
    );
    schemas.insert(
        format!("{}Response", op.type_name),
        paths::response_schema(api, op),
    );
    if let Response::Fields { fields, .. } = &op.response {
        let mut map = object_schema(api, fields, Direction::Received);
        map.insert(
            "description".into(),
            json!(format!("`data` of {}.", op.name)),
        );
        schemas.insert(format!("{}Data", op.type_name), Value::Object(map));
    }
}

/// `x-baas-decisions`: every recorded decision.
fn decisions(api: &Api) -> Vec<Value> {
    api.decisions
        .iter()
        .map(|d| {
            json!({
                "id": d.id, "about": d.about, "source_text": d.source_text,
                "decision": d.decision, "reason": d.reason
            })
        })
        .collect()
}

/// `x-baas-otp-flow`: the operations of the OTP flow and those that start one.
fn otp_flow(api: &Api) -> Option<Value> {
    api.otp_flow.as_ref().map(|f| {
        json!({
            "send": f.send.operation,
            "confirm": f.confirm.operation,
            "group": f.group.as_ref().map(|g| &g.operation),
            "business_id_of": api.operations()
                .filter_map(|o| o.business_id.as_ref().map(|_| o.name.clone()))
                .collect::<Vec<_>>()
        })
    })
}

/// The document's description: where it comes from, how calls and answers work.
fn description(api: &Api) -> String {
    format!(
        "Generated by `baas-codegen` from `spec/` (a rendering of `{}`): do not edit.\n\n\
         Every call is `POST <base URL><path>` with a JSON envelope signed as `x-baas-signing` says \
         (the signature is part of the body, so no security scheme applies). Every answer is HTTP 200: \
         `code` `{}` is success, any other code is a business error and carries no `data`. \
         A path that does not exist answers HTTP 500.\n\n\
         Requests are strict (unknown params are refused); responses may carry fields and values \
         not listed here, and clients ignore or keep them. Decimal amounts are JSON strings (or numbers, \
         where `type: number`) whose text is signed as written: never pass them through a float.",
        api.source_document, api.success_code
    )
}
