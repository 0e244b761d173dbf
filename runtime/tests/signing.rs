//! Golden cases for every flattening rule, the worked example of public-facts.md,
//! property tests of sign/verify, and the shared vectors of
//! `tests/data/signing-vectors.json`.

use baas_runtime::canonical::{Ambiguity, CanonicalError, Flattened};
use baas_runtime::sign::{self, VerifyError};
use baas_runtime::PrivateKey;
use proptest::prelude::*;
use sha2::{Digest, Sha256};

const KEY: &str = "yourkey";

/// Checks both the canonical string (key redacted) and the signature, which must be the
/// SHA-256 of the expected string with the real key, computed here independently. A
/// body that breaks a re-cut rule still has a canonical string (`Flattened::parse`),
/// but `sign::sign` refuses it.
fn golden(body: &str, expected_with_key_marker: &str) {
    let key = PrivateKey::new(KEY);
    let flat = Flattened::parse(body.as_bytes()).unwrap();
    let redacted = expected_with_key_marker.replace("<KEY>", "[redacted]");
    assert_eq!(
        flat.canonical_string_redacted(&key),
        redacted,
        "body {body}"
    );
    let real = expected_with_key_marker.replace("<KEY>", KEY);
    assert_eq!(flat.canonical_bytes_exposing_key(&key), real.as_bytes());
    let expected_sig = hex::encode(Sha256::digest(real.as_bytes()));
    assert_eq!(flat.signature_hex(&key), expected_sig, "body {body}");
    match Flattened::parse_unambiguous(body.as_bytes()) {
        Ok(_) => assert_eq!(
            sign::sign(body.as_bytes(), &key).unwrap(),
            expected_sig,
            "body {body}"
        ),
        Err(e) => assert_eq!(sign::sign(body.as_bytes(), &key), Err(e), "body {body}"),
    }
}

/// The rule by which the signer refuses `body`.
fn refused_rule(body: &str) -> Option<Ambiguity> {
    match sign::sign(body.as_bytes(), &PrivateKey::new(KEY)) {
        Err(CanonicalError::Ambiguous { rule, .. }) => Some(rule),
        _ => None,
    }
}

#[test]
fn worked_example_of_public_facts() {
    let body = r#"{"requestId":"APPREQ00990320fed02000","sender":"client1","locale":"en_KE","timestamp":1650533105687,"salt":"QcEwsZ123da","params":{"name":"Tester"}}"#;
    golden(
        body,
        "locale=en_KE&params.name=Tester&requestId=APPREQ00990320fed02000&salt=QcEwsZ123da&sender=client1&senderKey=<KEY>&timestamp=1650533105687",
    );
    assert_eq!(
        sign::sign(body.as_bytes(), &PrivateKey::new(KEY)).unwrap(),
        "ce4f419f667b7d5621892337c23905b894472e6b186f06a0e237528b011ab2f2"
    );
    // The same with a (wrong) signature present: it is left out of the string.
    let with_sig = body.replace("{\"requestId\"", "{\"signature\":\"00\",\"requestId\"");
    assert_eq!(
        sign::sign(with_sig.as_bytes(), &PrivateKey::new(KEY)).unwrap(),
        "ce4f419f667b7d5621892337c23905b894472e6b186f06a0e237528b011ab2f2"
    );
    // Locale is signed as sent, never lower-cased.
    let lower = body.replace("en_KE", "en_ke");
    assert_ne!(
        sign::sign(lower.as_bytes(), &PrivateKey::new(KEY)).unwrap(),
        "ce4f419f667b7d5621892337c23905b894472e6b186f06a0e237528b011ab2f2"
    );
}

#[test]
fn nested_arrays_of_objects() {
    golden(
        r#"{"params":{"oderArray":[{"amount":"1.50","tags":[{"k":"v"},{"k":"w"}]},{"quantity":2}]}}"#,
        "params.oderArray[0].amount=1.50&params.oderArray[0].tags[0].k=v&params.oderArray[0].tags[1].k=w&params.oderArray[1].quantity=2&senderKey=<KEY>",
    );
    golden(
        r#"{"m":[[1,[2]],[]]}"#,
        "m[0][0]=1&m[0][1][0]=2&m[1]=[]&senderKey=<KEY>",
    );
}

#[test]
fn empty_containers_and_nulls() {
    golden(r#"{"params":{}}"#, "params={}&senderKey=<KEY>");
    golden(
        r#"{"x":[],"y":{"z":{}},"n":null,"a":[null,1]}"#,
        "a[1]=1&senderKey=<KEY>&x=[]&y.z={}",
    );
    golden("{}", "senderKey=<KEY>");
    // A null member is skipped, as the document says: the body signs as it does without
    // it. A null element would move the indexes after it: refused (R2).
    let key = PrivateKey::new(KEY);
    assert_eq!(
        sign::sign(br#"{"x":[],"n":null}"#, &key),
        sign::sign(br#"{"x":[]}"#, &key)
    );
    assert!(sign::sign(br#"{"x":[],"n":null}"#, &key).is_ok());
    assert_eq!(
        refused_rule(r#"{"x":[],"a":[null,1]}"#),
        Some(Ambiguity::Null)
    );
    assert_eq!(
        refused_rule(r#"{"x":[],"a":[{"n":null},null]}"#),
        Some(Ambiguity::Null)
    );
}

#[test]
fn unicode_raw_utf8_no_escaping() {
    golden(
        r#"{"name":"张三","e":"caf\u00e9 \ud83d\ude00","q":"a\"b\\c/d\/"}"#,
        "e=café 😀&name=张三&q=a\"b\\c/d/&senderKey=<KEY>",
    );
}

#[test]
fn values_with_ampersand_and_equals() {
    golden(
        r#"{"a":"x&b=y","b":"=","c":"&"}"#,
        "a=x&b=y&b==&c=&&senderKey=<KEY>",
    );
    // That string is also the one of `{"a":"x","b":"y","b":"="...}`: refused (rule R3).
    assert_eq!(
        refused_rule(r#"{"a":"x&b=y","b":"=","c":"&"}"#),
        Some(Ambiguity::ValueReadsAsPair)
    );
    // `&` and `=` that cannot be read as a pair are signed.
    golden(
        r#"{"a":"Tom & Jerry","b":"=","c":"&","d":"a=b&c"}"#,
        "a=Tom & Jerry&b==&c=&&d=a=b&c&senderKey=<KEY>",
    );
}

#[test]
fn complete_pairs_sort_by_bytes_not_by_key() {
    // By key `amount` < `amount2`; by complete pair `amount2=1` < `amount=5`
    // because `2` (0x32) sorts before `=` (0x3D).
    golden(
        r#"{"amount":"5","amount2":"1"}"#,
        "amount2=1&amount=5&senderKey=<KEY>",
    );
    // Upper case before lower case; senderKey sorts among the others by its bytes.
    golden(
        r#"{"sendera":"x","sender":"c","B":1,"a":2}"#,
        "B=1&a=2&sender=c&senderKey=<KEY>&sendera=x",
    );
}

#[test]
fn index_ten_sorts_before_index_one() {
    let items: Vec<String> = (0..12).map(|i| i.to_string()).collect();
    let body = format!(r#"{{"a":[{}]}}"#, items.join(","));
    golden(
        &body,
        "a[0]=0&a[10]=10&a[11]=11&a[1]=1&a[2]=2&a[3]=3&a[4]=4&a[5]=5&a[6]=6&a[7]=7&a[8]=8&a[9]=9&senderKey=<KEY>",
    );
}

#[test]
fn numbers_and_booleans_keep_their_literal_text() {
    golden(
        r#"{"amt":100.50,"big":12345678901234567890.10,"e":-1.5E+3,"t":true,"f":false,"s":"100.50"}"#,
        "amt=100.50&big=12345678901234567890.10&e=-1.5E+3&f=false&s=100.50&senderKey=<KEY>&t=true",
    );
    // Whitespace between tokens does not matter; the text of values does.
    let key = PrivateKey::new(KEY);
    assert_eq!(
        sign::sign(b"{ \"a\" : 1.10 ,\n\"b\":[ ] }", &key).unwrap(),
        sign::sign(br#"{"a":1.10,"b":[]}"#, &key).unwrap()
    );
    assert_ne!(
        sign::sign(br#"{"a":1.10}"#, &key).unwrap(),
        sign::sign(br#"{"a":1.1}"#, &key).unwrap()
    );
}

#[test]
fn verify_reports_missing_and_mismatch() {
    let key = PrivateKey::new(KEY);
    assert_eq!(sign::verify(br#"{"a":1}"#, &key), Err(VerifyError::Missing));
    let signed = sign::sign_and_attach(br#"{"a":1}"#.to_vec(), &key).unwrap();
    assert_eq!(sign::verify(&signed, &key), Ok(()));
    assert_eq!(
        sign::verify(&signed, &PrivateKey::new("other")),
        Err(VerifyError::Mismatch)
    );
    let upper = String::from_utf8(signed.clone())
        .unwrap()
        .to_uppercase()
        .replace("\"A\"", "\"a\"")
        .replace("SIGNATURE", "signature");
    assert_eq!(
        sign::verify(upper.as_bytes(), &key),
        Err(VerifyError::Mismatch)
    );
    assert!(matches!(
        sign::verify(b"[]", &key),
        Err(VerifyError::Malformed(_))
    ));
    let check = sign::check(&signed, &key).unwrap();
    assert!(check.holds());
    assert_eq!(Some(check.expected.as_str()), check.received.as_deref());
}

/// Leaves of arbitrary JSON. With `nulls`, a third of them are null: the algorithm
/// skips nulls, so the key of a null value is not signed; the runtime therefore never
/// sends one, and the one-byte-change property is stated for null-free bodies.
fn json_leaf(nulls: bool) -> impl Strategy<Value = serde_json::Value> {
    let null_weight = if nulls { 2 } else { 0 };
    prop_oneof![
        null_weight => Just(serde_json::Value::Null),
        1 => any::<bool>().prop_map(serde_json::Value::Bool),
        1 => any::<i64>().prop_map(|n| serde_json::json!(n)),
        1 => (-1_000_000i64..1_000_000, 0u32..6).prop_map(|(m, s)| {
            // A decimal number literal with trailing zeros kept.
            let text = format!("{}", baas_runtime::Amount::new(m, s));
            serde_json::from_str(&text).unwrap_or(serde_json::Value::Null)
        }),
        2 => "[^\\x00-\\x1f]{0,12}".prop_map(serde_json::Value::String),
    ]
}

/// Object keys: with `any_key`, any of those that may break rule R1.
fn object_key(any_key: bool) -> &'static str {
    if any_key {
        "[a-zA-Z0-9_&=.\\[\\] é]{0,8}"
    } else {
        "[a-zA-Z0-9_ é]{1,8}"
    }
}

fn json_value(nulls: bool) -> impl Strategy<Value = serde_json::Value> {
    json_leaf(nulls).prop_recursive(4, 48, 6, move |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(serde_json::Value::Array),
            prop::collection::btree_map(object_key(nulls), inner, 0..6)
                .prop_map(|m| serde_json::Value::Object(m.into_iter().collect())),
        ]
    })
}

/// An object body. Without `anything`, one that keeps the re-cut rules but for rule R3
/// (values may hold `&` and `=`, rarely as a pair).
fn json_object(anything: bool) -> impl Strategy<Value = Vec<u8>> {
    let top_key = if anything {
        "[a-zA-Z0-9_&=.]{1,8}"
    } else {
        "[a-zA-Z0-9_]{1,8}"
    };
    prop::collection::btree_map(top_key, json_value(anything), 0..6).prop_map(|m| {
        let mut m: serde_json::Map<String, serde_json::Value> = m.into_iter().collect();
        m.remove("signature");
        m.remove("senderKey");
        serde_json::to_vec(&serde_json::Value::Object(m)).unwrap_or_default()
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// What the signer signs verifies; what it refuses, it refuses for a re-cut rule,
    /// and the verifier refuses it too, signed or not, naming the same breach. Null
    /// members are skipped by both (the signature is the one of the body without them);
    /// a null array element is refused by both.
    #[test]
    fn sign_then_verify_holds(body in json_object(true), key in "[ -~]{1,32}") {
        let key = PrivateKey::new(key);
        match sign::sign_and_attach(body.clone(), &key) {
            Ok(signed) => {
                prop_assert_eq!(sign::verify(&signed, &key), Ok(()));
                let flat = Flattened::parse_unambiguous(&body).unwrap();
                let nulls = flat.null_member_paths();
                prop_assert_eq!(nulls.is_empty(), flat.first_null_path().is_none());
                if !nulls.is_empty() {
                    // The same signature as the body with its null members removed.
                    let mut value: serde_json::Value = serde_json::from_slice(&body).unwrap();
                    let removed = remove_null_members(&mut value);
                    prop_assert_eq!(removed, nulls.len());
                    let without = serde_json::to_vec(&value).unwrap();
                    prop_assert_eq!(sign::sign(&without, &key), sign::sign(&body, &key));
                }
            }
            Err(e) => {
                prop_assert!(matches!(e, CanonicalError::Ambiguous { .. }), "{}", e);
                if let CanonicalError::Ambiguous { rule: Ambiguity::Null, path } = &e {
                    prop_assert!(path.ends_with(']'), "a null member is skipped: {}", path);
                }
                let flat = Flattened::parse(&body).unwrap();
                let signature = flat.signature_hex(&key);
                let signed = sign::attach_signature(body, &signature).unwrap();
                prop_assert_eq!(sign::verify(&signed, &key), Err(VerifyError::Malformed(e)));
            }
        }
    }

    #[test]
    fn bodies_that_keep_the_rules_are_signed(body in json_object(false), key in "[ -~]{1,32}") {
        let key = PrivateKey::new(key);
        match sign::sign_and_attach(body.clone(), &key) {
            Ok(signed) => prop_assert_eq!(sign::verify(&signed, &key), Ok(())),
            Err(e) => prop_assert!(
                matches!(e, CanonicalError::Ambiguous { rule: Ambiguity::ValueReadsAsPair, .. }),
                "{} {}", e, String::from_utf8_lossy(&body)
            ),
        }
    }

    #[test]
    fn any_one_byte_change_fails(body in json_object(false), at in any::<prop::sample::Index>(), new in any::<u8>()) {
        let key = PrivateKey::new("k3y");
        let Ok(mut signed) = sign::sign_and_attach(body, &key) else {
            return Ok(());
        };
        let i = at.index(signed.len());
        prop_assume!(signed[i] != new);
        signed[i] = new;
        prop_assert!(sign::verify(&signed, &key).is_err(), "still verifies: {}", String::from_utf8_lossy(&signed));
    }

    #[test]
    fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..256)) {
        let _ = Flattened::parse(&bytes);
        let _ = sign::verify(&bytes, &PrivateKey::new("k"));
    }
}

/// An independent, deliberately naive model of the document's algorithm: a JSON tree
/// with numbers kept as their literal text, written out with random whitespace and
/// random (but valid) string escapes, flattened to owned strings, sorted, joined and
/// hashed. The runtime's one-pass signer must agree with it on every input.
#[path = "signing/naive.rs"]
mod naive;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// The one-pass signer agrees with the naive model on arbitrary messages written
    /// with arbitrary whitespace and escapes (`\uXXXX` in either case, surrogate pairs,
    /// `\/`, short escapes), numbers of every JSON form, and keys around `senderKey`.
    #[test]
    fn agrees_with_an_independent_naive_signer(
        top in naive::object(),
        seed in any::<u64>(),
        key in "[ -~]{1,16}",
    ) {
        let mut text = String::new();
        naive::write(&top, &mut text, &mut naive::Choices(seed));
        prop_assert!(serde_json::from_str::<serde::de::IgnoredAny>(&text).is_ok(), "writer produced invalid JSON: {}", text);
        let pk = PrivateKey::new(key.clone());
        let flat = Flattened::parse(text.as_bytes());
        prop_assert!(flat.is_ok(), "refused {}: {:?}", text, flat.err());
        let flat = flat.unwrap_or_else(|_| unreachable!());
        let got = String::from_utf8_lossy(&flat.canonical_bytes_exposing_key(&pk)).into_owned();
        prop_assert_eq!(&got, &naive::canonical(&top, &key), "body {}", text);
        prop_assert_eq!(flat.signature_hex(&pk), naive::signature(&top, &key));
    }
}

/// The vectors every signer and verifier we ship shares (`tests/data/signing-vectors.json`;
/// `interop/signing.py` and `baas-sign`'s tests read them too).
#[path = "signing/vectors.rs"]
mod vectors;

/// Removes every null member of `value` (at any depth); how many there were.
fn remove_null_members(value: &mut serde_json::Value) -> usize {
    match value {
        serde_json::Value::Object(members) => {
            let before = members.len();
            members.retain(|_, v| !v.is_null());
            let mut removed = before - members.len();
            for v in members.values_mut() {
                removed += remove_null_members(v);
            }
            removed
        }
        serde_json::Value::Array(items) => items.iter_mut().map(remove_null_members).sum(),
        _ => 0,
    }
}

/// The `path` of every `tracing` warning given on this thread while `f` runs, in order.
fn warnings<T>(f: impl FnOnce() -> T) -> (T, Vec<String>) {
    use std::sync::{Arc, Mutex};
    use tracing::field::{Field, Visit};

    struct Paths(Arc<Mutex<Vec<String>>>);
    struct PathField(Option<String>);
    impl Visit for PathField {
        fn record_str(&mut self, field: &Field, value: &str) {
            if field.name() == "path" {
                self.0 = Some(value.to_owned());
            }
        }
        fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
            if field.name() == "path" {
                self.0 = Some(format!("{value:?}"));
            }
        }
    }
    impl tracing::Subscriber for Paths {
        fn enabled(&self, _: &tracing::Metadata<'_>) -> bool {
            true
        }
        fn new_span(&self, _: &tracing::span::Attributes<'_>) -> tracing::span::Id {
            tracing::span::Id::from_u64(1)
        }
        fn record(&self, _: &tracing::span::Id, _: &tracing::span::Record<'_>) {}
        fn record_follows_from(&self, _: &tracing::span::Id, _: &tracing::span::Id) {}
        fn event(&self, event: &tracing::Event<'_>) {
            if *event.metadata().level() == tracing::Level::WARN {
                let mut path = PathField(None);
                event.record(&mut path);
                if let (Some(path), Ok(mut all)) = (path.0, self.0.lock()) {
                    all.push(path);
                }
            }
        }
        fn enter(&self, _: &tracing::span::Id) {}
        fn exit(&self, _: &tracing::span::Id) {}
    }
    let paths = Arc::new(Mutex::new(Vec::new()));
    let result = tracing::subscriber::with_default(Paths(paths.clone()), f);
    let found = paths.lock().map(|p| p.clone()).unwrap_or_default();
    (result, found)
}
