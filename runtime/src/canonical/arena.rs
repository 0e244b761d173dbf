//! The arena parser: every pair's text written out and sorted as slices (diagnosis of
//! bodies whose canonical order is no tree walk, and the reference the tree is tested against).

use super::limits::{over_budget, MAX_DEPTH};
use super::scan::{push_decimal, string, Tokens};
use super::walk::Emit;
use super::{CanonicalError, Meta, SENDER_KEY};
use crate::secret::{wipe, PrivateKey};

/// The text of every pair, back to back (valid UTF-8), and their ranges in document
/// order.
#[derive(Clone, Default)]
pub(super) struct Arena {
    pub(super) text: Vec<u8>,
    pub(super) pairs: Vec<(usize, usize)>,
}

pub(super) fn slice(buf: &[u8], (start, end): (usize, usize)) -> &[u8] {
    buf.get(start..end).unwrap_or_default()
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

    pub(super) fn emit(&self, key: &PrivateKey, out: &mut impl Emit) {
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

/// Every pair of `body` written out, in document order (see [`Repr::Arena`]).
pub(super) fn arena_parse(body: &[u8]) -> Result<(Arena, Meta), CanonicalError> {
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
        signature_in_body: None,
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
pub(super) fn prefix(s: &[u8]) -> u64 {
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
pub(super) fn key_hash(key: &[u8]) -> u64 {
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

/// The parser of [`Repr::Arena`]: every pair's text written out.
pub(super) struct Parser<'a> {
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
pub(super) fn key_text<'k>(
    input: &'k [u8],
    key_buf: &'k [u8],
    (start, end): (usize, usize),
) -> &'k [u8] {
    match start.checked_sub(input.len()) {
        Some(kb_start) => slice(key_buf, (kb_start, end - input.len())),
        None => slice(input, (start, end)),
    }
}

impl Tokens for Parser<'_> {
    fn input(&self) -> &[u8] {
        self.input
    }

    fn pos(&mut self) -> &mut usize {
        &mut self.pos
    }
}

impl Parser<'_> {
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
        if over_budget(self.pos, self.arena.len()) {
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

    fn literal(&mut self, word: &'static [u8]) -> Result<(), CanonicalError> {
        self.keyword(word)?;
        let start = self.begin_pair();
        self.arena.extend_from_slice(word);
        self.end_pair(start);
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
pub(super) fn first_repeat<'k>(
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
