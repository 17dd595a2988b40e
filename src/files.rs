//! Every file reqlint creates, and every path it follows into a repository, goes through
//! here.
//!
//! A repository is written by others: it can hold a symbolic link named like a file
//! reqlint is about to create, a link that leads out of it, or a cache made to look like
//! reqlint's. So a file reqlint creates is created exclusively (`O_CREAT|O_EXCL`, and
//! `O_NOFOLLOW` on Unix), under a name no one can guess, in the directory of the file it
//! replaces, then renamed over that file: a planted link is never written through, at
//! most replaced. A path inside the project is followed only while it stays inside it.

use std::fs::{File, OpenOptions, Permissions};
use std::io::{self, Write};
use std::path::{Component, Path, PathBuf};

/// How the names of reqlint's temporary files look: `.NAME.reqlint-RANDOM.tmp`.
const TEMP_MARK: &str = ".reqlint-";
const TEMP_END: &str = ".tmp";

/// Creates `path` for writing, readable by its user only, when nothing is there: not a
/// file, not a link (dangling or not), which is never followed.
pub fn create_exclusive(path: &Path) -> io::Result<File> {
    let mut options = OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600).custom_flags(libc::O_NOFOLLOW);
    }
    options.open(path)
}

/// 64 bits no other process can guess: the standard library's hash keys are drawn from
/// the system's random source once per thread and differ for every `RandomState`.
fn unpredictable() -> String {
    use std::hash::{BuildHasher, RandomState};
    use std::sync::atomic::{AtomicU64, Ordering};
    static MADE: AtomicU64 = AtomicU64::new(0);
    let time = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    let made = MADE.fetch_add(1, Ordering::Relaxed);
    let bits = RandomState::new().hash_one((std::process::id(), made, time));
    format!("{bits:016x}")
}

/// The directory a file is in (`.` for a bare name).
fn directory_of(path: &Path) -> &Path {
    match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    }
}

/// A new temporary file beside `target`, created exclusively under an unpredictable
/// name: a link planted under any name reqlint might choose is never written through.
pub fn create_temp_beside(target: &Path) -> io::Result<(File, PathBuf)> {
    let dir = directory_of(target);
    let name = target
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut taken = None;
    // Another name after a clash: a clash is either chance (2^-64) or a name guessed.
    for _ in 0..8 {
        let temp = dir.join(format!(".{name}{TEMP_MARK}{}{TEMP_END}", unpredictable()));
        match create_exclusive(&temp) {
            Ok(file) => return Ok((file, temp)),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => taken = Some(e),
            Err(e) => return Err(e),
        }
    }
    Err(taken.unwrap_or_else(|| io::Error::other("no free temporary name")))
}

/// Whether `name` is one of reqlint's temporary files ([`create_temp_beside`]).
pub fn is_temp_name(name: &str) -> bool {
    name.starts_with('.') && name.contains(TEMP_MARK) && name.ends_with(TEMP_END)
}

/// Replaces `target` by `contents` at once: written to a temporary file beside it, given
/// `permissions`, then renamed over it once `before_rename` agrees (it checks that
/// nothing changed meanwhile). A reader never sees half a file; a link at `target` is
/// replaced, not written through; the temporary file is removed on any failure.
pub fn replace(
    target: &Path,
    contents: &[u8],
    permissions: Option<Permissions>,
    before_rename: impl FnOnce() -> io::Result<()>,
) -> io::Result<()> {
    let (mut file, temp) = create_temp_beside(target)?;
    let written = file
        .write_all(contents)
        .and_then(|()| match permissions {
            Some(p) => file.set_permissions(p),
            None => Ok(()),
        })
        .and_then(|()| file.flush());
    // Closed before the rename: Windows renames no open file.
    drop(file);
    let renamed = written
        .and_then(|()| before_rename())
        .and_then(|()| std::fs::rename(&temp, target));
    if renamed.is_err() {
        let _ = std::fs::remove_file(&temp);
    }
    renamed
}

/// `path` made absolute, with `.` and `..` resolved by its text alone.
fn lexical(path: &Path) -> Option<PathBuf> {
    let absolute = std::path::absolute(path).ok()?;
    let mut out = PathBuf::new();
    for c in absolute.components() {
        match c {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            other => out.push(other),
        }
    }
    Some(out)
}

/// Where `path` leads once every link on it is followed; for a path not there yet, where
/// the nearest of its directories that is there leads, with the rest of the path after
/// it (directories made on the way are made there). A link to nothing (or to a loop) is
/// an error: nothing can tell where creating through it would write.
fn resolved(path: &Path) -> Result<Option<PathBuf>, String> {
    let mut missing: Vec<&std::ffi::OsStr> = Vec::new();
    let mut at = path;
    loop {
        if let Ok(real) = std::fs::canonicalize(at) {
            return Ok(Some(missing.iter().rev().fold(real, |p, c| p.join(c))));
        }
        match at.symlink_metadata() {
            Ok(meta) if meta.file_type().is_symlink() => {
                return Err(format!(
                    "{} is a symbolic link to nothing; reqlint does not write through it",
                    at.display()
                ));
            }
            // There but not resolvable (no permission): the operation itself will fail.
            Ok(_) => return Ok(None),
            Err(_) => {}
        }
        match (at.file_name(), at.parent()) {
            (Some(name), Some(parent)) => {
                missing.push(name);
                at = if parent.as_os_str().is_empty() {
                    Path::new(".")
                } else {
                    parent
                };
            }
            _ => return Ok(None),
        }
    }
}

/// Refuses `path` when it leads out of the directory `root` through a symbolic link (its
/// own, or a directory's on the way), or when it is a link to nothing.
pub fn check_inside(path: &Path, root: &Path) -> Result<(), String> {
    let Ok(root_real) = std::fs::canonicalize(root) else {
        return Err(format!("cannot read the directory {}", root.display()));
    };
    match resolved(path)? {
        Some(real) if !real.starts_with(&root_real) => Err(format!(
            "{} leads out of {} through a symbolic link",
            path.display(),
            root.display()
        )),
        _ => Ok(()),
    }
}

/// For a file reqlint writes where a user named it or a walk found it: a path inside the
/// project `root` must stay inside ([`check_inside`]): a link the repository holds is
/// followed to a file of the repository only. A path outside the project is the user's
/// own choice, made on the command line: it is taken as it is.
pub fn check_link_stays_inside(path: &Path, root: &Path) -> Result<(), String> {
    let (Some(at), Some(project)) = (lexical(path), lexical(root)) else {
        return Ok(());
    };
    let real_project = std::fs::canonicalize(root).unwrap_or_else(|_| project.clone());
    if at.starts_with(&project) || at.starts_with(&real_project) {
        check_inside(path, root)
    } else {
        Ok(())
    }
}

/// Creates (or truncates) a file a user named on the command line to be written (the
/// report of `--output-file`, a baseline, a man page), in the project `root`: where the
/// user says, but a link inside the project is followed only to a file inside it
/// ([`check_link_stays_inside`]). Outside the project the path is taken as it is, as a
/// shell's `>` takes it (`/dev/stdout` included).
pub fn create_named(path: &Path, root: &Path) -> Result<File, String> {
    check_link_stays_inside(path, root)
        .map_err(|e| format!("{e}; {} was not written", path.display()))?;
    File::create(path).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// A path a config names (an environment file, a context snapshot), relative to the
/// config's directory: refused when its text leaves that directory (an absolute path, a
/// drive, `..`). Files outside the project are read only when named on the command line.
pub fn check_config_relative(entry: &str) -> Result<(), String> {
    let leaves = Path::new(entry).components().any(|c| {
        matches!(
            c,
            Component::ParentDir | Component::RootDir | Component::Prefix(_)
        )
    });
    // `C:x` and `\x` are relative to a drive or its root on Windows: refused everywhere,
    // so that a config means the same on every system.
    let windows_rooted = entry.starts_with(['\\', '/'])
        || entry.as_bytes().get(1) == Some(&b':')
        || entry.split(['/', '\\']).any(|part| part == "..");
    if leaves || windows_rooted {
        return Err(format!(
            "`{entry}` leaves the config's directory (an absolute path or `..`); a file outside the project is read only when named on the command line"
        ));
    }
    Ok(())
}

/// The file a config names, `entry` under the config's directory `root`: neither its
/// text ([`check_config_relative`]) nor a link on its way may lead out of `root`.
pub fn named_by_config(root: &Path, entry: &str) -> Result<PathBuf, String> {
    check_config_relative(entry)?;
    let path = root.join(entry);
    check_inside(&path, root)?;
    Ok(path)
}

/// Makes sure `dir` is a directory only its user writes, creating it (readable by its
/// user only) when it is missing: not a link, not a file, owned by the user running
/// reqlint, not writable by others. The result cache lives in such a directory only:
/// whoever can write the cache can make a finding pass.
pub fn own_directory(dir: &Path) -> Result<(), String> {
    let meta = match dir.symlink_metadata() {
        Ok(meta) => meta,
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            if let Some(parent) = dir.parent().filter(|p| !p.as_os_str().is_empty()) {
                std::fs::create_dir_all(parent)
                    .map_err(|e| format!("cannot create {}: {e}", parent.display()))?;
            }
            let mut builder = std::fs::DirBuilder::new();
            // Its parents were made above: this one alone is made private.
            builder.recursive(false);
            #[cfg(unix)]
            std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
            match builder.create(dir) {
                Ok(()) => {}
                // Made meanwhile by another run: checked as any other.
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
                Err(e) => return Err(format!("cannot create {}: {e}", dir.display())),
            }
            dir.symlink_metadata()
                .map_err(|e| format!("cannot read {}: {e}", dir.display()))?
        }
        Err(e) => return Err(format!("cannot read {}: {e}", dir.display())),
    };
    if meta.file_type().is_symlink() {
        return Err(format!("{} is a symbolic link", dir.display()));
    }
    if !meta.is_dir() {
        return Err(format!("{} is not a directory", dir.display()));
    }
    check_owner(&meta, dir)
}

/// Opens a file of an [`own_directory`] to read it: not through a link, a regular file
/// of the user's. `None` when there is none.
pub fn open_own_file(path: &Path) -> Result<Option<File>, String> {
    let mut options = OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::custom_flags(
        &mut options,
        libc::O_NOFOLLOW | libc::O_NONBLOCK,
    );
    let file = match options.open(path) {
        Ok(file) => file,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(format!("cannot read {}: {e}", path.display())),
    };
    let meta = file
        .metadata()
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    // (Windows: `O_NOFOLLOW` does not exist; a link is seen by its metadata.)
    let link = path
        .symlink_metadata()
        .is_ok_and(|m| m.file_type().is_symlink());
    if !meta.is_file() || link {
        return Err(format!("{} is not a regular file", path.display()));
    }
    check_owner(&meta, path)?;
    Ok(Some(file))
}

#[cfg(unix)]
fn check_owner(meta: &std::fs::Metadata, path: &Path) -> Result<(), String> {
    use std::os::unix::fs::MetadataExt;
    // SAFETY: geteuid has no preconditions and cannot fail.
    let me = unsafe { libc::geteuid() };
    if meta.uid() != me {
        return Err(format!(
            "{} belongs to another user (uid {})",
            path.display(),
            meta.uid()
        ));
    }
    if meta.mode() & 0o002 != 0 {
        return Err(format!("{} can be written by every user", path.display()));
    }
    Ok(())
}

#[cfg(not(unix))]
fn check_owner(_meta: &std::fs::Metadata, _path: &Path) -> Result<(), String> {
    Ok(())
}

/// A path as shown to the user: relative to the working directory where it lies below
/// it (a config found by walking up is known by its absolute path), else as it is.
pub fn relative_to_cwd(path: &std::path::Path) -> String {
    let cwd = std::env::current_dir().unwrap_or_default();
    path.strip_prefix(&cwd)
        .unwrap_or(path)
        .to_string_lossy()
        .into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn temporary_names_differ_and_are_recognised() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("a.req.yaml");
        let (_, first) = create_temp_beside(&target).unwrap();
        let (_, second) = create_temp_beside(&target).unwrap();
        assert_ne!(first, second);
        assert_eq!(first.parent(), Some(dir.path()));
        for temp in [&first, &second] {
            assert!(is_temp_name(&temp.file_name().unwrap().to_string_lossy()));
        }
        assert!(!is_temp_name("a.req.yaml"));
        assert!(!is_temp_name("reqlint-0.1.0-1-0123456789abcdef.bin"));
    }

    #[cfg(unix)]
    #[test]
    fn exclusive_creation_never_follows_a_link() {
        let dir = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        let victim = outside.path().join("victim");
        std::fs::write(&victim, "keep").unwrap();
        let link = dir.path().join("made");
        std::os::unix::fs::symlink(&victim, &link).unwrap();
        assert!(create_exclusive(&link).is_err());
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "keep");
        // A dangling link: nothing is created where it points.
        let dangling = dir.path().join("dangling");
        let nowhere = outside.path().join("nowhere");
        std::os::unix::fs::symlink(&nowhere, &dangling).unwrap();
        assert!(create_exclusive(&dangling).is_err());
        assert!(!nowhere.exists());
    }

    #[test]
    fn replace_leaves_the_file_when_the_check_says_no() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("a");
        std::fs::write(&target, "old").unwrap();
        let refused = replace(&target, b"new", None, || Err(io::Error::other("changed")));
        assert!(refused.is_err());
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "old");
        // No temporary file is left behind.
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
        replace(&target, b"new", None, || Ok(())).unwrap();
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "new");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[test]
    fn config_paths_stay_relative() {
        for bad in [
            "../x.json",
            "a/../../x.json",
            "/etc/passwd",
            "/home/*/.config/*.json",
            "\\\\server\\share\\x",
            "C:\\x.json",
            "c:x.json",
            "a\\..\\..\\x",
        ] {
            assert!(check_config_relative(bad).is_err(), "{bad}");
        }
        for good in [
            "x.json",
            "envs/dev.json#dev",
            "state/**/*.yaml",
            "a..b.json",
        ] {
            assert!(check_config_relative(good).is_ok(), "{good}");
        }
    }

    #[cfg(unix)]
    #[test]
    fn links_out_of_the_project_are_refused() {
        use std::os::unix::fs::symlink;
        let project = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        let secret = outside.path().join("secret.json");
        std::fs::write(&secret, "{}").unwrap();
        let root = project.path();
        std::fs::write(root.join("own.json"), "{}").unwrap();
        symlink(&secret, root.join("out.json")).unwrap();
        symlink(root.join("own.json"), root.join("in.json")).unwrap();
        symlink(outside.path(), root.join("dir")).unwrap();
        symlink(outside.path().join("gone"), root.join("dangling")).unwrap();
        assert!(named_by_config(root, "own.json").is_ok());
        assert!(named_by_config(root, "in.json").is_ok());
        assert!(named_by_config(root, "out.json").is_err());
        assert!(named_by_config(root, "dir/secret.json").is_err());
        assert!(check_link_stays_inside(&root.join("dir/new.sarif"), root).is_err());
        assert!(check_link_stays_inside(&root.join("dir/a/b/new.sarif"), root).is_err());
        assert!(check_link_stays_inside(&root.join("new/a/b/new.sarif"), root).is_ok());
        assert!(check_link_stays_inside(&root.join("dangling"), root).is_err());
        assert!(check_link_stays_inside(&root.join("new.sarif"), root).is_ok());
        // Outside the project, the user's own path is taken as it is.
        assert!(check_link_stays_inside(&secret, root).is_ok());
    }

    #[cfg(unix)]
    #[test]
    fn own_directories_are_made_private_and_others_refused() {
        use std::os::unix::fs::PermissionsExt;
        let base = tempfile::tempdir().unwrap();
        let made = base.path().join("a/b");
        own_directory(&made).unwrap();
        let mode = std::fs::metadata(&made).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o700);
        let link = base.path().join("link");
        std::os::unix::fs::symlink(&made, &link).unwrap();
        assert!(own_directory(&link).is_err());
        let file = base.path().join("file");
        std::fs::write(&file, "").unwrap();
        assert!(own_directory(&file).is_err());
        let open = base.path().join("open");
        std::fs::create_dir(&open).unwrap();
        std::fs::set_permissions(&open, std::fs::Permissions::from_mode(0o777)).unwrap();
        assert!(own_directory(&open).is_err());
        // A link to a cache file is not read.
        std::fs::write(made.join("f"), "x").unwrap();
        std::os::unix::fs::symlink(made.join("f"), made.join("g")).unwrap();
        assert!(open_own_file(&made.join("f")).unwrap().is_some());
        assert!(open_own_file(&made.join("g")).is_err());
        assert!(open_own_file(&made.join("none")).unwrap().is_none());
    }
}
