//! Golden cases for every flattening rule, the worked example of public-facts.md and
//! property tests of sign/verify.

use baas_runtime::canonical::Flattened;
use baas_runtime::sign::{self, VerifyError};
use baas_runtime::PrivateKey;
use proptest::prelude::*;
use sha2::{Digest, Sha256};

const KEY: &str = "yourkey";

/// Checks both the canonical string (key redacted) and the signature, which must be the
/// SHA-256 of the expected string with the real key, computed here independently.
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
    assert_eq!(
        sign::sign(body.as_bytes(), &key).unwrap(),
        expected_sig,
        "body {body}"
    );
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

fn json_value(nulls: bool) -> impl Strategy<Value = serde_json::Value> {
    json_leaf(nulls).prop_recursive(4, 48, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(serde_json::Value::Array),
            prop::collection::btree_map("[a-zA-Z0-9_&=.\\[\\] é]{0,8}", inner, 0..6)
                .prop_map(|m| serde_json::Value::Object(m.into_iter().collect())),
        ]
    })
}

fn json_object(nulls: bool) -> impl Strategy<Value = Vec<u8>> {
    prop::collection::btree_map("[a-zA-Z0-9_&=.]{1,8}", json_value(nulls), 0..6).prop_map(|m| {
        let mut m: serde_json::Map<String, serde_json::Value> = m.into_iter().collect();
        m.remove("signature");
        serde_json::to_vec(&serde_json::Value::Object(m)).unwrap_or_default()
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn sign_then_verify_holds(body in json_object(true), key in "[ -~]{1,32}") {
        let key = PrivateKey::new(key);
        let signed = sign::sign_and_attach(body, &key).unwrap();
        prop_assert_eq!(sign::verify(&signed, &key), Ok(()));
    }

    #[test]
    fn any_one_byte_change_fails(body in json_object(false), at in any::<prop::sample::Index>(), new in any::<u8>()) {
        let key = PrivateKey::new("k3y");
        let mut signed = sign::sign_and_attach(body, &key).unwrap();
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
