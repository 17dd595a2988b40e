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
        let at = lines
            .first()
            .map_or(line_span(delimiter_line), |l| line_span(l));
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
    // `< ./banner.png` (or `<@ ./banner.png`, with its variables substituted): the
    // content is a file's.
    let from_file = content
        .iter()
        .find(|l| !l.text.trim().is_empty())
        .is_some_and(|l| {
            let t = l.text.trim_start();
            t.starts_with("< ") || t.starts_with("<@")
        });
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

#[cfg(test)]
mod tests {
    use crate::loading::readers::{BODY_UNREAD_KEY, ReadOptions};
    use crate::loading::tree::Node;
    use crate::loading::{Limits, Problem, work};

    fn read(file: &str) -> (Vec<Node>, Vec<Problem>) {
        super::super::read(file, &Limits::DEFAULT, &ReadOptions::default())
    }

    /// The first request's params: each name and value as the file holds them at their
    /// spans, with the value read.
    fn params(file: &str) -> Vec<(String, String, String)> {
        let (docs, _) = read(file);
        let request = &docs[0].get_value("requests").unwrap().as_seq().unwrap()[0];
        request
            .get_value("params")
            .and_then(Node::as_map)
            .unwrap_or_default()
            .iter()
            .map(|e| {
                (
                    file[e.key_span.range()].to_string(),
                    file[e.value.span.range()].to_string(),
                    e.value.as_str().unwrap().to_string(),
                )
            })
            .collect()
    }

    fn unread(file: &str) -> bool {
        let (docs, _) = read(file);
        docs[0].get_value("requests").unwrap().as_seq().unwrap()[0]
            .get_value(BODY_UNREAD_KEY)
            .is_some()
    }

    const HEAD: &str = "POST https://graph.facebook.com/v25.0/act_1/advideos\nContent-Type: multipart/form-data; boundary=B\n\n";

    fn owned(items: &[(&str, &str, &str)]) -> Vec<(String, String, String)> {
        items
            .iter()
            .map(|(a, b, c)| (a.to_string(), b.to_string(), c.to_string()))
            .collect()
    }

    #[test]
    fn parts_are_params_with_spans_on_names_and_contents() {
        let file = format!(
            "{HEAD}--B\nContent-Disposition: form-data; name=\"title\"\n\nSpring\n--B\ncontent-disposition: form-data; name=description\nContent-Type: text/plain\n\nline one\nline two\n\n--B   \nContent-Disposition: form-data; name=\"empty\"\n\n--B--\nan epilogue, not sent\n"
        );
        assert_eq!(
            params(&file),
            owned(&[
                ("title", "Spring", "Spring"),
                ("description", "line one\nline two", "line one\nline two"),
                ("empty", "", ""),
            ])
        );
        let (_, problems) = read(&file);
        assert!(problems.is_empty(), "{problems:?}");
        assert!(!unread(&file));
    }

    #[test]
    fn quoted_boundaries_and_crlf() {
        let file = "POST /act_1/advideos\r\nContent-Type: multipart/form-data; boundary=\"--=_Part 1\"\r\n\r\n----=_Part 1\r\nContent-Disposition: form-data; name=\"na;me\"\r\n\r\nSpring\r\nteaser\r\n----=_Part 1--\r\n";
        assert_eq!(
            params(file),
            owned(&[("na;me", "Spring\r\nteaser", "Spring\r\nteaser")])
        );
        assert!(read(file).1.is_empty());
    }

    #[test]
    fn uploads_are_no_params_and_leave_the_body_incomplete() {
        let file = format!(
            "{HEAD}--B\nContent-Disposition: form-data; name=\"source\"; filename=\"v.mp4\"\n\nbytes\n--B\nContent-Disposition: form-data; name=\"thumb\"\n\n< ./thumb.png\n--B\nContent-Disposition: form-data; name=\"other\"\n\n<@ ./{{{{dir}}}}/x.png\n--B\nContent-Disposition: form-data; name=\"title\"\n\nT\n--B--\n"
        );
        assert_eq!(params(&file), owned(&[("title", "T", "T")]));
        assert!(unread(&file));
    }

    #[test]
    fn a_json_part_is_decoded_as_a_json_encoded_param() {
        let file = format!(
            "{HEAD}--B\nContent-Disposition: form-data; name=\"targeting\"\nContent-Type: application/json\n\n{{\"geo_locations\": {{\"countries\": [\"UK\"]}}}}\n--B--\n"
        );
        let (mut docs, problems) = read(&file);
        assert!(problems.is_empty(), "{problems:?}");
        let found = crate::loading::encoded_params::decode_encoded_params(
            &mut docs,
            &file,
            &Limits::DEFAULT,
            &["targeting"],
        );
        assert!(found.is_empty());
        let request = &docs[0].get_value("requests").unwrap().as_seq().unwrap()[0];
        let targeting = request
            .get_value("params")
            .unwrap()
            .get_value("targeting")
            .unwrap();
        let country = &targeting
            .resolved()
            .get_value("geo_locations")
            .unwrap()
            .get_value("countries")
            .unwrap()
            .as_seq()
            .unwrap()[0];
        assert_eq!(&file[country.span.range()], "\"UK\"");
    }

    #[test]
    fn broken_bodies_are_reported_never_guessed() {
        let problem = |body: &str, content_type: &str| {
            let file = format!(
                "POST /act_1/advideos\nContent-Type: multipart/form-data{content_type}\n\n{body}"
            );
            let (_, problems) = read(&file);
            assert_eq!(problems.len(), 1, "{body:?}: {problems:?}");
            (
                file[problems[0].span.range()].to_string(),
                unread(&file),
                params(&file).len(),
            )
        };
        // No closing line: reported at the last line, the parts read.
        assert_eq!(
            problem(
                "--B\nContent-Disposition: form-data; name=\"a\"\n\nx\n",
                "; boundary=B"
            ),
            ("x".to_string(), false, 1)
        );
        // Another boundary's parts: nothing read.
        assert_eq!(
            problem(
                "--C\nContent-Disposition: form-data; name=\"a\"\n\nx\n--C--\n",
                "; boundary=B"
            ),
            ("--C".to_string(), true, 0)
        );
        // No boundary in the header.
        assert_eq!(
            problem(
                "--C\nContent-Disposition: form-data; name=\"a\"\n\nx\n--C--\n",
                ""
            ),
            ("multipart/form-data".to_string(), true, 0)
        );
        // A part without a blank line, or without a name.
        assert_eq!(
            problem(
                "--B\nContent-Disposition: form-data; name=\"a\"\nx\n--B--\n",
                "; boundary=B"
            ),
            (
                "Content-Disposition: form-data; name=\"a\"".to_string(),
                true,
                0
            )
        );
        assert_eq!(
            problem(
                "--B\nContent-Type: text/plain\n\nx\n--B--\n",
                "; boundary=B"
            ),
            ("Content-Type: text/plain".to_string(), true, 0)
        );
        // A header line that is not one.
        assert_eq!(
            problem("--B\nnot a header\n\nx\n--B--\n", "; boundary=B"),
            ("not a header".to_string(), true, 0)
        );
        // Pairs under a multipart type are read as pairs, as before.
        let file = "POST /act_1/advideos\nContent-Type: multipart/form-data; boundary=B\n\ntitle=T&name=N\n";
        assert_eq!(params(file).len(), 2);
    }

    #[test]
    fn hostile_dispositions_neither_panic_nor_loop() {
        for value in [
            "form-data; name=\"",
            "form-data; name=\"a\\",
            "form-data; name=\"\\é\"; filename",
            "form-data;;;=;name",
            "form-data; name=é; filename*=UTF-8''x",
            "",
        ] {
            let file = format!("{HEAD}--B\nContent-Disposition: {value}\n\nx\n--B--\n");
            let _ = read(&file);
        }
    }

    #[test]
    fn the_work_grows_with_the_body() {
        let file = |n: usize| {
            let part = "--B\nContent-Disposition: form-data; name=\"title\"\n\nx\n".repeat(n);
            format!("{HEAD}{part}--B--\n")
        };
        let work = |n: usize| {
            let text = file(n);
            let ((docs, _), work) = work::measure(|| read(&text));
            let request = &docs[0].get_value("requests").unwrap().as_seq().unwrap()[0];
            assert_eq!(
                request.get_value("params").unwrap().as_map().unwrap().len(),
                n
            );
            work
        };
        let (small, large) = (work(1_000), work(10_000));
        assert!(large < small * 12, "{small} {large}");
        // One part whose content is 100,000 lines, and one line of 1 MB.
        let long = format!(
            "{HEAD}--B\nContent-Disposition: form-data; name=\"t\"\n\n{}--B--\n",
            "x\n".repeat(100_000)
        );
        assert_eq!(params(&long)[0].2.len(), 199_999);
        let wide = format!(
            "{HEAD}--B{}\nContent-Disposition: form-data; name=\"t\"\n\nx\n--B--\n",
            "-".repeat(1_000_000)
        );
        // Not a delimiter of `B`: a preamble, which is not sent as a part.
        assert!(read(&wide).1.is_empty());
        assert!(params(&wide).is_empty());
    }
}
