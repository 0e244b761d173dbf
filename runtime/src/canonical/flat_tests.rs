//! The one-pass reader against the careful parser: on every body it takes, the same
//! canonical string (digest), signature, first null, pair count and top-level members;
//! it takes no body the careful parser refuses; and it does take the bodies the
//! runtime signs and receives every day.

use super::compact::Compact;
use super::flat::Flat;
use super::tree::tree_parse;
use super::{Borrowed, Parsed, Stop};
use crate::secret::PrivateKey;
use proptest::prelude::*;

fn careful(input: &[u8]) -> Result<Parsed, String> {
    match tree_parse(input, true) {
        Ok(parsed) => Ok(parsed),
        Err(Stop::Error(e)) => Err(e.to_string()),
        Err(Stop::NeedsArena) => Err("needs an arena".to_owned()),
    }
}

/// The lean pass for small bodies against the careful parser, as [`agree`] checks the
/// one pass: what it takes, the careful parser takes with the same digest, signature,
/// pair count and top-level members (and no null). Returns whether it took the body.
fn compact_agrees(input: &[u8]) -> Result<bool, TestCaseError> {
    let key = PrivateKey::new("k&e=y");
    let body = String::from_utf8_lossy(input);
    let Some(compact) = Compact::read(input) else {
        return Ok(false);
    };
    let parsed = careful(input);
    prop_assert!(
        parsed.is_ok(),
        "taken by the lean pass, but the careful parser says {:?}: {}",
        parsed.err(),
        body
    );
    let Ok(parsed) = parsed else {
        return Ok(false);
    };
    prop_assert_eq!(compact.digest(&key), parsed.digest(input, &key), "{}", body);
    let signature = compact
        .signature
        .and_then(|(s, e)| input.get(s..e))
        .map(|t| String::from_utf8_lossy(t).into_owned());
    prop_assert_eq!(
        signature.as_deref(),
        parsed.meta.signature(input),
        "{}",
        body
    );
    prop_assert_eq!(parsed.meta.first_null.as_deref(), None, "{}", body);
    prop_assert_eq!(compact.has_signature_key, parsed.meta.has_signature_key);
    prop_assert_eq!(compact.len(), parsed.meta.pairs, "{}", body);
    let names = ["a", "data", "code", "signature", "s-"];
    let fast = compact.top_members(input, names);
    let envelope = std::str::from_utf8(input)
        .map(|text| compact.envelope_members(text).map(|v| v.map(str::as_bytes)))
        .unwrap_or_default();
    compact.keep();
    let careful = Borrowed {
        input,
        text: None,
        how: super::How::Parsed(parsed),
    };
    prop_assert_eq!(fast, careful.top_members(names), "{}", body);
    let slow = careful.top_members(super::ENVELOPE_MEMBERS);
    prop_assert_eq!(envelope, slow, "{}", body);
    Ok(true)
}

/// Asserts what must hold of `body` (see the module's doc).
fn agree(body: &str) -> Result<bool, TestCaseError> {
    let input = body.as_bytes();
    let key = PrivateKey::new("k&e=y");
    compact_agrees(input)?;
    let Some(flat) = Flat::read(input) else {
        return Ok(false);
    };
    let parsed = careful(input);
    prop_assert!(
        parsed.is_ok(),
        "taken, but the careful parser says {:?}: {}",
        parsed.err(),
        body
    );
    let Ok(parsed) = parsed else {
        return Ok(false);
    };
    prop_assert_eq!(flat.digest(&key), parsed.digest(input, &key), "{}", body);
    let signature = flat
        .signature
        .and_then(|(s, e)| input.get(s..e))
        .map(|t| String::from_utf8_lossy(t).into_owned());
    prop_assert_eq!(
        signature.as_deref(),
        parsed.meta.signature(input),
        "{}",
        body
    );
    prop_assert_eq!(&flat.first_null, &parsed.meta.first_null, "{}", body);
    prop_assert_eq!(flat.has_signature_key, parsed.meta.has_signature_key);
    prop_assert_eq!(flat.len(), parsed.meta.pairs, "{}", body);
    flat.keep();
    // The members the envelope reads, as the careful parser finds them.
    let names = ["a", "data", "code", "signature", "s-"];
    let borrowed = Borrowed::parse_unambiguous(input);
    prop_assert!(borrowed.as_ref().is_ok_and(Borrowed::read_in_one_pass));
    let fast = borrowed.map(|b| b.top_members(names)).ok();
    let slow = Borrowed {
        input,
        text: None,
        how: super::How::Parsed(parsed),
    }
    .top_members(names);
    prop_assert_eq!(fast, Some(slow), "{}", body);
    Ok(true)
}

fn key(clean: bool) -> impl Strategy<Value = String> {
    let mut odd = vec!["", "a.b", "x&", "\\u0061", "q]", "senderKey"];
    if clean {
        odd = vec!["a", "s-"];
    }
    prop_oneof![
        8 => prop::collection::vec(
            prop::sample::select(vec![
                "a", "b", "-", "/", "0", "9", ":", ";", "<", ">", "Z", "s", "\u{e9}",
            ]),
            1..4,
        )
        .prop_map(|parts| parts.concat()),
        // Keys that share or pass their first sixteen bytes.
        2 => prop::sample::select(vec![
            "beneficiaryName", "beneficiaryNam", "beneficiaryNameX", "abcdefghijklmnop",
            "abcdefghijklmnopq", "abcdefghijklmno/", "abcdefghijklmnop-",
        ])
        .prop_map(str::to_owned),
        // The envelope's members, which the lean pass notes as it reads them.
        1 => prop::sample::select(vec![
            "requestId", "code", "msg", "data", "notificationType", "params",
        ])
        .prop_map(str::to_owned),
        // Keys the one pass leaves to the careful parser (unless `clean`).
        1 => prop::sample::select(odd).prop_map(str::to_owned),
    ]
}

fn value(clean: bool) -> impl Strategy<Value = String> {
    let mut leaves = vec![
        "1",
        "-0.50e+3",
        "true",
        "false",
        "{}",
        "[ ]",
        r#""Tom & Jerry""#,
        r#""\u00e9\n\"""#,
        r#""电子元件""#,
    ];
    if !clean {
        // A null element, a number with a leading zero, a value that reads as a pair:
        // left to the careful parser.
        leaves.extend(["null", "01", r#""x&y=z""#]);
    }
    let leaf = prop::sample::select(leaves).prop_map(str::to_owned);
    leaf.prop_recursive(4, 64, 24, move |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..24)
                .prop_map(|items| format!("[{}]", items.join(","))),
            prop::collection::vec(inner.clone(), 9..14)
                .prop_map(|items| format!("[{}]", items.join(","))),
            prop::collection::vec((key(clean), inner), 0..6).prop_map(|members| {
                let members: Vec<String> = members
                    .into_iter()
                    .map(|(k, v)| format!("\"{k}\" : {v}"))
                    .collect();
                format!("{{ {} }}", members.join(","))
            }),
        ]
    })
}

fn body(clean: bool) -> impl Strategy<Value = String> {
    prop::collection::vec(
        (
            prop_oneof![
                4 => key(clean),
                1 => Just("senderKex".to_owned()),
                1 => Just("senderKey0".to_owned()),
                1 => Just("sender".to_owned()),
                1 => Just("signature".to_owned()),
            ],
            prop_oneof![
                8 => value(clean),
                1 => Just("null".to_owned()),
            ],
            prop::sample::select(if clean {
                vec!["\"00\"", "null"]
            } else {
                vec!["\"00\"", "null", "\"0\\u0030\"", "7"]
            }),
        ),
        0..6,
    )
    .prop_map(|members| {
        let members: Vec<String> = members
            .into_iter()
            .map(|(k, v, signature)| {
                let v = if k == "signature" {
                    signature.to_owned()
                } else {
                    v
                };
                format!("\"{k}\":{v}")
            })
            .collect();
        format!("{{{}}}", members.join(","))
    })
}

/// A body above the small size: a long string, `inner` (an object) `copies` times in an
/// array, and `inner` again.
fn large(inner: &str, copies: usize, pad: usize) -> String {
    let rows = vec![inner; copies].join(",");
    format!(
        r#"{{"pad":"{}","rows":[{rows}],"last":{inner},"n":[[1,{inner}],{inner}]}}"#,
        "x".repeat(pad)
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn the_one_pass_agrees_with_the_careful_parser(body in body(false)) {
        agree(&body)?;
    }

    /// Bodies above the small size: elements of arrays kept as blocks, the text held to
    /// the body's size, the limits checked as the body is read.
    #[test]
    fn the_one_pass_agrees_on_large_bodies(
        inner in body(false),
        copies in 1usize..40,
        pad in 8200usize..8300,
    ) {
        agree(&large(&inner, copies, pad))?;
    }

    #[test]
    fn the_one_pass_agrees_on_large_clean_bodies(
        inner in body(true),
        copies in 1usize..40,
        pad in 8200usize..8300,
    ) {
        agree(&large(&inner, copies, pad))?;
    }

    /// Bodies the one pass mostly takes (no null element, plain keys).
    #[test]
    fn the_one_pass_agrees_on_clean_bodies(body in body(true)) {
        agree(&body)?;
    }
}

/// The bodies of every day are read in one pass (a reader that left everything to the
/// careful parser would pass the property above).
#[test]
fn everyday_bodies_are_read_in_one_pass() {
    let orders: Vec<String> = (0..12)
        .map(|i| {
            format!(
                r#"{{"productName":"Product {i} 电子元件","quantity":{i},"amount":"{i}2500.50"}}"#
            )
        })
        .collect();
    let bodies = [
        r#"{"requestId":"r1","sender":"client1","locale":"en_KE","timestamp":1650533105687,"salt":"9f8e","params":{"accountId":"1002003004005"}}"#.to_owned(),
        r#"{"requestId":"r1","code":"00000","msg":"success","sender":"svc","salt":"s","timestamp":1650533105687,"data":{"accountId":"1","balance":"1520.75","fee":null,"feeCurrency":"KES"},"signature":"ab"}"#.to_owned(),
        format!(r#"{{"params":{{"remark":"Invoice 2024-001 & 2024-002","oderArray":[{}],"empty":{{}},"none":[]}}}}"#, orders.join(",")),
        "{}".to_owned(),
        " { \"a\" : [ 1 , 2 ] } ".to_owned(),
        page(100),
        page(2000),
    ];
    for body in &bodies {
        match agree(body) {
            Ok(taken) => assert!(taken, "left to the careful parser: {body}"),
            Err(e) => panic!("{e}"),
        }
    }
}

/// A page of `rows` transactions, as `getTransList` answers (30 KB for 100 rows).
fn page(rows: usize) -> String {
    let row = |i: usize| {
        format!(
            r#"{{"txId":"TX{i:016}","txType":"TTID000{t}","txStatus":8,"amount":"{i}.01","currency":"KES","fee":0.5,"createTime":1700000000000,"completeTime":1700000001500,"accountId":"1002003004005","counterpartyName":"Customer {i:05}","counterpartyAccount":"2547{i:08}","remark":"salary","balanceAfter":"1000000.00","channel":"API","tags":["a","b"]}}"#,
            t = i % 4
        )
    };
    let rows: Vec<String> = (0..rows).map(row).collect();
    format!(
        r#"{{"requestId":"r1","code":"00000","msg":"success","data":{{"totalRows":4200,"result":[{}]}},"sender":"svc","salt":"s","timestamp":1650533105687,"signature":"ab"}}"#,
        rows.join(",")
    )
}

/// Bodies the one pass must leave to the careful parser, which refuses them or reads
/// what the one pass does not take.
#[test]
fn what_needs_judgement_is_left_to_the_careful_parser() {
    for body in [
        r#"{"a":1,"a":2}"#,
        r#"{"a":1,"a0":2,"a":{"b":1}}"#,
        r#"{"a":[1,null]}"#,
        r#"{"a\u0062":1}"#,
        r#"{"senderKey":"x"}"#,
        r#"{"signature":1}"#,
        r#"{"v":"x&data.y=1"}"#,
        r#"{"a":1}x"#,
        r#"[1]"#,
        r#"{"a":01}"#,
    ] {
        assert!(Flat::read(body.as_bytes()).is_none(), "{body}");
    }
    // Not UTF-8, in a value, a key or the signature.
    for body in [
        &b"{\"a\":\"\xff\"}"[..],
        b"{\"a\":\"x\xe7\x94\"}",
        b"{\"\xc3\":1}",
        b"{\"signature\":\"\xff\"}",
    ] {
        assert!(Flat::read(body).is_none(), "{body:?}");
        assert!(careful(body).is_err(), "{body:?}");
    }
    // Too deep, even when the deepest value is empty.
    let deep = format!("{{\"a\":{}{{}}{}}}", "[".repeat(63), "]".repeat(63));
    assert!(Flat::read(deep.as_bytes()).is_none());
    assert!(careful(deep.as_bytes()).is_err());
}

/// The order of an object is reused only for one with the same keys and separators in
/// the same order: keys past sixteen bytes that differ only after them, a separator
/// changed by the value's kind, the same keys in another order.
#[test]
fn remembered_orders_are_reused_only_for_the_same_keys() {
    let long = |a: &str, b: &str| {
        format!(r#"{{"abcdefghijklmnop{a}":1,"abcdefghijklmnop{b}":2,"z":3,"b":4}}"#)
    };
    let bodies = [
        format!(r#"{{"rows":[{},{},{}]}}"#, long("X", "Y"), long("Y", "X"), long("X", "Y")),
        r#"{"rows":[{"b":1,"a":{"c":1}},{"b":{"c":1},"a":1},{"b":[1],"a":1},{"b":1,"a":[1]}]}"#
            .to_owned(),
        r#"{"rows":[{"b":1,"a":2,"c":3},{"c":1,"a":2,"b":3},{"a":1,"c":2,"b":3},{"b":1,"a":2,"c":3}]}"#
            .to_owned(),
        r#"{"rows":[{"b":1,"a":2},{"b":1,"a":2,"a0":3},{"b":1,"a":2}]}"#.to_owned(),
    ];
    for body in &bodies {
        // Twice: the second read finds every shape remembered from the first.
        for _ in 0..2 {
            match agree(body) {
                Ok(taken) => assert!(taken, "left to the careful parser: {body}"),
                Err(e) => panic!("{e}"),
            }
        }
    }
    // A repeated key is refused even where a shape without it was remembered.
    let repeated = r#"{"rows":[{"b":1,"a":2},{"b":1,"b":2}]}"#;
    assert!(Flat::read(repeated.as_bytes()).is_none());
}

/// The small bodies of every day are read by the lean pass; what needs judgement is
/// left to the general one pass or the careful parser, which agree with it.
#[test]
fn small_everyday_bodies_are_read_by_the_lean_pass() {
    let ten: Vec<String> = (0..10).map(|i| format!(r#"{{"n":{i},"s":"x"}}"#)).collect();
    let taken = [
        r#"{"requestId":"r1","sender":"client1","locale":"en_KE","timestamp":1650533105687,"salt":"9f8e","params":{"accountId":"1002003004005"}}"#.to_owned(),
        r#"{"requestId":"r1","code":"00000","msg":"success","sender":"svc","salt":"s","timestamp":1650533105687,"data":{"accountId":"1","balance":"1520.75","feeCurrency":"KES","name":"张三 & co"},"signature":"ab"}"#.to_owned(),
        format!(r#"{{"data":{{"rows":[{}],"e":[],"o":{{}},"t":true,"f":false,"n":-0.5e+3}},"signature":null}}"#, ten.join(",")),
        "{}".to_owned(),
        " { \"a\" : [ 1 , 2 ] } ".to_owned(),
    ];
    for body in &taken {
        match compact_agrees(body.as_bytes()) {
            Ok(taken) => assert!(taken, "left by the lean pass: {body}"),
            Err(e) => panic!("{e}"),
        }
    }
    let eleven: Vec<String> = (0..11).map(|i| i.to_string()).collect();
    let left = [
        r#"{"a":null}"#.to_owned(),
        r#"{"a":"\n"}"#.to_owned(),
        r#"{"a\u0062":1}"#.to_owned(),
        r#"{"é":1}"#.to_owned(),
        r#"{"a":1,"a":2}"#.to_owned(),
        r#"{"signature":"1","signature":"2"}"#.to_owned(),
        r#"{"senderKey":"x"}"#.to_owned(),
        r#"{"v":"x&data.y=1"}"#.to_owned(),
        format!(r#"{{"a":[{}]}}"#, eleven.join(",")),
        format!(r#"{{"pad":"{}"}}"#, "x".repeat(4096)),
    ];
    for body in &left {
        assert!(Compact::read(body.as_bytes()).is_none(), "{body}");
        assert!(agree(body).is_ok(), "{body}");
    }
}
