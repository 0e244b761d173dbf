//! The Rust side of the differential test across signers (`tests/differential/run.py`):
//! reads `sign <base64 body>` or `verify <base64 body>` lines on stdin and answers one
//! line each, `<runtime>\t<sandbox>`, each `ok <hex>`, `refused R1`..`R4`,
//! `refused other`, `missing` or `mismatch`.
//!
//! The runtime signs with `baas_runtime::sign::sign` and verifies with
//! `baas_runtime::sign::verify` (a received body: `null` members read as absent). The
//! sandbox is the service's counterpart of a signer: it verifies requests as its server
//! does (the body read within its value cap, the expansion limit, the key rules, the
//! signature, then the value rules, any `null` refused) and signs with its own
//! `signing::sign`; for `sign` it reports its rules' first breach or that digest.
//!
//! `cargo run -q -p baas-sandbox --example differential -- KEY`

use std::io::{BufRead, Write};

use baas_runtime::canonical::{CanonicalError, Flattened};
use baas_runtime::sign::{self, VerifyError};
use baas_runtime::PrivateKey;
use baas_sandbox::json::{Json, MAX_VALUES};
use baas_sandbox::{recut, signing};

fn rule_of(e: &CanonicalError) -> String {
    match e {
        CanonicalError::Ambiguous { rule, .. } => format!("refused {}", rule.id()),
        _ => "refused other".to_owned(),
    }
}

fn runtime(op: &str, body: &[u8], key: &PrivateKey) -> String {
    if op == "sign" {
        return match sign::sign(body, key) {
            Ok(hex) => format!("ok {hex}"),
            Err(e) => rule_of(&e),
        };
    }
    match sign::verify(body, key) {
        Ok(()) => match Flattened::parse_unambiguous(body) {
            Ok(flat) => format!("ok {}", flat.signature_hex(key)),
            Err(e) => rule_of(&e),
        },
        Err(VerifyError::Missing) => "missing".to_owned(),
        Err(VerifyError::Mismatch) => "mismatch".to_owned(),
        Err(VerifyError::Malformed(e)) => rule_of(&e),
        Err(other) => format!("refused other ({other})"),
    }
}

fn sandbox_rule(rule: recut::Rule) -> String {
    let id = match rule {
        recut::Rule::Key => "R1",
        recut::Rule::Null => "R2",
        recut::Rule::ValueReadsAsPair => "R3",
        recut::Rule::SenderKey => "R4",
        _ => "R?",
    };
    format!("refused {id}")
}

fn sandbox(op: &str, body: &[u8], key: &str) -> String {
    let Ok(text) = std::str::from_utf8(body) else {
        return "refused other".to_owned();
    };
    let message = match Json::parse_bounded(text, MAX_VALUES) {
        Ok(m @ Json::Object(_)) => m,
        _ => return "refused other".to_owned(),
    };
    if !signing::within_expansion_limit(&message, body.len()) {
        return "refused other".to_owned();
    }
    if let Some(breach) = recut::key_breach(&message) {
        return sandbox_rule(breach.rule);
    }
    if op == "sign" {
        if let Some(breach) = recut::value_breach(&message) {
            return sandbox_rule(breach.rule);
        }
        return format!("ok {}", signing::sign(&message, key));
    }
    match message.get("signature") {
        None => return "missing".to_owned(),
        Some(Json::String(_)) => {}
        Some(_) => return "refused other".to_owned(),
    }
    if !signing::verify(&message, key) {
        return "mismatch".to_owned();
    }
    if let Some(breach) = recut::value_breach(&message) {
        return sandbox_rule(breach.rule);
    }
    format!("ok {}", signing::sign(&message, key))
}

fn main() {
    let key_text = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "differential-key".into());
    let key = PrivateKey::new(key_text.clone());
    let stdin = std::io::stdin();
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        let (op, encoded) = line.split_once(' ').unwrap_or((line.as_str(), ""));
        let body = base64_decode(encoded.trim());
        let _ = writeln!(
            out,
            "{}\t{}",
            runtime(op, &body, &key),
            sandbox(op, &body, &key_text)
        );
    }
    let _ = out.flush();
}

/// Standard base64 (with padding), written out here: the sandbox has no base64 crate.
fn base64_decode(text: &str) -> Vec<u8> {
    fn value(c: u8) -> Option<u32> {
        match c {
            b'A'..=b'Z' => Some(u32::from(c - b'A')),
            b'a'..=b'z' => Some(u32::from(c - b'a') + 26),
            b'0'..=b'9' => Some(u32::from(c - b'0') + 52),
            b'+' => Some(62),
            b'/' => Some(63),
            _ => None,
        }
    }
    let mut out = Vec::with_capacity(text.len() * 3 / 4);
    let (mut acc, mut bits) = (0u32, 0);
    for c in text.bytes().filter_map(value) {
        acc = (acc << 6) | c;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push(((acc >> bits) & 0xff) as u8);
        }
    }
    out
}
