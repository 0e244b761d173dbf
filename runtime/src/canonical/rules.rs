//! The re-cut rules R1 and R3 on bytes (see [`super::Ambiguity`]).

use super::SENDER_KEY;

/// A byte that may be part of an object key under rule R1 (and of a key in a value
/// under rule R3): anything but `&`, `=`, `.`, `[` and `]`.
pub(super) fn is_key_byte(b: u8) -> bool {
    !matches!(b, b'&' | b'=' | b'.' | b'[' | b']')
}

/// Rule R3: `value` holds `&` followed by a key (one or more [`is_key_byte`]s), any
/// number of `.key` or `[digits]`, and `=`.
///
/// Linear: no byte after an `&` that the scan from it reads is `&`, so each scan stops
/// at the next `&` at the latest.
pub(super) fn reads_as_pair_after_ampersand(value: &[u8]) -> bool {
    let mut rest = value;
    while let Some(at) = rest.iter().position(|&b| b == b'&') {
        rest = rest.get(at + 1..).unwrap_or_default();
        if reads_as_path_then_equals(rest) {
            return true;
        }
    }
    false
}

/// `s` starts with `key(.key|[digits])*=` (see [`reads_as_pair_after_ampersand`]).
pub(super) fn reads_as_path_then_equals(s: &[u8]) -> bool {
    let key_len = |s: &[u8]| s.iter().take_while(|&&b| is_key_byte(b)).count();
    let mut i = key_len(s);
    if i == 0 {
        return false;
    }
    loop {
        match s.get(i) {
            Some(b'=') => return true,
            Some(b'.') => {
                let n = key_len(s.get(i + 1..).unwrap_or_default());
                if n == 0 {
                    return false;
                }
                i += 1 + n;
            }
            Some(b'[') => {
                let digits = s.get(i + 1..).unwrap_or_default();
                let n = digits.iter().take_while(|b| b.is_ascii_digit()).count();
                if n == 0 || digits.get(n) != Some(&b']') {
                    return false;
                }
                i += 2 + n;
            }
            _ => return false,
        }
    }
}

/// A pair whose path is the top-level `senderKey`.
pub(super) fn is_sender_key_pair(pair: &str) -> bool {
    pair.strip_prefix(SENDER_KEY)
        .is_some_and(|rest| rest.starts_with('='))
}
