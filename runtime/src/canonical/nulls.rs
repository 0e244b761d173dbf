//! The paths of the `null` members of a body that parsed: what a signer skips (the API
//! document leaves nulls out of the canonical string) and warns about (issue 34 item 10).
//!
//! Run only when the parse met a null member (the parsers record the first one), as a
//! second pass over the body: nothing is kept while parsing, so a body of many nulls
//! under a long path costs no memory beyond the one path being written (each path is
//! handed to the caller and dropped). Null array elements never get here: every reader
//! that signs refuses them (R2).

use super::scan::{string_end, unescape, value_end, Tokens};

/// Calls `each` with the path of every `null` member of `body` (a JSON object that
/// parsed), in document order: `parent.key`, array elements as `path[i]`, keys
/// unescaped. The top-level `signature` is not a member of the canonical string, so a
/// `"signature":null` is not reported.
pub(super) fn for_each_null_member(body: &[u8], mut each: impl FnMut(&str)) {
    let mut walk = Walk {
        input: body,
        pos: 0,
        path: Vec::with_capacity(64),
        each: &mut each,
    };
    walk.skip_ws();
    if walk.peek() == Some(b'{') {
        walk.object(true);
    }
}

struct Walk<'i, 'f> {
    input: &'i [u8],
    pos: usize,
    path: Vec<u8>,
    each: &'f mut dyn FnMut(&str),
}

impl Tokens for Walk<'_, '_> {
    fn input(&self) -> &[u8] {
        self.input
    }

    fn pos(&mut self) -> &mut usize {
        &mut self.pos
    }
}

impl Walk<'_, '_> {
    /// The object whose `{` is at `pos`.
    fn object(&mut self, top: bool) {
        self.pos += 1;
        loop {
            self.skip_ws();
            match self.peek() {
                Some(b'"') => {}
                Some(b',') => {
                    self.pos += 1;
                    continue;
                }
                _ => {
                    // `}` (or the end of a body that did not parse: nothing more).
                    self.pos += 1;
                    return;
                }
            }
            let base = self.path.len();
            if !top {
                self.path.push(b'.');
            }
            unescape(self.input, &mut self.pos, &mut self.path);
            self.skip_ws();
            self.pos += 1; // `:`
            self.skip_ws();
            let signature = top && self.path.get(base..) == Some(&b"signature"[..]);
            if self.peek() == Some(b'n') && !signature {
                (self.each)(&String::from_utf8_lossy(&self.path));
            }
            self.value();
            self.path.truncate(base);
        }
    }

    /// The array whose `[` is at `pos`.
    fn array(&mut self) {
        self.pos += 1;
        let base = self.path.len();
        let mut index = 0usize;
        loop {
            self.skip_ws();
            match self.peek() {
                Some(b',') => {
                    self.pos += 1;
                    continue;
                }
                Some(b']') | None => {
                    self.pos += 1;
                    return;
                }
                Some(_) => {}
            }
            self.path.push(b'[');
            super::scan::push_decimal(&mut self.path, index);
            self.path.push(b']');
            self.value();
            self.path.truncate(base);
            index += 1;
        }
    }

    /// Any value at `pos`, moving past it.
    fn value(&mut self) {
        match self.peek() {
            Some(b'{') => self.object(false),
            Some(b'[') => self.array(),
            Some(b'"') => self.pos = string_end(self.input, self.pos),
            Some(_) => self.pos = value_end(self.input, self.pos).max(self.pos + 1),
            None => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn paths(body: &str) -> Vec<String> {
        let mut found = Vec::new();
        for_each_null_member(body.as_bytes(), |p| found.push(p.to_owned()));
        found
    }

    #[test]
    fn every_null_member_in_document_order() {
        assert_eq!(
            paths(
                r#"{ "a" : null , "b":{"c":[{"d":null,"e":"null"},{"f":[1,{"g":null}]}]},
                   "signature":null, "s":"x\"y", "\u0068":null, "n":-1.5e3,"t":true}"#
            ),
            ["a", "b.c[0].d", "b.c[1].f[1].g", "h"]
        );
        assert!(paths(r#"{"a":{"signature":null}}"#) == ["a.signature"]);
        assert!(paths(r#"{"signature":null,"a":[],"b":{}}"#).is_empty());
        assert!(paths("{}").is_empty());
    }
}
