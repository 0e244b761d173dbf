//! The rule keys of a field, decoded through the rule registry ([`crate::rules`]): the
//! keys and the shape of each argument are the registry's, so a new rule kind needs no
//! change here.

use std::fmt;

use serde::de::{self, Deserializer, MapAccess, Visitor};
use serde::Deserialize;

use super::{RangeSpec, SourceSpec, Spanned};
use crate::rules::{ArgShape, RuleKey, RULE_COUNT, SPEC_KEYS};

/// A rule's argument as written, before its type check.
#[derive(Debug, Clone)]
pub(crate) enum RawArg {
    /// A count.
    Count(u64),
    /// Decimal places.
    Places(u32),
    /// `true` or `false`.
    Flag(bool),
    /// `{ min, max }` as text.
    Range(RangeSpec),
    /// Free text.
    Text(String),
    /// A list of wire values.
    Values(Vec<String>),
}

/// The rule keys of one rule item, in the order written (a well-formed item has one).
#[derive(Debug, Clone, Default)]
pub(crate) struct RuleBody {
    pub rules: Vec<(RuleKey, Spanned<RawArg>)>,
}

/// An item of `rules:`: one rule key (short form) or `rule:` + `source:`/`doc:`.
#[derive(Debug)]
pub(crate) struct RuleSpec {
    /// The rule keys written inline (short form).
    pub inline: RuleBody,
    pub rule: Option<Spanned<RuleBody>>,
    pub source: Option<SourceSpec>,
    pub doc: Option<String>,
}

const RULE_SPEC_EXTRA: [&str; 3] = ["rule", "source", "doc"];

/// The keys of a rule item: every rule key, then the long form's.
const RULE_SPEC_FIELDS: [&str; RULE_COUNT + 3] = {
    let mut keys = [""; RULE_COUNT + 3];
    let mut i = 0;
    while i < RULE_COUNT {
        keys[i] = SPEC_KEYS[i];
        i += 1;
    }
    while i < RULE_COUNT + 3 {
        keys[i] = RULE_SPEC_EXTRA[i - RULE_COUNT];
        i += 1;
    }
    keys
};

/// Reads the value of rule key `key` in the shape the registry gives it.
fn rule_value<'de, A: MapAccess<'de>>(
    map: &mut A,
    key: RuleKey,
) -> Result<Spanned<RawArg>, A::Error> {
    fn wrap<T>(s: Spanned<T>, f: impl FnOnce(T) -> RawArg) -> Spanned<RawArg> {
        Spanned {
            loc: s.loc,
            value: f(s.value),
        }
    }
    Ok(match key.arg() {
        ArgShape::Count => wrap(map.next_value::<Spanned<u64>>()?, RawArg::Count),
        ArgShape::Places => wrap(map.next_value::<Spanned<u32>>()?, RawArg::Places),
        ArgShape::Flag => wrap(map.next_value::<Spanned<bool>>()?, RawArg::Flag),
        ArgShape::Range => wrap(map.next_value::<Spanned<RangeSpec>>()?, RawArg::Range),
        ArgShape::Text => wrap(map.next_value::<Spanned<String>>()?, RawArg::Text),
        ArgShape::Values => wrap(map.next_value::<Spanned<Vec<String>>>()?, RawArg::Values),
    })
}

impl<'de> Deserialize<'de> for RuleBody {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = RuleBody;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("struct RuleBody")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<RuleBody, A::Error> {
                let mut body = RuleBody::default();
                while let Some(name) = map.next_key::<String>()? {
                    let Some(key) = RuleKey::from_spec_key(&name) else {
                        return Err(de::Error::unknown_field(&name, &SPEC_KEYS));
                    };
                    body.rules.push((key, rule_value(&mut map, key)?));
                }
                Ok(body)
            }
        }
        d.deserialize_struct("RuleBody", &SPEC_KEYS, V)
    }
}

impl<'de> Deserialize<'de> for RuleSpec {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = RuleSpec;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("struct RuleSpec")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<RuleSpec, A::Error> {
                let mut spec = RuleSpec {
                    inline: RuleBody::default(),
                    rule: None,
                    source: None,
                    doc: None,
                };
                while let Some(name) = map.next_key::<String>()? {
                    match name.as_str() {
                        "rule" => spec.rule = Some(map.next_value()?),
                        "source" => spec.source = Some(map.next_value()?),
                        "doc" => spec.doc = Some(map.next_value()?),
                        other => {
                            let Some(key) = RuleKey::from_spec_key(other) else {
                                return Err(de::Error::unknown_field(other, &RULE_SPEC_FIELDS));
                            };
                            spec.inline.rules.push((key, rule_value(&mut map, key)?));
                        }
                    }
                }
                Ok(spec)
            }
        }
        d.deserialize_struct("RuleSpec", &RULE_SPEC_FIELDS, V)
    }
}
