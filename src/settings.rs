//! The settings of a run or of an editor's files, read from a config: shared by the
//! command line and the language server.

use std::path::PathBuf;

use crate::engine::Settings;
use crate::loading::Limits;
use crate::model::config::Config;
use crate::model::context::{ContextIndex, expand_context_glob};

/// The settings a config gives: its tokens checked, its context snapshots read. The
/// snapshot files read come back too (the language server watches them).
pub fn from_config(config: Config) -> Result<(Settings, Vec<PathBuf>), String> {
    crate::rules::codehost::validate_config_tokens(&config)?;
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
