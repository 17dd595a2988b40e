//! `--format json`: one document on standard output, exactly the format
//! docs/usage.md#output-formats fixes.

use std::io::{self, Write};

use serde::Serialize;

use crate::diagnostic::{ApiError, Applicability, Severity};
use crate::engine::FileResult;
use crate::loading::Position;

use super::Summary;

/// The report's `version` (docs/usage.md#output-formats).
const VERSION: u32 = 1;

#[derive(Serialize)]
struct JsonDiagnostic<'a> {
    file: &'a str,
    rule: &'a str,
    severity: Severity,
    message: &'a str,
    help: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    api_error: Option<ApiError>,
    span: JsonSpan,
    #[serde(skip_serializing_if = "Option::is_none")]
    fix: Option<JsonFix<'a>>,
}

/// A diagnostic's fix: its edits of the file by byte offset and length.
#[derive(Serialize)]
struct JsonFix<'a> {
    applicability: Applicability,
    message: &'a str,
    edits: Vec<JsonEdit<'a>>,
}

#[derive(Serialize)]
struct JsonEdit<'a> {
    /// Another file than the diagnostic's (the config).
    #[serde(skip_serializing_if = "Option::is_none")]
    file: Option<String>,
    offset: usize,
    length: usize,
    replacement: &'a str,
}

#[derive(Serialize)]
struct JsonSpan {
    offset: usize,
    length: usize,
    start: JsonPosition,
    end: JsonPosition,
}

#[derive(Serialize)]
struct JsonPosition {
    line: usize,
    column: usize,
}

impl From<Position> for JsonPosition {
    fn from(p: Position) -> Self {
        JsonPosition {
            line: p.line,
            column: p.column,
        }
    }
}

/// Compact, with one diagnostic a line: a tool reads it as fast as it is written, and a
/// person can still read or diff it (`jq .` pretty-prints it).
pub fn write(results: &[FileResult], summary: Summary, out: &mut dyn Write) -> io::Result<()> {
    write!(out, "{{\"version\":{VERSION},\"diagnostics\":[")?;
    let mut first = true;
    // Each diagnostic is serialized into one buffer and written at once: serde writes a
    // record in dozens of small pieces, each a dynamic call when made on `out`.
    let mut line = Vec::with_capacity(512);
    for r in results {
        for (d, (start, end)) in r.diagnostics.iter().zip(r.positions()) {
            line.clear();
            line.extend_from_slice(if first { b"\n" } else { b",\n" });
            first = false;
            let diagnostic = JsonDiagnostic {
                file: &r.path,
                rule: d.rule,
                severity: d.severity,
                message: &d.message,
                help: d.help.as_deref(),
                api_error: d.api_error,
                span: JsonSpan {
                    offset: d.span.start,
                    length: d.span.len(),
                    start: start.into(),
                    end: end.into(),
                },
                fix: d.fix.as_ref().map(|f| JsonFix {
                    applicability: f.applicability,
                    message: &f.message,
                    edits: f
                        .edits
                        .iter()
                        .map(|e| JsonEdit {
                            file: e.file.as_deref().map(super::relative_to_cwd),
                            offset: e.span.start,
                            length: e.span.len(),
                            replacement: &e.replacement,
                        })
                        .collect(),
                }),
            };
            serde_json::to_writer(&mut line, &diagnostic)?;
            out.write_all(&line)?;
        }
    }
    out.write_all(if first { b"]," } else { b"\n]," })?;
    out.write_all(b"\"summary\":")?;
    serde_json::to_writer(&mut *out, &summary)?;
    out.write_all(b"}\n")
}
