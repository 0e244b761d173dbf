//! Python names and literals from the checked model's names and texts.

use crate::model::{DecimalWire, Number, TypeRef};

/// Python's keywords, and the names the generated methods take besides the fields.
const RESERVED: [&str; 39] = [
    "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class", "continue",
    "def", "del", "elif", "else", "except", "finally", "for", "from", "global", "if", "import",
    "in", "is", "lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try", "while",
    "with", "yield", "self", "cls", "options", "policy",
];

/// A field, parameter or module name: the model's snake_case name (a raw Rust name
/// unwrapped), with `_` added to a Python keyword or a name the methods use.
pub fn ident(rust_name: &str) -> String {
    let name = rust_name.strip_prefix("r#").unwrap_or(rust_name);
    if RESERVED.contains(&name) {
        format!("{name}_")
    } else {
        name.to_owned()
    }
}

/// An enum member's name: the model's UpperCamelCase variant in UPPER_SNAKE_CASE
/// (`InsufficientBalance` → `INSUFFICIENT_BALANCE`, `Kes` → `KES`).
pub fn member(variant: &str) -> String {
    let chars: Vec<char> = variant.chars().collect();
    let mut out = String::new();
    for (i, &c) in chars.iter().enumerate() {
        let prev = i.checked_sub(1).and_then(|j| chars.get(j)).copied();
        let next = chars.get(i + 1).copied();
        let boundary = c.is_uppercase()
            && prev.is_some_and(|p| {
                p.is_lowercase()
                    || p.is_ascii_digit()
                    || (p.is_uppercase() && next.is_some_and(char::is_lowercase))
            });
        if boundary {
            out.push('_');
        }
        out.extend(c.to_uppercase());
    }
    if out.is_empty() || out.starts_with(|c: char| c.is_ascii_digit()) || out.starts_with('_') {
        out.insert(0, 'V');
    }
    out
}

/// A Python string literal (double quotes, escaped).
pub fn string(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 || c == '\u{7f}' => {
                out.push_str(&format!("\\x{:02x}", c as u32))
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
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

/// Which shape of a record a type refers to.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    Sent,
    Received,
}

/// The Python type of a model type (enums and records by their class names).
pub fn py_type(ty: &TypeRef, dir: Direction) -> String {
    match ty {
        TypeRef::String => "str".to_owned(),
        TypeRef::Int | TypeRef::Long => "int".to_owned(),
        TypeRef::Decimal { .. } => "Decimal".to_owned(),
        TypeRef::Bool => "bool".to_owned(),
        TypeRef::Scalar => "Scalar".to_owned(),
        TypeRef::Json => match dir {
            Direction::Sent => "WireValue".to_owned(),
            Direction::Received => "JsonValue".to_owned(),
        },
        TypeRef::Enum { name } => match dir {
            Direction::Sent => name.clone(),
            Direction::Received => format!("{name} | Unknown"),
        },
        TypeRef::Record {
            name,
            received_name,
        } => match dir {
            Direction::Sent => name.clone(),
            Direction::Received => received_name.clone(),
        },
        TypeRef::Array { item } => match dir {
            Direction::Sent => format!("Sequence[{}]", py_type(item, dir)),
            Direction::Received => format!("list[{}]", py_type(item, dir)),
        },
    }
}

/// The enum and record classes a type names (in `dir`).
pub fn named(ty: &TypeRef, dir: Direction, enums: &mut Vec<String>, records: &mut Vec<String>) {
    match ty {
        TypeRef::Enum { name } => enums.push(name.clone()),
        TypeRef::Record {
            name,
            received_name,
        } => records.push(match dir {
            Direction::Sent => name.clone(),
            Direction::Received => received_name.clone(),
        }),
        TypeRef::Array { item } => named(item, dir, enums, records),
        TypeRef::String
        | TypeRef::Int
        | TypeRef::Long
        | TypeRef::Decimal { .. }
        | TypeRef::Bool
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
        assert_eq!(member("InsufficientBalance"), "INSUFFICIENT_BALANCE");
        assert_eq!(member("Kes"), "KES");
        assert_eq!(member("Ttid0001"), "TTID0001");
        assert_eq!(member("HTTPError"), "HTTP_ERROR");
        assert_eq!(member("Status1"), "STATUS1");
        assert_eq!(ident("r#type"), "type");
        assert_eq!(ident("from"), "from_");
        assert_eq!(ident("options"), "options_");
        assert_eq!(ident("account_id"), "account_id");
        assert_eq!(string("a\"b\\c\n"), "\"a\\\"b\\\\c\\n\"");
        assert_eq!(
            doc_text("say \"\"\"hi\"\"\""),
            "say \\\"\\\"\\\"hi\\\"\\\"\\\" "
        );
    }
}
