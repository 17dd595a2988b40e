//! miette's graphical report: code frames pointing at the very key or value.

use std::fmt;
use std::io::{self, Write};
use std::sync::Arc;

use miette::{
    GraphicalReportHandler, GraphicalTheme, LabeledSpan, MietteError, MietteSpanContents,
    SourceCode, SourceSpan, SpanContents,
};

use crate::diagnostic::{Diagnostic, Label, Severity};
use crate::engine::FileResult;
use crate::loading::{LineIndex, Span};

use super::Summary;

/// A file's text for miette, read a window at a time: only the lines around a span
/// are scanned, so a diagnostic at the end of a large file costs no more than one at
/// its start.
struct FileSource {
    name: String,
    /// The text with secrets masked, which is what frames show.
    text: Arc<str>,
    /// The text as read, for character columns.
    original: Arc<str>,
    index: Arc<LineIndex>,
}

impl SourceCode for FileSource {
    fn read_span<'a>(
        &'a self,
        span: &SourceSpan,
        before: usize,
        after: usize,
    ) -> Result<Box<dyn SpanContents<'a> + 'a>, MietteError> {
        let start = span.offset().min(self.text.len());
        let end = (span.offset() + span.len()).min(self.text.len());
        let first = self.index.line_of(start).saturating_sub(before);
        let last = (self.index.line_of(end) + after).min(self.index.line_count() - 1);
        let win_start = self.index.line_start(first);
        let win_end = if last + 1 < self.index.line_count() {
            self.index.line_start(last + 1)
        } else {
            self.text.len()
        };
        let window = &self.text[win_start..win_end];
        let local = SourceSpan::new((start - win_start).into(), end - start);
        let inner = window.read_span(&local, before, after)?;
        let data = inner.data();
        let data_offset = inner.span().offset() + win_start;
        // miette counts the header's column in bytes; SPEC columns count characters.
        let column = if before == 0 && after == 0 {
            self.index.position(&self.original, start).column - 1
        } else {
            inner.column()
        };
        Ok(Box::new(MietteSpanContents::new_named(
            self.name.clone(),
            data,
            SourceSpan::new(data_offset.into(), inner.span().len()),
            inner.line() + first,
            column,
            inner.line_count(),
        )))
    }
}

struct Report<'a> {
    diagnostic: &'a Diagnostic,
    source: &'a FileSource,
    help: Option<String>,
    /// Labels shown in the diagnostic's own frame.
    near: Vec<&'a Label>,
    /// Labels too far above the diagnostic to share its frame.
    far: Vec<Related<'a>>,
}

impl fmt::Debug for Report<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.diagnostic.message)
    }
}

impl fmt::Display for Report<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.diagnostic.message)
    }
}

impl std::error::Error for Report<'_> {}

impl miette::Diagnostic for Report<'_> {
    fn code<'b>(&'b self) -> Option<Box<dyn fmt::Display + 'b>> {
        Some(Box::new(self.diagnostic.rule))
    }

    fn severity(&self) -> Option<miette::Severity> {
        Some(match self.diagnostic.severity {
            Severity::Error => miette::Severity::Error,
            Severity::Warning => miette::Severity::Warning,
            Severity::Info => miette::Severity::Advice,
        })
    }

    fn help<'b>(&'b self) -> Option<Box<dyn fmt::Display + 'b>> {
        self.help
            .as_ref()
            .map(|h| Box::new(h) as Box<dyn fmt::Display>)
    }

    fn source_code(&self) -> Option<&dyn SourceCode> {
        Some(self.source)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        let d = self.diagnostic;
        let primary = LabeledSpan::new_primary_with_span(
            Some(if d.secret {
                "secret (masked)".to_string()
            } else {
                "here".to_string()
            }),
            SourceSpan::new(d.span.start.into(), d.span.len()),
        );
        let extra = self.near.iter().map(|l| {
            LabeledSpan::new_with_span(
                Some(l.message.clone()),
                SourceSpan::new(l.span.start.into(), l.span.len()),
            )
        });
        Some(Box::new(std::iter::once(primary).chain(extra)))
    }

    fn related<'b>(&'b self) -> Option<Box<dyn Iterator<Item = &'b dyn miette::Diagnostic> + 'b>> {
        if self.far.is_empty() {
            return None;
        }
        Some(Box::new(
            self.far.iter().map(|r| r as &dyn miette::Diagnostic),
        ))
    }
}

/// Whether a label can be shown with its diagnostic's own frame. miette shows frames in
/// the order of the file and its header gives the first frame's position, so a label in
/// a frame of its own above the diagnostic would take the header: it gets a frame after
/// the diagnostic's instead ([`Related`]).
fn shares_frame(index: &LineIndex, primary: Span, label: Span) -> bool {
    let primary_first = index.line_of(primary.start);
    let label_last = index.line_of(label.end);
    // miette shows one line of context around a span and joins frames that touch.
    label.start >= primary.start || label_last + 3 >= primary_first
}

/// A label shown in a frame of its own, after the diagnostic it belongs to.
struct Related<'a> {
    message: &'a str,
    span: Span,
    source: &'a FileSource,
}

impl fmt::Debug for Related<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.message)
    }
}

impl fmt::Display for Related<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.message)
    }
}

impl std::error::Error for Related<'_> {}

impl miette::Diagnostic for Related<'_> {
    fn severity(&self) -> Option<miette::Severity> {
        Some(miette::Severity::Advice)
    }

    fn source_code(&self) -> Option<&dyn SourceCode> {
        Some(self.source)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        Some(Box::new(std::iter::once(
            LabeledSpan::new_primary_with_span(
                None,
                SourceSpan::new(self.span.start.into(), self.span.len()),
            ),
        )))
    }
}

pub fn write(
    results: &[FileResult],
    summary: Summary,
    color: bool,
    out: &mut dyn Write,
) -> io::Result<()> {
    let theme = if color {
        GraphicalTheme::unicode()
    } else {
        GraphicalTheme::unicode_nocolor()
    };
    let handler = GraphicalReportHandler::new_themed(theme)
        .with_links(false)
        .with_width(100);
    for r in results {
        let Some(text) = &r.text else { continue };
        if r.diagnostics.is_empty() {
            continue;
        }
        let source = FileSource {
            name: r.path.clone(),
            text: super::redacted(r),
            original: text.clone(),
            index: Arc::new(LineIndex::new(text)),
        };
        for d in &r.diagnostics {
            let help = match (&d.help, d.api_error) {
                (Some(h), Some(e)) => Some(format!("{h}\nthe API answers {}", api_error_text(e))),
                (None, Some(e)) => Some(format!("the API answers {}", api_error_text(e))),
                (h, None) => h.clone(),
            };
            let (near, far): (Vec<&Label>, Vec<&Label>) = d
                .labels
                .iter()
                .partition(|l| shares_frame(&source.index, d.span, l.span));
            let report = Report {
                diagnostic: d,
                source: &source,
                help,
                near,
                far: far
                    .into_iter()
                    .map(|l| Related {
                        message: &l.message,
                        span: l.span,
                        source: &source,
                    })
                    .collect(),
            };
            let mut rendered = String::new();
            if handler.render_report(&mut rendered, &report).is_err() {
                rendered = format!("{}: {}[{}]: {}\n", r.path, d.severity, d.rule, d.message);
            }
            out.write_all(rendered.as_bytes())?;
            writeln!(out)?;
        }
    }
    writeln!(out, "{}", summary.sentence())
}

fn api_error_text(e: crate::diagnostic::ApiError) -> String {
    match e.subcode {
        Some(sub) => format!("error {} (subcode {sub})", e.code),
        None => format!("error {}", e.code),
    }
}
