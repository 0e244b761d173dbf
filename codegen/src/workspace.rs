//! Where the repository is: found from the directory the command runs in, as cargo finds
//! `Cargo.toml`, never from where the binary was built.

use std::path::{Path, PathBuf};

/// The folder holding `spec/` and the workspace `Cargo.toml`: `start` or its nearest
/// ancestor that has both.
///
/// # Errors
/// No such folder from `start` up to the file system's root: says where it looked.
pub fn find(start: &Path) -> Result<PathBuf, String> {
    let start = start
        .canonicalize()
        .map_err(|e| format!("cannot read `{}`: {e}", start.display()))?;
    start
        .ancestors()
        .find(|dir| is_root(dir))
        .map(Path::to_path_buf)
        .ok_or_else(|| {
            format!(
                "no folder with `spec/` and `Cargo.toml` at or above `{}`: run baas-codegen \
                 inside the repository, or pass `--repo DIR`",
                start.display()
            )
        })
}

/// True when `dir` holds `spec/` and a `Cargo.toml`.
pub fn is_root(dir: &Path) -> bool {
    dir.join("spec").is_dir() && dir.join("Cargo.toml").is_file()
}

/// The repository: `--repo DIR` as given (it must hold `spec/` and `Cargo.toml`), or
/// the one found from the current directory.
///
/// # Errors
/// As [`find`], or `--repo` names a folder that is not a repository root.
pub fn resolve(repo: Option<&Path>) -> Result<PathBuf, String> {
    match repo {
        Some(dir) if is_root(dir) => Ok(dir.to_path_buf()),
        Some(dir) => Err(format!(
            "`--repo {}` has no `spec/` folder and `Cargo.toml`",
            dir.display()
        )),
        None => {
            let here = std::env::current_dir()
                .map_err(|e| format!("cannot read the current directory: {e}"))?;
            find(&here)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn found_from_a_subfolder_and_not_from_outside() {
        let base = std::env::temp_dir().join(format!("baas-ws-{}", std::process::id()));
        let inner = base.join("repo/codegen/src");
        std::fs::create_dir_all(&inner).unwrap();
        std::fs::create_dir_all(base.join("repo/spec")).unwrap();
        std::fs::write(base.join("repo/Cargo.toml"), "[workspace]\n").unwrap();
        let root = base.join("repo").canonicalize().unwrap();
        assert_eq!(find(&inner).unwrap(), root);
        assert_eq!(find(&root).unwrap(), root);
        assert!(resolve(Some(&root)).is_ok());
        assert!(resolve(Some(&inner)).unwrap_err().contains("--repo"));
        let outside = base.join("elsewhere");
        std::fs::create_dir_all(&outside).unwrap();
        // No ancestor of the temp folder is a repository (unless the temp folder is
        // inside one, which a test machine's is not).
        if find(&std::env::temp_dir()).is_err() {
            assert!(find(&outside).unwrap_err().contains("--repo"));
        }
        std::fs::remove_dir_all(&base).unwrap();
    }
}
