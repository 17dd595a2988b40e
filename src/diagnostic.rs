//! What a rule reports: the one currency between rules and reports.

use std::fmt;

use serde::Serialize;

use crate::loading::Span;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Info,
    Warning,
    Error,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Info => "info",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }

    pub fn parse(text: &str) -> Option<Severity> {
        match text {
            "info" => Some(Severity::Info),
            "warning" => Some(Severity::Warning),
            "error" => Some(Severity::Error),
            _ => None,
        }
    }
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The error the API would answer, where the vendor's reference names one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct ApiError {
    pub code: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub subcode: Option<u32>,
}

/// Whether applying a fix keeps what the request does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Applicability {
    /// Keeps the request's meaning (a misspelt name with one close candidate, a method
    /// in lower case): `--fix` applies it.
    Safe,
    /// Changes what the request does (removing a permission, dropping a param): only
    /// with `--unsafe-fixes`.
    Unsafe,
}

/// One text edit: the bytes of `span` replaced by `replacement` (an empty span inserts).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Edit {
    #[serde(skip)]
    pub span: Span,
    pub replacement: String,
    /// Another file than the diagnostic's (the config, for a token named from it).
    #[serde(skip)]
    pub file: Option<std::path::PathBuf>,
}

/// How to fix a diagnostic: edits by byte span, of the diagnostic's own file unless an
/// edit names another, that never overlap each other; they keep comments, quoting and
/// indentation (no re-serialisation).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fix {
    pub applicability: Applicability,
    /// What the fix does, for reports and the editor's quick fix: "replace `nmae` with
    /// `name`".
    pub message: String,
    pub edits: Vec<Edit>,
}

impl Fix {
    pub fn safe(message: impl Into<String>, edits: Vec<Edit>) -> Fix {
        Fix {
            applicability: Applicability::Safe,
            message: message.into(),
            edits,
        }
    }

    pub fn unsafe_(message: impl Into<String>, edits: Vec<Edit>) -> Fix {
        Fix {
            applicability: Applicability::Unsafe,
            message: message.into(),
            edits,
        }
    }

    /// One replacement.
    pub fn replace(
        applicability: Applicability,
        span: Span,
        replacement: &str,
        message: impl Into<String>,
    ) -> Fix {
        Fix {
            applicability,
            message: message.into(),
            edits: vec![Edit {
                span,
                replacement: replacement.to_string(),
                file: None,
            }],
        }
    }
}

/// A secondary place that explains the diagnostic.
#[derive(Clone, Debug, PartialEq)]
pub struct Label {
    pub span: Span,
    pub message: String,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Diagnostic {
    pub rule: &'static str,
    pub severity: Severity,
    pub message: String,
    pub help: Option<String>,
    pub api_error: Option<ApiError>,
    pub span: Span,
    pub labels: Vec<Label>,
    /// The primary span holds a secret: reports must not show its text.
    pub secret: bool,
    /// Said once per run: a run keeps the first of the diagnostics of its rule with the
    /// same message (in the order of the files' paths) and drops the others.
    pub once_per_run: bool,
    /// How to fix it, where there is one right answer.
    pub fix: Option<Fix>,
}

/// What a diagnostic takes from the rule that reports it (the rules' metadata implements
/// it; this module does not depend on the rules).
pub trait Reporter {
    fn rule_name(&self) -> &'static str;
    fn default_severity(&self) -> Severity;
}

impl Diagnostic {
    /// Gives back the spare capacity of its texts and lists (`format!` may allocate twice
    /// what it writes): a run keeps every finding until the report.
    pub fn shrink(&mut self) {
        self.message.shrink_to_fit();
        if let Some(help) = &mut self.help {
            help.shrink_to_fit();
        }
        self.labels.shrink_to_fit();
        for label in &mut self.labels {
            label.message.shrink_to_fit();
        }
        if let Some(fix) = &mut self.fix {
            fix.message.shrink_to_fit();
            fix.edits.shrink_to_fit();
            for edit in &mut fix.edits {
                edit.replacement.shrink_to_fit();
            }
        }
    }

    pub fn new(meta: &impl Reporter, span: Span, message: impl Into<String>) -> Self {
        Diagnostic {
            rule: meta.rule_name(),
            severity: meta.default_severity(),
            message: message.into(),
            help: None,
            api_error: None,
            span,
            labels: Vec::new(),
            secret: false,
            once_per_run: false,
            fix: None,
        }
    }

    pub fn with_fix(mut self, fix: Fix) -> Self {
        self.fix = Some(fix);
        self
    }

    /// With the fix, where there is one.
    pub fn with_fix_opt(mut self, fix: Option<Fix>) -> Self {
        self.fix = fix;
        self
    }

    pub fn once_per_run(mut self) -> Self {
        self.once_per_run = true;
        self
    }

    pub fn with_help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }

    pub fn with_api_error(mut self, code: u32, subcode: Option<u32>) -> Self {
        self.api_error = Some(ApiError { code, subcode });
        self
    }

    pub fn with_label(mut self, span: Span, message: impl Into<String>) -> Self {
        self.labels.push(Label {
            span,
            message: message.into(),
        });
        self
    }

    pub fn with_severity(mut self, severity: Severity) -> Self {
        self.severity = severity;
        self
    }

    pub fn secret(mut self) -> Self {
        self.secret = true;
        self
    }
}

/// `text` with `edits` applied (they do not overlap).
pub fn apply_edits(text: &str, edits: &[&Edit]) -> String {
    let mut edits: Vec<&&Edit> = edits.iter().collect();
    edits.sort_by_key(|e| (e.span.start, e.span.end));
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for e in edits {
        if e.span.start < at
            || !text.is_char_boundary(e.span.start)
            || !text.is_char_boundary(e.span.end)
        {
            continue;
        }
        out.push_str(&text[at..e.span.start]);
        out.push_str(&e.replacement);
        at = e.span.end;
    }
    out.push_str(&text[at..]);
    out
}
