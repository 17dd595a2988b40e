//! Strings inside the file: where each byte of a string value was written, and JSON
//! that is encoded in a string (SPEC 1.1), decoded with spans inside the string.

use std::ops::Range;

use super::json;
use super::span::Span;
use super::tree::{Node, Value};
use super::{Limits, Problem};

/// Where the bytes of a string value stand in the file.
#[derive(Clone, Debug, PartialEq)]
pub enum SourceMap {
    /// The value is written as it is: value byte `i` is file byte `base + i`.
    Verbatim { base: usize },
    /// Escapes were decoded: `table[i]` is the file offset of value byte `i`, and one
    /// more entry for the end of the value.
    Table(Vec<usize>),
    /// The value cannot be mapped byte for byte (a folded or block scalar): every range
    /// maps to the whole scalar.
    Whole(Span),
}

impl SourceMap {
    /// The map of a string node: `value` is its decoded text, `file` the file's text.
    pub fn for_scalar(file: &str, span: Span, value: &str) -> SourceMap {
        let Some(raw) = file.get(span.range()) else {
            return SourceMap::Whole(span);
        };
        if raw == value {
            return SourceMap::Verbatim { base: span.start };
        }
        let decoded = if raw.len() >= 2 && raw.starts_with('"') && raw.ends_with('"') {
            unescape_double_quoted(raw, span.start)
        } else if raw.len() >= 2 && raw.starts_with('\'') && raw.ends_with('\'') {
            unescape_single_quoted(raw, span.start)
        } else {
            None
        };
        match decoded {
            Some((text, table)) if text == value => SourceMap::Table(table),
            _ => SourceMap::Whole(span),
        }
    }

    /// The file span of a byte range of the value.
    pub fn span(&self, range: Range<usize>) -> Span {
        match self {
            SourceMap::Verbatim { base } => Span::new(base + range.start, base + range.end),
            SourceMap::Table(table) => {
                let last = table.len() - 1;
                let start = table[range.start.min(last)];
                let end = table[range.end.min(last)];
                // A range ending on the last byte of an escape ends after the escape.
                Span::new(start, end.max(start))
            }
            SourceMap::Whole(span) => *span,
        }
    }
}

/// Decodes a double-quoted YAML or JSON string with a table from value bytes to file
/// offsets. Gives up on line folding, which a one-line JSON value never needs.
fn unescape_double_quoted(raw: &str, base: usize) -> Option<(String, Vec<usize>)> {
    let inner = &raw[1..raw.len() - 1];
    let mut text = String::with_capacity(inner.len());
    let mut table = Vec::with_capacity(inner.len() + 1);
    let mut chars = inner.char_indices().peekable();
    let push = |text: &mut String, table: &mut Vec<usize>, c: char, at: usize| {
        text.push(c);
        table.extend(std::iter::repeat_n(base + 1 + at, c.len_utf8()));
    };
    while let Some((i, c)) = chars.next() {
        match c {
            '\n' | '\r' => return None,
            '\\' => {
                let (_, e) = chars.next()?;
                let decoded = match e {
                    'n' => '\n',
                    't' | '\t' => '\t',
                    'r' => '\r',
                    '"' => '"',
                    '\\' => '\\',
                    '/' => '/',
                    'b' => '\u{8}',
                    'f' => '\u{c}',
                    '0' => '\0',
                    'a' => '\u{7}',
                    'v' => '\u{b}',
                    'e' => '\u{1b}',
                    ' ' => ' ',
                    'N' => '\u{85}',
                    '_' => '\u{a0}',
                    'L' => '\u{2028}',
                    'P' => '\u{2029}',
                    'x' => hex_char(&mut chars, 2)?,
                    'U' => hex_char(&mut chars, 8)?,
                    'u' => {
                        let hi = hex_value(&mut chars, 4)?;
                        if (0xD800..0xDC00).contains(&hi) {
                            if chars.next()?.1 != '\\' || chars.next()?.1 != 'u' {
                                return None;
                            }
                            let lo = hex_value(&mut chars, 4)?;
                            if !(0xDC00..0xE000).contains(&lo) {
                                return None;
                            }
                            char::from_u32(0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00))?
                        } else {
                            char::from_u32(hi)?
                        }
                    }
                    _ => return None,
                };
                push(&mut text, &mut table, decoded, i);
            }
            c => {
                text.push(c);
                table.extend((0..c.len_utf8()).map(|k| base + 1 + i + k));
            }
        }
    }
    table.push(base + raw.len() - 1);
    Some((text, table))
}

fn hex_value(chars: &mut impl Iterator<Item = (usize, char)>, digits: usize) -> Option<u32> {
    let mut v = 0u32;
    for _ in 0..digits {
        v = v * 16 + chars.next()?.1.to_digit(16)?;
    }
    Some(v)
}

fn hex_char(chars: &mut impl Iterator<Item = (usize, char)>, digits: usize) -> Option<char> {
    char::from_u32(hex_value(chars, digits)?)
}

fn unescape_single_quoted(raw: &str, base: usize) -> Option<(String, Vec<usize>)> {
    let inner = &raw[1..raw.len() - 1];
    let mut text = String::with_capacity(inner.len());
    let mut table = Vec::with_capacity(inner.len() + 1);
    let mut chars = inner.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        match c {
            '\n' | '\r' => return None,
            '\'' => {
                chars.next().filter(|&(_, q)| q == '\'')?;
                text.push('\'');
                table.push(base + 1 + i);
            }
            c => {
                text.push(c);
                table.extend((0..c.len_utf8()).map(|k| base + 1 + i + k));
            }
        }
    }
    table.push(base + raw.len() - 1);
    Some((text, table))
}

/// Whether a string value looks like JSON that the API would decode.
pub fn looks_like_json(text: &str) -> bool {
    matches!(text.trim_start().as_bytes().first(), Some(b'{' | b'['))
}

/// Decodes a JSON-encoded string node in place into [`Value::EncodedJson`], spans
/// pointing inside the string. On invalid JSON the node is left as it is and the
/// problem, with a span inside the string, is returned.
pub fn decode_in_place(node: &mut Node, file: &str, limits: &Limits) -> Option<Problem> {
    let Value::String(text) = &node.value else {
        return None;
    };
    if !looks_like_json(text) {
        return None;
    }
    let map = SourceMap::for_scalar(file, node.span, text);
    let mut problems = Vec::new();
    let decoded = json::parse_mapped(text, limits, &mut problems, &|start, end| {
        map.span(start..end)
    });
    match decoded {
        Some(decoded) => {
            let Value::String(text) = std::mem::replace(&mut node.value, Value::Null) else {
                unreachable!("checked above")
            };
            node.value = Value::EncodedJson {
                text,
                decoded: Box::new(decoded),
            };
            problems.into_iter().next()
        }
        None => problems.into_iter().next(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::loading::{Format, Limits, parse_text};

    fn first_doc(text: &str, format: Format) -> Node {
        let (mut docs, problems) = parse_text(text, format, &Limits::DEFAULT);
        assert!(problems.is_empty(), "{problems:?}");
        docs.remove(0)
    }

    fn decoded_countries_span(text: &str, format: Format) -> Span {
        let mut doc = first_doc(text, format);
        let Value::Map(entries) = &mut doc.value else {
            panic!()
        };
        let targeting = &mut entries[0].value;
        assert_eq!(decode_in_place(targeting, text, &Limits::DEFAULT), None);
        let countries = targeting
            .resolved()
            .get_value("geo_locations")
            .unwrap()
            .get_value("countries")
            .unwrap();
        countries.as_seq().unwrap()[0].span
    }

    #[test]
    fn json_string_in_yaml_single_quotes() {
        let text = "targeting: '{\"geo_locations\": {\"countries\": [\"DE\"]}}'\n";
        let span = decoded_countries_span(text, Format::Yaml);
        assert_eq!(&text[span.range()], "\"DE\"");
    }

    #[test]
    fn json_string_in_yaml_double_quotes_with_escapes() {
        let text = "targeting: \"{\\\"geo_locations\\\": {\\\"countries\\\": [\\\"DE\\\"]}}\"\n";
        let span = decoded_countries_span(text, Format::Yaml);
        assert_eq!(&text[span.range()], "\\\"DE\\\"");
    }

    #[test]
    fn json_string_in_json_file() {
        let text = r#"{"targeting": "{\"geo_locations\":{\"countries\":[\"FR\"]}}"}"#;
        let span = decoded_countries_span(text, Format::Json);
        assert_eq!(&text[span.range()], "\\\"FR\\\"");
    }

    #[test]
    fn json_string_with_multibyte_and_unicode_escapes() {
        let text = "{\"targeting\": \"{\\\"n\\\":\\\"\\u00e9t\u{e9}\\\",\\\"geo_locations\\\":{\\\"countries\\\":[\\\"IT\\\"]}}\"}";
        let span = decoded_countries_span(text, Format::Json);
        assert_eq!(&text[span.range()], "\\\"IT\\\"");
    }

    #[test]
    fn block_scalar_maps_to_the_whole_string() {
        let text = "targeting: |\n  {\"geo_locations\": {\"countries\": [\"DE\"]}}\n";
        let span = decoded_countries_span(text, Format::Yaml);
        assert!(text[span.range()].contains("\"DE\""));
    }

    #[test]
    fn invalid_json_points_inside_the_string() {
        let text = "targeting: '{\"geo_locations\": [}'\n";
        let mut doc = first_doc(text, Format::Yaml);
        let Value::Map(entries) = &mut doc.value else {
            panic!()
        };
        let problem = decode_in_place(&mut entries[0].value, text, &Limits::DEFAULT).unwrap();
        assert!(problem.span.start > text.find('\'').unwrap());
        assert!(matches!(entries[0].value.value, Value::String(_)));
    }

    #[test]
    fn verbatim_and_table_maps() {
        let text = "a: plain\nb: \"x\\ty\"\n";
        let map = SourceMap::for_scalar(text, Span::new(3, 8), "plain");
        assert_eq!(map.span(1..3), Span::new(4, 6));
        let map = SourceMap::for_scalar(text, Span::new(12, 18), "x\ty");
        assert_eq!(map.span(2..3), Span::new(16, 17));
        assert_eq!(map.span(1..2), Span::new(14, 16));
    }
}
