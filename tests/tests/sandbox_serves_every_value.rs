//! The sandbox serves every value of every value set where the spec puts it: no listed
//! value of an enum-typed parameter (or of an enum field of a record sent in a request)
//! is refused as "not one of" the served values. The pairs (operation, field, value set)
//! come from the checked model, so a new value set or value is covered without editing
//! this test; the params are the generator's own valid examples (the Postman examples)
//! with the sandbox's seeded ids laid over them.

use std::path::Path;
use std::time::Duration;

use baas_codegen::model::{Api, EnumWireType, Params, TypeRef};
use baas_runtime::transport::{HttpRequest, Transport};
use baas_runtime::HttpsTransport;
use baas_sandbox::Sandbox;
use serde_json::{json, Value};

/// Seeded values laid over the examples, by wire name (see sandbox/src/seed.rs), so the
/// value checks are reached rather than a "not found" first.
const SEED: &[(&str, &str)] = &[
    ("accountId", "1000000001"),
    ("payerAccountId", "1000000001"),
    ("sourceAccount", "2000000003"),
    ("targetAccount", "2000000001"),
    ("userId", "U1001"),
    ("payeeBankCode", "46"),
    ("payeeAccountId", "1000000004"),
];

/// Values refused by design, with the reason: none today. A line here must say why the
/// service would refuse the value too.
const NOT_SERVED: &[(&str, &str, &str, &str)] = &[];

fn wire_value(kind: EnumWireType, wire: &str) -> Value {
    match kind {
        EnumWireType::String => json!(wire),
        EnumWireType::Integer => json!(wire.parse::<i64>().expect("integer wire value")),
    }
}

async fn call(sandbox: &Sandbox, path: &str, params: &Value) -> Value {
    let signed = baas_runtime::envelope::sign_request(
        params,
        sandbox.sender(),
        "en_KE",
        &sandbox.private_key(),
    )
    .expect("signed");
    let transport = HttpsTransport::new(Duration::from_secs(5)).expect("transport");
    let answer = transport
        .post_json(HttpRequest::new(
            format!("{}{path}", sandbox.base_url()),
            signed.body,
            Duration::from_secs(10),
            1 << 24,
        ))
        .await
        .expect("the sandbox answers");
    serde_json::from_slice(&answer.body).unwrap_or(Value::Null)
}

/// Every (operation, where in params, value set) of the model.
fn enum_places(api: &Api) -> Vec<(String, String, Vec<String>, String)> {
    let mut out = Vec::new();
    for op in api.operations() {
        let Params::Fields { fields } = &op.params else {
            continue;
        };
        for f in fields {
            match &f.ty {
                TypeRef::Enum { name } => out.push((
                    op.name.clone(),
                    op.path.clone(),
                    vec![f.wire_name.clone()],
                    name.clone(),
                )),
                TypeRef::Array { item } => match item.as_ref() {
                    TypeRef::Enum { name } => out.push((
                        op.name.clone(),
                        op.path.clone(),
                        vec![f.wire_name.clone(), "[]".into()],
                        name.clone(),
                    )),
                    TypeRef::Record { name: rec, .. } => {
                        for rf in api
                            .record(rec)
                            .map(|r| r.fields.as_slice())
                            .unwrap_or_default()
                        {
                            if let TypeRef::Enum { name } = &rf.ty {
                                out.push((
                                    op.name.clone(),
                                    op.path.clone(),
                                    vec![f.wire_name.clone(), "[]".into(), rf.wire_name.clone()],
                                    name.clone(),
                                ));
                            }
                        }
                    }
                    _ => {}
                },
                _ => {}
            }
        }
    }
    out
}

fn set(params: &mut Value, place: &[String], value: Value) {
    match place {
        [field] => params[field.as_str()] = value,
        [field, arr] if arr == "[]" => params[field.as_str()] = json!([value]),
        [field, arr, inner] if arr == "[]" => {
            let items = params[field.as_str()].as_array_mut();
            match items.and_then(|a| a.first_mut()) {
                Some(first) => first[inner.as_str()] = value,
                None => params[field.as_str()] = json!([{ inner.as_str(): value }]),
            }
        }
        _ => unreachable!("places are one or two levels deep"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_listed_value_is_served_where_the_spec_puts_it() {
    let api = baas_codegen::check_spec(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../spec"))
        .expect("the spec checks")
        .api;
    let sandbox = Sandbox::start().await.expect("sandbox");
    let places = enum_places(&api);
    assert!(places.len() >= 10, "value sets in requests: {places:?}");
    let mut refused = Vec::new();
    let mut tried = 0;
    for (op_name, path, place, set_name) in &places {
        let op = api
            .operations()
            .find(|o| &o.name == op_name)
            .expect("operation");
        let def = api.enum_def(set_name).expect("value set");
        let field = place.last().expect("a field");
        for value in &def.values {
            let mut params = baas_codegen::plan::examples::example_params(&api, op);
            for (name, seed) in SEED {
                if params.get(*name).is_some() {
                    params[*name] = json!(seed);
                }
            }
            set(&mut params, place, wire_value(def.wire_type, &value.wire));
            let answer = call(&sandbox, path, &params).await;
            tried += 1;
            let msg = answer["msg"].as_str().unwrap_or_default();
            let not_served = answer["code"] == "12001"
                && msg.contains(&format!("{field}:"))
                && msg.contains("is not one of");
            let allowed = NOT_SERVED
                .iter()
                .any(|(o, f, v, _)| o == op_name && f == field && *v == value.wire);
            if not_served && !allowed {
                refused.push(format!("{op_name} {field} = {}: {msg}", value.wire));
            }
        }
    }
    assert!(
        refused.is_empty(),
        "listed values the sandbox refuses:\n{}",
        refused.join("\n")
    );

    // The control: a value no set lists is refused as "not one of" where the sandbox
    // reads the field, so the check above can see a refusal at all.
    let mut controls = 0;
    for (op_name, path, place, set_name) in &places {
        let op = api
            .operations()
            .find(|o| &o.name == op_name)
            .expect("operation");
        let def = api.enum_def(set_name).expect("value set");
        let unlisted = match def.wire_type {
            EnumWireType::String => json!("NOT_A_LISTED_VALUE"),
            EnumWireType::Integer => json!(987),
        };
        let mut params = baas_codegen::plan::examples::example_params(&api, op);
        for (name, seed) in SEED {
            if params.get(*name).is_some() {
                params[*name] = json!(seed);
            }
        }
        set(&mut params, place, unlisted);
        let answer = call(&sandbox, path, &params).await;
        let msg = answer["msg"].as_str().unwrap_or_default();
        if answer["code"] == "12001" && msg.contains("is not one of") {
            controls += 1;
        }
    }
    // Every listed value of every place was tried once.
    let listed: usize = places
        .iter()
        .map(|(_, _, _, set)| api.enum_def(set).map_or(0, |d| d.values.len()))
        .sum();
    assert_eq!(tried, listed, "{tried} calls for {listed} listed values");
    // Where the control shows no refusal, another check of the sandbox answers first
    // (an unknown bank, an account's currency, a missing application) or the sandbox
    // takes any value there: a refusal of a listed value would be invisible. On
    // 2026-11-25, 9 of 27 places show it; fewer means the test lost sight of some.
    assert!(
        controls >= 9,
        "only {controls} of {} places refuse an unlisted value",
        places.len()
    );
}
