//! The tokenizer shared by both parsers: JSON strings (unescaped to UTF-8), escapes,
//! plain runs eight bytes at a time, decimal indexes.

use super::CanonicalError;

/// The reading position of a parser in its body, and the tokens both parsers read the
/// same way (whitespace, punctuation, keywords, numbers).
pub(super) trait Tokens {
    /// The body.
    fn input(&self) -> &[u8];
    /// The offset of the next byte to read.
    fn pos(&mut self) -> &mut usize;

    fn peek(&mut self) -> Option<u8> {
        let at = *self.pos();
        self.input().get(at).copied()
    }

    fn syntax(&mut self, expected: &'static str) -> CanonicalError {
        CanonicalError::Syntax {
            offset: *self.pos(),
            expected,
        }
    }

    fn skip_ws(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.peek() {
            *self.pos() += 1;
        }
    }

    fn expect(&mut self, byte: u8, expected: &'static str) -> Result<(), CanonicalError> {
        if self.peek() == Some(byte) {
            *self.pos() += 1;
            Ok(())
        } else {
            Err(self.syntax(expected))
        }
    }

    fn keyword(&mut self, word: &'static [u8]) -> Result<(), CanonicalError> {
        let at = *self.pos();
        if self.input().get(at..at + word.len()) == Some(word) {
            *self.pos() += word.len();
            Ok(())
        } else {
            Err(self.syntax("a JSON value"))
        }
    }

    fn digits(&mut self) -> usize {
        let begin = *self.pos();
        while let Some(b'0'..=b'9') = self.peek() {
            *self.pos() += 1;
        }
        *self.pos() - begin
    }

    /// JSON number grammar: `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`.
    fn number(&mut self) -> Result<(), CanonicalError> {
        if self.peek() == Some(b'-') {
            *self.pos() += 1;
        }
        match self.peek() {
            Some(b'0') => *self.pos() += 1,
            Some(b'1'..=b'9') => {
                self.digits();
            }
            _ => return Err(self.syntax("a digit")),
        }
        if self.peek() == Some(b'.') {
            *self.pos() += 1;
            if self.digits() == 0 {
                return Err(self.syntax("a digit after `.`"));
            }
        }
        if let Some(b'e' | b'E') = self.peek() {
            *self.pos() += 1;
            if let Some(b'+' | b'-') = self.peek() {
                *self.pos() += 1;
            }
            if self.digits() == 0 {
                return Err(self.syntax("a digit in the exponent"));
            }
        }
        Ok(())
    }
}

/// The offset after the string whose opening quote is at `quote` (or the end).
pub(super) fn string_end(input: &[u8], quote: usize) -> usize {
    let mut i = quote + 1;
    loop {
        i += plain_run(input.get(i..).unwrap_or_default());
        match input.get(i) {
            None => return input.len(),
            Some(b'"') => return i + 1,
            Some(b'\\') => i += 2,
            // A control character: invalid, left to the parser.
            Some(_) => i += 1,
        }
    }
}

/// The offset after the JSON value that starts at `start`, in a body that parsed: after
/// its closing quote or bracket, or its last character. One pass, strings skipped a
/// run at a time.
pub(super) fn value_end(input: &[u8], start: usize) -> usize {
    let mut depth = 0usize;
    let mut i = start;
    loop {
        match input.get(i) {
            None => return input.len(),
            Some(b'"') => {
                i = string_end(input, i);
                if depth == 0 {
                    return i;
                }
                continue;
            }
            Some(b'{' | b'[') => depth += 1,
            Some(b'}' | b']') => {
                if depth <= 1 {
                    return if depth == 0 { i } else { i + 1 };
                }
                depth -= 1;
            }
            Some(b',' | b' ' | b'\t' | b'\n' | b'\r') if depth == 0 => return i,
            _ => {}
        }
        i += 1;
    }
}

pub(super) fn push_decimal(out: &mut Vec<u8>, mut n: usize) {
    let mut digits = [0u8; 20];
    let mut i = digits.len();
    loop {
        i -= 1;
        if let Some(d) = digits.get_mut(i) {
            *d = b'0' + (n % 10) as u8;
        }
        n /= 10;
        if n == 0 || i == 0 {
            break;
        }
    }
    out.extend_from_slice(digits.get(i..).unwrap_or_default());
}

pub(super) fn hex_digit(b: u8) -> Option<u16> {
    match b {
        b'0'..=b'9' => Some(u16::from(b - b'0')),
        b'a'..=b'f' => Some(u16::from(b - b'a' + 10)),
        b'A'..=b'F' => Some(u16::from(b - b'A' + 10)),
        _ => None,
    }
}

pub(super) fn hex4(input: &[u8], pos: &mut usize) -> Result<u16, CanonicalError> {
    let mut v = 0u16;
    for _ in 0..4 {
        let d = input
            .get(*pos)
            .copied()
            .and_then(hex_digit)
            .ok_or(CanonicalError::Syntax {
                offset: *pos,
                expected: "four hex digits after `\\u`",
            })?;
        v = (v << 4) | d;
        *pos += 1;
    }
    Ok(v)
}

/// A byte that ends a run of plain string text: `"`, `\\` or a control character (the
/// reference the word scans are tested against).
#[cfg(test)]
pub(super) fn ends_run(b: u8) -> bool {
    b == b'"' || b == b'\\' || b < 0x20
}

/// Length of the longest prefix of `s` without a byte that ends a run (`ends_run`).
///
/// Eight bytes at a time: for a word `v`, `(v - 0x01..01 * n) & !v & 0x80..80` has the
/// high bit set in the lowest byte below `n` (and maybe in bytes above it, through the
/// borrow, never below it), so the lowest set bit of the three tests below (`== '"'`,
/// `== '\\'`, `< 0x20`) is the first byte that ends the run. Checked against
/// `ends_run` byte by byte in the tests.
#[inline]
pub(super) fn plain_run(s: &[u8]) -> usize {
    plain_run_ascii(s).0
}

/// `0x01` in every byte of a word, and the high bit of every byte.
pub(super) const ONES: u64 = 0x0101_0101_0101_0101;
pub(super) const HIGH: u64 = 0x8080_8080_8080_8080;

/// The high bit of each byte of `v` equal to `b`, and maybe of bytes above one that is
/// (through the borrow): the lowest set bit is exact, and the result is zero exactly
/// when no byte is `b`.
#[inline(always)]
pub(super) fn bytes_equal(v: u64, b: u8) -> u64 {
    let x = v ^ (ONES * u64::from(b));
    x.wrapping_sub(ONES) & !x & HIGH
}

/// [`plain_run`], and whether every byte of the run is ASCII (the high bits of its
/// words, gathered on the way: no second pass to know whether it needs a UTF-8 check).
#[inline(always)]
pub(super) fn plain_run_ascii(s: &[u8]) -> (usize, bool) {
    run_ascii::<false>(s)
}

/// [`plain_run_ascii`], the run also ending at `&` when `AMPERSAND` (for rule R3, found
/// in the same scan).
#[inline(always)]
pub(super) fn run_ascii<const AMPERSAND: bool>(s: &[u8]) -> (usize, bool) {
    let mut chunks = s.chunks_exact(8);
    let mut done = 0;
    let mut high = 0u64;
    for chunk in &mut chunks {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        let v = u64::from_le_bytes(word);
        let ampersand = if AMPERSAND { bytes_equal(v, b'&') } else { 0 };
        let found = bytes_equal(v, b'"')
            | bytes_equal(v, b'\\')
            | (v.wrapping_sub(ONES * 0x20) & !v & HIGH)
            | ampersand;
        if found != 0 {
            let bytes = found.trailing_zeros() / 8;
            // The bytes of the word before the one that ends the run.
            let before = u64::MAX.checked_shr(64 - 8 * bytes).unwrap_or(0);
            high |= v & before;
            return (done + bytes as usize, high & HIGH == 0);
        }
        high |= v;
        done += 8;
    }
    // The last bytes as one more word, padded with `a` (which ends no run and is
    // ASCII): no byte-by-byte loop.
    let rest = chunks.remainder();
    if rest.is_empty() {
        return (done, high & HIGH == 0);
    }
    let mut word = [b'a'; 8];
    for (slot, &b) in word.iter_mut().zip(rest) {
        *slot = b;
    }
    let v = u64::from_le_bytes(word);
    let ampersand = if AMPERSAND { bytes_equal(v, b'&') } else { 0 };
    let found = bytes_equal(v, b'"')
        | bytes_equal(v, b'\\')
        | (v.wrapping_sub(ONES * 0x20) & !v & HIGH)
        | ampersand;
    if found != 0 {
        let bytes = found.trailing_zeros() / 8;
        let before = u64::MAX.checked_shr(64 - 8 * bytes).unwrap_or(0);
        high |= v & before;
        return (done + bytes as usize, high & HIGH == 0);
    }
    (done + rest.len(), (high | v) & HIGH == 0)
}

/// [`plain_run`] of a string of a body that parsed (no control character in it): only
/// `"` and `\\` end the run, two tests a word instead of three.
#[inline(always)]
pub(super) fn parsed_run(s: &[u8]) -> usize {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let mut chunks = s.chunks_exact(8);
    let mut done = 0;
    for chunk in &mut chunks {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        let v = u64::from_le_bytes(word);
        let quote = v ^ (ONES * u64::from(b'"'));
        let backslash = v ^ (ONES * u64::from(b'\\'));
        let found = ((quote.wrapping_sub(ONES) & !quote)
            | (backslash.wrapping_sub(ONES) & !backslash))
            & HIGH;
        if found != 0 {
            return done + (found.trailing_zeros() / 8) as usize;
        }
        done += 8;
    }
    let rest = chunks.remainder();
    done + rest
        .iter()
        .position(|&b| b == b'"' || b == b'\\')
        .unwrap_or(rest.len())
}

/// Where unescaped string text goes.
pub(super) trait Out {
    fn put(&mut self, bytes: &[u8]);
}

impl Out for Vec<u8> {
    fn put(&mut self, bytes: &[u8]) {
        self.extend_from_slice(bytes);
    }
}

/// Reads a JSON string at `*pos` (which must be `"`) and writes its unescaped UTF-8
/// text to `out`. Runs without escapes are written in one go.
pub(super) fn string<O: Out + ?Sized>(
    input: &[u8],
    pos: &mut usize,
    out: &mut O,
) -> Result<(), CanonicalError> {
    string_checked::<true, O>(input, pos, out)
}

/// [`string`] of a body that parsed (its UTF-8 was checked then): the canonical
/// string is written without checking it again.
pub(super) fn unescape<O: Out + ?Sized>(input: &[u8], pos: &mut usize, out: &mut O) {
    let _ = string_checked::<false, O>(input, pos, out);
}

#[inline(always)]
pub(super) fn string_checked<const CHECK_UTF8: bool, O: Out + ?Sized>(
    input: &[u8],
    pos: &mut usize,
    out: &mut O,
) -> Result<(), CanonicalError> {
    let syntax = |offset, expected| CanonicalError::Syntax { offset, expected };
    if input.get(*pos) != Some(&b'"') {
        return Err(syntax(*pos, "`\"`"));
    }
    *pos += 1;
    loop {
        let run_start = *pos;
        let rest = input.get(run_start..).unwrap_or_default();
        let (len, ascii) = if CHECK_UTF8 {
            plain_run_ascii(rest)
        } else {
            (parsed_run(rest), true)
        };
        *pos += len;
        let run = input.get(run_start..*pos).unwrap_or_default();
        // A run ends at an ASCII byte, so it never splits a UTF-8 sequence.
        if CHECK_UTF8 && !ascii {
            if let Err(e) = std::str::from_utf8(run) {
                return Err(CanonicalError::InvalidUtf8 {
                    offset: run_start + e.valid_up_to(),
                });
            }
        }
        if !run.is_empty() {
            out.put(run);
        }
        match input.get(*pos) {
            None => return Err(syntax(*pos, "closing `\"`")),
            Some(b'"') => {
                *pos += 1;
                return Ok(());
            }
            Some(b'\\') => {
                *pos += 1;
                let (bytes, len) = escape(input, pos)?;
                out.put(bytes.get(..len).unwrap_or_default());
            }
            Some(_) => return Err(syntax(*pos, "no raw control character in a string")),
        }
    }
}

/// The UTF-8 bytes (and their number) of the escape after a `\` at `*pos`, which is
/// moved past it.
pub(super) fn escape(input: &[u8], pos: &mut usize) -> Result<([u8; 4], usize), CanonicalError> {
    let syntax = |offset, expected| CanonicalError::Syntax { offset, expected };
    let escaped = match input.get(*pos) {
        Some(b'"') => b'"',
        Some(b'\\') => b'\\',
        Some(b'/') => b'/',
        Some(b'b') => 0x08,
        Some(b'f') => 0x0c,
        Some(b'n') => b'\n',
        Some(b'r') => b'\r',
        Some(b't') => b'\t',
        Some(b'u') => {
            *pos += 1;
            let at = *pos;
            let unit = hex4(input, pos)?;
            let code = match unit {
                0xD800..=0xDBFF => {
                    if input.get(*pos..*pos + 2) != Some(b"\\u") {
                        return Err(syntax(*pos, "a low surrogate `\\uDC00`-`\\uDFFF`"));
                    }
                    *pos += 2;
                    let low = hex4(input, pos)?;
                    if !(0xDC00..=0xDFFF).contains(&low) {
                        return Err(syntax(*pos, "a low surrogate `\\uDC00`-`\\uDFFF`"));
                    }
                    0x10000 + ((u32::from(unit) - 0xD800) << 10) + (u32::from(low) - 0xDC00)
                }
                0xDC00..=0xDFFF => {
                    return Err(syntax(at, "no lone low surrogate"));
                }
                other => u32::from(other),
            };
            let c = char::from_u32(code).ok_or(syntax(at, "a Unicode scalar value"))?;
            let mut utf8 = [0u8; 4];
            let len = c.encode_utf8(&mut utf8).len();
            return Ok((utf8, len));
        }
        _ => return Err(syntax(*pos, "a valid escape")),
    };
    *pos += 1;
    Ok(([escaped, 0, 0, 0], 1))
}
