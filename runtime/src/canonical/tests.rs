//! Tests of the canonical string.

use super::arena::prefix;
use super::order::IndexOrder;
use super::scan::{ends_run, parsed_run, plain_run, plain_run_ascii, push_decimal, run_ascii};
use super::tree::{tree_parse_sized, word_bound};
use super::*;

fn pairs(json: &str) -> Vec<String> {
    Flattened::parse(json.as_bytes())
        .map(|f| f.pairs().map(str::to_owned).collect())
        .unwrap_or_else(|e| vec![format!("error: {e}")])
}

#[test]
fn index_order_is_the_byte_order_of_index_and_bracket() {
    for n in [0, 1, 2, 9, 10, 11, 99, 100, 101, 1234] {
        let mut expected: Vec<usize> = (0..n).collect();
        expected.sort_by_key(|i| format!("{i}]"));
        assert_eq!(IndexOrder::new(n).collect::<Vec<_>>(), expected, "{n}");
    }
}

#[test]
fn the_word_bound_is_enough_and_at_most_half_the_body() {
    for body in [
        r#"{"a":[1,[2,3],{"b":[],"c":{}},[[[]]],{"d":[4]}],"e":{"f":{"g":1}}}"#,
        r#"{"s":"[{:,\"]}","t":[ "x" , "y" ],"u":{ }}"#,
        r#"{"":[0]}"#,
        r#"{"":{"":{"":{"":[[[[0]]]]}}}}"#,
        r#"{"":[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0]}"#,
        r#"{"":[[],[],[],[],[],[],[],[],[],[],[],[],[],[],[],[],[],[],[],[],[],[]]}"#,
        r#"{"":[[0],[0],[0],[0],[0],[0],[0],[0],[0],[0],[0],[0],[0],[0],[0],[0]]}"#,
        r#"{"":{"":0,"":0}}"#,
    ] {
        let bound = word_bound(body.as_bytes());
        assert!(bound <= body.len() / 2 + 2, "{body}");
        let Ok(Parsed {
            repr: Repr::Tree(tree),
            ..
        }) = tree_parse_sized(body.as_bytes(), false, bound)
        else {
            // Repeated keys: the words are enough up to there.
            assert!(body.contains(r#""":0,"":0"#), "{body}");
            continue;
        };
        // Not grown.
        assert_eq!(tree.words.len(), bound, "{body}");
    }
}

#[test]
fn decimal_indexes() {
    let mut v = Vec::new();
    push_decimal(&mut v, 0);
    v.push(b' ');
    push_decimal(&mut v, 1234567);
    v.push(b' ');
    push_decimal(&mut v, usize::MAX);
    assert_eq!(
        String::from_utf8(v).unwrap(),
        format!("0 1234567 {}", usize::MAX)
    );
}

#[test]
fn plain_run_stops_where_a_byte_by_byte_scan_stops() {
    let stop = |s: &[u8]| s.iter().position(|&b| ends_run(b)).unwrap_or(s.len());
    // The run's length, and whether the run (not the bytes after it) is ASCII.
    let naive = |s: &[u8]| {
        let n = stop(s);
        assert_eq!(plain_run_ascii(s), (n, s[..n].is_ascii()), "{s:?}");
        // The run that also ends at `&` (rule R3's scan).
        let m = s
            .iter()
            .position(|&b| ends_run(b) || b == b'&')
            .unwrap_or(s.len());
        assert_eq!(run_ascii::<true>(s), (m, s[..m].is_ascii()), "{s:?}");
        // Strings of a body that parsed hold no control character.
        if s.iter().all(|&b| b >= 0x20) {
            assert_eq!(parsed_run(s), n, "{s:?}");
        }
        n
    };
    for filler in [b'a', 0x20, 0x7f, 0x80, 0xff, b'!', b'#', b'[', b']', b'&'] {
        for len in 0..20usize {
            let mut s = vec![filler; len];
            assert_eq!(plain_run(&s), naive(&s));
            for at in 0..len {
                for b in 0..=255u8 {
                    s[at] = b;
                    assert_eq!(plain_run(&s), naive(&s), "{s:?}");
                    // A second stop byte after the first one.
                    if let Some(next) = s.get_mut(at + 1) {
                        *next = b'"';
                        assert_eq!(plain_run(&s), naive(&s), "{s:?}");
                        s[at + 1] = filler;
                    }
                }
                s[at] = filler;
            }
        }
    }
}

#[test]
fn sorting_by_prefix_then_bytes_is_sorting_by_bytes() {
    // Every string of up to three bytes of an alphabet with 0x00, 0x01 and 0xff...
    let alphabet: &[u8] = &[0, 1, b'a', 0x7f, 0x80, 0xff];
    let mut short: Vec<Vec<u8>> = vec![Vec::new()];
    let mut last: Vec<Vec<u8>> = vec![Vec::new()];
    for _ in 0..3 {
        last = last
            .iter()
            .flat_map(|s| {
                alphabet.iter().map(move |&b| {
                    let mut t = s.clone();
                    t.push(b);
                    t
                })
            })
            .collect();
        short.extend(last.iter().cloned());
    }
    // ... and after heads that put those bytes at every position from 4 to 11, on
    // both sides of the eight-byte prefix (zero bytes against its zero padding).
    let mut all = short.clone();
    for head in [
        &b"aaaa"[..],
        b"aaaa\0",
        b"aaaa\0\0\0",
        b"aaaa\0\0\0\0\0",
        b"aaaaaaa\0",
        b"aaaaaaa\x01",
    ] {
        for s in &short {
            let mut t = head.to_vec();
            t.extend_from_slice(s);
            all.push(t);
        }
    }
    for a in &all {
        for b in all.iter().step_by(3) {
            let by_prefix = prefix(a).cmp(&prefix(b)).then_with(|| a.cmp(b));
            assert_eq!(by_prefix, a.cmp(b), "{a:?} {b:?}");
        }
    }
}

#[test]
fn flattening_rules() {
    assert_eq!(
        pairs(r#"{"a":{"b":[{"c":1},{"d":[]}],"e":{}},"n":null,"t":true,"f":false}"#),
        ["a.b[0].c=1", "a.b[1].d=[]", "a.e={}", "t=true", "f=false"]
    );
    assert_eq!(
        pairs(r#"{"x":[[1,2],[]]}"#),
        ["x[0][0]=1", "x[0][1]=2", "x[1]=[]"]
    );
    assert_eq!(pairs(r#" { } "#), Vec::<String>::new());
    assert_eq!(
        pairs(r#"{"s":"a\"b\\c\u00e9\ud83d\ude00\n"}"#),
        ["s=a\"b\\cé😀\n"]
    );
    assert_eq!(pairs(r#"{"n":-0.50e+3}"#), ["n=-0.50e+3"]);
}

#[test]
fn refusals() {
    let err = |s: &str| Flattened::parse(s.as_bytes()).unwrap_err();
    assert_eq!(err("[1]"), CanonicalError::NotAnObject);
    assert_eq!(
        err(r#"{"a":{"b":1,"b":2}}"#),
        CanonicalError::DuplicateKey { path: "a.b".into() }
    );
    assert_eq!(
        err(r#"{"a":1,"a":1}"#),
        CanonicalError::DuplicateKey { path: "a".into() }
    );
    assert!(matches!(err(r#"{"a":01}"#), CanonicalError::Syntax { .. }));
    assert!(matches!(err(r#"{"a":1,}"#), CanonicalError::Syntax { .. }));
    assert!(matches!(
        err(r#"{"a":[1,]}"#),
        CanonicalError::Syntax { .. }
    ));
    assert!(matches!(
        err(r#"{"a":"\ud800"}"#),
        CanonicalError::Syntax { .. }
    ));
    assert!(matches!(
        err("{\"a\":\"\u{1}\"}"),
        CanonicalError::Syntax { .. }
    ));
    assert!(matches!(err(r#"{"a":1} x"#), CanonicalError::Syntax { .. }));
    assert!(matches!(err(r#"{"a":1."#), CanonicalError::Syntax { .. }));
    assert!(matches!(err(r#"{"a":tru}"#), CanonicalError::Syntax { .. }));
    assert_eq!(
        err(r#"{"signature":5}"#),
        CanonicalError::SignatureNotString
    );
    assert_eq!(
        Flattened::parse(b"{\"a\":\"\xff\"}").unwrap_err(),
        CanonicalError::InvalidUtf8 { offset: 6 }
    );
    let deep = format!(
        "{{\"a\":{}1{}}}",
        "[".repeat(MAX_DEPTH),
        "]".repeat(MAX_DEPTH)
    );
    assert_eq!(err(&deep), CanonicalError::TooDeep { max: MAX_DEPTH });
    let ok = format!(
        "{{\"a\":{}1{}}}",
        "[".repeat(MAX_DEPTH - 1),
        "]".repeat(MAX_DEPTH - 1)
    );
    assert!(Flattened::parse(ok.as_bytes()).is_ok());
    // Truncated input at every length never panics and never succeeds.
    let full = r#"{"a":[{"b":"c\u00e9"},1.5e3,true,null],"d":{}}"#;
    for cut in 0..full.len() {
        assert!(
            Flattened::parse(&full.as_bytes()[..cut]).is_err(),
            "cut {cut}"
        );
    }
}

#[test]
fn invalid_utf8_is_reported_first_wherever_it_is() {
    let err = |b: &[u8]| Flattened::parse(b).unwrap_err();
    let bad = |offset| CanonicalError::InvalidUtf8 { offset };
    // In a key, in a value after an escape, outside strings, after a syntax error,
    // a truncated sequence at the end.
    assert_eq!(err(b"{\"\xc3\":1}"), bad(2));
    assert_eq!(err(b"{\"a\":\"\\n\xe4\xb8\"}"), bad(8));
    assert_eq!(err(b"{\xff}"), bad(1));
    assert_eq!(err(b"{\"a\":1,,\"b\":\"\xff\"}"), bad(13));
    assert_eq!(err(b"{\"a\":\"\xe5\xbc"), bad(6));
    assert!(Flattened::parse("{\"\u{5f20}\":\"\u{10ffff}\"}".as_bytes()).is_ok());
}

#[test]
fn duplicate_keys_of_every_length_and_spelling() {
    // Keys of lengths 0 to 19 (shorter and longer than the eight-byte sort prefix),
    // differing in the first, middle or last byte, written raw or with escapes:
    // every two equal ones are refused, no two different ones.
    let mut keys: Vec<String> = Vec::new();
    for len in 0..20usize {
        let base: String = (0..len).map(|i| char::from(b'a' + (i % 7) as u8)).collect();
        keys.push(base.clone());
        for at in [0, len / 2, len.saturating_sub(1)] {
            if at < len {
                let mut k = base.clone().into_bytes();
                k[at] = b'Z';
                keys.push(String::from_utf8(k).unwrap());
            }
        }
    }
    keys.sort();
    keys.dedup();
    let escaped = |k: &str| {
        k.chars()
            .map(|c| format!("\\u{:04x}", c as u32))
            .collect::<String>()
    };
    let all: Vec<String> = keys.iter().map(|k| format!("\"{k}\":1")).collect();
    assert!(Flattened::parse(format!("{{{}}}", all.join(",")).as_bytes()).is_ok());
    for k in &keys {
        for (a, b) in [(k.clone(), k.clone()), (k.clone(), escaped(k))] {
            let body = format!("{{\"x\":{{{},\"{b}\":2}}}}", all.join(","));
            assert_eq!(
                Flattened::parse(body.as_bytes()).unwrap_err(),
                CanonicalError::DuplicateKey {
                    path: format!("x.{a}")
                },
                "{body}"
            );
        }
    }
}

#[test]
fn keys_that_differ_only_in_the_middle_are_distinct() {
    // Same first and last eight bytes and length: once keys a weak hash mixed up.
    let keys: Vec<String> = (0..2000)
        .map(|i| format!("\"aaaaaaaa{i:08}zzzzzzzz\":1"))
        .collect();
    let body = format!("{{{}}}", keys.join(","));
    assert_eq!(Flattened::parse(body.as_bytes()).unwrap().len(), 2000);
    let repeated = format!("{{{},\"aaaaaaaa00001234zzzzzzzz\":2}}", keys.join(","));
    assert_eq!(
        Flattened::parse(repeated.as_bytes()).unwrap_err(),
        CanonicalError::DuplicateKey {
            path: "aaaaaaaa00001234zzzzzzzz".into()
        }
    );
}

#[test]
fn the_first_repeat_in_the_document_is_reported() {
    let err = |s: &str| Flattened::parse(s.as_bytes()).unwrap_err();
    // `b` repeats before `a` does, although `a` sorts first.
    assert_eq!(
        err(r#"{"x":{"b":1,"a":1,"b":2,"a":2}}"#),
        CanonicalError::DuplicateKey { path: "x.b".into() }
    );
    assert_eq!(
        err(r#"{"a":1,"b":1,"c":1,"b":2,"a":2,"b":3}"#),
        CanonicalError::DuplicateKey { path: "b".into() }
    );
    // Inner objects are checked before the object around them ends.
    assert_eq!(
        err(r#"{"a":1,"a":{"c":1,"c":1}}"#),
        CanonicalError::DuplicateKey { path: "a.c".into() }
    );
    // The same key in sibling objects is no repeat.
    assert!(Flattened::parse(br#"{"a":{"k":1},"b":{"k":1},"c":[{"k":1},{"k":1}]}"#).is_ok());
}

#[test]
fn pairs_much_longer_than_the_body_are_refused() {
    let body = |key_len: usize, elements: usize| {
        format!(
            "{{\"{}\":[{}]}}",
            "k".repeat(key_len),
            vec!["1"; elements].join(",")
        )
    };
    // 64 KiB of elements under a 1 KiB key: 32 MiB of pairs. Refused where the
    // pairs outgrow the bytes read, after about 100 elements, not at the end.
    let long = body(1024, 32 * 1024);
    match Flattened::parse(long.as_bytes()) {
        Err(CanonicalError::TooLarge { offset }) => {
            assert!((1024..1024 + 2 * 200).contains(&offset), "{offset}")
        }
        other => panic!("{other:?}"),
    }
    // Short keys above as many elements, and a long key above few, are fine.
    assert!(Flattened::parse(body(8, 32 * 1024).as_bytes()).is_ok());
    assert!(Flattened::parse(body(1024, 16).as_bytes()).is_ok());
    // Values nested as deep as allowed, side by side, stay well under the limit.
    let deep = format!(
        "{}1{}",
        "[".repeat(MAX_DEPTH - 2),
        "]".repeat(MAX_DEPTH - 2)
    );
    let wide = format!("{{\"a\":[{}]}}", vec![deep; 1000].join(","));
    assert!(Flattened::parse(wide.as_bytes()).is_ok());
}

fn refused_by(json: &str) -> Option<(String, Ambiguity)> {
    match Flattened::parse_unambiguous(json.as_bytes()) {
        Ok(_) => None,
        Err(CanonicalError::Ambiguous { path, rule }) => Some((path, rule)),
        Err(other) => panic!("{json}: {other}"),
    }
}

#[test]
fn recut_rules() {
    let r = |path: &str, rule| Some((path.to_owned(), rule));
    // R1, at every depth, with the key as written (escapes unescaped).
    for bad in ["a&b", "a=b", "a.b", "a[0]", "a]", "[", ""] {
        let body = format!(r#"{{"x":[{{"{bad}":1}}]}}"#);
        assert_eq!(
            refused_by(&body),
            r(&format!("x[0].{bad}"), Ambiguity::Key),
            "{body}"
        );
        assert_eq!(
            refused_by(&format!(r#"{{"{bad}":{{}}}}"#)),
            r(bad, Ambiguity::Key)
        );
    }
    assert_eq!(
        refused_by(r#"{"data\u002ex":1}"#),
        r("data.x", Ambiguity::Key)
    );
    // R2: a null element; a null member reads as absent and is accepted here (the
    // signers refuse it: see `sign::sign`).
    assert_eq!(refused_by(r#"{"a":null}"#), None);
    assert_eq!(
        Flattened::parse_unambiguous(br#"{"a":{"b":null}}"#)
            .ok()
            .and_then(|f| f.first_null_path().map(str::to_owned))
            .as_deref(),
        Some("a.b")
    );
    assert_eq!(
        refused_by(r#"{"a":{"b":[1,null]}}"#),
        r("a.b[1]", Ambiguity::Null)
    );
    // R3.
    for bad in [
        "x&data.result[1].amount=9",
        "a&b=c",
        "Tom & Jerry = x",
        "&b=",
        "a&&b=",
        "&a[0][12].b=",
        "&\u{e9}=",
    ] {
        let body = serde_json::json!({ "p": { "v": bad } }).to_string();
        assert_eq!(
            refused_by(&body),
            r("p.v", Ambiguity::ValueReadsAsPair),
            "{bad}"
        );
    }
    assert_eq!(
        refused_by(r#"{"v":"a\u0026b\u003dc"}"#),
        r("v", Ambiguity::ValueReadsAsPair)
    );
    for fine in [
        "Tom & Jerry",
        "a&b",
        "a=b&c",
        "&=x",
        "&a.=",
        "&a..b=",
        "&a[]=",
        "&a[1]b=",
        "&a[x]=",
        "&.a=",
        "&[0]=",
        "a&b&c",
        "&",
    ] {
        let body = serde_json::json!({ "v": fine, "w": [fine] }).to_string();
        assert_eq!(refused_by(&body), None, "{fine}");
    }
    // R4 at the top only.
    assert_eq!(
        refused_by(r#"{"senderKey":"k"}"#),
        r("senderKey", Ambiguity::SenderKey)
    );
    assert_eq!(refused_by(r#"{"a":{"senderKey":"k"}}"#), None);
    // The first breach in the document; the signature is not a pair.
    assert_eq!(
        refused_by(r#"{"a":[null],"b&":1}"#),
        r("a[0]", Ambiguity::Null)
    );
    assert_eq!(
        refused_by(r#"{"a":{"x":1,"x":2,"y":[null]}}"#),
        r("a.y[0]", Ambiguity::Null)
    );
    assert_eq!(refused_by(r#"{"signature":"a&b=c","v":1}"#), None);
    let f = Flattened::parse_unambiguous(br#"{"signature":null,"v":1}"#).unwrap();
    assert!(f.has_signature_key() && f.signature().is_none());
    // `parse` keeps reading all of them.
    for body in [r#"{"a.b":null,"senderKey":"x&y=z"}"#, r#"{"":[null]}"#] {
        assert!(Flattened::parse(body.as_bytes()).is_ok());
    }
    let e = Flattened::parse_unambiguous(br#"{"a":{"b":[null]}}"#).unwrap_err();
    assert_eq!(
        e.to_string(),
        format!("refused by rule R2 at `a.b[0]`: {}", Ambiguity::Null)
    );
}

/// The tree's walk gives the arena's sorted pairs (the complete pair strings sorted
/// by bytes) on every body the tree reads: keys of bytes around the separators
/// (`-`, `/`, digits, `:`, `;`, `<`, `>`, `]`, `&`, non-ASCII, escapes, empty),
/// arrays long enough for `[10]`, objects and arrays nested, nulls, repeated keys.
mod tree_against_arena {
    use super::*;
    use proptest::prelude::*;

    fn key() -> impl Strategy<Value = String> {
        prop::collection::vec(
            prop::sample::select(vec![
                "a", "b", "-", "/", "0", "9", ":", ";", "<", ">", "]", "&", "\u{e9}", "\\u0061",
                "\\u00e9", "\\/", "Z", "s",
            ]),
            0..4,
        )
        .prop_map(|parts| parts.concat())
    }

    fn value() -> impl Strategy<Value = String> {
        let leaf = prop_oneof![
            Just("1".to_owned()),
            Just("-0.50e+3".to_owned()),
            Just("true".to_owned()),
            Just("null".to_owned()),
            Just("{}".to_owned()),
            Just("[]".to_owned()),
            Just(r#""x&y=z""#.to_owned()),
            Just(r#""\u00e9\n""#.to_owned()),
        ];
        leaf.prop_recursive(4, 64, 24, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..24)
                    .prop_map(|items| format!("[{}]", items.join(","))),
                prop::collection::vec((key(), inner), 0..6).prop_map(|members| {
                    let members: Vec<String> = members
                        .into_iter()
                        .map(|(k, v)| format!("\"{k}\":{v}"))
                        .collect();
                    format!("{{{}}}", members.join(","))
                }),
            ]
        })
    }

    fn body() -> impl Strategy<Value = String> {
        prop::collection::vec(
            (
                prop_oneof![
                    4 => key(),
                    1 => Just("senderKex".to_owned()),
                    1 => Just("senderKey0".to_owned()),
                    1 => Just("sender".to_owned()),
                    1 => Just("signature".to_owned()),
                ],
                value(),
            ),
            0..6,
        )
        .prop_map(|members| {
            let members: Vec<String> = members
                .into_iter()
                .map(|(k, v)| {
                    let v = if k == "signature" {
                        "\"00\"".to_owned()
                    } else {
                        v
                    };
                    format!("\"{k}\":{v}")
                })
                .collect();
            format!("{{{}}}", members.join(","))
        })
    }

    fn canonical(parsed: &Parsed, input: &[u8], key: &PrivateKey) -> Vec<u8> {
        let mut out = Exposing(Vec::new());
        parsed.emit(input, key, &mut out);
        out.0
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        #[test]
        fn same_canonical_string_and_errors(body in body()) {
            let input = body.as_bytes();
            let key = PrivateKey::new("k&e=y");
            let arena = arena_parse(input);
            match tree_parse(input, false) {
                Ok(tree) => {
                    prop_assert!(matches!(tree.repr, Repr::Tree(_)));
                    let (arena, meta) = arena.unwrap();
                    let arena = Parsed { repr: Repr::Arena(arena), meta };
                    let (ours, theirs) =
                        (canonical(&tree, input, &key), canonical(&arena, input, &key));
                    prop_assert_eq!(
                        String::from_utf8_lossy(&ours),
                        String::from_utf8_lossy(&theirs),
                        "{}", body
                    );
                    prop_assert_eq!(tree.digest(input, &key), arena.digest(input, &key));
                    prop_assert_eq!(tree.meta.pairs, arena.meta.pairs);
                    prop_assert_eq!(tree.meta.signature(input), arena.meta.signature(&[]));
                    prop_assert_eq!(&tree.meta.first_null, &arena.meta.first_null);
                    // The words grown from none give the same string.
                    for capacity in [0, 1] {
                        let Ok(small) = tree_parse_sized(input, false, capacity) else {
                            prop_assert!(false, "{}", body);
                            continue;
                        };
                        prop_assert_eq!(&canonical(&small, input, &key), &ours);
                    }
                }
                Err(Stop::Error(e)) => prop_assert_eq!(Err(e), arena.map(|_| ()), "{}", body),
                Err(Stop::NeedsArena) => prop_assert!(false, "{}", body),
            }
        }
    }
}

#[test]
fn signature_is_kept_apart() {
    let f = Flattened::parse(br#"{"a":{"signature":"x"},"signature":"abc"}"#).unwrap();
    assert_eq!(f.signature(), Some("abc"));
    assert_eq!(f.pairs().collect::<Vec<_>>(), ["a.signature=x"]);
    let f = Flattened::parse(br#"{"signature":null,"b":1}"#).unwrap();
    assert_eq!(f.signature(), None);
    assert_eq!(f.first_null_path(), None);
    assert_eq!(f.pairs().collect::<Vec<_>>(), ["b=1"]);
}

/// The members of objects up to [`super::order::KEYED`] are sorted with their prefixes
/// first: the same order and the same repeated key as sorting in place, on keys that
/// share their first 16 bytes or differ at the 16th, escaped or not, repeated with
/// other separators.
mod keyed_sort_against_in_place {
    use super::super::tree::tree_parse_keyed_up_to;
    use super::*;
    use proptest::prelude::*;

    fn key() -> impl Strategy<Value = String> {
        (
            prop::sample::select(vec![
                "",
                "beneficiaryNam",
                "beneficiaryName",
                "abcdefghijklmnop",
            ]),
            prop::collection::vec(
                prop::sample::select(vec!["a", "e", "-", "0", "\\u0065", "/", "\u{e9}", ">"]),
                0..3,
            ),
        )
            .prop_map(|(head, tail)| format!("{head}{}", tail.concat()))
    }

    fn value() -> impl Strategy<Value = &'static str> {
        prop::sample::select(vec!["1", "{\"x\":1}", "[1]", "{}", "[]"])
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(1000))]

        #[test]
        fn same_order_and_repeat(members in prop::collection::vec((key(), value()), 1..48)) {
            let body = format!(
                "{{\"o\":{{{}}}}}",
                members
                    .iter()
                    .map(|(k, v)| format!("\"{k}\":{v}"))
                    .collect::<Vec<_>>()
                    .join(",")
            );
            let input = body.as_bytes();
            let key = PrivateKey::new("k");
            match (tree_parse_keyed_up_to(input, 48), tree_parse_keyed_up_to(input, 0)) {
                (Ok(keyed), Ok(in_place)) => {
                    prop_assert_eq!(keyed.digest(input, &key), in_place.digest(input, &key));
                }
                (Err(Stop::Error(a)), Err(Stop::Error(b))) => prop_assert_eq!(a, b, "{}", body),
                _ => prop_assert!(false, "{}", body),
            }
        }
    }
}

#[test]
fn sorts_after_sender_key_as_the_pairs_do() {
    use super::order::{compare_with_separators, sorts_after_sender_key, KeyBytes};
    for key in [
        "",
        "a",
        "s",
        "sender",
        "senderK",
        "senderKey",
        "senderKey0",
        "senderKey>",
        "senderKey<",
        "senderKez",
        "senderKex",
        "senderKeyy",
        "t",
        "\\u0073enderKey",
        "senderK\\u0065y1",
        "senderKe\\u0079",
        "\\u00e9",
        "\u{e9}",
    ] {
        let input = format!("\"{key}\"");
        let unescaped: Vec<u8> = KeyBytes::new(input.as_bytes(), 0, None).collect();
        for sep in [b'=', b'.', b'['] {
            let expected =
                compare_with_separators(&unescaped, sep, SENDER_KEY.as_bytes(), b'=').is_gt();
            assert_eq!(
                sorts_after_sender_key(input.as_bytes(), 0, sep),
                expected,
                "{key} {}",
                char::from(sep)
            );
        }
    }
}
