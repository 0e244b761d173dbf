//! The fuzz targets' corpora (`fuzz/corpus/<target>/`), replayed on stable Rust: every
//! input that the fuzzer kept (seeds and findings) goes through the same body as its
//! target (`baas_tests::fuzz_bodies`), which must return without panicking.

use std::path::{Path, PathBuf};

use baas_tests::fuzz_bodies;

fn corpus(target: &str) -> Vec<(PathBuf, Vec<u8>)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../fuzz/corpus")
        .join(target);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("entry").path())
        .collect();
    files.sort();
    assert!(
        !files.is_empty(),
        "{target}: an empty corpus replays nothing"
    );
    files
        .into_iter()
        .map(|p| {
            let data = std::fs::read(&p).expect("corpus file");
            (p, data)
        })
        .collect()
}

#[test]
fn canonical_flatten() {
    for (_, data) in corpus("canonical_flatten") {
        fuzz_bodies::canonical_flatten(&data);
    }
}

#[test]
fn sign_verify() {
    for (_, data) in corpus("sign_verify") {
        fuzz_bodies::sign_verify(&data);
    }
}

#[test]
fn open_response() {
    for (_, data) in corpus("open_response") {
        fuzz_bodies::open_response_body(&data);
    }
}

#[test]
fn notification_verify() {
    for (_, data) in corpus("notification_verify") {
        fuzz_bodies::notification_verify(&data);
    }
}

#[test]
fn spec_check() {
    for (_, data) in corpus("spec_check") {
        fuzz_bodies::spec_check(&data);
    }
}

#[test]
fn sandbox_request() {
    let sandbox = baas_sandbox::Offline::new();
    for (_, data) in corpus("sandbox_request") {
        fuzz_bodies::sandbox_request(&sandbox, &data);
    }
}

/// The seeds are what they claim: the signed ones verify with the targets' key, and the
/// sandbox verifies the signed account read (it then answers about its old timestamp,
/// which it checks only after the signature).
#[test]
fn signed_seeds_verify() {
    let key = baas_runtime::PrivateKey::new(fuzz_bodies::KEY);
    let signed = std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz/corpus/open_response/seed-00"),
    )
    .expect("seed");
    assert!(baas_runtime::sign::verify(&signed, &key).is_ok());
    let sandbox = baas_sandbox::Offline::new();
    let seed = std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz/corpus/sandbox_request/seed-00"),
    )
    .expect("seed");
    let (first, body) = seed.split_first().expect("a path byte");
    let path = baas_client::dispatch::OPERATIONS
        [usize::from(*first) % baas_client::dispatch::OPERATIONS.len()]
    .path;
    let answer = String::from_utf8(sandbox.answer(path, body)).expect("utf-8");
    assert!(
        answer.contains(r#""code":"12001""#) && answer.contains("timestamp"),
        "{answer}"
    );
}
