//! The bodies of the fuzz targets (`fuzz/fuzz_targets/*.rs`), shared with the stable
//! replay of their corpora (`tests/tests/fuzz_corpus_replay.rs`): whatever the bytes,
//! each must return without panicking.

use baas_runtime::canonical::Flattened;
use baas_runtime::envelope::{open_response, verify_request, Expect};
use baas_runtime::{notification, sign, PrivateKey, RawJson};

/// The key every target signs and verifies with.
pub const KEY: &str = "fuzz-key";

/// The canonical flattener: parse, and when it parses, build the canonical string.
pub fn canonical_flatten(data: &[u8]) {
    if let Ok(flat) = Flattened::parse(data) {
        let _ = flat.pairs().count();
        let _ = flat.signature_hex(&PrivateKey::new(KEY));
    }
}

/// The signer and verifier: verifying arbitrary bytes answers without panicking, and a
/// body that `sign_and_attach` accepts verifies afterwards.
pub fn sign_verify(data: &[u8]) {
    let key = PrivateKey::new(KEY);
    let _ = sign::verify(data, &key);
    let _ = sign::sign(data, &key);
    if let Ok(signed) = sign::sign_and_attach(data.to_vec(), &key) {
        assert!(
            sign::verify(&signed, &key).is_ok(),
            "a body signed and attached must verify"
        );
    }
}

/// Response opening: the envelope, its signature and the requestId echo.
pub fn open_response_body(data: &[u8]) {
    let key = PrivateKey::new(KEY);
    let _ = open_response::<RawJson>(
        Some(200),
        data,
        &key,
        Expect {
            request_id: "fuzz-request",
            accept_unsigned_success: false,
        },
    );
    let _ = verify_request(data, &key);
}

/// Notification verification.
pub fn notification_verify(data: &[u8]) {
    let _ = notification::verify(data, &PrivateKey::new(KEY));
}

/// The spec loader and checker (and, when a spec checks, the emitter).
pub fn spec_check(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(checked) =
        baas_codegen::check_sources("spec", &[("spec/a.yaml".to_owned(), text.to_owned())])
    {
        assert!(
            baas_codegen::emit::generate_crate(&checked.api).is_ok(),
            "a checked spec generates"
        );
    }
}

/// The sandbox's request path, bytes in, answer out: the first byte picks the path among
/// the operations' paths, the rest is the body.
pub fn sandbox_request(sandbox: &baas_sandbox::Offline, data: &[u8]) {
    let paths = baas_client::dispatch::OPERATIONS;
    let Some((first, body)) = data.split_first() else {
        return;
    };
    let path = paths
        .get(usize::from(*first) % paths.len())
        .map_or("/", |o| o.path);
    let answer = sandbox.answer(path, body);
    assert!(!answer.is_empty(), "every request is answered");
}
