//! Parsing one file into a positioned YAML tree with `saphyr-parser` (an event parser
//! that reports marks): every node knows its line and column. Anchors, aliases, merge
//! keys, tags, a second document, duplicate or non-scalar keys and nesting deeper than
//! [`MAX_DEPTH`] are refused, each with a located error.

use std::collections::HashSet;

use saphyr_parser::{Event, Parser, ScalarStyle, Span};

use crate::diagnostics::Diagnostic;
use crate::model::Location;

/// Deepest nesting of sequences and mappings accepted (the real spec needs about 10).
pub(crate) const MAX_DEPTH: usize = 64;

/// A YAML node with the position where it starts.
#[derive(Debug, Clone)]
pub(crate) struct Node {
    /// 1-based line.
    pub line: usize,
    /// 1-based column.
    pub column: usize,
    /// What the node holds.
    pub kind: NodeKind,
}

/// The three kinds of YAML node.
#[derive(Debug, Clone)]
pub(crate) enum NodeKind {
    /// A scalar; `plain` is false for quoted and block scalars (always strings).
    Scalar { text: String, plain: bool },
    /// A sequence.
    Seq(Vec<Node>),
    /// A mapping; keys are scalars, unique within the mapping.
    Map(Vec<(Node, Node)>),
}

impl Node {
    /// The scalar text, if this is a scalar.
    pub fn scalar(&self) -> Option<&str> {
        match &self.kind {
            NodeKind::Scalar { text, .. } => Some(text),
            _ => None,
        }
    }

    /// Where the node starts in `file`.
    pub(crate) fn location(&self, file: &str) -> Location {
        Location {
            file: file.to_owned(),
            line: self.line,
            column: self.column,
        }
    }
}

fn pos(span: &Span) -> (usize, usize) {
    (span.start.line().max(1), span.start.col().saturating_add(1))
}

/// A collection still open, with what it holds so far.
enum Frame {
    Seq {
        at: (usize, usize),
        items: Vec<Node>,
    },
    Map {
        at: (usize, usize),
        entries: Vec<(Node, Node)>,
        key: Option<Node>,
        /// The keys of `entries` and `key`, to find a repeated key in constant time
        /// (a scan of `entries` for every key made a mapping quadratic).
        seen: HashSet<String>,
    },
}

const SYNTAX_HELP: &str =
    "fix the YAML syntax (indentation, quotes, `:` after keys, closing brackets)";

/// Parses one file into a positioned tree; `Ok(None)` for a file without a document.
pub(crate) fn parse(file: &str, text: &str) -> Result<Option<Node>, Diagnostic> {
    let mut tree = Tree {
        file,
        stack: Vec::new(),
        root: None,
        documents: 0,
    };
    for item in Parser::new_from_str(text) {
        let (event, span) = item.map_err(|e| {
            let m = e.marker();
            at(
                file,
                (m.line().max(1), m.col().saturating_add(1)),
                format!("YAML syntax error: {}", e.info()),
            )
            .with_help(SYNTAX_HELP)
        })?;
        let p = pos(&span);
        if let Some(node) = tree.event(event, p)? {
            tree.attach(node, p)?;
        }
    }
    tree.finish()
}

/// An error at `(line, column)` of `file`.
fn at(file: &str, (line, column): (usize, usize), msg: String) -> Diagnostic {
    Diagnostic::error(
        Location {
            file: file.to_owned(),
            line,
            column,
        },
        msg,
    )
}

/// The tree under construction: the collections still open, the finished root.
struct Tree<'f> {
    file: &'f str,
    stack: Vec<Frame>,
    root: Option<Node>,
    documents: usize,
}

impl Tree<'_> {
    /// Takes one parser event at `p`: the node it completes (a scalar, or a collection
    /// it closes), or `None` when it opens a collection or marks a document.
    fn event(&mut self, event: Event<'_>, p: (usize, usize)) -> Result<Option<Node>, Diagnostic> {
        let file = self.file;
        match event {
            Event::Nothing | Event::StreamStart | Event::StreamEnd | Event::DocumentEnd => Ok(None),
            Event::DocumentStart(_) => {
                self.documents += 1;
                if self.documents > 1 {
                    return Err(at(file, p, "a second YAML document in one file".to_owned())
                        .with_help("keep one document per file: split it into two files"));
                }
                Ok(None)
            }
            Event::Alias(_) => Err(at(
                file,
                p,
                "YAML aliases (`*name`) are not supported".to_owned(),
            )
            .with_help("write the content out where it applies")),
            Event::Scalar(value, style, anchor, tag) => {
                refuse_anchor_tag(anchor, tag.is_some())
                    .map_err(|(m, h)| at(file, p, m).with_help(h))?;
                Ok(Some(Node {
                    line: p.0,
                    column: p.1,
                    kind: NodeKind::Scalar {
                        text: value.into_owned(),
                        plain: style == ScalarStyle::Plain,
                    },
                }))
            }
            Event::SequenceStart(anchor, tag) => {
                let frame = Frame::Seq {
                    at: p,
                    items: Vec::new(),
                };
                self.open(anchor, tag.is_some(), p, frame).map(|()| None)
            }
            Event::MappingStart(anchor, tag) => {
                let frame = Frame::Map {
                    at: p,
                    entries: Vec::new(),
                    key: None,
                    seen: HashSet::new(),
                };
                self.open(anchor, tag.is_some(), p, frame).map(|()| None)
            }
            Event::SequenceEnd => self.close_seq(p).map(Some),
            Event::MappingEnd => self.close_map(p).map(Some),
        }
    }

    /// Opens a sequence or mapping at `p`: no anchor, no tag, not too deep.
    fn open(
        &mut self,
        anchor: usize,
        tagged: bool,
        p: (usize, usize),
        frame: Frame,
    ) -> Result<(), Diagnostic> {
        let file = self.file;
        refuse_anchor_tag(anchor, tagged).map_err(|(m, h)| at(file, p, m).with_help(h))?;
        if self.stack.len() >= MAX_DEPTH {
            return Err(
                at(file, p, format!("nesting deeper than {MAX_DEPTH} levels"))
                    .with_help("flatten the structure; the spec format needs far less"),
            );
        }
        self.stack.push(frame);
        Ok(())
    }

    /// Closes the sequence open at the top of the stack.
    fn close_seq(&mut self, p: (usize, usize)) -> Result<Node, Diagnostic> {
        match self.stack.pop() {
            Some(Frame::Seq { at, items }) => Ok(Node {
                line: at.0,
                column: at.1,
                kind: NodeKind::Seq(items),
            }),
            _ => Err(at(self.file, p, "unbalanced sequence end".to_owned()).with_help(SYNTAX_HELP)),
        }
    }

    /// Closes the mapping open at the top of the stack: every key has its value.
    fn close_map(&mut self, p: (usize, usize)) -> Result<Node, Diagnostic> {
        match self.stack.pop() {
            Some(Frame::Map {
                at: start,
                entries,
                key,
                ..
            }) => {
                if let Some(k) = key {
                    return Err(at(
                        self.file,
                        (k.line, k.column),
                        "mapping key without value".into(),
                    )
                    .with_help(SYNTAX_HELP));
                }
                Ok(Node {
                    line: start.0,
                    column: start.1,
                    kind: NodeKind::Map(entries),
                })
            }
            _ => Err(at(self.file, p, "unbalanced mapping end".to_owned()).with_help(SYNTAX_HELP)),
        }
    }

    /// Puts a finished node where it belongs: the root, the next item of the open
    /// sequence, or the next key or value of the open mapping.
    fn attach(&mut self, node: Node, p: (usize, usize)) -> Result<(), Diagnostic> {
        let file = self.file;
        match self.stack.last_mut() {
            None => {
                if self.root.is_some() {
                    return Err(at(file, p, "a second YAML document in one file".to_owned())
                        .with_help("keep one document per file: split it into two files"));
                }
                self.root = Some(node);
            }
            Some(Frame::Seq { items, .. }) => items.push(node),
            Some(Frame::Map {
                entries, key, seen, ..
            }) => match key.take() {
                None => {
                    let text = map_key(file, &node, seen)?;
                    seen.insert(text);
                    *key = Some(node);
                }
                Some(k) => entries.push((k, node)),
            },
        }
        Ok(())
    }

    /// The root, once every collection is closed.
    fn finish(self) -> Result<Option<Node>, Diagnostic> {
        if let Some(frame) = self.stack.last() {
            let at_ = match frame {
                Frame::Seq { at, .. } | Frame::Map { at, .. } => *at,
            };
            return Err(
                at(self.file, at_, "unterminated YAML collection".to_owned())
                    .with_help(SYNTAX_HELP),
            );
        }
        Ok(self.root)
    }
}

/// The text of a mapping key: plain text, not a merge key, not seen before in its
/// mapping.
fn map_key(file: &str, node: &Node, seen: &HashSet<String>) -> Result<String, Diagnostic> {
    let text = match &node.kind {
        NodeKind::Scalar { text, .. } => text.clone(),
        _ => {
            return Err(at(
                file,
                (node.line, node.column),
                "mapping keys must be plain text".to_owned(),
            )
            .with_help("write keys as plain words, e.g. `name:`"))
        }
    };
    if text == "<<" {
        return Err(at(
            file,
            (node.line, node.column),
            "YAML merge keys (`<<`) are not supported".to_owned(),
        )
        .with_help("write the keys out where they apply"));
    }
    if seen.contains(&text) {
        return Err(at(
            file,
            (node.line, node.column),
            format!("key `{text}` appears twice in this mapping"),
        )
        .with_help("remove or merge one of the two entries"));
    }
    Ok(text)
}

fn refuse_anchor_tag(anchor: usize, tagged: bool) -> Result<(), (String, String)> {
    if anchor != 0 {
        return Err((
            "YAML anchors (`&name`) are not supported".to_owned(),
            "write the content out where it applies: a reader finds every fact in place".to_owned(),
        ));
    }
    if tagged {
        return Err((
            "YAML tags (`!tag`) are not supported".to_owned(),
            "remove the tag; quote the value if it must be a string".to_owned(),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tree(text: &str) -> Node {
        match parse("t.yaml", text) {
            Ok(Some(n)) => n,
            other => panic!("unexpected parse result: {other:?}"),
        }
    }

    #[test]
    fn positions_are_one_based() {
        let n = tree("a:\n  b: [1, 2]\n");
        let NodeKind::Map(entries) = &n.kind else {
            panic!("not a map")
        };
        let (k, v) = &entries[0];
        assert_eq!((k.line, k.column), (1, 1));
        let NodeKind::Map(inner) = &v.kind else {
            panic!("not a map")
        };
        assert_eq!((inner[0].1.line, inner[0].1.column), (2, 6));
    }

    #[test]
    fn refuses_anchors_aliases_merge_tags_and_duplicates() {
        for (text, what) in [
            ("a: &x 1\nb: *x\n", "anchors"),
            ("a: {b: 1}\nc:\n  <<: {d: 2}\n", "merge keys"),
            ("a: !foo 1\n", "tags"),
            ("a: 1\na: 2\n", "appears twice"),
            ("a: 1\n---\nb: 2\n", "second YAML document"),
            ("[a]: 1\n", "plain text"),
        ] {
            let err = parse("t.yaml", text).expect_err(text);
            assert!(err.message.contains(what), "{text}: {}", err.message);
            assert!(err.location.line >= 1, "{text}");
        }
    }

    #[test]
    fn the_same_key_in_two_mappings_is_no_repeat() {
        assert!(parse("t.yaml", "a:\n  k: 1\nb:\n  k: 1\nc: [{k: 1}, {k: 1}]\n").is_ok());
        let err = parse("t.yaml", "a:\n  k: 1\n  j: 2\n  k: 3\n").expect_err("repeat");
        assert!(
            err.message.contains("key `k` appears twice"),
            "{}",
            err.message
        );
        assert_eq!((err.location.line, err.location.column), (4, 3));
    }

    /// Parse time of `text`: the fastest of three runs.
    fn parse_time(text: &str) -> std::time::Duration {
        (0..3)
            .map(|_| {
                let start = std::time::Instant::now();
                assert!(parse("t.yaml", text).is_ok());
                start.elapsed()
            })
            .min()
            .unwrap_or_default()
    }

    #[test]
    fn a_large_mapping_costs_linear_time() {
        // Keys that share their first 11 bytes, and a sequence of as many scalars of
        // about the same length: four times the keys must take about four times as
        // long (a scan of the keys for every key took 16 times as long), and not much
        // longer than the sequence. Ratios of the fastest of three runs; a busy machine
        // gets three attempts.
        let mapping = |n: usize| {
            (0..n)
                .map(|i| format!("key{i:08}: 1\n"))
                .collect::<String>()
        };
        let sequence = |n: usize| (0..n).map(|i| format!("- val{i:08}\n")).collect::<String>();
        let n = 2_000;
        let mut figures = (0.0, 0.0);
        for _ in 0..3 {
            let small = parse_time(&mapping(n));
            let large = parse_time(&mapping(4 * n));
            let flat = parse_time(&sequence(4 * n));
            figures = (
                large.as_secs_f64() / small.as_secs_f64().max(1e-9),
                large.as_secs_f64() / flat.as_secs_f64().max(1e-9),
            );
            if figures.0 <= 9.0 && figures.1 <= 4.0 {
                break;
            }
        }
        assert!(
            figures.0 <= 9.0 && figures.1 <= 4.0,
            "x4 keys took x{:.2} the time, x{:.2} a sequence as long",
            figures.0,
            figures.1
        );
    }

    #[test]
    fn refuses_deep_nesting() {
        let text = "[".repeat(200) + &"]".repeat(200);
        let err = parse("t.yaml", &text).expect_err("too deep");
        assert!(err.message.contains("nesting deeper"));
    }

    #[test]
    fn syntax_error_is_located() {
        let err = parse("t.yaml", "a: [1, 2\nb: 3\n").expect_err("bad yaml");
        assert!(err.message.starts_with("YAML syntax error"));
        assert_eq!(err.location.file, "t.yaml");
        assert!(err.location.line >= 1);
    }

    #[test]
    fn empty_file_is_no_document() {
        assert!(matches!(parse("t.yaml", "# only a comment\n"), Ok(None)));
    }
}
