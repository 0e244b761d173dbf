//! `baas-codegen`: spec → checked model → emitted tokens → formatted files, run by
//! [`pipeline`].
//!
//! The front end reads every `*.yaml` below a spec folder ([`check_spec`]), checks it
//! against `spec/SCHEMA.md` and gives the checked [`model::Api`] with its warnings, or
//! every problem found as located [`Diagnostics`].

pub mod artifact;
pub mod cli;
pub mod diff;
pub mod emit;
pub mod format;
pub mod java;
pub mod model;
pub mod openapi;
pub mod php;
pub mod pipeline;
pub mod plan;
pub mod postman;
pub mod python;
pub mod rules;
pub mod spec_schema;
pub mod text;
pub mod typescript;
pub mod workspace;
pub mod write;

mod check;
pub mod diagnostics;
mod load;
mod reserved;
mod spec_file;

use std::path::Path;

pub use check::Completeness;
pub use diagnostics::{Diagnostic, Diagnostics, Severity};

/// A spec that passed every check.
#[derive(Debug, Clone)]
pub struct Checked {
    /// The checked model, ready for the emitters.
    pub api: model::Api,
    /// Findings that do not refuse the spec (e.g. a fragile signing order), sorted by place.
    pub warnings: Vec<Diagnostic>,
}

/// Loads and checks every `*.yaml` file below `dir` (recursively, sorted by path).
///
/// Diagnostics name files as `<dir name>/<path inside dir>` (e.g.
/// `spec/operations/cny.yaml`), so messages are the same on every machine.
///
/// # Errors
/// Every problem found (unreadable files, YAML syntax, unknown keys, unknown types, rules
/// on incompatible types, name collisions, ...), sorted by file, line and column.
pub fn check_spec(dir: &Path) -> Result<Checked, Diagnostics> {
    let sources = load::read_dir(dir).map_err(Diagnostics)?;
    let root = sources
        .first()
        .and_then(|s| s.name.split('/').next())
        .unwrap_or("spec")
        .to_owned();
    check_loaded(&root, &sources, Completeness::Enforced)
}

/// Checks a spec given as in-memory files: `(display path, text)` pairs, e.g.
/// `("spec/api.yaml", "api: ...")`. Files are taken in path order, as from a folder.
/// `root` is the name shown for problems that belong to no file (e.g. `spec`).
///
/// # Errors
/// As [`check_spec`].
pub fn check_sources(root: &str, files: &[(String, String)]) -> Result<Checked, Diagnostics> {
    check_sources_as(root, files, Completeness::Enforced)
}

/// As [`check_sources`], for a spec read as `completeness` says: an earlier revision
/// (compared by the diff) is read with [`Completeness::Reported`], so a rule added since
/// does not make it unreadable.
///
/// # Errors
/// As [`check_spec`].
pub fn check_sources_as(
    root: &str,
    files: &[(String, String)],
    completeness: Completeness,
) -> Result<Checked, Diagnostics> {
    let mut sources: Vec<load::Source> = files
        .iter()
        .map(|(name, text)| load::Source {
            name: name.clone(),
            text: text.clone(),
        })
        .collect();
    sources.sort_by(|a, b| a.name.cmp(&b.name));
    check_loaded(root, &sources, completeness)
}

fn check_loaded(
    root: &str,
    sources: &[load::Source],
    completeness: Completeness,
) -> Result<Checked, Diagnostics> {
    let mut files = Vec::new();
    let mut errors = Vec::new();
    for s in sources {
        match load::load_file(s) {
            Ok(f) => files.push(f),
            Err(mut e) => errors.append(&mut e),
        }
    }
    if !errors.is_empty() {
        diagnostics::sort(&mut errors);
        return Err(Diagnostics(errors));
    }
    check::check(&files, root, completeness)
        .map(|o| Checked {
            api: o.api,
            warnings: o.warnings,
        })
        .map_err(Diagnostics)
}
