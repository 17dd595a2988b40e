//! Hurl files (`.hurl`): entries of a request (`METHOD URL`, headers, the sections
//! `[QueryStringParams]`, `[FormParams]`, `[MultipartFormData]`, a body) and an optional
//! response (`HTTP 200`, its headers, `[Captures]`, which define variables, `[Asserts]`
//! and a body). Hurl's own parser, the `hurl_core` crate, builds against libxml2, a C
//! library a fresh machine does not have, so reqlint reads the request part itself, line
//! by line, keeping every span, linear in the file's length.

use std::collections::BTreeMap;

use super::{Line, ReadOptions, RequestParts, document, entry, json_body, lines, string, syntax};
use crate::loading::span::Span;
use crate::loading::tree::{Entry, Node, Value};
use crate::loading::{Limits, Problem};

/// Two texts of a line with their spans: a method and a URL, a key and a value.
type Pair<'a> = ((&'a str, Span), (&'a str, Span));

/// The fences of a multi-line string: ```` ``` ```` and the older `"""`.
const FENCES: [&str; 2] = ["```", "\"\"\""];

/// A text without its end-of-line comment (a `#` after a space or a tab) and without
/// trailing whitespace.
fn without_comment(text: &str) -> &str {
    let bytes = text.as_bytes();
    let end = (1..bytes.len())
        .find(|&i| bytes[i] == b'#' && matches!(bytes[i - 1], b' ' | b'\t'))
        .unwrap_or(bytes.len());
    text[..end].trim_end()
}

impl Line<'_> {
    fn trimmed(&self) -> &str {
        self.text.trim()
    }

    fn trimmed_span(&self) -> Span {
        let lead = self.text.len() - self.text.trim_start().len();
        Span::new(
            self.start + lead,
            self.start + lead + self.text.trim().len(),
        )
    }

    /// A blank line or a comment.
    fn is_skippable(&self) -> bool {
        let t = self.trimmed();
        t.is_empty() || t.starts_with('#')
    }

    /// The first word, if it is a method: upper-case letters (Hurl takes any such
    /// method), and not `HTTP`, which starts a response.
    fn method_word(&self) -> Option<&str> {
        let t = self.text.trim_start();
        let word = t.split([' ', '\t']).next().unwrap_or("");
        (!word.is_empty() && word.bytes().all(|b| b.is_ascii_uppercase()) && word != "HTTP")
            .then_some(word)
    }

    /// `METHOD URL`: the method's and the URL's text and spans.
    fn request_line(&self) -> Option<Pair<'_>> {
        let method = self.method_word()?;
        let t = self.text.trim_start();
        let rest = &t[method.len()..];
        let url = without_comment(rest.trim_start());
        if url.is_empty() || url.starts_with('#') {
            return None;
        }
        let method_start = self.start + (self.text.len() - t.len());
        let url_start = method_start + method.len() + (rest.len() - rest.trim_start().len());
        Some((
            (method, Span::new(method_start, method_start + method.len())),
            (url, Span::new(url_start, url_start + url.len())),
        ))
    }

    /// A request line that starts the next entry (not a `KEY: value` line whose key is
    /// in capitals).
    fn starts_entry(&self) -> bool {
        self.request_line().is_some() && !self.trimmed().contains(": ")
    }

    /// The status line of a response: `HTTP 200`, `HTTP/1.1 *`.
    fn is_status(&self) -> bool {
        let t = self.trimmed();
        t == "HTTP" || t.starts_with("HTTP ") || t.starts_with("HTTP\t") || t.starts_with("HTTP/")
    }

    /// `[Section]` (a name of letters: `[1, 2]` is a JSON body).
    fn section(&self) -> Option<&str> {
        let name = without_comment(self.trimmed())
            .strip_prefix('[')?
            .strip_suffix(']')?;
        (!name.is_empty() && name.bytes().all(|b| b.is_ascii_alphabetic())).then_some(name)
    }

    /// The fence of a multi-line string this line opens (and does not close).
    fn opens_multiline(&self) -> Option<&'static str> {
        let t = self.trimmed();
        FENCES
            .into_iter()
            .find(|f| t.starts_with(f) && !t[f.len()..].contains(f))
    }

    /// `key: value`: the key's and the value's text and spans (an end-of-line comment
    /// left out).
    fn key_value(&self) -> Option<Pair<'_>> {
        let t = self.text.trim_start();
        let lead = self.text.len() - t.len();
        let (k, v) = t.split_once(':')?;
        let key = k.trim_end();
        if key.is_empty() || key.contains(char::is_whitespace) || key.starts_with('#') {
            return None;
        }
        let v_lead = v.len() - v.trim_start().len();
        let value = without_comment(v.trim_start());
        let key_start = self.start + lead;
        let v_start = key_start + k.len() + 1 + v_lead;
        Some((
            (key, Span::new(key_start, key_start + key.len())),
            (value, Span::new(v_start, v_start + value.len())),
        ))
    }
}

/// Where the lines of a request go.
#[derive(Clone, Copy, PartialEq)]
enum Section {
    Headers,
    Query,
    Form,
    Multipart,
    /// `variable: name=value` lines define variables.
    Options,
    /// `user: password`: the password is a credential.
    BasicAuth,
    /// `name: value`: a cookie the request sends, masked.
    Cookies,
    /// Nothing reqlint checks.
    Other,
}

impl Section {
    fn named(name: &str) -> Option<Section> {
        Some(match name {
            "QueryStringParams" | "Query" => Section::Query,
            "FormParams" | "Form" => Section::Form,
            "MultipartFormData" | "Multipart" => Section::Multipart,
            "Options" => Section::Options,
            "BasicAuth" => Section::BasicAuth,
            "Cookies" => Section::Cookies,
            _ => return None,
        })
    }
}

/// The variables `[Captures]` define, each once (a later capture of a name replaces the
/// earlier one in place).
#[derive(Default)]
struct Captures {
    entries: Vec<Entry>,
    index: BTreeMap<String, usize>,
}

impl Captures {
    fn add(&mut self, name: &str, span: Span) {
        let e = entry(name, span, Node::new(span, Value::Null));
        match self.index.get(name) {
            Some(&at) => self.entries[at] = e,
            None => {
                self.index.insert(name.to_string(), self.entries.len());
                self.entries.push(e);
            }
        }
    }
}

pub fn read(text: &str, limits: &Limits, options: &ReadOptions) -> (Vec<Node>, Vec<Problem>) {
    let all = lines(text);
    let mut problems = Vec::new();
    let mut requests = Vec::new();
    let mut captures = Captures::default();
    // `[Options]` variables, with their values.
    let mut variables: Vec<Entry> = Vec::new();
    let mut i = 0;
    while i < all.len() {
        let line = all[i];
        if line.is_skippable() {
            i += 1;
            continue;
        }
        let Some(((method, method_span), (url, url_span))) = line.request_line() else {
            let message = match line.method_word() {
                Some(m) => format!("`{m}` has no URL: write `{m} URL`"),
                None => "a Hurl entry starts with a request line: `METHOD URL`".into(),
            };
            problems.push(syntax(line.trimmed_span(), message));
            // Go on at the next request line.
            i += 1;
            while i < all.len() && !all[i].starts_entry() {
                i += 1;
            }
            continue;
        };
        let mut parts = RequestParts {
            span: method_span.cover(url_span),
            method: Some((method.to_string(), method_span)),
            url: Some(string(url_span, url)),
            ..RequestParts::default()
        };
        i = request(
            &all,
            i + 1,
            text,
            limits,
            &mut parts,
            &mut variables,
            &mut problems,
        );
        if i < all.len() && all[i].is_status() {
            i = response(&all, i + 1, &mut captures);
        }
        requests.push(parts);
    }
    let span = Span::new(0, text.len());
    variables.extend(captures.entries);
    (vec![document(span, requests, variables, options)], problems)
}

/// The request part of an entry from line `at` (after the request line): headers,
/// sections, a body. Returns the index of the line where the response or the next entry
/// starts.
fn request(
    all: &[Line<'_>],
    at: usize,
    text: &str,
    limits: &Limits,
    parts: &mut RequestParts,
    variables: &mut Vec<Entry>,
    problems: &mut Vec<Problem>,
) -> usize {
    let mut section = Section::Headers;
    let mut i = at;
    while i < all.len() {
        let line = all[i];
        if line.is_status() || line.starts_entry() {
            return i;
        }
        if line.is_skippable() {
            i += 1;
            continue;
        }
        if let Some(name) = line.section() {
            section = Section::named(name).unwrap_or_else(|| {
                problems.push(syntax(
                    line.trimmed_span(),
                    format!("`[{name}]` is not a section of a Hurl request"),
                ));
                Section::Other
            });
            i += 1;
            continue;
        }
        let t = line.trimmed();
        if t.starts_with('{') || t.starts_with('[') {
            return json(all, i, text, limits, parts, problems);
        }
        if let Some(fence) = line.opens_multiline() {
            parts.body_unread = true;
            let end = closing_fence(all, i, fence);
            return after_body(all, end, problems);
        }
        if t.starts_with('<') {
            // An XML body: its lines run to the response or the next entry.
            parts.body_unread = true;
            return next_part(all, i + 1);
        }
        if t.starts_with('`')
            || t.starts_with('"')
            || t.starts_with("file,")
            || t.starts_with("base64,")
            || t.starts_with("hex,")
        {
            // A body of one line: a string, a file, bytes.
            parts.body_unread = true;
            return after_body(all, i + 1, problems);
        }
        match (section, line.key_value()) {
            (_, None) => problems.push(syntax(
                line.trimmed_span(),
                "expected `name: value`, a `[Section]` or a body",
            )),
            (Section::Headers, Some(((k, ks), (v, vs)))) => {
                if k.eq_ignore_ascii_case("authorization") {
                    parts.bearer = Some((v.to_string(), vs));
                }
                parts.headers.push(entry(k, ks, string(vs, v)));
            }
            // `file,image.png;`: a file to upload, whose field is named for the upload,
            // not a param to judge.
            (Section::Multipart, Some((_, (v, _)))) if v.starts_with("file,") => {}
            (Section::Multipart | Section::Query | Section::Form, Some(((k, ks), (v, vs)))) => {
                parts.params.push(entry(k, ks, string(vs, v)));
            }
            (Section::BasicAuth, Some(((user, _), (password, span)))) => {
                parts
                    .secrets
                    .push(entry(user, span, string(span, password)));
            }
            (Section::Cookies, Some(((_, ks), (v, vs)))) => {
                parts.secrets.push(entry("Cookie", ks, string(vs, v)));
            }
            (Section::Options, Some(((k, _), (v, vs)))) => {
                if k == "variable"
                    && let Some((name, value)) = v.split_once('=')
                {
                    let name_start = vs.start + (name.len() - name.trim_start().len());
                    let name = name.trim();
                    let value_start = vs.start + v.len() - value.len();
                    let value_span = Span::new(value_start, vs.end);
                    variables.push(entry(
                        name,
                        Span::new(name_start, name_start + name.len()),
                        string(value_span, value),
                    ));
                }
            }
            (Section::Other, Some(_)) => {}
        }
        i += 1;
    }
    i
}

/// The response of an entry from line `at` (after its status line): headers,
/// `[Captures]`, `[Asserts]`, a body, all skipped but for the variables the captures
/// define. Returns the index of the line where the next entry starts.
fn response(all: &[Line<'_>], at: usize, captures: &mut Captures) -> usize {
    let mut in_captures = false;
    let mut i = at;
    while i < all.len() && !all[i].starts_entry() {
        let line = all[i];
        if let Some(fence) = line.opens_multiline() {
            // A body of several lines: none of them starts an entry.
            i = closing_fence(all, i, fence);
            continue;
        }
        if let Some(name) = line.section() {
            in_captures = name == "Captures";
        } else if in_captures
            && !line.is_skippable()
            && let Some(((k, ks), _)) = line.key_value()
        {
            captures.add(k, ks);
        }
        i += 1;
    }
    i
}

/// The index of the line after the closing fence of a multi-line string opened at line
/// `at` (the end of the file if it is not closed).
fn closing_fence(all: &[Line<'_>], at: usize, fence: &str) -> usize {
    let mut i = at + 1;
    while i < all.len() && !all[i].trimmed().starts_with(fence) {
        i += 1;
    }
    (i + 1).min(all.len())
}

/// The index of the first line from `at` where the response or the next entry starts.
fn next_part(all: &[Line<'_>], at: usize) -> usize {
    let mut i = at;
    while i < all.len() && !all[i].is_status() && !all[i].starts_entry() {
        i += 1;
    }
    i
}

/// After a body that ends at line `at`: nothing but comments up to the response or the
/// next entry, whose line's index is returned.
fn after_body(all: &[Line<'_>], at: usize, problems: &mut Vec<Problem>) -> usize {
    let end = next_part(all, at);
    if let Some(line) = all[at.min(end)..end].iter().find(|l| !l.is_skippable()) {
        problems.push(syntax(
            line.trimmed_span(),
            "after the body of a request comes its response (`HTTP 200`) or the next request",
        ));
    }
    end
}

/// A JSON body from line `at` up to the response, the next request or the end; returns
/// the index of the line after it.
fn json(
    all: &[Line<'_>],
    at: usize,
    text: &str,
    limits: &Limits,
    parts: &mut RequestParts,
    problems: &mut Vec<Problem>,
) -> usize {
    let end = next_part(all, at + 1);
    let mut last = end - 1;
    while last > at && all[last].is_skippable() {
        last -= 1;
    }
    let start = all[at].trimmed_span().start;
    let stop = all[last].trimmed_span().end;
    let is_object = all[at].trimmed().starts_with('{');
    match json_body(text, start, stop - start, limits, problems) {
        Some(entries) => parts.params.extend(entries),
        None => parts.body_unread = is_object,
    }
    end
}

#[cfg(test)]
mod tests {
    use super::*;

    const FILE: &str = "# Create a campaign, then read it.
POST https://graph.facebook.com/v25.0/act_{{account}}/campaigns # create
Authorization: Bearer {{fb_token}}
Content-Type: application/json
[QueryStringParams]
special_ad_categories: []
{
  \"name\": \"Spring sale\",
  \"status\": \"PAUSED\"
}
HTTP 200
Content-Type: application/json
[Captures]
campaign_id: jsonpath \"$.id\"
[Asserts]
jsonpath \"$.id\" exists
```
NOT A request
```

GET https://graph.facebook.com/v25.0/{{campaign_id}}?fields=name
HTTP *
[Captures]
campaign_name: jsonpath \"$.name\"
";

    fn requests(doc: &Node) -> &[Node] {
        doc.get_value("requests").unwrap().as_seq().unwrap()
    }

    fn read_default(text: &str) -> (Vec<Node>, Vec<Problem>) {
        read(text, &Limits::DEFAULT, &ReadOptions::default())
    }

    #[test]
    fn entries_headers_query_json_and_captures() {
        let (docs, problems) = read_default(FILE);
        assert!(problems.is_empty(), "{problems:?}");
        assert_eq!(docs.len(), 1);
        let doc = &docs[0];
        let requests = requests(doc);
        assert_eq!(requests.len(), 2);
        let r = &requests[0];
        let method = r.get_value("method").unwrap();
        assert_eq!(method.as_str(), Some("POST"));
        assert_eq!(&FILE[method.span.range()], "POST");
        let url = r.get_value("url").unwrap();
        assert_eq!(
            &FILE[url.span.range()],
            "https://graph.facebook.com/v25.0/act_{{account}}/campaigns"
        );
        assert_eq!(url.as_str(), Some(&FILE[url.span.range()]));
        let params = r.get_value("params").unwrap();
        let cats = params.get_value("special_ad_categories").unwrap();
        assert_eq!(&FILE[cats.span.range()], "[]");
        assert_eq!(
            &FILE[params.get("name").unwrap().key_span.range()],
            "\"name\""
        );
        let status = params.get_value("status").unwrap();
        assert_eq!(&FILE[status.span.range()], "\"PAUSED\"");
        let headers = r.get_value("x-headers").unwrap().as_map().unwrap();
        assert_eq!(headers.len(), 2);
        let auth = r
            .get_value("x-headers")
            .unwrap()
            .get_value("Authorization")
            .unwrap();
        assert_eq!(&FILE[auth.span.range()], "Bearer {{fb_token}}");
        assert!(r.get_value("x-body-unread").is_none());
        let second = &requests[1];
        assert_eq!(second.get_value("method").unwrap().as_str(), Some("GET"));
        let url = second.get_value("url").unwrap();
        assert_eq!(
            &FILE[url.span.range()],
            "https://graph.facebook.com/v25.0/{{campaign_id}}?fields=name"
        );
        let vars = doc.get_value("x-variables").unwrap().as_map().unwrap();
        let names: Vec<&str> = vars.iter().map(|e| &*e.key).collect();
        assert_eq!(names, ["campaign_id", "campaign_name"]);
        assert_eq!(&FILE[vars[0].key_span.range()], "campaign_id");
        assert!(matches!(vars[0].value.value, Value::Null));
    }

    #[test]
    fn bearer_of_the_authorization_header() {
        let file = "GET https://api.github.com/user\nAuthorization: Bearer {{gh_token}}\n";
        let mut parts = RequestParts::default();
        let mut problems = Vec::new();
        let all = lines(file);
        let next = request(
            &all,
            1,
            file,
            &Limits::DEFAULT,
            &mut parts,
            &mut Vec::new(),
            &mut problems,
        );
        assert_eq!(next, all.len());
        assert!(problems.is_empty(), "{problems:?}");
        let (bearer, span) = parts.bearer.unwrap();
        assert_eq!(bearer, "Bearer {{gh_token}}");
        assert_eq!(&file[span.range()], "Bearer {{gh_token}}");
        // A token variable the config names becomes the request's token.
        let tokens = BTreeMap::from([("gh_token".to_string(), "ci-bot".to_string())]);
        let options = ReadOptions {
            token_variables: &tokens,
            ..ReadOptions::default()
        };
        let (docs, _) = read(file, &Limits::DEFAULT, &options);
        let token = requests(&docs[0])[0].get_value("token").unwrap();
        assert_eq!(token.as_str(), Some("ci-bot"));
        assert_eq!(&file[token.span.range()], "Bearer {{gh_token}}");
    }

    #[test]
    fn form_and_multipart_params() {
        let file = "POST https://graph.facebook.com/v25.0/act_1/adsets
[Options]
insecure: true
[FormParams]
name: DE # a comment
billing_event:\tIMPRESSIONS
[MultipartFormData]
image: file,banner.png;
HTTP 201
";
        let (docs, problems) = read_default(file);
        assert!(problems.is_empty(), "{problems:?}");
        let requests = requests(&docs[0]);
        assert_eq!(requests.len(), 1);
        let form = requests[0].get_value("params").unwrap();
        // The file to upload is no param.
        assert_eq!(form.as_map().unwrap().len(), 2);
        let name = form.get_value("name").unwrap();
        assert_eq!(name.as_str(), Some("DE"));
        assert_eq!(&file[name.span.range()], "DE");
        let billing = form.get("billing_event").unwrap();
        assert_eq!(&file[billing.key_span.range()], "billing_event");
        assert_eq!(&file[billing.value.span.range()], "IMPRESSIONS");
        assert!(form.get_value("image").is_none());
        assert!(form.get_value("insecure").is_none());
    }

    #[test]
    fn bodies_not_read() {
        let file = "POST https://x.test/a
```json
{\"a\": 1}
GET not an entry
```
HTTP 200

PUT https://x.test/b
file,body.json;

POST https://x.test/c
<?xml version=\"1.0\"?>
<a>
  <b/>
</a>

POST https://x.test/d
[1, 2]
HTTP 200
```one line```
";
        let (docs, problems) = read_default(file);
        assert!(problems.is_empty(), "{problems:?}");
        let requests = requests(&docs[0]);
        assert_eq!(requests.len(), 4);
        for r in &requests[..3] {
            assert!(r.get_value("x-body-unread").is_some(), "{r:?}");
        }
        // A JSON array has no fields to check.
        assert!(requests[3].get_value("x-body-unread").is_none());
        assert!(requests[3].get_value("params").is_none());
    }

    #[test]
    fn garbage_is_a_problem_not_a_panic() {
        for text in [
            "",
            "GET",
            "[Asserts]\n",
            "{\n",
            "POST /x\n{\n",
            "HTTP 200\n",
            "GET /x\n```\nno end",
            "GET /x\n\"\"\"\n",
            "GET /x\nHTTP 200\n```",
            "GET /x\n[Query]\n: v\nk\n",
            "\u{e9}\u{e9} \u{e9}\n#\u{e9}\nGET \u{e9}\u{e9} #\u{e9}\n",
            "\n\n\r\n  \t",
        ] {
            let (docs, _) = read_default(text);
            assert_eq!(docs.len(), 1);
        }
        for text in ["GET", "[Asserts]\n", "{\n", "HTTP 200\n", "hello\nGET /x\n"] {
            let (_, problems) = read_default(text);
            assert_eq!(problems.len(), 1, "{text:?}: {problems:?}");
            assert!(problems[0].span.end <= text.len());
        }
        let (docs, problems) = read_default("hello\nGET /x\n");
        assert_eq!(&"hello\nGET /x\n"[problems[0].span.range()], "hello");
        assert_eq!(requests(&docs[0]).len(), 1);
        let (docs, problems) = read_default("POST /x\n{\"a\": \n");
        assert!(!problems.is_empty());
        let r = &requests(&docs[0])[0];
        assert!(r.get_value("x-body-unread").is_some());
        let (_, problems) = read_default("GET /x\n[Captures]\nid: jsonpath \"$.id\"\n");
        assert_eq!(problems.len(), 1, "{problems:?}");
        let (_, problems) = read_default("PUT /x\nfile,a.json;\nextra\n");
        assert_eq!(problems.len(), 1, "{problems:?}");
    }

    #[test]
    fn long_files_stay_linear() {
        let entry = "POST https://x.test/{{id}}\nA: b\n[Query]\nq: 1\n{\"k\": [1, 2]}\nHTTP 200\n[Captures]\nid: jsonpath \"$.id\"\n\n";
        let file = entry.repeat(2000);
        let (docs, problems) = read_default(&file);
        assert!(problems.is_empty(), "{problems:?}");
        assert_eq!(requests(&docs[0]).len(), 2000);
        let vars = docs[0].get_value("x-variables").unwrap().as_map().unwrap();
        assert_eq!(vars.len(), 1);
    }
}
