//! The command line (docs/usage.md): its definitions and the dispatch to each command.
//! docs/development.md ("The command line") says which module holds what.

mod baseline;
mod check;
mod completions;
mod fix;
mod lint_files;
mod manpage;
mod report;
mod rule_help;
mod scopes;
mod settings;
mod show;
mod stdio;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::docs::schema;
use crate::lsp;

pub use rule_help::explain_text;
pub use stdio::{print_error, print_warning};

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
    /// environment); read after the config's `environments`; replaces the environments
    /// discovered beside request files
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

impl CheckArgs {
    /// `-` alone: the file to lint is standard input.
    fn reads_standard_input(&self) -> bool {
        self.paths.len() == 1 && self.paths[0].as_os_str() == "-"
    }

    /// The name standard input is reported (and its format chosen) by.
    fn standard_input_name(&self) -> String {
        self.stdin_filename
            .clone()
            .unwrap_or_else(|| "-".to_string())
    }
}

/// The paths named on the command line, or the working directory when none is.
fn inputs_or_working_directory(paths: &[PathBuf]) -> Vec<PathBuf> {
    if paths.is_empty() {
        vec![PathBuf::from(".")]
    } else {
        paths.to_vec()
    }
}

/// Runs the command line and gives the exit code (docs/usage.md#exit-codes).
pub fn main() -> ExitCode {
    // A panic on one file becomes that file's `internal-error` diagnostic; say it in one line.
    std::panic::set_hook(Box::new(|info| {
        stdio::print_line("internal error", &info.to_string());
    }));
    // `--version` alone, as editors and hooks ask it to find the binary: answered without
    // building the whole command line's parser (a third of the process's start-up work).
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    if let [_, flag] = args.as_slice()
        && (flag == "--version" || flag == "-V")
    {
        return match stdio::write_stdout(
            format!("{} {}\n", env!("CARGO_PKG_NAME"), env!("CARGO_PKG_VERSION")).as_bytes(),
        ) {
            Ok(code) => code,
            Err(message) => {
                print_error(&message);
                ExitCode::from(2)
            }
        };
    }
    if let Some(check_args) = parse_check_alone(&args) {
        return match check::check(check_args) {
            Ok(code) => code,
            Err(message) => {
                print_error(&message);
                ExitCode::from(2)
            }
        };
    }
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) => return clap_exit(e),
    };
    let result = match cli.command {
        Some(Command::Rules) => rule_help::list_rules(),
        Some(Command::Explain { rule }) => rule_help::explain(&rule),
        Some(Command::Check(args)) => check::check(*args),
        Some(Command::Scopes(args)) => scopes::print_least_permissions(args),
        Some(Command::Server) => lsp::run(),
        Some(Command::Schema { kind }) => print_schema(kind),
        Some(Command::Completions { shell }) => {
            stdio::write_stdout(&completions::completion_script(shell))
        }
        Some(Command::Manpage { dir: None }) => manpage::print_man_page(),
        Some(Command::Manpage { dir: Some(dir) }) => manpage::write_man_pages(&dir),
        None => check::check(cli.check),
    };
    match result {
        Ok(code) => code,
        Err(message) => {
            print_error(&message);
            ExitCode::from(2)
        }
    }
}

fn print_schema(kind: SchemaKind) -> Result<ExitCode, String> {
    let schema = match kind {
        SchemaKind::Request => schema::request(),
        SchemaKind::Config => schema::config(),
    };
    let text = serde_json::to_string_pretty(&schema).map_err(|e| e.to_string())?;
    stdio::write_stdout(format!("{text}\n").as_bytes())
}

/// `reqlint check ARGS` read with the `check` command's arguments alone, as the editor
/// and the hook run it: building the parser of every command is a fifth of a one-file
/// check's work. `None` where that fails (`--help`, a wrong argument): the whole parser
/// then reads the line and answers as it always does.
fn parse_check_alone(args: &[std::ffi::OsString]) -> Option<CheckArgs> {
    use clap::FromArgMatches;
    let [_, command, rest @ ..] = args else {
        return None;
    };
    if command != "check" {
        return None;
    }
    let parser = CheckArgs::augment_args(clap::Command::new("check").no_binary_name(true));
    let matches = parser.try_get_matches_from(rest).ok()?;
    CheckArgs::from_arg_matches(&matches).ok()
}

/// `--help` and `--version` print to standard output (exit 0, or 2 when it cannot be
/// written); an argument error is one `reqlint: error:` line (exit 2).
fn clap_exit(e: clap::Error) -> ExitCode {
    use clap::error::ErrorKind;
    match e.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
            let text = e.render().to_string();
            match stdio::write_stdout(text.as_bytes()) {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn check_alone_reads_what_the_whole_parser_reads() {
        let lines: &[&[&str]] = &[
            &["reqlint", "check"],
            &["reqlint", "check", "a.req.yaml", "dir", "-"],
            &[
                "reqlint",
                "check",
                "--format",
                "json",
                "--no-cache",
                "--threads",
                "2",
                "x",
            ],
            &[
                "reqlint",
                "check",
                "--select",
                "literal-secret,duplicate-key",
                "--fix",
            ],
            &[
                "reqlint",
                "check",
                "--config",
                "c.yaml",
                "--context",
                "a",
                "--context",
                "b",
            ],
            &[
                "reqlint",
                "check",
                "--exit-zero",
                "--color",
                "never",
                "--",
                "--odd-name",
            ],
            &["reqlint", "check", "rules"],
        ];
        for line in lines {
            let alone = parse_check_alone(&line.iter().map(Into::into).collect::<Vec<_>>())
                .unwrap_or_else(|| panic!("{line:?} is read"));
            let whole = match Cli::try_parse_from(*line).map(|cli| cli.command) {
                Ok(Some(Command::Check(args))) => args,
                other => panic!("{line:?}: {other:?}"),
            };
            assert_eq!(format!("{alone:?}"), format!("{whole:?}"), "{line:?}");
        }
        // What the `check` parser alone refuses goes to the whole parser, which answers.
        for line in [
            &["reqlint", "check", "--help"][..],
            &["reqlint", "check", "--version"],
            &["reqlint", "check", "--format", "xml"],
            &["reqlint", "check", "--threads", "0"],
            &["reqlint", "rules"],
            &["reqlint", "a.req.yaml"],
        ] {
            let args: Vec<std::ffi::OsString> = line.iter().map(Into::into).collect();
            assert!(parse_check_alone(&args).is_none(), "{line:?}");
        }
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
