//! Postman collections, v2.0 and v2.1 (`*.postman_collection.json`, or any JSON file
//! whose `info.schema` names the collection schema): folders (nested `item`), each
//! request's method, URL (a string, or an object with `raw`), headers (disabled ones
//! skipped), body (`raw` JSON, `urlencoded`, `formdata`), auth blocks inherited from
//! folders and the collection, and the collection's variables. Read with reqlint's own
//! JSON parser, so that every key and value keeps its span.

use super::{
    ReadOptions, RequestParts, add_secrets, document, entry, neutralize_references,
    restore_references, string, syntax,
};
use crate::loading::encoded::SourceMap;
use crate::loading::span::Span;
use crate::loading::tree::{Entry, Node, Value};
use crate::loading::{Limits, Problem, json};

/// Whether a JSON document is a Postman collection.
pub fn is_collection(root: &Node) -> bool {
    let Some(info) = root.get_value("info") else {
        return false;
    };
    let schema = info
        .get_value("schema")
        .and_then(Node::as_str)
        .unwrap_or_default();
    schema.contains("schema.getpostman.com")
        || schema.contains("/collection/v2")
        || (info.get_value("_postman_id").is_some() && root.get_value("item").is_some())
}

/// Whether a JSON document is a Postman environment (or globals): `values`, a list of
/// `{key, value}`, and `_postman_variable_scope`, as Postman exports them.
pub fn is_environment(root: &Node) -> bool {
    root.get_value("_postman_variable_scope")
        .and_then(Node::as_str)
        .is_some()
        && root.get_value("values").and_then(Node::as_seq).is_some()
}

/// How many bytes of a `.json` file's start, and of its end, a directory walk reads to
/// tell a Postman file that no include glob names: `info.schema` comes near a
/// collection's start, `_postman_variable_scope` at an environment's end.
pub const SNIFF_HEAD_BYTES: usize = 8 * 1024;
pub const SNIFF_TAIL_BYTES: usize = 1024;

/// Whether the start (or the end) of a JSON file shows a Postman collection's schema or
/// an environment's scope.
pub fn sniffed(bytes: &[u8]) -> bool {
    let has = |needle: &[u8]| bytes.windows(needle.len()).any(|w| w == needle);
    has(b"schema.getpostman.com/json/collection") || has(b"\"_postman_variable_scope\"")
}

/// A Postman environment as a document without requests: its variables, and the
/// values of its secret-looking keys (`access_token`, a `secret` value), which must not
/// be literal credentials in a committed file.
pub fn convert_environment(root: &Node, options: &ReadOptions) -> Vec<Node> {
    let mut secrets = Vec::new();
    let mut variables = Vec::new();
    for value in root
        .get_value("values")
        .and_then(Node::as_seq)
        .unwrap_or_default()
    {
        let (Some(key), Some(v)) = (
            value.get_value("key").and_then(Node::as_str),
            value.get_value("value"),
        ) else {
            continue;
        };
        let secret = value.get_value("type").and_then(Node::as_str) == Some("secret");
        if secret || crate::loading::credentials::is_secret_key(key) {
            secrets.push(entry(key, v.span, v.clone()));
        }
        if value.get_value("enabled").and_then(Node::as_bool) != Some(false) {
            variables.push(entry(key, v.span, v.clone()));
        }
    }
    let mut doc = document(root.span, Vec::new(), variables, options);
    add_secrets(&mut doc, secrets);
    vec![doc]
}

pub fn read(text: &str, limits: &Limits, options: &ReadOptions) -> (Vec<Node>, Vec<Problem>) {
    let (docs, mut problems) = json::parse(text, limits);
    let Some(root) = docs.into_iter().next() else {
        return (Vec::new(), problems);
    };
    if !is_collection(&root) {
        problems.push(syntax(
            root.span,
            "not a Postman collection: no `info.schema` naming the collection schema",
        ));
        return (Vec::new(), problems);
    }
    let (docs, more) = convert(&root, text, limits, options);
    problems.extend(more);
    (docs, problems)
}

/// A parsed collection as request documents.
pub fn convert(
    root: &Node,
    text: &str,
    limits: &Limits,
    options: &ReadOptions,
) -> (Vec<Node>, Vec<Problem>) {
    let mut found = Found {
        requests: Vec::new(),
        problems: Vec::new(),
        twins: Vec::new(),
    };
    let auth = root.get_value("auth");
    if let Some(items) = root.get_value("item").and_then(Node::as_seq) {
        walk(items, auth, text, limits, &mut found);
    }
    let Found {
        requests,
        problems,
        twins,
    } = found;
    let variables = root
        .get_value("variable")
        .and_then(Node::as_seq)
        .map(key_values)
        .unwrap_or_default();
    let mut doc = document(root.span, requests, variables, options);
    add_secrets(&mut doc, credentials(root));
    add_twins(&mut doc, twins);
    (vec![doc], problems)
}

/// Every credential the collection holds, used or not: the values of each auth block
/// (the collection's, a folder's, a request's, whatever its type and whether a request
/// inherits it) and of each `Authorization`-like header, disabled ones included.
fn credentials(root: &Node) -> Vec<Entry> {
    let mut out = Vec::new();
    let mut stack = vec![root];
    while let Some(node) = stack.pop() {
        match &node.value {
            Value::Map(entries) => {
                for e in entries {
                    match e.key.as_str() {
                        "auth" => auth_values(&e.value, &mut out),
                        "header" => {
                            for h in e.value.as_seq().unwrap_or_default() {
                                let name = h.get_value("key").and_then(Node::as_str);
                                if let (Some(name), Some(value)) = (name, h.get_value("value"))
                                    && crate::loading::credentials::is_secret_key(name)
                                {
                                    out.push(entry(name, value.span, value.clone()));
                                }
                            }
                        }
                        _ => stack.push(&e.value),
                    }
                }
            }
            Value::Seq(items) => stack.extend(items),
            _ => {}
        }
    }
    out
}

/// Whether a field of an auth block holds a credential, for every auth type Postman
/// exports (its collection schema's `auth-attribute`s): a token, secret, password or
/// key (bearer `token`; basic, digest, NTLM and OAuth 2 `password`; OAuth 1
/// `consumerSecret`, `token`, `tokenSecret`, `privateKey`; OAuth 2 `accessToken`,
/// `refreshToken`, `clientSecret`; AWS `secretKey`, `sessionToken`; Hawk `authKey`;
/// Akamai EdgeGrid `accessToken`, `clientToken`, `clientSecret`; JWT `secret`,
/// `privateKey`; ASAP `privateKey`), or the `value` of an API-key block (whose `key` is
/// a header's name). Not the identifiers and names that go with a secret (AWS's
/// `accessKey`, OAuth 1's `consumerKey`, JWT's `queryParamKey`, the name of the query
/// param the token is sent in).
fn is_auth_credential(block: &str, field: &str) -> bool {
    let f = field.to_ascii_lowercase();
    (block == "apikey" && f == "value")
        || f.ends_with("token")
        || f.ends_with("secret")
        || f.ends_with("password")
        || (f.ends_with("key")
            && !matches!(
                f.as_str(),
                "key" | "accesskey" | "consumerkey" | "queryparamkey"
            ))
}

/// The credentials of an auth block (`{type, bearer: [{key, value}]}`, or v2.0's
/// objects), whatever its type.
fn auth_values(auth: &Node, out: &mut Vec<Entry>) {
    for block in auth.as_map().unwrap_or_default() {
        if block.key == "type" {
            continue;
        }
        let pairs: Vec<(&str, &Node)> = match &block.value.value {
            Value::Seq(list) => list
                .iter()
                .filter_map(|p| Some((p.get_value("key")?.as_str()?, p.get_value("value")?)))
                .collect(),
            Value::Map(fields) => fields.iter().map(|f| (f.key.as_str(), &f.value)).collect(),
            _ => Vec::new(),
        };
        for (name, value) in pairs {
            if is_auth_credential(&block.key, name) && value.as_str().is_some() {
                out.push(entry(name, value.span, value.clone()));
            }
        }
    }
}

/// What walking a collection's items gathers.
struct Found {
    requests: Vec<RequestParts>,
    problems: Vec<Problem>,
    twins: Vec<Twin>,
}

fn walk<'a>(
    items: &'a [Node],
    auth: Option<&'a Node>,
    text: &str,
    limits: &Limits,
    found: &mut Found,
) {
    for item in items {
        let own_auth = item.get_value("auth").or(auth);
        if let Some(children) = item.get_value("item").and_then(Node::as_seq) {
            walk(children, own_auth, text, limits, found);
        } else if let Some(request) = item.get_value("request")
            && let Some(parts) = request_parts(
                item,
                request,
                own_auth,
                text,
                limits,
                &mut found.problems,
                &mut found.twins,
            )
        {
            found.requests.push(parts);
        }
    }
}

/// `[{key, value, disabled}]` as entries, the disabled ones left out, and a form's file
/// fields (`type: file`, an upload whose content is not in the collection).
fn key_values(list: &[Node]) -> Vec<Entry> {
    let mut out = Vec::new();
    for pair in list {
        if pair.get_value("disabled").and_then(Node::as_bool) == Some(true) {
            continue;
        }
        let Some(key) = pair.get_value("key") else {
            continue;
        };
        let Some(name) = key.as_str() else {
            continue;
        };
        if is_file(pair) {
            continue;
        }
        let value = pair
            .get_value("value")
            .cloned()
            .unwrap_or_else(|| string(key.span, ""));
        out.push(entry(name, key.span, value));
    }
    out
}

/// A form field that uploads a file (`type: file`, `src: …`).
fn is_file(pair: &Node) -> bool {
    pair.get_value("type").and_then(Node::as_str) == Some("file")
}

fn request_parts(
    item: &Node,
    request: &Node,
    auth: Option<&Node>,
    text: &str,
    limits: &Limits,
    problems: &mut Vec<Problem>,
    twins: &mut Vec<Twin>,
) -> Option<RequestParts> {
    let mut parts = RequestParts {
        span: item.span,
        name: item
            .get_value("name")
            .and_then(|n| Some((n.as_str()?.to_string(), n.span))),
        ..RequestParts::default()
    };
    // `"request": "https://..."`: a GET of that URL.
    if request.as_str().is_some() {
        parts.method = Some(("GET".into(), request.span));
        parts.url = Some(url_pieces(request, text, twins));
        return Some(parts);
    }
    parts.method = Some(match request.get_value("method") {
        Some(m) => (m.as_str().unwrap_or_default().to_string(), m.span),
        None => ("GET".into(), request.span),
    });
    if parts
        .method
        .as_ref()
        .is_some_and(|(m, _)| !super::is_linted_method(m))
    {
        // Left out of the document whole (`VIEW` items document a payload: their body
        // need not be JSON, and they may have no url).
        return Some(parts);
    }
    let Some(url) = request.get_value("url") else {
        // Postman sends nothing: one problem, and no request for the rules to find
        // without a line.
        problems.push(syntax(
            request.span,
            "a request without a `url`: Postman and Newman cannot send it",
        ));
        return None;
    };
    parts.url = Some(url_pieces(url, text, twins));
    if let Some(headers) = request.get_value("header").and_then(Node::as_seq) {
        parts.headers = key_values(headers);
        if let Some(a) = parts
            .headers
            .iter()
            .find(|h| h.key.eq_ignore_ascii_case("authorization"))
            && let Some(v) = a.value.as_str()
        {
            parts.bearer = Some((v.to_string(), a.value.span));
        }
    }
    let auth = request.get_value("auth").or(auth);
    if let Some(token) = auth.and_then(bearer_token) {
        parts.bearer = Some(token);
    }
    if let Some(body) = request.get_value("body") {
        read_body(body, text, limits, &mut parts, problems);
    }
    Some(parts)
}

/// The token of a bearer (or OAuth 2) auth block: v2.1 lists `[{key, value}]`, v2.0
/// gives an object.
fn bearer_token(auth: &Node) -> Option<(String, Span)> {
    let kind = auth.get_value("type")?.as_str()?;
    let (block, key) = match kind {
        "bearer" => (auth.get_value("bearer")?, "token"),
        "oauth2" => (auth.get_value("oauth2")?, "accessToken"),
        _ => return None,
    };
    let value = match &block.value {
        Value::Seq(list) => list
            .iter()
            .find(|p| p.get_value("key").and_then(Node::as_str) == Some(key))?
            .get_value("value")?,
        Value::Map(_) => block.get_value(key)?,
        _ => return None,
    };
    Some((value.as_str()?.to_string(), value.span))
}

/// The key under which a collection's document lists its [`Twin`]s: `[[part, raw], …]`
/// (`[part]` when `raw` holds the part otherwise), read by the fixes
/// (src/model/edits.rs) and ignored by the rules, as every `x-` key.
pub const TWINS_KEY: &str = "x-twins";

/// A value written at two places: a part of a structured URL (a `path` segment, a
/// `query` key or value), and the same text in the URL's `raw`, which an edit of the
/// part must make too. `raw: None`: `raw` is there but holds the part differently or not
/// at all, and no edit of the part is offered (Postman shows `raw`, Newman sends the
/// part: an edit of one alone would make them disagree).
#[derive(Debug)]
pub struct Twin {
    part: Span,
    raw: Option<Span>,
}

fn add_twins(document: &mut Node, twins: Vec<Twin>) {
    if twins.is_empty() {
        return;
    }
    let span = document.span;
    let items = twins
        .into_iter()
        .map(|t| {
            let mut pair = vec![Node::new(t.part, Value::Null)];
            pair.extend(t.raw.map(|r| Node::new(r, Value::Null)));
            Node::new(t.part, Value::Seq(pair))
        })
        .collect();
    if let Value::Map(entries) = &mut document.value {
        entries.push(entry(TWINS_KEY, span, Node::new(span, Value::Seq(items))));
    }
}

/// Whether a value is one of the placeholders Postman writes for a value to fill in
/// (`<string>`, `<integer>`, `<long>`, `<dateTime>`): never a value to judge.
fn is_placeholder(value: &str) -> bool {
    value.len() > 2
        && value.starts_with('<')
        && value.ends_with('>')
        && value[1..value.len() - 1]
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

/// A placeholder, or a path variable with no value, as a reference to a variable no
/// file defines (`{{<string>}}`, `{{:campaign_id}}`): it matches any segment and no rule
/// judges it, spanning what is written.
fn unknown_variable(span: Span, written: &str) -> Node {
    string(span, &format!("{{{{{written}}}}}"))
}

/// The span in the file of a string node's text, inside its quotes.
fn inner(node: &Node, text: &str) -> Span {
    let value = node.as_str().unwrap_or_default();
    SourceMap::for_scalar(text, node.span, value).span(0..value.len())
}

/// The parts of a string node, each a node of its own spanning where it is written: the
/// node's source map is made once, however many parts are taken.
struct Parts<'n> {
    value: &'n str,
    map: SourceMap,
}

impl<'n> Parts<'n> {
    fn of(node: &'n Node, text: &str) -> Parts<'n> {
        let value = node.as_str().unwrap_or_default();
        crate::loading::work::count(value.len());
        Parts {
            value,
            map: SourceMap::for_scalar(text, node.span, value),
        }
    }

    /// The part from byte `a` to `b` of the value.
    fn get(&self, a: usize, b: usize) -> Node {
        string(self.map.span(a..b), &self.value[a..b])
    }
}

/// A piece of a URL: a scalar as written (a number as its text), a placeholder as an
/// unknown variable.
fn piece(node: &Node) -> Option<Node> {
    let text = node.scalar_text()?;
    if matches!(node.value, Value::Null) {
        return None;
    }
    if is_placeholder(&text) {
        return Some(unknown_variable(node.span, &text));
    }
    Some(string(node.span, &text))
}

/// A separator the URL's text has between pieces, where no file text stands for it.
fn separator(text: &str, before: &Node) -> Node {
    string(Span::empty(before.span.start), text)
}

/// The URL a request is sent to, as the request line reads it: a string URL as written
/// (its placeholders made unknown variables), or a structured URL's parts (see
/// [`structured`]).
fn url_pieces(url: &Node, text: &str, twins: &mut Vec<Twin>) -> Node {
    if url.as_str().is_some() {
        return raw_pieces(url, text);
    }
    let has = |key: &str| url.get_value(key).is_some();
    if has("host") || has("path") {
        return structured(url, text, twins);
    }
    match url.get_value("raw") {
        Some(raw) if raw.as_str().is_some() => raw_pieces(raw, text),
        _ => Node::new(url.span, Value::Seq(Vec::new())),
    }
}

/// A string URL, whose placeholders (`/users/<string>`, `?limit=<integer>`) become
/// unknown variables; a URL without any is the node itself.
fn raw_pieces(raw: &Node, text: &str) -> Node {
    let value = raw.as_str().unwrap_or_default();
    if !value.contains('<') {
        return raw.clone();
    }
    let parts = Parts::of(raw, text);
    let mut pieces = Vec::new();
    let mut written = 0;
    let mut at = 0;
    // One pass: a placeholder's name runs up to the first byte that cannot be in it,
    // and the search goes on from there.
    let bytes = value.as_bytes();
    while let Some(open) = value[at..].find('<').map(|i| at + i) {
        let name_end = open
            + 1
            + bytes[open + 1..]
                .iter()
                .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_' || **b == b'-')
                .count();
        crate::loading::work::count(name_end - at);
        if bytes.get(name_end) == Some(&b'>') && name_end > open + 1 {
            let close = name_end + 1;
            if written < open {
                pieces.push(parts.get(written, open));
            }
            let span = parts.map.span(open..close);
            pieces.push(unknown_variable(span, &value[open..close]));
            written = close;
            at = close;
        } else {
            at = name_end.max(open + 1);
        }
    }
    if written < value.len() {
        pieces.push(parts.get(written, value.len()));
    }
    Node::new(raw.span, Value::Seq(pieces))
}

/// A structured URL as Postman and Newman send it: `protocol`, `host` (a list of labels
/// or a string), `port`, `path` (a list of segments or a string), `query` without its
/// disabled pairs; a `:name` segment is the value `variable` gives it, else an unknown
/// variable. `raw` is not what is sent: where it holds a segment or a pair too, the two
/// are [`Twin`]s.
fn structured(url: &Node, text: &str, twins: &mut Vec<Twin>) -> Node {
    let mut pieces = Vec::new();
    let host = url.get_value("host");
    let hosts: Vec<&Node> = match host.map(|h| &h.value) {
        Some(Value::Seq(labels)) => labels.iter().collect(),
        Some(Value::String(s)) if !s.is_empty() => host.into_iter().collect(),
        _ => Vec::new(),
    };
    if let Some(first) = hosts.first() {
        let protocol = url.get_value("protocol").filter(|p| p.as_str().is_some());
        // A host that is one variable (`{{base_url}}`) holds its scheme; Postman sends
        // the others over http unless `protocol` says otherwise.
        let lone_variable = hosts.len() == 1 && first.as_str().is_some_and(is_reference);
        match protocol {
            Some(p) => {
                pieces.extend(piece(p));
                pieces.push(separator("://", first));
            }
            None if !lone_variable => pieces.push(separator("http://", first)),
            None => {}
        }
        for (i, label) in hosts.iter().enumerate() {
            if i > 0 {
                pieces.push(separator(".", label));
            }
            pieces.extend(piece(label));
        }
        if let Some(port) = url.get_value("port").filter(|p| {
            p.scalar_text().is_some_and(|t| !t.is_empty()) && !matches!(p.value, Value::Null)
        }) {
            pieces.push(separator(":", port));
            pieces.extend(piece(port));
        }
    }
    let segments = segments(url.get_value("path"), text);
    // The first enabled value of each name.
    let mut variables: std::collections::HashMap<&str, &Node> = std::collections::HashMap::new();
    for v in url
        .get_value("variable")
        .and_then(Node::as_seq)
        .unwrap_or_default()
        .iter()
        .filter(|v| v.get_value("disabled").and_then(Node::as_bool) != Some(true))
    {
        if let (Some(key), Some(value)) = (
            v.get_value("key").and_then(Node::as_str),
            v.get_value("value"),
        ) {
            variables.entry(key).or_insert(value);
        }
    }
    let raw = url.get_value("raw").filter(|r| r.as_str().is_some());
    let raw_segments = raw.map(|r| raw_path_segments(r, text));
    let paired = |i: usize| -> Option<Option<Span>> {
        let spans = raw_segments.as_ref()?;
        Some(if spans.len() == segments.len() {
            spans.get(i).copied()
        } else {
            None
        })
    };
    crate::loading::work::count(variables.len() + segments.len());
    for (i, segment) in segments.iter().enumerate() {
        pieces.push(separator("/", segment));
        let written = segment.as_str().unwrap_or_default();
        if let Some(name) = written.strip_prefix(':').filter(|n| !n.is_empty()) {
            let value = variables
                .get(name)
                .filter(|v| v.scalar_text().is_some_and(|t| !t.is_empty()));
            match value.and_then(|v| piece(v)) {
                Some(value) => pieces.push(value),
                None => pieces.push(unknown_variable(segment.span, written)),
            }
            continue;
        }
        pieces.extend(piece(segment));
        if let Some(raw) = paired(i) {
            twins.push(Twin {
                part: inner(segment, text),
                raw,
            });
        }
    }
    let query: Vec<&Node> = url
        .get_value("query")
        .and_then(Node::as_seq)
        .unwrap_or_default()
        .iter()
        .filter(|q| q.get_value("disabled").and_then(Node::as_bool) != Some(true))
        .filter(|q| q.get_value("key").is_some_and(|k| k.as_str().is_some()))
        .collect();
    let raw_pairs = raw.map(|r| raw_query_pairs(r, text));
    for (i, pair) in query.iter().enumerate() {
        let Some(key) = pair.get_value("key") else {
            continue;
        };
        pieces.push(separator(if i == 0 { "?" } else { "&" }, key));
        pieces.extend(piece(key));
        let value = pair
            .get_value("value")
            .filter(|v| !matches!(v.value, Value::Null));
        if let Some(value) = value {
            pieces.push(separator("=", value));
            pieces.extend(piece(value));
        }
        let Some(raw_pairs) = &raw_pairs else {
            continue;
        };
        let twin = raw_pairs.get(i).filter(|_| raw_pairs.len() == query.len());
        twins.push(Twin {
            part: inner(key, text),
            raw: twin.map(|(k, _)| *k),
        });
        if let Some(value) = value.filter(|v| v.as_str().is_some()) {
            twins.push(Twin {
                part: inner(value, text),
                raw: twin.and_then(|(_, v)| *v),
            });
        }
    }
    // Where a diagnostic about the request as a whole points: the URL as Postman shows
    // it (`raw`), else from its first written part to its last.
    let shown = raw.map(|r| r.span).unwrap_or_else(|| {
        let mut written = pieces.iter().filter(|p| !p.span.is_empty()).map(|p| p.span);
        let first = written.next().unwrap_or(url.span);
        written.fold(first, Span::cover)
    });
    Node::new(shown, Value::Seq(pieces))
}

fn is_reference(text: &str) -> bool {
    let t = text.trim();
    t.len() > 4 && t.starts_with("{{") && t.ends_with("}}") && !t[2..].contains("{{")
}

/// A `path` as its segments: a list's strings (or `{value}` objects), or a string split
/// at its slashes, each segment a node spanning where it is written.
fn segments(path: Option<&Node>, text: &str) -> Vec<Node> {
    let Some(path) = path else {
        return Vec::new();
    };
    match &path.value {
        Value::Seq(items) => items
            .iter()
            .filter_map(|s| match &s.value {
                Value::Map(_) => s.get_value("value").cloned(),
                _ => Some(s.clone()),
            })
            .filter(|s| s.scalar_text().is_some() && !matches!(s.value, Value::Null))
            .collect(),
        Value::String(s) => {
            let parts = Parts::of(path, text);
            split_ranges(s, 0, s.len(), b'/')
                .into_iter()
                .filter(|(a, b)| a < b)
                .map(|(a, b)| parts.get(a, b))
                .collect()
        }
        _ => Vec::new(),
    }
}

/// The ranges of `value[from..to]` between the `sep` bytes.
fn split_ranges(value: &str, from: usize, to: usize, sep: u8) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut start = from;
    for (i, b) in value.as_bytes()[from..to].iter().enumerate() {
        if *b == sep {
            out.push((start, from + i));
            start = from + i + 1;
        }
    }
    out.push((start, to));
    out
}

/// Where `raw`'s path starts and its query starts and ends.
fn raw_layout(raw: &str) -> (usize, usize, Option<(usize, usize)>) {
    let end = raw.find('#').unwrap_or(raw.len());
    let query = raw[..end].find('?');
    let before_query = query.unwrap_or(end);
    let head = &raw[..before_query];
    let path_start = if let Some(scheme) = head.find("://") {
        head[scheme + 3..]
            .find('/')
            .map_or(before_query, |i| scheme + 3 + i)
    } else if head.starts_with("{{") {
        head.find("}}").map_or(0, |i| i + 2)
    } else if head.starts_with('/') {
        0
    } else {
        head.find('/').unwrap_or(before_query)
    };
    (path_start, before_query, query.map(|q| (q + 1, end)))
}

/// The spans of `raw`'s path segments, inside the file.
fn raw_path_segments(raw: &Node, text: &str) -> Vec<Span> {
    let value = raw.as_str().unwrap_or_default();
    let (start, end, _) = raw_layout(value);
    let map = SourceMap::for_scalar(text, raw.span, value);
    split_ranges(value, start, end, b'/')
        .into_iter()
        .filter(|(a, b)| a < b)
        .map(|(a, b)| map.span(a..b))
        .collect()
}

/// The spans of `raw`'s query pairs, inside the file: each key's, and its value's
/// when it has `=`.
fn raw_query_pairs(raw: &Node, text: &str) -> Vec<(Span, Option<Span>)> {
    let value = raw.as_str().unwrap_or_default();
    let (_, _, query) = raw_layout(value);
    let Some((start, end)) = query else {
        return Vec::new();
    };
    let map = SourceMap::for_scalar(text, raw.span, value);
    split_ranges(value, start, end, b'&')
        .into_iter()
        .filter(|(a, b)| a < b)
        .map(|(a, b)| match value[a..b].find('=') {
            Some(eq) => (map.span(a..a + eq), Some(map.span(a + eq + 1..b))),
            None => (map.span(a..b), None),
        })
        .collect()
}

fn read_body(
    body: &Node,
    text: &str,
    limits: &Limits,
    parts: &mut RequestParts,
    problems: &mut Vec<Problem>,
) {
    if body.get_value("disabled").and_then(Node::as_bool) == Some(true) {
        return;
    }
    let mode = body
        .get_value("mode")
        .and_then(Node::as_str)
        .unwrap_or("raw");
    match mode {
        "raw" => {
            let Some(raw) = body.get_value("raw") else {
                return;
            };
            let Some(value) = raw.as_str() else {
                return;
            };
            let trimmed = value.trim_start();
            if trimmed.is_empty() {
                return;
            }
            if !trimmed.starts_with('{') {
                // Text, XML, a JSON list: no params reqlint can name.
                parts.body_unread = !trimmed.starts_with('[');
                return;
            }
            let map = SourceMap::for_scalar(text, raw.span, value);
            let (neutral, replaced) = neutralize_references(value);
            let mut found = Vec::new();
            let node = json::parse_mapped(&neutral, limits, &mut found, &|s, e| map.span(s..e));
            if !found.is_empty() {
                problems.extend(found);
                parts.body_unread = true;
                return;
            }
            if let Some(mut node) = node {
                let spans: Vec<(usize, usize)> = replaced
                    .iter()
                    .map(|&(s, e)| {
                        let span = map.span(s..e);
                        (span.start, span.end)
                    })
                    .collect();
                restore_references(&mut node, text, 0, &spans);
                match node.value {
                    Value::Map(entries) => parts.params.extend(entries),
                    // A JSON list: no params reqlint can name.
                    Value::Seq(_) => {}
                    // A body that is one variable (`{{payload}}`): whatever its value
                    // holds is not known.
                    _ => parts.body_unread = true,
                }
            }
        }
        "urlencoded" => {
            if let Some(list) = body.get_value("urlencoded").and_then(Node::as_seq) {
                parts.params.extend(key_values(list));
            }
        }
        "formdata" => {
            if let Some(list) = body.get_value("formdata").and_then(Node::as_seq) {
                parts.params.extend(key_values(list));
                // An upload (Meta's `filename=@file`, a video's `source`): the file is
                // a param the request gives, whose name and content rules cannot judge,
                // so none is reported missing.
                let enabled =
                    |p: &&Node| p.get_value("disabled").and_then(Node::as_bool) != Some(true);
                if list.iter().filter(enabled).any(is_file) {
                    parts.body_unread = true;
                }
            }
        }
        // GraphQL, a file: nothing reqlint can check.
        _ => parts.body_unread = true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_doc(text: &str, options: &ReadOptions) -> (Node, Vec<Problem>) {
        let (docs, problems) = read(text, &Limits::DEFAULT, options);
        (docs.into_iter().next().unwrap(), problems)
    }

    const COLLECTION: &str = r#"{
  "info": {"name": "Ads", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"},
  "auth": {"type": "bearer", "bearer": [{"key": "token", "value": "{{fb_token}}", "type": "string"}]},
  "item": [
    {"name": "Campaigns", "item": [
      {"name": "Create a campaign", "request": {
        "method": "POST",
        "header": [{"key": "Content-Type", "value": "application/json"}, {"key": "X-Off", "value": "1", "disabled": true}],
        "url": {"raw": "{{base_url}}/act_{{account_id}}/campaigns?special_ad_categories=[]", "host": ["{{base_url}}"], "path": ["act_{{account_id}}", "campaigns"], "query": [{"key": "special_ad_categories", "value": "[]"}]},
        "body": {"mode": "raw", "raw": "{\n  \"name\": \"Spring\",\n  \"daily_budget\": {{budget}}\n}"}
      }}
    ]},
    {"name": "Form", "request": {"method": "POST", "url": "https://graph.facebook.com/v25.0/act_1/adimages",
      "body": {"mode": "formdata", "formdata": [{"key": "filename", "type": "file", "src": "a.png"}, {"key": "name", "value": "x", "disabled": true}]}}}
  ],
  "variable": [{"key": "base_url", "value": "https://graph.facebook.com/v25.0"}]
}"#;

    #[test]
    fn requests_variables_and_spans() {
        let tokens = [("fb_token".to_string(), "ads-bot".to_string())].into();
        let options = ReadOptions {
            token_variables: &tokens,
            ..ReadOptions::default()
        };
        let (doc, problems) = read_doc(COLLECTION, &options);
        assert!(problems.is_empty(), "{problems:?}");
        let vars = doc.get_value("x-variables").unwrap();
        assert_eq!(
            vars.get_value("base_url").unwrap().as_str(),
            Some("https://graph.facebook.com/v25.0")
        );
        let requests = doc.get_value("requests").unwrap().as_seq().unwrap();
        assert_eq!(requests.len(), 2);
        let r = &requests[0];
        assert_eq!(r.get_value("method").unwrap().as_str(), Some("POST"));
        // A structured URL: its pieces, each spanning its part.
        let url = r.get_value("url").unwrap().as_seq().unwrap();
        assert_eq!(&COLLECTION[url[0].span.range()], "\"{{base_url}}\"");
        let params = r.get_value("params").unwrap();
        let name = params.get_value("name").unwrap();
        assert_eq!(&COLLECTION[name.span.range()], "\\\"Spring\\\"");
        let budget = params.get_value("daily_budget").unwrap();
        assert_eq!(budget.as_str(), Some("{{budget}}"));
        assert_eq!(&COLLECTION[budget.span.range()], "{{budget}}");
        let token = r.get_value("token").unwrap();
        assert_eq!(token.as_str(), Some("ads-bot"));
        assert_eq!(&COLLECTION[token.span.range()], "\"{{fb_token}}\"");
        let headers = r.get_value("x-headers").unwrap().as_map().unwrap();
        assert_eq!(headers.len(), 1);
        // The upload is no param, and no param is reported missing beside it.
        assert!(requests[1].get_value("params").is_none());
        assert!(
            requests[1]
                .get_value(super::super::BODY_UNREAD_KEY)
                .is_some()
        );
    }

    /// The request lines of a collection's requests, as the model reads them.
    fn lines(text: &str) -> Vec<crate::model::RequestLine> {
        let (docs, problems) = read(text, &Limits::DEFAULT, &ReadOptions::default());
        assert!(problems.is_empty(), "{problems:?}");
        let model = crate::model::FileModel::build(&docs, text);
        model
            .requests
            .iter()
            .map(|r| r.line.clone().unwrap())
            .collect()
    }

    fn collection(requests: &str) -> String {
        format!(
            r#"{{"info": {{"schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"}},
"item": [{requests}]}}"#
        )
    }

    #[test]
    fn the_structured_url_is_what_is_sent_with_spans_on_its_parts() {
        let text = collection(
            r#"{"request": {"method": "POST", "url": {
  "raw": "https://graph.facebook.com/v25.0/act_1/campaigns?status=ACTIVE",
  "protocol": "https", "host": ["graph", "facebook", "com"], "port": "443",
  "path": ["v25.0", "act_1", "campaigns"],
  "query": [{"key": "status", "value": "PAUSED"}, {"key": "objective", "value": "X", "disabled": true}, {"key": "limit"}]}}}"#,
        );
        let line = &lines(&text)[0];
        assert_eq!(line.host.as_deref(), Some("graph.facebook.com:443"));
        assert_eq!(line.path, "/v25.0/act_1/campaigns");
        let at = |span: Span| &text[span.range()];
        assert_eq!(
            line.segments.iter().map(|s| at(s.span)).collect::<Vec<_>>(),
            ["v25.0", "act_1", "campaigns"]
        );
        // The parts' places, not raw's: `raw` says ACTIVE, the query sends PAUSED.
        let segment = line.segments[2].span.start;
        assert!(
            text[..segment].ends_with("\"act_1\", \""),
            "{}",
            &text[..segment]
        );
        let keys: Vec<&str> = line.query.iter().map(|q| q.key.as_str()).collect();
        assert_eq!(keys, ["status", "limit"]);
        assert_eq!(line.query[0].value.as_str(), Some("PAUSED"));
        assert_eq!(at(line.query[0].value.span), "PAUSED");
        assert_eq!(at(line.query[1].key_span), "limit");
    }

    #[test]
    fn an_export_without_raw_keeps_its_query_and_path_strings() {
        let text = collection(
            r#"{"request": {"method": "GET", "url": {"host": "{{base}}", "path": "/v25.0/act_\u0031/insights",
  "query": [{"key": "date_preset", "value": "last_7d"}]}}}"#,
        );
        let line = &lines(&text)[0];
        assert_eq!(line.path, "/v25.0/act_1/insights");
        assert_eq!(&text[line.segments[1].span.range()], "act_\\u0031");
        assert_eq!(line.query[0].value.as_str(), Some("last_7d"));
    }

    #[test]
    fn path_variables_and_placeholders() {
        let text = collection(
            r#"{"request": {"method": "GET", "url": {"raw": "{{base}}/:account/:id/<string>?limit=<integer>",
  "host": ["{{base}}"], "path": [":account", ":id", "<string>"],
  "query": [{"key": "limit", "value": "<integer>"}],
  "variable": [{"key": "account", "value": "act_12"}, {"key": "id", "value": ""}]}}},
{"request": "https://graph.facebook.com/v25.0/<string>/insights?date_preset=<string>"}"#,
        );
        let lines = lines(&text);
        let texts: Vec<&str> = lines[0].segments.iter().map(|s| s.text.as_str()).collect();
        assert_eq!(texts, ["act_12", "{{:id}}", "{{<string>}}"]);
        // The value is judged where it is written; the others span their segment.
        assert_eq!(&text[lines[0].segments[0].span.range()], "act_12");
        assert_eq!(&text[lines[0].segments[1].span.range()], "\":id\"");
        assert_eq!(lines[0].query[0].value.as_str(), Some("{{<integer>}}"));
        let texts: Vec<&str> = lines[1].segments.iter().map(|s| s.text.as_str()).collect();
        assert_eq!(texts, ["v25.0", "{{<string>}}", "insights"]);
        assert_eq!(&text[lines[1].segments[1].span.range()], "<string>");
        assert_eq!(lines[1].query[0].value.as_str(), Some("{{<string>}}"));
    }

    #[test]
    fn parts_held_in_raw_too_are_twins() {
        let text = collection(
            r#"{"request": {"method": "GET", "url": {"raw": "{{b}}/a/bee?x=1&y=2",
  "host": ["{{b}}"], "path": ["a", "be"], "query": [{"key": "x", "value": "1"}, {"key": "y", "value": "3"}]}}}"#,
        );
        let (docs, _) = read(&text, &Limits::DEFAULT, &ReadOptions::default());
        let twins = docs[0].get_value(TWINS_KEY).unwrap().as_seq().unwrap();
        let pairs: Vec<(&str, &str)> = twins
            .iter()
            .map(|t| {
                let pair = t.as_seq().unwrap();
                (&text[pair[0].span.range()], &text[pair[1].span.range()])
            })
            .collect();
        // Paired by place: a fix that finds them written alike edits both.
        assert_eq!(
            pairs,
            [
                ("a", "a"),
                ("be", "bee"),
                ("x", "x"),
                ("1", "1"),
                ("y", "y"),
                ("3", "2")
            ]
        );
    }

    #[test]
    fn a_request_without_a_url_is_one_problem_and_no_request() {
        let text = collection(r#"{"request": {"method": "POST"}}, {"request": {"url": "/x"}}"#);
        let (docs, problems) = read(&text, &Limits::DEFAULT, &ReadOptions::default());
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert!(problems[0].message.contains("without a `url`"));
        let requests = docs[0].get_value("requests").unwrap().as_seq().unwrap();
        assert_eq!(requests.len(), 1);
    }

    /// Meta's public collections document webhook payloads as items with Postman's
    /// `VIEW` method, no url and a body with comments: no request, and no problem.
    #[test]
    fn an_item_with_a_method_reqlint_does_not_lint_is_left_out_whole() {
        let text = collection(
            r#"{"request": {"method": "VIEW", "body": {"mode": "raw", "raw": "{\n // a comment\n \"a\": 1}", "options": {"raw": {"language": "json"}}}}},
               {"request": {"method": "HEAD", "url": "https://api.github.com/"}},
               {"request": {"method": "get", "url": "https://api.github.com/user"}}"#,
        );
        let (docs, problems) = read(&text, &Limits::DEFAULT, &ReadOptions::default());
        assert!(problems.is_empty(), "{problems:?}");
        let requests = docs[0].get_value("requests").unwrap().as_seq().unwrap();
        assert_eq!(requests.len(), 1);
    }

    #[test]
    fn environments_and_what_a_walk_sniffs() {
        let env = r#"{"id": "1", "name": "staging", "values": [
  {"key": "ad_account_id", "value": "1", "enabled": true},
  {"key": "access_token", "value": "EAAB123secret", "type": "secret", "enabled": true},
  {"key": "off", "value": "x", "enabled": false}],
 "_postman_variable_scope": "environment"}"#;
        let (docs, problems) = crate::loading::read_text(
            env,
            crate::loading::Format::Json,
            &Limits::DEFAULT,
            &ReadOptions::default(),
        );
        assert!(problems.is_empty());
        let doc = &docs[0];
        let vars = doc.get_value("x-variables").unwrap().as_map().unwrap();
        assert_eq!(vars.len(), 2);
        assert!(
            doc.get_value("requests")
                .unwrap()
                .as_seq()
                .unwrap()
                .is_empty()
        );
        let secrets = doc.get_value(super::super::SECRETS_KEY).unwrap();
        assert_eq!(secrets.as_seq().unwrap().len(), 1);
        assert!(sniffed(env.as_bytes()));
        assert!(sniffed(COLLECTION.as_bytes()));
        assert!(!sniffed(b"{\"name\": \"my-app\", \"version\": \"1.0.0\"}"));
    }

    /// The fields of every auth type of Postman's collection schema (v2.1.0
    /// `auth-attribute`s): which hold a credential.
    #[test]
    fn every_auth_type_s_credential_fields() {
        let secret = [
            ("apikey", "value"),
            ("awsv4", "secretKey"),
            ("awsv4", "sessionToken"),
            ("basic", "password"),
            ("bearer", "token"),
            ("digest", "password"),
            ("edgegrid", "accessToken"),
            ("edgegrid", "clientToken"),
            ("edgegrid", "clientSecret"),
            ("hawk", "authKey"),
            ("ntlm", "password"),
            ("oauth1", "consumerSecret"),
            ("oauth1", "token"),
            ("oauth1", "tokenSecret"),
            ("oauth1", "privateKey"),
            ("oauth2", "accessToken"),
            ("oauth2", "refreshToken"),
            ("oauth2", "clientSecret"),
            ("oauth2", "password"),
            ("jwt", "secret"),
            ("jwt", "privateKey"),
            ("asap", "privateKey"),
        ];
        let not_secret = [
            ("apikey", "key"),
            ("apikey", "in"),
            ("awsv4", "accessKey"),
            ("awsv4", "region"),
            ("basic", "username"),
            ("digest", "nonce"),
            ("digest", "realm"),
            ("hawk", "authId"),
            ("ntlm", "domain"),
            ("oauth1", "consumerKey"),
            ("oauth1", "signatureMethod"),
            ("oauth2", "clientId"),
            ("oauth2", "tokenType"),
            ("oauth2", "addTokenTo"),
            ("oauth2", "accessTokenUrl"),
            ("oauth2", "tokenName"),
            ("jwt", "queryParamKey"),
            ("jwt", "isSecretBase64Encoded"),
            ("jwt", "payload"),
            ("asap", "kid"),
            ("asap", "iss"),
        ];
        for (block, field) in secret {
            assert!(is_auth_credential(block, field), "{block}.{field}");
        }
        for (block, field) in not_secret {
            assert!(!is_auth_credential(block, field), "{block}.{field}");
        }
    }

    #[test]
    fn not_a_collection() {
        let (docs, problems) = read("{\"a\": 1}", &Limits::DEFAULT, &ReadOptions::default());
        assert!(docs.is_empty());
        assert_eq!(problems.len(), 1);
        let (docs, problems) = read("[1,", &Limits::DEFAULT, &ReadOptions::default());
        assert!(docs.is_empty());
        assert!(!problems.is_empty());
    }
}
