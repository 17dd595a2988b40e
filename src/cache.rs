//! The result cache: a file's diagnostics, kept from one run to the next and reused while
//! neither the file nor anything the check depends on has changed.
//!
//! A cache file holds the results of one set of settings on one day: its name is the
//! day (version rules depend on the date) and a hash of the reqlint binary, the config's
//! text and rules, the variables and every context snapshot read. A run that writes the
//! cache removes the files of other days or other versions, which no run can use again.
//! Inside, each file is keyed by its path relative to the config's directory, with the
//! length and the SHA-256 of its bytes; the file starts with the SHA-256 of the settings.
//! A file that cannot be reused is linted as before; a cache that cannot be read or
//! written is ignored: the cache never changes what a run reports, only how fast.
//!
//! Whoever can write a cache can make a finding pass (an entry of the right key with no
//! finding), and a cryptographic key only stops collisions, not forgeries. So the cache
//! lives where the repository cannot put one: by default in the user's cache directory
//! (`$XDG_CACHE_HOME/reqlint/<hash of the project's directory>`), never in the project;
//! and a cache directory is used only when it is the user's own (not a link, owned by
//! the user, not writable by others), its files read without following links.

use std::collections::{BTreeMap, HashMap};
use std::hash::{Hash, Hasher};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use sha2::Digest as _;

use crate::diagnostic::{ApiError, Applicability, Diagnostic, Edit, Fix, Label, Severity};
use crate::engine::{self, FileResult, ReadFile, Settings};
use crate::loading::Span;
use crate::model::token::TokenUses;
use crate::rules::RunFacts;

const MAGIC: &[u8] = b"reqlint-cache 4\n";

/// A SHA-256 digest.
type Sha256 = [u8; 32];

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
    data: Vec<u8>,
    entries: HashMap<String, Stored>,
}

/// An entry of the cache file: where its result is in `data`.
struct Stored {
    display: String,
    len: u64,
    hash: Sha256,
    result: std::ops::Range<usize>,
}

/// A file's new result, for the cache.
pub struct Update {
    rel: String,
    display: String,
    len: u64,
    hash: Sha256,
    result: Vec<u8>,
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
        let mut data = Vec::new();
        if let Some(mut opened) = crate::files::open_own_file(&file)? {
            // A cache file that cannot be read whole is as none.
            if opened.read_to_end(&mut data).is_err() {
                data.clear();
            }
        }
        let entries = read_entries(&data, &settings).unwrap_or_default();
        Ok(Some(Cache {
            file,
            settings,
            data,
            entries,
        }))
    }

    /// The file's result: the cached one when its bytes are those cached, else the
    /// file linted (and `updates` gets what the cache should keep).
    pub fn lint_path(
        &self,
        path: &Path,
        display: &str,
        rel: &Path,
        settings: &Settings,
        updates: &mut Vec<Update>,
    ) -> FileResult {
        let bytes = match engine::read_regular_file(path, settings.limits.max_file_bytes) {
            Ok(ReadFile::Bytes(bytes)) => bytes,
            other => return engine::lint_read(display, rel, other, settings),
        };
        let key = rel.to_string_lossy();
        let len = bytes.len() as u64;
        let hash = content_hash(&bytes);
        // Only UTF-8 text is kept: a cached result is shown with the file's text.
        let bytes = match String::from_utf8(bytes) {
            Ok(text) if !text.contains('\0') => {
                if let Some(stored) = self.entries.get(key.as_ref())
                    && stored.len == len
                    && stored.hash == hash
                    && stored.display == display
                {
                    let cached = &self.data[stored.result.clone()];
                    match decode_result(cached, display, text) {
                        Ok(result) => return result,
                        Err(text) => text.into_bytes(),
                    }
                } else {
                    text.into_bytes()
                }
            }
            Ok(text) => return engine::lint_bytes(display, rel, text.into_bytes(), settings),
            Err(e) => return engine::lint_bytes(display, rel, e.into_bytes(), settings),
        };
        let result = engine::lint_bytes(display, rel, bytes, settings);
        if cacheable(&result) {
            updates.push(Update {
                rel: key.into_owned(),
                display: display.to_string(),
                len,
                hash,
                result: encode_result(&result),
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
        let mut out = Writer::default();
        out.bytes.extend_from_slice(MAGIC);
        out.bytes.extend_from_slice(&self.settings);
        let mut kept: Vec<(&String, &Stored)> = self
            .entries
            .iter()
            .filter(|(rel, _)| !fresh.contains_key(rel.as_str()))
            .collect();
        kept.sort_by(|a, b| a.0.cmp(b.0));
        out.uint((kept.len() + fresh.len()) as u64);
        for (rel, s) in kept {
            out.entry(
                rel,
                &s.display,
                s.len,
                &s.hash,
                &self.data[s.result.clone()],
            );
        }
        for u in fresh.values() {
            out.entry(&u.rel, &u.display, u.len, &u.hash, &u.result);
        }
        if write_atomically(&self.file, &out.bytes).is_ok() {
            remove_stale_files(&self.file);
        }
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

/// The entries of a cache file written for the settings whose digest is `settings`.
fn read_entries(data: &[u8], settings: &Sha256) -> Option<HashMap<String, Stored>> {
    let mut r = Reader { data, at: 0 };
    if r.take(MAGIC.len())? != MAGIC || r.take(settings.len())? != settings {
        return None;
    }
    let count = r.uint()?;
    let mut entries = HashMap::new();
    for _ in 0..count {
        let rel = r.str()?.to_string();
        let display = r.str()?.to_string();
        let len = r.uint()?;
        let hash: Sha256 = r.take(32)?.try_into().ok()?;
        let size = usize::try_from(r.uint()?).ok()?;
        let start = r.at;
        r.take(size)?;
        entries.insert(
            rel,
            Stored {
                display,
                len,
                hash,
                result: start..start + size,
            },
        );
    }
    Some(entries)
}

// The result's encoding: unsigned LEB128 numbers, length-prefixed strings, and an
// option or a list as a count followed by its items.

#[derive(Default)]
struct Writer {
    bytes: Vec<u8>,
}

impl Writer {
    fn uint(&mut self, mut n: u64) {
        loop {
            let low = (n & 0x7f) as u8;
            n >>= 7;
            if n == 0 {
                self.bytes.push(low);
                return;
            }
            self.bytes.push(low | 0x80);
        }
    }

    fn str(&mut self, s: &str) {
        self.uint(s.len() as u64);
        self.bytes.extend_from_slice(s.as_bytes());
    }

    fn bool(&mut self, b: bool) {
        self.bytes.push(u8::from(b));
    }

    fn span(&mut self, span: Span) {
        self.uint(span.start as u64);
        self.uint(span.end as u64);
    }

    fn entry(&mut self, rel: &str, display: &str, len: u64, hash: &Sha256, result: &[u8]) {
        self.str(rel);
        self.str(display);
        self.uint(len);
        self.bytes.extend_from_slice(hash);
        self.uint(result.len() as u64);
        self.bytes.extend_from_slice(result);
    }
}

struct Reader<'a> {
    data: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        let end = self.at.checked_add(n)?;
        let bytes = self.data.get(self.at..end)?;
        self.at = end;
        Some(bytes)
    }

    fn uint(&mut self) -> Option<u64> {
        let mut n = 0u64;
        for shift in (0..64).step_by(7) {
            let byte = *self.data.get(self.at)?;
            self.at += 1;
            n |= u64::from(byte & 0x7f).checked_shl(shift)?;
            if byte & 0x80 == 0 {
                return Some(n);
            }
        }
        None
    }

    fn usize(&mut self) -> Option<usize> {
        usize::try_from(self.uint()?).ok()
    }

    fn str(&mut self) -> Option<&'a str> {
        let len = self.usize()?;
        std::str::from_utf8(self.take(len)?).ok()
    }

    fn bool(&mut self) -> Option<bool> {
        match self.take(1)? {
            [0] => Some(false),
            [1] => Some(true),
            _ => None,
        }
    }

    fn span(&mut self, text: &str) -> Option<Span> {
        let span = Span::new(self.usize()?, self.usize()?);
        inside(span, text).then_some(span)
    }
}

/// A span must fall inside the text it is shown in, on character boundaries.
fn inside(span: Span, text: &str) -> bool {
    span.start <= span.end
        && span.end <= text.len()
        && text.is_char_boundary(span.start)
        && text.is_char_boundary(span.end)
}

fn encode_result(result: &FileResult) -> Vec<u8> {
    let mut w = Writer::default();
    w.uint(result.requests as u64);
    w.uint(result.diagnostics.len() as u64);
    for d in &result.diagnostics {
        w.str(d.rule);
        w.str(d.severity.as_str());
        w.str(&d.message);
        w.bool(d.help.is_some());
        if let Some(help) = &d.help {
            w.str(help);
        }
        w.bool(d.api_error.is_some());
        if let Some(e) = d.api_error {
            w.uint(u64::from(e.code));
            w.bool(e.subcode.is_some());
            w.uint(u64::from(e.subcode.unwrap_or(0)));
        }
        w.span(d.span);
        w.uint(d.labels.len() as u64);
        for l in &d.labels {
            w.span(l.span);
            w.str(&l.message);
        }
        w.bool(d.secret);
        w.bool(d.once_per_run);
        w.bool(d.fix.is_some());
        if let Some(fix) = &d.fix {
            w.bool(fix.applicability == Applicability::Safe);
            w.str(&fix.message);
            w.uint(fix.edits.len() as u64);
            for e in &fix.edits {
                w.uint(e.span.start as u64);
                w.uint(e.span.end as u64);
                w.str(&e.replacement);
                w.bool(e.file.is_some());
                if let Some(file) = &e.file {
                    w.str(&file.to_string_lossy());
                }
            }
        }
    }
    w.uint(result.secrets.len() as u64);
    for s in &result.secrets {
        w.span(*s);
    }
    w.uint(result.facts.named_token_uses.len() as u64);
    for (name, uses) in &result.facts.named_token_uses {
        w.str(name);
        w.uint(uses.needs.len() as u64);
        for (permission, access) in &uses.needs {
            w.uint(*permission as u64);
            w.uint(*access as u64);
        }
        w.bool(uses.unknown);
        w.uint(uses.requests as u64);
    }
    w.uint(result.facts.credential_variables.len() as u64);
    for name in &result.facts.credential_variables {
        w.str(name);
    }
    w.bytes
}

/// The result encoded by [`encode_result`], shown with `text`; the text back when the
/// bytes do not decode (a damaged cache file): the file is linted again.
fn decode_result(bytes: &[u8], display: &str, text: String) -> Result<FileResult, String> {
    match decode_parts(bytes, &text) {
        Some(parts) => Ok(parts.into_result(display, text)),
        None => Err(text),
    }
}

/// A decoded result, before it is given the text it is shown with.
struct Parts {
    requests: usize,
    diagnostics: Vec<Diagnostic>,
    secrets: Vec<Span>,
    facts: RunFacts,
}

impl Parts {
    fn into_result(self, display: &str, text: String) -> FileResult {
        FileResult {
            path: display.to_string(),
            text: (!self.diagnostics.is_empty()).then(|| Arc::from(text)),
            diagnostics: self.diagnostics,
            requests: self.requests,
            io_error: None,
            facts: self.facts,
            positions: None,
            secrets: self.secrets,
        }
    }
}

fn decode_parts(bytes: &[u8], text: &str) -> Option<Parts> {
    use crate::catalog::codehost::Access;
    let mut r = Reader { data: bytes, at: 0 };
    let requests = r.usize()?;
    let count = r.usize()?;
    let mut diagnostics = Vec::with_capacity(count.min(1024));
    for _ in 0..count {
        let rule = rule_name(r.str()?)?;
        let severity = Severity::parse(r.str()?)?;
        let message = r.str()?.to_string();
        let help = if r.bool()? {
            Some(r.str()?.to_string())
        } else {
            None
        };
        let api_error = if r.bool()? {
            let code = u32::try_from(r.uint()?).ok()?;
            let has_subcode = r.bool()?;
            let subcode = u32::try_from(r.uint()?).ok()?;
            Some(ApiError {
                code,
                subcode: has_subcode.then_some(subcode),
            })
        } else {
            None
        };
        let span = r.span(text)?;
        let labels = (0..r.usize()?)
            .map(|_| {
                Some(Label {
                    span: r.span(text)?,
                    message: r.str()?.to_string(),
                })
            })
            .collect::<Option<Vec<_>>>()?;
        let secret = r.bool()?;
        let once_per_run = r.bool()?;
        let fix = if r.bool()? {
            let applicability = if r.bool()? {
                Applicability::Safe
            } else {
                Applicability::Unsafe
            };
            let message = r.str()?.to_string();
            let edits = (0..r.usize()?)
                .map(|_| {
                    let span = Span::new(r.usize()?, r.usize()?);
                    let replacement = r.str()?.to_string();
                    let file = if r.bool()? {
                        Some(PathBuf::from(r.str()?))
                    } else {
                        None
                    };
                    // An edit of another file has a span in that file, not in `text`.
                    if file.is_none() && !inside(span, text) {
                        return None;
                    }
                    Some(Edit {
                        span,
                        replacement,
                        file,
                    })
                })
                .collect::<Option<Vec<_>>>()?;
            Some(Fix {
                applicability,
                message,
                edits,
            })
        } else {
            None
        };
        diagnostics.push(Diagnostic {
            rule,
            severity,
            message,
            help,
            api_error,
            span,
            labels,
            secret,
            once_per_run,
            fix,
        });
    }
    let secrets = (0..r.usize()?)
        .map(|_| r.span(text))
        .collect::<Option<Vec<_>>>()?;
    let mut facts = RunFacts::default();
    for _ in 0..r.usize()? {
        let name = r.str()?.to_string();
        let mut uses = TokenUses::default();
        for _ in 0..r.usize()? {
            let permission = r.usize()?;
            let access = match r.uint()? {
                0 => Access::Read,
                1 => Access::Write,
                2 => Access::Admin,
                _ => return None,
            };
            uses.needs.insert(permission, access);
        }
        uses.unknown = r.bool()?;
        uses.requests = r.usize()?;
        facts.named_token_uses.insert(name, uses);
    }
    for _ in 0..r.usize()? {
        facts.credential_variables.insert(r.str()?.to_string());
    }
    if r.at != bytes.len() {
        return None;
    }
    Some(Parts {
        requests,
        diagnostics,
        secrets,
        facts,
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
                let back = decode_result(&encode_result(&linted), &display, text).unwrap();
                assert_eq!(back.diagnostics, linted.diagnostics, "{display}");
                assert_eq!(back.secrets, linted.secrets);
                assert_eq!(back.requests, linted.requests);
                assert_eq!(back.facts, linted.facts);
                assert_eq!(back.text, linted.text);
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
        use crate::catalog::codehost::Access;
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
            io_error: None,
            facts,
            positions: None,
            secrets: Vec::new(),
        };
        let back = decode_result(&encode_result(&result), "f", String::new()).unwrap();
        assert_eq!(back.facts, result.facts);
        assert_eq!(back.requests, 2);
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
        let encoded = encode_result(&linted);
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
        let settings = [7u8; 32];
        let mut file = Writer::default();
        file.bytes.extend_from_slice(MAGIC);
        file.bytes.extend_from_slice(&settings);
        file.uint(1);
        file.entry("a", "a", 1, &[2; 32], &encoded);
        for cut in 0..file.bytes.len() {
            let _ = read_entries(&file.bytes[..cut], &settings);
        }
        assert_eq!(read_entries(&file.bytes, &settings).unwrap().len(), 1);
        // A cache file of other settings is not read.
        assert!(read_entries(&file.bytes, &[8u8; 32]).is_none());
    }
}
