//! `reqlint check` (the default command), step by step: the settings, the fixes, the
//! lint of standard input or of the files the walk finds, what only the whole run can
//! tell, the baseline, the severity floor, the report and the exit code.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::diagnostic::Severity;
use crate::engine::{self, FileResult, Settings};
use crate::reports::Summary;
use crate::rules::RunFacts;
use crate::run::cache::Cache;
use crate::run::environments::Discovery;
use crate::run::walk;

use super::baseline;
use super::fix::{FixOutcome, fix_files};
use super::lint_files::{lint_all, parse_only};
use super::report::{chosen_format, write_report};
use super::settings::load_settings;
use super::show::show;
use super::stdio::{print_error, print_warning, read_stdin};
use super::{CheckArgs, MinSeverity, OutputFormat, inputs_or_working_directory};

/// What the lint of a run gives the rest of the check. Files without a diagnostic are
/// not kept: the summary counts every file.
#[derive(Default)]
struct Linted {
    results: Vec<FileResult>,
    files: usize,
    requests: usize,
    /// The requests no API checks, counted by where they go.
    unjudged: BTreeMap<String, usize>,
    /// What the walk could not read (the run fails as for an unreadable file).
    walk_errors: Vec<String>,
}

pub(super) fn check(args: CheckArgs) -> Result<ExitCode, String> {
    let settings = load_settings(&args)?;
    let format = chosen_format(&args);
    if args.show_files || args.show_settings {
        return show(&args, &settings);
    }
    let (fixed, fix_failed) = if args.fix || args.diff || args.fix_only {
        match fix_files(&args, &settings)? {
            FixOutcome::Done(code) => return Ok(code),
            FixOutcome::Fixed { applied, failed } => (applied, failed),
        }
    } else {
        (0, false)
    };
    // A fix may have changed the config (a named token's permissions): read it again.
    let settings = if fixed > 0 {
        load_settings(&args)?
    } else {
        settings
    };
    let environments = Discovery::new(&settings, !args.environment.is_empty());
    let Linted {
        mut results,
        files,
        requests,
        unjudged,
        walk_errors,
    } = if args.reads_standard_input() {
        lint_standard_input(&args, &settings, &environments)?
    } else {
        let inputs = inputs_or_working_directory(&args.paths);
        if inputs.iter().any(|p| p.as_os_str() == "-") {
            return Err("`-` (standard input) cannot be mixed with other paths".into());
        }
        let paths = walk::Paths::new(&settings.config)?.with_force_exclude(args.force_exclude);
        if args.parse_only {
            return parse_only(&inputs, &settings, &paths, args.threads);
        }
        let keep_text = format == OutputFormat::Human;
        lint_paths(&args, &settings, &environments, &inputs, &paths, keep_text)?
    };
    print_read_errors(&walk_errors, &results);
    let walk_paths = walk::Paths::new(&settings.config)?;
    if let Some(file) = &args.write_baseline {
        return baseline::write(file, &results, &settings, &walk_paths);
    }
    let baselined = match &args.baseline {
        Some(file) => baseline::leave_out_known(file, &mut results, &walk_paths)?,
        None => 0,
    };
    keep_severity_floor(&args, &settings, &mut results);
    let mut summary = Summary::new(&results, files, requests);
    summary.unjudged = unjudged.values().sum();
    summary.fixed = fixed;
    summary.unsafe_fixes = args.unsafe_fixes;
    summary.baselined = baselined;
    write_report(&args, &settings, format, &results, summary, &unjudged)?;
    let code = exit_code(&args, fix_failed, &walk_errors, &results);
    // The process ends next, and the system takes its memory back at once: freeing the
    // results and the settings piece by piece gave each freed page back to the system on
    // its own (22 `madvise` calls after the report of one file, by strace).
    std::mem::forget((results, settings, environments, unjudged, walk_errors));
    Ok(code)
}

/// `check -`: standard input, under its `--stdin-filename`, unless `--force-exclude`
/// leaves that name out.
fn lint_standard_input(
    args: &CheckArgs,
    settings: &Settings,
    environments: &Discovery,
) -> Result<Linted, String> {
    let name = args.standard_input_name();
    if args.force_exclude && !walk::selected(&settings.config, &[Path::new(&name)]) {
        return Ok(Linted::default());
    }
    // Read with the environments found beside the file it stands for.
    let settings = &*environments.settings_for(settings, Path::new(&name));
    let max = settings.limits.max_file_bytes;
    let bytes = read_stdin(max)?;
    let result = if bytes.len() as u64 > max {
        engine::lint_oversized(&name, Path::new(&name), None, settings)
    } else {
        engine::lint_bytes(&name, Path::new(&name), bytes, settings)
    };
    let requests = result.requests;
    let mut unjudged = BTreeMap::new();
    for place in &result.unjudged {
        *unjudged.entry(place.clone()).or_default() += 1;
    }
    let mut results = vec![result];
    engine::keep_first_of_run(&mut results);
    Ok(Linted {
        results,
        files: 1,
        requests,
        unjudged,
        walk_errors: Vec::new(),
    })
}

/// The files under `inputs`, through the result cache unless `--no-cache`, then what
/// only the whole run can tell; the results in the order of their paths.
fn lint_paths(
    args: &CheckArgs,
    settings: &Settings,
    environments: &Discovery,
    inputs: &[PathBuf],
    paths: &walk::Paths,
    keep_text: bool,
) -> Result<Linted, String> {
    let complete = inputs.iter().any(|p| p.is_dir());
    let cache = if args.no_cache {
        None
    } else {
        open_cache(args, settings)
    };
    let mut run = lint_all(
        inputs,
        settings,
        paths,
        args.threads,
        keep_text,
        cache.as_ref(),
        environments,
    )?;
    if let Some(cache) = cache {
        cache.save(std::mem::take(&mut run.cache_updates));
    }
    // A hook that passes every file it has, with --force-exclude, expects silence
    // when none of them is a request file.
    if run.visited == 0 && (complete || !args.force_exclude) {
        warn_no_request_files(inputs);
    }
    let mut results = run.results;
    add_run_level_results(settings, &run.facts, complete, &mut results);
    environments.mask_credential_variables(&run.facts, &mut results);
    // Files are linted in the order the walk finds them; reports show them in the
    // order of their paths (deterministic output, docs/usage.md).
    engine::sort_by_path(&mut results);
    engine::keep_first_of_run(&mut results);
    Ok(Linted {
        results,
        files: run.files,
        requests: run.requests,
        unjudged: run.unjudged,
        walk_errors: run.walk_errors,
    })
}

/// A cache that is not the user's own is neither read nor written.
fn open_cache(args: &CheckArgs, settings: &Settings) -> Option<Cache> {
    Cache::open(settings, args.cache_dir.as_deref()).unwrap_or_else(|e| {
        print_warning(&format!("{e}; the result cache is not used"));
        None
    })
}

fn warn_no_request_files(inputs: &[PathBuf]) {
    print_warning(&format!(
        "no request files found under {}; `include` in .reqlint.yaml chooses which files are linted",
        inputs
            .iter()
            .map(|p| p.display().to_string())
            .collect::<Vec<_>>()
            .join(", ")
    ));
}

/// What only the whole run can tell: the run-level rules' findings (in the config's
/// result), the environment files', and credentials masked in every file once the run
/// knows which variables hold them.
fn add_run_level_results(
    settings: &Settings,
    facts: &RunFacts,
    complete: bool,
    results: &mut Vec<FileResult>,
) {
    if let Some(config_result) = engine::lint_run(settings, facts, complete) {
        results.push(config_result);
    }
    results.extend(engine::lint_environments(settings));
    engine::mask_credential_variables(settings, facts, results);
}

fn print_read_errors(walk_errors: &[String], results: &[FileResult]) {
    for e in walk_errors {
        print_error(e);
    }
    for r in results {
        if let Some(e) = &r.io_error {
            print_error(e);
        }
    }
}

/// `--min-severity`, else the config's `min-severity`: diagnostics below it are dropped.
fn keep_severity_floor(args: &CheckArgs, settings: &Settings, results: &mut [FileResult]) {
    let floor = args
        .min_severity
        .map(|min| match min {
            MinSeverity::Info => Severity::Info,
            MinSeverity::Warning => Severity::Warning,
            MinSeverity::Error => Severity::Error,
        })
        .or(settings.config.min_severity);
    if let Some(floor) = floor {
        for r in results {
            r.diagnostics.retain(|d| d.severity >= floor);
        }
    }
}

/// 2 when the run did not do what it was asked (a file not read, a fix not written),
/// else 1 when an error is reported and `--exit-zero` is not given, else 0.
fn exit_code(
    args: &CheckArgs,
    fix_failed: bool,
    walk_errors: &[String],
    results: &[FileResult],
) -> ExitCode {
    // A fix that could not be written: the run did not do what it was asked, whatever
    // `--exit-zero` says.
    if fix_failed || !walk_errors.is_empty() || results.iter().any(|r| r.io_error.is_some()) {
        return ExitCode::from(2);
    }
    let failed = results
        .iter()
        .any(|r| r.diagnostics.iter().any(|d| d.severity == Severity::Error));
    if failed && !args.exit_zero {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}
