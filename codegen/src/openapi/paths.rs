//! Paths and webhooks: each operation's params, its signed request and response
//! envelopes, its `post` with its `x-baas-…` marks, and the notifications.

use serde_json::{json, Map, Value};

use super::annotate::{put_decisions, put_deprecated, put_doc, put_source, source_text};
use super::constraints::{constraint_extension, constraint_schema};
use super::schemas::{field_schema, object_schema, schema_ref, Direction};
use crate::model::{
    Api, BusinessId, Field, Notification, Operation, Params, Requirement, Response, Source,
};

pub(super) fn params_schema(api: &Api, op: &Operation) -> Value {
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

pub(super) fn request_schema(api: &Api, op: &Operation) -> Value {
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

pub(super) fn response_schema(api: &Api, op: &Operation) -> Value {
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
    match &op.business_id {
        Some(BusinessId::ResponseField { wire_name, .. }) => {
            map.insert(
                "x-baas-business-id".into(),
                json!({ "response_field": wire_name }),
            );
        }
        Some(BusinessId::RequestId) => {
            map.insert("x-baas-business-id".into(), json!({ "request_id": true }));
        }
        None => {}
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
pub(super) fn path_item(api: &Api, ops: &[&Operation]) -> Value {
    let response_desc = format!(
        "HTTP 200 for every answer, success or business error: `code` says which (`{}` is success). Signed with the partner's key (x-baas-signing).",
        api.success_code
    );
    let mut post = Map::new();
    let (body_schema, response) = if let [op] = ops {
        one_operation(op, &mut post)
    } else {
        shared_path(ops, &mut post)
    };
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

/// The `post` of a path with one operation: its id, tags, doc and extensions; returns
/// the schemas of its request and response envelopes.
fn one_operation(op: &Operation, post: &mut Map<String, Value>) -> (Value, Value) {
    post.insert("operationId".into(), json!(op.name));
    post.insert("summary".into(), json!(op.name));
    post.insert("tags".into(), json!([op.group]));
    put_doc(post, &operation_doc(op));
    if op.deprecated.is_some() {
        post.insert("deprecated".into(), json!(true));
    }
    operation_extensions(op, post);
    (
        schema_ref(&format!("{}Request", op.type_name)),
        schema_ref(&format!("{}Response", op.type_name)),
    )
}

/// The `post` of a path that operations share: a joined id, each operation's doc and
/// extensions in `x-baas-operations`, the union of their marks; returns `oneOf` the
/// requests and `anyOf` the responses.
fn shared_path(ops: &[&Operation], post: &mut Map<String, Value>) -> (Value, Value) {
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
    put_decisions(post, &decisions);
    (
        json!({
            "oneOf": ops.iter().map(|o| schema_ref(&format!("{}Request", o.type_name))).collect::<Vec<_>>()
        }),
        json!({
            "anyOf": ops.iter().map(|o| schema_ref(&format!("{}Response", o.type_name))).collect::<Vec<_>>()
        }),
    )
}

pub(super) fn notification_webhook(api: &Api, n: &Notification) -> Value {
    let mut properties = envelope_properties(api, &api.envelope.request, "params");
    // The service sends notifications: their `sender` is the service's sender name (as in
    // its answers), not the partner's one of the request envelope.
    if let Some(sender) = api
        .envelope
        .response
        .iter()
        .find(|f| f.wire_name == "sender")
    {
        let answers = envelope_properties(api, std::slice::from_ref(sender), "params");
        properties.extend(answers);
    }
    properties.insert(
        "notificationType".into(),
        json!({ "type": "string", "const": n.notification_type }),
    );
    let params = match &n.payload {
        Some(p) => schema_ref(&p.received_name),
        None => json!({ "description": n.payload_note, "x-baas-unspecified": n.payload_note }),
    };
    properties.insert("params".into(), params);
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn operation_ids_of_a_shared_path() {
        assert_eq!(
            lower_camel_join(&["txReversal", "fetchTransactionFee"]),
            "txReversalOrFetchTransactionFee"
        );
    }
}
