//! The canonical string of the signing algorithm, computed from JSON *bytes*.
//!
//! The Authentication section of the API document flattens a message to `path=value`
//! pairs: object keys joined with `.`, array elements as `path[i]`, an empty object as
//! `path={}`, an empty array as `path=[]`, nulls skipped, the top-level `signature`
//! left out. The pair `senderKey=<key>` is added, the complete pair strings are sorted
//! by bytes, joined with `&` and hashed with plain SHA-256.
//!
//! This module does that from the received or serialized bytes, without a JSON tree of
//! owned strings and without writing the pairs out: the parser records one `u32` per
//! member or element (an offset into the body, or an index), sorts each object's
//! members by `key + separator` as the object ends, and the canonical string is then
//! written straight into SHA-256 by walking those words and reading keys and values
//! again from the body (strings unescaped to raw UTF-8, numbers kept as their literal
//! text, so `100.50` stays `100.50`). With no key holding `.`, `[` or `=` that walk
//! is the byte order of the complete pairs (see the comment above `KIND`). Any other
//! object, which only [`Flattened::parse`] reads (for diagnosis), has its pairs written
//! out and sorted as slices.
//!
//! Input that is not a JSON object, invalid UTF-8, duplicate keys in one object,
//! nesting deeper than [`MAX_DEPTH`], a canonical string much longer than the body
//! (see [`MAX_EXPANSION`]) and bodies over [`MAX_BODY`] bytes are refused with a
//! [`CanonicalError`]; [`Flattened::parse_unambiguous`] also refuses bodies whose
//! canonical string could stand for another body ([`Ambiguity`]).
//!
//! Bodies are parsed before their signature can be checked, so any sender chooses
//! them. The work grows with the body's length whatever its shape, linearly but for
//! the log factor of sorting (duplicate keys are found by sorting, never by comparing
//! every key with every other; the canonical string cannot outgrow the body by more
//! than [`MAX_EXPANSION`] times), and so does memory: reading and hashing a body that
//! [`Flattened::parse_unambiguous`] accepts allocates about twice its size at most
//! (one `u32` per member or element, each at least two bytes of body), plus the
//! longest path and the longest string holding `&`.

use std::fmt;

use sha2::{Digest, Sha256};

use crate::secret::{wipe, PrivateKey, REDACTED};

/// Deepest nesting of objects and arrays accepted (the top-level object is depth 1).
pub const MAX_DEPTH: usize = 64;

/// The pairs of a body (their `path=value` text) may be at most this many times as
/// long as the body, plus [`EXPANSION_ALLOWANCE`] bytes; at every point of the body,
/// not only at its end, so a body is refused as soon as it goes over.
///
/// Every pair repeats the whole path of its value, so one long key above many short
/// values gives a canonical string quadratically longer than the body (a 4 KiB key
/// over 2 MiB of `1,` would be 4 GiB to hash). The pairs are counted, not written (see
/// the module's doc): this bounds the work of hashing them, not memory. Messages of
/// the API have short keys: their pairs are a few times their size (an array of
/// one-digit numbers under `data.list`, the densest there is, about 13 times).
pub const MAX_EXPANSION: usize = 32;

/// Bytes of pairs allowed on top of [`MAX_EXPANSION`] times the body (for small bodies
/// nested deep).
pub const EXPANSION_ALLOWANCE: usize = 64 * 1024;

/// The name of the pair that carries the key in the canonical string.
pub const SENDER_KEY: &str = "senderKey";

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
    /// Objects and arrays are nested deeper than [`MAX_DEPTH`].
    TooDeep {
        /// The limit.
        max: usize,
    },
    /// The pairs of the body up to this byte offset are longer than
    /// [`MAX_EXPANSION`] times those bytes plus [`EXPANSION_ALLOWANCE`] (long keys
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
    /// The body breaks one of the re-cut rules of [`Flattened::parse_unambiguous`]: its
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

/// The rule of [`Flattened::parse_unambiguous`] that a body breaks.
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
    /// at the end of an array could be added). A `null` member is read as absent by
    /// every decoder and is accepted in received bodies; signers refuse any `null`
    /// (a message we send never holds one).
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
                 without changing the signature (a null array element, received; any null, \
                 signed): leave the member out instead"
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

/// The flattened pairs of one JSON object body (without `senderKey`), plus its
/// top-level `signature` when present.
///
/// Build it with [`Flattened::parse_unambiguous`] (to sign or verify) or
/// [`Flattened::parse`] (to diagnose any object); then [`Flattened::digest`] gives the
/// signature bytes for a key. It keeps a copy of the body, from which the canonical
/// string is written whenever it is needed: with its words, about three times the
/// body at most. (The runtime's own `sign::sign`, `sign::verify` and friends read the
/// body in place, without that copy.)
#[derive(Clone)]
pub struct Flattened {
    /// The body (empty for an [`Repr::Arena`], which holds the pairs' text).
    input: Box<[u8]>,
    parsed: Parsed,
    /// The pairs in document order, written out on the first call of
    /// [`Flattened::pairs`] (a [`Repr::Tree`] writes no pair text otherwise).
    document_pairs: std::sync::OnceLock<Arena>,
}

/// A body read in place, for the signers and verifiers of this crate (which are done
/// with the body within one call): no copy of the body.
pub(crate) struct Borrowed<'a> {
    input: &'a [u8],
    parsed: Parsed,
}

impl<'a> Borrowed<'a> {
    /// [`Flattened::parse_unambiguous`], in place.
    pub(crate) fn parse_unambiguous(body: &'a [u8]) -> Result<Borrowed<'a>, CanonicalError> {
        Ok(Borrowed {
            input: body,
            parsed: parse_with(body, true)?,
        })
    }

    /// See [`Flattened::signature`].
    pub(crate) fn signature(&self) -> Option<&str> {
        self.parsed.meta.signature.as_deref()
    }

    /// See [`Flattened::first_null_path`].
    pub(crate) fn first_null_path(&self) -> Option<&str> {
        self.parsed.meta.first_null.as_deref()
    }

    /// For signers: the body, refused when it holds a `null` anywhere (a message we
    /// send never holds one; R2 for signing).
    pub(crate) fn without_nulls(self) -> Result<Borrowed<'a>, CanonicalError> {
        match self.first_null_path() {
            Some(path) => Err(CanonicalError::Ambiguous {
                path: path.to_owned(),
                rule: Ambiguity::Null,
            }),
            None => Ok(self),
        }
    }

    /// See [`Flattened::has_signature_key`].
    pub(crate) fn has_signature_key(&self) -> bool {
        self.parsed.meta.has_signature_key
    }

    /// See [`Flattened::digest`].
    pub(crate) fn digest(&self, key: &PrivateKey) -> [u8; 32] {
        self.parsed.digest(self.input, key)
    }

    /// See [`Flattened::signature_hex`].
    pub(crate) fn signature_hex(&self, key: &PrivateKey) -> String {
        hex_text(self.digest(key))
    }
}

/// Lowercase hex of a digest.
fn hex_text(digest: [u8; 32]) -> String {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let mut text = String::with_capacity(64);
    for b in digest {
        text.push(char::from(HEX[usize::from(b >> 4)]));
        text.push(char::from(HEX[usize::from(b & 0xf)]));
    }
    text
}

/// How the canonical string is produced.
#[derive(Clone)]
enum Repr {
    /// Every key keeps clear of `.`, `[` and `=`, and there is no top-level
    /// `senderKey`: the sorted order of the pairs is a walk of the tree (see
    /// [`Tree`]), and the pairs are written from the input in that order. Memory: one
    /// `u32` per member or element, whatever the paths.
    Tree(Tree),
    /// Any other object (only [`Flattened::parse`] reads those): every pair's text
    /// written out once and sorted as slices.
    Arena(Arena),
}

/// The text of every pair, back to back (valid UTF-8), and their ranges in document
/// order.
#[derive(Clone, Default)]
struct Arena {
    text: Vec<u8>,
    pairs: Vec<(usize, usize)>,
}

impl fmt::Debug for Flattened {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Flattened")
            .field("pairs", &self.pairs().collect::<Vec<_>>())
            .field("signature", &self.parsed.meta.signature)
            .finish()
    }
}

fn slice(buf: &[u8], (start, end): (usize, usize)) -> &[u8] {
    buf.get(start..end).unwrap_or_default()
}

/// Where the pieces of the canonical string go.
trait Emit: Out {
    /// The pair written since the previous call (or the start) is complete.
    fn end_pair(&mut self) {}
    /// Writes the value of the `senderKey` pair (its `senderKey=` is written already).
    fn sender_key(&mut self, key: &PrivateKey);
}

/// Collects the canonical string, with the key itself (tests and benchmarks only).
struct Exposing(Vec<u8>);

impl Out for Exposing {
    fn put(&mut self, bytes: &[u8]) {
        self.0.extend_from_slice(bytes);
    }
}

impl Emit for Exposing {
    fn sender_key(&mut self, key: &PrivateKey) {
        self.0.extend_from_slice(key.expose());
    }
}

/// Collects the canonical string with the key redacted wherever it shows: the added
/// `senderKey` pair, and any occurrence of the key's text inside another pair (each
/// pair is gathered, then copied with [`push_redacted`]).
struct Redacting<'k> {
    out: Vec<u8>,
    pair: Vec<u8>,
    secret: &'k [u8],
}

impl Out for Redacting<'_> {
    fn put(&mut self, bytes: &[u8]) {
        self.pair.extend_from_slice(bytes);
    }
}

impl Emit for Redacting<'_> {
    fn end_pair(&mut self) {
        let mut pair = self.pair.as_slice();
        if let Some(rest) = pair.strip_prefix(b"&") {
            self.out.push(b'&');
            pair = rest;
        }
        let text = std::str::from_utf8(pair).unwrap_or_default();
        if is_sender_key_pair(text) {
            // A `senderKey` of the body itself (only an `Arena` has one).
            self.out.extend_from_slice(SENDER_KEY.as_bytes());
            self.out.push(b'=');
            self.out.extend_from_slice(REDACTED.as_bytes());
        } else {
            push_redacted(&mut self.out, pair, self.secret);
        }
        self.pair.clear();
    }

    fn sender_key(&mut self, _key: &PrivateKey) {
        self.out.extend_from_slice(&self.pair);
        self.out.extend_from_slice(REDACTED.as_bytes());
        self.pair.clear();
    }
}

/// Hashes the canonical string as it is written (SHA-256 keeps the partial block).
struct Hashing(Sha256);

impl Hashing {
    fn new() -> Hashing {
        Hashing(Sha256::new())
    }

    fn finish(self) -> [u8; 32] {
        self.0.finalize().into()
    }
}

impl Out for Hashing {
    fn put(&mut self, bytes: &[u8]) {
        self.0.update(bytes);
    }
}

impl Emit for Hashing {
    fn sender_key(&mut self, key: &PrivateKey) {
        self.0.update(key.expose());
    }
}

impl Flattened {
    /// Flattens a JSON object body. The top-level `signature` is kept apart (see
    /// [`Flattened::signature`]) and is not one of the pairs.
    ///
    /// This reads any JSON object, including bodies whose canonical string could stand
    /// for another body: use it to diagnose input. What is signed or verified is read
    /// with [`Flattened::parse_unambiguous`].
    pub fn parse(body: &[u8]) -> Result<Flattened, CanonicalError> {
        Self::parse_with(body, false)
    }

    /// [`Flattened::parse`], refusing with [`CanonicalError::Ambiguous`] a body whose
    /// canonical string could be re-cut into another body (see [`Ambiguity`]):
    ///
    /// * R1: an object key, at any depth, that is empty or contains `&`, `=`, `.`, `[`
    ///   or `]` (path: the parent's path and the key);
    /// * R2: a `null` array element (path of the null). A `null` member is accepted
    ///   here (the service's document gives some answer fields as `null`, and every
    ///   decoder reads one as absent); the signers of this crate refuse any `null`,
    ///   found with [`Flattened::first_null_path`];
    /// * R3: a string value containing `&` followed by a key (one or more characters
    ///   other than `&`, `=`, `.`, `[`, `]`), any number of `.key` or `[digits]`, and
    ///   `=`: `x&data.result[1].amount=9` and `a&b=c` are refused, `Tom & Jerry`,
    ///   `a&b`, `a=b&c` and `&=x` are not;
    /// * R4: a top-level `senderKey` member.
    ///
    /// The top-level `signature` is not part of the canonical string: the rules do not
    /// apply to it, and `"signature":null` counts as no signature. The first breach in
    /// the document is reported (before a repeated key of an enclosing object).
    ///
    /// Every signer and verifier of the runtime reads bodies this way.
    pub fn parse_unambiguous(body: &[u8]) -> Result<Flattened, CanonicalError> {
        Self::parse_with(body, true)
    }

    fn parse_with(body: &[u8], unambiguous: bool) -> Result<Flattened, CanonicalError> {
        let parsed = parse_with(body, unambiguous)?;
        let input = match parsed.repr {
            Repr::Tree(_) => body.into(),
            Repr::Arena(_) => Box::default(),
        };
        Ok(Flattened {
            input,
            parsed,
            document_pairs: std::sync::OnceLock::new(),
        })
    }

    /// The top-level `signature` value, if the body has one (a `null` counts as none).
    pub fn signature(&self) -> Option<&str> {
        self.parsed.meta.signature.as_deref()
    }

    /// True when the body has a top-level `signature` key, even with a `null` value.
    pub fn has_signature_key(&self) -> bool {
        self.parsed.meta.has_signature_key
    }

    /// Path of the first `null` value met (nulls are skipped by the algorithm, and the
    /// runtime never sends one; [`Flattened::parse_unambiguous`] refuses them).
    pub fn first_null_path(&self) -> Option<&str> {
        self.parsed.meta.first_null.as_deref()
    }

    /// The pairs' text in document order: an [`Arena`] of a tree is written out here,
    /// once (for diagnostics and tests; signing and verifying never call this).
    fn arena(&self) -> &Arena {
        match &self.parsed.repr {
            Repr::Arena(arena) => arena,
            Repr::Tree(_) => self.document_pairs.get_or_init(|| {
                arena_parse(&self.input)
                    .map(|(arena, _)| arena)
                    .unwrap_or_default()
            }),
        }
    }

    /// The `path=value` pairs in document order, without `senderKey`. (The text of
    /// every pair is written out on the first call: a diagnostic, as long as
    /// [`MAX_EXPANSION`] times the body at most.)
    pub fn pairs(&self) -> impl Iterator<Item = &str> + '_ {
        let arena = self.arena();
        arena
            .pairs
            .iter()
            .map(|r| std::str::from_utf8(slice(&arena.text, *r)).unwrap_or_default())
    }

    /// Number of pairs, without `senderKey`.
    pub fn len(&self) -> usize {
        self.parsed.meta.pairs
    }

    /// True when the body flattens to no pair at all (`{}`).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn emit(&self, key: &PrivateKey, out: &mut impl Emit) {
        self.parsed.emit(&self.input, key, out);
    }

    /// SHA-256 of the canonical string with `senderKey=<key>` added.
    pub fn digest(&self, key: &PrivateKey) -> [u8; 32] {
        self.parsed.digest(&self.input, key)
    }

    /// Lowercase hex SHA-256 of the canonical string: the `signature` value.
    pub fn signature_hex(&self, key: &PrivateKey) -> String {
        hex_text(self.digest(key))
    }

    /// True when the body itself has a top-level `senderKey` (the key is never sent:
    /// such a body was typically pasted from a signer's intermediate object).
    pub fn has_sender_key_pair(&self) -> bool {
        match &self.parsed.repr {
            // A tree has no top-level `senderKey` member.
            Repr::Tree(_) => false,
            Repr::Arena(_) => self.pairs().any(is_sender_key_pair),
        }
    }

    /// The canonical string with the key printed as `[redacted]` (for debugging a
    /// 12005; the order is the one the real key gives). The key is redacted wherever it
    /// shows: the added `senderKey` pair, a `senderKey` pair of the body itself, and
    /// any occurrence of the key's text inside another pair.
    pub fn canonical_string_redacted(&self, key: &PrivateKey) -> String {
        let mut out = Redacting {
            out: Vec::new(),
            pair: Vec::new(),
            secret: key.expose(),
        };
        self.emit(key, &mut out);
        String::from_utf8_lossy(&out.out).into_owned()
    }

    /// The exact bytes that are hashed. **They contain the private key**: for tests
    /// and benchmarks only; wipe or drop them quickly and never log them.
    pub fn canonical_bytes_exposing_key(&self, key: &PrivateKey) -> Vec<u8> {
        let mut out = Exposing(Vec::new());
        self.emit(key, &mut out);
        out.0
    }
}

impl Arena {
    /// The pairs and then `key_pair` (index `self.pairs.len()`), and the order of their
    /// bytes.
    fn sorted<'s>(&'s self, key_pair: &'s [u8]) -> (Vec<&'s [u8]>, Vec<usize>) {
        let mut items: Vec<&[u8]> = Vec::with_capacity(self.pairs.len() + 1);
        items.extend(self.pairs.iter().map(|r| slice(&self.text, *r)));
        items.push(key_pair);
        // `(prefix, pair, index)`: most comparisons are on the prefix alone.
        let mut keyed: Vec<(u64, &[u8], usize)> = items
            .iter()
            .enumerate()
            .map(|(i, s)| (prefix(s), *s, i))
            .collect();
        keyed.sort_unstable_by(|a, b| a.0.cmp(&b.0).then_with(|| a.1.cmp(b.1)));
        let order = keyed.into_iter().map(|(_, _, i)| i).collect();
        (items, order)
    }

    fn emit(&self, key: &PrivateKey, out: &mut impl Emit) {
        let mut key_pair = Vec::with_capacity(SENDER_KEY.len() + 1 + key.expose().len());
        key_pair.extend_from_slice(SENDER_KEY.as_bytes());
        key_pair.push(b'=');
        key_pair.extend_from_slice(key.expose());
        {
            let (items, order) = self.sorted(&key_pair);
            for (n, &i) in order.iter().enumerate() {
                if n > 0 {
                    out.put(b"&");
                }
                if i == self.pairs.len() {
                    out.put(SENDER_KEY.as_bytes());
                    out.put(b"=");
                    out.sender_key(key);
                } else {
                    out.put(items.get(i).copied().unwrap_or_default());
                }
                out.end_pair();
            }
        }
        wipe(&mut key_pair);
    }
}

/// What a parse found besides the pairs.
#[derive(Clone, Default)]
struct Meta {
    /// Number of pairs.
    pairs: usize,
    signature: Option<String>,
    has_signature_key: bool,
    first_null: Option<String>,
}

#[derive(Clone)]
struct Parsed {
    repr: Repr,
    meta: Meta,
}

impl Parsed {
    /// Writes the canonical string of `input` (the body this was parsed from) to `out`,
    /// with `senderKey=` and then `out.sender_key(key)` where the `senderKey` pair
    /// sorts.
    fn emit(&self, input: &[u8], key: &PrivateKey, out: &mut impl Emit) {
        match &self.repr {
            Repr::Tree(tree) => tree.emit(input, key, out),
            Repr::Arena(arena) => arena.emit(key, out),
        }
    }

    fn digest(&self, input: &[u8], key: &PrivateKey) -> [u8; 32] {
        let mut hashing = Hashing::new();
        self.emit(input, key, &mut hashing);
        hashing.finish()
    }
}

/// Reads `body` as a tree, or, for a diagnosis (`unambiguous` false) of a body whose
/// order is no tree walk, as an arena.
fn parse_with(body: &[u8], unambiguous: bool) -> Result<Parsed, CanonicalError> {
    let parsed = match tree_parse(body, unambiguous) {
        Ok(parsed) => Ok(parsed),
        Err(Stop::NeedsArena) => arena_parse(body).map(|(arena, meta)| Parsed {
            repr: Repr::Arena(arena),
            meta,
        }),
        Err(Stop::Error(e)) => Err(e),
    };
    parsed.map_err(|e| match std::str::from_utf8(body) {
        // Invalid UTF-8 is reported as such wherever it is, before any other error.
        Err(bad) => CanonicalError::InvalidUtf8 {
            offset: bad.valid_up_to(),
        },
        Ok(_) => e,
    })
}

/// Why [`tree_parse`] stopped.
enum Stop {
    Error(CanonicalError),
    /// The body is an object whose order is not a tree walk (see [`Repr::Arena`]).
    NeedsArena,
}

impl From<CanonicalError> for Stop {
    fn from(e: CanonicalError) -> Stop {
        Stop::Error(e)
    }
}

// ------------------------------------------------------------------------------------
// The tree: the canonical order without writing a pair.
//
// With no key holding `.`, `[` or `=`, the complete pair strings sort as a walk of the
// body's tree does when, at each object, the members are taken in the byte order of
// `key + separator` (`=` for a scalar or an empty `{}`/`[]`, `.` for a non-empty object,
// `[` for a non-empty array) and, at each array, the elements in the order of
// `index + "]"` (`[10]` before `[1]`): two pairs first differ inside the first key or
// index where their paths part, or at the separator right after it, and no byte of a
// key is a separator. The top-level `senderKey=<key>` is one more member of that walk.
//
// So the parser records, for every member and element, one `u32` word (a tagged offset
// into the input or index into the words), sorts each object's words when it ends, and
// the canonical string is written later by walking the words and reading keys and
// values again from the input (strings unescaped on the way): no pair is ever written
// out, and memory is one word per member or element (at least two bytes of body each),
// plus the path being walked.

/// The kind of a word (its two high bits).
const KIND: u32 = 3 << 30;
/// A scalar (string, number, `true`, `false`, `null`, `{}` or `[]`): the payload is the
/// offset in the input of its key's opening quote (a member) or of the value itself
/// (an element).
const SCALAR: u32 = 0;
/// A non-empty array: the payload is the index of its slice in the words.
const ARRAY: u32 = 1 << 30;
/// A non-empty object: the payload is the index of its slice in the words.
const OBJECT: u32 = 2 << 30;
/// The last word of its slice.
const LAST: u32 = 1 << 29;
/// The payload's bits: offsets and indexes below 512 MiB.
const PAYLOAD: u32 = LAST - 1;
/// Longest body read (offsets fit the payload): longer ones are refused as
/// [`CanonicalError::TooLarge`].
pub const MAX_BODY: usize = PAYLOAD as usize;

/// The words of a parsed body.
///
/// A non-empty container's slice is its members' or elements' words (the last one
/// marked [`LAST`]), preceded, when the container is a member's value, by one header
/// word: the offset of that member's key. An object's words are in canonical order, an
/// array's in document order.
#[derive(Clone)]
struct Tree {
    words: Vec<u32>,
    /// Slice of the top-level object (`None` for `{}`).
    root: Option<usize>,
    /// Offset of the top-level `signature` key's quote: that member is no pair.
    signature_at: Option<u32>,
}

fn payload(word: u32) -> usize {
    (word & PAYLOAD) as usize
}

/// The separator that follows a member's key in its pairs.
fn separator(word: u32) -> u8 {
    match word & KIND {
        ARRAY => b'[',
        OBJECT => b'.',
        _ => b'=',
    }
}

/// Offset of the opening quote of a member's key (`words`: the finished slices, where
/// a container's header is).
fn member_key_at(words: &[u32], word: u32) -> usize {
    if word & KIND == SCALAR {
        payload(word)
    } else {
        words
            .get(payload(word))
            .map_or(0, |&header| payload(header))
    }
}

/// The unescaped bytes of the key whose opening quote is at `quote`, then `sep` (if
/// any). The input is valid JSON there (it was parsed).
struct KeyBytes<'a> {
    input: &'a [u8],
    pos: usize,
    sep: Option<u8>,
    escaped: [u8; 4],
    escaped_len: usize,
    escaped_at: usize,
}

impl<'a> KeyBytes<'a> {
    fn new(input: &'a [u8], quote: usize, sep: Option<u8>) -> KeyBytes<'a> {
        KeyBytes {
            input,
            pos: quote + 1,
            sep,
            escaped: [0; 4],
            escaped_len: 0,
            escaped_at: 0,
        }
    }
}

impl Iterator for KeyBytes<'_> {
    type Item = u8;

    fn next(&mut self) -> Option<u8> {
        if self.escaped_at < self.escaped_len {
            let b = self.escaped.get(self.escaped_at).copied();
            self.escaped_at += 1;
            return b;
        }
        match self.input.get(self.pos) {
            None | Some(b'"') => self.sep.take(),
            Some(b'\\') => {
                self.pos += 1;
                let (bytes, len) = escape(self.input, &mut self.pos).unwrap_or(([0; 4], 0));
                self.escaped = bytes;
                self.escaped_len = len;
                self.escaped_at = 1;
                bytes.first().copied().filter(|_| len > 0)
            }
            Some(&b) => {
                self.pos += 1;
                Some(b)
            }
        }
    }
}

/// The text of the key whose opening quote is at `quote`, when it has no escape (most
/// keys): its bytes are then the key's.
fn raw_key(input: &[u8], quote: usize) -> Option<&[u8]> {
    let text = input.get(quote + 1..)?;
    let len = plain_run(text);
    (text.get(len) == Some(&b'"')).then(|| text.get(..len).unwrap_or_default())
}

/// `key_a + sep_a` against `key_b + sep_b`, by bytes.
fn compare_with_separators(key_a: &[u8], sep_a: u8, key_b: &[u8], sep_b: u8) -> std::cmp::Ordering {
    let common = key_a.len().min(key_b.len());
    let (head_a, head_b) = (
        key_a.get(..common).unwrap_or_default(),
        key_b.get(..common).unwrap_or_default(),
    );
    head_a.cmp(head_b).then_with(|| {
        // One key is the other's prefix: the next byte is a key byte or a separator.
        let next_a = key_a.get(common).copied().unwrap_or(sep_a);
        let next_b = key_b.get(common).copied().unwrap_or(sep_b);
        // Equal, the one whose key ended is the shorter (a key byte equal to a
        // separator happens only outside a tree).
        next_a
            .cmp(&next_b)
            .then_with(|| key_a.len().cmp(&key_b.len()))
    })
}

/// The key at `key_a` followed by `sep_a` against the key at `key_b` followed by
/// `sep_b`, by bytes (unescaped). One loop over the raw bytes while neither key has an
/// escape (keys mostly differ in their first bytes); [`KeyBytes`] otherwise.
fn compare_keys(
    input: &[u8],
    key_a: usize,
    sep_a: u8,
    key_b: usize,
    sep_b: u8,
) -> std::cmp::Ordering {
    use std::cmp::Ordering;
    let (mut i, mut j) = (key_a + 1, key_b + 1);
    loop {
        let x = input.get(i).copied().unwrap_or(b'"');
        let y = input.get(j).copied().unwrap_or(b'"');
        if x == b'\\' || y == b'\\' {
            return KeyBytes::new(input, key_a, Some(sep_a)).cmp(KeyBytes::new(
                input,
                key_b,
                Some(sep_b),
            ));
        }
        match (x == b'"', y == b'"') {
            (false, false) if x == y => {
                i += 1;
                j += 1;
            }
            (false, false) => return x.cmp(&y),
            (true, true) => return sep_a.cmp(&sep_b),
            // `a` goes on with its separator and ends; `b` with a key byte.
            (true, false) => return sep_a.cmp(&y).then(Ordering::Less),
            (false, true) => return x.cmp(&sep_b).then(Ordering::Greater),
        }
    }
}

/// Canonical order of two members of one object: `key + separator` by bytes, then
/// document order (which only equal keys, refused as duplicates, need).
fn compare_members(input: &[u8], words: &[u32], a: u32, b: u32) -> std::cmp::Ordering {
    let (ka, kb) = (member_key_at(words, a), member_key_at(words, b));
    compare_keys(input, ka, separator(a), kb, separator(b)).then(ka.cmp(&kb))
}

/// `key + separator` of member `a` against the key at `key_at` followed by `sep`.
fn compare_key_sep(
    input: &[u8],
    words: &[u32],
    a: u32,
    key_at: usize,
    sep: u8,
) -> std::cmp::Ordering {
    compare_keys(input, member_key_at(words, a), separator(a), key_at, sep)
}

/// Of the members of one object, sorted by [`compare_members`], the key offset of the
/// first one in the document that repeats an earlier key, if any.
///
/// Equal keys with the same separator are neighbours, by position. The same key with
/// another separator (`"a":1` and `"a":{..}`) may sort apart: for each run of a
/// container's key, the runs of that key with the two other separators are found by
/// binary search. For each key the answer is the second smallest position among its
/// runs' first two; the first repeat is the smallest of those. O(k log k) comparisons.
fn first_repeat_sorted(input: &[u8], words: &[u32], members: &[u32]) -> Option<usize> {
    let key_at = |w: u32| member_key_at(words, w);
    let mut best: Option<usize> = None;
    let mut i = 0;
    while let Some(&first) = members.get(i) {
        let sep = separator(first);
        let key = key_at(first);
        let run = 1 + members
            .get(i + 1..)
            .unwrap_or_default()
            .iter()
            .take_while(|&&w| compare_key_sep(input, words, w, key, sep).is_eq())
            .count();
        // At most two positions from each of three runs.
        let mut positions = [usize::MAX; 6];
        let mut found = 0;
        for &w in members.get(i..i + run.min(2)).unwrap_or_default() {
            if let Some(slot) = positions.get_mut(found) {
                *slot = key_at(w);
                found += 1;
            }
        }
        if sep != b'=' {
            for other in [b'=', b'.', b'['] {
                if other == sep {
                    continue;
                }
                let lo = members
                    .partition_point(|&w| compare_key_sep(input, words, w, key, other).is_lt());
                for &w in members.get(lo..).unwrap_or_default().iter().take(2) {
                    if compare_key_sep(input, words, w, key, other).is_eq() {
                        if let Some(slot) = positions.get_mut(found) {
                            *slot = key_at(w);
                            found += 1;
                        }
                    }
                }
            }
        }
        positions.sort_unstable();
        if let Some(&second) = positions.get(1).filter(|&&p| p != usize::MAX) {
            best = Some(best.map_or(second, |b| b.min(second)));
        }
        i += run;
    }
    best
}

/// The indexes `0..n` in the byte order of `index + "]"`: `]` sorts after the digits,
/// so an index comes after every index that extends it (`[10]`, `[11]`, ... before
/// `[1]`). That is 0, then the decimal tree under each of 1 to 9 in post-order.
struct IndexOrder {
    n: usize,
    /// `(index, next digit)` from the root (index 0 standing for the root, whose
    /// children are the digits 1 to 9).
    stack: [(usize, u8); 24],
    depth: usize,
    started: bool,
}

impl IndexOrder {
    fn new(n: usize) -> IndexOrder {
        IndexOrder {
            n,
            stack: [(0, 1); 24],
            depth: 1,
            started: false,
        }
    }
}

impl Iterator for IndexOrder {
    type Item = usize;

    fn next(&mut self) -> Option<usize> {
        if !self.started {
            self.started = true;
            return (self.n > 0).then_some(0);
        }
        loop {
            let top = self.depth.checked_sub(1)?;
            let (index, digit) = *self.stack.get(top)?;
            if digit <= 9 {
                if let Some(entry) = self.stack.get_mut(top) {
                    entry.1 = digit + 1;
                }
                let child = if top == 0 {
                    usize::from(digit)
                } else {
                    index.saturating_mul(10).saturating_add(usize::from(digit))
                };
                if child < self.n && self.depth < self.stack.len() {
                    if let Some(entry) = self.stack.get_mut(self.depth) {
                        *entry = (child, 0);
                        self.depth += 1;
                    }
                }
            } else {
                self.depth -= 1;
                if top == 0 {
                    return None;
                }
                return Some(index);
            }
        }
    }
}

/// Words needed for `input` (an upper bound when it is not valid JSON): one per member
/// (`:`), one per array element (the first of a non-empty array, then one per `,` in an
/// array) and one header per non-empty container that is a member's value. Counted
/// first so that the words are allocated once, at their size.
fn count_words(input: &[u8]) -> usize {
    let mut in_array: Vec<bool> = Vec::with_capacity(MAX_DEPTH + 1);
    let mut words = 0usize;
    let mut after_colon = false;
    let mut i = 0;
    while let Some(&b) = input.get(i) {
        match b {
            b'"' => {
                i = skip_string(input, i);
                after_colon = false;
                continue;
            }
            b'[' | b'{' => {
                let close = if b == b'[' { b']' } else { b'}' };
                let next = input
                    .get(i + 1..)
                    .unwrap_or_default()
                    .iter()
                    .find(|c| !matches!(c, b' ' | b'\t' | b'\n' | b'\r'));
                if next != Some(&close) {
                    words += usize::from(after_colon) + usize::from(b == b'[');
                }
                if in_array.len() > MAX_DEPTH {
                    // The parser refuses the body here.
                    return words;
                }
                in_array.push(b == b'[');
                after_colon = false;
            }
            b']' | b'}' => {
                in_array.pop();
                after_colon = false;
            }
            b':' => {
                words += 1;
                after_colon = true;
            }
            b',' => {
                words += usize::from(in_array.last() == Some(&true));
                after_colon = false;
            }
            b' ' | b'\t' | b'\n' | b'\r' => {}
            _ => after_colon = false,
        }
        i += 1;
    }
    words
}

/// The offset after the string whose opening quote is at `quote` (or the end).
fn skip_string(input: &[u8], quote: usize) -> usize {
    let mut i = quote + 1;
    loop {
        i += plain_run(input.get(i..).unwrap_or_default());
        match input.get(i) {
            None => return input.len(),
            Some(b'"') => return i + 1,
            Some(b'\\') => i += 2,
            // A control character: invalid, left to the parser.
            Some(_) => i += 1,
        }
    }
}

/// Counts the unescaped bytes of a string and whether one is `&`.
#[derive(Default)]
struct Measure {
    len: usize,
    ampersand: bool,
}

impl Out for Measure {
    fn put(&mut self, bytes: &[u8]) {
        self.len += bytes.len();
        self.ampersand = self.ampersand || bytes.contains(&b'&');
    }
}

fn tree_parse(body: &[u8], unambiguous: bool) -> Result<Parsed, Stop> {
    tree_parse_sized(body, unambiguous, count_words(body))
}

/// [`tree_parse`] with `capacity` words to start with (more are made should it be too
/// few: tests start with none).
fn tree_parse_sized(body: &[u8], unambiguous: bool, capacity: usize) -> Result<Parsed, Stop> {
    if body.len() > MAX_BODY {
        return Err(CanonicalError::TooLarge { offset: MAX_BODY }.into());
    }
    let mut parser = TreeParser {
        input: body,
        pos: 0,
        unambiguous,
        words: vec![0; capacity],
        front: 0,
        back: capacity,
        path: Vec::with_capacity(64),
        pair_bytes: 0,
        scratch: Vec::new(),
        meta: Meta::default(),
        signature_at: None,
    };
    parser.skip_ws();
    if parser.peek() != Some(b'{') {
        return Err(CanonicalError::NotAnObject.into());
    }
    let root = parser.object(1, None, true)?;
    parser.skip_ws();
    if parser.pos != body.len() {
        return Err(parser.syntax("end of input").into());
    }
    Ok(Parsed {
        repr: Repr::Tree(Tree {
            words: parser.words,
            root: (root & KIND == OBJECT).then(|| payload(root)),
            signature_at: parser.signature_at,
        }),
        meta: parser.meta,
    })
}

struct TreeParser<'a> {
    input: &'a [u8],
    pos: usize,
    /// Apply the rules of [`Flattened::parse_unambiguous`].
    unambiguous: bool,
    /// `words[..front]`: the slices of the containers that have ended;
    /// `words[back..]`: the words of the members and elements of the open containers,
    /// a stack growing down. Every word moves once from the stack to a slice.
    words: Vec<u32>,
    front: usize,
    back: usize,
    /// Path of the value being read (for the pairs' lengths and the errors).
    path: Vec<u8>,
    /// Length of the pairs so far (see [`MAX_EXPANSION`]).
    pair_bytes: usize,
    /// Unescaped text of a string holding `&` (for rule R3).
    scratch: Vec<u8>,
    meta: Meta,
    signature_at: Option<u32>,
}

impl TreeParser<'_> {
    fn peek(&self) -> Option<u8> {
        self.input.get(self.pos).copied()
    }

    fn syntax(&self, expected: &'static str) -> CanonicalError {
        CanonicalError::Syntax {
            offset: self.pos,
            expected,
        }
    }

    fn skip_ws(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.peek() {
            self.pos += 1;
        }
    }

    fn expect(&mut self, byte: u8, expected: &'static str) -> Result<(), CanonicalError> {
        if self.peek() == Some(byte) {
            self.pos += 1;
            Ok(())
        } else {
            Err(self.syntax(expected))
        }
    }

    fn keyword(&mut self, word: &'static [u8]) -> Result<(), CanonicalError> {
        if self.input.get(self.pos..self.pos + word.len()) == Some(word) {
            self.pos += word.len();
            Ok(())
        } else {
            Err(self.syntax("a JSON value"))
        }
    }

    fn digits(&mut self) -> usize {
        let begin = self.pos;
        while let Some(b'0'..=b'9') = self.peek() {
            self.pos += 1;
        }
        self.pos - begin
    }

    /// JSON number grammar: `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`.
    fn number(&mut self) -> Result<(), CanonicalError> {
        if self.peek() == Some(b'-') {
            self.pos += 1;
        }
        match self.peek() {
            Some(b'0') => self.pos += 1,
            Some(b'1'..=b'9') => {
                self.digits();
            }
            _ => return Err(self.syntax("a digit")),
        }
        if self.peek() == Some(b'.') {
            self.pos += 1;
            if self.digits() == 0 {
                return Err(self.syntax("a digit after `.`"));
            }
        }
        if let Some(b'e' | b'E') = self.peek() {
            self.pos += 1;
            if let Some(b'+' | b'-') = self.peek() {
                self.pos += 1;
            }
            if self.digits() == 0 {
                return Err(self.syntax("a digit in the exponent"));
            }
        }
        Ok(())
    }

    /// The breach of `rule` at the current path.
    #[cold]
    #[inline(never)]
    fn ambiguous(&self, rule: Ambiguity) -> CanonicalError {
        CanonicalError::Ambiguous {
            path: String::from_utf8_lossy(&self.path).into_owned(),
            rule,
        }
    }

    /// One more pair: the path, `=` and `value_len` bytes.
    fn count_pair(&mut self, value_len: usize) {
        self.pair_bytes += self.path.len() + 1 + value_len;
        self.meta.pairs += 1;
    }

    /// Refuses a body whose pairs have grown past [`MAX_EXPANSION`] times the bytes
    /// read so far (plus [`EXPANSION_ALLOWANCE`]): checked after every element of every
    /// object and array, so such a body is refused where it goes over. The pairs are
    /// counted, not written: this bounds the work of hashing them.
    fn within_budget(&self) -> Result<(), CanonicalError> {
        let allowed = self
            .pos
            .saturating_mul(MAX_EXPANSION)
            .saturating_add(EXPANSION_ALLOWANCE);
        if self.pair_bytes > allowed {
            return Err(CanonicalError::TooLarge { offset: self.pos });
        }
        Ok(())
    }

    /// Words on the stack.
    fn pending(&self) -> usize {
        self.words.len() - self.back
    }

    fn push(&mut self, word: u32) {
        if self.back <= self.front {
            self.grow();
        }
        self.back -= 1;
        if let Some(slot) = self.words.get_mut(self.back) {
            *slot = word;
        }
    }

    /// More words, should [`count_words`] have counted too few (it never does for a
    /// body that parses).
    #[cold]
    fn grow(&mut self) {
        let old = self.words.len();
        let new = old * 2 + 16;
        let mut words = vec![0; new];
        let pending = old - self.back;
        words
            .get_mut(..self.front)
            .unwrap_or_default()
            .copy_from_slice(self.words.get(..self.front).unwrap_or_default());
        words
            .get_mut(new - pending..)
            .unwrap_or_default()
            .copy_from_slice(self.words.get(self.back..).unwrap_or_default());
        self.back = new - pending;
        self.words = words;
    }

    /// Moves the words of a container that has ended (those pushed since the stack
    /// held `mark` words) to a slice after the finished ones, after the header
    /// `key_at` for a member's value, reversed (they were pushed last first) or not,
    /// and marks the last. Returns the slice's index.
    fn finish_slice(&mut self, mark: usize, key_at: Option<u32>, reverse: bool) -> u32 {
        let header = usize::from(key_at.is_some());
        if self.front + header > self.back {
            self.grow();
        }
        let count = self.pending() - mark;
        let start = self.front;
        let first = start + header;
        self.words.copy_within(self.back..self.back + count, first);
        if let (Some(key), Some(slot)) = (key_at, self.words.get_mut(start)) {
            *slot = key;
        }
        let slice = self.words.get_mut(first..first + count).unwrap_or_default();
        if reverse {
            slice.reverse();
        }
        if let Some(last) = slice.last_mut() {
            *last |= LAST;
        }
        self.front = first + count;
        self.back += count;
        start as u32
    }

    /// Reads a value and returns its word (`key_at`: the offset of its key's quote for
    /// a member's value, `None` for an array element).
    fn value(&mut self, depth: usize, key_at: Option<u32>) -> Result<u32, Stop> {
        let scalar = SCALAR | key_at.unwrap_or(self.pos as u32);
        match self.peek() {
            Some(b'{') => self.object(depth + 1, key_at, false),
            Some(b'[') => self.array(depth + 1, key_at),
            Some(b'"') => {
                self.string_value()?;
                Ok(scalar)
            }
            Some(b't') => {
                self.keyword(b"true")?;
                self.count_pair(4);
                Ok(scalar)
            }
            Some(b'f') => {
                self.keyword(b"false")?;
                self.count_pair(5);
                Ok(scalar)
            }
            Some(b'n') => {
                self.keyword(b"null")?;
                // A null member reads as absent to every decoder, so adding one changes
                // nothing; a null element moves the indexes after it. Signers refuse
                // both (see `first_null_path`).
                if self.unambiguous && key_at.is_none() {
                    return Err(self.ambiguous(Ambiguity::Null).into());
                }
                if self.meta.first_null.is_none() {
                    self.meta.first_null = Some(String::from_utf8_lossy(&self.path).into_owned());
                }
                Ok(scalar)
            }
            Some(b'-' | b'0'..=b'9') => {
                let begin = self.pos;
                self.number()?;
                self.count_pair(self.pos - begin);
                Ok(scalar)
            }
            _ => Err(self.syntax("a JSON value").into()),
        }
    }

    fn string_value(&mut self) -> Result<(), CanonicalError> {
        let start = self.pos;
        let mut measure = Measure::default();
        string(self.input, &mut self.pos, &mut measure)?;
        if self.unambiguous && measure.ampersand {
            self.scratch.clear();
            let mut again = start;
            string(self.input, &mut again, &mut self.scratch)?;
            if reads_as_pair_after_ampersand(&self.scratch) {
                return Err(self.ambiguous(Ambiguity::ValueReadsAsPair));
            }
        }
        self.count_pair(measure.len);
        Ok(())
    }

    fn array(&mut self, depth: usize, key_at: Option<u32>) -> Result<u32, Stop> {
        if depth > MAX_DEPTH {
            return Err(CanonicalError::TooDeep { max: MAX_DEPTH }.into());
        }
        let at = self.pos as u32;
        self.expect(b'[', "`[`")?;
        self.skip_ws();
        if self.peek() == Some(b']') {
            self.pos += 1;
            self.count_pair(2);
            return Ok(SCALAR | key_at.unwrap_or(at));
        }
        let base = self.path.len();
        let mark = self.pending();
        let mut index = 0usize;
        loop {
            self.path.push(b'[');
            push_decimal(&mut self.path, index);
            self.path.push(b']');
            self.skip_ws();
            let word = self.value(depth, None)?;
            self.push(word);
            self.within_budget()?;
            self.path.truncate(base);
            index += 1;
            self.skip_ws();
            match self.peek() {
                Some(b',') => self.pos += 1,
                Some(b']') => {
                    self.pos += 1;
                    break;
                }
                _ => return Err(self.syntax("`,` or `]`").into()),
            }
        }
        Ok(ARRAY | self.finish_slice(mark, key_at, true))
    }

    fn object(&mut self, depth: usize, key_at: Option<u32>, top: bool) -> Result<u32, Stop> {
        if depth > MAX_DEPTH {
            return Err(CanonicalError::TooDeep { max: MAX_DEPTH }.into());
        }
        let at = self.pos as u32;
        self.expect(b'{', "`{`")?;
        self.skip_ws();
        if self.peek() == Some(b'}') {
            self.pos += 1;
            if !top {
                self.count_pair(2);
            }
            return Ok(SCALAR | key_at.unwrap_or(at));
        }
        let base = self.path.len();
        let mark = self.pending();
        loop {
            self.skip_ws();
            if self.peek() != Some(b'"') {
                return Err(self.syntax("a key string").into());
            }
            if !top {
                self.path.push(b'.');
            }
            let key_start = self.path.len();
            let quote = self.pos;
            string(self.input, &mut self.pos, &mut self.path)?;
            let key = self.path.get(key_start..).unwrap_or_default();
            let sender_key = top && key == SENDER_KEY.as_bytes();
            if self.unambiguous {
                if key.is_empty() || key.iter().any(|&b| !is_key_byte(b)) {
                    return Err(self.ambiguous(Ambiguity::Key).into());
                }
                if sender_key {
                    return Err(self.ambiguous(Ambiguity::SenderKey).into());
                }
            } else if sender_key || key.iter().any(|b| matches!(b, b'.' | b'[' | b'=')) {
                return Err(Stop::NeedsArena);
            }
            let is_signature = top && key == b"signature";
            let quote = quote as u32;
            self.skip_ws();
            self.expect(b':', "`:`")?;
            self.skip_ws();
            let word = if is_signature {
                self.meta.has_signature_key = true;
                self.signature_at = Some(quote);
                self.signature_value(depth)?;
                SCALAR | quote
            } else {
                self.value(depth, Some(quote))?
            };
            self.push(word);
            self.within_budget()?;
            self.path.truncate(base);
            self.skip_ws();
            match self.peek() {
                Some(b',') => self.pos += 1,
                Some(b'}') => {
                    self.pos += 1;
                    break;
                }
                _ => return Err(self.syntax("`,` or `}`").into()),
            }
        }
        // Canonical order, then repeated keys (neighbours in that order, or found by
        // binary search: see `first_repeat_sorted`).
        let count = self.pending() - mark;
        let input = self.input;
        let (done, stack) = self.words.split_at_mut(self.back);
        let members = stack.get_mut(..count).unwrap_or_default();
        members.sort_unstable_by(|&a, &b| compare_members(input, done, a, b));
        if let Some(repeat) = first_repeat_sorted(input, done, members) {
            let mut path =
                String::from_utf8_lossy(self.path.get(..base).unwrap_or_default()).into_owned();
            if !top {
                path.push('.');
            }
            let key: Vec<u8> = KeyBytes::new(input, repeat, None).collect();
            path.push_str(&String::from_utf8_lossy(&key));
            return Err(CanonicalError::DuplicateKey { path }.into());
        }
        Ok(OBJECT | self.finish_slice(mark, key_at, false))
    }

    /// The top-level `signature`: a string kept apart, or `null` (none); anything else
    /// is read (so that its syntax errors are reported) and refused.
    fn signature_value(&mut self, depth: usize) -> Result<(), Stop> {
        match self.peek() {
            Some(b'n') => Ok(self.keyword(b"null")?),
            Some(b'"') => {
                let mut text = Vec::new();
                string(self.input, &mut self.pos, &mut text)?;
                self.meta.signature = Some(String::from_utf8_lossy(&text).into_owned());
                Ok(())
            }
            _ => {
                self.value(depth, None)?;
                Err(CanonicalError::SignatureNotString.into())
            }
        }
    }
}

impl Tree {
    /// Writes the canonical string (see the comment above [`KIND`]).
    fn emit(&self, input: &[u8], key: &PrivateKey, out: &mut impl Emit) {
        let mut walk = Walk {
            input,
            words: &self.words,
            path: Vec::with_capacity(64),
            first: true,
            out,
        };
        let mut sender_done = false;
        let mut i = self.root.unwrap_or(usize::MAX);
        while let Some(&word) = self.words.get(i) {
            let key_at = member_key_at(&self.words, word);
            if Some(key_at as u32) != self.signature_at {
                if !sender_done && sorts_after_sender_key(input, key_at, separator(word)) {
                    walk.sender_key(key);
                    sender_done = true;
                }
                walk.member(word, true);
            }
            if word & LAST != 0 {
                break;
            }
            i += 1;
        }
        if !sender_done {
            walk.sender_key(key);
        }
    }
}

/// The key at `key_at` followed by `sep` sorts after `senderKey=`.
fn sorts_after_sender_key(input: &[u8], key_at: usize, sep: u8) -> bool {
    let sender = SENDER_KEY.as_bytes();
    match raw_key(input, key_at) {
        Some(raw) => compare_with_separators(raw, sep, sender, b'=').is_gt(),
        None => {
            let key: Vec<u8> = KeyBytes::new(input, key_at, None).collect();
            compare_with_separators(&key, sep, sender, b'=').is_gt()
        }
    }
}

/// The walk that writes the canonical string.
struct Walk<'t, O> {
    input: &'t [u8],
    words: &'t [u32],
    /// Path of the value being written.
    path: Vec<u8>,
    /// No pair written yet (no `&` before the next one).
    first: bool,
    out: &'t mut O,
}

impl<O: Emit> Walk<'_, O> {
    fn begin_pair(&mut self) {
        if !self.first {
            self.out.put(b"&");
        }
        self.first = false;
    }

    fn sender_key(&mut self, key: &PrivateKey) {
        self.begin_pair();
        self.out.put(SENDER_KEY.as_bytes());
        self.out.put(b"=");
        self.out.sender_key(key);
        self.out.end_pair();
    }

    /// A member: its key added to the path, then its value.
    fn member(&mut self, word: u32, top: bool) {
        let base = self.path.len();
        if !top {
            self.path.push(b'.');
        }
        let mut pos = member_key_at(self.words, word);
        unescape(self.input, &mut pos, &mut self.path);
        match word & KIND {
            SCALAR => {
                // The value after `:` (the input is valid JSON here).
                while let Some(b' ' | b'\t' | b'\n' | b'\r' | b':') = self.input.get(pos) {
                    pos += 1;
                }
                self.scalar(pos);
            }
            kind => self.container(kind, payload(word) + 1),
        }
        self.path.truncate(base);
    }

    /// The pair of the scalar at `pos` (none for `null`).
    fn scalar(&mut self, pos: usize) {
        let Some(&first) = self.input.get(pos) else {
            return;
        };
        if first == b'n' {
            return;
        }
        self.begin_pair();
        self.out.put(&self.path);
        self.out.put(b"=");
        match first {
            b'"' => {
                let mut at = pos;
                unescape(self.input, &mut at, self.out);
            }
            b'{' => self.out.put(b"{}"),
            b'[' => self.out.put(b"[]"),
            b't' => self.out.put(b"true"),
            b'f' => self.out.put(b"false"),
            _ => {
                let rest = self.input.get(pos..).unwrap_or_default();
                let len = rest
                    .iter()
                    .position(|b| !matches!(b, b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E'))
                    .unwrap_or(rest.len());
                self.out.put(rest.get(..len).unwrap_or_default());
            }
        }
        self.out.end_pair();
    }

    /// The members or elements of the slice whose first word is at `start`.
    fn container(&mut self, kind: u32, start: usize) {
        let slice = self.words.get(start..).unwrap_or_default();
        let count = slice
            .iter()
            .position(|w| w & LAST != 0)
            .map_or(slice.len(), |last| last + 1);
        let slice = slice.get(..count).unwrap_or_default();
        if kind == OBJECT {
            for &word in slice {
                self.member(word, false);
            }
            return;
        }
        for index in IndexOrder::new(count) {
            let Some(&word) = slice.get(index) else {
                continue;
            };
            let base = self.path.len();
            self.path.push(b'[');
            push_decimal(&mut self.path, index);
            self.path.push(b']');
            match word & KIND {
                SCALAR => self.scalar(payload(word)),
                // An element's slice has no header.
                kind => self.container(kind, payload(word)),
            }
            self.path.truncate(base);
        }
    }
}

/// Every pair of `body` written out, in document order (see [`Repr::Arena`]).
fn arena_parse(body: &[u8]) -> Result<(Arena, Meta), CanonicalError> {
    let mut parser = Parser {
        input: body,
        pos: 0,
        path: Vec::with_capacity(64),
        arena: Vec::with_capacity(body.len() + 64),
        pairs: Vec::with_capacity(body.len() / 16 + 8),
        keys: Vec::with_capacity(32),
        key_hashes: Vec::with_capacity(32),
        key_buf: Vec::new(),
        signature: None,
        has_signature_key: false,
        first_null: None,
    };
    parser.skip_ws();
    if parser.peek() != Some(b'{') {
        return Err(CanonicalError::NotAnObject);
    }
    parser.object(1, true)?;
    parser.skip_ws();
    if parser.pos != body.len() {
        return Err(parser.syntax("end of input"));
    }
    let meta = Meta {
        pairs: parser.pairs.len(),
        signature: parser.signature,
        has_signature_key: parser.has_signature_key,
        first_null: parser.first_null,
    };
    Ok((
        Arena {
            text: parser.arena,
            pairs: parser.pairs,
        },
        meta,
    ))
}

/// The first eight bytes of `s` as a big-endian integer, zero-padded: a sort key that
/// orders like `s` itself wherever two keys differ (where they differ, either both
/// strings have a byte there or the shorter one has ended and the longer one goes on
/// with a non-zero byte after the same bytes, so it sorts after as well). Sorting by
/// `(prefix(s), s)` is sorting by `s`, with most comparisons on one integer.
fn prefix(s: &[u8]) -> u64 {
    let mut word = [0u8; 8];
    for (w, b) in word.iter_mut().zip(s) {
        *w = *b;
    }
    u64::from_be_bytes(word)
}

/// A fingerprint of an object key for duplicate detection: equal keys have equal
/// hashes. Different keys may too (keys of 17 bytes or more that differ only in their
/// middle always do), and the object's keys are then sorted by text: see
/// [`first_repeat`].
fn key_hash(key: &[u8]) -> u64 {
    // The first and last eight bytes (or four, or three single bytes) and the length.
    let (first, last) = match (key.first_chunk::<8>(), key.last_chunk::<8>()) {
        (Some(f), Some(l)) => (u64::from_le_bytes(*f), u64::from_le_bytes(*l)),
        _ => match (key.first_chunk::<4>(), key.last_chunk::<4>()) {
            (Some(f), Some(l)) => (
                u64::from(u32::from_le_bytes(*f)),
                u64::from(u32::from_le_bytes(*l)),
            ),
            _ => {
                let byte = |i: usize| u64::from(key.get(i).copied().unwrap_or_default());
                (
                    byte(0) | byte(key.len() / 2) << 8,
                    byte(key.len().wrapping_sub(1)),
                )
            }
        },
    };
    (first ^ key.len() as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15)
        ^ last.rotate_left(29).wrapping_mul(0xc2b2_ae3d_27d4_eb4f)
}

/// A byte that may be part of an object key under rule R1 (and of a key in a value
/// under rule R3): anything but `&`, `=`, `.`, `[` and `]`.
fn is_key_byte(b: u8) -> bool {
    !matches!(b, b'&' | b'=' | b'.' | b'[' | b']')
}

/// Rule R3: `value` holds `&` followed by a key (one or more [`is_key_byte`]s), any
/// number of `.key` or `[digits]`, and `=`.
///
/// Linear: no byte after an `&` that the scan from it reads is `&`, so each scan stops
/// at the next `&` at the latest.
fn reads_as_pair_after_ampersand(value: &[u8]) -> bool {
    let mut rest = value;
    while let Some(at) = rest.iter().position(|&b| b == b'&') {
        rest = rest.get(at + 1..).unwrap_or_default();
        if reads_as_path_then_equals(rest) {
            return true;
        }
    }
    false
}

/// `s` starts with `key(.key|[digits])*=` (see [`reads_as_pair_after_ampersand`]).
fn reads_as_path_then_equals(s: &[u8]) -> bool {
    let key_len = |s: &[u8]| s.iter().take_while(|&&b| is_key_byte(b)).count();
    let mut i = key_len(s);
    if i == 0 {
        return false;
    }
    loop {
        match s.get(i) {
            Some(b'=') => return true,
            Some(b'.') => {
                let n = key_len(s.get(i + 1..).unwrap_or_default());
                if n == 0 {
                    return false;
                }
                i += 1 + n;
            }
            Some(b'[') => {
                let digits = s.get(i + 1..).unwrap_or_default();
                let n = digits.iter().take_while(|b| b.is_ascii_digit()).count();
                if n == 0 || digits.get(n) != Some(&b']') {
                    return false;
                }
                i += 2 + n;
            }
            _ => return false,
        }
    }
}

/// A pair whose path is the top-level `senderKey`.
fn is_sender_key_pair(pair: &str) -> bool {
    pair.strip_prefix(SENDER_KEY)
        .is_some_and(|rest| rest.starts_with('='))
}

/// Appends `piece` with every occurrence of `secret` replaced by [`REDACTED`].
fn push_redacted(out: &mut Vec<u8>, piece: &[u8], secret: &[u8]) {
    if secret.is_empty() || piece.len() < secret.len() {
        out.extend_from_slice(piece);
        return;
    }
    let mut rest = piece;
    while let Some(at) = rest.windows(secret.len()).position(|w| w == secret) {
        out.extend_from_slice(rest.get(..at).unwrap_or_default());
        out.extend_from_slice(REDACTED.as_bytes());
        rest = rest.get(at + secret.len()..).unwrap_or_default();
    }
    out.extend_from_slice(rest);
}

/// The parser of [`Repr::Arena`]: every pair's text written out.
struct Parser<'a> {
    input: &'a [u8],
    pos: usize,
    /// Path of the value being read.
    path: Vec<u8>,
    arena: Vec<u8>,
    pairs: Vec<(usize, usize)>,
    /// Keys of the objects being read, for duplicate detection, in document order:
    /// ranges (see [`key_text`]) and, at the same indexes, [`key_hash`]es.
    keys: Vec<(usize, usize)>,
    key_hashes: Vec<u64>,
    /// Unescaped text of the keys being read that have escapes.
    key_buf: Vec<u8>,
    signature: Option<String>,
    has_signature_key: bool,
    first_null: Option<String>,
}

/// The text of a key range of [`Parser::keys`]: a range of `input` (keys without
/// escapes), or, shifted by `input.len()`, of `key_buf`.
fn key_text<'k>(input: &'k [u8], key_buf: &'k [u8], (start, end): (usize, usize)) -> &'k [u8] {
    match start.checked_sub(input.len()) {
        Some(kb_start) => slice(key_buf, (kb_start, end - input.len())),
        None => slice(input, (start, end)),
    }
}

impl Parser<'_> {
    fn peek(&self) -> Option<u8> {
        self.input.get(self.pos).copied()
    }

    fn syntax(&self, expected: &'static str) -> CanonicalError {
        CanonicalError::Syntax {
            offset: self.pos,
            expected,
        }
    }

    fn skip_ws(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.peek() {
            self.pos += 1;
        }
    }

    fn expect(&mut self, byte: u8, expected: &'static str) -> Result<(), CanonicalError> {
        if self.peek() == Some(byte) {
            self.pos += 1;
            Ok(())
        } else {
            Err(self.syntax(expected))
        }
    }

    /// Starts a pair `path=` in the arena and returns its start.
    fn begin_pair(&mut self) -> usize {
        let start = self.arena.len();
        self.arena.extend_from_slice(&self.path);
        self.arena.push(b'=');
        start
    }

    /// Refuses a body whose pairs have grown past [`MAX_EXPANSION`] times the bytes
    /// read so far (plus [`EXPANSION_ALLOWANCE`]): checked after every element of every
    /// object and array, so such a body is refused where it goes over, after pairs as
    /// long as those bytes allow, not as long as the whole body would allow. (The one
    /// pair written past the limit is no longer than the bytes read: its path is made
    /// of keys read.)
    fn within_budget(&self) -> Result<(), CanonicalError> {
        let allowed = self
            .pos
            .saturating_mul(MAX_EXPANSION)
            .saturating_add(EXPANSION_ALLOWANCE);
        if self.arena.len() > allowed {
            return Err(self.too_large());
        }
        Ok(())
    }

    #[cold]
    #[inline(never)]
    fn too_large(&self) -> CanonicalError {
        CanonicalError::TooLarge { offset: self.pos }
    }

    fn end_pair(&mut self, start: usize) {
        self.pairs.push((start, self.arena.len()));
    }

    fn value(&mut self, depth: usize) -> Result<(), CanonicalError> {
        match self.peek() {
            Some(b'{') => self.object(depth + 1, false),
            Some(b'[') => self.array(depth + 1),
            Some(b'"') => {
                let start = self.begin_pair();
                string(self.input, &mut self.pos, &mut self.arena)?;
                self.end_pair(start);
                Ok(())
            }
            Some(b't') => self.literal(b"true"),
            Some(b'f') => self.literal(b"false"),
            Some(b'n') => {
                self.keyword(b"null")?;
                if self.first_null.is_none() {
                    self.first_null = Some(String::from_utf8_lossy(&self.path).into_owned());
                }
                Ok(())
            }
            Some(b'-' | b'0'..=b'9') => {
                let begin = self.pos;
                self.number()?;
                let text = self.input.get(begin..self.pos).unwrap_or_default();
                let start = self.begin_pair();
                self.arena.extend_from_slice(text);
                self.end_pair(start);
                Ok(())
            }
            _ => Err(self.syntax("a JSON value")),
        }
    }

    fn keyword(&mut self, word: &'static [u8]) -> Result<(), CanonicalError> {
        if self.input.get(self.pos..self.pos + word.len()) == Some(word) {
            self.pos += word.len();
            Ok(())
        } else {
            Err(self.syntax("a JSON value"))
        }
    }

    fn literal(&mut self, word: &'static [u8]) -> Result<(), CanonicalError> {
        self.keyword(word)?;
        let start = self.begin_pair();
        self.arena.extend_from_slice(word);
        self.end_pair(start);
        Ok(())
    }

    fn digits(&mut self) -> usize {
        let begin = self.pos;
        while let Some(b'0'..=b'9') = self.peek() {
            self.pos += 1;
        }
        self.pos - begin
    }

    /// JSON number grammar: `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`.
    fn number(&mut self) -> Result<(), CanonicalError> {
        if self.peek() == Some(b'-') {
            self.pos += 1;
        }
        match self.peek() {
            Some(b'0') => self.pos += 1,
            Some(b'1'..=b'9') => {
                self.digits();
            }
            _ => return Err(self.syntax("a digit")),
        }
        if self.peek() == Some(b'.') {
            self.pos += 1;
            if self.digits() == 0 {
                return Err(self.syntax("a digit after `.`"));
            }
        }
        if let Some(b'e' | b'E') = self.peek() {
            self.pos += 1;
            if let Some(b'+' | b'-') = self.peek() {
                self.pos += 1;
            }
            if self.digits() == 0 {
                return Err(self.syntax("a digit in the exponent"));
            }
        }
        Ok(())
    }

    fn array(&mut self, depth: usize) -> Result<(), CanonicalError> {
        if depth > MAX_DEPTH {
            return Err(CanonicalError::TooDeep { max: MAX_DEPTH });
        }
        self.expect(b'[', "`[`")?;
        self.skip_ws();
        if self.peek() == Some(b']') {
            self.pos += 1;
            let start = self.begin_pair();
            self.arena.extend_from_slice(b"[]");
            self.end_pair(start);
            return Ok(());
        }
        let base = self.path.len();
        let mut index = 0usize;
        loop {
            self.path.push(b'[');
            push_decimal(&mut self.path, index);
            self.path.push(b']');
            self.skip_ws();
            self.value(depth)?;
            self.within_budget()?;
            self.path.truncate(base);
            index += 1;
            self.skip_ws();
            match self.peek() {
                Some(b',') => self.pos += 1,
                Some(b']') => {
                    self.pos += 1;
                    return Ok(());
                }
                _ => return Err(self.syntax("`,` or `]`")),
            }
        }
    }

    fn object(&mut self, depth: usize, top: bool) -> Result<(), CanonicalError> {
        if depth > MAX_DEPTH {
            return Err(CanonicalError::TooDeep { max: MAX_DEPTH });
        }
        self.expect(b'{', "`{`")?;
        self.skip_ws();
        if self.peek() == Some(b'}') {
            self.pos += 1;
            if !top {
                let start = self.begin_pair();
                self.arena.extend_from_slice(b"{}");
                self.end_pair(start);
            }
            return Ok(());
        }
        let base = self.path.len();
        let key_frame = self.keys.len();
        let key_buf_base = self.key_buf.len();
        loop {
            self.skip_ws();
            if self.peek() != Some(b'"') {
                return Err(self.syntax("a key string"));
            }
            if !top {
                self.path.push(b'.');
            }
            let key_start = self.path.len();
            let quote = self.pos;
            string(self.input, &mut self.pos, &mut self.path)?;
            let key = self.path.get(key_start..).unwrap_or_default();
            // Escapes always shorten the text, so a key as long as its body between
            // the quotes is that body: refer to the input instead of copying it.
            let range = if key.len() + 2 == self.pos - quote {
                (quote + 1, self.pos - 1)
            } else {
                let kb_start = self.key_buf.len();
                self.key_buf.extend_from_slice(key);
                (
                    self.input.len() + kb_start,
                    self.input.len() + self.key_buf.len(),
                )
            };
            self.key_hashes.push(key_hash(key));
            self.keys.push(range);
            let is_signature = top && key == b"signature";
            self.skip_ws();
            self.expect(b':', "`:`")?;
            self.skip_ws();
            if is_signature {
                self.has_signature_key = true;
                self.signature_value(depth)?;
            } else {
                self.value(depth)?;
            }
            self.within_budget()?;
            self.path.truncate(base);
            self.skip_ws();
            match self.peek() {
                Some(b',') => self.pos += 1,
                Some(b'}') => {
                    self.pos += 1;
                    break;
                }
                _ => return Err(self.syntax("`,` or `}`")),
            }
        }
        // Duplicate keys. Equal keys have equal hashes: sort this object's hashes
        // (integers) and look for two equal neighbours. Most objects have none and are
        // done. Otherwise (equal keys, or keys made to collide) sort the keys themselves
        // by text and compare neighbours: O(k log k) comparisons of at most one key's
        // length for k keys, whatever the keys are.
        let hashes = self.key_hashes.get_mut(key_frame..).unwrap_or_default();
        hashes.sort_unstable();
        let repeat = if hashes.windows(2).any(|w| w.first() == w.last()) {
            first_repeat(
                self.input,
                &self.key_buf,
                self.keys.get(key_frame..).unwrap_or_default(),
            )
        } else {
            None
        };
        if let Some(key) = repeat {
            let mut path =
                String::from_utf8_lossy(self.path.get(..base).unwrap_or_default()).into_owned();
            if !top {
                path.push('.');
            }
            path.push_str(&String::from_utf8_lossy(key));
            return Err(CanonicalError::DuplicateKey { path });
        }
        self.keys.truncate(key_frame);
        self.key_hashes.truncate(key_frame);
        self.key_buf.truncate(key_buf_base);
        Ok(())
    }

    /// The top-level `signature`: read like any value, then taken out of the pairs.
    fn signature_value(&mut self, depth: usize) -> Result<(), CanonicalError> {
        let is_string = self.peek() == Some(b'"');
        if self.peek() == Some(b'n') {
            // `null`: no signature (not a pair of the canonical string).
            return self.keyword(b"null");
        }
        if !is_string {
            // Read it all first so that a syntax error is reported as such.
            self.value(depth)?;
            return Err(CanonicalError::SignatureNotString);
        }
        let mut text = Vec::new();
        string(self.input, &mut self.pos, &mut text)?;
        self.signature = Some(String::from_utf8_lossy(&text).into_owned());
        Ok(())
    }
}

/// Of the keys (ranges in document order, see [`key_text`]) that repeat an earlier
/// one, the first in the document: sorted by (text, position), a repeated key is the
/// later of two neighbours with the same text.
fn first_repeat<'k>(
    input: &'k [u8],
    key_buf: &'k [u8],
    keys: &[(usize, usize)],
) -> Option<&'k [u8]> {
    let mut sorted: Vec<(&[u8], usize)> = keys
        .iter()
        .enumerate()
        .map(|(i, &range)| (key_text(input, key_buf, range), i))
        .collect();
    sorted.sort_unstable();
    sorted
        .windows(2)
        .filter_map(|w| match w {
            [(a, _), (b, at)] if a == b => Some((*at, *b)),
            _ => None,
        })
        .min()
        .map(|(_, key)| key)
}

fn push_decimal(out: &mut Vec<u8>, mut n: usize) {
    let mut digits = [0u8; 20];
    let mut i = digits.len();
    loop {
        i -= 1;
        if let Some(d) = digits.get_mut(i) {
            *d = b'0' + (n % 10) as u8;
        }
        n /= 10;
        if n == 0 || i == 0 {
            break;
        }
    }
    out.extend_from_slice(digits.get(i..).unwrap_or_default());
}

fn hex_digit(b: u8) -> Option<u16> {
    match b {
        b'0'..=b'9' => Some(u16::from(b - b'0')),
        b'a'..=b'f' => Some(u16::from(b - b'a' + 10)),
        b'A'..=b'F' => Some(u16::from(b - b'A' + 10)),
        _ => None,
    }
}

fn hex4(input: &[u8], pos: &mut usize) -> Result<u16, CanonicalError> {
    let mut v = 0u16;
    for _ in 0..4 {
        let d = input
            .get(*pos)
            .copied()
            .and_then(hex_digit)
            .ok_or(CanonicalError::Syntax {
                offset: *pos,
                expected: "four hex digits after `\\u`",
            })?;
        v = (v << 4) | d;
        *pos += 1;
    }
    Ok(v)
}

/// A byte that ends a run of plain string text: `"`, `\\` or a control character.
fn ends_run(b: u8) -> bool {
    b == b'"' || b == b'\\' || b < 0x20
}

/// Length of the longest prefix of `s` without a byte that [`ends_run`].
///
/// Eight bytes at a time: for a word `v`, `(v - 0x01..01 * n) & !v & 0x80..80` has the
/// high bit set in the lowest byte below `n` (and maybe in bytes above it, through the
/// borrow, never below it), so the lowest set bit of the three tests below (`== '"'`,
/// `== '\\'`, `< 0x20`) is the first byte that ends the run. Checked against
/// [`ends_run`] byte by byte in the tests.
fn plain_run(s: &[u8]) -> usize {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let mut chunks = s.chunks_exact(8);
    let mut done = 0;
    for chunk in &mut chunks {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        let v = u64::from_le_bytes(word);
        let quote = v ^ (ONES * u64::from(b'"'));
        let backslash = v ^ (ONES * u64::from(b'\\'));
        let found = ((quote.wrapping_sub(ONES) & !quote)
            | (backslash.wrapping_sub(ONES) & !backslash)
            | (v.wrapping_sub(ONES * 0x20) & !v))
            & HIGH;
        if found != 0 {
            return done + (found.trailing_zeros() / 8) as usize;
        }
        done += 8;
    }
    let rest = chunks.remainder();
    done + rest.iter().position(|&b| ends_run(b)).unwrap_or(rest.len())
}

/// Where unescaped string text goes.
trait Out {
    fn put(&mut self, bytes: &[u8]);
}

impl Out for Vec<u8> {
    fn put(&mut self, bytes: &[u8]) {
        self.extend_from_slice(bytes);
    }
}

/// Reads a JSON string at `*pos` (which must be `"`) and writes its unescaped UTF-8
/// text to `out`. Runs without escapes are written in one go.
fn string<O: Out + ?Sized>(
    input: &[u8],
    pos: &mut usize,
    out: &mut O,
) -> Result<(), CanonicalError> {
    string_checked::<true, O>(input, pos, out)
}

/// [`string`] of a body that parsed (its UTF-8 was checked then): the canonical
/// string is written without checking it again.
fn unescape<O: Out + ?Sized>(input: &[u8], pos: &mut usize, out: &mut O) {
    let _ = string_checked::<false, O>(input, pos, out);
}

fn string_checked<const CHECK_UTF8: bool, O: Out + ?Sized>(
    input: &[u8],
    pos: &mut usize,
    out: &mut O,
) -> Result<(), CanonicalError> {
    let syntax = |offset, expected| CanonicalError::Syntax { offset, expected };
    if input.get(*pos) != Some(&b'"') {
        return Err(syntax(*pos, "`\"`"));
    }
    *pos += 1;
    loop {
        let run_start = *pos;
        *pos += plain_run(input.get(run_start..).unwrap_or_default());
        let run = input.get(run_start..*pos).unwrap_or_default();
        // A run ends at an ASCII byte, so it never splits a UTF-8 sequence.
        if CHECK_UTF8 && !run.is_ascii() {
            if let Err(e) = std::str::from_utf8(run) {
                return Err(CanonicalError::InvalidUtf8 {
                    offset: run_start + e.valid_up_to(),
                });
            }
        }
        if !run.is_empty() {
            out.put(run);
        }
        match input.get(*pos) {
            None => return Err(syntax(*pos, "closing `\"`")),
            Some(b'"') => {
                *pos += 1;
                return Ok(());
            }
            Some(b'\\') => {
                *pos += 1;
                let (bytes, len) = escape(input, pos)?;
                out.put(bytes.get(..len).unwrap_or_default());
            }
            Some(_) => return Err(syntax(*pos, "no raw control character in a string")),
        }
    }
}

/// The UTF-8 bytes (and their number) of the escape after a `\` at `*pos`, which is
/// moved past it.
fn escape(input: &[u8], pos: &mut usize) -> Result<([u8; 4], usize), CanonicalError> {
    let syntax = |offset, expected| CanonicalError::Syntax { offset, expected };
    let escaped = match input.get(*pos) {
        Some(b'"') => b'"',
        Some(b'\\') => b'\\',
        Some(b'/') => b'/',
        Some(b'b') => 0x08,
        Some(b'f') => 0x0c,
        Some(b'n') => b'\n',
        Some(b'r') => b'\r',
        Some(b't') => b'\t',
        Some(b'u') => {
            *pos += 1;
            let at = *pos;
            let unit = hex4(input, pos)?;
            let code = match unit {
                0xD800..=0xDBFF => {
                    if input.get(*pos..*pos + 2) != Some(b"\\u") {
                        return Err(syntax(*pos, "a low surrogate `\\uDC00`-`\\uDFFF`"));
                    }
                    *pos += 2;
                    let low = hex4(input, pos)?;
                    if !(0xDC00..=0xDFFF).contains(&low) {
                        return Err(syntax(*pos, "a low surrogate `\\uDC00`-`\\uDFFF`"));
                    }
                    0x10000 + ((u32::from(unit) - 0xD800) << 10) + (u32::from(low) - 0xDC00)
                }
                0xDC00..=0xDFFF => {
                    return Err(syntax(at, "no lone low surrogate"));
                }
                other => u32::from(other),
            };
            let c = char::from_u32(code).ok_or(syntax(at, "a Unicode scalar value"))?;
            let mut utf8 = [0u8; 4];
            let len = c.encode_utf8(&mut utf8).len();
            return Ok((utf8, len));
        }
        _ => return Err(syntax(*pos, "a valid escape")),
    };
    *pos += 1;
    Ok(([escaped, 0, 0, 0], 1))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(json: &str) -> Vec<String> {
        Flattened::parse(json.as_bytes())
            .map(|f| f.pairs().map(str::to_owned).collect())
            .unwrap_or_else(|e| vec![format!("error: {e}")])
    }

    #[test]
    fn index_order_is_the_byte_order_of_index_and_bracket() {
        for n in [0, 1, 2, 9, 10, 11, 99, 100, 101, 1234] {
            let mut expected: Vec<usize> = (0..n).collect();
            expected.sort_by_key(|i| format!("{i}]"));
            assert_eq!(IndexOrder::new(n).collect::<Vec<_>>(), expected, "{n}");
        }
    }

    #[test]
    fn words_counted_first_are_enough() {
        for body in [
            r#"{"a":[1,[2,3],{"b":[],"c":{}},[[[]]],{"d":[4]}],"e":{"f":{"g":1}}}"#,
            r#"{"s":"[{:,\"]}","t":[ "x" , "y" ],"u":{ }}"#,
        ] {
            let counted = count_words(body.as_bytes());
            let Ok(Parsed {
                repr: Repr::Tree(tree),
                ..
            }) = tree_parse(body.as_bytes(), false)
            else {
                panic!("{body}");
            };
            assert_eq!(tree.words.len(), counted, "{body}");
        }
    }

    #[test]
    fn decimal_indexes() {
        let mut v = Vec::new();
        push_decimal(&mut v, 0);
        v.push(b' ');
        push_decimal(&mut v, 1234567);
        v.push(b' ');
        push_decimal(&mut v, usize::MAX);
        assert_eq!(
            String::from_utf8(v).unwrap(),
            format!("0 1234567 {}", usize::MAX)
        );
    }

    #[test]
    fn plain_run_stops_where_a_byte_by_byte_scan_stops() {
        let naive = |s: &[u8]| s.iter().position(|&b| ends_run(b)).unwrap_or(s.len());
        for filler in [b'a', 0x20, 0x7f, 0x80, 0xff, b'!', b'#', b'[', b']'] {
            for len in 0..20usize {
                let mut s = vec![filler; len];
                assert_eq!(plain_run(&s), naive(&s));
                for at in 0..len {
                    for b in 0..=255u8 {
                        s[at] = b;
                        assert_eq!(plain_run(&s), naive(&s), "{s:?}");
                        // A second stop byte after the first one.
                        if let Some(next) = s.get_mut(at + 1) {
                            *next = b'"';
                            assert_eq!(plain_run(&s), naive(&s), "{s:?}");
                            s[at + 1] = filler;
                        }
                    }
                    s[at] = filler;
                }
            }
        }
    }

    #[test]
    fn sorting_by_prefix_then_bytes_is_sorting_by_bytes() {
        // Every string of up to three bytes of an alphabet with 0x00, 0x01 and 0xff...
        let alphabet: &[u8] = &[0, 1, b'a', 0x7f, 0x80, 0xff];
        let mut short: Vec<Vec<u8>> = vec![Vec::new()];
        let mut last: Vec<Vec<u8>> = vec![Vec::new()];
        for _ in 0..3 {
            last = last
                .iter()
                .flat_map(|s| {
                    alphabet.iter().map(move |&b| {
                        let mut t = s.clone();
                        t.push(b);
                        t
                    })
                })
                .collect();
            short.extend(last.iter().cloned());
        }
        // ... and after heads that put those bytes at every position from 4 to 11, on
        // both sides of the eight-byte prefix (zero bytes against its zero padding).
        let mut all = short.clone();
        for head in [
            &b"aaaa"[..],
            b"aaaa\0",
            b"aaaa\0\0\0",
            b"aaaa\0\0\0\0\0",
            b"aaaaaaa\0",
            b"aaaaaaa\x01",
        ] {
            for s in &short {
                let mut t = head.to_vec();
                t.extend_from_slice(s);
                all.push(t);
            }
        }
        for a in &all {
            for b in all.iter().step_by(3) {
                let by_prefix = prefix(a).cmp(&prefix(b)).then_with(|| a.cmp(b));
                assert_eq!(by_prefix, a.cmp(b), "{a:?} {b:?}");
            }
        }
    }

    #[test]
    fn flattening_rules() {
        assert_eq!(
            pairs(r#"{"a":{"b":[{"c":1},{"d":[]}],"e":{}},"n":null,"t":true,"f":false}"#),
            ["a.b[0].c=1", "a.b[1].d=[]", "a.e={}", "t=true", "f=false"]
        );
        assert_eq!(
            pairs(r#"{"x":[[1,2],[]]}"#),
            ["x[0][0]=1", "x[0][1]=2", "x[1]=[]"]
        );
        assert_eq!(pairs(r#" { } "#), Vec::<String>::new());
        assert_eq!(
            pairs(r#"{"s":"a\"b\\c\u00e9\ud83d\ude00\n"}"#),
            ["s=a\"b\\cé😀\n"]
        );
        assert_eq!(pairs(r#"{"n":-0.50e+3}"#), ["n=-0.50e+3"]);
    }

    #[test]
    fn refusals() {
        let err = |s: &str| Flattened::parse(s.as_bytes()).unwrap_err();
        assert_eq!(err("[1]"), CanonicalError::NotAnObject);
        assert_eq!(
            err(r#"{"a":{"b":1,"b":2}}"#),
            CanonicalError::DuplicateKey { path: "a.b".into() }
        );
        assert_eq!(
            err(r#"{"a":1,"a":1}"#),
            CanonicalError::DuplicateKey { path: "a".into() }
        );
        assert!(matches!(err(r#"{"a":01}"#), CanonicalError::Syntax { .. }));
        assert!(matches!(err(r#"{"a":1,}"#), CanonicalError::Syntax { .. }));
        assert!(matches!(
            err(r#"{"a":[1,]}"#),
            CanonicalError::Syntax { .. }
        ));
        assert!(matches!(
            err(r#"{"a":"\ud800"}"#),
            CanonicalError::Syntax { .. }
        ));
        assert!(matches!(
            err("{\"a\":\"\u{1}\"}"),
            CanonicalError::Syntax { .. }
        ));
        assert!(matches!(err(r#"{"a":1} x"#), CanonicalError::Syntax { .. }));
        assert!(matches!(err(r#"{"a":1."#), CanonicalError::Syntax { .. }));
        assert!(matches!(err(r#"{"a":tru}"#), CanonicalError::Syntax { .. }));
        assert_eq!(
            err(r#"{"signature":5}"#),
            CanonicalError::SignatureNotString
        );
        assert_eq!(
            Flattened::parse(b"{\"a\":\"\xff\"}").unwrap_err(),
            CanonicalError::InvalidUtf8 { offset: 6 }
        );
        let deep = format!(
            "{{\"a\":{}1{}}}",
            "[".repeat(MAX_DEPTH),
            "]".repeat(MAX_DEPTH)
        );
        assert_eq!(err(&deep), CanonicalError::TooDeep { max: MAX_DEPTH });
        let ok = format!(
            "{{\"a\":{}1{}}}",
            "[".repeat(MAX_DEPTH - 1),
            "]".repeat(MAX_DEPTH - 1)
        );
        assert!(Flattened::parse(ok.as_bytes()).is_ok());
        // Truncated input at every length never panics and never succeeds.
        let full = r#"{"a":[{"b":"c\u00e9"},1.5e3,true,null],"d":{}}"#;
        for cut in 0..full.len() {
            assert!(
                Flattened::parse(&full.as_bytes()[..cut]).is_err(),
                "cut {cut}"
            );
        }
    }

    #[test]
    fn invalid_utf8_is_reported_first_wherever_it_is() {
        let err = |b: &[u8]| Flattened::parse(b).unwrap_err();
        let bad = |offset| CanonicalError::InvalidUtf8 { offset };
        // In a key, in a value after an escape, outside strings, after a syntax error,
        // a truncated sequence at the end.
        assert_eq!(err(b"{\"\xc3\":1}"), bad(2));
        assert_eq!(err(b"{\"a\":\"\\n\xe4\xb8\"}"), bad(8));
        assert_eq!(err(b"{\xff}"), bad(1));
        assert_eq!(err(b"{\"a\":1,,\"b\":\"\xff\"}"), bad(13));
        assert_eq!(err(b"{\"a\":\"\xe5\xbc"), bad(6));
        assert!(Flattened::parse("{\"\u{5f20}\":\"\u{10ffff}\"}".as_bytes()).is_ok());
    }

    #[test]
    fn duplicate_keys_of_every_length_and_spelling() {
        // Keys of lengths 0 to 19 (shorter and longer than the eight-byte sort prefix),
        // differing in the first, middle or last byte, written raw or with escapes:
        // every two equal ones are refused, no two different ones.
        let mut keys: Vec<String> = Vec::new();
        for len in 0..20usize {
            let base: String = (0..len).map(|i| char::from(b'a' + (i % 7) as u8)).collect();
            keys.push(base.clone());
            for at in [0, len / 2, len.saturating_sub(1)] {
                if at < len {
                    let mut k = base.clone().into_bytes();
                    k[at] = b'Z';
                    keys.push(String::from_utf8(k).unwrap());
                }
            }
        }
        keys.sort();
        keys.dedup();
        let escaped = |k: &str| {
            k.chars()
                .map(|c| format!("\\u{:04x}", c as u32))
                .collect::<String>()
        };
        let all: Vec<String> = keys.iter().map(|k| format!("\"{k}\":1")).collect();
        assert!(Flattened::parse(format!("{{{}}}", all.join(",")).as_bytes()).is_ok());
        for k in &keys {
            for (a, b) in [(k.clone(), k.clone()), (k.clone(), escaped(k))] {
                let body = format!("{{\"x\":{{{},\"{b}\":2}}}}", all.join(","));
                assert_eq!(
                    Flattened::parse(body.as_bytes()).unwrap_err(),
                    CanonicalError::DuplicateKey {
                        path: format!("x.{a}")
                    },
                    "{body}"
                );
            }
        }
    }

    #[test]
    fn keys_that_differ_only_in_the_middle_are_distinct() {
        // Same first and last eight bytes and length: once keys a weak hash mixed up.
        let keys: Vec<String> = (0..2000)
            .map(|i| format!("\"aaaaaaaa{i:08}zzzzzzzz\":1"))
            .collect();
        let body = format!("{{{}}}", keys.join(","));
        assert_eq!(Flattened::parse(body.as_bytes()).unwrap().len(), 2000);
        let repeated = format!("{{{},\"aaaaaaaa00001234zzzzzzzz\":2}}", keys.join(","));
        assert_eq!(
            Flattened::parse(repeated.as_bytes()).unwrap_err(),
            CanonicalError::DuplicateKey {
                path: "aaaaaaaa00001234zzzzzzzz".into()
            }
        );
    }

    #[test]
    fn the_first_repeat_in_the_document_is_reported() {
        let err = |s: &str| Flattened::parse(s.as_bytes()).unwrap_err();
        // `b` repeats before `a` does, although `a` sorts first.
        assert_eq!(
            err(r#"{"x":{"b":1,"a":1,"b":2,"a":2}}"#),
            CanonicalError::DuplicateKey { path: "x.b".into() }
        );
        assert_eq!(
            err(r#"{"a":1,"b":1,"c":1,"b":2,"a":2,"b":3}"#),
            CanonicalError::DuplicateKey { path: "b".into() }
        );
        // Inner objects are checked before the object around them ends.
        assert_eq!(
            err(r#"{"a":1,"a":{"c":1,"c":1}}"#),
            CanonicalError::DuplicateKey { path: "a.c".into() }
        );
        // The same key in sibling objects is no repeat.
        assert!(Flattened::parse(br#"{"a":{"k":1},"b":{"k":1},"c":[{"k":1},{"k":1}]}"#).is_ok());
    }

    #[test]
    fn pairs_much_longer_than_the_body_are_refused() {
        let body = |key_len: usize, elements: usize| {
            format!(
                "{{\"{}\":[{}]}}",
                "k".repeat(key_len),
                vec!["1"; elements].join(",")
            )
        };
        // 64 KiB of elements under a 1 KiB key: 32 MiB of pairs. Refused where the
        // pairs outgrow the bytes read, after about 100 elements, not at the end.
        let long = body(1024, 32 * 1024);
        match Flattened::parse(long.as_bytes()) {
            Err(CanonicalError::TooLarge { offset }) => {
                assert!((1024..1024 + 2 * 200).contains(&offset), "{offset}")
            }
            other => panic!("{other:?}"),
        }
        // Short keys above as many elements, and a long key above few, are fine.
        assert!(Flattened::parse(body(8, 32 * 1024).as_bytes()).is_ok());
        assert!(Flattened::parse(body(1024, 16).as_bytes()).is_ok());
        // Values nested as deep as allowed, side by side, stay well under the limit.
        let deep = format!(
            "{}1{}",
            "[".repeat(MAX_DEPTH - 2),
            "]".repeat(MAX_DEPTH - 2)
        );
        let wide = format!("{{\"a\":[{}]}}", vec![deep; 1000].join(","));
        assert!(Flattened::parse(wide.as_bytes()).is_ok());
    }

    fn refused_by(json: &str) -> Option<(String, Ambiguity)> {
        match Flattened::parse_unambiguous(json.as_bytes()) {
            Ok(_) => None,
            Err(CanonicalError::Ambiguous { path, rule }) => Some((path, rule)),
            Err(other) => panic!("{json}: {other}"),
        }
    }

    #[test]
    fn recut_rules() {
        let r = |path: &str, rule| Some((path.to_owned(), rule));
        // R1, at every depth, with the key as written (escapes unescaped).
        for bad in ["a&b", "a=b", "a.b", "a[0]", "a]", "[", ""] {
            let body = format!(r#"{{"x":[{{"{bad}":1}}]}}"#);
            assert_eq!(
                refused_by(&body),
                r(&format!("x[0].{bad}"), Ambiguity::Key),
                "{body}"
            );
            assert_eq!(
                refused_by(&format!(r#"{{"{bad}":{{}}}}"#)),
                r(bad, Ambiguity::Key)
            );
        }
        assert_eq!(
            refused_by(r#"{"data\u002ex":1}"#),
            r("data.x", Ambiguity::Key)
        );
        // R2: a null element; a null member reads as absent and is accepted here (the
        // signers refuse it: see `sign::sign`).
        assert_eq!(refused_by(r#"{"a":null}"#), None);
        assert_eq!(
            Flattened::parse_unambiguous(br#"{"a":{"b":null}}"#)
                .ok()
                .and_then(|f| f.first_null_path().map(str::to_owned))
                .as_deref(),
            Some("a.b")
        );
        assert_eq!(
            refused_by(r#"{"a":{"b":[1,null]}}"#),
            r("a.b[1]", Ambiguity::Null)
        );
        // R3.
        for bad in [
            "x&data.result[1].amount=9",
            "a&b=c",
            "Tom & Jerry = x",
            "&b=",
            "a&&b=",
            "&a[0][12].b=",
            "&\u{e9}=",
        ] {
            let body = serde_json::json!({ "p": { "v": bad } }).to_string();
            assert_eq!(
                refused_by(&body),
                r("p.v", Ambiguity::ValueReadsAsPair),
                "{bad}"
            );
        }
        assert_eq!(
            refused_by(r#"{"v":"a\u0026b\u003dc"}"#),
            r("v", Ambiguity::ValueReadsAsPair)
        );
        for fine in [
            "Tom & Jerry",
            "a&b",
            "a=b&c",
            "&=x",
            "&a.=",
            "&a..b=",
            "&a[]=",
            "&a[1]b=",
            "&a[x]=",
            "&.a=",
            "&[0]=",
            "a&b&c",
            "&",
        ] {
            let body = serde_json::json!({ "v": fine, "w": [fine] }).to_string();
            assert_eq!(refused_by(&body), None, "{fine}");
        }
        // R4 at the top only.
        assert_eq!(
            refused_by(r#"{"senderKey":"k"}"#),
            r("senderKey", Ambiguity::SenderKey)
        );
        assert_eq!(refused_by(r#"{"a":{"senderKey":"k"}}"#), None);
        // The first breach in the document; the signature is not a pair.
        assert_eq!(
            refused_by(r#"{"a":[null],"b&":1}"#),
            r("a[0]", Ambiguity::Null)
        );
        assert_eq!(
            refused_by(r#"{"a":{"x":1,"x":2,"y":[null]}}"#),
            r("a.y[0]", Ambiguity::Null)
        );
        assert_eq!(refused_by(r#"{"signature":"a&b=c","v":1}"#), None);
        let f = Flattened::parse_unambiguous(br#"{"signature":null,"v":1}"#).unwrap();
        assert!(f.has_signature_key() && f.signature().is_none());
        // `parse` keeps reading all of them.
        for body in [r#"{"a.b":null,"senderKey":"x&y=z"}"#, r#"{"":[null]}"#] {
            assert!(Flattened::parse(body.as_bytes()).is_ok());
        }
        let e = Flattened::parse_unambiguous(br#"{"a":{"b":[null]}}"#).unwrap_err();
        assert_eq!(
            e.to_string(),
            format!("refused by rule R2 at `a.b[0]`: {}", Ambiguity::Null)
        );
    }

    /// The tree's walk gives the arena's sorted pairs (the complete pair strings sorted
    /// by bytes) on every body the tree reads: keys of bytes around the separators
    /// (`-`, `/`, digits, `:`, `;`, `<`, `>`, `]`, `&`, non-ASCII, escapes, empty),
    /// arrays long enough for `[10]`, objects and arrays nested, nulls, repeated keys.
    mod tree_against_arena {
        use super::*;
        use proptest::prelude::*;

        fn key() -> impl Strategy<Value = String> {
            prop::collection::vec(
                prop::sample::select(vec![
                    "a", "b", "-", "/", "0", "9", ":", ";", "<", ">", "]", "&", "\u{e9}",
                    "\\u0061", "\\u00e9", "\\/", "Z", "s",
                ]),
                0..4,
            )
            .prop_map(|parts| parts.concat())
        }

        fn value() -> impl Strategy<Value = String> {
            let leaf = prop_oneof![
                Just("1".to_owned()),
                Just("-0.50e+3".to_owned()),
                Just("true".to_owned()),
                Just("null".to_owned()),
                Just("{}".to_owned()),
                Just("[]".to_owned()),
                Just(r#""x&y=z""#.to_owned()),
                Just(r#""\u00e9\n""#.to_owned()),
            ];
            leaf.prop_recursive(4, 64, 24, |inner| {
                prop_oneof![
                    prop::collection::vec(inner.clone(), 0..24)
                        .prop_map(|items| format!("[{}]", items.join(","))),
                    prop::collection::vec((key(), inner), 0..6).prop_map(|members| {
                        let members: Vec<String> = members
                            .into_iter()
                            .map(|(k, v)| format!("\"{k}\":{v}"))
                            .collect();
                        format!("{{{}}}", members.join(","))
                    }),
                ]
            })
        }

        fn body() -> impl Strategy<Value = String> {
            prop::collection::vec(
                (
                    prop_oneof![
                        4 => key(),
                        1 => Just("senderKex".to_owned()),
                        1 => Just("senderKey0".to_owned()),
                        1 => Just("sender".to_owned()),
                        1 => Just("signature".to_owned()),
                    ],
                    value(),
                ),
                0..6,
            )
            .prop_map(|members| {
                let members: Vec<String> = members
                    .into_iter()
                    .map(|(k, v)| {
                        let v = if k == "signature" {
                            "\"00\"".to_owned()
                        } else {
                            v
                        };
                        format!("\"{k}\":{v}")
                    })
                    .collect();
                format!("{{{}}}", members.join(","))
            })
        }

        fn canonical(parsed: &Parsed, input: &[u8], key: &PrivateKey) -> Vec<u8> {
            let mut out = Exposing(Vec::new());
            parsed.emit(input, key, &mut out);
            out.0
        }

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(2000))]

            #[test]
            fn same_canonical_string_and_errors(body in body()) {
                let input = body.as_bytes();
                let key = PrivateKey::new("k&e=y");
                let arena = arena_parse(input);
                match tree_parse(input, false) {
                    Ok(tree) => {
                        prop_assert!(matches!(tree.repr, Repr::Tree(_)));
                        let (arena, meta) = arena.unwrap();
                        let arena = Parsed { repr: Repr::Arena(arena), meta };
                        let (ours, theirs) =
                            (canonical(&tree, input, &key), canonical(&arena, input, &key));
                        prop_assert_eq!(
                            String::from_utf8_lossy(&ours),
                            String::from_utf8_lossy(&theirs),
                            "{}", body
                        );
                        prop_assert_eq!(tree.digest(input, &key), arena.digest(input, &key));
                        prop_assert_eq!(tree.meta.pairs, arena.meta.pairs);
                        prop_assert_eq!(&tree.meta.signature, &arena.meta.signature);
                        prop_assert_eq!(&tree.meta.first_null, &arena.meta.first_null);
                        // The words grown from none give the same string.
                        for capacity in [0, 1] {
                            let Ok(small) = tree_parse_sized(input, false, capacity) else {
                                prop_assert!(false, "{}", body);
                                continue;
                            };
                            prop_assert_eq!(&canonical(&small, input, &key), &ours);
                        }
                    }
                    Err(Stop::Error(e)) => prop_assert_eq!(Err(e), arena.map(|_| ()), "{}", body),
                    Err(Stop::NeedsArena) => prop_assert!(false, "{}", body),
                }
            }
        }
    }

    #[test]
    fn signature_is_kept_apart() {
        let f = Flattened::parse(br#"{"a":{"signature":"x"},"signature":"abc"}"#).unwrap();
        assert_eq!(f.signature(), Some("abc"));
        assert_eq!(f.pairs().collect::<Vec<_>>(), ["a.signature=x"]);
        let f = Flattened::parse(br#"{"signature":null,"b":1}"#).unwrap();
        assert_eq!(f.signature(), None);
        assert_eq!(f.first_null_path(), None);
        assert_eq!(f.pairs().collect::<Vec<_>>(), ["b=1"]);
    }
}
