//! The lean pass's scans (see the parent module): the run of a plain key and of a
//! string, eight bytes at a time, and the envelope members it notes by name.

use super::super::scan::{bytes_equal, HIGH, ONES};

/// The high bit of each byte of `v` below 0x20 (exact for the lowest, as
/// [`bytes_equal`]).
#[inline(always)]
pub(super) fn control(v: u64) -> u64 {
    v.wrapping_sub(ONES * 0x20) & !v & HIGH
}

/// The word of the eight bytes at `at`, if there are eight.
#[inline(always)]
fn word(input: &[u8], at: usize) -> Option<u64> {
    input
        .get(at..at + 8)
        .and_then(|bytes| <[u8; 8]>::try_from(bytes).ok())
        .map(u64::from_le_bytes)
}

/// Length of the run of a plain key from `at`: up to the first byte that is `"`, `\\`,
/// a control character, not ASCII, or one rule R1 refuses.
#[inline]
pub(super) fn key_run(input: &[u8], at: usize) -> usize {
    let mut i = at;
    while let Some(v) = word(input, i) {
        let found = bytes_equal(v, b'"')
            | bytes_equal(v, b'\\')
            | control(v)
            | (v & HIGH)
            | bytes_equal(v, b'&')
            | bytes_equal(v, b'=')
            | bytes_equal(v, b'.')
            | bytes_equal(v, b'[')
            | bytes_equal(v, b']');
        if found != 0 {
            return i - at + (found.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    let rest = input.get(i..).unwrap_or_default();
    let plain = |&b: &u8| {
        (0x20..0x80).contains(&b) && !matches!(b, b'"' | b'\\' | b'&' | b'=' | b'.' | b'[' | b']')
    };
    i - at + rest.iter().take_while(|b| plain(b)).count()
}

/// [`string_run`]'s length alone (the signature's text: its `&` does not matter).
#[inline]
pub(super) fn quoted_run(input: &[u8], at: usize) -> usize {
    let mut i = at;
    while let Some(v) = word(input, i) {
        let found = bytes_equal(v, b'"') | bytes_equal(v, b'\\') | control(v);
        if found != 0 {
            return i - at + (found.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    let rest = input.get(i..).unwrap_or_default();
    i - at
        + rest
            .iter()
            .position(|&b| b == b'"' || b == b'\\' || b < 0x20)
            .unwrap_or(rest.len())
}

/// Length of the run of ASCII digits from `at`, eight bytes at a time. For an ASCII
/// byte `x`, `x + 0x50` has its high bit set exactly when `x >= b'0'` and `x + 0x46`
/// exactly when `x > b'9'`, and neither carries into the next byte; a byte that is not
/// ASCII is marked by its own high bit, and what it carries upward cannot move the
/// lowest mark.
#[inline]
pub(super) fn digit_run(input: &[u8], at: usize) -> usize {
    let mut i = at;
    while let Some(v) = word(input, i) {
        let digit = v.wrapping_add(ONES * 0x50) & !v.wrapping_add(ONES * 0x46) & !v & HIGH;
        let other = !digit & HIGH;
        if other != 0 {
            return i - at + (other.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    let rest = input.get(i..).unwrap_or_default();
    i - at + rest.iter().take_while(|b| b.is_ascii_digit()).count()
}

/// The members of an answer's envelope whose values its opener reads: the lean pass
/// notes where they are as it reads their keys.
pub(crate) const ENVELOPE_MEMBERS: [&str; 6] = [
    "requestId",
    "code",
    "msg",
    "data",
    "notificationType",
    "params",
];

/// The place of `key` in [`ENVELOPE_MEMBERS`] (compared as arrays of the name's length:
/// no call to compare).
#[inline(always)]
pub(super) fn envelope_slot(key: &[u8]) -> Option<usize> {
    fn is<const N: usize>(key: &[u8], name: &[u8; N]) -> bool {
        <&[u8; N]>::try_from(key).is_ok_and(|key| key == name)
    }
    match key.len() {
        9 if is(key, b"requestId") => Some(0),
        4 if is(key, b"code") => Some(1),
        3 if is(key, b"msg") => Some(2),
        4 if is(key, b"data") => Some(3),
        16 if is(key, b"notificationType") => Some(4),
        6 if is(key, b"params") => Some(5),
        _ => None,
    }
}

/// True when `key` is `name` (compared as a nine-byte array: no call to compare).
#[inline(always)]
pub(super) fn is(key: &[u8], name: &[u8; 9]) -> bool {
    <&[u8; 9]>::try_from(key).is_ok_and(|key| key == name)
}

/// The run of a string from `at` up to the first `"`, `\\` or control character: its
/// length and whether it holds `&`.
#[inline(always)]
pub(super) fn string_run(input: &[u8], at: usize) -> (usize, bool) {
    let mut i = at;
    let mut ampersand = 0u64;
    while let Some(v) = word(input, i) {
        let found = bytes_equal(v, b'"') | bytes_equal(v, b'\\') | control(v);
        let amp = bytes_equal(v, b'&');
        if found != 0 {
            let bytes = found.trailing_zeros() / 8;
            // The bytes of the word before the one that ends the run (a `&` marked
            // there is a real one: a false mark lies above a real one).
            let before = u64::MAX.checked_shr(64 - 8 * bytes).unwrap_or(0);
            ampersand |= amp & before;
            return (i - at + bytes as usize, ampersand != 0);
        }
        ampersand |= amp;
        i += 8;
    }
    let rest = input.get(i..).unwrap_or_default();
    let len = rest
        .iter()
        .position(|&b| b == b'"' || b == b'\\' || b < 0x20)
        .unwrap_or(rest.len());
    let run = rest.get(..len).unwrap_or_default();
    (i - at + len, ampersand != 0 || run.contains(&b'&'))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every byte, at every place of a run of digits of up to twenty bytes, with more
    /// after it: the run stops where a byte-by-byte check stops.
    #[test]
    fn digit_runs_stop_where_a_byte_by_byte_scan_stops() {
        for len in 0..20 {
            for at in 0..len {
                for b in 0..=255u8 {
                    let mut digits = vec![b'7'; len];
                    digits[at] = b;
                    for tail in [
                        &b",1"[..],
                        b"\xff\xff\xff\xff\xff\xff\xff\xff",
                        b"",
                        b"0123456789",
                    ] {
                        let input = [&digits[..], tail].concat();
                        let naive = input.iter().take_while(|c| c.is_ascii_digit()).count();
                        assert_eq!(digit_run(&input, 0), naive, "{input:?}");
                    }
                }
            }
        }
    }

    /// Every byte, at every place of a key of up to twenty bytes, with more after it:
    /// the run stops where a byte-by-byte check stops.
    #[test]
    fn key_runs_stop_where_a_byte_by_byte_scan_stops() {
        let plain = |b: u8| {
            (0x20..0x80).contains(&b)
                && !matches!(b, b'"' | b'\\' | b'&' | b'=' | b'.' | b'[' | b']')
        };
        for len in 0..20 {
            for at in 0..len {
                for b in 0..=255u8 {
                    let mut key = vec![b'k'; len];
                    key[at] = b;
                    for tail in [&b"\"rest"[..], b"\xff\xff\xff\xff\xff\xff\xff\xff", b""] {
                        let input = [&key[..], tail].concat();
                        let naive = input.iter().take_while(|&&c| plain(c)).count();
                        assert_eq!(key_run(&input, 0), naive, "{input:?}");
                    }
                }
            }
        }
    }
}
