//! The command line (docs/usage.md).

use std::fmt::Write as _;
use std::io::{IsTerminal, Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::diagnostic::Severity;
use crate::engine::{self, FileResult, Settings};
use crate::model::config::Config;
use crate::reports;
use crate::rules::{self, REGISTRY};
use crate::suggest::did_you_mean;
use crate::walk;

#[derive(Parser, Debug)]
#[command(
    name = "reqlint",
    version,
    about = "An offline linter for API request files",
    args_conflicts_with_subcommands = true
)]
pub struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    check: CheckArgs,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Lint files and directories (the default command)
    Check(Box<CheckArgs>),
    /// List every rule: name, group, default severity, summary
    Rules,
    /// Show what a rule checks, why, its source, and a bad and a good example
    Explain {
        /// The rule's name, as `reqlint rules` lists it
        rule: String,
    },
    /// Print the least permissions each token's code-hosting requests need, as a token block
    Scopes(ScopesArgs),
    /// Run the Language Server Protocol server on standard input and output (for editors)
    Server,
    /// Print a JSON Schema for request files or for .reqlint.yaml
    Schema {
        #[arg(value_enum)]
        kind: SchemaKind,
    },
    /// Print a shell completion script (bash, zsh, fish, powershell, elvish)
    Completions {
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print the man page (roff), generated from the command line's definitions
    Manpage {
        /// Write reqlint.1 and a page for each command (reqlint-check.1, ...) into DIR
        /// instead
        #[arg(long, value_name = "DIR")]
        dir: Option<PathBuf>,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum SchemaKind {
    /// A request file (docs/request-files.md)
    Request,
    /// .reqlint.yaml (docs/configuration.md)
    Config,
}

#[derive(Args, Debug)]
struct ScopesArgs {
    /// Files and directories to read [default: .]
    paths: Vec<PathBuf>,
    /// Output format
    #[arg(long, value_enum, default_value_t = ScopesFormat::Yaml)]
    format: ScopesFormat,
    /// Config file to use instead of the nearest .reqlint.yaml
    #[arg(long, value_name = "PATH")]
    config: Option<PathBuf>,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
enum ScopesFormat {
    /// A `token:` block per token, ready to paste, with the request each permission covers
    #[default]
    Yaml,
    /// {"tokens": [{"token", "permissions", "requests"}]}
    Json,
}

#[derive(Args, Debug, Default)]
struct CheckArgs {
    /// Files and directories to lint; `-` reads standard input [default: .]
    paths: Vec<PathBuf>,
    /// Output format [default: github when GITHUB_ACTIONS is set, else human]
    #[arg(long, value_enum)]
    format: Option<OutputFormat>,
    /// Exit 0 even when errors are found (to upload a report first and fail later)
    #[arg(long)]
    exit_zero: bool,
    /// Config file to use instead of the nearest .reqlint.yaml
    #[arg(long, value_name = "PATH")]
    config: Option<PathBuf>,
    /// Context snapshot file (repeatable); added to the config's `context`
    #[arg(long, value_name = "PATH")]
    context: Vec<PathBuf>,
    /// Environment file whose variables apply (repeatable; `FILE#name` picks one
    /// environment); read after the config's `environments`
    #[arg(long, value_name = "PATH")]
    environment: Vec<String>,
    /// The file name to report (and to choose YAML or JSON by) for standard input
    #[arg(long, value_name = "NAME")]
    stdin_filename: Option<String>,
    /// When to colour the human report; NO_COLOR is honoured under `auto`
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto)]
    color: ColorChoice,
    /// Number of threads to lint with, at most four per core [default: all cores]
    #[arg(long, value_name = "N", value_parser = parse_threads)]
    threads: Option<usize>,
    /// Files named on the command line obey `include` and `exclude` too (for hooks and
    /// editors that pass every file they have)
    #[arg(long)]
    force_exclude: bool,
    /// Lint every file, reading no cached result and writing none
    #[arg(long)]
    no_cache: bool,
    /// Where the cache of results is kept; a directory of your own, never one the repository
    /// holds [default: reqlint/ in the user's cache directory]
    #[arg(long, value_name = "DIR")]
    cache_dir: Option<PathBuf>,
    /// Read and parse the files but run no rule (for benchmarks)
    #[arg(long, hide = true)]
    parse_only: bool,
    /// Apply the safe fixes (a misspelt name or value with one close candidate, a method in
    /// capitals, a deprecated value's replacement), then report what is left
    #[arg(long)]
    fix: bool,
    /// With --fix, --diff or --fix-only: apply the unsafe fixes too (they change what a
    /// request does: removing a param, a permission)
    #[arg(long)]
    unsafe_fixes: bool,
    /// Print the unified diff of what --fix would change, and change nothing
    #[arg(long)]
    diff: bool,
    /// Apply the fixes and report nothing else
    #[arg(long)]
    fix_only: bool,
    /// Run only these rules or groups (comma-separated; files, code-hosting, advertising,
    /// ALL); overrides the config's `select`, and turns on rules the config turns off
    #[arg(long, value_name = "RULES", value_delimiter = ',')]
    select: Vec<String>,
    /// Also run these rules or groups, even where the config turns them off (adds to the
    /// config's `extend-select`)
    #[arg(long, value_name = "RULES", value_delimiter = ',')]
    extend_select: Vec<String>,
    /// Do not run these rules or groups (adds to the config's `ignore`)
    #[arg(long, value_name = "RULES", value_delimiter = ',')]
    ignore: Vec<String>,
    /// Report only diagnostics of this severity or above (overrides the config's
    /// `min-severity`)
    #[arg(long, value_enum, value_name = "SEVERITY")]
    min_severity: Option<MinSeverity>,
    /// Write the report to this file instead of standard output
    #[arg(long, value_name = "PATH")]
    output_file: Option<PathBuf>,
    /// Print how many diagnostics each rule reports, instead of the diagnostics
    #[arg(long)]
    statistics: bool,
    /// Print the files that would be linted, and lint nothing
    #[arg(long)]
    show_files: bool,
    /// Print the settings the run would use (config, files, rules, tokens), and lint nothing
    #[arg(long)]
    show_settings: bool,
    /// Report only findings that this baseline file does not hold
    #[arg(long, value_name = "FILE")]
    baseline: Option<PathBuf>,
    /// Write the run's findings to this baseline file (for --baseline), and exit 0
    #[arg(long, value_name = "FILE")]
    write_baseline: Option<PathBuf>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum MinSeverity {
    Info,
    Warning,
    Error,
}

/// `--threads N`: at least one, and at most four a core. More threads than that only
/// cost their start (1,000 of them took 25 s on 30 files) and their memory.
fn parse_threads(text: &str) -> Result<usize, String> {
    let n: usize = text
        .parse()
        .map_err(|_| format!("`{text}` is not a number of threads"))?;
    if n == 0 {
        return Err("the number of threads must be at least 1".into());
    }
    Ok(n.min(max_threads()))
}

/// Four threads a core: reading files overlaps linting, so a few more threads than cores
/// still help; past that they only wait.
fn max_threads() -> usize {
    4 * std::thread::available_parallelism().map_or(1, |n| n.get())
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
enum OutputFormat {
    /// miette's graphical report with code frames
    #[default]
    Human,
    /// path:line:col: severity[rule]: message
    Concise,
    /// One JSON document (docs/usage.md#output-formats)
    Json,
    /// SARIF 2.1.0, for code scanning
    Sarif,
    /// GitHub Actions workflow commands (annotations)
    Github,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
enum ColorChoice {
    #[default]
    Auto,
    Always,
    Never,
}

/// `reqlint completions SHELL`: the shell's completion script.
fn completion_script(shell: clap_complete::Shell) -> Vec<u8> {
    use clap::CommandFactory;
    let mut out = Vec::new();
    clap_complete::generate(
        shell,
        &mut with_rule_names(Cli::command()),
        "reqlint",
        &mut out,
    );
    out
}

/// The command line as the shell completions see it: the rule names after `explain`,
/// and the rule and group names after `--select`, `--extend-select` and `--ignore`.
/// Parsing does not use these lists: an unknown name gets reqlint's own error, with the
/// closest name.
fn with_rule_names(command: clap::Command) -> clap::Command {
    use clap::builder::PossibleValuesParser;
    let rules = rules::names();
    let mut selectable = rules.clone();
    selectable.extend_from_slice(rules::GROUP_NAMES);
    let selection = |mut c: clap::Command| {
        for id in ["select", "extend_select", "ignore"] {
            if c.get_arguments().any(|a| a.get_id() == id) {
                let names = selectable.clone();
                c = c.mut_arg(id, |a| a.value_parser(PossibleValuesParser::new(names)));
            }
        }
        c
    };
    selection(command)
        .mut_subcommand("check", selection)
        .mut_subcommand("explain", |c| {
            c.mut_arg("rule", |a| a.value_parser(PossibleValuesParser::new(rules)))
        })
}

/// Runs the command line and gives the exit code (docs/usage.md#exit-codes).
pub fn main() -> ExitCode {
    // A panic on one file becomes that file's `internal-error` diagnostic; say it in one line.
    std::panic::set_hook(Box::new(|info| {
        print_line("internal error", &info.to_string());
    }));
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => return clap_exit(e),
    };
    let result = match cli.command {
        Some(Command::Rules) => list_rules(),
        Some(Command::Explain { rule }) => explain(&rule),
        Some(Command::Check(args)) => check(*args),
        Some(Command::Scopes(args)) => scopes(args),
        Some(Command::Server) => crate::lsp::run(),
        Some(Command::Schema { kind }) => print_schema(kind),
        Some(Command::Completions { shell }) => write_stdout(&completion_script(shell)),
        Some(Command::Manpage { dir: None }) => {
            use clap::CommandFactory;
            let mut out = Vec::new();
            match clap_mangen::Man::new(Cli::command()).render(&mut out) {
                Ok(()) => write_stdout(&out),
                Err(e) => Err(format!("cannot write the man page: {e}")),
            }
        }
        Some(Command::Manpage { dir: Some(dir) }) => write_man_pages(&dir),
        None => check(cli.check),
    };
    match result {
        Ok(code) => code,
        Err(message) => {
            print_error(&message);
            ExitCode::from(2)
        }
    }
}

/// `manpage --dir DIR`: `reqlint.1` and a page for each command, as clap_mangen's
/// `generate_to` names them, each written through [`crate::files::create_named`] with
/// the working directory as the project: inside it, neither DIR nor a page planted in it
/// may be a link that leads out of it.
fn write_man_pages(dir: &Path) -> Result<ExitCode, String> {
    use clap::CommandFactory;
    fn pages(command: clap::Command, out: &mut Vec<(String, Vec<u8>)>) -> std::io::Result<()> {
        for sub in command.get_subcommands().filter(|s| !s.is_hide_set()) {
            pages(sub.clone(), out)?;
        }
        let man = clap_mangen::Man::new(command);
        let mut page = Vec::new();
        man.render(&mut page)?;
        out.push((man.get_filename(), page));
        Ok(())
    }
    let mut command = Cli::command().disable_help_subcommand(true);
    command.build();
    let mut rendered = Vec::new();
    pages(command, &mut rendered).map_err(|e| format!("cannot write the man page: {e}"))?;
    let project = Path::new(".");
    crate::files::check_link_stays_inside(dir, project)
        .map_err(|e| format!("{e}; the man pages were not written"))?;
    std::fs::create_dir_all(dir)
        .map_err(|e| format!("cannot write the man pages to {}: {e}", dir.display()))?;
    for (name, page) in rendered {
        let path = dir.join(name);
        crate::files::create_named(&path, project)?
            .write_all(&page)
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    Ok(ExitCode::SUCCESS)
}

/// `--help` and `--version` print to standard output (exit 0, or 2 when it cannot be
/// written); an argument error is one `reqlint: error:` line (exit 2).
fn clap_exit(e: clap::Error) -> ExitCode {
    use clap::error::ErrorKind;
    match e.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
            let text = e.render().to_string();
            match write_stdout(text.as_bytes()) {
                Ok(code) => code,
                Err(message) => {
                    print_error(&message);
                    ExitCode::from(2)
                }
            }
        }
        _ => {
            let rendered = e.render().to_string();
            // clap's first line is `error: WHAT`; where it ends in a colon, the indented
            // lines that follow name what it means (the missing arguments); then come
            // the usage and tip lines.
            let mut lines = rendered.lines().skip_while(|l| l.trim().is_empty());
            let mut what = lines
                .next()
                .unwrap_or("invalid arguments")
                .trim_start_matches("error: ")
                .trim()
                .to_string();
            if what.ends_with(':') {
                let named: Vec<&str> = lines
                    .take_while(|l| l.starts_with([' ', '\t']) && !l.trim().is_empty())
                    .map(str::trim)
                    .collect();
                if !named.is_empty() {
                    what = format!("{what} {}", named.join(", "));
                }
            }
            print_error(&format!("{what} (`reqlint --help` lists the options)"));
            ExitCode::from(2)
        }
    }
}

/// Writes a line `reqlint: error: MESSAGE` on standard error: every error of the run
/// goes through here, so every one is a single line with its secrets masked, control
/// characters escaped and no CI workflow command in it ([`crate::redact::log_line`]).
pub fn print_error(message: &str) {
    print_line("error", message);
}

/// `reqlint: warning: MESSAGE` on standard error, cleaned as [`print_error`] cleans.
pub fn print_warning(message: &str) {
    print_line("warning", message);
}

/// What the run did, when it did what it was asked (`reqlint: wrote …`), on standard
/// error.
fn print_note(message: &str) {
    print_stderr(&format!("reqlint: {}\n", crate::redact::log_line(message)));
}

fn print_line(kind: &str, message: &str) {
    print_stderr(&format!(
        "reqlint: {kind}: {}\n",
        crate::redact::log_line(message)
    ));
}

fn print_stderr(line: &str) {
    // A standard error that cannot be written to (full, closed) must not turn an error
    // into a panic: the exit code still tells.
    let _ = std::io::stderr().lock().write_all(line.as_bytes());
}

/// Writes a command's output; a closed pipe ends quietly (exit 0, as `head` expects),
/// any other failure (a full disk) is an error of the run.
fn write_stdout(bytes: &[u8]) -> Result<ExitCode, String> {
    let mut out = std::io::stdout().lock();
    match out.write_all(bytes).and_then(|()| out.flush()) {
        Ok(()) => Ok(ExitCode::SUCCESS),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(ExitCode::SUCCESS),
        Err(e) => Err(format!("cannot write the output: {e}")),
    }
}

fn print_schema(kind: SchemaKind) -> Result<ExitCode, String> {
    let schema = match kind {
        SchemaKind::Request => crate::schema::request(),
        SchemaKind::Config => crate::schema::config(),
    };
    let text = serde_json::to_string_pretty(&schema).map_err(|e| e.to_string())?;
    write_stdout(format!("{text}\n").as_bytes())
}

fn list_rules() -> Result<ExitCode, String> {
    let width = REGISTRY
        .iter()
        .map(|r| r.meta().name.len())
        .max()
        .unwrap_or(0);
    let mut text = format!(
        "{:width$}  {:12}  {:8}  {:12}  SUMMARY\n",
        "RULE", "GROUP", "SEVERITY", "FIX"
    );
    for rule in REGISTRY {
        let m = rule.meta();
        let _ = writeln!(
            text,
            "{:width$}  {:12}  {:8}  {:12}  {}",
            m.name,
            m.group.as_str(),
            m.severity.as_str(),
            m.fix_kinds(),
            m.summary
        );
    }
    write_stdout(text.as_bytes())
}

fn explain(name: &str) -> Result<ExitCode, String> {
    let Some(rule) = rules::find(name) else {
        return Err(match did_you_mean(name, rules::names()) {
            Some(s) => format!("unknown rule `{name}` (did you mean `{s}`?)"),
            None => format!("unknown rule `{name}`; `reqlint rules` lists them"),
        });
    };
    // The examples are fixtures, a credential-shaped one among them: shown through the
    // same redaction as everything else.
    let text = crate::redact::Redactor::none().lines(&explain_text(rule.meta()));
    write_stdout(text.as_bytes())
}

/// `reqlint explain` text, generated from the rule's metadata.
pub fn explain_text(m: &rules::RuleMeta) -> String {
    let indent = |text: &str| {
        text.lines()
            .map(|l| {
                if l.is_empty() {
                    String::new()
                } else {
                    format!("    {l}")
                }
            })
            .collect::<Vec<_>>()
            .join("\n")
    };
    format!(
        "{name} ({group}, {severity} by default)\n\n{summary}.\n\n\
         What it checks\n{what}\n\n\
         Why\n{why}\n\n\
         Source\n{source}\n\n\
         Fix\n{fix}\n\n\
         Inspects\n    {inspects}\n\n\
         Example that is reported ({bad_path})\n{bad}\n\n\
         Example that passes ({good_path})\n{good}\n",
        name = m.name,
        group = m.group.as_str(),
        severity = m.severity,
        summary = crate::rule_docs::capitalized(m.summary),
        what = indent(&fill(m.what)),
        why = indent(&fill(m.why)),
        source = indent(m.source),
        fix = indent(&m.fix_lines().map_or_else(
            || "none: what it reports is for the author to decide".to_string(),
            |lines| {
                lines
                    .iter()
                    .map(|l| fill(&l.replace('`', "")))
                    .collect::<Vec<_>>()
                    .join("\n")
            }
        )),
        inspects = m.inspects.describe(),
        bad_path = m.bad.path,
        bad = indent(m.bad.text.trim_end()),
        good_path = m.good.path,
        good = indent(m.good.text.trim_end()),
    )
}

/// Wraps prose at 88 columns.
fn fill(text: &str) -> String {
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        if !line.is_empty() && line.len() + 1 + word.len() > 88 {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines.join("\n")
}

fn load_settings(args: &CheckArgs) -> Result<Settings, String> {
    let cwd =
        std::env::current_dir().map_err(|e| format!("cannot read the working directory: {e}"))?;
    let names = rules::names();
    let config = match &args.config {
        Some(path) => Config::load(path, &names)?,
        None => match Config::discover(&cwd) {
            Some(path) => Config::load(&path, &names)?,
            None => Config::defaults(PathBuf::from(".")),
        },
    };
    let (mut settings, _) =
        crate::settings::from_config_and_environments(config, &args.environment)?;
    let choice = crate::settings::CommandLineSelection {
        select: args.select.clone(),
        extend_select: args.extend_select.clone(),
        ignore: args.ignore.clone(),
    };
    crate::settings::select_on_command_line(&mut settings.config, &choice)?;
    for file in &args.context {
        settings.context.add_file(file)?;
    }
    Ok(settings)
}

fn scopes(args: ScopesArgs) -> Result<ExitCode, String> {
    use crate::loading;
    use crate::model::FileModel;
    use crate::rules::codehost::scopes;
    let check_args = CheckArgs {
        config: args.config.clone(),
        ..CheckArgs::default()
    };
    let settings = load_settings(&check_args)?;
    let inputs = if args.paths.is_empty() {
        vec![PathBuf::from(".")]
    } else {
        args.paths.clone()
    };
    let paths = walk::Paths::new(&settings.config)?;
    let files = walk::collect(&inputs, &settings.config, &paths)?;
    let mut tokens = std::collections::BTreeMap::new();
    let mut secret_texts = Vec::new();
    for path in &files {
        let display = paths.display(path);
        // Read as the check reads: regular files within the size limit only.
        let bytes = loading::read_bounded(path, settings.limits.max_file_bytes, "request file")?;
        let loaded = engine::load_file(&display, path, bytes, &settings);
        let secrets = crate::model::secrets::file_secrets(
            &loaded.text,
            &loaded.documents,
            &loaded.problems,
            &settings.config.variables,
        );
        secret_texts.extend(crate::redact::secret_texts(&loaded.text, &secrets));
        let file_model = FileModel::build(&loaded.documents, &loaded.text);
        scopes::collect(
            &display,
            &loaded.text,
            &file_model,
            &settings.config,
            &mut tokens,
        );
    }
    let text = match args.format {
        ScopesFormat::Yaml => scopes::render_yaml(&tokens),
        ScopesFormat::Json => {
            let list: Vec<_> = tokens.values().collect();
            let json = serde_json::to_string_pretty(&serde_json::json!({ "tokens": list }))
                .map_err(|e| e.to_string())?;
            format!("{json}\n")
        }
    };
    // A token's name or a request written with a credential in it is shown as every
    // other text: masked, with the secrets of every file read.
    let redactor = crate::redact::Redactor::for_literals(secret_texts);
    write_stdout(redactor.lines(&text).as_bytes())
}

fn check(args: CheckArgs) -> Result<ExitCode, String> {
    let settings = load_settings(&args)?;
    let format = args.format.unwrap_or_else(|| {
        if std::env::var_os("GITHUB_ACTIONS").is_some_and(|v| !v.is_empty()) {
            OutputFormat::Github
        } else {
            OutputFormat::Human
        }
    });
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
    // Files without a diagnostic are not kept: the summary counts every file.
    let (results, files, requests, walk_errors) = if args.paths.len() == 1
        && args.paths[0].as_os_str() == "-"
    {
        let name = args
            .stdin_filename
            .clone()
            .unwrap_or_else(|| "-".to_string());
        if args.force_exclude && !walk::selected(&settings.config, &[Path::new(&name)]) {
            (Vec::new(), 0, 0, Vec::new())
        } else {
            let max = settings.limits.max_file_bytes;
            let bytes = read_stdin(max)?;
            let result = if bytes.len() as u64 > max {
                engine::lint_oversized(&name, Path::new(&name), None, &settings)
            } else {
                engine::lint_bytes(&name, Path::new(&name), bytes, &settings)
            };
            let requests = result.requests;
            let mut results = vec![result];
            engine::keep_first_of_run(&mut results);
            (results, 1, requests, Vec::new())
        }
    } else {
        let inputs = if args.paths.is_empty() {
            vec![PathBuf::from(".")]
        } else {
            args.paths.clone()
        };
        if inputs.iter().any(|p| p.as_os_str() == "-") {
            return Err("`-` (standard input) cannot be mixed with other paths".into());
        }
        let paths = walk::Paths::new(&settings.config)?.with_force_exclude(args.force_exclude);
        let complete = inputs.iter().any(|p| p.is_dir());
        if args.parse_only {
            return parse_only(&inputs, &settings, &paths, args.threads);
        }
        let keep_text = format == OutputFormat::Human;
        let cache = if args.no_cache {
            None
        } else {
            // A cache that is not the user's own is neither read nor written.
            crate::cache::Cache::open(&settings, args.cache_dir.as_deref()).unwrap_or_else(|e| {
                print_warning(&format!("{e}; the result cache is not used"));
                None
            })
        };
        let mut run = lint_all(
            &inputs,
            &settings,
            &paths,
            args.threads,
            keep_text,
            cache.as_ref(),
        )?;
        if let Some(cache) = cache {
            cache.save(std::mem::take(&mut run.cache_updates));
        }
        // A hook that passes every file it has, with --force-exclude, expects silence
        // when none of them is a request file.
        if run.visited == 0 && (complete || !args.force_exclude) {
            print_warning(&format!(
                "no request files found under {}; `include` in .reqlint.yaml chooses which files are linted",
                inputs
                    .iter()
                    .map(|p| p.display().to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        let mut results = run.results;
        if let Some(config_result) = engine::lint_run(&settings, &run.facts, complete) {
            results.push(config_result);
        }
        results.extend(engine::lint_environments(&settings));
        engine::mask_credential_variables(&settings, &run.facts, &mut results);
        // Files are linted in the order the walk finds them; reports show them in the
        // order of their paths (deterministic output, docs/usage.md).
        results.sort_by(|a, b| a.path.cmp(&b.path));
        engine::keep_first_of_run(&mut results);
        (results, run.files, run.requests, run.walk_errors)
    };
    for e in &walk_errors {
        print_error(e);
    }
    for r in &results {
        if let Some(e) = &r.io_error {
            print_error(e);
        }
    }
    let color = match args.color {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => {
            std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
                && std::io::stdout().is_terminal()
        }
    };
    let mut results = results;
    // Baseline entries name files relative to the config's directory, with `/`.
    let walk_paths = walk::Paths::new(&settings.config)?;
    let file_key = |path: &str| {
        walk_paths
            .relative(Path::new(path))
            .to_string_lossy()
            .replace('\\', "/")
    };
    if let Some(file) = &args.write_baseline {
        let baseline = crate::baseline::of(&results, file_key);
        let json = serde_json::to_string_pretty(&baseline).map_err(|e| e.to_string())?;
        crate::files::create_named(file, &settings.config.root)?
            .write_all(format!("{json}\n").as_bytes())
            .map_err(|e| format!("cannot write {}: {e}", file.display()))?;
        let n: usize = baseline.entries.iter().map(|e| e.count).sum();
        // What was asked was done: a line of news, not a warning.
        print_note(&format!(
            "wrote {n} finding{} to the baseline {}",
            if n == 1 { "" } else { "s" },
            file.display()
        ));
        return Ok(ExitCode::SUCCESS);
    }
    let mut baselined = 0;
    if let Some(file) = &args.baseline {
        let baseline = crate::baseline::read(file)?;
        baselined = crate::baseline::apply(&baseline, &mut results, file_key);
    }
    let floor = args
        .min_severity
        .map(|min| match min {
            MinSeverity::Info => Severity::Info,
            MinSeverity::Warning => Severity::Warning,
            MinSeverity::Error => Severity::Error,
        })
        .or(settings.config.min_severity);
    if let Some(floor) = floor {
        for r in &mut results {
            r.diagnostics.retain(|d| d.severity >= floor);
        }
    }
    let mut out: Box<dyn Write> = match &args.output_file {
        Some(path) => Box::new(std::io::BufWriter::new(crate::files::create_named(
            path,
            &settings.config.root,
        )?)),
        None => Box::new(std::io::BufWriter::new(std::io::stdout().lock())),
    };
    let mut summary = reports::Summary::new(&results, files, requests);
    summary.fixed = fixed;
    summary.unsafe_fixes = args.unsafe_fixes;
    summary.baselined = baselined;
    let written = match format {
        _ if args.statistics => write_statistics(&results, summary, format, &mut out),
        OutputFormat::Human => reports::human::write(&results, summary, color, &mut out),
        OutputFormat::Concise => reports::concise::write(&results, summary, &mut out),
        OutputFormat::Json => reports::json::write(&results, summary, &mut out),
        OutputFormat::Sarif => reports::sarif::write(&results, &mut out),
        OutputFormat::Github => reports::github::write(&results, summary, &mut out),
    };
    let flushed = written.and_then(|()| out.flush());
    if let Err(e) = flushed
        && e.kind() != std::io::ErrorKind::BrokenPipe
    {
        return Err(format!("cannot write the report: {e}"));
    }
    // A fix that could not be written: the run did not do what it was asked, whatever
    // `--exit-zero` says.
    if fix_failed || !walk_errors.is_empty() || results.iter().any(|r| r.io_error.is_some()) {
        return Ok(ExitCode::from(2));
    }
    let failed = results
        .iter()
        .any(|r| r.diagnostics.iter().any(|d| d.severity == Severity::Error));
    Ok(if failed && !args.exit_zero {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// `--show-files` and `--show-settings`: what a run would lint, and with which settings.
fn show(args: &CheckArgs, settings: &Settings) -> Result<ExitCode, String> {
    let inputs = if args.paths.is_empty() {
        vec![PathBuf::from(".")]
    } else {
        args.paths.clone()
    };
    let paths = walk::Paths::new(&settings.config)?.with_force_exclude(args.force_exclude);
    let mut text = String::new();
    if args.show_settings {
        let config = &settings.config;
        let list = |items: Vec<&str>| {
            if items.is_empty() {
                "(none)".to_string()
            } else {
                items.join(", ")
            }
        };
        let _ = writeln!(
            text,
            "config: {}",
            config
                .path
                .as_ref()
                .map_or("(none: every default)".to_string(), |p| p
                    .display()
                    .to_string())
        );
        let _ = writeln!(text, "root: {}", config.root.display());
        let _ = writeln!(text, "include: {}", list(config.include.patterns()));
        let _ = writeln!(text, "exclude: {}", list(config.exclude.patterns()));
        let _ = writeln!(
            text,
            "force-exclude: {}",
            if args.force_exclude {
                "yes (--force-exclude)"
            } else {
                "no: files named on the command line are linted whatever include and exclude say"
            }
        );
        let _ = writeln!(text, "rules:");
        for rule in REGISTRY {
            let m = rule.meta();
            let severity = config
                .severity(m.name, m.severity)
                .map_or("off".to_string(), |s| s.to_string());
            let changed = if config.rules.contains_key(m.name) {
                " (set)"
            } else {
                ""
            };
            let _ = writeln!(text, "  {}: {severity}{changed}", m.name);
        }
        let floor = match (args.min_severity, config.min_severity) {
            (Some(min), _) => format!(
                "{} (--min-severity)",
                min.to_possible_value()
                    .map_or_else(String::new, |v| v.get_name().to_string())
            ),
            (None, Some(s)) => format!("{s} (set)"),
            (None, None) => "info".to_string(),
        };
        let _ = writeln!(text, "min-severity: {floor}");
        let _ = writeln!(
            text,
            "per-file-ignores:{}",
            if config.per_file_ignores.is_empty() {
                " (none)"
            } else {
                ""
            }
        );
        for (glob, _, rules) in &config.per_file_ignores {
            let _ = writeln!(text, "  {glob}: {}", rules.join(", "));
        }
        let mut tokens: Vec<&str> = config.tokens.keys().map(String::as_str).collect();
        tokens.sort_unstable();
        let _ = writeln!(text, "tokens: {}", list(tokens));
        let _ = writeln!(
            text,
            "context: {} objects from {}",
            settings.context.len(),
            list(config.context.iter().map(String::as_str).collect())
        );
        // Names only: a variable's value may be a secret.
        let _ = writeln!(
            text,
            "variables: {}",
            list(config.variables.keys().map(String::as_str).collect())
        );
        let _ = writeln!(
            text,
            "codehost.api-version: {}",
            config.api_version.as_str()
        );
        let cache = if args.no_cache {
            "off (--no-cache)".to_string()
        } else {
            crate::cache::file_for(settings, args.cache_dir.as_deref()).map_or_else(
                || "off (no user cache directory)".to_string(),
                |file| file.display().to_string(),
            )
        };
        let _ = writeln!(text, "cache: {cache}");
    }
    if args.show_files && inputs.len() == 1 && inputs[0].as_os_str() == "-" {
        // Standard input is linted under its --stdin-filename, unless --force-exclude
        // leaves that name out.
        let name = args.stdin_filename.as_deref().unwrap_or("-");
        if !args.force_exclude || walk::selected(&settings.config, &[Path::new(name)]) {
            let _ = writeln!(text, "{name} (standard input)");
        }
    } else if args.show_files {
        for path in walk::collect(&inputs, &settings.config, &paths)? {
            let _ = writeln!(text, "{}", paths.display(&path));
        }
    }
    let text = crate::redact::Redactor::none().lines(&text);
    match &args.output_file {
        Some(path) => crate::files::create_named(path, &settings.config.root)?
            .write_all(text.as_bytes())
            .map(|()| ExitCode::SUCCESS)
            .map_err(|e| format!("cannot write {}: {e}", path.display())),
        None => write_stdout(text.as_bytes()),
    }
}

/// `--statistics`: the diagnostics counted per rule, most first (JSON: one object).
fn write_statistics(
    results: &[FileResult],
    summary: reports::Summary,
    format: OutputFormat,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    let mut counts: std::collections::BTreeMap<(&str, Severity), (usize, usize)> =
        std::collections::BTreeMap::new();
    for d in results.iter().flat_map(|r| &r.diagnostics) {
        let entry = counts.entry((d.rule, d.severity)).or_default();
        entry.0 += 1;
        if d.fix
            .as_ref()
            .is_some_and(|f| f.applicability == crate::diagnostic::Applicability::Safe)
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
            &serde_json::json!({"statistics": list, "summary": summary}),
        )?;
        return writeln!(out);
    }
    for ((rule, severity), (n, fixable)) in &rows {
        let mark = if *fixable > 0 { "[*]" } else { "   " };
        writeln!(out, "{n:>6}  {mark} {rule} ({severity})")?;
    }
    writeln!(out, "{}", summary.sentence())
}

/// Reads and parses every file, runs no rule, prints how many documents were read: the
/// floor that the benchmark compares the whole check with.
fn parse_only(
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
            let format = crate::loading::Format::from_path(&path.to_string_lossy());
            *documents += crate::loading::load(bytes, format, &settings.limits)
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

/// What `--fix`, `--diff` and `--fix-only` leave to the rest of the check.
enum FixOutcome {
    /// `--diff`, `--fix-only` and standard input: nothing more to do.
    Done(ExitCode),
    /// `--fix`: this many fixes were applied, and whether a file could not be fixed (read,
    /// or written back); the check goes on and reports what is left.
    Fixed { applied: usize, failed: bool },
}

/// Fixes the files of the run in place (or prints the diff of what would change).
fn fix_files(args: &CheckArgs, settings: &Settings) -> Result<FixOutcome, String> {
    let mode = if args.unsafe_fixes {
        crate::fix::Mode::Unsafe
    } else {
        crate::fix::Mode::Safe
    };
    let mut applied = 0;
    let mut unsafe_left = 0;
    // Files that could not be read or written back (the errors are printed).
    let mut failed = 0;
    let mut shown = String::new();
    if args.paths.len() == 1 && args.paths[0].as_os_str() == "-" {
        // Standard input: the fixed text (or its diff) goes to standard output.
        let name = args
            .stdin_filename
            .clone()
            .unwrap_or_else(|| "-".to_string());
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
        let text =
            String::from_utf8(bytes).map_err(|_| "standard input is not UTF-8".to_string())?;
        let result = crate::fix::fix_text(&name, Path::new(&name), &text, settings, mode);
        let shown = if args.diff {
            crate::fix::redacted_diff(&name, Path::new(&name), &text, &result.text, settings)
        } else {
            result.text.clone()
        };
        write_stdout(shown.as_bytes())?;
        return Ok(FixOutcome::Done(if args.diff && result.applied > 0 {
            ExitCode::from(1)
        } else {
            ExitCode::SUCCESS
        }));
    }
    let inputs = if args.paths.is_empty() {
        vec![PathBuf::from(".")]
    } else {
        args.paths.clone()
    };
    let paths = walk::Paths::new(&settings.config)?.with_force_exclude(args.force_exclude);
    // Edits of other files (the config: permissions of a named token), from every file.
    let mut elsewhere: std::collections::BTreeMap<PathBuf, Vec<crate::diagnostic::Edit>> =
        std::collections::BTreeMap::new();
    let mut facts = crate::rules::RunFacts::default();
    for path in walk::collect(&inputs, &settings.config, &paths)? {
        let display = paths.display(&path);
        let rel = paths.relative(&path);
        let Some(read) = read_for_fix(&path, settings, "request file") else {
            failed += 1;
            continue;
        };
        let Ok(text) = std::str::from_utf8(&read) else {
            continue;
        };
        let result = crate::fix::fix_text(&display, &rel, text, settings, mode);
        unsafe_left += result.unsafe_left;
        facts.merge(result.facts.clone());
        for e in &result.elsewhere {
            // A fix edits its own file and the config, nothing else.
            if let Some(file) = &e.file
                && settings.config.path.as_ref() == Some(file)
            {
                elsewhere.entry(file.clone()).or_default().push(e.clone());
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
        if file.show_or_write(args.diff, settings, &mut shown) {
            applied += result.applied;
        } else {
            failed += 1;
        }
    }
    // What only the whole run can tell (a named token's unused permissions, in the
    // config): with every file seen, its fixes join the config's edits.
    let complete = inputs.iter().any(|p| p.is_dir());
    if let (Some(config), Some(run)) = (
        settings.config.path.as_ref(),
        engine::lint_run(settings, &facts, complete),
    ) {
        for fix in run.diagnostics.iter().filter_map(|d| d.fix.as_ref()) {
            if mode.takes(fix) {
                let edits = fix.edits.iter().map(|e| crate::diagnostic::Edit {
                    file: Some(config.clone()),
                    ..e.clone()
                });
                elsewhere.entry(config.clone()).or_default().extend(edits);
            }
        }
    }
    for (path, edits) in &elsewhere {
        let Some(read) = read_for_fix(path, settings, "config") else {
            failed += 1;
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
            failed += 1;
            continue;
        }
        let (fixed, n) = crate::fix::apply_elsewhere(text, edits);
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
        if file.show_or_write(args.diff, settings, &mut shown) {
            applied += n;
        } else {
            failed += 1;
        }
    }
    let more = if unsafe_left > 0 && mode == crate::fix::Mode::Safe {
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

/// Standard input, of which no more than one byte past the file-size limit `max` is
/// held, whatever is piped in (more than `max` bytes: the input is too big).
fn read_stdin(max: u64) -> Result<Vec<u8>, String> {
    let mut bytes = Vec::new();
    std::io::stdin()
        .take(max + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read standard input: {e}"))?;
    Ok(bytes)
}

/// Writes `held` (the start of standard input) and then the rest of standard input to
/// standard output, holding no more than a buffer of it at a time.
fn pass_stdin_through(held: &[u8]) -> Result<(), String> {
    let mut out = std::io::stdout().lock();
    let copied = out
        .write_all(held)
        .and_then(|()| std::io::copy(&mut std::io::stdin().lock(), &mut out))
        .and_then(|_| out.flush());
    match copied {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err(format!("cannot pass standard input through: {e}")),
    }
}

/// A file to be fixed, read within the size limit; an error is printed and the file left
/// out, as the lint run leaves out a file it cannot read.
fn read_for_fix(path: &Path, settings: &Settings, what: &str) -> Option<Vec<u8>> {
    match crate::loading::read_bounded(path, settings.limits.max_file_bytes, what) {
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
            shown.push_str(&crate::fix::redacted_diff(
                self.display,
                self.rel,
                self.before,
                self.after,
                settings,
            ));
            return true;
        }
        match crate::fix::write_in_place(self.path, &settings.config.root, self.read, self.after) {
            Ok(()) => true,
            Err(e) => {
                print_error(&e);
                false
            }
        }
    }
}

/// What a run of many files keeps: the results that have something to report, and the
/// counts and facts of all.
#[derive(Default)]
struct RunResults {
    results: Vec<FileResult>,
    /// Files handed to the linter, read or not.
    visited: usize,
    files: usize,
    requests: usize,
    facts: crate::rules::RunFacts,
    /// What the walk could not read: the run fails as for an unreadable file.
    walk_errors: Vec<String>,
    /// What the result cache is to keep of this run.
    cache_updates: Vec<crate::cache::Update>,
}

impl RunResults {
    fn add(&mut self, mut r: FileResult, keep_text: bool) {
        self.visited += 1;
        if r.io_error.is_none() {
            self.files += 1;
        }
        self.requests += r.requests;
        self.facts.merge(std::mem::take(&mut r.facts));
        if !r.diagnostics.is_empty() || r.io_error.is_some() {
            if !keep_text {
                r.drop_text();
            }
            self.results.push(r);
        }
    }

    fn merge(&mut self, other: RunResults) {
        self.results.extend(other.results);
        self.visited += other.visited;
        self.files += other.files;
        self.requests += other.requests;
        self.facts.merge(other.facts);
        self.cache_updates.extend(other.cache_updates);
    }
}

/// Lints every file as the walk finds it, on every core; only files with something to
/// report are kept, with their text only when the report shows code frames.
fn lint_all(
    inputs: &[PathBuf],
    settings: &Settings,
    paths: &walk::Paths,
    threads: Option<usize>,
    keep_text: bool,
    cache: Option<&crate::cache::Cache>,
) -> Result<RunResults, String> {
    let per_thread = walk::visit(
        inputs,
        &settings.config,
        paths,
        threads,
        &RunResults::default,
        &|run, path, relative| {
            let display = paths.display(path);
            let result = match cache {
                Some(cache) => {
                    cache.lint_path(path, &display, relative, settings, &mut run.cache_updates)
                }
                None => engine::lint_path(path, &display, relative, settings),
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn completions_offer_rule_and_group_names() {
        for shell in [
            clap_complete::Shell::Bash,
            clap_complete::Shell::Zsh,
            clap_complete::Shell::Fish,
        ] {
            let script = String::from_utf8(completion_script(shell)).unwrap();
            for name in [
                "token-missing-permission",
                "ad-param-invalid",
                "code-hosting",
            ] {
                assert!(script.contains(name), "{shell}: no {name}");
            }
        }
        // Parsing keeps its own error for an unknown name.
        assert!(Cli::try_parse_from(["reqlint", "explain", "no-such-rule"]).is_ok());
        assert!(Cli::try_parse_from(["reqlint", "check", "--select", "no-such-rule"]).is_ok());
    }

    #[test]
    fn threads_are_at_least_one_and_at_most_four_a_core() {
        assert_eq!(parse_threads("18446744073709551615"), Ok(max_threads()));
        assert_eq!(parse_threads("100000"), Ok(max_threads()));
        assert_eq!(parse_threads("1"), Ok(1));
        assert!(parse_threads("0").is_err());
        assert!(parse_threads("-1").is_err());
        assert!(parse_threads("many").is_err());
    }
}
