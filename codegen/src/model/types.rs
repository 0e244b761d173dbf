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

/// The empty value of a type that has one: a string's `""`, a document of no bytes. Where a
/// value must be given (a required field, a parameter a constraint names), an empty one is
/// as missing as an absent one: the service reads an empty account id or an empty Base64
/// file as not sent. Renderers match on it to write each language's test of emptiness.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Emptiness {
    /// `""`.
    Text,
    /// A document of no bytes (its Base64 text `""`).
    Document,
}

impl TypeRef {
    /// Whether a value of this type can be empty, and how ([`Emptiness`]); decided here
    /// once for the plan's fields and the checker's constraint parameters alike.
    pub fn emptiness(&self) -> Option<Emptiness> {
        match self {
            TypeRef::String => Some(Emptiness::Text),
            TypeRef::Document => Some(Emptiness::Document),
            // No empty value this reads: a value set's text is judged by its set, and an
            // empty array is a value (`min_items` limits it where the spec says).
            TypeRef::Int
            | TypeRef::Long
            | TypeRef::Decimal { .. }
            | TypeRef::Bool
            | TypeRef::Date
            | TypeRef::Scalar
            | TypeRef::Json
            | TypeRef::Enum { .. }
            | TypeRef::Record { .. }
            | TypeRef::Array { .. } => None,
        }
    }
}
