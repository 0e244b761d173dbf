//! Rust names: case conversion, keywords, identifier validity.

use heck::{ToSnakeCase, ToUpperCamelCase};

/// Strict and reserved keywords of Rust (2021 and 2024 editions).
const KEYWORDS: &[&str] = &[
    "as", "async", "await", "break", "const", "continue", "crate", "dyn", "else", "enum", "extern",
    "false", "fn", "for", "gen", "if", "impl", "in", "let", "loop", "match", "mod", "move", "mut",
    "pub", "ref", "return", "self", "Self", "static", "struct", "super", "trait", "true", "type",
    "unsafe", "use", "where", "while", "abstract", "become", "box", "do", "final", "macro",
    "override", "priv", "try", "typeof", "unsized", "virtual", "yield",
];

/// Keywords that cannot be written as raw identifiers (`r#self` is not Rust).
const NOT_RAW: &[&str] = &["self", "Self", "super", "crate", "_"];

/// True for a Rust keyword (strict or reserved), and for `_`.
pub(crate) fn is_keyword(name: &str) -> bool {
    name == "_" || KEYWORDS.contains(&name)
}

/// True when `name` is a keyword that cannot be used even as a raw identifier.
pub(crate) fn is_unraw_keyword(name: &str) -> bool {
    NOT_RAW.contains(&name)
}

/// ASCII identifier: a letter or `_` first, then letters, digits, `_`; not `_` alone.
pub(crate) fn is_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    match chars.next() {
        Some(c) if c.is_ascii_alphabetic() || c == '_' => {}
        _ => return false,
    }
    name != "_" && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// snake_case of a wire or spec name (`oderArray` → `oder_array`).
pub(crate) fn snake(name: &str) -> String {
    name.to_snake_case()
}

/// UpperCamelCase of a spec name (`applyForCnyExpress` → `ApplyForCnyExpress`).
pub(crate) fn camel(name: &str) -> String {
    name.to_upper_camel_case()
}

/// True for `lowerCamelCase` ASCII names (`applyForCnyExpress`).
pub(crate) fn is_lower_camel(name: &str) -> bool {
    let mut chars = name.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_lowercase())
        && chars.all(|c| c.is_ascii_alphanumeric())
}

/// True for `UpperCamelCase` ASCII names that heck leaves unchanged.
pub(crate) fn is_upper_camel(name: &str) -> bool {
    let mut chars = name.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_uppercase())
        && chars.all(|c| c.is_ascii_alphanumeric())
        && camel(name) == name
}

/// True for `snake_case` ASCII identifiers that heck leaves unchanged.
pub(crate) fn is_snake(name: &str) -> bool {
    is_identifier(name) && snake(name) == name
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identifiers_and_keywords() {
        assert!(is_identifier("oder_array"));
        assert!(!is_identifier("1abc"));
        assert!(!is_identifier("_"));
        assert!(!is_identifier(""));
        assert!(is_keyword("type") && !is_unraw_keyword("type"));
        assert!(is_unraw_keyword("self"));
        assert!(is_lower_camel("applyForCnyExpress"));
        assert!(!is_lower_camel("ApplyFor"));
        assert!(is_upper_camel("OrderItem"));
        assert!(!is_upper_camel("Order_Item"));
        assert!(is_snake("oder_array"));
        assert!(!is_snake("oderArray"));
    }
}
