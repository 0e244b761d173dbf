//! Finding the spec's files: every `*.yaml` below the spec folder, sorted by path, each
//! read as UTF-8 text under a display name that is the same on every machine.

use std::fs;
use std::path::{Path, PathBuf};

use super::Source;
use crate::diagnostics::Diagnostic;
use crate::model::Location;

/// Spec files larger than this are refused (the whole API is well under 1 MiB).
const MAX_FILE_BYTES: u64 = 8 * 1024 * 1024;

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
        match read_source(dir, &rel, &label) {
            Ok(source) => sources.push(source),
            Err(d) => errors.push(d),
        }
    }
    if errors.is_empty() {
        Ok(sources)
    } else {
        Err(errors)
    }
}

/// Reads the file `rel` below `dir`: refused when too large or not UTF-8.
fn read_source(dir: &Path, rel: &Path, label: &str) -> Result<Source, Diagnostic> {
    let name = format!("{label}/{}", rel_display(rel));
    let loc = Location {
        file: name.clone(),
        line: 0,
        column: 0,
    };
    let path = dir.join(rel);
    match fs::metadata(&path) {
        Ok(m) if m.len() > MAX_FILE_BYTES => {
            return Err(Diagnostic::error(
                loc,
                format!("file is larger than {MAX_FILE_BYTES} bytes"),
            ));
        }
        Ok(_) => {}
        Err(e) => return Err(Diagnostic::error(loc, format!("cannot read the file: {e}"))),
    }
    match fs::read(&path) {
        Ok(bytes) => match String::from_utf8(bytes) {
            Ok(text) => Ok(Source { name, text }),
            Err(e) => Err(Diagnostic::error(
                loc,
                format!(
                    "file is not valid UTF-8 (first bad byte at offset {})",
                    e.utf8_error().valid_up_to()
                ),
            )
            .with_help("save the file as UTF-8")),
        },
        Err(e) => Err(Diagnostic::error(loc, format!("cannot read the file: {e}"))),
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

/// Collects the `*.yaml` files below `dir/rel` (following symlinks), at most 16
/// folders deep.
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
