//! Reports: turn results into text. A report never decides what is wrong.

pub mod concise;
pub mod github;
pub mod human;
pub mod json;
pub mod sarif;

use crate::diagnostic::Severity;
use crate::engine::FileResult;

/// A path as shown to the user, relative to the working directory where it lies below.
pub use crate::files::relative_to_cwd;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Summary {
    pub files: usize,
    pub requests: usize,
    /// Requests no API checks (to hosts reqlint does not know): counted, not judged.
    #[serde(skip_serializing_if = "is_zero")]
    pub unjudged: usize,
    pub errors: usize,
    pub warnings: usize,
    pub infos: usize,
    /// Diagnostics with a safe fix (`--fix` applies them), and with an unsafe one. The
    /// JSON summary keeps to the fields of its documented format; a diagnostic's `fix`
    /// tells these.
    #[serde(skip)]
    pub fixable: usize,
    #[serde(skip)]
    pub unsafe_fixable: usize,
    /// Fixes applied by this run (`--fix`).
    #[serde(skip)]
    pub fixed: usize,
    /// `--unsafe-fixes` was given: the unsafe fixes count as fixable, with both flags.
    #[serde(skip)]
    pub unsafe_fixes: bool,
    /// Findings `--baseline` left out of the report.
    #[serde(skip)]
    pub baselined: usize,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

impl Summary {
    /// The summary of a run: `files` and `requests` count every file read, the results
    /// only those with something to report.
    pub fn new(results: &[FileResult], files: usize, requests: usize) -> Summary {
        let mut s = Summary {
            files,
            requests,
            ..Summary::default()
        };
        for d in results.iter().flat_map(|r| &r.diagnostics) {
            match d.severity {
                Severity::Error => s.errors += 1,
                Severity::Warning => s.warnings += 1,
                Severity::Info => s.infos += 1,
            }
            match d.fix.as_ref().map(|f| f.applicability) {
                Some(crate::diagnostic::Applicability::Safe) => s.fixable += 1,
                Some(crate::diagnostic::Applicability::Unsafe) => s.unsafe_fixable += 1,
                None => {}
            }
        }
        s
    }

    /// What `--fix` did and could do, after the sentence: `; 2 fixed, 1 fixable with
    /// `--fix` (1 more with `--unsafe-fixes`)`.
    fn fixes(&self) -> String {
        let mut parts = Vec::new();
        if self.baselined > 0 {
            parts.push(format!(
                "{} hidden by the baseline",
                if self.baselined == 1 {
                    "1 finding".to_string()
                } else {
                    format!("{} findings", self.baselined)
                }
            ));
        }
        if self.fixed > 0 {
            parts.push(format!("{} fixed", self.fixed));
        }
        if self.unsafe_fixes {
            let n = self.fixable + self.unsafe_fixable;
            if n > 0 {
                parts.push(format!("[*] {n} fixable with `--fix --unsafe-fixes`"));
            }
        } else if self.fixable > 0 {
            parts.push(format!("[*] {} fixable with `--fix`", self.fixable));
            if self.unsafe_fixable > 0 {
                parts.push(format!(
                    "{} more with `--unsafe-fixes`",
                    self.unsafe_fixable
                ));
            }
        } else if self.unsafe_fixable > 0 {
            // Nothing is fixable with `--fix` alone: "more" would follow nothing.
            parts.push(format!(
                "{} fixable with `--fix --unsafe-fixes`",
                self.unsafe_fixable
            ));
        }
        if parts.is_empty() {
            String::new()
        } else {
            format!(" ({})", parts.join("; "))
        }
    }

    /// One line for people: `Found 2 errors and 1 warning in 3 files (5 requests).`
    pub fn sentence(&self) -> String {
        let plural = |n: usize, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
        let unjudged = if self.unjudged > 0 {
            format!(
                "; {} to hosts reqlint does not check",
                plural(self.unjudged, "request")
            )
        } else {
            String::new()
        };
        let scope = format!(
            "{} ({}{unjudged})",
            plural(self.files, "file"),
            plural(self.requests, "request")
        );
        let mut parts = Vec::new();
        if self.errors > 0 {
            parts.push(plural(self.errors, "error"));
        }
        if self.warnings > 0 {
            parts.push(plural(self.warnings, "warning"));
        }
        if self.infos > 0 {
            parts.push(plural(self.infos, "info"));
        }
        let fixes = self.fixes();
        match parts.len() {
            0 => format!("All checks passed: {scope}{fixes}."),
            1 => format!("Found {} in {scope}{fixes}.", parts[0]),
            _ => {
                let last = parts.pop().unwrap_or_default();
                format!("Found {} and {last} in {scope}{fixes}.", parts.join(", "))
            }
        }
    }
}

/// The text with every secret span masked, so code frames never show a secret, whether
/// or not a rule reported it.
pub fn redacted(result: &FileResult) -> std::sync::Arc<str> {
    let text = result
        .text
        .clone()
        .unwrap_or_else(|| std::sync::Arc::from(""));
    if result.secrets.is_empty() {
        return text;
    }
    std::sync::Arc::from(crate::redact::mask_spans(&text, &result.secrets))
}

/// A file's name as the text reports show it: control characters escaped and
/// credential-shaped words masked, as every other shown text.
pub fn shown_path(path: &str) -> String {
    crate::redact::Redactor::none().line(path)
}
