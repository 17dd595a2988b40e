//! `--write-baseline FILE` and `--baseline FILE`: the run's findings kept in a file, so
//! that a later run reports only new ones.

use std::io::Write as _;
use std::path::Path;
use std::process::ExitCode;

use crate::engine::{FileResult, Settings};
use crate::files;
use crate::run::baseline;
use crate::run::walk;

use super::stdio::print_note;

/// Baseline entries name files relative to the config's directory, with `/`.
fn file_key(walk_paths: &walk::Paths) -> impl Fn(&str) -> String + Copy + '_ {
    |path: &str| {
        walk_paths
            .relative(Path::new(path))
            .to_string_lossy()
            .replace('\\', "/")
    }
}

/// `--write-baseline FILE`: the run's findings, counted, written to FILE; the run
/// reports nothing else and succeeds.
pub(super) fn write(
    file: &Path,
    results: &[FileResult],
    settings: &Settings,
    walk_paths: &walk::Paths,
) -> Result<ExitCode, String> {
    let baseline = baseline::of(results, file_key(walk_paths));
    let json = serde_json::to_string_pretty(&baseline).map_err(|e| e.to_string())?;
    files::create_named(file, &settings.config.root)?
        .write_all(format!("{json}\n").as_bytes())
        .map_err(|e| format!("cannot write {}: {e}", file.display()))?;
    let n: usize = baseline.entries.iter().map(|e| e.count).sum();
    // What was asked was done: a line of news, not a warning.
    print_note(&format!(
        "wrote {n} finding{} to the baseline {}",
        if n == 1 { "" } else { "s" },
        file.display()
    ));
    Ok(ExitCode::SUCCESS)
}

/// `--baseline FILE`: drops the findings FILE holds; gives how many were dropped.
pub(super) fn leave_out_known(
    file: &Path,
    results: &mut [FileResult],
    walk_paths: &walk::Paths,
) -> Result<usize, String> {
    let baseline = baseline::read(file)?;
    Ok(baseline::apply(&baseline, results, file_key(walk_paths)))
}
