//! Rust names: case conversion, keywords, identifier validity, and "did you mean".

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

/// Edit distance counting insertions, deletions, substitutions and swaps of neighbours
/// (optimal string alignment); names are short, so the quadratic table is cheap.
fn distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let w = b.len() + 1;
    let mut t = vec![0usize; (a.len() + 1) * w];
    let get =
        |t: &Vec<usize>, i: usize, j: usize| t.get(i * w + j).copied().unwrap_or(usize::MAX / 2);
    for i in 0..=a.len() {
        for j in 0..=b.len() {
            let v = if i == 0 {
                j
            } else if j == 0 {
                i
            } else {
                let (ca, cb) = (a.get(i - 1), b.get(j - 1));
                let mut v = (get(&t, i - 1, j) + 1)
                    .min(get(&t, i, j - 1) + 1)
                    .min(get(&t, i - 1, j - 1) + usize::from(ca != cb));
                if i > 1 && j > 1 && ca == b.get(j - 2) && a.get(i - 2) == cb {
                    v = v.min(get(&t, i - 2, j - 2) + 1);
                }
                v
            };
            if let Some(slot) = t.get_mut(i * w + j) {
                *slot = v;
            }
        }
    }
    get(&t, a.len(), b.len())
}

/// The closest candidate, if close enough to be a likely typo (case-insensitive match, or
/// an edit distance of at most a third of the length, at most 3). Ties go to the first.
pub(crate) fn did_you_mean<'a>(
    wrong: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    if wrong.chars().count() > 200 {
        return None;
    }
    let lower = wrong.to_lowercase();
    let limit = (wrong.chars().count() / 3).clamp(1, 3);
    let mut best: Option<(usize, &'a str)> = None;
    for c in candidates {
        if c == wrong || c.chars().count() > 200 {
            continue;
        }
        let d = if c.to_lowercase() == lower {
            0
        } else {
            distance(&lower, &c.to_lowercase())
        };
        if d <= limit && best.is_none_or(|(bd, _)| d < bd) {
            best = Some((d, c));
        }
    }
    best.map(|(_, c)| c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggestions() {
        assert_eq!(
            did_you_mean("Strng", ["string", "int", "long"]),
            Some("string")
        );
        assert_eq!(did_you_mean("STRING", ["string", "int"]), Some("string"));
        assert_eq!(did_you_mean("zzzzzz", ["string", "int"]), None);
        assert_eq!(did_you_mean("nmae", ["doc", "name"]), Some("name"));
        assert_eq!(distance("kitten", "sitting"), 3);
    }

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
