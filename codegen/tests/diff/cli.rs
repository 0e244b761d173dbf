//! `baas-codegen diff` and `--gate` as the command line runs them: exit codes, messages,
//! git revisions.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use baas_codegen::check_sources;

use super::{base, OPTIONAL_TO_REQUIRED};

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_baas-codegen"))
        .args(args)
        .output()
        .expect("run baas-codegen")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// A copy of the base spec in a temporary folder, with edits.
fn spec_dir(tag: &str, edits: &[(&str, &str, &str)]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("baas-diff-{}-{tag}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    for (name, mut text) in base() {
        for (file, from, to) in edits {
            if name.ends_with(&format!("{file}.yaml")) {
                text = text.replacen(from, to, 1);
            }
        }
        let path = dir.join(name.trim_start_matches("spec/"));
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(path, text).expect("write");
    }
    dir
}

#[test]
fn cli_gate_fails_on_a_breaking_change_without_a_major_bump() {
    let old = spec_dir("gate-old", &[]);
    let new = spec_dir("gate-new", &[OPTIONAL_TO_REQUIRED]);
    let log = old.join("CHANGELOG.md");
    std::fs::write(&log, "# Changelog\n\n## 0.1.0\n").expect("write");
    let args = |extra: &[&str]| {
        let mut a = vec![
            "diff".to_owned(),
            old.display().to_string(),
            new.display().to_string(),
            "--changelog".to_owned(),
            log.display().to_string(),
        ];
        a.extend(extra.iter().map(|s| s.to_string()));
        a
    };
    let refs = |a: &[String]| run(&a.iter().map(String::as_str).collect::<Vec<_>>());
    let out = refs(&args(&["--gate"]));
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("gate: the changes need a major bump but client_version 0.1.0 → 0.1.0 is unchanged: set `api.client_version` in spec/api.yaml to 0.2.0"), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("**BREAKING (Rust, wire)**"));

    // Bumped: the draft can be written, then the gate passes.
    std::fs::write(
        new.join("api.yaml"),
        std::fs::read_to_string(new.join("api.yaml"))
            .expect("read")
            .replacen(
                "  success_code: \"00000\"\n",
                "  success_code: \"00000\"\n  client_version: \"0.2.0\"\n",
                1,
            ),
    )
    .expect("write");
    let out = refs(&args(&["--write-changelog"]));
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let written = std::fs::read_to_string(&log).expect("read");
    assert!(
        written.starts_with("# Changelog\n\n## 0.2.0\n\nSpec changes since 0.1.0: **major** bump"),
        "{written}"
    );
    assert!(written.ends_with("\n## 0.1.0\n"), "{written}");
    let again = refs(&args(&["--write-changelog"]));
    assert_eq!(
        again.status.code(),
        Some(1),
        "an entry is never overwritten"
    );
    let out = refs(&args(&["--gate", "--format", "json"]));
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(v["bump"], "major");
    let _ = std::fs::remove_dir_all(&old);
    let _ = std::fs::remove_dir_all(&new);
}

#[test]
fn cli_reads_a_git_revision_and_refuses_unknown_sides() {
    // HEAD's spec against the working tree's: whatever the difference, it loads.
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let in_git = std::process::Command::new("git")
        .arg("-C")
        .arg(&root)
        .args(["cat-file", "-e", "HEAD:spec/api.yaml"])
        .status()
        .is_ok_and(|s| s.success());
    if in_git {
        let spec = root.join("spec");
        let out = run(&[
            "diff",
            "HEAD",
            spec.to_str().expect("utf-8"),
            "--format",
            "json",
        ]);
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        let same = run(&["diff", "HEAD:spec", "HEAD"]);
        assert_eq!(same.status.code(), Some(0), "{}", text(&same.stderr));
        assert!(text(&same.stdout).contains("No change to the API."));
    } else {
        eprintln!("not a git checkout with spec/ at HEAD: git sides not tried");
    }
    let out = run(&["diff", "no-such-rev-or-folder", "spec"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("is neither a spec folder nor a git revision"));
    let out = run(&["diff", "HEAD"]);
    assert_eq!(out.status.code(), Some(2), "NEW is required");
}

#[test]
fn client_version_must_be_three_numbers() {
    let mut files = base();
    files[0].1 = files[0].1.replacen(
        "  success_code: \"00000\"\n",
        "  success_code: \"00000\"\n  client_version: \"1.4\"\n",
        1,
    );
    let err = check_sources("spec", &files)
        .expect_err("refused")
        .to_string();
    assert!(
        err.contains("spec/api.yaml:7:19: error: client_version `1.4` is not MAJOR.MINOR.PATCH"),
        "{err}"
    );
}
