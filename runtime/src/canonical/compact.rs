//! The lean one pass for small bodies (issue 36 item 4: the call's own work within 2x
//! its floor). A query's answer is a few hundred bytes; the general one pass (`flat`)
//! spends most of its time there on what such a body never needs (blocks of array
//! elements, budgets that grow with the body, escapes, nulls, keys to unescape).
//!
//! This reader takes only bodies up to [`COMPACT_MAX`] bytes whose keys are plain ASCII
//! (no escape, no byte rule R1 refuses), whose strings hold no escape, with no `null`
//! anywhere but a top-level `"signature":null`, no array of more than ten elements (so
//! an array's elements are in canonical order as they come) and no top-level
//! `senderKey`; anything else returns `None` at the first byte that needs judgement,
//! and the general one pass (then the careful parser) reads the body and gives the
//! answer or the error it always gave. What it keeps is what `flat` keeps for such a
//! body: every pair's text (`path=value`) back to back, a record per pair, each
//! object's members put in canonical order as it ends (`members::order`, with the
//! orders of the shapes seen before), and the digest gathered from the records
//! (`members::digest`). `flat_tests.rs` checks it against the careful parser on every
//! body its properties generate.
//!
//! Each key and string is scanned once, eight bytes at a time, for every byte that ends
//! it or needs judgement (`"`, `\\`, a control character, and in a key a non-ASCII byte
//! or `&`, `=`, `.`, `[`, `]`; in a string the `&` of rule R3 is noted on the way).
//! Memory: at most [`EXPANSION_ALLOWANCE`] bytes of text, in buffers kept for the
//! thread's next body.

use std::cell::RefCell;

use super::limits::{EXPANSION_ALLOWANCE, MAX_DEPTH};
use super::members::{self, Member, Shapes};
use super::rules::reads_as_pair_after_ampersand;
use super::scan;
use super::short::Written;

mod runs;
use crate::secret::PrivateKey;
pub(crate) use runs::ENVELOPE_MEMBERS;
use runs::{digit_run, envelope_slot, is, key_run, quoted_run, string_run};

/// Largest body this reader takes.
pub(super) const COMPACT_MAX: usize = 4 * 1024;

/// A small body read by the lean pass (see the module's doc).
pub(super) struct Compact {
    /// The pairs' texts, in document order, back to back.
    text: Written,
    /// `(start, end)` of each pair in `text`, in canonical order once read.
    pairs: Vec<(u32, u32)>,
    /// The members of the open objects (a stack).
    members: Vec<Member>,
    /// Pair records being moved into order.
    spare: Vec<(u32, u32)>,
    /// Path of the value being read.
    path: Vec<u8>,
    /// The orders of objects of a few shapes read before on this thread.
    shapes: Shapes,
    /// The number of pairs that sort before `senderKey=<key>`.
    sender_at: usize,
    /// Where the top-level `data` member's value is in the body, when it is an object
    /// (`(start, 0)` while it is being read), and its members (see `data.rs`).
    data_at: Option<(u32, u32)>,
    data: Vec<[u32; 4]>,
    /// Where the values of the top-level members named [`ENVELOPE_MEMBERS`] are.
    envelope: [Option<(u32, u32)>; 6],
    /// Where the top-level `signature`'s text is in the body.
    pub(super) signature: Option<(usize, usize)>,
    pub(super) has_signature_key: bool,
}

thread_local! {
    /// The buffers of the previous body read on this thread.
    static KEPT: RefCell<Option<Box<Compact>>> = const { RefCell::new(None) };
}

impl Compact {
    /// Reads `body` (of any bytes: `None` when it is not UTF-8), or `None` when another
    /// reader must (see the module's doc).
    #[cfg(test)]
    pub(super) fn read(body: &[u8]) -> Option<Box<Compact>> {
        Compact::read_text(std::str::from_utf8(body).ok()?)
    }

    /// Reads `body`, or `None` when another reader must (see the module's doc). The
    /// body is UTF-8 (checked once, as a whole), so no string needs a check of its own.
    pub(super) fn read_text(body: &str) -> Option<Box<Compact>> {
        let body = body.as_bytes();
        if body.len() > COMPACT_MAX {
            return None;
        }
        let mut compact = KEPT
            .try_with(|kept| kept.borrow_mut().take())
            .ok()
            .flatten()
            .unwrap_or_else(|| {
                Box::new(Compact {
                    text: Written::with_room(1024),
                    pairs: Vec::with_capacity(64),
                    members: Vec::with_capacity(32),
                    spare: Vec::with_capacity(64),
                    path: Vec::with_capacity(64),
                    shapes: Shapes::default(),
                    sender_at: 0,
                    data_at: None,
                    data: Vec::with_capacity(16),
                    envelope: [None; 6],
                    signature: None,
                    has_signature_key: false,
                })
            });
        compact.text.clear();
        compact.pairs.clear();
        compact.members.clear();
        compact.path.clear();
        compact.sender_at = 0;
        compact.data_at = None;
        compact.data.clear();
        compact.signature = None;
        compact.has_signature_key = false;
        compact.envelope = [None; 6];
        let read = Reader {
            input: body,
            pos: 0,
            c: &mut compact,
        }
        .body();
        if read.is_some() {
            Some(compact)
        } else {
            compact.keep();
            None
        }
    }

    /// Keeps the buffers for the thread's next body.
    pub(super) fn keep(self: Box<Self>) {
        let _ = KEPT.try_with(|kept| *kept.borrow_mut() = Some(self));
    }

    /// Number of pairs, without `senderKey`.
    #[cfg(test)]
    pub(super) fn len(&self) -> usize {
        self.pairs.len()
    }

    /// The text of the top-level members named `names`, as in the body (which this
    /// pass read: its top level is walked again, keys plain; the opener's members are
    /// noted as they are read, see [`Compact::envelope_members`]).
    pub(super) fn top_members<'a, const N: usize>(
        &self,
        input: &'a [u8],
        names: [&str; N],
    ) -> [Option<&'a [u8]>; N] {
        let mut found = [None; N];
        let skip_ws = |mut at: usize| {
            while let Some(b' ' | b'\t' | b'\n' | b'\r') = input.get(at) {
                at += 1;
            }
            at
        };
        let mut at = skip_ws(skip_ws(0) + 1);
        while input.get(at) == Some(&b'"') {
            let key_end = at + 1 + key_run(input, at + 1);
            let key = input.get(at + 1..key_end);
            let start = skip_ws(skip_ws(key_end + 1) + 1);
            let end = scan::value_end(input, start);
            if let Some(slot) = names
                .iter()
                .position(|name| key == Some(name.as_bytes()))
                .and_then(|n| found.get_mut(n))
            {
                *slot = input.get(start..end);
            }
            at = skip_ws(end);
            if input.get(at) != Some(&b',') {
                break;
            }
            at = skip_ws(at + 1);
        }
        found
    }

    /// The values' texts of the top-level members named [`ENVELOPE_MEMBERS`], as in the
    /// body (found as the pass read their keys).
    pub(super) fn envelope_members<'a>(&self, input: &'a str) -> [Option<&'a str>; 6] {
        self.envelope
            .map(|span| span.and_then(|(start, end)| input.get(start as usize..end as usize)))
    }

    /// The top-level `data` object decoded as `T` from the members the pass delimited,
    /// when `text` is its text; `None` when it is not an object or the decoding is left
    /// to `serde_json` (see `data.rs`).
    pub(super) fn decode_data<T: serde::de::DeserializeOwned>(
        &self,
        input: &[u8],
        text: &str,
    ) -> Option<T> {
        let (start, end) = self.data_at?;
        // `text` is that very part of the body (compared by address: no byte compare).
        let data = input.get(start as usize..end as usize)?;
        if !std::ptr::eq(data, text.as_bytes()) {
            return None;
        }
        super::data::decode(text, &self.data)
    }

    /// SHA-256 of the canonical string with `senderKey=<key>` in its place.
    pub(super) fn digest(&self, key: &PrivateKey) -> [u8; 32] {
        members::digest(self.text.bytes(), &self.pairs, self.sender_at, key)
    }
}

struct Reader<'i, 'c> {
    input: &'i [u8],
    pos: usize,
    c: &'c mut Compact,
}

impl<'i> Reader<'i, '_> {
    #[inline(always)]
    fn peek(&self) -> Option<u8> {
        self.input.get(self.pos).copied()
    }

    #[inline(always)]
    fn skip_ws(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.peek() {
            self.pos += 1;
        }
    }

    /// The byte at `pos` after any whitespace (read once when there is none, as in
    /// compact JSON).
    #[inline(always)]
    fn next_byte(&mut self) -> Option<u8> {
        match self.peek()? {
            b' ' | b'\t' | b'\n' | b'\r' => {
                self.skip_ws();
                self.peek()
            }
            b => Some(b),
        }
    }

    fn body(mut self) -> Option<()> {
        self.skip_ws();
        if self.peek() != Some(b'{') {
            return None;
        }
        self.pos += 1;
        self.skip_ws();
        if self.peek() == Some(b'}') {
            self.pos += 1;
        } else {
            self.object(1, true)?;
        }
        self.skip_ws();
        (self.pos == self.input.len()).then_some(())
    }

    /// A plain key at `pos` (its quote): its start and end in the body.
    #[inline(always)]
    fn key(&mut self) -> Option<(usize, usize)> {
        let start = self.pos + 1;
        let end = start + key_run(self.input, start);
        if end == start || self.input.get(end) != Some(&b'"') {
            return None;
        }
        self.pos = end + 1;
        Some((start, end))
    }

    /// The members of an object whose `{` has been read and which is not empty.
    fn object(&mut self, depth: usize, top: bool) -> Option<()> {
        let mark = self.c.members.len();
        let first_pair = self.c.pairs.len();
        loop {
            if self.next_byte() != Some(b'"') {
                return None;
            }
            let (key_start, key_end) = self.key()?;
            let key = self.input.get(key_start..key_end).unwrap_or_default();
            if self.next_byte() != Some(b':') {
                return None;
            }
            self.pos += 1;
            self.skip_ws();
            let first = self.c.pairs.len() as u32;
            let value_start = self.pos;
            let sep = if top && is(key, b"signature") {
                self.signature()?;
                b'='
            } else {
                if top && is(key, b"senderKey") {
                    return None;
                }
                match self.scalar()? {
                    // A scalar member's pair is written with its key: the path is not
                    // extended for it.
                    Some(text) => self.member_pair(top, key, text)?,
                    None => {
                        let base = self.c.path.len();
                        if !top {
                            self.c.path.push(b'.');
                        }
                        self.c.path.extend_from_slice(key);
                        // The members of the top-level `data` object are kept for
                        // its decoding (`data.rs`).
                        let data = top && key == b"data" && self.peek() == Some(b'{');
                        if data {
                            self.c.data_at = Some((value_start as u32, 0));
                        }
                        let sep = self.container(depth)?;
                        if let Some((_, end)) = self.c.data_at.as_mut().filter(|_| data) {
                            *end = self.pos as u32;
                        }
                        self.c.path.truncate(base);
                        sep
                    }
                }
            };
            if top {
                if let Some(slot) = envelope_slot(key).and_then(|n| self.c.envelope.get_mut(n)) {
                    *slot = Some((value_start as u32, self.pos as u32));
                }
            } else if depth == 2 {
                // A member of `data` (the only object at depth 2 being read while
                // `data_at` is open), relative to `data`'s text.
                if let Some((at, 0)) = self.c.data_at {
                    let at = at as usize;
                    self.c.data.push([
                        (key_start - at) as u32,
                        (key_end - at) as u32,
                        (value_start - at) as u32,
                        (self.pos - at) as u32,
                    ]);
                }
            }
            let pairs = (first, self.c.pairs.len() as u32);
            let member = Member::new(self.input, (key_start, key_end), sep, pairs);
            self.c.members.push(member);
            match self.next_byte()? {
                b',' => self.pos += 1,
                b'}' => {
                    self.pos += 1;
                    break;
                }
                _ => return None,
            }
        }
        let c = &mut *self.c;
        let before = members::order(
            self.input,
            c.members.get_mut(mark..).unwrap_or_default(),
            c.pairs.get_mut(first_pair..).unwrap_or_default(),
            &mut c.spare,
            top,
            Some(&mut c.shapes),
        )?;
        if top {
            c.sender_at = first_pair + before;
        }
        c.members.truncate(mark);
        Some(())
    }

    /// The top-level `signature`: a string without escape (kept apart) or `null`.
    fn signature(&mut self) -> Option<()> {
        self.c.has_signature_key = true;
        if self.input.get(self.pos..self.pos + 4) == Some(b"null") {
            self.pos += 4;
            return Some(());
        }
        if self.peek() != Some(b'"') {
            return None;
        }
        let start = self.pos + 1;
        let len = quoted_run(self.input, start);
        let end = start + len;
        if self.input.get(end) != Some(&b'"') {
            return None;
        }
        self.c.signature = Some((start, end));
        self.pos = end + 1;
        Some(())
    }

    /// A value at `pos`: its pairs written; the separator after its member's key.
    fn value(&mut self, depth: usize) -> Option<u8> {
        match self.scalar()? {
            Some(text) => self.pair(text),
            None => self.container(depth),
        }
    }

    /// The text of the scalar at `pos` (a string's between its quotes), read; `Some(None)`
    /// when the value is an object or an array (not read); `None` when this reader
    /// leaves the body to another.
    #[inline(always)]
    fn scalar(&mut self) -> Option<Option<&'i [u8]>> {
        let input = self.input;
        match self.peek()? {
            b'"' => {
                let start = self.pos + 1;
                let (len, ampersand) = string_run(self.input, start);
                let end = start + len;
                let text = self.input.get(start..end)?;
                if self.input.get(end) != Some(&b'"')
                    || (ampersand && reads_as_pair_after_ampersand(text))
                {
                    return None;
                }
                self.pos = end + 1;
                Some(Some(text))
            }
            b'{' | b'[' => Some(None),
            b't' => self.literal(b"true").map(Some),
            b'f' => self.literal(b"false").map(Some),
            b'-' | b'0'..=b'9' => {
                let start = self.pos;
                self.number()?;
                input.get(start..self.pos).map(Some)
            }
            // `null` (a member the envelope reads as absent, or an element rule R2
            // refuses) and anything else: another reader judges.
            _ => None,
        }
    }

    /// The object or array at `pos`: its pairs written; the separator after its
    /// member's key.
    fn container(&mut self, depth: usize) -> Option<u8> {
        match self.peek()? {
            open @ (b'{' | b'[') => {
                // Deeper than the limit even when empty, as the careful parser counts.
                if depth + 1 > MAX_DEPTH {
                    return None;
                }
                self.pos += 1;
                self.skip_ws();
                let close = if open == b'{' { b'}' } else { b']' };
                if self.peek() == Some(close) {
                    self.pos += 1;
                    return self.pair(if open == b'{' { b"{}" } else { b"[]" });
                }
                if open == b'{' {
                    self.object(depth + 1, false)?;
                    Some(b'.')
                } else {
                    self.array(depth + 1)?;
                    Some(b'[')
                }
            }
            _ => None,
        }
    }

    fn literal(&mut self, word: &'static [u8]) -> Option<&'static [u8]> {
        if self.input.get(self.pos..self.pos + word.len()) != Some(word) {
            return None;
        }
        self.pos += word.len();
        Some(word)
    }

    /// The pair `path.key=value` of a scalar member (`key=value` at the top).
    #[inline(always)]
    fn member_pair(&mut self, top: bool, key: &[u8], value: &[u8]) -> Option<u8> {
        let c = &mut *self.c;
        let start = c.text.len();
        if top {
            c.text.put([key, b"=", value], EXPANSION_ALLOWANCE)?;
        } else {
            c.text
                .put([&c.path, b".", key, b"=", value], EXPANSION_ALLOWANCE)?;
        }
        c.pairs.push((start as u32, c.text.len() as u32));
        Some(b'=')
    }

    /// The pair `path=value`.
    #[inline(always)]
    fn pair(&mut self, value: &[u8]) -> Option<u8> {
        let c = &mut *self.c;
        let start = c.text.len();
        c.text.put([&c.path, b"=", value], EXPANSION_ALLOWANCE)?;
        c.pairs.push((start as u32, c.text.len() as u32));
        Some(b'=')
    }

    /// JSON number grammar: `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`.
    fn number(&mut self) -> Option<()> {
        if self.peek() == Some(b'-') {
            self.pos += 1;
        }
        match self.peek()? {
            b'0' => self.pos += 1,
            b'1'..=b'9' => {
                self.digits();
            }
            _ => return None,
        }
        if self.peek() == Some(b'.') {
            self.pos += 1;
            if self.digits() == 0 {
                return None;
            }
        }
        if let Some(b'e' | b'E') = self.peek() {
            self.pos += 1;
            if let Some(b'+' | b'-') = self.peek() {
                self.pos += 1;
            }
            if self.digits() == 0 {
                return None;
            }
        }
        Some(())
    }

    fn digits(&mut self) -> usize {
        let begin = self.pos;
        self.pos += digit_run(self.input, self.pos);
        self.pos - begin
    }

    /// The elements of an array whose `[` has been read and which is not empty (ten
    /// at most: their order is then the document's).
    fn array(&mut self, depth: usize) -> Option<()> {
        let base = self.c.path.len();
        for index in b'0'..=b'9' {
            self.c.path.extend_from_slice(&[b'[', index, b']']);
            self.skip_ws();
            self.value(depth)?;
            self.c.path.truncate(base);
            match self.next_byte()? {
                b',' => self.pos += 1,
                b']' => {
                    self.pos += 1;
                    return Some(());
                }
                _ => return None,
            }
        }
        None
    }
}
