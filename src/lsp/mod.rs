//! `reqlint server`: a Language Server Protocol server over standard input and output.
//! It publishes diagnostics when a document is opened, changed or saved, from the text
//! the editor holds (not the disk), with the config found for each file.

pub mod complete;
pub mod hover;

use std::collections::HashMap;
use std::io::{self, BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::rc::Rc;
use std::sync::Arc;

use serde_json::{Value, json};

use crate::diagnostic::Severity;
use crate::engine::{self, Settings};
use crate::loading::LineIndex;
use crate::model::config::Config;

/// The largest message body the server reads (a document is at most 10 MiB, JSON escaping
/// can double it); a larger one is skipped without being held.
const MAX_BODY: u64 = 32 * 1024 * 1024;
/// The longest header line kept; the rest of a longer one is read and dropped.
const MAX_HEADER_LINE: usize = 8 * 1024;

/// What one read of the input gives.
#[derive(Debug, PartialEq)]
enum Incoming {
    /// A message's body.
    Body(Vec<u8>),
    /// A message that cannot be read (no length, too long): answered with an error, and
    /// the server goes on with the next one.
    Unreadable(String),
}

/// Which end of a header line longer than the limit is kept.
#[derive(Clone, Copy, PartialEq)]
enum Keep {
    Head,
    /// The end: where the header of the next message starts after a body that was not
    /// read (`{…}Content-Length: 52`).
    Tail,
}

/// Reads one line (up to `\n`) keeping at most `max` bytes of it; `None` at the end.
fn read_header_line(
    reader: &mut impl BufRead,
    max: usize,
    keep: Keep,
) -> io::Result<Option<Vec<u8>>> {
    let mut line = Vec::new();
    let mut any = false;
    loop {
        let buf = match reader.fill_buf() {
            Ok(buf) => buf,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buf.is_empty() {
            return Ok(any.then_some(line));
        }
        any = true;
        let (taken, done) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (i + 1, true),
            None => (buf.len(), false),
        };
        match keep {
            Keep::Head => {
                let room = max.saturating_sub(line.len());
                line.extend_from_slice(&buf[..taken.min(room)]);
            }
            Keep::Tail => {
                line.extend_from_slice(&buf[..taken]);
                // Dropped in halves, so that each byte is moved a bounded number of times.
                if line.len() > 2 * max {
                    line.drain(..line.len() - max);
                }
            }
        }
        reader.consume(taken);
        if done {
            return Ok(Some(line));
        }
    }
}

/// The header that starts a message.
const LENGTH_HEADER: &str = "content-length:";

/// Reads one message (`Content-Length` framing, header names in any case); `None` at the
/// end of the input. Every length is bounded: a header line by [`MAX_HEADER_LINE`], a body
/// by [`MAX_BODY`]; a body is held as its bytes arrive, never allocated at the size its
/// header claims.
///
/// A message whose length is missing, invalid (`-1`) or over the limit is answered at
/// once, before its body (the server cannot know where that ends), and `resync` is set:
/// the next read skips what follows up to the next `Content-Length` header, which a
/// client writes right after the body (`{…}Content-Length: 52`), so that the next
/// request is answered rather than taken for the rest of the bad one.
fn read_message(reader: &mut impl BufRead, resync: &mut bool) -> io::Result<Option<Incoming>> {
    let mut length: Option<Result<u64, String>> = None;
    let mut any_header = false;
    loop {
        let keep = if *resync { Keep::Tail } else { Keep::Head };
        let Some(line) = read_header_line(reader, MAX_HEADER_LINE, keep)? else {
            return Ok(None);
        };
        let line = String::from_utf8_lossy(&line);
        let mut line = line.trim_end_matches(['\r', '\n']);
        if *resync {
            // The header is ASCII: its offset in the lower-cased line is its offset here.
            let Some(at) = line.to_ascii_lowercase().rfind(LENGTH_HEADER) else {
                continue;
            };
            line = &line[at..];
            *resync = false;
        }
        if line.is_empty() {
            if any_header {
                break;
            }
            // Blank lines between messages are tolerated.
            continue;
        }
        any_header = true;
        if let Some((name, value)) = line.split_once(':')
            && name.trim().eq_ignore_ascii_case("content-length")
        {
            length = Some(
                value
                    .trim()
                    .parse::<u64>()
                    .map_err(|_| format!("invalid Content-Length `{}`", value.trim())),
            );
        }
    }
    let length = match length {
        None => Err("a message without Content-Length".to_string()),
        Some(Err(e)) => Err(e),
        Some(Ok(n)) if n > MAX_BODY => Err(format!(
            "a message of {n} bytes, over the limit of {MAX_BODY}"
        )),
        Some(Ok(n)) => Ok(n as usize),
    };
    let length = match length {
        Ok(n) => n,
        Err(why) => {
            *resync = true;
            return Ok(Some(Incoming::Unreadable(why)));
        }
    };
    let mut body = Vec::new();
    while body.len() < length {
        let buf = match reader.fill_buf() {
            Ok(buf) => buf,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buf.is_empty() {
            return Ok(None);
        }
        let taken = buf.len().min(length - body.len());
        body.extend_from_slice(&buf[..taken]);
        reader.consume(taken);
    }
    Ok(Some(Incoming::Body(body)))
}

fn send(out: &mut impl Write, message: &Value) -> io::Result<()> {
    let body = serde_json::to_string(message)?;
    write!(out, "Content-Length: {}\r\n\r\n{body}", body.len())?;
    out.flush()
}

/// Lints an open document at `path` with its config, and its path relative to the
/// config's root; none when the config would not lint it (editors send every YAML and
/// JSON file).
fn lint_in_config(
    settings: &Settings,
    path: &Path,
    text: &str,
) -> Option<(engine::FileResult, PathBuf)> {
    let root = crate::walk::absolute(Path::new("/"), &settings.config.root);
    let rel = path.strip_prefix(&root).unwrap_or(path).to_path_buf();
    let config = &settings.config;
    if !config.include.is_match(&rel) || config.exclude.is_match(&rel) {
        return None;
    }
    let display = path.to_string_lossy().into_owned();
    let mut result = engine::lint_bytes(&display, &rel, text.as_bytes().to_vec(), settings);
    if let Some(floor) = config.min_severity {
        result.diagnostics.retain(|d| d.severity >= floor);
    }
    Some((result, rel))
}

/// Whether `comment`, put in as a line at `line_start`, silences `d` and brings nothing
/// new: it is no comment inside a JSON body or a string, where it would break the file
/// or change a value.
fn silences(
    settings: &Settings,
    uri: &str,
    text: &str,
    before: &engine::FileResult,
    d: &crate::diagnostic::Diagnostic,
    line_start: usize,
    comment: &str,
) -> bool {
    let Some(path) = uri_to_path(uri) else {
        return false;
    };
    let candidate = format!("{}{comment}{}", &text[..line_start], &text[line_start..]);
    let Some((after, _)) = lint_in_config(settings, &path, &candidate) else {
        return false;
    };
    let moved = |span: crate::loading::Span| {
        if span.start >= line_start {
            crate::loading::Span::new(span.start + comment.len(), span.end + comment.len())
        } else {
            span
        }
    };
    let still = after
        .diagnostics
        .iter()
        .any(|a| a.rule == d.rule && a.span == moved(d.span));
    let new = after.diagnostics.iter().any(|a| {
        !before
            .diagnostics
            .iter()
            .any(|b| b.rule == a.rule && b.message == a.message)
    });
    !still && !new
}

/// `/a/b c.yaml` → `file:///a/b%20c.yaml`: the bytes a URI path may not hold,
/// percent-encoded.
pub fn path_to_uri(path: &Path) -> String {
    let mut uri = String::from("file://");
    for &b in path.to_string_lossy().as_bytes() {
        if b.is_ascii_alphanumeric() || b"/-._~!$&'()*+,;=:@".contains(&b) {
            uri.push(char::from(b));
        } else {
            uri.push_str(&format!("%{b:02X}"));
        }
    }
    uri
}

/// `file:///a/b%20c.yaml` → `/a/b c.yaml`.
pub fn uri_to_path(uri: &str) -> Option<PathBuf> {
    let rest = uri.strip_prefix("file://")?;
    let bytes = rest.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let decoded = (bytes[i] == b'%')
            .then(|| bytes.get(i + 1..i + 3))
            .flatten()
            .and_then(|h| std::str::from_utf8(h).ok())
            .and_then(|h| u8::from_str_radix(h, 16).ok());
        if let Some(b) = decoded {
            out.push(b);
            i += 3;
            continue;
        }
        out.push(bytes[i]);
        i += 1;
    }
    Some(PathBuf::from(String::from_utf8(out).ok()?))
}

/// An LSP position: 0-based line, and UTF-16 code units from the line's start.
pub fn lsp_position(text: &str, lines: &LineIndex, offset: usize) -> Value {
    let (line, character) = lines.utf16_position(text, offset);
    json!({"line": line, "character": character})
}

/// An LSP position in the encoding the client and the server agreed on.
fn position_in(text: &str, lines: &LineIndex, offset: usize, utf8: bool) -> Value {
    if !utf8 {
        return lsp_position(text, lines, offset);
    }
    let offset = offset.min(text.len());
    let line = lines.line_of(offset);
    json!({"line": line, "character": offset - lines.line_start(line)})
}

/// The byte offset of an LSP position (clamped to the text).
fn offset_of(text: &str, lines: &LineIndex, position: &Value, utf8: bool) -> usize {
    let line = position["line"].as_u64().unwrap_or(0) as usize;
    let character = position["character"].as_u64().unwrap_or(0) as usize;
    if line >= lines.line_count() {
        return text.len();
    }
    let start = lines.line_start(line);
    let end = lines.line_end(text, line);
    if utf8 {
        let mut at = (start + character).min(end);
        while !text.is_char_boundary(at) {
            at -= 1;
        }
        return at;
    }
    let mut units = 0;
    for (i, c) in text[start..end].char_indices() {
        if units >= character {
            return start + i;
        }
        units += c.len_utf16();
    }
    end
}

pub use crate::rule_docs::rule_docs_url;

/// Settings per config file, read once and read again when the config or one of its
/// context snapshots changes.
#[derive(Default)]
struct Configs {
    by_path: HashMap<Option<PathBuf>, Result<Arc<Settings>, String>>,
    /// The workspace root the client named: where a file without a `.reqlint.yaml` above
    /// it is matched from, as `check` matches from the working directory.
    workspace: Option<PathBuf>,
    /// Every file the settings were read from (configs and context snapshots): a change
    /// to one of them reloads them all.
    sources: std::collections::HashSet<PathBuf>,
}

impl Configs {
    fn for_file(&mut self, file: &Path) -> Result<Arc<Settings>, String> {
        let dir = file.parent().unwrap_or(Path::new("/"));
        let config_path = Config::discover(dir);
        let root = match (&config_path, &self.workspace) {
            (None, Some(workspace)) if file.starts_with(workspace) => workspace.clone(),
            _ => dir.to_path_buf(),
        };
        let sources = &mut self.sources;
        self.by_path
            .entry(config_path.clone())
            .or_insert_with(|| {
                let loaded = load_settings(config_path.as_deref(), &root);
                if let Some(path) = &config_path {
                    sources.insert(path.clone());
                }
                loaded.map(|(settings, files)| {
                    sources.extend(files);
                    Arc::new(settings)
                })
            })
            .clone()
    }

    /// Whether a change to `path` changes some settings: a config anywhere, or a context
    /// snapshot that settings were read from.
    fn is_source(&self, path: &Path) -> bool {
        path.file_name()
            .is_some_and(|n| n == crate::model::config::CONFIG_FILE)
            || self.sources.contains(path)
    }

    fn forget(&mut self) {
        self.by_path.clear();
        self.sources.clear();
    }
}

/// The settings for files under `dir` (the config's directory, or the workspace root),
/// and the context files they were read from.
fn load_settings(
    config_path: Option<&Path>,
    dir: &Path,
) -> Result<(Settings, Vec<PathBuf>), String> {
    let names = crate::rules::names();
    let config = match config_path {
        Some(p) => Config::load(p, &names)?,
        None => Config::defaults(dir.to_path_buf()),
    };
    let (settings, files) = crate::settings::from_config(config)?;
    let files = files
        .iter()
        .map(|f| crate::walk::absolute(Path::new("/"), f))
        .collect();
    Ok((settings, files))
}

/// A document's last lint: the text it was made from, the result, the settings and the
/// path relative to the config's root. Diagnostics, hover and code actions of the same
/// text share it, so that a request lints a document at most once.
struct Linted {
    text: String,
    result: engine::FileResult,
    settings: Arc<Settings>,
    rel: PathBuf,
}

/// The "disable for this line" actions a code action request checks (each by linting
/// the document with the comment put in): a request over a whole document with a
/// thousand findings costs this many lints, not one per finding.
const MAX_DISABLE_CHECKS: usize = 16;

struct Server {
    configs: Configs,
    documents: HashMap<String, String>,
    /// The last lint of each open document.
    lints: HashMap<String, Rc<Linted>>,
    initialized: bool,
    shut_down: bool,
    /// The client registers file watchers on request (LSP dynamic registration).
    can_watch: bool,
    next_id: u64,
    /// Positions count UTF-8 bytes (the client offered `utf-8`), else UTF-16 code units.
    utf8: bool,
}

/// What the server does after a message.
enum Flow {
    Continue,
    Exit(ExitCode),
}

/// JSON-RPC and LSP error codes.
const PARSE_ERROR: i64 = -32700;
const INVALID_REQUEST: i64 = -32600;
const METHOD_NOT_FOUND: i64 = -32601;
const SERVER_NOT_INITIALIZED: i64 = -32002;

/// The code action kind of "fix all safe fixes in the file".
const FIX_ALL_KIND: &str = "source.fixAll.reqlint";

fn error_response(id: Value, code: i64, message: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}})
}

impl Server {
    fn new() -> Server {
        Server {
            configs: Configs::default(),
            documents: HashMap::new(),
            lints: HashMap::new(),
            initialized: false,
            shut_down: false,
            can_watch: false,
            next_id: 1,
            utf8: false,
        }
    }

    /// The diagnostics of a document, as LSP `Diagnostic`s.
    fn diagnostics(&mut self, uri: &str, text: &str) -> Vec<Value> {
        let Some(path) = uri_to_path(uri) else {
            return Vec::new();
        };
        if let Err(message) = self.configs.for_file(&path) {
            // Shown as every other text: through the one redaction step.
            let message = crate::redact::Redactor::none()
                .line(&format!("reqlint cannot read its config: {message}"));
            return vec![json!({
                "range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}},
                "severity": 1,
                "source": "reqlint",
                "message": message,
            })];
        }
        let Some(linted) = self.lint_document(uri, text) else {
            return Vec::new();
        };
        // What a run says once is said once in a document too (as keep_first_of_run).
        let mut seen = std::collections::HashSet::new();
        let lines = LineIndex::new(text);
        linted
            .result
            .diagnostics
            .iter()
            .filter(|d| !d.once_per_run || seen.insert((d.rule, d.message.clone())))
            .map(|d| {
                let severity = match d.severity {
                    Severity::Error => 1,
                    Severity::Warning => 2,
                    Severity::Info => 3,
                };
                let mut message = d.message.clone();
                if let Some(help) = &d.help {
                    message.push_str(&format!("\nhelp: {help}"));
                }
                let utf8 = self.utf8;
                let range = |span: crate::loading::Span| {
                    json!({
                        "start": position_in(text, &lines, span.start, utf8),
                        "end": position_in(text, &lines, span.end, utf8),
                    })
                };
                let related: Vec<Value> = d
                    .labels
                    .iter()
                    .map(|l| {
                        json!({
                            "location": {"uri": uri, "range": range(l.span)},
                            "message": l.message,
                        })
                    })
                    .collect();
                let mut diagnostic = json!({
                    "range": range(d.span),
                    "severity": severity,
                    "code": d.rule,
                    "codeDescription": {"href": rule_docs_url(d.rule)},
                    "source": "reqlint",
                    "message": message,
                });
                if !related.is_empty() {
                    diagnostic["relatedInformation"] = json!(related);
                }
                diagnostic
            })
            .collect()
    }

    /// The result of linting a document the way `diagnostics` does, with its settings:
    /// the last one, if it was made from this text (settings read again clear them all).
    fn lint_document(&mut self, uri: &str, text: &str) -> Option<Rc<Linted>> {
        if let Some(linted) = self.lints.get(uri).filter(|l| l.text == text) {
            return Some(Rc::clone(linted));
        }
        let path = uri_to_path(uri)?;
        let settings = self.configs.for_file(&path).ok()?;
        let (result, rel) = lint_in_config(&settings, &path, text)?;
        let linted = Rc::new(Linted {
            text: text.to_string(),
            result,
            settings,
            rel,
        });
        self.lints.insert(uri.to_string(), Rc::clone(&linted));
        Some(linted)
    }

    /// `textDocument/completion`: the items the catalogs give at the cursor.
    fn completion(&mut self, uri: &str, params: &Value) -> Vec<Value> {
        let Some(text) = self.documents.get(uri).cloned() else {
            return Vec::new();
        };
        let Some(path) = uri_to_path(uri) else {
            return Vec::new();
        };
        let Ok(settings) = self.configs.for_file(&path) else {
            return Vec::new();
        };
        let lines = LineIndex::new(&text);
        let offset = offset_of(&text, &lines, &params["position"], self.utf8);
        let display = path.to_string_lossy();
        let items = complete::complete(&text, &display, &settings, offset);
        if items.is_empty() {
            return Vec::new();
        }
        // Shown as every other text about the file: through its redaction.
        let root = crate::walk::absolute(Path::new("/"), &settings.config.root);
        let rel = path.strip_prefix(&root).unwrap_or(&path);
        let redactor = engine::file_redactor(&display, rel, &text, &settings);
        items
            .into_iter()
            .map(|i| {
                json!({"label": redactor.line(&i.label), "kind": i.kind, "detail": redactor.line(&i.detail)})
            })
            .collect()
    }

    /// `textDocument/hover`: markdown, or null where there is nothing to say.
    fn hover(&mut self, uri: &str, params: &Value) -> Value {
        let Some(text) = self.documents.get(uri).cloned() else {
            return Value::Null;
        };
        let Some(linted) = self.lint_document(uri, &text) else {
            return Value::Null;
        };
        let Linted {
            result,
            settings,
            rel,
            ..
        } = &*linted;
        let lines = LineIndex::new(&text);
        let offset = offset_of(&text, &lines, &params["position"], self.utf8);
        match hover::hover(&text, &rel.to_string_lossy(), settings, result, offset) {
            Some(markdown) => {
                let redactor = engine::file_redactor(&result.path, rel, &text, settings);
                json!({"contents": {"kind": "markdown", "value": redactor.lines(&markdown)}})
            }
            None => Value::Null,
        }
    }

    /// `textDocument/codeAction`: a quick fix for each fixable diagnostic in the range,
    /// "disable the rule for this line" for each diagnostic there (in the formats with
    /// `#` comments), and "fix all safe fixes" for the document.
    fn code_actions(&mut self, uri: &str, params: &Value) -> Vec<Value> {
        let Some(text) = self.documents.get(uri).cloned() else {
            return Vec::new();
        };
        let Some(linted) = self.lint_document(uri, &text) else {
            return Vec::new();
        };
        let Linted {
            result,
            settings,
            rel,
            ..
        } = &*linted;
        let lines = LineIndex::new(&text);
        let utf8 = self.utf8;
        // Each (line, rule) is checked once, and at most MAX_DISABLE_CHECKS of them.
        let mut disable_checked: std::collections::HashSet<(usize, &str)> =
            std::collections::HashSet::new();
        // The texts of the other files that fixes edit (the config), with their lines.
        let mut others: HashMap<PathBuf, Option<(String, LineIndex)>> = HashMap::new();
        let range = |span: crate::loading::Span| {
            json!({
                "start": position_in(&text, &lines, span.start, utf8),
                "end": position_in(&text, &lines, span.end, utf8),
            })
        };
        let start = offset_of(&text, &lines, &params["range"]["start"], utf8);
        let end = offset_of(&text, &lines, &params["range"]["end"], utf8);
        let only: Vec<&str> = params["context"]["only"]
            .as_array()
            .map(|o| o.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let wants = |kind: &str| only.is_empty() || only.iter().any(|o| kind.starts_with(o));
        let mut actions = Vec::new();
        let comments = crate::loading::Format::from_path(&rel.to_string_lossy()).has_comments();
        for d in &result.diagnostics {
            let touches = d.span.start <= end && start <= d.span.end;
            if !touches {
                continue;
            }
            let lsp_diagnostic = json!({"range": range(d.span), "code": d.rule, "message": d.message, "source": "reqlint"});
            if let Some(fix) = d.fix.as_ref().filter(|_| wants("quickfix")) {
                let mut changes = serde_json::Map::new();
                let mut stale = false;
                for e in &fix.edits {
                    let (target, edit) = match &e.file {
                        None => (
                            uri.to_string(),
                            json!({"range": range(e.span), "newText": e.replacement}),
                        ),
                        Some(file) => {
                            // Positions in the other file's text: as the editor holds it
                            // where it is open, else as it is on disk. The edit's offsets
                            // are into the config as the settings read it: a config
                            // changed since gets no edit (it would land elsewhere).
                            // Read and indexed once a request, however many edits.
                            let documents = &self.documents;
                            let known = others.entry(file.clone()).or_insert_with(|| {
                                let other = match documents.get(&path_to_uri(file)) {
                                    Some(open) => open.clone(),
                                    None => std::fs::read_to_string(file).ok()?,
                                };
                                if settings.config.path.as_deref() == Some(file.as_path())
                                    && other != settings.config.text
                                {
                                    return None;
                                }
                                let lines = LineIndex::new(&other);
                                Some((other, lines))
                            });
                            let Some((other, other_lines)) = known else {
                                stale = true;
                                continue;
                            };
                            let r = json!({
                                "start": position_in(other, other_lines, e.span.start, utf8),
                                "end": position_in(other, other_lines, e.span.end, utf8),
                            });
                            (
                                path_to_uri(file),
                                json!({"range": r, "newText": e.replacement}),
                            )
                        }
                    };
                    if let Some(list) = changes
                        .entry(target)
                        .or_insert_with(|| json!([]))
                        .as_array_mut()
                    {
                        list.push(edit);
                    }
                }
                if !stale {
                    actions.push(json!({
                        "title": format!("{} ({})", fix.message, d.rule),
                        "kind": "quickfix",
                        "diagnostics": [lsp_diagnostic.clone()],
                        "isPreferred": fix.applicability == crate::diagnostic::Applicability::Safe,
                        "edit": {"changes": changes},
                    }));
                }
            }
            let line = lines.line_of(d.span.start);
            if comments
                && wants("quickfix")
                && disable_checked.len() < MAX_DISABLE_CHECKS
                && disable_checked.insert((line, d.rule))
            {
                // A comment line above the diagnostic's line, indented as it is.
                let line_start = lines.line_start(line);
                let indent: String = text[line_start..]
                    .chars()
                    .take_while(|c| *c == ' ' || *c == '\t')
                    .collect();
                let newline = crate::rules::shelf::fix::line_break(&text, line_start);
                let comment = format!("{indent}# reqlint: ignore[{}]{newline}", d.rule);
                if silences(settings, uri, &text, result, d, line_start, &comment) {
                    let at = range(crate::loading::Span::empty(line_start));
                    actions.push(json!({
                        "title": format!("Disable {} for this line", d.rule),
                        "kind": "quickfix",
                        "diagnostics": [lsp_diagnostic],
                        "edit": {"changes": {uri: [{"range": at, "newText": comment}]}},
                    }));
                }
            }
        }
        if wants(FIX_ALL_KIND)
            && result.diagnostics.iter().any(|d| {
                d.fix
                    .as_ref()
                    .is_some_and(|f| f.applicability == crate::diagnostic::Applicability::Safe)
            })
        {
            let display = rel.to_string_lossy().into_owned();
            let fixed =
                crate::fix::fix_text(&display, rel, &text, settings, crate::fix::Mode::Safe);
            if fixed.applied > 0 {
                let whole = range(crate::loading::Span::new(0, text.len()));
                actions.push(json!({
                    "title": format!("Fix all safe fixes in the file ({})", fixed.applied),
                    "kind": FIX_ALL_KIND,
                    "edit": {"changes": {uri: [{"range": whole, "newText": fixed.text}]}},
                }));
            }
        }
        actions
    }

    fn publish(&mut self, out: &mut impl Write, uri: &str) -> io::Result<()> {
        let text = self.documents.get(uri).cloned().unwrap_or_default();
        let diagnostics = self.diagnostics(uri, &text);
        send(
            out,
            &json!({
                "jsonrpc": "2.0",
                "method": "textDocument/publishDiagnostics",
                "params": {"uri": uri, "diagnostics": diagnostics},
            }),
        )
    }

    /// Settings changed on disk: read them again and lint every open document anew.
    fn reload(&mut self, out: &mut impl Write) -> io::Result<()> {
        self.configs.forget();
        self.lints.clear();
        let mut uris: Vec<String> = self.documents.keys().cloned().collect();
        uris.sort();
        for uri in uris {
            self.publish(out, &uri)?;
        }
        Ok(())
    }

    /// One message, or a batch of them (JSON-RPC 2.0): the answers to send back.
    fn handle(&mut self, out: &mut impl Write, body: &[u8]) -> io::Result<Flow> {
        let message: Value = match serde_json::from_slice(body) {
            Ok(v) => v,
            Err(e) => {
                let text = format!("cannot parse the message: {e}");
                send(out, &error_response(Value::Null, PARSE_ERROR, &text))?;
                return Ok(Flow::Continue);
            }
        };
        match message {
            Value::Array(items) if items.is_empty() => {
                send(
                    out,
                    &error_response(Value::Null, INVALID_REQUEST, "an empty batch"),
                )?;
                Ok(Flow::Continue)
            }
            Value::Array(items) => {
                let mut answers = Vec::new();
                let mut flow = Flow::Continue;
                for item in items {
                    let (answer, f) = self.handle_one(out, item)?;
                    answers.extend(answer);
                    if let Flow::Exit(code) = f {
                        flow = Flow::Exit(code);
                        break;
                    }
                }
                if !answers.is_empty() {
                    send(out, &Value::Array(answers))?;
                }
                Ok(flow)
            }
            other => {
                let (answer, flow) = self.handle_one(out, other)?;
                if let Some(answer) = answer {
                    send(out, &answer)?;
                }
                Ok(flow)
            }
        }
    }

    /// One message: its answer if it is a request, and whether to go on.
    fn handle_one(
        &mut self,
        out: &mut impl Write,
        message: Value,
    ) -> io::Result<(Option<Value>, Flow)> {
        let Some(object) = message.as_object() else {
            let answer =
                error_response(Value::Null, INVALID_REQUEST, "a message must be an object");
            return Ok((Some(answer), Flow::Continue));
        };
        let id = object.get("id").cloned();
        let Some(method) = object.get("method").and_then(Value::as_str) else {
            // A response to a request of the server's own (a registration): nothing to do.
            if id.is_some() && (object.contains_key("result") || object.contains_key("error")) {
                return Ok((None, Flow::Continue));
            }
            let answer = error_response(
                id.unwrap_or(Value::Null),
                INVALID_REQUEST,
                "a message without a method",
            );
            return Ok((Some(answer), Flow::Continue));
        };
        let params = object.get("params").cloned().unwrap_or(Value::Null);
        let answer = |result: Value| {
            id.clone()
                .map(|id| json!({"jsonrpc": "2.0", "id": id, "result": result}))
        };
        if method == "exit" {
            let code = if self.shut_down {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            };
            return Ok((None, Flow::Exit(code)));
        }
        if !self.initialized && method != "initialize" {
            // LSP: a request before `initialize` is an error; a notification is dropped.
            let answer = id.map(|id| {
                error_response(id, SERVER_NOT_INITIALIZED, "the server is not initialized")
            });
            return Ok((answer, Flow::Continue));
        }
        if self.shut_down {
            let answer =
                id.map(|id| error_response(id, INVALID_REQUEST, "the server is shut down"));
            return Ok((answer, Flow::Continue));
        }
        let uri = params["textDocument"]["uri"]
            .as_str()
            .unwrap_or_default()
            .to_string();
        match method {
            "initialize" => {
                if self.initialized {
                    let answer = id.map(|id| {
                        error_response(id, INVALID_REQUEST, "the server is initialized already")
                    });
                    return Ok((answer, Flow::Continue));
                }
                self.initialized = true;
                self.configs.workspace = workspace_root(&params);
                self.can_watch = params["capabilities"]["workspace"]["didChangeWatchedFiles"]["dynamicRegistration"]
                    == true;
                self.utf8 = params["capabilities"]["general"]["positionEncodings"]
                    .as_array()
                    .is_some_and(|e| e.iter().any(|e| e == "utf-8"));
                let result = json!({
                    "capabilities": {
                        "positionEncoding": if self.utf8 { "utf-8" } else { "utf-16" },
                        "textDocumentSync": {"openClose": true, "change": 1, "save": {"includeText": true}},
                        "codeActionProvider": {"codeActionKinds": ["quickfix", FIX_ALL_KIND]},
                        "hoverProvider": true,
                        "completionProvider": {"triggerCharacters": [":", " "]},
                    },
                    "serverInfo": {"name": "reqlint", "version": env!("CARGO_PKG_VERSION")},
                });
                return Ok((answer(result), Flow::Continue));
            }
            "initialized" => {
                if self.can_watch {
                    // Configs and snapshots change outside the editor too (a checkout):
                    // ask the client to tell.
                    let id = self.next_id;
                    self.next_id += 1;
                    send(
                        out,
                        &json!({
                            "jsonrpc": "2.0",
                            "id": format!("reqlint-{id}"),
                            "method": "client/registerCapability",
                            "params": {"registrations": [{
                                "id": "reqlint-watch",
                                "method": "workspace/didChangeWatchedFiles",
                                "registerOptions": {"watchers": [
                                    {"globPattern": "**/.reqlint.yaml"},
                                    {"globPattern": "**/*.{yaml,yml,json}"},
                                ]},
                            }]},
                        }),
                    )?;
                }
            }
            "workspace/didChangeWatchedFiles" => {
                let changed = params["changes"].as_array().is_some_and(|changes| {
                    changes.iter().any(|c| {
                        c["uri"]
                            .as_str()
                            .and_then(uri_to_path)
                            .is_some_and(|p| self.configs.is_source(&p))
                    })
                });
                if changed {
                    self.reload(out)?;
                }
            }
            "textDocument/didOpen" => {
                let text = params["textDocument"]["text"]
                    .as_str()
                    .unwrap_or_default()
                    .to_string();
                self.documents.insert(uri.clone(), text);
                self.publish(out, &uri)?;
            }
            "textDocument/didChange" => {
                // Full synchronization: the last change holds the whole text.
                if let Some(text) = params["contentChanges"]
                    .as_array()
                    .and_then(|c| c.last())
                    .and_then(|c| c["text"].as_str())
                {
                    self.documents.insert(uri.clone(), text.to_string());
                    self.publish(out, &uri)?;
                }
            }
            "textDocument/didSave" => {
                if let Some(text) = params["text"].as_str() {
                    self.documents.insert(uri.clone(), text.to_string());
                }
                // Saving the config or a snapshot in the editor changes the settings.
                if uri_to_path(&uri).is_some_and(|p| self.configs.is_source(&p)) {
                    self.reload(out)?;
                } else if self.documents.contains_key(&uri) {
                    self.publish(out, &uri)?;
                }
            }
            "textDocument/didClose" => {
                self.documents.remove(&uri);
                self.lints.remove(&uri);
                send(
                    out,
                    &json!({"jsonrpc": "2.0", "method": "textDocument/publishDiagnostics", "params": {"uri": uri, "diagnostics": []}}),
                )?;
            }
            "shutdown" => {
                self.shut_down = true;
                return Ok((answer(Value::Null), Flow::Continue));
            }
            "textDocument/completion" => {
                let items = self.completion(&uri, &params);
                return Ok((answer(json!(items)), Flow::Continue));
            }
            "textDocument/hover" => {
                let hover = self.hover(&uri, &params);
                return Ok((answer(hover), Flow::Continue));
            }
            "textDocument/codeAction" => {
                let actions = self.code_actions(&uri, &params);
                return Ok((answer(json!(actions)), Flow::Continue));
            }
            _ => {
                // Requests the server does not offer get an error; notifications are ignored.
                let answer = id.map(|id| {
                    error_response(
                        id,
                        METHOD_NOT_FOUND,
                        &format!("reqlint does not handle {method}"),
                    )
                });
                return Ok((answer, Flow::Continue));
            }
        }
        Ok((None, Flow::Continue))
    }
}

/// The workspace root of an `initialize` request: its first workspace folder, else its
/// `rootUri`, else its `rootPath`.
fn workspace_root(params: &Value) -> Option<PathBuf> {
    params["workspaceFolders"]
        .as_array()
        .and_then(|folders| folders.first())
        .and_then(|f| f["uri"].as_str())
        .or_else(|| params["rootUri"].as_str())
        .and_then(uri_to_path)
        .or_else(|| params["rootPath"].as_str().map(PathBuf::from))
}

/// Runs the server until `exit`. Exit code 0 after `shutdown`, 1 otherwise (LSP). A
/// message it cannot read is answered with an error and the server goes on.
pub fn run() -> Result<ExitCode, String> {
    let stdin = io::stdin();
    let mut reader = BufReader::new(stdin.lock());
    let stdout = io::stdout();
    let mut out = stdout.lock();
    let mut server = Server::new();
    let io_error = |e: io::Error| format!("language server: {e}");
    let mut resync = false;
    while let Some(incoming) = read_message(&mut reader, &mut resync).map_err(io_error)? {
        let flow = match incoming {
            Incoming::Body(body) => server.handle(&mut out, &body).map_err(io_error)?,
            Incoming::Unreadable(why) => {
                send(&mut out, &error_response(Value::Null, PARSE_ERROR, &why))
                    .map_err(io_error)?;
                Flow::Continue
            }
        };
        if let Flow::Exit(code) = flow {
            return Ok(code);
        }
    }
    Ok(if server.shut_down {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uris_and_paths_round_trip() {
        for path in [
            "/tmp/a b/c%d.req.yaml",
            "/tmp/ü/#1?.yaml",
            "/plain/a.req.yaml",
        ] {
            let uri = path_to_uri(Path::new(path));
            assert!(!uri.contains([' ', '#', '?', 'ü'].as_slice()), "{uri}");
            assert_eq!(uri_to_path(&uri), Some(PathBuf::from(path)), "{uri}");
        }
        assert_eq!(
            path_to_uri(Path::new("/tmp/a b.yaml")),
            "file:///tmp/a%20b.yaml"
        );
    }

    #[test]
    fn positions_count_utf16_units() {
        let text = "a: \u{1F600} x\nb: 1\n";
        let lines = LineIndex::new(text);
        let x = text.find('x').unwrap();
        assert_eq!(
            lsp_position(text, &lines, x),
            json!({"line": 0, "character": 6})
        );
        let b = text.find('b').unwrap();
        assert_eq!(
            lsp_position(text, &lines, b),
            json!({"line": 1, "character": 0})
        );
    }

    #[test]
    fn file_uris() {
        assert_eq!(
            uri_to_path("file:///tmp/a%20b.yaml"),
            Some(PathBuf::from("/tmp/a b.yaml"))
        );
        assert_eq!(uri_to_path("untitled:1"), None);
    }

    /// A server that `initialize`d, and what it wrote.
    fn initialized() -> (Server, Vec<u8>) {
        let mut server = Server::new();
        let mut out = Vec::new();
        for m in [
            json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"capabilities": {}}}),
            json!({"jsonrpc": "2.0", "method": "initialized", "params": {}}),
        ] {
            server.handle(&mut out, m.to_string().as_bytes()).unwrap();
        }
        (server, out)
    }

    #[test]
    fn a_code_action_over_a_whole_document_costs_work_linear_in_it() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join(".reqlint.yaml"), "").unwrap();
        let uri = path_to_uri(&dir.path().join("many.http"));
        let work_for = |n: usize| {
            // A finding on every request: an endpoint the code-hosting API does not have.
            let text = "GET https://api.github.com/user/emailz\n\n###\n\n".repeat(n);
            let (mut server, mut out) = initialized();
            let open = json!({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {"uri": uri, "languageId": "http", "version": 1, "text": text}}});
            server
                .handle(&mut out, open.to_string().as_bytes())
                .unwrap();
            let diagnostics = server.lints[&uri].result.diagnostics.len();
            assert!(diagnostics >= n, "{diagnostics} findings for {n} requests");
            let request = json!({"jsonrpc": "2.0", "id": 9, "method": "textDocument/codeAction", "params": {
                "textDocument": {"uri": uri},
                "range": {"start": {"line": 0, "character": 0}, "end": {"line": 4 * n, "character": 0}},
                "context": {"diagnostics": []},
            }});
            out.clear();
            let (_, units) = crate::loading::work::measure(|| {
                server
                    .handle(&mut out, request.to_string().as_bytes())
                    .unwrap()
            });
            assert!(String::from_utf8_lossy(&out).contains("\"id\":9"));
            units
        };
        let small = work_for(120);
        let large = work_for(1200);
        assert!(
            large <= 12 * small,
            "code actions: work {small} for 120 findings, {large} for 1,200"
        );
        // Hover and code actions of an unchanged text lint it no more.
        let (mut server, mut out) = initialized();
        let open = json!({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {"uri": uri, "languageId": "http", "version": 1, "text": "GET https://api.github.com/user/emailz\n"}}});
        server
            .handle(&mut out, open.to_string().as_bytes())
            .unwrap();
        let hover = json!({"jsonrpc": "2.0", "id": 3, "method": "textDocument/hover", "params": {"textDocument": {"uri": uri}, "position": {"line": 0, "character": 30}}});
        let before = Rc::clone(&server.lints[&uri]);
        server
            .handle(&mut out, hover.to_string().as_bytes())
            .unwrap();
        assert!(Rc::ptr_eq(&before, &server.lints[&uri]));
    }

    #[test]
    fn framing() {
        let input = b"Content-Length: 17\r\n\r\n{\"jsonrpc\":\"2.0\"}";
        let mut reader = io::BufReader::new(&input[..]);
        let mut resync = false;
        assert_eq!(
            read_message(&mut reader, &mut resync).unwrap(),
            Some(Incoming::Body(b"{\"jsonrpc\":\"2.0\"}".to_vec()))
        );
        assert_eq!(read_message(&mut reader, &mut resync).unwrap(), None);
    }

    /// The bodies read from `input`, `None` for each message answered as unreadable.
    fn bodies(input: &[u8]) -> Vec<Option<String>> {
        let mut reader = io::BufReader::with_capacity(64, input);
        let mut resync = false;
        let mut out = Vec::new();
        while let Some(m) = read_message(&mut reader, &mut resync).unwrap() {
            out.push(match m {
                Incoming::Body(b) => Some(String::from_utf8(b).unwrap()),
                Incoming::Unreadable(_) => None,
            });
        }
        out
    }

    #[test]
    fn a_message_without_a_usable_length_does_not_take_the_next_one() {
        let next = "Content-Length: 2\r\n\r\n{}";
        let long = format!("{{\"text\": \"{}\"}}", "x".repeat(3 * MAX_HEADER_LINE));
        for (header, body) in [
            ("X-Other: 1\r\n", "{\"id\": 1}"),
            ("Content-Length: -1\r\n", "{\"id\": 1}"),
            ("Content-Length: 99999999999999\r\n", "{\"id\": 1}"),
            ("Content-Length: many\r\n", "{\"a\":\r\n\r\n 1}"),
            ("Content-Type: x\r\n", long.as_str()),
        ] {
            let input = format!("{header}\r\n{body}{next}{next}");
            assert_eq!(
                bodies(input.as_bytes()),
                [None, Some("{}".into()), Some("{}".into())],
                "{header}"
            );
        }
    }

    #[test]
    fn a_body_is_held_as_it_arrives() {
        // Announced 30 MiB, 10 bytes sent: the end of the input, after 10 bytes held.
        assert_eq!(bodies(b"Content-Length: 31457280\r\n\r\n0123456789"), []);
    }

    #[test]
    fn framing_is_bounded_and_forgiving() {
        // A lower-case header name; a message without a length; a length too large to
        // hold; an endless header line.
        let mut input = b"content-length: 2\r\n\r\n{}".to_vec();
        input.extend_from_slice(b"X-Other: 1\r\n\r\n");
        input.extend_from_slice(b"Content-Length: 18446744073709551615\r\n\r\n{}");
        let mut reader = io::BufReader::new(&input[..]);
        let mut resync = false;
        assert_eq!(
            read_message(&mut reader, &mut resync).unwrap(),
            Some(Incoming::Body(b"{}".to_vec()))
        );
        assert!(matches!(
            read_message(&mut reader, &mut resync).unwrap(),
            Some(Incoming::Unreadable(_))
        ));
        // A length too large: answered at once, and what follows is skipped up to the
        // next header (there is none: the end).
        assert!(matches!(
            read_message(&mut reader, &mut resync).unwrap(),
            Some(Incoming::Unreadable(_))
        ));
        assert_eq!(read_message(&mut reader, &mut resync).unwrap(), None);
        let endless = vec![b'x'; 10 * MAX_HEADER_LINE];
        for keep in [Keep::Head, Keep::Tail] {
            let mut reader = io::BufReader::new(&endless[..]);
            let line = read_header_line(&mut reader, MAX_HEADER_LINE, keep)
                .unwrap()
                .unwrap();
            assert!(line.len() <= 2 * MAX_HEADER_LINE);
        }
    }
}
