//! The canonical order: keys with their separators, array indexes as text, repeated
//! keys found by sorting.

use super::scan::{escape, plain_run};
use super::tree::{member_key_at, separator};
use super::SENDER_KEY;

/// The unescaped bytes of the key whose opening quote is at `quote`, then `sep` (if
/// any). The input is valid JSON there (it was parsed).
pub(super) struct KeyBytes<'a> {
    input: &'a [u8],
    pos: usize,
    sep: Option<u8>,
    escaped: [u8; 4],
    escaped_len: usize,
    escaped_at: usize,
}

impl<'a> KeyBytes<'a> {
    pub(super) fn new(input: &'a [u8], quote: usize, sep: Option<u8>) -> KeyBytes<'a> {
        KeyBytes {
            input,
            pos: quote + 1,
            sep,
            escaped: [0; 4],
            escaped_len: 0,
            escaped_at: 0,
        }
    }
}

impl Iterator for KeyBytes<'_> {
    type Item = u8;

    fn next(&mut self) -> Option<u8> {
        if self.escaped_at < self.escaped_len {
            let b = self.escaped.get(self.escaped_at).copied();
            self.escaped_at += 1;
            return b;
        }
        match self.input.get(self.pos) {
            None | Some(b'"') => self.sep.take(),
            Some(b'\\') => {
                self.pos += 1;
                let (bytes, len) = escape(self.input, &mut self.pos).unwrap_or(([0; 4], 0));
                self.escaped = bytes;
                self.escaped_len = len;
                self.escaped_at = 1;
                bytes.first().copied().filter(|_| len > 0)
            }
            Some(&b) => {
                self.pos += 1;
                Some(b)
            }
        }
    }
}

/// The text of the key whose opening quote is at `quote`, when it has no escape (most
/// keys): its bytes are then the key's.
pub(super) fn raw_key(input: &[u8], quote: usize) -> Option<&[u8]> {
    let text = input.get(quote + 1..)?;
    let len = plain_run(text);
    (text.get(len) == Some(&b'"')).then(|| text.get(..len).unwrap_or_default())
}

/// `key_a + sep_a` against `key_b + sep_b`, by bytes.
pub(super) fn compare_with_separators(
    key_a: &[u8],
    sep_a: u8,
    key_b: &[u8],
    sep_b: u8,
) -> std::cmp::Ordering {
    let common = key_a.len().min(key_b.len());
    let (head_a, head_b) = (
        key_a.get(..common).unwrap_or_default(),
        key_b.get(..common).unwrap_or_default(),
    );
    head_a.cmp(head_b).then_with(|| {
        // One key is the other's prefix: the next byte is a key byte or a separator.
        let next_a = key_a.get(common).copied().unwrap_or(sep_a);
        let next_b = key_b.get(common).copied().unwrap_or(sep_b);
        // Equal, the one whose key ended is the shorter (a key byte equal to a
        // separator happens only outside a tree).
        next_a
            .cmp(&next_b)
            .then_with(|| key_a.len().cmp(&key_b.len()))
    })
}

/// The key at `key_a` followed by `sep_a` against the key at `key_b` followed by
/// `sep_b`, by bytes (unescaped). One loop over the raw bytes while neither key has an
/// escape (keys mostly differ in their first bytes); [`KeyBytes`] otherwise.
pub(super) fn compare_keys(
    input: &[u8],
    key_a: usize,
    sep_a: u8,
    key_b: usize,
    sep_b: u8,
) -> std::cmp::Ordering {
    use std::cmp::Ordering;
    let (mut i, mut j) = (key_a + 1, key_b + 1);
    loop {
        let x = input.get(i).copied().unwrap_or(b'"');
        let y = input.get(j).copied().unwrap_or(b'"');
        if x == b'\\' || y == b'\\' {
            return KeyBytes::new(input, key_a, Some(sep_a)).cmp(KeyBytes::new(
                input,
                key_b,
                Some(sep_b),
            ));
        }
        match (x == b'"', y == b'"') {
            (false, false) if x == y => {
                i += 1;
                j += 1;
            }
            (false, false) => return x.cmp(&y),
            (true, true) => return sep_a.cmp(&sep_b),
            // `a` goes on with its separator and ends; `b` with a key byte.
            (true, false) => return sep_a.cmp(&y).then(Ordering::Less),
            (false, true) => return x.cmp(&sep_b).then(Ordering::Greater),
        }
    }
}

/// Canonical order of two members of one object: `key + separator` by bytes, then
/// document order (which only equal keys, refused as duplicates, need).
pub(super) fn compare_members(input: &[u8], words: &[u32], a: u32, b: u32) -> std::cmp::Ordering {
    let (ka, kb) = (member_key_at(words, a), member_key_at(words, b));
    compare_keys(input, ka, separator(a), kb, separator(b)).then(ka.cmp(&kb))
}

/// `key + separator` of member `a` against the key at `key_at` followed by `sep`.
pub(super) fn compare_key_sep(
    input: &[u8],
    words: &[u32],
    a: u32,
    key_at: usize,
    sep: u8,
) -> std::cmp::Ordering {
    compare_keys(input, member_key_at(words, a), separator(a), key_at, sep)
}

/// Objects of at most this many members are sorted by [`sort_members`] with their
/// [`key_prefix`]es on the stack; larger ones in place by [`compare_members`] alone.
pub(super) const KEYED: usize = 48;

/// The first 16 bytes of `key + sep` (the key at `quote`, unescaped), zero-padded, as a
/// big-endian integer: it orders like `key + sep` itself wherever two of them differ
/// in their first 16 bytes (where they differ, both have a byte there, or the shorter
/// ended and the longer goes on with bytes after the same ones, so it sorts after as
/// well, or ties on zero bytes). Sorting by `(key_prefix, compare_members)` is sorting
/// by `compare_members`, with most comparisons on one integer (keys of the API differ
/// within 16 bytes: `beneficiaryName`, `beneficiaryType`).
pub(super) fn key_prefix(input: &[u8], quote: usize, sep: u8) -> u128 {
    let mut bytes = [0u8; 16];
    // Most keys: 16 bytes read as one integer, the key's end (its closing quote) found
    // in all of them at once (see `scan::plain_run`; a parsed key holds no control
    // character), the bytes after it masked off and the separator put in its place.
    if let Some(head) = input.get(quote + 1..quote + 17) {
        const ONES: u128 = u128::MAX / 255;
        const HIGH: u128 = ONES << 7;
        let mut word = [0u8; 16];
        word.copy_from_slice(head);
        let v = u128::from_le_bytes(word);
        let q = v ^ (ONES * u128::from(b'"'));
        let b = v ^ (ONES * u128::from(b'\\'));
        let found = ((q.wrapping_sub(ONES) & !q) | (b.wrapping_sub(ONES) & !b)) & HIGH;
        if found == 0 {
            return u128::from_be_bytes(word);
        }
        // The lowest flagged byte is exact (a borrow only flags bytes above it).
        let len = found.trailing_zeros() / 8;
        if head.get(len as usize) == Some(&b'"') {
            let kept = v & u128::MAX.checked_shr(128 - 8 * len).unwrap_or(0);
            let with_sep = kept | (u128::from(sep) << (8 * len));
            return u128::from_be_bytes(with_sep.to_le_bytes());
        }
        // An escape: byte by byte below.
    }
    let mut n = 0;
    let mut at = quote + 1;
    while n < bytes.len() {
        match input.get(at) {
            Some(b'"') | None => {
                if let Some(slot) = bytes.get_mut(n) {
                    *slot = sep;
                }
                break;
            }
            Some(b'\\') => {
                // An escape: the unescaped bytes, one at a time.
                for (slot, b) in bytes
                    .iter_mut()
                    .skip(n)
                    .zip(KeyBytes::new(input, quote, Some(sep)).skip(n))
                {
                    *slot = b;
                }
                break;
            }
            Some(&b) => {
                if let Some(slot) = bytes.get_mut(n) {
                    *slot = b;
                }
                n += 1;
                at += 1;
            }
        }
    }
    u128::from_be_bytes(bytes)
}

/// Sorts the members of one object (at most [`KEYED`]) into canonical order and returns
/// the key offset of the first one in the document that repeats an earlier key, if
/// any (see [`first_repeat_sorted`]): the same order and answer as sorting by
/// [`compare_members`], with the keys' [`key_prefix`]es compared first.
pub(super) fn sort_members(input: &[u8], words: &[u32], members: &mut [u32]) -> Option<usize> {
    // Room for the prefixes on the stack, no more than the object needs zeroed.
    match members.len() {
        0..=8 => sort_members_in::<8>(input, words, members),
        9..=16 => sort_members_in::<16>(input, words, members),
        _ => sort_members_in::<KEYED>(input, words, members),
    }
}

fn sort_members_in<const N: usize>(
    input: &[u8],
    words: &[u32],
    members: &mut [u32],
) -> Option<usize> {
    let mut keyed = [(0u128, 0u32); N];
    let keyed = keyed.get_mut(..members.len()).unwrap_or_default();
    for (slot, &word) in keyed.iter_mut().zip(members.iter()) {
        *slot = (
            key_prefix(input, member_key_at(words, word), separator(word)),
            word,
        );
    }
    keyed.sort_unstable_by(|a, b| {
        a.0.cmp(&b.0)
            .then_with(|| compare_members(input, words, a.1, b.1))
    });
    for (member, &(_, word)) in members.iter_mut().zip(keyed.iter()) {
        *member = word;
    }
    first_repeat(input, words, keyed)
}

/// [`first_repeat_sorted`] of members with their prefixes: neighbours and searches
/// compare the prefixes first.
fn first_repeat(input: &[u8], words: &[u32], members: &[(u128, u32)]) -> Option<usize> {
    let key_at = |w: u32| member_key_at(words, w);
    // `(prefix, word)` against the key at `key` followed by `sep`, whose prefix is `p`.
    let cmp = |&(q, w): &(u128, u32), p: u128, key: usize, sep: u8| {
        q.cmp(&p)
            .then_with(|| compare_key_sep(input, words, w, key, sep))
    };
    let mut best: Option<usize> = None;
    let mut i = 0;
    while let Some(&(p, first)) = members.get(i) {
        let sep = separator(first);
        let key = key_at(first);
        let run = 1 + members
            .get(i + 1..)
            .unwrap_or_default()
            .iter()
            .take_while(|m| cmp(m, p, key, sep).is_eq())
            .count();
        if run == 1 && sep == b'=' {
            // No repeat with this separator, and a scalar's key repeated by a container
            // is found from the container's side.
            i += 1;
            continue;
        }
        let mut positions = [usize::MAX; 6];
        let mut found = 0;
        for &(_, w) in members.get(i..i + run.min(2)).unwrap_or_default() {
            if let Some(slot) = positions.get_mut(found) {
                *slot = key_at(w);
                found += 1;
            }
        }
        if sep != b'=' {
            for other in [b'=', b'.', b'['] {
                if other == sep {
                    continue;
                }
                let target = key_prefix(input, key, other);
                let lo = members.partition_point(|m| cmp(m, target, key, other).is_lt());
                for m in members.get(lo..).unwrap_or_default().iter().take(2) {
                    if cmp(m, target, key, other).is_eq() {
                        if let Some(slot) = positions.get_mut(found) {
                            *slot = key_at(m.1);
                            found += 1;
                        }
                    }
                }
            }
        }
        positions.sort_unstable();
        if let Some(&second) = positions.get(1).filter(|&&p| p != usize::MAX) {
            best = Some(best.map_or(second, |b| b.min(second)));
        }
        i += run;
    }
    best
}

/// Of the members of one object, sorted by [`compare_members`], the key offset of the
/// first one in the document that repeats an earlier key, if any.
///
/// Equal keys with the same separator are neighbours, by position. The same key with
/// another separator (`"a":1` and `"a":{..}`) may sort apart: for each run of a
/// container's key, the runs of that key with the two other separators are found by
/// binary search. For each key the answer is the second smallest position among its
/// runs' first two; the first repeat is the smallest of those. O(k log k) comparisons.
pub(super) fn first_repeat_sorted(input: &[u8], words: &[u32], members: &[u32]) -> Option<usize> {
    let key_at = |w: u32| member_key_at(words, w);
    let mut best: Option<usize> = None;
    let mut i = 0;
    while let Some(&first) = members.get(i) {
        let sep = separator(first);
        let key = key_at(first);
        let run = 1 + members
            .get(i + 1..)
            .unwrap_or_default()
            .iter()
            .take_while(|&&w| compare_key_sep(input, words, w, key, sep).is_eq())
            .count();
        // At most two positions from each of three runs.
        let mut positions = [usize::MAX; 6];
        let mut found = 0;
        for &w in members.get(i..i + run.min(2)).unwrap_or_default() {
            if let Some(slot) = positions.get_mut(found) {
                *slot = key_at(w);
                found += 1;
            }
        }
        if sep != b'=' {
            for other in [b'=', b'.', b'['] {
                if other == sep {
                    continue;
                }
                let lo = members
                    .partition_point(|&w| compare_key_sep(input, words, w, key, other).is_lt());
                for &w in members.get(lo..).unwrap_or_default().iter().take(2) {
                    if compare_key_sep(input, words, w, key, other).is_eq() {
                        if let Some(slot) = positions.get_mut(found) {
                            *slot = key_at(w);
                            found += 1;
                        }
                    }
                }
            }
        }
        positions.sort_unstable();
        if let Some(&second) = positions.get(1).filter(|&&p| p != usize::MAX) {
            best = Some(best.map_or(second, |b| b.min(second)));
        }
        i += run;
    }
    best
}

/// The indexes `0..n` in the byte order of `index + "]"`: `]` sorts after the digits,
/// so an index comes after every index that extends it (`[10]`, `[11]`, ... before
/// `[1]`). That is 0, then the decimal tree under each of 1 to 9 in post-order.
pub(super) struct IndexOrder {
    n: usize,
    /// `(index, next digit)` from the root (index 0 standing for the root, whose
    /// children are the digits 1 to 9).
    stack: [(usize, u8); 24],
    depth: usize,
    started: bool,
}

impl IndexOrder {
    pub(super) fn new(n: usize) -> IndexOrder {
        IndexOrder {
            n,
            stack: [(0, 1); 24],
            depth: 1,
            started: false,
        }
    }
}

impl Iterator for IndexOrder {
    type Item = usize;

    fn next(&mut self) -> Option<usize> {
        if !self.started {
            self.started = true;
            return (self.n > 0).then_some(0);
        }
        loop {
            let top = self.depth.checked_sub(1)?;
            let (index, digit) = *self.stack.get(top)?;
            if digit <= 9 {
                if let Some(entry) = self.stack.get_mut(top) {
                    entry.1 = digit + 1;
                }
                let child = if top == 0 {
                    usize::from(digit)
                } else {
                    index.saturating_mul(10).saturating_add(usize::from(digit))
                };
                if child < self.n && self.depth < self.stack.len() {
                    if let Some(entry) = self.stack.get_mut(self.depth) {
                        *entry = (child, 0);
                        self.depth += 1;
                    }
                }
            } else {
                self.depth -= 1;
                if top == 0 {
                    return None;
                }
                return Some(index);
            }
        }
    }
}

/// The key at `key_at` followed by `sep` sorts after `senderKey=`: read from the input
/// only as far as it agrees with `senderKey` (keys mostly differ in their first byte);
/// a key with an escape there is unescaped first.
pub(super) fn sorts_after_sender_key(input: &[u8], key_at: usize, sep: u8) -> bool {
    let sender = SENDER_KEY.as_bytes();
    let unescaped = || {
        let key: Vec<u8> = KeyBytes::new(input, key_at, None).collect();
        compare_with_separators(&key, sep, sender, b'=').is_gt()
    };
    for (n, &s) in sender.iter().enumerate() {
        match input.get(key_at + 1 + n) {
            Some(b'\\') => return unescaped(),
            // The key is a prefix of `senderKey`: its separator comes next.
            Some(b'"') | None => return sep > s,
            Some(&b) if b != s => return b > s,
            Some(_) => {}
        }
    }
    match input.get(key_at + 1 + sender.len()) {
        Some(b'\\') => unescaped(),
        // `senderKey` itself, followed by `sep`.
        Some(b'"') | None => sep > b'=',
        // A longer key: after `senderKey=` when its next byte is `=` or above.
        Some(&b) => b >= b'=',
    }
}

#[cfg(test)]
mod tests {
    use super::{key_prefix, KeyBytes};
    /// `key_prefix` is the first 16 bytes of the unescaped key and its separator,
    /// zero-padded, big-endian: checked against that definition for keys around 16 bytes,
    /// with escapes, and at the end of the input.
    #[test]
    fn key_prefixes_are_the_first_sixteen_bytes_of_key_and_separator() {
        let keys = [
            "",
            "a",
            "beneficiaryName",
            "beneficiaryNameX",
            "beneficiaryNameXY",
            "a\\u0062c",
            "abcdefghijklmno\\n",
            "abcdefghijklmnop\\\"q",
            "\\\\",
            "电子元件key",
            "exactly15bytes_",
            // An escape first, with 16 bytes of input after the quote.
            "\\u0065\":1,\"e\":1}}",
        ];
        for key in keys {
            for tail in ["\":1}", "\""] {
                let input = format!("\"{key}{tail}");
                for sep in [b'=', b'.', b'['] {
                    let mut expected = [0u8; 16];
                    for (slot, b) in
                        expected
                            .iter_mut()
                            .zip(KeyBytes::new(input.as_bytes(), 0, Some(sep)))
                    {
                        *slot = b;
                    }
                    assert_eq!(
                        key_prefix(input.as_bytes(), 0, sep),
                        u128::from_be_bytes(expected),
                        "{input} {}",
                        char::from(sep)
                    );
                }
            }
        }
    }
}
