//! `METHOD PATH`: the request line, its path segments, query and API version.

use std::fmt;

use crate::loading::encoded::{SourceMap, percent_decode};
use crate::loading::{Entry, Node, Span, Value};

pub use crate::catalog::Method;

/// An advertising API version segment, `v<major>.<minor>`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Version {
    pub major: u32,
    pub minor: u32,
}

impl Version {
    pub fn parse(text: &str) -> Option<Version> {
        let rest = text.strip_prefix('v')?;
        let (major, minor) = rest.split_once('.')?;
        let digits =
            |s: &str| !s.is_empty() && s.len() <= 4 && s.bytes().all(|b| b.is_ascii_digit());
        if !digits(major) || !digits(minor) {
            return None;
        }
        Some(Version {
            major: major.parse().ok()?,
            minor: minor.parse().ok()?,
        })
    }
}

impl fmt::Display for Version {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "v{}.{}", self.major, self.minor)
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Segment {
    /// The segment as the request sends it: known `{{name}}` references replaced by
    /// their values, unknown ones left as written. Segments are short: kept inline.
    pub text: compact_str::CompactString,
    /// Where the segment is written (a reference's value spans the reference).
    pub span: Span,
}

impl Segment {
    /// Whether the segment holds a variable whose value is not known, whole or in part
    /// (`{{owner}}`, `{{org}}-mirror`, a Postman `:owner` without a value): it may be
    /// any text.
    pub fn holds_unknown_variable(&self) -> bool {
        crate::loading::encoded::references(&self.text)
            .next()
            .is_some()
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct RequestLine {
    pub method: Method,
    pub method_span: Span,
    /// The path without scheme, host and query string.
    pub path: String,
    pub path_span: Span,
    pub segments: Vec<Segment>,
    /// Pairs of the query string, which count as params.
    pub query: Vec<Entry>,
    /// Parts of the query string that are a variable whose value is not known
    /// (`?{{report_params}}`): they may hold any params, which are not known.
    pub unknown_query: Vec<Span>,
    /// The host of a full URL as written (with any port or user part), else `None`.
    pub host: Option<String>,
    /// The variable a URL starts with that stands for its base (`{{base_url}}/v25.0/…`),
    /// its value unknown: its name.
    pub base_variable: Option<String>,
    /// The version segment of an advertising path.
    pub version: Option<(Version, Span)>,
}

/// Why a request line could not be read, with the fix where there is one.
#[derive(Clone, Debug, PartialEq)]
pub struct LineError {
    pub span: Span,
    pub message: String,
    pub help: Option<String>,
    /// The text that corrects the line at `span`, where there is one right answer (a
    /// method in capitals).
    pub fix: Option<String>,
}

impl LineError {
    fn new(span: Span, message: impl Into<String>, help: Option<String>) -> Self {
        LineError {
            span,
            message: message.into(),
            help,
            fix: None,
        }
    }
}

/// The values of `{{name}}` references a file's requests may use (a collection's
/// variables, an environment's), substituted within the file's limits.
pub type Variables<'v> = &'v dyn crate::loading::encoded::Lookup;

/// A string value with its source map, for spans of parts of it; known `{{name}}`
/// references are substituted, with spans on the reference.
struct Text<'a> {
    value: std::borrow::Cow<'a, str>,
    map: SourceMap,
}

impl<'a> Text<'a> {
    fn of(node: &'a Node, file: &str, vars: Variables<'_>) -> Option<Text<'a>> {
        let (value, map): (std::borrow::Cow<'a, str>, SourceMap) = match &node.value {
            Value::Seq(pieces) => {
                let (value, map) = assembled(pieces, file, node.span)?;
                (value.into(), map)
            }
            _ => {
                let value = node.as_str()?;
                (value.into(), SourceMap::for_scalar(file, node.span, value))
            }
        };
        Some(
            match crate::loading::encoded::substitute(&value, &map, vars) {
                Some((value, map)) => Text {
                    value: value.into(),
                    map,
                },
                None => Text { value, map },
            },
        )
    }

    fn span(&self, start: usize, end: usize) -> Span {
        self.map.span(start..end)
    }
}

/// A URL a reader gives in pieces (a Postman URL object's protocol, host, path segments
/// and query pairs, with the separators between them): their texts joined, each byte
/// mapped to where its piece is written; a separator the reader adds has an empty span,
/// at the piece it stands before.
fn assembled(pieces: &[Node], file: &str, whole: Span) -> Option<(String, SourceMap)> {
    use crate::loading::encoded::{Origin, Piece};
    let mut value = String::new();
    // Where each byte of the pieces starts, and after each piece one entry for where it
    // ends: a byte's span ends where the next entry starts, never at the next piece.
    let mut table = Vec::new();
    let mut runs = Vec::new();
    for piece in pieces {
        let text = piece.as_str()?;
        crate::loading::work::count(text.len());
        let map = SourceMap::for_scalar(file, piece.span, text);
        runs.push(Piece {
            at: value.len(),
            origin: Origin::Written(table.len()),
        });
        for i in 0..text.len() {
            table.push(map.span(i..i + 1).start);
        }
        table.push(map.span(0..text.len()).end);
        value.push_str(text);
    }
    if value.is_empty() {
        // Nothing to map: a diagnostic about the empty URL points at all of it.
        return Some((value, SourceMap::Whole(whole)));
    }
    table.push(table.last().copied().unwrap_or_default());
    let len = value.len();
    Some((
        value,
        SourceMap::Pieces {
            written: Box::new(SourceMap::Table(table)),
            pieces: runs,
            len,
        },
    ))
}

/// Where the `://` after a URL's scheme is. A path (`/…`) has no scheme, though its query
/// may hold a URL (`/v24.0/x?redirect=https://…`).
fn scheme_end(full: &str) -> Option<usize> {
    if full.starts_with('/') {
        None
    } else {
        full.find("://")
    }
}

fn not_a_string(node: &Node, what: &str) -> LineError {
    LineError::new(
        node.span,
        format!("{what} must be a string, not {}", node.kind_name()),
        None,
    )
}

/// Reads `request: "METHOD PATH"`.
pub fn parse_request_line(
    node: &Node,
    file: &str,
    vars: Variables<'_>,
) -> Result<RequestLine, LineError> {
    let text = Text::of(node, file, vars).ok_or_else(|| not_a_string(node, "`request`"))?;
    let value: &str = &text.value;
    let lead = value.len() - value.trim_start().len();
    let trimmed = value.trim();
    if trimmed.is_empty() {
        return Err(LineError::new(
            node.span,
            "empty request line",
            Some("write it as `METHOD PATH`, for example `GET /user/emails`".into()),
        ));
    }
    let method_end = trimmed.find(char::is_whitespace).unwrap_or(trimmed.len());
    let method_text = &trimmed[..method_end];
    if method_end == trimmed.len() {
        // No space: `POST/v24.0/...`, or a lone path or method.
        if let Some(slash) = method_text.find('/').filter(|&i| i > 0) {
            let (m, p) = method_text.split_at(slash);
            if let Some(method) = Method::parse(&m.to_ascii_uppercase()) {
                return Err(LineError::new(
                    text.span(lead + slash, lead + slash + 1),
                    "missing space between method and path",
                    Some(format!("write `{method} {p}`")),
                ));
            }
        }
        if method_text.starts_with('/') || method_text.contains("://") {
            return Err(LineError::new(
                text.span(lead, lead + method_end),
                "request line has no method",
                Some(format!(
                    "write `GET {method_text}`, or another of GET, POST, PUT, PATCH, DELETE"
                )),
            ));
        }
        return Err(LineError::new(
            text.span(lead, lead + method_end),
            "request line has no path",
            Some("write it as `METHOD PATH`, for example `GET /user/emails`".into()),
        ));
    }
    let method_span = text.span(lead, lead + method_end);
    let method = check_method(method_text, method_span)?;
    let after = &trimmed[method_end..];
    let path_lead = lead + method_end + (after.len() - after.trim_start().len());
    let path_text = after.trim();
    if path_text.contains(char::is_whitespace) {
        // The space may be a wide one (U+2028 is three bytes): the span covers the whole character.
        let (offset, space) = path_text
            .char_indices()
            .find(|&(_, c)| c.is_whitespace())
            .unwrap_or((0, ' '));
        let bad = path_lead + offset;
        return Err(LineError::new(
            text.span(bad, bad + space.len_utf8()),
            "request line has more than a method and a path",
            Some("write it as `METHOD PATH`; percent-encode spaces in the path as `%20`".into()),
        ));
    }
    let mut line = parse_path(&text, path_lead, path_text.len())?;
    line.method = method;
    line.method_span = method_span;
    Ok(line)
}

/// Reads the `method:` and `path:` (or `url:`) pair.
pub fn parse_method_and_path(
    method: &Node,
    path: &Node,
    file: &str,
    vars: Variables<'_>,
) -> Result<RequestLine, LineError> {
    let m = method
        .as_str()
        .ok_or_else(|| not_a_string(method, "`method`"))?;
    let method_value = check_method(m.trim(), method.span)?;
    let text = Text::of(path, file, vars).ok_or_else(|| not_a_string(path, "`path`"))?;
    let lead = text.value.len() - text.value.trim_start().len();
    let len = text.value.trim().len();
    let mut line = parse_path(&text, lead, len)?;
    line.method = method_value;
    line.method_span = method.span;
    Ok(line)
}

fn check_method(text: &str, span: Span) -> Result<Method, LineError> {
    if let Some(method) = Method::parse(text) {
        return Ok(method);
    }
    let upper = text.to_ascii_uppercase();
    if let Some(method) = Method::parse(&upper) {
        let mut e = LineError::new(
            span,
            format!("method `{text}` must be written in capitals"),
            Some(format!("write `{method}`")),
        );
        e.fix = Some(method.to_string());
        return Err(e);
    }
    let names = Method::ALL.map(Method::as_str);
    let help = match crate::suggest::did_you_mean(text, names) {
        Some(m) => format!("did you mean `{m}`? The methods are GET, POST, PUT, PATCH and DELETE"),
        None => "the methods are GET, POST, PUT, PATCH and DELETE".into(),
    };
    Err(LineError::new(
        span,
        format!("unknown method `{text}`"),
        Some(help),
    ))
}

/// Reads the path part: `text.value[start..start + len]`.
fn parse_path(text: &Text<'_>, start: usize, len: usize) -> Result<RequestLine, LineError> {
    let full = &text.value[start..start + len];
    if full.is_empty() {
        return Err(LineError::new(
            text.span(start, start),
            "empty path",
            Some("a path starts with `/`, for example `/user/emails`".into()),
        ));
    }
    // A full URL: scheme and host are ignored. A variable that stands for them and whose
    // value is not known (`{{base_url}}/v25.0/...`) is taken for them too.
    let mut path_start = start;
    let host_variable = full
        .strip_prefix("{{")
        .and_then(|rest| rest.find("}}"))
        .map(|close| close + 4)
        .filter(|&end| full[end..].is_empty() || full[end..].starts_with(['/', '?']));
    let base_variable = host_variable.map(|end| full[2..end - 2].trim().to_string());
    // A URL whose host (or base variable) is followed by nothing or a query asks for the
    // root, `/`, as HTTP clients send it (`https://api.github.com`, `{{api}}?q=1`; a
    // variable alone may also be a whole URL, which routing then leaves unjudged).
    let mut root = false;
    if let Some(end) = host_variable {
        path_start = start + end;
        root = full[end..].is_empty() || full[end..].starts_with('?');
    } else if let Some(scheme_end) = scheme_end(full) {
        let after_host = &full[scheme_end + 3..];
        match after_host.find(['/', '?', '#']) {
            Some(at) if after_host.as_bytes()[at] == b'/' => {
                path_start = start + scheme_end + 3 + at;
            }
            at => {
                path_start = start + scheme_end + 3 + at.unwrap_or(after_host.len());
                root = true;
            }
        }
    }
    let end = start + len;
    let rest = &text.value[path_start..end];
    // The memchr crate's search, where `str::find` with a char costs several times as
    // much on a path's few bytes.
    let (path_part, query_part) = match memchr::memchr(b'?', rest.as_bytes()) {
        Some(q) => (&rest[..q], Some((path_start + q + 1, &rest[q + 1..]))),
        None => (rest, None),
    };
    let path_part = if root {
        "/"
    } else {
        match memchr::memchr(b'#', path_part.as_bytes()) {
            Some(fragment) => &path_part[..fragment],
            None => path_part,
        }
    };
    if !path_part.starts_with('/') {
        return Err(LineError::new(
            text.span(path_start, path_start + path_part.len().max(1)),
            format!("path `{path_part}` must start with `/`"),
            Some(format!("write `/{path_part}`")),
        ));
    }
    let path_span = if root {
        text.span(path_start, path_start)
    } else {
        text.span(path_start, path_start + path_part.len())
    };
    // The segments between the slashes, found with one vector search of the path.
    let slashes = || memchr::memchr_iter(b'/', path_part.as_bytes()).chain([path_part.len()]);
    let mut segments = Vec::with_capacity(slashes().count() - 1);
    let mut from = 1;
    for to in slashes().skip(1) {
        if to > from {
            let offset = path_start + from;
            segments.push(Segment {
                text: path_part[from..to].into(),
                span: text.span(offset, offset + (to - from)),
            });
        }
        from = to + 1;
    }
    let version = segments
        .first()
        .and_then(|s| Version::parse(&s.text).map(|v| (v, s.span)));
    // A URL's parser drops every ASCII tab and line break (WHATWG URL Standard, basic URL
    // parser: https://url.spec.whatwg.org/#concept-basic-url-parser), as Postman and
    // Newman do with an environment's `https://api.github.com\t`.
    let host = scheme_end(full).map(|at| &full[at + 3..]).map(|h| {
        h.split(['/', '?', '#'])
            .next()
            .unwrap_or("")
            .replace(['\t', '\n', '\r'], "")
    });
    let mut query = Vec::new();
    let mut unknown_query = Vec::new();
    if let Some((q_start, q)) = query_part {
        let q = q.split('#').next().unwrap_or("");
        let mut at = q_start;
        for pair in q.split('&') {
            if is_one_reference(pair) {
                // A variable left as written stands for params whose names are not known.
                unknown_query.push(text.span(at, at + pair.len()));
            } else if !pair.is_empty() {
                let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
                let key_span = text.span(at, at + k.len());
                let v_start = at + k.len() + usize::from(pair.contains('='));
                let value_span = text.span(v_start, v_start + v.len());
                let decoded = percent_decode(v);
                let mut value = Node::new(value_span, Value::String(decoded.as_str().into()));
                // JSON in the query (`?targeting={...}`) is decoded like a JSON-encoded
                // param (docs/request-files.md), each of its nodes pointing where its
                // bytes are written, or at the reference they were substituted for; one
                // that does not parse stays a string.
                let _ = if decoded == v {
                    crate::loading::encoded::decode_mapped(
                        &mut value,
                        &|s, e| text.span(v_start + s, v_start + e),
                        &crate::loading::Limits::DEFAULT,
                    )
                } else {
                    crate::loading::encoded::decode_mapped(
                        &mut value,
                        &|_, _| value_span,
                        &crate::loading::Limits::DEFAULT,
                    )
                };
                query.push(Entry {
                    key: percent_decode(k).into(),
                    key_span,
                    value,
                });
            }
            at += pair.len() + 1;
        }
    }
    Ok(RequestLine {
        method: Method::Get,
        method_span: Span::default(),
        path: path_part.to_string(),
        path_span,
        segments,
        query,
        unknown_query,
        host,
        base_variable,
        version,
    })
}

/// `{{name}}` and nothing else.
fn is_one_reference(text: &str) -> bool {
    text.strip_prefix("{{")
        .and_then(|rest| rest.strip_suffix("}}"))
        .is_some_and(|name| !name.is_empty() && !name.contains(['{', '}']))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node(file: &str, value: &str) -> Node {
        let start = file.find(value).unwrap();
        Node::new(
            Span::new(start, start + value.len()),
            Value::String(value.into()),
        )
    }

    fn line(file: &str, value: &str) -> Result<RequestLine, LineError> {
        parse_request_line(
            &node(file, value),
            file,
            &crate::loading::encoded::NoVariables,
        )
    }

    #[test]
    fn advertising_line_with_version() {
        let file = "request: POST /v24.0/act_123/adsets";
        let l = line(file, "POST /v24.0/act_123/adsets").unwrap();
        assert_eq!(l.method, Method::Post);
        assert_eq!(
            l.version.unwrap().0,
            Version {
                major: 24,
                minor: 0
            }
        );
        assert_eq!(&file[l.version.unwrap().1.range()], "v24.0");
        assert_eq!(&file[l.segments[1].span.range()], "act_123");
        assert_eq!(&file[l.path_span.range()], "/v24.0/act_123/adsets");
    }

    #[test]
    fn a_url_in_the_query_of_a_path_is_no_host() {
        let file = "request: GET /v24.0/me?redirect_uri=https://example.com/back";
        let l = line(file, "GET /v24.0/me?redirect_uri=https://example.com/back").unwrap();
        assert_eq!(l.host, None);
        assert_eq!(l.path, "/v24.0/me");
        assert_eq!(l.query.len(), 1);
    }

    #[test]
    fn a_wide_space_in_the_path_is_pointed_at_whole() {
        let file = "request: POST /v24.0/act_1/adsets\u{2028}x";
        let value = "POST /v24.0/act_1/adsets\u{2028}x";
        let err = line(file, value).unwrap_err();
        assert_eq!(&file[err.span.range()], "\u{2028}");
    }

    /// A URL with nothing after its host, or only a query, asks for the root, as HTTP
    /// clients send it; so does a base variable alone (which may also be a whole URL).
    #[test]
    fn a_url_without_a_path_is_the_root() {
        for (written, host, base, query) in [
            ("https://api.github.com", Some("api.github.com"), None, 0),
            (
                "https://api.github.com?x=1",
                Some("api.github.com"),
                None,
                1,
            ),
            (
                "https://graph.facebook.com#top",
                Some("graph.facebook.com"),
                None,
                0,
            ),
            ("{{api}}?access_token=", None, Some("api"), 1),
            ("{{Media-URL}}", None, Some("Media-URL"), 0),
        ] {
            let file = format!("request: GET {written}");
            let l = line(&file, &format!("GET {written}")).unwrap();
            assert_eq!(l.path, "/", "{written}");
            assert!(l.segments.is_empty(), "{written}");
            assert_eq!(l.path_span.start, l.path_span.end, "{written}");
            assert_eq!(l.host.as_deref(), host, "{written}");
            assert_eq!(l.base_variable.as_deref(), base, "{written}");
            assert_eq!(l.query.len(), query, "{written}");
        }
    }

    /// A tab an environment's value leaves after the host is dropped, as a URL parser
    /// drops it.
    #[test]
    fn tabs_and_line_breaks_in_a_host_are_dropped() {
        let file = r#"{"info": {"name": "t", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"},
 "item": [{"name": "me", "request": {"method": "GET", "url": "{{base}}/user"}}],
 "variable": [{"key": "base", "value": "https://api.github.com\t"}]}"#;
        let (docs, problems) = crate::loading::read_text(
            file,
            crate::loading::Format::Json,
            &crate::loading::Limits::DEFAULT,
            &Default::default(),
        );
        assert!(problems.is_empty(), "{problems:?}");
        let model = crate::model::FileModel::build(&docs, file);
        let l = model.requests[0].line().unwrap();
        assert_eq!(l.host.as_deref(), Some("api.github.com"));
        assert_eq!(l.path, "/user");
    }

    #[test]
    fn full_url_and_query() {
        let file =
            "request: GET https://api.example.com/repos/acme/web/commits?per_page=30&q=a%20b";
        let l = line(
            file,
            "GET https://api.example.com/repos/acme/web/commits?per_page=30&q=a%20b",
        )
        .unwrap();
        assert_eq!(l.path, "/repos/acme/web/commits");
        assert_eq!(l.query.len(), 2);
        assert_eq!(l.query[0].key, "per_page");
        assert_eq!(&file[l.query[0].value.span.range()], "30");
        assert_eq!(l.query[1].value.as_str(), Some("a b"));
    }

    #[test]
    fn a_variable_that_is_the_whole_query_is_no_param() {
        for (value, unknown) in [
            ("GET /x?{{report_params}}", "{{report_params}}"),
            ("GET /x?{{q}}&limit=10", "{{q}}"),
            ("GET /x?limit=10&{{q.extra}}", "{{q.extra}}"),
        ] {
            let file = format!("request: {value}");
            let l = line(&file, value).unwrap();
            assert!(l.query.iter().all(|p| !p.key.contains("{{")), "{value}");
            assert_eq!(l.unknown_query.len(), 1, "{value}");
            assert_eq!(&file[l.unknown_query[0].range()], unknown);
        }
        // A variable as a value, or beside a name, is a param as before.
        let value = "GET /x?fields={{fields}}&{{a}}b";
        let file = format!("request: {value}");
        let l = line(&file, value).unwrap();
        assert_eq!(l.query.len(), 2);
        assert!(l.unknown_query.is_empty());
    }

    #[test]
    fn json_in_the_query_is_decoded_with_spans_inside_it() {
        let value = r#"GET /v24.0/1?time_range={"since":"2025-06-01","until":"2025-07-01"}"#;
        let file = format!("request: {value}");
        let l = line(&file, value).unwrap();
        let range = l.query[0].value.resolved();
        let since = range.get_value("since").unwrap();
        assert_eq!(&file[since.span.range()], "\"2025-06-01\"");
    }

    #[test]
    fn malformed_lines() {
        let file = "request: post /x";
        let e = line(file, "post /x").unwrap_err();
        assert_eq!(e.help.as_deref(), Some("write `POST`"));
        assert_eq!(&file[e.span.range()], "post");

        let file = "request: SEND /x";
        assert!(
            line(file, "SEND /x")
                .unwrap_err()
                .message
                .contains("unknown method")
        );

        let file = "request: POST v24.0/act_1/adsets";
        let e = line(file, "POST v24.0/act_1/adsets").unwrap_err();
        assert_eq!(e.help.as_deref(), Some("write `/v24.0/act_1/adsets`"));

        let file = "request: POST/v24.0/act_1/adsets";
        let e = line(file, "POST/v24.0/act_1/adsets").unwrap_err();
        assert!(e.message.contains("missing space"));
    }

    #[test]
    fn method_and_path_keys() {
        let file = "method: GET\npath: /user/emails";
        let l = parse_method_and_path(
            &node(file, "GET"),
            &node(file, "/user/emails"),
            file,
            &crate::loading::encoded::NoVariables,
        )
        .unwrap();
        assert_eq!(l.method, Method::Get);
        assert_eq!(&file[l.path_span.range()], "/user/emails");
    }

    #[test]
    fn versions() {
        assert_eq!(
            Version::parse("v24.0"),
            Some(Version {
                major: 24,
                minor: 0
            })
        );
        assert_eq!(Version::parse("v24"), None);
        assert_eq!(Version::parse("users"), None);
        assert!(Version::parse("v3.3").unwrap() < Version::parse("v24.0").unwrap());
    }
}
