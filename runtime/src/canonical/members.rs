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

use sha2::{Digest, Sha256};

use super::order::{compare_with_separators, IndexOrder};
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
    /// A member whose key is `keys[key.0..key.1]`, followed by `sep` in its pairs, and
    /// whose pairs' records are `pairs.0..pairs.1`.
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

    /// True when this member's key starts `other`'s (or is the same): on the prefixes
    /// when the key fits in one.
    fn starts(&self, other: &Member, input: &[u8]) -> bool {
        let (len, other_len) = (self.key.1 - self.key.0, other.key.1 - other.key.0);
        if len > other_len {
            return false;
        }
        if len <= 16 {
            return (self.prefix ^ other.prefix).leading_zeros() >= 8 * len;
        }
        other.key(input).starts_with(self.key(input))
    }
}

/// The first sixteen bytes of `key + sep`, zero-padded, as a big-endian integer: it
/// orders like `key + sep` wherever two of them differ in those bytes (no key byte is
/// zero: a key here has no escape, and a raw control character is no JSON). `input`
/// holds the key at `start` (`len` bytes, at least one).
fn prefix(input: &[u8], start: usize, len: usize, sep: u8) -> u128 {
    let mut bytes = [0u8; 16];
    match input.get(start..start + 16) {
        Some(head) if len >= 16 => bytes.copy_from_slice(head),
        Some(head) => {
            // Sixteen bytes read as one integer, those after the key masked off and the
            // separator put in the first of them.
            bytes.copy_from_slice(head);
            let v = u128::from_le_bytes(bytes);
            let bits = 8 * len as u32;
            let kept = v & u128::MAX.checked_shr(128 - bits).unwrap_or(0);
            return (kept | (u128::from(sep) << bits)).swap_bytes();
        }
        None => {
            let key = input.get(start..start + len).unwrap_or_default();
            for (slot, &b) in bytes.iter_mut().zip(key.iter().chain(&[sep])) {
                *slot = b;
            }
        }
    }
    u128::from_be_bytes(bytes)
}

/// Sorts `members` (one object's, whose pairs' records are `pairs`, in document order)
/// into canonical order and moves the records into that order; `None` when two members
/// have the same key. Returns the number of pairs that sort before `senderKey=` (for
/// the top-level object). `keys` holds the members' keys.
pub(super) fn order(
    keys: &[u8],
    members: &mut [Member],
    pairs: &mut [(u32, u32)],
    spare: &mut Vec<(u32, u32)>,
) -> Option<usize> {
    let input = keys;
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
        members.sort_unstable_by(|a, b| {
            a.prefix.cmp(&b.prefix).then_with(|| {
                compare_with_separators(a.key(input), a.sep, b.key(input), b.sep)
                    .then(a.key.0.cmp(&b.key.0))
            })
        });
    }
    // A repeated key: the same key with the same separator is a neighbour; with
    // another, only keys that extend it can sort between them, so neighbours of which
    // one's key starts the other's are looked at closely (rare).
    let mut extends = false;
    for pair in members.windows(2) {
        if let [a, b] = pair {
            if a.starts(b, input) || b.starts(a, input) {
                extends = true;
                break;
            }
        }
    }
    if extends && repeats(input, members, spare) {
        return None;
    }
    let before = members
        .iter()
        .take_while(|m| {
            compare_with_separators(m.key(input), m.sep, SENDER_KEY.as_bytes(), b'=').is_lt()
        })
        .map(|m| (m.end - m.first) as usize)
        .sum::<usize>();
    if !sorted {
        let first = members.iter().map(|m| m.first).min().unwrap_or(0) as usize;
        spare.clear();
        for m in members.iter() {
            let from = (m.first as usize).saturating_sub(first);
            let to = (m.end as usize).saturating_sub(first);
            spare.extend_from_slice(pairs.get(from..to).unwrap_or_default());
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
            let (from, to) = (from as usize - first, to as usize - first);
            spare.extend_from_slice(pairs.get(from..to).unwrap_or_default());
        }
    }
    if let Some(slots) = pairs.get_mut(..spare.len()) {
        slots.copy_from_slice(spare);
    }
}

/// SHA-256 of the pairs `pairs` (records into `text`, in canonical order) joined with
/// `&`, `senderKey=<key>` in its place after the first `sender_at` of them: the pairs
/// before it joined in `joined` and hashed, then `senderKey=`, the key, and the pairs
/// after it (the key is never copied).
pub(super) fn digest(
    text: &[u8],
    pairs: &[(u32, u32)],
    sender_at: usize,
    key: &PrivateKey,
    joined: &mut Vec<u8>,
) -> [u8; 32] {
    let pair = |&(start, end): &(u32, u32)| text.get(start as usize..end as usize);
    joined.clear();
    let (before, after) = pairs.split_at(sender_at.min(pairs.len()));
    for record in before {
        joined.extend_from_slice(pair(record).unwrap_or_default());
        joined.push(b'&');
    }
    let mut sha = Sha256::new();
    sha.update(&joined[..]);
    sha.update(SENDER_KEY.as_bytes());
    sha.update(b"=");
    sha.update(key.expose());
    joined.clear();
    for record in after {
        joined.push(b'&');
        joined.extend_from_slice(pair(record).unwrap_or_default());
    }
    sha.update(&joined[..]);
    joined.clear();
    sha.finalize().into()
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
