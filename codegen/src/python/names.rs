//! Python's naming table and literals: names from the plan's [`Words`], types, and how a
//! value is written to and read from the wire.

use crate::model::{DecimalWire, Number, TypeRef};
use crate::plan::{Direction, Words};

/// Python's keywords, and the names the generated methods take besides the fields.
const RESERVED: [&str; 39] = [
    "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class", "continue",
    "def", "del", "elif", "else", "except", "finally", "for", "from", "global", "if", "import",
    "in", "is", "lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try", "while",
    "with", "yield", "self", "cls", "options", "policy",
];

/// A field, parameter, method or module name: snake_case, with `_` added to a Python
/// keyword or a name the methods use.
pub fn ident(words: &Words) -> String {
    crate::text::unreserved(words.snake(), &RESERVED, "_")
}

/// An enum member's name: UPPER_SNAKE_CASE (`InsufficientBalance` →
/// `INSUFFICIENT_BALANCE`), `V` before a name that could not start an identifier.
pub fn member(words: &Words) -> String {
    let name = words.screaming();
    if name.is_empty() || name.starts_with(|c: char| c.is_ascii_digit()) {
        format!("V{name}")
    } else {
        name
    }
}

/// A Python string literal (double quotes, escaped).
pub fn string(text: &str) -> String {
    crate::text::quoted(text, |c| {
        ((c as u32) < 0x20 || c == '\u{7f}').then(|| format!("\\x{:02x}", c as u32))
    })
}

/// The body of a docstring: backslashes and triple quotes escaped, no trailing
/// whitespace on a line.
pub fn doc_text(text: &str) -> String {
    let escaped = text.replace('\\', "\\\\").replace("\"\"\"", "\\\"\\\"\\\"");
    let lines: Vec<&str> = escaped.lines().map(str::trim_end).collect();
    let mut joined = lines.join("\n");
    if joined.ends_with('"') {
        joined.push(' ');
    }
    joined
}

/// A `Decimal("...")` literal of an exact number.
pub fn decimal(n: Number) -> String {
    format!("Decimal({})", string(&n.to_string()))
}

/// The Python type of a field in the sent shape: an open value set's field takes a code
/// given as text too (`TxType | str`).
pub fn sent_type(f: &crate::plan::FieldPlan) -> String {
    py_type_of(&f.ty, Direction::Sent, f.open_values)
}

/// What a sent record's `__init__` stores for a field of type `ty` given as `name`, when
/// not the argument itself: a document's bytes as a `Document` (its `repr` shows the size
/// only, so no record's `repr` shows a document).
pub fn stored(ty: &TypeRef, name: &str) -> Option<String> {
    let document = match ty {
        TypeRef::Array { item } => **item == TypeRef::Document,
        other => *other == TypeRef::Document,
    };
    document.then(|| format!("_w.document_in({name})"))
}

/// The Python type of a model type (enums and records by their class names).
pub fn py_type(ty: &TypeRef, dir: Direction) -> String {
    py_type_of(ty, dir, false)
}

fn py_type_of(ty: &TypeRef, dir: Direction, open: bool) -> String {
    let sent = dir == Direction::Sent;
    match ty {
        TypeRef::String => "str".to_owned(),
        TypeRef::Int | TypeRef::Long => "int".to_owned(),
        TypeRef::Decimal { .. } => "Decimal".to_owned(),
        TypeRef::Bool => "bool".to_owned(),
        TypeRef::Date => "_dt.date".to_owned(),
        TypeRef::Document => "bytes".to_owned(),
        TypeRef::Scalar => "Scalar".to_owned(),
        TypeRef::Json if sent => "WireValue".to_owned(),
        TypeRef::Json => "JsonValue".to_owned(),
        TypeRef::Enum { name } if sent && open => format!("{name} | str"),
        TypeRef::Enum { name } if sent => name.clone(),
        TypeRef::Enum { name } => format!("{name} | Unknown"),
        TypeRef::Record { name, .. } if sent => name.clone(),
        TypeRef::Record { received_name, .. } => received_name.clone(),
        TypeRef::Array { item } if sent => {
            format!("Sequence[{}]", py_type_of(item, dir, open))
        }
        TypeRef::Array { item } => format!("list[{}]", py_type_of(item, dir, open)),
    }
}

/// The enum and record classes a type names (in `dir`).
pub fn named(ty: &TypeRef, dir: Direction, enums: &mut Vec<String>, records: &mut Vec<String>) {
    match ty {
        TypeRef::Enum { name } => enums.push(name.clone()),
        TypeRef::Record { .. } => records.push(py_type(ty, dir)),
        TypeRef::Array { item } => named(item, dir, enums, records),
        TypeRef::String
        | TypeRef::Int
        | TypeRef::Long
        | TypeRef::Decimal { .. }
        | TypeRef::Bool
        | TypeRef::Date
        | TypeRef::Document
        | TypeRef::Scalar
        | TypeRef::Json => {}
    }
}

/// How a value of type `ty` (held in the expression `value`) is sent.
pub fn to_wire(ty: &TypeRef, value: &str, wire_name: &str) -> String {
    match ty {
        TypeRef::String | TypeRef::Int | TypeRef::Long | TypeRef::Bool => value.to_owned(),
        TypeRef::Decimal {
            wire: DecimalWire::String,
        } => format!("_w.decimal_text({value})"),
        TypeRef::Decimal {
            wire: DecimalWire::Number,
        } => format!("_w.decimal_number({value})"),
        TypeRef::Json => format!("_w.json_wire({value}, {})", string(wire_name)),
        TypeRef::Date => format!("_w.date_text({value})"),
        TypeRef::Document => format!("_w.document_text({value})"),
        // Never sent (the checker refuses a sent scalar); written as its text.
        TypeRef::Scalar => format!("str({value})"),
        TypeRef::Enum { .. } => format!("_w.enum_wire({value})"),
        TypeRef::Record { .. } => format!("{value}._to_wire()"),
        TypeRef::Array { item } => {
            format!("[{} for item in {value}]", to_wire(item, "item", wire_name))
        }
    }
}

/// How a received value of type `ty` is read: a function of `(value, path)`.
pub fn reader(ty: &TypeRef) -> String {
    match ty {
        TypeRef::String => "_w.str_of".to_owned(),
        TypeRef::Int => "_w.int32_of".to_owned(),
        TypeRef::Long => "_w.int_of".to_owned(),
        TypeRef::Decimal { .. } => "_w.decimal_of".to_owned(),
        TypeRef::Bool => "_w.bool_of".to_owned(),
        TypeRef::Date => "_w.date_of".to_owned(),
        TypeRef::Document => "_w.document_of".to_owned(),
        TypeRef::Scalar => "_w.scalar_of".to_owned(),
        TypeRef::Json => "_w.json_of".to_owned(),
        TypeRef::Enum { name } => format!("_w.enum_reader({name})"),
        TypeRef::Record { received_name, .. } => {
            format!("_w.record_reader({received_name}._from_wire)")
        }
        TypeRef::Array { item } => match item.as_ref() {
            TypeRef::Json => "_w.json_list_of".to_owned(),
            TypeRef::Enum { name } => format!("_w.enum_list_reader({name})"),
            item => format!("_w.list_reader({})", reader(item)),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn members_and_idents() {
        for (name, member_name, ident_name) in [
            (
                "InsufficientBalance",
                "INSUFFICIENT_BALANCE",
                "insufficient_balance",
            ),
            ("Kes", "KES", "kes"),
            ("Ttid0001", "TTID0001", "ttid0001"),
            ("HTTPError", "HTTP_ERROR", "http_error"),
            ("1Day", "V1_DAY", "1_day"),
            ("r#type", "TYPE", "type"),
            ("from", "FROM", "from_"),
            ("options", "OPTIONS", "options_"),
            ("accountId", "ACCOUNT_ID", "account_id"),
        ] {
            assert_eq!(member(&Words::of(name)), member_name);
            assert_eq!(ident(&Words::of(name)), ident_name);
        }
        assert_eq!(string("a\"b\\c\n"), "\"a\\\"b\\\\c\\n\"");
        assert_eq!(
            doc_text("say \"\"\"hi\"\"\""),
            "say \\\"\\\"\\\"hi\\\"\\\"\\\" "
        );
    }
}
