//! Helpers for the passes' unit tests: spec files from YAML text, a fresh checker, and
//! its findings as `file:line:column: message` lines.

use super::Checker;
use crate::load::{load_file, Source};
use crate::model::Location;
use crate::spec_file::SpecFile;

/// Decodes `(display path, YAML)` pairs, in the order given; panics on a decoding error.
pub(super) fn files(sources: &[(&str, &str)]) -> Vec<SpecFile> {
    sources
        .iter()
        .map(|(name, text)| {
            let source = Source {
                name: (*name).to_owned(),
                text: (*text).to_owned(),
            };
            load_file(&source).unwrap_or_else(|e| panic!("{name} does not decode: {e:?}"))
        })
        .collect()
}

/// One decoded file.
pub(super) fn file(text: &str) -> SpecFile {
    files(&[("s/t.yaml", text)]).remove(0)
}

/// A checker with no findings, for the spec root `s`.
pub(super) fn checker() -> Checker {
    Checker::new("s")
}

/// A place in `s/t.yaml`.
pub(super) fn loc(line: usize) -> Location {
    Location {
        file: "s/t.yaml".into(),
        line,
        column: 1,
    }
}

/// The errors so far, in the order found.
pub(super) fn errors(ck: &Checker) -> Vec<String> {
    ck.errors.iter().map(line).collect()
}

/// The warnings so far, in the order found.
pub(super) fn warnings(ck: &Checker) -> Vec<String> {
    ck.warnings.iter().map(line).collect()
}

fn line(d: &crate::diagnostics::Diagnostic) -> String {
    let l = &d.location;
    format!("{}:{}:{}: {}", l.file, l.line, l.column, d.message)
}
