//! The `baas-sign` binary: canonical string with the key redacted, signature last,
//! `--verify` exit codes.

use std::io::Write;
use std::process::{Command, Stdio};

const EXAMPLE: &str = r#"{"requestId":"APPREQ00990320fed02000","sender":"client1","locale":"en_KE","timestamp":1650533105687,"salt":"QcEwsZ123da","params":{"name":"Tester"}}"#;
const SIGNATURE: &str = "ce4f419f667b7d5621892337c23905b894472e6b186f06a0e237528b011ab2f2";

fn run(args: &[&str], key: Option<&str>, stdin: &str) -> (i32, String, String) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_baas-sign"));
    cmd.args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    cmd.env_remove("BAAS_PRIVATE_KEY");
    if let Some(k) = key {
        cmd.env("BAAS_PRIVATE_KEY", k);
    }
    let mut child = cmd.spawn().unwrap();
    // The binary may exit (usage error, no key) before reading its input: a closed pipe
    // is then expected, and the exit code tells what happened.
    match child.stdin.take().unwrap().write_all(stdin.as_bytes()) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {}
        other => other.unwrap(),
    }
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn prints_redacted_canonical_string_and_signature_last() {
    let (code, out, _) = run(&[], Some("yourkey"), EXAMPLE);
    assert_eq!(code, 0);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines,
        [
            "locale=en_KE&params.name=Tester&requestId=APPREQ00990320fed02000&salt=QcEwsZ123da&sender=client1&senderKey=[redacted]&timestamp=1650533105687",
            SIGNATURE
        ]
    );
    assert!(!out.contains("yourkey"));
}

#[test]
fn early_exit_before_reading_stdin_is_reported_not_a_harness_panic() {
    // baas-sign exits on a usage error or a missing key without reading stdin; an input
    // larger than the pipe buffer then meets a closed pipe. The exit code must be what
    // is checked, not the harness's write.
    let big = format!(r#"{{"pad":"{}"}}"#, "x".repeat(1 << 20));
    let (code, _, err) = run(&[], None, &big);
    assert_eq!(code, 2);
    assert!(err.contains("BAAS_PRIVATE_KEY"), "{err}");
    let (code, _, _) = run(&["--bogus"], Some("k"), &big);
    assert_eq!(code, 2);
}

#[test]
fn a_pasted_sender_key_is_never_printed() {
    // Partners chasing a 12005 often paste the object they hashed, senderKey included.
    let pasted = EXAMPLE.replace("{\"requestId\"", "{\"senderKey\":\"yourkey\",\"requestId\"");
    for args in [&[][..], &["--verify"][..]] {
        let (_, out, err) = run(args, Some("yourkey"), &pasted);
        assert!(!out.contains("yourkey"), "{args:?} stdout: {out}");
        assert!(!err.contains("yourkey"), "{args:?} stderr: {err}");
        assert!(err.contains("`senderKey`"), "{args:?} no warning: {err}");
    }
    // The key pasted as any other value is not printed either.
    let nested = EXAMPLE.replace("\"Tester\"", "\"yourkey\"");
    let (code, out, _) = run(&[], Some("yourkey"), &nested);
    assert_eq!(code, 0);
    assert!(!out.contains("yourkey"), "{out}");
    assert!(out.contains("params.name=[redacted]"), "{out}");
}

#[test]
fn verify_exit_codes() {
    let signed = EXAMPLE.replace(
        "{\"requestId\"",
        &format!("{{\"signature\":\"{SIGNATURE}\",\"requestId\""),
    );
    let (code, out, _) = run(&["--verify"], Some("yourkey"), &signed);
    assert_eq!(code, 0, "{out}");
    let (code, _, err) = run(&["--verify"], Some("otherkey"), &signed);
    assert_eq!(code, 1);
    assert!(
        err.contains("MISMATCH") && err.contains("expected: "),
        "{err}"
    );
    assert!(!err.contains("otherkey"));
    let (code, _, err) = run(&["--verify"], Some("yourkey"), EXAMPLE);
    assert_eq!(code, 1);
    assert!(err.contains("MISSING") && err.contains(SIGNATURE), "{err}");
    let (code, _, _) = run(&["--verify"], Some("yourkey"), "<html>");
    assert_eq!(code, 2);
    let (code, _, err) = run(&[], None, EXAMPLE);
    assert_eq!(code, 2);
    assert!(err.contains("BAAS_PRIVATE_KEY"));
    let (code, _, _) = run(&["--bogus"], Some("k"), EXAMPLE);
    assert_eq!(code, 2);
}

#[test]
fn attach_prints_the_body_to_send_which_then_verifies() {
    let (code, out, err) = run(&["--attach"], Some("yourkey"), EXAMPLE);
    assert_eq!(code, 0, "{err}");
    let body = out.trim_end();
    assert!(
        body.ends_with(&format!(r#","signature":"{SIGNATURE}"}}"#)),
        "{body}"
    );
    assert!(
        body.starts_with(&EXAMPLE[..EXAMPLE.len() - 1]),
        "the input text is kept byte for byte"
    );
    let (code, verified, _) = run(&["--verify"], Some("yourkey"), body);
    assert_eq!(code, 0);
    assert!(verified.contains("signature OK"));
    // Already signed, or carrying the key: refused, and the key is not printed.
    let (code, _, _) = run(&["--attach"], Some("yourkey"), body);
    assert_eq!(code, 2);
    let with_key = EXAMPLE.replace("Tester", "yourkey");
    let (code, out, err) = run(&["--attach"], Some("yourkey"), &with_key);
    assert_eq!(code, 2);
    assert!(
        !out.contains("yourkey") && !err.contains("yourkey"),
        "{out}{err}"
    );
}

#[test]
fn verify_and_attach_together_are_a_usage_error() {
    // Before clap the last flag won silently; now the conflict is refused.
    let (code, _, err) = run(&["--verify", "--attach"], Some("k"), EXAMPLE);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("cannot be used with"), "{err}");
    let (code, out, _) = run(&["--help"], None, "");
    assert_eq!(code, 0);
    assert!(
        out.contains("--verify") && out.contains("--attach"),
        "{out}"
    );
}
