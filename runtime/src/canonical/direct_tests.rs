//! Signing while serializing gives the bytes `serde_json` writes and the digest the
//! parse of those bytes gives, or leaves the value to that parse.

use proptest::prelude::*;
use serde::Serialize;
use serde_json::{json, Value};

use super::{serialize_request_signed, serialize_signed, sign_request_envelope, RequestHead};
use crate::canonical::Borrowed;
use crate::secret::PrivateKey;
use crate::{Amount, RawJson};

fn key() -> PrivateKey {
    PrivateKey::new("k&e=y")
}

/// `Some`: the same bytes as `serde_json` and the digest of parsing them back (which
/// must sign them); `None` is always allowed. Returns whether this pass took it.
fn agrees<T: Serialize + ?Sized>(value: &T) -> Result<bool, TestCaseError> {
    let Some((bytes, digest)) = serialize_signed(value, &key()) else {
        return Ok(false);
    };
    let expected = serde_json::to_vec(value).map_err(|e| TestCaseError::fail(e.to_string()))?;
    prop_assert_eq!(
        String::from_utf8_lossy(&bytes),
        String::from_utf8_lossy(&expected)
    );
    let parsed = Borrowed::parse_unambiguous(&bytes).and_then(Borrowed::without_nulls);
    prop_assert!(parsed.is_ok(), "{:?}", parsed.err());
    if let Ok(parsed) = parsed {
        prop_assert!(!parsed.has_signature_key());
        prop_assert_eq!(parsed.digest(&key()), digest);
    }
    Ok(true)
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Order {
    product_name: String,
    quantity: u32,
    amount: Amount,
}

#[derive(Serialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
enum Purpose {
    PurchaseGoods,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Params {
    payer_account_id: String,
    beneficiary_name: String,
    purpose: Purpose,
    #[serde(skip_serializing_if = "Option::is_none")]
    remark: Option<String>,
    urgent: bool,
    oder_array: Vec<Order>,
    empty: Vec<Order>,
    nothing: std::collections::BTreeMap<String, u8>,
    tags: [i64; 12],
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Envelope<'a, P> {
    request_id: &'a str,
    sender: &'a str,
    timestamp: i64,
    params: &'a P,
}

fn params() -> Params {
    Params {
        payer_account_id: "1002003004005".into(),
        beneficiary_name: "张三 \"quoted\" \\ tab\t".into(),
        purpose: Purpose::PurchaseGoods,
        remark: None,
        urgent: true,
        oder_array: (1..=3)
            .map(|i| Order {
                product_name: format!("Product {i} 电子元件"),
                quantity: 10 * i,
                amount: format!("{i}2500.50").parse().unwrap(),
            })
            .collect(),
        empty: Vec::new(),
        nothing: std::collections::BTreeMap::new(),
        tags: [-1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, i64::MAX],
    }
}

#[test]
fn requests_are_signed_in_one_pass() {
    let p = params();
    let envelope = Envelope {
        request_id: "client1abc",
        sender: "client1",
        timestamp: 1_650_533_105_687,
        params: &p,
    };
    // Taken (the point of the pass), and in agreement with the parse.
    assert_eq!(agrees(&envelope).map_err(|e| e.to_string()), Ok(true));
    let containers =
        json!({"a": {}, "b": [], "c": [[], {}], "senderKeys": 1, "d": "a=b, Tom & Jerry"});
    assert_eq!(agrees(&containers).map_err(|e| e.to_string()), Ok(true));
    assert_eq!(agrees(&json!({})).map_err(|e| e.to_string()), Ok(true));
}

#[test]
fn what_a_rule_looks_at_is_left_to_the_parse() {
    let raw = RawJson::from_string(r#"{"x":1}"#.into()).unwrap();
    let left = [
        json!({"a": null}),
        json!({"a": [1, null]}),
        json!({"a": 1.5}),
        json!({"a": "x&b=1"}),
        json!({"o": {"a": ["x&o.a[0]=1"]}}),
        json!({"a.b": 1}),
        json!({"": 1}),
        json!({"o": {"k=": 1}}),
        json!({"senderKey": "x"}),
        json!({"signature": "00"}),
        json!([1, 2]),
        json!("text"),
    ];
    for value in &left {
        assert_eq!(serialize_signed(value, &key()), None, "{value}");
    }
    // serde_json's raw values (RawJson, amounts written as numbers) are written by
    // serde_json's own serializer only.
    #[derive(Serialize)]
    struct WithRaw {
        raw: RawJson,
        #[serde(with = "crate::amount::number")]
        number: Amount,
    }
    let with_raw = WithRaw {
        raw,
        number: "1.50".parse().unwrap(),
    };
    assert_eq!(serialize_signed(&with_raw, &key()), None);
    // A repeated key, in a small object and in one past the quadratic search.
    for n in [1, 20] {
        let repeated = Repeated((0..n).map(|i| (format!("k{i}"), 1)).collect());
        assert_eq!(serialize_signed(&repeated, &key()), None, "{n}");
    }
    #[derive(Serialize)]
    enum WithData {
        Newtype(u8),
    }
    #[derive(Serialize)]
    struct Holds {
        e: WithData,
    }
    let holds = Holds {
        e: WithData::Newtype(1),
    };
    assert_eq!(serialize_signed(&holds, &key()), None);
    // A long key over many values, whose pairs outgrow the text past the limit: left
    // to the parse, which refuses it.
    let long_key = "k".repeat(4096);
    let values = json!({ long_key: vec![1; 20_000] });
    assert_eq!(serialize_signed(&values, &key()), None);
    assert!(Borrowed::parse_unambiguous(&serde_json::to_vec(&values).unwrap()).is_err());
    // Nested to the depth limit (taken, as the parse takes it), then past it.
    let mut deep = json!(1);
    for _ in 0..64 {
        deep = json!({ "d": deep });
    }
    assert_eq!(agrees(&deep).map_err(|e| e.to_string()), Ok(true));
    let deeper = json!({ "d": deep });
    assert_eq!(serialize_signed(&deeper, &key()), None);
    assert!(Borrowed::parse_unambiguous(&serde_json::to_vec(&deeper).unwrap()).is_err());
}

/// A map that writes each of its keys twice.
struct Repeated(Vec<(String, u8)>);

impl Serialize for Repeated {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = s.serialize_map(None)?;
        for (k, v) in self.0.iter().chain(self.0.iter()) {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }
}

fn json_value() -> impl Strategy<Value = Value> {
    let key = prop_oneof![
        Just(String::new()),
        "[a-c]{1,3}",
        Just("senderKey".to_owned()),
        Just("senderKez".to_owned()),
        Just("sender".to_owned()),
        Just("signature".to_owned()),
        Just("a.b".to_owned()),
        Just("x&y".to_owned()),
        Just("k=".to_owned()),
        Just("[0]".to_owned()),
        Just("é\"\\\u{1}".to_owned()),
    ];
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        (-1.0e3f64..1.0e3).prop_map(Value::from),
        "[a-c&=.\\[\\] é\"\\\\\n]{0,6}".prop_map(Value::from),
    ];
    leaf.prop_recursive(4, 48, 6, move |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..12).prop_map(Value::Array),
            prop::collection::btree_map(key.clone(), inner, 0..6)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]
    #[test]
    fn same_bytes_and_digest_as_the_parse(
        members in prop::collection::btree_map("[a-z]{1,4}", json_value(), 0..6)
    ) {
        let value = Value::Object(members.into_iter().collect());
        agrees(&value)?;
    }
}

/// Values no rule refuses: objects, arrays, strings (`&` only with no `=` after it),
/// integers, booleans, plain keys.
fn clean_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        "[a-c=.\\[\\] é\"\\\\\n\u{1}]{0,6}".prop_map(Value::from),
        // `&` with no `=` after it reads as no pair.
        "[a-c ]{0,3}&[a-c. ]{0,3}".prop_map(Value::from),
    ];
    leaf.prop_recursive(4, 48, 12, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..12).prop_map(Value::Array),
            prop::collection::btree_map("[a-cé\"\\\\ ]{1,3}", inner, 0..6)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]
    #[test]
    fn clean_values_are_taken_and_agree(
        members in prop::collection::btree_map("[a-z]{1,4}", clean_value(), 0..6)
    ) {
        let value = Value::Object(members.into_iter().collect());
        prop_assert!(agrees(&value)?, "{}", value);
    }
}

/// The request envelope as `envelope.rs` declares it.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct RequestEnvelope<'a, P: ?Sized> {
    request_id: &'a str,
    sender: &'a str,
    locale: &'a str,
    timestamp: i64,
    salt: &'a str,
    params: &'a P,
}

/// The envelope written from its known order gives the bytes and digest of the envelope
/// struct (through `agrees`: serde_json's bytes, the parse's digest); when it leaves the
/// envelope to the generic pass, that pass either leaves it too or agrees.
fn request_agrees<P: Serialize + ?Sized>(
    head: &RequestHead<'_>,
    params: &P,
) -> Result<bool, TestCaseError> {
    let envelope = RequestEnvelope {
        request_id: head.request_id,
        sender: head.sender,
        locale: head.locale,
        timestamp: head.timestamp,
        salt: head.salt,
        params,
    };
    let generic = agrees(&envelope)?;
    let Some((bytes, digest)) = serialize_request_signed(head, params, &key()) else {
        return Ok(false);
    };
    prop_assert!(
        generic,
        "taken by the envelope's pass, not by the generic one"
    );
    prop_assert_eq!(
        Some((bytes.clone(), digest)),
        serialize_signed(&envelope, &key())
    );
    // Signed: the signature spliced in as `sign::attach_signature` does.
    let hex = crate::sign::digest_hex(&digest);
    let attached = crate::sign::attach_signature(bytes, crate::sign::hex_str(&hex)).ok();
    prop_assert_eq!(sign_request_envelope(head, params, &key()), attached);
    Ok(true)
}

#[test]
fn request_envelopes_are_signed_in_their_known_order() {
    let head = RequestHead {
        request_id: "client1a1b2c3d4e5f60718293a4b5c6d7e8f9",
        sender: "client1",
        locale: "en_KE",
        timestamp: 1_650_533_105_687,
        salt: "9f8e7d6c5b4a39281706f5e4",
    };
    let taken = |params: &Value| request_agrees(&head, params).map_err(|e| e.to_string());
    assert_eq!(
        request_agrees(&head, &params()).map_err(|e| e.to_string()),
        Ok(true)
    );
    for params in [
        json!({"accountId": "1002003004005"}),
        json!({}),
        json!([]),
        json!([1, {"a": "b"}]),
        json!("text"),
        json!(7),
        json!({"senderKey": 1, "signature": "x", "z": {"y": [true]}}),
    ] {
        assert_eq!(taken(&params), Ok(true), "{params}");
    }
    // What a rule refuses is left to the generic passes (which refuse it or sign it).
    for params in [json!({"a": null}), json!({"a": 1.5}), json!({"a": "x&b=1"})] {
        assert_eq!(taken(&params), Ok(false), "{params}");
    }
    let recut = RequestHead {
        sender: "c&params.a=1",
        ..head
    };
    assert_eq!(
        request_agrees(&recut, &json!({})).map_err(|e| e.to_string()),
        Ok(false)
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]
    #[test]
    fn request_envelopes_agree_with_the_struct(
        id in "[a-z0-9&=.é\"\\\\]{0,8}",
        sender in "[a-z&= \"\\\\\u{1}]{0,6}",
        locale in "[a-zA-Z_&=.]{0,6}",
        timestamp in any::<i64>(),
        salt in "[0-9a-f&=]{0,6}",
        params in prop_oneof![clean_value(), json_value()],
    ) {
        let head = RequestHead {
            request_id: &id,
            sender: &sender,
            locale: &locale,
            timestamp,
            salt: &salt,
        };
        request_agrees(&head, &params)?;
    }
}
