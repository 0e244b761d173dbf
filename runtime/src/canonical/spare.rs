//! Buffers a thread keeps between the bodies it signs or verifies: the words of a tree
//! and the paths of the parser and of the walk, so that a call reuses the previous
//! call's instead of allocating (and zeroing) its own. Only small buffers are kept
//! (see [`KEEP_WORDS`], [`KEEP_PATH`]): a large body's are freed as before, so what a
//! thread holds between calls stays a few KiB.

use std::cell::RefCell;

/// Largest number of words kept (16 KiB).
const KEEP_WORDS: usize = 4096;
/// Largest path kept, in bytes.
const KEEP_PATH: usize = 1024;

#[derive(Default)]
struct Spare {
    words: Vec<u32>,
    /// The parser's and the walk's.
    paths: [Vec<u8>; 2],
}

thread_local! {
    static SPARE: RefCell<Spare> = RefCell::new(Spare::default());
}

/// `len` zeroed words: the kept buffer when it is large enough, a new one otherwise
/// (never grown in place, which would hold the old and the new block at once).
pub(super) fn words(len: usize) -> Vec<u32> {
    let kept = SPARE
        .try_with(|spare| std::mem::take(&mut spare.borrow_mut().words))
        .unwrap_or_default();
    if kept.capacity() < len {
        return vec![0; len];
    }
    let mut words = kept;
    words.clear();
    words.resize(len, 0);
    words
}

/// Keeps `words` for the next parse on this thread, when small enough.
pub(super) fn keep_words(words: Vec<u32>) {
    if words.capacity() <= KEEP_WORDS {
        let _ = SPARE.try_with(|spare| {
            let mut spare = spare.borrow_mut();
            if spare.words.capacity() < words.capacity() {
                spare.words = words;
            }
        });
    }
}

/// An empty path buffer (the kept one, or a new one of 64 bytes).
pub(super) fn path() -> Vec<u8> {
    let kept = SPARE
        .try_with(|spare| {
            let mut spare = spare.borrow_mut();
            spare
                .paths
                .iter_mut()
                .find(|p| p.capacity() > 0)
                .map(std::mem::take)
        })
        .ok()
        .flatten();
    match kept {
        Some(mut path) => {
            path.clear();
            path
        }
        None => Vec::with_capacity(64),
    }
}

/// Keeps `path` for a later parse or walk on this thread, when small enough.
pub(super) fn keep_path(path: Vec<u8>) {
    if path.capacity() <= KEEP_PATH {
        let _ = SPARE.try_with(|spare| {
            let mut spare = spare.borrow_mut();
            if let Some(slot) = spare.paths.iter_mut().find(|p| p.capacity() == 0) {
                *slot = path;
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buffers_are_reused_zeroed_and_only_when_small() {
        let mut words = words(10);
        words.fill(7);
        let at = words.as_ptr();
        keep_words(words);
        let again = super::words(8);
        assert_eq!(again.as_ptr(), at, "the kept buffer is reused");
        assert_eq!(again, vec![0; 8]);
        keep_words(again);
        // Larger than kept: a new buffer, zeroed.
        assert_eq!(super::words(100), vec![0; 100]);
        keep_words(vec![1; KEEP_WORDS + 1]);
        assert!(SPARE.with(|s| s.borrow().words.capacity() <= KEEP_WORDS));
        let mut p = path();
        p.extend_from_slice(b"abc");
        keep_path(p);
        let q = path();
        assert!(q.is_empty() && q.capacity() >= 3);
        keep_path(q);
        keep_path(vec![0; KEEP_PATH + 1]);
        assert!(SPARE.with(|s| s.borrow().paths.iter().all(|p| p.capacity() <= KEEP_PATH)));
    }
}
