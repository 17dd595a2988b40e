//! The settings of a run or of an editor's files, read from a config: shared by the
//! command line and the language server.

use std::path::PathBuf;

use crate::engine::Settings;
use crate::loading::Limits;
use crate::model::config::Config;
use crate::model::context::{ContextIndex, expand_context_glob};
use crate::rules;

/// The settings a config gives: its tokens checked, its context snapshots read. The
/// snapshot files read come back too (the language server watches them).
pub fn from_config(config: Config) -> Result<(Settings, Vec<PathBuf>), String> {
    from_config_and_environments(config, &[])
}

/// [`from_config`], with environment files named on the command line (`--environment`),
/// read after the config's own: they may be anywhere, since the user named them.
pub fn from_config_and_environments(
    mut config: Config,
    named: &[String],
) -> Result<(Settings, Vec<PathBuf>), String> {
    crate::apis::check_config(&config)?;
    select_in_config(&mut config)?;
    read_environments(&mut config, named)?;
    let mut context = ContextIndex::default();
    let mut files = Vec::new();
    for pattern in &config.context {
        for file in expand_context_glob(&config.root, pattern)? {
            context.add_file(&file)?;
            files.push(file);
        }
    }
    let settings = Settings {
        config,
        context,
        limits: Limits::DEFAULT,
    };
    Ok((settings, files))
}

/// Reads the config's environment files, then those `named` on the command line, into
/// its variables: in order, each overriding the ones before; the config's own
/// `variables` override them all. A file the config names stays in its directory
/// ([`crate::files::named_by_config`]): a committed config cannot have a file of the
/// user's home read and its values printed.
fn read_environments(config: &mut Config, named: &[String]) -> Result<(), String> {
    let mut variables = std::collections::BTreeMap::new();
    let in_config = config.environments.iter().map(|(entry, _)| (entry, true));
    for (entry, from_config) in in_config.chain(named.iter().map(|entry| (entry, false))) {
        let (file, select) = match entry.rsplit_once('#') {
            Some((file, name)) => (file, Some(name)),
            None => (entry.as_str(), None),
        };
        let path = if from_config {
            crate::files::named_by_config(&config.root, file)
                .map_err(|e| format!("environment file: {e}"))?
        } else {
            PathBuf::from(file)
        };
        let bytes =
            crate::loading::read_bounded(&path, Limits::DEFAULT.max_file_bytes, "environment")?;
        let text = String::from_utf8(bytes)
            .map_err(|_| format!("environment file {} is not UTF-8", path.display()))?;
        let found =
            crate::loading::readers::environment(&text, file, select).map_err(|(span, m)| {
                let pos = crate::loading::LineIndex::new(&text).position(&text, span.start);
                format!("{}:{}:{}: {m}", path.display(), pos.line, pos.column)
            })?;
        variables.extend(found);
    }
    variables.append(&mut config.variables);
    config.variables = variables;
    Ok(())
}

/// The config's `select` (with [`rules::ALWAYS_SELECTED`]), `extend-select` and
/// `ignore`: a rule they leave out is off whatever `rules` says; `rules` gives the
/// severity of those that run.
fn select_in_config(config: &mut Config) -> Result<(), String> {
    let resolve = |list: &[(String, crate::loading::Span)]| {
        let mut out = Vec::new();
        for (name, span) in list {
            out.extend(rules::named(name).map_err(|m| config.error_at(*span, &m))?);
        }
        Ok::<_, String>(out)
    };
    let selection = &config.selection;
    let mut running: Vec<&'static str> = match &selection.select {
        Some(list) => resolve(list)?
            .into_iter()
            .chain(rules::ALWAYS_SELECTED.iter().map(|m| m.name))
            .collect(),
        None => rules::names(),
    };
    running.extend(resolve(&selection.extend_select)?);
    let ignored = resolve(&selection.ignore)?;
    running.retain(|name| !ignored.contains(name));
    for name in rules::names() {
        if !running.contains(&name) {
            config.rules.insert(name.to_string(), None);
        }
    }
    Ok(())
}

/// Rules chosen on the command line: `--select`, `--extend-select`, `--ignore`.
#[derive(Debug, Default, Clone)]
pub struct CommandLineSelection {
    pub select: Vec<String>,
    pub extend_select: Vec<String>,
    pub ignore: Vec<String>,
}

/// The command line's choice of rules, over the config's (as ruff's): `--select` runs
/// only its rules (and [`rules::ALWAYS_SELECTED`]), turning on those the config turned
/// off; `--extend-select` turns rules on too; `--ignore` turns them off.
pub fn select_on_command_line(
    config: &mut Config,
    choice: &CommandLineSelection,
) -> Result<(), String> {
    let resolve = |list: &[String]| -> Result<Vec<&'static str>, String> {
        let mut out = Vec::new();
        for name in list.iter().filter(|n| !n.trim().is_empty()) {
            out.extend(rules::named(name)?);
        }
        Ok(out)
    };
    let select = resolve(&choice.select)?;
    // `--select "$RULES"` with RULES unset must not turn every rule off in silence.
    if !choice.select.is_empty() && select.is_empty() {
        return Err(
            "`--select` names no rule or group; `reqlint rules` lists them, `ALL` selects every rule"
                .into(),
        );
    }
    let extend = resolve(&choice.extend_select)?;
    let ignore = resolve(&choice.ignore)?;
    let default_of = |name: &str| rules::find(name).map(|r| r.meta().severity);
    if !choice.select.is_empty() {
        for name in rules::names() {
            if rules::always_selected(name) && !select.contains(&name) {
                continue;
            }
            if !select.contains(&name) {
                config.rules.insert(name.to_string(), None);
            } else if config.rules.get(name) == Some(&None) {
                config.rules.insert(name.to_string(), default_of(name));
            }
        }
    }
    for name in extend {
        if config.rules.get(name).is_none_or(Option::is_none) {
            config.rules.insert(name.to_string(), default_of(name));
        }
    }
    for name in ignore {
        config.rules.insert(name.to_string(), None);
    }
    Ok(())
}
