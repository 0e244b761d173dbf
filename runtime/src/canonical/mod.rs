//! The canonical string of the signing algorithm, computed from JSON *bytes*.
//!
//! The Authentication section of the API document flattens a message to `path=value`
//! pairs: object keys joined with `.`, array elements as `path[i]`, an empty object as
//! `path={}`, an empty array as `path=[]`, nulls skipped, the top-level `signature`
//! left out. The pair `senderKey=<key>` is added, the complete pair strings are sorted
//! by bytes, joined with `&` and hashed with plain SHA-256.
//!
//! This module does that from the received or serialized bytes, without a JSON tree of
//! owned strings. The careful parser does not write the pairs out: it records one `u32` per
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
//! longest path and the longest string holding `&`; the one pass, which writes the
//! pairs out, holds a body above 8 KiB to twice its size (its text to the body's size,
//! the rest to half of it) and a smaller one to 64 KiB of pairs, and leaves a body that
//! needs more to the careful parser.
//!
//! Bodies up to 4 KiB that need no judgement at all (plain ASCII keys, strings without
//! escape, no null, short arrays: a query's answer, most requests) are read by a lean one
//! pass (`compact`) that keeps what `flat` keeps for them with less bookkeeping; any other
//! body goes on as follows.
//!
//! The signers and verifiers of the runtime read bodies in one pass (`flat`): each
//! pair's text written once and each object's pairs put in order as it ends; a body
//! that pass does not take (needing judgement: escaped or refused keys, repeats, null
//! elements, limits; or more memory than it allows itself) is read by the careful
//! parser below, which gives the answer or the error.
//!
//! The parts, by what they do: `scan` the tokenizer (strings, escapes, numbers)
//! the parsers share; `limits` the bounds on depth, size and expansion; `rules` the
//! re-cut rules on bytes; `flat` the one-pass reader; `members` the canonical order of
//! one object's members and one array's elements, and the digest of pairs in that
//! order (the one pass and `direct`, the serializer that signs as it writes, share
//! it); `tree` the careful parser of signers and verifiers (one word per member or
//! element); `order` the canonical order of keys and indexes and the search for
//! repeated keys; `walk` the writer that streams the canonical string into SHA-256;
//! `arena` the parser that writes every pair out (diagnosis, and the reference the
//! tree is tested against).

mod arena;
mod compact;
mod data;
#[cfg(test)]
mod data_tests;
mod direct;
mod error;
mod flat;
#[cfg(test)]
mod flat_tests;
mod limits;
mod members;
mod nulls;
mod order;
mod rules;
mod scan;
mod short;
mod spare;
#[cfg(test)]
mod tests;
mod tree;
mod walk;

use std::fmt;

pub(crate) use direct::{serialize_signed, sign_request_envelope, RequestHead};
pub use error::{Ambiguity, CanonicalError};
pub use limits::{EXPANSION_ALLOWANCE, MAX_BODY, MAX_DEPTH, MAX_EXPANSION};

use crate::secret::PrivateKey;
use arena::{arena_parse, slice, Arena};
use compact::Compact;
pub(crate) use compact::ENVELOPE_MEMBERS;
use flat::Flat;
use rules::is_sender_key_pair;
use tree::{tree_parse, Tree};
use walk::{Emit, Exposing, Hashing, Redacting};

/// The name of the pair that carries the key in the canonical string.
pub const SENDER_KEY: &str = "senderKey";

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
    /// The body.
    input: Box<[u8]>,
    parsed: Parsed,
    /// The pairs in document order, written out on the first call of
    /// [`Flattened::pairs`] (a [`Repr::Tree`] writes no pair text otherwise).
    document_pairs: std::sync::OnceLock<Arena>,
}

/// A body read in place, for the signers and verifiers of this crate (which are done
/// with the body within one call): no copy of the body. Read in one pass when it can
/// be ([`Flat`]), by the careful parser otherwise.
pub(crate) struct Borrowed<'a> {
    input: &'a [u8],
    /// The body as text, when the lean pass read it (it checked it is UTF-8 once).
    text: Option<&'a str>,
    how: How,
}

enum How {
    /// A small body read by the lean pass. Always `Some` but while the reader is
    /// dropped (its buffers go back to the thread).
    Compact(Option<Box<Compact>>),
    /// Always `Some` but while the reader is dropped (its buffers go back to the
    /// thread).
    Flat(Option<Box<Flat>>),
    Parsed(Parsed),
}

impl Drop for Borrowed<'_> {
    fn drop(&mut self) {
        match &mut self.how {
            How::Compact(compact) => {
                if let Some(compact) = compact.take() {
                    compact.keep();
                }
            }
            How::Flat(flat) => {
                if let Some(flat) = flat.take() {
                    flat.keep();
                }
            }
            How::Parsed(parsed) => {
                if let Repr::Tree(tree) = &mut parsed.repr {
                    spare::keep_words(std::mem::take(&mut tree.words));
                }
            }
        }
    }
}

impl<'a> Borrowed<'a> {
    /// [`Flattened::parse_unambiguous`], in place.
    pub(crate) fn parse_unambiguous(body: &'a [u8]) -> Result<Borrowed<'a>, CanonicalError> {
        // A small body is checked to be UTF-8 as a whole, once, for the lean pass.
        let text = (body.len() <= compact::COMPACT_MAX)
            .then(|| std::str::from_utf8(body).ok())
            .flatten();
        let how = match text.and_then(Compact::read_text) {
            Some(compact) => How::Compact(Some(compact)),
            None => match Flat::read(body) {
                Some(flat) => How::Flat(Some(flat)),
                None => How::Parsed(parse_with(body, true)?),
            },
        };
        let text = text.filter(|_| matches!(how, How::Compact(_)));
        Ok(Borrowed {
            input: body,
            text,
            how,
        })
    }

    /// True when the body was read in one pass (tests).
    #[cfg(test)]
    pub(crate) fn read_in_one_pass(&self) -> bool {
        matches!(self.how, How::Flat(_) | How::Compact(_))
    }

    /// See [`Flattened::signature`].
    pub(crate) fn signature(&self) -> Option<&str> {
        let span = match &self.how {
            How::Compact(compact) => compact.as_ref().and_then(|c| c.signature),
            How::Flat(flat) => flat.as_ref().and_then(|flat| flat.signature),
            How::Parsed(parsed) => return parsed.meta.signature(self.input),
        };
        span.and_then(|(start, end)| self.input.get(start..end))
            .and_then(|text| std::str::from_utf8(text).ok())
    }

    /// The bytes of [`Borrowed::signature`] (read by a one pass: as in the body,
    /// whose UTF-8 the pass checked; no second check to compare them).
    pub(crate) fn signature_bytes(&self) -> Option<&[u8]> {
        let span = match &self.how {
            How::Compact(compact) => compact.as_ref().and_then(|c| c.signature),
            How::Flat(flat) => flat.as_ref().and_then(|flat| flat.signature),
            How::Parsed(parsed) => return parsed.meta.signature(self.input).map(str::as_bytes),
        };
        span.and_then(|(start, end)| self.input.get(start..end))
    }

    /// See [`Flattened::first_null_path`].
    pub(crate) fn first_null_path(&self) -> Option<&str> {
        match &self.how {
            // The lean pass takes no body with a null.
            How::Compact(_) => None,
            How::Flat(flat) => flat.as_ref().and_then(|flat| flat.first_null.as_deref()),
            How::Parsed(parsed) => parsed.meta.first_null.as_deref(),
        }
    }

    /// Calls `each` with the path of every `null` member, in document order (none when
    /// the parse met no null: nothing is walked). See [`Flattened::null_member_paths`].
    pub(crate) fn for_each_null_member(&self, each: impl FnMut(&str)) {
        if self.first_null_path().is_some() {
            nulls::for_each_null_member(self.input, each);
        }
    }

    /// For the client's own requests: the body, refused when it holds a `null` anywhere
    /// (the SDK never sends one; R2). Signing tools skip null members instead.
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
        match &self.how {
            How::Compact(compact) => compact.as_ref().is_some_and(|c| c.has_signature_key),
            How::Flat(flat) => flat.as_ref().is_some_and(|flat| flat.has_signature_key),
            How::Parsed(parsed) => parsed.meta.has_signature_key,
        }
    }

    /// The raw JSON text of the top-level members named `names`, from the parse (no
    /// second parse of the body): for each name, the value's text as it is in the
    /// body, or `None` when there is no such member. Keys are compared unescaped.
    pub(crate) fn top_members<const N: usize>(&self, names: [&str; N]) -> [Option<&'a [u8]>; N] {
        let parsed = match &self.how {
            How::Compact(Some(compact)) => return compact.top_members(self.input, names),
            How::Flat(Some(flat)) => return flat.top_members(self.input, names),
            How::Compact(None) | How::Flat(None) => return [None; N],
            How::Parsed(parsed) => parsed,
        };
        let mut found = [None; N];
        let Repr::Tree(tree) = &parsed.repr else {
            return found;
        };
        let input = self.input;
        for quote in tree.top_keys() {
            let raw = order::raw_key(input, quote);
            let is = |name: &str| match raw {
                Some(raw) => raw == name.as_bytes(),
                None => order::KeyBytes::new(input, quote, None).eq(name.bytes()),
            };
            let Some(slot) = names
                .iter()
                .position(|&name| is(name))
                .and_then(|n| found.get_mut(n))
            else {
                continue;
            };
            let mut start = match raw {
                Some(raw) => quote + raw.len() + 2,
                None => scan::string_end(input, quote),
            };
            while let Some(b' ' | b'\t' | b'\n' | b'\r' | b':') = input.get(start) {
                start += 1;
            }
            *slot = input.get(start..scan::value_end(input, start));
        }
        found
    }

    /// The values' texts of the top-level members named [`ENVELOPE_MEMBERS`] (as in the
    /// body, which is UTF-8), when the body was read by the lean pass for small bodies:
    /// its keys have no escape, and its strings none either (a string value's text is
    /// its value between quotes). `None` otherwise: use [`Borrowed::top_members`].
    pub(crate) fn plain_envelope_members(&self) -> Option<[Option<&'a str>; 6]> {
        match (&self.how, self.text) {
            (How::Compact(Some(compact)), Some(text)) => Some(compact.envelope_members(text)),
            _ => None,
        }
    }

    /// The top-level `data` member, whose text is `text`, decoded as `T` from what the
    /// lean pass for small bodies read of it; `None` when the body was read otherwise,
    /// `data` is not an object or the decoding is left to the caller's `serde_json`
    /// over `text` (which then gives the result or the error it always gave).
    pub(crate) fn decode_data<T: serde::de::DeserializeOwned>(&self, text: &str) -> Option<T> {
        match &self.how {
            How::Compact(Some(compact)) => compact.decode_data(self.input, text),
            _ => None,
        }
    }

    /// See [`Flattened::digest`].
    pub(crate) fn digest(&self, key: &PrivateKey) -> [u8; 32] {
        match &self.how {
            How::Compact(compact) => compact.as_ref().map_or([0; 32], |c| c.digest(key)),
            How::Flat(flat) => flat.as_ref().map_or([0; 32], |flat| flat.digest(key)),
            How::Parsed(parsed) => parsed.digest(self.input, key),
        }
    }

    /// See [`Flattened::signature_hex`].
    pub(crate) fn signature_hex(&self, key: &PrivateKey) -> String {
        hex_text(self.digest(key))
    }

    /// [`Borrowed::signature_hex`] on the stack (no allocation): lowercase ASCII hex.
    pub(crate) fn signature_hex_bytes(&self, key: &PrivateKey) -> [u8; 64] {
        hex_bytes(self.digest(key))
    }
}

/// Lowercase hex of a digest, as ASCII bytes.
fn hex_bytes(digest: [u8; 32]) -> [u8; 64] {
    crate::sign::digest_hex(&digest)
}

/// Lowercase hex of a digest.
fn hex_text(digest: [u8; 32]) -> String {
    std::str::from_utf8(&hex_bytes(digest))
        .unwrap_or_default()
        .to_owned()
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

impl fmt::Debug for Flattened {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Flattened")
            .field("pairs", &self.pairs().collect::<Vec<_>>())
            .field("signature", &self.signature())
            .finish()
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
    ///   here (the service's document gives some answer fields as `null`, every
    ///   decoder reads one as absent, and the document skips nulls when signing): the
    ///   signing functions sign such a body and warn about each null member
    ///   ([`Flattened::null_member_paths`]); only the client's own requests refuse
    ///   any `null` (the SDK never sends one);
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
        Ok(Flattened {
            input: body.into(),
            parsed,
            document_pairs: std::sync::OnceLock::new(),
        })
    }

    /// The top-level `signature` value, if the body has one (a `null` counts as none).
    pub fn signature(&self) -> Option<&str> {
        self.parsed.meta.signature(&self.input)
    }

    /// True when the body has a top-level `signature` key, even with a `null` value.
    pub fn has_signature_key(&self) -> bool {
        self.parsed.meta.has_signature_key
    }

    /// Path of the first `null` value met (nulls are skipped by the algorithm, and the
    /// runtime never sends one; [`Flattened::parse_unambiguous`] refuses a null array
    /// element).
    pub fn first_null_path(&self) -> Option<&str> {
        self.parsed.meta.first_null.as_deref()
    }

    /// The paths of every `null` member, in document order (`data.extra`,
    /// `params.orders[0].note`; the top-level `signature` is not a member). The API
    /// document skips nulls when signing, so the signature holds with or without them:
    /// signing tools sign such a body and warn about each path (issue 34 item 10). Empty
    /// when the body has none (the body is walked again only when it has one).
    pub fn null_member_paths(&self) -> Vec<String> {
        let mut paths = Vec::new();
        if self.first_null_path().is_some() {
            nulls::for_each_null_member(&self.input, |path| paths.push(path.to_owned()));
        }
        paths
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

/// What a parse found besides the pairs.
#[derive(Clone, Default)]
struct Meta {
    /// Number of pairs.
    pairs: usize,
    /// The top-level `signature`'s text when it has an escape (or was read by an
    /// arena, which keeps no body).
    signature: Option<String>,
    /// Where the top-level `signature`'s text is in the body, when it has no escape.
    signature_in_body: Option<(usize, usize)>,
    has_signature_key: bool,
    first_null: Option<String>,
}

impl Meta {
    /// The top-level `signature` of `input`, the body this was parsed from.
    fn signature<'a>(&'a self, input: &'a [u8]) -> Option<&'a str> {
        match (&self.signature, self.signature_in_body) {
            (Some(text), _) => Some(text),
            (None, Some((start, end))) => input
                .get(start..end)
                .and_then(|text| std::str::from_utf8(text).ok()),
            (None, None) => None,
        }
    }
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
