//! The tree parser: one word per member or element, each object sorted as it ends.

use super::limits::{over_budget, MAX_BODY, MAX_DEPTH};
use super::order::{compare_members, first_repeat_sorted, sort_members, KeyBytes, KEYED};
use super::rules::{is_key_byte, reads_as_pair_after_ampersand};
use super::scan::{push_decimal, string, Out, Tokens};
use super::spare;
use super::{Ambiguity, CanonicalError, Meta, Parsed, Repr, Stop, SENDER_KEY};

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
pub(super) const KIND: u32 = 3 << 30;
/// A scalar (string, number, `true`, `false`, `null`, `{}` or `[]`): the payload is the
/// offset in the input of its key's opening quote (a member) or of the value itself
/// (an element).
pub(super) const SCALAR: u32 = 0;
/// A non-empty array: the payload is the index of its slice in the words.
pub(super) const ARRAY: u32 = 1 << 30;
/// A non-empty object: the payload is the index of its slice in the words.
pub(super) const OBJECT: u32 = 2 << 30;
/// The last word of its slice.
pub(super) const LAST: u32 = 1 << 29;
/// The payload's bits: offsets and indexes below 512 MiB.
pub(super) const PAYLOAD: u32 = LAST - 1;
// Offsets and indexes of the words fit the payload.
const _: () = assert!(PAYLOAD as usize == MAX_BODY);

/// The words of a parsed body.
///
/// A non-empty container's slice is its members' or elements' words (the last one
/// marked [`LAST`]), preceded, when the container is a member's value, by one header
/// word: the offset of that member's key. An object's words are in canonical order, an
/// array's in document order.
#[derive(Clone)]
pub(super) struct Tree {
    pub(super) words: Vec<u32>,
    /// Slice of the top-level object (`None` for `{}`).
    pub(super) root: Option<usize>,
    /// Offset of the top-level `signature` key's quote: that member is no pair.
    pub(super) signature_at: Option<u32>,
}

impl Tree {
    /// The offsets of the opening quotes of the top-level members' keys, in canonical
    /// order (the top-level `signature` among them).
    pub(super) fn top_keys(&self) -> impl Iterator<Item = usize> + '_ {
        let slice = self
            .root
            .and_then(|root| self.words.get(root..))
            .unwrap_or_default();
        let count = slice
            .iter()
            .position(|w| w & LAST != 0)
            .map_or(0, |last| last + 1);
        slice
            .iter()
            .take(count)
            .map(|&word| member_key_at(&self.words, word))
    }
}

pub(super) fn payload(word: u32) -> usize {
    (word & PAYLOAD) as usize
}

/// The separator that follows a member's key in its pairs.
pub(super) fn separator(word: u32) -> u8 {
    match word & KIND {
        ARRAY => b'[',
        OBJECT => b'.',
        _ => b'=',
    }
}

/// Offset of the opening quote of a member's key (`words`: the finished slices, where
/// a container's header is).
pub(super) fn member_key_at(words: &[u32], word: u32) -> usize {
    if word & KIND == SCALAR {
        payload(word)
    } else {
        words
            .get(payload(word))
            .map_or(0, |&header| payload(header))
    }
}

/// Words enough for `input`: one per member (at its `:`), one per array element (the
/// first at its `[`, the others at their `,`) and one header per non-empty container
/// that is a member's value (at its `{` or `[`). Bytes inside strings count too, so this
/// is more than needed, but never more than half the body: every word stands for at
/// least two bytes of it (a member for its `"":`, an element for its first byte and the
/// `,` or `]` after it, a header for its container's `{`, or its `[` next to its
/// member's three). One pass that the compiler vectorizes, no tokenizer; should it be
/// too few (for input that is no JSON), the parser makes more.
pub(super) fn word_bound(input: &[u8]) -> usize {
    let mut count = 0usize;
    for chunk in input.chunks(8192) {
        let weights: u16 = chunk
            .iter()
            .map(|&b| u16::from(matches!(b, b':' | b',' | b'{')) + 2 * u16::from(b == b'['))
            .sum();
        count += usize::from(weights);
    }
    count.min(input.len() / 2 + 2)
}

/// Counts the unescaped bytes of a string and whether one is `&`.
#[derive(Default)]
pub(super) struct Measure {
    len: usize,
    ampersand: bool,
}

impl Out for Measure {
    fn put(&mut self, bytes: &[u8]) {
        self.len += bytes.len();
        self.ampersand = self.ampersand || bytes.contains(&b'&');
    }
}

/// Bodies up to this size take half their length in words without counting them: the
/// bound [`word_bound`] never exceeds, on a buffer kept from the previous parse (see
/// `spare`), costs less to zero than counting costs.
const COUNT_WORDS_ABOVE: usize = 4096;

pub(super) fn tree_parse(body: &[u8], unambiguous: bool) -> Result<Parsed, Stop> {
    let capacity = if body.len() <= COUNT_WORDS_ABOVE {
        body.len() / 2 + 2
    } else {
        word_bound(body)
    };
    tree_parse_sized(body, unambiguous, capacity)
}

/// [`tree_parse`] with `capacity` words to start with (more are made should it be too
/// few: tests start with none).
pub(super) fn tree_parse_sized(
    body: &[u8],
    unambiguous: bool,
    capacity: usize,
) -> Result<Parsed, Stop> {
    tree_parse_with(body, unambiguous, capacity, KEYED)
}

/// [`tree_parse`] (not `unambiguous`) sorting objects of up to `keyed` members with
/// their prefixes (tests: 0 sorts every object in place).
#[cfg(test)]
pub(super) fn tree_parse_keyed_up_to(body: &[u8], keyed: usize) -> Result<Parsed, Stop> {
    tree_parse_with(body, false, word_bound(body), keyed)
}

fn tree_parse_with(
    body: &[u8],
    unambiguous: bool,
    capacity: usize,
    keyed: usize,
) -> Result<Parsed, Stop> {
    if body.len() > MAX_BODY {
        return Err(CanonicalError::TooLarge { offset: MAX_BODY }.into());
    }
    let mut parser = TreeParser {
        input: body,
        pos: 0,
        unambiguous,
        keyed,
        words: spare::words(capacity),
        front: 0,
        back: capacity,
        path: spare::path(),
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
            words: std::mem::take(&mut parser.words),
            root: (root & KIND == OBJECT).then(|| payload(root)),
            signature_at: parser.signature_at,
        }),
        meta: std::mem::take(&mut parser.meta),
    })
}

pub(super) struct TreeParser<'a> {
    input: &'a [u8],
    pos: usize,
    /// Apply the rules of [`Flattened::parse_unambiguous`].
    unambiguous: bool,
    /// Objects of up to this many members (at most [`KEYED`]) are sorted with their
    /// keys' prefixes.
    keyed: usize,
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

impl Drop for TreeParser<'_> {
    fn drop(&mut self) {
        spare::keep_path(std::mem::take(&mut self.path));
        // The words, unless the tree took them (a parse that failed).
        spare::keep_words(std::mem::take(&mut self.words));
    }
}

impl Tokens for TreeParser<'_> {
    fn input(&self) -> &[u8] {
        self.input
    }

    fn pos(&mut self) -> &mut usize {
        &mut self.pos
    }
}

impl TreeParser<'_> {
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
        if over_budget(self.pos, self.pair_bytes) {
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

    /// More words, should [`word_bound`] have given too few (it never does for a
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
        let repeat = if count <= self.keyed.min(KEYED) {
            sort_members(input, done, members)
        } else {
            members.sort_unstable_by(|&a, &b| compare_members(input, done, a, b));
            first_repeat_sorted(input, done, members)
        };
        if let Some(repeat) = repeat {
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
                let start = self.pos + 1;
                let mut measure = Measure::default();
                string(self.input, &mut self.pos, &mut measure)?;
                if measure.len == self.pos - 1 - start {
                    // No escape: the text is where it is in the body (no copy kept).
                    self.meta.signature_in_body = Some((start, self.pos - 1));
                } else {
                    let mut text = Vec::new();
                    let mut again = start - 1;
                    string(self.input, &mut again, &mut text)?;
                    // UTF-8 already (checked as it was read): the bytes become the text.
                    self.meta.signature =
                        Some(String::from_utf8(text).unwrap_or_else(|e| {
                            String::from_utf8_lossy(e.as_bytes()).into_owned()
                        }));
                }
                Ok(())
            }
            _ => {
                self.value(depth, None)?;
                Err(CanonicalError::SignatureNotString.into())
            }
        }
    }
}
