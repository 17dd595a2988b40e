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
    let mut problems = Vec::new();
    let mut requests = Vec::new();
    let auth = root.get_value("auth");
    if let Some(items) = root.get_value("item").and_then(Node::as_seq) {
        walk(items, auth, text, limits, &mut requests, &mut problems);
    }
    let variables = root
        .get_value("variable")
        .and_then(Node::as_seq)
        .map(|vars| key_values(vars, false))
        .unwrap_or_default();
    let mut doc = document(root.span, requests, variables, options);
    add_secrets(&mut doc, credentials(root));
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

/// Whether a field of an auth block holds a credential: a token, secret, password or
/// key of any auth type (`token`, `accessToken`, `clientSecret`, `password`,
/// `secretKey`), or the `value` of an API-key block (whose `key` is a header's name);
/// not the identifiers that go with a secret (AWS's `accessKey`, OAuth 1's
/// `consumerKey`).
fn is_auth_credential(block: &str, field: &str) -> bool {
    let f = field.to_ascii_lowercase();
    (block == "apikey" && f == "value")
        || f.ends_with("token")
        || f.ends_with("secret")
        || f.ends_with("password")
        || (f.ends_with("key") && !matches!(f.as_str(), "key" | "accesskey" | "consumerkey"))
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

fn walk<'a>(
    items: &'a [Node],
    auth: Option<&'a Node>,
    text: &str,
    limits: &Limits,
    out: &mut Vec<RequestParts>,
    problems: &mut Vec<Problem>,
) {
    for item in items {
        let own_auth = item.get_value("auth").or(auth);
        if let Some(children) = item.get_value("item").and_then(Node::as_seq) {
            walk(children, own_auth, text, limits, out, problems);
        } else if let Some(request) = item.get_value("request") {
            out.push(request_parts(
                item, request, own_auth, text, limits, problems,
            ));
        }
    }
}

/// `[{key, value, disabled}]` as entries, the disabled ones left out; `keep_files`:
/// a form's file fields are kept, with a placeholder value.
fn key_values(list: &[Node], keep_files: bool) -> Vec<Entry> {
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
        let is_file = pair.get_value("type").and_then(Node::as_str) == Some("file");
        if is_file && !keep_files {
            continue;
        }
        let value = if is_file {
            // The file's content is not in the collection: a value never judged.
            string(pair.span, "<file>")
        } else {
            pair.get_value("value")
                .cloned()
                .unwrap_or_else(|| string(key.span, ""))
        };
        out.push(entry(name, key.span, value));
    }
    out
}

fn request_parts(
    item: &Node,
    request: &Node,
    auth: Option<&Node>,
    text: &str,
    limits: &Limits,
    problems: &mut Vec<Problem>,
) -> RequestParts {
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
        parts.url = Some(request.clone());
        return parts;
    }
    parts.method = Some(match request.get_value("method") {
        Some(m) => (m.as_str().unwrap_or_default().to_string(), m.span),
        None => ("GET".into(), request.span),
    });
    parts.url = match request.get_value("url") {
        Some(url) if url.as_str().is_some() => Some(url.clone()),
        Some(url) => match url.get_value("raw") {
            Some(raw) if raw.as_str().is_some() => Some(raw.clone()),
            _ => Some(url_of_parts(url)),
        },
        None => {
            problems.push(syntax(request.span, "a request without a `url`"));
            None
        }
    };
    if let Some(headers) = request.get_value("header").and_then(Node::as_seq) {
        parts.headers = key_values(headers, false);
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
    parts
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

/// A URL given as `host` and `path` lists without `raw`: joined, spanning the object.
fn url_of_parts(url: &Node) -> Node {
    let join = |key: &str, sep: &str| -> String {
        match url.get_value(key).map(|n| &n.value) {
            Some(Value::Seq(parts)) => parts
                .iter()
                .filter_map(|p| p.scalar_text().map(|t| t.into_owned()))
                .collect::<Vec<_>>()
                .join(sep),
            Some(Value::String(s)) => s.to_string(),
            _ => String::new(),
        }
    };
    let host = join("host", ".");
    let path = join("path", "/");
    let scheme = url
        .get_value("protocol")
        .and_then(Node::as_str)
        .map(|p| format!("{p}://"))
        .unwrap_or_default();
    let text = if host.is_empty() {
        format!("/{path}")
    } else {
        format!("{scheme}{host}/{path}")
    };
    string(url.span, &text)
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
                if let Value::Map(entries) = node.value {
                    parts.params.extend(entries);
                }
            }
        }
        "urlencoded" => {
            if let Some(list) = body.get_value("urlencoded").and_then(Node::as_seq) {
                parts.params.extend(key_values(list, false));
            }
        }
        "formdata" => {
            if let Some(list) = body.get_value("formdata").and_then(Node::as_seq) {
                parts.params.extend(key_values(list, true));
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
        "url": {"raw": "{{base_url}}/act_{{account_id}}/campaigns?special_ad_categories=[]", "host": ["{{base_url}}"]},
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
        let url = r.get_value("url").unwrap();
        assert!(COLLECTION[url.span.range()].starts_with("\"{{base_url}}"));
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
        let form = requests[1].get_value("params").unwrap().as_map().unwrap();
        assert_eq!(form.len(), 1);
        assert_eq!(form[0].value.as_str(), Some("<file>"));
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
