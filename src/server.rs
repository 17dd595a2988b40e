//! `reqlint server`: a Language Server Protocol server over standard input and output.
//! It publishes diagnostics when a document is opened, changed or saved, from the text
//! the editor holds (not the disk), with the config found for each file.

use std::collections::HashMap;
use std::io::{self, BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

use serde_json::{Value, json};

use crate::diagnostic::Severity;
use crate::engine::{self, Settings};
use crate::loading::{Limits, LineIndex};
use crate::model::config::Config;
use crate::model::context::ContextIndex;

/// Reads one message (`Content-Length` framing); `None` at the end of the input.
fn read_message(reader: &mut impl BufRead) -> io::Result<Option<Value>> {
    let mut length = None;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line)? == 0 {
            return Ok(None);
        }
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some(v) = line.strip_prefix("Content-Length:") {
            length = v.trim().parse::<usize>().ok();
        }
    }
    let Some(length) = length else {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            "a message without Content-Length",
        ));
    };
    let mut body = vec![0; length];
    reader.read_exact(&mut body)?;
    serde_json::from_slice(&body)
        .map(Some)
        .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))
}

fn send(out: &mut impl Write, message: &Value) -> io::Result<()> {
    let body = serde_json::to_string(message)?;
    write!(out, "Content-Length: {}\r\n\r\n{body}", body.len())?;
    out.flush()
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

/// Settings per config file, read once.
#[derive(Default)]
struct Configs {
    by_path: HashMap<Option<PathBuf>, Result<Arc<Settings>, String>>,
}

impl Configs {
    fn for_file(&mut self, file: &Path) -> Result<Arc<Settings>, String> {
        let dir = file.parent().unwrap_or(Path::new("/"));
        let config_path = Config::discover(dir);
        self.by_path
            .entry(config_path.clone())
            .or_insert_with(|| load_settings(config_path.as_deref(), dir).map(Arc::new))
            .clone()
    }
}

fn load_settings(config_path: Option<&Path>, dir: &Path) -> Result<Settings, String> {
    let names = crate::rules::names();
    let config = match config_path {
        Some(p) => Config::load(p, &names)?,
        None => Config::defaults(dir.to_path_buf()),
    };
    crate::rules::codehost::validate_config_tokens(&config)?;
    let mut context = ContextIndex::default();
    for pattern in &config.context {
        for file in crate::model::context::expand_context_glob(&config.root, pattern)? {
            context.add_file(&file)?;
        }
    }
    Ok(Settings {
        config,
        context,
        limits: Limits::DEFAULT,
    })
}

struct Server {
    configs: Configs,
}

impl Server {
    /// The diagnostics of a document, as LSP `Diagnostic`s.
    fn diagnostics(&mut self, uri: &str, text: &str) -> Vec<Value> {
        let Some(path) = uri_to_path(uri) else {
            return Vec::new();
        };
        let settings = match self.configs.for_file(&path) {
            Ok(s) => s,
            Err(message) => {
                return vec![json!({
                    "range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}},
                    "severity": 1,
                    "source": "reqlint",
                    "message": format!("reqlint cannot read its config: {message}"),
                })];
            }
        };
        let root = crate::walk::absolute(Path::new("/"), &settings.config.root);
        let rel = path.strip_prefix(&root).unwrap_or(&path).to_path_buf();
        let config = &settings.config;
        // Editors send every YAML and JSON file: lint those the config would lint.
        if !config.include.is_match(&rel) || config.exclude.is_match(&rel) {
            return Vec::new();
        }
        let display = path.to_string_lossy().into_owned();
        let result = engine::lint_bytes(&display, &rel, text.as_bytes().to_vec(), &settings);
        let lines = LineIndex::new(text);
        result
            .diagnostics
            .iter()
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
                json!({
                    "range": {
                        "start": lsp_position(text, &lines, d.span.start),
                        "end": lsp_position(text, &lines, d.span.end),
                    },
                    "severity": severity,
                    "code": d.rule,
                    "source": "reqlint",
                    "message": message,
                })
            })
            .collect()
    }

    fn publish(&mut self, out: &mut impl Write, uri: &str, text: &str) -> io::Result<()> {
        let diagnostics = self.diagnostics(uri, text);
        send(
            out,
            &json!({
                "jsonrpc": "2.0",
                "method": "textDocument/publishDiagnostics",
                "params": {"uri": uri, "diagnostics": diagnostics},
            }),
        )
    }
}

/// Runs the server until `exit`. Exit code 0 after `shutdown`, 1 otherwise (LSP).
pub fn run() -> Result<ExitCode, String> {
    let stdin = io::stdin();
    let mut reader = BufReader::new(stdin.lock());
    let stdout = io::stdout();
    let mut out = stdout.lock();
    let mut server = Server {
        configs: Configs::default(),
    };
    let mut documents: HashMap<String, String> = HashMap::new();
    let mut shut_down = false;
    let io_error = |e: io::Error| format!("language server: {e}");
    while let Some(message) = read_message(&mut reader).map_err(io_error)? {
        let method = message["method"].as_str().unwrap_or_default();
        let id = message.get("id").cloned();
        let params = &message["params"];
        let uri = params["textDocument"]["uri"]
            .as_str()
            .unwrap_or_default()
            .to_string();
        match method {
            "initialize" => send(
                &mut out,
                &json!({"jsonrpc": "2.0", "id": id, "result": {
                    "capabilities": {
                        "textDocumentSync": {"openClose": true, "change": 1, "save": {"includeText": true}},
                    },
                    "serverInfo": {"name": "reqlint", "version": env!("CARGO_PKG_VERSION")},
                }}),
            )
            .map_err(io_error)?,
            "textDocument/didOpen" => {
                let text = params["textDocument"]["text"].as_str().unwrap_or_default().to_string();
                server.publish(&mut out, &uri, &text).map_err(io_error)?;
                documents.insert(uri, text);
            }
            "textDocument/didChange" => {
                // Full synchronization: the last change holds the whole text.
                if let Some(text) = params["contentChanges"].as_array().and_then(|c| c.last()).and_then(|c| c["text"].as_str()) {
                    server.publish(&mut out, &uri, text).map_err(io_error)?;
                    documents.insert(uri, text.to_string());
                }
            }
            "textDocument/didSave" => {
                if let Some(text) = params["text"].as_str() {
                    documents.insert(uri.clone(), text.to_string());
                }
                if let Some(text) = documents.get(&uri).cloned() {
                    server.publish(&mut out, &uri, &text).map_err(io_error)?;
                }
            }
            "textDocument/didClose" => {
                documents.remove(&uri);
                send(
                    &mut out,
                    &json!({"jsonrpc": "2.0", "method": "textDocument/publishDiagnostics", "params": {"uri": uri, "diagnostics": []}}),
                )
                .map_err(io_error)?;
            }
            "shutdown" => {
                shut_down = true;
                send(&mut out, &json!({"jsonrpc": "2.0", "id": id, "result": null})).map_err(io_error)?;
            }
            "exit" => return Ok(if shut_down { ExitCode::SUCCESS } else { ExitCode::from(1) }),
            _ => {
                // Requests the server does not offer get an error; notifications are ignored.
                if let Some(id) = id {
                    send(
                        &mut out,
                        &json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32601, "message": format!("reqlint does not handle {method}")}}),
                    )
                    .map_err(io_error)?;
                }
            }
        }
    }
    Ok(if shut_down {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

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

    #[test]
    fn framing() {
        let input = b"Content-Length: 17\r\n\r\n{\"jsonrpc\":\"2.0\"}";
        let mut reader = io::BufReader::new(&input[..]);
        assert_eq!(
            read_message(&mut reader).unwrap(),
            Some(json!({"jsonrpc": "2.0"}))
        );
        assert_eq!(read_message(&mut reader).unwrap(), None);
    }
}
