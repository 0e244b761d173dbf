//! An operation's `params` from the command line: `--params` (inline JSON, `@file.json`,
//! or `-` for stdin) as the base, then one flag per field on top. Money and every other
//! value keep their exact text: nothing passes through a float.

use std::collections::BTreeMap;
use std::io::Read;

use serde_json::value::RawValue;

use crate::table::{Field, Kind, Operation};

/// Why the params could not be assembled (nothing was sent).
#[derive(Debug)]
pub struct ParamsError(pub String);

impl std::fmt::Display for ParamsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

fn err<T>(message: String) -> Result<T, ParamsError> {
    Err(ParamsError(message))
}

/// The text of `--params`: inline JSON, `@FILE`, or `-` for stdin.
pub fn read_base(spec: &str) -> Result<String, ParamsError> {
    if spec == "-" {
        let mut text = String::new();
        std::io::stdin()
            .read_to_string(&mut text)
            .map_err(|e| ParamsError(format!("--params -: cannot read stdin: {e}")))?;
        Ok(text)
    } else if let Some(path) = spec.strip_prefix('@') {
        std::fs::read_to_string(path)
            .map_err(|e| ParamsError(format!("--params @{path}: cannot read: {e}")))
    } else {
        Ok(spec.to_owned())
    }
}

/// Whether `text` is a decimal literal: an optional `-`, digits, and optionally a `.`
/// followed by digits.
fn is_decimal(text: &str) -> bool {
    let body = text.strip_prefix('-').unwrap_or(text);
    let (whole, frac) = match body.split_once('.') {
        Some((w, f)) => (w, Some(f)),
        None => (body, None),
    };
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    digits(whole) && frac.is_none_or(digits)
}

/// The JSON text of one flag's value.
pub fn value_json(field: &Field, text: &str) -> Result<String, ParamsError> {
    let flag = field.flag;
    let quoted = || serde_json::to_string(text).unwrap_or_default();
    match field.kind {
        Kind::Text => Ok(quoted()),
        Kind::Date => match text.parse::<baas_client::Date>() {
            Ok(day) => Ok(format!("\"{day}\"")),
            Err(e) => err(format!("--{flag}: {e}")),
        },
        // A file (`@PATH`, read and sent as Base64) or the document's Base64 text itself,
        // which must be what the service reads (standard, padded).
        Kind::Document => match text.strip_prefix('@') {
            Some(path) => match baas_client::Document::from_path(path) {
                Ok(doc) => Ok(format!("\"{}\"", doc.to_base64())),
                Err(e) => err(format!("--{flag}: {e}")),
            },
            None => match baas_client::Document::from_base64(text) {
                Ok(_) => Ok(quoted()),
                Err(e) => err(format!("--{flag}: {e} (give a file as @PATH)")),
            },
        },
        Kind::Integer => match text.parse::<i64>() {
            Ok(n) => Ok(n.to_string()),
            Err(_) => err(format!("--{flag}: `{text}` is not a whole number")),
        },
        Kind::Decimal | Kind::DecimalNumber if !is_decimal(text) => err(format!(
            "--{flag}: `{text}` is not an amount (digits, optionally `.` and more digits, e.g. 100.50)"
        )),
        Kind::Decimal => Ok(quoted()),
        Kind::DecimalNumber => Ok(text.to_owned()),
        Kind::Bool => match text {
            "true" | "false" => Ok(text.to_owned()),
            _ => err(format!("--{flag}: `{text}` is not true or false")),
        },
        Kind::Enum {
            name,
            integer,
            values,
            open,
        } => {
            if !open && !values.contains(&text) {
                return err(format!(
                    "--{flag}: `{text}` is not a value of {name} ({})",
                    values.join(", ")
                ));
            }
            Ok(if integer { text.to_owned() } else { quoted() })
        }
        Kind::Json => match serde_json::from_str::<Box<RawValue>>(text) {
            Ok(raw) => Ok(raw.get().to_owned()),
            Err(e) => err(format!("--{flag}: not JSON: {e}")),
        },
    }
}

/// The params of `op`: `base` (the `--params` text, when given) with `flags` (field, text)
/// on top, then `defaults` (wire name, JSON text) where still absent; every required
/// field must then be there.
pub fn assemble(
    op: &Operation,
    base: Option<&str>,
    flags: &[(&Field, String)],
    defaults: &[(&str, String)],
) -> Result<String, ParamsError> {
    let mut members: BTreeMap<String, Box<RawValue>> = match base {
        None => BTreeMap::new(),
        Some(text) => serde_json::from_str(text)
            .map_err(|e| ParamsError(format!("--params: not a JSON object: {e}")))?,
    };
    for (field, text) in flags {
        let json = value_json(field, text)?;
        let raw = RawValue::from_string(json)
            .map_err(|e| ParamsError(format!("--{}: {e}", field.flag)))?;
        members.insert(field.wire.to_owned(), raw);
    }
    for (wire, json) in defaults {
        if !members.contains_key(*wire) {
            let raw = RawValue::from_string(json.clone())
                .map_err(|e| ParamsError(format!("{wire}: {e}")))?;
            members.insert((*wire).to_owned(), raw);
        }
    }
    let missing: Vec<String> = op
        .fields
        .iter()
        .filter(|f| f.required && !members.contains_key(f.wire))
        .map(|f| format!("--{} ({})", f.flag, f.wire))
        .collect();
    if !missing.is_empty() {
        return err(format!(
            "required and not given: {} (as flags, or in --params)",
            missing.join(", ")
        ));
    }
    serde_json::to_string(&members).map_err(|e| ParamsError(format!("params: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn field(kind: Kind) -> Field {
        Field {
            flag: "amount",
            wire: "amount",
            kind,
            required: true,
            help: "",
        }
    }

    #[test]
    fn values_keep_their_exact_text() {
        assert_eq!(
            value_json(&field(Kind::Decimal), "100.50").unwrap(),
            "\"100.50\""
        );
        assert_eq!(
            value_json(&field(Kind::DecimalNumber), "0.10").unwrap(),
            "0.10"
        );
        assert!(value_json(&field(Kind::Decimal), "1e3").is_err());
        assert!(value_json(&field(Kind::Decimal), "1.").is_err());
        assert_eq!(value_json(&field(Kind::Integer), "7").unwrap(), "7");
        assert_eq!(
            value_json(&field(Kind::Date), "2026-11-27").unwrap(),
            "\"2026-11-27\""
        );
        assert_eq!(
            value_json(&field(Kind::Document), "Zm9vYmFy").unwrap(),
            "\"Zm9vYmFy\""
        );
        let refused = value_json(&field(Kind::Document), "Zm9vYmF").unwrap_err().0;
        assert!(refused.contains("not standard Base64"), "{refused}");
        let file = std::env::temp_dir().join(format!("baas-cli-doc-{}", std::process::id()));
        std::fs::write(&file, b"foobar").unwrap();
        let at_file = format!("@{}", file.display());
        assert_eq!(
            value_json(&field(Kind::Document), &at_file).unwrap(),
            "\"Zm9vYmFy\""
        );
        std::fs::remove_file(&file).unwrap();
        let missing = value_json(&field(Kind::Document), &at_file).unwrap_err().0;
        assert!(missing.contains("cannot read the document"), "{missing}");
        let refused = value_json(&field(Kind::Date), "2026-02-30").unwrap_err().0;
        assert!(refused.contains("is not a date YYYY-MM-DD"), "{refused}");
        assert!(value_json(&field(Kind::Integer), "7.5").is_err());
        assert_eq!(
            value_json(&field(Kind::Text), "a\"b").unwrap(),
            "\"a\\\"b\""
        );
        let e = Kind::Enum {
            name: "Currency",
            integer: false,
            values: &["KES", "USD"],
            open: false,
        };
        assert_eq!(value_json(&field(e), "KES").unwrap(), "\"KES\"");
        let refused = value_json(&field(e), "EUR").unwrap_err().0;
        assert!(refused.contains("KES, USD"), "{refused}");
        // An open set takes any other code, sent as given.
        let open = Kind::Enum {
            name: "TxType",
            integer: false,
            values: &["TTID0001"],
            open: true,
        };
        assert_eq!(
            value_json(&field(open), "TTID0099").unwrap(),
            "\"TTID0099\""
        );
        assert_eq!(
            value_json(&field(Kind::Json), "[1, 2.50]").unwrap(),
            "[1, 2.50]"
        );
    }
}
