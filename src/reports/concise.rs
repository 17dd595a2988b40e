//! `path:line:col: severity[rule]: message`, one line a diagnostic, for editors'
//! quickfix lists.

use std::io::{self, Write};

use crate::engine::FileResult;
use crate::loading::LineIndex;

use super::Summary;

pub fn write(results: &[FileResult], out: &mut dyn Write) -> io::Result<()> {
    for r in results {
        let Some(text) = &r.text else { continue };
        let index = LineIndex::new(text);
        for d in &r.diagnostics {
            let pos = index.position(text, d.span.start);
            writeln!(
                out,
                "{}:{}:{}: {}[{}]: {}",
                r.path, pos.line, pos.column, d.severity, d.rule, d.message
            )?;
        }
    }
    writeln!(out, "{}", Summary::of(results).sentence())
}
