//! The settings of a run or of an editor's files, read from a config: shared by the
//! command line and the language server.

use std::path::PathBuf;

use crate::engine::Settings;
use crate::loading::Limits;
use crate::model::config::Config;
use crate::model::context::{ContextIndex, expand_context_glob};

/// The settings a config gives: its tokens checked, its context snapshots read. The
/// snapshot files read come back too (the language server watches them).
pub fn from_config(mut config: Config) -> Result<(Settings, Vec<PathBuf>), String> {
    crate::rules::codehost::validate_config_tokens(&config)?;
    read_environments(&mut config)?;
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

/// Reads the config's environment files into its variables: in order, each overriding
/// the ones before; the config's own `variables` override them all.
fn read_environments(config: &mut Config) -> Result<(), String> {
    let mut variables = std::collections::BTreeMap::new();
    for (entry, _) in &config.environments {
        let (file, select) = match entry.rsplit_once('#') {
            Some((file, name)) => (file, Some(name)),
            None => (entry.as_str(), None),
        };
        let path = config.root.join(file);
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
