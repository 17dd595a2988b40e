//! Which files a run lints: paths named on the command line always; files found in
//! named directories when `include` matches and `exclude` does not, honouring
//! `.gitignore`.

use std::path::{Component, Path, PathBuf};

use crate::model::config::Config;

/// A file to lint.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Target {
    /// The path as given or found, without a leading `./`.
    pub display: String,
    pub path: PathBuf,
    /// The path relative to the config root, for globs.
    pub rel: PathBuf,
}

/// The files under `inputs`, sorted and without repeats. A path that does not exist
/// is an error of the run.
pub fn collect(inputs: &[PathBuf], config: &Config) -> Result<Vec<Target>, String> {
    let cwd =
        std::env::current_dir().map_err(|e| format!("cannot read the working directory: {e}"))?;
    let root = absolute(&cwd, &config.root);
    let mut targets = Vec::new();
    for input in inputs {
        let meta = std::fs::metadata(input)
            .map_err(|e| format!("{}: {}", input.display(), describe(&e)))?;
        if !meta.is_dir() {
            targets.push(target(input, &cwd, &root));
            continue;
        }
        let walker = ignore::WalkBuilder::new(input)
            .standard_filters(true)
            .require_git(false)
            .follow_links(false)
            .build();
        for entry in walker {
            let Ok(entry) = entry else { continue };
            if !entry.file_type().is_some_and(|t| t.is_file()) {
                continue;
            }
            let path = entry.path();
            let t = target(path, &cwd, &root);
            let from_walk_root = path.strip_prefix(input).unwrap_or(path);
            let candidates = [t.rel.as_path(), from_walk_root];
            if candidates.iter().any(|p| config.include.is_match(p))
                && !candidates.iter().any(|p| config.exclude.is_match(p))
            {
                targets.push(t);
            }
        }
    }
    targets.sort();
    targets.dedup_by(|a, b| a.path == b.path);
    Ok(targets)
}

fn describe(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::NotFound => "no such file or directory".into(),
        std::io::ErrorKind::PermissionDenied => "permission denied".into(),
        _ => e.to_string(),
    }
}

fn target(path: &Path, cwd: &Path, root: &Path) -> Target {
    let clean = strip_dot(path);
    let abs = absolute(cwd, &clean);
    let rel = abs
        .strip_prefix(root)
        .map(Path::to_path_buf)
        .unwrap_or_else(|_| clean.clone());
    Target {
        display: clean.to_string_lossy().into_owned(),
        path: path.to_path_buf(),
        rel,
    }
}

fn strip_dot(path: &Path) -> PathBuf {
    let stripped: PathBuf = path
        .components()
        .skip_while(|c| matches!(c, Component::CurDir))
        .collect();
    if stripped.as_os_str().is_empty() {
        path.to_path_buf()
    } else {
        stripped
    }
}

/// `path` made absolute lexically (no file system access, `..` resolved).
pub fn absolute(cwd: &Path, path: &Path) -> PathBuf {
    let joined = if path.is_absolute() {
        path.to_path_buf()
    } else {
        cwd.join(path)
    };
    let mut out = PathBuf::new();
    for c in joined.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other.as_os_str()),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lexical_absolute() {
        assert_eq!(
            absolute(Path::new("/a/b"), Path::new("../c/./d")),
            PathBuf::from("/a/c/d")
        );
        assert_eq!(
            strip_dot(Path::new("./x/y.yaml")),
            PathBuf::from("x/y.yaml")
        );
        assert_eq!(strip_dot(Path::new(".")), PathBuf::from("."));
    }
}
