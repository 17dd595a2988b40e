//! `textDocument/codeAction`: a quick fix for each fixable diagnostic in the range,
//! "disable the rule for this line" for each diagnostic there (in the formats with `#`
//! comments), and "fix all safe fixes" for the document.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use lsp_types::{
    CodeAction, CodeActionKind, CodeActionOrCommand, CodeActionParams, CodeActionResponse,
    TextEdit, Uri, WorkspaceEdit,
};

use super::documents::{lint_in_config, lsp_diagnostic};
use super::positions::{Positions, file_uri, uri_to_path};
use super::server::{FIX_ALL_KIND, Linted, Server};
use crate::diagnostic::{Applicability, Diagnostic, Fix};
use crate::engine::{self, Settings};
use crate::loading::Span;

/// The "disable for this line" actions a code action request checks (each by linting
/// the document with the comment put in): a request over a whole document with a
/// thousand findings costs this many lints, not one per finding.
pub const MAX_DISABLE_CHECKS: usize = 16;

/// Whether `comment`, put in as a line at `line_start`, silences `d` and brings nothing
/// new: it is no comment inside a JSON body or a string, where it would break the file
/// or change a value.
fn silences(
    settings: &Settings,
    uri: &Uri,
    text: &str,
    before: &engine::FileResult,
    d: &Diagnostic,
    line_start: usize,
    comment: &str,
) -> bool {
    let Some(path) = uri_to_path(uri.as_str()) else {
        return false;
    };
    let candidate = format!("{}{comment}{}", &text[..line_start], &text[line_start..]);
    let Some((after, _)) = lint_in_config(settings, &path, &candidate) else {
        return false;
    };
    let moved = |span: Span| {
        if span.start >= line_start {
            Span::new(span.start + comment.len(), span.end + comment.len())
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

/// An action that edits files: their URIs and edits.
// `lsp_types::Uri` holds a cell (where fluent-uri keeps its authority's start), but it hashes
// and compares its text only: a safe key, as `WorkspaceEdit` makes it.
#[expect(clippy::mutable_key_type)]
fn action(title: String, kind: CodeActionKind, changes: HashMap<Uri, Vec<TextEdit>>) -> CodeAction {
    CodeAction {
        title,
        kind: Some(kind),
        edit: Some(WorkspaceEdit::new(changes)),
        ..CodeAction::default()
    }
}

/// The texts of the files other than the document that a request's fixes edit (the
/// config), with their lines: read and indexed once a request, however many edits.
struct OtherFiles<'a> {
    /// The documents open in the editor.
    open: &'a HashMap<Uri, String>,
    settings: &'a Settings,
    utf8: bool,
    read: HashMap<PathBuf, Option<Positions>>,
}

impl OtherFiles<'_> {
    /// `file` as the editor holds it where it is open, else as it is on disk. The edits'
    /// offsets are into the config as the settings read it: none for a config changed
    /// since (an edit would land elsewhere).
    fn positions(&mut self, file: &Path) -> Option<&Positions> {
        let (open, settings, utf8) = (self.open, self.settings, self.utf8);
        self.read
            .entry(file.to_path_buf())
            .or_insert_with(|| {
                let text = match file_uri(file).and_then(|u| open.get(&u)) {
                    Some(text) => text.clone(),
                    None => std::fs::read_to_string(file).ok()?,
                };
                if settings.config.path.as_deref() == Some(file) && text != settings.config.text {
                    return None;
                }
                Some(Positions::new(text, utf8))
            })
            .as_ref()
    }
}

/// A fix's edits by file; none when one of them cannot be placed.
// A map keyed by `lsp_types::Uri`: see `action`.
#[expect(clippy::mutable_key_type)]
fn fix_changes(
    fix: &Fix,
    uri: &Uri,
    document: &Positions,
    others: &mut OtherFiles,
) -> Option<HashMap<Uri, Vec<TextEdit>>> {
    let mut changes: HashMap<Uri, Vec<TextEdit>> = HashMap::new();
    for e in &fix.edits {
        let (target, positions) = match &e.file {
            None => (uri.clone(), document),
            Some(file) => (file_uri(file)?, others.positions(file)?),
        };
        let edit = TextEdit::new(positions.range(e.span), e.replacement.clone());
        changes.entry(target).or_default().push(edit);
    }
    Some(changes)
}

impl Server {
    pub(super) fn code_actions(&mut self, params: CodeActionParams) -> CodeActionResponse {
        let uri = params.text_document.uri;
        let Some(text) = self.text_of(&uri) else {
            return Vec::new();
        };
        let Some(linted) = self.lint_document(&uri, &text) else {
            return Vec::new();
        };
        let Linted {
            result,
            settings,
            rel,
            ..
        } = &*linted;
        let utf8 = self.utf8;
        let document = Positions::new(text, utf8);
        let (text, lines) = (document.text(), document.lines());
        // Each (line, rule) is checked once, and at most MAX_DISABLE_CHECKS of them.
        let mut disable_checked: HashSet<(usize, &str)> = HashSet::new();
        let mut others = OtherFiles {
            open: &self.documents,
            settings,
            utf8,
            read: HashMap::new(),
        };
        let start = document.offset(params.range.start);
        let end = document.offset(params.range.end);
        let only = params.context.only.unwrap_or_default();
        let wants =
            |kind: &str| only.is_empty() || only.iter().any(|o| kind.starts_with(o.as_str()));
        let mut actions = Vec::new();
        let comments = crate::loading::Format::from_path(&rel.to_string_lossy()).has_comments();
        for d in &result.diagnostics {
            let touches = d.span.start <= end && start <= d.span.end;
            if !touches {
                continue;
            }
            let diagnostic = lsp_diagnostic(d, document.range(d.span));
            let fix = d.fix.as_ref().filter(|_| wants("quickfix"));
            if let Some((fix, changes)) =
                fix.and_then(|fix| Some((fix, fix_changes(fix, &uri, &document, &mut others)?)))
            {
                let mut quick_fix = action(
                    format!("{} ({})", fix.message, d.rule),
                    CodeActionKind::QUICKFIX,
                    changes,
                );
                quick_fix.diagnostics = Some(vec![diagnostic.clone()]);
                quick_fix.is_preferred = Some(fix.applicability == Applicability::Safe);
                actions.push(CodeActionOrCommand::CodeAction(quick_fix));
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
                let newline = crate::model::edits::line_break(text, line_start);
                let comment = format!("{indent}# reqlint: ignore[{}]{newline}", d.rule);
                if silences(settings, &uri, text, result, d, line_start, &comment) {
                    let at = document.range(Span::empty(line_start));
                    let edit = TextEdit::new(at, comment);
                    let mut disable = action(
                        format!("Disable {} for this line", d.rule),
                        CodeActionKind::QUICKFIX,
                        HashMap::from([(uri.clone(), vec![edit])]),
                    );
                    disable.diagnostics = Some(vec![diagnostic]);
                    actions.push(CodeActionOrCommand::CodeAction(disable));
                }
            }
        }
        let any_safe_fix = result.diagnostics.iter().any(|d| {
            d.fix
                .as_ref()
                .is_some_and(|f| f.applicability == Applicability::Safe)
        });
        if wants(FIX_ALL_KIND) && any_safe_fix {
            let display = rel.to_string_lossy().into_owned();
            let fixed =
                crate::engine::fix_text(&display, rel, text, settings, crate::fix::Mode::Safe);
            if fixed.applied > 0 {
                let whole = document.range(Span::new(0, text.len()));
                let edit = TextEdit::new(whole, fixed.text);
                actions.push(CodeActionOrCommand::CodeAction(action(
                    format!("Fix all safe fixes in the file ({})", fixed.applied),
                    CodeActionKind::new(FIX_ALL_KIND),
                    HashMap::from([(uri.clone(), vec![edit])]),
                )));
            }
        }
        actions
    }
}

#[cfg(test)]
mod tests {
    use std::rc::Rc;

    use serde_json::json;

    use super::*;
    use crate::lsp::path_to_uri;
    use crate::lsp::tests::initialized_server;

    #[test]
    fn a_code_action_over_a_whole_document_costs_work_linear_in_it() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join(".reqlint.yaml"), "").unwrap();
        let uri = path_to_uri(&dir.path().join("many.http"));
        let key: Uri = uri.parse().unwrap();
        let work_for = |n: usize| {
            // A finding on every request: an endpoint the code-hosting API does not have.
            let text = "GET https://api.github.com/user/emailz\n\n###\n\n".repeat(n);
            let (mut server, mut out) = initialized_server();
            let open = json!({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {"uri": uri, "languageId": "http", "version": 1, "text": text}}});
            server
                .handle(&mut out, open.to_string().as_bytes())
                .unwrap();
            let diagnostics = server.lints[&key].result.diagnostics.len();
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
        let (mut server, mut out) = initialized_server();
        let open = json!({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {"uri": uri, "languageId": "http", "version": 1, "text": "GET https://api.github.com/user/emailz\n"}}});
        server
            .handle(&mut out, open.to_string().as_bytes())
            .unwrap();
        let hover = json!({"jsonrpc": "2.0", "id": 3, "method": "textDocument/hover", "params": {"textDocument": {"uri": uri}, "position": {"line": 0, "character": 30}}});
        let before = Rc::clone(&server.lints[&key]);
        server
            .handle(&mut out, hover.to_string().as_bytes())
            .unwrap();
        assert!(Rc::ptr_eq(&before, &server.lints[&key]));
    }
}
