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
//! the default mode is the signature. Exit codes: 0 success / signature holds,
//! 1 signature missing or wrong, 2 usage error or unreadable input.

use std::io::{Read, Write};
use std::process::ExitCode;

use baas_runtime::canonical::Flattened;
use baas_runtime::sign::constant_time_eq;
use baas_runtime::PrivateKey;

const KEY_VARIABLE: &str = "BAAS_PRIVATE_KEY";

/// Compute or check the signature of a BaaS message.
///
/// Reads a JSON message (request, response or notification envelope) on stdin and takes
/// the private key from the environment variable BAAS_PRIVATE_KEY. By default prints the
/// canonical string (key redacted), then the signature as the last line.
#[derive(clap::Parser)]
#[command(name = "baas-sign", version)]
struct Args {
    /// Check the message's own `signature`: exit 0 when it holds, 1 otherwise.
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
    let mut input = Vec::new();
    if let Err(e) = std::io::stdin().read_to_end(&mut input) {
        eprintln!("baas-sign: cannot read stdin: {e}");
        return ExitCode::from(2);
    }
    let flat = match Flattened::parse(&input) {
        Ok(flat) => flat,
        Err(e) => {
            eprintln!("baas-sign: the input is not a usable JSON object: {e}");
            return ExitCode::from(2);
        }
    };
    if flat.has_sender_key_pair() {
        eprintln!(
            "baas-sign: warning: the input has a top-level `senderKey`; the key is never sent \
             (the algorithm adds it), so this body does not sign like the message sent"
        );
    }
    let canonical = flat.canonical_string_redacted(&key);
    let expected = flat.signature_hex(&key);
    let mut out = std::io::stdout().lock();
    match mode {
        Mode::Sign => {
            if let Some(null) = flat.first_null_path() {
                eprintln!("baas-sign: note: `{null}` is null; nulls are skipped when signing and should not be sent");
            }
            if writeln!(out, "{canonical}\n{expected}").is_err() {
                return ExitCode::from(2);
            }
            ExitCode::SUCCESS
        }
        Mode::Attach => {
            if flat.signature().is_some() {
                eprintln!(
                    "baas-sign: the input already has a `signature`; remove it to sign again"
                );
                return ExitCode::from(2);
            }
            // The output is meant to be sent: it must never carry the key.
            let secret = key.expose();
            let contains_key =
                !secret.is_empty() && input.windows(secret.len()).any(|w| w == secret);
            if flat.has_sender_key_pair() || contains_key {
                eprintln!("baas-sign: the input contains the private key; the key is never sent, remove it");
                return ExitCode::from(2);
            }
            match baas_runtime::sign::attach_signature(input, &expected) {
                Ok(body) => {
                    if out.write_all(&body).and_then(|()| writeln!(out)).is_err() {
                        return ExitCode::from(2);
                    }
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    eprintln!("baas-sign: cannot attach the signature: {e}");
                    ExitCode::from(2)
                }
            }
        }
        Mode::Verify => match flat.signature() {
            Some(received) if constant_time_eq(received.as_bytes(), expected.as_bytes()) => {
                let _ = writeln!(out, "signature OK: {expected}");
                ExitCode::SUCCESS
            }
            received => {
                let what = match received {
                    Some(r) => format!("signature MISMATCH\n  received: {r}"),
                    None => "signature MISSING".to_owned(),
                };
                eprintln!("baas-sign: {what}\n  expected: {expected}\n  canonical string (key redacted):\n{canonical}");
                ExitCode::from(1)
            }
        },
    }
}
