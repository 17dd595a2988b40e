//! Hurl files (`.hurl`): entries of a request (`METHOD URL`, headers, the sections
//! `[QueryStringParams]`, `[FormParams]`, `[MultipartFormData]`, a JSON body) and an
//! optional response (`HTTP 200`, its `[Captures]`, which define variables, and
//! `[Asserts]`). Hurl's own parser, the `hurl_core` crate, builds against libxml2, a C
//! library a fresh machine does not have, so reqlint reads the request part itself, line
//! by line, keeping every span.

use super::{Line, ReadOptions, RequestParts, document, entry, json_body, lines, string, syntax};
use crate::loading::span::Span;
use crate::loading::tree::{Entry, Node, Value};
use crate::loading::{Limits, Problem};

/// Two texts of a line with their spans: a method and a URL, a key and a value.
type Pair<'a> = ((&'a str, Span), (&'a str, Span));

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

    fn is_skippable(&self) -> bool {
        let t = self.trimmed();
        t.is_empty() || t.starts_with('#')
    }

    /// `METHOD URL`: the method's and the URL's text and spans.
    fn request_line(&self) -> Option<Pair<'_>> {
        let t = self.text.trim_start();
        let lead = self.text.len() - t.len();
        let (method, rest) = t.split_once([' ', '\t'])?;
        if method.is_empty() || !method.bytes().all(|b| b.is_ascii_uppercase()) || method == "HTTP"
        {
            return None;
        }
        let url = rest
            .trim_start()
            .split(" #")
            .next()
            .unwrap_or("")
            .trim_end();
        if url.is_empty() {
            return None;
        }
        let method_start = self.start + lead;
        let url_start = method_start + method.len() + 1 + (rest.len() - rest.trim_start().len());
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
        t == "HTTP" || t.starts_with("HTTP ") || t.starts_with("HTTP/")
    }

    /// `[Section]`.
    fn section(&self) -> Option<&str> {
        let t = self.trimmed();
        t.strip_prefix('[')?.strip_suffix(']')
    }

    /// `key: value`: the key's and the value's text and spans (an end-of-line comment
    /// left out).
    fn key_value(&self) -> Option<Pair<'_>> {
        let t = self.text.trim_start();
        let lead = self.text.len() - t.len();
        let (k, v) = t.split_once(':')?;
        let key = k.trim_end();
        if key.is_empty() || key.contains(char::is_whitespace) {
            return None;
        }
        let v_lead = v.len() - v.trim_start().len();
        let value = v.trim_start().split(" #").next().unwrap_or("").trim_end();
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
    /// `[Cookies]`, `[BasicAuth]`, `[Options]`: nothing reqlint checks.
    Other,
}

pub fn read(text: &str, limits: &Limits, options: &ReadOptions) -> (Vec<Node>, Vec<Problem>) {
    let all = lines(text);
    let mut problems = Vec::new();
    let mut requests = Vec::new();
    let mut variables: Vec<Entry> = Vec::new();
    let mut i = 0;
    while i < all.len() {
        let line = all[i];
        if line.is_skippable() {
            i += 1;
            continue;
        }
        let Some(((method, method_span), (url, url_span))) = line.request_line() else {
            problems.push(syntax(
                line.trimmed_span(),
                "a Hurl entry starts with a request line: `METHOD URL`",
            ));
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
        i += 1;
        let mut section = Section::Headers;
        // The request part: headers, sections, a body.
        while i < all.len() {
            let line = all[i];
            if line.is_status() || line.starts_entry() {
                break;
            }
            if line.is_skippable() {
                i += 1;
                continue;
            }
            if let Some(name) = line.section() {
                section = match name {
                    "QueryStringParams" | "Query" => Section::Query,
                    "FormParams" | "Form" => Section::Form,
                    "MultipartFormData" | "Multipart" => Section::Multipart,
                    _ => Section::Other,
                };
                i += 1;
                continue;
            }
            let t = line.trimmed();
            if t.starts_with('{') || t.starts_with('[') {
                i = json(&all, i, text, limits, &mut parts, &mut problems);
                break;
            }
            if t.starts_with("```")
                || t.starts_with('`')
                || t.starts_with('<')
                || t.starts_with("file,")
                || t.starts_with("base64,")
                || t.starts_with("hex,")
                || t.starts_with('"')
            {
                parts.body_unread = true;
                i = skip_body(&all, i);
                break;
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
                (Section::Query | Section::Form, Some(((k, ks), (v, vs)))) => {
                    parts.params.push(entry(k, ks, string(vs, v)));
                }
                (Section::Multipart, Some(((k, ks), (v, vs)))) => {
                    let value = if v.starts_with("file,") { "<file>" } else { v };
                    parts.params.push(entry(k, ks, string(vs, value)));
                }
                (Section::Other, Some(_)) => {}
            }
            i += 1;
        }
        // The response: skipped, but for the variables its captures define.
        if i < all.len() && all[i].is_status() {
            i += 1;
            let mut captures = false;
            while i < all.len() && (!all[i].starts_entry() || all[i].is_status()) {
                let line = all[i];
                if let Some(name) = line.section() {
                    captures = name == "Captures";
                } else if captures
                    && !line.is_skippable()
                    && let Some(((k, ks), _)) = line.key_value()
                {
                    variables.retain(|e| e.key != k);
                    variables.push(entry(k, ks, Node::new(ks, Value::Null)));
                }
                i += 1;
            }
        }
        requests.push(parts);
    }
    let span = Span::new(0, text.len());
    (vec![document(span, requests, variables, options)], problems)
}

/// The end (the next line's index) of a body that is not JSON: a fenced multi-line
/// string runs to its closing fence, anything else is one line.
fn skip_body(all: &[Line<'_>], at: usize) -> usize {
    if !all[at].trimmed().starts_with("```") {
        return at + 1;
    }
    let mut i = at + 1;
    while i < all.len() && !all[i].trimmed().starts_with("```") {
        i += 1;
    }
    (i + 1).min(all.len())
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
    let mut end = at + 1;
    while end < all.len() && !all[end].is_status() && !all[end].starts_entry() {
        end += 1;
    }
    let mut last = end - 1;
    while last > at && all[last].is_skippable() {
        last -= 1;
    }
    let start = all[at].start + (all[at].text.len() - all[at].text.trim_start().len());
    let stop = all[last].start + all[last].text.trim_end().len();
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

    const FILE: &str = "# Create a campaign, then read it.\nPOST https://graph.facebook.com/v25.0/act_{{account}}/campaigns\nAuthorization: Bearer {{fb_token}}\nContent-Type: application/json\n[QueryStringParams]\nspecial_ad_categories: []\n{\n  \"name\": \"Spring sale\",\n  \"status\": \"PAUSED\"\n}\nHTTP 200\n[Captures]\ncampaign_id: jsonpath \"$.id\"\n[Asserts]\njsonpath \"$.id\" exists\n\nGET https://graph.facebook.com/v25.0/{{campaign_id}}?fields=name\nHTTP *\n\nPOST https://graph.facebook.com/v25.0/act_1/adsets\n[FormParams]\nname: DE # a comment\nbilling_event: IMPRESSIONS\n[MultipartFormData]\nimage: file,banner.png;\n";

    #[test]
    fn entries_sections_bodies_and_captures() {
        let (docs, problems) = read(FILE, &Limits::DEFAULT, &ReadOptions::default());
        assert!(problems.is_empty(), "{problems:?}");
        let doc = &docs[0];
        let requests = doc.get_value("requests").unwrap().as_seq().unwrap();
        assert_eq!(requests.len(), 3);
        let r = &requests[0];
        assert_eq!(r.get_value("method").unwrap().as_str(), Some("POST"));
        let url = r.get_value("url").unwrap();
        assert_eq!(
            &FILE[url.span.range()],
            "https://graph.facebook.com/v25.0/act_{{account}}/campaigns"
        );
        let params = r.get_value("params").unwrap();
        let cats = params.get_value("special_ad_categories").unwrap();
        assert_eq!(&FILE[cats.span.range()], "[]");
        let status = params.get_value("status").unwrap();
        assert_eq!(&FILE[status.span.range()], "\"PAUSED\"");
        let headers = r.get_value("x-headers").unwrap().as_map().unwrap();
        assert_eq!(headers.len(), 2);
        let vars = doc.get_value("x-variables").unwrap();
        assert!(vars.get("campaign_id").is_some());
        let form = requests[2].get_value("params").unwrap();
        let name = form.get_value("name").unwrap();
        assert_eq!(&FILE[name.span.range()], "DE");
        assert_eq!(form.get_value("image").unwrap().as_str(), Some("<file>"));
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
        ] {
            let _ = read(text, &Limits::DEFAULT, &ReadOptions::default());
        }
        let (_, problems) = read("hello\nGET /x\n", &Limits::DEFAULT, &ReadOptions::default());
        assert_eq!(problems.len(), 1);
        let (docs, problems) = read(
            "POST /x\n{\"a\": \n",
            &Limits::DEFAULT,
            &ReadOptions::default(),
        );
        assert!(!problems.is_empty());
        let r = &docs[0].get_value("requests").unwrap().as_seq().unwrap()[0];
        assert!(r.get_value("x-body-unread").is_some());
    }
}
