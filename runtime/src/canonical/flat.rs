//! The one-pass flattener of the signers and verifiers (issue 24: a call costs what the
//! network costs).
//!
//! One pass over the body writes every pair's text (`path=value`, strings unescaped,
//! numbers as their literal text) back to back into one buffer and records where each
//! pair is. Each object, as it ends, sorts its members by `key + separator` (with the
//! first sixteen bytes of that as one integer, see [`prefix`]) and moves its pairs'
//! records into that order; each array of more than ten elements moves its elements'
//! into the order of `index + "]"`. At the end the records are the canonical order (the
//! argument is the tree's, see the comment above `tree::KIND`), and the digest gathers
//! the pairs into one buffer and hashes it, `senderKey=<key>` hashed in its place
//! without being copied anywhere. Every string of the body is read once.
//!
//! This pass takes only what needs no judgement: a body of plain keys (no escape, none
//! that a re-cut rule refuses, no top-level `senderKey`), no repeated key, no `null`
//! element, a top-level `signature` that is a string without escape or `null`, within
//! the limits on size, depth and expansion. Anything else returns `None`, and the
//! careful parser (`tree`, then `arena`) reads the body and gives the same answer or
//! the error it always gave. Tests check both agree on every body they generate.

use super::limits::{EXPANSION_ALLOWANCE, MAX_DEPTH};
use super::members::{self, Member};
use super::rules::reads_as_pair_after_ampersand;
use super::scan::{bytes_equal, escape, plain_run_ascii, push_decimal, run_ascii, Tokens};
use super::SENDER_KEY;
use crate::secret::PrivateKey;

/// A body read by the one pass: the pairs in canonical order, and what the envelope
/// reads of the body without a second parse.
pub(super) struct Flat {
    /// The pairs' texts, in document order, back to back.
    text: Vec<u8>,
    /// `(start, end)` of each pair in `text`, in canonical order once read.
    pairs: Vec<(u32, u32)>,
    /// The number of pairs that sort before `senderKey=<key>`.
    sender_at: usize,
    /// Where the top-level `signature`'s text is in the body.
    pub(super) signature: Option<(usize, usize)>,
    pub(super) has_signature_key: bool,
    /// Path of the first `null` member (an element is never read here).
    pub(super) first_null: Option<String>,
    /// The top-level members: `[key start, key end, value start, value end]` in the body.
    top: Vec<[u32; 4]>,
    /// The members of the open objects (a stack).
    members: Vec<Member>,
    /// `(first pair, end pair)` of the elements of the open arrays (a stack).
    elements: Vec<(u32, u32)>,
    /// Path of the value being read.
    path: Vec<u8>,
    /// Pair records being moved into order.
    spare: Vec<(u32, u32)>,
}

/// What a value turned out to be, for its member's separator.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// A scalar, `{}` or `[]`: one pair.
    Pair,
    /// `null`: no pair.
    Null,
    Object,
    Array,
}

impl Kind {
    fn separator(self) -> u8 {
        match self {
            Kind::Object => b'.',
            Kind::Array => b'[',
            Kind::Pair | Kind::Null => b'=',
        }
    }
}

thread_local! {
    /// The buffers of the previous body read on this thread.
    static KEPT: std::cell::RefCell<Option<Box<Flat>>> = const { std::cell::RefCell::new(None) };
}

/// Largest text kept between bodies, in bytes.
const KEEP_TEXT: usize = 64 * 1024;

/// Bodies up to this size are read in one pass: every request the client signs and the
/// answers of most calls. Larger ones (pages of records) are read by the careful parser,
/// whose memory stays within twice the body and whose time grows linearly whatever the
/// body's shape (`tests/flatten_memory.rs`, `tests/hostile_input.rs`, which start at
/// this size); the one pass writes the pairs' text out, and below this size whatever a
/// body does costs a bounded amount.
const ONE_PASS_UP_TO: usize = 8 * 1024;

impl Flat {
    fn new() -> Flat {
        Flat {
            text: Vec::with_capacity(1024),
            pairs: Vec::with_capacity(64),
            sender_at: 0,
            signature: None,
            has_signature_key: false,
            first_null: None,
            top: Vec::with_capacity(16),
            members: Vec::with_capacity(32),
            elements: Vec::new(),
            path: Vec::with_capacity(64),
            spare: Vec::with_capacity(64),
        }
    }

    /// Reads `body` in one pass, or `None` when the careful parser must (see the
    /// module's doc).
    pub(super) fn read(body: &[u8]) -> Option<Box<Flat>> {
        if body.len() > ONE_PASS_UP_TO {
            return None;
        }
        let mut flat = KEPT
            .try_with(|kept| kept.borrow_mut().take())
            .ok()
            .flatten()
            .unwrap_or_else(|| Box::new(Flat::new()));
        flat.clear();
        let read = Reader {
            input: body,
            pos: 0,
            flat: &mut flat,
        }
        .body();
        if read.is_some() {
            Some(flat)
        } else {
            flat.keep();
            None
        }
    }

    fn clear(&mut self) {
        self.text.clear();
        self.pairs.clear();
        self.sender_at = 0;
        self.signature = None;
        self.has_signature_key = false;
        self.first_null = None;
        self.top.clear();
        self.members.clear();
        self.elements.clear();
        self.path.clear();
    }

    /// Keeps the buffers for the thread's next body, when small.
    pub(super) fn keep(self: Box<Self>) {
        if self.text.capacity() <= KEEP_TEXT {
            let _ = KEPT.try_with(|kept| *kept.borrow_mut() = Some(self));
        }
    }

    /// Number of pairs, without `senderKey`.
    #[cfg(test)]
    pub(super) fn len(&self) -> usize {
        self.pairs.len()
    }

    /// The text of the top-level members named `names`, as in the body.
    pub(super) fn top_members<'a, const N: usize>(
        &self,
        input: &'a [u8],
        names: [&str; N],
    ) -> [Option<&'a [u8]>; N] {
        let mut found = [None; N];
        for &[key_start, key_end, start, end] in &self.top {
            let key = input.get(key_start as usize..key_end as usize);
            if let Some(slot) = names
                .iter()
                .position(|name| key == Some(name.as_bytes()))
                .and_then(|n| found.get_mut(n))
            {
                *slot = input.get(start as usize..end as usize);
            }
        }
        found
    }

    /// SHA-256 of the canonical string with `senderKey=<key>` in its place: the pairs
    /// before it joined in one buffer and hashed, then `senderKey=`, the key, and the
    /// pairs after it (the key is never copied).
    pub(super) fn digest(&self, key: &PrivateKey) -> [u8; 32] {
        members::digest(&self.text, &self.pairs, self.sender_at, key)
    }
}

struct Reader<'i, 'f> {
    input: &'i [u8],
    pos: usize,
    flat: &'f mut Flat,
}

impl Tokens for Reader<'_, '_> {
    fn input(&self) -> &[u8] {
        self.input
    }

    fn pos(&mut self) -> &mut usize {
        &mut self.pos
    }
}

impl Reader<'_, '_> {
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

    /// Leaves to the careful parser a body whose pairs' text has grown past
    /// [`EXPANSION_ALLOWANCE`]: a body the careful parser refuses for its expansion is
    /// over that at the same point or before (it refuses past `32 x read + allowance`),
    /// and what the one pass holds stays within a few hundred KiB whatever the body.
    fn within_budget(&self) -> Option<()> {
        (self.flat.text.len() <= EXPANSION_ALLOWANCE).then_some(())
    }

    /// After a member or an element: `,` (true: another follows) or `close` (false).
    fn next_or_close(&mut self, close: u8) -> Option<bool> {
        self.skip_ws();
        let more = match self.peek()? {
            b',' => true,
            b if b == close => false,
            _ => return None,
        };
        self.pos += 1;
        Some(more)
    }

    /// A plain key at `pos` (its quote): its start and end in the body.
    fn key(&mut self) -> Option<(usize, usize)> {
        let start = self.pos + 1;
        let (len, ascii) = plain_run_ascii(self.input.get(start..).unwrap_or_default());
        let end = start + len;
        if self.input.get(end) != Some(&b'"') || len == 0 || !utf8(self.input, start, end, ascii) {
            return None;
        }
        if holds_refused_key_byte(self.input, start, end) {
            return None;
        }
        self.pos = end + 1;
        Some((start, end))
    }

    /// The members of an object whose `{` has been read and which is not empty.
    fn object(&mut self, depth: usize, top: bool) -> Option<()> {
        let mark = self.flat.members.len();
        let first_pair = self.flat.pairs.len();
        loop {
            self.skip_ws();
            if self.peek() != Some(b'"') {
                return None;
            }
            let (key_start, key_end) = self.key()?;
            let key = self.input.get(key_start..key_end).unwrap_or_default();
            self.skip_ws();
            if self.peek() != Some(b':') {
                return None;
            }
            self.pos += 1;
            self.skip_ws();
            let first = self.flat.pairs.len() as u32;
            let value_start = self.pos;
            let kind = if top && key == b"signature" {
                self.signature()?;
                Kind::Null
            } else {
                if top && key == SENDER_KEY.as_bytes() {
                    return None;
                }
                let base = self.flat.path.len();
                if !top {
                    self.flat.path.push(b'.');
                }
                self.flat.path.extend_from_slice(key);
                let kind = self.value(depth)?;
                if kind == Kind::Null && self.flat.first_null.is_none() {
                    self.flat.first_null = Some(String::from_utf8_lossy(&self.flat.path).into());
                }
                self.flat.path.truncate(base);
                kind
            };
            if top {
                self.flat.top.push([
                    key_start as u32,
                    key_end as u32,
                    value_start as u32,
                    self.pos as u32,
                ]);
            }
            self.flat.members.push(Member::new(
                self.input,
                (key_start, key_end),
                kind.separator(),
                (first, self.flat.pairs.len() as u32),
            ));
            self.within_budget()?;
            if !self.next_or_close(b'}')? {
                break;
            }
        }
        let flat = &mut *self.flat;
        let before = members::order(
            self.input,
            flat.members.get_mut(mark..).unwrap_or_default(),
            flat.pairs.get_mut(first_pair..).unwrap_or_default(),
            &mut flat.spare,
            top,
        )?;
        if top {
            flat.sender_at = first_pair + before;
        }
        flat.members.truncate(mark);
        Some(())
    }

    /// The top-level `signature`: a string without escape (kept apart) or `null`.
    fn signature(&mut self) -> Option<()> {
        self.flat.has_signature_key = true;
        if self.keyword(b"null").is_ok() {
            return Some(());
        }
        if self.peek() != Some(b'"') {
            return None;
        }
        let start = self.pos + 1;
        let (len, ascii) = plain_run_ascii(self.input.get(start..).unwrap_or_default());
        let end = start + len;
        if self.input.get(end) != Some(&b'"') || !utf8(self.input, start, end, ascii) {
            return None;
        }
        self.flat.signature = Some((start, end));
        self.pos = end + 1;
        Some(())
    }

    /// A value at `pos`: its pairs written, and its kind.
    fn value(&mut self, depth: usize) -> Option<Kind> {
        let start = self.flat.text.len();
        match self.peek()? {
            open @ (b'{' | b'[') => {
                // Deeper than the limit even when empty, as the careful parser counts (the
                // one check of depth: objects and arrays are only entered from here).
                if depth + 1 > MAX_DEPTH {
                    return None;
                }
                self.pos += 1;
                self.skip_ws();
                let close = if open == b'{' { b'}' } else { b']' };
                if self.peek() == Some(close) {
                    self.pos += 1;
                    return Some(self.pair(start, if open == b'{' { b"{}" } else { b"[]" }));
                }
                if open == b'{' {
                    self.object(depth + 1, false)?;
                    Some(Kind::Object)
                } else {
                    self.array(depth + 1)?;
                    Some(Kind::Array)
                }
            }
            b'"' => {
                let flat = &mut *self.flat;
                flat.text.extend_from_slice(&flat.path);
                flat.text.push(b'=');
                let value_start = flat.text.len();
                let ampersand = string_value(self.input, &mut self.pos, &mut flat.text)?;
                let value = flat.text.get(value_start..).unwrap_or_default();
                if ampersand && reads_as_pair_after_ampersand(value) {
                    return None;
                }
                flat.pairs.push((start as u32, flat.text.len() as u32));
                Some(Kind::Pair)
            }
            b't' => {
                self.keyword(b"true").ok()?;
                Some(self.pair(start, b"true"))
            }
            b'f' => {
                self.keyword(b"false").ok()?;
                Some(self.pair(start, b"false"))
            }
            b'n' => {
                self.keyword(b"null").ok()?;
                Some(Kind::Null)
            }
            b'-' | b'0'..=b'9' => {
                let begin = self.pos;
                self.number().ok()?;
                let literal = self.input.get(begin..self.pos).unwrap_or_default();
                Some(self.pair(start, literal))
            }
            _ => None,
        }
    }

    /// The pair `path=value` (its text starting at `start`).
    fn pair(&mut self, start: usize, value: &[u8]) -> Kind {
        let flat = &mut *self.flat;
        flat.text.extend_from_slice(&flat.path);
        flat.text.push(b'=');
        flat.text.extend_from_slice(value);
        flat.pairs.push((start as u32, flat.text.len() as u32));
        Kind::Pair
    }

    /// The elements of an array whose `[` has been read and which is not empty.
    fn array(&mut self, depth: usize) -> Option<()> {
        let base = self.flat.path.len();
        let mark = self.flat.elements.len();
        let first_pair = self.flat.pairs.len();
        let mut index = 0usize;
        loop {
            self.flat.path.push(b'[');
            push_decimal(&mut self.flat.path, index);
            self.flat.path.push(b']');
            self.skip_ws();
            let first = self.flat.pairs.len() as u32;
            if self.value(depth)? == Kind::Null {
                return None;
            }
            self.flat
                .elements
                .push((first, self.flat.pairs.len() as u32));
            self.within_budget()?;
            self.flat.path.truncate(base);
            index += 1;
            if !self.next_or_close(b']')? {
                break;
            }
        }
        let flat = &mut *self.flat;
        members::order_elements(
            flat.elements.get(mark..).unwrap_or_default(),
            flat.pairs.get_mut(first_pair..).unwrap_or_default(),
            &mut flat.spare,
        );
        flat.elements.truncate(mark);
        Some(())
    }
}

/// The run `input[start..end]` of a string is UTF-8 (checked only when not ASCII).
fn utf8(input: &[u8], start: usize, end: usize, ascii: bool) -> bool {
    ascii || std::str::from_utf8(input.get(start..end).unwrap_or_default()).is_ok()
}

/// True when the key `input[start..end]` holds a byte rule R1 refuses in a key (`&`,
/// `=`, `.`, `[`, `]`), eight bytes at a time: the last word read from the body and the
/// bytes after the key masked off (no copy into a word, whose load would wait on it).
fn holds_refused_key_byte(input: &[u8], start: usize, end: usize) -> bool {
    let refused = |v: u64| {
        bytes_equal(v, b'&')
            | bytes_equal(v, b'=')
            | bytes_equal(v, b'.')
            | bytes_equal(v, b'[')
            | bytes_equal(v, b']')
            != 0
    };
    let word = |at: usize| {
        input.get(at..at + 8).map(|bytes| {
            let mut word = [0u8; 8];
            word.copy_from_slice(bytes);
            u64::from_le_bytes(word)
        })
    };
    let mut at = start;
    while at < end {
        let left = end - at;
        match word(at) {
            Some(v) if left >= 8 => {
                if refused(v) {
                    return true;
                }
            }
            // The zero bytes put in place of those after the key are none of those.
            Some(v) => return refused(v & (u64::MAX >> (64 - 8 * left))),
            None => {
                return input
                    .get(at..end)
                    .unwrap_or_default()
                    .iter()
                    .any(|&b| matches!(b, b'&' | b'=' | b'.' | b'[' | b']'))
            }
        }
        at += 8;
    }
    false
}

/// Reads the JSON string at `*pos` (its quote), checking its UTF-8, and writes its unescaped text to `out`; whether the text holds `&`. `None` for a string
/// that is no JSON (a raw control character, a bad escape, no closing quote).
fn string_value(input: &[u8], pos: &mut usize, out: &mut Vec<u8>) -> Option<bool> {
    *pos += 1;
    let mut ampersand = false;
    loop {
        let start = *pos;
        let (len, ascii) = run_ascii::<true>(input.get(start..).unwrap_or_default());
        *pos += len;
        if !utf8(input, start, *pos, ascii) {
            return None;
        }
        out.extend_from_slice(input.get(start..*pos).unwrap_or_default());
        match input.get(*pos)? {
            b'"' => {
                *pos += 1;
                return Some(ampersand);
            }
            b'&' => {
                ampersand = true;
                out.push(b'&');
                *pos += 1;
            }
            b'\\' => {
                *pos += 1;
                let (bytes, len) = escape(input, pos).ok()?;
                let text = bytes.get(..len).unwrap_or_default();
                ampersand = ampersand || text.contains(&b'&');
                out.extend_from_slice(text);
            }
            _ => return None,
        }
    }
}
