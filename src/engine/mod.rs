//! One file through the pipeline: load → model → rules → suppressions. Never panics
//! outward: whatever happens to one file, the others' results are kept.

mod fixing;

pub use fixing::{Fixed, fix_text, redacted_diff};

use std::collections::HashMap;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::Path;
use std::sync::Arc;

use crate::apis::{APIS, Api};
use crate::diagnostic::{Diagnostic, Severity};
use crate::loading::{self, Format, Limits, Position, Span};
use crate::model::config::Config;
use crate::model::context::ContextIndex;
use crate::model::file::{FileContext, FileMemo};
use crate::model::{self, FileModel, secrets};
use crate::redact;
use crate::rules::{Inspects, REGISTRY, Rule, RunContext, RunFacts};

/// What a run knows besides the files: the config and the context snapshots.
pub struct Settings {
    pub config: Config,
    pub context: ContextIndex,
    pub limits: Limits,
}

/// The outcome of one file.
#[derive(Debug)]
pub struct FileResult {
    /// The path as given or found by the walk.
    pub path: String,
    /// The text, kept only when there is something to show from it.
    pub text: Option<Arc<str>>,
    pub diagnostics: Vec<Diagnostic>,
    pub requests: usize,
    /// Per request that no API checks (its host is none reqlint knows, or its base
    /// variable cannot be placed): where it goes, as [`crate::apis::destination_shown`]
    /// says. Those requests are not judged.
    pub unjudged: Vec<String>,
    /// The file could not be read at all: the run fails (exit 2), the others are kept.
    pub io_error: Option<String>,
    /// What the file tells run-level rules.
    pub facts: RunFacts,
    /// Start and end of each diagnostic, kept when the text is dropped.
    pub positions: Option<Vec<(Position, Position)>>,
    /// Where the text holds a secret, sorted: code frames mask these whatever the rules
    /// said (see [`crate::redact`]).
    pub secrets: Vec<Span>,
}

impl FileResult {
    /// Start and end line/column of each diagnostic.
    pub fn positions(&self) -> Vec<(Position, Position)> {
        if let Some(p) = &self.positions {
            return p.clone();
        }
        let text = self.text.as_deref().unwrap_or("");
        let index = loading::LineIndex::new(text);
        self.diagnostics
            .iter()
            .map(|d| {
                (
                    index.position(text, d.span.start),
                    index.position(text, d.span.end),
                )
            })
            .collect()
    }

    /// Keeps the positions and drops the text, for reports that print no code frame.
    pub fn drop_text(&mut self) {
        if self.text.is_some() {
            self.positions = Some(self.positions());
            self.text = None;
        }
    }

    /// Gives back what the lists hold beyond their length: a run keeps the result of
    /// every file with a finding until the report, and a list of one diagnostic is
    /// allocated for four.
    pub fn shrink(&mut self) {
        self.diagnostics.shrink_to_fit();
        for d in &mut self.diagnostics {
            d.shrink();
        }
        self.path.shrink_to_fit();
        self.unjudged.shrink_to_fit();
        self.secrets.shrink_to_fit();
        if let Some(positions) = &mut self.positions {
            positions.shrink_to_fit();
        }
    }
}

/// Name of the diagnostic given when reqlint itself failed on a file.
pub const INTERNAL_ERROR: &str = "internal-error";

/// Reads and lints a file from disk. `rel` is the path relative to the config root,
/// for per-file-ignores.
pub fn lint_path(path: &Path, display: &str, rel: &Path, settings: &Settings) -> FileResult {
    let read = read_regular_file(path, settings.limits.max_file_bytes);
    lint_read(display, rel, read, settings)
}

/// Where the requests of a file on disk go that no API checks (a host, a base variable),
/// with the 1-based line of each request, read and routed as a lint would, with no rule
/// run: what `--show-files` lists under the file. An unreadable or oversized file has none.
pub fn unjudged_requests(
    path: &Path,
    display: &str,
    rel: &Path,
    settings: &Settings,
) -> Vec<(usize, String)> {
    let Ok(ReadFile::Bytes(bytes)) = read_regular_file(path, settings.limits.max_file_bytes) else {
        return Vec::new();
    };
    let registry = Registry::builtin();
    let format = Format::from_path(display);
    let loaded = load_file_with(registry, display, format, rel, bytes, settings);
    let model = FileModel::build_loaded(&loaded, &settings.limits);
    let lines: Vec<_> = model.requests.iter().map(|r| r.line()).collect();
    let routes = crate::apis::route_file(&registry.apis, &lines, &settings.config);
    let index = crate::loading::span::LineIndex::new(&loaded.text);
    unrouted(&lines, &routes)
        .map(|line| {
            (
                index.line_of(line.path_span.start) + 1,
                crate::apis::destination_shown(line),
            )
        })
        .collect()
}

/// The request lines no API was routed (the lint's summary and `--show-files` list them).
fn unrouted<'l>(
    lines: &'l [Option<&'l crate::model::RequestLine>],
    routes: &'l [Option<crate::apis::ApiId>],
) -> impl Iterator<Item = &'l crate::model::RequestLine> {
    lines
        .iter()
        .zip(routes)
        .filter_map(|(line, route)| route.is_none().then_some(*line).flatten())
}

/// Lints what reading a file gave: its bytes, its size over the limit, or the error.
pub fn lint_read(
    display: &str,
    rel: &Path,
    read: std::io::Result<ReadFile>,
    settings: &Settings,
) -> FileResult {
    let io_failure = |e: std::io::Error| FileResult {
        path: display.to_string(),
        text: None,
        diagnostics: Vec::new(),
        requests: 0,
        unjudged: Vec::new(),
        io_error: Some(format!("cannot read {display}: {e}")),
        facts: RunFacts::default(),
        positions: None,
        secrets: Vec::new(),
    };
    match read {
        Ok(ReadFile::Bytes(bytes)) => lint_bytes(display, rel, bytes, settings),
        Ok(ReadFile::TooLarge(size)) => lint_oversized(display, rel, Some(size), settings),
        Err(e) => io_failure(e),
    }
}

pub use crate::loading::{ReadFile, read_regular_file, read_regular_file_with_metadata};

/// The result of a file over the size limit, which is not read (`size`: `None` for a
/// stream, whose size is not known).
pub fn lint_oversized(
    display: &str,
    rel: &Path,
    size: Option<u64>,
    settings: &Settings,
) -> FileResult {
    let problems = [loading::too_large(size, &settings.limits)];
    let model = FileModel::default();
    let (diagnostics, facts, _) = run_rules(
        Registry::builtin(),
        display,
        Format::from_path(display),
        "",
        &problems,
        &model,
        rel,
        settings,
    );
    FileResult {
        path: display.to_string(),
        text: Some(Arc::from("")),
        diagnostics,
        requests: 0,
        unjudged: Vec::new(),
        io_error: None,
        facts,
        positions: None,
        secrets: Vec::new(),
    }
}

/// Lints a file's bytes (from disk or standard input).
pub fn lint_bytes(display: &str, rel: &Path, bytes: Vec<u8>, settings: &Settings) -> FileResult {
    lint_bytes_with(Registry::builtin(), display, rel, bytes, settings)
}

/// [`lint_bytes`] with the APIs and rules of `registry`.
pub fn lint_bytes_with(
    registry: &Registry,
    display: &str,
    rel: &Path,
    bytes: Vec<u8>,
    settings: &Settings,
) -> FileResult {
    let outcome = catch_unwind(AssertUnwindSafe(|| {
        lint_unguarded(registry, display, rel, bytes, settings)
    }));
    outcome.unwrap_or_else(|panic| {
        let what = panic
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| panic.downcast_ref::<String>().cloned())
            .unwrap_or_default();
        FileResult {
            path: display.to_string(),
            text: Some(Arc::from("")),
            diagnostics: vec![Diagnostic {
                rule: INTERNAL_ERROR,
                severity: Severity::Error,
                message: redact::Redactor::none()
                    .line(&format!("reqlint failed on this file: {what}")),
                help: Some("please report this with the file; the other files were linted".into()),
                api_error: None,
                span: Span::empty(0),
                labels: Vec::new(),
                secret: false,
                once_per_run: false,
                fix: None,
            }],
            requests: 0,
            unjudged: Vec::new(),
            io_error: None,
            facts: RunFacts::default(),
            positions: None,
            secrets: Vec::new(),
        }
    })
}

/// What the config tells the readers of a file (its `paths`: relative to the config's
/// root, and as reported): the variables, and which named token a variable or the file
/// stands for.
pub fn read_options<'a>(
    config: &'a crate::model::config::Config,
    paths: &[&Path],
) -> loading::readers::ReadOptions<'a> {
    loading::readers::ReadOptions {
        variables: &config.variables,
        left_to_the_file: &config.variables_left_to_files,
        token_variables: &config.token_variables,
        file_token: config.token_for_file(paths),
    }
}

/// A file read as the check reads it: by the reader its name selects, with the config's
/// variables and tokens, its JSON-encoded params decoded.
pub fn load_file(
    display: &str,
    rel: &Path,
    bytes: Vec<u8>,
    settings: &Settings,
) -> loading::Loaded {
    let format = Format::from_path(display);
    load_file_with(Registry::builtin(), display, format, rel, bytes, settings)
}

/// [`load_file`], with the JSON-encoded params of `registry`'s APIs.
fn load_file_with(
    registry: &Registry,
    display: &str,
    format: Format,
    rel: &Path,
    bytes: Vec<u8>,
    settings: &Settings,
) -> loading::Loaded {
    let options = read_options(&settings.config, &[rel, Path::new(display)]);
    let mut loaded = loading::load_with(bytes, format, &settings.limits, &options);
    let decode_problems = crate::loading::encoded_params::decode_encoded_params(
        &mut loaded.documents,
        &loaded.text,
        &settings.limits,
        &registry.json_encoded_params,
    );
    loaded.problems.extend(decode_problems);
    loaded
}

fn lint_unguarded(
    registry: &Registry,
    display: &str,
    rel: &Path,
    bytes: Vec<u8>,
    settings: &Settings,
) -> FileResult {
    let format = Format::from_path(display);
    let loaded = load_file_with(registry, display, format, rel, bytes, settings);
    let model = FileModel::build_loaded(&loaded, &settings.limits);
    let (mut diagnostics, mut facts, unjudged) = run_rules(
        registry,
        display,
        format,
        &loaded.text,
        &loaded.problems,
        &model,
        rel,
        settings,
    );
    if format.has_comments() && !diagnostics.is_empty() {
        apply_suppressions(&loaded.text, &loaded.documents, &mut diagnostics);
    }
    let requests = model.requests.len();
    drop(model);
    // Only what is shown needs cleaning, and a file without a diagnostic shows nothing;
    // but which of the config's variables it uses as credentials concerns every file.
    let secrets = if diagnostics.is_empty() && settings.config.variables.is_empty() {
        Vec::new()
    } else {
        let secrets = secrets::file_secrets(
            &loaded.text,
            &loaded.documents,
            &loaded.problems,
            &settings.config.variables,
        );
        facts
            .credential_variables
            .extend(secrets.credential_variables.iter().cloned());
        if diagnostics.is_empty() {
            Vec::new()
        } else {
            redact_diagnostics(&loaded.text, &secrets, &mut diagnostics)
        }
    };
    FileResult {
        path: display.to_string(),
        text: (!diagnostics.is_empty()).then(|| Arc::from(loaded.text)),
        diagnostics,
        requests,
        unjudged,
        io_error: None,
        facts,
        positions: None,
        secrets,
    }
}

/// Everything the diagnostics of a text show passes the redaction step (message and
/// labels as one line, help as lines) with the text's secrets, whose spans are returned
/// for the code frames. A fix whose new text would show a secret is dropped: masked, it
/// would write the mask into the file.
fn redact_diagnostics(
    text: &str,
    secrets: &secrets::FileSecrets,
    diagnostics: &mut [Diagnostic],
) -> Vec<Span> {
    let redactor = redact::Redactor::for_secrets(text, secrets);
    mask_shown(&redactor, diagnostics);
    secrets.spans.clone()
}

/// What diagnostics show, passed through `redactor` (message and labels as one line,
/// help as lines); a fix whose new text would show a secret is dropped.
fn mask_shown(redactor: &redact::Redactor, diagnostics: &mut [Diagnostic]) {
    for d in diagnostics {
        d.message = redactor.line(&d.message);
        if let Some(help) = &d.help {
            d.help = Some(redactor.lines(help));
        }
        for label in &mut d.labels {
            label.message = redactor.line(&label.message);
        }
        if let Some(fix) = &mut d.fix {
            fix.message = redactor.line(&fix.message);
        }
        let shows_a_secret = d.fix.as_ref().is_some_and(|fix| {
            fix.edits
                .iter()
                .any(|e| redactor.mask(&e.replacement) != e.replacement.as_str())
        });
        if shows_a_secret {
            d.fix = None;
        }
    }
}

/// The values of the config's variables that some file of the run uses in a credential
/// position are secrets of every file: one that uses such a value as an ordinary one
/// (`objective={{t}}`) would otherwise echo it in a message, since each file is linted
/// (and cached) alone. Masked here, once the whole run is known.
pub fn mask_credential_variables(
    settings: &Settings,
    facts: &RunFacts,
    results: &mut [FileResult],
) {
    let values: Vec<String> = facts
        .credential_variables
        .iter()
        .filter_map(|name| settings.config.variables.get(name)?.as_deref())
        .flat_map(|value| {
            // The value as written, and without the scheme it may start with.
            let value = value.trim();
            let bare = value.rsplit(char::is_whitespace).next().unwrap_or(value);
            [value.to_string(), bare.to_string()]
        })
        .collect();
    if values.is_empty() {
        return;
    }
    let redactor = redact::Redactor::for_literals(values);
    for r in results {
        mask_shown(&redactor, &mut r.diagnostics);
    }
}

/// The secrets of a file's text as the check finds them (read by the reader its name
/// selects, with the config's variables): for what is shown about the file outside a
/// check (a diff, a hover, a completion).
pub fn file_secrets(
    display: &str,
    rel: &Path,
    text: &str,
    settings: &Settings,
) -> secrets::FileSecrets {
    let loaded = load_file(display, rel, text.as_bytes().to_vec(), settings);
    secrets::file_secrets(
        &loaded.text,
        &loaded.documents,
        &loaded.problems,
        &settings.config.variables,
    )
}

/// The redaction of every text shown about a file ([`file_secrets`]).
pub fn file_redactor(
    display: &str,
    rel: &Path,
    text: &str,
    settings: &Settings,
) -> redact::Redactor {
    redact::Redactor::for_secrets(text, &file_secrets(display, rel, text, settings))
}

/// The APIs and the rules a lint runs with, and which rules inspect each operation of
/// each API: the built-in ones ([`Registry::builtin`]), or others (a test registers a toy
/// API beside them without touching the engine).
pub struct Registry {
    pub apis: Vec<&'static dyn Api>,
    pub rules: Vec<&'static dyn Rule>,
    /// The rules' names, in the order of `rules`.
    pub rule_names: Vec<&'static str>,
    /// The params the APIs take as JSON-encoded strings only.
    pub json_encoded_params: Vec<&'static str>,
    /// Per API (in the order of `apis`), per operation: the indexes in `rules` of the
    /// rules that inspect its requests.
    dispatch: Vec<Vec<Vec<usize>>>,
    /// Per API: the indexes of every rule that inspects its requests, once each.
    api_rules: Vec<Vec<usize>>,
    /// The rules' metadata, in the order of `rules`: read for every rule of every file.
    metas: Vec<&'static crate::rules::rule::RuleMeta>,
    /// The indexes of the rules that inspect whole files.
    file_rules: Vec<usize>,
}

impl Registry {
    pub fn new(apis: Vec<&'static dyn Api>, rules: Vec<&'static dyn Rule>) -> Registry {
        let dispatch: Vec<Vec<Vec<usize>>> = apis
            .iter()
            .map(|api| {
                (0..api.operation_count())
                    .map(|operation| {
                        (0..rules.len())
                            .filter(|&i| match rules[i].meta().inspects {
                                Inspects::Requests(set) => {
                                    set.api() == api.id() && set.includes(operation)
                                }
                                Inspects::File => false,
                            })
                            .collect()
                    })
                    .collect()
            })
            .collect();
        let api_rules = dispatch
            .iter()
            .map(|operations| {
                let mut rules: Vec<usize> = operations.iter().flatten().copied().collect();
                rules.sort_unstable();
                rules.dedup();
                rules
            })
            .collect();
        let json_encoded_params = apis
            .iter()
            .flat_map(|api| api.json_encoded_params().iter().copied())
            .collect();
        let metas: Vec<_> = rules.iter().map(|r| r.meta()).collect();
        let file_rules = (0..rules.len())
            .filter(|&i| matches!(metas[i].inspects, Inspects::File))
            .collect();
        Registry {
            apis,
            rule_names: metas.iter().map(|m| m.name).collect(),
            json_encoded_params,
            rules,
            dispatch,
            api_rules,
            metas,
            file_rules,
        }
    }

    /// The APIs of `crate::apis::APIS` and the rules of `crate::rules::REGISTRY`.
    pub fn builtin() -> &'static Registry {
        static BUILTIN: std::sync::LazyLock<Registry> =
            std::sync::LazyLock::new(|| Registry::new(APIS.to_vec(), REGISTRY.to_vec()));
        &BUILTIN
    }

    /// The rules that inspect requests routed to operation `operation` of API `api` (its
    /// place in `apis`), as indexes into `rules`.
    pub fn rules_for(&self, api: usize, operation: u32) -> &[usize] {
        self.dispatch[api]
            .get(operation as usize)
            .map_or(&[], Vec::as_slice)
    }
}

/// Runs `registry`'s rules on one file: the file rules once, then, for each API, each of
/// its routed requests through the rules that asked for its operation.
#[allow(clippy::too_many_arguments)]
fn run_rules(
    registry: &Registry,
    display: &str,
    format: Format,
    text: &str,
    problems: &[loading::Problem],
    model: &FileModel<'_>,
    rel: &Path,
    settings: &Settings,
) -> (Vec<Diagnostic>, RunFacts, Vec<String>) {
    let lines: Vec<_> = model.requests.iter().map(|r| r.line()).collect();
    let routes = crate::apis::route_file(&registry.apis, &lines, &settings.config);
    let unjudged = unrouted(&lines, &routes)
        .map(crate::apis::destination_shown)
        .collect();
    let cx = FileContext {
        path: display,
        format,
        text,
        problems,
        model,
        config: &settings.config,
        context: &settings.context,
        rule_names: &registry.rule_names,
        routes,
        memo: FileMemo::default(),
    };
    let mut diagnostics = Vec::new();
    let mut facts = RunFacts::default();
    let paths = [rel, Path::new(display)];
    // Each rule's configured severity, or `None` where it does not run on this file.
    let mut enabled: Vec<Option<Severity>> = Vec::with_capacity(registry.rules.len());
    for (rule, meta) in registry.rules.iter().zip(&registry.metas) {
        let Some(severity) = settings.config.severity(meta.name, meta.severity) else {
            enabled.push(None);
            continue;
        };
        // What a file tells the run counts even where its own diagnostics are ignored.
        rule.collect(&cx, &mut facts);
        enabled.push((!settings.config.ignored_for(meta.name, &paths)).then_some(severity));
    }
    let run = |index: usize,
               diagnostics: &mut Vec<Diagnostic>,
               hook: &dyn Fn(&dyn Rule, &mut Vec<Diagnostic>)| {
        if let Some(severity) = enabled[index] {
            let rule = registry.rules[index];
            let from = diagnostics.len();
            hook(rule, diagnostics);
            set_severity(
                &mut diagnostics[from..],
                registry.metas[index].severity,
                severity,
            );
        }
    };
    for &index in &registry.file_rules {
        run(index, &mut diagnostics, &|rule, out| rule.check(&cx, out));
    }
    // One walk of each API's requests: each goes to the rules that asked for its
    // operation. An API none of whose rules runs is not asked to recognize anything.
    for (api_index, api) in registry.apis.iter().enumerate() {
        let wanted = registry.api_rules[api_index]
            .iter()
            .any(|&rule| enabled[rule].is_some());
        if !wanted {
            continue;
        }
        for routed in api.operations(&cx) {
            for &index in registry.rules_for(api_index, routed.operation) {
                run(index, &mut diagnostics, &|rule, out| {
                    rule.check_request(&cx, routed, out)
                });
            }
        }
    }
    sort(&mut diagnostics);
    (diagnostics, facts, unjudged)
}

fn set_severity(diagnostics: &mut [Diagnostic], default: Severity, configured: Severity) {
    if configured != default {
        for d in diagnostics {
            d.severity = configured;
        }
    }
}

fn sort(diagnostics: &mut [Diagnostic]) {
    diagnostics.sort_by(|a, b| {
        (a.span.start, a.span.end, a.rule).cmp(&(b.span.start, b.span.end, b.rule))
    });
}

/// Sorts `results` by path, keeping the order of the results of one path. Indices are
/// sorted and each result moved once: a stable sort of the results themselves would take
/// a scratch copy of half of them, some hundred bytes each, which a run of thousands of
/// files pays in fresh pages.
pub fn sort_by_path(results: &mut [FileResult]) {
    let mut order: Vec<usize> = (0..results.len()).collect();
    order.sort_by(|&a, &b| results[a].path.cmp(&results[b].path));
    // `order[i]` is where the result that belongs at `i` was; a result already moved
    // away from there is found by following where its place's own result went.
    for i in 0..order.len() {
        let mut from = order[i];
        while from < i {
            from = order[from];
        }
        order[i] = from;
        results.swap(i, from);
    }
}

/// Keeps the first diagnostic of those said once per run (the same rule and message),
/// in the order of `results`, and drops the others, with their positions when the text
/// has been dropped.
pub fn keep_first_of_run(results: &mut [FileResult]) {
    let mut seen = std::collections::HashSet::new();
    for r in results {
        if !r.diagnostics.iter().any(|d| d.once_per_run) {
            continue;
        }
        let keep: Vec<bool> = r
            .diagnostics
            .iter()
            .map(|d| !d.once_per_run || seen.insert((d.rule, d.message.clone())))
            .collect();
        let mut kept = keep.iter();
        r.diagnostics
            .retain(|_| kept.next().copied().unwrap_or(true));
        if let Some(positions) = &mut r.positions {
            let mut kept = keep.iter();
            positions.retain(|_| kept.next().copied().unwrap_or(true));
        }
    }
}

/// The judgements only a whole run can make (which permissions of a named token its
/// requests use), as a result for the config file, where their spans are.
/// `complete`: the run walked directories rather than a chosen few files.
pub fn lint_run(settings: &Settings, facts: &RunFacts, complete: bool) -> Option<FileResult> {
    let config = &settings.config;
    let path = config.path.as_ref()?;
    let run = RunContext {
        config,
        facts,
        complete,
    };
    let display = std::env::current_dir()
        .ok()
        .and_then(|cwd| path.strip_prefix(&cwd).ok().map(Path::to_path_buf))
        .unwrap_or_else(|| path.clone())
        .to_string_lossy()
        .into_owned();
    let mut diagnostics = Vec::new();
    for rule in REGISTRY {
        let meta = rule.meta();
        let Some(severity) = config.severity(meta.name, meta.severity) else {
            continue;
        };
        if config.ignored_for(meta.name, &[Path::new(&display)]) {
            continue;
        }
        let from = diagnostics.len();
        rule.check_run(&run, &mut diagnostics);
        set_severity(&mut diagnostics[from..], meta.severity, severity);
    }
    if diagnostics.is_empty() {
        return None;
    }
    let (documents, problems) = loading::parse_text(&config.text, Format::Yaml, &settings.limits);
    apply_suppressions(&config.text, &documents, &mut diagnostics);
    sort(&mut diagnostics);
    let mut secrets = secrets::file_secrets(&config.text, &documents, &problems, &config.variables);
    // The values the config gives variables may be credentials of the request files.
    let variables = documents
        .iter()
        .filter_map(|d| d.get_value("variables"))
        .flat_map(|v| v.as_map().unwrap_or_default())
        .map(|e| e.value.span);
    secrets.spans = secrets::merge(secrets.spans.iter().copied().chain(variables).collect());
    let secrets = redact_diagnostics(&config.text, &secrets, &mut diagnostics);
    Some(FileResult {
        path: display,
        text: Some(Arc::from(config.text.as_str())),
        diagnostics,
        requests: 0,
        unjudged: Vec::new(),
        io_error: None,
        facts: RunFacts::default(),
        positions: None,
        secrets,
    })
}

/// The environment files the config names, as results of their own: a credential
/// written in one is reported there (`literal-secret`), where it is written, rather than
/// in the request files its value is substituted into. Every value of such a file is
/// masked in its code frames: any may be a credential.
pub fn lint_environments(settings: &Settings) -> Vec<FileResult> {
    use crate::rules::core::literal_secret;
    let config = &settings.config;
    let rule = literal_secret::LiteralSecret.meta();
    let Some(severity) = config.severity(rule.name, rule.severity) else {
        return Vec::new();
    };
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    for (entry, _) in &config.environments {
        let file = entry
            .rsplit_once('#')
            .map_or(entry.as_str(), |(file, _)| file);
        if !seen.insert(file) {
            continue;
        }
        let path = config.root.join(file);
        let display = crate::files::relative_to_cwd(&path);
        if config.ignored_for(rule.name, &[Path::new(file), Path::new(&display)]) {
            continue;
        }
        let Ok(ReadFile::Bytes(bytes)) = read_regular_file(&path, settings.limits.max_file_bytes)
        else {
            continue;
        };
        let Ok(text) = String::from_utf8(bytes) else {
            continue;
        };
        let mut diagnostics = literal_secret::in_environment(&text);
        if diagnostics.is_empty() {
            continue;
        }
        set_severity(&mut diagnostics, rule.severity, severity);
        let mut spans = environment_values(&text, file);
        spans.extend(secrets::file_secrets(&text, &[], &[], &config.variables).spans);
        let secrets = secrets::FileSecrets {
            spans: secrets::merge(spans),
            ..Default::default()
        };
        let redactor = redact::Redactor::for_secrets(&text, &secrets);
        for d in &mut diagnostics {
            d.message = redactor.line(&d.message);
        }
        out.push(FileResult {
            path: display,
            text: Some(Arc::from(text)),
            diagnostics,
            requests: 0,
            unjudged: Vec::new(),
            io_error: None,
            facts: RunFacts::default(),
            positions: None,
            secrets: secrets.spans,
        });
    }
    out
}

/// Where an environment file writes its variables' values: the values of a JSON one
/// (not the names a Postman environment gives under `key`, nor `type` and `enabled`),
/// what follows the `:` of each line of a Bruno one.
fn environment_values(text: &str, file: &str) -> Vec<Span> {
    if loading::readers::ends_with_ignoring_case(file, ".bru") {
        let mut out = Vec::new();
        let mut at = 0;
        for line in text.split_inclusive('\n') {
            if let Some(colon) = line.find(':') {
                let value = line[colon + 1..].trim_end();
                out.push(Span::new(at + colon + 1, at + colon + 1 + value.len()));
            }
            at += line.len();
        }
        return out;
    }
    let (documents, _) = loading::parse_text(text, Format::Json, &Limits::DEFAULT);
    let mut out = Vec::new();
    let mut stack: Vec<&loading::Node> = documents.iter().collect();
    while let Some(node) = stack.pop() {
        match &node.value {
            loading::Value::Map(entries) => stack.extend(
                entries
                    .iter()
                    .filter(|e| !matches!(e.key.as_str(), "key" | "type" | "enabled" | "name"))
                    .map(|e| &e.value),
            ),
            loading::Value::Seq(items) => stack.extend(items),
            loading::Value::String(_) | loading::Value::Number(_) => out.push(node.span),
            _ => {}
        }
    }
    out
}

/// `# reqlint: ignore[rule-a, rule-b]` (docs/usage.md#suppressing-diagnostics): at the end of a line it silences
/// those rules on that line; alone on a line, on the next line.
fn apply_suppressions(text: &str, documents: &[loading::Node], diagnostics: &mut Vec<Diagnostic>) {
    let roots: Vec<&loading::Node> = documents.iter().collect();
    let suppressions = model::suppressions::comments(text, &roots);
    if suppressions.is_empty() {
        return;
    }
    // Silenced rules by line: a file with many suppressions and many diagnostics costs
    // one lookup a diagnostic.
    let mut silenced: HashMap<usize, Vec<&str>> = HashMap::new();
    for s in &suppressions {
        silenced
            .entry(s.line)
            .or_default()
            .extend(s.rules.iter().map(|(name, _)| name.as_str()));
    }
    let index = loading::LineIndex::new(text);
    diagnostics.retain(|d| {
        silenced
            .get(&index.line_of(d.span.start))
            .is_none_or(|rules| !rules.contains(&d.rule))
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn result(path: &str, requests: usize) -> FileResult {
        FileResult {
            path: path.into(),
            text: None,
            diagnostics: Vec::new(),
            requests,
            unjudged: Vec::new(),
            io_error: None,
            facts: RunFacts::default(),
            positions: None,
            secrets: Vec::new(),
        }
    }

    /// A diagnostic said once per run is dropped from the second file with its position,
    /// so that the positions of the file's other diagnostics stay theirs (a report
    /// without code frames reads positions kept apart from the dropped text).
    #[test]
    fn once_per_run_keeps_positions_in_step() {
        struct Named(&'static str);
        impl crate::diagnostic::Reporter for Named {
            fn rule_name(&self) -> &'static str {
                self.0
            }
            fn default_severity(&self) -> Severity {
                Severity::Warning
            }
        }
        let said_once = |at: usize| {
            Diagnostic::new(&Named("newer"), Span::new(at, at + 1), "newer").once_per_run()
        };
        let other = |at: usize| Diagnostic::new(&Named("other"), Span::new(at, at + 1), "unknown");
        let text = "a\nb\nc\nd\n";
        let mut first = result("a", 1);
        first.text = Some(Arc::from(text));
        first.diagnostics = vec![said_once(0)];
        let mut second = result("b", 1);
        second.text = Some(Arc::from(text));
        second.diagnostics = vec![said_once(2), other(4), said_once(6)];
        let mut results = vec![first, second];
        for r in &mut results {
            r.drop_text();
        }
        keep_first_of_run(&mut results);
        assert_eq!(results[0].diagnostics.len(), 1);
        let b = &results[1];
        assert_eq!(b.diagnostics.len(), 1);
        assert_eq!(b.diagnostics[0].message, "unknown");
        let lines: Vec<_> = b.positions().iter().map(|(start, _)| start.line).collect();
        assert_eq!(lines, [3]);
    }

    /// The order of a stable sort by path, with results of one path (told apart by their
    /// request counts) left in the order they came, for lists of every length to 40.
    #[test]
    fn sort_by_path_is_a_stable_sort() {
        let mut next = crate::testing::xorshift(0x5eed);
        for len in 0..40 {
            for _ in 0..25 {
                let results: Vec<FileResult> = (0..len)
                    .map(|i| result(&format!("f{}", next() % 6), i))
                    .collect();
                let key = |r: &FileResult| (r.path.clone(), r.requests);
                let mut expected: Vec<_> = results.iter().map(key).collect();
                expected.sort_by(|a, b| a.0.cmp(&b.0));
                let mut sorted = results;
                sort_by_path(&mut sorted);
                assert_eq!(sorted.iter().map(key).collect::<Vec<_>>(), expected);
            }
        }
    }
}
