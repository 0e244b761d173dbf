//! The `check` and `model` subcommands, run as a user would: exit codes, summary, JSON shape.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/bad_specs")
}

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_baas-codegen"))
        .args(args)
        .output()
        .expect("run baas-codegen")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

#[test]
fn check_prints_a_summary_and_exits_0() {
    let base = fixtures().join("_base");
    let out = run(&["check", "--spec", base.to_str().expect("utf-8 path")]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    for line in [
        "operations:    3 in 1 groups (1 move money; 1 with unspecified params, 1 with unspecified response)",
        "records:       2",
        "enums:         2 (4 values)",
        "rules:         8 (8 checked by the client, 0 server-side)",
        "constraints:   4",
        "decisions:     1",
        "warnings:      0",
    ] {
        assert!(stdout.contains(line), "missing `{line}` in:\n{stdout}");
    }
}

#[test]
fn check_on_a_bad_spec_exits_1_with_located_errors() {
    // A case folder alone lacks the base files: its own errors plus the missing api.
    let dir = fixtures().join("unknown_decision");
    let out = run(&["check", "--spec", dir.to_str().expect("utf-8 path")]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("unknown_decision/operations/decided.yaml:5:17: error: unknown decision `amount-as-strng`"),
        "{stderr}"
    );
    assert!(out.stdout.is_empty());
}

#[test]
fn usage_and_io_errors_exit_2() {
    assert_eq!(run(&["chek"]).status.code(), Some(2));
    // `check` (the spec) and `--check` (generated/ is fresh) are different questions:
    // together they are a usage error, not the last one winning.
    let both = run(&["check", "--check"]);
    assert_eq!(both.status.code(), Some(2));
    assert!(text(&both.stderr).contains("unexpected argument '--check'"));
    assert_eq!(run(&["--check", "model"]).status.code(), Some(2));
    assert_eq!(run(&["check", "--spec"]).status.code(), Some(2));
    assert_eq!(
        run(&["check", "--spec", "/nonexistent/spec"]).status.code(),
        Some(2)
    );
}

#[test]
fn model_prints_the_documented_json() {
    let base = fixtures().join("_base");
    let out = run(&["model", "--spec", base.to_str().expect("utf-8 path")]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let keys: Vec<&str> = v
        .as_object()
        .expect("object")
        .keys()
        .map(String::as_str)
        .collect();
    let mut want = vec![
        "title",
        "source_document",
        "success_code",
        "version",
        "client_version",
        "envelope",
        "result_codes",
        "groups",
        "records",
        "enums",
        "notifications",
        "decisions",
        "otp_flow",
    ];
    want.sort();
    let mut got = keys.clone();
    got.sort();
    assert_eq!(got, want);
    assert_eq!(v["version"], "");
    assert_eq!(v["client_version"], "0.1.0");
    let op = &v["groups"][0]["operations"][0];
    assert_eq!(op["path"], "/trans/applyForTransfer");
    assert_eq!(op["params"]["kind"], "fields");
    let amount = &op["params"]["fields"][1];
    assert_eq!(amount["wire_name"], "amount");
    assert_eq!(
        amount["ty"],
        serde_json::json!({"kind": "decimal", "wire": "string"})
    );
    assert_eq!(amount["required"], "required");
    assert_eq!(
        amount["rules"][2]["kind"],
        serde_json::json!({"rule": "range", "min": "0.01", "max": "99999999"})
    );
    assert_eq!(amount["rules"][2]["source"], "live");
    assert_eq!(
        op["constraints"][1]["kind"]["when"],
        serde_json::json!({
            "condition": "sum_greater_than",
            "array": {"wire_name": "oderArray", "rust_name": "oder_array", "optional": true, "empty": null},
            "item": {"wire_name": "amount", "rust_name": "amount", "optional": false, "empty": null},
            "value": "70000"
        })
    );
    assert_eq!(op["deprecated"], serde_json::Value::Null);
    assert_eq!(
        op["location"],
        serde_json::json!({"file": "_base/operations/transfers.yaml", "line": 4, "column": 5})
    );
}

#[test]
fn generating_another_spec_needs_an_explicit_out_folder() {
    let spec = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/gen/value_set");
    let spec = spec.to_str().expect("utf-8 path");
    // Without --out it would overwrite the workspace's generated/: refused, nothing written.
    let refused = run(&["--spec", spec]);
    assert_eq!(refused.status.code(), Some(2), "{}", text(&refused.stderr));
    assert!(text(&refused.stderr).contains("--out"));

    let out_dir = std::env::temp_dir().join(format!("baas-codegen-cli-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out_dir);
    let out = out_dir.to_str().expect("utf-8 path");
    let written = run(&["--spec", spec, "--out", out]);
    assert_eq!(written.status.code(), Some(0), "{}", text(&written.stderr));
    assert!(out_dir.join("src/lib.rs").is_file());
    assert!(out_dir.join("Cargo.toml").is_file());
    // The same spec and folder again: up to date, and --check agrees.
    let again = run(&["--spec", spec, "--out", out, "--check"]);
    assert_eq!(again.status.code(), Some(0), "{}", text(&again.stderr));
    assert!(text(&again.stdout).contains("is up to date"));
    let _ = std::fs::remove_dir_all(&out_dir);
}

// ---- the repository is where the command runs (issue 18) ----

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for entry in std::fs::read_dir(from).expect("read_dir") {
        let entry = entry.expect("entry");
        let target = to.join(entry.file_name());
        if entry.file_type().expect("type").is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).expect("copy");
        }
    }
}

fn git(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(["-c", "user.name=test", "-c", "user.email=test@example.com"])
        .args(args)
        .output()
        .expect("run git");
    assert!(out.status.success(), "git {args:?}: {}", text(&out.stderr));
    text(&out.stdout).trim().to_owned()
}

fn run_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_baas-codegen"))
        .current_dir(dir)
        .args(args)
        .output()
        .expect("run baas-codegen")
}

/// The binary built here, run in another clone, diffs and regenerates that clone: a
/// scratch repository with a copy of the spec and one commit that adds a decision.
#[test]
fn the_command_works_on_the_clone_it_runs_in() {
    let scratch = std::env::temp_dir().join(format!("baas-clone-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&scratch);
    let here = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    copy_dir(&here.join("spec"), &scratch.join("spec"));
    std::fs::write(scratch.join("Cargo.toml"), "[workspace]\nmembers = []\n").expect("write");
    git(&scratch, &["init", "-q"]);
    git(&scratch, &["add", "."]);
    git(&scratch, &["commit", "-q", "-m", "first"]);
    let first = git(&scratch, &["rev-parse", "HEAD"]);
    let decisions = scratch.join("spec/decisions.yaml");
    let mut text_now = std::fs::read_to_string(&decisions).expect("read");
    text_now.push_str(
        "\n  - id: scratch-only-decision\n    about: \"a test\"\n    source_text: \"none\"\n    decision: \"none\"\n    reason: \"a test of the command line\"\n",
    );
    std::fs::write(&decisions, text_now).expect("write");
    git(&scratch, &["commit", "-q", "-am", "second"]);
    let second = git(&scratch, &["rev-parse", "HEAD"]);
    assert_ne!(first, second);

    for (old, new) in [(first.as_str(), second.as_str()), ("HEAD~1", "HEAD")] {
        let out = run_in(&scratch.join("spec"), &["diff", old, new]);
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        assert!(
            text(&out.stdout).contains("scratch-only-decision"),
            "diff {old} {new} in the scratch clone:\n{}",
            text(&out.stdout)
        );
    }
    // Regeneration writes the scratch clone's generated/, and --check there agrees.
    let out = run_in(&scratch, &[]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let decisions_rs = std::fs::read_to_string(scratch.join("generated/src/decisions.rs"))
        .expect("the scratch clone's generated/ was written");
    assert!(decisions_rs.contains("scratch-only-decision"));
    let out = run_in(&scratch, &["--check"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    // --repo points elsewhere explicitly; a folder that is no repository is refused.
    let out = run(&["--repo", scratch.to_str().expect("utf-8"), "check"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let out = run(&[
        "--repo",
        scratch.join("spec").to_str().expect("utf-8"),
        "check",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("--repo"),
        "{}",
        text(&out.stderr)
    );
    std::fs::remove_dir_all(&scratch).expect("clean up");
}
