//! `baas-sign`: compute or check the signature of a BaaS message, for partners chasing a
//! `12005 Invalid signature`.
//!
//! ```text
//! BAAS_PRIVATE_KEY=... baas-sign < envelope.json           # canonical string, then signature
//! BAAS_PRIVATE_KEY=... baas-sign --verify < message.json   # exit 0 when the signature holds
//! BAAS_PRIVATE_KEY=... baas-sign --attach < envelope.json   # the body with its signature, to send
//! ```
//!
//! The canonical string is printed with the key shown as `[redacted]`; the last line of
//! the default mode is the signature. The key is never printed: every message, errors
//! included, has its text replaced by `[redacted]`.
//!
//! Every mode reads the body as the runtime's signers and verifiers do
//! (`Flattened::parse_unambiguous`): a body whose canonical string could be re-cut into
//! another body (rules R1-R4: keys with `&`, `=`, `.`, `[`, `]` or empty, `null`s,
//! values holding `&path=`, a top-level `senderKey`) is never signed, and `--verify`
//! refuses it, naming the rule, whatever its signature.
//!
//! Exit codes: 0 success / signature holds, 1 `--verify`: signature missing or wrong,
//! or the body refused by a re-cut rule, 2 usage error, unreadable input, or a body
//! that is not to be signed (a re-cut rule, already signed, carrying the key).

use std::io::{Read, Write};
use std::process::ExitCode;

use baas_runtime::canonical::{CanonicalError, Flattened};
use baas_runtime::sign::constant_time_eq;
use baas_runtime::{PrivateKey, REDACTED};

const KEY_VARIABLE: &str = "BAAS_PRIVATE_KEY";

/// Compute or check the signature of a BaaS message.
///
/// Reads a JSON message (request, response or notification envelope) on stdin and takes
/// the private key from the environment variable BAAS_PRIVATE_KEY. By default prints the
/// canonical string (key redacted), then the signature as the last line.
#[derive(clap::Parser)]
#[command(name = "baas-sign", version)]
struct Args {
    /// Check the message's own `signature`: exit 0 when it holds, 1 otherwise (also when
    /// a re-cut rule refuses the body: the rule is printed).
    #[arg(long, conflicts_with = "attach")]
    verify: bool,
    /// Print the message with its signature added, exactly as it is to be sent.
    #[arg(long)]
    attach: bool,
}

enum Mode {
    Sign,
    Verify,
    Attach,
}

fn main() -> ExitCode {
    // clap exits with 2 on a usage error (`--verify --attach` included) and 0 on --help.
    let args = <Args as clap::Parser>::parse();
    let mode = match (args.verify, args.attach) {
        (true, _) => Mode::Verify,
        (_, true) => Mode::Attach,
        _ => Mode::Sign,
    };
    let Some(key) = PrivateKey::from_env(KEY_VARIABLE) else {
        eprintln!("baas-sign: set the private key in the environment variable {KEY_VARIABLE}");
        return ExitCode::from(2);
    };
    // Every message to stderr goes through `say`, which redacts the key.
    let say = |text: &str| eprintln!("baas-sign: {}", redact(text, key.expose()));
    let mut input = Vec::new();
    if let Err(e) = std::io::stdin().read_to_end(&mut input) {
        say(&format!("cannot read stdin: {e}"));
        return ExitCode::from(2);
    }
    // Read as the runtime's signers and verifiers read (the re-cut rules applied, in
    // memory bounded by the input's size); a body the rules refuse is read again as any
    // JSON object, to show its canonical string.
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
    let unusable = |e: CanonicalError| {
        say(&format!("the input is not a usable JSON object: {e}"));
        ExitCode::from(2)
    };
    let (flat, refusal) = match Flattened::parse_unambiguous(&input) {
        // A null member verifies (a received one reads as absent), but nothing holding
        // a null is signed: a message we send never holds one.
        Ok(flat) => match (flat.first_null_path(), &mode) {
            (Some(path), Mode::Sign | Mode::Attach) => {
                let refused = CanonicalError::Ambiguous {
                    path: path.to_owned(),
                    rule: baas_runtime::canonical::Ambiguity::Null,
                };
                (flat, Some(refused))
            }
            _ => (flat, None),
        },
        Err(refused @ CanonicalError::Ambiguous { .. }) => match Flattened::parse(&input) {
            Ok(flat) => (flat, Some(refused)),
            Err(e) => return unusable(e),
        },
        Err(e) => return unusable(e),
    };
    if flat.has_sender_key_pair() {
        say(
            "warning: the input has a top-level `senderKey`; the key is never sent \
             (the algorithm adds it), so this body does not sign like the message sent",
        );
    }
    // Written out only to be printed (it repeats every path: longer than the input).
    let canonical = || flat.canonical_string_redacted(&key);
    let mut out = std::io::stdout().lock();
    match mode {
        Mode::Sign => {
            if let Some(e) = refusal {
                say(&format!(
                    "not signed: {e}\n  canonical string (key redacted):\n{}",
                    canonical()
                ));
                return ExitCode::from(2);
            }
            let expected = flat.signature_hex(&key);
            if writeln!(out, "{}\n{expected}", canonical()).is_err() {
                return ExitCode::from(2);
            }
            ExitCode::SUCCESS
        }
        Mode::Attach => {
            if flat.has_signature_key() {
                say("the input already has a `signature`; remove it to sign again");
                return ExitCode::from(2);
            }
            // The output is meant to be sent: it must never carry the key, whether
            // written plainly or with JSON escapes (the pairs hold keys and values
            // unescaped).
            if flat.has_sender_key_pair() || contains_key(&input, &flat, key.expose()) {
                say("the input contains the private key; the key is never sent, remove it");
                return ExitCode::from(2);
            }
            if let Some(e) = refusal {
                say(&format!("not signed: {e}"));
                return ExitCode::from(2);
            }
            let expected = flat.signature_hex(&key);
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
        Mode::Verify => {
            if let Some(e) = refusal {
                say(&format!(
                    "REFUSED: {e}\n  (every verifier refuses this body, whatever its \
                     signature)\n  canonical string (key redacted):\n{}",
                    canonical()
                ));
                return ExitCode::from(1);
            }
            let expected = flat.signature_hex(&key);
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
