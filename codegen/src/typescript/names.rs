//! TypeScript's naming table: how each kind of name of the plan is written, and the words
//! TypeScript reserves. Names the plan gives whole (records, value sets, their values,
//! result codes, notifications) are written as given; properties are the exact wire names.
//!
//! | name | written |
//! |------|---------|
//! | group module, its import binding | snake words (`transfers`), reserved word + `_` |
//! | operation descriptor, client method | camel words (`applyForTransfer`), reserved word + `_` |
//! | a group's calls | Pascal / camel words + `Calls` (`TransfersCalls`, `transfersCalls`) |
//! | operation file, request and response types | Pascal type words (+ `Request` / `Response`) |
//! | property | the wire name, quoted when it is not an identifier |

use crate::plan::Words;

/// Words TypeScript reserves as identifiers (a module or binding may not take them).
#[rustfmt::skip]
const RESERVED: &[&str] = &[
    "await", "break", "case", "catch", "class", "const", "continue", "debugger", "default",
    "delete", "do", "else", "enum", "export", "extends", "false", "finally", "for", "function",
    "if", "implements", "import", "in", "instanceof", "interface", "let", "new", "null",
    "package", "private", "protected", "public", "return", "static", "super", "switch", "this",
    "throw", "true", "try", "typeof", "var", "void", "while", "with", "yield",
];

fn unreserved(name: String) -> String {
    crate::text::unreserved(name, RESERVED, "_")
}

/// A group's module file stem and import binding (`transfers`).
pub fn module(words: &Words) -> String {
    unreserved(words.snake())
}

/// An operation's descriptor binding and client method (`applyForTransfer`).
pub fn method(words: &Words) -> String {
    unreserved(words.camel())
}

/// A group's calls: their interface (`TransfersCalls`) and implementation (`transfersCalls`).
pub fn calls(words: &Words) -> (String, String) {
    (
        format!("{}Calls", words.pascal()),
        format!("{}Calls", words.camel()),
    )
}

/// An operation's type stem and file stem (`ApplyForTransfer`).
pub fn stem(type_words: &Words) -> String {
    type_words.pascal()
}

/// An operation's request type (`ApplyForTransferRequest`).
pub fn request(type_words: &Words) -> String {
    format!("{}Request", stem(type_words))
}

/// An operation's response type (`ApplyForTransferResponse`).
pub fn response(type_words: &Words) -> String {
    format!("{}Response", stem(type_words))
}

fn identifier(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == '$')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$')
}

/// A property name: the wire name as it is when it is an identifier, quoted otherwise.
pub fn prop(wire: &str) -> String {
    if identifier(wire) {
        wire.to_owned()
    } else {
        string(wire)
    }
}

/// A property access (`r.txId`, or `r["tx-id"]`).
pub fn access(object: &str, wire: &str) -> String {
    if identifier(wire) {
        format!("{object}.{wire}")
    } else {
        format!("{object}[{}]", string(wire))
    }
}

/// A string literal (JSON's escapes are TypeScript's).
pub fn string(text: &str) -> String {
    serde_json::to_string(text).unwrap_or_else(|_| String::from("\"\""))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_follow_the_table() {
        assert_eq!(module(&Words::of("r#type")), "type");
        assert_eq!(module(&Words::of("default")), "default_");
        assert_eq!(method(&Words::of("applyForTransfer")), "applyForTransfer");
        assert_eq!(
            request(&Words::of("ApplyForTransfer")),
            "ApplyForTransferRequest"
        );
        assert_eq!(prop("txId"), "txId");
        assert_eq!(prop("tx-id"), "\"tx-id\"");
        assert_eq!(access("r", "tx-id"), "r[\"tx-id\"]");
    }
}
