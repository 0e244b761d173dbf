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
//! one file, duplicate keys, non-scalar keys, nesting deeper than [`yaml::MAX_DEPTH`].
//!
//! Modules: `files` finds and reads the files, `yaml` parses one into [`Node`]s, `de`
//! decodes nodes; this module decodes a file's top-level keys.

mod de;
mod files;
mod yaml;

use serde::Deserialize;

use crate::diagnostics::Diagnostic;
use crate::model::Location;
use crate::spec_file::{Spanned, SpecFile, TopLevel};
pub(crate) use files::read_dir;
pub(crate) use yaml::{parse, Node, NodeKind};

/// A file of the spec: its display name (`spec/operations/cny.yaml`) and its text.
pub(crate) struct Source {
    /// Path shown in diagnostics: the spec folder's name, then the path inside it.
    pub name: String,
    /// The file's text.
    pub text: String,
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
        let e = &mut errors;
        match key.scalar().unwrap_or_default() {
            "api" => out.api = decode_top(file, key, value, e),
            "envelope" => out.envelope = decode_top(file, key, value, e),
            "group" => out.group = decode_top(file, key, value, e),
            "group_doc" => out.group_doc = decode_top(file, key, value, e),
            "result_codes" => out.result_codes = decode_list(file, key, value, e),
            "notifications" => out.notifications = decode_list(file, key, value, e),
            "decisions" => out.decisions = decode_list(file, key, value, e),
            "enums" => out.enums = decode_list(file, key, value, e),
            "field_sets" => out.field_sets = decode_list(file, key, value, e),
            "records" => out.records = decode_list(file, key, value, e),
            "operations" => out.operations = decode_list(file, key, value, e),
            other => e.push(unknown_key(file, key, other)),
        }
    }
    if errors.is_empty() {
        Ok(out)
    } else {
        Err(errors)
    }
}

/// Decodes the value of a top-level key that holds one item (not a list).
fn decode_top<T: for<'de> Deserialize<'de>>(
    file: &str,
    key: &Node,
    node: &Node,
    errors: &mut Vec<Diagnostic>,
) -> Option<TopLevel<T>> {
    match decode(file, node) {
        Ok(value) => Some(TopLevel {
            key: key.location(file),
            value,
        }),
        Err(d) => {
            errors.push(d);
            None
        }
    }
}

/// A top-level key the format does not have, with the nearest known one.
fn unknown_key(file: &str, key: &Node, other: &str) -> Diagnostic {
    let d = Diagnostic::error(
        key.location(file),
        format!("unknown top-level key `{other}`"),
    );
    match crate::diagnostics::suggest::did_you_mean(other, TOP_LEVEL_KEYS.iter().copied()) {
        Some(s) => d.with_help(format!(
            "did you mean `{s}`? top-level keys are {}",
            TOP_LEVEL_KEYS.join(", ")
        )),
        None => d.with_help(format!("top-level keys are {}", TOP_LEVEL_KEYS.join(", "))),
    }
}
