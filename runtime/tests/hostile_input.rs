//! Hostile bodies cost time linear in their size at every entry point that parses a body
//! before its signature can be checked: `sign::verify`, `notification::verify`,
//! `envelope::open_response` and `envelope::verify_request`.
//!
//! Anyone who can POST to a partner's notification URL chooses those bytes, and the body
//! is parsed and flattened before the signature says whether it came from the service.
//! The shapes and the way they are timed are in `support/hostile_bodies.rs`, shared with
//! the sandbox's test.

#[path = "support/hostile_bodies.rs"]
mod hostile_bodies;

use baas_runtime::canonical::{Flattened, MAX_EXPANSION};
use baas_runtime::envelope::{self, Expect};
use baas_runtime::serde::de::IgnoredAny;
use baas_runtime::{notification, sign, PrivateKey};
use hostile_bodies::{assert_no_failures, measure_all, shapes, EntryPoint};

const KEY: &str = "partner-secret-key";

fn key() -> PrivateKey {
    PrivateKey::new(KEY)
}

fn via_sign_verify(body: &[u8]) {
    std::hint::black_box(sign::verify(body, &key()).is_ok());
}

fn via_notification_verify(body: &[u8]) {
    std::hint::black_box(notification::verify(body, &key()).is_ok());
}

fn via_open_response(body: &[u8]) {
    let expect = Expect {
        request_id: "r1",
        accept_unsigned_success: false,
    };
    let opened = envelope::open_response::<IgnoredAny>(Some(200), body, &key(), expect);
    std::hint::black_box(opened.is_ok());
}

fn via_verify_request(body: &[u8]) {
    std::hint::black_box(envelope::verify_request(body, &key()).is_ok());
}

const ENTRY_POINTS: &[(&str, EntryPoint)] = &[
    ("sign::verify", via_sign_verify),
    ("notification::verify", via_notification_verify),
    ("envelope::open_response", via_open_response),
    ("envelope::verify_request", via_verify_request),
];

/// A complete envelope (the fields every entry point reads, a wrong signature so that
/// the canonical string is computed and compared) around `params`.
fn envelope_with(params: &str) -> Vec<u8> {
    format!(
        r#"{{"requestId":"r1","sender":"client1","locale":"en_KE","timestamp":1650533105687,"salt":"9f8e7d6c5b4a39281706f5e4","notificationType":"0028","code":"00000","msg":"ok","signature":"{}","params":{params}}}"#,
        "0".repeat(64)
    )
    .into_bytes()
}

#[test]
fn hostile_bodies_cost_linear_time_before_the_signature_check() {
    let shapes = shapes(MAX_EXPANSION);
    let mut failures = Vec::new();
    // The shapes are what they claim to be.
    for shape in &shapes {
        let body = envelope_with(&(shape.params)(16 * 1024));
        let parsed = Flattened::parse(&body);
        if parsed.is_ok() != shape.parses {
            let outcome = parsed.map(|f| format!("{} pairs", f.len()));
            failures.push(format!("{}: parsed to {outcome:?}", shape.name));
        }
        assert!(sign::verify(&body, &key()).is_err(), "{}", shape.name);
    }
    for &(entry_name, entry) in ENTRY_POINTS {
        if !measure_all(entry_name, entry, envelope_with, &shapes, &mut failures) {
            break;
        }
    }
    assert_no_failures(&failures);
}
