//! `path:line:col: severity[rule]: message`, one line a diagnostic, for editors'
//! quickfix lists.

use std::io::{self, Write};

use crate::engine::FileResult;

use super::Summary;

pub fn write(results: &[FileResult], summary: Summary, out: &mut dyn Write) -> io::Result<()> {
    for r in results {
        for (d, (pos, _)) in r.diagnostics.iter().zip(r.positions()) {
            writeln!(
                out,
                "{}:{}:{}: {}[{}]: {}",
                r.path, pos.line, pos.column, d.severity, d.rule, d.message
            )?;
        }
    }
    writeln!(out, "{}", summary.sentence())
}
