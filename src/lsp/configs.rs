//! The settings of each open document: read once per config file, read again when a
//! config or one of its context snapshots changes.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::engine::Settings;
use crate::model::config::Config;

/// Settings per config file, read once and read again when the config or one of its
/// context snapshots changes.
#[derive(Default)]
pub struct Configs {
    by_path: HashMap<Option<PathBuf>, Result<Arc<Settings>, String>>,
    /// The workspace root the client named: where a file without a `.reqlint.yaml` above
    /// it is matched from, as `check` matches from the working directory.
    pub workspace: Option<PathBuf>,
    /// Every file the settings were read from (configs and context snapshots): a change
    /// to one of them reloads them all.
    sources: HashSet<PathBuf>,
}

impl Configs {
    pub fn for_file(&mut self, file: &Path) -> Result<Arc<Settings>, String> {
        let dir = file.parent().unwrap_or(Path::new("/"));
        let config_path = Config::discover(dir);
        let root = match (&config_path, &self.workspace) {
            (None, Some(workspace)) if file.starts_with(workspace) => workspace.clone(),
            _ => dir.to_path_buf(),
        };
        let sources = &mut self.sources;
        self.by_path
            .entry(config_path.clone())
            .or_insert_with(|| {
                let loaded = load_settings(config_path.as_deref(), &root);
                if let Some(path) = &config_path {
                    sources.insert(path.clone());
                }
                loaded.map(|(settings, files)| {
                    sources.extend(files);
                    Arc::new(settings)
                })
            })
            .clone()
    }

    /// Whether a change to `path` changes some settings: a config anywhere, or a context
    /// snapshot that settings were read from.
    pub fn is_source(&self, path: &Path) -> bool {
        path.file_name()
            .is_some_and(|n| n == crate::model::config::CONFIG_FILE)
            || self.sources.contains(path)
    }

    pub fn forget(&mut self) {
        self.by_path.clear();
        self.sources.clear();
    }
}

/// The settings for files under `dir` (the config's directory, or the workspace root),
/// and the context files they were read from.
fn load_settings(
    config_path: Option<&Path>,
    dir: &Path,
) -> Result<(Settings, Vec<PathBuf>), String> {
    let names = crate::rules::names();
    let config = match config_path {
        Some(p) => Config::load(p, &names, &crate::apis::config_sections())?,
        None => Config::defaults(dir.to_path_buf()),
    };
    let (settings, files) = crate::run::settings::from_config(config)?;
    let files = files
        .iter()
        .map(|f| crate::run::walk::absolute(Path::new("/"), f))
        .collect();
    Ok((settings, files))
}
