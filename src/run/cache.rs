//! The result cache: a file's diagnostics, kept from one run to the next and reused while
//! neither the file nor anything the check depends on has changed.
//!
//! A cache file holds the results of one set of settings on one day: its name is the
//! day (version rules depend on the date) and a hash of the reqlint binary, the config's
//! text and rules, the variables and every context snapshot read. A run that writes the
//! cache removes the files of other days or other versions, which no run can use again.
//! Inside (in postcard, after a line with the format's version), each file is keyed by
//! its path relative to the config's directory, with the length and the SHA-256 of its
//! bytes, after the SHA-256 of the settings. A run reads the file whole and decodes an
//! entry in place when its file comes up: opening a cache allocates an index of a few
//! bytes an entry, not a copy of each.
//! An entry also keeps the file's [`Stamp`] (its times, inode and length) when the file
//! had settled: while the stamp is the same, the file's bytes are not compared, and the
//! file is not read at all when its text is not shown (no finding, or a report without
//! code frames, which takes the positions kept with the result).
//! A file that cannot be reused is linted as before; a cache that cannot be read or
//! written is ignored: the cache never changes what a run reports, only how fast.
//!
//! Whoever can write a cache can make a finding pass (an entry of the right key with no
//! finding), and a cryptographic key only stops collisions, not forgeries. So the cache
//! lives where the repository cannot put one: by default in the user's cache directory
//! (`$XDG_CACHE_HOME/reqlint/<hash of the project's directory>`), never in the project;
//! and a cache directory is used only when it is the user's own (not a link, owned by
//! the user, not writable by others), its files read without following links.

use std::collections::BTreeMap;
use std::hash::{Hash, Hasher};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use sha2::Digest as _;

use crate::catalog::codehost::Access;
use crate::diagnostic::{ApiError, Applicability, Diagnostic, Edit, Fix, Label, Severity};
use crate::engine::{self, FileResult, ReadFile, Settings};
use crate::loading::{Position, Span};
use crate::model::facts::RunFacts;
use crate::model::token::TokenUses;

/// How a cache file starts: the format's version. A file of another version (the codec
/// of format 4 and before) is as none.
const MAGIC: &[u8] = b"reqlint-cache 7\n";

/// A larger cache file is as none (and replaced by the run's results): far more than the
/// results of any project take, and no more than a run may read into memory.
const MAX_CACHE_FILE_BYTES: u64 = 256 * 1024 * 1024;

/// A SHA-256 digest.
pub type Sha256 = [u8; 32];

/// How cache file names start: nothing else in the directory is ever removed.
const FILE_PREFIX: &str = "reqlint-";

/// The markers of a cache directory: backup tools skip a tagged one; git ignores
/// everything in it.
const MARKERS: &[(&str, &str)] = &[
    (
        "CACHEDIR.TAG",
        "Signature: 8a477f597d28d172789f06886806bc55\n# reqlint's result cache\n",
    ),
    (".gitignore", "# reqlint's result cache\n*\n"),
];

/// The cache of one run: the entries read at its start, and what the run adds.
pub struct Cache {
    file: PathBuf,
    settings: Sha256,
    entries: Entries,
    /// Files last written or changed before this (seconds since the epoch) are settled:
    /// their stamps can vouch for their bytes on the next run ([`Stamp`]).
    settled_before: i64,
}

/// A file's new result, for the cache.
pub struct Update {
    rel: String,
    display: String,
    len: u64,
    hash: Sha256,
    environments: Option<Sha256>,
    stamp: Option<Stamp>,
    result: Vec<u8>,
}

/// A file's state as the file system tells it: when its bytes were last written, when
/// its metadata last changed (which no program can set back), its inode and its device.
/// With the length, a stamp taken when the file was read vouches for its bytes, as git's
/// index does: a run over unchanged files then reads none of those with nothing to show.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
struct Stamp {
    modified: (i64, u32),
    changed: (i64, u32),
    inode: u64,
    device: u64,
}

/// A file written less than this many seconds before a run starts could be written
/// again, after the run read it, within the same tick of the file system's clock (a
/// second on some file systems, two on FAT) and keep its stamp: its stamp is not kept,
/// and the next run compares its bytes.
const UNSETTLED_SECONDS: i64 = 3;

impl Stamp {
    #[cfg(unix)]
    fn of(meta: &std::fs::Metadata) -> Option<Stamp> {
        use std::os::unix::fs::MetadataExt;
        Some(Stamp {
            modified: (meta.mtime(), meta.mtime_nsec().try_into().ok()?),
            changed: (meta.ctime(), meta.ctime_nsec().try_into().ok()?),
            inode: meta.ino(),
            device: meta.dev(),
        })
    }

    /// Elsewhere no time of a change that programs cannot set: every file is compared by
    /// its bytes.
    #[cfg(not(unix))]
    fn of(_: &std::fs::Metadata) -> Option<Stamp> {
        None
    }

    /// Written and changed before `settled_before` (seconds since the epoch).
    fn settled(&self, settled_before: i64) -> bool {
        self.modified.0 < settled_before && self.changed.0 < settled_before
    }
}

impl Cache {
    /// The cache for these settings under `dir` ([`file_for`]): empty when there is none
    /// yet or it cannot be read. `Ok(None)` when there is no place for it (no user cache
    /// directory); an error when the directory or the cache file is not the user's own
    /// ([`crate::files::own_directory`]): such a cache is neither read nor written.
    pub fn open(settings: &Settings, dir: Option<&Path>) -> Result<Option<Cache>, String> {
        let fingerprint = fingerprint(settings);
        let Some(file) = file_named(settings, dir, &fingerprint) else {
            return Ok(None);
        };
        let settings = fingerprint;
        crate::files::own_directory(file.parent().unwrap_or(Path::new(".")))?;
        let data = match crate::files::open_own_file(&file)? {
            // Read into a buffer of the file's size: a growing one would copy and fault
            // in about twice the file's bytes.
            Some((opened, meta)) => read_whole(opened, meta.len(), MAX_CACHE_FILE_BYTES),
            None => Vec::new(),
        };
        let entries = Entries::read(data, &settings).unwrap_or_default();
        Ok(Some(Cache {
            file,
            settings,
            entries,
            settled_before: settled_before(std::time::SystemTime::now()),
        }))
    }

    /// The file's result: the cached one when its bytes are those cached, else the
    /// file linted (and `updates` gets what the cache should keep). With `text_shown`,
    /// a result with diagnostics comes with the file's text, for code frames.
    pub fn lint_path(
        &self,
        path: &Path,
        display: &str,
        rel: &Path,
        settings: &Settings,
        text_shown: bool,
        updates: &mut Vec<Update>,
    ) -> FileResult {
        self.lint_path_with_environments(path, display, rel, settings, None, text_shown, updates)
    }

    /// [`Cache::lint_path`] for a file read with environments found beside it
    /// (src/run/environments.rs): their digest is part of the file's key, so that an
    /// edit of an environment lints the file again.
    #[allow(clippy::too_many_arguments)]
    pub fn lint_path_with_environments(
        &self,
        path: &Path,
        display: &str,
        rel: &Path,
        settings: &Settings,
        environments: Option<&Sha256>,
        text_shown: bool,
        updates: &mut Vec<Update>,
    ) -> FileResult {
        let key = rel.to_string_lossy();
        let mut cached = self
            .entries
            .get(key.as_ref())
            .filter(|e| e.display == display && e.environments.as_ref() == environments)
            .and_then(|e| Some((decode_kept(e.result)?, e)));
        // A file whose metadata vouches for its bytes is not read when its text is not
        // shown: it has nothing to show, or the report shows no code frame.
        if let Some((result, entry)) = &cached
            && (result.diagnostics.is_empty() || !text_shown)
            && entry.stamp.is_some()
            && let Ok(meta) = std::fs::metadata(path)
            && meta.is_file()
            && entry.vouched_for_by(&meta)
            && let Some((result, _)) = cached.take()
        {
            return FileResult {
                path: display.to_string(),
                text: None,
                ..result
            };
        }
        let (bytes, meta) =
            match engine::read_regular_file_with_metadata(path, settings.limits.max_file_bytes) {
                Ok((ReadFile::Bytes(bytes), meta)) => (bytes, meta),
                Ok((other, _)) => return engine::lint_read(display, rel, Ok(other), settings),
                Err(e) => return engine::lint_read(display, rel, Err(e), settings),
            };
        let len = bytes.len() as u64;
        // Only UTF-8 text is kept: a cached result is shown with the file's text.
        let mut text = match String::from_utf8(bytes) {
            Ok(text) if !text.contains('\0') => text,
            Ok(text) => return engine::lint_bytes(display, rel, text.into_bytes(), settings),
            Err(e) => return engine::lint_bytes(display, rel, e.into_bytes(), settings),
        };
        let settled = Stamp::of(&meta).filter(|s| s.settled(self.settled_before));
        let mut hash = None;
        if let Some((result, entry)) = cached
            && entry.len == len
        {
            let vouched = entry.vouched_for_by(&meta);
            if vouched || *hash.insert(content_hash(text.as_bytes())) == entry.hash {
                match attach_text(result, display, text) {
                    Ok(result) => {
                        // Unchanged, and now settled: the next run need not read it.
                        if !vouched && settled.is_some() {
                            updates.push(Update {
                                rel: key.into_owned(),
                                display: display.to_string(),
                                len,
                                hash: entry.hash,
                                environments: environments.copied(),
                                stamp: settled,
                                result: entry.result.to_vec(),
                            });
                        }
                        return result;
                    }
                    Err(back) => text = back,
                }
            }
        }
        let bytes = text.into_bytes();
        let hash = hash.unwrap_or_else(|| content_hash(&bytes));
        let mut result = engine::lint_bytes(display, rel, bytes, settings);
        if !result.diagnostics.is_empty() && result.positions.is_none() {
            // Found once for the cache and for the report.
            result.positions = Some(result.positions());
        }
        if cacheable(&result)
            && let Some(encoded) = encode_result(&result)
        {
            updates.push(Update {
                rel: key.into_owned(),
                display: display.to_string(),
                len,
                hash,
                environments: environments.copied(),
                stamp: settled,
                result: encoded,
            });
        }
        result
    }

    /// Writes the cache with the run's updates (a temporary file renamed over the old
    /// one), when there is anything to change, and removes the cache files no run will
    /// read again; failures are ignored.
    pub fn save(self, updates: Vec<Update>) {
        if updates.is_empty() {
            return;
        }
        let fresh: BTreeMap<&str, &Update> = updates.iter().map(|u| (u.rel.as_str(), u)).collect();
        let mut entries: Vec<Entry<'_>> = self
            .entries
            .iter()
            .filter(|e| !fresh.contains_key(e.rel))
            .chain(fresh.values().map(|u| Entry {
                rel: &u.rel,
                display: &u.display,
                len: u.len,
                hash: u.hash,
                environments: u.environments,
                stamp: u.stamp,
                result: &u.result,
            }))
            .collect();
        entries.sort_unstable_by(|a, b| a.rel.cmp(b.rel));
        let Some(bytes) = write_entries(&self.settings, entries) else {
            return;
        };
        if write_atomically(&self.file, &bytes).is_ok() {
            remove_stale_files(&self.file);
        }
    }
}

/// [`UNSETTLED_SECONDS`] before `now`, in seconds since the epoch.
fn settled_before(now: std::time::SystemTime) -> i64 {
    let seconds = match now.duration_since(std::time::UNIX_EPOCH) {
        Ok(after) => i64::try_from(after.as_secs()).unwrap_or(i64::MAX),
        Err(before) => -i64::try_from(before.duration().as_secs()).unwrap_or(i64::MAX),
    };
    seconds.saturating_sub(UNSETTLED_SECONDS)
}

/// At most `limit` bytes of `file`, whose size was `size`: nothing when it is longer or
/// cannot be read whole.
fn read_whole(file: impl Read, size: u64, limit: u64) -> Vec<u8> {
    let mut data = Vec::with_capacity(size.min(limit) as usize + 1);
    match file.take(limit.saturating_add(1)).read_to_end(&mut data) {
        Ok(read) if read as u64 <= limit => data,
        _ => Vec::new(),
    }
}

/// Removes the cache files beside `current` that no run will use: those of another day
/// or of another version of reqlint (their names differ before the settings' hash).
fn remove_stale_files(current: &Path) {
    let (Some(dir), Some(name)) = (current.parent(), current.file_name()) else {
        return;
    };
    let name = name.to_string_lossy();
    let Some((prefix, _)) = name.rsplit_once('-') else {
        return;
    };
    let Ok(listing) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in listing.flatten() {
        let other = entry.file_name();
        let other = other.to_string_lossy();
        let stale =
            is_cache_file(&other) && other.rsplit_once('-').is_some_and(|(p, _)| p != prefix);
        // (A link is removed, not what it points to.)
        if stale {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

/// `reqlint-VERSION-DAY-HASH.bin`, as [`file_for`] names them.
fn is_cache_file(name: &str) -> bool {
    name.strip_prefix(FILE_PREFIX)
        .and_then(|rest| rest.strip_suffix(".bin"))
        .and_then(|rest| rest.rsplit_once('-'))
        .is_some_and(|(_, hash)| hash.len() == 16 && hash.bytes().all(|b| b.is_ascii_hexdigit()))
}

/// The cache file of these settings under `dir`, by default [`default_dir`] of the
/// config's directory; `None` when there is no default (no user cache directory).
pub fn file_for(settings: &Settings, dir: Option<&Path>) -> Option<PathBuf> {
    file_named(settings, dir, &fingerprint(settings))
}

fn file_named(settings: &Settings, dir: Option<&Path>, fingerprint: &Sha256) -> Option<PathBuf> {
    let dir = match dir {
        Some(dir) => dir.to_path_buf(),
        None => default_dir(&settings.config.root)?,
    };
    Some(dir.join(format!(
        "{FILE_PREFIX}{}-{}-{}.bin",
        env!("CARGO_PKG_VERSION"),
        crate::model::time::today_in_days(),
        hex(&fingerprint[..8])
    )))
}

/// The cache directory of the project in `root`: `reqlint/` in the user's cache
/// directory, then the start of the SHA-256 of the project's canonical path, so that
/// projects do not share one and no repository can put one there.
pub fn default_dir(root: &Path) -> Option<PathBuf> {
    let root = std::fs::canonicalize(root).ok()?;
    let digest = sha2::Sha256::digest(root.as_os_str().as_encoded_bytes());
    Some(user_cache_dir()?.join("reqlint").join(hex(&digest[..8])))
}

/// The user's cache directory: `$XDG_CACHE_HOME`, else `~/Library/Caches` on macOS and
/// `~/.cache` on other Unix systems; `%LOCALAPPDATA%` on Windows. Relative values are
/// ignored, as the XDG specification says.
fn user_cache_dir() -> Option<PathBuf> {
    let absolute = |name: &str| {
        std::env::var_os(name)
            .map(PathBuf::from)
            .filter(|p| p.is_absolute())
    };
    if cfg!(windows) {
        return absolute("LOCALAPPDATA");
    }
    if let Some(xdg) = absolute("XDG_CACHE_HOME") {
        return Some(xdg);
    }
    let home = absolute("HOME")?;
    Some(if cfg!(target_os = "macos") {
        home.join("Library/Caches")
    } else {
        home.join(".cache")
    })
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Only a result that the same bytes always give is kept: not one of a file reqlint
/// failed on.
fn cacheable(result: &FileResult) -> bool {
    result.io_error.is_none()
        && !result
            .diagnostics
            .iter()
            .any(|d| d.rule == engine::INTERNAL_ERROR)
}

/// Feeds what a value's [`Hash`] writes to SHA-256.
struct DigestWriter(sha2::Sha256);

impl Hasher for DigestWriter {
    fn write(&mut self, bytes: &[u8]) {
        self.0.update(bytes);
    }

    /// Not the digest (read with `finalize`): no `Hash` implementation calls it.
    fn finish(&self) -> u64 {
        0
    }
}

/// Everything a file's result depends on besides the file itself, as a SHA-256.
fn fingerprint(settings: &Settings) -> Sha256 {
    let mut h = DigestWriter(sha2::Sha256::new());
    env!("CARGO_PKG_VERSION").hash(&mut h);
    // Any other build of reqlint may check otherwise.
    if let Ok(exe) = std::env::current_exe()
        && let Ok(meta) = std::fs::metadata(&exe)
    {
        exe.hash(&mut h);
        meta.len().hash(&mut h);
        meta.modified().ok().hash(&mut h);
    }
    crate::model::time::today_in_days().hash(&mut h);
    let config = &settings.config;
    config.path.hash(&mut h);
    config.root.hash(&mut h);
    config.text.hash(&mut h);
    let mut rules: Vec<_> = config.rules.iter().collect();
    rules.sort();
    rules.hash(&mut h);
    config.variables.hash(&mut h);
    settings.context.digest().hash(&mut h);
    format!("{:?}", settings.limits).hash(&mut h);
    h.0.finalize().into()
}

fn content_hash(bytes: &[u8]) -> Sha256 {
    sha2::Sha256::digest(bytes).into()
}

/// Writes the cache file, in a directory checked to be the user's own, through
/// [`crate::files::replace`]; the markers are created exclusively, never through a link.
fn write_atomically(file: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let dir = file.parent().unwrap_or(Path::new("."));
    crate::files::own_directory(dir).map_err(std::io::Error::other)?;
    // Markers go into a directory that holds nothing but the cache (one made by hand,
    // or by an older reqlint, gets them too), never into one that holds other files: a
    // `.gitignore` of `*` there would hide them from git.
    let only_cache = std::fs::read_dir(dir)?.flatten().all(|e| {
        let name = e.file_name();
        let name = name.to_string_lossy();
        is_cache_file(&name)
            || crate::files::is_temp_name(&name)
            || MARKERS.iter().any(|(marker, _)| *marker == name)
    });
    if only_cache {
        for (marker, text) in MARKERS {
            use std::io::Write;
            match crate::files::create_exclusive(&dir.join(marker)) {
                Ok(mut created) => created.write_all(text.as_bytes())?,
                // There already (or a link planted there): left as it is.
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
                Err(e) => return Err(e),
            }
        }
    }
    crate::files::replace(file, bytes, None, || Ok(()))
}

// The cache file: `MAGIC`, the settings' SHA-256, then one `Entry` after another in
// postcard (a compact serde format), sorted by path. postcard decodes from a slice: a
// length read from the file is checked against the bytes left before anything is taken,
// and serde allocates a list no more than a cautious guess ahead of its items, so a
// damaged or crafted file costs no more memory than its size.

/// One file's entry; its result is encoded apart ([`encode_result`]) and decoded only
/// when the file is there unchanged, with its text to check the spans against when the
/// text is read.
#[derive(Serialize, Deserialize)]
struct Entry<'a> {
    rel: &'a str,
    display: &'a str,
    len: u64,
    /// The SHA-256 of the file's bytes.
    hash: Sha256,
    /// The digest of the environments the file was read with.
    environments: Option<Sha256>,
    /// The file's state when it was read, when it had settled ([`Stamp::settled`]).
    stamp: Option<Stamp>,
    #[serde(serialize_with = "as_bytes")]
    result: &'a [u8],
}

impl Entry<'_> {
    /// The file's metadata is that of the file this entry was kept for: its stamp and
    /// length are the same (an entry without a stamp is vouched for by nothing).
    fn vouched_for_by(&self, meta: &std::fs::Metadata) -> bool {
        self.stamp.is_some() && self.stamp == Stamp::of(meta) && self.len == meta.len()
    }
}

/// A byte string as one length and its bytes (serde writes a slice as a list of numbers).
fn as_bytes<S: Serializer>(bytes: &&[u8], s: S) -> Result<S::Ok, S::Error> {
    s.serialize_bytes(bytes)
}

/// The bytes of a cache file of the settings `settings` with `entries`; `None` when one
/// cannot be encoded.
fn write_entries(settings: &Sha256, entries: Vec<Entry<'_>>) -> Option<Vec<u8>> {
    let mut bytes = [MAGIC, &settings[..]].concat();
    for entry in &entries {
        bytes = postcard::to_extend(entry, bytes).ok()?;
    }
    Some(bytes)
}

/// The entries of a cache file, kept as its bytes and decoded one at a time, where they
/// are asked for.
#[derive(Default)]
struct Entries {
    data: Vec<u8>,
    /// Each entry's path hashed ([`path_key`]) and where the entry starts in `data`,
    /// sorted: a lookup decodes only the entries of its path's hash.
    starts: Vec<(u64, u32)>,
}

impl Entries {
    /// The entries of `data`, a cache file written for the settings whose digest is
    /// `settings`; `None` when it is of other settings, another format, or damaged.
    fn read(data: Vec<u8>, settings: &Sha256) -> Option<Entries> {
        let body = data.strip_prefix(MAGIC)?;
        let rest = body.strip_prefix(&settings[..])?;
        // The file is at most `MAX_CACHE_FILE_BYTES`, so every offset fits.
        let mut starts = Vec::new();
        let mut left = rest;
        while !left.is_empty() {
            let at = u32::try_from(data.len() - left.len()).ok()?;
            let (entry, after) = postcard::take_from_bytes::<Entry>(left).ok()?;
            starts.push((path_key(entry.rel), at));
            left = after;
        }
        starts.sort_unstable();
        Some(Entries { data, starts })
    }

    /// The entry of the file at `rel`, if there is one.
    fn get(&self, rel: &str) -> Option<Entry<'_>> {
        let key = path_key(rel);
        let first = self.starts.partition_point(|&(k, _)| k < key);
        self.starts[first..]
            .iter()
            .take_while(|&&(k, _)| k == key)
            .filter_map(|&(_, at)| self.entry_at(at))
            .find(|e| e.rel == rel)
    }

    /// Every entry.
    fn iter(&self) -> impl Iterator<Item = Entry<'_>> {
        self.starts.iter().filter_map(|&(_, at)| self.entry_at(at))
    }

    #[cfg(test)]
    fn len(&self) -> usize {
        self.starts.len()
    }

    /// The entry at `at` (which [`Entries::read`] decoded once already).
    fn entry_at(&self, at: u32) -> Option<Entry<'_>> {
        let bytes = self.data.get(at as usize..)?;
        postcard::take_from_bytes::<Entry>(bytes)
            .ok()
            .map(|(e, _)| e)
    }
}

/// A path's key in [`Entries`]: SipHash, as paths of one project share long beginnings
/// and ends.
fn path_key(rel: &str) -> u64 {
    use std::hash::BuildHasher as _;
    std::hash::BuildHasherDefault::<std::hash::DefaultHasher>::default().hash_one(rel)
}

/// A file's result for the cache: all but its path and text, which the file gives back,
/// and the line and column of each diagnostic's start and end, which a report without
/// code frames shows without the text. `None` when it cannot be encoded (an edit of a
/// file whose path is not UTF-8).
fn encode_result(result: &FileResult) -> Option<Vec<u8>> {
    let positions: Vec<[usize; 4]> = result
        .positions()
        .iter()
        .map(|(start, end)| [start.line, start.column, end.line, end.column])
        .collect();
    postcard::to_allocvec(&(Out(result), positions)).ok()
}

/// The result encoded by [`encode_result`], without its path and text; `None` when the
/// bytes do not decode (a damaged cache file, a rule this build does not have): the file
/// is linted again.
fn decode_kept(bytes: &[u8]) -> Option<FileResult> {
    let (In(result), positions) =
        match postcard::take_from_bytes::<(In<FileResult>, Vec<[usize; 4]>)>(bytes) {
            Ok((decoded, [])) => decoded,
            _ => return None,
        };
    if positions.len() != result.diagnostics.len() {
        return None;
    }
    let position = |line, column| Position { line, column };
    let positions = positions
        .into_iter()
        .map(|[line, column, end_line, end_column]| {
            (position(line, column), position(end_line, end_column))
        })
        .collect();
    Some(FileResult {
        positions: Some(positions),
        ..result
    })
}

/// A decoded result, shown with `text`; the text back when a span does not fall inside
/// it: the file is linted again.
fn attach_text(decoded: FileResult, display: &str, text: String) -> Result<FileResult, String> {
    if !spans_inside(&decoded, &text) {
        return Err(text);
    }
    Ok(FileResult {
        path: display.to_string(),
        text: (!decoded.diagnostics.is_empty()).then(|| Arc::from(text)),
        ..decoded
    })
}

/// Every span of the result (of its diagnostics, labels, edits of its own file, secrets)
/// falls inside `text`, on character boundaries. (An edit of another file has a span in
/// that file.)
fn spans_inside(result: &FileResult, text: &str) -> bool {
    let inside = |span: &Span| {
        span.start <= span.end
            && span.end <= text.len()
            && text.is_char_boundary(span.start)
            && text.is_char_boundary(span.end)
    };
    result.secrets.iter().all(inside)
        && result.diagnostics.iter().all(|d| {
            inside(&d.span)
                && d.labels.iter().all(|l| inside(&l.span))
                && d.fix
                    .iter()
                    .flat_map(|f| &f.edits)
                    .all(|e| e.file.is_some() || inside(&e.span))
        })
}

/// The rule of a cached diagnostic, as the `&'static str` its rule reports.
fn rule_name(name: &str) -> Option<&'static str> {
    if name == engine::INTERNAL_ERROR {
        return Some(engine::INTERNAL_ERROR);
    }
    crate::rules::REGISTRY
        .iter()
        .map(|r| r.meta().name)
        .find(|n| *n == name)
}

/// A diagnostic's rule read back: a name no rule of this build has makes the entry a miss.
fn registered_rule<'de, D: Deserializer<'de>>(d: D) -> Result<RuleName, D::Error> {
    let name = <&str>::deserialize(d)?;
    rule_name(name).ok_or_else(|| D::Error::custom("a rule this build does not have"))
}

/// A rule's name, by an alias: serde's derive would take a field written `&'static str`
/// as borrowed from the cache file for `'static`, which no file's bytes live for.
type RuleName = &'static str;

// What a result holds, as the cache encodes it: serde's remote derive mirrors each type
// here (the compiler checks that a mirror names every field of its type), so that the
// cache's encoding stays apart from the reports' serialisation of the same types.

#[derive(Serialize, Deserialize)]
#[serde(remote = "FileResult")]
struct FileResultDef {
    #[serde(skip)]
    path: String,
    #[serde(skip)]
    text: Option<Arc<str>>,
    #[serde(with = "each")]
    diagnostics: Vec<Diagnostic>,
    requests: usize,
    unjudged: Vec<String>,
    #[serde(skip)]
    io_error: Option<String>,
    #[serde(with = "RunFactsDef")]
    facts: RunFacts,
    #[serde(skip)]
    positions: Option<Vec<(Position, Position)>>,
    #[serde(with = "each")]
    secrets: Vec<Span>,
}

#[derive(Serialize, Deserialize)]
#[serde(remote = "Diagnostic")]
struct DiagnosticDef {
    #[serde(deserialize_with = "registered_rule")]
    rule: RuleName,
    #[serde(with = "SeverityDef")]
    severity: Severity,
    message: String,
    help: Option<String>,
    #[serde(with = "maybe")]
    api_error: Option<ApiError>,
    #[serde(with = "SpanDef")]
    span: Span,
    #[serde(with = "each")]
    labels: Vec<Label>,
    secret: bool,
    once_per_run: bool,
    #[serde(with = "maybe")]
    fix: Option<Fix>,
}

#[derive(Serialize, Deserialize)]
#[serde(remote = "Severity")]
enum SeverityDef {
    Info,
    Warning,
    Error,
}

#[derive(Serialize, Deserialize)]
#[serde(remote = "ApiError")]
struct ApiErrorDef {
    code: u32,
    subcode: Option<u32>,
}

#[derive(Serialize, Deserialize)]
#[serde(remote = "Span")]
struct SpanDef {
    start: usize,
    end: usize,
}

#[derive(Serialize, Deserialize)]
#[serde(remote = "Label")]
struct LabelDef {
    #[serde(with = "SpanDef")]
    span: Span,
    message: String,
}

#[derive(Serialize, Deserialize)]
#[serde(remote = "Fix")]
struct FixDef {
    #[serde(with = "ApplicabilityDef")]
    applicability: Applicability,
    message: String,
    #[serde(with = "each")]
    edits: Vec<Edit>,
}

#[derive(Serialize, Deserialize)]
#[serde(remote = "Applicability")]
enum ApplicabilityDef {
    Safe,
    Unsafe,
}

#[derive(Serialize, Deserialize)]
#[serde(remote = "Edit")]
struct EditDef {
    #[serde(with = "SpanDef")]
    span: Span,
    replacement: String,
    file: Option<PathBuf>,
}

#[derive(Serialize, Deserialize)]
#[serde(remote = "RunFacts")]
struct RunFactsDef {
    #[serde(with = "values")]
    named_token_uses: BTreeMap<String, TokenUses>,
    credential_variables: std::collections::BTreeSet<String>,
}

#[derive(Serialize, Deserialize)]
#[serde(remote = "TokenUses")]
struct TokenUsesDef {
    #[serde(with = "values")]
    needs: BTreeMap<crate::catalog::codehost::PermissionId, Access>,
    unknown: bool,
    requests: usize,
}

#[derive(Serialize, Deserialize)]
#[serde(remote = "Access")]
enum AccessDef {
    Read,
    Write,
    Admin,
}

/// A type the cache encodes through its mirror. serde's remote derive serves a field of
/// the type itself; a list, an option or a map of it goes through [`each`], [`maybe`] or
/// [`values`], which encode each item through [`Out`] and [`In`].
trait Kept: Sized {
    fn put<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error>;
    fn get<'de, D: Deserializer<'de>>(d: D) -> Result<Self, D::Error>;
}

macro_rules! kept {
    ($($kept:ty => $mirror:ident),* $(,)?) => {$(
        impl Kept for $kept {
            fn put<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                $mirror::serialize(self, s)
            }
            fn get<'de, D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                $mirror::deserialize(d)
            }
        }
    )*};
}

kept!(
    FileResult => FileResultDef,
    Diagnostic => DiagnosticDef,
    ApiError => ApiErrorDef,
    Span => SpanDef,
    Label => LabelDef,
    Fix => FixDef,
    Edit => EditDef,
    TokenUses => TokenUsesDef,
    Access => AccessDef,
);

/// A kept value to encode.
struct Out<'a, T>(&'a T);

impl<T: Kept> Serialize for Out<'_, T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0.put(s)
    }
}

/// A kept value decoded.
struct In<T>(T);

impl<'de, T: Kept> Deserialize<'de> for In<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        T::get(d).map(In)
    }
}

/// A list of a kept type.
mod each {
    use super::{In, Kept, Out};
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<T: Kept, S: Serializer>(items: &[T], s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(items.iter().map(Out))
    }

    pub fn deserialize<'de, T: Kept, D: Deserializer<'de>>(d: D) -> Result<Vec<T>, D::Error> {
        let items = Vec::<In<T>>::deserialize(d)?;
        Ok(items.into_iter().map(|In(item)| item).collect())
    }
}

/// An option of a kept type.
mod maybe {
    use super::{In, Kept, Out};
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    pub fn serialize<T: Kept, S: Serializer>(item: &Option<T>, s: S) -> Result<S::Ok, S::Error> {
        item.as_ref().map(Out).serialize(s)
    }

    pub fn deserialize<'de, T: Kept, D: Deserializer<'de>>(d: D) -> Result<Option<T>, D::Error> {
        Ok(Option::<In<T>>::deserialize(d)?.map(|In(item)| item))
    }
}

/// A map whose values are of a kept type.
mod values {
    use std::collections::BTreeMap;

    use super::{In, Kept, Out};
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    pub fn serialize<K: Serialize, T: Kept, S: Serializer>(
        map: &BTreeMap<K, T>,
        s: S,
    ) -> Result<S::Ok, S::Error> {
        s.collect_map(map.iter().map(|(key, value)| (key, Out(value))))
    }

    pub fn deserialize<'de, K, T, D>(d: D) -> Result<BTreeMap<K, T>, D::Error>
    where
        K: Deserialize<'de> + Ord,
        T: Kept,
        D: Deserializer<'de>,
    {
        let map = BTreeMap::<K, In<T>>::deserialize(d)?;
        Ok(map
            .into_iter()
            .map(|(key, In(value))| (key, value))
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings() -> Settings {
        Settings {
            config: crate::model::config::Config::defaults(".".into()),
            context: Default::default(),
            limits: crate::loading::Limits::DEFAULT,
        }
    }

    /// Every field of every diagnostic comes back as it was linted, for fixtures with
    /// fixes, labels, API errors, secrets and token facts.
    #[test]
    fn results_round_trip() {
        let s = settings();
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
        let mut seen = 0;
        let mut covered = [false; 5];
        for rule in [
            "token-missing-permission",
            "audience-flagged-edit",
            "literal-secret",
            "unknown-request-key",
            "adset-country-code-invalid",
        ] {
            for entry in std::fs::read_dir(root.join(rule)).unwrap() {
                let path = entry.unwrap().path();
                if path.extension().is_some_and(|e| e == "out") {
                    continue;
                }
                let bytes = std::fs::read(&path).unwrap();
                let display = path.to_string_lossy().into_owned();
                let linted = engine::lint_bytes(&display, &path, bytes.clone(), &s);
                if !cacheable(&linted) {
                    continue;
                }
                let text = String::from_utf8(bytes).unwrap();
                let encoded = encode_result(&linted).unwrap();
                let back = decode_result(&encoded, &display, text).unwrap();
                assert_eq!(back.diagnostics, linted.diagnostics, "{display}");
                assert_eq!(back.secrets, linted.secrets);
                assert_eq!(back.requests, linted.requests);
                assert_eq!(back.facts, linted.facts);
                assert_eq!(back.text, linted.text);
                assert_eq!(back.positions(), linted.positions(), "{display}");
                seen += 1;
                for d in &linted.diagnostics {
                    covered[0] |= !d.labels.is_empty();
                    covered[1] |= d.api_error.is_some_and(|e| e.subcode.is_some());
                    covered[2] |= d.fix.is_some();
                    covered[3] |= d.help.is_some();
                }
                covered[4] |= !linted.secrets.is_empty();
            }
        }
        assert!(seen >= 10, "{seen}");
        // Labels, API error subcodes, fixes, help and secrets were all there to encode.
        assert_eq!(covered, [true; 5]);
    }

    /// What a file tells the run about named tokens, and which of the config's variables
    /// it uses as credentials, comes back too.
    #[test]
    fn token_facts_round_trip() {
        let mut uses = TokenUses::default();
        uses.needs.insert(3, Access::Write);
        uses.needs.insert(7, Access::Admin);
        uses.requests = 2;
        let mut facts = RunFacts::default();
        facts.named_token_uses.insert("bot".into(), uses);
        facts.named_token_uses.insert(
            "other".into(),
            TokenUses {
                unknown: true,
                ..TokenUses::default()
            },
        );
        facts.credential_variables.insert("pw".into());
        facts.credential_variables.insert("token".into());
        let result = FileResult {
            path: "f".into(),
            text: None,
            diagnostics: Vec::new(),
            requests: 2,
            unjudged: Vec::new(),
            io_error: None,
            facts,
            positions: None,
            secrets: Vec::new(),
        };
        let encoded = encode_result(&result).unwrap();
        let back = decode_result(&encoded, "f", String::new()).unwrap();
        assert_eq!(back.facts, result.facts);
        assert_eq!(back.requests, 2);
    }

    /// An edit of another file (the config) keeps its path, and its span, which is in
    /// that file, is not held against this file's text; a span of this file's own edit
    /// past its text is.
    #[test]
    fn edits_of_another_file_round_trip() {
        let edit = |file: Option<&str>| Edit {
            span: Span::new(40, 44),
            replacement: "read".into(),
            file: file.map(PathBuf::from),
        };
        let result = |file: Option<&str>| FileResult {
            path: "f".into(),
            text: None,
            diagnostics: vec![Diagnostic {
                rule: "token-missing-permission",
                severity: Severity::Error,
                message: "m".into(),
                help: None,
                api_error: Some(ApiError {
                    code: 100,
                    subcode: None,
                }),
                span: Span::new(0, 3),
                labels: Vec::new(),
                secret: false,
                once_per_run: true,
                fix: Some(Fix::unsafe_("f", vec![edit(file)])),
            }],
            requests: 1,
            unjudged: Vec::new(),
            io_error: None,
            facts: RunFacts::default(),
            positions: None,
            secrets: Vec::new(),
        };
        let elsewhere = result(Some("conf/.reqlint.yaml"));
        let encoded = encode_result(&elsewhere).unwrap();
        let back = decode_result(&encoded, "f", "get".into()).unwrap();
        assert_eq!(back.diagnostics, elsewhere.diagnostics);
        let own = encode_result(&result(None)).unwrap();
        assert!(decode_result(&own, "f", "get".into()).is_err());
    }

    /// A cache file cut short or changed anywhere decodes to nothing or to a result whose
    /// spans lie inside the text, never to a panic.
    #[test]
    fn damaged_cache_files_are_refused() {
        let s = settings();
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("fixtures/token-missing-permission/bad.req.yaml");
        let bytes = std::fs::read(&path).unwrap();
        let linted = engine::lint_bytes("f", &path, bytes.clone(), &s);
        let encoded = encode_result(&linted).unwrap();
        let text = String::from_utf8(bytes).unwrap();
        for cut in 0..encoded.len() {
            assert!(decode_result(&encoded[..cut], "f", text.clone()).is_err());
        }
        // Spans (of diagnostics, labels, edits, secrets) must fall inside the text.
        let short = text[..text.len() / 2].to_string();
        assert!(decode_result(&encoded, "f", short).is_err());
        for at in 0..encoded.len() {
            let mut changed = encoded.clone();
            changed[at] ^= 0x5a;
            let _ = decode_result(&changed, "f", text.clone());
        }
        // Trailing bytes: not what was written.
        let mut longer = encoded.clone();
        longer.push(0);
        assert!(decode_result(&longer, "f", text.clone()).is_err());
        let settings = [7u8; 32];
        let file = one_entry_file(&settings, &encoded);
        let header = MAGIC.len() + settings.len();
        for cut in 0..file.len() {
            let read = read_entries(&file[..cut], &settings);
            // Cut right after the settings: a file of no entries.
            assert_eq!(read.map(|e| e.len()), (cut == header).then_some(0), "{cut}");
        }
        for at in 0..file.len() {
            let mut changed = file.clone();
            changed[at] ^= 0x5a;
            if let Some(entries) = read_entries(&changed, &settings) {
                // Every entry it lists decodes.
                assert_eq!(entries.iter().count(), entries.len());
            }
        }
        let entries = read_entries(&file, &settings).unwrap();
        assert_eq!(entries.len(), 1);
        assert_eq!(entries.get("a").unwrap().result, encoded);
        assert!(entries.get("b").is_none());
        // A cache file of other settings is not read.
        assert!(read_entries(&file, &[8u8; 32]).is_none());
        // Nor one of an older format (its version in the first line).
        for version in [4, 6] {
            let mut old = file.clone();
            old[..MAGIC.len()].copy_from_slice(format!("reqlint-cache {version}\n").as_bytes());
            assert!(read_entries(&old, &settings).is_none());
        }
    }

    fn read_entries(data: &[u8], settings: &Sha256) -> Option<Entries> {
        Entries::read(data.to_vec(), settings)
    }

    /// [`decode_kept`] then [`attach_text`], as a lookup with the file's text does.
    fn decode_result(bytes: &[u8], display: &str, text: String) -> Result<FileResult, String> {
        match decode_kept(bytes) {
            Some(decoded) => attach_text(decoded, display, text),
            None => Err(text),
        }
    }

    /// Many entries, some of whose paths begin and end alike: each is found by its own
    /// path and none by another.
    #[test]
    fn entries_are_found_by_their_paths() {
        let settings = [3u8; 32];
        let rels: Vec<String> = (0..500)
            .map(|i| format!("corpus/g{:02}/d{i:04}/adset-{i:06}.req.yaml", i % 7))
            .collect();
        let results: Vec<Vec<u8>> = (0..500u32).map(|i| i.to_le_bytes().to_vec()).collect();
        let entries = rels
            .iter()
            .zip(&results)
            .map(|(rel, result)| Entry {
                rel,
                display: rel,
                len: 1,
                hash: [0; 32],
                environments: None,
                stamp: None,
                result,
            })
            .collect();
        let file = write_entries(&settings, entries).unwrap();
        let read = read_entries(&file, &settings).unwrap();
        assert_eq!(read.len(), 500);
        for (rel, result) in rels.iter().zip(&results) {
            assert_eq!(read.get(rel).unwrap().result, &result[..]);
        }
        assert!(read.get("corpus/g00/d0000/adset-000001.req.yaml").is_none());
        assert!(read.get("").is_none());
        let mut listed: Vec<&str> = read.iter().map(|e| e.rel).collect();
        listed.sort_unstable();
        let mut expected: Vec<&str> = rels.iter().map(String::as_str).collect();
        expected.sort_unstable();
        assert_eq!(listed, expected);
    }

    /// A cache file of `settings` with one entry, for the file `a`, whose result is
    /// `result`.
    fn one_entry_file(settings: &Sha256, result: &[u8]) -> Vec<u8> {
        let entry = Entry {
            rel: "a",
            display: "a",
            len: 1,
            hash: [2; 32],
            environments: None,
            stamp: None,
            result,
        };
        write_entries(settings, vec![entry]).unwrap()
    }

    /// postcard's variable-length integer.
    fn varint(n: u64) -> Vec<u8> {
        postcard::to_allocvec(&n).unwrap()
    }

    /// Kept positions that do not match the diagnostics one to one: a miss.
    #[test]
    fn positions_of_other_diagnostics_are_a_miss() {
        let s = settings();
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("fixtures/token-missing-permission/bad.req.yaml");
        let linted = engine::lint_bytes("f", &path, std::fs::read(&path).unwrap(), &s);
        assert!(!linted.diagnostics.is_empty());
        let kept = |positions: Vec<[usize; 4]>| {
            decode_kept(&postcard::to_allocvec(&(Out(&linted), positions)).unwrap())
        };
        let right: Vec<[usize; 4]> = linted
            .positions()
            .iter()
            .map(|(a, b)| [a.line, a.column, b.line, b.column])
            .collect();
        assert!(kept(right.clone()).is_some());
        assert!(kept(right[1..].to_vec()).is_none());
        assert!(kept([right.clone(), right].concat()).is_none());
    }

    /// Lengths and counts no file could hold (a list of 2^60 diagnostics, a message of
    /// 2^62 bytes) in a few bytes: refused before anything of that size is allocated (a
    /// decoder that trusted them would abort the run on a failed allocation or panic on a
    /// capacity overflow).
    #[test]
    fn crafted_lengths_are_refused_without_allocating_them() {
        let huge = [1u64 << 28, 1 << 40, 1 << 60, 1 << 62, u64::MAX];
        let rule = "literal-secret";
        let text = "x".repeat(64);
        let mut crafted: Vec<Vec<u8>> = Vec::new();
        for n in huge {
            // In the order of `FileResultDef`: that many diagnostics.
            crafted.push(varint(n));
            // One diagnostic whose rule name is that long.
            crafted.push([varint(1), varint(n)].concat());
            // One diagnostic whose message is: rule, severity, message.
            let named = [varint(rule.len() as u64), rule.as_bytes().to_vec()].concat();
            crafted.push([varint(1), named, varint(0), varint(n)].concat());
            // No diagnostic, one request, and that many requests not checked, tokens,
            // credential variables or secrets.
            crafted.push([varint(0), varint(1), varint(n)].concat());
            crafted.push([varint(0), varint(1), varint(0), varint(n)].concat());
            crafted.push([varint(0), varint(1), varint(0), varint(0), varint(n)].concat());
            crafted.push(
                [
                    varint(0),
                    varint(1),
                    varint(0),
                    varint(0),
                    varint(0),
                    varint(n),
                ]
                .concat(),
            );
        }
        // A result of nothing, then that many positions.
        let nothing = [
            varint(0),
            varint(1),
            varint(0),
            varint(0),
            varint(0),
            varint(0),
        ]
        .concat();
        for n in huge {
            crafted.push([nothing.clone(), varint(n)].concat());
        }
        for bytes in &crafted {
            assert!(
                decode_result(bytes, "f", text.clone()).is_err(),
                "{bytes:?}"
            );
        }
        // The same bytes with a count of none: a result (the crafted ones are well formed
        // but for the count).
        let empty = [nothing, varint(0)].concat();
        assert_eq!(
            decode_result(&empty, "f", text.clone()).unwrap().requests,
            1
        );
        let settings = [7u8; 32];
        for n in huge {
            let head = [MAGIC, &settings[..]].concat();
            let a = [varint(1), b"a".to_vec()].concat();
            for body in [
                // An entry whose path is that long.
                varint(n),
                // One whose path shown is.
                [a.clone(), varint(n)].concat(),
                // One whose result is: path, path shown, length, hash, no
                // environments, no stamp, result.
                [a.clone(), a, varint(1), vec![2; 32], vec![0, 0], varint(n)].concat(),
            ] {
                let file = [head.clone(), body].concat();
                assert!(read_entries(&file, &settings).is_none(), "{file:?}");
            }
        }
        // With an empty result, the last is an entry.
        let a = [varint(1), b"a".to_vec()].concat();
        let body = [a.clone(), a, varint(1), vec![2; 32], vec![0, 0], varint(0)].concat();
        let file = [MAGIC, &settings[..], &body].concat();
        assert_eq!(read_entries(&file, &settings).unwrap().len(), 1);
    }

    /// A file's stamp vouches for its bytes once it has settled: the run after the one
    /// that saw it settle keeps its result without comparing bytes, and any write (same
    /// length, new bytes) is seen; a stamp not yet settled is not kept.
    #[cfg(unix)]
    #[test]
    fn settled_stamps_vouch_for_unchanged_files() {
        let s = settings();
        let cache_dir = tempfile::tempdir().unwrap();
        let files = tempfile::tempdir().unwrap();
        let fixture = |name: &str| {
            std::fs::read(
                Path::new(env!("CARGO_MANIFEST_DIR"))
                    .join("fixtures/token-missing-permission")
                    .join(name),
            )
            .unwrap()
        };
        let clean = files.path().join("clean.req.yaml");
        let flagged = files.path().join("flagged.req.yaml");
        std::fs::write(&clean, fixture("good.req.yaml")).unwrap();
        std::fs::write(&flagged, fixture("bad.req.yaml")).unwrap();
        // Written long ago, as far as the clock of modification says: a write during the
        // test gives a time of its own, whatever the tick of the file system's clock.
        let long_ago = std::time::UNIX_EPOCH + std::time::Duration::from_secs(1_000_000_000);
        for path in [&clean, &flagged] {
            let file = std::fs::File::options().write(true).open(path).unwrap();
            file.set_modified(long_ago).unwrap();
        }
        // One run with `settled_before` as given: (updates, diagnostics of each file).
        let run_showing = |settled_before: i64, text_shown: bool| {
            let mut cache = Cache::open(&s, Some(cache_dir.path())).unwrap().unwrap();
            cache.settled_before = settled_before;
            let mut updates = Vec::new();
            let mut found = Vec::new();
            let mut positions = Vec::new();
            for path in [&clean, &flagged] {
                let rel = Path::new(path.file_name().unwrap());
                let display = path.to_string_lossy();
                let result = cache.lint_path(path, &display, rel, &s, text_shown, &mut updates);
                assert_eq!(result.path, display);
                found.push((
                    result.diagnostics.len(),
                    result.requests,
                    result.text.is_some(),
                ));
                positions.push(result.positions());
            }
            let stamped: Vec<bool> = updates.iter().map(|u| u.stamp.is_some()).collect();
            cache.save(updates);
            (stamped, found, positions)
        };
        let run = |settled_before: i64| {
            let (stamped, found, _) = run_showing(settled_before, true);
            (stamped, found)
        };
        // Nothing settled yet: both files linted, their stamps not kept.
        let (stamped, first) = run(i64::MIN);
        assert_eq!(stamped, [false, false]);
        assert_eq!(first[0].0, 0);
        assert!(first[1].0 > 0 && first[1].2, "{first:?}");
        // Settled now: both hits (their bytes compared), and their stamps kept.
        let (stamped, second) = run(i64::MAX);
        assert_eq!((stamped, &second), (vec![true, true], &first));
        // Hits on their stamps: nothing to keep.
        let (stamped, third) = run(i64::MAX);
        assert_eq!((stamped, &third), (vec![], &first));
        // For a report without code frames, the flagged file's result comes without its
        // text, with the positions its text gave.
        let (_, _, shown) = run_showing(i64::MAX, true);
        let (stamped, found, unshown) = run_showing(i64::MAX, false);
        assert_eq!(stamped, Vec::<bool>::new());
        assert_eq!(found[1], (first[1].0, first[1].1, false));
        assert_eq!(unshown, shown);
        assert!(!unshown[1].is_empty());
        // The clean file written again with as many bytes, now flagged: a miss.
        let mut changed = fixture("good.req.yaml");
        let good_len = changed.len();
        let bad = fixture("bad.req.yaml");
        changed.clear();
        changed.extend(bad.iter().take(good_len));
        changed.resize(good_len, b' ');
        std::fs::write(&clean, &changed).unwrap();
        let (stamped, fourth) = run(i64::MAX);
        assert_eq!(stamped, [true]);
        let relinted = engine::lint_bytes("c", Path::new("clean.req.yaml"), changed, &s);
        assert!(fourth[0].0 > 0, "{fourth:?}");
        assert_eq!(fourth[0].0, relinted.diagnostics.len());
        assert_eq!(fourth[1], first[1]);
    }

    /// A stamp is settled when the file was both written and changed before the time.
    #[test]
    fn a_stamp_settles_when_written_and_changed_before() {
        let stamp = |modified: i64, changed: i64| Stamp {
            modified: (modified, 5),
            changed: (changed, 5),
            inode: 1,
            device: 1,
        };
        assert!(stamp(10, 10).settled(11));
        assert!(!stamp(11, 10).settled(11));
        assert!(!stamp(10, 11).settled(11));
        let now = std::time::UNIX_EPOCH + std::time::Duration::from_secs(100);
        assert_eq!(settled_before(now), 100 - UNSETTLED_SECONDS);
        let before_epoch = std::time::UNIX_EPOCH - std::time::Duration::from_secs(100);
        assert_eq!(settled_before(before_epoch), -100 - UNSETTLED_SECONDS);
    }

    /// A cache file over the size a run reads is as none.
    #[test]
    fn cache_files_over_the_limit_are_not_read() {
        let bytes = vec![1u8; 100];
        assert_eq!(read_whole(&bytes[..], 100, 100), bytes);
        assert!(read_whole(&bytes[..], 100, 99).is_empty());
        // A size that was wrong by the time the file was read (it grew, or shrank).
        assert_eq!(read_whole(&bytes[..], 10, 100), bytes);
        assert_eq!(read_whole(&bytes[..], 1000, 100), bytes);
    }

    /// An entry whose diagnostic names a rule this build does not have (a cache of another
    /// build, an edited file) is a miss: the file is linted again, and its fresh result is
    /// what the run reports and what the cache keeps.
    #[test]
    fn an_unknown_rule_is_a_miss() {
        let s = settings();
        let dir = tempfile::tempdir().unwrap();
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("fixtures/token-missing-permission/bad.req.yaml");
        let rel = Path::new("bad.req.yaml");
        let lint = |updates: &mut Vec<Update>| {
            let cache = Cache::open(&s, Some(dir.path())).unwrap().unwrap();
            let result = cache.lint_path(&path, "bad", rel, &s, true, updates);
            (cache, result)
        };
        let mut updates = Vec::new();
        let (cache, first) = lint(&mut updates);
        assert!(!first.diagnostics.is_empty());
        assert_eq!(updates.len(), 1);
        cache.save(updates);
        // Read back from the cache: a hit, nothing to update.
        let mut updates = Vec::new();
        let (_, hit) = lint(&mut updates);
        assert!(updates.is_empty());
        assert_eq!(hit.diagnostics, first.diagnostics);
        // The rule's name changed in the cache file: a miss, linted again.
        let file = file_for(&s, Some(dir.path())).unwrap();
        let mut bytes = std::fs::read(&file).unwrap();
        let name = first.diagnostics[0].rule.as_bytes();
        let at = bytes
            .windows(name.len())
            .position(|w| w == name)
            .expect("the rule's name in the cache file");
        bytes[at + name.len() - 1] = b'X';
        std::fs::write(&file, &bytes).unwrap();
        let mut updates = Vec::new();
        let (_, missed) = lint(&mut updates);
        assert_eq!(updates.len(), 1);
        assert_eq!(missed.diagnostics, first.diagnostics);
    }
}
