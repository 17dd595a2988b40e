//! Readers of the request formats people already keep (Postman collections, `.http`
//! files, Bruno and Hurl files): each turns a file into one request document of
//! reqlint's own shape, whose every key and value keeps its span in the file, so that the
//! model, the rules, the reports and the language server work on them unchanged:
//!
//! ```yaml
//! x-variables: {base_url: "https://graph.facebook.com/v25.0"}   # `{{name}}` values
//! requests:
//!   - name: Create a campaign            # spans: the request's name
//!     method: POST                       #        the method as written
//!     url: "{{base_url}}/act_{{account}}/campaigns?special_ad_categories=[]"
//!     params: {name: Spring sale}        #        the body's fields
//!     token: ci-bot                      #        the `{{variable}}` a named token stands for
//!     x-headers: {Authorization: "Bearer {{gh_token}}"}
//! ```
//!
//! A reader never fails: what it cannot read is a [`Problem`] with a span.

pub mod bruno;
pub mod http;
pub mod hurl;
pub mod postman;
pub mod workflow;

use std::collections::BTreeMap;

use super::span::Span;
use super::tree::{Entry, Node, Text, Value};
use super::{Limits, Problem, ProblemKind};

/// What the config tells the readers: variable values, and which named token a variable
/// or a whole file stands for.
#[derive(Clone, Copy, Debug)]
pub struct ReadOptions<'a> {
    /// Values of `{{name}}` from the config and its environment files; `None` for a
    /// name whose value is secret (a private environment: only names are read).
    pub variables: &'a BTreeMap<String, Option<String>>,
    /// Values that some of the environments found beside the file give and the others
    /// leave to the file: a variable is known as its value where the file's own is the
    /// same (every environment then sends it), else unknown.
    pub left_to_the_file: &'a BTreeMap<String, String>,
    /// Variable name → the named token (in the config) it stands for.
    pub token_variables: &'a BTreeMap<String, String>,
    /// The named token every request of this file runs with (chosen by a glob).
    pub file_token: Option<&'a str>,
}

static NO_VARIABLES: BTreeMap<String, Option<String>> = BTreeMap::new();
static NO_TOKENS: BTreeMap<String, String> = BTreeMap::new();
static NOTHING_LEFT: BTreeMap<String, String> = BTreeMap::new();

impl Default for ReadOptions<'_> {
    fn default() -> Self {
        ReadOptions {
            variables: &NO_VARIABLES,
            left_to_the_file: &NOTHING_LEFT,
            token_variables: &NO_TOKENS,
            file_token: None,
        }
    }
}

/// The formats reqlint reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reader {
    Postman,
    Http,
    Bruno,
    Hurl,
    /// A GitHub Actions workflow (`.github/workflows/*.yml`): the calls its jobs make.
    Workflow,
}

/// Whether `text` ends with `suffix` (lower case), case aside: a file's kind is asked of
/// its path several times a file, without copying the path into lower case each time.
pub(crate) fn ends_with_ignoring_case(text: &str, suffix: &str) -> bool {
    text.len() >= suffix.len()
        && text.as_bytes()[text.len() - suffix.len()..].eq_ignore_ascii_case(suffix.as_bytes())
}

impl Reader {
    /// The reader a file name selects, if any (`.json` files are chosen by content).
    pub fn from_path(path: &str) -> Option<Reader> {
        let ends = |suffix: &str| ends_with_ignoring_case(path, suffix);
        if workflow::is_workflow_path(path) {
            Some(Reader::Workflow)
        } else if ends(".postman_collection.json") {
            Some(Reader::Postman)
        } else if ends(".http") || ends(".rest") {
            Some(Reader::Http)
        } else if ends(".bru") {
            Some(Reader::Bruno)
        } else if ends(".hurl") {
            Some(Reader::Hurl)
        } else {
            None
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Reader::Postman => "Postman collection",
            Reader::Http => ".http file",
            Reader::Bruno => "Bruno file",
            Reader::Hurl => "Hurl file",
            Reader::Workflow => "workflow",
        }
    }

    /// Reads a file's text into request documents.
    pub fn read(
        self,
        text: &str,
        limits: &Limits,
        options: &ReadOptions,
    ) -> (Vec<Node>, Vec<Problem>) {
        match self {
            Reader::Postman => postman::read(text, limits, options),
            Reader::Http => http::read(text, limits, options),
            Reader::Bruno => bruno::read(text, limits, options),
            Reader::Hurl => hurl::read(text, limits, options),
            Reader::Workflow => workflow::read(text, limits, options),
        }
    }
}

/// A line of a file: its text without the line break, and where it starts. Each reader
/// of a line-based format adds what it asks of a line.
#[derive(Clone, Copy, Debug)]
pub struct Line<'a> {
    pub text: &'a str,
    pub start: usize,
}

/// The lines of a text.
pub fn lines(text: &str) -> Vec<Line<'_>> {
    let mut out = Vec::new();
    let mut start = 0;
    super::work::count(text.len());
    for raw in text.split_inclusive('\n') {
        out.push(Line {
            text: raw.trim_end_matches(['\n', '\r']),
            start,
        });
        start += raw.len();
    }
    out
}

/// A string node.
pub fn string(span: Span, text: &str) -> Node {
    Node::new(span, Value::String(Text::from(text)))
}

/// A mapping entry.
pub fn entry(key: &str, key_span: Span, value: Node) -> Entry {
    Entry {
        key: Text::from(key),
        key_span,
        value,
    }
}

pub fn syntax(span: Span, message: impl Into<String>) -> Problem {
    Problem::new(ProblemKind::Syntax, span, message)
}

/// One request as a reader found it.
#[derive(Debug, Default)]
pub struct RequestParts {
    /// The span of the request as a whole (where a missing part is reported).
    pub span: Span,
    pub name: Option<(String, Span)>,
    /// The method as written, and its span.
    pub method: Option<(String, Span)>,
    /// The URL as written (references unsubstituted), and its span: a string node of
    /// the file, so that spans inside it map back (quotes and escapes included).
    pub url: Option<Node>,
    /// Body fields and form fields, with their spans.
    pub params: Vec<Entry>,
    pub headers: Vec<Entry>,
    /// A bearer token as written (an auth block's token, or the value of an
    /// `Authorization` header), and its span.
    pub bearer: Option<(String, Span)>,
    /// The body could not be read: params the request may give are not known, so no
    /// param is reported missing.
    pub body_unread: bool,
    /// Credentials the request holds besides its headers and params (an auth block, a
    /// Basic-auth pair, a disabled header), each as `{name: value}`: masked in every
    /// output and reported when literal, though the request may not send them.
    pub secrets: Vec<Entry>,
    /// Request lines written after this request's own with no separator between: the
    /// clients send them as this request's body.
    pub unseparated: Vec<Unseparated>,
}

/// A request line that no separator parts from the request above it.
#[derive(Clone, Copy, Debug)]
pub struct Unseparated {
    /// The request line.
    pub line: Span,
    /// Where a separator line parts it, with the comments and variables just above it,
    /// from the request above: `None` where a body written above it makes that
    /// uncertain (the line may be meant as the body's text).
    pub separator_at: Option<usize>,
}

/// The key of the request lines no separator parts from the request (`[{line,
/// separator-at}, …]`, empty values whose spans say where), read by the rule
/// `http-request-not-separated`.
pub const UNSEPARATED_KEY: &str = "x-unseparated-requests";

/// The key of a request's headers, as the readers write them and as reqlint's own request
/// files may give them.
pub const HEADERS: &str = "x-headers";

/// The key that marks a request whose body could not be read.
pub const BODY_UNREAD_KEY: &str = "x-body-unread";

impl RequestParts {
    /// The request as a node of reqlint's request shape.
    pub fn into_node(mut self, options: &ReadOptions) -> Node {
        self.drop_variable_fields();
        let token = self.token(options);
        let line_span = self.url.as_ref().map(|u| u.span);
        let mut entries = Vec::new();
        if let Some((name, span)) = &self.name {
            entries.push(entry("name", *span, string(*span, name)));
        }
        if let Some((method, span)) = &self.method {
            entries.push(entry("method", *span, string(*span, method)));
        }
        if let Some(url) = self.url.take() {
            entries.push(entry("url", url.span, url));
        }
        if let Some(token) = token {
            entries.push(token);
        }
        if !self.params.is_empty() {
            let span = self.params[0]
                .key_span
                .cover(self.params[self.params.len() - 1].value.span);
            // The `params` key a missing param is reported at: the URL the call is.
            let key_span = line_span.unwrap_or(span);
            entries.push(entry(
                "params",
                key_span,
                Node::new(span, Value::Map(self.params)),
            ));
        }
        // A bearer token written in place (an auth block's) is a header the request
        // sends: a literal credential is found there.
        if let Some((text, span)) = &self.bearer
            && !self
                .headers
                .iter()
                .any(|h| h.key.eq_ignore_ascii_case("authorization"))
        {
            if variable_in(text).is_none() {
                self.headers
                    .push(entry("Authorization", *span, string(*span, text)));
            } else {
                // `{{token}}`: the variable's value is a credential.
                self.secrets
                    .push(entry("Authorization", *span, string(*span, text)));
            }
        }
        if let Some(secrets) = secrets_entry(self.span, std::mem::take(&mut self.secrets)) {
            entries.push(secrets);
        }
        if !self.headers.is_empty() {
            let span = self.headers[0]
                .key_span
                .cover(self.headers[self.headers.len() - 1].value.span);
            entries.push(entry(
                HEADERS,
                span,
                Node::new(span, Value::Map(self.headers)),
            ));
        }
        if !self.unseparated.is_empty() {
            let items = self
                .unseparated
                .iter()
                .map(|u| {
                    let mut fields = vec![entry("line", u.line, Node::new(u.line, Value::Null))];
                    if let Some(at) = u.separator_at {
                        let at = Span::empty(at);
                        fields.push(entry("separator-at", at, Node::new(at, Value::Null)));
                    }
                    Node::new(u.line, Value::Map(fields))
                })
                .collect();
            entries.push(entry(
                UNSEPARATED_KEY,
                self.span,
                Node::new(self.span, Value::Seq(items)),
            ));
        }
        if self.body_unread {
            entries.push(entry(
                BODY_UNREAD_KEY,
                self.span,
                Node::new(self.span, Value::Bool(true)),
            ));
        }
        Node::new(self.span, Value::Map(entries))
    }

    /// A form field that is one variable and no value (`name=x&{{more}}`, a form body
    /// `{{form}}`) stands for fields whose names are not known: no param, and the body
    /// is not read, so that no param is reported missing.
    fn drop_variable_fields(&mut self) {
        let before = self.params.len();
        self.params.retain(|field| {
            !(is_one_variable(&field.key) && field.value.as_str().is_some_and(str::is_empty))
        });
        if self.params.len() != before {
            self.body_unread = true;
        }
    }

    /// `token: <name>` where the bearer token is a variable the config maps to a named
    /// token, or the file has a token of its own.
    fn token(&self, options: &ReadOptions) -> Option<Entry> {
        if let Some((text, span)) = &self.bearer {
            let name = variable_in(text).and_then(|v| options.token_variables.get(v));
            if let Some(name) = name {
                return Some(entry("token", *span, string(*span, name)));
            }
        }
        let name = options.file_token?;
        let span = self.method.as_ref().map_or(self.span, |(_, s)| *s);
        Some(entry("token", span, string(span, name)))
    }
}

/// In reqlint's own request files (YAML or JSON documents, docs/request-files.md), a
/// request without `token:` whose `Authorization` header (under `x-headers`) is a variable
/// the config maps to a named token (`Bearer {{gh_token}}`, `token {{gh_token}}`) runs
/// with that token, as in the other formats: it gets `token: <name>`, spanning the
/// header's value. A request's own `token:` wins; the header wins over its document's.
pub fn name_header_tokens(documents: &mut [Node], options: &ReadOptions) {
    if options.token_variables.is_empty() {
        return;
    }
    for root in documents {
        super::work::count(1);
        match &mut root.value {
            Value::Seq(items) => items
                .iter_mut()
                .for_each(|item| name_header_token(item, options)),
            Value::Map(entries) => match entries.iter_mut().find(|e| e.key == "requests") {
                Some(requests) => {
                    if let Value::Seq(items) = &mut requests.value.value {
                        items
                            .iter_mut()
                            .for_each(|item| name_header_token(item, options));
                    }
                }
                None => name_header_token(root, options),
            },
            _ => {}
        }
    }
}

/// [`name_header_tokens`] for one request mapping.
fn name_header_token(request: &mut Node, options: &ReadOptions) {
    let Value::Map(entries) = &mut request.value else {
        return;
    };
    super::work::count(entries.len());
    if entries.iter().any(|e| e.key == "token") {
        return;
    }
    let Some(headers) = entries
        .iter()
        .find(|e| e.key == HEADERS)
        .and_then(|e| e.value.as_map())
    else {
        return;
    };
    let Some(authorization) = headers
        .iter()
        .rfind(|h| h.key.eq_ignore_ascii_case("authorization"))
    else {
        return;
    };
    let span = authorization.value.span;
    let name = authorization
        .value
        .as_str()
        .and_then(variable_in)
        .and_then(|v| options.token_variables.get(v));
    if let Some(name) = name {
        entries.push(entry("token", span, string(span, name)));
    }
}

/// Whether a text is one `{{name}}` reference and nothing else.
fn is_one_variable(text: &str) -> bool {
    let text = text.trim();
    crate::loading::encoded::references(text)
        .next()
        .is_some_and(|(range, _)| range == (0..text.len()))
}

/// The variable a text stands for: `{{name}}`, `Bearer {{name}}`, `token {{name}}`.
pub fn variable_in(text: &str) -> Option<&str> {
    let t = without_token_scheme(text);
    t.strip_prefix("{{")?.strip_suffix("}}").map(str::trim)
}

/// The schemes of an `Authorization` header that carry a token as it is: `Bearer`, and
/// `token`, the code-hosting API's own form
/// (https://docs.github.com/en/rest/authentication/authenticating-to-the-rest-api),
/// in any case, as HTTP takes a scheme.
const TOKEN_SCHEMES: [&str; 2] = ["bearer", "token"];

/// An `Authorization` value without its token scheme (`token abc` → `abc`).
fn without_token_scheme(text: &str) -> &str {
    let t = text.trim();
    match t.split_once([' ', '\t']) {
        Some((scheme, rest)) if TOKEN_SCHEMES.iter().any(|s| scheme.eq_ignore_ascii_case(s)) => {
            rest.trim()
        }
        _ => t,
    }
}

/// Whether requests with `method` are linted: HEAD, OPTIONS and the like are in no table
/// of the APIs, and reqlint's own format does not take them; such requests are left out
/// rather than reported, as is a Postman item with its `VIEW` method (an item that
/// documents a payload, not a request).
pub fn is_linted_method(method: &str) -> bool {
    const LINTED: [&str; 5] = ["GET", "POST", "PUT", "PATCH", "DELETE"];
    LINTED.iter().any(|m| m.eq_ignore_ascii_case(method))
}

/// The document of a file's requests, with its variables.
pub fn document(
    span: Span,
    requests: Vec<RequestParts>,
    variables: Vec<Entry>,
    options: &ReadOptions,
) -> Node {
    // The config's environments override the file's own values: one pass over the
    // file's variables, each name looked up in the config's map. A value some
    // environments leave to the file is known where the file's own value is the same.
    let left = options.left_to_the_file;
    super::work::count(variables.len() + options.variables.len() + left.len());
    let mut kept_as_left = std::collections::BTreeSet::new();
    let mut vars: Vec<Entry> = variables
        .into_iter()
        .filter(|e| !options.variables.contains_key(e.key.as_str()))
        .filter(|e| match left.get(e.key.as_str()) {
            Some(value) => {
                let same = e.value.scalar_text().is_some_and(|t| t == value.as_str());
                if same {
                    kept_as_left.insert(e.key.to_string());
                }
                same
            }
            None => true,
        })
        .collect();
    for name in left.keys() {
        if !kept_as_left.contains(name) && !options.variables.contains_key(name) {
            let at = Span::empty(span.start);
            vars.push(entry(name, at, Node::new(at, Value::Null)));
        }
    }
    for (name, value) in options.variables {
        let value = match value {
            Some(v) => string(Span::empty(span.start), v),
            None => Node::new(Span::empty(span.start), Value::Null),
        };
        vars.push(entry(name, Span::empty(span.start), value));
    }
    let requests: Vec<Node> = requests
        .into_iter()
        .filter(|r| r.method.as_ref().is_none_or(|(m, _)| is_linted_method(m)))
        .map(|r| r.into_node(options))
        .collect();
    let mut entries = vec![entry(VARIABLES, span, Node::new(span, Value::Map(vars)))];
    entries.push(entry(
        "requests",
        span,
        Node::new(span, Value::Seq(requests)),
    ));
    Node::new(span, Value::Map(entries))
}

/// The key of a document's variables (the model reads `{{name}}` values from it).
pub const VARIABLES: &str = "x-variables";

/// The key of the credentials a reader found besides headers and params (auth blocks
/// of the collection, disabled headers, Basic-auth pairs): `[{name: value}, …]`, read by
/// the secret scanner (src/model/secrets.rs) and ignored by the rules, as every `x-` key.
pub const SECRETS_KEY: &str = "x-secrets";

/// `x-secrets: [{name: value}, …]`, or nothing when there are none.
fn secrets_entry(span: Span, secrets: Vec<Entry>) -> Option<Entry> {
    if secrets.is_empty() {
        return None;
    }
    let items = secrets
        .into_iter()
        .map(|e| Node::new(e.key_span.cover(e.value.span), Value::Map(vec![e])))
        .collect();
    Some(entry(SECRETS_KEY, span, Node::new(span, Value::Seq(items))))
}

/// Adds the credentials a reader found outside any request to a document of
/// [`document`].
pub fn add_secrets(document: &mut Node, secrets: Vec<Entry>) {
    if let (Value::Map(entries), Some(e)) =
        (&mut document.value, secrets_entry(document.span, secrets))
    {
        entries.push(e);
    }
}

/// Bare `{{name}}` references in JSON text (`"count": {{n}}`), which a client substitutes
/// before sending: replaced by a JSON string of the same length (`"{n}"`), so that the
/// body parses with every span in place; [`restore_references`] puts the references back.
///
/// Linear in the text: a reference's name holds no `"`, line break or `{`, so the
/// search for its `}}` stops at the first of those, and no byte is looked at more than
/// twice (`{{{{…` without an end costs what it is long).
pub fn neutralize_references(json: &str) -> (String, Vec<(usize, usize)>) {
    let bytes = json.as_bytes();
    let mut out = json.as_bytes().to_vec();
    let mut replaced = Vec::new();
    let mut in_string = false;
    let mut i = 0;
    while i < bytes.len() {
        super::work::count(1);
        match bytes[i] {
            b'\\' if in_string => i += 1,
            b'"' => in_string = !in_string,
            b'{' if !in_string && bytes.get(i + 1) == Some(&b'{') => {
                if let Some(close) = reference_end(bytes, i + 2) {
                    out[i] = b'"';
                    out[close - 1] = b'"';
                    replaced.push((i, close));
                    i = close;
                    continue;
                }
            }
            _ => {}
        }
        i += 1;
    }
    // Only ASCII bytes were replaced by ASCII bytes: still UTF-8.
    (
        String::from_utf8(out).unwrap_or_else(|_| json.to_string()),
        replaced,
    )
}

/// The end (after `}}`) of a bare reference whose name starts at `from`, if the name
/// ends before a `"`, a line break or a `{`.
fn reference_end(bytes: &[u8], from: usize) -> Option<usize> {
    let mut at = from;
    while let Some(&b) = bytes.get(at) {
        super::work::count(1);
        match b {
            b'}' if bytes.get(at + 1) == Some(&b'}') => return Some(at + 2),
            b'"' | b'\n' | b'{' => return None,
            _ => at += 1,
        }
    }
    None
}

/// Gives the strings that stood for bare references their reference text back
/// (`offset`: where the JSON text starts in the file).
pub fn restore_references(node: &mut Node, json: &str, offset: usize, replaced: &[(usize, usize)]) {
    if replaced.is_empty() {
        return;
    }
    match &mut node.value {
        Value::String(s) => {
            let (start, end) = (
                node.span.start.wrapping_sub(offset),
                node.span.end.wrapping_sub(offset),
            );
            if replaced.binary_search(&(start, end)).is_ok() {
                *s = Text::from(&json[start..end]);
            }
        }
        Value::Seq(items) => {
            for item in items {
                restore_references(item, json, offset, replaced);
            }
        }
        Value::Map(entries) => {
            for e in entries {
                restore_references(&mut e.value, json, offset, replaced);
            }
        }
        _ => {}
    }
}

/// Parses a JSON body written in the file at `offset` (a `.http` or Hurl body): its
/// top-level object's entries, with spans in the file, or a problem.
pub fn json_body(
    file: &str,
    offset: usize,
    len: usize,
    limits: &Limits,
    problems: &mut Vec<Problem>,
) -> Option<Vec<Entry>> {
    let raw = &file[offset..offset + len];
    let (text, replaced) = neutralize_references(raw);
    let mut found = Vec::new();
    let node = super::json::parse_mapped(&text, limits, &mut found, &|s, e| {
        Span::new(offset + s, offset + e)
    });
    problems.extend(found);
    let mut node = node?;
    restore_references(&mut node, raw, offset, &replaced);
    match node.value {
        Value::Map(entries) => Some(entries),
        _ => None,
    }
}

/// `a=1&b={{x}}` (a form body or a query): its pairs, percent-decoded, with spans.
pub fn form_pairs(file: &str, offset: usize, len: usize) -> Vec<Entry> {
    let text = &file[offset..offset + len];
    let mut out = Vec::new();
    let mut at = offset;
    for pair in text.split('&') {
        let trimmed = pair.trim_end_matches(['\r', '\n']);
        if !trimmed.trim().is_empty() {
            let (k, v) = trimmed.split_once('=').unwrap_or((trimmed, ""));
            let lead = k.len() - k.trim_start().len();
            let key_span = Span::new(at + lead, at + k.trim_end().len());
            let v_start = at + k.len() + usize::from(trimmed.contains('='));
            let value_span = Span::new(v_start, v_start + v.len());
            out.push(entry(
                &crate::loading::encoded::percent_decode(k.trim()),
                key_span,
                string(value_span, &crate::loading::encoded::percent_decode(v)),
            ));
        }
        at += pair.len() + 1;
    }
    out
}

/// A variable's name and its value (`None`: secret, or not in the file).
pub type Variable = (String, Option<String>);

/// The JetBrains environment whose variables every environment of its file has.
pub const SHARED_ENVIRONMENT: &str = "$shared";

/// An environment's name (empty for a file of one environment) and its variables.
pub type NamedEnvironment = (String, Vec<Variable>);

/// The variables of an environment file: a Postman environment (`values: [{key, value,
/// enabled}]`), a JetBrains `http-client.env.json` (environment name → variables; `select`
/// names one, else the first), whose `private` variant gives names only (`private`), or a
/// Bruno environment (`vars { … }`, `vars:secret [ … ]`).
pub fn environment(
    text: &str,
    file_name: &str,
    select: Option<&str>,
) -> Result<Vec<Variable>, (Span, String)> {
    if ends_with_ignoring_case(file_name, ".bru") {
        return Ok(bruno::environment(text));
    }
    let (docs, problems) = super::json::parse(text, &Limits::DEFAULT);
    if let Some(p) = problems.first() {
        return Err((p.span, p.message.clone()));
    }
    let Some(root) = docs.first() else {
        return Ok(Vec::new());
    };
    let scalar = |n: &Node| match n.value {
        Value::Null => None,
        _ => n.scalar_text().map(|t| t.into_owned()),
    };
    if let Some(values) = root.get_value("values").and_then(Node::as_seq) {
        return Ok(values
            .iter()
            .filter(|v| v.get_value("enabled").and_then(Node::as_bool) != Some(false))
            .filter_map(|v| {
                let key = v.get_value("key")?.as_str()?.to_string();
                let secret = v.get_value("type").and_then(Node::as_str) == Some("secret");
                let value = v.get_value("value").and_then(scalar).filter(|_| !secret);
                Some((key, value))
            })
            .collect());
    }
    let Some(envs) = root.as_map() else {
        return Err((root.span, "an environment file holds a JSON object".into()));
    };
    let env = match select {
        Some(name) => envs
            .iter()
            .find(|e| e.key == name)
            .ok_or_else(|| (root.span, format!("no environment `{name}` in the file")))?,
        None => match envs.first() {
            Some(e) => e,
            None => return Ok(Vec::new()),
        },
    };
    let private = file_name.to_ascii_lowercase().contains("private");
    Ok(env
        .value
        .as_map()
        .unwrap_or_default()
        .iter()
        .map(|e| {
            let value = if private { None } else { scalar(&e.value) };
            (e.key.to_string(), value)
        })
        .collect())
}

/// Every environment an environment file holds, each as its variables: a Postman
/// environment or a Bruno one is one environment (named ``); a JetBrains
/// `http-client.env.json` holds one per top-level name, and `$shared`
/// (https://www.jetbrains.com/help/idea/http-client-variables.html), whose variables
/// every environment of the file has under its own, comes back under that name, once
/// (not copied into each: a file of many environments and many shared variables costs
/// what it is long); its `private` variant gives names only. Other keys that start with
/// `$` (`$schema`) name no environment. A file that is not an environment is an error,
/// with its span.
pub fn environments(text: &str, file_name: &str) -> Result<Vec<NamedEnvironment>, (Span, String)> {
    let lower = file_name.to_ascii_lowercase();
    if lower.ends_with(".bru") {
        return Ok(vec![(String::new(), bruno::environment(text))]);
    }
    let (docs, problems) = super::json::parse(text, &Limits::DEFAULT);
    if let Some(p) = problems.first() {
        return Err((p.span, p.message.clone()));
    }
    let Some(root) = docs.first() else {
        return Ok(Vec::new());
    };
    if postman::is_environment(root) {
        return environment(text, file_name, None).map(|v| vec![(String::new(), v)]);
    }
    let Some(named) = root.as_map() else {
        return Err((root.span, "an environment file holds a JSON object".into()));
    };
    let private = lower.contains("private");
    let variables_of = |node: &Node| -> Vec<Variable> {
        node.as_map()
            .unwrap_or_default()
            .iter()
            .map(|e| {
                let value = match e.value.value {
                    Value::Null => None,
                    _ if private => None,
                    _ => e.value.scalar_text().map(|t| t.into_owned()),
                };
                (e.key.to_string(), value)
            })
            .collect()
    };
    super::work::count(named.len());
    Ok(named
        .iter()
        .filter(|e| !e.key.starts_with('$') || e.key == SHARED_ENVIRONMENT)
        .map(|e| (e.key.to_string(), variables_of(&e.value)))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bare_references_keep_their_spans() {
        let file = "x\n{\"a\": {{n}}, \"b\": \"{{m}}\", \"c\": [{{k}}]}";
        let offset = 2;
        let mut problems = Vec::new();
        let entries = json_body(
            file,
            offset,
            file.len() - offset,
            &Limits::DEFAULT,
            &mut problems,
        )
        .unwrap();
        assert!(problems.is_empty(), "{problems:?}");
        assert_eq!(entries[0].value.as_str(), Some("{{n}}"));
        assert_eq!(&file[entries[0].value.span.range()], "{{n}}");
        assert_eq!(entries[1].value.as_str(), Some("{{m}}"));
        let c = entries[2].value.as_seq().unwrap();
        assert_eq!(c[0].as_str(), Some("{{k}}"));
    }

    #[test]
    fn a_bom_before_a_body_keeps_its_spans_in_the_file() {
        let file = "x\n\u{feff}{\"a\": 1, \"b\": }";
        let mut problems = Vec::new();
        let _ = json_body(file, 2, file.len() - 2, &Limits::DEFAULT, &mut problems);
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert_eq!(&file[problems[0].span.range()], "}");
        let file = "x\n\u{feff}{\"a\": 1}";
        let entries = json_body(file, 2, file.len() - 2, &Limits::DEFAULT, &mut problems).unwrap();
        assert_eq!(&file[entries[0].value.span.range()], "1");
    }

    #[test]
    fn form_pairs_with_spans() {
        let file = "a=1&b=x%20y&&c";
        let pairs = form_pairs(file, 0, file.len());
        assert_eq!(pairs.len(), 3);
        assert_eq!(pairs[1].value.as_str(), Some("x y"));
        assert_eq!(&file[pairs[1].value.span.range()], "x%20y");
        assert_eq!(&file[pairs[2].key_span.range()], "c");
    }

    /// Each request a reader reads from `text`: whether its body is unread, and the names
    /// of its params.
    fn bodies(reader: Reader, text: &str) -> Vec<(bool, Vec<String>)> {
        let (docs, problems) = reader.read(text, &Limits::DEFAULT, &ReadOptions::default());
        assert!(problems.is_empty(), "{problems:?}");
        docs[0]
            .get_value("requests")
            .and_then(Node::as_seq)
            .unwrap_or_default()
            .iter()
            .map(|r| {
                let names = r
                    .get_value("params")
                    .and_then(Node::as_map)
                    .unwrap_or_default()
                    .iter()
                    .map(|e| e.key.to_string())
                    .collect();
                (r.get_value(BODY_UNREAD_KEY).is_some(), names)
            })
            .collect()
    }

    /// A body that is one variable whose value is not known, or a file, is a body not
    /// read, in every format; so is a form field that is one variable without a value.
    #[test]
    fn a_body_that_is_one_variable_is_not_read() {
        let unread = (true, Vec::<String>::new());
        let http = "POST https://graph.facebook.com/v25.0/act_1/adsets\nContent-Type: application/json\n\n{{body}}\n\n###\nPOST https://graph.facebook.com/v25.0/act_1/adsets\nContent-Type: application/x-www-form-urlencoded\n\n{{form}}\n\n###\nPOST https://graph.facebook.com/v25.0/act_1/adsets\nContent-Type: application/x-www-form-urlencoded\n\nname=x&{{more}}\n\n###\nPOST https://graph.facebook.com/v25.0/act_1/adsets\n\n< ./adset.json\n\n###\nPOST https://graph.facebook.com/v25.0/act_1/adsets\nContent-Type: application/x-www-form-urlencoded\n\nname=x&status={{status}}\n";
        assert_eq!(
            bodies(Reader::Http, http),
            [
                unread.clone(),
                unread.clone(),
                (true, vec!["name".to_string()]),
                unread.clone(),
                (false, vec!["name".to_string(), "status".to_string()]),
            ]
        );
        let request = |body: &str| {
            format!(
                r#"{{"info": {{"name": "A", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"}},
  "item": [{{"name": "r", "request": {{"method": "POST", "url": "https://graph.facebook.com/v25.0/act_1/adsets", "body": {body}}}}}]}}"#
            )
        };
        for (body, expected) in [
            (r#"{"mode": "raw", "raw": "{{payload}}"}"#, unread.clone()),
            (r#"{"mode": "raw", "raw": " {{payload}} "}"#, unread.clone()),
            (r#"{"mode": "raw", "raw": "[1]"}"#, (false, Vec::new())),
            (
                r#"{"mode": "raw", "raw": "{\"name\": {{name}}}"}"#,
                (false, vec!["name".to_string()]),
            ),
            (
                r#"{"mode": "urlencoded", "urlencoded": [{"key": "name", "value": "x"}, {"key": "{{fields}}", "value": ""}]}"#,
                (true, vec!["name".to_string()]),
            ),
        ] {
            assert_eq!(
                bodies(Reader::Postman, &request(body)),
                [expected],
                "{body}"
            );
        }
        let bruno = "post {\n  url: https://graph.facebook.com/v25.0/act_1/adsets\n  body: json\n}\n\nbody:json {\n  {{body}}\n}\n";
        let hurl = "POST https://graph.facebook.com/v25.0/act_1/adsets\n{{body}}\n";
        for (reader, text) in [(Reader::Bruno, bruno), (Reader::Hurl, hurl)] {
            assert_eq!(
                bodies(reader, text),
                std::slice::from_ref(&unread),
                "{text}"
            );
        }
    }

    /// A value some environments give and the others leave to the file is the file's
    /// own where that is the same (its definition kept, span and all), else unknown.
    #[test]
    fn values_left_to_the_file_are_known_where_it_agrees() {
        let left = BTreeMap::from([
            ("owner".to_string(), "acme".to_string()),
            ("repo".to_string(), "web".to_string()),
            ("absent".to_string(), "x".to_string()),
        ]);
        let options = ReadOptions {
            left_to_the_file: &left,
            ..ReadOptions::default()
        };
        let file = "owner=acme repo=api";
        let variables = vec![
            entry("owner", Span::new(0, 5), string(Span::new(6, 10), "acme")),
            entry("repo", Span::new(11, 15), string(Span::new(16, 19), "api")),
        ];
        let doc = document(Span::new(0, file.len()), Vec::new(), variables, &options);
        let vars = doc.get_value(VARIABLES).unwrap();
        let owner = vars.get_value("owner").unwrap();
        assert_eq!(owner.as_str(), Some("acme"));
        assert_eq!(&file[owner.span.range()], "acme");
        assert!(matches!(vars.get_value("repo").unwrap().value, Value::Null));
        assert!(matches!(
            vars.get_value("absent").unwrap().value,
            Value::Null
        ));
    }

    #[test]
    fn variables_of_bearer_tokens() {
        assert_eq!(variable_in("Bearer {{gh_token}}"), Some("gh_token"));
        assert_eq!(variable_in("{{ t }}"), Some("t"));
        assert_eq!(variable_in("Bearer abc"), None);
        // The code-hosting API's own scheme, and schemes in any case.
        assert_eq!(variable_in("token {{gh_token}}"), Some("gh_token"));
        assert_eq!(variable_in("Token  {{ gh_token }}"), Some("gh_token"));
        assert_eq!(variable_in("BEARER {{t}}"), Some("t"));
        assert_eq!(variable_in("Basic {{t}}"), None);
        assert_eq!(variable_in("token abc"), None);
    }
}
