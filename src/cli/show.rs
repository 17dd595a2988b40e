//! `--show-files` and `--show-settings`: what a run would lint, and with which settings,
//! with nothing linted.

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::Path;
use std::process::ExitCode;

use clap::ValueEnum;

use crate::engine::{self, Settings};
use crate::files;
use crate::redact::Redactor;
use crate::rules::REGISTRY;
use crate::run::cache;
use crate::run::environments::Discovery;
use crate::run::walk;

use super::stdio::write_stdout;
use super::{CheckArgs, inputs_or_working_directory};

pub(super) fn show(args: &CheckArgs, settings: &Settings) -> Result<ExitCode, String> {
    let inputs = inputs_or_working_directory(&args.paths);
    let paths = walk::Paths::new(&settings.config)?.with_force_exclude(args.force_exclude);
    let mut text = String::new();
    if args.show_settings {
        write_settings(args, settings, &mut text);
    }
    if args.show_files && inputs.len() == 1 && inputs[0].as_os_str() == "-" {
        // Standard input is linted under its --stdin-filename, unless --force-exclude
        // leaves that name out.
        let name = args.stdin_filename.as_deref().unwrap_or("-");
        if !args.force_exclude || walk::selected(&settings.config, &[Path::new(name)]) {
            let _ = writeln!(text, "{name} (standard input)");
        }
    } else if args.show_files {
        // Read as the check reads them: with the environments found beside them.
        let environments =
            crate::run::environments::Discovery::new(settings, !args.environment.is_empty());
        for path in walk::collect(&inputs, &settings.config, &paths)? {
            let display = paths.display(&path);
            let _ = writeln!(text, "{display}");
            let rel = paths.relative(&path);
            let file_settings = environments.settings_for(settings, &path);
            for (line, to) in engine::unjudged_requests(&path, &display, &rel, &file_settings) {
                let _ = writeln!(text, "  line {line}: not checked: a request to {to}");
            }
        }
    }
    let text = Redactor::none().lines(&text);
    match &args.output_file {
        Some(path) => files::create_named(path, &settings.config.root)?
            .write_all(text.as_bytes())
            .map(|()| ExitCode::SUCCESS)
            .map_err(|e| format!("cannot write {}: {e}", path.display())),
        None => write_stdout(text.as_bytes()),
    }
}

/// `--show-settings`: a line per setting, in the order a config is read.
fn write_settings(args: &CheckArgs, settings: &Settings, text: &mut String) {
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
    write_rule_settings(args, settings, text);
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
    write_environments(args, settings, text);
    let _ = writeln!(
        text,
        "codehost.api-version: {}",
        crate::apis::codehost::settings::settings(config)
            .api_version
            .as_str()
    );
    let cache = if args.no_cache {
        "off (--no-cache)".to_string()
    } else {
        cache::file_for(settings, args.cache_dir.as_deref()).map_or_else(
            || "off (no user cache directory)".to_string(),
            |file| file.display().to_string(),
        )
    };
    let _ = writeln!(text, "cache: {cache}");
}

/// Which environments give variables: those the config or `--environment` names, or
/// those discovered beside each request file, listed for the files named on the command
/// line (and standard input's name); names only, never values.
fn write_environments(args: &CheckArgs, settings: &Settings, text: &mut String) {
    let config = &settings.config;
    if !args.environment.is_empty() || !config.environments.is_empty() {
        let mut named: Vec<&str> = config
            .environments
            .iter()
            .map(|(e, _)| e.as_str())
            .collect();
        named.extend(args.environment.iter().map(String::as_str));
        let _ = writeln!(
            text,
            "environments: {} (named: none is discovered)",
            named.join(", ")
        );
        return;
    }
    let _ = writeln!(
        text,
        "environments: discovered beside each request file (docs/formats.md#variables)"
    );
    let environments = Discovery::new(settings, false);
    let mut files: Vec<String> = args
        .paths
        .iter()
        .filter(|p| p.is_file())
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    if args.reads_standard_input() {
        files.push(args.standard_input_name());
    }
    for file in files {
        let Some(found) = environments.found_for(settings, Path::new(&file)) else {
            continue;
        };
        let shown: Vec<String> = found
            .files
            .iter()
            .map(|f| files::relative_to_cwd(f))
            .collect();
        let known: Vec<&str> = found
            .variables
            .iter()
            .filter(|(_, v)| v.is_some())
            .map(|(k, _)| k.as_str())
            .collect();
        let unknown: Vec<&str> = found
            .variables
            .iter()
            .filter(|(_, v)| v.is_none())
            .map(|(k, _)| k.as_str())
            .collect();
        let list = |items: &[&str]| {
            if items.is_empty() {
                "(none)".to_string()
            } else {
                items.join(", ")
            }
        };
        let left: Vec<&str> = found.left_to_the_file.keys().map(String::as_str).collect();
        let _ = writeln!(
            text,
            "  {file}: {} ({} environment{}; known: {}; not known: {}; known where the file gives the same value: {})",
            if shown.is_empty() {
                "(none)".to_string()
            } else {
                shown.join(", ")
            },
            found.environments,
            if found.environments == 1 { "" } else { "s" },
            list(&known),
            list(&unknown),
            list(&left)
        );
    }
}

/// Each rule's severity (`off`, or `(set)` where the config sets it), the severity
/// floor, and the rules each `per-file-ignores` glob turns off.
fn write_rule_settings(args: &CheckArgs, settings: &Settings, text: &mut String) {
    let config = &settings.config;
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
}
