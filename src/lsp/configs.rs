//! The settings of each open document: read once per config file, read again when a
//! config or one of its context snapshots changes.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::engine::Settings;
use crate::model::config::Config;
use crate::run::environments::Discovery;

/// Settings per config file, read once and read again when the config or one of its
/// context snapshots changes.
#[derive(Default)]
pub struct Configs {
    by_path: HashMap<Option<PathBuf>, Result<Arc<Settings>, String>>,
    /// The workspace root the client named: where a file without a `.reqlint.yaml` above
    /// it is matched from, as `check` matches from the working directory.
    pub workspace: Option<PathBuf>,
    /// Every file the settings were read from (configs, context snapshots and the
    /// environments discovered beside documents): a change to one of them reloads them
    /// all.
    sources: HashSet<PathBuf>,
    /// Per config, the environments discovered beside its documents, read once until
    /// the settings are read again.
    discoveries: HashMap<(Option<PathBuf>, PathBuf), Discovery>,
}

impl Configs {
    pub fn for_file(&mut self, file: &Path) -> Result<Arc<Settings>, String> {
        let dir = file.parent().unwrap_or(Path::new("/"));
        let config_path = Config::discover(dir);
        let root = match (&config_path, &self.workspace) {
            (None, Some(workspace)) if file.starts_with(workspace) => workspace.clone(),
            _ => dir.to_path_buf(),
        };
        let settings = self.config_settings(config_path.clone(), &root)?;
        // A document is read with the environments beside it, as `check` reads it.
        let discovery = self
            .discoveries
            .entry((config_path, root))
            .or_insert_with(|| Discovery::new(&settings, false));
        match discovery.found_for(&settings, file) {
            Some(found) => {
                self.sources.extend(found.files.iter().cloned());
                Ok(found.settings().cloned().unwrap_or(settings))
            }
            None => Ok(settings),
        }
    }

    /// The settings of a config (none: the defaults under `root`).
    fn config_settings(
        &mut self,
        config_path: Option<PathBuf>,
        root: &Path,
    ) -> Result<Arc<Settings>, String> {
        let sources = &mut self.sources;
        self.by_path
            .entry(config_path.clone())
            .or_insert_with(|| {
                let loaded = load_settings(config_path.as_deref(), root);
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
            || crate::run::environments::may_be_environment(path)
    }

    pub fn forget(&mut self) {
        self.by_path.clear();
        self.sources.clear();
        self.discoveries.clear();
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
