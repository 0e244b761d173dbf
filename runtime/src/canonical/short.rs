//! A buffer written in short pieces (issue 36 item 4: the call's own work).
//!
//! The lean pass writes each pair as a few pieces (a key, `=`, a value of a few bytes);
//! a `Vec` checks its capacity and may grow for each of them. [`Written`] checks the
//! room for all the pieces of a pair once, against the caller's limit, and copies them
//! into bytes allocated (zeroed) ahead of what is written.

/// A buffer of bytes written in short pieces: `len` of them are
/// written, the rest allocated (zeroed) for what comes. It grows on demand, to at most
/// the `limit` given with each write (the caller's bound on what it keeps).
pub(super) struct Written {
    buf: Vec<u8>,
    len: usize,
}

impl Written {
    /// An empty buffer with `room` bytes allocated.
    pub(super) fn with_room(room: usize) -> Written {
        Written {
            buf: vec![0; room],
            len: 0,
        }
    }

    pub(super) fn clear(&mut self) {
        self.len = 0;
    }

    pub(super) fn len(&self) -> usize {
        self.len
    }

    /// The bytes written.
    pub(super) fn bytes(&self) -> &[u8] {
        self.buf.get(..self.len).unwrap_or_default()
    }

    /// Appends `pieces`, one after the other, unless they would take the buffer past
    /// `limit` bytes (then `None`, and nothing is written).
    #[inline(always)]
    pub(super) fn put<const N: usize>(&mut self, pieces: [&[u8]; N], limit: usize) -> Option<()> {
        let total: usize = pieces.iter().map(|p| p.len()).sum();
        let end = self.len + total;
        if end > limit {
            return None;
        }
        if end > self.buf.len() {
            self.grow(end, limit);
        }
        for piece in pieces {
            let end = self.len + piece.len();
            self.buf.get_mut(self.len..end)?.copy_from_slice(piece);
            self.len = end;
        }
        Some(())
    }

    /// Room for at least `end` bytes (twice as many as before, up to `limit`).
    #[cold]
    #[inline(never)]
    fn grow(&mut self, end: usize, limit: usize) {
        let room = end.max(self.buf.len().saturating_mul(2).min(limit));
        self.buf.resize(room, 0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn written_grows_to_its_limit_and_refuses_beyond() {
        let mut w = Written::with_room(4);
        assert_eq!(
            w.put([b"ab", b"=", b"cdefghijklmnopqrstuvwxyz0123456789"], 100),
            Some(())
        );
        assert_eq!(w.bytes(), b"ab=cdefghijklmnopqrstuvwxyz0123456789");
        assert_eq!(w.put([b"x"; 70], 100), None);
        assert_eq!(w.len(), 37, "nothing written when refused");
        assert_eq!(w.put([b"y"; 63], 100), Some(()));
        assert_eq!(w.len(), 100);
        assert!(w.buf.len() <= 100);
        w.clear();
        assert_eq!(w.bytes(), b"");
    }
}
