//! The re-cut rules: which messages the sandbox neither accepts nor signs, because their
//! canonical string could stand for another message.
//!
//! The canonical string joins `path=value` pairs with `&` and escapes nothing. A value
//! holding `x&data.result[1].amount=900000.00` reads, in the string that is hashed, as
//! one more pair; a key holding `.` reads as two levels; a `null` is left out, so it can
//! be added or removed under the same signature. The issue that found it (17) stored
//! such a remark in a transfer and got it back, signed, inside a `getTransList` answer
//! that could be cut into a different list or into a notification.
//!
//! The runtime refuses the same bodies (`baas_runtime::canonical::Flattened::
//! parse_unambiguous`); this is the sandbox's own reading of the rules, written apart
//! as its signature code is (see [`crate::signing`]), and tested against the runtime's
//! on the same cases:
//!
//! * **R1** an object key, at any depth, that is empty or holds `&`, `=`, `.`, `[` or `]`;
//! * **R2** a `null` member or array element;
//! * **R3** a string value holding `&` followed by text that reads as a pair: a key
//!   (one or more characters other than `&`, `=`, `.`, `[`, `]`), then any number of
//!   `.key` or `[digits]`, then `=` (`a&b=c` and `x&data.list[1].amount=9` are refused;
//!   `Tom & Jerry`, `a&b`, `a=b&c` and `&=x` are not);
//! * **R4** a top-level `senderKey` member (the signer adds that pair itself).
//!
//! The top-level `signature` is not part of the canonical string and is exempt.

use crate::json::Json;

/// Which rule a message breaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Rule {
    /// R1: an object key is empty or holds `&`, `=`, `.`, `[` or `]`.
    Key,
    /// R2: a `null` member or array element.
    Null,
    /// R3: a string value holds `&` followed by text that reads as `path=`.
    ValueReadsAsPair,
    /// R4: a top-level `senderKey` member.
    SenderKey,
}

/// Where a message breaks a rule.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Breach {
    /// The rule.
    pub rule: Rule,
    /// The flattened path of the `null` or the string value (R2, R3); for R1 the path
    /// of the object holding the key, never the key itself (it is the text that could
    /// be re-cut); empty for R4 and for a key of the top level.
    pub path: String,
}

impl Rule {
    /// What is wrong, in words that hold no `&` (so the text can go into a signed
    /// message without itself reading as a pair).
    pub fn explain(self) -> &'static str {
        match self {
            Rule::Key => {
                "a member's key is empty or holds one of the characters ampersand, equals \
                 sign, dot or square bracket, which the signed text uses to separate names"
            }
            Rule::Null => {
                "is null; a null is left out of the signed text, so it could be added or \
                 removed without changing the signature: leave the member out instead"
            }
            Rule::ValueReadsAsPair => {
                "holds an ampersand followed by a name and an equals sign, which the signed \
                 text would read as one more member: the value is refused so that no signed \
                 message can carry it"
            }
            Rule::SenderKey => {
                "senderKey is never sent: the signer adds it (the private key) to the text \
                 it hashes"
            }
        }
    }
}

/// The first breach of any rule in `message`: the keys first (R1, R4), then the values
/// (R2, R3). `None` when its canonical string has a single reading.
pub fn first_breach(message: &Json) -> Option<Breach> {
    key_breach(message).or_else(|| value_breach(message))
}

/// R1 and R4 only: the keys, which decide how the message is flattened (the sandbox
/// checks them before the signature, and its streaming signer relies on them).
pub fn key_breach(message: &Json) -> Option<Breach> {
    fn walk(path: &mut String, value: &Json) -> Option<Breach> {
        match value {
            Json::Object(map) => {
                for (key, member) in map {
                    if !is_plain_key(key) {
                        return Some(Breach {
                            rule: Rule::Key,
                            path: path.clone(),
                        });
                    }
                    let len = path.len();
                    push_key(path, key);
                    let found = walk(path, member);
                    path.truncate(len);
                    if found.is_some() {
                        return found;
                    }
                }
                None
            }
            Json::Array(items) => {
                for (i, item) in items.iter().enumerate() {
                    let len = path.len();
                    path.push_str(&format!("[{i}]"));
                    let found = walk(path, item);
                    path.truncate(len);
                    if found.is_some() {
                        return found;
                    }
                }
                None
            }
            _ => None,
        }
    }
    let Json::Object(map) = message else {
        return None;
    };
    if map.contains_key("senderKey") {
        return Some(Breach {
            rule: Rule::SenderKey,
            path: String::new(),
        });
    }
    let mut path = String::new();
    map.iter()
        .filter(|(key, _)| key.as_str() != "signature")
        .find_map(|(key, member)| {
            if !is_plain_key(key) {
                return Some(Breach {
                    rule: Rule::Key,
                    path: String::new(),
                });
            }
            path.clear();
            path.push_str(key);
            walk(&mut path, member)
        })
}

/// R2 and R3 only: `null`s and string values that read as pairs. Paths are built from
/// the keys, so call it on a message whose keys pass [`key_breach`].
pub fn value_breach(message: &Json) -> Option<Breach> {
    fn walk(path: &mut String, value: &Json) -> Option<Breach> {
        let found = |rule| {
            Some(Breach {
                rule,
                path: path.clone(),
            })
        };
        match value {
            Json::Null => found(Rule::Null),
            Json::String(text) if value_reads_as_pair(text) => found(Rule::ValueReadsAsPair),
            Json::Object(map) => map.iter().find_map(|(key, member)| {
                let len = path.len();
                push_key(path, key);
                let found = walk(path, member);
                path.truncate(len);
                found
            }),
            Json::Array(items) => items.iter().enumerate().find_map(|(i, item)| {
                let len = path.len();
                path.push_str(&format!("[{i}]"));
                let found = walk(path, item);
                path.truncate(len);
                found
            }),
            _ => None,
        }
    }
    let Json::Object(map) = message else {
        return None;
    };
    let mut path = String::new();
    map.iter()
        .filter(|(key, _)| key.as_str() != "signature")
        .find_map(|(key, member)| {
            path.clear();
            path.push_str(key);
            walk(&mut path, member)
        })
}

fn push_key(path: &mut String, key: &str) {
    if !path.is_empty() {
        path.push('.');
    }
    path.push_str(key);
}

/// A key of R1's kind: not empty, none of `&`, `=`, `.`, `[`, `]`.
pub fn is_plain_key(key: &str) -> bool {
    !key.is_empty() && !key.bytes().any(is_separator)
}

/// The characters a path is cut at.
fn is_separator(b: u8) -> bool {
    matches!(b, b'&' | b'=' | b'.' | b'[' | b']')
}

/// R3: somewhere in `text`, `&` is followed by `key(.key|[digits])*=`.
pub fn value_reads_as_pair(text: &str) -> bool {
    text.match_indices('&')
        .any(|(at, _)| path_then_equals(text.get(at + 1..).unwrap_or_default()))
}

/// `text` starts with `key(.key|[digits])*=`.
fn path_then_equals(text: &str) -> bool {
    /// Where the reading is: before a key's first character, inside a key, after `[`,
    /// inside the digits, after `]`.
    #[derive(Clone, Copy)]
    enum At {
        KeyStart,
        Key,
        IndexStart,
        Index,
        Closed,
    }
    let mut at = At::KeyStart;
    for b in text.bytes() {
        at = match (at, b) {
            (At::Key | At::Closed, b'=') => return true,
            (At::Key | At::Closed, b'.') => At::KeyStart,
            (At::Key | At::Closed, b'[') => At::IndexStart,
            (At::KeyStart | At::Key, b) if !is_separator(b) => At::Key,
            (At::IndexStart | At::Index, b'0'..=b'9') => At::Index,
            (At::Index, b']') => At::Closed,
            _ => return false,
        };
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use baas_runtime::canonical::{Ambiguity, CanonicalError, Flattened};

    #[test]
    fn values_that_read_as_pairs() {
        for text in [
            "x&data.result[1].amount=900000.00&data.result[1].txStatus=8&data.result[1].zz=",
            "a&b=c",
            "&b=",
            "en_KE&notificationType=0028&params.amount=50000.00&params.zz=",
            "x&a[0]=1",
            "x&a[12][3].b=1",
            "x & y=1",
            "x&上海=1",
            "a=b&c&d.e=",
        ] {
            assert!(value_reads_as_pair(text), "{text}");
        }
        for text in [
            "Tom & Jerry",
            "a&b",
            "a=b&c",
            "&=x",
            "x&.a=1",
            "x&a.=1",
            "x&a[]=1",
            "x&a[x]=1",
            "x&a[1]b=1",
            "x&a]=1",
            "x&&=1",
            "AT&T",
            "",
            "&",
        ] {
            assert!(!value_reads_as_pair(text), "{text}");
        }
    }

    #[test]
    fn breaches_are_named_by_path_never_by_the_key() {
        let breach = |body: &str| first_breach(&Json::parse(body).unwrap());
        assert_eq!(
            breach(r#"{"a":{"b":[1,{"c":"d"}]},"signature":null}"#),
            None
        );
        assert_eq!(
            breach(r#"{"params":{"list":[{"x.y":1}]}}"#),
            Some(Breach {
                rule: Rule::Key,
                path: "params.list[0]".into()
            })
        );
        assert_eq!(
            breach(r#"{"params":{"remark":"x&data.x=1"}}"#),
            Some(Breach {
                rule: Rule::ValueReadsAsPair,
                path: "params.remark".into()
            })
        );
        assert_eq!(
            breach(r#"{"params":{"a":[1,null]}}"#),
            Some(Breach {
                rule: Rule::Null,
                path: "params.a[1]".into()
            })
        );
        assert_eq!(
            breach(r#"{"senderKey":"k"}"#).map(|b| b.rule),
            Some(Rule::SenderKey)
        );
        assert_eq!(breach(r#"{"":1}"#).map(|b| b.rule), Some(Rule::Key));
        // Keys are judged before values, wherever they are.
        assert_eq!(
            breach(r#"{"a":null,"b":{"c&d":1}}"#).map(|b| b.rule),
            Some(Rule::Key)
        );
        // The top-level signature is exempt; one deeper down is not.
        assert_eq!(breach(r#"{"signature":"a&b=c"}"#), None);
        assert_eq!(
            breach(r#"{"data":{"signature":null}}"#).map(|b| b.path),
            Some("data.signature".into())
        );
    }

    #[test]
    fn no_explanation_reads_as_a_pair() {
        for rule in [
            Rule::Key,
            Rule::Null,
            Rule::ValueReadsAsPair,
            Rule::SenderKey,
        ] {
            assert!(!rule.explain().contains('&'), "{rule:?}");
        }
    }

    /// The same bodies refused, for the same rule, as the runtime's reading (written
    /// apart); where a body breaks several rules the two may name different ones first.
    #[test]
    fn agrees_with_the_runtime() {
        let bodies = [
            r#"{"a":1,"b":{"c":[1,2,{"d":"e"}]},"signature":"ff"}"#,
            r#"{"remark":"x&data.result[1].amount=900000.00&data.result[1].zz="}"#,
            r#"{"remark":"Tom & Jerry","n":"a=b&c","m":"&=x","o":"AT&T"}"#,
            r#"{"p":{"x&a[1]b=1":1}}"#,
            r#"{"p":{"a.b":1}}"#,
            r#"{"p":{"a=b":1}}"#,
            r#"{"p":{"a[0]":1}}"#,
            r#"{"p":{"a]":1}}"#,
            r#"{"p":{"":1}}"#,
            r#"{"p":[null]}"#,
            r#"{"p":{"q":null}}"#,
            r#"{"senderKey":"x"}"#,
            r#"{"p":{"senderKey":"x"}}"#,
            r#"{"signature":null,"a":1}"#,
            r#"{"p":"x&a[]=1"}"#,
            r#"{"p":"x&a[12][3].b=1"}"#,
            r#"{"p":"x & y=1"}"#,
            r#"{"p":"x&\u4e0a=1"}"#,
            r#"{"p":["ok","x&y.z=1"]}"#,
        ];
        for body in bodies {
            let ours = first_breach(&Json::parse(body).unwrap()).map(|b| b.rule);
            let theirs = match Flattened::parse_unambiguous(body.as_bytes()) {
                // The runtime reads a received null member as absent and refuses it only
                // when signing; a request (what the sandbox reads) never holds one.
                Ok(flat) if flat.first_null_path().is_some() => Some(Rule::Null),
                Ok(_) => None,
                Err(CanonicalError::Ambiguous { rule, .. }) => Some(match rule {
                    Ambiguity::Key => Rule::Key,
                    Ambiguity::Null => Rule::Null,
                    Ambiguity::ValueReadsAsPair => Rule::ValueReadsAsPair,
                    Ambiguity::SenderKey => Rule::SenderKey,
                    other => panic!("a rule the sandbox does not know: {other:?}"),
                }),
                Err(e) => panic!("{body}: {e}"),
            };
            assert_eq!(ours, theirs, "{body}");
        }
    }
}
