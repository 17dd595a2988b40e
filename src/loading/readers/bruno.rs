//! Bruno request files (`.bru`): a `meta` block (the request's name), one method block
//! (`get`, `post`, … with its `url`), `headers`, `auth:bearer`, `body:json`,
//! `body:form-urlencoded` and `body:multipart-form`, `vars:pre-request`; and the
//! environment files of a collection (`vars`, `vars:secret`). Bruno's own parser is
//! JavaScript; reqlint reads the block syntax itself, line by line, keeping every span.

use super::{ReadOptions, RequestParts, document, entry, json_body, string, syntax};
use crate::loading::span::Span;
use crate::loading::tree::{Entry, Node, Value};
use crate::loading::{Limits, Problem};

const METHODS: [&str; 7] = ["get", "post", "put", "patch", "delete", "options", "head"];

/// A block of a `.bru` file: `name {` … `}`, its content lines' range in the file.
struct Block<'a> {
    name: &'a str,
    name_span: Span,
    /// The text between the opening and the closing line, and where it starts.
    body: &'a str,
    body_start: usize,
}

/// The blocks of a file; a block opens with `name {` (or `name [`) at the start of a
/// line and closes with `}` (or `]`) alone at the start of a line.
fn blocks<'a>(text: &'a str, problems: &mut Vec<Problem>) -> Vec<Block<'a>> {
    let mut out = Vec::new();
    let mut at = 0;
    let mut open: Option<(&'a str, Span, usize, char)> = None;
    for raw in text.split_inclusive('\n') {
        let line = raw.trim_end_matches(['\n', '\r']);
        match open {
            None => {
                let t = line.trim_end();
                if t.is_empty() || t.starts_with('#') {
                    at += raw.len();
                    continue;
                }
                let close = if t.ends_with('{') {
                    '}'
                } else if t.ends_with('[') {
                    ']'
                } else {
                    problems.push(syntax(
                        Span::new(at, at + line.len()),
                        "a line outside a block: Bruno blocks are `name {` … `}`",
                    ));
                    at += raw.len();
                    continue;
                };
                let name = t[..t.len() - 1].trim();
                let lead = line.len() - line.trim_start().len();
                open = Some((
                    name,
                    Span::new(at + lead, at + lead + name.len()),
                    at + raw.len(),
                    close,
                ));
            }
            Some((name, name_span, body_start, close)) => {
                if line.starts_with(close) && line[1..].trim().is_empty() {
                    out.push(Block {
                        name,
                        name_span,
                        body: &text[body_start..at],
                        body_start,
                    });
                    open = None;
                }
            }
        }
        at += raw.len();
    }
    if let Some((name, name_span, _, close)) = open {
        problems.push(syntax(
            name_span,
            format!("block `{name}` is not closed: end it with `{close}` alone on a line"),
        ));
    }
    out
}

/// The `key: value` lines of a dictionary block, with spans; `~key` lines are disabled
/// and left out.
fn pairs(block: &Block<'_>) -> Vec<(String, Span, String, Span)> {
    let mut out = Vec::new();
    let mut at = block.body_start;
    for raw in block.body.split_inclusive('\n') {
        let line = raw.trim_end_matches(['\n', '\r']);
        let t = line.trim_start();
        let lead = line.len() - t.len();
        if !t.is_empty()
            && !t.starts_with('~')
            && !t.starts_with('#')
            && let Some((k, v)) = t.split_once(':')
        {
            {
                let key = k.trim();
                let key_start = at + lead;
                let v_lead = v.len() - v.trim_start().len();
                let v_start = at + lead + k.len() + 1 + v_lead;
                let value = v.trim();
                out.push((
                    key.to_string(),
                    Span::new(key_start, key_start + key.len()),
                    value.to_string(),
                    Span::new(v_start, v_start + value.len()),
                ));
            }
        }
        at += raw.len();
    }
    out
}

/// The names of a list block (`vars:secret [ a, b ]`).
fn list_items(block: &Block<'_>) -> Vec<(String, Span)> {
    let mut out = Vec::new();
    let mut at = block.body_start;
    for raw in block.body.split_inclusive('\n') {
        for piece in raw.trim_end_matches(['\n', '\r']).split(',') {
            let t = piece.trim();
            if !t.is_empty() && !t.starts_with('~') {
                let off = at
                    + (piece.as_ptr() as usize - raw.as_ptr() as usize)
                    + (piece.len() - piece.trim_start().len());
                out.push((t.to_string(), Span::new(off, off + t.len())));
            }
        }
        at += raw.len();
    }
    out
}

pub fn read(text: &str, limits: &Limits, options: &ReadOptions) -> (Vec<Node>, Vec<Problem>) {
    let mut problems = Vec::new();
    let blocks = blocks(text, &mut problems);
    let mut variables: Vec<Entry> = Vec::new();
    let mut parts = RequestParts {
        span: Span::new(0, text.len()),
        ..RequestParts::default()
    };
    let mut has_request = false;
    let mut auth_mode: Option<String> = None;
    // An `Authorization` header is sent whatever the method block's `auth` says.
    let mut header_token: Option<(String, Span)> = None;
    for block in &blocks {
        let name = block.name;
        if METHODS.contains(&name) {
            has_request = true;
            parts.method = Some((name.to_ascii_uppercase(), block.name_span));
            parts.span = block.name_span;
            for (key, _, value, value_span) in pairs(block) {
                match key.as_str() {
                    "url" => parts.url = Some(string(value_span, &value)),
                    "auth" => auth_mode = Some(value),
                    _ => {}
                }
            }
            continue;
        }
        match name {
            "meta" => {
                if let Some((_, _, v, span)) = pairs(block).into_iter().find(|p| p.0 == "name") {
                    parts.name = Some((v, span));
                }
            }
            "headers" => {
                for (key, key_span, value, value_span) in pairs(block) {
                    if key.eq_ignore_ascii_case("authorization") {
                        header_token = Some((value.clone(), value_span));
                    }
                    parts
                        .headers
                        .push(entry(&key, key_span, string(value_span, &value)));
                }
            }
            "auth:bearer" => {
                if let Some((_, _, v, span)) = pairs(block).into_iter().find(|p| p.0 == "token") {
                    parts.bearer = Some((v, span));
                }
            }
            _ if name.starts_with("auth:") => {
                // Whatever the method block's `auth` says: a credential written here is
                // in the file.
                for (key, key_span, value, value_span) in pairs(block) {
                    if is_auth_credential(name, &key) {
                        parts
                            .secrets
                            .push(entry(&key, key_span, string(value_span, &value)));
                    }
                }
            }
            "body:json" => {
                let trimmed = block.body.trim_start();
                if trimmed.is_empty() {
                    continue;
                }
                match json_body(
                    text,
                    block.body_start,
                    block.body.len(),
                    limits,
                    &mut problems,
                ) {
                    Some(entries) => parts.params.extend(entries),
                    None => parts.body_unread = !trimmed.starts_with('['),
                }
            }
            "body:form-urlencoded" | "body:multipart-form" => {
                for (key, key_span, value, value_span) in pairs(block) {
                    // `@file(./image.png)`: a file to upload, whose field is named for
                    // the upload, not a param to judge.
                    if !value.starts_with("@file(") {
                        parts
                            .params
                            .push(entry(&key, key_span, string(value_span, &value)));
                    }
                }
            }
            "body:text" | "body:xml" | "body:graphql" | "body:sparql" | "body:file"
                if !block.body.trim().is_empty() =>
            {
                parts.body_unread = true;
            }
            "vars:pre-request" | "vars" => {
                for (key, key_span, value, value_span) in pairs(block) {
                    variables.push(entry(&key, key_span, string(value_span, &value)));
                }
            }
            "vars:secret" => {
                for (key, span) in list_items(block) {
                    variables.push(entry(&key, span, Node::new(span, Value::Null)));
                }
            }
            _ => {}
        }
    }
    // `auth: none` or `inherit` in the method block: the auth block, if any, is not used.
    if matches!(auth_mode.as_deref(), Some("none"))
        && let Some((token, span)) = parts.bearer.take()
    {
        // Not sent, but written in the file all the same.
        parts
            .secrets
            .push(entry("token", span, string(span, &token)));
    }
    if let Some(token) = header_token {
        parts.bearer = Some(token);
    }
    let mut requests = Vec::new();
    if has_request {
        if parts.url.is_none() {
            // Reported here once: a request without a URL is not read further.
            problems.push(syntax(parts.span, "the method block has no `url`"));
        } else {
            requests.push(parts);
        }
    }
    let span = Span::new(0, text.len());
    (vec![document(span, requests, variables, options)], problems)
}

/// Whether a field of an `auth:…` block holds a credential (`token`, `password`,
/// `client_secret`, `access_token_url` not; an API-key block's `value`).
fn is_auth_credential(block: &str, field: &str) -> bool {
    let f = field.to_ascii_lowercase();
    (block == "auth:apikey" && f == "value")
        || f.ends_with("token")
        || f.ends_with("secret")
        || f.ends_with("password")
}

/// The variables of a Bruno environment file: `vars { name: value }`, and the names of
/// `vars:secret [ … ]`, whose values are not in the file.
pub fn environment(text: &str) -> Vec<super::Variable> {
    let mut problems = Vec::new();
    let mut out = Vec::new();
    for block in blocks(text, &mut problems) {
        match block.name {
            "vars" => out.extend(pairs(&block).into_iter().map(|(k, _, v, _)| (k, Some(v)))),
            "vars:secret" => out.extend(list_items(&block).into_iter().map(|(k, _)| (k, None))),
            _ => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const FILE: &str = "meta {\n  name: Create a campaign\n  type: http\n  seq: 1\n}\n\npost {\n  url: {{base_url}}/act_{{account_id}}/campaigns?special_ad_categories=[]\n  body: json\n  auth: bearer\n}\n\nheaders {\n  Content-Type: application/json\n  ~X-Off: 1\n}\n\nauth:bearer {\n  token: {{fb_token}}\n}\n\nbody:json {\n  {\n    \"name\": \"Spring\",\n    \"status\": \"PAUSED\"\n  }\n}\n\nvars:pre-request {\n  budget: 100\n}\n";

    #[test]
    fn a_request_with_its_blocks() {
        let (docs, problems) = read(FILE, &Limits::DEFAULT, &ReadOptions::default());
        assert!(problems.is_empty(), "{problems:?}");
        let requests = docs[0].get_value("requests").unwrap().as_seq().unwrap();
        assert_eq!(requests.len(), 1);
        let r = &requests[0];
        assert_eq!(
            r.get_value("name").unwrap().as_str(),
            Some("Create a campaign")
        );
        assert_eq!(r.get_value("method").unwrap().as_str(), Some("POST"));
        let url = r.get_value("url").unwrap();
        assert_eq!(
            &FILE[url.span.range()],
            "{{base_url}}/act_{{account_id}}/campaigns?special_ad_categories=[]"
        );
        let status = r.get_value("params").unwrap().get_value("status").unwrap();
        assert_eq!(&FILE[status.span.range()], "\"PAUSED\"");
        assert_eq!(r.get_value("x-headers").unwrap().as_map().unwrap().len(), 1);
        let vars = docs[0].get_value("x-variables").unwrap();
        assert_eq!(vars.get_value("budget").unwrap().as_str(), Some("100"));
    }

    #[test]
    fn environments_and_settings_files() {
        let env = "vars {\n  base_url: https://graph.facebook.com/v25.0\n  ~off: x\n}\nvars:secret [\n  fb_token,\n  other\n]\n";
        assert_eq!(
            environment(env),
            vec![
                (
                    "base_url".to_string(),
                    Some("https://graph.facebook.com/v25.0".to_string())
                ),
                ("fb_token".to_string(), None),
                ("other".to_string(), None),
            ]
        );
        // An environment or a folder's settings are no request: nothing to lint.
        let (docs, problems) = read(env, &Limits::DEFAULT, &ReadOptions::default());
        assert!(problems.is_empty());
        assert!(
            docs[0]
                .get_value("requests")
                .unwrap()
                .as_seq()
                .unwrap()
                .is_empty()
        );
    }

    #[test]
    fn an_authorization_header_is_sent_without_an_auth_mode() {
        let file = "post {\n  url: https://api.github.com/repos/acme/web/issues\n  auth: none\n}\n\nheaders {\n  Authorization: token {{gh_token}}\n}\n";
        let tokens = std::collections::BTreeMap::from([("gh_token".into(), "ci-bot".into())]);
        let options = ReadOptions {
            token_variables: &tokens,
            ..ReadOptions::default()
        };
        let (docs, problems) = read(file, &Limits::DEFAULT, &options);
        assert!(problems.is_empty(), "{problems:?}");
        let r = &docs[0].get_value("requests").unwrap().as_seq().unwrap()[0];
        assert_eq!(r.get_value("token").unwrap().as_str(), Some("ci-bot"));
    }

    #[test]
    fn a_request_without_a_url_is_one_problem_and_no_request() {
        let (docs, problems) = read(
            "post {\n  body: json\n}\n",
            &Limits::DEFAULT,
            &ReadOptions::default(),
        );
        assert_eq!(problems.len(), 1, "{problems:?}");
        let requests = docs[0].get_value("requests").unwrap().as_seq().unwrap();
        assert!(requests.is_empty());
    }

    #[test]
    fn files_to_upload_are_no_params() {
        let file = "post {\n  url: /act_1/adimages\n}\n\nbody:multipart-form {\n  filename: @file(banner.png)\n  name: Banner\n}\n";
        let (docs, _) = read(file, &Limits::DEFAULT, &ReadOptions::default());
        let r = &docs[0].get_value("requests").unwrap().as_seq().unwrap()[0];
        let params = r.get_value("params").unwrap().as_map().unwrap();
        assert_eq!(params.len(), 1);
        assert_eq!(params[0].key, "name");
    }

    #[test]
    fn broken_files() {
        for text in ["post {\n  url: /x\n", "stray\n", "get {\n}\n", "}\n", ""] {
            let _ = read(text, &Limits::DEFAULT, &ReadOptions::default());
        }
        let (_, problems) = read(
            "post {\n  url: /x\n",
            &Limits::DEFAULT,
            &ReadOptions::default(),
        );
        assert_eq!(problems.len(), 1);
        let (_, problems) = read("get {\n}\n", &Limits::DEFAULT, &ReadOptions::default());
        assert_eq!(problems.len(), 1);
    }
}
