//! The fuzz targets' corpora (`fuzz/corpus/<target>/`: minimized seeds and the
//! reproducers of what the fuzzer found), replayed on stable Rust through the same
//! bodies as the targets (`baas_tests::fuzz_bodies`). Every file must pass the body's
//! properties without a panic; a failure names the files.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use baas_tests::fuzz_bodies::{self, SandboxAnswer};

type Body = fn(&[u8]);

const TARGETS: &[(&str, Body)] = &[
    ("canonical_flatten", fuzz_bodies::canonical_flatten),
    ("sign_verify", fuzz_bodies::sign_verify),
    ("open_response", fuzz_bodies::open_response_body),
    ("notification_verify", fuzz_bodies::notification_verify),
    ("spec_check", fuzz_bodies::spec_check),
    ("sandbox_request", fuzz_bodies::sandbox_request),
];

/// A corpus keeps only minimized seeds and reproducers, so its replay stays fast.
const MAX_FILES: usize = 40;
const MAX_BYTES: u64 = 64 * 1024;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz")
}

fn corpus(target: &str) -> Vec<(PathBuf, Vec<u8>)> {
    let dir = root().join("corpus").join(target);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("a corpus entry").path())
        .collect();
    files.sort();
    assert!(
        !files.is_empty(),
        "{target}: an empty corpus replays nothing"
    );
    files
        .into_iter()
        .map(|p| {
            let data = std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
            (p, data)
        })
        .collect()
}

fn replay(target: &str) {
    let (_, body) = TARGETS
        .iter()
        .find(|(t, _)| *t == target)
        .expect("a target");
    let files = corpus(target);
    let mut failures = Vec::new();
    for (path, data) in &files {
        if std::panic::catch_unwind(|| body(data)).is_err() {
            failures.push(path.display().to_string());
        }
    }
    assert!(
        failures.is_empty(),
        "{target}: {} of {} corpus files fail (messages above):\n{}",
        failures.len(),
        files.len(),
        failures.join("\n")
    );
}

#[test]
fn canonical_flatten() {
    replay("canonical_flatten");
}

#[test]
fn sign_verify() {
    replay("sign_verify");
}

#[test]
fn open_response() {
    replay("open_response");
}

#[test]
fn notification_verify() {
    replay("notification_verify");
}

#[test]
fn spec_check() {
    replay("spec_check");
}

#[test]
fn sandbox_request() {
    replay("sandbox_request");
}

/// Every corpus folder has its test above, no test names a folder that is gone, and
/// each corpus stays small.
#[test]
fn every_corpus_is_replayed_and_small() {
    let dir = root().join("corpus");
    let on_disk: BTreeSet<String> = std::fs::read_dir(&dir)
        .expect("fuzz/corpus")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    let named: BTreeSet<String> = TARGETS.iter().map(|(t, _)| (*t).to_owned()).collect();
    assert_eq!(on_disk, named);
    for target in &named {
        let files = corpus(target);
        let bytes: u64 = files.iter().map(|(_, d)| d.len() as u64).sum();
        assert!(
            files.len() <= MAX_FILES && bytes <= MAX_BYTES,
            "{target}: {} files, {bytes} bytes; keep seeds and reproducers only",
            files.len()
        );
    }
}

/// Each fuzz target is a thin `fuzz_target!` over the body of the same name, and the
/// fuzz crate declares exactly these targets.
#[test]
fn every_target_is_declared() {
    let manifest = std::fs::read_to_string(root().join("Cargo.toml")).expect("fuzz/Cargo.toml");
    for (target, _) in TARGETS {
        assert!(
            manifest.contains(&format!("name = \"{target}\"")),
            "{target} is not a bin of fuzz/Cargo.toml"
        );
        let source = root().join("fuzz_targets").join(format!("{target}.rs"));
        let text = std::fs::read_to_string(&source)
            .unwrap_or_else(|e| panic!("{}: {e}", source.display()));
        assert!(text.contains("fuzz_bodies::"), "{}", source.display());
    }
}

/// The spec files `spec_check` mutates are the spec's files, all of them.
#[test]
fn the_spec_check_target_uses_the_whole_spec() {
    fn walk(dir: &Path, out: &mut BTreeSet<String>) {
        for entry in std::fs::read_dir(dir).expect("spec/") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "yaml") {
                let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
                let rel = path.strip_prefix(&root).expect("below the root");
                out.insert(rel.to_string_lossy().replace('\\', "/"));
            }
        }
    }
    let mut on_disk = BTreeSet::new();
    walk(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("../spec"),
        &mut on_disk,
    );
    let listed: BTreeSet<String> = fuzz_bodies::SPEC
        .iter()
        .map(|(n, _)| (*n).to_owned())
        .collect();
    assert_eq!(listed, on_disk);
    // And they check as they are: a mutation starts from a valid spec.
    let files: Vec<(String, String)> = fuzz_bodies::SPEC
        .iter()
        .map(|(n, t)| ((*n).to_owned(), (*t).to_owned()))
        .collect();
    assert!(baas_codegen::check_sources("spec", &files).is_ok());
}

/// The sandbox corpus reaches past the envelope: among its answers are a success, the
/// envelope's refusals (parameter, sender, signature), the unknown path and at least
/// one business error of an operation. A corpus that only reached the first checks
/// would fuzz little of the sandbox.
#[test]
fn the_sandbox_corpus_reaches_the_operations() {
    let answers: Vec<SandboxAnswer> = corpus("sandbox_request")
        .iter()
        .filter_map(|(_, data)| fuzz_bodies::sandbox_answer(data))
        .collect();
    let codes: BTreeSet<&str> = answers.iter().map(|a| a.code.as_str()).collect();
    for expected in ["00000", "12001", "12003", "12005", "10000"] {
        assert!(codes.contains(expected), "{expected} not among {codes:?}");
    }
    assert!(
        codes
            .iter()
            .any(|c| ["11", "13", "14", "15"].iter().any(|p| c.starts_with(p))),
        "no business error among {codes:?}"
    );
    let succeeded: BTreeSet<&str> = answers
        .iter()
        .filter(|a| a.code == "00000")
        .map(|a| a.path.as_str())
        .collect();
    assert!(
        succeeded.len() >= 5,
        "successes on only {succeeded:?}: seed more operations"
    );
}
