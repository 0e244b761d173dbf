//! Writes the generated files into `generated/`, or compares them for `--check`,
//! reporting which files differ. I/O only: what to write comes from
//! [`crate::pipeline`].

use std::fmt;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use crate::artifact::GeneratedFile;
use crate::artifact::GENERATED_HEADER;

/// Write the files, or only compare them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Write every file whose contents differ; delete generated files no longer emitted.
    Write,
    /// Change nothing; report what `Write` would change.
    Check,
}

/// How a file differs from what is on disk.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChangeKind {
    /// Not on disk yet.
    Added,
    /// On disk with other contents.
    Modified,
    /// On disk, generated earlier, no longer emitted.
    Removed,
}

/// One file that differs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Change {
    /// Path relative to the output root, `/`-separated.
    pub path: String,
    /// How it differs.
    pub kind: ChangeKind,
}

impl fmt::Display for Change {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kind = match self.kind {
            ChangeKind::Added => "added",
            ChangeKind::Modified => "modified",
            ChangeKind::Removed => "removed",
        };
        write!(f, "{kind:>8}  {}", self.path)
    }
}

/// An I/O failure, with the path it happened on.
#[derive(Debug)]
pub struct WriteError {
    /// The file or directory.
    pub path: PathBuf,
    /// The failure.
    pub source: io::Error,
}

impl fmt::Display for WriteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path.display(), self.source)
    }
}

impl std::error::Error for WriteError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.source)
    }
}

fn at(path: &Path) -> impl FnOnce(io::Error) -> WriteError + '_ {
    move |source| WriteError {
        path: path.to_path_buf(),
        source,
    }
}

/// Writes (or compares) `files` under `root`; returns the files that differ, in order:
/// emitted files first, then removed ones sorted by path.
pub fn sync(root: &Path, files: &[GeneratedFile], mode: Mode) -> Result<Vec<Change>, WriteError> {
    let mut changes = Vec::new();
    for file in files {
        let path = root.join(&file.path);
        let kind = match fs::read(&path) {
            Ok(existing) if existing == file.contents.as_bytes() => continue,
            Ok(_) => ChangeKind::Modified,
            Err(e) if e.kind() == io::ErrorKind::NotFound => ChangeKind::Added,
            Err(e) => return Err(at(&path)(e)),
        };
        if mode == Mode::Write {
            if let Some(dir) = path.parent() {
                fs::create_dir_all(dir).map_err(at(dir))?;
            }
            fs::write(&path, &file.contents).map_err(at(&path))?;
        }
        changes.push(Change {
            path: file.path.clone(),
            kind,
        });
    }
    for stale in stale_files(root, files)? {
        if mode == Mode::Write {
            let path = root.join(&stale);
            fs::remove_file(&path).map_err(at(&path))?;
        }
        changes.push(Change {
            path: stale,
            kind: ChangeKind::Removed,
        });
    }
    Ok(changes)
}

/// Where generated files of each language live: the folder below the output root, the
/// file name ending, and the header every generated file of it starts with.
const GENERATED_TREES: [(&str, &str, &str); 6] = [
    ("src", ".rs", GENERATED_HEADER),
    (crate::python::ROOT, ".py", crate::python::HEADER),
    // Only the sources: `dist/` beside them holds what tsc writes from them.
    (crate::typescript::SRC, ".ts", crate::typescript::HEADER),
    (crate::php::SRC, ".php", crate::php::HEADER),
    // Only the generated sources: the module's pom.xml is compared as any file is.
    (crate::java::SRC, ".java", crate::java::HEADER),
    (crate::cli::ROOT, ".rs", GENERATED_HEADER),
];

/// Files under each of [`GENERATED_TREES`] that carry its generated header but are not
/// emitted.
fn stale_files(root: &Path, files: &[GeneratedFile]) -> Result<Vec<String>, WriteError> {
    let mut found = Vec::new();
    for (folder, ending, header) in GENERATED_TREES {
        stale_in(root, folder, ending, header, files, &mut found)?;
    }
    found.sort();
    Ok(found)
}

/// [`stale_files`] of one tree.
fn stale_in(
    root: &Path,
    folder: &str,
    ending: &str,
    header: &str,
    files: &[GeneratedFile],
    found: &mut Vec<String>,
) -> Result<(), WriteError> {
    let mut dirs = vec![(root.join(folder), folder.to_owned())];
    while let Some((dir, rel)) = dirs.pop() {
        let entries = match fs::read_dir(&dir) {
            Ok(entries) => entries,
            Err(e) if e.kind() == io::ErrorKind::NotFound => continue,
            Err(e) => return Err(at(&dir)(e)),
        };
        for entry in entries {
            let entry = entry.map_err(at(&dir))?;
            let path = entry.path();
            let name = entry.file_name().to_string_lossy().into_owned();
            let rel_path = format!("{rel}/{name}");
            let file_type = entry.file_type().map_err(at(&path))?;
            if file_type.is_dir() {
                dirs.push((path, rel_path));
            } else if name.ends_with(ending) && !files.iter().any(|f| f.path == rel_path) {
                let text = fs::read_to_string(&path).map_err(at(&path))?;
                if text.starts_with(header) {
                    found.push(rel_path);
                }
            }
        }
    }
    Ok(())
}
