//! Why a body has no canonical string: [`CanonicalError`] and the re-cut rules' [`Ambiguity`].

use std::fmt;

use super::{MAX_BODY, MAX_EXPANSION};

/// Why a body has no canonical string.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum CanonicalError {
    /// The body is not valid UTF-8 (byte offset of the first invalid byte).
    InvalidUtf8 {
        /// Byte offset.
        offset: usize,
    },
    /// The body is not valid JSON at this byte offset.
    Syntax {
        /// Byte offset.
        offset: usize,
        /// What was expected there.
        expected: &'static str,
    },
    /// The top-level value is not a JSON object.
    NotAnObject,
    /// The same key appears twice in one object.
    DuplicateKey {
        /// Flattened path of the repeated key.
        path: String,
    },
    /// Objects and arrays are nested deeper than [`MAX_DEPTH`](super::MAX_DEPTH).
    TooDeep {
        /// The limit.
        max: usize,
    },
    /// The pairs of the body up to this byte offset are longer than
    /// [`MAX_EXPANSION`] times those bytes plus [`EXPANSION_ALLOWANCE`](super::EXPANSION_ALLOWANCE) (long keys
    /// above many values), or, with `offset` [`MAX_BODY`], the body is longer than
    /// that.
    TooLarge {
        /// Byte offset.
        offset: usize,
    },
    /// The top-level `signature` is present but not a string.
    SignatureNotString,
    /// The body already has a top-level `signature` (even `null`) and is to be signed:
    /// adding another would give duplicate keys.
    AlreadySigned,
    /// The body breaks one of the re-cut rules of [`Flattened::parse_unambiguous`](super::Flattened::parse_unambiguous): its
    /// canonical string could stand for a different body, so it is neither signed nor
    /// accepted.
    Ambiguous {
        /// Flattened path of the key, value or `null` that breaks the rule (the key's
        /// text as written, unescaped).
        path: String,
        /// Which rule.
        rule: Ambiguity,
    },
}

/// The rule of [`Flattened::parse_unambiguous`](super::Flattened::parse_unambiguous) that a body breaks.
///
/// The canonical string joins `path=value` pairs with `&` and escapes nothing. A body
/// that keeps these rules has exactly one reading of its canonical string (up to the
/// order of members and the JSON spelling of scalars): a path is keys without
/// `&`, `=`, `.`, `[`, `]` joined by `.` and `[digits]`, so the first `=` of a pair ends
/// its path, and no value holds `&` followed by text that reads as `path=`, so the
/// next such `&` ends the value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Ambiguity {
    /// R1: an object key (at any depth) is empty or contains `&`, `=`, `.`, `[` or `]`.
    Key,
    /// R2: a `null` array element (nulls are left out of the canonical string, so one
    /// at the end of an array could be added, and one inside moves the indexes after
    /// it). A `null` member is read as absent by every decoder: it is accepted in
    /// received bodies and skipped, with a warning, by the signing functions (the API
    /// document skips nulls); the client's own requests refuse any `null` with this
    /// rule (the SDK never sends one).
    Null,
    /// R3: a string value contains `&` followed by text that reads as a pair: a key
    /// (characters other than `&`, `=`, `.`, `[`, `]`), any number of `.key` or
    /// `[digits]`, then `=`.
    ValueReadsAsPair,
    /// R4: a top-level `senderKey` member (the signer and verifier add that pair).
    SenderKey,
}

impl Ambiguity {
    /// The rule's short name, `R1` to `R4`, as in `tests/data/signing-vectors.json`.
    pub fn id(self) -> &'static str {
        match self {
            Ambiguity::Key => "R1",
            Ambiguity::Null => "R2",
            Ambiguity::ValueReadsAsPair => "R3",
            Ambiguity::SenderKey => "R4",
        }
    }
}

impl fmt::Display for Ambiguity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Ambiguity::Key => {
                "an object key is empty or contains `&`, `=`, `.`, `[` or `]`, so the signed \
                 text could be read as other keys or array elements"
            }
            Ambiguity::Null => {
                "a `null` is left out of the signed text, so it could be added or removed \
                 without changing the signature (a null array element also moves the \
                 indexes after it): leave it out instead"
            }
            Ambiguity::ValueReadsAsPair => {
                "a text value contains `&` followed by something that reads as `name=`, so \
                 the signed text could be read as members that were never sent"
            }
            Ambiguity::SenderKey => {
                "a top-level `senderKey` member is refused: the signer adds the `senderKey` \
                 pair (the private key) itself, and the two would be confused"
            }
        })
    }
}

impl fmt::Display for CanonicalError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CanonicalError::InvalidUtf8 { offset } => {
                write!(f, "body is not valid UTF-8 (byte {offset})")
            }
            CanonicalError::Syntax { offset, expected } => {
                write!(f, "invalid JSON at byte {offset}: expected {expected}")
            }
            CanonicalError::NotAnObject => f.write_str("body is not a JSON object"),
            CanonicalError::DuplicateKey { path } => write!(f, "duplicate key `{path}`"),
            CanonicalError::TooDeep { max } => {
                write!(f, "JSON nested deeper than {max} levels")
            }
            CanonicalError::TooLarge { offset } if *offset >= MAX_BODY => {
                write!(f, "the body is longer than {MAX_BODY} bytes")
            }
            CanonicalError::TooLarge { offset } => write!(
                f,
                "the flattened pairs are more than {MAX_EXPANSION} times as long as the body \
                 at byte {offset} (each value repeats its whole path: long keys above many \
                 values)"
            ),
            CanonicalError::SignatureNotString => f.write_str("`signature` is not a string"),
            CanonicalError::AlreadySigned => {
                f.write_str("the body already has a `signature` (sign it without one)")
            }
            CanonicalError::Ambiguous { path, rule } => {
                write!(f, "refused by rule {} at `{path}`: {rule}", rule.id())
            }
        }
    }
}

impl std::error::Error for CanonicalError {}
