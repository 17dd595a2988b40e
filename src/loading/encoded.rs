//! Strings inside the file: where each byte of a string value was written, and JSON
//! that is encoded in a string (docs/request-files.md), decoded with spans inside the string.

use std::ops::Range;
use std::rc::Rc;

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
    /// Variables were substituted (`{{base_url}}/act_{{account}}`): the result is a run
    /// of pieces, each either written in the value (mapped by `written`) or substituted
    /// (all its bytes span the reference that stands for them). One entry per piece, not
    /// per byte, so that the map costs what the references do, not what they expand to.
    Pieces {
        written: Box<SourceMap>,
        pieces: Vec<Piece>,
        len: usize,
    },
}

/// A run of a substituted value's bytes, from `at` up to the next piece.
#[derive(Clone, Debug, PartialEq)]
pub struct Piece {
    pub at: usize,
    pub origin: Origin,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Origin {
    /// Bytes written in the value, from this offset of the value on.
    Written(usize),
    /// A variable's value, standing for the reference at this span of the file.
    Substituted(Span),
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
        let double_quoted = raw.len() >= 2 && raw.starts_with('"') && raw.ends_with('"');
        if double_quoted && let Some(table) = quoted_table(raw, span.start, value) {
            return SourceMap::Table(table);
        }
        let decoded = if double_quoted {
            unescape_double_quoted(raw, span.start)
        } else if raw.len() >= 2 && raw.starts_with('\'') && raw.ends_with('\'') {
            unescape_single_quoted(raw, span.start)
        } else {
            None
        };
        match decoded {
            Some((text, table)) if text == value => SourceMap::Table(table),
            // Block scalars (`|`, `>`) and scalars over several lines: their lines are
            // the value's, less indentation, with line breaks folded into spaces.
            _ if raw.contains('\n') => {
                align_lines(raw, span.start, value).map_or(SourceMap::Whole(span), SourceMap::Table)
            }
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
            SourceMap::Pieces {
                written,
                pieces,
                len,
            } => {
                let byte = |i: usize| {
                    // The last piece that starts at or before the byte holds it.
                    let piece = &pieces[pieces.partition_point(|p| p.at <= i).max(1) - 1];
                    match piece.origin {
                        Origin::Written(from) => {
                            let at = from + (i - piece.at);
                            written.span(at..at + 1)
                        }
                        Origin::Substituted(span) => span,
                    }
                };
                if pieces.is_empty() || *len == 0 {
                    return Span::empty(0);
                }
                if range.start >= *len {
                    let end = byte(len - 1).end;
                    return Span::new(end, end);
                }
                let start = byte(range.start).start;
                if range.end <= range.start {
                    return Span::new(start, start);
                }
                let end = byte((range.end - 1).min(len - 1)).end;
                Span::new(start, end.max(start))
            }
        }
    }
}

/// Where `byte` first appears twice in a row in `text` (`{{`, `}}`). A two-byte `str`
/// search builds a searcher for every text; most texts hold neither byte, and `memchr`
/// skips them many bytes at a time.
pub fn find_doubled(text: &str, byte: u8) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut at = 0;
    while let Some(i) = memchr::memchr(byte, &bytes[at..]) {
        let i = at + i;
        if bytes.get(i + 1) == Some(&byte) {
            return Some(i);
        }
        at = i + 1;
    }
    None
}

/// Whether `text` holds a `{{`, the start of a reference.
pub fn has_reference(text: &str) -> bool {
    find_doubled(text, b'{').is_some()
}

/// The `{{name}}` references of a value, in order: each one's byte range and its name
/// (trimmed). One pass over the value: each search starts where the last one ended.
pub fn references(value: &str) -> impl Iterator<Item = (Range<usize>, &str)> {
    let mut at = 0;
    std::iter::from_fn(move || {
        let found = value.get(at..).and_then(|rest| {
            let open = at + find_doubled(rest, b'{')?;
            let close = open + 2 + find_doubled(&value[open + 2..], b'}')? + 2;
            Some((open, close))
        });
        let Some((open, close)) = found else {
            crate::loading::work::count(value.len().saturating_sub(at));
            at = value.len() + 1;
            return None;
        };
        crate::loading::work::count(close - at);
        at = close;
        Some((open..close, value[open + 2..close - 2].trim()))
    })
}

/// What a reference stands for.
pub enum Substitution {
    /// The variable's value.
    Value(Rc<str>),
    /// Nothing known: the reference stays as written.
    Unknown,
    /// A limit is reached: this reference and the rest of the value's stay as written.
    Stop,
}

/// What `{{name}}` references stand for, with the cost of substituting them bounded.
pub trait Lookup {
    /// What to substitute for the reference to `name` at `reference` (its span in the
    /// file) in a value where `substituted` bytes were substituted already.
    fn substitution(&self, name: &str, reference: Span, substituted: usize) -> Substitution;
}

/// No variables: every reference stays as written.
pub struct NoVariables;

impl Lookup for NoVariables {
    fn substitution(&self, _: &str, _: Span, _: usize) -> Substitution {
        Substitution::Unknown
    }
}

/// A value with its `{{name}}` references replaced by the values `lookup` gives, and the
/// map of the result to the file: written bytes keep their place, a substituted value
/// spans its reference. References `lookup` does not give stay as written. `None` when
/// nothing was substituted.
pub fn substitute(
    value: &str,
    map: &SourceMap,
    lookup: &dyn Lookup,
) -> Option<(String, SourceMap)> {
    if !has_reference(value) {
        return None;
    }
    let mut out = String::new();
    let mut pieces = Vec::new();
    let mut at = 0;
    let mut substituted = 0usize;
    for (range, name) in references(value) {
        let reference = map.span(range.clone());
        let v = match lookup.substitution(name, reference, substituted) {
            Substitution::Value(v) => v,
            Substitution::Unknown => continue,
            Substitution::Stop => break,
        };
        if at < range.start {
            pieces.push(Piece {
                at: out.len(),
                origin: Origin::Written(at),
            });
            out.push_str(&value[at..range.start]);
        }
        pieces.push(Piece {
            at: out.len(),
            origin: Origin::Substituted(reference),
        });
        out.push_str(&v);
        substituted += v.len();
        at = range.end;
    }
    if pieces.is_empty() {
        return None;
    }
    if at < value.len() {
        pieces.push(Piece {
            at: out.len(),
            origin: Origin::Written(at),
        });
        out.push_str(&value[at..]);
    }
    let len = out.len();
    Some((
        out,
        SourceMap::Pieces {
            written: Box::new(map.clone()),
            pieces,
            len,
        },
    ))
}

/// A table from the bytes of a multi-line scalar's value to file offsets, made by finding
/// each character of the value in the raw text in order. Only what YAML drops between
/// them may be passed over: a block scalar's header line, indentation, line breaks and
/// the quotes; a line break folded into a space maps to the line break. Anything else
/// (an escape) gives `None`, and the diagnostic points at the whole scalar rather than
/// at a wrong place.
fn align_lines(raw: &str, base: usize, value: &str) -> Option<Vec<usize>> {
    let bytes = raw.as_bytes();
    let mut at = 0;
    if raw.starts_with(['|', '>']) {
        at = raw.find('\n')? + 1;
    }
    let mut table = Vec::with_capacity(value.len() + 1);
    for c in value.chars() {
        let mut utf8 = [0u8; 4];
        let want = c.encode_utf8(&mut utf8).as_bytes();
        loop {
            let rest = bytes.get(at..)?;
            if rest.is_empty() {
                return None;
            }
            if rest.starts_with(want) {
                table.extend(std::iter::repeat_n(base + at, want.len()));
                at += want.len();
                break;
            }
            // A line break written `\r\n` is the value's one `\n`: a span ending at it
            // ends before the `\r`.
            if (c == ' ' || c == '\n') && rest.starts_with(b"\r\n") {
                table.extend(std::iter::repeat_n(base + at, want.len()));
                at += 2;
                break;
            }
            if (c == ' ' || c == '\n') && rest[0] == b'\n' {
                table.extend(std::iter::repeat_n(base + at, want.len()));
                at += 1;
                break;
            }
            if matches!(rest[0], b' ' | b'\t' | b'\n' | b'\r' | b'"' | b'\'') {
                at += 1;
                continue;
            }
            return None;
        }
    }
    table.push(base + at);
    Some(table)
}

/// The table [`unescape_double_quoted`] makes of a double-quoted string whose only
/// escapes are `\"`, `\\` and `\/` (JSON written in a YAML string), made by checking the
/// raw text against the value as it is read instead of decoding it into a string of its
/// own first; `None` when the raw text is not that of `value` that way.
fn quoted_table(raw: &str, base: usize, value: &str) -> Option<Vec<usize>> {
    let inner = &raw.as_bytes()[1..raw.len() - 1];
    let value = value.as_bytes();
    let mut table = Vec::with_capacity(value.len() + 1);
    let (mut i, mut j) = (0, 0);
    loop {
        let end = memchr::memchr3(b'\\', b'\n', b'\r', &inner[i..]).map_or(inner.len(), |n| i + n);
        let run = &inner[i..end];
        if value.get(j..j + run.len())? != run {
            return None;
        }
        table.extend(base + 1 + i..base + 1 + end);
        j += run.len();
        i = end;
        if i == inner.len() {
            break;
        }
        let escaped = *inner.get(i + 1)?;
        if inner[i] != b'\\'
            || !matches!(escaped, b'"' | b'\\' | b'/')
            || value.get(j) != Some(&escaped)
        {
            return None;
        }
        table.push(base + 1 + i);
        i += 2;
        j += 1;
    }
    if j != value.len() {
        return None;
    }
    table.push(base + raw.len() - 1);
    Some(table)
}

/// Decodes a double-quoted YAML or JSON string with a table from value bytes to file
/// offsets. Gives up on line folding, which a one-line JSON value never needs.
fn unescape_double_quoted(raw: &str, base: usize) -> Option<(String, Vec<usize>)> {
    let inner = &raw[1..raw.len() - 1];
    let bytes = inner.as_bytes();
    let mut text = String::with_capacity(inner.len());
    let mut table = Vec::with_capacity(inner.len() + 1);
    let mut i = 0;
    while i < inner.len() {
        i = copy_plain_run(inner, i, b'\\', base, &mut text, &mut table);
        if i == inner.len() {
            break;
        }
        if bytes[i] != b'\\' {
            return None;
        }
        let mut chars = inner[i + 1..]
            .char_indices()
            .map(|(k, c)| (i + 1 + k, c))
            .peekable();
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
        // Every byte of an escaped character maps to the escape's backslash.
        text.push(decoded);
        table.extend(std::iter::repeat_n(base + 1 + i, decoded.len_utf8()));
        i = chars.peek().map_or(inner.len(), |&(k, _)| k);
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

/// Copies the characters of a quoted scalar's `inner` text from `from` up to the next
/// `stop` byte or line break (the value's as they are) into `text`, each byte mapped to
/// its offset in the file (`base` is the opening quote's), a run at a time: a quoted
/// value is mostly such runs. Gives where the run ends.
fn copy_plain_run(
    inner: &str,
    from: usize,
    stop: u8,
    base: usize,
    text: &mut String,
    table: &mut Vec<usize>,
) -> usize {
    let end = memchr::memchr3(stop, b'\n', b'\r', &inner.as_bytes()[from..])
        .map_or(inner.len(), |n| from + n);
    text.push_str(&inner[from..end]);
    table.extend(base + 1 + from..base + 1 + end);
    end
}

fn unescape_single_quoted(raw: &str, base: usize) -> Option<(String, Vec<usize>)> {
    let inner = &raw[1..raw.len() - 1];
    let bytes = inner.as_bytes();
    let mut text = String::with_capacity(inner.len());
    let mut table = Vec::with_capacity(inner.len() + 1);
    let mut i = 0;
    while i < inner.len() {
        i = copy_plain_run(inner, i, b'\'', base, &mut text, &mut table);
        if i == inner.len() {
            break;
        }
        // A quote inside stands for itself only doubled: `''`.
        if bytes[i] != b'\'' || bytes.get(i + 1) != Some(&b'\'') {
            return None;
        }
        text.push('\'');
        table.push(base + 1 + i);
        i += 2;
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
    decode_mapped(node, &|start, end| map.span(start..end), limits)
}

/// Decodes a string node that looks like JSON in place into [`Value::EncodedJson`], the
/// decoded nodes' spans given by `map` from a byte range of the string (a value that
/// variables were substituted into maps each byte to where it was written, or to the
/// reference it stands for). On invalid JSON the node is left as it is and the problem
/// is returned.
pub fn decode_mapped(
    node: &mut Node,
    map: &dyn Fn(usize, usize) -> Span,
    limits: &Limits,
) -> Option<Problem> {
    let Value::String(text) = &node.value else {
        return None;
    };
    if !looks_like_json(text) {
        return None;
    }
    let mut problems = Vec::new();
    let decoded = json::parse_mapped(text, limits, &mut problems, &|start, end| map(start, end));
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

/// `%XX` escapes and `+` (a space) of a query string or a form body decoded; an escape
/// that is not one is kept as written.
pub fn percent_decode(text: &str) -> String {
    if !text.contains(['%', '+']) {
        return text.to_string();
    }
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' if i + 2 < bytes.len() => {
                let hex = std::str::from_utf8(&bytes[i + 1..i + 3]).ok();
                match hex.and_then(|h| u8::from_str_radix(h, 16).ok()) {
                    Some(b) => {
                        out.push(b);
                        i += 2;
                    }
                    None => out.push(b'%'),
                }
            }
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod substitute_tests {
    use super::*;

    #[test]
    fn substituted_values_span_their_reference() {
        let file = r#"url: "{{base}}/act_{{acct}}/campaigns?x={{nope}}""#;
        let start = file.find('"').unwrap();
        let span = Span::new(start, file.len());
        let value = "{{base}}/act_{{acct}}/campaigns?x={{nope}}";
        let map = SourceMap::for_scalar(file, span, value);
        struct Known;
        impl Lookup for Known {
            fn substitution(&self, name: &str, _: Span, _: usize) -> Substitution {
                match name {
                    "base" => Substitution::Value("https://graph.facebook.com/v25.0".into()),
                    "acct" => Substitution::Value("123".into()),
                    _ => Substitution::Unknown,
                }
            }
        }
        let lookup = Known;
        let (out, map) = substitute(value, &map, &lookup).unwrap();
        assert_eq!(
            out,
            "https://graph.facebook.com/v25.0/act_123/campaigns?x={{nope}}"
        );
        let at = |s: &str| {
            let i = out.find(s).unwrap();
            &file[map.span(i..i + s.len()).range()]
        };
        assert_eq!(at("v25.0"), "{{base}}");
        assert_eq!(at("act_123"), "act_{{acct}}");
        assert_eq!(at("campaigns"), "campaigns");
        assert_eq!(at("{{nope}}"), "{{nope}}");
        assert!(substitute("no refs", &SourceMap::Verbatim { base: 0 }, &lookup).is_none());
        assert!(substitute("{{nope}}", &SourceMap::Verbatim { base: 0 }, &lookup).is_none());
    }
}

#[cfg(test)]
mod tests {

    /// The file text a range of the value maps to.
    fn mapped<'f>(file: &'f str, raw: &str, value: &str, word: &str) -> &'f str {
        let start = file.find(raw).unwrap();
        let span = Span::new(start, start + raw.len());
        let at = value.find(word).unwrap();
        let s = SourceMap::for_scalar(file, span, value).span(at..at + word.len());
        &file[s.range()]
    }

    #[test]
    fn the_table_checked_against_the_value_is_the_decoded_table() {
        let value = "{\"a\":[\"b\\\\c/d\",\"é😀\"]}";
        for raw in [
            "\"{\\\"a\\\":[\\\"b\\\\\\\\c\\/d\\\",\\\"é😀\\\"]}\"",
            "\"{\\\"a\\\":[\\\"b\\\\\\\\c/d\\\",\\\"é😀\\\"]}\"",
        ] {
            let decoded = unescape_double_quoted(raw, 7).unwrap();
            assert_eq!(decoded.0, value, "{raw}");
            assert_eq!(quoted_table(raw, 7, value), Some(decoded.1), "{raw}");
        }
        // Another value, or an escape it does not read, is not its to map.
        let raw = "\"a\\\"b\"";
        assert_eq!(quoted_table(raw, 0, "a\"c"), None);
        assert_eq!(quoted_table(raw, 0, "a\"bb"), None);
        assert_eq!(quoted_table(raw, 0, "a\""), None);
        assert_eq!(quoted_table("\"a\\nb\"", 0, "a\nb"), None);
        assert_eq!(quoted_table("\"a\\\"", 0, "a\\"), None);
    }

    #[test]
    fn quoted_scalars_map_each_byte_across_runs_and_escapes() {
        // Runs of plain characters (one of two bytes among them), a `\"`, a `\u` escape
        // of a two-byte character, and the closing quote.
        let raw = "\"a\\\"\u{e9}\\u00e9b\"";
        assert_eq!(
            unescape_double_quoted(raw, 10),
            Some((
                "a\"\u{e9}\u{e9}b".to_string(),
                vec![11, 12, 14, 15, 16, 16, 22, 23]
            ))
        );
        assert_eq!(
            unescape_single_quoted("'it''s \u{e9}'", 0),
            Some(("it's \u{e9}".to_string(), vec![1, 2, 3, 5, 6, 7, 8, 9]))
        );
        for bad in ["\"a\\\"", "\"a\nb\"", "\"\\q\"", "\"\\ud800\""] {
            assert_eq!(unescape_double_quoted(bad, 0), None, "{bad:?}");
        }
        for bad in ["'a'b'", "'a\rb'", "'ab''c'd'"] {
            assert_eq!(unescape_single_quoted(bad, 0), None, "{bad:?}");
        }
    }

    #[test]
    fn block_scalars_map_exactly() {
        // Literal, with its header, indentation and a kept final line break.
        let raw = "|\n  one\n  two SECRET three\n";
        let file = format!("a: {raw}b: 1\n");
        let value = "one\ntwo SECRET three\n";
        assert_eq!(mapped(&file, raw, value, "SECRET"), "SECRET");
        let start = file.find("SECRET").unwrap();
        let s = SourceMap::for_scalar(&file, Span::new(3, 3 + raw.len()), value).span(8..14);
        assert_eq!(s, Span::new(start, start + 6));
        // Folded: a line break became a space.
        let raw = ">-\n    folded\n    text WORD here";
        let file = format!("key: {raw}\n");
        assert_eq!(mapped(&file, raw, "folded text WORD here", "WORD"), "WORD");
        assert_eq!(
            mapped(&file, raw, "folded text WORD here", "d t"),
            "d\n    t"
        );
        // A plain scalar over two lines.
        let raw = "first\n  second WORD";
        let file = format!("k: {raw}\n");
        assert_eq!(mapped(&file, raw, "first second WORD", "WORD"), "WORD");
    }

    #[test]
    fn a_crlf_line_break_is_not_part_of_the_line_before_it() {
        let raw = "|\r\n  gh api repos/o/r/issues/1\r\n  echo done\r\n";
        let file = format!("run: {raw}");
        let value = "gh api repos/o/r/issues/1\necho done\n";
        let end = value.find('\n').unwrap();
        let s = SourceMap::for_scalar(&file, Span::new(5, 5 + raw.len()), value).span(7..end);
        assert_eq!(&file[s.range()], "repos/o/r/issues/1");
    }

    #[test]
    fn what_cannot_be_aligned_points_at_the_whole_scalar() {
        // An escape in a multi-line double-quoted scalar: no exact map, the whole span.
        let raw = "\"a\\tb\n  c\"";
        let file = format!("k: {raw}\n");
        let span = Span::new(3, 3 + raw.len());
        let map = SourceMap::for_scalar(&file, span, "a\tb c");
        assert_eq!(map.span(0..1), span);
    }

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
