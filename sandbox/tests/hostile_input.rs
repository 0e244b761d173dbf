//! Hostile bodies cost the sandbox time linear in their size before it knows whether
//! their signature holds: reading the JSON (up to its value cap), the sender, the
//! expansion limit, the keys and the signature check, through the server's own checks
//! (`Offline::answer`, the `answer` of `sandbox/src/server/request.rs` without a
//! socket).
//!
//! The shapes and the way they are timed are those of the runtime's verifiers, in
//! `runtime/tests/support/hostile_bodies.rs`, included here by path.

#[path = "../../runtime/tests/support/hostile_bodies.rs"]
mod hostile_bodies;

use std::sync::LazyLock;

use baas_sandbox::json::Json;
use baas_sandbox::{signing, Offline};
use hostile_bodies::{assert_no_failures, measure_all, shapes};

const KEY: &str = "sandbox-test-key-not-a-secret";

/// One seeded sandbox for every measurement (the bodies are unsigned: nothing in it
/// changes).
static SANDBOX: LazyLock<Offline> = LazyLock::new(Offline::new);

/// What the server does with a body before the signature is known to hold: the
/// answer to an unsigned body is decided there.
fn sandbox_verifier(body: &[u8]) {
    std::hint::black_box(SANDBOX.answer("/query/getAccountDetails", body));
}

fn envelope_with(params: &str) -> Vec<u8> {
    format!(
        r#"{{"requestId":"r1","sender":"sandbox-partner","locale":"en_KE","timestamp":1650533105687,"salt":"9f8e7d6c5b4a39281706f5e4","signature":"{}","params":{params}}}"#,
        "0".repeat(64)
    )
    .into_bytes()
}

#[test]
fn hostile_bodies_cost_linear_time_before_the_signature_check() {
    let shapes = shapes(signing::MAX_EXPANSION);
    let mut failures = Vec::new();
    // The shapes are read, and refused by the expansion limit or not, as meant.
    for shape in &shapes {
        let name = shape.name;
        let body = envelope_with(&(shape.params)(16 * 1024));
        let text = std::str::from_utf8(&body).unwrap_or_default();
        match Json::parse(text) {
            Ok(message) => {
                let within = signing::within_expansion_limit(&message, body.len());
                if within != shape.parses {
                    failures.push(format!("{name}: within the expansion limit: {within}"));
                }
                assert!(!signing::verify(&message, KEY), "{name}");
            }
            Err(e) => failures.push(format!("{name}: {e}")),
        }
    }
    measure_all(
        "sandbox",
        sandbox_verifier,
        envelope_with,
        &shapes,
        &mut failures,
    );
    assert_no_failures(&failures);
}
