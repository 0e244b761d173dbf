//! The `baas-sign` logic, shared by the `baas-sign` command and `baas sign` (the `baas`
//! command line): the same input, output and exit codes. See `src/main.rs` for what it
//! does and its exit codes.

use std::io::{Read, Write};
use std::process::ExitCode;

use baas_runtime::canonical::{CanonicalError, Flattened};
use baas_runtime::sign::constant_time_eq;
use baas_runtime::{PrivateKey, REDACTED};

/// The environment variable holding the private key.
pub const KEY_VARIABLE: &str = "BAAS_PRIVATE_KEY";

/// What to do with the message on stdin.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Print the canonical string (key redacted), then the signature.
    Sign,
    /// Check the message's own signature.
    Verify,
    /// Print the message with its signature added.
    Attach,
}

/// Reads the message on stdin and does `mode`; `name` prefixes every message on stderr.
pub fn run(mode: Mode, name: &str) -> ExitCode {
    let Some(key) = PrivateKey::from_env(KEY_VARIABLE) else {
        eprintln!("{name}: set the private key in the environment variable {KEY_VARIABLE}");
        return ExitCode::from(2);
    };
    // Every message to stderr goes through `say`, which redacts the key.
    let say = |text: &str| eprintln!("{name}: {}", redact(text, key.expose()));
    let mut input = Vec::new();
    if let Err(e) = std::io::stdin().read_to_end(&mut input) {
        say(&format!("cannot read stdin: {e}"));
        return ExitCode::from(2);
    }
    // A signature that holds is checked in place (no copy of the input, memory about
    // twice its size): only a failure needs the canonical string.
    if matches!(mode, Mode::Verify) {
        if let Ok(check) = baas_runtime::sign::check(&input, &key) {
            if check.holds() {
                let _ = writeln!(std::io::stdout().lock(), "signature OK: {}", check.expected);
                return ExitCode::SUCCESS;
            }
        }
    }
    let (flat, refusal) = match read(&input, &say) {
        Ok(read) => read,
        Err(code) => return code,
    };
    if flat.has_sender_key_pair() {
        say(
            "warning: the input has a top-level `senderKey`; the key is never sent \
             (the algorithm adds it), so this body does not sign like the message sent",
        );
    }
    let mut out = std::io::stdout().lock();
    match mode {
        Mode::Sign => sign(&flat, refusal, &key, &say, &mut out),
        Mode::Attach => attach(input, &flat, refusal, &key, &say, &mut out),
        Mode::Verify => verify(&flat, refusal, &key, &say, &mut out),
    }
}

/// The input read as the runtime's signers and verifiers read it (the re-cut rules
/// applied, in memory bounded by the input's size), or, when the rules refuse it, read
/// again as any JSON object (to show its canonical string) with the refusal; exit code 2
/// when it is not a JSON object at all.
fn read(
    input: &[u8],
    say: &impl Fn(&str),
) -> Result<(Flattened, Option<CanonicalError>), ExitCode> {
    let unusable = |e: CanonicalError| {
        say(&format!("the input is not a usable JSON object: {e}"));
        ExitCode::from(2)
    };
    match Flattened::parse_unambiguous(input) {
        // A null member verifies (a received one reads as absent) and is signed by
        // skipping it, as the API document says, with a warning (see `warn_nulls`); a
        // null array element is refused (R2) like any re-cut.
        Ok(flat) => Ok((flat, None)),
        Err(refused @ CanonicalError::Ambiguous { .. }) => match Flattened::parse(input) {
            Ok(flat) => Ok((flat, Some(refused))),
            Err(e) => Err(unusable(e)),
        },
        Err(e) => Err(unusable(e)),
    }
}

/// `Mode::Sign`: prints the canonical string (key redacted) and the signature, or refuses
/// a body the rules refuse.
fn sign(
    flat: &Flattened,
    refusal: Option<CanonicalError>,
    key: &PrivateKey,
    say: &impl Fn(&str),
    out: &mut impl Write,
) -> ExitCode {
    // Written out only to be printed (it repeats every path: longer than the input).
    let canonical = || flat.canonical_string_redacted(key);
    if let Some(e) = refusal {
        say(&format!(
            "not signed: {e}\n  canonical string (key redacted):\n{}",
            canonical()
        ));
        return ExitCode::from(2);
    }
    warn_nulls(flat, say);
    let expected = flat.signature_hex(key);
    if writeln!(out, "{}\n{expected}", canonical()).is_err() {
        return ExitCode::from(2);
    }
    ExitCode::SUCCESS
}

/// `Mode::Attach`: prints the message with its signature added, unless it is signed
/// already, carries the key, or is refused by the rules.
fn attach(
    input: Vec<u8>,
    flat: &Flattened,
    refusal: Option<CanonicalError>,
    key: &PrivateKey,
    say: &impl Fn(&str),
    out: &mut impl Write,
) -> ExitCode {
    if flat.has_signature_key() {
        say("the input already has a `signature`; remove it to sign again");
        return ExitCode::from(2);
    }
    // The output is meant to be sent: it must never carry the key, whether
    // written plainly or with JSON escapes (the pairs hold keys and values
    // unescaped).
    if flat.has_sender_key_pair() || contains_key(&input, flat, key.expose()) {
        say("the input contains the private key; the key is never sent, remove it");
        return ExitCode::from(2);
    }
    if let Some(e) = refusal {
        say(&format!("not signed: {e}"));
        return ExitCode::from(2);
    }
    warn_nulls(flat, say);
    let expected = flat.signature_hex(key);
    match baas_runtime::sign::attach_signature(input, &expected) {
        Ok(body) => {
            if out.write_all(&body).and_then(|()| writeln!(out)).is_err() {
                return ExitCode::from(2);
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            say(&format!("cannot attach the signature: {e}"));
            ExitCode::from(2)
        }
    }
}

/// `Mode::Verify`, once the in-place check has failed: says whether the body is refused,
/// or its signature is missing or does not match (with the expected one and the
/// canonical string, key redacted).
fn verify(
    flat: &Flattened,
    refusal: Option<CanonicalError>,
    key: &PrivateKey,
    say: &impl Fn(&str),
    out: &mut impl Write,
) -> ExitCode {
    let canonical = || flat.canonical_string_redacted(key);
    if let Some(e) = refusal {
        say(&format!(
            "REFUSED: {e}\n  (every verifier refuses this body, whatever its \
             signature)\n  canonical string (key redacted):\n{}",
            canonical()
        ));
        return ExitCode::from(1);
    }
    let expected = flat.signature_hex(key);
    match flat.signature() {
        Some(received) if constant_time_eq(received.as_bytes(), expected.as_bytes()) => {
            let _ = writeln!(out, "signature OK: {expected}");
            ExitCode::SUCCESS
        }
        received => {
            let what = match received {
                Some(r) => format!("signature MISMATCH\n  received: {r}"),
                None => "signature MISSING".to_owned(),
            };
            say(&format!(
                "{what}\n  expected: {expected}\n  canonical string (key redacted):\n{}",
                canonical()
            ));
            ExitCode::from(1)
        }
    }
}

/// One warning line on stderr per `null` member of a body being signed: the API
/// document skips nulls, so the signature is the one of the body without them (and the
/// receiver reads them as absent), but a partner chasing a `12005` should know their
/// JSON library wrote them.
fn warn_nulls(flat: &Flattened, say: &impl Fn(&str)) {
    for path in flat.null_member_paths() {
        say(&format!(
            "warning: the null member `{path}` is skipped (the API document leaves nulls \
             out of the signed text)"
        ));
    }
}

/// `text` with every occurrence of `secret` replaced by `[redacted]`.
fn redact(text: &str, secret: &[u8]) -> String {
    match std::str::from_utf8(secret) {
        Ok(secret) if !secret.is_empty() => text.replace(secret, REDACTED),
        _ => text.to_owned(),
    }
}

/// True when the key shows in the body: in its bytes as written, or in any key or value
/// once unescaped (`\u0079ourkey`), or across a pair's path and value.
fn contains_key(input: &[u8], flat: &Flattened, secret: &[u8]) -> bool {
    let found = |hay: &[u8]| !secret.is_empty() && hay.windows(secret.len()).any(|w| w == secret);
    found(input) || flat.pairs().any(|pair| found(pair.as_bytes()))
}
