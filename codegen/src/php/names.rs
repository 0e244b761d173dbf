//! PHP names, types and literals for the plan's words and types: the renderer's own small
//! naming table (PHP's reserved words) and nothing else.

use crate::model::{DecimalWire, TypeRef};
use crate::plan::{Direction, Words};

/// Words PHP reserves as class, enum and enum-case names (compared in lower case).
const RESERVED_TYPES: [&str; 77] = [
    "abstract",
    "and",
    "array",
    "as",
    "bool",
    "break",
    "callable",
    "case",
    "catch",
    "class",
    "clone",
    "const",
    "continue",
    "declare",
    "default",
    "do",
    "echo",
    "else",
    "elseif",
    "empty",
    "enddeclare",
    "endfor",
    "endforeach",
    "endif",
    "endswitch",
    "endwhile",
    "enum",
    "eval",
    "exit",
    "extends",
    "false",
    "final",
    "finally",
    "float",
    "fn",
    "for",
    "foreach",
    "function",
    "global",
    "goto",
    "if",
    "implements",
    "include",
    "instanceof",
    "insteadof",
    "int",
    "interface",
    "isset",
    "iterable",
    "list",
    "match",
    "mixed",
    "namespace",
    "never",
    "new",
    "null",
    "object",
    "or",
    "parent",
    "print",
    "private",
    "protected",
    "public",
    "readonly",
    "require",
    "return",
    "self",
    "static",
    "string",
    "switch",
    "throw",
    "trait",
    "true",
    "try",
    "unset",
    "use",
    "void",
];

/// Names the generated methods take besides the fields, and `this`.
const RESERVED_PARAMS: [&str; 3] = ["this", "options", "policy"];

/// Methods of the generated `Client` besides the operations'.
pub const CLIENT_METHODS: [&str; 4] = ["send", "runtime", "groupPending", "__construct"];

/// The root namespace of the generated package.
pub const NAMESPACE: &str = "Baas\\Client";

/// A class, interface or enum name: PascalCase, `Type` added to a reserved word.
pub fn class(words: &Words) -> String {
    let name = words.pascal();
    if RESERVED_TYPES.contains(&name.to_lowercase().as_str()) {
        format!("{name}Type")
    } else {
        name
    }
}

/// A class name given as written (a record's or a value set's name).
pub fn class_named(name: &str) -> String {
    if RESERVED_TYPES.contains(&name.to_lowercase().as_str()) {
        format!("{name}Type")
    } else {
        name.to_owned()
    }
}

/// An enum case: the plan's value name (PascalCase), `Value` added to `class`.
pub fn case(name: &str) -> String {
    if name.eq_ignore_ascii_case("class") {
        format!("{name}Value")
    } else {
        name.to_owned()
    }
}

/// A property and named-argument name: the wire name when it is a PHP identifier (so a
/// field reads as the API document writes it), else its words in camelCase; `Param` added
/// to a name the methods take themselves.
pub fn prop(wire_name: &str, words: &Words) -> String {
    let plain = !wire_name.is_empty()
        && wire_name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !wire_name.starts_with(|c: char| c.is_ascii_digit());
    let name = if plain {
        wire_name.to_owned()
    } else {
        words.camel()
    };
    if RESERVED_PARAMS.contains(&name.as_str()) || name.is_empty() {
        format!("{name}Param")
    } else {
        name
    }
}

/// A method name of the client (`applyForTransfer`), `Call` added to one it has itself.
pub fn method(words: &Words) -> String {
    crate::text::unreserved(words.camel(), &CLIENT_METHODS, "Call")
}

/// The namespace of a group's operations (`Baas\Client\Transfers`).
pub fn group_namespace(group: &str) -> String {
    format!("{NAMESPACE}\\{}", class(&Words::of(group)))
}

/// A single-quoted PHP string literal.
pub fn string(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('\'');
    for c in text.chars() {
        match c {
            '\'' => out.push_str("\\'"),
            '\\' => out.push_str("\\\\"),
            c => out.push(c),
        }
    }
    out.push('\'');
    out
}

/// PHPDoc text: a comment's end never appears in it.
pub fn doc_text(text: &str) -> String {
    text.replace("*/", "*\\/")
}

/// The PHP type of a value of `ty` in one direction, without nullability (`string`,
/// `Decimal`, `Currency`, `array`), for declarations; `qualify` names a record or enum class.
pub fn php_type(ty: &TypeRef, dir: Direction) -> String {
    php_type_of(ty, dir, false)
}

/// The PHP type of a field in one direction: an open value set's sent field takes a code
/// given as text too (`TxType|string`).
pub fn field_type(field: &crate::plan::FieldPlan, dir: Direction) -> String {
    php_type_of(&field.ty, dir, field.open_values)
}

/// The PHPDoc type of a field in one direction (see [`field_type`]).
pub fn field_doc_type(field: &crate::plan::FieldPlan, dir: Direction) -> String {
    doc_type_of(&field.ty, dir, field.open_values)
}

fn php_type_of(ty: &TypeRef, dir: Direction, open: bool) -> String {
    match ty {
        TypeRef::String | TypeRef::Scalar => "string".to_owned(),
        TypeRef::Int | TypeRef::Long => "int".to_owned(),
        TypeRef::Decimal { .. } => "Decimal".to_owned(),
        TypeRef::Bool => "bool".to_owned(),
        TypeRef::Date => "\\DateTimeImmutable".to_owned(),
        TypeRef::Document => "Document".to_owned(),
        TypeRef::Json => "mixed".to_owned(),
        TypeRef::Enum { name } => match dir {
            Direction::Sent if open => format!("{}|string", class_named(name)),
            Direction::Sent => class_named(name),
            Direction::Received => format!("{}|UnknownValue", class_named(name)),
        },
        TypeRef::Record {
            name,
            received_name,
        } => match dir {
            Direction::Sent => class_named(name),
            Direction::Received => class_named(received_name),
        },
        TypeRef::Array { .. } => "array".to_owned(),
    }
}

/// The PHPDoc type of a value of `ty` (`list<OderItem>`, `Currency|UnknownValue`).
pub fn doc_type(ty: &TypeRef, dir: Direction) -> String {
    doc_type_of(ty, dir, false)
}

fn doc_type_of(ty: &TypeRef, dir: Direction, open: bool) -> String {
    match ty {
        TypeRef::Array { item } => format!("list<{}>", doc_type_of(item, dir, open)),
        TypeRef::Json => match dir {
            Direction::Sent => "array<array-key, mixed>|WireObject|scalar".to_owned(),
            Direction::Received => "mixed".to_owned(),
        },
        ty => php_type_of(ty, dir, open),
    }
}

/// A declared type made nullable (`?string`, `Currency|UnknownValue|null`, `mixed`).
pub fn nullable(declared: &str) -> String {
    if declared == "mixed" {
        declared.to_owned()
    } else if declared.contains('|') {
        format!("{declared}|null")
    } else {
        format!("?{declared}")
    }
}

/// A PHPDoc type made nullable (`string|null`, `Currency|UnknownValue|null`, `mixed`).
pub fn doc_nullable(doc: &str) -> String {
    if doc == "mixed" {
        doc.to_owned()
    } else {
        format!("{doc}|null")
    }
}

/// What `Validator::listOf` checks the items of a sent array against (`string`, `int`,
/// `bool`, or a class), or `None` for items of any JSON value.
pub fn list_item_check(item: &TypeRef, open: bool) -> Option<String> {
    match item {
        TypeRef::Enum { name } if open => Some(format!("{}::class . '|string'", class_named(name))),
        TypeRef::String | TypeRef::Scalar => Some("'string'".to_owned()),
        TypeRef::Int | TypeRef::Long => Some("'int'".to_owned()),
        TypeRef::Bool => Some("'bool'".to_owned()),
        TypeRef::Decimal { .. } => Some("Decimal::class".to_owned()),
        TypeRef::Date => Some("\\DateTimeImmutable::class".to_owned()),
        TypeRef::Document => Some("Document::class".to_owned()),
        TypeRef::Enum { name } => Some(format!("{}::class", class_named(name))),
        TypeRef::Record { name, .. } => Some(format!("{}::class", class_named(name))),
        TypeRef::Array { .. } => Some("'array'".to_owned()),
        TypeRef::Json => None,
    }
}

/// The expression writing a sent value `value` of `ty` (never null) for the wire.
pub fn wire_value(ty: &TypeRef, value: &str) -> String {
    match ty {
        TypeRef::Decimal {
            wire: DecimalWire::Number,
        } => format!("new JsonNumber((string) {value})"),
        // A calendar day as `YYYY-MM-DD` (its time and time zone are not sent).
        TypeRef::Date => format!("{value}->format('Y-m-d')"),
        // Standard Base64 with padding (decision `document-type`).
        TypeRef::Document => format!("{value}->base64()"),
        TypeRef::Record { .. } => format!("{value}->toWire()"),
        TypeRef::Array { item } => match item.as_ref() {
            TypeRef::Record { .. }
            | TypeRef::Date
            | TypeRef::Document
            | TypeRef::Decimal {
                wire: DecimalWire::Number,
            }
            | TypeRef::Array { .. } => format!(
                "array_map(static fn ({} $x): mixed => {}, {value})",
                match item.as_ref() {
                    TypeRef::Array { .. } => "array".to_owned(),
                    other => php_type(other, Direction::Sent),
                },
                wire_value(item, "$x")
            ),
            _ => value.to_owned(),
        },
        _ => value.to_owned(),
    }
}

/// The expression reading a received value `value` (at path expression `at`) as `ty`.
pub fn read_value(ty: &TypeRef, value: &str, at: &str) -> String {
    match ty {
        TypeRef::String | TypeRef::Scalar => format!("Read::string({value}, {at})"),
        TypeRef::Int | TypeRef::Long => format!("Read::int({value}, {at})"),
        TypeRef::Decimal { .. } => format!("Read::decimal({value}, {at})"),
        TypeRef::Bool => format!("Read::bool({value}, {at})"),
        TypeRef::Date => format!("Read::date({value}, {at})"),
        TypeRef::Document => format!("Read::document({value}, {at})"),
        TypeRef::Json => format!("Read::raw({value})"),
        TypeRef::Enum { name } => {
            format!("Read::enum({}::class, {value}, {at})", class_named(name))
        }
        TypeRef::Record { received_name, .. } => {
            format!("{}::read({value}, {at})", class_named(received_name))
        }
        TypeRef::Array { item } => format!(
            "Read::list({value}, {at}, static fn (mixed $item, string $at): mixed => {})",
            read_value(item, "$item", "$at")
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reserved_words_are_never_names() {
        assert_eq!(class(&Words::of("list")), "ListType");
        assert_eq!(class(&Words::of("transfers")), "Transfers");
        assert_eq!(case("Class"), "ClassValue");
        assert_eq!(prop("options", &Words::of("options")), "optionsParam");
        assert_eq!(prop("txId", &Words::of("txId")), "txId");
        assert_eq!(prop("tx-id", &Words::of("tx-id")), "txId");
        assert_eq!(method(&Words::of("send")), "sendCall");
        assert_eq!(string("it's \\ ok"), "'it\\'s \\\\ ok'");
        assert_eq!(doc_text("a */ b"), "a *\\/ b");
        assert_eq!(
            nullable("Currency|UnknownValue"),
            "Currency|UnknownValue|null"
        );
    }
}
