//! The report of a check: its format, its colours, where it goes, and `--statistics`.

use std::collections::BTreeMap;
use std::io::{IsTerminal, Write};

use crate::diagnostic::{Applicability, Severity};
use crate::engine::{FileResult, Settings};
use crate::files;
use crate::reports::{self, Summary};

use super::{CheckArgs, ColorChoice, OutputFormat};

/// `--format`, else `github` where GITHUB_ACTIONS is set, else `human`.
pub(super) fn chosen_format(args: &CheckArgs) -> OutputFormat {
    args.format.unwrap_or_else(|| {
        if std::env::var_os("GITHUB_ACTIONS").is_some_and(|v| !v.is_empty()) {
            OutputFormat::Github
        } else {
            OutputFormat::Human
        }
    })
}

/// Writes the report to `--output-file` or standard output; a closed pipe is no error.
pub(super) fn write_report(
    args: &CheckArgs,
    settings: &Settings,
    format: OutputFormat,
    results: &[FileResult],
    summary: Summary,
    unjudged: &BTreeMap<String, usize>,
) -> Result<(), String> {
    let color = uses_color(args.color);
    let mut out: Box<dyn Write> = match &args.output_file {
        Some(path) => Box::new(std::io::BufWriter::new(files::create_named(
            path,
            &settings.config.root,
        )?)),
        None => Box::new(std::io::BufWriter::new(std::io::stdout().lock())),
    };
    let written = match format {
        _ if args.statistics => write_statistics(results, summary, unjudged, format, &mut out),
        OutputFormat::Human => reports::human::write(results, summary, color, &mut out),
        OutputFormat::Concise => reports::concise::write(results, summary, &mut out),
        OutputFormat::Json => reports::json::write(results, summary, &mut out),
        OutputFormat::Sarif => reports::sarif::write(results, &mut out),
        OutputFormat::Github => reports::github::write(results, summary, &mut out),
    };
    let flushed = written.and_then(|()| out.flush());
    if let Err(e) = flushed
        && e.kind() != std::io::ErrorKind::BrokenPipe
    {
        return Err(format!("cannot write the report: {e}"));
    }
    Ok(())
}

/// `--color`: under `auto`, colours on a terminal unless NO_COLOR is set.
fn uses_color(choice: ColorChoice) -> bool {
    match choice {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => {
            std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
                && std::io::stdout().is_terminal()
        }
    }
}

/// `--statistics`: the diagnostics counted per rule, most first (JSON: one object).
fn write_statistics(
    results: &[FileResult],
    summary: Summary,
    unjudged: &BTreeMap<String, usize>,
    format: OutputFormat,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    let mut counts: BTreeMap<(&str, Severity), (usize, usize)> = BTreeMap::new();
    for d in results.iter().flat_map(|r| &r.diagnostics) {
        let entry = counts.entry((d.rule, d.severity)).or_default();
        entry.0 += 1;
        if d.fix
            .as_ref()
            .is_some_and(|f| f.applicability == Applicability::Safe)
        {
            entry.1 += 1;
        }
    }
    let mut rows: Vec<_> = counts.into_iter().collect();
    rows.sort_by(|a, b| b.1.0.cmp(&a.1.0).then(a.0.cmp(&b.0)));
    if format == OutputFormat::Json {
        let list: Vec<serde_json::Value> = rows
            .iter()
            .map(|((rule, severity), (n, fixable))| {
                serde_json::json!({"rule": rule, "severity": severity, "count": n, "fixable": fixable})
            })
            .collect();
        serde_json::to_writer(
            &mut *out,
            &serde_json::json!({"statistics": list, "summary": summary, "unjudged": unjudged_list(unjudged)}),
        )?;
        return writeln!(out);
    }
    for ((rule, severity), (n, fixable)) in &rows {
        let mark = if *fixable > 0 { "[*]" } else { "   " };
        writeln!(out, "{n:>6}  {mark} {rule} ({severity})")?;
    }
    for entry in unjudged_list(unjudged) {
        let n = entry["count"].as_u64().unwrap_or_default();
        let to = entry["to"].as_str().unwrap_or_default();
        writeln!(out, "{n:>6}      not checked: requests to {to}")?;
    }
    writeln!(out, "{}", summary.sentence())
}

/// The requests no API checks, by where they go, most first; each place passes the
/// redaction step (a host may carry what looks like a credential).
fn unjudged_list(unjudged: &BTreeMap<String, usize>) -> Vec<serde_json::Value> {
    let mut list: Vec<(&String, &usize)> = unjudged.iter().collect();
    list.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
    list.into_iter()
        .map(|(to, n)| serde_json::json!({"to": crate::reports::shown_path(to), "count": n}))
        .collect()
}
