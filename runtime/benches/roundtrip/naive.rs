//! The signer a partner would write in 30 lines (C in the signing benchmarks): serde_json's
//! tree, flattened to owned strings, sorted, joined, SHA-256. Shared by the `signing` and
//! `bodies` benches so both measure the same naive signer.

use sha2::{Digest, Sha256};

fn flatten(prefix: &str, v: &serde_json::Value, out: &mut Vec<String>) {
    match v {
        serde_json::Value::Null => {}
        serde_json::Value::Object(m) if m.is_empty() => out.push(format!("{prefix}={{}}")),
        serde_json::Value::Array(a) if a.is_empty() => out.push(format!("{prefix}=[]")),
        serde_json::Value::Object(m) => {
            for (k, v) in m {
                let path = if prefix.is_empty() {
                    k.clone()
                } else {
                    format!("{prefix}.{k}")
                };
                flatten(&path, v, out);
            }
        }
        serde_json::Value::Array(a) => {
            for (i, v) in a.iter().enumerate() {
                flatten(&format!("{prefix}[{i}]"), v, out);
            }
        }
        serde_json::Value::String(s) => out.push(format!("{prefix}={s}")),
        other => out.push(format!("{prefix}={other}")),
    }
}

/// The body's top-level `signature` (taken out of it) and the signature the naive signer
/// computes for the rest under `key`.
pub(crate) fn sign(body: &[u8], key: &str) -> (Option<String>, String) {
    let mut value: serde_json::Value = serde_json::from_slice(body).unwrap_or_default();
    let received = value
        .as_object_mut()
        .and_then(|m| m.remove("signature"))
        .and_then(|s| s.as_str().map(str::to_owned));
    let mut pairs = Vec::new();
    flatten("", &value, &mut pairs);
    pairs.push(format!("senderKey={key}"));
    pairs.sort();
    (
        received,
        hex::encode(Sha256::digest(pairs.join("&").as_bytes())),
    )
}
