//! The artifacts for other tools (issue 12) against our own code: every example body of
//! the Postman collection passes the generated decoders and validators (as the sandbox
//! runs them), and the OpenAPI document states every operation on its wire path.

use std::path::Path;

fn api() -> baas_codegen::model::Api {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    match baas_codegen::check_spec(&workspace.join("spec")) {
        Ok(checked) => checked.api,
        Err(diagnostics) => panic!("spec/ does not check:\n{diagnostics}"),
    }
}

#[test]
fn every_postman_example_passes_our_validation() {
    let api = api();
    let mut required_seen = 0;
    for op in api.operations() {
        let params = baas_codegen::plan::examples::example_params_text(&api, op);
        let request = match baas_client::dispatch::decode(&op.name, &params) {
            Ok(request) => request,
            Err(e) => panic!("{}: the example {params} is refused: {e:?}", op.name),
        };
        // Decoded as this operation's request, not one that happens to accept the same
        // members.
        assert_eq!(request.operation(), op.name, "{params}");
        // The example gives every required parameter (a partner copies it as a start).
        let members: serde_json::Value = serde_json::from_str(&params).expect("JSON params");
        if let baas_codegen::model::Params::Fields { fields } = &op.params {
            for f in fields.iter().filter(|f| !f.optional_when_sent()) {
                assert!(
                    members.get(&f.wire_name).is_some(),
                    "{}: the example lacks the required {}: {params}",
                    op.name,
                    f.wire_name
                );
                required_seen += 1;
            }
        }
    }
    // Not vacuous: the spec's operations have required parameters to look for.
    assert!(
        required_seen > 50,
        "{required_seen} required parameters seen"
    );
}

#[test]
fn openapi_has_every_operation_on_its_wire_path() {
    let api = api();
    let doc = baas_codegen::openapi::document(&api);
    for op in api.operations() {
        let post = &doc["paths"][&op.path]["post"];
        assert!(post.is_object(), "{} has no POST {}", op.name, op.path);
        let named = post["x-baas-operation"] == op.name.as_str()
            || post["x-baas-operations"].as_array().is_some_and(|ops| {
                ops.iter()
                    .any(|o| o["x-baas-operation"] == op.name.as_str())
            });
        assert!(named, "POST {} does not name {}", op.path, op.name);
        assert!(post["x-baas-moves-money"].as_bool().is_some());
    }
    assert_eq!(doc["openapi"], "3.1.0");
}

/// Issue 34: a notification is sent by the service, so its `sender` is the service's sender
/// name (the sandbox's `baas-sandbox`), never "the partner's sender name": a partner who
/// read the webhooks gave their own name to the verifier, which then refused every delivery.
#[test]
fn every_webhook_says_its_sender_is_the_services() {
    let api = api();
    let doc = baas_codegen::openapi::document(&api);
    let webhooks = doc["webhooks"].as_object().expect("webhooks");
    assert!(webhooks.len() >= 20, "{} webhooks", webhooks.len());
    for (name, hook) in webhooks {
        let sender = &hook["post"]["requestBody"]["content"]["application/json"]["schema"]
            ["properties"]["sender"];
        let said = sender["description"].as_str().unwrap_or_default();
        assert!(
            said.contains("service's sender") && !said.contains("partner"),
            "webhook {name}: sender is described as {said:?}"
        );
    }
}
