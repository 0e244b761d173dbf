//! The service's signature algorithm (baas-api-spec.md, "Authentication"), written from
//! the document on the sandbox side.
//!
//! The sandbox keeps its own implementation on purpose, although the runtime has
//! `baas_runtime::envelope::verify_request`: the sandbox is the counterpart the
//! runtime's signer is tested against, and if it called the runtime, a misreading of
//! the document shared by signer and verifier (sorting keys instead of whole
//! `path=value` strings, `[10]` before `[1]`, escaping a string) would verify and hide
//! itself. [`canonical_string`] is written plainly (a tree of owned strings, sorted) for
//! obviousness, not speed; it is tested on the document's worked example and on each
//! flattening rule, and the tests below check that it agrees with the runtime on the
//! cases where a reading of the rules could differ. What the server hashes is the same
//! string fed pair by pair without building it ([`streamed_digest`], so memory does not
//! grow with the pairs), tested equal to the plain one on thousands of random messages.

use sha2::{Digest, Sha256};

use crate::json::Json;

/// Flattens a message (without its `signature` member) into sorted `path=value` pairs
/// plus `senderKey=<key>`, joined with `&`: the exact string that is hashed.
pub fn canonical_string(message: &Json, key: &str) -> String {
    let mut pairs = Vec::new();
    if let Json::Object(map) = message {
        for (k, v) in map {
            if k == "signature" {
                continue;
            }
            flatten(k, v, &mut pairs);
        }
    }
    pairs.push(format!("senderKey={key}"));
    pairs.sort_unstable_by(|a, b| a.as_bytes().cmp(b.as_bytes()));
    pairs.join("&")
}

fn flatten(path: &str, value: &Json, out: &mut Vec<String>) {
    match value {
        Json::Null => {}
        Json::Bool(b) => out.push(format!("{path}={b}")),
        Json::Number(n) => out.push(format!("{path}={n}")),
        Json::String(s) => out.push(format!("{path}={s}")),
        Json::Array(items) if items.is_empty() => out.push(format!("{path}=[]")),
        Json::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                flatten(&format!("{path}[{i}]"), item, out);
            }
        }
        Json::Object(map) if map.is_empty() => out.push(format!("{path}={{}}")),
        Json::Object(map) => {
            for (k, v) in map {
                flatten(&format!("{path}.{k}"), v, out);
            }
        }
    }
}

/// The canonical string of a message may be at most this many times as long as the
/// body it was read from, plus [`EXPANSION_ALLOWANCE`] bytes (the runtime's signer
/// refuses the same: `baas_runtime::canonical::MAX_EXPANSION`).
///
/// Every pair repeats the whole path of its value, so a long key above many short
/// values would make the string quadratically longer than the body (a 4 KiB key over
/// 2 MiB of `1,` is 4 GiB); [`canonical_len`] tells before anything is built.
pub const MAX_EXPANSION: usize = 32;

/// Bytes allowed on top of [`MAX_EXPANSION`] times the body.
pub const EXPANSION_ALLOWANCE: usize = 64 * 1024;

/// The length of [`canonical_string`] without its `senderKey` pair and separators,
/// computed without building it: the sum over the pairs of path, `=` and value.
pub fn canonical_len(message: &Json) -> usize {
    fn walk(path_len: usize, value: &Json) -> usize {
        match value {
            Json::Null => 0,
            Json::Bool(b) => path_len + 1 + if *b { 4 } else { 5 },
            Json::Number(text) | Json::String(text) => path_len + 1 + text.len(),
            Json::Array(items) if items.is_empty() => path_len + 3,
            Json::Array(items) => items
                .iter()
                .enumerate()
                .map(|(i, item)| walk(path_len + 2 + decimal_len(i), item))
                .fold(0, usize::saturating_add),
            Json::Object(map) if map.is_empty() => path_len + 3,
            Json::Object(map) => map
                .iter()
                .map(|(k, v)| walk(path_len + 1 + k.len(), v))
                .fold(0, usize::saturating_add),
        }
    }
    let Json::Object(map) = message else {
        return 0;
    };
    map.iter()
        .filter(|(k, _)| k.as_str() != "signature")
        .map(|(k, v)| walk(k.len(), v))
        .fold(0, usize::saturating_add)
}

/// Digits of `n` in decimal.
pub(crate) fn decimal_len(mut n: usize) -> usize {
    let mut digits = 1;
    while n >= 10 {
        n /= 10;
        digits += 1;
    }
    digits
}

/// True when the canonical string of `message`, read from `body_len` bytes, is within
/// [`MAX_EXPANSION`] (the sandbox refuses the message otherwise, before building it).
pub fn within_expansion_limit(message: &Json, body_len: usize) -> bool {
    canonical_len(message)
        <= body_len
            .saturating_mul(MAX_EXPANSION)
            .saturating_add(EXPANSION_ALLOWANCE)
}

/// Lowercase hex SHA-256 of the canonical string of `message` under `key`.
///
/// The string is not built when the message's keys allow it ([`streamed_digest`]):
/// the pairs may be up to [`MAX_EXPANSION`] times the body, and holding them (a string
/// each, then joined) took the sandbox to 1.6 GB on a 47 MB body before it knew
/// whether the signature held. Other messages (keys the sandbox refuses anyway) are
/// hashed from [`canonical_string`].
pub fn sign(message: &Json, key: &str) -> String {
    match streamed_digest(message, key) {
        Some(digest) => hex::encode(digest),
        None => hex::encode(Sha256::digest(canonical_string(message, key).as_bytes())),
    }
}

/// SHA-256 of [`canonical_string`], fed to the hasher pair by pair in sorted order
/// without building a pair: memory is the depth of the message plus, at each level,
/// the order of one object's members or one array's elements.
///
/// Sorting whole pairs can be done level by level because every pair below a member
/// starts with the member's path and then one same byte: `.` above a non-empty object,
/// `[` above a non-empty array, `=` otherwise. Two members' pairs therefore compare as
/// their keys followed by that byte, unless a key is a prefix of its sibling followed
/// by that very byte, which needs a key holding `.`, `[` or `=`. Array elements compare
/// as their index's digits followed by `]` (`[10]` before `[1]`). `None`, and the
/// caller builds the string, when a key holds `.`, `[` or `=`, or the message has a
/// top-level `senderKey` (which would sort against the key's own pair).
pub fn streamed_digest(message: &Json, key: &str) -> Option<[u8; 32]> {
    let Json::Object(map) = message else {
        let mut hasher = Sha256::new();
        hasher.update(format!("senderKey={key}").as_bytes());
        return Some(hasher.finalize().into());
    };
    if map.contains_key("senderKey") || !keys_sort_by_level(message) {
        return None;
    }
    let sender_key = Json::String(key.to_owned());
    let members = map
        .iter()
        .filter(|(k, _)| k.as_str() != "signature")
        .map(|(k, v)| (k.as_str(), v))
        .chain(std::iter::once(("senderKey", &sender_key)));
    let mut out = Streamed {
        hasher: Sha256::new(),
        path: Vec::new(),
        first: true,
    };
    out.members(members, true);
    Some(out.hasher.finalize().into())
}

/// No key of `value` holds `.`, `[` or `=` (see [`streamed_digest`]).
fn keys_sort_by_level(value: &Json) -> bool {
    match value {
        Json::Object(map) => map.iter().all(|(k, v)| {
            !k.bytes().any(|b| matches!(b, b'.' | b'[' | b'=')) && keys_sort_by_level(v)
        }),
        Json::Array(items) => items.iter().all(keys_sort_by_level),
        _ => true,
    }
}

/// The byte after a member's path in each of its pairs; `None` for a `null` (no pair).
fn follower(value: &Json) -> Option<u8> {
    match value {
        Json::Null => None,
        Json::Object(map) if !map.is_empty() => Some(b'.'),
        Json::Array(items) if !items.is_empty() => Some(b'['),
        _ => Some(b'='),
    }
}

/// Array indexes in the order of their pairs: by decimal digits, a shorter index that
/// is a prefix of a longer one after it (`]` sorts above every digit).
fn index_order(a: usize, b: usize) -> std::cmp::Ordering {
    let (mut da, mut db) = ([0; 20], [0; 20]);
    let (a, b) = (decimal(a, &mut da), decimal(b, &mut db));
    a.iter().chain(b"]").cmp(b.iter().chain(b"]"))
}

/// The decimal digits of `n`, written at the end of `buf`.
fn decimal(mut n: usize, buf: &mut [u8; 20]) -> &[u8] {
    let mut start = buf.len();
    for slot in buf.iter_mut().rev() {
        *slot = b'0' + (n % 10) as u8;
        n /= 10;
        start -= 1;
        if n == 0 {
            break;
        }
    }
    buf.get(start..).unwrap_or_default()
}

/// The hasher and the path of the value being flattened.
struct Streamed {
    hasher: Sha256,
    path: Vec<u8>,
    first: bool,
}

impl Streamed {
    fn pair(&mut self, value: &[u8]) {
        if !self.first {
            self.hasher.update(b"&");
        }
        self.first = false;
        self.hasher.update(&self.path);
        self.hasher.update(b"=");
        self.hasher.update(value);
    }

    /// The members of one object, in the order of their pairs, below the path of the
    /// object (at the `top` level, keys have no `.` before them).
    fn members<'a>(&mut self, members: impl Iterator<Item = (&'a str, &'a Json)>, top: bool) {
        let mut sorted: Vec<(&str, &Json, u8)> = members
            .filter_map(|(k, v)| follower(v).map(|f| (k, v, f)))
            .collect();
        sorted.sort_unstable_by(|a, b| a.0.bytes().chain([a.2]).cmp(b.0.bytes().chain([b.2])));
        for (k, v, _) in sorted {
            let len = self.path.len();
            if !top {
                self.path.push(b'.');
            }
            self.path.extend_from_slice(k.as_bytes());
            self.value(v);
            self.path.truncate(len);
        }
    }

    fn value(&mut self, value: &Json) {
        match value {
            Json::Null => {}
            Json::Bool(b) => self.pair(if *b { b"true" } else { b"false" }),
            Json::Number(text) | Json::String(text) => self.pair(text.as_bytes()),
            Json::Array(items) if items.is_empty() => self.pair(b"[]"),
            Json::Object(map) if map.is_empty() => self.pair(b"{}"),
            Json::Array(items) => {
                let mut order: Vec<usize> = (0..items.len()).collect();
                order.sort_unstable_by(|&a, &b| index_order(a, b));
                for i in order {
                    let len = self.path.len();
                    let mut digits = [0; 20];
                    self.path.push(b'[');
                    self.path.extend_from_slice(decimal(i, &mut digits));
                    self.path.push(b']');
                    if let Some(item) = items.get(i) {
                        self.value(item);
                    }
                    self.path.truncate(len);
                }
            }
            Json::Object(map) => self.members(map.iter().map(|(k, v)| (k.as_str(), v)), false),
        }
    }
}

/// True when `message.signature` is the signature of the rest of `message` under `key`.
/// The comparison does not stop at the first differing byte.
pub fn verify(message: &Json, key: &str) -> bool {
    let Some(Json::String(given)) = message.get("signature") else {
        return false;
    };
    let expected = sign(message, key);
    if given.len() != expected.len() {
        return false;
    }
    given
        .bytes()
        .zip(expected.bytes())
        .fold(0u8, |acc, (a, b)| acc | (a ^ b))
        == 0
}

/// Adds `signature` to an object message (other values are returned unchanged).
pub fn signed(mut message: Json, key: &str) -> Json {
    let signature = sign(&message, key);
    if let Json::Object(map) = &mut message {
        map.insert("signature".to_owned(), Json::String(signature));
    }
    message
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn worked_example_of_public_facts() {
        let msg = Json::parse(
            r#"{"requestId":"APPREQ00990320fed02000","sender":"client1","locale":"en_KE",
            "timestamp":1650533105687,"salt":"QcEwsZ123da","params":{"name":"Tester"}}"#,
        )
        .unwrap();
        assert_eq!(
            canonical_string(&msg, "yourkey"),
            "locale=en_KE&params.name=Tester&requestId=APPREQ00990320fed02000&salt=QcEwsZ123da&sender=client1&senderKey=yourkey&timestamp=1650533105687"
        );
        assert_eq!(
            sign(&msg, "yourkey"),
            "ce4f419f667b7d5621892337c23905b894472e6b186f06a0e237528b011ab2f2"
        );
    }

    #[test]
    fn arrays_empties_nulls_and_literal_numbers() {
        let msg = Json::parse(
            r#"{"params":{"a":[],"b":{},"c":null,"d":[1,{"x":100.50}],"amount2":"1","amount":"2"}}"#,
        )
        .unwrap();
        assert_eq!(
            canonical_string(&msg, "k"),
            "params.a=[]&params.amount2=1&params.amount=2&params.b={}&params.d[0]=1&params.d[1].x=100.50&senderKey=k"
        );
    }

    /// Every flattening rule where two readings of the document differ: the sandbox's
    /// canonical string is written out by hand, and the runtime's signature over the
    /// same text is the sandbox's (an independent implementation agreeing, not one
    /// calling the other).
    #[test]
    fn tricky_rules_by_hand_and_in_agreement_with_the_runtime() {
        let cases = [
            // `[10]` sorts before `[2]` byte-wise; whole strings are sorted.
            (
                r#"{"a":[0,1,2,3,4,5,6,7,8,9,10]}"#,
                "a[0]=0&a[10]=10&a[1]=1&a[2]=2&a[3]=3&a[4]=4&a[5]=5&a[6]=6&a[7]=7&a[8]=8&a[9]=9&senderKey=k",
            ),
            // Values with `&` and `=` and non-ASCII text go in raw, unescaped.
            (
                r#"{"q":"a=b&c","name":"上海 \"x\"","e":"\u00e9"}"#,
                "e=é&name=上海 \"x\"&q=a=b&c&senderKey=k",
            ),
            // Nested arrays of objects, empty containers, nulls left out.
            (
                r#"{"o":[{"b":[{}],"a":[]},{"c":null}],"z":{}}"#,
                "o[0].a=[]&o[0].b[0]={}&senderKey=k&z={}",
            ),
            // A sibling key that is a prefix of another followed by a byte below `=`.
            (
                r#"{"p":{"a-b":1,"a":2}}"#,
                "p.a-b=1&p.a=2&senderKey=k",
            ),
            // Numbers as their literal text, the signature member left out.
            (
                r#"{"n":100.50,"m":-0.0,"signature":"ff"}"#,
                "m=-0.0&n=100.50&senderKey=k",
            ),
        ];
        let key = baas_runtime::PrivateKey::new("k");
        for (body, canonical) in cases {
            let msg = Json::parse(body).unwrap();
            assert_eq!(canonical_string(&msg, "k"), canonical, "{body}");
            // `Flattened::parse` reads any object: the runtime's signer now refuses the
            // case with a `null` (it could be re-cut), but its flattening still agrees.
            let runtime = baas_runtime::canonical::Flattened::parse(body.as_bytes())
                .unwrap()
                .signature_hex(&key);
            assert_eq!(sign(&msg, "k"), runtime, "{body}");
        }
    }

    #[test]
    fn canonical_len_is_the_length_of_the_pairs() {
        for body in [
            r#"{"a":{"b":[{"c":1},{"d":[]}],"e":{}},"n":null,"t":true,"f":false}"#,
            r#"{"list":[0,1,2,3,4,5,6,7,8,9,10,11,"x",{"y":"z"}],"signature":"ff"}"#,
            r#"{"s":"a\"b\\c\u00e9","empty":{},"arr":[[],[[1]]]}"#,
            "{}",
        ] {
            let msg = Json::parse(body).unwrap();
            let text = canonical_string(&msg, "");
            // Without `senderKey=` and the `&` separators.
            let pairs = text.split('&').filter(|p| *p != "senderKey=").count();
            let expected = text.len() - "senderKey=".len() - pairs;
            assert_eq!(canonical_len(&msg), expected, "{body}");
        }
        let long = format!(
            r#"{{"{}":[{}]}}"#,
            "k".repeat(1024),
            vec!["1"; 4096].join(",")
        );
        let msg = Json::parse(&long).unwrap();
        assert!(!within_expansion_limit(&msg, long.len()));
        assert!(within_expansion_limit(
            &Json::parse(r#"{"a":[1,2]}"#).unwrap(),
            11
        ));
    }

    /// A random message: keys that are prefixes of one another and hold the bytes that
    /// sort around the followers (`-`, `&`, `]`, `_`, empty, non-ASCII), arrays long
    /// enough for `[10]`, empties and nulls.
    fn random_message(seed: &mut u64, depth: usize) -> Json {
        fn next(seed: &mut u64, n: u64) -> u64 {
            *seed ^= *seed << 13;
            *seed ^= *seed >> 7;
            *seed ^= *seed << 17;
            *seed % n
        }
        const KEYS: [&str; 14] = [
            "a",
            "a-b",
            "ab",
            "a]",
            "a&",
            "",
            "A",
            "_",
            "é",
            "a_",
            "senderKe",
            "senderKez",
            "sender",
            "b",
        ];
        const TEXT: [&str; 6] = ["1", "x", "", "a=b&c", "上海", "100.50"];
        let kind = if depth >= 4 {
            next(seed, 4)
        } else {
            next(seed, 8)
        };
        match kind {
            0 => Json::Null,
            1 => Json::Bool(next(seed, 2) == 0),
            2 => Json::Number(TEXT[5].to_owned()),
            3 => Json::String(TEXT[next(seed, 6) as usize].to_owned()),
            4 | 5 => {
                let len = [0, 1, 2, 11, 23][next(seed, 5) as usize];
                Json::Array((0..len).map(|_| random_message(seed, depth + 1)).collect())
            }
            _ => {
                let len = next(seed, 6);
                Json::Object(
                    (0..len)
                        .map(|_| {
                            let key = KEYS[next(seed, KEYS.len() as u64) as usize].to_owned();
                            (key, random_message(seed, depth + 1))
                        })
                        .collect(),
                )
            }
        }
    }

    #[test]
    fn the_streamed_digest_is_that_of_the_canonical_string() {
        let mut seed = 0x9E37_79B9_7F4A_7C15;
        let mut streamed = 0;
        for _ in 0..3000 {
            let message = match random_message(&mut seed, 0) {
                Json::Object(map) => Json::Object(map),
                other => Json::Object([("top".to_owned(), other)].into_iter().collect()),
            };
            let expected: [u8; 32] =
                Sha256::digest(canonical_string(&message, "k").as_bytes()).into();
            if let Some(digest) = streamed_digest(&message, "k") {
                assert_eq!(digest, expected, "{}", message.to_json_string());
                streamed += 1;
            }
        }
        assert_eq!(
            streamed, 3000,
            "every generated message has keys of one level"
        );
        // Keys holding `.`, `[` or `=`, or a top-level senderKey: the string is built.
        for body in [
            r#"{"a.b":1,"a":{"b":2}}"#,
            r#"{"a[0]":1}"#,
            r#"{"senderKey":"x"}"#,
        ] {
            let message = Json::parse(body).unwrap();
            assert_eq!(streamed_digest(&message, "k"), None, "{body}");
            let runtime = baas_runtime::canonical::Flattened::parse(body.as_bytes())
                .unwrap()
                .signature_hex(&baas_runtime::PrivateKey::new("k"));
            assert_eq!(sign(&message, "k"), runtime, "{body}");
        }
    }

    #[test]
    fn verify_detects_any_change() {
        let msg = signed(
            Json::parse(r#"{"code":"00000","data":{"balance":"12.30"}}"#).unwrap(),
            "key",
        );
        assert!(verify(&msg, "key"));
        assert!(!verify(&msg, "other"));
        let tampered = Json::parse(&msg.to_json_string().replace("12.30", "12.31")).unwrap();
        assert!(!verify(&tampered, "key"));
    }
}
