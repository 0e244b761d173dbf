//! Loading: find the `*.yaml` files of a spec folder (sorted by path), parse each one into a
//! positioned YAML tree, and decode the tree into the file-format structs of
//! [`crate::spec_file`], keeping `file:line:column` for every node.
//!
//! The YAML is parsed with `saphyr-parser` (an event parser that reports marks) into
//! [`Node`]s; decoding uses our own serde deserializer over those nodes (module `de`), so
//! that syntax errors, wrong shapes and unknown keys are all located, and so that
//! [`crate::spec_file::Spanned`] values carry the location of what they hold.
//!
//! Refused on purpose, each with a located error: anchors, aliases and merge keys (a spec
//! is read by people: every fact is written where it applies), tags, several documents in
//! one file, duplicate keys, non-scalar keys, nesting deeper than [`MAX_DEPTH`].

mod de;

use std::collections::HashSet;
use std::fs;
use std::path::{Path, PathBuf};

use saphyr_parser::{Event, Parser, ScalarStyle, Span};
use serde::Deserialize;

use crate::diagnostics::Diagnostic;
use crate::model::Location;
use crate::spec_file::{Spanned, SpecFile, TopLevel};

/// Deepest nesting of sequences and mappings accepted (the real spec needs about 10).
pub(crate) const MAX_DEPTH: usize = 64;

/// Spec files larger than this are refused (the whole API is well under 1 MiB).
const MAX_FILE_BYTES: u64 = 8 * 1024 * 1024;

/// A file of the spec: its display name (`spec/operations/cny.yaml`) and its text.
pub(crate) struct Source {
    /// Path shown in diagnostics: the spec folder's name, then the path inside it.
    pub name: String,
    /// The file's text.
    pub text: String,
}

/// Reads every `*.yaml` file below `dir`, sorted by relative path.
///
/// The display name of each file is `<dir name>/<relative path>` with `/` separators,
/// e.g. `spec/operations/cny.yaml`: stable across machines and checkouts.
pub(crate) fn read_dir(dir: &Path) -> Result<Vec<Source>, Vec<Diagnostic>> {
    let label = dir_label(dir);
    let root_loc = Location {
        file: format!("{label}/"),
        line: 0,
        column: 0,
    };
    let mut found = Vec::new();
    let mut errors = Vec::new();
    walk(dir, Path::new(""), &label, 0, &mut found, &mut errors);
    if !errors.is_empty() {
        return Err(errors);
    }
    found.sort();
    if found.is_empty() {
        return Err(vec![Diagnostic::error(
            root_loc,
            "the spec folder holds no `*.yaml` file",
        )
        .with_help(
            "write the API description as YAML files (see spec/SCHEMA.md)",
        )]);
    }
    let mut sources = Vec::new();
    for rel in found {
        let name = format!("{label}/{}", rel_display(&rel));
        let loc = Location {
            file: name.clone(),
            line: 0,
            column: 0,
        };
        let path = dir.join(&rel);
        match fs::metadata(&path) {
            Ok(m) if m.len() > MAX_FILE_BYTES => {
                errors.push(Diagnostic::error(
                    loc,
                    format!("file is larger than {MAX_FILE_BYTES} bytes"),
                ));
                continue;
            }
            Ok(_) => {}
            Err(e) => {
                errors.push(Diagnostic::error(loc, format!("cannot read the file: {e}")));
                continue;
            }
        }
        match fs::read(&path) {
            Ok(bytes) => match String::from_utf8(bytes) {
                Ok(text) => sources.push(Source { name, text }),
                Err(e) => errors.push(
                    Diagnostic::error(
                        loc,
                        format!(
                            "file is not valid UTF-8 (first bad byte at offset {})",
                            e.utf8_error().valid_up_to()
                        ),
                    )
                    .with_help("save the file as UTF-8"),
                ),
            },
            Err(e) => errors.push(Diagnostic::error(loc, format!("cannot read the file: {e}"))),
        }
    }
    if errors.is_empty() {
        Ok(sources)
    } else {
        Err(errors)
    }
}

/// The name under which a spec folder appears in messages: its last path component.
fn dir_label(dir: &Path) -> String {
    let named = |p: &Path| {
        p.file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .filter(|n| !n.is_empty() && n != "." && n != "..")
    };
    named(dir)
        .or_else(|| dir.canonicalize().ok().and_then(|p| named(&p)))
        .unwrap_or_else(|| "spec".to_owned())
}

fn rel_display(rel: &Path) -> String {
    rel.components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join("/")
}

fn walk(
    dir: &Path,
    rel: &Path,
    label: &str,
    depth: usize,
    found: &mut Vec<PathBuf>,
    errors: &mut Vec<Diagnostic>,
) {
    let here = dir.join(rel);
    let loc = || Location {
        file: if rel.as_os_str().is_empty() {
            format!("{label}/")
        } else {
            format!("{label}/{}/", rel_display(rel))
        },
        line: 0,
        column: 0,
    };
    if depth > 16 {
        errors.push(Diagnostic::error(loc(), "folders nested more than 16 deep"));
        return;
    }
    let entries = match fs::read_dir(&here) {
        Ok(e) => e,
        Err(e) => {
            errors.push(Diagnostic::error(
                loc(),
                format!("cannot read the folder: {e}"),
            ));
            return;
        }
    };
    for entry in entries {
        let entry = match entry {
            Ok(e) => e,
            Err(e) => {
                errors.push(Diagnostic::error(
                    loc(),
                    format!("cannot read the folder: {e}"),
                ));
                continue;
            }
        };
        let name = entry.file_name();
        let child = rel.join(&name);
        // Follows symlinks: a linked file or folder is read like a real one.
        let meta = match fs::metadata(entry.path()) {
            Ok(m) => m,
            Err(e) => {
                errors.push(Diagnostic::error(
                    Location {
                        file: format!("{label}/{}", rel_display(&child)),
                        line: 0,
                        column: 0,
                    },
                    format!("cannot read: {e}"),
                ));
                continue;
            }
        };
        if meta.is_dir() {
            walk(dir, &child, label, depth + 1, found, errors);
        } else if Path::new(&name).extension().is_some_and(|e| e == "yaml") {
            found.push(child);
        }
    }
}

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

    fn location(&self, file: &str) -> Location {
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
    let at = |(line, column): (usize, usize), msg: String| {
        Diagnostic::error(
            Location {
                file: file.to_owned(),
                line,
                column,
            },
            msg,
        )
    };
    let mut parser = Parser::new_from_str(text);
    let mut stack: Vec<Frame> = Vec::new();
    let mut root: Option<Node> = None;
    let mut documents = 0usize;
    for item in &mut parser {
        let (event, span) = match item {
            Ok(ok) => ok,
            Err(e) => {
                let m = e.marker();
                return Err(at(
                    (m.line().max(1), m.col().saturating_add(1)),
                    format!("YAML syntax error: {}", e.info()),
                )
                .with_help(SYNTAX_HELP));
            }
        };
        let p = pos(&span);
        let node = match event {
            Event::Nothing | Event::StreamStart | Event::StreamEnd | Event::DocumentEnd => continue,
            Event::DocumentStart(_) => {
                documents += 1;
                if documents > 1 {
                    return Err(at(p, "a second YAML document in one file".to_owned())
                        .with_help("keep one document per file: split it into two files"));
                }
                continue;
            }
            Event::Alias(_) => {
                return Err(at(p, "YAML aliases (`*name`) are not supported".to_owned())
                    .with_help("write the content out where it applies"))
            }
            Event::Scalar(value, style, anchor, tag) => {
                refuse_anchor_tag(anchor, tag.is_some()).map_err(|(m, h)| at(p, m).with_help(h))?;
                Node {
                    line: p.0,
                    column: p.1,
                    kind: NodeKind::Scalar {
                        text: value.into_owned(),
                        plain: style == ScalarStyle::Plain,
                    },
                }
            }
            Event::SequenceStart(anchor, tag) => {
                refuse_anchor_tag(anchor, tag.is_some()).map_err(|(m, h)| at(p, m).with_help(h))?;
                if stack.len() >= MAX_DEPTH {
                    return Err(at(p, format!("nesting deeper than {MAX_DEPTH} levels"))
                        .with_help("flatten the structure; the spec format needs far less"));
                }
                stack.push(Frame::Seq {
                    at: p,
                    items: Vec::new(),
                });
                continue;
            }
            Event::MappingStart(anchor, tag) => {
                refuse_anchor_tag(anchor, tag.is_some()).map_err(|(m, h)| at(p, m).with_help(h))?;
                if stack.len() >= MAX_DEPTH {
                    return Err(at(p, format!("nesting deeper than {MAX_DEPTH} levels"))
                        .with_help("flatten the structure; the spec format needs far less"));
                }
                stack.push(Frame::Map {
                    at: p,
                    entries: Vec::new(),
                    key: None,
                    seen: HashSet::new(),
                });
                continue;
            }
            Event::SequenceEnd => match stack.pop() {
                Some(Frame::Seq { at, items }) => Node {
                    line: at.0,
                    column: at.1,
                    kind: NodeKind::Seq(items),
                },
                _ => return Err(at(p, "unbalanced sequence end".to_owned()).with_help(SYNTAX_HELP)),
            },
            Event::MappingEnd => match stack.pop() {
                Some(Frame::Map {
                    at: start,
                    entries,
                    key,
                    ..
                }) => {
                    if let Some(k) = key {
                        return Err(at((k.line, k.column), "mapping key without value".into())
                            .with_help(SYNTAX_HELP));
                    }
                    Node {
                        line: start.0,
                        column: start.1,
                        kind: NodeKind::Map(entries),
                    }
                }
                _ => return Err(at(p, "unbalanced mapping end".to_owned()).with_help(SYNTAX_HELP)),
            },
        };
        match stack.last_mut() {
            None => {
                if root.is_some() {
                    return Err(at(p, "a second YAML document in one file".to_owned())
                        .with_help("keep one document per file: split it into two files"));
                }
                root = Some(node);
            }
            Some(Frame::Seq { items, .. }) => items.push(node),
            Some(Frame::Map {
                entries, key, seen, ..
            }) => match key.take() {
                None => {
                    let text = match &node.kind {
                        NodeKind::Scalar { text, .. } => text.clone(),
                        _ => {
                            return Err(at(
                                (node.line, node.column),
                                "mapping keys must be plain text".to_owned(),
                            )
                            .with_help("write keys as plain words, e.g. `name:`"))
                        }
                    };
                    if text == "<<" {
                        return Err(at(
                            (node.line, node.column),
                            "YAML merge keys (`<<`) are not supported".to_owned(),
                        )
                        .with_help("write the keys out where they apply"));
                    }
                    if seen.contains(&text) {
                        return Err(at(
                            (node.line, node.column),
                            format!("key `{text}` appears twice in this mapping"),
                        )
                        .with_help("remove or merge one of the two entries"));
                    }
                    seen.insert(text);
                    *key = Some(node);
                }
                Some(k) => entries.push((k, node)),
            },
        }
    }
    if let Some(frame) = stack.last() {
        let at_ = match frame {
            Frame::Seq { at, .. } | Frame::Map { at, .. } => *at,
        };
        return Err(at(at_, "unterminated YAML collection".to_owned()).with_help(SYNTAX_HELP));
    }
    Ok(root)
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

/// Top-level keys of a spec file, in the order of SCHEMA.md.
pub(crate) const TOP_LEVEL_KEYS: &[&str] = &[
    "api",
    "envelope",
    "result_codes",
    "notifications",
    "decisions",
    "enums",
    "field_sets",
    "records",
    "group",
    "group_doc",
    "operations",
];

/// Decodes one node into `T`, as a located diagnostic on failure.
pub(crate) fn decode<T: for<'de> Deserialize<'de>>(
    file: &str,
    node: &Node,
) -> Result<T, Diagnostic> {
    T::deserialize(de::NodeDe::new(node, file)).map_err(|e| e.into_diagnostic(file, node))
}

fn decode_list<T: for<'de> Deserialize<'de>>(
    file: &str,
    key: &Node,
    node: &Node,
    errors: &mut Vec<Diagnostic>,
) -> Option<TopLevel<Vec<Spanned<T>>>> {
    let key_text = key.scalar().unwrap_or_default();
    let NodeKind::Seq(items) = &node.kind else {
        errors.push(
            Diagnostic::error(node.location(file), format!("`{key_text}` must be a list"))
                .with_help(format!("write `{key_text}:` followed by `- ...` items")),
        );
        return None;
    };
    let mut out = Vec::new();
    let before = errors.len();
    for item in items {
        match decode::<Spanned<T>>(file, item) {
            Ok(v) => out.push(v),
            Err(d) => errors.push(d),
        }
    }
    (errors.len() == before).then(|| TopLevel {
        key: key.location(file),
        value: out,
    })
}

/// Parses and decodes one file. Every list item is decoded on its own, so one bad
/// operation does not hide the problems of the next.
pub(crate) fn load_file(source: &Source) -> Result<SpecFile, Vec<Diagnostic>> {
    let file = source.name.as_str();
    let root = parse(file, &source.text).map_err(|d| vec![d])?;
    let whole = Location {
        file: file.to_owned(),
        line: 0,
        column: 0,
    };
    let Some(root) = root else {
        return Err(vec![Diagnostic::error(whole, "the file is empty").with_help(
            "a spec file is a mapping of top-level keys (api, envelope, enums, records, group + operations, ...); delete the file if it is not needed",
        )]);
    };
    let NodeKind::Map(entries) = &root.kind else {
        return Err(vec![Diagnostic::error(
            root.location(file),
            "a spec file must be a mapping of top-level keys",
        )
        .with_help(format!("use the keys {}", TOP_LEVEL_KEYS.join(", ")))]);
    };
    let mut out = SpecFile::default();
    let mut errors = Vec::new();
    for (key, value) in entries {
        let k = key.scalar().unwrap_or_default();
        let top = || key.location(file);
        match k {
            "api" => match decode(file, value) {
                Ok(v) => {
                    out.api = Some(TopLevel {
                        key: top(),
                        value: v,
                    })
                }
                Err(d) => errors.push(d),
            },
            "envelope" => match decode(file, value) {
                Ok(v) => {
                    out.envelope = Some(TopLevel {
                        key: top(),
                        value: v,
                    })
                }
                Err(d) => errors.push(d),
            },
            "group" => match decode(file, value) {
                Ok(v) => {
                    out.group = Some(TopLevel {
                        key: top(),
                        value: v,
                    })
                }
                Err(d) => errors.push(d),
            },
            "group_doc" => match decode(file, value) {
                Ok(v) => {
                    out.group_doc = Some(TopLevel {
                        key: top(),
                        value: v,
                    })
                }
                Err(d) => errors.push(d),
            },
            "result_codes" => out.result_codes = decode_list(file, key, value, &mut errors),
            "notifications" => out.notifications = decode_list(file, key, value, &mut errors),
            "decisions" => out.decisions = decode_list(file, key, value, &mut errors),
            "enums" => out.enums = decode_list(file, key, value, &mut errors),
            "field_sets" => out.field_sets = decode_list(file, key, value, &mut errors),
            "records" => out.records = decode_list(file, key, value, &mut errors),
            "operations" => out.operations = decode_list(file, key, value, &mut errors),
            other => {
                let mut d = Diagnostic::error(
                    key.location(file),
                    format!("unknown top-level key `{other}`"),
                );
                d = match crate::check::names::did_you_mean(other, TOP_LEVEL_KEYS.iter().copied()) {
                    Some(s) => d.with_help(format!(
                        "did you mean `{s}`? top-level keys are {}",
                        TOP_LEVEL_KEYS.join(", ")
                    )),
                    None => {
                        d.with_help(format!("top-level keys are {}", TOP_LEVEL_KEYS.join(", ")))
                    }
                };
                errors.push(d);
            }
        }
    }
    if errors.is_empty() {
        Ok(out)
    } else {
        Err(errors)
    }
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
