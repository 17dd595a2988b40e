//! A `multipart/form-data` body of parts with a boundary, as the JetBrains HTTP Client
//! and VS Code's REST Client send it (RFC 7578 over RFC 2046's delimiters):
//!
//! ```text
//! Content-Type: multipart/form-data; boundary=WebAppBoundary
//!
//! --WebAppBoundary
//! Content-Disposition: form-data; name="name"
//!
//! Spring banner
//! --WebAppBoundary
//! Content-Disposition: form-data; name="filename"; filename="banner.png"
//! Content-Type: image/png
//!
//! < ./banner.png
//! --WebAppBoundary--
//! ```
//!
//! Each part named by its `Content-Disposition` is a param, its content the value (the
//! lines between the blank line after its headers and the next delimiter, with their
//! line breaks but the last). A part with a `filename`, or whose content is a file
//! (`< ./banner.png`), is an upload: no param to judge. One pass over the lines.

use super::super::{Line, entry, string, syntax};
use crate::loading::span::Span;
use crate::loading::tree::Entry;
use crate::loading::{Problem, work};

/// What a body read as parts gave.
pub struct Parts {
    /// The parts that are params, with spans on the name and on the content.
    pub params: Vec<Entry>,
    /// A part uploads a file, or could not be read: params the request gives are not
    /// all known, so none is reported missing.
    pub incomplete: bool,
}

/// The `boundary` parameter of a `Content-Type` value (`multipart/form-data;
/// boundary=WebAppBoundary`, or quoted: `boundary="----=_Part 1"`); `None` without one
/// or with an empty one.
pub fn boundary(content_type: &str) -> Option<&str> {
    content_type.split(';').skip(1).find_map(|param| {
        let (key, value) = param.split_once('=')?;
        if !key.trim().eq_ignore_ascii_case("boundary") {
            return None;
        }
        let value = value.trim();
        let value = value
            .strip_prefix('"')
            .and_then(|v| v.strip_suffix('"'))
            .unwrap_or(value);
        (!value.is_empty()).then_some(value)
    })
}

/// What a delimiter line is.
#[derive(PartialEq)]
enum Delimiter {
    /// `--boundary`: a part follows.
    Part,
    /// `--boundary--`: the last part ended.
    Close,
}

/// `--boundary` or `--boundary--` as a whole line, with white space after it (RFC 2046's
/// transport padding).
fn delimiter(line: &str, boundary: &str) -> Option<Delimiter> {
    let rest = line.strip_prefix("--")?.strip_prefix(boundary)?;
    match rest.trim_end() {
        "" => Some(Delimiter::Part),
        "--" => Some(Delimiter::Close),
        _ => None,
    }
}

/// The body's parts, from its lines (`body`, the first and last of which are not
/// blank). `None` when no line of it is a delimiter of `boundary`: the body is not
/// parts (a problem is given when it looks like parts of another boundary).
pub fn read(
    text: &str,
    body: &[&Line<'_>],
    boundary: &str,
    problems: &mut Vec<Problem>,
) -> Option<Parts> {
    work::count(body.len());
    let Some(first) = body
        .iter()
        .position(|l| delimiter(l.text, boundary).is_some())
    else {
        if let Some(line) = body.iter().find(|l| l.text.starts_with("--")) {
            problems.push(syntax(
                line_span(line),
                format!(
                    "no line of this multipart body is `--{boundary}`, the boundary its \
                     `Content-Type` names: no part of it can be read"
                ),
            ));
        }
        return None;
    };
    let mut parts = Parts {
        params: Vec::new(),
        incomplete: false,
    };
    let mut at = first;
    let mut closed = false;
    while at < body.len() {
        // `body[at]` is a delimiter line.
        if delimiter(body[at].text, boundary) == Some(Delimiter::Close) {
            closed = true;
            break;
        }
        let from = at + 1;
        let to = body[from..]
            .iter()
            .position(|l| delimiter(l.text, boundary).is_some())
            .map_or(body.len(), |n| from + n);
        read_part(text, &body[from..to], body[at], &mut parts, problems);
        at = to;
    }
    if !closed {
        let last = body.last().map_or(Span::default(), |l| line_span(l));
        problems.push(syntax(
            last,
            format!(
                "this multipart body ends without its closing line `--{boundary}--`, which \
                 servers need to read the last part"
            ),
        ));
    }
    Some(parts)
}

fn line_span(line: &Line<'_>) -> Span {
    Span::new(line.start, line.start + line.text.len())
}

/// One part: its headers up to a blank line, then its content.
fn read_part(
    text: &str,
    lines: &[&Line<'_>],
    delimiter_line: &Line<'_>,
    parts: &mut Parts,
    problems: &mut Vec<Problem>,
) {
    let Some(blank) = lines.iter().position(|l| l.text.trim().is_empty()) else {
        let at = lines.first().map_or(line_span(delimiter_line), |l| line_span(l));
        problems.push(syntax(
            at,
            "a part of a multipart body is its headers, a blank line, then its content: \
             this part has no blank line",
        ));
        parts.incomplete = true;
        return;
    };
    let mut name = None;
    let mut upload = false;
    for line in &lines[..blank] {
        let Some((key, value)) = line.text.split_once(':') else {
            problems.push(syntax(
                line_span(line),
                "a header line of a multipart part is `Name: value`",
            ));
            parts.incomplete = true;
            return;
        };
        if key.trim().eq_ignore_ascii_case("content-disposition") {
            let value_start = line.start + key.len() + 1;
            let disposition = disposition(value, value_start);
            name = disposition.name;
            upload |= disposition.file;
        }
    }
    let Some((name, name_span)) = name else {
        let at = lines
            .first()
            .filter(|_| blank > 0)
            .map_or(line_span(delimiter_line), |l| line_span(l));
        problems.push(syntax(
            at,
            "a part of a multipart/form-data body needs a name: `Content-Disposition: \
             form-data; name=\"…\"`",
        ));
        parts.incomplete = true;
        return;
    };
    // Blank lines before the next delimiter set the part off in the file; they are not
    // taken for its value.
    let mut content = &lines[blank + 1..];
    while let Some((last, rest)) = content.split_last()
        && last.text.trim().is_empty()
    {
        content = rest;
    }
    let span = match (content.first(), content.last()) {
        (Some(first), Some(last)) => Span::new(first.start, last.start + last.text.len()),
        // No content: an empty value where the next delimiter starts.
        _ => {
            let end = lines
                .last()
                .map_or(delimiter_line.start, |l| l.start + l.text.len());
            Span::empty(end)
        }
    };
    // `< ./banner.png`: the content is a file's.
    let from_file = content
        .iter()
        .find(|l| !l.text.trim().is_empty())
        .is_some_and(|l| l.text.trim_start().starts_with("< "));
    if upload || from_file {
        parts.incomplete = true;
        return;
    }
    parts
        .params
        .push(entry(&name, name_span, string(span, &text[span.range()])));
}

/// What a `Content-Disposition` value says of a part.
struct Disposition {
    /// The `name` parameter, and its span (inside its quotes).
    name: Option<(String, Span)>,
    /// A `filename` (or `filename*`) parameter: the part uploads a file.
    file: bool,
}

/// `form-data; name="field"; filename="x.png"`, written at `start` of the file. Quoted
/// values may hold `;`; a quote inside one is escaped with `\`.
fn disposition(value: &str, start: usize) -> Disposition {
    let mut out = Disposition {
        name: None,
        file: false,
    };
    let bytes = value.as_bytes();
    let mut at = 0;
    // The disposition type (`form-data`), then each parameter.
    while at < bytes.len() && bytes[at] != b';' {
        at += 1;
    }
    while at < bytes.len() {
        at += 1; // the `;`
        let key_start = at;
        while at < bytes.len() && bytes[at] != b'=' && bytes[at] != b';' {
            at += 1;
        }
        let key = value[key_start..at].trim();
        if at >= bytes.len() || bytes[at] == b';' {
            continue;
        }
        at += 1; // the `=`
        while at < bytes.len() && bytes[at] == b' ' {
            at += 1;
        }
        let (param, param_start) = if bytes.get(at) == Some(&b'"') {
            at += 1;
            let from = at;
            while at < bytes.len() && bytes[at] != b'"' {
                at += if bytes[at] == b'\\' { 2 } else { 1 };
            }
            let to = at.min(bytes.len());
            at = (at + 1).min(bytes.len());
            while at < bytes.len() && bytes[at] != b';' {
                at += 1;
            }
            (&value[from..to], from)
        } else {
            let from = at;
            while at < bytes.len() && bytes[at] != b';' {
                at += 1;
            }
            (value[from..at].trim_end(), from)
        };
        if key.eq_ignore_ascii_case("name") {
            let span = Span::new(start + param_start, start + param_start + param.len());
            out.name = Some((param.replace("\\\"", "\""), span));
        } else if key.eq_ignore_ascii_case("filename") || key.eq_ignore_ascii_case("filename*") {
            out.file = true;
        }
    }
    out
}
