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
mod naive {
    use proptest::prelude::*;
    use sha2::{Digest, Sha256};

    #[derive(Debug, Clone)]
    pub enum J {
        Null,
        Bool(bool),
        Num(String),
        Str(String),
        Arr(Vec<J>),
        Obj(Vec<(String, J)>),
    }

    fn text() -> impl Strategy<Value = String> {
        // Every kind of character: controls, quotes, backslash, `/`, `&`, `=`, `.`,
        // `[`, non-BMP (surrogate pairs when escaped).
        prop::collection::vec(
            prop_oneof![
                3 => prop::char::range('a', 'e'),
                1 => prop::sample::select(vec!['"', '\\', '/', '\n', '\t', '\u{0}', '\u{1f}', '\u{7f}', '&', '=', '.', '[', ']', ' ', 'é', '张', '\u{ffff}', '😀', '\u{10ffff}']),
                1 => any::<char>(),
            ],
            0..6,
        )
        .prop_map(|v| v.into_iter().collect())
    }

    fn number() -> impl Strategy<Value = String> {
        "-?(0|[1-9][0-9]{0,20})(\\.[0-9]{1,6})?([eE][+-]?[0-9]{1,3})?"
    }

    fn leaf() -> impl Strategy<Value = J> {
        prop_oneof![
            1 => Just(J::Null),
            1 => any::<bool>().prop_map(J::Bool),
            2 => number().prop_map(J::Num),
            3 => text().prop_map(J::Str),
        ]
    }

    fn unique(pairs: Vec<(String, J)>) -> Vec<(String, J)> {
        let mut seen = std::collections::HashSet::new();
        pairs
            .into_iter()
            .filter(|(k, _)| seen.insert(k.clone()))
            .collect()
    }

    pub fn object() -> impl Strategy<Value = J> {
        let value = leaf().prop_recursive(5, 64, 5, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..5).prop_map(J::Arr),
                prop::collection::vec((text(), inner), 0..5).prop_map(|p| J::Obj(unique(p))),
            ]
        });
        let top_key = prop_oneof![
            3 => text(),
            1 => Just("signature".to_owned()),
            1 => Just("amount".to_owned()),
            1 => Just("amount2".to_owned()),
            1 => Just("senderKex".to_owned()),
            1 => Just("senderKeyz".to_owned()),
        ];
        prop::collection::vec((top_key, value), 0..7).prop_map(|p| {
            // A top-level `signature` must be a string (or null) to be a message.
            let p = unique(p)
                .into_iter()
                .map(|(k, v)| match v {
                    J::Null | J::Str(_) => (k, v),
                    other if k == "signature" => (k, J::Str(format!("{other:?}"))),
                    other => (k, other),
                })
                .collect();
            J::Obj(p)
        })
    }

    /// A tiny deterministic generator for the writer's choices.
    pub struct Choices(pub u64);

    impl Choices {
        fn next(&mut self, n: u64) -> u64 {
            self.0 = self
                .0
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (self.0 >> 33) % n
        }
    }

    fn ws(out: &mut String, c: &mut Choices) {
        for _ in 0..c.next(3) {
            out.push([' ', '\t', '\n', '\r'][c.next(4) as usize]);
        }
    }

    fn write_str(s: &str, out: &mut String, c: &mut Choices) {
        out.push('"');
        for ch in s.chars() {
            let short = match ch {
                '"' => Some("\\\""),
                '\\' => Some("\\\\"),
                '/' => Some("\\/"),
                '\u{8}' => Some("\\b"),
                '\u{c}' => Some("\\f"),
                '\n' => Some("\\n"),
                '\r' => Some("\\r"),
                '\t' => Some("\\t"),
                _ => None,
            };
            let must_escape = matches!(ch, '"' | '\\') || (ch as u32) < 0x20;
            match c.next(3) {
                0 if !must_escape => out.push(ch),
                1 if short.is_some() => out.push_str(short.unwrap_or_default()),
                _ => {
                    let mut units = [0u16; 2];
                    for u in ch.encode_utf16(&mut units) {
                        if c.next(2) == 0 {
                            out.push_str(&format!("\\u{u:04x}"));
                        } else {
                            out.push_str(&format!("\\u{u:04X}"));
                        }
                    }
                }
            }
        }
        out.push('"');
    }

    pub fn write(j: &J, out: &mut String, c: &mut Choices) {
        ws(out, c);
        match j {
            J::Null => out.push_str("null"),
            J::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            J::Num(n) => out.push_str(n),
            J::Str(s) => write_str(s, out, c),
            J::Arr(items) => {
                out.push('[');
                ws(out, c);
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    write(item, out, c);
                }
                out.push(']');
            }
            J::Obj(pairs) => {
                out.push('{');
                ws(out, c);
                for (i, (k, v)) in pairs.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    ws(out, c);
                    write_str(k, out, c);
                    ws(out, c);
                    out.push(':');
                    write(v, out, c);
                }
                out.push('}');
            }
        }
        ws(out, c);
    }

    fn flatten(path: &str, j: &J, out: &mut Vec<String>) {
        match j {
            J::Null => {}
            J::Bool(b) => out.push(format!("{path}={b}")),
            J::Num(n) => out.push(format!("{path}={n}")),
            J::Str(s) => out.push(format!("{path}={s}")),
            J::Arr(items) if items.is_empty() => out.push(format!("{path}=[]")),
            J::Obj(pairs) if pairs.is_empty() => out.push(format!("{path}={{}}")),
            J::Arr(items) => {
                for (i, item) in items.iter().enumerate() {
                    flatten(&format!("{path}[{i}]"), item, out);
                }
            }
            J::Obj(pairs) => {
                for (k, v) in pairs {
                    flatten(&format!("{path}.{k}"), v, out);
                }
            }
        }
    }

    /// The canonical string of a top-level object, with the key.
    pub fn canonical(top: &J, key: &str) -> String {
        let mut pairs = Vec::new();
        if let J::Obj(members) = top {
            for (k, v) in members {
                if k != "signature" {
                    flatten(k, v, &mut pairs);
                }
            }
        }
        pairs.push(format!("senderKey={key}"));
        pairs.sort();
        pairs.join("&")
    }

    pub fn signature(top: &J, key: &str) -> String {
        hex::encode(Sha256::digest(canonical(top, key).as_bytes()))
    }
}

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
mod vectors {
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
            let flat = Flattened::parse_unambiguous(body.as_bytes())
                .unwrap_or_else(|e| panic!("{name}: {e}"));
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
        let (_, warned) =
            warnings(|| sign::sign(br#"{"a":"null","b":[1]}"#, &PrivateKey::new(KEY)));
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
            let refused = baas_runtime::envelope::sign_request(&params, "client1", "en_KE", &key)
                .unwrap_err();
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
}

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
