//! The types of fields, below the rest of the model so that the rule registry, which says
//! which types each rule applies to, can read them without reading the model that holds
//! rules.

use serde::Serialize;

/// How a decimal is written in JSON.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum DecimalWire {
    /// `"100.50"`
    String,
    /// `100.50`, written from the exact decimal text.
    Number,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum TypeRef {
    String,
    Int,
    Long,
    Decimal {
        wire: DecimalWire,
    },
    Bool,
    /// A calendar day, written `YYYY-MM-DD` as a JSON string (decision `date-type`).
    Date,
    /// A document's bytes (a file), written as standard Base64 text with padding in a
    /// JSON string (decision `document-type`).
    Document,
    /// A received scalar whose JSON type is not shown: its text, readable as a string
    /// or a number (responses only).
    Scalar,
    Json,
    Enum {
        name: String,
    },
    /// A record: `name` is its sent shape (and its only shape when it is used in one
    /// direction), `received_name` the shape decoded from responses (`name` itself unless
    /// the record is used in both directions, then `<name>Received`).
    Record {
        name: String,
        received_name: String,
    },
    Array {
        item: Box<TypeRef>,
    },
}
