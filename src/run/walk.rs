//! Which files a run lints: paths named on the command line always; files found in
//! named directories when `include` matches and `exclude` does not, honouring
//! `.gitignore`.

use std::collections::HashSet;
use std::path::{Component, Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::model::config::Config;

/// What a run's paths are shown and matched as: relative to the working directory for
/// people, relative to the config root for globs.
#[derive(Debug)]
pub struct Paths {
    cwd: PathBuf,
    root: PathBuf,
    /// Files named on the command line obey `include` and `exclude` too (`--force-exclude`,
    /// for hooks and editors that pass every file they have).
    force_exclude: bool,
}

impl Paths {
    pub fn new(config: &Config) -> Result<Paths, String> {
        let cwd = std::env::current_dir()
            .map_err(|e| format!("cannot read the working directory: {e}"))?;
        let root = absolute(&cwd, &config.root);
        Ok(Paths {
            cwd,
            root,
            force_exclude: false,
        })
    }

    /// Named files obey `include` and `exclude` as found files do.
    pub fn with_force_exclude(mut self, force_exclude: bool) -> Paths {
        self.force_exclude = force_exclude;
        self
    }

    /// The path as given or found, without a leading `./`.
    pub fn display(&self, path: &Path) -> String {
        lossless_name(&strip_dot(path))
    }

    /// The path relative to the config root, for globs.
    pub fn relative(&self, path: &Path) -> PathBuf {
        relative(path, &self.cwd, &self.root)
    }
}

/// The files under `inputs`, sorted by their paths as shown and without repeats. A path
/// that does not exist is an error of the run.
pub fn collect(inputs: &[PathBuf], config: &Config, paths: &Paths) -> Result<Vec<PathBuf>, String> {
    let found = visit(
        inputs,
        config,
        paths,
        Some(1),
        &Vec::new,
        &|files, path, _| {
            files.push(path.to_path_buf());
        },
    )?;
    if let Some(error) = found.errors.first() {
        return Err(error.clone());
    }
    let mut files: Vec<PathBuf> = found.states.into_iter().flatten().collect();
    // Deterministic output (docs/usage.md): the same files in the same order every run.
    files.sort_by_cached_key(|p| paths.display(p));
    Ok(files)
}

/// Hands every file under `inputs` to `each` (with its path relative to the config
/// root) as soon as it is found, on `threads`
/// threads (`None`: every core), so that reading and linting overlap the walk; each
/// thread keeps a state made by `make`, and the states come back at the end. Files
/// named on the command line always count; files found in directories when `include`
/// matches and `exclude` does not, honouring `.gitignore`. A file reached twice (named
/// and found, or under two inputs) is handed over once. A path that does not exist is
/// an error of the run, found before any file is handed over.
pub fn visit<T: Send>(
    inputs: &[PathBuf],
    config: &Config,
    paths: &Paths,
    threads: Option<usize>,
    make: &(dyn Fn() -> T + Sync),
    each: &(dyn Fn(&mut T, &Path, &Path) + Sync),
) -> Result<Walked<T>, String> {
    let mut files = Vec::new();
    let mut dirs = Vec::new();
    for input in inputs {
        let meta = std::fs::metadata(input)
            .map_err(|e| format!("{}: {}", input.display(), describe(&e)))?;
        if meta.is_dir() {
            dirs.push(input.as_path());
        } else if !files.contains(&input.as_path()) {
            if paths.force_exclude {
                let rel = paths.relative(input);
                let shown = strip_dot(input);
                let candidates = [rel.as_path(), shown.as_path()];
                let chosen = selected(config, &candidates)
                    || (sniffable(config, &candidates) && is_postman_file(input));
                if !chosen {
                    continue;
                }
            }
            files.push(input.as_path());
        }
    }
    // Only several inputs can reach a file twice.
    let seen = (files.len() + dirs.len() > 1).then(|| {
        Mutex::new(
            files
                .iter()
                .map(|p| p.to_path_buf())
                .collect::<HashSet<_>>(),
        )
    });
    // One file needs no thread: the count of cores (read from the cgroup's files) is
    // asked only when there is more than one.
    let threads = if dirs.is_empty() && files.len() <= 1 {
        1
    } else {
        threads
            .filter(|&n| n > 0)
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
    };
    let mut states = visit_files(&files, paths, threads, make, each)?;
    let errors = Mutex::new(Vec::new());
    for dir in dirs {
        let done = Mutex::new(Vec::new());
        let walk = DirWalk {
            dir,
            config,
            paths,
            seen: seen.as_ref(),
            make,
            each,
            done: &done,
            errors: &errors,
        };
        ignore::WalkBuilder::new(dir)
            .standard_filters(true)
            // Hidden files and folders stay out, but for `.github`, where workflows live.
            .hidden(false)
            .filter_entry(|entry| entry.depth() == 0 || !is_hidden_but_github(entry.file_name()))
            .require_git(false)
            .follow_links(false)
            .threads(threads)
            .build_parallel()
            .visit(&mut Visitors(&walk));
        states.extend(done.into_inner().unwrap_or_else(|e| e.into_inner()));
    }
    let mut errors = errors.into_inner().unwrap_or_else(|e| e.into_inner());
    errors.sort();
    Ok(Walked { states, errors })
}

/// What a walk hands back: each thread's state, and what it could not read (a directory
/// it may not list, say), which fails the run as an unreadable file does.
pub struct Walked<T> {
    pub states: Vec<T>,
    pub errors: Vec<String>,
}

/// Files named on the command line: one on this thread (an editor's or a hook's run
/// starts no thread), more shared out to `threads` threads.
fn visit_files<T: Send>(
    files: &[&Path],
    paths: &Paths,
    threads: usize,
    make: &(dyn Fn() -> T + Sync),
    each: &(dyn Fn(&mut T, &Path, &Path) + Sync),
) -> Result<Vec<T>, String> {
    if files.len() <= 1 || threads == 1 {
        let mut state = make();
        for file in files {
            each(&mut state, file, &paths.relative(file));
        }
        return Ok(vec![state]);
    }
    let next = AtomicUsize::new(0);
    std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads.min(files.len()))
            .map(|_| {
                std::thread::Builder::new()
                    .stack_size(THREAD_STACK)
                    .spawn_scoped(scope, || {
                        let mut state = make();
                        while let Some(file) = files.get(next.fetch_add(1, Ordering::Relaxed)) {
                            each(&mut state, file, &paths.relative(file));
                        }
                        state
                    })
                    .map_err(|e| format!("cannot start threads: {e}"))
            })
            .collect::<Result<_, _>>()?;
        workers
            .into_iter()
            .map(|w| w.join().map_err(|_| "a lint thread failed".to_string()))
            .collect()
    })
}

/// Stack for threads that lint files named on the command line: generous, although the
/// loaders never recurse deeply (the walk's own threads have the default 2 MiB).
const THREAD_STACK: usize = 8 * 1024 * 1024;

/// What the threads of one directory's walk share.
struct DirWalk<'a, T> {
    dir: &'a Path,
    config: &'a Config,
    paths: &'a Paths,
    seen: Option<&'a Mutex<HashSet<PathBuf>>>,
    make: &'a (dyn Fn() -> T + Sync),
    each: &'a (dyn Fn(&mut T, &Path, &Path) + Sync),
    done: &'a Mutex<Vec<T>>,
    errors: &'a Mutex<Vec<String>>,
}

/// Makes one visitor a walk thread; each hands its state back when the walk is done.
struct Visitors<'a, T>(&'a DirWalk<'a, T>);

struct Visitor<'a, T> {
    state: Option<T>,
    walk: &'a DirWalk<'a, T>,
}

impl<'s, T: Send + 's> ignore::ParallelVisitorBuilder<'s> for Visitors<'s, T> {
    fn build(&mut self) -> Box<dyn ignore::ParallelVisitor + 's> {
        Box::new(Visitor {
            state: Some((self.0.make)()),
            walk: self.0,
        })
    }
}

impl<T: Send> ignore::ParallelVisitor for Visitor<'_, T> {
    fn visit(&mut self, entry: Result<ignore::DirEntry, ignore::Error>) -> ignore::WalkState {
        let entry = match entry {
            Ok(entry) => entry,
            Err(e) => {
                self.walk
                    .errors
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .push(walk_error(&e));
                return ignore::WalkState::Continue;
            }
        };
        if entry.file_type().is_some_and(|t| t.is_file()) {
            let path = entry.path();
            let rel = self.walk.paths.relative(path);
            let from_walk_root = path.strip_prefix(self.walk.dir).unwrap_or(path);
            let candidates = [rel.as_path(), from_walk_root];
            let config = self.walk.config;
            let chosen = selected(config, &candidates)
                || (sniffable(config, &candidates) && is_postman_file(path));
            let first_time = || {
                self.walk.seen.is_none_or(|seen| {
                    seen.lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .insert(path.to_path_buf())
                })
            };
            if chosen
                && first_time()
                && let Some(state) = &mut self.state
            {
                (self.walk.each)(state, path, &rel);
            }
        }
        ignore::WalkState::Continue
    }
}

impl<T> Drop for Visitor<'_, T> {
    fn drop(&mut self) {
        if let Some(state) = self.state.take() {
            self.walk
                .done
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .push(state);
        }
    }
}

/// A hidden file or folder other than `.github` (the walk's standard filters would
/// leave out `.github/workflows` too).
fn is_hidden_but_github(name: &std::ffi::OsStr) -> bool {
    let name = name.as_encoded_bytes();
    name.starts_with(b".") && name != b".github"
}

/// `cannot read PATH: REASON`, with the path shown as files are (no leading `./`).
/// `include` matches one of the paths and `exclude` none.
pub fn selected(config: &Config, candidates: &[&Path]) -> bool {
    candidates.iter().any(|p| config.include.is_match(p))
        && !candidates.iter().any(|p| config.exclude.is_match(p))
}

/// A `.json` file that `include` does not name and `exclude` does not leave out: its
/// content may still make it a Postman collection or environment.
fn sniffable(config: &Config, candidates: &[&Path]) -> bool {
    candidates[0]
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("json"))
        && !candidates.iter().any(|p| config.exclude.is_match(p))
}

/// Whether a JSON file is a Postman collection (`info.schema` names the collection
/// schema) or environment (`_postman_variable_scope`), judged on its first 8 KiB and last
/// 1 KiB only, so that a tree of large JSON data files costs two small reads each.
pub fn is_postman_file(path: &Path) -> bool {
    use crate::loading::readers::postman::{SNIFF_HEAD_BYTES, SNIFF_TAIL_BYTES, sniffed};
    use std::io::{Read, Seek, SeekFrom};
    let Ok(mut file) = std::fs::File::open(path) else {
        return false;
    };
    let mut head = Vec::with_capacity(SNIFF_HEAD_BYTES);
    if (&mut file)
        .take(SNIFF_HEAD_BYTES as u64)
        .read_to_end(&mut head)
        .is_err()
    {
        return false;
    }
    if sniffed(&head) {
        return true;
    }
    if head.len() < SNIFF_HEAD_BYTES {
        return false;
    }
    let mut tail = Vec::with_capacity(SNIFF_TAIL_BYTES);
    file.seek(SeekFrom::End(-(SNIFF_TAIL_BYTES as i64))).is_ok()
        && (&mut file)
            .take(SNIFF_TAIL_BYTES as u64)
            .read_to_end(&mut tail)
            .is_ok()
        && sniffed(&tail)
}

fn walk_error(e: &ignore::Error) -> String {
    match e {
        ignore::Error::WithPath { path, err } => {
            format!("cannot read {}: {err}", strip_dot(path).display())
        }
        ignore::Error::WithDepth { err, .. } | ignore::Error::WithLineNumber { err, .. } => {
            walk_error(err)
        }
        other => format!("cannot read {other}"),
    }
}

fn describe(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::NotFound => "no such file or directory".into(),
        std::io::ErrorKind::PermissionDenied => "permission denied".into(),
        _ => e.to_string(),
    }
}

fn relative(path: &Path, cwd: &Path, root: &Path) -> PathBuf {
    if is_plain(path) {
        // The common cases, without rebuilding the path component by component.
        if path.is_absolute() {
            // A plain absolute path is its own lexical absolute form.
            if let Some(rest) = strip_root_bytes(path, root) {
                return rest.to_path_buf();
            }
            return path.strip_prefix(root).unwrap_or(path).to_path_buf();
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

/// `path` without `root` and the separator after it, compared as bytes where that gives
/// what `Path::strip_prefix` gives (no doubled or trailing separator on either side):
/// comparing component by component cost as much as the rest of a walk's work on a file.
fn strip_root_bytes<'p>(path: &'p Path, root: &Path) -> Option<&'p Path> {
    let is_sep = |c: &u8| std::path::is_separator(char::from(*c));
    let doubled = |bytes: &[u8]| bytes.windows(2).any(|w| is_sep(&w[0]) && is_sep(&w[1]));
    let root = root.as_os_str().as_encoded_bytes();
    if root.last().is_none_or(is_sep) || doubled(root) {
        return None;
    }
    let bytes = path.as_os_str().as_encoded_bytes();
    let rest = bytes.strip_prefix(root)?;
    let (first, rest) = rest.split_first()?;
    if !is_sep(first) || rest.first().is_none_or(is_sep) || rest.last().is_some_and(is_sep) {
        return None;
    }
    if doubled(rest) {
        return None;
    }
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        Some(Path::new(std::ffi::OsStr::from_bytes(rest)))
    }
    #[cfg(not(unix))]
    {
        let _ = rest;
        None
    }
}

/// No `.` or `..` component, judged on the bytes: `Path::components` costs more than
/// the rest of a walk's work on a file.
fn is_plain(path: &Path) -> bool {
    !path
        .as_os_str()
        .as_encoded_bytes()
        .split(|&c| std::path::is_separator(c as char))
        .any(|part| part == b"." || part == b"..")
}

/// A path as text that keeps apart names that differ: a name that is not UTF-8 shows
/// each byte that is not as `\xNN` (and a backslash as `\\`), where a lossy conversion
/// would turn every such byte into the same `�`.
pub fn lossless_name(path: &Path) -> String {
    if let Some(text) = path.to_str() {
        return text.to_string();
    }
    #[cfg(unix)]
    {
        use std::fmt::Write as _;
        use std::os::unix::ffi::OsStrExt;
        let mut out = String::new();
        for chunk in path.as_os_str().as_bytes().utf8_chunks() {
            out.push_str(&chunk.valid().replace('\\', "\\\\"));
            for b in chunk.invalid() {
                let _ = write!(out, "\\x{b:02x}");
            }
        }
        out
    }
    #[cfg(not(unix))]
    {
        path.to_string_lossy().into_owned()
    }
}

fn strip_dot(path: &Path) -> PathBuf {
    // `Path::starts_with(".")`, told from the bytes: it splits the path into components.
    let bytes = path.as_os_str().as_encoded_bytes();
    let starts_with_dot = match bytes {
        [b'.'] => true,
        [b'.', next, ..] => std::path::is_separator(char::from(*next)),
        _ => false,
    };
    if !starts_with_dot {
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
    fn relative_paths() {
        let cwd = Path::new("/work/repo");
        let root = Path::new("/work/repo");
        for (path, rel) in [
            ("requests/a.req.yaml", "requests/a.req.yaml"),
            ("./requests/a.req.yaml", "requests/a.req.yaml"),
            ("/work/repo/requests/a.req.yaml", "requests/a.req.yaml"),
            ("/tmp/x/a.req.yaml", "/tmp/x/a.req.yaml"),
            // Outside the root: as given.
            (
                "/work/repo/../other/a.req.yaml",
                "/work/repo/../other/a.req.yaml",
            ),
            ("sub/../requests/./a.req.yaml", "requests/a.req.yaml"),
            ("..file/a.req.yaml", "..file/a.req.yaml"),
        ] {
            assert_eq!(
                relative(Path::new(path), cwd, root),
                PathBuf::from(rel),
                "{path}"
            );
        }
        // A config root above the working directory.
        assert_eq!(
            relative(Path::new("a.req.yaml"), Path::new("/work/repo/sub"), root),
            PathBuf::from("sub/a.req.yaml")
        );
    }

    #[test]
    fn root_stripped_as_bytes_as_by_components() {
        let roots = ["/", "/work", "/work/", "/work//repo", "/work/repo", "/wor"];
        let paths = [
            "/work/repo/a.req.yaml",
            "/work/repo//a.req.yaml",
            "/work/repo/sub/",
            "/work/repo",
            "/work/repository/a.yaml",
            "/work//repo/a.yaml",
            "/elsewhere/a.yaml",
        ];
        for root in roots {
            for path in paths {
                let (root, path) = (Path::new(root), Path::new(path));
                if let Some(rest) = strip_root_bytes(path, root) {
                    assert_eq!(
                        rest.as_os_str(),
                        path.strip_prefix(root).unwrap().as_os_str(),
                        "{path:?} under {root:?}"
                    );
                }
            }
        }
        assert_eq!(
            strip_root_bytes(Path::new("/work/repo/a/b.yaml"), Path::new("/work/repo")),
            Some(Path::new("a/b.yaml"))
        );
    }

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
        for path in [
            "./a", ".", "./", ".//a", "..", "../a", ".a/b", "a/./b", "/./a", "", "a",
        ] {
            let by_components = if Path::new(path).starts_with(".") {
                let rest: PathBuf = Path::new(path)
                    .components()
                    .skip_while(|c| matches!(c, Component::CurDir))
                    .collect();
                if rest.as_os_str().is_empty() {
                    PathBuf::from(path)
                } else {
                    rest
                }
            } else {
                PathBuf::from(path)
            };
            assert_eq!(
                strip_dot(Path::new(path)).as_os_str(),
                by_components.as_os_str(),
                "{path}"
            );
        }
    }
}
