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

/// `tests/data/signing-vectors.json`, shared with the runtime's tests and
/// `interop/signing.py`.
fn vectors() -> baas_runtime::serde_json::Value {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tests/data/signing-vectors.json"
    );
    baas_runtime::serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn field<'v>(v: &'v baas_runtime::serde_json::Value, name: &str) -> &'v str {
    v[name].as_str().unwrap()
}

#[test]
fn every_signing_vector_signs_attaches_and_verifies() {
    let all = vectors();
    for v in all["signing"].as_array().unwrap() {
        let (name, key, body) = (field(v, "name"), field(v, "key"), field(v, "body"));
        let signature = field(v, "signature");
        let (code, out, err) = run(&[], Some(key), body);
        assert_eq!(code, 0, "{name}: {err}");
        assert_eq!(out.lines().last(), Some(signature), "{name}");
        let (code, attached, err) = run(&["--attach"], Some(key), body);
        assert_eq!(code, 0, "{name}: {err}");
        assert!(
            attached.contains(&format!("\"signature\":\"{signature}\"")),
            "{name}"
        );
        let (code, out, err) = run(&["--verify"], Some(key), attached.trim_end());
        assert_eq!(code, 0, "{name}: {err}");
        assert_eq!(
            out.trim_end(),
            format!("signature OK: {signature}"),
            "{name}"
        );
    }
}

/// Every refusal vector carries a signature that holds over its canonical string, yet
/// `--verify` refuses it (exit 1) naming the rule and the path; `--attach` and the
/// default mode refuse to sign it unsigned (exit 2), naming the rule too.
#[test]
fn every_refusal_vector_is_refused_with_its_rule() {
    let all = vectors();
    for v in all["refusals"].as_array().unwrap() {
        let (name, key) = (field(v, "name"), field(v, "key"));
        let rule = format!("rule {} at `{}`", field(v, "rule"), field(v, "path"));
        let (code, out, err) = run(&["--verify"], Some(key), field(v, "body"));
        assert_eq!(code, 1, "{name}: {out}{err}");
        assert!(
            err.contains("REFUSED") && err.contains(&rule),
            "{name}: {err}"
        );
        assert!(!out.contains("OK"), "{name}: {out}");
        for args in [&["--attach"][..], &[][..]] {
            let (code, out, err) = run(args, Some(key), field(v, "unsigned"));
            assert_eq!(code, 2, "{name} {args:?}: {out}{err}");
            assert!(out.is_empty(), "{name} {args:?}: {out}");
            // A pasted senderKey holding the key is refused as carrying the key first.
            assert!(
                err.contains(&rule) || err.contains("contains the private key"),
                "{name} {args:?}: {err}"
            );
        }
        for text in [out, err] {
            assert!(!text.contains(key), "{name}: the key is printed: {text}");
        }
    }
}

#[test]
fn attach_finds_the_key_written_with_json_escapes() {
    for body in [
        // In a value, escaped in part or in whole.
        r#"{"params":{"name":"your\u006bey"}}"#,
        r#"{"params":{"name":"\u0079\u006f\u0075\u0072\u006b\u0065\u0079"}}"#,
        // Inside a longer value, with a `\/` escape around it.
        r#"{"params":{"note":"key:\/your\u006bey\/"}}"#,
        // As a key.
        r#"{"params":{"your\u006bey":"1"}}"#,
        // Plain, as before.
        r#"{"params":{"name":"yourkey"}}"#,
    ] {
        let (code, out, err) = run(&["--attach"], Some("yourkey"), body);
        assert_eq!(code, 2, "{body}: {out}");
        assert!(err.contains("contains the private key"), "{body}: {err}");
        assert!(out.is_empty(), "{body}: {out}");
        assert!(!err.contains("yourkey"), "{body}: {err}");
    }
}

/// No message shows the key: not the canonical string, not a parse error quoting a
/// repeated key's path, not a rule's path.
#[test]
fn no_message_shows_the_key() {
    let cases: &[(&[&str], &str, i32)] = &[
        (&[], r#"{"yourkey":1,"yourkey":2}"#, 2),
        (&["--verify"], r#"{"a":{"your\u006bey":1,"yourkey":2}}"#, 2),
        (&["--attach"], r#"{"yourkey":{"x":1,"x":2}}"#, 2),
        (
            &["--verify"],
            r#"{"a":{"yourkey.x":1},"signature":"00"}"#,
            1,
        ),
        // Signed (a null member is skipped); the warning names its path, key redacted.
        (&[], r#"{"a":{"yourkey":null}}"#, 0),
        (&[], r#"{"a":[{"yourkey":1},null]}"#, 2),
        (&["--verify"], r#"{"m":"yourkey&a=b","signature":"00"}"#, 1),
        (&["--verify"], r#"{"m":"yourkey","signature":"00"}"#, 1),
    ];
    for &(args, body, expected) in cases {
        let (code, out, err) = run(args, Some("yourkey"), body);
        assert_eq!(code, expected, "{args:?} {body}: {out}{err}");
        assert!(
            !out.contains("yourkey") && !err.contains("yourkey"),
            "{args:?} {body}: {out}{err}"
        );
        assert!(err.contains("[redacted]"), "{args:?} {body}: {err}");
    }
}

/// A received null member verifies (it reads as absent), and the signing modes sign the
/// body without it, as the document says: the default mode prints the canonical string
/// without the null members and the signature the service computes, `--attach` prints
/// the body with that signature; both warn on stderr, one line per skipped path, in
/// document order. A null array element is still refused (R2).
#[test]
fn a_null_member_is_signed_skipped_with_one_warning_per_path() {
    let all = vectors();
    let list = all["received_nulls"].as_array().unwrap();
    assert!(list.len() >= 3);
    for v in list {
        let (name, key) = (field(v, "name"), field(v, "key"));
        let (body, unsigned) = (field(v, "body"), field(v, "unsigned"));
        let (code, out, err) = run(&["--verify"], Some(key), body);
        assert_eq!(code, 0, "{name}: {out}{err}");
        assert!(
            !err.contains("warning"),
            "{name}: verifying warns of nothing: {err}"
        );
        let skipped: Vec<&str> = v["skipped"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p.as_str().unwrap())
            .collect();
        let warnings = |err: &str| -> Vec<String> {
            err.lines()
                .filter(|l| l.starts_with("baas-sign: warning: the null member"))
                .map(|l| l.split('`').nth(1).unwrap_or_default().to_owned())
                .collect()
        };
        let signature = body.rsplit("\"signature\":\"").next().unwrap();
        let signature = &signature[..64];
        let (code, out, err) = run(&[], Some(key), unsigned);
        assert_eq!(code, 0, "{name}: {out}{err}");
        assert_eq!(out.lines().last(), Some(signature), "{name}: {out}");
        assert!(
            !out.contains("null"),
            "{name}: nulls are not in the canonical string: {out}"
        );
        assert_eq!(warnings(&err), skipped, "{name}: {err}");
        assert_eq!(
            err.lines().count(),
            skipped.len(),
            "{name}: one line per path: {err}"
        );
        let (code, out, err) = run(&["--attach"], Some(key), unsigned);
        assert_eq!(code, 0, "{name}: {out}{err}");
        assert_eq!(out.trim_end(), body, "{name}");
        assert_eq!(warnings(&err), skipped, "{name}: {err}");
    }
    // A null array element would move the indexes: refused, naming R2 at its path.
    for args in [&[][..], &["--attach"][..]] {
        let (code, out, err) = run(args, Some("k"), r#"{"a":[1,null],"b":null}"#);
        assert_eq!(code, 2, "{args:?}: {out}{err}");
        assert!(err.contains("rule R2 at `a[1]`"), "{args:?}: {err}");
        assert!(out.is_empty(), "{args:?}: {out}");
    }
}
