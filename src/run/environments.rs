//! Environments found beside request files, as the tools that send them find them: the
//! Postman environments in a collection's directory (Newman and the Postman app import
//! them from there), the `http-client.env.json` (and its private variant) in a `.http`
//! file's directory, the `environments/*.bru` of the Bruno collection a `.bru` file
//! belongs to (the directory that holds `bruno.json`, at or above it). Hurl has no
//! environment files.
//!
//! Only where the config names no `environments` and the command line no `--environment`:
//! an explicit choice replaces discovery entirely.
//!
//! A request is sent with one environment, chosen when it is sent; reqlint cannot tell
//! which. So a variable is known only where every environment found gives it the same
//! value, or where those that lack it leave the file's own value and that is the same;
//! any other that an environment names is unknown (it matches anything and is judged by
//! nothing), and hides the file's own value as the environment would. The config's own
//! `variables` override what environments give, as they override the environments the
//! config names.
//!
//! Each place's environments are read once per run, however many request files share
//! them; an environment file is read as any file (regular files within the size limit,
//! never through a link); one that cannot be read or is not an environment gives no
//! variables and takes no part in the agreement (the walk lints it as a file of its own,
//! as before).

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use sha2::Digest as _;

use crate::engine::{self, FileResult, ReadFile, Settings};
use crate::loading::readers::{self, Variable};
use crate::rules::RunFacts;

/// A variable's name and value (`None`: not known).
pub type Variables = BTreeMap<String, Option<String>>;

/// The tool whose environment files a request file is read with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Tool {
    Postman,
    JetBrains,
    Bruno,
}

impl Tool {
    /// The tool a request file's name says, if it has environment files.
    fn of(path: &Path) -> Option<Tool> {
        let name = path.file_name()?.to_string_lossy().to_ascii_lowercase();
        if name.ends_with(".http") || name.ends_with(".rest") {
            Some(Tool::JetBrains)
        } else if name.ends_with(".bru") {
            Some(Tool::Bruno)
        } else if name.ends_with(".json")
            && !name.ends_with(".req.json")
            && !name.starts_with(JETBRAINS_PUBLIC_PREFIX)
        {
            // A Postman collection, by its name or its content: a `.json` file that is
            // neither reads no variables, so it may take a collection's environments.
            Some(Tool::Postman)
        } else {
            None
        }
    }
}

/// The JetBrains environment files, in the order they are read: the private one's
/// names first, the public one's values over them (its documentation: "public variables
/// take precedence over private ones").
const JETBRAINS_FILES: [&str; 2] = ["http-client.private.env.json", "http-client.env.json"];
const JETBRAINS_PUBLIC_PREFIX: &str = "http-client.";

/// What a place's environment files give.
pub struct Found {
    pub tool: Tool,
    /// Every environment file found, read or not (absolute).
    pub files: Vec<PathBuf>,
    /// How many environments took part in the agreement.
    pub environments: usize,
    /// The variables they agree on ([`agree`]).
    pub variables: Variables,
    /// The values some of them give and the others leave to the file ([`agree`]).
    pub left_to_the_file: BTreeMap<String, String>,
    /// The SHA-256 of the files found, names and bytes: part of the result cache's key
    /// of every file read with them.
    pub digest: [u8; 32],
    /// The run's settings with these variables: `None` when they give none.
    settings: Option<Arc<Settings>>,
}

/// A place's environments, read by the first file that needs them.
type Place = Arc<OnceLock<Arc<Found>>>;

/// The discovery of one run (or of one config's files, in the language server).
pub struct Discovery {
    enabled: bool,
    /// The directory above which no Bruno collection is looked for: the config's (or
    /// the working directory), so that a file in the project never has a file of the
    /// user's home read; a request file outside it looks in its own directory only.
    root: PathBuf,
    cwd: PathBuf,
    places: Mutex<HashMap<(Tool, PathBuf), Place>>,
    bruno_roots: Mutex<HashMap<PathBuf, Option<PathBuf>>>,
    files_read: AtomicUsize,
}

/// The settings a file is read with: the run's, or the run's with the variables of the
/// environments found for it.
pub enum FileSettings<'a> {
    Run(&'a Settings),
    /// The run's settings with the environments' variables, and the digest of the
    /// environment files.
    Discovered(Arc<Settings>, [u8; 32]),
}

impl std::ops::Deref for FileSettings<'_> {
    type Target = Settings;

    fn deref(&self) -> &Settings {
        match self {
            FileSettings::Run(settings) => settings,
            FileSettings::Discovered(settings, _) => settings,
        }
    }
}

impl Found {
    /// The settings a file read with these environments is linted with, when they give
    /// variables.
    pub fn settings(&self) -> Option<&Arc<Settings>> {
        self.settings.as_ref()
    }
}

impl FileSettings<'_> {
    /// The digest of the environments the file is read with, if any.
    pub fn environment_digest(&self) -> Option<&[u8; 32]> {
        match self {
            FileSettings::Run(_) => None,
            FileSettings::Discovered(_, digest) => Some(digest),
        }
    }
}

impl Discovery {
    /// The discovery of a run with `settings`: off when the config names environments or
    /// `named_on_command_line` (`--environment`).
    pub fn new(settings: &Settings, named_on_command_line: bool) -> Discovery {
        let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("/"));
        Discovery {
            enabled: !named_on_command_line && settings.config.environments.is_empty(),
            root: crate::run::walk::absolute(&cwd, &settings.config.root),
            cwd,
            places: Mutex::new(HashMap::new()),
            bruno_roots: Mutex::new(HashMap::new()),
            files_read: AtomicUsize::new(0),
        }
    }

    /// How many environment files the discovery has read.
    pub fn files_read(&self) -> usize {
        self.files_read.load(Ordering::Relaxed)
    }

    /// The settings `path` is read with (`run`: the run's settings, the same for every
    /// call).
    pub fn settings_for<'a>(&self, run: &'a Settings, path: &Path) -> FileSettings<'a> {
        match self.found_for(run, path) {
            Some(found) => match &found.settings {
                Some(settings) => FileSettings::Discovered(Arc::clone(settings), found.digest),
                None => FileSettings::Run(run),
            },
            None => FileSettings::Run(run),
        }
    }

    /// The environments found for `path`, if discovery is on and the file has a place
    /// for them; `None` for a file that is itself one of them.
    pub fn found_for(&self, run: &Settings, path: &Path) -> Option<Arc<Found>> {
        if !self.enabled {
            return None;
        }
        let tool = Tool::of(path)?;
        let path = crate::run::walk::absolute(&self.cwd, path);
        let dir = path.parent()?.to_path_buf();
        let place = match tool {
            Tool::Bruno => self.bruno_root(&dir)?,
            Tool::Postman | Tool::JetBrains => dir,
        };
        let cell = {
            let mut places = self.places.lock().unwrap_or_else(|e| e.into_inner());
            places.entry((tool, place.clone())).or_default().clone()
        };
        // Read outside the lock: other places are read meanwhile; a second file of the
        // same place waits for the first's reading instead of reading again.
        let found = cell
            .get_or_init(|| Arc::new(self.read_place(run, tool, &place)))
            .clone();
        (!found.files.contains(&path)).then_some(found)
    }

    /// Every place's environments found so far.
    pub fn found(&self) -> Vec<Arc<Found>> {
        let places = self.places.lock().unwrap_or_else(|e| e.into_inner());
        let mut found: Vec<Arc<Found>> = places.values().filter_map(|c| c.get().cloned()).collect();
        found.sort_by(|a, b| a.files.cmp(&b.files));
        found
    }

    /// The values of discovered variables that some file of the run uses in a credential
    /// position are secrets of every file, as the config's are
    /// ([`engine::mask_credential_variables`]).
    pub fn mask_credential_variables(&self, facts: &RunFacts, results: &mut [FileResult]) {
        for found in self.found() {
            if let Some(settings) = &found.settings {
                engine::mask_credential_variables(settings, facts, results);
            }
        }
    }

    /// The directory of the Bruno collection a directory belongs to: the nearest that
    /// holds `bruno.json`, not above the root (a directory outside it: itself only).
    fn bruno_root(&self, dir: &Path) -> Option<PathBuf> {
        if let Some(known) = self
            .bruno_roots
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(dir)
        {
            return known.clone();
        }
        let inside = dir.starts_with(&self.root);
        let mut found = None;
        for candidate in dir.ancestors() {
            if candidate.join("bruno.json").is_file() {
                found = Some(candidate.to_path_buf());
                break;
            }
            if !inside || candidate == self.root {
                break;
            }
        }
        self.bruno_roots
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(dir.to_path_buf(), found.clone());
        found
    }

    /// Reads a place's environment files (each once).
    fn read_place(&self, run: &Settings, tool: Tool, place: &Path) -> Found {
        let files = match tool {
            Tool::Postman => listed(place, |name| name.ends_with(".json")),
            Tool::JetBrains => JETBRAINS_FILES
                .iter()
                .map(|name| place.join(name))
                .filter(|p| std::fs::symlink_metadata(p).is_ok_and(|m| m.is_file()))
                .collect(),
            Tool::Bruno => {
                // A link in the collection's place (to a directory of the user's home,
                // say) is not followed.
                let dir = place.join("environments");
                if std::fs::symlink_metadata(&dir).is_ok_and(|m| m.is_dir()) {
                    listed(&dir, |name| name.ends_with(".bru"))
                } else {
                    Vec::new()
                }
            }
        };
        let max = run.limits.max_file_bytes;
        let mut digest = sha2::Sha256::new();
        digest.update(format!("{tool:?}\n"));
        let mut found_files = Vec::new();
        // Folded in as each file is read: what is kept is one entry per variable name,
        // not every file's variables.
        let mut agreement = Agreement::default();
        // JetBrains: each environment name's variables across the two files, and the
        // variables they all share.
        let mut named: BTreeMap<String, Vec<Variable>> = BTreeMap::new();
        let mut shared: Vec<Variable> = Vec::new();
        for file in files {
            let name = file
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            let is_named_environment = name
                .to_ascii_lowercase()
                .ends_with(".postman_environment.json");
            if tool == Tool::Postman
                && !is_named_environment
                && !crate::run::walk::is_postman_file(&file)
            {
                continue;
            }
            self.files_read.fetch_add(1, Ordering::Relaxed);
            let text = match crate::loading::read_regular_file(&file, max) {
                Ok(ReadFile::Bytes(bytes)) => String::from_utf8(bytes).ok(),
                _ => None,
            };
            let read = match tool {
                Tool::Postman => {
                    let scope = text.as_deref().and_then(postman_scope);
                    // A JSON file its content made a candidate that is a collection, or
                    // Postman's globals (which Newman reads only when told,
                    // `--globals`): not an environment of the collection.
                    if scope.as_deref() == Some("globals")
                        || (!is_named_environment && scope.is_none())
                    {
                        continue;
                    }
                    scope
                        .and(text.as_deref())
                        .and_then(|text| readers::environment(text, &name, None).ok())
                        .map(|variables| vec![(String::new(), variables)])
                }
                Tool::JetBrains | Tool::Bruno => text
                    .as_deref()
                    .and_then(|text| readers::environments(text, &name).ok()),
            };
            digest.update(file.as_os_str().as_encoded_bytes());
            digest.update([0]);
            match &text {
                Some(text) => {
                    digest.update((text.len() as u64).to_le_bytes());
                    digest.update(text.as_bytes());
                }
                None => digest.update(u64::MAX.to_le_bytes()),
            }
            found_files.push(file);
            let Some(read) = read else {
                continue;
            };
            match tool {
                Tool::JetBrains => {
                    for (environment, variables) in read {
                        if environment == readers::SHARED_ENVIRONMENT {
                            shared.extend(variables);
                        } else {
                            named.entry(environment).or_default().extend(variables);
                        }
                    }
                }
                Tool::Postman | Tool::Bruno => {
                    for (_, variables) in read {
                        agreement.add(variables.into_iter().collect());
                    }
                }
            }
        }
        for variables in named.into_values() {
            agreement.add(variables.into_iter().collect());
        }
        let count = agreement.environments;
        let (variables, left_to_the_file) = agreement.finish(&shared.into_iter().collect());
        let settings = (!variables.is_empty() || !left_to_the_file.is_empty()).then(|| {
            let mut config = run.config.clone();
            let mut merged = variables.clone();
            merged.extend(run.config.variables.clone());
            config.variables = merged;
            // The config's own values override what environments give.
            config.variables_left_to_files = left_to_the_file
                .iter()
                .filter(|(name, _)| !run.config.variables.contains_key(*name))
                .map(|(name, value)| (name.clone(), value.clone()))
                .collect();
            Arc::new(Settings {
                config,
                context: run.context.clone(),
                limits: run.limits,
            })
        });
        Found {
            tool,
            files: found_files,
            environments: count,
            variables,
            left_to_the_file,
            digest: digest.finalize().into(),
            settings,
        }
    }
}

/// Whether a file's name makes it an environment that discovery reads (a new one
/// changes what a request file beside it is read with): a `*.postman_environment.json`,
/// a JetBrains `http-client*.env.json`, a `.bru` file in an `environments` folder.
pub fn may_be_environment(path: &Path) -> bool {
    let Some(name) = path
        .file_name()
        .map(|n| n.to_string_lossy().to_ascii_lowercase())
    else {
        return false;
    };
    name.ends_with(".postman_environment.json")
        || JETBRAINS_FILES.contains(&name.as_str())
        || (name.ends_with(".bru")
            && path
                .parent()
                .and_then(Path::file_name)
                .is_some_and(|d| d == "environments"))
}

/// The regular files (not links) of a directory whose lowercase names `wanted` takes,
/// sorted by name.
fn listed(dir: &Path, wanted: impl Fn(&str) -> bool) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut files: Vec<PathBuf> = entries
        .flatten()
        .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
        .filter(|e| wanted(&e.file_name().to_string_lossy().to_ascii_lowercase()))
        .map(|e| e.path())
        .collect();
    files.sort();
    files
}

/// The scope of a Postman environment (`environment`, `globals`): `None` for a text that
/// is not one.
fn postman_scope(text: &str) -> Option<String> {
    let (docs, problems) = crate::loading::parse_text(
        text,
        crate::loading::Format::Json,
        &crate::loading::Limits::DEFAULT,
    );
    let root = docs.first().filter(|_| problems.is_empty())?;
    if !readers::postman::is_environment(root) {
        return None;
    }
    root.get_value("_postman_variable_scope")
        .and_then(crate::loading::Node::as_str)
        .map(str::to_string)
}

/// What every environment says: a variable every one gives the same known value keeps
/// it; one that those which give it give the same known value while the others lack it
/// is left to the file (each of those others sends the file's own value: known where
/// the file's value is that one); any other (given different values, or a value some
/// keep secret) is unknown (`None`). One environment: its own values. `shared`: what
/// every environment has under its own (JetBrains' `$shared`), so that an environment
/// that does not give one of them gives the shared value.
pub fn agree(
    environments: impl IntoIterator<Item = Variables>,
    shared: &Variables,
) -> (Variables, BTreeMap<String, String>) {
    let mut agreement = Agreement::default();
    for environment in environments {
        agreement.add(environment);
    }
    agreement.finish(shared)
}

/// [`agree`], one environment at a time: what is kept is one entry per name, whatever
/// the number of environments, never the environments themselves.
#[derive(Default)]
struct Agreement {
    environments: usize,
    /// Per name: how many environments give it, the first value, whether all agree.
    names: BTreeMap<String, (usize, Option<String>, bool)>,
}

impl Agreement {
    fn add(&mut self, environment: Variables) {
        crate::loading::work::count(environment.len());
        self.environments += 1;
        for (name, value) in environment {
            match self.names.get_mut(&name) {
                Some((count, first, same)) => {
                    *count += 1;
                    *same &= value.is_some() && *first == value;
                }
                None => {
                    let same = value.is_some();
                    self.names.insert(name, (1, value, same));
                }
            }
        }
    }

    fn finish(mut self, shared: &Variables) -> (Variables, BTreeMap<String, String>) {
        let all = self.environments;
        if all == 0 {
            return (Variables::new(), BTreeMap::new());
        }
        crate::loading::work::count(shared.len());
        for (name, value) in shared {
            let (count, first, same) =
                self.names
                    .entry(name.clone())
                    .or_insert((0, value.clone(), value.is_some()));
            // The environments that do not give it give the shared value.
            if *count < all {
                *same &= value.is_some() && first == value;
            }
            *count = all;
        }
        let mut known = Variables::new();
        let mut left = BTreeMap::new();
        for (name, (count, first, same)) in self.names {
            match first.filter(|_| same) {
                Some(value) if count < all => {
                    left.insert(name, value);
                }
                value => {
                    known.insert(name, value);
                }
            }
        }
        (known, left)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vars(pairs: &[(&str, Option<&str>)]) -> Variables {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.map(str::to_string)))
            .collect()
    }

    fn settings(root: &Path) -> Settings {
        Settings {
            config: crate::model::config::Config::defaults(root.to_path_buf()),
            context: Default::default(),
            limits: crate::loading::Limits::DEFAULT,
        }
    }

    fn postman_environment(name: &str, objective: &str) -> String {
        format!(
            r#"{{"name": "{name}", "values": [
  {{"key": "base_url", "value": "https://graph.facebook.com/v25.0", "enabled": true}},
  {{"key": "objective", "value": "{objective}", "enabled": true}},
  {{"key": "access_token", "value": "", "type": "secret", "enabled": true}}],
 "_postman_variable_scope": "environment"}}"#
        )
    }

    /// Each place's environments are read once per run, however many request files
    /// share them: n collections beside m environments cost m reads, not n × m.
    #[test]
    fn a_place_is_read_once_whatever_the_files_beside_it() {
        for (collections, environments) in [(30, 20), (300, 200)] {
            let dir = tempfile::tempdir().unwrap();
            let run = settings(dir.path());
            for i in 0..environments {
                let text = postman_environment(&format!("env {i}"), "LEADS");
                std::fs::write(
                    dir.path().join(format!("e{i}.postman_environment.json")),
                    text,
                )
                .unwrap();
            }
            let discovery = Discovery::new(&run, false);
            for i in 0..collections {
                let file = dir.path().join(format!("c{i}.postman_collection.json"));
                let found = discovery.settings_for(&run, &file);
                assert_eq!(
                    found.config.variables.get("objective"),
                    Some(&Some("LEADS".to_string()))
                );
                assert!(found.environment_digest().is_some());
            }
            assert_eq!(discovery.files_read(), environments);
            assert_eq!(discovery.found().len(), 1);
        }
    }

    #[test]
    fn each_tool_finds_its_own_files() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        let run = settings(root);
        // JetBrains: the file's directory; two named environments and the private names.
        std::fs::write(
            root.join("http-client.env.json"),
            r#"{"$shared": {"base_url": "https://graph.facebook.com/v25.0"},
                "dev": {"objective": "LEADS", "account": "1"},
                "prod": {"objective": "LEADS", "account": "2"}}"#,
        )
        .unwrap();
        std::fs::write(
            root.join("http-client.private.env.json"),
            r#"{"dev": {"token": "x", "objective": "hidden"}}"#,
        )
        .unwrap();
        let discovery = Discovery::new(&run, false);
        let found = discovery.found_for(&run, &root.join("a.http")).unwrap();
        assert_eq!(found.tool, Tool::JetBrains);
        assert_eq!(found.environments, 2);
        assert_eq!(
            found.variables,
            vars(&[
                ("account", None),
                ("base_url", Some("https://graph.facebook.com/v25.0")),
                // The public value wins over the private name.
                ("objective", Some("LEADS")),
                ("token", None),
            ])
        );
        // Bruno: the collection's environments, from a request file in a folder of it.
        let collection = root.join("coll");
        std::fs::create_dir_all(collection.join("environments")).unwrap();
        std::fs::create_dir_all(collection.join("Folder")).unwrap();
        std::fs::write(collection.join("bruno.json"), "{}").unwrap();
        std::fs::write(
            collection.join("environments/staging.bru"),
            "vars {
  objective: LEADS
}
vars:secret [
  token
]
",
        )
        .unwrap();
        let request = collection.join("Folder/a.bru");
        let found = discovery.found_for(&run, &request).unwrap();
        assert_eq!(found.tool, Tool::Bruno);
        assert_eq!(
            found.variables,
            vars(&[("objective", Some("LEADS")), ("token", None)])
        );
        // An environment file is not read with itself; Hurl has no environment files.
        assert!(
            discovery
                .found_for(&run, &collection.join("environments/staging.bru"))
                .is_none()
        );
        assert!(discovery.found_for(&run, &root.join("a.hurl")).is_none());
        // A Bruno file of no collection: nothing.
        assert!(discovery.found_for(&run, &root.join("lone.bru")).is_none());
        // An explicit choice replaces discovery.
        let off = Discovery::new(&run, true);
        assert!(off.found_for(&run, &root.join("a.http")).is_none());
    }

    /// A JetBrains file of many environments and many shared variables costs what it is
    /// long: the shared variables are not copied into each environment (n of each, then
    /// 10n: about ten times the work, not a hundred).
    #[test]
    fn shared_variables_cost_what_they_are_long() {
        let work = |n: usize| {
            let dir = tempfile::tempdir().unwrap();
            let run = settings(dir.path());
            let shared: Vec<String> = (0..n).map(|i| format!("\"s{i}\": \"v\"")).collect();
            let named: Vec<String> = (0..n)
                .map(|i| format!("\"e{i}\": {{\"x\": \"{i}\"}}"))
                .collect();
            let text = format!(
                "{{\"$shared\": {{{}}}, {}}}",
                shared.join(", "),
                named.join(", ")
            );
            std::fs::write(dir.path().join("http-client.env.json"), text).unwrap();
            let discovery = Discovery::new(&run, false);
            let (found, work) = crate::loading::work::measure(|| {
                discovery.found_for(&run, &dir.path().join("a.http"))
            });
            let found = found.unwrap();
            assert_eq!(found.environments, n);
            assert_eq!(found.variables.get("s0"), Some(&Some("v".to_string())));
            assert_eq!(found.variables.get("x"), Some(&None));
            work
        };
        let (small, large) = (work(200), work(2000));
        assert!(large < small * 20, "{small} then {large}");
    }

    /// Links are not followed: an environment file, or a Bruno collection's
    /// `environments` folder, that links elsewhere gives nothing.
    #[cfg(unix)]
    #[test]
    fn links_are_not_followed() {
        let outside = tempfile::tempdir().unwrap();
        std::fs::write(
            outside.path().join("staging.bru"),
            "vars {\n  objective: LEADS\n}\n",
        )
        .unwrap();
        std::fs::write(
            outside.path().join("env.json"),
            r#"{"dev": {"objective": "LEADS"}}"#,
        )
        .unwrap();
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        let run = settings(root);
        std::fs::write(root.join("bruno.json"), "{}").unwrap();
        std::os::unix::fs::symlink(outside.path(), root.join("environments")).unwrap();
        std::os::unix::fs::symlink(
            outside.path().join("env.json"),
            root.join("http-client.env.json"),
        )
        .unwrap();
        let discovery = Discovery::new(&run, false);
        for file in ["a.bru", "a.http"] {
            let found = discovery.found_for(&run, &root.join(file)).unwrap();
            assert!(found.files.is_empty(), "{file}: {:?}", found.files);
            assert!(found.settings().is_none());
        }
        assert_eq!(discovery.files_read(), 0);
    }

    /// A Postman directory's collections and globals are not its environments; an
    /// environment that is malformed or too large gives nothing and spoils nothing.
    #[test]
    fn what_is_not_an_environment_gives_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        let mut run = settings(root);
        run.limits.max_file_bytes = 4096;
        std::fs::write(
            root.join("a.json"),
            r#"{"info": {"schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"}, "item": []}"#,
        )
        .unwrap();
        std::fs::write(
            root.join("globals.json"),
            r#"{"values": [{"key": "objective", "value": "X"}], "_postman_variable_scope": "globals"}"#,
        )
        .unwrap();
        std::fs::write(
            root.join("broken.postman_environment.json"),
            r#"{"values": ["#,
        )
        .unwrap();
        let large = postman_environment("large", &"A".repeat(5000));
        std::fs::write(root.join("large.postman_environment.json"), large).unwrap();
        std::fs::write(
            root.join("by-content.json"),
            postman_environment("staging", "LEADS"),
        )
        .unwrap();
        let discovery = Discovery::new(&run, false);
        let found = discovery.found_for(&run, &root.join("a.json")).unwrap();
        assert_eq!(found.environments, 1, "{:?}", found.files);
        assert_eq!(
            found.variables.get("objective"),
            Some(&Some("LEADS".into()))
        );
        // The malformed and the large one are found (their bytes key the cache), the
        // collection and the globals are not.
        let names: Vec<_> = found
            .files
            .iter()
            .map(|f| f.file_name().unwrap().to_string_lossy().into_owned())
            .collect();
        assert_eq!(
            names,
            [
                "broken.postman_environment.json",
                "by-content.json",
                "large.postman_environment.json"
            ]
        );
    }

    #[test]
    fn only_what_every_environment_says_is_known() {
        let staging = vars(&[
            ("base_url", Some("https://graph.facebook.com/v25.0")),
            ("objective", Some("LEADS")),
            ("only_here", Some("x")),
            ("token", None),
        ]);
        let production = vars(&[
            ("base_url", Some("https://graph.facebook.com/v25.0")),
            ("objective", Some("OUTCOME_SALES")),
            ("token", None),
            ("only_there", Some("y")),
        ]);
        let (known, left) = agree([staging.clone(), production], &Variables::new());
        assert_eq!(
            known,
            vars(&[
                ("base_url", Some("https://graph.facebook.com/v25.0")),
                ("objective", None),
                ("token", None),
            ])
        );
        // Given by one, left to the file by the other.
        assert_eq!(
            left,
            BTreeMap::from([
                ("only_here".to_string(), "x".to_string()),
                ("only_there".to_string(), "y".to_string()),
            ])
        );
        // One environment: its values.
        assert_eq!(
            agree([staging.clone()], &Variables::new()),
            (staging.clone(), BTreeMap::new())
        );
        assert_eq!(
            agree(Vec::<Variables>::new(), &staging),
            (Variables::new(), BTreeMap::new())
        );
        // Shared values: every environment has them under its own.
        let shared = vars(&[("base_url", Some("https://s")), ("version", Some("v1"))]);
        let dev = vars(&[("base_url", Some("https://dev"))]);
        let prod = vars(&[]);
        let (known, left) = agree([dev.clone(), prod], &shared);
        assert_eq!(known, vars(&[("base_url", None), ("version", Some("v1"))]));
        assert!(left.is_empty());
        let (known, _) = agree([dev.clone(), dev], &shared);
        assert_eq!(
            known,
            vars(&[("base_url", Some("https://dev")), ("version", Some("v1"))])
        );
    }
}
