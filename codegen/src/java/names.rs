//! The Java naming table and the Java spelling of plan items: names that are not Java
//! keywords and take no name the runtime's interfaces or `Object` use, Java types of the
//! model's types in each direction, and plan sentences as Javadoc.

use crate::model::{DecimalWire, TypeRef};
use crate::plan::{Direction, Doc, Words};

/// Java's reserved words (keywords and literals), which no member may be named.
const KEYWORDS: [&str; 53] = [
    "abstract",
    "assert",
    "boolean",
    "break",
    "byte",
    "case",
    "catch",
    "char",
    "class",
    "const",
    "continue",
    "default",
    "do",
    "double",
    "else",
    "enum",
    "extends",
    "final",
    "finally",
    "float",
    "for",
    "goto",
    "if",
    "implements",
    "import",
    "instanceof",
    "int",
    "interface",
    "long",
    "native",
    "new",
    "package",
    "private",
    "protected",
    "public",
    "return",
    "short",
    "static",
    "strictfp",
    "super",
    "switch",
    "synchronized",
    "this",
    "throw",
    "throws",
    "transient",
    "try",
    "void",
    "volatile",
    "while",
    "true",
    "false",
    "null",
];

/// Members a generated class already has: `Object`'s, and the runtime's `Operation` and
/// `PagedOperation` methods and the generated classes' own (a field getter may not take
/// them).
const TAKEN_MEMBERS: [&str; 22] = [
    "getClass",
    "hashCode",
    "equals",
    "toString",
    "notify",
    "notifyAll",
    "wait",
    "clone",
    "finalize",
    "operationName",
    "operationPath",
    "movesMoney",
    "validate",
    "writeParams",
    "decodeResponse",
    "pageNumber",
    "withPageNumber",
    "requestedPageSize",
    "pageItems",
    "pageTotal",
    "builder",
    "decode",
];

/// The `java.lang` types generated code names, which no generated type may take (nor the
/// names of [`super::imports::LIBRARY`], the types it imports).
const JAVA_LANG: [&str; 18] = [
    "Object",
    "String",
    "Integer",
    "Long",
    "Boolean",
    "Number",
    "Character",
    "Math",
    "System",
    "Class",
    "Enum",
    "Record",
    "Override",
    "Deprecated",
    "Iterable",
    "Void",
    "Error",
    "Exception",
];

/// A member name (field, getter, setter, step) from words.
pub fn member(words: &Words) -> String {
    let name = words.camel();
    let name = if name.is_empty() {
        "value".to_owned()
    } else {
        name
    };
    if KEYWORDS.contains(&name.as_str()) || TAKEN_MEMBERS.contains(&name.as_str()) {
        format!("{name}Value")
    } else if name.starts_with(|c: char| c.is_ascii_digit()) {
        format!("n{name}")
    } else {
        name
    }
}

/// A type name from the spec's name (records, value sets).
pub fn type_name(name: &str) -> String {
    if JAVA_LANG.contains(&name) || super::imports::library(name).is_some() {
        format!("{name}Type")
    } else {
        name.to_owned()
    }
}

/// A constant name (value-set values, result codes).
pub fn constant(words: &Words) -> String {
    let name = words.screaming();
    if name.starts_with(|c: char| c.is_ascii_digit()) || name.is_empty() {
        format!("V{name}")
    } else {
        name
    }
}

/// The name of a nested step interface of a staged builder.
pub fn step(words: &Words) -> String {
    format!("{}Step", words.pascal())
}

/// A package name for a group (`transfers`).
pub fn package(words: &Words) -> String {
    crate::text::unreserved(words.snake().replace('_', ""), &KEYWORDS, "s")
}

/// The Java type of a model type in one direction (boxed: fields may be absent).
pub fn java_type(ty: &TypeRef, dir: Direction) -> String {
    match ty {
        TypeRef::String | TypeRef::Scalar => "String".to_owned(),
        TypeRef::Int => "Integer".to_owned(),
        TypeRef::Long => "Long".to_owned(),
        TypeRef::Decimal { .. } => "BigDecimal".to_owned(),
        TypeRef::Bool => "Boolean".to_owned(),
        TypeRef::Date => "LocalDate".to_owned(),
        TypeRef::Document => "Document".to_owned(),
        TypeRef::Json => "JsonValue".to_owned(),
        TypeRef::Enum { name } => type_name(name),
        TypeRef::Record {
            name,
            received_name,
        } => type_name(match dir {
            Direction::Sent => name,
            Direction::Received => received_name,
        }),
        TypeRef::Array { item } => format!("List<{}>", java_type(item, dir)),
    }
}

/// Whether a type is a list.
pub fn is_list(ty: &TypeRef) -> bool {
    matches!(ty, TypeRef::Array { .. })
}

/// A `Wire.Reader` expression reading a received value of `ty`.
pub fn reader(ty: &TypeRef) -> String {
    reader_at(ty, 0)
}

fn reader_at(ty: &TypeRef, depth: usize) -> String {
    match ty {
        TypeRef::String => "Wire::string".to_owned(),
        TypeRef::Scalar => "Wire::scalar".to_owned(),
        TypeRef::Int => "Wire::int32".to_owned(),
        TypeRef::Long => "Wire::integer".to_owned(),
        TypeRef::Decimal { .. } => "Wire::decimal".to_owned(),
        TypeRef::Bool => "Wire::bool".to_owned(),
        TypeRef::Date => "Wire::date".to_owned(),
        TypeRef::Document => "Wire::document".to_owned(),
        TypeRef::Json => "Wire::json".to_owned(),
        TypeRef::Enum { name } => format!(
            "(x{depth}, p{depth}) -> Wire.valueOf(x{depth}, p{depth}, {}::of)",
            type_name(name)
        ),
        TypeRef::Record { received_name, .. } => format!("{}::decode", type_name(received_name)),
        TypeRef::Array { item } => format!(
            "(x{depth}, p{depth}) -> Wire.list(x{depth}, p{depth}, {})",
            reader_at(item, depth + 1)
        ),
    }
}

/// Statements writing the sent value `expr` of `ty` as the current JSON value.
pub fn write_value(
    ty: &TypeRef,
    expr: &str,
    enum_integer: &dyn Fn(&str) -> bool,
    depth: usize,
) -> String {
    match ty {
        TypeRef::String | TypeRef::Scalar => format!("w.value({expr});"),
        TypeRef::Int | TypeRef::Long => format!("w.value((long) {expr});"),
        TypeRef::Decimal {
            wire: DecimalWire::String,
        } => format!("w.decimalText({expr});"),
        TypeRef::Decimal {
            wire: DecimalWire::Number,
        } => format!("w.value({expr});"),
        TypeRef::Bool => format!("w.value((boolean) {expr});"),
        TypeRef::Date => format!("w.value(Wire.dateText({expr}));"),
        TypeRef::Document => format!("w.value({expr}.base64());"),
        TypeRef::Json => format!("w.json({expr});"),
        TypeRef::Enum { name } if enum_integer(name) => format!("w.number({expr}.wire());"),
        TypeRef::Enum { .. } => format!("w.value({expr}.wire());"),
        TypeRef::Record { .. } => format!("{expr}.writeTo(w);"),
        TypeRef::Array { item } => {
            let var = format!("e{depth}");
            format!(
                "w.beginArray();\nfor ({} {var} : {expr}) {{\n    {}\n}}\nw.endArray();",
                java_type(item, Direction::Sent),
                write_value(item, &var, enum_integer, depth + 1).replace('\n', "\n    ")
            )
        }
    }
}

/// Plan text (Markdown code spans) as Javadoc: HTML escaped, code spans as `<code>`.
pub fn javadoc(text: &str) -> String {
    let mut out = String::new();
    for (i, part) in text.split('`').enumerate() {
        let escaped = part
            .replace('&', "&amp;")
            .replace('<', "&lt;")
            .replace('>', "&gt;")
            .replace('@', "&#64;")
            .replace("*/", "*&#47;")
            .replace('{', "&#123;")
            .replace('}', "&#125;");
        if i % 2 == 1 {
            out.push_str("<code>");
            out.push_str(&escaped);
            out.push_str("</code>");
        } else {
            out.push_str(&escaped);
        }
    }
    // An odd number of backticks leaves an unclosed span: close it.
    if text.matches('`').count() % 2 == 1 {
        out.push_str("</code>");
    }
    out
}

/// A doc's paragraphs as Javadoc paragraphs (`<p>` before each but the first), the
/// deprecation last.
pub fn doc_paragraphs(doc: &Doc) -> Vec<String> {
    let mut out: Vec<String> = doc
        .paragraphs
        .iter()
        .enumerate()
        .map(|(i, p)| {
            if i == 0 {
                javadoc(p)
            } else {
                format!("<p>{}", javadoc(p))
            }
        })
        .collect();
    if let Some(note) = &doc.deprecated {
        out.push(format!("@deprecated {}", javadoc(note)));
    }
    out
}

/// A Java string literal.
pub fn string_literal(text: &str) -> String {
    crate::text::quoted(text, |c| {
        ((c as u32) < 0x20 || (c as u32) > 0x7e).then(|| {
            let mut buf = [0u16; 2];
            c.encode_utf16(&mut buf)
                .iter()
                .map(|unit| format!("\\u{unit:04x}"))
                .collect()
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_avoid_keywords_and_taken_members() {
        assert_eq!(member(&Words::of("default")), "defaultValue");
        assert_eq!(member(&Words::of("hashCode")), "hashCodeValue");
        assert_eq!(member(&Words::of("txId")), "txId");
        assert_eq!(type_name("List"), "ListType");
        assert_eq!(constant(&Words::of("PurchaseGoods")), "PURCHASE_GOODS");
    }

    #[test]
    fn javadoc_escapes_html_and_turns_code_spans_into_code() {
        assert_eq!(
            javadoc("a `<b>` & c@d */"),
            "a <code>&lt;b&gt;</code> &amp; c&#64;d *&#47;"
        );
        assert_eq!(string_literal("é\"\n"), "\"\\u00e9\\\"\\n\"");
    }
}
