//! `baas sign` is `baas-sign` (the same output and exit codes for the same input), and
//! `--params -` reads the whole params from stdin, flags overriding its members.

mod common;

use std::io::Write;
use std::process::{Command, Stdio};

use baas_runtime::{sign, PrivateKey};
use baas_sandbox::{Sandbox, DEFAULT_KEY};

const KEY: &str = "cli-sign-test-key";
const ENVELOPE: &str = r#"{"requestId":"R1","sender":"s","locale":"en_KE","timestamp":1,"salt":"x","params":{"amount":"1.50"}}"#;

/// `baas ARGS` with `input` on stdin: (exit code, stdout, stderr).
fn with_stdin(args: &[&str], input: &str) -> (i32, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_baas"))
        .args(args)
        .env("BAAS_PRIVATE_KEY", KEY)
        .env("BAAS_CONFIG", "/nonexistent/baas-config.yaml")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn baas_sign_signs_attaches_and_verifies_as_baas_sign_does() {
    let key = PrivateKey::new(KEY);
    let expected = sign::sign(ENVELOPE.as_bytes(), &key).unwrap();
    let (code, out, _) = with_stdin(&["sign"], ENVELOPE);
    assert_eq!(code, 0);
    assert_eq!(out.lines().last(), Some(expected.as_str()), "{out}");
    assert!(
        out.contains("senderKey=[redacted]") && !out.contains(KEY),
        "{out}"
    );

    let (code, attached, _) = with_stdin(&["sign", "--attach"], ENVELOPE);
    assert_eq!(code, 0);
    sign::verify(attached.trim_end().as_bytes(), &key).expect("attached signature holds");
    let (code, ok, _) = with_stdin(&["sign", "--verify"], attached.trim_end());
    assert_eq!(
        (code, ok.trim()),
        (0, format!("signature OK: {expected}").as_str())
    );

    let tampered = attached.replace("1.50", "9.50");
    let (code, _, err) = with_stdin(&["sign", "--verify"], tampered.trim_end());
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("MISMATCH") && !err.contains(KEY), "{err}");
    // Usage errors are 2, as baas-sign's.
    assert_eq!(with_stdin(&["sign", "--verify", "--attach"], ENVELOPE).0, 2);
    assert_eq!(with_stdin(&["sign"], "not json").0, 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn params_from_stdin_with_a_flag_on_top() {
    let sandbox = Sandbox::start().await.unwrap();
    let url = sandbox.base_url();
    let params = r#"{"payerAccountId":"1000000001","payeeBankCode":"46","payeeAccountId":"1000000004","currency":"KES","amount":"5.00"}"#;
    let (code, out, err) = tokio::task::spawn_blocking(move || {
        let mut child = Command::new(env!("CARGO_BIN_EXE_baas"))
            .args([
                "transfers",
                "apply-for-transfer",
                "--params",
                "-",
                "--amount",
                "7.25",
                "--dry-run",
                "--format",
                "json",
            ])
            .env("BAAS_CONFIG", "/nonexistent/baas-config.yaml")
            .env("BAAS_SANDBOX_URL", url)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        child
            .stdin
            .take()
            .unwrap()
            .write_all(params.as_bytes())
            .unwrap();
        let out = child.wait_with_output().unwrap();
        (
            out.status.code().unwrap_or(-1),
            String::from_utf8(out.stdout).unwrap(),
            String::from_utf8(out.stderr).unwrap(),
        )
    })
    .await
    .unwrap();
    assert_eq!(code, 0, "{err}");
    let envelope: serde_json::Value = serde_json::from_str(out.trim_end()).unwrap();
    assert_eq!(envelope["params"]["amount"], "7.25", "the flag wins");
    assert_eq!(envelope["params"]["payeeAccountId"], "1000000004");
    sign::verify(out.trim_end().as_bytes(), &PrivateKey::new(DEFAULT_KEY)).unwrap();
    assert_eq!(sandbox.requests_seen(), 0);
}
