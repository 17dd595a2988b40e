//! The open documents: their text as the client synchronizes it (full text on open,
//! change and save), linted from that text (not the disk) with the config found for each
//! file, once per text; and their diagnostics in LSP terms.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::rc::Rc;

use lsp_types::notification::PublishDiagnostics;
use lsp_types::{
    CodeDescription, Diagnostic, DiagnosticRelatedInformation, DiagnosticSeverity,
    DidChangeTextDocumentParams, DidChangeWatchedFilesParams, DidCloseTextDocumentParams,
    DidOpenTextDocumentParams, DidSaveTextDocumentParams, Location, NumberOrString, Position,
    PublishDiagnosticsParams, Range, Uri,
};

use super::positions::{Positions, uri_to_path};
use super::server::{Linted, Server};
use crate::diagnostic::Severity;
use crate::docs::rules::rule_docs_url;
use crate::engine::{self, Settings};

/// Lints an open document at `path` with its config, and its path relative to the
/// config's root; none when the config would not lint it (editors send every YAML and
/// JSON file).
pub fn lint_in_config(
    settings: &Settings,
    path: &Path,
    text: &str,
) -> Option<(engine::FileResult, PathBuf)> {
    let root = crate::run::walk::absolute(Path::new("/"), &settings.config.root);
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

/// The LSP form of a diagnostic's place, rule and message (what a code action names).
pub fn lsp_diagnostic(d: &crate::diagnostic::Diagnostic, range: Range) -> Diagnostic {
    Diagnostic {
        range,
        code: Some(NumberOrString::String(d.rule.to_string())),
        source: Some("reqlint".to_string()),
        message: d.message.clone(),
        ..Diagnostic::default()
    }
}

impl Server {
    /// The text the editor holds of an open document.
    pub(super) fn text_of(&self, uri: &Uri) -> Option<String> {
        self.documents.get(uri).cloned()
    }

    /// The result of linting a document the way `diagnostics` does, with its settings:
    /// the last one, if it was made from this text (settings read again clear them all).
    pub(super) fn lint_document(&mut self, uri: &Uri, text: &str) -> Option<Rc<Linted>> {
        if let Some(linted) = self.lints.get(uri).filter(|l| l.text == text) {
            return Some(Rc::clone(linted));
        }
        let path = uri_to_path(uri.as_str())?;
        let settings = self.configs.for_file(&path).ok()?;
        let (result, rel) = lint_in_config(&settings, &path, text)?;
        let linted = Rc::new(Linted {
            text: text.to_string(),
            result,
            settings,
            rel,
        });
        self.lints.insert(uri.clone(), Rc::clone(&linted));
        Some(linted)
    }

    /// The diagnostics of a document, as LSP `Diagnostic`s.
    fn diagnostics(&mut self, uri: &Uri, text: &str) -> Vec<Diagnostic> {
        let Some(path) = uri_to_path(uri.as_str()) else {
            return Vec::new();
        };
        if let Err(message) = self.configs.for_file(&path) {
            // Shown as every other text: through the one redaction step.
            let message = crate::redact::Redactor::none()
                .line(&format!("reqlint cannot read its config: {message}"));
            let start = Position::new(0, 0);
            return vec![Diagnostic {
                range: Range::new(start, start),
                severity: Some(DiagnosticSeverity::ERROR),
                source: Some("reqlint".to_string()),
                message,
                ..Diagnostic::default()
            }];
        }
        let Some(linted) = self.lint_document(uri, text) else {
            return Vec::new();
        };
        // What a run says once is said once in a document too (as keep_first_of_run).
        let mut seen = HashSet::new();
        let positions = Positions::new(text.to_string(), self.utf8);
        linted
            .result
            .diagnostics
            .iter()
            .filter(|d| !d.once_per_run || seen.insert((d.rule, d.message.clone())))
            .map(|d| {
                let severity = match d.severity {
                    Severity::Error => DiagnosticSeverity::ERROR,
                    Severity::Warning => DiagnosticSeverity::WARNING,
                    Severity::Info => DiagnosticSeverity::INFORMATION,
                };
                let mut message = d.message.clone();
                if let Some(help) = &d.help {
                    message.push_str(&format!("\nhelp: {help}"));
                }
                let related: Vec<DiagnosticRelatedInformation> = d
                    .labels
                    .iter()
                    .map(|l| DiagnosticRelatedInformation {
                        location: Location::new(uri.clone(), positions.range(l.span)),
                        message: l.message.clone(),
                    })
                    .collect();
                Diagnostic {
                    severity: Some(severity),
                    code_description: rule_docs_url(d.rule)
                        .parse()
                        .ok()
                        .map(|href| CodeDescription { href }),
                    message,
                    related_information: (!related.is_empty()).then_some(related),
                    ..lsp_diagnostic(d, positions.range(d.span))
                }
            })
            .collect()
    }

    /// Sends the diagnostics of an open document.
    pub(super) fn publish(&mut self, uri: &Uri) {
        let text = self.text_of(uri).unwrap_or_default();
        let diagnostics = self.diagnostics(uri, &text);
        self.notify::<PublishDiagnostics>(PublishDiagnosticsParams::new(
            uri.clone(),
            diagnostics,
            None,
        ));
    }

    /// Settings changed on disk: read them again and lint every open document anew.
    pub(super) fn reload(&mut self) {
        self.configs.forget();
        self.lints.clear();
        let mut uris: Vec<Uri> = self.documents.keys().cloned().collect();
        uris.sort();
        for uri in uris {
            self.publish(&uri);
        }
    }

    pub(super) fn watched_files_changed(&mut self, params: DidChangeWatchedFilesParams) {
        let changed = params
            .changes
            .iter()
            .any(|c| uri_to_path(c.uri.as_str()).is_some_and(|p| self.configs.is_source(&p)));
        if changed {
            self.reload();
        }
    }

    pub(super) fn opened(&mut self, params: DidOpenTextDocumentParams) {
        let document = params.text_document;
        self.documents.insert(document.uri.clone(), document.text);
        self.publish(&document.uri);
    }

    pub(super) fn changed(&mut self, params: DidChangeTextDocumentParams) {
        // Full synchronization: the last change holds the whole text.
        if let Some(change) = params.content_changes.into_iter().last() {
            let uri = params.text_document.uri;
            self.documents.insert(uri.clone(), change.text);
            self.publish(&uri);
        }
    }

    pub(super) fn saved(&mut self, params: DidSaveTextDocumentParams) {
        let uri = params.text_document.uri;
        if let Some(text) = params.text {
            self.documents.insert(uri.clone(), text);
        }
        // Saving the config or a snapshot in the editor changes the settings.
        if uri_to_path(uri.as_str()).is_some_and(|p| self.configs.is_source(&p)) {
            self.reload();
        } else if self.documents.contains_key(&uri) {
            self.publish(&uri);
        }
    }

    pub(super) fn closed(&mut self, params: DidCloseTextDocumentParams) {
        let uri = params.text_document.uri;
        self.documents.remove(&uri);
        self.lints.remove(&uri);
        self.notify::<PublishDiagnostics>(PublishDiagnosticsParams::new(uri, Vec::new(), None));
    }
}
