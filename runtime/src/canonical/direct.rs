//! Signing while serializing: the canonical pairs of a value the runtime serializes
//! itself, collected in the same pass that writes its JSON, so that a request is not
//! parsed back from the bytes just written (issue 24: work done twice).
//!
//! Every scalar is written to the JSON text and, from the same value, to its pair
//! `path=value`: a string's pair holds the string itself (its JSON text is the same
//! string escaped, which reads back to it), a number's or a boolean's the very bytes
//! written. So the bytes signed are the bytes sent, as when they are parsed back. The
//! JSON written is `serde_json`'s compact text, byte for byte (strings and numbers are
//! written by `serde_json` itself).
//!
//! Only what needs no judgement is taken this way: objects (structs, maps with string
//! keys), arrays, strings, integers and booleans, with keys and strings the re-cut
//! rules accept (R1 and R3, checked here as the parse checks them). Anything else (a
//! `null`, a float, a key or value a re-cut rule refuses, a repeated key, a top-level
//! `signature` or `senderKey`, a raw JSON value, an enum with data, a depth or size past
//! the limits) returns `None`, and the caller serializes and parses as before, which
//! signs it or refuses it with the error it always gave.

use serde::ser::{self, Serialize};

use super::limits::{over_budget, MAX_BODY, MAX_DEPTH};
use super::members::{self, Member, Shapes};
use super::rules::{is_key_byte, reads_as_pair_after_ampersand};
use super::scan::{plain_run, push_decimal, run_ascii};
use super::SENDER_KEY;
use crate::secret::PrivateKey;

/// The JSON text of `value` (as `serde_json::to_writer` writes it) and the SHA-256 of
/// its canonical string with `key`, or `None` when `value` is not one this pass takes
/// (see the module's doc): then serialize it and parse it back.
pub(crate) fn serialize_signed<T: Serialize + ?Sized>(
    value: &T,
    key: &PrivateKey,
) -> Option<(Vec<u8>, [u8; 32])> {
    let mut direct = Direct::take();
    direct.out = Vec::with_capacity(512);
    let taken = value.serialize(&mut *direct).is_ok()
        && direct.out.len() <= MAX_BODY
        && !over_budget(direct.out.len(), direct.pairs.len());
    let out = std::mem::take(&mut direct.out);
    let digest = taken.then(|| digest(&mut direct, key));
    direct.keep();
    Some((out, digest?))
}

/// Largest buffers kept between calls.
const KEEP_BYTES: usize = 16 * 1024;

thread_local! {
    /// The buffers of the previous call on this thread (none is in use between calls).
    /// Boxed: taking and keeping them moves a pointer, not the buffers' headers.
    static SCRATCH: std::cell::RefCell<Option<Box<Direct>>> = const { std::cell::RefCell::new(None) };
}

/// The digest of the pairs collected in `direct` with `key` (in canonical order: each
/// object and array put its own in order as it closed).
fn digest(direct: &mut Direct, key: &PrivateKey) -> [u8; 32] {
    members::digest(&direct.pairs, &direct.spans, direct.sender_at, key)
}

/// The value is not one this pass takes (see the module's doc).
#[derive(Debug)]
pub(crate) struct Unsupported;

impl std::fmt::Display for Unsupported {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("not serialized with its pairs")
    }
}

impl std::error::Error for Unsupported {}

impl ser::Error for Unsupported {
    fn custom<M: std::fmt::Display>(_: M) -> Unsupported {
        Unsupported
    }
}

type Result<T = ()> = std::result::Result<T, Unsupported>;

struct Direct {
    /// The JSON text.
    out: Vec<u8>,
    /// The pairs' text, one after the other, and where each is (in canonical order
    /// within each closed object and array).
    pairs: Vec<u8>,
    spans: Vec<(u32, u32)>,
    /// The path of the value being written.
    path: Vec<u8>,
    /// The members of the open objects (their keys' text in `key_text`), and the
    /// `(first, end)` spans of the elements of the open arrays.
    members: Vec<Member>,
    elements: Vec<(u32, u32)>,
    key_text: Vec<u8>,
    /// The number of pairs that sort before `senderKey=`.
    sender_at: usize,
    /// Spans being moved into order.
    spare: Vec<(u32, u32)>,
    /// The order of objects of a few shapes written before (the envelope, the params of
    /// the operations called most).
    shapes: Shapes,
    /// Open objects and arrays.
    depth: usize,
    /// The text of a value written by `collect_str`.
    scratch: Vec<u8>,
}

impl Direct {
    /// The buffers of this thread's previous call (or new ones), emptied.
    fn take() -> Box<Direct> {
        let mut direct = SCRATCH
            .try_with(|kept| kept.borrow_mut().take())
            .ok()
            .flatten()
            .unwrap_or_else(|| {
                Box::new(Direct {
                    out: Vec::new(),
                    pairs: Vec::with_capacity(512),
                    spans: Vec::with_capacity(32),
                    path: Vec::with_capacity(64),
                    members: Vec::with_capacity(16),
                    elements: Vec::new(),
                    key_text: Vec::with_capacity(256),
                    sender_at: 0,
                    spare: Vec::with_capacity(32),
                    shapes: Shapes::default(),
                    depth: 0,
                    scratch: Vec::new(),
                })
            });
        direct.clear();
        direct
    }

    /// Keeps the buffers for the thread's next call, when small.
    fn keep(mut self: Box<Self>) {
        if self.pairs.capacity() <= KEEP_BYTES && self.key_text.capacity() <= KEEP_BYTES {
            self.clear();
            let _ = SCRATCH.try_with(|kept| *kept.borrow_mut() = Some(self));
        }
    }

    /// Empties every buffer (keeping its memory).
    fn clear(&mut self) {
        self.out.clear();
        self.pairs.clear();
        self.spans.clear();
        self.path.clear();
        self.members.clear();
        self.elements.clear();
        self.key_text.clear();
        self.sender_at = 0;
        self.depth = 0;
        self.scratch.clear();
    }

    /// The pair of the scalar whose text is `value`.
    fn pair(&mut self, value: &[u8]) -> Result {
        push_pair(
            &mut self.pairs,
            &mut self.spans,
            &self.path,
            self.depth,
            value,
        )?;
        self.within_budget()
    }

    /// Stops as soon as the pairs outgrow the text written as the parse would
    /// ([`MAX_EXPANSION`](super::MAX_EXPANSION)): a long key over many values is not
    /// written out at the pairs' full length first.
    fn within_budget(&self) -> Result {
        if over_budget(self.out.len(), self.pairs.len()) {
            return Err(Unsupported);
        }
        Ok(())
    }

    /// Writes a number or boolean with `serde_json` and makes its text the pair's value.
    fn literal<T: Serialize>(&mut self, value: T) -> Result {
        let start = self.out.len();
        value
            .serialize(&mut serde_json::Serializer::new(&mut self.out))
            .map_err(|_| Unsupported)?;
        let written = self.out.get(start..).unwrap_or_default();
        push_pair(
            &mut self.pairs,
            &mut self.spans,
            &self.path,
            self.depth,
            written,
        )?;
        self.within_budget()
    }

    fn string(&mut self, value: &str) -> Result {
        let bytes = value.as_bytes();
        // One scan for both what JSON escapes and `&`: most strings have neither and are
        // written between quotes as they are.
        if run_ascii::<true>(bytes).0 == bytes.len() {
            self.out.reserve(bytes.len() + 2);
            self.out.push(b'"');
            self.out.extend_from_slice(bytes);
            self.out.push(b'"');
            return self.pair(bytes);
        }
        if value.contains('&') && reads_as_pair_after_ampersand(bytes) {
            // Rule R3 refuses it: the parse says where.
            return Err(Unsupported);
        }
        write_str(&mut self.out, value)?;
        self.pair(bytes)
    }

    /// Opens an object or array: `{` or `[`.
    fn open(&mut self, bracket: u8, object: bool) -> Result<Compound<'_>> {
        if self.depth >= MAX_DEPTH || (self.depth == 0 && !object) {
            return Err(Unsupported);
        }
        self.depth += 1;
        self.out.push(bracket);
        Ok(Compound {
            base: self.path.len(),
            members_from: self.members.len(),
            elements_from: self.elements.len(),
            key_text_from: self.key_text.len(),
            first_span: self.spans.len(),
            member: None,
            count: 0,
            object,
            d: self,
        })
    }
}

/// Appends the pair `path=value` (a scalar at `depth`; at depth 0 it would be the
/// whole body, which is no object).
fn push_pair(
    pairs: &mut Vec<u8>,
    spans: &mut Vec<(u32, u32)>,
    path: &[u8],
    depth: usize,
    value: &[u8],
) -> Result {
    if depth == 0 {
        return Err(Unsupported);
    }
    let start = pairs.len();
    pairs.extend_from_slice(path);
    pairs.push(b'=');
    pairs.extend_from_slice(value);
    // Spans are `u32`: a text past that is left to the parse (which refuses it).
    let (Ok(start), Ok(end)) = (u32::try_from(start), u32::try_from(pairs.len())) else {
        return Err(Unsupported);
    };
    spans.push((start, end));
    Ok(())
}

/// Writes `value` as a JSON string, as `serde_json` writes it: a string with no byte it
/// escapes (`"`, `\\`, a control character), found eight bytes at a time, is copied
/// between quotes; any other is written by `serde_json` itself.
fn write_str(out: &mut Vec<u8>, value: &str) -> Result {
    let bytes = value.as_bytes();
    if plain_run(bytes) == bytes.len() {
        out.reserve(bytes.len() + 2);
        out.push(b'"');
        out.extend_from_slice(bytes);
        out.push(b'"');
        return Ok(());
    }
    ser::Serializer::serialize_str(&mut serde_json::Serializer::new(out), value)
        .map_err(|_| Unsupported)
}

/// An object or array being written.
struct Compound<'a> {
    d: &'a mut Direct,
    /// The path's length before this container's members.
    base: usize,
    members_from: usize,
    elements_from: usize,
    key_text_from: usize,
    /// The first span of this container's pairs.
    first_span: usize,
    /// The member whose value is being written: its key in `key_text`, and the
    /// path's length with the key.
    member: Option<((usize, usize), usize)>,
    count: usize,
    object: bool,
}

impl Compound<'_> {
    fn comma(&mut self) {
        if self.count > 0 {
            self.d.out.push(b',');
        }
        self.count += 1;
    }

    /// Starts the member `key`: the key written, the path extended, the key kept to
    /// find a repeat.
    fn member_key(&mut self, key: &str) -> Result {
        let bytes = key.as_bytes();
        let top = self.d.depth == 1;
        // R1, R4 and the signature: the parse decides.
        if bytes.is_empty()
            || !bytes.iter().all(|&b| is_key_byte(b))
            || (top && (key == SENDER_KEY || key == "signature"))
        {
            return Err(Unsupported);
        }
        self.comma();
        let d = &mut *self.d;
        let at = d.key_text.len();
        d.key_text.extend_from_slice(bytes);
        let end = d.key_text.len();
        // Sixteen bytes after the key, so that its sort prefix is read as two words
        // (see `members::prefix`; the padding is no key).
        d.key_text.extend_from_slice(&[0; 16]);
        write_str(&mut d.out, key)?;
        d.out.push(b':');
        if !top {
            d.path.push(b'.');
        }
        d.path.extend_from_slice(bytes);
        self.member = Some(((at, end), d.path.len()));
        Ok(())
    }

    /// A member's value (after [`Compound::member_key`]), or an element's.
    fn value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result {
        let first = self.d.spans.len();
        value.serialize(&mut *self.d)?;
        let d = &mut *self.d;
        d.path.truncate(self.base);
        let span = |i: usize| d.spans.get(i).map(|&(start, end)| (start, end));
        let end = d.spans.len();
        let (Ok(first32), Ok(end32)) = (u32::try_from(first), u32::try_from(end)) else {
            return Err(Unsupported);
        };
        match self.member.take() {
            Some((key, path_len)) => {
                // The separator after the key in its pairs: `=` for a scalar, `.` for an
                // object, `[` for an array (every value taken here has a pair).
                let (start, _) = span(first).ok_or(Unsupported)?;
                let sep = *d.pairs.get(start as usize + path_len).ok_or(Unsupported)?;
                d.members
                    .push(Member::new(&d.key_text, key, sep, (first32, end32)));
            }
            None => d.elements.push((first32, end32)),
        }
        Ok(())
    }

    fn element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result {
        let index = self.count;
        self.comma();
        let d = &mut *self.d;
        d.path.push(b'[');
        push_decimal(&mut d.path, index);
        d.path.push(b']');
        self.member = None;
        self.value(value)
    }

    fn close(self) -> Result {
        let Compound {
            d,
            base,
            members_from,
            elements_from,
            key_text_from,
            first_span,
            count,
            object,
            ..
        } = self;
        d.out.push(if object { b'}' } else { b']' });
        d.depth -= 1;
        let spans = d.spans.get_mut(first_span..).unwrap_or_default();
        if object {
            // A repeated key: the parse says where.
            let before = members::order(
                &d.key_text,
                d.members.get_mut(members_from..).unwrap_or_default(),
                spans,
                &mut d.spare,
                d.depth == 0,
                Some(&mut d.shapes),
            )
            .ok_or(Unsupported)?;
            if d.depth == 0 {
                d.sender_at = before;
            }
        } else {
            members::order_elements(
                d.elements.get(elements_from..).unwrap_or_default(),
                spans,
                &mut d.spare,
            );
        }
        d.members.truncate(members_from);
        d.elements.truncate(elements_from);
        d.key_text.truncate(key_text_from);
        if count == 0 && d.depth > 0 {
            d.path.truncate(base);
            d.pair(if object { b"{}" } else { b"[]" })?;
        }
        Ok(())
    }
}

mod envelope;
mod serializer;

#[cfg(test)]
pub(crate) use envelope::serialize_request_signed;
pub(crate) use envelope::{sign_request_envelope, RequestHead};

#[cfg(test)]
#[path = "direct_tests.rs"]
mod tests;
