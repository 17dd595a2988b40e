//! `--fix`, `--unsafe-fixes`, `--diff` and `--fix-only`: the fixes applied to the files
//! of the run and to the config (or shown as a diff) before the check reports what is
//! left.

use std::collections::BTreeMap;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::diagnostic::Edit;
use crate::engine::{self, Settings};
use crate::fix::{self, Mode};
use crate::loading;
use crate::reports;
use crate::rules::RunFacts;
use crate::run::environments::Discovery;
use crate::run::walk;

use super::stdio::{pass_stdin_through, print_error, read_stdin, write_stdout};
use super::{CheckArgs, inputs_or_working_directory};

/// What `--fix`, `--diff` and `--fix-only` leave to the rest of the check.
pub(super) enum FixOutcome {
    /// `--diff`, `--fix-only` and standard input: nothing more to do.
    Done(ExitCode),
    /// `--fix`: this many fixes were applied, and whether a file could not be fixed (read,
    /// or written back); the check goes on and reports what is left.
    Fixed { applied: usize, failed: bool },
}

/// What the fixes of a run of files came to so far.
#[derive(Default)]
struct FixTally {
    applied: usize,
    /// Unsafe fixes not applied, for the hint to `--unsafe-fixes`.
    unsafe_left: usize,
    /// Files that could not be read or written back (the errors are printed).
    failed: usize,
    /// The diffs of the fixed files (`--diff`).
    shown: String,
}

impl FixTally {
    /// Shows (`--diff`) or writes back a file's `fixes` fixes; they count only once
    /// written.
    fn show_or_write(&mut self, file: &FixedFile, fixes: usize, diff: bool, settings: &Settings) {
        if file.show_or_write(diff, settings, &mut self.shown) {
            self.applied += fixes;
        } else {
            self.failed += 1;
        }
    }
}

/// Fixes the files of the run in place (or prints the diff of what would change).
pub(super) fn fix_files(args: &CheckArgs, settings: &Settings) -> Result<FixOutcome, String> {
    let mode = if args.unsafe_fixes {
        Mode::Unsafe
    } else {
        Mode::Safe
    };
    // Each file is fixed as the check reads it: with the environments found beside it.
    let environments = Discovery::new(settings, !args.environment.is_empty());
    if args.reads_standard_input() {
        let name = args.standard_input_name();
        let settings = environments.settings_for(settings, Path::new(&name));
        return fix_standard_input(args, &settings, mode);
    }
    let inputs = inputs_or_working_directory(&args.paths);
    let paths = walk::Paths::new(&settings.config)?.with_force_exclude(args.force_exclude);
    let mut tally = FixTally::default();
    let (mut config_edits, facts) = fix_request_files(
        args,
        (settings, &environments),
        mode,
        &inputs,
        &paths,
        &mut tally,
    )?;
    // What only the whole run can tell (a named token's unused permissions, in the
    // config): with every file seen, its fixes join the config's edits.
    let complete = inputs.iter().any(|p| p.is_dir());
    if let (Some(config), Some(run)) = (
        settings.config.path.as_ref(),
        engine::lint_run(settings, &facts, complete),
    ) {
        for run_fix in run.diagnostics.iter().filter_map(|d| d.fix.as_ref()) {
            if mode.takes(run_fix) {
                let edits = run_fix.edits.iter().map(|e| Edit {
                    file: Some(config.clone()),
                    ..e.clone()
                });
                config_edits
                    .entry(config.clone())
                    .or_default()
                    .extend(edits);
            }
        }
    }
    fix_config(args, settings, &config_edits, &mut tally);
    finish(args, mode, tally)
}

/// Standard input: the fixed text (or its diff) goes to standard output.
fn fix_standard_input(
    args: &CheckArgs,
    settings: &Settings,
    mode: Mode,
) -> Result<FixOutcome, String> {
    let name = args.standard_input_name();
    let max = settings.limits.max_file_bytes;
    let bytes = read_stdin(max)?;
    if bytes.len() as u64 > max {
        // Not read whole, so not fixed: what was piped in comes out unchanged (a
        // formatter-style caller would otherwise replace its buffer with a truncated
        // one), and the exit code says the input was not checked, as `check -` does.
        print_error(&format!(
            "{name}: input is more than {max} bytes, over the limit; it was not fixed"
        ));
        if !args.diff {
            pass_stdin_through(&bytes)?;
        }
        return Ok(FixOutcome::Done(ExitCode::from(1)));
    }
    let text = String::from_utf8(bytes).map_err(|_| "standard input is not UTF-8".to_string())?;
    let result = engine::fix_text(&name, Path::new(&name), &text, settings, mode);
    let shown = if args.diff {
        engine::redacted_diff(&name, Path::new(&name), &text, &result.text, settings)
    } else {
        result.text.clone()
    };
    write_stdout(shown.as_bytes())?;
    Ok(FixOutcome::Done(if args.diff && result.applied > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }))
}

/// Fixes each request file of the run; gives the edits its fixes make to the config
/// (the permissions of a named token), and the facts for the run-level rules.
fn fix_request_files(
    args: &CheckArgs,
    (run_settings, environments): (&Settings, &Discovery),
    mode: Mode,
    inputs: &[PathBuf],
    paths: &walk::Paths,
    tally: &mut FixTally,
) -> Result<(BTreeMap<PathBuf, Vec<Edit>>, RunFacts), String> {
    let mut config_edits: BTreeMap<PathBuf, Vec<Edit>> = BTreeMap::new();
    let mut facts = RunFacts::default();
    for path in walk::collect(inputs, &run_settings.config, paths)? {
        let settings = &*environments.settings_for(run_settings, &path);
        let display = paths.display(&path);
        let rel = paths.relative(&path);
        let Some(read) = read_for_fix(&path, settings, "request file") else {
            tally.failed += 1;
            continue;
        };
        let Ok(text) = std::str::from_utf8(&read) else {
            continue;
        };
        let result = engine::fix_text(&display, &rel, text, settings, mode);
        tally.unsafe_left += result.unsafe_left;
        facts.merge(result.facts.clone());
        for e in &result.config_edits {
            // A fix edits its own file and the config, nothing else.
            if let Some(file) = &e.file
                && settings.config.path.as_ref() == Some(file)
            {
                config_edits
                    .entry(file.clone())
                    .or_default()
                    .push(e.clone());
            }
        }
        if result.applied == 0 {
            continue;
        }
        let file = FixedFile {
            path: &path,
            display: &display,
            rel: &rel,
            read: &read,
            before: text,
            after: &result.text,
        };
        tally.show_or_write(&file, result.applied, args.diff, settings);
    }
    Ok((config_edits, facts))
}

/// Applies the edits to the config, unless it changed since the run read it (their
/// offsets are into the text read then).
fn fix_config(
    args: &CheckArgs,
    settings: &Settings,
    config_edits: &BTreeMap<PathBuf, Vec<Edit>>,
    tally: &mut FixTally,
) {
    for (path, edits) in config_edits {
        let Some(read) = read_for_fix(path, settings, "config") else {
            tally.failed += 1;
            continue;
        };
        let Ok(text) = std::str::from_utf8(&read) else {
            continue;
        };
        let display = reports::relative_to_cwd(path);
        // The edits' offsets are into the config as the run read it at its start.
        if settings.config.path.as_deref() == Some(path.as_path()) && text != settings.config.text {
            print_error(&format!(
                "{display}: changed since it was read; its fixes were not applied"
            ));
            tally.failed += 1;
            continue;
        }
        let (fixed, n) = fix::apply_config_edits(text, edits, &crate::apis::config_level_rank);
        if n == 0 || fixed == text {
            continue;
        }
        let file = FixedFile {
            path,
            display: &display,
            rel: path,
            read: &read,
            before: text,
            after: &fixed,
        };
        tally.show_or_write(&file, n, args.diff, settings);
    }
}

/// `--diff` prints the patch and `--fix-only` the count, and both end the run; `--fix`
/// hands the count to the check.
fn finish(args: &CheckArgs, mode: Mode, tally: FixTally) -> Result<FixOutcome, String> {
    let FixTally {
        applied,
        unsafe_left,
        failed,
        mut shown,
    } = tally;
    let more = if unsafe_left > 0 && mode == Mode::Safe {
        format!(" ({unsafe_left} more with `--unsafe-fixes`)")
    } else {
        String::new()
    };
    if args.diff {
        // The summary goes to standard error, so that standard output is a patch that
        // `git apply` takes.
        write_stdout(shown.as_bytes())?;
        let _ = writeln!(
            std::io::stderr().lock(),
            "Would fix {applied} issue{}{more}.",
            if applied == 1 { "" } else { "s" }
        );
        return Ok(FixOutcome::Done(if failed > 0 {
            ExitCode::from(2)
        } else if applied > 0 {
            ExitCode::from(1)
        } else {
            ExitCode::SUCCESS
        }));
    }
    if args.fix_only {
        shown.push_str(&format!(
            "Fixed {applied} issue{}{more}.\n",
            if applied == 1 { "" } else { "s" }
        ));
        write_stdout(shown.as_bytes())?;
        return Ok(FixOutcome::Done(if failed > 0 {
            ExitCode::from(2)
        } else {
            ExitCode::SUCCESS
        }));
    }
    Ok(FixOutcome::Fixed {
        applied,
        failed: failed > 0,
    })
}

/// A file to be fixed, read within the size limit; an error is printed and the file left
/// out, as the lint run leaves out a file it cannot read.
fn read_for_fix(path: &Path, settings: &Settings, what: &str) -> Option<Vec<u8>> {
    match loading::read_bounded(path, settings.limits.max_file_bytes, what) {
        Ok(bytes) => Some(bytes),
        Err(e) => {
            print_error(&e);
            None
        }
    }
}

/// A file's text before and after its fixes, with the bytes it was read as (to refuse
/// writing over a file changed since).
struct FixedFile<'a> {
    path: &'a Path,
    display: &'a str,
    /// Relative to the config's directory.
    rel: &'a Path,
    read: &'a [u8],
    before: &'a str,
    after: &'a str,
}

impl FixedFile<'_> {
    /// Adds the file's diff to `shown` (`--diff`) or writes the fixed text back; false
    /// when the write failed (the error is printed) and its fixes do not count.
    fn show_or_write(&self, diff: bool, settings: &Settings, shown: &mut String) -> bool {
        if diff {
            shown.push_str(&engine::redacted_diff(
                self.display,
                self.rel,
                self.before,
                self.after,
                settings,
            ));
            return true;
        }
        match fix::write_in_place(self.path, &settings.config.root, self.read, self.after) {
            Ok(()) => true,
            Err(e) => {
                print_error(&e);
                false
            }
        }
    }
}
