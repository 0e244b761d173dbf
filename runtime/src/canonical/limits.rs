//! The limits that keep the work of reading a hostile body linear in its length.

/// Deepest nesting of objects and arrays accepted (the top-level object is depth 1).
pub const MAX_DEPTH: usize = 64;

/// The pairs of a body (their `path=value` text) may be at most this many times as
/// long as the body, plus [`EXPANSION_ALLOWANCE`] bytes; at every point of the body,
/// not only at its end, so a body is refused as soon as it goes over.
///
/// Every pair repeats the whole path of its value, so one long key above many short
/// values gives a canonical string quadratically longer than the body (a 4 KiB key
/// over 2 MiB of `1,` would be 4 GiB to hash). The pairs are counted, not written (see
/// the module's doc): this bounds the work of hashing them, not memory. Messages of
/// the API have short keys: their pairs are a few times their size (an array of
/// one-digit numbers under `data.list`, the densest there is, about 13 times).
pub const MAX_EXPANSION: usize = 32;

/// Bytes of pairs allowed on top of [`MAX_EXPANSION`] times the body (for small bodies
/// nested deep).
pub const EXPANSION_ALLOWANCE: usize = 64 * 1024;

/// Longest body read (its offsets fit the tree's words): longer ones are refused as
/// [`super::CanonicalError::TooLarge`].
pub const MAX_BODY: usize = (1 << 29) - 1;

/// True when `pair_bytes` bytes of pairs are more than the `read` bytes of body read
/// so far allow ([`MAX_EXPANSION`] times, plus [`EXPANSION_ALLOWANCE`]). Both parsers
/// check it after every member and element, so a body is refused where it goes over.
pub(super) fn over_budget(read: usize, pair_bytes: usize) -> bool {
    pair_bytes
        > read
            .saturating_mul(MAX_EXPANSION)
            .saturating_add(EXPANSION_ALLOWANCE)
}
