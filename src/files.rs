//! Every file reqlint creates, and every path it follows into a repository, goes through
//! here.
//!
//! A repository is written by others: it can hold a symbolic link named like a file
//! reqlint is about to create, a link that leads out of it, or a cache made to look like
//! reqlint's. So a file reqlint replaces is written to a temporary file that `tempfile`
//! creates exclusively (`O_CREAT|O_EXCL`, which no link passes, not even one to nothing),
//! under a random name, in the directory of the file it replaces, then renamed over that
//! file: a planted link is never written through, at most replaced. A file
//! created in place (the cache's markers) is created exclusively too, and on Unix with
//! `O_NOFOLLOW`. A path inside the project is followed only while it stays inside it.

use std::fs::{File, OpenOptions, Permissions};
use std::io::{self, Write};
use std::path::{Component, Path, PathBuf};

/// How the names of reqlint's temporary files look: `.NAME.reqlint-RANDOM.tmp`.
const TEMP_MARK: &str = ".reqlint-";
const TEMP_END: &str = ".tmp";
/// Letters and digits drawn for a temporary name: 62^11, more than 2^64 names.
const TEMP_RANDOM_CHARS: usize = 11;

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

/// The directory a file is in (`.` for a bare name).
fn directory_of(path: &Path) -> &Path {
    match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    }
}

/// A new temporary file beside `target`, removed when dropped unless persisted: created
/// by `tempfile` exclusively (`O_CREAT|O_EXCL`: POSIX has such an `open` fail on any link,
/// dangling or not), readable by its user only, under a random name. A name taken makes
/// `tempfile` draw another, from the system's random source after three: links planted
/// under names reqlint might choose are never written through, and cannot stop the write.
pub fn create_temp_beside(target: &Path) -> io::Result<tempfile::NamedTempFile> {
    let name = target
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    tempfile::Builder::new()
        .prefix(&format!(".{name}{TEMP_MARK}"))
        .suffix(TEMP_END)
        .rand_bytes(TEMP_RANDOM_CHARS)
        .tempfile_in(directory_of(target))
}

/// Whether `name` is one of reqlint's temporary files ([`create_temp_beside`]).
pub fn is_temp_name(name: &str) -> bool {
    name.starts_with('.') && name.contains(TEMP_MARK) && name.ends_with(TEMP_END)
}

/// Replaces `target` by `contents` at once: written to a temporary file beside it
/// ([`create_temp_beside`]), given `permissions` (on the open file: the user's umask does
/// not narrow them), then renamed over it once `before_rename` agrees (it checks that
/// nothing changed meanwhile). A reader never sees half a file; a link at `target` is
/// replaced, not written through; the temporary file is removed on any failure.
pub fn replace(
    target: &Path,
    contents: &[u8],
    permissions: Option<Permissions>,
    before_rename: impl FnOnce() -> io::Result<()>,
) -> io::Result<()> {
    let mut temp = create_temp_beside(target)?;
    temp.write_all(contents)?;
    if let Some(permissions) = permissions {
        temp.as_file().set_permissions(permissions)?;
    }
    temp.flush()?;
    before_rename()?;
    // On failure the error holds the temporary file, removed as it is dropped.
    temp.persist(target).map_err(|e| e.error)?;
    Ok(())
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
/// of the user's; with its metadata as opened. `None` when there is none.
pub fn open_own_file(path: &Path) -> Result<Option<(File, std::fs::Metadata)>, String> {
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
    Ok(Some((file, meta)))
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
        let first = create_temp_beside(&target).unwrap();
        let second = create_temp_beside(&target).unwrap();
        assert_ne!(first.path(), second.path());
        assert_eq!(first.path().parent(), Some(dir.path()));
        for temp in [&first, &second] {
            let name = temp
                .path()
                .file_name()
                .unwrap()
                .to_string_lossy()
                .into_owned();
            assert!(is_temp_name(&name), "{name}");
            // `.a.req.yaml.reqlint-` and the random part before `.tmp`.
            let random = &name[".a.req.yaml.reqlint-".len()..name.len() - ".tmp".len()];
            assert_eq!(random.len(), TEMP_RANDOM_CHARS, "{name}");
        }
        assert!(!is_temp_name("a.req.yaml"));
        assert!(!is_temp_name("reqlint-0.1.0-1-0123456789abcdef.bin"));
        // Dropped without being persisted: removed.
        drop((first, second));
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    }

    /// A temporary file is readable by its user only, whatever the umask lets through.
    #[cfg(unix)]
    #[test]
    fn temporary_files_are_private() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let temp = create_temp_beside(&dir.path().join("a")).unwrap();
        let mode = temp.as_file().metadata().unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
    }

    /// The replaced file gets exactly the permissions given, set on the open file: neither
    /// the temporary file's `0600` nor what the umask would let an `open` make (it removes
    /// the write bits of others, at least, from a new file's mode).
    #[cfg(unix)]
    #[test]
    fn replace_gives_the_permissions_exactly() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("a");
        for mode in [0o640, 0o606, 0o755] {
            std::fs::write(&target, "old").unwrap();
            let permissions = std::fs::Permissions::from_mode(mode);
            replace(&target, b"new", Some(permissions), || Ok(())).unwrap();
            let now = std::fs::metadata(&target).unwrap().permissions().mode();
            assert_eq!(now & 0o777, mode, "{mode:o}");
            assert_eq!(std::fs::read_to_string(&target).unwrap(), "new");
        }
        // Without permissions to give, the file is its user's alone.
        replace(&target, b"newer", None, || Ok(())).unwrap();
        let now = std::fs::metadata(&target).unwrap().permissions().mode();
        assert_eq!(now & 0o777, 0o600);
    }

    /// A link at the replaced path is replaced by the file; what it pointed to is left
    /// as it was, and nothing but the file is left in the directory.
    #[cfg(unix)]
    #[test]
    fn replace_replaces_a_link_and_not_what_it_points_to() {
        let dir = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        let victim = outside.path().join("victim");
        std::fs::write(&victim, "keep").unwrap();
        let target = dir.path().join("a");
        std::os::unix::fs::symlink(&victim, &target).unwrap();
        replace(&target, b"new", None, || Ok(())).unwrap();
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "keep");
        let meta = std::fs::symlink_metadata(&target).unwrap();
        assert!(meta.is_file(), "{meta:?}");
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "new");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    /// A file that cannot be replaced (the path is a directory) leaves no temporary file.
    #[test]
    fn a_failed_rename_leaves_no_temporary_file() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("d");
        std::fs::create_dir(&target).unwrap();
        std::fs::write(target.join("inside"), "x").unwrap();
        assert!(replace(&target, b"new", None, || Ok(())).is_err());
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
        assert!(target.join("inside").is_file());
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
