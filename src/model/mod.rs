//! The model: typed requests read from loaded documents (docs/request-files.md), the
//! config (docs/configuration.md) and the context snapshots
//! (docs/request-files.md#context-snapshots). Reading is tolerant: what does not fit the
//! shape is recorded as a [`ShapeIssue`] and left out, never a panic.

pub mod config;
pub mod context;
pub mod edits;
pub mod facts;
pub mod file;
pub mod request_line;
pub mod secrets;
pub mod suppressions;
pub mod time;
pub mod token;
mod variable_values;
pub mod variables;
pub mod workflow;

use crate::loading::encoded::{Lookup, NoVariables};
use crate::loading::{Entry, Limits, Loaded, Node, Problem, Span, Value};
use crate::suggest::did_you_mean;
pub use request_line::{LineError, Method, RequestLine, Segment, Version};
use variables::{Budget, Variables};

/// Keys of one request.
pub const REQUEST_KEYS: &[&str] = &[
    "request",
    "method",
    "path",
    "url",
    "params",
    "token",
    "object",
    "public",
    "api-version",
    "name",
    "description",
];

/// The key of a request's headers, as the readers of the request formats write them
/// and as a request file may give them: extensions the rules ignore but for the headers
/// that change the request (`X-GitHub-Api-Version`).
pub use crate::loading::readers::HEADERS as HEADERS_KEY;

/// The header that asks the code-hosting API for a version (as `api-version` does).
pub const API_VERSION_HEADER: &str = "X-GitHub-Api-Version";

/// Keys starting with this are extensions that rules ignore (for anchors, notes).
pub const EXTENSION_PREFIX: &str = "x-";

/// Keys of a document holding several requests (`requests:`).
pub const FILE_KEYS: &[&str] = &["requests", "token", "api-version", "name", "description"];

/// Params that the form-encoded advertising API takes as JSON-encoded strings: invalid
/// JSON in them is reported.
use crate::catalog::codehost::{ApiVersion, VERSIONS};
/// What an advertising path that names an object by id addresses (`object:`): any node
/// type of the Marketing API graph, in snake_case (`campaign`, `ad_set`, `ad_creative`).
use crate::catalog::graph::GNode;

const OBJECT_HELP: &str = "name a node type of the Marketing API in snake_case, such as `campaign`, `ad_set`, `ad`, `ad_creative` or `custom_audience`";

/// What a `requests:` list gives each of its requests unless it says otherwise.
#[derive(Clone, Copy)]
struct Defaults<'a, 'v> {
    token: Option<TokenRef<'a>>,
    api_version: Option<(ApiVersion, Span)>,
    /// `x-variables`: the values of `{{name}}` references (the readers of collections,
    /// `.http`, Bruno and Hurl files put their variables there).
    variables: &'v dyn Lookup,
    /// The `x-variables` mapping: where each variable is defined (an empty span for one
    /// that comes from the config or an environment file, not from this file).
    definitions: Option<&'a Node>,
    /// The file's budget, for JSON decoded from a substituted value (none where nothing
    /// is substituted).
    budget: Option<&'v Budget>,
}

impl Defaults<'_, 'static> {
    fn none() -> Self {
        Defaults {
            token: None,
            api_version: None,
            variables: &NoVariables,
            definitions: None,
            budget: None,
        }
    }
}

/// The key under which a document gives the values of its `{{name}}` references.
pub use crate::loading::readers::VARIABLES as VARIABLES_KEY;

/// Which of a request's params a later one of the same name shadows.
enum Shadowed<'k> {
    /// Bit `i`: the `i`th param is shadowed (at most 64 params).
    Few(u64),
    /// Each name's last position.
    Many(std::collections::HashMap<&'k str, usize>),
}

/// The credential a request runs with (`token`; docs/codehost.md).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TokenRef<'a> {
    /// A name defined under `tokens:` in the config.
    Named { name: &'a str, span: Span },
    /// A token written in place.
    Inline(&'a Node),
}

/// The label of the place a variable whose definition a finding points at is used.
pub const USE_LABEL: &str = "the variable is used here";

/// A value of a param taken from variables: the param's own (`objective={{objective}}`,
/// `name=Spring {{year}}`) or one nested in it (`countries: ['{{country}}']`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct VariableUse {
    /// The param's key.
    pub key: Span,
    /// Where the value now points: the variable's definition, when the value is one
    /// variable whole that this file defines; else the use.
    pub value: Span,
    /// The value as written, with its references.
    pub used: Span,
}

#[derive(Debug)]
pub struct Request<'a> {
    /// The request's mapping, or the bare string of a `requests:` item.
    pub node: &'a Node,
    /// Where a diagnostic about the request as a whole points: its request line.
    pub line_span: Span,
    pub line: Result<RequestLine, LineError>,
    /// The `params` entry, when there is one.
    pub params: Option<&'a Entry>,
    pub token: Option<TokenRef<'a>>,
    /// The token came from the document's `token:` rather than the request's own.
    pub token_inherited: bool,
    pub object: Option<(GNode, Span)>,
    pub public: Option<(bool, Span)>,
    /// The code-hosting API version it asks for (`api-version`), its own or its file's.
    pub api_version: Option<(ApiVersion, Span)>,
    /// The `params` mapping's entries with the variables they are (`{{objective}}`)
    /// replaced by their known values, when one is: what the request sends.
    pub substituted_params: Option<Vec<Entry>>,
    /// Each value taken from variables, in the order of the params' keys, then of where
    /// the values point, then in the order written.
    pub variable_uses: Vec<VariableUse>,
    /// Bit `i` set: a later param has the `i`th param's name ([`Request::params`]); made
    /// once with the request, since rules ask for its params many times. `None`: more
    /// than 64 params.
    shadowed: Option<u64>,
}

impl<'a> Request<'a> {
    /// The workflow job whose `GITHUB_TOKEN` the request runs with, and the span of the
    /// job's key.
    pub fn job(&self) -> Option<(&str, Span)> {
        workflow::job_of(self.node)
    }

    pub fn line(&self) -> Option<&RequestLine> {
        self.line.as_ref().ok()
    }

    pub fn method(&self) -> Option<Method> {
        self.line().map(|l| l.method)
    }

    /// Every param in the order the request sends them: the query string's pairs, then
    /// the `params` mapping's entries (a body, or pairs a client appends to the query
    /// string). A name may come more than once (`?status&status=PAUSED`, a form body
    /// that repeats a key); a key repeated inside a YAML or JSON mapping is kept once,
    /// the last, by the loader.
    pub fn every_param(&self) -> impl DoubleEndedIterator<Item = &Entry> {
        let (query, mapped) = self.param_lists();
        query.iter().chain(mapped)
    }

    /// The query string's pairs and the `params` mapping's entries (substituted).
    fn param_lists(&self) -> (&[Entry], &[Entry]) {
        let query = self.line().map_or(&[][..], |l| l.query.as_slice());
        let mapped = match &self.substituted_params {
            Some(entries) => entries.as_slice(),
            None => self
                .params
                .and_then(|e| e.value.as_map())
                .unwrap_or_default(),
        };
        (query, mapped)
    }

    /// The variables the value of `param` (one of the request's params) was substituted
    /// from, by where their values point, then in the order they are written.
    pub fn variable_uses_of(&self, param: &Entry) -> &[VariableUse] {
        let at = param.key_span.start;
        let from = self.variable_uses.partition_point(|u| u.key.start < at);
        let to = self.variable_uses.partition_point(|u| u.key.start <= at);
        let uses = &self.variable_uses[from..to];
        // One param's key starts where no other's does.
        if uses.first().is_some_and(|u| u.key == param.key_span) {
            uses
        } else {
            &[]
        }
    }

    /// The use of a variable behind a finding at `at`, about the value of `param`: the
    /// substitution whose value holds it (of several uses of one definition, the first
    /// written). Found by binary search: the values of one param's uses do not overlap
    /// but where they are the same definition.
    pub fn variable_use_at(&self, param: &Entry, at: Span) -> Option<&VariableUse> {
        let uses = self.variable_uses_of(param);
        let after = uses.partition_point(|u| u.value.start <= at.start);
        let last = uses.get(after.checked_sub(1)?)?;
        if at.end > last.value.end {
            return None;
        }
        let first = uses
            .partition_point(|u| (u.value.start, u.value.end) < (last.value.start, last.value.end));
        uses.get(first)
    }

    /// `finding`, about a value at `at` inside `param`, with the use of the variable it
    /// points at labelled, when it points at the variable's definition.
    pub fn label_variable_use(
        &self,
        param: &Entry,
        at: Span,
        finding: crate::diagnostic::Diagnostic,
    ) -> crate::diagnostic::Diagnostic {
        match self.variable_use_at(param, at) {
            Some(u) if u.used != u.value => finding.with_label(u.used, USE_LABEL),
            _ => finding,
        }
    }

    /// Where the request uses the variable whose value `param` (one of its params) has
    /// whole, when the value points at the variable's definition.
    pub fn variable_use(&self, param: &Entry) -> Option<Span> {
        let found = self.variable_use_at(param, param.value.span)?;
        (found.value == param.value.span && found.used != found.value).then_some(found.used)
    }

    /// The params the API reads, in the order they are sent: of a name given more than
    /// once, only the last (the one the Graph API reads).
    pub fn params(&self) -> impl Iterator<Item = &Entry> {
        let (query, mapped) = self.param_lists();
        // Rules ask for a request's params many times and most requests give a few, no
        // name twice: those are found without hashing (bit `i` set: a later param has
        // the same name), and only long lists use a map.
        let shadowed = if let Some(mask) = self.shadowed {
            Shadowed::Few(mask)
        } else {
            let mut last = std::collections::HashMap::new();
            for (at, entry) in query.iter().chain(mapped).enumerate() {
                last.insert(entry.key.as_str(), at);
            }
            Shadowed::Many(last)
        };
        query
            .iter()
            .chain(mapped)
            .enumerate()
            .filter(move |(at, entry)| match &shadowed {
                Shadowed::Few(mask) => mask & (1 << at) == 0,
                Shadowed::Many(last) => last.get(entry.key.as_str()) == Some(at),
            })
            .map(|(_, entry)| entry)
    }

    /// The request with its shadowed params marked ([`Request::shadowed`]).
    fn with_shadowed_marked(mut self) -> Self {
        let (query, mapped) = self.param_lists();
        self.shadowed = (query.len() + mapped.len() <= 64).then(|| {
            // A key's length and end letters tell most pairs apart without comparing
            // the keys.
            let mut prints = [0u32; 64];
            let count = query.len() + mapped.len();
            let key = |i: usize| match query.get(i) {
                Some(entry) => &entry.key,
                None => &mapped[i - query.len()].key,
            };
            for (i, print) in prints[..count].iter_mut().enumerate() {
                *print = key_print(key(i));
            }
            let mut mask = 0u64;
            for i in 0..count {
                let print = prints[i];
                let later = &prints[i + 1..count];
                if (0..later.len()).any(|k| later[k] == print && key(i + 1 + k) == key(i)) {
                    mask |= 1 << i;
                }
            }
            mask
        });
        self
    }

    /// The param `name` as the API reads it: the last one given.
    pub fn param(&self, name: &str) -> Option<&Entry> {
        self.every_param().rev().find(|e| e.key == name)
    }

    /// Each param the request gives again later: the earlier occurrence, which the API
    /// does not read, with the one it reads; in the order of the earlier ones.
    pub fn repeated_params(&self) -> Vec<(&Entry, &Entry)> {
        repeated_in(&self.every_param().collect::<Vec<_>>())
    }

    /// Whether the request may send params that are not known: a body a reader could
    /// not read, a query string that is a variable whose value is not known
    /// (`?{{report_params}}`). No param is then reported missing.
    pub fn may_send_unknown_params(&self) -> bool {
        self.node
            .get(crate::loading::readers::BODY_UNREAD_KEY)
            .is_some()
            || self.line().is_some_and(|l| !l.unknown_query.is_empty())
    }
}

/// A key's length and first and last bytes, equal for equal keys.
fn key_print(key: &str) -> u32 {
    let bytes = key.as_bytes();
    let ends = match (bytes.first(), bytes.last()) {
        (Some(&first), Some(&last)) => (u32::from(first) << 8) | u32::from(last),
        _ => 0,
    };
    ((bytes.len() as u32) << 16) ^ ends
}

/// A shape that a request file may not have (docs/request-files.md), found while
/// reading requests.
#[derive(Clone, Debug, PartialEq)]
pub struct ShapeIssue {
    pub span: Span,
    pub message: String,
    pub help: Option<String>,
}

/// What a document of a request file is.
#[derive(Clone, Debug, PartialEq)]
pub enum DocumentKind {
    /// One request.
    Single,
    /// Several requests under `requests:`.
    Multi,
    /// A list of requests at the top level, without the `requests:` key (which a file
    /// of several requests needs): its items are read as requests all the same, so that their findings are
    /// reported beside the missing key.
    BareList { span: Span },
    /// Not a request document; the reason says why.
    NotRequest { reason: String, span: Span },
}

#[derive(Debug)]
pub struct Document<'a> {
    pub root: &'a Node,
    pub kind: DocumentKind,
}

#[derive(Debug, Default)]
pub struct FileModel<'a> {
    pub documents: Vec<Document<'a>>,
    pub requests: Vec<Request<'a>>,
    pub shape_issues: Vec<ShapeIssue>,
    /// Limits met while reading the requests (substituting variables), reported as
    /// `limit-exceeded` like the loader's.
    pub problems: Vec<Problem>,
    /// A GitHub Actions workflow's jobs and permission blocks, when the file is one.
    pub workflow: Option<workflow::Workflow>,
    /// Whether a string read from the file can hold a `{{name}}` reference; when none
    /// can, params are not walked for one.
    may_reference: bool,
}

/// An item of a list that is a request: a mapping with a request line (or method and
/// path), or a string that starts with a method and a path (`GET /user`).
/// The keys of a request mapping that the model reads, each the first of its name,
/// found in one pass over the mapping.
#[derive(Default)]
struct RequestKeys<'a> {
    request: Option<&'a Entry>,
    method: Option<&'a Entry>,
    path: Option<&'a Entry>,
    url: Option<&'a Entry>,
    params: Option<&'a Entry>,
    token: Option<&'a Entry>,
    object: Option<&'a Entry>,
    public: Option<&'a Entry>,
    api_version: Option<&'a Entry>,
    headers: Option<&'a Entry>,
}

impl<'a> RequestKeys<'a> {
    fn of(node: &'a Node) -> RequestKeys<'a> {
        let mut keys = RequestKeys::default();
        for entry in node.as_map().unwrap_or_default() {
            let slot = match entry.key.as_str() {
                "request" => &mut keys.request,
                "method" => &mut keys.method,
                "path" => &mut keys.path,
                "url" => &mut keys.url,
                "params" => &mut keys.params,
                "token" => &mut keys.token,
                "object" => &mut keys.object,
                "public" => &mut keys.public,
                "api-version" => &mut keys.api_version,
                HEADERS_KEY => &mut keys.headers,
                _ => continue,
            };
            slot.get_or_insert(entry);
        }
        keys
    }
}

fn looks_like_request(item: &Node) -> bool {
    match &item.value {
        Value::Map(entries) => entries
            .iter()
            .any(|e| matches!(e.key.as_str(), "request" | "method")),
        Value::String(s) => s.split_once(' ').is_some_and(|(method, rest)| {
            Method::parse(method).is_some() && (rest.starts_with('/') || rest.starts_with("http"))
        }),
        _ => false,
    }
}

impl<'a> FileModel<'a> {
    pub fn build(documents: &'a [Node], file: &str) -> FileModel<'a> {
        FileModel::build_within(documents, file, &Limits::DEFAULT)
    }

    /// [`FileModel::build`], with variable substitution bounded by `limits`.
    pub fn build_within(documents: &'a [Node], file: &str, limits: &Limits) -> FileModel<'a> {
        FileModel::build_as(documents, file, limits, true)
    }

    /// [`FileModel::build_within`] for what the loader read: when its strings are as the
    /// text writes them and the text can make no `{{`, no param is searched for one.
    pub fn build_loaded(loaded: &'a Loaded, limits: &Limits) -> FileModel<'a> {
        let may_reference =
            !loaded.strings_as_written || variable_values::file_may_reference(&loaded.text);
        FileModel::build_as(&loaded.documents, &loaded.text, limits, may_reference)
    }

    fn build_as(
        documents: &'a [Node],
        file: &str,
        limits: &Limits,
        may_reference: bool,
    ) -> FileModel<'a> {
        let mut model = FileModel {
            may_reference,
            ..FileModel::default()
        };
        let budget = Budget::new(limits);
        for root in documents {
            if model.workflow.is_none() {
                model.workflow = workflow::Workflow::read(root);
            }
            let kind = model.read_document(root, file, &budget);
            model.documents.push(Document { root, kind });
        }
        model.problems = budget.into_problems();
        model
    }

    fn issue(&mut self, span: Span, message: String, help: Option<String>) {
        self.shape_issues.push(ShapeIssue {
            span,
            message,
            help,
        });
    }

    fn read_document(&mut self, root: &'a Node, file: &str, budget: &Budget) -> DocumentKind {
        if let Value::Seq(items) = &root.value
            && items.iter().any(looks_like_request)
        {
            for item in items {
                self.read_item(item, Defaults::none(), file);
            }
            return DocumentKind::BareList { span: root.span };
        }
        let Value::Map(entries) = &root.value else {
            let reason = match &root.value {
                Value::Null => "the document is empty".to_string(),
                _ => format!("the top level is {}, not a mapping", root.kind_name()),
            };
            return DocumentKind::NotRequest {
                reason,
                span: root.span,
            };
        };
        let has = |k: &str| entries.iter().any(|e| e.key == k);
        if let Some(requests) = root.get("requests") {
            if has("request") || has("method") {
                self.issue(
                    requests.key_span,
                    "a document holds either one request or a `requests:` list, not both".into(),
                    Some("move the single request into the `requests:` list".into()),
                );
            }
            let variables = Variables::of(root.get_value(VARIABLES_KEY), budget);
            let defaults = Defaults {
                token: root.get("token").and_then(|t| self.token_ref(t)),
                api_version: root.get("api-version").and_then(|v| self.api_version(v)),
                variables: &variables,
                definitions: root.get_value(VARIABLES_KEY),
                budget: Some(budget),
            };
            match &requests.value.value {
                Value::Seq(items) => {
                    for item in items {
                        self.read_item(item, defaults, file);
                    }
                }
                _ => self.issue(
                    requests.value.span,
                    format!(
                        "`requests` must be a list, not {}",
                        requests.value.kind_name()
                    ),
                    None,
                ),
            }
            return DocumentKind::Multi;
        }
        if has("request") || has("method") || has("path") || has("url") {
            let variables = Variables::of(root.get_value(VARIABLES_KEY), budget);
            let defaults = Defaults {
                variables: &variables,
                definitions: root.get_value(VARIABLES_KEY),
                budget: Some(budget),
                ..Defaults::none()
            };
            self.read_request(root, defaults, file);
            return DocumentKind::Single;
        }
        let first = entries.first().map_or(root.span, |e| e.key_span);
        let reason = if entries.iter().any(|e| e.key == "params") {
            "it has `params` but no `request` line".to_string()
        } else {
            "it has no `request` (or `method` and `path`) and no `requests`".to_string()
        };
        DocumentKind::NotRequest {
            reason,
            span: first,
        }
    }

    fn read_item(&mut self, item: &'a Node, defaults: Defaults<'a, '_>, file: &str) {
        match &item.value {
            Value::String(_) => {
                let line = request_line::parse_request_line(item, file, defaults.variables);
                self.requests.push(
                    Request {
                        node: item,
                        line_span: item.span,
                        line,
                        params: None,
                        token: defaults.token,
                        token_inherited: defaults.token.is_some(),
                        object: None,
                        public: None,
                        api_version: defaults.api_version,
                        substituted_params: None,
                        variable_uses: Vec::new(),
                        shadowed: None,
                    }
                    .with_shadowed_marked(),
                );
            }
            Value::Map(_) => self.read_request(item, defaults, file),
            _ => self.issue(
                item.span,
                format!(
                    "an item of `requests` must be a request line or a mapping, not {}",
                    item.kind_name()
                ),
                None,
            ),
        }
    }

    fn read_request(&mut self, node: &'a Node, defaults: Defaults<'a, '_>, file: &str) {
        let default_token = defaults.token;
        let keys = RequestKeys::of(node);
        let request = keys.request;
        let method = keys.method;
        let path = keys.path.or(keys.url);
        let first_key = node
            .as_map()
            .and_then(|e| e.first())
            .map_or(node.span, |e| e.key_span);
        let (line, line_span) = match (request, method, path) {
            (Some(r), _, _) => {
                if let Some(m) = method.or(path) {
                    self.issue(
                        m.key_span,
                        format!("`{}` is given beside `request`", m.key),
                        Some("give either `request: METHOD PATH` or `method` and `path`".into()),
                    );
                }
                (
                    request_line::parse_request_line(&r.value, file, defaults.variables),
                    r.value.span,
                )
            }
            (None, Some(m), Some(p)) => (
                request_line::parse_method_and_path(&m.value, &p.value, file, defaults.variables),
                // Method and URL written apart (a collection's JSON): the URL alone.
                if file
                    .get(m.value.span.end..p.value.span.start)
                    .is_some_and(|between| between.trim().is_empty())
                {
                    m.value.span.cover(p.value.span)
                } else {
                    p.value.span
                },
            ),
            (None, Some(m), None) => (
                Err(LineError {
                    span: m.key_span,
                    message: "request has `method` but no `path`".into(),
                    help: Some("add `path: /...`, or write `request: METHOD PATH`".into()),
                    fix: None,
                }),
                m.key_span,
            ),
            (None, None, Some(p)) => (
                Err(LineError {
                    span: p.key_span,
                    message: format!("request has `{}` but no `method`", p.key),
                    help: Some("add `method: GET` (or POST, PUT, PATCH, DELETE)".into()),
                    fix: None,
                }),
                p.key_span,
            ),
            (None, None, None) => (
                Err(LineError {
                    span: first_key,
                    message: "request has no `request` line".into(),
                    help: Some("add `request: METHOD PATH`".into()),
                    fix: None,
                }),
                first_key,
            ),
        };
        let params = keys.params;
        if let Some(p) = params
            && !matches!(p.value.value, Value::Map(_) | Value::Null)
        {
            self.issue(
                p.value.span,
                format!("`params` must be a mapping, not {}", p.value.kind_name()),
                Some("write `params:` followed by `name: value` lines".into()),
            );
        }
        let mut variable_uses = Vec::new();
        let line = line.map(|mut l| {
            for pair in &mut l.query {
                variable_values::point_at_definition(
                    pair,
                    file,
                    defaults.definitions,
                    &mut variable_uses,
                );
            }
            l
        });
        let substituted_params = params
            .filter(|_| self.may_reference)
            .and_then(|p| p.value.as_map())
            .and_then(|entries| {
                let known = variable_values::Known {
                    file,
                    variables: defaults.variables,
                    definitions: defaults.definitions,
                    budget: defaults.budget,
                };
                variable_values::substitute_params(entries, known, &mut variable_uses)
            });
        variable_uses.sort_by_key(|u: &VariableUse| (u.key.start, u.value.start, u.value.end));
        let own_token = keys.token.and_then(|t| self.token_ref(t));
        let object = keys.object.and_then(|o| match o.value.as_str() {
            Some(text) => match GNode::parse(text) {
                Some(kind) => Some((kind, o.value.span)),
                None => {
                    let help = match did_you_mean(text, GNode::all().map(GNode::name)) {
                        Some(s) => format!("did you mean `{s}`?"),
                        None => OBJECT_HELP.into(),
                    };
                    self.issue(
                        o.value.span,
                        format!("unknown object kind `{text}`"),
                        Some(help),
                    );
                    None
                }
            },
            None => {
                self.issue(
                    o.value.span,
                    format!("`object` must be a string, not {}", o.value.kind_name()),
                    Some(OBJECT_HELP.into()),
                );
                None
            }
        });
        let public = keys.public.and_then(|p| match p.value.as_bool() {
            Some(b) => Some((b, p.value.span)),
            None => {
                self.issue(
                    p.value.span,
                    format!(
                        "`public` must be true or false, not {}",
                        p.value.kind_name()
                    ),
                    None,
                );
                None
            }
        });
        // The version the request asks for as reqlint's key, else as the header the host
        // reads (`X-GitHub-Api-Version`, which every reader keeps under `x-headers`), else
        // its file's.
        let api_version = keys
            .api_version
            .and_then(|v| self.api_version(v))
            .or_else(|| self.header_api_version(keys.headers, file, defaults.variables))
            .or(defaults.api_version);
        self.requests.push(
            Request {
                node,
                line_span,
                line,
                params,
                token: own_token.or(default_token),
                token_inherited: own_token.is_none() && default_token.is_some(),
                object,
                public,
                api_version,
                substituted_params,
                variable_uses,
                shadowed: None,
            }
            .with_shadowed_marked(),
        );
    }

    /// `api-version: 2026-03-10`: one of the code-hosting API's versions.
    fn api_version(&mut self, entry: &'a Entry) -> Option<(ApiVersion, Span)> {
        let text = entry.value.scalar_text();
        let version = text.as_deref().and_then(ApiVersion::parse);
        if version.is_none() {
            let written = text.as_deref().unwrap_or_default();
            let help = match did_you_mean(written, VERSIONS.iter().copied()) {
                Some(v) => format!("did you mean `{v}`?"),
                None => format!("the versions are {}", VERSIONS.join(" and ")),
            };
            self.issue(
                entry.value.span,
                format!("`api-version` must be a version of the code-hosting API, not `{written}`"),
                Some(help),
            );
        }
        version.map(|v| (v, entry.value.span))
    }

    /// `X-GitHub-Api-Version: 2026-03-10` among a request's `x-headers`: the version the
    /// host serves the request in
    /// (https://docs.github.com/en/rest/about-the-rest-api/api-versions). A value that is
    /// a variable whose value is not known says nothing; an unknown version is reported
    /// as a wrong `api-version` is, at the header's value.
    fn header_api_version(
        &mut self,
        headers: Option<&'a Entry>,
        file: &str,
        variables: &dyn Lookup,
    ) -> Option<(ApiVersion, Span)> {
        let headers = headers?.value.as_map()?;
        let header = headers
            .iter()
            .rfind(|h| h.key.eq_ignore_ascii_case(API_VERSION_HEADER))?;
        let written = header.value.scalar_text()?;
        let map = crate::loading::encoded::SourceMap::for_scalar(file, header.value.span, &written);
        let value = crate::loading::encoded::substitute(&written, &map, variables)
            .map_or_else(|| written.to_string(), |(value, _)| value);
        let value = value.trim();
        if crate::loading::encoded::has_reference(value) {
            return None;
        }
        let span = header.value.span;
        match ApiVersion::parse(value) {
            Some(version) => Some((version, span)),
            None => {
                let help = match did_you_mean(value, VERSIONS.iter().copied()) {
                    Some(v) => format!("did you mean `{v}`?"),
                    None => format!("the versions are {}", VERSIONS.join(" and ")),
                };
                self.issue(
                    span,
                    format!(
                        "`{}` must be a version of the code-hosting API, not `{value}`",
                        header.key
                    ),
                    Some(help),
                );
                None
            }
        }
    }

    fn token_ref(&mut self, entry: &'a Entry) -> Option<TokenRef<'a>> {
        match &entry.value.value {
            Value::String(name) => Some(TokenRef::Named {
                name,
                span: entry.value.span,
            }),
            Value::Map(_) => Some(TokenRef::Inline(&entry.value)),
            _ => {
                self.issue(
                    entry.value.span,
                    format!(
                        "`token` must be a token name or a mapping, not {}",
                        entry.value.kind_name()
                    ),
                    Some("name a token defined under `tokens:` in .reqlint.yaml, or write `permissions:` in place".into()),
                );
                None
            }
        }
    }
}

/// Each param of `params` whose name is given again later: the earlier occurrence, which
/// the API does not read, with the last one, which it reads; in the order of the earlier
/// ones.
pub fn repeated_in<'e>(place: &[&'e Entry]) -> Vec<(&'e Entry, &'e Entry)> {
    // A few params, compared pairwise: hashing each name cost more than comparing them.
    if place.len() <= 64 {
        return place
            .iter()
            .enumerate()
            .filter_map(|(i, e)| {
                let sent = place[i + 1..]
                    .iter()
                    .rev()
                    .find(|later| later.key == e.key)?;
                Some((*e, *sent))
            })
            .collect();
    }
    let mut last = std::collections::HashMap::new();
    for entry in place {
        last.insert(entry.key.as_str(), *entry);
    }
    place
        .iter()
        .filter_map(|e| {
            let sent = last[e.key.as_str()];
            (!std::ptr::eq(sent, *e)).then_some((*e, sent))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::loading::{Format, parse_text};

    fn model_of(text: &str) -> (Vec<Node>, Vec<Problem>) {
        let (mut docs, problems) = parse_text(text, Format::Yaml, &Limits::DEFAULT);
        assert!(problems.is_empty());
        let p = crate::loading::encoded_params::decode_encoded_params(
            &mut docs,
            text,
            &Limits::DEFAULT,
            crate::catalog::advertising::JSON_ENCODED,
        );
        (docs, p)
    }

    /// The mask of shadowed params (compared by key prints first) keeps the same params
    /// as the map of last places that long lists use, on generated query strings and
    /// params whose keys share lengths and end letters.
    #[test]
    fn shadowed_mask_keeps_the_last_of_each_name() {
        let names = ["a", "b", "ab", "ba", "abc", "adc", "acb", "abcd", "axyd"];
        let mut next = crate::testing::xorshift(0x51ad_0bed);
        for _ in 0..300 {
            let mut pick = |n: u64| -> Vec<&str> {
                (0..next() % n)
                    .map(|_| names[(next() % names.len() as u64) as usize])
                    .collect()
            };
            let query = pick(8);
            let mut mapped = pick(6);
            mapped.sort_unstable();
            mapped.dedup();
            let query_text: Vec<String> = query.iter().map(|k| format!("{k}=1")).collect();
            let mut text = format!("request: GET /x?{}\n", query_text.join("&"));
            if !mapped.is_empty() {
                text.push_str("params:\n");
                for k in &mapped {
                    text.push_str(&format!("  {k}: 2\n"));
                }
            }
            let (docs, _) = parse_text(&text, Format::Yaml, &Limits::DEFAULT);
            let m = FileModel::build(&docs, &text);
            let request = &m.requests[0];
            assert!(request.shadowed.is_some());
            let by_mask: Vec<*const Entry> = request.params().map(|e| e as *const _).collect();
            let (q, p) = request.param_lists();
            let all: Vec<&Entry> = q.iter().chain(p).collect();
            let last_of_name: Vec<*const Entry> = (0..all.len())
                .filter(|&i| all[i + 1..].iter().all(|b| b.key != all[i].key))
                .map(|i| all[i] as *const _)
                .collect();
            assert_eq!(by_mask, last_of_name, "{text}");
            assert_eq!(all.len(), query.len() + mapped.len(), "{text}");
        }
    }

    #[test]
    fn short_and_long_lists_pair_each_repeat_with_the_last() {
        use crate::loading::{Entry, Node, Span, Value};
        for len in [0usize, 1, 5, 64, 65, 130] {
            let entries: Vec<Entry> = (0..len)
                .map(|i| Entry {
                    key: ["a", "b", "limit", "fields"][(i * 7 + i / 3) % 4].into(),
                    key_span: Span::new(i, i + 1),
                    value: Node::new(Span::new(i, i + 1), Value::Null),
                })
                .collect();
            let place: Vec<&Entry> = entries.iter().collect();
            let expected: Vec<(usize, usize)> = (0..len)
                .filter_map(|i| {
                    let last = (0..len).rev().find(|&j| entries[j].key == entries[i].key)?;
                    (last != i).then_some((i, last))
                })
                .collect();
            let found: Vec<(usize, usize)> = repeated_in(&place)
                .into_iter()
                .map(|(e, sent)| (e.key_span.start, sent.key_span.start))
                .collect();
            assert_eq!(found, expected, "{len} params");
        }
    }

    #[test]
    fn single_request() {
        let text = "request: POST /v24.0/act_1/adsets\nparams:\n  name: x\nobject: ad_set\n";
        let (docs, _) = model_of(text);
        let m = FileModel::build(&docs, text);
        assert_eq!(m.requests.len(), 1);
        let r = &m.requests[0];
        assert_eq!(r.method(), Some(Method::Post));
        assert_eq!(r.param("name").unwrap().value.as_str(), Some("x"));
        assert_eq!(r.object.unwrap().0.name(), "ad_set");
    }

    #[test]
    fn a_param_given_twice_is_read_as_the_api_reads_it() {
        let text = "request: POST /v24.0/1202?status&limit=1&status=PAUSED\nparams:\n  name: x\n  limit: 2\n";
        let (docs, _) = model_of(text);
        let m = FileModel::build(&docs, text);
        let r = &m.requests[0];
        assert_eq!(r.every_param().count(), 5);
        let sent: Vec<_> = r
            .params()
            .map(|e| (e.key.as_str(), &text[e.value.span.range()]))
            .collect();
        assert_eq!(sent, [("status", "PAUSED"), ("name", "x"), ("limit", "2")]);
        assert_eq!(r.param("status").unwrap().value.as_str(), Some("PAUSED"));
        // The body comes after the query string: its `limit` is the one read.
        assert_eq!(&text[r.param("limit").unwrap().value.span.range()], "2");
        let repeated: Vec<_> = r
            .repeated_params()
            .iter()
            .map(|(earlier, read)| (earlier.key_span.start, read.key_span.start))
            .collect();
        assert_eq!(
            repeated,
            [
                (text.find("status").unwrap(), text.rfind("status").unwrap()),
                (text.find("limit").unwrap(), text.rfind("limit").unwrap()),
            ]
        );
    }

    #[test]
    fn a_param_that_is_a_variable_has_its_value_at_the_definition() {
        let text = "x-variables:\n  objective: OUTCOME_SALE\n  quoted: \"PAUSED\"\nrequest: POST /v24.0/act_1/campaigns?objective={{objective}}&status={{quoted}}&x={{unknown}}\nparams:\n  objective: \"{{objective}}\"\n  name: Spring {{objective}}\n  spend_cap: \"{{unknown}}\"\n";
        let (docs, _) = model_of(text);
        let m = FileModel::build(&docs, text);
        let r = &m.requests[0];
        let definition = text.find("OUTCOME_SALE").unwrap();
        // The body's value: the variable's, at the definition, with the use kept.
        let objective = r.param("objective").unwrap();
        assert_eq!(objective.value.as_str(), Some("OUTCOME_SALE"));
        assert_eq!(objective.value.span.start, definition);
        let used = r.variable_use(objective).unwrap();
        assert_eq!(text[used.range()].trim_matches('"'), "{{objective}}");
        // The query's, too, a quoted definition's included.
        let query = &r.line().unwrap().query;
        assert_eq!(query[0].value.span.start, definition);
        assert_eq!(
            text[query[1].value.span.range()].trim_matches('"'),
            "PAUSED"
        );
        assert_eq!(
            &text[r.variable_use(&query[1]).unwrap().range()],
            "{{quoted}}"
        );
        // A value composed of text and a variable: substituted, pointing at itself as
        // written, without a label.
        let name = r.param("name").unwrap();
        assert_eq!(name.value.as_str(), Some("Spring OUTCOME_SALE"));
        assert_eq!(&text[name.value.span.range()], "Spring {{objective}}");
        assert!(r.variable_use(name).is_none());
        // An unknown one stays as written.
        assert_eq!(
            r.param("spend_cap").unwrap().value.as_str(),
            Some("{{unknown}}")
        );
        assert_eq!(query[2].value.as_str(), Some("{{unknown}}"));
        assert!(r.variable_use(r.param("spend_cap").unwrap()).is_none());
    }

    #[test]
    fn several_requests_inherit_the_token() {
        let text = "token: ci-bot\nrequests:\n  - GET /user/emails\n  - request: DELETE /gists/1\n    token: gist-bot\n";
        let (docs, _) = model_of(text);
        let m = FileModel::build(&docs, text);
        assert_eq!(m.requests.len(), 2);
        assert!(matches!(
            m.requests[0].token,
            Some(TokenRef::Named { name: "ci-bot", .. })
        ));
        assert!(m.requests[0].token_inherited);
        assert!(matches!(
            m.requests[1].token,
            Some(TokenRef::Named {
                name: "gist-bot",
                ..
            })
        ));
        assert!(!m.requests[1].token_inherited);
    }

    #[test]
    fn encoded_targeting_is_decoded() {
        let text = "request: POST /v24.0/act_1/adsets\nparams:\n  targeting: '{\"geo_locations\":{\"countries\":[\"DE\"]}}'\n";
        let (docs, problems) = model_of(text);
        assert!(problems.is_empty());
        let m = FileModel::build(&docs, text);
        let t = &m.requests[0].param("targeting").unwrap().value;
        let c = t
            .resolved()
            .get_value("geo_locations")
            .unwrap()
            .get_value("countries")
            .unwrap();
        assert_eq!(&text[c.as_seq().unwrap()[0].span.range()], "\"DE\"");
    }

    #[test]
    fn invalid_encoded_targeting_is_a_problem() {
        let text = "request: POST /v24.0/act_1/adsets\nparams:\n  targeting: '{\"geo_locations\":'\n  rule: '[not json'\n";
        let (_, problems) = model_of(text);
        assert_eq!(problems.len(), 1);
    }

    #[test]
    fn not_request_documents() {
        for text in [
            "- a\n- b\n",
            "just text\n",
            "foo: bar\n",
            "params: {a: 1}\n",
        ] {
            let (docs, _) = model_of(text);
            let m = FileModel::build(&docs, text);
            assert!(
                matches!(m.documents[0].kind, DocumentKind::NotRequest { .. }),
                "{text}"
            );
        }
    }
}
