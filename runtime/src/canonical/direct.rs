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
use super::rules::{is_key_byte, reads_as_pair_after_ampersand};
use super::scan::{push_decimal, Out};
use super::walk::{Emit, Hashing};
use super::SENDER_KEY;
use crate::secret::PrivateKey;

/// The JSON text of `value` (as `serde_json::to_writer` writes it) and the SHA-256 of
/// its canonical string with `key`, or `None` when `value` is not one this pass takes
/// (see the module's doc): then serialize it and parse it back.
pub(crate) fn serialize_signed<T: Serialize + ?Sized>(
    value: &T,
    key: &PrivateKey,
) -> Option<(Vec<u8>, [u8; 32])> {
    let mut direct = SCRATCH
        .try_with(|kept| kept.borrow_mut().take())
        .ok()
        .flatten()
        .unwrap_or_else(|| Direct {
            out: Vec::new(),
            pairs: Vec::with_capacity(512),
            spans: Vec::with_capacity(32),
            path: Vec::with_capacity(64),
            keys: Vec::with_capacity(16),
            key_text: Vec::with_capacity(256),
            depth: 0,
            scratch: Vec::new(),
        });
    direct.clear();
    direct.out = Vec::with_capacity(512);
    let taken = value.serialize(&mut direct).is_ok()
        && direct.out.len() <= MAX_BODY
        && !over_budget(direct.out.len(), direct.pairs.len());
    let out = std::mem::take(&mut direct.out);
    let digest = taken.then(|| digest(&mut direct, key));
    // The buffers are kept for the thread's next request, when small.
    if direct.pairs.capacity() <= KEEP_BYTES && direct.key_text.capacity() <= KEEP_BYTES {
        direct.clear();
        let _ = SCRATCH.try_with(|kept| *kept.borrow_mut() = Some(direct));
    }
    Some((out, digest?))
}

/// Largest buffers kept between calls.
const KEEP_BYTES: usize = 16 * 1024;

thread_local! {
    /// The buffers of the previous call on this thread (none is in use between calls).
    static SCRATCH: std::cell::RefCell<Option<Direct>> = const { std::cell::RefCell::new(None) };
}

/// The digest of the pairs collected in `direct` with `key`.
fn digest(direct: &mut Direct, key: &PrivateKey) -> [u8; 32] {
    let Direct { pairs, spans, .. } = direct;
    let text = |&(start, end): &(usize, usize)| pairs.get(start..end).unwrap_or_default();
    // The complete pairs in byte order: the algorithm itself. Their paths differ (no
    // key repeats in an object, none holds `.`, `[`, `=`), so no two pairs are equal.
    spans.sort_unstable_by(|a, b| text(a).cmp(text(b)));
    let mut hashing = Hashing::new();
    let mut sender_done = false;
    let mut first = true;
    for span in spans.iter() {
        let pair = text(span);
        if !sender_done && sorts_after_sender_key(pair) {
            put_sender_key(&mut hashing, key, &mut first);
            sender_done = true;
        }
        if !first {
            hashing.put(b"&");
        }
        first = false;
        hashing.put(pair);
    }
    if !sender_done {
        put_sender_key(&mut hashing, key, &mut first);
    }
    hashing.finish()
}

/// `pair` sorts after `senderKey=<key>`, whatever the key: no pair of a value taken
/// here starts with `senderKey=` (a top-level `senderKey` is not taken), so the two
/// differ within `senderKey=`, or the pair is a prefix of it and sorts first.
fn sorts_after_sender_key(pair: &[u8]) -> bool {
    pair > b"senderKey=".as_slice()
}

fn put_sender_key(hashing: &mut Hashing, key: &PrivateKey, first: &mut bool) {
    if !*first {
        hashing.put(b"&");
    }
    *first = false;
    hashing.put(SENDER_KEY.as_bytes());
    hashing.put(b"=");
    hashing.sender_key(key);
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
    /// The pairs' text, one after the other, and where each is.
    pairs: Vec<u8>,
    spans: Vec<(usize, usize)>,
    /// The path of the value being written.
    path: Vec<u8>,
    /// The keys of the open objects (their text in `key_text`), to find a repeat.
    keys: Vec<Key>,
    key_text: Vec<u8>,
    /// Open objects and arrays.
    depth: usize,
    /// The text of a value written by `collect_str`.
    scratch: Vec<u8>,
}

impl Direct {
    /// Empties every buffer (keeping its memory).
    fn clear(&mut self) {
        self.out.clear();
        self.pairs.clear();
        self.spans.clear();
        self.path.clear();
        self.keys.clear();
        self.key_text.clear();
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
        if value.contains('&') && reads_as_pair_after_ampersand(value.as_bytes()) {
            // Rule R3 refuses it: the parse says where.
            return Err(Unsupported);
        }
        write_str(&mut self.out, value)?;
        self.pair(value.as_bytes())
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
            keys_from: self.keys.len(),
            key_text_from: self.key_text.len(),
            count: 0,
            object,
            d: self,
        })
    }
}

/// A key of an open object.
#[derive(Clone, Copy)]
struct Key {
    /// Where its text is in `key_text`, and its length.
    at: usize,
    len: usize,
    /// Its first eight bytes (zero-padded), compared before the text.
    head: u64,
}

fn head_of(key: &[u8]) -> u64 {
    let mut head = [0u8; 8];
    for (slot, &b) in head.iter_mut().zip(key) {
        *slot = b;
    }
    u64::from_le_bytes(head)
}

/// Appends the pair `path=value` (a scalar at `depth`; at depth 0 it would be the
/// whole body, which is no object).
fn push_pair(
    pairs: &mut Vec<u8>,
    spans: &mut Vec<(usize, usize)>,
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
    spans.push((start, pairs.len()));
    Ok(())
}

fn write_str(out: &mut Vec<u8>, value: &str) -> Result {
    ser::Serializer::serialize_str(&mut serde_json::Serializer::new(out), value)
        .map_err(|_| Unsupported)
}

/// An object or array being written.
struct Compound<'a> {
    d: &'a mut Direct,
    /// The path's length before this container's members.
    base: usize,
    keys_from: usize,
    key_text_from: usize,
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
        d.keys.push(Key {
            at,
            len: bytes.len(),
            head: head_of(bytes),
        });
        write_str(&mut d.out, key)?;
        d.out.push(b':');
        if !top {
            d.path.push(b'.');
        }
        d.path.extend_from_slice(bytes);
        Ok(())
    }

    fn value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result {
        value.serialize(&mut *self.d)?;
        self.d.path.truncate(self.base);
        Ok(())
    }

    fn element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result {
        let index = self.count;
        self.comma();
        let d = &mut *self.d;
        d.path.push(b'[');
        push_decimal(&mut d.path, index);
        d.path.push(b']');
        self.value(value)
    }

    fn close(self) -> Result {
        let Compound {
            d,
            base,
            keys_from,
            key_text_from,
            count,
            object,
        } = self;
        d.out.push(if object { b'}' } else { b']' });
        d.depth -= 1;
        let keys = d.keys.get(keys_from..).unwrap_or_default();
        let text = |k: &Key| d.key_text.get(k.at..k.at + k.len);
        // Keys compared by their first bytes and length first: most never further.
        let same = |a: &Key, b: &Key| a.head == b.head && a.len == b.len && text(a) == text(b);
        let repeated = if keys.len() <= 32 {
            keys.iter()
                .enumerate()
                .any(|(i, a)| keys.iter().skip(i + 1).any(|b| same(a, b)))
        } else {
            let mut sorted = keys.to_vec();
            sorted.sort_unstable_by(|a, b| text(a).cmp(&text(b)));
            sorted.windows(2).any(|w| match w {
                [a, b] => same(a, b),
                _ => false,
            })
        };
        if repeated {
            return Err(Unsupported);
        }
        d.keys.truncate(keys_from);
        d.key_text.truncate(key_text_from);
        if count == 0 && d.depth > 0 {
            d.path.truncate(base);
            d.pair(if object { b"{}" } else { b"[]" })?;
        }
        Ok(())
    }
}

mod serializer;

#[cfg(test)]
#[path = "direct_tests.rs"]
mod tests;
