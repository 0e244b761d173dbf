//! JSON as the sandbox receives it, with every number kept as its literal text.
//!
//! The service signs the very text a peer sends (public-facts.md: "each number must be
//! rendered from its literal text in the received JSON"), and money must never pass
//! through `f64`. `serde_json::Value` (without `arbitrary_precision`, which would change
//! number handling for the whole workspace) loses that text, so the sandbox reads
//! requests into [`Json`] by walking `RawValue`s.

use std::collections::BTreeMap;

use rust_decimal::Decimal;
use serde_json::value::RawValue;

/// A JSON value whose numbers keep their literal text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Json {
    /// `null`.
    Null,
    /// `true` / `false`.
    Bool(bool),
    /// A number, exactly as written (`100.50` stays `100.50`).
    Number(String),
    /// A string.
    String(String),
    /// An array.
    Array(Vec<Json>),
    /// An object; keys are unique (a body that repeats a key is refused by
    /// [`Json::parse`], as the runtime refuses it: two readers of one signed message
    /// must not see different values).
    Object(BTreeMap<String, Json>),
}

/// Why a body is not JSON the sandbox can read.
#[derive(Debug, thiserror::Error)]
#[error("malformed JSON: {0}")]
pub struct JsonError(String);

/// Deepest nesting accepted; deeper documents are refused rather than recursed into.
const MAX_DEPTH: usize = 64;

impl Json {
    /// Parses JSON text, keeping number literals.
    pub fn parse(text: &str) -> Result<Json, JsonError> {
        let raw: &RawValue = serde_json::from_str(text).map_err(|e| JsonError(e.to_string()))?;
        Self::from_raw(raw, 0)
    }

    fn from_raw(raw: &RawValue, depth: usize) -> Result<Json, JsonError> {
        if depth > MAX_DEPTH {
            return Err(JsonError(format!("nesting deeper than {MAX_DEPTH}")));
        }
        let text = raw.get().trim();
        match text.as_bytes().first() {
            Some(b'{') => {
                let Members(members) =
                    serde_json::from_str(text).map_err(|e| JsonError(e.to_string()))?;
                let mut out = BTreeMap::new();
                for (k, v) in members {
                    let value = Self::from_raw(v, depth + 1)?;
                    if out.contains_key(&k) {
                        return Err(JsonError(format!("duplicate key `{k}`")));
                    }
                    out.insert(k, value);
                }
                Ok(Json::Object(out))
            }
            Some(b'[') => {
                let items: Vec<&RawValue> =
                    serde_json::from_str(text).map_err(|e| JsonError(e.to_string()))?;
                items
                    .into_iter()
                    .map(|v| Self::from_raw(v, depth + 1))
                    .collect::<Result<Vec<_>, _>>()
                    .map(Json::Array)
            }
            Some(b'"') => serde_json::from_str::<String>(text)
                .map(Json::String)
                .map_err(|e| JsonError(e.to_string())),
            Some(b't') => Ok(Json::Bool(true)),
            Some(b'f') => Ok(Json::Bool(false)),
            Some(b'n') => Ok(Json::Null),
            Some(_) => Ok(Json::Number(text.to_owned())),
            None => Err(JsonError("empty value".into())),
        }
    }

    /// Converts a `serde_json::Value` the sandbox built itself (integers and strings
    /// only, never floats, so no text is lost).
    pub fn from_value(value: &serde_json::Value) -> Json {
        match value {
            serde_json::Value::Null => Json::Null,
            serde_json::Value::Bool(b) => Json::Bool(*b),
            serde_json::Value::Number(n) => Json::Number(n.to_string()),
            serde_json::Value::String(s) => Json::String(s.clone()),
            serde_json::Value::Array(a) => Json::Array(a.iter().map(Json::from_value).collect()),
            serde_json::Value::Object(o) => Json::Object(
                o.iter()
                    .map(|(k, v)| (k.clone(), Json::from_value(v)))
                    .collect(),
            ),
        }
    }

    /// The member `key` of an object (None for other values or a missing key).
    pub fn get(&self, key: &str) -> Option<&Json> {
        match self {
            Json::Object(map) => map.get(key),
            _ => None,
        }
    }

    /// The text of a string, or of a number (its literal); None otherwise.
    pub fn as_text(&self) -> Option<&str> {
        match self {
            Json::String(s) | Json::Number(s) => Some(s),
            _ => None,
        }
    }

    /// Member `key` as text (string or number literal), if present and non-empty.
    pub fn text(&self, key: &str) -> Option<&str> {
        self.get(key)
            .and_then(Json::as_text)
            .filter(|s| !s.is_empty())
    }

    /// Member `key` as an integer (number or string of digits).
    pub fn int(&self, key: &str) -> Option<i64> {
        self.text(key).and_then(|t| t.trim().parse().ok())
    }

    /// Member `key` as an exact decimal (number literal or string), never via `f64`.
    pub fn decimal(&self, key: &str) -> Option<Decimal> {
        self.text(key).and_then(parse_decimal)
    }

    /// Member `key` as an array (empty when absent or not an array).
    pub fn array(&self, key: &str) -> &[Json] {
        match self.get(key) {
            Some(Json::Array(items)) => items,
            _ => &[],
        }
    }

    /// Writes the value back as compact JSON text (numbers verbatim).
    pub fn to_json_string(&self) -> String {
        let mut out = String::new();
        self.write(&mut out);
        out
    }

    fn write(&self, out: &mut String) {
        match self {
            Json::Null => out.push_str("null"),
            Json::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            Json::Number(n) => out.push_str(n),
            Json::String(s) => out.push_str(&quote(s)),
            Json::Array(items) => {
                out.push('[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    item.write(out);
                }
                out.push(']');
            }
            Json::Object(map) => {
                out.push('{');
                for (i, (k, v)) in map.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    out.push_str(&quote(k));
                    out.push(':');
                    v.write(out);
                }
                out.push('}');
            }
        }
    }
}

/// The members of one object in order, duplicates kept (a `BTreeMap` would keep only
/// the last value of a repeated key, silently).
struct Members<'a>(Vec<(String, &'a RawValue)>);

impl<'de> serde::Deserialize<'de> for Members<'de> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Visit;
        impl<'de> serde::de::Visitor<'de> for Visit {
            type Value = Members<'de>;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<Members<'de>, A::Error> {
                let mut members = Vec::new();
                while let Some(member) = map.next_entry::<String, &'de RawValue>()? {
                    members.push(member);
                }
                Ok(Members(members))
            }
        }
        d.deserialize_map(Visit)
    }
}

fn quote(s: &str) -> String {
    // Serializing a &str cannot fail; fall back to an empty string literal regardless.
    serde_json::to_string(s).unwrap_or_else(|_| "\"\"".to_owned())
}

/// Parses decimal text exactly (`"100.50"`, `100`, `1e2` is refused).
pub fn parse_decimal(text: &str) -> Option<Decimal> {
    let t = text.trim();
    if t.is_empty() || t.contains(['e', 'E']) {
        return None;
    }
    Decimal::from_str_exact(t).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_keep_their_text_and_duplicate_keys_are_refused() {
        let v = Json::parse(r#"{"a":100.50,"b":[1e2,"x"],"c":{"d":null}}"#).unwrap();
        assert_eq!(
            v.to_json_string(),
            r#"{"a":100.50,"b":[1e2,"x"],"c":{"d":null}}"#
        );
        // A signer and a verifier that keep different copies of a repeated key would
        // read different messages under one signature.
        for body in [
            r#"{"amount":"1","amount":"1000"}"#,
            r#"{"params":{"a":1,"b":2,"a":3}}"#,
            r#"{"x":[{"k":1,"k":1}]}"#,
        ] {
            let err = Json::parse(body).unwrap_err().to_string();
            assert!(err.contains("duplicate key"), "{body}: {err}");
        }
    }

    #[test]
    fn nesting_is_bounded() {
        let ok = format!("{}1{}", "[".repeat(MAX_DEPTH), "]".repeat(MAX_DEPTH));
        assert!(Json::parse(&ok).is_ok());
        let deep = format!(
            "{}1{}",
            "[".repeat(MAX_DEPTH + 2),
            "]".repeat(MAX_DEPTH + 2)
        );
        assert!(Json::parse(&deep).is_err());
    }
}
