//! The bodies of the fuzz targets (`fuzz/fuzz_targets/*.rs`), shared with the stable
//! replay of their corpora (`tests/tests/fuzz_corpus_replay.rs`).
//!
//! Each takes the fuzzer's bytes and must return without panicking. The assertions
//! inside are properties that hold for every input: a failing one is a defect, as a
//! panic of the code under test is. Where the code under test only reaches its later
//! steps once a signature holds (responses, notifications, the sandbox), the body also
//! tries the input after signing it, so those steps are fuzzed too.

use std::collections::BTreeMap;

use baas_runtime::canonical::{CanonicalError, Flattened};
use baas_runtime::envelope::{self, open_response, verify_request, Expect};
use baas_runtime::{notification, sign, Amount, PrivateKey, RawJson, REDACTED};
use baas_sandbox::json::Json;
use baas_sandbox::{signing, Offline, DEFAULT_KEY, DEFAULT_SENDER};

/// The key every runtime target signs and verifies with (the seeds are signed with it).
pub const KEY: &str = "fuzz-key";

/// A key that signed nothing: whatever verifies under [`KEY`] must fail under it.
const OTHER_KEY: &str = "another-fuzz-key";

/// The canonical flattener, against the sandbox's separate implementation of the
/// document's algorithm (`baas_sandbox::signing`, written apart on purpose).
///
/// * The two read the same bodies: a body one refuses as malformed (not UTF-8, not
///   JSON, not an object, a repeated key) the other refuses too. The runtime alone
///   also refuses what it must not sign (nesting past its depth, pairs far longer
///   than the body, a `signature` that is not a string); the sandbox checks those
///   elsewhere or not at all.
/// * Where both read it, they build the same canonical string and signature.
/// * The redacted string never shows the key; the digest is that of the exposed string.
pub fn canonical_flatten(data: &[u8]) {
    let runtime = Flattened::parse(data);
    let sandbox = std::str::from_utf8(data)
        .ok()
        .and_then(|t| Json::parse(t).ok())
        .filter(|m| matches!(m, Json::Object(_)));
    let text = || String::from_utf8_lossy(data);
    let flat = match (runtime, &sandbox) {
        (Ok(flat), Some(_)) => flat,
        (Ok(_), None) => panic!("the runtime reads a body the sandbox refuses: {:?}", text()),
        (Err(_), None)
        | (
            Err(
                CanonicalError::TooDeep { .. }
                | CanonicalError::TooLarge { .. }
                | CanonicalError::SignatureNotString,
            ),
            Some(_),
        ) => return,
        (Err(e), Some(_)) => panic!(
            "the sandbox reads a body the runtime refuses ({e}): {:?}",
            text()
        ),
    };
    let key = PrivateKey::new(KEY);
    assert_eq!(flat.pairs().count(), flat.len());
    let exposed = flat.canonical_bytes_exposing_key(&key);
    let redacted = flat.canonical_string_redacted(&key);
    assert!(!redacted.contains(KEY), "the key shows in {redacted:?}");
    assert!(redacted.contains(REDACTED), "{redacted:?}");
    let signature = flat.signature_hex(&key);
    assert_eq!(signature.len(), 64);
    assert!(signature
        .bytes()
        .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b)));
    if let Some(message) = sandbox {
        let theirs = signing::canonical_string(&message, KEY);
        assert_eq!(
            String::from_utf8_lossy(&exposed),
            theirs,
            "runtime and sandbox flatten {:?} differently",
            text()
        );
        // The runtime hashes its string in pieces around the key: the same digest.
        assert_eq!(signature, signing::sign(&message, KEY), "{:?}", text());
    }
}

/// The signer and verifier.
///
/// * `verify` and `check` agree; `sign` gives the signature `check` expects.
/// * A body that `sign_and_attach` accepts verifies under the key, fails under another
///   key (`Mismatch`), and keeps its pairs (the signature is one more top-level member,
///   left out of the canonical string).
pub fn sign_verify(data: &[u8]) {
    let key = PrivateKey::new(KEY);
    let verified = sign::verify(data, &key);
    let checked = sign::check(data, &key);
    match (&verified, &checked) {
        (Ok(()), Ok(c)) => assert!(c.holds()),
        (Ok(()), Err(e)) => panic!("verifies but has no canonical string: {e}"),
        (Err(sign::VerifyError::Malformed(_)), Ok(_)) => {
            panic!("malformed for verify, not for check")
        }
        (Err(_), Ok(c)) => assert!(!c.holds()),
        (Err(_), Err(_)) => {}
    }
    match sign::sign(data, &key) {
        Ok(s) => assert_eq!(checked.map(|c| c.expected), Ok(s)),
        // Signers refuse any null; a verifier reads a null member as absent.
        Err(CanonicalError::Ambiguous {
            rule: baas_runtime::canonical::Ambiguity::Null,
            ..
        }) if checked.is_ok() => {
            let flat = Flattened::parse_unambiguous(data);
            assert!(flat.is_ok_and(|f| f.first_null_path().is_some()));
        }
        Err(e) => assert_eq!(checked.map(|c| c.expected), Err(e)),
    }
    let Ok(signed) = sign::sign_and_attach(data.to_vec(), &key) else {
        return;
    };
    let shown = || String::from_utf8_lossy(&signed).into_owned();
    assert_eq!(
        sign::verify(&signed, &key),
        Ok(()),
        "a body signed and attached does not verify: {:?}",
        shown()
    );
    assert_eq!(
        sign::verify(&signed, &PrivateKey::new(OTHER_KEY)),
        Err(sign::VerifyError::Mismatch),
        "{:?}",
        shown()
    );
    let pairs =
        |b: &[u8]| Flattened::parse(b).map(|f| f.pairs().map(str::to_owned).collect::<Vec<_>>());
    assert_eq!(pairs(data), pairs(&signed), "{:?}", shown());
}

/// `data` signed with [`KEY`] when it can be (so the steps after the signature check
/// are reached), else unchanged.
fn signed_or_not(data: &[u8]) -> Vec<u8> {
    sign::sign_and_attach(data.to_vec(), &PrivateKey::new(KEY)).unwrap_or_else(|_| data.to_vec())
}

/// The client's response opening (envelope, signature, requestId echo, `data` as
/// untyped JSON and as a map of amounts) and a test server's request verification, on
/// the bytes as given and signed.
///
/// * A success opened without accepting unsigned successes carries a signature that
///   holds under the key; with unsigned successes accepted, one that is absent or holds
///   (a wrong signature is never accepted).
/// * What opens under the key does not open under another key.
/// * A verified request's signature holds, not under another key, and its params are
///   the body's, verbatim.
pub fn open_response_body(data: &[u8]) {
    let key = PrivateKey::new(KEY);
    let other = PrivateKey::new(OTHER_KEY);
    for body in [data.to_vec(), signed_or_not(data)] {
        let shown = || String::from_utf8_lossy(&body).into_owned();
        for accept_unsigned_success in [false, true] {
            let expect = Expect {
                request_id: "fuzz-request",
                accept_unsigned_success,
            };
            let opened = open_response::<serde_json::Value>(Some(200), &body, &key, expect);
            let _ = open_response::<BTreeMap<String, Amount>>(None, &body, &key, expect);
            let _ = open_response::<RawJson>(Some(200), &body, &key, expect);
            if opened.is_err() {
                continue;
            }
            match sign::verify(&body, &key) {
                Ok(()) => {}
                Err(sign::VerifyError::Missing) if accept_unsigned_success => continue,
                Err(e) => panic!(
                    "a success opened with a signature that fails ({e}): {:?}",
                    shown()
                ),
            }
            assert!(
                open_response::<serde_json::Value>(Some(200), &body, &other, expect).is_err(),
                "a success signed with one key opened under another: {:?}",
                shown()
            );
        }
        if let Ok(request) = verify_request(&body, &key) {
            assert_eq!(sign::verify(&body, &key), Ok(()), "{:?}", shown());
            assert!(verify_request(&body, &other).is_err(), "{:?}", shown());
            assert_params_verbatim(&body, &request.params);
        }
    }
}

/// Notification verification, on the bytes as given and signed: a notification that
/// verifies has a signature that holds under the key and not under another, the body's
/// params verbatim, and the documented acknowledgement.
pub fn notification_verify(data: &[u8]) {
    let key = PrivateKey::new(KEY);
    for body in [data.to_vec(), signed_or_not(data)] {
        let Ok(n) = notification::verify(&body, &key) else {
            continue;
        };
        let shown = String::from_utf8_lossy(&body);
        assert_eq!(sign::verify(&body, &key), Ok(()), "{shown:?}");
        assert!(
            notification::verify(&body, &PrivateKey::new(OTHER_KEY)).is_err(),
            "a notification signed with one key verified under another: {shown:?}"
        );
        assert_eq!(n.delivery_id().request_id, n.request_id);
        assert_params_verbatim(&body, &n.params);
        assert_eq!(n.ack(), notification::ACK);
    }
}

/// The `params` handed out for a verified `body` are the body's `params`, verbatim:
/// the same JSON with every number as its literal text (`{}` for an absent or null
/// one). Numbers are compared as text, so one past `f64` (`1e999`), which
/// `serde_json::Value` cannot hold, is kept and compared as it came.
fn assert_params_verbatim(body: &[u8], params: &RawJson) {
    let shown = || String::from_utf8_lossy(body).into_owned();
    let in_body = std::str::from_utf8(body)
        .ok()
        .and_then(|t| Json::parse(t).ok())
        .unwrap_or_else(|| panic!("a verified body the sandbox cannot read: {:?}", shown()));
    let expected = match in_body.get("params") {
        None | Some(Json::Null) => Json::Object(BTreeMap::new()),
        Some(p) => p.clone(),
    };
    let given = Json::parse(params.get())
        .unwrap_or_else(|e| panic!("params {:?} are not JSON ({e})", params.get()));
    assert_eq!(given, expected, "params of {:?}", shown());
}

/// The spec's own files (the list is checked against `spec/` by the replay test), so
/// that a change to one file meets the checks of all the others.
pub const SPEC: &[(&str, &str)] = &[
    ("spec/api.yaml", include_str!("../../spec/api.yaml")),
    (
        "spec/decisions.yaml",
        include_str!("../../spec/decisions.yaml"),
    ),
    ("spec/enums.yaml", include_str!("../../spec/enums.yaml")),
    ("spec/records.yaml", include_str!("../../spec/records.yaml")),
    (
        "spec/operations/account.yaml",
        include_str!("../../spec/operations/account.yaml"),
    ),
    (
        "spec/operations/cny.yaml",
        include_str!("../../spec/operations/cny.yaml"),
    ),
    (
        "spec/operations/fx.yaml",
        include_str!("../../spec/operations/fx.yaml"),
    ),
    (
        "spec/operations/onboarding.yaml",
        include_str!("../../spec/operations/onboarding.yaml"),
    ),
    (
        "spec/operations/otp.yaml",
        include_str!("../../spec/operations/otp.yaml"),
    ),
    (
        "spec/operations/reversal.yaml",
        include_str!("../../spec/operations/reversal.yaml"),
    ),
    (
        "spec/operations/transfers.yaml",
        include_str!("../../spec/operations/transfers.yaml"),
    ),
    (
        "spec/operations/user.yaml",
        include_str!("../../spec/operations/user.yaml"),
    ),
    (
        "spec/operations/utility.yaml",
        include_str!("../../spec/operations/utility.yaml"),
    ),
];

/// The files `spec_check` checks for `data`. The first byte chooses: even, the rest
/// split at NUL bytes into files of their own (`spec/f0.yaml`, ...); odd, the spec's own
/// files with one of them (chosen by the byte) replaced by the rest.
pub fn spec_files(data: &[u8]) -> Option<Vec<(String, String)>> {
    let (&mode, rest) = data.split_first()?;
    let text = String::from_utf8_lossy(rest);
    Some(if mode % 2 == 0 {
        text.split('\0')
            .enumerate()
            .map(|(i, t)| (format!("spec/f{i}.yaml"), t.to_owned()))
            .collect()
    } else {
        let replaced = usize::from(mode / 2) % SPEC.len();
        SPEC.iter()
            .enumerate()
            .map(|(i, (name, t))| {
                let t = if i == replaced { text.as_ref() } else { t };
                ((*name).to_owned(), t.to_owned())
            })
            .collect()
    })
}

/// The spec loader and checker (and, when a spec checks, the emitter), on the files
/// [`spec_files`] makes of the input.
///
/// * A spec that checks generates (the emitter only fails on a generator bug).
/// * A refused spec has at least one error, and every diagnostic names one of the
///   files at a line the file has, or the spec folder (`spec/`) without a line.
pub fn spec_check(data: &[u8]) {
    let Some(files) = spec_files(data) else {
        return;
    };
    match baas_codegen::check_sources("spec", &files) {
        Ok(checked) => {
            if let Err(e) = baas_codegen::pipeline::rust_crate(&checked.api) {
                panic!("a checked spec does not generate: {e}");
            }
        }
        Err(diagnostics) => {
            assert!(
                diagnostics
                    .0
                    .iter()
                    .any(|d| d.severity == baas_codegen::diagnostics::Severity::Error),
                "refused without an error: {diagnostics}"
            );
            for d in &diagnostics.0 {
                let loc = &d.location;
                if loc.file == "spec/" && loc.line == 0 {
                    // About the folder: something no file has.
                    continue;
                }
                let Some((_, text)) = files.iter().find(|(name, _)| *name == loc.file) else {
                    panic!("a diagnostic names no given file: {d}");
                };
                // An error at the end of the input may be put on the line after.
                assert!(
                    loc.line <= yaml_lines(text) + 1,
                    "a diagnostic past the end of its file: {d}"
                );
            }
        }
    }
}

/// The lines of a YAML text as the YAML reader (libyaml) counts them: a line break is
/// `\r\n`, `\r`, `\n`, NEL, LS or PS, and there is a line after the last one.
fn yaml_lines(text: &str) -> usize {
    let crlf = text.matches("\r\n").count();
    let breaks = text
        .chars()
        .filter(|c| matches!(c, '\r' | '\n' | '\u{85}' | '\u{2028}' | '\u{2029}'))
        .count();
    breaks - crlf + 1
}

/// What the sandbox answered to one input of [`sandbox_request`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SandboxAnswer {
    /// The path the input chose.
    pub path: String,
    /// The result code answered.
    pub code: String,
    /// True when the harness signed the body (as a partner would).
    pub signed: bool,
}

/// The sandbox's request path, bytes in, answer out ([`Offline::answer`], a fresh seeded
/// sandbox per input, so an input answers the same wherever it is replayed).
///
/// The first byte chooses the path: one of the operations' (by index), or, past them,
/// the text of the rest up to its first newline. The second byte's low bit asks the
/// harness to complete the body's envelope and sign it as a partner would (so the
/// checks after the signature, the decoders and the operations are reached), its next
/// bit to set `timestamp` to now. The rest is the body.
///
/// * The answer is a JSON object with a code of 5 digits and a text `msg`.
/// * `10000` answers an unknown path, and, on an operation's path, only a request that
///   names the word the live service refuses as a bank code
///   ([`baas_sandbox::ops::REFUSED_BANK_WORD`]): any other `10000` is the sandbox's
///   backstop for its own defects (a panic while handling, a response it cannot sign,
///   a ledger invariant that did not hold). Judged by the code, not by `msg`, which
///   may echo the input.
/// * A body the runtime signed with the partner's key is never refused as `12005`:
///   the sandbox's verifier agrees with the runtime's signer.
/// * A signed answer verifies with the runtime; a success opens with the client's own
///   response opening (signature, requestId echo, `data`).
/// * Money is conserved: the totals per currency are those of the seeded bank.
pub fn sandbox_request(data: &[u8]) {
    let _ = sandbox_answer(data);
}

/// [`sandbox_request`], returning what was answered (`None` for an input too short to
/// choose a path), so the replay test can tell how deep the corpus reaches.
pub fn sandbox_answer(data: &[u8]) -> Option<SandboxAnswer> {
    let operations = baas_client::dispatch::OPERATIONS;
    let (&which, &mode) = (data.first()?, data.get(1)?);
    let mut rest = data.get(2..).unwrap_or_default();
    let path = match operations.get(usize::from(which)) {
        Some(op) => op.path.to_owned(),
        None => {
            let end = rest.iter().position(|&b| b == b'\n').unwrap_or(rest.len());
            let path = String::from_utf8_lossy(&rest[..end]).into_owned();
            rest = rest.get(end + 1..).unwrap_or_default();
            path
        }
    };
    let known_path = operations.iter().any(|o| o.path == path);
    let signed = if mode & 1 == 1 {
        complete_and_sign(rest, mode & 2 == 2)
    } else {
        None
    };
    let body = signed.as_ref().map_or(rest, |(b, _)| b.as_slice());
    let shown = || String::from_utf8_lossy(body).into_owned();

    let sandbox = Offline::new();
    let seeded = sandbox.totals();
    let answer = sandbox.answer(&path, body);
    let value: serde_json::Value = serde_json::from_slice(&answer).unwrap_or_else(|e| {
        panic!(
            "the answer is not JSON ({e}): {:?}",
            String::from_utf8_lossy(&answer)
        )
    });
    let code = value["code"].as_str().unwrap_or_default().to_owned();
    assert!(
        code.len() == 5 && code.bytes().all(|b| b.is_ascii_digit()),
        "code {code:?} in {value}"
    );
    assert!(value["msg"].is_string(), "{value}");
    if code == "10000" {
        assert!(
            !known_path || names_refused_bank_word(body),
            "10000 on {path}, a sandbox defect: {value} (answer to {:?})",
            shown()
        );
    } else {
        assert!(
            known_path,
            "{path} is no operation's path, answered {value}"
        );
    }
    if signed.is_some() {
        assert_ne!(
            code,
            "12005",
            "the sandbox refused the runtime's signature: {:?}",
            shown()
        );
    }
    let key = PrivateKey::new(DEFAULT_KEY);
    if value.get("signature").is_some() {
        assert_eq!(
            sign::verify(&answer, &key),
            Ok(()),
            "the sandbox's answer does not verify: {value}"
        );
    }
    if code == "00000" {
        let request_id = signed.as_ref().map_or_else(
            || {
                Json::parse(&String::from_utf8_lossy(body))
                    .ok()
                    .and_then(|m| m.text("requestId").map(str::to_owned))
                    .unwrap_or_default()
            },
            |(_, id)| id.clone(),
        );
        let expect = Expect {
            request_id: &request_id,
            accept_unsigned_success: false,
        };
        if let Err(e) = open_response::<serde_json::Value>(Some(200), &answer, &key, expect) {
            panic!("the client cannot open a success of the sandbox ({e}): {value}");
        }
    }
    assert_eq!(
        sandbox.totals(),
        seeded,
        "money was made or lost by {path} {:?}",
        shown()
    );
    Some(SandboxAnswer {
        path,
        code,
        signed: signed.is_some(),
    })
}

/// True when some string in `body` is the word the live service refuses as a bank
/// code with `10000`.
fn names_refused_bank_word(body: &[u8]) -> bool {
    fn walk(v: &Json) -> bool {
        match v {
            Json::String(s) => s == baas_sandbox::ops::REFUSED_BANK_WORD,
            Json::Array(items) => items.iter().any(walk),
            Json::Object(map) => map.values().any(walk),
            _ => false,
        }
    }
    std::str::from_utf8(body)
        .ok()
        .and_then(|t| Json::parse(t).ok())
        .is_some_and(|m| walk(&m))
}

/// The body as a partner would send it, with its requestId: the envelope's missing
/// members filled in (sender, requestId, locale, salt, timestamp; `timestamp` set to now
/// when `fresh`), then signed by the runtime with the partner's key (any `signature`
/// replaced). `None` when the body is not a JSON object the runtime can sign.
fn complete_and_sign(body: &[u8], fresh: bool) -> Option<(Vec<u8>, String)> {
    let Json::Object(mut map) = Json::parse(std::str::from_utf8(body).ok()?).ok()? else {
        return None;
    };
    let text = |s: &str| Json::String(s.to_owned());
    map.entry("sender".into())
        .or_insert_with(|| text(DEFAULT_SENDER));
    map.entry("requestId".into())
        .or_insert_with(|| text("fuzz-request-1"));
    map.entry("locale".into()).or_insert_with(|| text("en_KE"));
    map.entry("salt".into())
        .or_insert_with(|| text("0123456789abcdef01234567"));
    let now = Json::Number(envelope::now_millis().to_string());
    if fresh {
        map.insert("timestamp".into(), now);
    } else {
        map.entry("timestamp".into()).or_insert(now);
    }
    map.remove("signature");
    let request_id = match map.get("requestId") {
        Some(Json::String(id)) => id.clone(),
        _ => String::new(),
    };
    let text = Json::Object(map).to_json_string();
    let signed = sign::sign_and_attach(text.into_bytes(), &PrivateKey::new(DEFAULT_KEY)).ok()?;
    Some((signed, request_id))
}
