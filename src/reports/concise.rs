//! `path:line:col: severity[rule]: message`, one line a diagnostic, for editors'
//! quickfix lists.

use std::io::{self, Write};

use crate::engine::FileResult;

use super::Summary;

pub fn write(results: &[FileResult], summary: Summary, out: &mut dyn Write) -> io::Result<()> {
    for r in results {
        let path = super::shown_path(&r.path);
        for (d, (pos, _)) in r.diagnostics.iter().zip(r.positions()) {
            // `[*]`: `--fix` fixes it.
            let fixable = match d.fix.as_ref().map(|f| f.applicability) {
                Some(crate::diagnostic::Applicability::Safe) => " [*]",
                _ => "",
            };
            let line = format!(
                "{path}:{}:{}: {}[{}]: {}{fixable}",
                pos.line, pos.column, d.severity, d.rule, d.message
            );
            // CI logs show this format: nothing in it may read as a runner's command.
            writeln!(
                out,
                "{}",
                crate::redact::neutralize_workflow_commands(&line)
            )?;
        }
    }
    writeln!(out, "{}", summary.sentence())
}
