//! `--format json`: one document on standard output, exactly SPEC 5.

use std::io::{self, Write};

use serde::Serialize;

use crate::diagnostic::{ApiError, Severity};
use crate::engine::FileResult;
use crate::loading::Position;

use super::Summary;

#[derive(Serialize)]
struct Output<'a> {
    version: u32,
    diagnostics: Vec<JsonDiagnostic<'a>>,
    summary: Summary,
}

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

pub fn write(results: &[FileResult], summary: Summary, out: &mut dyn Write) -> io::Result<()> {
    let mut diagnostics = Vec::new();
    for r in results {
        for (d, (start, end)) in r.diagnostics.iter().zip(r.positions()) {
            diagnostics.push(JsonDiagnostic {
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
            });
        }
    }
    let output = Output {
        version: 1,
        diagnostics,
        summary,
    };
    serde_json::to_writer_pretty(&mut *out, &output)?;
    writeln!(out)
}
