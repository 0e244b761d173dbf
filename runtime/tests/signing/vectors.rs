use super::*;
use serde_json::Value;

fn load() -> Value {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tests/data/signing-vectors.json"
    );
    let text = std::fs::read_to_string(path).unwrap();
    serde_json::from_str(&text).unwrap()
}

fn list<'v>(all: &'v Value, name: &str) -> &'v Vec<Value> {
    all[name].as_array().unwrap()
}

fn text<'v>(v: &'v Value, field: &str) -> &'v str {
    v[field]
        .as_str()
        .unwrap_or_else(|| panic!("no `{field}` in {v}"))
}

/// Every signing vector: the runtime builds its canonical string and signature, the
/// signature is the plain SHA-256 of that string, and the signed body verifies.
#[test]
fn every_signing_vector_signs_to_its_signature_and_verifies() {
    let all = load();
    let vectors = list(&all, "signing");
    assert!(vectors.len() >= 10);
    for v in vectors {
        let (name, body) = (text(v, "name"), text(v, "body"));
        let key = PrivateKey::new(text(v, "key"));
        let signature = text(v, "signature");
        let flat =
            Flattened::parse_unambiguous(body.as_bytes()).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(
            String::from_utf8(flat.canonical_bytes_exposing_key(&key)).unwrap(),
            text(v, "canonical"),
            "{name}"
        );
        assert_eq!(
            hex::encode(Sha256::digest(text(v, "canonical").as_bytes())),
            signature,
            "{name}"
        );
        assert_eq!(
            sign::sign(body.as_bytes(), &key).unwrap(),
            signature,
            "{name}"
        );
        let signed = sign::sign_and_attach(body.as_bytes().to_vec(), &key).unwrap();
        assert_eq!(
            signed,
            sign::attach_signature(body.as_bytes().to_vec(), signature).unwrap(),
            "{name}"
        );
        assert_eq!(sign::verify(&signed, &key), Ok(()), "{name}");
        assert!(sign::check(&signed, &key).unwrap().holds(), "{name}");
    }
    // The document's worked example is among them, with its published signature.
    assert!(vectors.iter().any(|v| text(v, "signature")
        == "ce4f419f667b7d5621892337c23905b894472e6b186f06a0e237528b011ab2f2"
        && text(v, "key") == KEY));
}

/// Every refusal vector carries the signature the algorithm gives it, so only its
/// rule refuses it: `verify` and `check` refuse it naming the rule and path, and
/// `sign`/`sign_and_attach` refuse to sign it unsigned.
#[test]
fn every_refusal_vector_is_refused_by_its_rule() {
    let all = load();
    let vectors = list(&all, "refusals");
    let mut rules = std::collections::BTreeSet::new();
    for v in vectors {
        let (name, body, unsigned) = (text(v, "name"), text(v, "body"), text(v, "unsigned"));
        let key = PrivateKey::new(text(v, "key"));
        let lenient = Flattened::parse(body.as_bytes()).unwrap();
        assert_eq!(
            lenient.signature(),
            Some(lenient.signature_hex(&key).as_str()),
            "{name}: not signed with its key"
        );
        let Err(VerifyError::Malformed(CanonicalError::Ambiguous { path, rule })) =
            sign::verify(body.as_bytes(), &key)
        else {
            panic!("{name}: {:?}", sign::verify(body.as_bytes(), &key));
        };
        assert_eq!(
            (rule.id(), path.as_str()),
            (text(v, "rule"), text(v, "path")),
            "{name}"
        );
        rules.insert(rule.id());
        let expected = CanonicalError::Ambiguous {
            path: path.clone(),
            rule,
        };
        assert_eq!(
            sign::check(body.as_bytes(), &key),
            Err(expected.clone()),
            "{name}"
        );
        assert_eq!(
            sign::sign_and_attach(unsigned.as_bytes().to_vec(), &key),
            Err(expected.clone()),
            "{name}"
        );
        assert_eq!(
            sign::sign(unsigned.as_bytes(), &key),
            Err(expected),
            "{name}"
        );
        // `unsigned` is `body` without its signature.
        assert_eq!(
            Flattened::parse(unsigned.as_bytes())
                .unwrap()
                .signature_hex(&key),
            lenient.signature_hex(&key),
            "{name}"
        );
    }
    assert_eq!(
        rules.into_iter().collect::<Vec<_>>(),
        ["R1", "R2", "R3", "R4"]
    );
}

/// A null member of a received body reads as absent: it verifies. The signing
/// functions sign the unsigned body to the same signature, skipping its null
/// members as the document says, and warn about each one (`tracing::warn!` with
/// its `path`, in document order); `Flattened::null_member_paths` gives them too.
/// The client's own requests still never carry a null.
#[test]
fn received_null_members_verify_and_are_signed_skipping_them() {
    let all = load();
    let vectors = list(&all, "received_nulls");
    assert!(vectors.len() >= 3);
    for v in vectors {
        let (name, body, unsigned) = (text(v, "name"), text(v, "body"), text(v, "unsigned"));
        let key = PrivateKey::new(text(v, "key"));
        assert_eq!(sign::verify(body.as_bytes(), &key), Ok(()), "{name}");
        let skipped: Vec<String> = v["skipped"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p.as_str().unwrap().to_owned())
            .collect();
        assert_eq!(skipped.first().map(String::as_str), Some(text(v, "path")));
        let expected = Flattened::parse(body.as_bytes())
            .unwrap()
            .signature()
            .unwrap()
            .to_owned();
        let (signed, warned) = warnings(|| sign::sign(unsigned.as_bytes(), &key));
        assert_eq!(signed, Ok(expected), "{name}");
        assert_eq!(warned, skipped, "{name}");
        let (attached, warned) =
            warnings(|| sign::sign_and_attach(unsigned.as_bytes().to_vec(), &key));
        assert_eq!(attached.unwrap(), body.as_bytes(), "{name}");
        assert_eq!(warned, skipped, "{name}");
        let flat = Flattened::parse_unambiguous(unsigned.as_bytes()).unwrap();
        assert_eq!(flat.null_member_paths(), skipped, "{name}");
        // Verifying warns about nothing: a received null member reads as absent.
        let (_, warned) = warnings(|| sign::verify(body.as_bytes(), &key));
        assert!(warned.is_empty(), "{name}: {warned:?}");
    }
    // A body without nulls signs without a warning.
    let (_, warned) = warnings(|| sign::sign(br#"{"a":"null","b":[1]}"#, &PrivateKey::new(KEY)));
    assert!(warned.is_empty(), "{warned:?}");
}

/// The SDK client never sends a null: a request whose params hold one is refused
/// before it is sent, naming the field.
#[test]
fn the_client_never_signs_a_request_holding_a_null() {
    let key = PrivateKey::new(KEY);
    for params in [
        serde_json::json!({"accountId": "1", "remark": null}),
        serde_json::json!({"orders": [{"name": "a", "note": null}]}),
    ] {
        let refused =
            baas_runtime::envelope::sign_request(&params, "client1", "en_KE", &key).unwrap_err();
        let text = refused.to_string();
        assert!(text.contains("is null; a null is never sent"), "{text}");
    }
    assert!(baas_runtime::envelope::sign_request(
        &serde_json::json!({"accountId": "1"}),
        "client1",
        "en_KE",
        &key
    )
    .is_ok());
}

/// The re-cut bodies have the canonical string of the body they were cut from, so its
/// signature holds over them. Where the re-cut keeps every rule, a receiver cannot
/// tell it from a genuine message: the defence is that the original is never signed
/// by us and never accepted.
#[test]
fn recut_bodies_share_the_canonical_string_of_their_original() {
    let all = load();
    let mut clean = 0;
    for v in list(&all, "refusals")
        .iter()
        .filter(|v| v.get("recut").is_some())
    {
        let (name, body, recut) = (text(v, "name"), text(v, "body"), text(v, "recut"));
        let key = PrivateKey::new(text(v, "key"));
        let original = Flattened::parse(body.as_bytes()).unwrap();
        let cut = Flattened::parse(recut.as_bytes()).unwrap();
        assert_ne!(
            original.pairs().collect::<Vec<_>>(),
            cut.pairs().collect::<Vec<_>>(),
            "{name}"
        );
        assert_eq!(
            original.canonical_bytes_exposing_key(&key),
            cut.canonical_bytes_exposing_key(&key),
            "{name}"
        );
        let is_clean = v["recut_is_clean"].as_bool().unwrap();
        assert_eq!(
            sign::verify(recut.as_bytes(), &key).is_ok(),
            is_clean,
            "{name}"
        );
        clean += usize::from(is_clean);
    }
    assert!(clean >= 1);
}
