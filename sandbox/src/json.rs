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

/// Values (objects, arrays and scalars, counted one each) that the server reads from
/// one request before its signature is checked ([`Json::parse_bounded`]).
///
/// The tree holds every value in its own allocation (about 64 bytes for an array
/// element, 150 for an object member, besides the text), so a 48 MB body of `1,`
/// would be 24 million values and well over a gigabyte. A real request has a few
/// hundred values (a bulk order of a thousand items, about ten thousand): the cap is
/// ten times that and bounds the tree to about 15 MB plus the body's text.
pub const MAX_VALUES: usize = 100_000;

impl Json {
    /// Parses JSON text, keeping number literals.
    ///
    /// One pass of `serde_json` checks the syntax (its error messages are the ones a
    /// peer sees), then one pass of the reader builds the tree: every byte is read twice
    /// in all, however deep it is nested (reading each member's `RawValue` again at
    /// every level cost up to `MAX_DEPTH` passes over the innermost bytes).
    pub fn parse(text: &str) -> Result<Json, JsonError> {
        Json::parse_bounded(text, usize::MAX)
    }

    /// [`Json::parse`], refusing a document of more than `max_values` values (see
    /// [`MAX_VALUES`]) as soon as the tree reaches that many, before it grows further,
    /// and one whose pairs pass [`crate::signing::MAX_EXPANSION`] times the bytes read so
    /// far plus [`crate::signing::EXPANSION_ALLOWANCE`], counted at the end of every
    /// member and element as every SDK counts them (the differential test holds the
    /// sandbox to them). The syntax pass before it allocates nothing.
    ///
    /// No error message quotes the text (a key, a value): the sandbox answers these
    /// before it knows who sent the body, and echoes nothing of it.
    pub fn parse_bounded(text: &str, max_values: usize) -> Result<Json, JsonError> {
        let _: &RawValue = serde_json::from_str(text).map_err(|e| JsonError(e.to_string()))?;
        let mut reader = Reader {
            text,
            pos: 0,
            values_left: max_values,
            max_values,
            pairs: 0,
            expansion_limit: max_values != usize::MAX,
        };
        let value = reader.value(0, 0)?;
        reader.skip_ws();
        if reader.rest().is_empty() {
            Ok(value)
        } else {
            Err(reader.unexpected())
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

/// Builds a [`Json`] from text that `serde_json` found to be one valid JSON value. It
/// still checks what it relies on and reports an error rather than panic.
struct Reader<'a> {
    text: &'a str,
    pos: usize,
    /// Values the tree may still take, of `max_values` (see [`Json::parse_bounded`]).
    values_left: usize,
    max_values: usize,
    /// Bytes of the `path=value` pairs read so far (the top-level `signature` left out),
    /// and whether they are held to the expansion limit as the SDKs hold them (see
    /// [`Json::parse_bounded`]).
    pairs: usize,
    expansion_limit: bool,
}

impl Reader<'_> {
    fn rest(&self) -> &str {
        self.text.get(self.pos..).unwrap_or_default()
    }

    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.pos).copied()
    }

    fn skip_ws(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.peek() {
            self.pos += 1;
        }
    }

    fn unexpected(&self) -> JsonError {
        JsonError(format!("unexpected input at byte {}", self.pos))
    }

    fn expect(&mut self, byte: u8) -> Result<(), JsonError> {
        self.skip_ws();
        if self.peek() == Some(byte) {
            self.pos += 1;
            Ok(())
        } else {
            Err(self.unexpected())
        }
    }

    /// Counts a pair of `path_len + 1 + value_len` bytes.
    fn pair(&mut self, path_len: usize, value_len: usize) {
        self.pairs = self
            .pairs
            .saturating_add(path_len.saturating_add(1).saturating_add(value_len));
    }

    /// After a member or element: the pairs so far within the expansion limit.
    fn within_budget(&self) -> Result<(), JsonError> {
        let budget = self
            .pos
            .saturating_mul(crate::signing::MAX_EXPANSION)
            .saturating_add(crate::signing::EXPANSION_ALLOWANCE);
        if self.expansion_limit && self.pairs > budget {
            return Err(JsonError(format!(
                "the pairs pass {} times the bytes read at byte {} (long keys above many values)",
                crate::signing::MAX_EXPANSION,
                self.pos
            )));
        }
        Ok(())
    }

    /// The value at the cursor, `depth` levels below the top-level value, whose path is
    /// `path_len` bytes long.
    fn value(&mut self, depth: usize, path_len: usize) -> Result<Json, JsonError> {
        // An object or array `depth` levels below the top-level object is at level
        // `depth + 1`: at most MAX_DEPTH levels, the top-level object included, as every
        // SDK counts them (an empty one too; the differential test found the sandbox read
        // an empty `[]` one level deeper).
        self.skip_ws();
        if depth >= MAX_DEPTH && matches!(self.peek(), Some(b'{' | b'[')) {
            return Err(JsonError(format!("nesting deeper than {MAX_DEPTH}")));
        }
        self.values_left = self.values_left.checked_sub(1).ok_or_else(|| {
            JsonError(format!(
                "more than {} values (at byte {}): more than the sandbox reads before it checks a signature",
                self.max_values, self.pos
            ))
        })?;
        self.skip_ws();
        match self.peek() {
            Some(b'{') => self.object(depth, path_len),
            Some(b'[') => self.array(depth, path_len),
            Some(b'"') => {
                let text = self.string()?;
                self.pair(path_len, text.len());
                Ok(Json::String(text))
            }
            Some(b't') => {
                self.pair(path_len, 4);
                self.word("true", Json::Bool(true))
            }
            Some(b'f') => {
                self.pair(path_len, 5);
                self.word("false", Json::Bool(false))
            }
            Some(b'n') => self.word("null", Json::Null),
            Some(b'-' | b'0'..=b'9') => Ok(self.number(path_len)),
            _ => Err(self.unexpected()),
        }
    }

    /// The object at the cursor: its members in key order (a duplicate key is an error),
    /// each pair counted against the expansion limit (the top-level `signature` left out).
    fn object(&mut self, depth: usize, path_len: usize) -> Result<Json, JsonError> {
        self.pos += 1;
        let mut out = BTreeMap::new();
        self.skip_ws();
        if self.peek() == Some(b'}') {
            self.pos += 1;
            if depth > 0 {
                self.pair(path_len, 2);
            }
            return Ok(Json::Object(out));
        }
        loop {
            self.skip_ws();
            let at = self.pos;
            let key = self.string()?;
            self.expect(b':')?;
            let child = if depth == 0 {
                key.len()
            } else {
                path_len + 1 + key.len()
            };
            let before = self.pairs;
            let value = self.value(depth + 1, child)?;
            if depth == 0 && key == "signature" {
                self.pairs = before;
            }
            self.within_budget()?;
            if out.contains_key(&key) {
                return Err(JsonError(format!("duplicate key at byte {at}")));
            }
            out.insert(key, value);
            self.skip_ws();
            match self.peek() {
                Some(b',') => self.pos += 1,
                Some(b'}') => {
                    self.pos += 1;
                    return Ok(Json::Object(out));
                }
                _ => return Err(self.unexpected()),
            }
        }
    }

    /// The array at the cursor, each element's pair counted against the expansion limit.
    fn array(&mut self, depth: usize, path_len: usize) -> Result<Json, JsonError> {
        self.pos += 1;
        let mut items = Vec::new();
        self.skip_ws();
        if self.peek() == Some(b']') {
            self.pos += 1;
            self.pair(path_len, 2);
            return Ok(Json::Array(items));
        }
        loop {
            let child = path_len + 2 + crate::signing::decimal_len(items.len());
            items.push(self.value(depth + 1, child)?);
            self.within_budget()?;
            self.skip_ws();
            match self.peek() {
                Some(b',') => self.pos += 1,
                Some(b']') => {
                    self.pos += 1;
                    return Ok(Json::Array(items));
                }
                _ => return Err(self.unexpected()),
            }
        }
    }

    /// The number at the cursor, kept as its literal text.
    fn number(&mut self, path_len: usize) -> Json {
        let rest = self.rest();
        let len = rest
            .find(|c: char| !matches!(c, '0'..='9' | '-' | '+' | '.' | 'e' | 'E'))
            .unwrap_or(rest.len());
        let literal = rest.get(..len).unwrap_or_default().to_owned();
        self.pos += len;
        self.pair(path_len, literal.len());
        Json::Number(literal)
    }

    fn word(&mut self, word: &str, value: Json) -> Result<Json, JsonError> {
        if self.rest().starts_with(word) {
            self.pos += word.len();
            Ok(value)
        } else {
            Err(self.unexpected())
        }
    }

    /// The string at the cursor, unescaped (by `serde_json`, over the string's text
    /// only).
    fn string(&mut self) -> Result<String, JsonError> {
        let bytes = self.text.as_bytes();
        if self.peek() != Some(b'"') {
            return Err(self.unexpected());
        }
        let mut end = self.pos + 1;
        loop {
            match bytes.get(end) {
                Some(b'"') => break,
                Some(b'\\') => end += 2,
                Some(_) => end += 1,
                None => return Err(self.unexpected()),
            }
        }
        let literal = self
            .text
            .get(self.pos..=end)
            .ok_or_else(|| self.unexpected())?;
        let value = serde_json::from_str(literal).map_err(|e| JsonError(e.to_string()))?;
        self.pos = end + 1;
        Ok(value)
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
    fn reads_what_serde_json_reads() {
        // Integers only, so `from_value` keeps the same text.
        for text in [
            r#" { "a" : [ 1 , -2 , { } , [ ] , null , true , false ] , "b" : { "c" : "d" } } "#,
            r#"{"s":"quote \" backslash \\ slash \/ \b\f\n\r\t \u00e9 \ud83d\ude00 上海"}"#,
            r#"{"ends with a backslash\\":"\\","":""}"#,
            r#"[[[[[]]]],{"x":[{"y":{"z":[0]}}]}]"#,
            r#""a string alone""#,
            "-7",
            "\t\n 7 \r",
        ] {
            let expected = Json::from_value(&serde_json::from_str(text).unwrap());
            assert_eq!(Json::parse(text).unwrap(), expected, "{text}");
        }
        for (text, literal) in [
            ("100.50", "100.50"),
            ("[-0.0]", "-0.0"),
            ("{\"n\":1E+2}", "1E+2"),
        ] {
            let parsed = Json::parse(text).unwrap().to_json_string();
            assert!(parsed.contains(literal), "{text}: {parsed}");
        }
        for bad in [
            "",
            "{",
            "[1,]",
            r#"{"a":1,}"#,
            "01",
            r#"{"a" 1}"#,
            "[1] 2",
            "nul",
            r#""\x""#,
        ] {
            assert!(Json::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn values_are_bounded_and_errors_quote_nothing() {
        let body = r#"{"a":[1,2,3],"b":{"c":"d"}}"#;
        // The object, `a`, three elements, `b`, `c`: seven values.
        assert!(Json::parse_bounded(body, 7).is_ok());
        let err = Json::parse_bounded(body, 6).unwrap_err().to_string();
        assert!(err.contains("more than 6 values"), "{err}");
        // A repeated key is located, not quoted (the text may be anything).
        let err = Json::parse(r#"{"secret&x=1":1,"secret&x=1":2}"#)
            .unwrap_err()
            .to_string();
        assert!(err.contains("duplicate key at byte 16"), "{err}");
        assert!(!err.contains("secret"), "{err}");
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
        // 64 levels, the top one included, even when the innermost is empty; not 65.
        let edge = |levels: usize| {
            format!(
                r#"{{"a":{}{}}}"#,
                "[".repeat(levels - 1),
                "]".repeat(levels - 1)
            )
        };
        assert!(Json::parse(&edge(MAX_DEPTH)).is_ok());
        assert!(Json::parse(&edge(MAX_DEPTH + 1)).is_err());
    }
}
