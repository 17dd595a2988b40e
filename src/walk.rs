//! Which files a run lints: paths named on the command line always; files found in
//! named directories when `include` matches and `exclude` does not, honouring
//! `.gitignore`.

use std::path::{Component, Path, PathBuf};

use crate::model::config::Config;

/// A file to lint: the path as given or found. What it is shown as and what globs see are
/// derived when it is linted ([`Targets::display`], [`Targets::relative`]), so that a walk
/// of 100,000 files keeps one allocation a file.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Target {
    pub path: Box<Path>,
}

/// The files of a run and what their paths are relative to.
#[derive(Debug)]
pub struct Targets {
    pub files: Vec<Target>,
    cwd: PathBuf,
    root: PathBuf,
}

impl Targets {
    /// The path as given or found, without a leading `./`.
    pub fn display(&self, target: &Target) -> String {
        strip_dot(&target.path).to_string_lossy().into_owned()
    }

    /// The path relative to the config root, for globs.
    pub fn relative(&self, target: &Target) -> PathBuf {
        relative(&target.path, &self.cwd, &self.root)
    }
}

/// The files under `inputs`, sorted and without repeats. A path that does not exist
/// is an error of the run.
/// `threads` bounds the walk's threads as it does the linting's (`None`: every core).
pub fn collect(
    inputs: &[PathBuf],
    config: &Config,
    threads: Option<usize>,
) -> Result<Targets, String> {
    let cwd =
        std::env::current_dir().map_err(|e| format!("cannot read the working directory: {e}"))?;
    let root = absolute(&cwd, &config.root);
    let mut targets = Vec::new();
    for input in inputs {
        let meta = std::fs::metadata(input)
            .map_err(|e| format!("{}: {}", input.display(), describe(&e)))?;
        if !meta.is_dir() {
            targets.push(Target {
                path: input.clone().into_boxed_path(),
            });
            continue;
        }
        // The walk runs on every core; the files are sorted afterwards.
        let found = std::sync::Mutex::new(Vec::new());
        ignore::WalkBuilder::new(input)
            .standard_filters(true)
            .require_git(false)
            .follow_links(false)
            .threads(threads.unwrap_or(0))
            .build_parallel()
            .run(|| {
                let (cwd, root, found) = (&cwd, &root, &found);
                Box::new(move |entry| {
                    if let Ok(entry) = entry
                        && entry.file_type().is_some_and(|t| t.is_file())
                    {
                        let path = entry.path();
                        let rel = relative(path, cwd, root);
                        let from_walk_root = path.strip_prefix(input).unwrap_or(path);
                        let candidates = [rel.as_path(), from_walk_root];
                        if candidates.iter().any(|p| config.include.is_match(p))
                            && !candidates.iter().any(|p| config.exclude.is_match(p))
                        {
                            let target = Target { path: path.into() };
                            found.lock().unwrap_or_else(|e| e.into_inner()).push(target);
                        }
                    }
                    ignore::WalkState::Continue
                })
            });
        targets.append(&mut found.into_inner().unwrap_or_else(|e| e.into_inner()));
    }
    // Files in the order of their paths as shown (SPEC 4: deterministic output).
    targets.sort_by_cached_key(|t| strip_dot(&t.path).to_string_lossy().into_owned());
    targets.dedup_by(|a, b| a.path == b.path);
    Ok(Targets {
        files: targets,
        cwd,
        root,
    })
}

fn describe(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::NotFound => "no such file or directory".into(),
        std::io::ErrorKind::PermissionDenied => "permission denied".into(),
        _ => e.to_string(),
    }
}

fn relative(path: &Path, cwd: &Path, root: &Path) -> PathBuf {
    let plain = !path
        .components()
        .any(|c| matches!(c, Component::CurDir | Component::ParentDir));
    if plain {
        // The common cases, without rebuilding the path component by component.
        if path.is_absolute() {
            if let Ok(rel) = path.strip_prefix(root) {
                return rel.to_path_buf();
            }
        } else if root == cwd {
            return path.to_path_buf();
        }
    }
    let clean = strip_dot(path);
    let abs = absolute(cwd, &clean);
    abs.strip_prefix(root)
        .map(Path::to_path_buf)
        .unwrap_or(clean)
}

fn strip_dot(path: &Path) -> PathBuf {
    if !path.starts_with(".") {
        return path.to_path_buf();
    }
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
