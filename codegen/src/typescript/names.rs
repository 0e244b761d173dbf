//! TypeScript names, literals, types and doc text from the checked model.

use crate::model::{EnumWireType, TypeRef};

/// Words TypeScript reserves as identifiers (a module or binding may not take them).
const RESERVED: [&str; 46] = [
    "break",
    "case",
    "catch",
    "class",
    "const",
    "continue",
    "debugger",
    "default",
    "delete",
    "do",
    "else",
    "enum",
    "export",
    "extends",
    "false",
    "finally",
    "for",
    "function",
    "if",
    "import",
    "in",
    "instanceof",
    "new",
    "null",
    "return",
    "super",
    "switch",
    "this",
    "throw",
    "true",
    "try",
    "typeof",
    "var",
    "void",
    "while",
    "with",
    "implements",
    "interface",
    "let",
    "package",
    "private",
    "protected",
    "public",
    "static",
    "yield",
    "await",
];

/// A module file stem or binding from a snake_case model name (`r#type` → `type_`).
pub fn module(name: &str) -> String {
    let name = name.strip_prefix("r#").unwrap_or(name);
    if RESERVED.contains(&name) {
        format!("{name}_")
    } else {
        name.to_owned()
    }
}

/// A binding (a `const`) from a camelCase name, never a reserved word.
pub fn binding(name: &str) -> String {
    let ok = name
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == '$')
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$');
    let base: String = if ok {
        name.to_owned()
    } else {
        let cleaned: String = name
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
            .collect();
        format!("_{cleaned}")
    };
    if RESERVED.contains(&base.as_str()) {
        format!("{base}_")
    } else {
        base
    }
}

/// A property name: the wire name as it is when it is an identifier, quoted otherwise.
pub fn prop(wire: &str) -> String {
    let ident = wire
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == '$')
        && wire
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$');
    if ident {
        wire.to_owned()
    } else {
        string(wire)
    }
}

/// A property access (`r.txId`, or `r["tx-id"]`).
pub fn access(object: &str, wire: &str) -> String {
    let p = prop(wire);
    if p.starts_with('"') {
        format!("{object}[{p}]")
    } else {
        format!("{object}.{p}")
    }
}

/// A string literal (JSON's escapes are TypeScript's).
pub fn string(text: &str) -> String {
    serde_json::to_string(text).unwrap_or_else(|_| String::from("\"\""))
}

/// Spec text as partner documentation: whitespace collapsed, `*/` broken, files of the
/// repository named by what they are.
pub fn doc_text(text: &str) -> String {
    let collapsed = text.split_whitespace().collect::<Vec<_>>().join(" ");
    collapsed
        .replace("public-facts.md", "the public documentation")
        .replace("baas-api-spec.md", "the API document")
        .replace("*/", "*\u{2060}/")
}

/// Words of `text` in lines of at most `width` characters (a longer word stays whole).
pub fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split(' ') {
        if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > width {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

/// Which shape of a record a type refers to.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    Sent,
    Received,
}

/// The TypeScript type of a model type. Runtime types are reached through `rt.`.
pub fn ts_type(ty: &TypeRef, dir: Direction, enums: &[crate::model::EnumDef]) -> String {
    match ty {
        TypeRef::String => "string".to_owned(),
        TypeRef::Int | TypeRef::Long => "number".to_owned(),
        TypeRef::Decimal { .. } => "rt.Amount".to_owned(),
        TypeRef::Bool => "boolean".to_owned(),
        // Received only: the text of a string, number or boolean whose type is not shown.
        TypeRef::Scalar => "string".to_owned(),
        TypeRef::Json => match dir {
            Direction::Sent => "rt.JsonInput".to_owned(),
            Direction::Received => "rt.JsonValue".to_owned(),
        },
        TypeRef::Enum { name } => match dir {
            Direction::Sent => name.clone(),
            Direction::Received => {
                let integer = enums
                    .iter()
                    .find(|e| &e.name == name)
                    .is_some_and(|e| e.wire_type == EnumWireType::Integer);
                let unknown = if integer { "number" } else { "string" };
                format!("{name} | rt.Unknown<{unknown}>")
            }
        },
        TypeRef::Record {
            name,
            received_name,
        } => match dir {
            Direction::Sent => name.clone(),
            Direction::Received => received_name.clone(),
        },
        TypeRef::Array { item } => {
            let inner = ts_type(item, dir, enums);
            if inner.contains(' ') {
                format!("readonly ({inner})[]")
            } else {
                format!("readonly {inner}[]")
            }
        }
    }
}

/// The shape descriptor of a model type (`{ k: "string" }`, ...).
pub fn descriptor(ty: &TypeRef, enums: &[crate::model::EnumDef]) -> String {
    match ty {
        TypeRef::String => "{ k: \"string\" }".to_owned(),
        TypeRef::Int => "{ k: \"int\" }".to_owned(),
        TypeRef::Long => "{ k: \"long\" }".to_owned(),
        TypeRef::Decimal { wire } => {
            let wire = match wire {
                crate::model::DecimalWire::String => "string",
                crate::model::DecimalWire::Number => "number",
            };
            format!("{{ k: \"decimal\", wire: \"{wire}\" }}")
        }
        TypeRef::Bool => "{ k: \"bool\" }".to_owned(),
        TypeRef::Scalar => "{ k: \"scalar\" }".to_owned(),
        TypeRef::Json => "{ k: \"json\" }".to_owned(),
        TypeRef::Enum { name } => {
            let integer = enums
                .iter()
                .find(|e| &e.name == name)
                .is_some_and(|e| e.wire_type == EnumWireType::Integer);
            let wire = if integer { "integer" } else { "string" };
            format!(
                "{{ k: \"enum\", name: {}, wire: \"{wire}\", values: Object.values({name}) }}",
                string(name)
            )
        }
        TypeRef::Record { name, .. } => {
            format!("{{ k: \"record\", record: () => {name}Shape }}")
        }
        TypeRef::Array { item } => {
            format!("{{ k: \"array\", item: {} }}", descriptor(item, enums))
        }
    }
}

/// The record and enum names a type refers to (for imports).
pub fn referenced(ty: &TypeRef, dir: Direction, out: &mut Vec<String>) {
    match ty {
        TypeRef::Enum { name } => out.push(name.clone()),
        TypeRef::Record {
            name,
            received_name,
        } => {
            out.push(match dir {
                Direction::Sent => name.clone(),
                Direction::Received => received_name.clone(),
            });
            out.push(format!("{name}Shape"));
        }
        TypeRef::Array { item } => referenced(item, dir, out),
        _ => {}
    }
}
