//! The signing writer: the canonical string written from the words and the body into
//! SHA-256 (or, for tests and diagnostics, collected, with or without the key).

use sha2::{Digest, Sha256};

use super::order::{sorts_after_sender_key, IndexOrder};
use super::rules::is_sender_key_pair;
use super::scan::{push_decimal, unescape, Out};
use super::tree::{member_key_at, payload, separator, Tree, KIND, LAST, OBJECT, SCALAR};
use super::SENDER_KEY;
use crate::secret::{PrivateKey, REDACTED};

/// Where the pieces of the canonical string go.
pub(super) trait Emit: Out {
    /// The pair written since the previous call (or the start) is complete.
    fn end_pair(&mut self) {}
    /// Writes the value of the `senderKey` pair (its `senderKey=` is written already).
    fn sender_key(&mut self, key: &PrivateKey);
}

/// Collects the canonical string, with the key itself (tests and benchmarks only).
pub(super) struct Exposing(pub(super) Vec<u8>);

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
pub(super) struct Redacting<'k> {
    pub(super) out: Vec<u8>,
    pub(super) pair: Vec<u8>,
    pub(super) secret: &'k [u8],
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

/// Hashes the canonical string as it is written: the pieces (a path, `=`, a value, `&`,
/// a run of a string between escapes) are gathered in a buffer and handed to SHA-256
/// a buffer at a time, not one call per piece. The key goes straight to SHA-256 (never
/// into the buffer).
pub(super) struct Hashing {
    sha: Sha256,
    buf: [u8; HASH_BUFFER],
    len: usize,
}

/// Bytes gathered before SHA-256 is called (a multiple of its 64-byte block).
const HASH_BUFFER: usize = 512;

impl Hashing {
    #[inline(always)]
    pub(super) fn new() -> Hashing {
        Hashing {
            sha: Sha256::new(),
            buf: [0; HASH_BUFFER],
            len: 0,
        }
    }

    fn flush(&mut self) {
        self.sha
            .update(self.buf.get(..self.len).unwrap_or_default());
        self.len = 0;
    }

    #[inline(always)]
    pub(super) fn finish(&mut self) -> [u8; 32] {
        self.flush();
        std::mem::take(&mut self.sha).finalize().into()
    }
}

impl Hashing {
    /// `a`, `b` and `c`, one after the other, gathered with one check of the room left
    /// (inlined: a piece whose length the caller knows is copied without a call).
    #[inline(always)]
    pub(super) fn put3(&mut self, a: &[u8], b: &[u8], c: &[u8]) {
        let end = self.len + a.len() + b.len() + c.len();
        let room = self.buf.get_mut(self.len..end);
        let split = room
            .and_then(|room| room.split_at_mut_checked(a.len()))
            .and_then(|(room_a, rest)| Some((room_a, rest.split_at_mut_checked(b.len())?)));
        if let Some((room_a, (room_b, room_c))) = split {
            room_a.copy_from_slice(a);
            room_b.copy_from_slice(b);
            room_c.copy_from_slice(c);
            self.len = end;
            return;
        }
        self.put(a);
        self.put(b);
        self.put(c);
    }
}

impl Hashing {
    /// [`Out::put`] of a piece that does not fit in the room left.
    #[cold]
    #[inline(never)]
    fn put_flushing(&mut self, bytes: &[u8]) {
        self.flush();
        if let Some(room) = self.buf.get_mut(..bytes.len()) {
            room.copy_from_slice(bytes);
            self.len = bytes.len();
        } else {
            self.sha.update(bytes);
        }
    }
}

impl Out for Hashing {
    #[inline(always)]
    fn put(&mut self, bytes: &[u8]) {
        let end = self.len + bytes.len();
        if let Some(room) = self.buf.get_mut(self.len..end) {
            room.copy_from_slice(bytes);
            self.len = end;
            return;
        }
        self.put_flushing(bytes);
    }
}

impl Emit for Hashing {
    fn sender_key(&mut self, key: &PrivateKey) {
        self.flush();
        self.sha.update(key.expose());
    }
}

impl Tree {
    /// Writes the canonical string (see the comment above [`KIND`]).
    pub(super) fn emit(&self, input: &[u8], key: &PrivateKey, out: &mut impl Emit) {
        let mut walk = Walk {
            input,
            words: &self.words,
            path: super::spare::path(),
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
        super::spare::keep_path(walk.path);
    }
}

/// The walk that writes the canonical string.
pub(super) struct Walk<'t, O> {
    pub(super) input: &'t [u8],
    pub(super) words: &'t [u32],
    /// Path of the value being written.
    pub(super) path: Vec<u8>,
    /// No pair written yet (no `&` before the next one).
    pub(super) first: bool,
    pub(super) out: &'t mut O,
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

/// Appends `piece` with every occurrence of `secret` replaced by [`REDACTED`].
pub(super) fn push_redacted(out: &mut Vec<u8>, piece: &[u8], secret: &[u8]) {
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
