//! Writing the source text of languages other than Rust: a line writer at an indentation,
//! word wrapping, and spec text turned into partner documentation. Every text renderer
//! (Python, TypeScript, Java, PHP, the command line's help) writes through these, so no
//! two of them carry a copy.

/// Source text being written, line by line, at an indentation.
#[derive(Debug)]
pub struct Out {
    text: String,
    depth: usize,
    unit: &'static str,
    lines: usize,
}

impl Out {
    /// An empty text indented by `unit` per level (`"  "`, `"    "`).
    pub fn new(unit: &'static str) -> Out {
        Out {
            text: String::new(),
            depth: 0,
            unit,
            lines: 0,
        }
    }

    /// A text starting with `header` (the `@generated` line in the language's comments).
    pub fn headed(header: &str, unit: &'static str) -> Out {
        let mut out = Out::new(unit);
        out.text.push_str(header);
        out
    }

    /// One line (or several, split at `\n`) at the current indentation; empty parts are
    /// blank lines without trailing whitespace.
    pub fn line(&mut self, text: &str) {
        for part in text.split('\n') {
            if !part.is_empty() {
                for _ in 0..self.depth {
                    self.text.push_str(self.unit);
                }
                self.text.push_str(part);
            }
            self.text.push('\n');
        }
        self.lines += 1;
    }

    /// Text without indentation (nothing for empty text).
    pub fn line_raw(&mut self, text: &str) {
        if !text.is_empty() {
            self.text.push_str(text);
            self.text.push('\n');
        }
    }

    /// A blank line.
    pub fn blank(&mut self) {
        self.text.push('\n');
    }

    /// One level deeper.
    pub fn indent(&mut self) {
        self.depth += 1;
    }

    /// One level back.
    pub fn dedent(&mut self) {
        self.depth = self.depth.saturating_sub(1);
    }

    /// Calls to `line` so far.
    pub fn len(&self) -> usize {
        self.lines
    }

    /// Whether nothing was written but the header.
    pub fn is_empty(&self) -> bool {
        self.lines == 0
    }

    /// A `/** … */` block comment (TypeScript, Java, PHP) of `paragraphs`, each already in
    /// the language's doc syntax, wrapped at `width`; one short paragraph stays on one
    /// line. Nothing for no paragraphs.
    pub fn block_doc(&mut self, paragraphs: &[String], width: usize) {
        let paragraphs: Vec<&String> = paragraphs.iter().filter(|p| !p.is_empty()).collect();
        match paragraphs.as_slice() {
            [] => {}
            [one] if one.len() < 90 && !one.contains('\n') => self.line(&format!("/** {one} */")),
            _ => {
                self.line("/**");
                for (i, p) in paragraphs.iter().enumerate() {
                    if i > 0 {
                        self.line(" *");
                    }
                    for l in p.split('\n').flat_map(|l| wrap(l, width)) {
                        self.line(&format!(" * {l}"));
                    }
                }
                self.line(" */");
            }
        }
    }

    /// The text written.
    pub fn finish(self) -> String {
        self.text
    }
}

/// Words of `text` in lines of at most `width` characters (a longer word stays whole).
pub fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split(' ') {
        if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > width {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

/// A double-quoted string literal in the C family's escapes (`\"`, `\\`, `\n`, `\r`,
/// `\t`); any other character `other` escapes (a control character, for each language
/// its own way) is written as it returns, the rest as it is.
pub fn quoted(text: &str, other: impl Fn(char) -> Option<String>) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c => match other(c) {
                Some(escaped) => out.push_str(&escaped),
                None => out.push(c),
            },
        }
    }
    out.push('"');
    out
}

/// `name`, or `name` with `suffix` when a language reserves it (`type` → `type_`).
pub fn unreserved(name: String, reserved: &[&str], suffix: &str) -> String {
    if reserved.contains(&name.as_str()) {
        format!("{name}{suffix}")
    } else {
        name
    }
}

/// Spec text as partner documentation: whitespace collapsed, and the repository's
/// reference files named by what they are (partners do not have them).
pub fn partner_text(text: &str) -> String {
    let collapsed = text.split_whitespace().collect::<Vec<_>>().join(" ");
    collapsed
        .replace("public-facts.md", "the public documentation")
        .replace("baas-api-spec.md", "the API document")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_indented_by_the_unit_and_blank_lines_stay_bare() {
        let mut out = Out::headed("// h\n", "  ");
        out.line("a {");
        out.indent();
        out.line("b;\n\nc;");
        out.dedent();
        out.line("}");
        assert_eq!(out.finish(), "// h\na {\n  b;\n\n  c;\n}\n");
    }

    #[test]
    fn a_block_doc_wraps_and_keeps_one_short_paragraph_on_a_line() {
        let mut out = Out::new("    ");
        out.block_doc(&["Short.".to_owned()], 40);
        out.block_doc(&["one two three four".to_owned(), "five".to_owned()], 9);
        assert_eq!(
            out.finish(),
            "/** Short. */\n/**\n * one two\n * three\n * four\n *\n * five\n */\n"
        );
    }

    #[test]
    fn quoted_escapes_the_c_family_and_leaves_the_rest_to_the_language() {
        let hex = |c: char| (c < ' ').then(|| format!("\\x{:02x}", c as u32));
        assert_eq!(quoted("a\"b\\c\nd\u{1}é", hex), r#""a\"b\\c\nd\x01é""#);
        assert_eq!(unreserved("type".into(), &["type"], "_"), "type_");
        assert_eq!(unreserved("kind".into(), &["type"], "_"), "kind");
    }

    #[test]
    fn partner_text_names_no_file_of_the_repository() {
        assert_eq!(
            partner_text("see  public-facts.md\nand baas-api-spec.md"),
            "see the public documentation and the API document"
        );
    }
}
