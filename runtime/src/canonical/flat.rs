//! The one-pass flattener of the signers and verifiers (issue 24: a call costs what the
//! network costs; issue 36: at the same speed per byte whatever the body's size).
//!
//! One pass over the body writes every pair's text (`path=value`, strings unescaped,
//! numbers as their literal text) back to back into one buffer and records where each
//! pair is. Each object, as it ends, sorts its members by `key + separator` (with the
//! first sixteen bytes of that as one integer, see `members::prefix`) and moves its pairs'
//! records into that order; each array of more than ten elements moves its elements'
//! into the order of `index + "]"`. At the end the records are the canonical order (the
//! argument is the tree's, see the comment above `tree::KIND`), and the digest gathers
//! the pairs into one buffer and hashes it, `senderKey=<key>` hashed in its place
//! without being copied anywhere. Every string of the body is read once.
//!
//! The pairs inside an element of an array that is an object or an array (a row of a
//! page) are written without the element's path (`.amount=1.00` for
//! `data.result[7].amount=1.00`); when the element ends, its pairs, now in their order,
//! are gathered into one block after that path, and one record stands for the block
//! (see `text::put_block`). So the text is about as long as the body, and a page of
//! two thousand rows moves two thousand records, not one per pair, into order.
//!
//! This pass takes only what needs no judgement: a body of plain keys (no escape, none
//! that a re-cut rule refuses, no top-level `senderKey`), no repeated key, no `null`
//! element, a top-level `signature` that is a string without escape or `null`, within
//! the limits on size, depth and expansion. Anything else returns `None`, and the
//! careful parser (`tree`, then `arena`) reads the body and gives the same answer or
//! the error it always gave. Tests check both agree on every body they generate.
//!
//! Memory: a body up to [`SMALL`] bytes may have up to 64 KiB of pairs' text (buffers
//! kept for the thread's next body). Above that, the text is given the body's size
//! (plus [`TEXT_SLACK`]) once and never more, and what the pass holds besides it may grow
//! to half the body read so far: a body that needs more (long paths over short values,
//! many keys in one object, a huge element) is left to the careful parser at the point
//! where it goes over, so memory stays within twice the body and time linear
//! (`tests/flatten_memory.rs`, `tests/hostile_input.rs`).

mod text;

use super::limits::{over_budget, EXPANSION_ALLOWANCE, MAX_DEPTH};
use super::members::{self, Member, Shapes};
use super::rules::reads_as_pair_after_ampersand;
use super::scan::{plain_run_ascii, push_decimal, Out, Tokens};
use super::SENDER_KEY;
use crate::secret::PrivateKey;
use text::{holds_refused_key_byte, put_block, put_within, string_value, utf8, BLOCK};

/// A body read by the one pass: the pairs in canonical order, and what the envelope
/// reads of the body without a second parse.
pub(super) struct Flat {
    /// The pairs' texts, in document order, back to back (those of an element of an
    /// array that has ended: its block).
    text: Vec<u8>,
    /// `(start, end)` of each pair in `text`, or of a block (`end | BLOCK`), in canonical
    /// order once read.
    pairs: Vec<(u32, u32)>,
    /// Number of pairs (a block holds several).
    count: usize,
    /// The records of the blocks: for each, `(array, index)` then its pairs' records
    /// in canonical order.
    inner: Vec<(u32, u32)>,
    /// The paths of the arrays whose elements are blocks, back to back, and where each
    /// is (a block names its array by its place here).
    arrays: Vec<u8>,
    array_at: Vec<(u32, u32)>,
    /// Bytes of the pairs written out whole (paths included), for the limit on
    /// expansion.
    pair_bytes: usize,
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
    /// The order of objects of a few shapes read before (kept with the buffers, so the
    /// envelope of every answer is sorted once per thread).
    shapes: Shapes,
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

/// Bodies up to this size (every request the client signs, the answers of most calls)
/// may write up to [`EXPANSION_ALLOWANCE`] bytes of text, in buffers kept for the
/// thread's next body; larger ones are held to their own size (see the module's doc).
pub(super) const SMALL: usize = 8 * 1024;

/// Bytes of text allowed above a large body's size.
pub(super) const TEXT_SLACK: usize = 4 * 1024;

/// Bytes of everything else allowed above half of a large body read so far.
pub(super) const SLACK: usize = 16 * 1024;

impl Flat {
    fn new() -> Flat {
        Flat {
            text: Vec::with_capacity(1024),
            pairs: Vec::with_capacity(64),
            count: 0,
            inner: Vec::new(),
            arrays: Vec::new(),
            array_at: Vec::new(),
            pair_bytes: 0,
            sender_at: 0,
            signature: None,
            has_signature_key: false,
            first_null: None,
            top: Vec::with_capacity(16),
            members: Vec::with_capacity(32),
            elements: Vec::new(),
            path: Vec::with_capacity(64),
            spare: Vec::with_capacity(64),
            shapes: Shapes::default(),
        }
    }

    /// Reads `body` in one pass, or `None` when the careful parser must (see the
    /// module's doc).
    pub(super) fn read(body: &[u8]) -> Option<Box<Flat>> {
        let mut flat = KEPT
            .try_with(|kept| kept.borrow_mut().take())
            .ok()
            .flatten()
            .unwrap_or_else(|| Box::new(Flat::new()));
        flat.clear();
        let large = body.len() > SMALL;
        let text_limit = if large {
            // Once, for the whole body: the text never grows past it.
            flat.text.reserve_exact(body.len() + TEXT_SLACK);
            flat.text.capacity()
        } else {
            usize::MAX
        };
        let read = Reader {
            input: body,
            pos: 0,
            flat: &mut flat,
            large,
            text_limit,
            relative: 0,
            in_element: false,
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
        self.count = 0;
        self.inner.clear();
        self.arrays.clear();
        self.array_at.clear();
        self.pair_bytes = 0;
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
        let records = self.pairs.capacity()
            + self.spare.capacity()
            + self.elements.capacity()
            + self.inner.capacity();
        if self.text.capacity() <= KEEP_TEXT
            && records <= 8 * 1024
            && self.members.capacity() <= 1024
            && self.arrays.capacity() + 8 * self.array_at.capacity() <= KEEP_TEXT
        {
            let _ = KEPT.try_with(|kept| *kept.borrow_mut() = Some(self));
        }
    }

    /// Number of pairs, without `senderKey`.
    #[cfg(test)]
    pub(super) fn len(&self) -> usize {
        self.count
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
        let text = &self.text;
        members::digest_with(
            &self.pairs,
            self.sender_at,
            key,
            |&(start, end), hashing| {
                if end & BLOCK == 0 {
                    hashing.put(text.get(start as usize..end as usize).unwrap_or_default());
                } else {
                    let block = self.inner.get(start as usize..(end & !BLOCK) as usize);
                    put_block(
                        block.unwrap_or_default(),
                        text,
                        &self.arrays,
                        &self.array_at,
                        hashing,
                    );
                }
            },
        )
    }
}

struct Reader<'i, 'f> {
    input: &'i [u8],
    pos: usize,
    flat: &'f mut Flat,
    /// The body is above [`SMALL`].
    large: bool,
    /// The text's bound (its capacity, for a large body).
    text_limit: usize,
    /// The length of the path of the array element being read (0 outside of one): the
    /// pairs' text starts after it.
    relative: usize,
    /// Reading an element of an array that is an object or an array.
    in_element: bool,
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
    /// [`EXPANSION_ALLOWANCE`] (a small body), whose text outruns the body read so far
    /// or whose other buffers outgrow half of it (a large one), or whose pairs written
    /// out whole are past the limit on expansion, which the careful parser refuses at
    /// the same point (`32 x read + allowance`).
    fn within_budget(&self) -> Option<()> {
        let flat = &*self.flat;
        if !self.large {
            return (flat.text.len() <= EXPANSION_ALLOWANCE).then_some(());
        }
        if over_budget(self.pos, flat.pair_bytes) || flat.text.len() > self.pos + TEXT_SLACK {
            return None;
        }
        // Lengths (buffers kept from an earlier body may be longer): each is at most
        // twice its length, and the records being moved into order (`spare`) are never
        // more than those of `pairs`.
        let records =
            2 * flat.pairs.len() + flat.elements.len() + flat.inner.len() + flat.array_at.len();
        let held = 8 * records
            + std::mem::size_of::<Member>() * flat.members.len()
            + 16 * flat.top.len()
            + flat.path.len()
            + flat.arrays.len();
        (held <= self.pos / 2 + SLACK).then_some(())
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
            Some(&mut flat.shapes),
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
                    return self.pair(start, if open == b'{' { b"{}" } else { b"[]" });
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
                let path = flat.path.get(self.relative..).unwrap_or_default();
                put_within(&mut flat.text, path, self.text_limit)?;
                put_within(&mut flat.text, b"=", self.text_limit)?;
                let value_start = flat.text.len();
                let ampersand =
                    string_value(self.input, &mut self.pos, &mut flat.text, self.text_limit)?;
                let value = flat.text.get(value_start..).unwrap_or_default();
                if ampersand && reads_as_pair_after_ampersand(value) {
                    return None;
                }
                flat.pair_bytes += flat.path.len() + 1 + value.len();
                flat.count += 1;
                flat.pairs.push((start as u32, flat.text.len() as u32));
                Some(Kind::Pair)
            }
            b't' => {
                self.keyword(b"true").ok()?;
                self.pair(start, b"true")
            }
            b'f' => {
                self.keyword(b"false").ok()?;
                self.pair(start, b"false")
            }
            b'n' => {
                self.keyword(b"null").ok()?;
                Some(Kind::Null)
            }
            b'-' | b'0'..=b'9' => {
                let begin = self.pos;
                self.number().ok()?;
                let literal = self.input.get(begin..self.pos).unwrap_or_default();
                self.pair(start, literal)
            }
            _ => None,
        }
    }

    /// The pair `path=value` (its text starting at `start`, the path from `relative`).
    #[inline]
    fn pair(&mut self, start: usize, value: &[u8]) -> Option<Kind> {
        let flat = &mut *self.flat;
        let path = flat.path.get(self.relative..).unwrap_or_default();
        if flat.text.len() + path.len() + 1 + value.len() > self.text_limit {
            return None;
        }
        flat.text.extend_from_slice(path);
        flat.text.push(b'=');
        flat.text.extend_from_slice(value);
        flat.pair_bytes += flat.path.len() + 1 + value.len();
        flat.count += 1;
        flat.pairs.push((start as u32, flat.text.len() as u32));
        Some(Kind::Pair)
    }

    /// Makes the records of element `index` of the array numbered `array`, which has
    /// just ended (from `first`, in canonical order), a block: they move to `inner`
    /// after `(array, index)`, and one record stands for them.
    fn close_element(&mut self, array: usize, index: usize, first: usize) {
        let flat = &mut *self.flat;
        if flat.pairs.len() <= first {
            // No pair (an object of null members): nothing to stand for.
            return;
        }
        let start = flat.inner.len() as u32;
        flat.inner.push((array as u32, index as u32));
        flat.inner
            .extend_from_slice(flat.pairs.get(first..).unwrap_or_default());
        flat.pairs.truncate(first);
        flat.pairs.push((start, flat.inner.len() as u32 | BLOCK));
    }

    /// The elements of an array whose `[` has been read and which is not empty.
    fn array(&mut self, depth: usize) -> Option<()> {
        let base = self.flat.path.len();
        let mark = self.flat.elements.len();
        let first_pair = self.flat.pairs.len();
        let mut index = 0usize;
        // This array's number among those whose elements are blocks, once it has one.
        let mut array = None;
        loop {
            self.flat.path.push(b'[');
            push_decimal(&mut self.flat.path, index);
            self.flat.path.push(b']');
            self.skip_ws();
            let first = self.flat.pairs.len() as u32;
            // The outermost elements that are objects or arrays are kept as blocks.
            let element = !self.in_element && matches!(self.peek(), Some(b'{' | b'['));
            if element {
                self.in_element = true;
                self.relative = self.flat.path.len();
            }
            if self.value(depth)? == Kind::Null {
                return None;
            }
            if element {
                self.in_element = false;
                self.relative = 0;
                let number = match array {
                    Some(number) => number,
                    None => {
                        let flat = &mut *self.flat;
                        let start = flat.arrays.len() as u32;
                        flat.arrays
                            .extend_from_slice(flat.path.get(..base).unwrap_or_default());
                        flat.array_at.push((start, flat.arrays.len() as u32));
                        flat.array_at.len() - 1
                    }
                };
                array = Some(number);
                self.close_element(number, index, first as usize);
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
