//! The files of a run linted as the walk finds them, on every core, through the result
//! cache when there is one; and `--parse-only`, the same walk with no rule run.

use std::path::PathBuf;
use std::process::ExitCode;

use crate::engine::{self, FileResult, Settings};
use crate::loading;
use crate::rules::RunFacts;
use crate::run::cache::{Cache, Update};
use crate::run::environments::Discovery;
use crate::run::walk;

use super::stdio::print_error;

/// What a run of many files keeps: the results that have something to report, and the
/// counts and facts of all.
#[derive(Default)]
pub(super) struct RunResults {
    pub(super) results: Vec<FileResult>,
    /// Files handed to the linter, read or not.
    pub(super) visited: usize,
    pub(super) files: usize,
    pub(super) requests: usize,
    /// The requests no API checks, counted by where they go (a host, a base variable).
    pub(super) unjudged: std::collections::BTreeMap<String, usize>,
    pub(super) facts: RunFacts,
    /// What the walk could not read: the run fails as for an unreadable file.
    pub(super) walk_errors: Vec<String>,
    /// What the result cache is to keep of this run.
    pub(super) cache_updates: Vec<Update>,
}

impl RunResults {
    fn add(&mut self, mut r: FileResult, keep_text: bool) {
        self.visited += 1;
        if r.io_error.is_none() {
            self.files += 1;
        }
        self.requests += r.requests;
        for place in std::mem::take(&mut r.unjudged) {
            *self.unjudged.entry(place).or_default() += 1;
        }
        self.facts.merge(std::mem::take(&mut r.facts));
        if !r.diagnostics.is_empty() || r.io_error.is_some() {
            if !keep_text {
                r.drop_text();
            }
            r.shrink();
            self.results.push(r);
        }
    }

    fn merge(&mut self, other: RunResults) {
        if self.results.is_empty() {
            self.results = other.results;
        } else {
            self.results.extend(other.results);
        }
        self.visited += other.visited;
        self.files += other.files;
        self.requests += other.requests;
        for (place, n) in other.unjudged {
            *self.unjudged.entry(place).or_default() += n;
        }
        self.facts.merge(other.facts);
        self.cache_updates.extend(other.cache_updates);
    }
}

/// Lints every file as the walk finds it, on every core; only files with something to
/// report are kept, with their text only when the report shows code frames.
pub(super) fn lint_all(
    inputs: &[PathBuf],
    settings: &Settings,
    paths: &walk::Paths,
    threads: Option<usize>,
    keep_text: bool,
    cache: Option<&Cache>,
    environments: &Discovery,
) -> Result<RunResults, String> {
    let per_thread = walk::visit(
        inputs,
        &settings.config,
        paths,
        threads,
        &RunResults::default,
        &|run, path, relative| {
            let display = paths.display(path);
            let settings = environments.settings_for(settings, path);
            let result = match cache {
                Some(cache) => cache.lint_path_with_environments(
                    path,
                    &display,
                    relative,
                    &settings,
                    settings.environment_digest(),
                    keep_text,
                    &mut run.cache_updates,
                ),
                None => engine::lint_path(path, &display, relative, &settings),
            };
            run.add(result, keep_text);
        },
    )?;
    let mut run = RunResults {
        walk_errors: per_thread.errors,
        ..RunResults::default()
    };
    for part in per_thread.states {
        run.merge(part);
    }
    Ok(run)
}

/// Reads and parses every file, runs no rule, prints how many documents were read: the
/// floor that the benchmark compares the whole check with.
pub(super) fn parse_only(
    inputs: &[PathBuf],
    settings: &Settings,
    paths: &walk::Paths,
    threads: Option<usize>,
) -> Result<ExitCode, String> {
    let counts = walk::visit(
        inputs,
        &settings.config,
        paths,
        threads,
        &|| (0usize, 0usize),
        &|(files, documents), path, _| {
            // Read as the check reads, so that the floor is a floor.
            let bytes = match engine::read_regular_file(path, settings.limits.max_file_bytes) {
                Ok(engine::ReadFile::Bytes(bytes)) => bytes,
                _ => Vec::new(),
            };
            let format = loading::Format::from_path(&path.to_string_lossy());
            *documents += loading::load(bytes, format, &settings.limits)
                .documents
                .len();
            *files += 1;
        },
    )?;
    for e in &counts.errors {
        print_error(e);
    }
    let (files, documents) = counts
        .states
        .into_iter()
        .fold((0, 0), |(f, d), (files, docs)| (f + files, d + docs));
    println!("{files} files, {documents} documents");
    Ok(ExitCode::SUCCESS)
}
