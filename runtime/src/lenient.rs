//! Lenient decoding of scalar fields in responses.
//!
//! The API document is loose about JSON types (`txStatus` is an array of integers in one
//! definition and of strings in another; names are "declared int"; page sizes are
//! strings), and several response shapes come from public documentation rather than
//! the specification. A response must not fail to decode because the service wrote
//! `"12"` where the spec says `12`, or `12` where it says `"12"`. Generated response
//! types use these functions with `#[serde(default, deserialize_with = "...")]` on
//! optional string and integer fields:
//!
//! | function | accepts |
//! |----------|---------|
//! | [`option_string`] | a string; an integer (as its decimal digits); a boolean (`true`/`false`); null |
//! | [`option_i64`], [`option_i32`] | an integer; a string holding an integer (`"12"`, `"-1"`); null |
//! | [`option_document`] | any string (Base64 read leniently, see [`crate::Document::from_base64_lenient`]); null |
//!
//! Anything else (an object, an array, a fraction for an integer, an integer out of
//! range) is still a decode error: that is a different shape, not a different spelling.
//! Requests are never decoded leniently by the client.

use std::fmt;

use serde::de::{self, Deserializer, Visitor};
use serde::Deserialize;

/// An optional string that may arrive as a JSON string, integer or boolean.
pub fn option_string<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    d.deserialize_any(StringVisitor)
}

/// An optional `i64` that may arrive as a JSON integer or a string of digits.
pub fn option_i64<'de, D: Deserializer<'de>>(d: D) -> Result<Option<i64>, D::Error> {
    d.deserialize_any(IntVisitor)
}

/// An optional document that arrives as Base64 text: read by
/// [`Document::from_base64_lenient`](crate::Document::from_base64_lenient) (padding
/// optional, URL-safe symbols and line breaks accepted, text that is still not Base64
/// kept as its own bytes), so a document never fails an answer; null is absent.
pub fn option_document<'de, D: Deserializer<'de>>(
    d: D,
) -> Result<Option<crate::Document>, D::Error> {
    Ok(Option::<std::borrow::Cow<'de, str>>::deserialize(d)?
        .map(|text| crate::Document::from_base64_lenient(&text)))
}

/// An optional `i32` that may arrive as a JSON integer or a string of digits.
pub fn option_i32<'de, D: Deserializer<'de>>(d: D) -> Result<Option<i32>, D::Error> {
    match option_i64(d)? {
        None => Ok(None),
        Some(v) => i32::try_from(v).map(Some).map_err(|_| {
            de::Error::invalid_value(de::Unexpected::Signed(v), &"an integer within i32")
        }),
    }
}

struct StringVisitor;

impl<'de> Visitor<'de> for StringVisitor {
    type Value = Option<String>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a string, an integer or a boolean")
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
        Ok(Some(v.to_owned()))
    }

    fn visit_string<E: de::Error>(self, v: String) -> Result<Self::Value, E> {
        Ok(Some(v))
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Self::Value, E> {
        Ok(Some(v.to_string()))
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Self::Value, E> {
        Ok(Some(v.to_string()))
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Self::Value, E> {
        Ok(Some(v.to_string()))
    }

    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(None)
    }

    fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(None)
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_any(StringVisitor)
    }
}

struct IntVisitor;

impl<'de> Visitor<'de> for IntVisitor {
    type Value = Option<i64>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an integer or a string holding an integer")
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Self::Value, E> {
        Ok(Some(v))
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Self::Value, E> {
        i64::try_from(v)
            .map(Some)
            .map_err(|_| E::invalid_value(de::Unexpected::Unsigned(v), &self))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
        // Digits with an optional leading minus only: no spaces, no `+`, no fraction.
        let digits = v.strip_prefix('-').unwrap_or(v);
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(E::invalid_value(de::Unexpected::Str(v), &self));
        }
        v.parse()
            .map(Some)
            .map_err(|_| E::invalid_value(de::Unexpected::Str(v), &self))
    }

    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(None)
    }

    fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(None)
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_any(IntVisitor)
    }
}

#[cfg(test)]
mod tests {
    use serde::Deserialize;

    #[derive(Deserialize, Debug, PartialEq)]
    struct Record {
        #[serde(default, deserialize_with = "super::option_string")]
        id: Option<String>,
        #[serde(default, deserialize_with = "super::option_i64")]
        total: Option<i64>,
        #[serde(default, deserialize_with = "super::option_i32")]
        status: Option<i32>,
    }

    fn decode(json: &str) -> Result<Record, serde_json::Error> {
        serde_json::from_str(json)
    }

    #[test]
    fn either_spelling_decodes() {
        let a = decode(r#"{"id":"0042","total":12,"status":-1}"#).unwrap();
        let b = decode(r#"{"id":42,"total":"12","status":"-1"}"#).unwrap();
        assert_eq!(a.total, b.total);
        assert_eq!(a.status, b.status);
        assert_eq!(a.id.as_deref(), Some("0042")); // a string keeps its text
        assert_eq!(b.id.as_deref(), Some("42"));
        assert_eq!(
            decode(r#"{"id":true}"#).unwrap().id.as_deref(),
            Some("true")
        );
        assert_eq!(
            decode(r#"{"id":18446744073709551615}"#)
                .unwrap()
                .id
                .as_deref(),
            Some("18446744073709551615")
        );
    }

    #[test]
    fn absent_and_null_are_none() {
        let empty = decode("{}").unwrap();
        let nulls = decode(r#"{"id":null,"total":null,"status":null}"#).unwrap();
        assert_eq!(empty, nulls);
        assert_eq!(empty.id, None);
        assert_eq!(empty.total, None);
    }

    #[test]
    fn other_shapes_are_still_errors() {
        for bad in [
            r#"{"total":"12.5"}"#,
            r#"{"total":12.5}"#,
            r#"{"total":" 12"}"#,
            r#"{"total":"+12"}"#,
            r#"{"total":""}"#,
            r#"{"total":"-"}"#,
            r#"{"total":[1]}"#,
            r#"{"total":9223372036854775808}"#,
            r#"{"total":"99999999999999999999"}"#,
            r#"{"status":2147483648}"#,
            r#"{"id":{"a":1}}"#,
            r#"{"id":[]}"#,
            r#"{"id":1.5}"#,
        ] {
            assert!(decode(bad).is_err(), "{bad} decoded");
        }
    }
}
