//! The one pass's pieces of text: strings and keys read from the body, and the blocks in
//! which the pairs of one array element are kept (see `Flat`).

use super::super::scan::Out;
use super::super::scan::{bytes_equal, escape, run_ascii};
use super::super::walk::Hashing;

/// The high bit of a record's end: the record is a block (the pairs of one array
/// element), not one pair. Text stays far below 2 GiB (the body's size at most, plus
/// a little, for a body above the small size; 64 KiB below it).
pub(super) const BLOCK: u32 = 1 << 31;

/// The run `input[start..end]` of a string is UTF-8 (checked only when not ASCII).
pub(super) fn utf8(input: &[u8], start: usize, end: usize, ascii: bool) -> bool {
    ascii || std::str::from_utf8(input.get(start..end).unwrap_or_default()).is_ok()
}

/// Appends `bytes` to `out` unless that would take it past `limit` bytes.
#[inline(always)]
pub(super) fn put_within(out: &mut Vec<u8>, bytes: &[u8], limit: usize) -> Option<()> {
    if out.len() + bytes.len() > limit {
        return None;
    }
    out.extend_from_slice(bytes);
    Some(())
}

/// True when the key `input[start..end]` holds a byte rule R1 refuses in a key (`&`,
/// `=`, `.`, `[`, `]`), eight bytes at a time: the last word read from the body and the
/// bytes after the key masked off (no copy into a word, whose load would wait on it).
#[inline]
pub(super) fn holds_refused_key_byte(input: &[u8], start: usize, end: usize) -> bool {
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

/// Reads the JSON string at `*pos` (its quote), checking its UTF-8, and writes its
/// unescaped text to `out` (never past `limit` bytes); whether the text holds `&`.
/// `None` for a string that is no JSON (a raw control character, a bad escape, no
/// closing quote) or would take `out` past `limit`.
#[inline]
pub(super) fn string_value(
    input: &[u8],
    pos: &mut usize,
    out: &mut Vec<u8>,
    limit: usize,
) -> Option<bool> {
    *pos += 1;
    let mut ampersand = false;
    loop {
        let start = *pos;
        let (len, ascii) = run_ascii::<true>(input.get(start..).unwrap_or_default());
        *pos += len;
        if !utf8(input, start, *pos, ascii) {
            return None;
        }
        put_within(out, input.get(start..*pos).unwrap_or_default(), limit)?;
        match input.get(*pos)? {
            b'"' => {
                *pos += 1;
                return Some(ampersand);
            }
            b'&' => {
                ampersand = true;
                put_within(out, b"&", limit)?;
                *pos += 1;
            }
            b'\\' => {
                *pos += 1;
                let (bytes, len) = escape(input, pos).ok()?;
                let text = bytes.get(..len).unwrap_or_default();
                ampersand = ampersand || text.contains(&b'&');
                put_within(out, text, limit)?;
            }
            _ => return None,
        }
    }
}

/// The decimal digits of `n`, at the end of the array, and how many there are.
fn decimal(mut n: usize) -> ([u8; 20], usize) {
    let mut digits = [0u8; 20];
    let mut count = 0;
    loop {
        count += 1;
        if let Some(d) = digits.get_mut(20 - count) {
            *d = b'0' + (n % 10) as u8;
        }
        n /= 10;
        if n == 0 || count == 20 {
            return (digits, count);
        }
    }
}

/// Hashes the pairs of a block, joined with `&`: each is its element's path (the path
/// of the array numbered `array` in `array_at`, whose text is in `arrays`, and
/// `[index]`) followed by its own text in `text` (the rest of its path, `=`, the
/// value). A block is `(array, index)` then the records of its pairs.
#[inline]
pub(super) fn put_block(
    block: &[(u32, u32)],
    text: &[u8],
    arrays: &[u8],
    array_at: &[(u32, u32)],
    hashing: &mut Hashing,
) {
    let Some((&(array, index), pairs)) = block.split_first() else {
        return;
    };
    let path = array_at
        .get(array as usize)
        .and_then(|&(start, end)| arrays.get(start as usize..end as usize))
        .unwrap_or_default();
    // The element's path, `path[index]`, on the stack when it fits (nearly always).
    let mut stack = [0u8; 128];
    let mut len = 0;
    let mut push = |bytes: &[u8]| {
        if let Some(room) = stack.get_mut(len..len + bytes.len()) {
            room.copy_from_slice(bytes);
        }
        len += bytes.len();
    };
    let (digits, count) = decimal(index as usize);
    let index_text = digits.get(digits.len() - count..).unwrap_or_default();
    push(path);
    push(b"[");
    push(index_text);
    push(b"]");
    let prefix = stack.get(..len).unwrap_or_default();
    for (n, &(start, end)) in pairs.iter().enumerate() {
        let own = text.get(start as usize..end as usize).unwrap_or_default();
        let amp = if n == 0 { &b""[..] } else { b"&" };
        if prefix.is_empty() {
            hashing.put(amp);
            hashing.put(path);
            hashing.put(b"[");
            hashing.put(index_text);
            hashing.put(b"]");
            hashing.put(own);
        } else {
            hashing.put3(amp, prefix, own);
        }
    }
}
