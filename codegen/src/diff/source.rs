//! One side of a diff: a spec folder, or a git revision of the repository
//! (`HEAD~1`, `main`, `v1.2.0`, or `REV:path/to/spec`).

use std::path::Path;
use std::process::Command;

use crate::check::Completeness;
use crate::{check_sources_as, check_spec, Checked};

/// Why a side could not be loaded.
#[derive(Debug)]
pub enum SideError {
    /// Not a folder, and git does not know it as a revision (or git is missing).
    NotFound(String),
    /// The spec there does not pass the checks.
    Invalid(String, crate::Diagnostics),
}

impl std::fmt::Display for SideError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SideError::NotFound(m) => f.write_str(m),
            SideError::Invalid(side, d) => write!(
                f,
                "the spec of `{side}` does not pass the checks ({} problem(s)):\n{d}",
                d.len()
            ),
        }
    }
}

/// Loads `arg`: a folder when one exists there, else `REV` (its `spec/` folder) or
/// `REV:path` of the git repository at `repo`.
pub fn load(arg: &str, repo: &Path) -> Result<Checked, SideError> {
    let dir = Path::new(arg);
    if dir.is_dir() {
        return check_spec(dir).map_err(|d| SideError::Invalid(arg.to_owned(), d));
    }
    let (rev, path) = match arg.split_once(':') {
        Some((rev, path)) => (rev, path.trim_end_matches('/')),
        None => (arg, "spec"),
    };
    let files = git_files(repo, rev, path)?;
    let root = path.rsplit('/').next().unwrap_or("spec").to_owned();
    check_sources_as(&root, &files, Completeness::Reported)
        .map_err(|d| SideError::Invalid(arg.to_owned(), d))
}

fn git(repo: &Path, args: &[&str]) -> Result<Vec<u8>, String> {
    let out = Command::new("git")
        .arg("-C")
        .arg(repo)
        .args(args)
        .output()
        .map_err(|e| format!("cannot run git: {e}"))?;
    if out.status.success() {
        Ok(out.stdout)
    } else {
        Err(String::from_utf8_lossy(&out.stderr).trim().to_owned())
    }
}

/// Every `*.yaml` below `path` at `rev`, named `<last part of path>/<inside>` as a folder
/// would be.
fn git_files(repo: &Path, rev: &str, path: &str) -> Result<Vec<(String, String)>, SideError> {
    let not_found = |why: String| {
        SideError::NotFound(format!(
            "`{rev}` is neither a spec folder nor a git revision of this repository ({why})"
        ))
    };
    let commit = format!("{rev}^{{commit}}");
    git(repo, &["rev-parse", "--verify", "--quiet", &commit]).map_err(|e| {
        not_found(if e.is_empty() {
            "unknown revision; in a shallow clone, fetch it first (`git fetch --deepen=1`)"
                .to_owned()
        } else {
            e
        })
    })?;
    let listing = git(
        repo,
        &[
            "ls-tree",
            "-r",
            "--name-only",
            rev,
            "--",
            &format!("{path}/"),
        ],
    )
    .map_err(not_found)?;
    let listing = String::from_utf8_lossy(&listing).into_owned();
    let root = path.rsplit('/').next().unwrap_or(path);
    let mut files = Vec::new();
    for name in listing.lines().filter(|l| l.ends_with(".yaml")) {
        let blob = git(repo, &["cat-file", "blob", &format!("{rev}:{name}")]).map_err(not_found)?;
        let text = String::from_utf8(blob)
            .map_err(|_| not_found(format!("`{name}` at `{rev}` is not UTF-8")))?;
        let inside = name
            .strip_prefix(path)
            .unwrap_or(name)
            .trim_start_matches('/');
        files.push((format!("{root}/{inside}"), text));
    }
    if files.is_empty() {
        return Err(SideError::NotFound(format!(
            "`{rev}` has no `*.yaml` below `{path}/`"
        )));
    }
    Ok(files)
}
