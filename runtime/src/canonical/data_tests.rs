//! `data` decoded from the lean pass's members (`data.rs`) against `serde_json` reading
//! its text: on every body the properties generate, whatever the fast decoding gives,
//! `serde_json` gives the same (and where it leaves, the caller's `serde_json` decides);
//! and the answers of every day are decoded by it.

use std::collections::{BTreeMap, HashMap};
use std::fmt::Debug;

use proptest::prelude::*;
use serde::de::DeserializeOwned;
use serde::Deserialize;

use super::compact::Compact;

/// The text of `body`'s top-level `data` (a part of `body`, not a copy), when the lean
/// pass reads the body.
fn data_text(body: &str) -> Option<&str> {
    let compact = Compact::read(body.as_bytes())?;
    let [data] = compact.top_members(body.as_bytes(), ["data"]);
    compact.keep();
    std::str::from_utf8(data?).ok()
}

/// The fast decoding of `body`'s `data` as `T`, against `serde_json`'s of its text:
/// whatever the fast one gives, `serde_json` gives too. Returns whether it gave one.
fn agrees<T: DeserializeOwned + PartialEq + Debug>(body: &str) -> Result<bool, TestCaseError> {
    let Some(text) = data_text(body) else {
        return Ok(false);
    };
    let compact = Compact::read(body.as_bytes()).unwrap();
    let fast = compact.decode_data::<T>(body.as_bytes(), text);
    compact.keep();
    let Some(fast) = fast else {
        return Ok(false);
    };
    let slow = serde_json::from_str::<T>(text);
    prop_assert!(
        slow.is_ok(),
        "decoded fast, serde_json says {slow:?}: {body}"
    );
    prop_assert_eq!(Some(fast), slow.ok(), "{}", body);
    Ok(true)
}

#[derive(Deserialize, Debug, PartialEq)]
struct Account {
    #[serde(rename = "accountId")]
    account_id: Option<String>,
    balance: Option<String>,
    currency: Option<String>,
    status: Option<String>,
}

#[derive(Deserialize, Debug, PartialEq)]
struct Mixed {
    a: Option<String>,
    b: Option<i64>,
    c: Option<f64>,
    #[serde(default)]
    d: bool,
    n: Option<serde_json::Value>,
    t: Option<Vec<u8>>,
}

#[derive(Deserialize, Debug, PartialEq)]
#[serde(deny_unknown_fields)]
struct Strict {
    a: String,
    b: Option<u8>,
}

#[derive(Deserialize, Debug, PartialEq)]
#[serde(untagged)]
enum Either {
    Account(Strict),
    Any(BTreeMap<String, serde_json::Value>),
}

#[derive(Deserialize, Debug, PartialEq)]
#[serde(rename_all = "lowercase")]
enum Status {
    Active,
    Closed,
}

#[derive(Deserialize, Debug, PartialEq)]
struct WithEnum {
    a: Option<Status>,
    #[serde(flatten)]
    rest: HashMap<String, serde_json::Value>,
}

/// Every type above against `serde_json` on `body`.
fn all_agree(body: &str) -> Result<(), TestCaseError> {
    agrees::<serde_json::Value>(body)?;
    agrees::<Account>(body)?;
    agrees::<Mixed>(body)?;
    agrees::<Strict>(body)?;
    agrees::<Either>(body)?;
    agrees::<WithEnum>(body)?;
    agrees::<HashMap<String, serde_json::Value>>(body)?;
    agrees::<BTreeMap<String, String>>(body)?;
    agrees::<BTreeMap<u32, serde_json::Value>>(body)?;
    agrees::<Vec<serde_json::Value>>(body)?;
    agrees::<Option<Account>>(body)?;
    agrees::<String>(body)?;
    Ok(())
}

fn value() -> impl Strategy<Value = String> {
    let leaf = prop_oneof![
        "[a-zA-Z0-9 _.-]{0,12}".prop_map(|s| format!("\"{s}\"")),
        Just("\"active\"".to_owned()),
        Just("\"closed\"".to_owned()),
        Just("\"张三 & co\"".to_owned()),
        Just(r#""x\ny""#.to_owned()),
        Just(r#""\u0041""#.to_owned()),
        any::<i64>().prop_map(|n| n.to_string()),
        any::<u8>().prop_map(|n| n.to_string()),
        Just("1.5".to_owned()),
        Just("-0.5e+3".to_owned()),
        Just("100.50".to_owned()),
        Just("1e400".to_owned()),
        Just("true".to_owned()),
        Just("false".to_owned()),
        Just("null".to_owned()),
        Just("{}".to_owned()),
        Just("[]".to_owned()),
    ];
    leaf.prop_recursive(2, 12, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 1..4).prop_map(|v| format!("[{}]", v.join(","))),
            prop::collection::vec(("[a-d]", inner), 1..4).prop_map(|m| {
                let members: Vec<String> = m.iter().map(|(k, v)| format!("\"{k}\":{v}")).collect();
                format!("{{{}}}", members.join(","))
            }),
        ]
    })
}

fn data() -> impl Strategy<Value = String> {
    let key = prop_oneof![
        Just("a"),
        Just("b"),
        Just("c"),
        Just("d"),
        Just("n"),
        Just("t"),
        Just("accountId"),
        Just("balance"),
        Just("12"),
        Just("x y"),
    ];
    prop_oneof![
        4 => prop::collection::vec((key, value()), 0..6).prop_map(|m| {
            let members: Vec<String> = m.iter().map(|(k, v)| format!("\"{k}\":{v}")).collect();
            format!("{{{}}}", members.join(","))
        }),
        1 => value(),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn fast_data_decoding_agrees_with_serde_json(data in data(), ws in prop::bool::ANY) {
        let sep = if ws { " " } else { "" };
        let body = format!(
            r#"{{"requestId":"r1","code":"00000",{sep}"data":{sep}{data}{sep},"msg":"ok","signature":"ab"}}"#
        );
        all_agree(&body)?;
    }
}

/// The answers of every day are decoded fast (and as `serde_json` decodes them).
#[test]
fn everyday_answers_are_decoded_from_the_lean_pass() {
    let answer = r#"{"requestId":"client1a1b2c3d4e5f60718293a4b5c6d7e8f9","sender":"svc","locale":"en_KE","timestamp":1764400000000,"salt":"0123456789abcdef01234567","code":"00000","msg":"success","data":{"accountId":"1002003004005","balance":"1520.75","currency":"KES","status":"ACTIVE"},"signature":"ab"}"#;
    let nested =
        r#"{"code":"00000","data":{"a":"x","b":-12,"c":1.5,"d":true,"n":{"k":[1,"y"]},"t":[1,2]}}"#;
    for (body, taken) in [
        (answer, agrees::<Account>(answer)),
        (answer, agrees::<serde_json::Value>(answer)),
        (nested, agrees::<Mixed>(nested)),
        (nested, agrees::<HashMap<String, serde_json::Value>>(nested)),
    ] {
        match taken {
            Ok(taken) => assert!(taken, "not decoded from the lean pass: {body}"),
            Err(e) => panic!("{e}"),
        }
    }
    // Text that is not that part of the body (a copy, however equal) is left to
    // serde_json.
    let copy = data_text(answer).unwrap().to_owned();
    let compact = Compact::read(answer.as_bytes()).unwrap();
    assert!(compact
        .decode_data::<Account>(answer.as_bytes(), &copy)
        .is_none());
    compact.keep();
    // Not an object, or not read by the lean pass: left to serde_json.
    for body in [
        r#"{"data":[1,2]}"#,
        r#"{"data":"x"}"#,
        r#"{"data":{"a":"x\ny"}}"#,
        r#"{"data":{"a":1,"a":2}}"#,
    ] {
        assert_eq!(
            agrees::<serde_json::Value>(body).ok(),
            Some(false),
            "{body}"
        );
    }
    // A key read as a number is left to serde_json too (it reads `"12"` as 12).
    let numeric = r#"{"data":{"12":true}}"#;
    assert_eq!(
        agrees::<BTreeMap<u32, serde_json::Value>>(numeric).ok(),
        Some(false)
    );
}
