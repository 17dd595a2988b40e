//! `--format github`: GitHub Actions workflow commands, which the runner turns into
//! annotations on the pull request.

use std::io::{self, Write};

use crate::diagnostic::Severity;
use crate::engine::FileResult;

use super::Summary;

/// Escapes a command's message (GitHub's `escapeData`).
pub fn escape_data(text: &str) -> String {
    text.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// Escapes a command's property value (GitHub's `escapeProperty`).
pub fn escape_property(text: &str) -> String {
    escape_data(text).replace(':', "%3A").replace(',', "%2C")
}

pub fn write(results: &[FileResult], summary: Summary, out: &mut dyn Write) -> io::Result<()> {
    for r in results {
        // The runner decodes only its own escapes: the path goes as it is, not as a URI.
        let file = super::shown_path(&r.path);
        for (d, (start, end)) in r.diagnostics.iter().zip(r.positions()) {
            let command = match d.severity {
                Severity::Error => "error",
                Severity::Warning => "warning",
                Severity::Info => "notice",
            };
            let mut props = format!(
                "file={},line={},endLine={}",
                escape_property(&file),
                start.line,
                end.line
            );
            // GitHub takes columns only for an annotation on one line.
            if start.line == end.line {
                props.push_str(&format!(",col={},endColumn={}", start.column, end.column));
            }
            props.push_str(&format!(
                ",title={}",
                escape_property(&format!("reqlint {}", d.rule))
            ));
            let mut message = d.message.clone();
            if let Some(help) = &d.help {
                message.push_str(&format!("\nhelp: {help}"));
            }
            let message = crate::redact::neutralize_workflow_commands(&message);
            writeln!(out, "::{command} {props}::{}", escape_data(&message))?;
        }
    }
    writeln!(out, "{}", summary.sentence())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaping() {
        assert_eq!(escape_data("50% done\r\nnext"), "50%25 done%0D%0Anext");
        assert_eq!(escape_property("a:b,c%"), "a%3Ab%2Cc%25");
    }
}
