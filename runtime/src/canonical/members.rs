//! The canonical order of one object's members and one array's elements, and the
//! digest of pairs in that order: shared by the one-pass reader of bodies (`flat`) and
//! the serializer that signs while it writes (`direct`).
//!
//! Each keeps every pair's text back to back and a record `(start, end)` per pair in
//! document order; as an object ends, its members are sorted by `key + separator` and
//! the records of their pairs moved into that order ([`order`]); as an array of more
//! than ten elements ends, its elements' records into the order of `index + "]"`
//! ([`order_elements`]). With no key holding `.`, `[` or `=`, the records are then the
//! byte order of the complete pairs (the argument is the tree's, see the comment above
//! `tree::KIND`).

use super::order::{compare_with_separators, IndexOrder};
use super::scan::Out;
use super::walk::{Emit, Hashing};
use super::SENDER_KEY;
use crate::secret::PrivateKey;

/// One member of an object being read or written.
#[derive(Clone, Copy)]
pub(super) struct Member {
    /// See [`prefix`].
    prefix: u128,
    /// The key's bytes in the keys' buffer (the body, for the reader).
    key: (u32, u32),
    sep: u8,
    /// The member's pairs, `pairs[first..end]` in document order.
    first: u32,
    end: u32,
}

impl Member {
    /// A placeholder (never a member of an object).
    const EMPTY: Member = Member {
        prefix: 0,
        key: (0, 0),
        sep: 0,
        first: 0,
        end: 0,
    };

    /// A member whose key is `keys[key.0..key.1]`, followed by `sep` in its pairs, and
    /// whose pairs' records are `pairs.0..pairs.1`.
    #[inline]
    pub(super) fn new(keys: &[u8], key: (usize, usize), sep: u8, pairs: (u32, u32)) -> Member {
        Member {
            prefix: prefix(keys, key.0, key.1 - key.0, sep),
            key: (key.0 as u32, key.1 as u32),
            sep,
            first: pairs.0,
            end: pairs.1,
        }
    }

    fn key<'i>(&self, input: &'i [u8]) -> &'i [u8] {
        input
            .get(self.key.0 as usize..self.key.1 as usize)
            .unwrap_or_default()
    }

    /// True when the shorter of the two keys starts the longer (or they are the same):
    /// on the prefixes when the shorter fits in one.
    fn shorter_starts_longer(&self, other: &Member, input: &[u8]) -> bool {
        let (len, other_len) = (self.key.1 - self.key.0, other.key.1 - other.key.0);
        let shorter = len.min(other_len);
        if shorter <= 16 {
            return (self.prefix ^ other.prefix).leading_zeros() >= 8 * shorter;
        }
        let (a, b) = (self.key(input), other.key(input));
        a.get(..shorter as usize) == b.get(..shorter as usize)
    }
}

/// The first sixteen bytes of `key + sep`, zero-padded, as a big-endian integer: it
/// orders like `key + sep` wherever two of them differ in those bytes (no key byte is
/// zero: a key here has no escape, and a raw control character is no JSON). `input`
/// holds the key at `start` (`len` bytes, at least one).
/// [`prefix`] of a key with fewer than sixteen bytes after its start.
#[cold]
#[inline(never)]
fn prefix_near_end(input: &[u8], start: usize, len: usize, sep: u8) -> u128 {
    let mut bytes = [0u8; 16];
    let key = input.get(start..start + len).unwrap_or_default();
    for (slot, &b) in bytes.iter_mut().zip(key.iter().chain(&[sep])) {
        *slot = b;
    }
    u128::from_be_bytes(bytes)
}

#[inline]
fn prefix(input: &[u8], start: usize, len: usize, sep: u8) -> u128 {
    let word = |at: usize| {
        input
            .get(at..at + 8)
            .and_then(|bytes| <[u8; 8]>::try_from(bytes).ok())
            .map(u64::from_le_bytes)
    };
    // Two words read from the keys' buffer, the bytes after the key masked off and the
    // separator put in the first of them (the key's first byte is the integer's high
    // byte).
    let below = |n: usize| (1u64 << (8 * n)).wrapping_sub(1);
    let (Some(low), Some(high)) = (word(start), word(start + 8)) else {
        return prefix_near_end(input, start, len, sep);
    };
    let (first, second) = match len {
        0..=7 => ((low & below(len)) | (u64::from(sep) << (8 * len)), 0),
        8..=15 => (
            low,
            (high & below(len - 8)) | (u64::from(sep) << (8 * (len - 8))),
        ),
        _ => (low, high),
    };
    (u128::from(first.swap_bytes()) << 64) | u128::from(second.swap_bytes())
}

/// Sorts `members` (one object's, whose pairs' records are `pairs`, in document order)
/// into canonical order and moves the records into that order; `None` when two members
/// have the same key. Returns, for the top-level object (`top`), the number of pairs
/// that sort before `senderKey=` (0 otherwise). `keys` holds the members' keys.
/// `shapes`, when given, remembers the order of objects sorted before: an object with
/// the same keys and separators in the same order as one of them (the rows of a page,
/// the envelope of every answer) takes its order without sorting or looking for a
/// repeated key again.
pub(super) fn order(
    keys: &[u8],
    members: &mut [Member],
    pairs: &mut [(u32, u32)],
    spare: &mut Vec<(u32, u32)>,
    top: bool,
    shapes: Option<&mut Shapes>,
) -> Option<usize> {
    let input = keys;
    // The prefix of `senderKey=`: `key + sep` sorts before it exactly when its prefix
    // does (the two differ: equal, the key would be a top-level `senderKey`, never
    // taken).
    let sender = prefix(b"senderKey\0\0\0\0\0\0\0\0", 0, SENDER_KEY.len(), b'=');
    let mut sorted = true;
    for pair in members.windows(2) {
        if let [a, b] = pair {
            if a.prefix >= b.prefix {
                sorted = false;
                break;
            }
        }
    }
    if !sorted {
        let known = match shapes {
            Some(shapes) if members.len() <= MAX_SHAPE => {
                if let Some(before) = shapes.reorder(input, members, pairs, spare) {
                    // The records moved straight into a remembered order.
                    return Some(if top { before } else { 0 });
                }
                {
                    let mut doc = [Member::EMPTY; MAX_SHAPE];
                    if let Some(slots) = doc.get_mut(..members.len()) {
                        slots.copy_from_slice(members);
                    }
                    sort(input, members);
                    if repeated(input, members, spare) {
                        return None;
                    }
                    let doc = doc.get(..members.len()).unwrap_or_default();
                    shapes.remember(input, doc, members, sender);
                    true
                }
            }
            _ => false,
        };
        if !known {
            sort(input, members);
            if repeated(input, members, spare) {
                return None;
            }
        }
    } else if repeated(input, members, spare) {
        return None;
    }
    let before = if top {
        members
            .iter()
            .take_while(|m| m.prefix < sender)
            .map(|m| (m.end - m.first) as usize)
            .sum::<usize>()
    } else {
        0
    };
    if !sorted {
        let first = members.iter().map(|m| m.first).min().unwrap_or(0) as usize;
        spare.clear();
        for m in members.iter() {
            let from = (m.first as usize).saturating_sub(first);
            let to = (m.end as usize).saturating_sub(first);
            // One record at a time: most members have one pair.
            for record in pairs.get(from..to).unwrap_or_default() {
                spare.push(*record);
            }
        }
        if let Some(slots) = pairs.get_mut(..spare.len()) {
            slots.copy_from_slice(spare);
        }
    }
    Some(before)
}

/// Moves the records of one array's elements (`elements`: the `(first, end)` records
/// of each, in document order; `pairs`: the array's records) into the order of their
/// indexes as text: `[10]` sorts before `[1]`. Up to ten elements that is theirs.
pub(super) fn order_elements(
    elements: &[(u32, u32)],
    pairs: &mut [(u32, u32)],
    spare: &mut Vec<(u32, u32)>,
) {
    if elements.len() <= 10 {
        return;
    }
    let first = elements.first().map_or(0, |e| e.0) as usize;
    spare.clear();
    for i in IndexOrder::new(elements.len()) {
        if let Some(&(from, to)) = elements.get(i) {
            let (from, to) = (
                (from as usize).saturating_sub(first),
                (to as usize).saturating_sub(first),
            );
            spare.extend_from_slice(pairs.get(from..to).unwrap_or_default());
        }
    }
    if let Some(slots) = pairs.get_mut(..spare.len()) {
        slots.copy_from_slice(spare);
    }
}

/// SHA-256 of the pairs `pairs` (records into `text`, in canonical order) joined with
/// `&`, `senderKey=<key>` in its place after the first `sender_at` of them. The pieces
/// are gathered in a buffer on the stack and hashed a buffer at a time; the key goes
/// straight to SHA-256 (never into the buffer).
pub(super) fn digest(
    text: &[u8],
    pairs: &[(u32, u32)],
    sender_at: usize,
    key: &PrivateKey,
) -> [u8; 32] {
    digest_with(pairs, sender_at, key, |&(start, end), hashing| {
        hashing.put(text.get(start as usize..end as usize).unwrap_or_default());
    })
}

/// [`digest`] of records that `put` writes (one pair, or several joined with `&`).
#[inline(always)]
pub(super) fn digest_with(
    pairs: &[(u32, u32)],
    sender_at: usize,
    key: &PrivateKey,
    mut put: impl FnMut(&(u32, u32), &mut Hashing),
) -> [u8; 32] {
    let mut hashing = Hashing::new();
    let (before, after) = pairs.split_at(sender_at.min(pairs.len()));
    for record in before {
        put(record, &mut hashing);
        hashing.put(b"&");
    }
    hashing.put(SENDER_KEY.as_bytes());
    hashing.put(b"=");
    hashing.sender_key(key);
    for record in after {
        hashing.put(b"&");
        put(record, &mut hashing);
    }
    hashing.finish()
}

/// Sorts one object's members into canonical order.
fn sort(input: &[u8], members: &mut [Member]) {
    members.sort_unstable_by(|a, b| {
        a.prefix.cmp(&b.prefix).then_with(|| {
            compare_with_separators(a.key(input), a.sep, b.key(input), b.sep)
                .then(a.key.0.cmp(&b.key.0))
        })
    });
}

/// True when two of `members` (in canonical order) have the same key. The same key with
/// the same separator is a neighbour; with another, only keys that extend it can sort
/// between them, so neighbours of which one's key starts the other's are looked at
/// closely (rare).
fn repeated(input: &[u8], members: &[Member], spare: &mut Vec<(u32, u32)>) -> bool {
    let mut extends = false;
    for pair in members.windows(2) {
        if let [a, b] = pair {
            if a.shorter_starts_longer(b, input) {
                extends = true;
                break;
            }
        }
    }
    extends && repeats(input, members, spare)
}

/// Objects of more members are not remembered.
const MAX_SHAPE: usize = 32;

/// Shapes remembered (the least recently stored is replaced).
const SHAPES: usize = 4;

/// The canonical order of the members of a few objects sorted before (see [`order`]).
#[derive(Default, Clone)]
pub(super) struct Shapes {
    shapes: Vec<Shape>,
    /// The shape to replace next.
    next: usize,
}

/// One object's keys in document order and their canonical order.
#[derive(Default, Clone)]
struct Shape {
    /// For each member in document order: the key's prefix, length and separator.
    keys: Vec<(u128, u32, u8)>,
    /// The keys longer than fifteen bytes (their prefix does not hold them whole), back
    /// to back in document order.
    long: Vec<u8>,
    /// The document index of each member in canonical order.
    order: Vec<u8>,
    /// The number of members (in canonical order) that sort before `senderKey=`.
    before_sender: usize,
}

impl Shapes {
    /// Moves the records `pairs` of `members` (document order) into the order of a
    /// remembered shape with the same keys (the members stay as they are); the number
    /// of records that sort before `senderKey=`, or `None` when no shape has those keys.
    fn reorder(
        &self,
        input: &[u8],
        members: &[Member],
        pairs: &mut [(u32, u32)],
        spare: &mut Vec<(u32, u32)>,
    ) -> Option<usize> {
        let shape = self.shapes.iter().find(|shape| shape.is(input, members))?;
        let first = members.first().map_or(0, |m| m.first) as usize;
        spare.clear();
        let mut before = 0;
        for (n, &doc) in shape.order.iter().enumerate() {
            let m = members.get(usize::from(doc))?;
            let from = (m.first as usize).saturating_sub(first);
            let to = (m.end as usize).saturating_sub(first);
            if n < shape.before_sender {
                before += to - from;
            }
            // One record at a time: most members have one pair.
            for record in pairs.get(from..to).unwrap_or_default() {
                spare.push(*record);
            }
        }
        pairs.get_mut(..spare.len())?.copy_from_slice(spare);
        Some(before)
    }

    /// Remembers the order of an object whose members were `doc` in document order and
    /// are `sorted` in canonical order (no key repeated).
    fn remember(&mut self, input: &[u8], doc: &[Member], sorted: &[Member], sender: u128) {
        let slot = if self.shapes.len() < SHAPES {
            self.shapes.push(Shape::default());
            self.shapes.len() - 1
        } else {
            self.next
        };
        self.next = (slot + 1) % SHAPES;
        // A shape replaced keeps its buffers.
        let Some(shape) = self.shapes.get_mut(slot) else {
            return;
        };
        shape.keys.clear();
        shape.long.clear();
        shape.order.clear();
        shape.before_sender = sorted.iter().take_while(|m| m.prefix < sender).count();
        for m in doc {
            shape.keys.push((m.prefix, m.key.1 - m.key.0, m.sep));
            if m.key.1 - m.key.0 > 15 {
                shape.long.extend_from_slice(m.key(input));
            }
        }
        for m in sorted {
            // Keys start at increasing offsets in document order.
            let at = doc.partition_point(|d| d.key.0 < m.key.0);
            shape.order.push(at as u8);
        }
    }
}

impl Shape {
    /// True when `members` (document order) have this shape's keys and separators.
    fn is(&self, input: &[u8], members: &[Member]) -> bool {
        if self.keys.len() != members.len() {
            return false;
        }
        let mut long = 0;
        for (&(prefix, len, sep), m) in self.keys.iter().zip(members) {
            if m.prefix != prefix || m.key.1 - m.key.0 != len || m.sep != sep {
                return false;
            }
            if len > 15 {
                let end = long + len as usize;
                if self.long.get(long..end) != Some(m.key(input)) {
                    return false;
                }
                long = end;
            }
        }
        true
    }
}

/// True when two of `members` (sorted) have the same key: the keys, sorted alone, have
/// equal neighbours.
fn repeats(input: &[u8], members: &[Member], spare: &mut Vec<(u32, u32)>) -> bool {
    spare.clear();
    spare.extend(members.iter().map(|m| m.key));
    let key = |&(start, end): &(u32, u32)| input.get(start as usize..end as usize);
    spare.sort_unstable_by(|a, b| key(a).cmp(&key(b)));
    spare.windows(2).any(|pair| match pair {
        [a, b] => key(a) == key(b),
        _ => false,
    })
}
