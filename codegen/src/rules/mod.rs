//! The rule registry: every validation rule kind of the spec, defined once.
//!
//! A rule kind is a [`RuleKey`] (its spec key, the shape of its argument, the types it
//! applies to, its words) and a [`RuleKind`] (the rule with its argument, as the checked
//! model holds it). Everything the generator does with a rule is a method here, and every
//! match over rule kinds is exhaustive, so a new kind whose arm is forgotten anywhere
//! does not compile:
//!
//! | what | where it is read |
//! |------|------------------|
//! | spec key, argument shape ([`RuleKey::spec_key`], [`RuleKey::arg`]) | `spec_file` (decoding), `spec_schema` |
//! | types it applies to ([`RuleKey::applies_to`]) | `check` |
//! | words in docs and errors ([`RuleKind::words`], [`RuleKind::spec_text`]) | `emit/docs`, `diff`, `check` |
//! | the runtime validator it calls ([`RuleKind::check`]) | `emit/validate` (and the SDKs of other languages) |
//! | JSON Schema / OpenAPI keywords ([`RuleKind::json_schema`]) | `openapi` |
//! | example values within the rule ([`RuleKind::example`]) | `postman` |
//! | tighter or looser ([`RuleKind::tighter`]) | `diff` |
//!
//! Adding a rule kind: a variant of [`RuleKey`] and of [`RuleKind`] with their arms in
//! this folder, the runtime validator method of each language, and tests.

mod targets;

use serde::Serialize;

use crate::model::number::Number;
use crate::model::types::TypeRef;

pub use targets::{
    every_check, Check, CheckArg, CheckLevel, CheckValue, DecimalSyntax, Example, SchemaOut,
};

/// A rule kind, without its argument.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum RuleKey {
    /// `max_chars: N`.
    MaxChars,
    /// `min_chars: N`.
    MinChars,
    /// `range: { min, max }`.
    Range,
    /// `positive: true`.
    Positive,
    /// `whole: true`.
    Whole,
    /// `decimal_places: N`.
    DecimalPlaces,
    /// `alphanumeric: true`.
    Alphanumeric,
    /// `base64_max_bytes: N`.
    Base64MaxBytes,
    /// `max_items: N`.
    MaxItems,
    /// `min_items: N`.
    MinItems,
    /// `one_of: [A, B]`.
    OneOf,
    /// `server_side: "text"`.
    ServerSide,
}

/// The shape of a rule's argument in the spec.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ArgShape {
    /// A non-negative integer.
    Count,
    /// A small non-negative integer (decimal places).
    Places,
    /// `true` (`false` states no rule and is refused).
    Flag,
    /// `{ min, max }`, each a decimal written as text.
    Range,
    /// Free text.
    Text,
    /// A list of wire values of the field's value set.
    Values,
}

/// The types a rule applies to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AppliesTo {
    /// Strings, or arrays of strings (each element).
    Strings,
    /// int, long and decimal, or arrays of them.
    Numbers,
    /// Decimals, or arrays of decimals.
    Decimals,
    /// Arrays (the array itself).
    Arrays,
    /// Value sets, or arrays of them (each element).
    ValueSets,
    /// Documents, or arrays of them (each element); also strings holding Base64 text, as
    /// specs before the `document` type wrote them (so older specs still check and diff).
    Documents,
    /// Any type.
    Any,
}

impl AppliesTo {
    /// True when a field of type `ty` can carry the rule.
    pub fn fits(self, ty: &TypeRef) -> bool {
        let elem = match ty {
            TypeRef::Array { item } => item.as_ref(),
            other => other,
        };
        match self {
            AppliesTo::Strings => matches!(elem, TypeRef::String),
            AppliesTo::Numbers => {
                matches!(elem, TypeRef::Int | TypeRef::Long | TypeRef::Decimal { .. })
            }
            AppliesTo::Decimals => matches!(elem, TypeRef::Decimal { .. }),
            AppliesTo::Arrays => matches!(ty, TypeRef::Array { .. }),
            AppliesTo::ValueSets => matches!(elem, TypeRef::Enum { .. }),
            AppliesTo::Documents => matches!(elem, TypeRef::Document | TypeRef::String),
            AppliesTo::Any => true,
        }
    }

    /// The types in words, for errors.
    pub fn words(self) -> &'static str {
        match self {
            AppliesTo::Strings => "strings (or arrays of strings)",
            AppliesTo::Numbers => "int, long and decimal (or arrays of them)",
            AppliesTo::Decimals => "decimals (or arrays of decimals)",
            AppliesTo::Arrays => "arrays",
            AppliesTo::ValueSets => "value sets (or arrays of them)",
            AppliesTo::Documents => "documents (or arrays of them; or Base64 text in a string)",
            AppliesTo::Any => "any type",
        }
    }
}

/// Number of rule kinds.
pub const RULE_COUNT: usize = 12;

impl RuleKey {
    /// Every rule kind, in the order the spec format lists them.
    pub const ALL: [RuleKey; RULE_COUNT] = [
        RuleKey::MaxChars,
        RuleKey::MinChars,
        RuleKey::Range,
        RuleKey::Positive,
        RuleKey::Whole,
        RuleKey::DecimalPlaces,
        RuleKey::Alphanumeric,
        RuleKey::Base64MaxBytes,
        RuleKey::MaxItems,
        RuleKey::MinItems,
        RuleKey::OneOf,
        RuleKey::ServerSide,
    ];

    /// The key of the rule in the spec (`max_chars`).
    pub const fn spec_key(self) -> &'static str {
        match self {
            RuleKey::MaxChars => "max_chars",
            RuleKey::MinChars => "min_chars",
            RuleKey::Range => "range",
            RuleKey::Positive => "positive",
            RuleKey::Whole => "whole",
            RuleKey::DecimalPlaces => "decimal_places",
            RuleKey::Alphanumeric => "alphanumeric",
            RuleKey::Base64MaxBytes => "base64_max_bytes",
            RuleKey::MaxItems => "max_items",
            RuleKey::MinItems => "min_items",
            RuleKey::OneOf => "one_of",
            RuleKey::ServerSide => "server_side",
        }
    }

    /// The shape of its argument.
    pub const fn arg(self) -> ArgShape {
        match self {
            RuleKey::MaxChars
            | RuleKey::MinChars
            | RuleKey::Base64MaxBytes
            | RuleKey::MaxItems
            | RuleKey::MinItems => ArgShape::Count,
            RuleKey::DecimalPlaces => ArgShape::Places,
            RuleKey::Positive | RuleKey::Whole | RuleKey::Alphanumeric => ArgShape::Flag,
            RuleKey::Range => ArgShape::Range,
            RuleKey::ServerSide => ArgShape::Text,
            RuleKey::OneOf => ArgShape::Values,
        }
    }

    /// The types it applies to.
    pub const fn applies_to(self) -> AppliesTo {
        match self {
            RuleKey::MaxChars | RuleKey::MinChars | RuleKey::Alphanumeric => AppliesTo::Strings,
            RuleKey::Base64MaxBytes => AppliesTo::Documents,
            RuleKey::Range | RuleKey::Positive => AppliesTo::Numbers,
            RuleKey::Whole | RuleKey::DecimalPlaces => AppliesTo::Decimals,
            RuleKey::MaxItems | RuleKey::MinItems => AppliesTo::Arrays,
            RuleKey::OneOf => AppliesTo::ValueSets,
            RuleKey::ServerSide => AppliesTo::Any,
        }
    }

    /// One line for the spec schema: the types, then what the rule says (`None` where
    /// the argument's own definition says it).
    pub const fn summary(self) -> Option<&'static str> {
        Some(match self {
            RuleKey::MaxChars => "strings: at most this many characters (Unicode scalar values)",
            RuleKey::MinChars => "strings: at least this many characters",
            RuleKey::Range => return None,
            RuleKey::Positive => "int/long/decimal: > 0",
            RuleKey::Whole => "decimal: no fractional part",
            RuleKey::DecimalPlaces => "decimal: at most this many places",
            RuleKey::Alphanumeric => "string: ASCII letters and digits only",
            RuleKey::Base64MaxBytes => {
                "document: at most N bytes (the file's size, before Base64 grows it by a third)"
            }
            RuleKey::MaxItems => "array: at most N items",
            RuleKey::MinItems => "array: at least N items",
            RuleKey::OneOf => {
                "value set: in requests, only these of its wire values (the rest stay readable in answers)"
            }
            RuleKey::ServerSide => "documented, never checked by the client",
        })
    }

    /// Whether the client checks it (a server-side rule is only documented).
    pub const fn client_checked(self) -> bool {
        !matches!(self, RuleKey::ServerSide)
    }

    /// Whether it applies to an array as a whole (not to each element).
    pub const fn on_the_array(self) -> bool {
        matches!(self.applies_to(), AppliesTo::Arrays)
    }

    /// Whether a field may carry it more than once.
    pub const fn repeatable(self) -> bool {
        matches!(self, RuleKey::ServerSide)
    }

    /// The rule kind of a spec key.
    pub fn from_spec_key(key: &str) -> Option<RuleKey> {
        RuleKey::ALL.into_iter().find(|k| k.spec_key() == key)
    }
}

/// Every spec key, in [`RuleKey::ALL`] order.
pub const SPEC_KEYS: [&str; RULE_COUNT] = {
    let mut keys = [""; RULE_COUNT];
    let mut i = 0;
    while i < RULE_COUNT {
        keys[i] = RuleKey::ALL[i].spec_key();
        i += 1;
    }
    keys
};

/// Pairs of a lower and an upper bound on one quantity: a field whose lower bound is
/// above its upper bound is refused by the checker.
pub const BOUND_PAIRS: [(RuleKey, RuleKey); 2] = [
    (RuleKey::MinChars, RuleKey::MaxChars),
    (RuleKey::MinItems, RuleKey::MaxItems),
];

/// A rule's argument, decoded from the spec (range bounds already exact numbers).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Arg {
    /// See [`ArgShape::Count`].
    Count(u64),
    /// See [`ArgShape::Places`].
    Places(u32),
    /// See [`ArgShape::Flag`] (always `true` here).
    Flag,
    /// See [`ArgShape::Range`].
    Range {
        /// Lower bound.
        min: Option<Number>,
        /// Upper bound.
        max: Option<Number>,
    },
    /// See [`ArgShape::Text`].
    Text(String),
    /// See [`ArgShape::Values`].
    Values(Vec<String>),
}

/// A rule with its argument, as the checked model holds it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case", tag = "rule")]
pub enum RuleKind {
    /// Length in characters (Unicode scalar values).
    MaxChars { max: u64 },
    /// Length in characters, at least.
    MinChars { min: u64 },
    /// Inclusive bounds, exact (scale 0 on integer fields).
    Range {
        min: Option<Number>,
        max: Option<Number>,
    },
    /// Greater than zero.
    Positive,
    /// No fractional part.
    Whole,
    /// At most this many decimal places.
    DecimalPlaces { places: u32 },
    /// ASCII letters and digits only.
    Alphanumeric,
    /// A document of at most `max` bytes (sent as Base64, a third larger).
    Base64MaxBytes { max: u64 },
    /// At most `max` items.
    MaxItems { max: u64 },
    /// At least `min` items.
    MinItems { min: u64 },
    /// In requests, only these wire values of the field's value set (an open set's
    /// request field that the service restricts to fewer codes).
    OneOf { values: Vec<String> },
    /// Only the service can check this; documented, never checked by the client.
    ServerSide { text: String },
}

impl RuleKey {
    /// A rule of this kind with a small argument of its shape, for tests that walk every
    /// kind (each runtime's validator against [`every_check`]).
    pub fn sample(self) -> Option<RuleKind> {
        let bound = |mantissa| Some(Number { mantissa, scale: 0 });
        let arg = match self.arg() {
            ArgShape::Count => Arg::Count(3),
            ArgShape::Places => Arg::Places(2),
            ArgShape::Flag => Arg::Flag,
            ArgShape::Range => Arg::Range {
                min: None,
                max: bound(5),
            },
            ArgShape::Text => Arg::Text("t".into()),
            ArgShape::Values => Arg::Values(vec!["A".into(), "B".into()]),
        };
        self.with(arg)
    }

    /// The rule with this argument; `None` when the argument is not of the key's shape
    /// ([`RuleKey::arg`]).
    pub fn with(self, arg: Arg) -> Option<RuleKind> {
        let count = |arg: &Arg| match arg {
            Arg::Count(n) => Some(*n),
            _ => None,
        };
        let flag = |arg: &Arg| matches!(arg, Arg::Flag);
        Some(match self {
            RuleKey::MaxChars => RuleKind::MaxChars { max: count(&arg)? },
            RuleKey::MinChars => RuleKind::MinChars { min: count(&arg)? },
            RuleKey::Base64MaxBytes => RuleKind::Base64MaxBytes { max: count(&arg)? },
            RuleKey::MaxItems => RuleKind::MaxItems { max: count(&arg)? },
            RuleKey::MinItems => RuleKind::MinItems { min: count(&arg)? },
            RuleKey::DecimalPlaces => match arg {
                Arg::Places(places) => RuleKind::DecimalPlaces { places },
                _ => return None,
            },
            RuleKey::Positive => flag(&arg).then_some(RuleKind::Positive)?,
            RuleKey::Whole => flag(&arg).then_some(RuleKind::Whole)?,
            RuleKey::Alphanumeric => flag(&arg).then_some(RuleKind::Alphanumeric)?,
            RuleKey::Range => match arg {
                Arg::Range { min, max } => RuleKind::Range { min, max },
                _ => return None,
            },
            RuleKey::ServerSide => match arg {
                Arg::Text(text) => RuleKind::ServerSide { text },
                _ => return None,
            },
            RuleKey::OneOf => match arg {
                Arg::Values(values) => RuleKind::OneOf { values },
                _ => return None,
            },
        })
    }
}

impl RuleKind {
    /// Its kind.
    pub fn key(&self) -> RuleKey {
        match self {
            RuleKind::MaxChars { .. } => RuleKey::MaxChars,
            RuleKind::MinChars { .. } => RuleKey::MinChars,
            RuleKind::Range { .. } => RuleKey::Range,
            RuleKind::Positive => RuleKey::Positive,
            RuleKind::Whole => RuleKey::Whole,
            RuleKind::DecimalPlaces { .. } => RuleKey::DecimalPlaces,
            RuleKind::Alphanumeric => RuleKey::Alphanumeric,
            RuleKind::Base64MaxBytes { .. } => RuleKey::Base64MaxBytes,
            RuleKind::MaxItems { .. } => RuleKey::MaxItems,
            RuleKind::MinItems { .. } => RuleKey::MinItems,
            RuleKind::OneOf { .. } => RuleKey::OneOf,
            RuleKind::ServerSide { .. } => RuleKey::ServerSide,
        }
    }

    /// The count of a count-shaped rule (for [`BOUND_PAIRS`]).
    pub fn count(&self) -> Option<u64> {
        match self {
            RuleKind::MaxChars { max }
            | RuleKind::Base64MaxBytes { max }
            | RuleKind::MaxItems { max } => Some(*max),
            RuleKind::MinChars { min } | RuleKind::MinItems { min } => Some(*min),
            RuleKind::Range { .. }
            | RuleKind::Positive
            | RuleKind::Whole
            | RuleKind::DecimalPlaces { .. }
            | RuleKind::Alphanumeric
            | RuleKind::OneOf { .. }
            | RuleKind::ServerSide { .. } => None,
        }
    }

    /// The text of a rule only the service checks.
    pub fn server_side_text(&self) -> Option<&str> {
        match self {
            RuleKind::ServerSide { text } => Some(text),
            RuleKind::MaxChars { .. }
            | RuleKind::MinChars { .. }
            | RuleKind::Range { .. }
            | RuleKind::Positive
            | RuleKind::Whole
            | RuleKind::DecimalPlaces { .. }
            | RuleKind::Alphanumeric
            | RuleKind::Base64MaxBytes { .. }
            | RuleKind::MaxItems { .. }
            | RuleKind::MinItems { .. }
            | RuleKind::OneOf { .. } => None,
        }
    }

    /// The rule in words for partners' docs: "at most 100 characters". A server-side
    /// rule's text is given as written.
    pub fn words(&self) -> String {
        self.words_with(str::to_owned)
    }

    /// [`RuleKind::words`] with a server-side rule's text passed through `text` (to
    /// escape it for the output's format).
    pub fn words_with(&self, text: impl Fn(&str) -> String) -> String {
        match self {
            RuleKind::MaxChars { max } => format!("at most {max} characters"),
            RuleKind::MinChars { min } => format!("at least {min} characters"),
            RuleKind::Range { min, max } => match (min, max) {
                (Some(min), Some(max)) => format!("from {min} to {max} (inclusive)"),
                (Some(min), None) => format!("at least {min}"),
                (None, Some(max)) => format!("at most {max}"),
                (None, None) => "any value".to_owned(),
            },
            RuleKind::Positive => "greater than zero".to_owned(),
            RuleKind::Whole => "a whole number (no fractional part)".to_owned(),
            RuleKind::DecimalPlaces { places } => format!("at most {places} decimal places"),
            RuleKind::Alphanumeric => "ASCII letters and digits only".to_owned(),
            RuleKind::Base64MaxBytes { max } => {
                format!("a document of at most {max} bytes (before Base64)")
            }
            RuleKind::MaxItems { max } => format!("at most {max} items"),
            RuleKind::MinItems { min } => format!("at least {min} items"),
            RuleKind::OneOf { values } => format!("one of {}", values.join(", ")),
            RuleKind::ServerSide { text: t } => format!("checked by the service only: {}", text(t)),
        }
    }

    /// The rule as the spec writes it, for maintainers' reports: `max_chars 100`.
    pub fn spec_text(&self) -> String {
        let key = self.key().spec_key();
        let n = |x: &Option<Number>| x.map(|v| v.to_string()).unwrap_or_else(|| "…".into());
        match self {
            RuleKind::MaxChars { max }
            | RuleKind::Base64MaxBytes { max }
            | RuleKind::MaxItems { max } => format!("{key} {max}"),
            RuleKind::MinChars { min } | RuleKind::MinItems { min } => format!("{key} {min}"),
            RuleKind::Range { min, max } => format!("{key} {}..={}", n(min), n(max)),
            RuleKind::DecimalPlaces { places } => format!("{key} {places}"),
            RuleKind::ServerSide { text } => format!("{key} \"{text}\""),
            RuleKind::OneOf { values } => format!("{key} [{}]", values.join(", ")),
            RuleKind::Positive | RuleKind::Whole | RuleKind::Alphanumeric => key.to_owned(),
        }
    }

    /// How `new`, a rule of the same kind, compares with `self`: `Some(true)` when it
    /// refuses something `self` accepted, `Some(false)` when it only accepts more,
    /// `None` when neither (or when the kinds differ).
    pub fn tighter(&self, new: &RuleKind) -> Option<bool> {
        use std::cmp::Ordering::{Equal, Greater, Less};
        // For an upper bound, a smaller new value is tighter.
        let upper = |a: u64, b: u64| match b.cmp(&a) {
            Less => Some(true),
            Greater => Some(false),
            Equal => None,
        };
        if self.key() != new.key() {
            return None;
        }
        match self {
            RuleKind::MaxChars { .. }
            | RuleKind::Base64MaxBytes { .. }
            | RuleKind::MaxItems { .. } => upper(self.count()?, new.count()?),
            RuleKind::MinChars { .. } | RuleKind::MinItems { .. } => {
                upper(new.count()?, self.count()?)
            }
            RuleKind::DecimalPlaces { places: a } => match new {
                RuleKind::DecimalPlaces { places: b } => upper(u64::from(*a), u64::from(*b)),
                _ => None,
            },
            RuleKind::Range {
                min: omin,
                max: omax,
            } => {
                let RuleKind::Range {
                    min: nmin,
                    max: nmax,
                } = new
                else {
                    return None;
                };
                // Stricter if the new bound refuses a value the old one took.
                let min_tighter = match (omin, nmin) {
                    (None, Some(_)) => true,
                    (Some(a), Some(b)) => b.cmp_value(a) == Greater,
                    _ => false,
                };
                let max_tighter = match (omax, nmax) {
                    (None, Some(_)) => true,
                    (Some(a), Some(b)) => b.cmp_value(a) == Less,
                    _ => false,
                };
                if min_tighter || max_tighter {
                    Some(true)
                } else if omin != nmin || omax != nmax {
                    Some(false)
                } else {
                    None
                }
            }
            // Fewer values refuse one that was taken; more only accept more.
            RuleKind::OneOf { values: a } => {
                let RuleKind::OneOf { values: b } = new else {
                    return None;
                };
                if a.iter().any(|v| !b.contains(v)) {
                    Some(true)
                } else if b.iter().any(|v| !a.contains(v)) {
                    Some(false)
                } else {
                    None
                }
            }
            // Another text: what the service checks changed, in which direction is unknown.
            RuleKind::ServerSide { .. } => (self != new).then_some(true),
            RuleKind::Positive | RuleKind::Whole | RuleKind::Alphanumeric => None,
        }
    }
}

#[cfg(test)]
mod tests;
