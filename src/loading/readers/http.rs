//! `.http` and `.rest` files, in the syntax the JetBrains HTTP Client and VS Code's REST
//! Client share: requests separated by `###` lines, `METHOD URL [HTTP/x]` (or a URL
//! alone: GET), query lines continued with `?` or `&`, headers up to a blank line, then
//! a body (JSON, or form fields by their `Content-Type`); `@name = value` variables;
//! `# @name` (or `// @name`) request names; `#` and `//` comments. No crate reads this
//! format with positions, so reqlint has its own reader, linear in the file's length.

use std::collections::HashMap;

use super::{
    Line, ReadOptions, RequestParts, document, entry, form_pairs, json_body, lines, string, syntax,
};
use crate::loading::span::Span;
use crate::loading::tree::{Entry, Node};
use crate::loading::{Limits, Problem, ProblemKind, work};

mod multipart;

/// The methods a request line may start with.
const METHODS: [&str; 9] = [
    "GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS", "TRACE", "CONNECT",
];

/// The text after a `###` separator, and its span.
type Title = Option<(String, Span)>;

impl Line<'_> {
    fn span(&self) -> Span {
        Span::new(self.start, self.start + self.text.len())
    }

    fn is_separator(&self) -> bool {
        self.text.starts_with("###")
    }

    fn is_comment(&self) -> bool {
        let t = self.text.trim_start();
        t.starts_with('#') || t.starts_with("//")
    }

    fn is_blank(&self) -> bool {
        self.text.trim().is_empty()
    }

    /// A request line of its own, where only a separator may start a request: `METHOD
    /// URL [HTTP/x]` from the line's start, the method in capitals, the URL a full URL, a
    /// path or a variable. A header (`Name: value`) and a body's text rarely look so.
    fn is_request_line(&self) -> bool {
        let mut words = self.text.split_whitespace();
        let (Some(method), Some(url)) = (words.next(), words.next()) else {
            return false;
        };
        let version = words.next();
        !self.text.starts_with([' ', '\t'])
            && METHODS.contains(&method)
            && (url.starts_with("http://")
                || url.starts_with("https://")
                || url.starts_with('/')
                || url.starts_with("{{"))
            && version.is_none_or(|v| v.starts_with("HTTP/"))
            && words.next().is_none()
    }

    /// A line that belongs with the request line below it: a comment (`# @name`) or a
    /// variable.
    fn leads_a_request(&self) -> bool {
        (self.is_comment() && !self.is_separator()) || variable_line(self).is_some()
    }
}

/// The request lines of a block after its first, from line `from` (where its headers
/// start), and where a separator line would part the first of them from what is above
/// it: above the comments and variables just over it, where only blank lines stand
/// between them and the headers (the request above then keeps no body).
fn unseparated(block: &[Line<'_>], from: usize) -> Vec<super::Unseparated> {
    let mut out: Vec<super::Unseparated> = Vec::new();
    let mut in_headers = true;
    // The first line of the body that is not blank.
    let mut body_content: Option<usize> = None;
    for (i, line) in block.iter().enumerate().skip(from) {
        if line.is_request_line() {
            let mut at = i;
            while at > from && block[at - 1].leads_a_request() {
                at -= 1;
            }
            let certain = out.is_empty() && body_content.is_none_or(|c| c >= at);
            out.push(super::Unseparated {
                line: line.span(),
                separator_at: certain.then_some(block[at].start),
            });
            in_headers = false;
            body_content.get_or_insert(i);
        } else if line.is_blank() {
            in_headers = false;
        } else if !in_headers && body_content.is_none() {
            body_content = Some(i);
        }
    }
    out
}

/// `@name = value`: the name and the value's span.
fn variable_line(line: &Line<'_>) -> Option<(String, Span, Span)> {
    let t = line.text.trim_start();
    let rest = t.strip_prefix('@')?;
    let (name, value) = rest.split_once('=')?;
    let name_t = name.trim();
    if name_t.is_empty()
        || !name_t
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-' || b == b'.')
    {
        return None;
    }
    let lead = line.text.len() - t.len();
    let name_start = line.start + lead + 1 + (name.len() - name.trim_start().len());
    let value_off = line.start + lead + 1 + name.len() + 1;
    let v_lead = value.len() - value.trim_start().len();
    let v = value.trim();
    Some((
        name_t.to_string(),
        Span::new(name_start, name_start + name_t.len()),
        Span::new(value_off + v_lead, value_off + v_lead + v.len()),
    ))
}

/// `# @name create` or `// @name create`.
fn name_line(line: &Line<'_>) -> Option<(String, Span)> {
    let t = line.text.trim_start();
    let rest = t.strip_prefix('#').or_else(|| t.strip_prefix("//"))?;
    let rest_t = rest.trim_start();
    let name = rest_t.strip_prefix("@name")?;
    let n = name.trim_start_matches([' ', '=']).trim();
    if n.is_empty() {
        return None;
    }
    let at = line.start + line.text.len() - name.trim_start_matches([' ', '=']).len();
    Some((n.to_string(), Span::new(at, at + n.len())))
}

/// The `@name = value` variables of a file, each once: a later definition of a name
/// replaces the earlier one in place, found by its name in constant time.
#[derive(Default)]
struct Definitions {
    entries: Vec<Entry>,
    index: HashMap<String, usize>,
}

impl Definitions {
    fn define(&mut self, e: Entry) {
        work::count(1);
        match self.index.get(e.key.as_str()) {
            Some(&at) => self.entries[at] = e,
            None => {
                self.index.insert(e.key.to_string(), self.entries.len());
                self.entries.push(e);
            }
        }
    }
}

pub fn read(text: &str, limits: &Limits, options: &ReadOptions) -> (Vec<Node>, Vec<Problem>) {
    let all = lines(text);
    if let Some(span) = dothttp_mark(&all) {
        return (
            Vec::new(),
            vec![Problem::new(
                ProblemKind::OtherDialect,
                span,
                "a dothttp file (https://github.com/cedric05/dothttp): reqlint does not read its dialect \
                 (`GET \"url\"`, `@name(…)`, `? \"key\"= \"value\"`), so nothing in it is checked",
            )],
        );
    }
    let mut problems = Vec::new();
    let mut variables = Definitions::default();
    let mut requests = Vec::new();
    // Blocks between `###` lines.
    let mut blocks: Vec<(Title, &[Line<'_>])> = Vec::new();
    let mut start = 0;
    let mut title: Option<(String, Span)> = None;
    for (i, line) in all.iter().enumerate() {
        if line.is_separator() {
            blocks.push((title.take(), &all[start..i]));
            let t = line.text.trim_start_matches('#').trim();
            if !t.is_empty() {
                let at = line.start + line.text.find(t).unwrap_or(0);
                title = Some((t.to_string(), Span::new(at, at + t.len())));
            }
            start = i + 1;
        }
    }
    blocks.push((title.take(), &all[start..]));
    for (title, block) in blocks {
        if let Some(r) = read_block(
            text,
            block,
            title,
            limits,
            &mut variables,
            &mut problems,
            Split::Judge,
        ) {
            requests.push(r);
        }
    }
    let span = Span::new(0, text.len());
    (
        vec![document(span, requests, variables.entries, options)],
        problems,
    )
}

/// Whether a block's request line that no separator parts from the one above is read
/// as the request it would be once parted, to tell whether a separator parts it cleanly.
#[derive(Clone, Copy, PartialEq)]
enum Split {
    Judge,
    /// The block is such a request already: once, so the file is read at most twice.
    Leave,
}

fn read_block(
    text: &str,
    block: &[Line<'_>],
    title: Option<(String, Span)>,
    limits: &Limits,
    variables: &mut Definitions,
    problems: &mut Vec<Problem>,
    split: Split,
) -> Option<RequestParts> {
    let mut name = title;
    let mut i = 0;
    // Variables, names and comments before the request line.
    while i < block.len() {
        let line = &block[i];
        if let Some((n, span)) = name_line(line) {
            name = Some((n, span));
        } else if let Some((var, var_span, value_span)) = variable_line(line) {
            variables.define(entry(
                &var,
                var_span,
                string(value_span, &text[value_span.range()]),
            ));
        } else if !line.is_blank() && !line.is_comment() {
            break;
        }
        i += 1;
    }
    let request_line = block.get(i)?;
    i += 1;
    let mut parts = RequestParts {
        span: request_line.span(),
        name,
        ..RequestParts::default()
    };
    let t = request_line.text;
    let lead = t.len() - t.trim_start().len();
    let words: Vec<&str> = t.split_whitespace().collect();
    let (method, url_word) = match words.as_slice() {
        [m, url, ..] if METHODS.contains(m) => (Some(*m), *url),
        [m, url, ..] if METHODS.contains(&m.to_ascii_uppercase().as_str()) => (Some(*m), *url),
        [url, ..] => (None, *url),
        [] => return None,
    };
    let method_start = request_line.start + lead;
    match method {
        // The clients take the method in any case.
        Some(m) => {
            parts.method = Some((
                m.to_ascii_uppercase(),
                Span::new(method_start, method_start + m.len()),
            ))
        }
        None => {
            if !url_word.contains("://")
                && !url_word.starts_with('/')
                && !url_word.starts_with("{{")
            {
                problems.push(syntax(
                    request_line.span(),
                    format!("`{url_word}` is not a request line: write `METHOD URL`"),
                ));
                return None;
            }
            // A URL alone is a GET.
            parts.method = Some(("GET".into(), Span::empty(method_start)));
        }
    }
    let url_off = request_line.start + t.find(url_word).unwrap_or(lead);
    let mut url_end = url_off + url_word.len();
    // Query lines continued below the request line (`    ?a=1`, `    &b=2`).
    while let Some(next) = block.get(i) {
        let n = next.text.trim_start();
        if next.text.starts_with([' ', '\t']) && (n.starts_with('?') || n.starts_with('&')) {
            url_end = next.start + next.text.trim_end().len();
            i += 1;
        } else {
            break;
        }
    }
    let url_text: String = text[url_off..url_end]
        .lines()
        .map(str::trim)
        .collect::<Vec<_>>()
        .join("");
    parts.url = Some(string(Span::new(url_off, url_end), &url_text));
    // A request line below this one, with no `###` between: the clients send it, and
    // all below it, as this request's body.
    parts.unseparated = unseparated(block, i);
    if let Some(first) = parts.unseparated.first_mut()
        && let Some(at) = first.separator_at
        && split == Split::Judge
    {
        // A separator is certain only where the request below it reads without a
        // problem: else its lines were not meant as a request of their own.
        let from = block
            .iter()
            .position(|l| l.start == at)
            .unwrap_or(block.len());
        let mut found = Vec::new();
        let read = read_block(
            text,
            &block[from..],
            None,
            limits,
            &mut Definitions::default(),
            &mut found,
            Split::Leave,
        );
        if read.is_none() || !found.is_empty() {
            first.separator_at = None;
        }
    }
    // Headers, up to a blank line.
    let mut content_type = String::new();
    // As written, and where: a multipart boundary is compared byte for byte.
    let mut content_type_written = ("", Span::default());
    let mut graphql = false;
    while let Some(line) = block.get(i) {
        if line.is_blank() {
            i += 1;
            break;
        }
        if line.is_request_line() {
            break;
        }
        i += 1;
        if line.is_comment() {
            continue;
        }
        let Some((key, value)) = line.text.split_once(':') else {
            problems.push(syntax(line.span(), "a header line is `Name: value`"));
            continue;
        };
        let k = key.trim();
        let key_start = line.start + (key.len() - key.trim_start().len());
        let v_lead = value.len() - value.trim_start().len();
        let v_start = line.start + key.len() + 1 + v_lead;
        let v = value.trim();
        let value_node = string(Span::new(v_start, v_start + v.len()), v);
        if k.eq_ignore_ascii_case("authorization") {
            parts.bearer = Some((v.to_string(), value_node.span));
        }
        if k.eq_ignore_ascii_case("content-type") {
            content_type = v.to_ascii_lowercase();
            content_type_written = (v, value_node.span);
        }
        // VS Code REST Client's mark of a GraphQL request: its body is a query and
        // variables, not the JSON its `Content-Type` says.
        graphql |= k.eq_ignore_ascii_case("x-request-type") && v.eq_ignore_ascii_case("graphql");
        parts.headers.push(entry(
            k,
            Span::new(key_start, key_start + k.len()),
            value_node,
        ));
    }
    // The body: up to the end of the block, less response handlers and redirections.
    let body: Vec<&Line<'_>> = block[i.min(block.len())..]
        .iter()
        .take_while(|l| {
            let t = l.text.trim_start();
            !(t.starts_with("> ")
                || t.starts_with(">>")
                || t.starts_with("<> ")
                || t.starts_with("> {%"))
        })
        .collect();
    let first = body.iter().position(|l| !l.is_blank());
    let last = body.iter().rposition(|l| !l.is_blank());
    if let (Some(first), Some(last)) = (first, last) {
        let start = body[first].start;
        let end = body[last].start + body[last].text.len();
        let raw = text[start..end].trim_start();
        if !parts.unseparated.is_empty() {
            // Another request's lines: no body reqlint can read.
            parts.body_unread = true;
        } else if raw.starts_with('<') || graphql {
            // `< ./body.json`: the body is in another file; a GraphQL query is not read.
            parts.body_unread = true;
        } else if content_type.contains("json") || raw.starts_with('{') {
            match json_body(text, start, end - start, limits, problems) {
                Some(entries) => parts.params = entries,
                None => parts.body_unread = !raw.starts_with('['),
            }
        } else if content_type.contains("multipart/form-data")
            && raw.starts_with("--")
            && multipart::boundary(content_type_written.0).is_none()
        {
            problems.push(syntax(
                content_type_written.1,
                "a multipart/form-data body of parts needs the boundary that parts them in \
                 its `Content-Type`: `multipart/form-data; boundary=…`",
            ));
            parts.body_unread = true;
        } else if content_type.contains("multipart/form-data")
            && let Some(boundary) = multipart::boundary(content_type_written.0)
            && let Some(read) = multipart::read(text, &body[first..=last], boundary, problems)
        {
            parts.params = read.params;
            parts.body_unread = read.incomplete;
        } else if content_type.contains("x-www-form-urlencoded")
            || (content_type.contains("multipart/form-data") && !raw.starts_with("--"))
        {
            // `source=@./video.mp4`: a file to upload, as curl's `-F` names one in the
            // vendors' examples; its name is the upload's, not a param to judge.
            parts.params = form_pairs(text, start, end - start)
                .into_iter()
                .filter(|field| !is_file_upload(field))
                .collect();
        } else {
            parts.body_unread = true;
        }
    }
    Some(parts)
}

/// Where a file says it is dothttp's, whose `.http` dialect quotes its URLs: its
/// `#!/usr/bin/env dothttp` line, else the first request line with a quoted URL
/// (`GET "https://…"`), which no client of the `.http` format reqlint reads writes.
fn dothttp_mark(all: &[Line<'_>]) -> Option<Span> {
    if let Some(first) = all.first()
        && first.text.starts_with("#!")
        && first.text.contains("dothttp")
    {
        return Some(first.span());
    }
    all.iter()
        .find(|line| {
            line.text.split_once(' ').is_some_and(|(method, rest)| {
                super::is_linted_method(method)
                    && method.bytes().all(|b| b.is_ascii_uppercase())
                    && rest.trim_start().starts_with('"')
            })
        })
        .map(Line::span)
}

/// A form field whose value names a file to upload (`@./video.mp4`, `@file`).
fn is_file_upload(field: &Entry) -> bool {
    field.value.as_str().is_some_and(|v| {
        v.strip_prefix('@')
            .is_some_and(|path| !path.trim().is_empty() && !path.contains(char::is_whitespace))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const FILE: &str = "@base_url = https://graph.facebook.com/v25.0\n@account = 123\n\n### Create a campaign\n# @name createCampaign\nPOST {{base_url}}/act_{{account}}/campaigns?special_ad_categories=[] HTTP/1.1\nContent-Type: application/json\nAuthorization: Bearer {{fb_token}}\n\n{\n  \"name\": \"Spring\",\n  \"status\": \"PAUSED\"\n}\n\n> {% client.global.set(\"id\", response.body.id) %}\n\n###\n\nGET https://api.github.com/repos/acme/web/pulls\n    ?state=open\n    &per_page=30\nAuthorization: Bearer {{gh_token}}\n\n### Form\nPOST {{base_url}}/act_{{account}}/adsets\nContent-Type: application/x-www-form-urlencoded\n\nname=DE&billing_event=IMPRESSIONS\n";

    #[test]
    fn requests_headers_bodies_and_variables() {
        let (docs, problems) = read(FILE, &Limits::DEFAULT, &ReadOptions::default());
        assert!(problems.is_empty(), "{problems:?}");
        let doc = &docs[0];
        let vars = doc.get_value("x-variables").unwrap();
        assert_eq!(vars.get_value("account").unwrap().as_str(), Some("123"));
        let requests = doc.get_value("requests").unwrap().as_seq().unwrap();
        assert_eq!(requests.len(), 3);
        let r = &requests[0];
        assert_eq!(
            r.get_value("name").unwrap().as_str(),
            Some("createCampaign")
        );
        let url = r.get_value("url").unwrap();
        assert_eq!(
            &FILE[url.span.range()],
            "{{base_url}}/act_{{account}}/campaigns?special_ad_categories=[]"
        );
        let status = r.get_value("params").unwrap().get_value("status").unwrap();
        assert_eq!(&FILE[status.span.range()], "\"PAUSED\"");
        let q = requests[1].get_value("url").unwrap();
        assert_eq!(
            q.as_str(),
            Some("https://api.github.com/repos/acme/web/pulls?state=open&per_page=30")
        );
        let form = requests[2].get_value("params").unwrap();
        let b = form.get_value("billing_event").unwrap();
        assert_eq!(&FILE[b.span.range()], "IMPRESSIONS");
    }

    #[test]
    fn a_graphql_body_is_not_read_as_json() {
        let file = "POST https://api.github.com/graphql\nContent-Type: application/json\nX-REQUEST-TYPE: GraphQL\n\nquery ($owner: String!) {\n  repository(owner: $owner) { url }\n}\n\n{\"owner\": \"acme\"}\n";
        let (docs, problems) = read(file, &Limits::DEFAULT, &ReadOptions::default());
        assert!(problems.is_empty(), "{problems:?}");
        let requests = docs[0].get_value("requests").unwrap().as_seq().unwrap();
        assert!(requests[0].get_value("x-body-unread").is_some());
        assert!(requests[0].get_value("params").is_none());
    }

    #[test]
    fn a_dothttp_file_is_said_once_not_to_be_read() {
        for (file, marked) in [
            (
                "#!/usr/bin/env dothttp\n\n@name(\"a\")\nGET \"https://api.github.com/user\"\n",
                "#!/usr/bin/env dothttp",
            ),
            (
                "// no shebang\nPOST \"https://api.github.com/orgs/acme/repos\"\ndata('{}')\nGET \"https://x.test/\"\n",
                "POST \"https://api.github.com/orgs/acme/repos\"",
            ),
        ] {
            let (docs, problems) = read(file, &Limits::DEFAULT, &ReadOptions::default());
            assert!(docs.is_empty());
            assert_eq!(problems.len(), 1, "{problems:?}");
            assert_eq!(problems[0].kind, ProblemKind::OtherDialect);
            assert_eq!(&file[problems[0].span.range()], marked);
        }
        // A JSON string in a body is not a request line.
        let (_, problems) = read(
            "POST https://x.test/a\nContent-Type: application/json\n\n\"GET \\\"x\\\"\"\n",
            &Limits::DEFAULT,
            &ReadOptions::default(),
        );
        assert!(problems.iter().all(|p| p.kind != ProblemKind::OtherDialect));
    }

    fn unseparated_of(file: &str) -> Vec<(String, Option<usize>)> {
        let (docs, _) = read(file, &Limits::DEFAULT, &ReadOptions::default());
        let requests = docs[0].get_value("requests").unwrap().as_seq().unwrap();
        requests
            .iter()
            .filter_map(|r| r.get_value(super::super::UNSEPARATED_KEY))
            .flat_map(|u| u.as_seq().unwrap().iter())
            .map(|u| {
                let line = u.get_value("line").unwrap().span;
                let at = u.get_value("separator-at").map(|n| n.span.start);
                (file[line.range()].to_string(), at)
            })
            .collect()
    }

    #[test]
    fn request_lines_without_a_separator_are_one_request() {
        // In the headers, after a blank line, above a name and a variable.
        let file = "GET /a\nGET /b HTTP/1.1\n\nGET {{base}}/c\n###\nGET /d\n\n# @name e\n@v = 1\nPOST https://x.test/e\n";
        assert_eq!(
            unseparated_of(file),
            [
                ("GET /b HTTP/1.1".to_string(), Some(7)),
                ("GET {{base}}/c".to_string(), None),
                (
                    "POST https://x.test/e".to_string(),
                    Some(file.find("# @name e").unwrap())
                ),
            ]
        );
        let (docs, problems) = read(file, &Limits::DEFAULT, &ReadOptions::default());
        // No header problem for a request line, and the lines below are an unread body.
        assert!(problems.is_empty(), "{problems:?}");
        let requests = docs[0].get_value("requests").unwrap().as_seq().unwrap();
        assert_eq!(requests.len(), 2);
        assert!(requests[0].get_value("x-body-unread").is_some());
        assert!(requests[0].get_value("x-headers").is_none());
    }

    #[test]
    fn a_separator_is_offered_only_where_it_parts_cleanly() {
        // A body above the line: it may be the body's text.
        let file = "POST /a\nContent-Type: text/plain\n\nsee below\nGET /b\n";
        assert_eq!(unseparated_of(file), [("GET /b".to_string(), None)]);
        // The request below would not read: its next line is no header.
        let file = "GET /a\n\nGET /b\nnot a header\n";
        assert_eq!(unseparated_of(file), [("GET /b".to_string(), None)]);
        // A JSON body below that does not parse.
        let file = "GET /a\n\nPOST /b\nContent-Type: application/json\n\n{\"a\": \n";
        assert_eq!(unseparated_of(file), [("POST /b".to_string(), None)]);
        // Lines that only start like a request line: indented, lower case, a word more.
        let file = "POST /a\n\n  GET /b\nget /c\nGET /d please\nGET\nGET x\n";
        assert!(unseparated_of(file).is_empty());
    }

    #[test]
    fn files_to_upload_are_no_params() {
        let file = "POST /act_1/adimages\nContent-Type: multipart/form-data\n\nfilename=@./banner.png&name=Banner&x=@\n###\nPOST /act_1/advideos\nContent-Type: application/x-www-form-urlencoded\n\nsource=@video.mp4&title=T\n";
        let (docs, problems) = read(file, &Limits::DEFAULT, &ReadOptions::default());
        assert!(problems.is_empty(), "{problems:?}");
        let requests = docs[0].get_value("requests").unwrap().as_seq().unwrap();
        let keys = |r: &Node| -> Vec<String> {
            r.get_value("params")
                .unwrap()
                .as_map()
                .unwrap()
                .iter()
                .map(|e| e.key.to_string())
                .collect()
        };
        assert_eq!(keys(&requests[0]), ["name", "x"]);
        assert_eq!(keys(&requests[1]), ["title"]);
    }

    #[test]
    fn not_a_request_line() {
        let (docs, problems) = read("hello there\n", &Limits::DEFAULT, &ReadOptions::default());
        assert_eq!(problems.len(), 1);
        let requests = docs[0].get_value("requests").unwrap().as_seq().unwrap();
        assert!(requests.is_empty());
    }
}
