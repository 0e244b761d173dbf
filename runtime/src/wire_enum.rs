//! Serde helpers for generated enums (value sets of the spec).
//!
//! Generated enums keep unknown wire values (an `Unknown` variant), so decoding a value
//! the spec does not list never fails; these helpers only read and write the wire text
//! or integer.

use std::borrow::Cow;
use std::fmt;

use serde::de::{self, Visitor};
use serde::{Deserializer, Serializer};

/// Serializes a string value set's wire value.
pub fn serialize_str<S: Serializer>(wire: &str, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(wire)
}

/// Deserializes a string value set's wire value (also accepts a JSON integer, as text).
pub fn deserialize_str<'de, D: Deserializer<'de>>(d: D) -> Result<Cow<'de, str>, D::Error> {
    d.deserialize_any(StrVisitor)
}

/// Serializes an integer value set's wire value.
pub fn serialize_int<S: Serializer>(wire: i64, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_i64(wire)
}

/// Deserializes an integer value set's wire value (also accepts a string of digits).
pub fn deserialize_int<'de, D: Deserializer<'de>>(d: D) -> Result<i64, D::Error> {
    d.deserialize_any(IntVisitor)
}

/// Parses the text of an integer wire value (`"8"`, `"-1"`): an optional `-` and
/// ASCII digits that fit in `i64`.
pub fn parse_int(text: &str) -> Result<i64, ParseEnumError> {
    let digits = text.strip_prefix('-').unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(ParseEnumError::new(text));
    }
    text.parse().map_err(|_| ParseEnumError::new(text))
}

/// A text (or integer) that is not one of a generated enum's listed wire values, given to
/// its `FromStr` or `TryFrom<i64>`: conversions from partners' values never produce
/// `Unknown`, so a misspelled value is an error, not a silent unknown.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseEnumError {
    text: String,
}

impl ParseEnumError {
    /// The error for `text` (kept up to 64 characters).
    pub fn new(text: &str) -> ParseEnumError {
        ParseEnumError {
            text: text.chars().take(64).collect(),
        }
    }

    /// The refused text.
    pub fn text(&self) -> &str {
        &self.text
    }
}

impl fmt::Display for ParseEnumError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?} is not a listed wire value", self.text)
    }
}

impl std::error::Error for ParseEnumError {}

struct StrVisitor;

impl<'de> Visitor<'de> for StrVisitor {
    type Value = Cow<'de, str>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a string or an integer")
    }
    fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Self::Value, E> {
        Ok(Cow::Borrowed(v))
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
        Ok(Cow::Owned(v.to_owned()))
    }
    fn visit_string<E: de::Error>(self, v: String) -> Result<Self::Value, E> {
        Ok(Cow::Owned(v))
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Self::Value, E> {
        Ok(Cow::Owned(v.to_string()))
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Self::Value, E> {
        Ok(Cow::Owned(v.to_string()))
    }
}

struct IntVisitor;

impl<'de> Visitor<'de> for IntVisitor {
    type Value = i64;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an integer or a string of digits")
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<i64, E> {
        Ok(v)
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<i64, E> {
        i64::try_from(v)
            .map_err(|_| E::custom(format!("{v} is out of range for an integer wire value")))
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<i64, E> {
        parse_int(v).map_err(E::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, PartialEq)]
    struct S(String);
    impl<'de> serde::Deserialize<'de> for S {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<S, D::Error> {
            deserialize_str(d).map(|c| S(c.into_owned()))
        }
    }
    #[derive(Debug, PartialEq)]
    struct I(i64);
    impl<'de> serde::Deserialize<'de> for I {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<I, D::Error> {
            deserialize_int(d).map(I)
        }
    }
    impl serde::Serialize for I {
        fn serialize<Se: Serializer>(&self, s: Se) -> Result<Se::Ok, Se::Error> {
            serialize_int(self.0, s)
        }
    }
    impl serde::Serialize for S {
        fn serialize<Se: Serializer>(&self, s: Se) -> Result<Se::Ok, Se::Error> {
            serialize_str(&self.0, s)
        }
    }

    #[test]
    fn both_forms() {
        assert_eq!(
            serde_json::from_str::<S>(r#""0028""#).unwrap(),
            S("0028".into())
        );
        assert_eq!(serde_json::from_str::<S>("12").unwrap(), S("12".into()));
        assert_eq!(
            serde_json::from_str::<S>(r#""a\"b""#).unwrap(),
            S("a\"b".into())
        );
        assert!(serde_json::from_str::<S>("1.5").is_err());
        assert_eq!(serde_json::from_str::<I>("-1").unwrap(), I(-1));
        assert_eq!(serde_json::from_str::<I>(r#""8""#).unwrap(), I(8));
        assert!(serde_json::from_str::<I>(r#""8a""#).is_err());
        assert!(serde_json::from_str::<I>(r#""""#).is_err());
        assert!(serde_json::from_str::<I>("18446744073709551615").is_err());
        assert_eq!(serde_json::to_string(&I(2)).unwrap(), "2");
        assert_eq!(serde_json::to_string(&S("x".into())).unwrap(), r#""x""#);
        assert_eq!(parse_int("-").unwrap_err().text(), "-");
        assert_eq!(
            parse_int("99999999999999999999").unwrap_err().to_string(),
            "\"99999999999999999999\" is not a listed wire value"
        );
    }
}
