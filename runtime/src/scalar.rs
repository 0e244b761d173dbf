//! [`Scalar`]: a received value whose JSON type nobody has shown.
//!
//! Some answer fields are named by the bank's document or by integrations, but their
//! type is not given (`dueDate`, a media type, a reason id). Typing them as a string
//! would fail the day the service writes a number, and as a number the day it writes a
//! string; typing them as arbitrary JSON would make every partner write the same
//! decoding. A `Scalar` keeps the value's text exactly as received and reads it either
//! way: [`Scalar::as_str`], [`Scalar::as_i64`], [`Scalar::as_amount`]. An object or an
//! array is still a decode error: that is a different shape, not a different spelling.

use std::fmt;

use serde::de::{self, Deserialize, Deserializer};
use serde::ser::{Serialize, Serializer};
use serde_json::value::RawValue;

use crate::Amount;

/// How the scalar was written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Kind {
    String,
    Number,
    Bool,
}

/// A received JSON string, number or boolean whose type is not shown, kept as its text.
///
/// `"0042"` reads as the text `0042`; `42` as `42`; `12.50` as `12.50` (a number's
/// literal text, never through a float); `true` as `true`.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Scalar {
    text: String,
    kind: Kind,
}

impl Scalar {
    /// A scalar written as a JSON string (for servers and tests that build answers).
    #[must_use]
    pub fn string(text: impl Into<String>) -> Scalar {
        Scalar {
            text: text.into(),
            kind: Kind::String,
        }
    }

    /// A scalar written as a JSON integer.
    #[must_use]
    pub fn integer(value: i64) -> Scalar {
        Scalar {
            text: value.to_string(),
            kind: Kind::Number,
        }
    }

    /// A scalar written as a JSON number with the amount's exact text.
    #[must_use]
    pub fn amount(value: &Amount) -> Scalar {
        Scalar {
            text: value.to_string(),
            kind: Kind::Number,
        }
    }

    /// The value's text: a string's content, or a number's or boolean's literal text.
    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// The value as an integer, when its text is one (`12`, `"12"`, `-1`); `None` for
    /// anything else (`"12.5"`, `" 12"`, `"abc"`, a boolean).
    #[must_use]
    pub fn as_i64(&self) -> Option<i64> {
        if self.kind == Kind::Bool {
            return None;
        }
        let digits = self.text.strip_prefix('-').unwrap_or(&self.text);
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        self.text.parse().ok()
    }

    /// The value as an exact decimal, when its text is one (`12.50`, `"12.50"`).
    #[must_use]
    pub fn as_amount(&self) -> Option<Amount> {
        if self.kind == Kind::Bool {
            return None;
        }
        self.text.parse().ok()
    }

    /// Whether the value was written as a JSON string.
    #[must_use]
    pub fn is_string(&self) -> bool {
        self.kind == Kind::String
    }

    /// Whether the value was written as a JSON number.
    #[must_use]
    pub fn is_number(&self) -> bool {
        self.kind == Kind::Number
    }
}

impl fmt::Display for Scalar {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

impl fmt::Debug for Scalar {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind {
            Kind::String => write!(f, "Scalar({:?})", self.text),
            Kind::Number | Kind::Bool => write!(f, "Scalar({})", self.text),
        }
    }
}

impl From<&str> for Scalar {
    fn from(text: &str) -> Scalar {
        Scalar::string(text)
    }
}

impl From<String> for Scalar {
    fn from(text: String) -> Scalar {
        Scalar::string(text)
    }
}

impl From<i64> for Scalar {
    fn from(value: i64) -> Scalar {
        Scalar::integer(value)
    }
}

impl<'de> Deserialize<'de> for Scalar {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Scalar, D::Error> {
        let raw = Box::<RawValue>::deserialize(d)?;
        let text = raw.get();
        match text.as_bytes().first() {
            Some(b'"') => {
                let s: String = serde_json::from_str(text).map_err(de::Error::custom)?;
                Ok(Scalar::string(s))
            }
            Some(b't' | b'f') => Ok(Scalar {
                text: text.to_owned(),
                kind: Kind::Bool,
            }),
            Some(b'-' | b'0'..=b'9') => Ok(Scalar {
                text: text.to_owned(),
                kind: Kind::Number,
            }),
            _ => Err(de::Error::invalid_type(
                de::Unexpected::Other("an object, an array or null"),
                &"a string, a number or a boolean",
            )),
        }
    }
}

impl Serialize for Scalar {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self.kind {
            Kind::String => s.serialize_str(&self.text),
            Kind::Bool => s.serialize_bool(self.text == "true"),
            Kind::Number => RawValue::from_string(self.text.clone())
                .map_err(serde::ser::Error::custom)?
                .serialize(s),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Scalar;

    #[derive(serde::Deserialize, serde::Serialize, Debug)]
    struct Holder {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        v: Option<Scalar>,
    }

    fn read(json: &str) -> Option<Scalar> {
        serde_json::from_str::<Holder>(json).expect("decodes").v
    }

    #[test]
    fn a_string_a_number_and_a_boolean_keep_their_text() {
        let s = read(r#"{"v":"0042"}"#).expect("a value");
        assert_eq!(
            (s.as_str(), s.as_i64(), s.is_string()),
            ("0042", Some(42), true)
        );
        let n = read(r#"{"v":12.50}"#).expect("a value");
        assert_eq!(n.as_str(), "12.50");
        assert_eq!(n.as_i64(), None);
        assert_eq!(
            n.as_amount().map(|a| a.to_string()).as_deref(),
            Some("12.50")
        );
        let big = read(r#"{"v":123456789012345678901234567890}"#).expect("a value");
        assert_eq!(big.as_str(), "123456789012345678901234567890");
        let b = read(r#"{"v":true}"#).expect("a value");
        assert_eq!(
            (b.as_str(), b.as_i64(), b.as_amount()),
            ("true", None, None)
        );
        assert_eq!(read(r#"{"v":null}"#), None);
        assert_eq!(read("{}"), None);
    }

    #[test]
    fn objects_and_arrays_are_a_different_shape() {
        for bad in [r#"{"v":{}}"#, r#"{"v":[1]}"#] {
            assert!(
                serde_json::from_str::<Holder>(bad).is_err(),
                "{bad} decoded"
            );
        }
    }

    #[test]
    fn it_is_written_back_as_it_was_read() {
        for json in [
            r#"{"v":"0042"}"#,
            r#"{"v":12.50}"#,
            r#"{"v":false}"#,
            r#"{"v":-7}"#,
        ] {
            let h: Holder = serde_json::from_str(json).expect("decodes");
            assert_eq!(serde_json::to_string(&h).expect("encodes"), json);
        }
    }
}
