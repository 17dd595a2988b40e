//! `.reqlint.yaml` (docs/configuration.md): found upward from the working directory or named by
//! `--config`. Anything it does not know stops the run with a one-line reason.

use std::any::Any;
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use globset::{Glob, GlobMatcher, GlobSet, GlobSetBuilder};

use crate::diagnostic::Severity;
use crate::loading::{self, Format, Limits, LineIndex, Node, Span, Value};
use crate::suggest::did_you_mean;

pub const CONFIG_FILE: &str = ".reqlint.yaml";

pub const DEFAULT_INCLUDE: &[&str] = &[
    "**/*.req.yaml",
    "**/*.req.yml",
    "**/*.req.json",
    "requests/**/*.{yaml,yml,json}",
    "**/*.postman_collection.json",
    "**/*.http",
    "**/*.rest",
    "**/*.bru",
    "**/*.hurl",
    "**/.github/workflows/*.{yml,yaml}",
];

pub const TOP_KEYS: &[&str] = &[
    "include",
    "exclude",
    "rules",
    "select",
    "extend-select",
    "ignore",
    "min-severity",
    "per-file-ignores",
    "tokens",
    "context",
    "variables",
    "environments",
];

/// The keys of the config's top level: the core's, with the sections of the APIs' wings
/// after `per-file-ignores`.
pub fn top_keys(sections: &[&dyn ConfigSection]) -> Vec<&'static str> {
    let at = TOP_KEYS
        .iter()
        .position(|k| *k == "per-file-ignores")
        .map_or(TOP_KEYS.len(), |i| i + 1);
    let mut keys = TOP_KEYS[..at].to_vec();
    keys.extend(sections.iter().map(|s| s.key()));
    keys.extend_from_slice(&TOP_KEYS[at..]);
    keys
}

/// A section of the config that an API's wing reads (`advertising:`, `codehost:`): the
/// config's parse hands it the section's value and keeps what it makes, which the wing
/// reads back with [`Config::section`].
pub trait ConfigSection: Sync {
    /// Its key at the config's top level.
    fn key(&self) -> &'static str;
    /// The keys it takes, for the schema (docs/configuration.md).
    fn keys(&self) -> &'static [&'static str];
    /// Reads the section's value; an error is where and why.
    fn read(&self, value: &Node) -> Result<Arc<dyn Any + Send + Sync>, (Span, String)>;
    /// The JSON Schema of the section's value (`reqlint schema config`).
    fn schema(&self) -> serde_json::Value;
}

/// Rules chosen by name or group (a rule's name, `files`, `code-hosting`, `advertising`,
/// `ALL`), each with its place in the config.
#[derive(Debug, Default, Clone)]
pub struct Selection {
    /// `select`: only these run; `None` when the config does not say.
    pub select: Option<Vec<(String, Span)>>,
    /// `extend-select`: these run too.
    pub extend_select: Vec<(String, Span)>,
    /// `ignore`: these do not run.
    pub ignore: Vec<(String, Span)>,
}

/// A rule's configured severity; `None` is `off`.
pub type RuleSetting = Option<Severity>;

#[derive(Debug, Clone)]
pub struct Config {
    /// The file it was read from, if any.
    pub path: Option<PathBuf>,
    /// The directory globs are relative to: the config's, or the working directory.
    pub root: PathBuf,
    pub include: Globs,
    pub exclude: Globs,
    pub rules: HashMap<String, RuleSetting>,
    /// `select`, `extend-select` and `ignore`: which rules run, by rule or group name
    /// (resolved against the registry by the settings, which know the rules).
    pub selection: Selection,
    /// `min-severity`: diagnostics below it are not reported.
    pub min_severity: Option<Severity>,
    /// `per-file-ignores`: each glob as written, compiled, and the rules it turns off.
    pub per_file_ignores: Vec<(String, GlobSet, Vec<String>)>,
    /// What the APIs' wings read from their sections, by section key ([`Config::section`]).
    pub sections: BTreeMap<&'static str, Arc<dyn Any + Send + Sync>>,
    /// Named tokens (docs/codehost.md), as written in the config.
    pub tokens: HashMap<String, Node>,
    /// The spans of `tokens` that a YAML alias repeats (`ci-bot: *base`): an edit there
    /// would change several tokens.
    pub token_aliases: Vec<Span>,
    /// The config file's text, for positions inside `tokens`.
    pub text: String,
    /// Context snapshot globs, relative to `root`.
    pub context: Vec<String>,
    /// Values of `{{name}}` in collections, `.http`, Bruno and Hurl files: the config's
    /// `variables`, then its environment files' (read by the settings); `None` for a
    /// name whose value is secret.
    pub variables: BTreeMap<String, Option<String>>,
    /// Variables that some environments discovered beside a file give one value and the
    /// others leave to the file (src/run/environments.rs): known as that value where
    /// the file's own is the same, else unknown.
    pub variables_left_to_files: BTreeMap<String, String>,
    /// Environment files (Postman, `http-client.env.json`, Bruno), relative to `root`.
    pub environments: Vec<(String, Span)>,
    /// Variable name → the named token it stands for (a token's `variables`).
    pub token_variables: BTreeMap<String, String>,
    /// The named token of the files a token's `files` globs select.
    pub token_files: Vec<(Globs, String)>,
}

impl Config {
    /// The config with every default, for a run without a config file.
    pub fn defaults(root: PathBuf) -> Config {
        Config {
            path: None,
            root,
            include: Globs::new(DEFAULT_INCLUDE.iter().copied()).expect("default globs are valid"),
            exclude: Globs::default(),
            rules: HashMap::new(),
            selection: Selection::default(),
            min_severity: None,
            per_file_ignores: Vec::new(),
            sections: BTreeMap::new(),
            tokens: HashMap::new(),
            token_aliases: Vec::new(),
            text: String::new(),
            context: Vec::new(),
            variables: BTreeMap::new(),
            variables_left_to_files: BTreeMap::new(),
            environments: Vec::new(),
            token_variables: BTreeMap::new(),
            token_files: Vec::new(),
        }
    }

    /// What an API's wing read from its section `key`, when the config has the section.
    pub fn section<T: Any>(&self, key: &str) -> Option<&T> {
        self.sections.get(key)?.downcast_ref::<T>()
    }

    /// Sets what a wing reads from its section `key` (for a config made in code).
    pub fn set_section<T: Any + Send + Sync>(&mut self, key: &'static str, value: T) {
        self.sections.insert(key, Arc::new(value));
    }

    /// The named token a file's requests run with unless they say otherwise (`files` of
    /// a token); `paths` are the file's path relative to the root and as given.
    pub fn token_for_file(&self, paths: &[&Path]) -> Option<&str> {
        self.token_files
            .iter()
            .find(|(globs, _)| paths.iter().any(|p| globs.is_match(p)))
            .map(|(_, name)| name.as_str())
    }

    /// The nearest `.reqlint.yaml` from `start` upward.
    pub fn discover(start: &Path) -> Option<PathBuf> {
        // Anything by that name counts, so that a config that cannot be read (a dangling
        // link, a directory, a FIFO) is an error of the run, not a config left unread.
        start
            .ancestors()
            .map(|dir| dir.join(CONFIG_FILE))
            .find(|candidate| candidate.symlink_metadata().is_ok())
    }

    /// Reads a config file; `rule_names` are the rules that exist, `sections` the APIs'
    /// sections it may hold.
    pub fn load(
        path: &Path,
        rule_names: &[&str],
        sections: &[&dyn ConfigSection],
    ) -> Result<Config, String> {
        let bytes = loading::read_bounded(path, Limits::DEFAULT.max_file_bytes, "config")?;
        let root = path
            .parent()
            .map(Path::to_path_buf)
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or_else(|| PathBuf::from("."));
        Config::parse(bytes, path, root, rule_names, sections)
    }

    pub fn parse(
        bytes: Vec<u8>,
        path: &Path,
        root: PathBuf,
        rule_names: &[&str],
        sections: &[&dyn ConfigSection],
    ) -> Result<Config, String> {
        let loaded = loading::load(bytes, Format::Yaml, &Limits::DEFAULT);
        let text = loaded.text;
        let at = |span: Span, message: String| -> String {
            let pos = LineIndex::new(&text).position(&text, span.start);
            format!("{}:{}:{}: {message}", path.display(), pos.line, pos.column)
        };
        if let Some(problem) = loaded.problems.first() {
            return Err(at(problem.span, problem.message.clone()));
        }
        let mut config = Config::defaults(root);
        config.path = Some(path.to_path_buf());
        let Some(doc) = loaded.documents.first() else {
            config.text = text;
            return Ok(config);
        };
        let entries = match &doc.value {
            Value::Map(entries) => entries,
            Value::Null => {
                config.text = text;
                return Ok(config);
            }
            _ => return Err(at(doc.span, "the config must be a mapping".into())),
        };
        for entry in entries {
            let value = &entry.value;
            match entry.key.as_str() {
                "include" => {
                    config.include = globs(value, "include").map_err(|(s, m)| at(s, m))?;
                }
                "exclude" => {
                    config.exclude = globs(value, "exclude").map_err(|(s, m)| at(s, m))?;
                }
                "rules" => {
                    let Some(rules) = value.as_map() else {
                        return Err(at(
                            value.span,
                            "`rules` must map rule names to severities".into(),
                        ));
                    };
                    for rule in rules {
                        check_rule_name(&rule.key, rule_names).map_err(|m| at(rule.key_span, m))?;
                        let setting =
                            severity_setting(&rule.value).map_err(|m| at(rule.value.span, m))?;
                        config.rules.insert(rule.key.to_string(), setting);
                    }
                }
                "select" | "extend-select" | "ignore" => {
                    let names = string_list(value).ok_or_else(|| {
                        at(
                            value.span,
                            format!("`{}` must be a list of rule or group names", entry.key),
                        )
                    })?;
                    match entry.key.as_str() {
                        "select" => config.selection.select = Some(names),
                        "extend-select" => config.selection.extend_select = names,
                        _ => config.selection.ignore = names,
                    }
                }
                "min-severity" => {
                    let text = value.scalar_text().unwrap_or_default();
                    let severity = Severity::parse(&text).ok_or_else(|| {
                        at(
                            value.span,
                            format!(
                                "unknown severity `{text}` for `min-severity`; use error, warning or info"
                            ),
                        )
                    })?;
                    config.min_severity = Some(severity);
                }
                "per-file-ignores" => {
                    let Some(items) = value.as_map() else {
                        return Err(at(
                            value.span,
                            "`per-file-ignores` must map globs to lists of rule names".into(),
                        ));
                    };
                    for item in items {
                        let set =
                            build_globs([item.key.as_str()]).map_err(|m| at(item.key_span, m))?;
                        let names = string_list(&item.value).ok_or_else(|| {
                            at(item.value.span, "expected a list of rule names".into())
                        })?;
                        for (name, span) in &names {
                            check_rule_name(name, rule_names).map_err(|m| at(*span, m))?;
                        }
                        config.per_file_ignores.push((
                            item.key.to_string(),
                            set,
                            names.into_iter().map(|(n, _)| n).collect(),
                        ));
                    }
                }
                "tokens" => {
                    let Some(items) = value.as_map() else {
                        return Err(at(
                            value.span,
                            "`tokens` must map token names to tokens".into(),
                        ));
                    };
                    for item in items {
                        if item.value.as_map().is_none() {
                            return Err(at(
                                item.value.span,
                                format!(
                                    "token `{}` must be a mapping with `permissions`",
                                    item.key
                                ),
                            ));
                        }
                        if let Some(vars) = item.value.get_value("variables") {
                            let names = string_list(vars).ok_or_else(|| {
                                at(
                                    vars.span,
                                    "a token's `variables` must be a list of variable names".into(),
                                )
                            })?;
                            for (name, span) in names {
                                let name = name.trim_start_matches("{{").trim_end_matches("}}");
                                if let Some(other) = config
                                    .token_variables
                                    .insert(name.trim().to_string(), item.key.to_string())
                                    .filter(|o| o.as_str() != item.key.as_str())
                                {
                                    return Err(at(
                                        span,
                                        format!(
                                            "variable `{name}` stands for token `{other}` already"
                                        ),
                                    ));
                                }
                            }
                        }
                        if let Some(files) = item.value.get_value("files") {
                            let set = globs(files, "files").map_err(|(s, m)| at(s, m))?;
                            config.token_files.push((set, item.key.to_string()));
                        }
                        config
                            .tokens
                            .insert(item.key.to_string(), item.value.clone());
                    }
                }
                "context" => {
                    let list = string_list(value).ok_or_else(|| {
                        at(
                            value.span,
                            "`context` must be a list of paths or globs".into(),
                        )
                    })?;
                    for (pattern, span) in &list {
                        check_context_pattern(pattern).map_err(|m| at(*span, m))?;
                    }
                    config.context = list.into_iter().map(|(s, _)| s).collect();
                }
                "variables" => {
                    let Some(items) = value.as_map() else {
                        return Err(at(
                            value.span,
                            "`variables` must map variable names to values".into(),
                        ));
                    };
                    for item in items {
                        let text = match &item.value.value {
                            Value::Map(_) | Value::Seq(_) => {
                                return Err(at(
                                    item.value.span,
                                    format!("variable `{}` must be a string", item.key),
                                ));
                            }
                            Value::Null => None,
                            _ => item.value.scalar_text().map(|t| t.into_owned()),
                        };
                        config.variables.insert(item.key.to_string(), text);
                    }
                }
                "environments" => {
                    config.environments = string_list(value).ok_or_else(|| {
                        at(
                            value.span,
                            "`environments` must be a list of environment files".into(),
                        )
                    })?;
                    for (entry, span) in &config.environments {
                        let file = entry.rsplit_once('#').map_or(entry.as_str(), |(f, _)| f);
                        crate::files::check_config_relative(file).map_err(|m| at(*span, m))?;
                    }
                }
                other => {
                    let Some(section) = sections.iter().find(|s| s.key() == other) else {
                        return Err(at(
                            entry.key_span,
                            unknown_key("the config", other, &top_keys(sections)),
                        ));
                    };
                    let read = section.read(value).map_err(|(s, m)| at(s, m))?;
                    config.sections.insert(section.key(), read);
                }
            }
        }
        config.token_aliases = crate::loading::tree::aliased_in(config.tokens.values());
        config.text = text;
        Ok(config)
    }

    /// `path:line:col: message` for a place in the config file.
    pub fn error_at(&self, span: Span, message: &str) -> String {
        let pos = LineIndex::new(&self.text).position(&self.text, span.start);
        let path = self.path.as_deref().unwrap_or(Path::new(CONFIG_FILE));
        format!("{}:{}:{}: {message}", path.display(), pos.line, pos.column)
    }

    /// The severity of a rule in this config: `None` when it is off.
    #[inline]
    pub fn severity(&self, rule: &str, default: Severity) -> Option<Severity> {
        // Asked for every rule of every file: most configurations set no rule, and
        // hashing the name would be the whole cost.
        if self.rules.is_empty() {
            return Some(default);
        }
        self.rules.get(rule).copied().unwrap_or(Some(default))
    }

    /// Whether `per-file-ignores` silences `rule` for `path` (relative to the root).
    #[inline]
    pub fn ignored_for(&self, rule: &str, paths: &[&Path]) -> bool {
        self.per_file_ignores.iter().any(|(_, set, rules)| {
            rules.iter().any(|r| r == rule) && paths.iter().any(|p| set.is_match(p))
        })
    }
}

pub fn unknown_key(place: &str, key: &str, known: &[&str]) -> String {
    match did_you_mean(key, known.iter().copied()) {
        Some(s) => format!("unknown key `{key}` in {place} (did you mean `{s}`?)"),
        None => format!(
            "unknown key `{key}` in {place}; known keys: {}",
            known.join(", ")
        ),
    }
}

fn check_rule_name(name: &str, rule_names: &[&str]) -> Result<(), String> {
    if rule_names.contains(&name) {
        return Ok(());
    }
    Err(match did_you_mean(name, rule_names.iter().copied()) {
        Some(s) => format!("unknown rule `{name}` (did you mean `{s}`?)"),
        None => format!("unknown rule `{name}`; `reqlint rules` lists them"),
    })
}

fn severity_setting(node: &Node) -> Result<RuleSetting, String> {
    let text = node.scalar_text().unwrap_or_default();
    // YAML 1.1 readers turn `off` into false; accept what people mean.
    if text == "off" || text == "false" {
        return Ok(None);
    }
    Severity::parse(&text)
        .map(Some)
        .ok_or_else(|| format!("unknown severity `{text}`; use error, warning, info or off"))
}

/// Where an API's section says the API is reached besides the vendor's own hosts
/// (docs/configuration.md): `hosts` (a mock server, a proxy, an enterprise server; a name
/// with or without its port) and `base-variables` (variables that stand for its base URL,
/// `{{base_url}}`).
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Reach {
    pub hosts: Vec<String>,
    pub base_variables: Vec<String>,
}

impl Reach {
    /// The keys it reads.
    pub const KEYS: [&'static str; 2] = ["hosts", "base-variables"];

    /// Reads `key` when it is one of [`Reach::KEYS`]: `None` for another key.
    pub fn read(&mut self, key: &str, value: &Node) -> Option<Result<(), (Span, String)>> {
        let list = match key {
            "hosts" => &mut self.hosts,
            "base-variables" => &mut self.base_variables,
            _ => return None,
        };
        let Some(names) = string_list(value) else {
            return Some(Err((
                value.span,
                format!("`{key}` must be a list of names"),
            )));
        };
        for (name, span) in names {
            let name = name
                .trim()
                .trim_start_matches("{{")
                .trim_end_matches("}}")
                .trim();
            if name.is_empty() || name.contains(['/', ' ']) {
                return Some(Err((span, format!("`{name}` is not a name for `{key}`"))));
            }
            list.push(name.to_ascii_lowercase());
        }
        Some(Ok(()))
    }

    /// Whether a host (lower case, without port) or the host with its port is one of
    /// `hosts`.
    pub fn serves(&self, host: &str, host_port: &str) -> bool {
        self.hosts.iter().any(|h| h == host || h == host_port)
    }

    /// Whether a base variable is one of `base-variables`.
    pub fn owns_variable(&self, name: &str) -> bool {
        self.base_variables
            .iter()
            .any(|v| v.eq_ignore_ascii_case(name))
    }
}

fn string_list(node: &Node) -> Option<Vec<(String, Span)>> {
    match &node.value {
        Value::String(s) => Some(vec![(s.to_string(), node.span)]),
        Value::Seq(items) => items
            .iter()
            .map(|n| n.as_str().map(|s| (s.to_string(), n.span)))
            .collect(),
        _ => None,
    }
}

fn globs(node: &Node, key: &str) -> Result<Globs, (Span, String)> {
    let list = string_list(node).ok_or((node.span, format!("`{key}` must be a list of globs")))?;
    let mut globs = Vec::new();
    for (pattern, span) in list {
        globs.push(glob(&pattern).map_err(|m| (span, m))?);
    }
    Ok(Globs {
        globs,
        set: OnceLock::new(),
    })
}

/// Globs checked when the config is read and prepared for matching when a path is
/// first matched (the globs that are more than a file name's ending compiled only when
/// one is needed): compiling costs more than linting a file, and a run on files named on
/// the command line (an editor's, a hook's) never matches `include` or `exclude`.
#[derive(Debug, Default, Clone)]
pub struct Globs {
    globs: Vec<Glob>,
    set: OnceLock<Matcher>,
}

/// The globs prepared for matching: those that only ask for a file name's ending
/// (`**/*.req.yaml`) as the endings, compared with the path's bytes; the others as one
/// globset, built on first use.
#[derive(Debug, Clone)]
struct Matcher {
    endings: Vec<Vec<u8>>,
    others: Vec<Glob>,
    others_set: OnceLock<OthersMatcher>,
}

#[derive(Debug, Clone)]
enum OthersMatcher {
    Set(GlobSet),
    /// When the globs, each valid, are too many or too large to compile together.
    Each(Vec<GlobMatcher>),
}

/// The literal ending of a glob that matches any path whose file name ends with it:
/// `**/` then `*` then text with no glob syntax and no `/`. `*` does not cross `/`
/// (`literal_separator`), so the glob matches exactly the paths ending with that text.
fn file_name_ending(pattern: &str) -> Option<&str> {
    let ending = pattern.strip_prefix("**/*")?;
    (!ending.is_empty() && !ending.contains(['*', '?', '[', ']', '{', '}', '\\', '/']))
        .then_some(ending)
}

impl Matcher {
    fn new(globs: &[Glob]) -> Matcher {
        let mut endings = Vec::new();
        let mut others = Vec::new();
        for g in globs {
            match file_name_ending(g.glob()) {
                Some(ending) => endings.push(ending.as_bytes().to_vec()),
                None => others.push(g.clone()),
            }
        }
        Matcher {
            endings,
            others,
            others_set: OnceLock::new(),
        }
    }

    fn is_match(&self, path: &Path) -> bool {
        let bytes = path.as_os_str().as_encoded_bytes();
        if self.endings.iter().any(|e| bytes.ends_with(e)) {
            return true;
        }
        if self.others.is_empty() {
            return false;
        }
        let others = self.others_set.get_or_init(|| {
            let mut builder = GlobSetBuilder::new();
            for g in &self.others {
                builder.add(g.clone());
            }
            match builder.build() {
                Ok(set) => OthersMatcher::Set(set),
                Err(_) => {
                    OthersMatcher::Each(self.others.iter().map(Glob::compile_matcher).collect())
                }
            }
        });
        match others {
            OthersMatcher::Set(set) => set.is_match(path),
            OthersMatcher::Each(each) => each.iter().any(|m| m.is_match(path)),
        }
    }
}

impl Globs {
    /// The patterns, as written.
    pub fn patterns(&self) -> Vec<&str> {
        self.globs.iter().map(|g| g.glob()).collect()
    }

    pub fn new<'a>(patterns: impl IntoIterator<Item = &'a str>) -> Result<Globs, String> {
        let globs = patterns.into_iter().map(glob).collect::<Result<_, _>>()?;
        Ok(Globs {
            globs,
            set: OnceLock::new(),
        })
    }

    pub fn is_match(&self, path: impl AsRef<Path>) -> bool {
        // Asked for every file found; an empty list (`exclude` unless configured) needs no
        // matcher, and globset would prepare the path for matching first.
        if self.globs.is_empty() {
            return false;
        }
        self.set
            .get_or_init(|| Matcher::new(&self.globs))
            .is_match(path.as_ref())
    }
}

/// The longest glob the config may hold, and the deepest nesting of `{…}` in one: globset
/// recurses on nesting (a few thousand levels overflow the stack) and its matcher grows
/// with every alternative.
const MAX_GLOB_BYTES: usize = 1024;
const MAX_GLOB_NESTING: usize = 8;

pub fn glob(pattern: &str) -> Result<Glob, String> {
    if pattern.len() > MAX_GLOB_BYTES {
        return Err(format!(
            "glob is {} bytes long; the limit is {MAX_GLOB_BYTES}",
            pattern.len()
        ));
    }
    let mut depth = 0usize;
    let mut escaped = false;
    for c in pattern.chars() {
        match c {
            _ if escaped => escaped = false,
            '\\' => escaped = true,
            '{' => {
                depth += 1;
                if depth > MAX_GLOB_NESTING {
                    return Err(format!(
                        "glob nests `{{…}}` more than {MAX_GLOB_NESTING} levels deep"
                    ));
                }
            }
            '}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    globset::GlobBuilder::new(pattern)
        .literal_separator(true)
        .build()
        .map_err(|e| format!("invalid glob `{pattern}`: {}", e.kind()))
}

/// Glob characters of a `context:` entry: without them the entry is a path.
pub const GLOB_CHARS: [char; 4] = ['*', '?', '[', '{'];

/// A `context:` entry stays inside the config's directory tree: no absolute path or
/// glob, no `..` (a snapshot elsewhere is named with `--context`).
fn check_context_pattern(pattern: &str) -> Result<(), String> {
    crate::files::check_config_relative(pattern)?;
    if pattern.contains(GLOB_CHARS) {
        glob(pattern)?;
    }
    Ok(())
}

pub fn build_globs<'a>(patterns: impl IntoIterator<Item = &'a str>) -> Result<GlobSet, String> {
    let mut builder = GlobSetBuilder::new();
    for p in patterns {
        builder.add(glob(p)?);
    }
    builder.build().map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    const RULES: &[&str] = &["duplicate-key", "literal-secret"];

    fn parse(text: &str) -> Result<Config, String> {
        Config::parse(
            text.as_bytes().to_vec(),
            Path::new(".reqlint.yaml"),
            PathBuf::from("."),
            RULES,
            &[],
        )
    }

    #[test]
    fn full_config() {
        let c = parse(
            "include: [\"**/*.req.yaml\"]\nexclude: [\"vendor/**\"]\nrules:\n  duplicate-key: warning\n  literal-secret: off\nper-file-ignores:\n  \"legacy/**\": [duplicate-key]\ntokens:\n  ci-bot:\n    permissions: {repository: {contents: read}}\ncontext:\n  - state/**/*.yaml\n",
        )
        .unwrap();
        assert!(c.include.is_match("a/b.req.yaml"));
        assert!(!c.include.is_match("a/b.yaml"));
        assert!(c.exclude.is_match("vendor/x/y.req.yaml"));
        assert_eq!(
            c.severity("duplicate-key", Severity::Error),
            Some(Severity::Warning)
        );
        assert_eq!(c.severity("literal-secret", Severity::Error), None);
        assert!(c.ignored_for("duplicate-key", &[Path::new("legacy/a.req.yaml")]));
        assert!(c.tokens.contains_key("ci-bot"));
        assert_eq!(c.context, vec!["state/**/*.yaml".to_string()]);
    }

    #[test]
    fn unknown_things_are_one_line_errors() {
        let e = parse("rulez: {}\n").unwrap_err();
        assert_eq!(
            e,
            ".reqlint.yaml:1:1: unknown key `rulez` in the config (did you mean `rules`?)"
        );
        let e = parse("rules:\n  duplicate-keys: error\n").unwrap_err();
        assert!(
            e.contains("unknown rule `duplicate-keys` (did you mean `duplicate-key`?)"),
            "{e}"
        );
        let e = parse("rules:\n  duplicate-key: fatal\n").unwrap_err();
        assert!(e.contains("unknown severity `fatal`"));
        assert!(!e.contains('\n'));
    }

    #[test]
    fn default_include() {
        let c = Config::defaults(PathBuf::from("."));
        assert!(c.include.is_match("x/y/a.req.json"));
        assert!(c.include.is_match("requests/ads/a.yaml"));
        assert!(!c.include.is_match("docs/a.yaml"));
    }

    /// A glob matched by its file name's ending answers as globset does.
    #[test]
    fn endings_match_as_globset_does() {
        let patterns = [
            "**/*.req.yaml",
            "**/*.http",
            "**/*.postman_collection.json",
            "**/*x",
            "**/*.{yml,yaml}",
            "**/*.[ch]",
            "**/a*.http",
            "*.http",
            "**/*",
        ];
        let paths = [
            "a.req.yaml",
            ".req.yaml",
            "dir/.req.yaml",
            "x/y/a.req.yaml",
            "x/y/a.req.yaml/b",
            "x/y/a.REQ.yaml",
            "a.req.yaml.bak",
            "./a.http",
            "/abs/dir/a.http",
            "a.http",
            "ab.http",
            "dir/a.http",
            "a.postman_collection.json",
            "x",
            "a/x",
            "ax/",
            "a.yml",
            "b/a.c",
            "",
        ];
        for pattern in patterns {
            let ours = Globs::new([pattern]).unwrap();
            let theirs = glob(pattern).unwrap().compile_matcher();
            for path in paths {
                assert_eq!(
                    ours.is_match(path),
                    theirs.is_match(path),
                    "`{pattern}` on `{path}`"
                );
            }
        }
        assert_eq!(file_name_ending("**/*.req.yaml"), Some(".req.yaml"));
        assert_eq!(file_name_ending("**/*.{yml,yaml}"), None);
        assert_eq!(file_name_ending("**/*"), None);
        assert_eq!(file_name_ending("*.http"), None);
    }
}
