//! [`RawJson`], JSON kept as its exact text.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::value::RawValue;

use crate::error::Error;

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
            Err(e) => Err(Error::Decode {
                status: None,
                message: format!("not a JSON value: {e}"),
                snippet: String::new(),
                source: Some(Box::new(e)),
            }),
        }
    }

    /// Serializes a value to JSON text.
    pub fn from_serialize<T: Serialize + ?Sized>(value: &T) -> Result<RawJson, Error> {
        serde_json::value::to_raw_value(value)
            .map(RawJson)
            .map_err(|e| Error::Encode {
                message: e.to_string(),
                source: Some(Box::new(e)),
            })
    }

    /// The exact JSON text.
    pub fn get(&self) -> &str {
        self.0.get()
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
        assert!(matches!(r.parse::<A>(), Err(Error::Decode { .. })));
    }
}
