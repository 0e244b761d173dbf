//! [`RawJson`], JSON kept as its exact text.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::value::RawValue;

use crate::error::{Error, ErrorKind};

/// Raw JSON kept as its exact text (for shapes the spec does not give). Serializes and
/// deserializes verbatim, so numbers keep their literal text.
#[derive(Clone, Debug)]
pub struct RawJson(Box<RawValue>);

impl RawJson {
    /// `{}`.
    pub fn empty_object() -> RawJson {
        RawJson::from_string("{}".to_owned())
            .unwrap_or_else(|_| RawJson(Box::<RawValue>::default()))
    }

    /// Checks that `json` is one valid JSON value and keeps its text.
    pub fn from_string(json: String) -> Result<RawJson, Error> {
        match RawValue::from_string(json) {
            Ok(raw) => Ok(RawJson(raw)),
            Err(e) => Err(ErrorKind::Decode {
                status: None,
                message: format!("not a JSON value: {e}"),
                snippet: String::new(),
                source: Some(Box::new(e)),
            }
            .into()),
        }
    }

    /// Serializes a value to JSON text.
    pub fn from_serialize<T: Serialize + ?Sized>(value: &T) -> Result<RawJson, Error> {
        serde_json::value::to_raw_value(value)
            .map(RawJson)
            .map_err(|e| {
                ErrorKind::Encode {
                    message: e.to_string(),
                    source: Some(Box::new(e)),
                }
                .into()
            })
    }

    /// The exact JSON text.
    pub fn get(&self) -> &str {
        self.0.get()
    }

    /// The text of a top-level member of this object: a string's value, or a number's
    /// (or boolean's) literal text; `None` when absent, null, nested or not an object.
    pub fn member_text(&self, name: &str) -> Option<String> {
        let members: std::collections::BTreeMap<String, Box<serde_json::value::RawValue>> =
            serde_json::from_str(self.get()).ok()?;
        let raw = members.get(name)?.get().trim();
        match raw.as_bytes().first()? {
            b'"' => serde_json::from_str::<String>(raw).ok(),
            b'{' | b'[' | b'n' => None,
            _ => Some(raw.to_owned()),
        }
    }

    /// Decodes the text into a type.
    pub fn parse<T: serde::de::DeserializeOwned>(&self) -> Result<T, Error> {
        serde_json::from_str(self.get()).map_err(|e| {
            Error::decode(
                None,
                format!("cannot decode JSON value: {e}"),
                self.get().as_bytes(),
                Some(Box::new(e)),
            )
        })
    }
}

impl Default for RawJson {
    fn default() -> RawJson {
        RawJson::empty_object()
    }
}

impl PartialEq for RawJson {
    fn eq(&self, other: &RawJson) -> bool {
        self.get() == other.get()
    }
}

impl Eq for RawJson {}

impl std::fmt::Display for RawJson {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.get())
    }
}

impl Serialize for RawJson {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(s)
    }
}

impl<'de> Deserialize<'de> for RawJson {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<RawJson, D::Error> {
        Box::<RawValue>::deserialize(d).map(RawJson)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn member_text_reads_scalars_as_their_text() {
        let raw = RawJson::from_string(
            r#"{"txStatus":8,"neg":-1,"s":"x\u0041","n":null,"o":{"a":1},"amount":100.50}"#
                .to_owned(),
        )
        .expect("json");
        assert_eq!(raw.member_text("txStatus").as_deref(), Some("8"));
        assert_eq!(raw.member_text("neg").as_deref(), Some("-1"));
        assert_eq!(raw.member_text("s").as_deref(), Some("xA"));
        assert_eq!(raw.member_text("amount").as_deref(), Some("100.50"));
        assert_eq!(raw.member_text("n"), None);
        assert_eq!(raw.member_text("o"), None);
        assert_eq!(raw.member_text("absent"), None);
        assert_eq!(
            RawJson::from_string("[1]".to_owned())
                .expect("json")
                .member_text("a"),
            None
        );
    }

    #[test]
    fn verbatim() {
        assert_eq!(RawJson::default().get(), "{}");
        let r = RawJson::from_string(r#"{"a":100.50}"#.to_owned()).unwrap();
        assert_eq!(serde_json::to_string(&r).unwrap(), r#"{"a":100.50}"#);
        let back: RawJson = serde_json::from_str(r#" {"a" : 1.10} "#).unwrap();
        assert_eq!(back.get(), r#"{"a" : 1.10}"#);
        assert!(RawJson::from_string("{".to_owned()).is_err());
        #[derive(serde::Deserialize)]
        struct A {
            a: String,
        }
        assert_eq!(
            RawJson::from_string(r#"{"a":"x"}"#.into())
                .unwrap()
                .parse::<A>()
                .unwrap()
                .a,
            "x"
        );
        assert!(matches!(
            r.parse::<A>().map_err(Error::into_kind),
            Err(ErrorKind::Decode { .. })
        ));
    }
}
