//! Every operation of the model has its command, and its `--help` documents it: the
//! operation's name and path, and a flag for each parameter. Counted against the Rust
//! client's own table of operations (emitted from the model by another emitter).

use std::process::Command;

/// `getAccountDetails` → `get-account-details`.
fn kebab(name: &str) -> String {
    let mut out = String::new();
    let chars: Vec<char> = name.chars().collect();
    for (i, c) in chars.iter().enumerate() {
        let prev_lower = i > 0 && (chars[i - 1].is_lowercase() || chars[i - 1].is_ascii_digit());
        let next_lower = chars.get(i + 1).is_some_and(|n| n.is_lowercase());
        let prev_upper = i > 0 && chars[i - 1].is_uppercase();
        if c.is_uppercase() && (prev_lower || (prev_upper && next_lower)) {
            out.push('-');
        }
        out.extend(c.to_lowercase());
    }
    out
}

fn help(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_baas"))
        .args(args)
        .arg("--help")
        .env("BAAS_CONFIG", "/nonexistent/baas-config.yaml")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn every_operation_has_a_documented_command() {
    let operations = baas_client::dispatch::OPERATIONS;
    assert!(
        operations.len() >= 40,
        "the model has {} operations",
        operations.len()
    );
    let top = help(&[]);
    let mut counted = 0;
    let mut groups: Vec<&str> = operations.iter().map(|o| o.group).collect();
    groups.dedup();
    for group in &groups {
        assert!(
            top.lines()
                .any(|l| l.split_whitespace().next() == Some(group)),
            "{group} in baas --help:\n{top}"
        );
        let listed = help(&[group]);
        counted += operations
            .iter()
            .filter(|o| o.group == *group)
            .filter(|o| {
                listed
                    .lines()
                    .any(|l| l.split_whitespace().next() == Some(&kebab(o.name)))
            })
            .count();
    }
    assert_eq!(
        counted,
        operations.len(),
        "every operation listed in its group's help"
    );
    for op in operations {
        let command = kebab(op.name);
        let text = help(&[op.group, &command]);
        assert!(
            text.contains(&format!("`{}`: `POST {}`", op.name, op.path)),
            "{}: {text}",
            op.name
        );
        assert!(text.contains("Exit codes:"), "{}", op.name);
        assert!(text.contains("--dry-run"), "{}", op.name);
    }
}

#[test]
fn a_command_has_a_flag_per_parameter_with_its_rules() {
    let text = help(&["transfers", "apply-for-transfer"]);
    for flag in [
        "--payer-account-id",
        "--payee-bank-code",
        "--amount",
        "--currency",
        "--otp",
    ] {
        assert!(text.contains(flag), "{flag}: {text}");
    }
    assert!(text.contains("[required] `amount`"), "{text}");
    let list = help(&["transfers", "get-trans-list"]);
    assert!(list.contains("--all"), "{list}");
    assert!(list.contains("Rules: at most 50."), "{list}");
    let status = help(&["transfers", "get-trans-result"]);
    assert!(status.contains("--wait"), "{status}");
}

#[test]
fn completions_and_man_pages_name_every_operation() {
    let run = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_baas"))
            .args(args)
            .env("BAAS_CONFIG", "/nonexistent/baas-config.yaml")
            .output()
            .unwrap();
        assert!(out.status.success(), "{args:?}");
        String::from_utf8(out.stdout).unwrap()
    };
    let bash = run(&["completions", "bash"]);
    for op in baas_client::dispatch::OPERATIONS {
        assert!(
            bash.contains(&kebab(op.name)),
            "{} in the bash completions",
            op.name
        );
    }
    assert!(bash.contains("--payer-account-id"));
    let man = run(&["man"]);
    assert!(
        man.starts_with(".ie") || man.contains(".TH baas"),
        "{}",
        &man[..200]
    );
    let dir = std::env::temp_dir().join(format!("baas-man-{}", std::process::id()));
    run(&["man", "--out", dir.to_str().unwrap()]);
    let pages = std::fs::read_dir(&dir).unwrap().count();
    assert!(
        pages > baas_client::dispatch::OPERATIONS.len(),
        "a page per command: {pages}"
    );
    assert!(dir.join("baas-transfers-apply-for-transfer.1").exists());
    let _ = std::fs::remove_dir_all(dir);
}
