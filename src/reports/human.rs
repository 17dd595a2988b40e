//! miette's graphical report: code frames pointing at the very key or value.

use std::fmt;
use std::io::{self, Write};

use miette::{
    GraphicalReportHandler, GraphicalTheme, LabeledSpan, MietteError, MietteSpanContents,
    SourceCode, SourceSpan, SpanContents,
};

use crate::diagnostic::{Diagnostic, Label, Severity};
use crate::engine::FileResult;
use crate::loading::{LineIndex, Span};

use super::Summary;

/// What miette is shown of a file for one frame: the lines around the spans, each long
/// line cut to a window around them (as rustc and ruff do), control characters shown as
/// visible symbols, secrets masked; the spans mapped into it. Whatever the file, a frame
/// costs a bounded amount of work and output, and no column reaches the widths miette
/// can format (it panics past 65,535).
struct Snippet {
    name: String,
    text: String,
    /// 0-based line of the file where the snippet starts.
    first_line: usize,
    /// The primary span in the snippet, and its real 0-based line and column in the
    /// file, for the frame's header.
    primary: SourceSpan,
    header: (usize, usize),
    lines: Vec<SnippetLine>,
}

/// One line of a snippet: which bytes of the file it shows, and where each shown
/// character of the file went.
struct SnippetLine {
    line_start: usize,
    kept: (usize, usize),
    /// (byte in the file, byte in the snippet) of every character shown, and of the
    /// window's end.
    anchors: Vec<(usize, usize)>,
}

/// The most bytes of one line a frame shows; a longer line is cut around its spans.
const WINDOW_BYTES: usize = 240;
/// How much of a long line is shown before the first span on it.
const WINDOW_BEFORE: usize = 60;
/// The most lines of a multi-line span a frame shows.
const MAX_FRAME_LINES: usize = 16;

impl Snippet {
    /// `masked`: the file's text with its secrets masked byte for byte, which is what is
    /// shown; `original`: the text as read, whose characters the header's column counts.
    /// `spans[0]` is the primary span.
    fn new(
        name: &str,
        (original, masked): (&str, &str),
        index: &LineIndex,
        spans: &[Span],
    ) -> Snippet {
        let clamp = |at: usize| at.min(masked.len());
        let low = spans.iter().map(|s| clamp(s.start)).min().unwrap_or(0);
        let high = spans.iter().map(|s| clamp(s.end)).max().unwrap_or(0);
        let first_line = index.line_of(low).saturating_sub(1);
        let last_line = (index.line_of(high) + 1)
            .min(index.line_count() - 1)
            .min(first_line + MAX_FRAME_LINES);
        let primary_line = index.line_of(clamp(spans[0].start));
        let mut text = String::new();
        let mut lines = Vec::new();
        // A long context line is cut where the primary span's line is, so that the
        // columns line up.
        let primary_start = index.line_start(primary_line);
        let primary_end = index.line_end(masked, primary_line);
        let context_column = if primary_end - primary_start > WINDOW_BYTES {
            let anchor = spans[0].start.clamp(primary_start, primary_end);
            anchor.saturating_sub(WINDOW_BEFORE).max(primary_start) - primary_start
        } else {
            0
        };
        for line in first_line..=last_line {
            let start = index.line_start(line);
            let end = index.line_end(masked, line);
            let kept = if end - start <= WINDOW_BYTES {
                (start, end)
            } else {
                let anchor = spans
                    .iter()
                    .filter(|s| s.end >= start && s.start <= end)
                    .map(|s| s.start.max(start))
                    .min()
                    .map_or(start + context_column, |a| a.saturating_sub(WINDOW_BEFORE))
                    .clamp(start, end);
                let from = masked.floor_char_boundary(anchor);
                let to = masked.floor_char_boundary((from + WINDOW_BYTES).min(end));
                (from, to)
            };
            if kept.0 > start {
                text.push('…');
            }
            let mut anchors = Vec::with_capacity(kept.1 - kept.0 + 1);
            for (i, c) in masked[kept.0..kept.1].char_indices() {
                anchors.push((kept.0 + i, text.len()));
                text.push(visible(c));
            }
            anchors.push((kept.1, text.len()));
            if kept.1 < end {
                text.push('…');
            }
            if line < last_line || end < masked.len() {
                text.push('\n');
            }
            lines.push(SnippetLine {
                line_start: start,
                kept,
                anchors,
            });
        }
        let mut snippet = Snippet {
            name: name.to_string(),
            text,
            first_line,
            primary: SourceSpan::new(0.into(), 0),
            header: (0, 0),
            lines,
        };
        snippet.primary = snippet.span(index, spans[0]);
        let at = index.position(original, clamp(spans[0].start));
        snippet.header = (at.line - 1, at.column - 1);
        snippet
    }

    /// Where a byte of the file is in the snippet: a byte in a part that was cut goes to
    /// the nearest edge of what is shown.
    fn offset(&self, index: &LineIndex, at: usize) -> usize {
        let line = index.line_of(at);
        let Some(shown) = line
            .checked_sub(self.first_line)
            .and_then(|i| self.lines.get(i))
        else {
            return if line < self.first_line {
                0
            } else {
                self.text.len()
            };
        };
        debug_assert!(shown.line_start <= at);
        if at <= shown.kept.0 {
            return shown.anchors[0].1;
        }
        if at >= shown.kept.1 {
            return shown.anchors[shown.anchors.len() - 1].1;
        }
        let i = shown.anchors.partition_point(|&(file, _)| file <= at) - 1;
        shown.anchors[i].1
    }

    fn span(&self, index: &LineIndex, span: Span) -> SourceSpan {
        let start = self.offset(index, span.start);
        let end = self.offset(index, span.end).max(start);
        SourceSpan::new(start.into(), end - start)
    }
}

/// A character as a frame may show it: controls as their Unicode control pictures
/// (`␛` for ESC, `␍` for a lone CR, as rustc shows them), characters that reorder or hide
/// text as `�`. A tab stays: miette expands it.
fn visible(c: char) -> char {
    match c {
        '\t' => c,
        '\u{0}'..='\u{1f}' => char::from_u32(0x2400 + c as u32).unwrap_or('\u{fffd}'),
        '\u{7f}' => '\u{2421}',
        c if crate::redact::is_hostile_char(c) => '\u{fffd}',
        c => c,
    }
}

impl SourceCode for Snippet {
    fn read_span<'a>(
        &'a self,
        span: &SourceSpan,
        before: usize,
        after: usize,
    ) -> Result<Box<dyn SpanContents<'a> + 'a>, MietteError> {
        let inner = self.text.as_str().read_span(span, before, after)?;
        // The header shows where the diagnostic is in the file, not in the snippet.
        let column = if before == 0 && after == 0 && *span == self.primary {
            self.header.1
        } else {
            inner.column()
        };
        Ok(Box::new(MietteSpanContents::new_named(
            self.name.clone(),
            inner.data(),
            *inner.span(),
            inner.line() + self.first_line,
            column,
            inner.line_count(),
        )))
    }
}

struct Report<'a> {
    diagnostic: &'a Diagnostic,
    snippet: Snippet,
    help: Option<String>,
    /// Labels shown in the diagnostic's own frame, mapped into its snippet.
    near: Vec<(SourceSpan, &'a str)>,
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
        Some(&self.snippet)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        let primary = LabeledSpan::new_primary_with_span(
            Some(if self.diagnostic.secret {
                "secret (masked)".to_string()
            } else {
                "here".to_string()
            }),
            self.snippet.primary,
        );
        let extra = self
            .near
            .iter()
            .map(|(span, message)| LabeledSpan::new_with_span(Some(message.to_string()), *span));
        Some(Box::new(std::iter::once(primary).chain(extra)))
    }
}

/// Whether a label can be shown with its diagnostic's own frame. miette shows frames in
/// the order of the file and its header gives the first frame's position, so a label in
/// a frame of its own above the diagnostic would take the header: it gets a frame after
/// the diagnostic's instead ([`Related`]).
fn shares_frame(index: &LineIndex, primary: Span, label: Span) -> bool {
    let primary_first = index.line_of(primary.start);
    let primary_last = index.line_of(primary.end);
    let label_first = index.line_of(label.start);
    let label_last = index.line_of(label.end);
    // miette shows one line of context around a span and joins frames that touch; a
    // frame holds at most MAX_FRAME_LINES lines.
    let near = label.start >= primary.start || label_last + 3 >= primary_first;
    near && label_first.max(primary_last) - label_first.min(primary_first) < MAX_FRAME_LINES
}

/// A label shown in a frame of its own, after the diagnostic it belongs to.
struct Related<'a> {
    message: &'a str,
    snippet: Snippet,
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
        Some(&self.snippet)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        Some(Box::new(std::iter::once(
            LabeledSpan::new_primary_with_span(None, self.snippet.primary),
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
    // Lines break at spaces: the default finds Unicode line-break opportunities, which
    // cost 150,000 instructions a diagnostic and made a file of 150,000 findings take
    // minutes; reqlint's messages are written with spaces between their words.
    let handler = GraphicalReportHandler::new_themed(theme)
        .with_links(false)
        .with_width(100)
        .with_word_separator(textwrap::WordSeparator::AsciiSpace);
    for r in results {
        let Some(text) = &r.text else { continue };
        if r.diagnostics.is_empty() {
            continue;
        }
        let masked = super::redacted(r);
        let index = LineIndex::new(text);
        let name = super::shown_path(&r.path);
        for d in &r.diagnostics {
            let mut help = match (&d.help, d.api_error) {
                (Some(h), Some(e)) => Some(format!("{h}\nthe API answers {}", api_error_text(e))),
                (None, Some(e)) => Some(format!("the API answers {}", api_error_text(e))),
                (h, None) => h.clone(),
            };
            if let Some(fix) = &d.fix {
                let how = match fix.applicability {
                    crate::diagnostic::Applicability::Safe => "[*] `--fix`",
                    crate::diagnostic::Applicability::Unsafe => "`--fix --unsafe-fixes`",
                };
                let line = format!("{how}: {}", fix.message);
                help = Some(match help {
                    Some(h) => format!("{h}\n{line}"),
                    None => line,
                });
            }
            let (near, far): (Vec<&Label>, Vec<&Label>) = d
                .labels
                .iter()
                .partition(|l| shares_frame(&index, d.span, l.span));
            let spans: Vec<Span> = std::iter::once(d.span)
                .chain(near.iter().map(|l| l.span))
                .collect();
            let snippet = Snippet::new(&name, (text, &masked), &index, &spans);
            let near = near
                .iter()
                .map(|l| (snippet.span(&index, l.span), l.message.as_str()))
                .collect();
            let report = Report {
                diagnostic: d,
                help,
                near,
                far: far
                    .into_iter()
                    .map(|l| Related {
                        message: &l.message,
                        snippet: Snippet::new(&name, (text, &masked), &index, &[l.span]),
                    })
                    .collect(),
                snippet,
            };
            let mut rendered = String::new();
            if handler.render_report(&mut rendered, &report).is_err() {
                rendered = format!("{name}: {}[{}]: {}\n", d.severity, d.rule, d.message);
            }
            // A far label's frame follows as a block of its own, headed by its message
            // (miette's own related diagnostics would head it with a bare "Advice:").
            for related in &report.far {
                let mut frame = String::new();
                if handler.render_report(&mut frame, related).is_ok() {
                    rendered.push('\n');
                    rendered.push_str(&frame);
                }
            }
            // CI logs show this report too: no line of it may read as a runner's command.
            for line in rendered.split_inclusive('\n') {
                let (body, end) = match line.strip_suffix('\n') {
                    Some(body) => (body.trim_end(), "\n"),
                    None => (line.trim_end(), ""),
                };
                let shown = crate::redact::neutralize_workflow_commands(body);
                out.write_all(shown.as_bytes())?;
                out.write_all(end.as_bytes())?;
            }
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
