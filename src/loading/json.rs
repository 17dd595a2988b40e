//! Strict JSON (RFC 8259) straight into [`Node`] trees: byte spans for every key and
//! value, duplicate keys kept for a diagnostic, nesting and size limits enforced while
//! parsing. Hand-written so that a file is read in one pass with one allocation a
//! string, at several hundred MB/s.

use super::span::Span;
use super::tree::{Entry, Node, Text, Value};
use super::{Limits, MapEntries, Problem, ProblemKind};

pub fn parse(text: &str, limits: &Limits) -> (Vec<Node>, Vec<Problem>) {
    let mut problems = Vec::new();
    let node = parse_mapped(text, limits, &mut problems, &Span::new);
    (node.into_iter().collect(), problems)
}

fn bom_len(text: &str) -> usize {
    if text.starts_with('\u{feff}') { 3 } else { 0 }
}

/// Parses `text` as one JSON value; `map` turns a byte range of `text` (a leading BOM
/// counted, though it is not parsed) into a span of the file, so that JSON inside a
/// string, or a body inside a file, gets file spans.
pub(super) fn parse_mapped<M: Fn(usize, usize) -> Span>(
    text: &str,
    limits: &Limits,
    problems: &mut Vec<Problem>,
    map: &M,
) -> Option<Node> {
    let bom = bom_len(text);
    let body = &text[bom..];
    let shifted = |start: usize, end: usize| map(start + bom, end + bom);
    let mut p = Parser {
        text: body,
        bytes: body.as_bytes(),
        pos: 0,
        limits,
        map: &shifted,
        nodes: 0,
        problems: Vec::new(),
    };
    let result = p.document();
    super::work::count(p.pos);
    problems.append(&mut p.problems);
    match result {
        Ok(node) => Some(node),
        Err(e) => {
            problems.push(Problem::new(e.kind, shifted(e.at, e.end), e.message));
            None
        }
    }
}

/// The first offset at or after `pos` that ends a string's plain run: a quote, a backslash
/// or a control character (or the end). Eight bytes at a time: strings are most of a
/// JSON file's bytes.
fn plain_run_end(b: &[u8], mut pos: usize) -> usize {
    const ONES: u64 = u64::from_le_bytes([0x01; 8]);
    const HIGH: u64 = u64::from_le_bytes([0x80; 8]);
    // High bit of each byte of `v` that is below `n` (n <= 0x80); above the first such
    // byte a borrow may flag more, so only the lowest flagged byte is to be trusted.
    let below = |v: u64, n: u8| v.wrapping_sub(ONES * u64::from(n)) & !v & HIGH;
    while let Some(chunk) = b.get(pos..pos + 8) {
        let word = u64::from_le_bytes(chunk.try_into().unwrap_or([0; 8]));
        let found = below(word ^ (ONES * u64::from(b'"')), 1)
            | below(word ^ (ONES * u64::from(b'\\')), 1)
            | below(word, 0x20);
        if found != 0 {
            return pos + (found.trailing_zeros() / 8) as usize;
        }
        pos += 8;
    }
    while let Some(&c) = b.get(pos) {
        if c == b'"' || c == b'\\' || c < 0x20 {
            break;
        }
        pos += 1;
    }
    pos
}

struct Error {
    kind: ProblemKind,
    at: usize,
    end: usize,
    message: String,
}

/// Generic over the span map (not `dyn`): it runs for every key and value, and inlined it
/// costs an addition.
struct Parser<'a, M> {
    text: &'a str,
    bytes: &'a [u8],
    pos: usize,
    limits: &'a Limits,
    map: &'a M,
    nodes: usize,
    problems: Vec<Problem>,
}

impl<M: Fn(usize, usize) -> Span> Parser<'_, M> {
    fn span(&self, start: usize, end: usize) -> Span {
        (self.map)(start, end)
    }

    fn error<T>(&self, at: usize, message: impl Into<String>) -> Result<T, Error> {
        let end = self.text[at..]
            .chars()
            .next()
            .map_or(at, |c| at + c.len_utf8());
        Err(Error {
            kind: ProblemKind::Syntax,
            at,
            end,
            message: format!("invalid JSON: {}", message.into()),
        })
    }

    fn found(&self) -> String {
        match self.text[self.pos..].chars().next() {
            None => "the end of the file".into(),
            Some(c) if c.is_control() => format!("{c:?}"),
            Some(c) => format!("`{c}`"),
        }
    }

    fn skip_ws(&mut self) {
        // Indentation comes in runs of spaces: eight at a time.
        const SPACES: u64 = u64::from_ne_bytes([b' '; 8]);
        while let Some(word) = self.bytes.get(self.pos..self.pos + 8) {
            if word != SPACES.to_ne_bytes() {
                break;
            }
            self.pos += 8;
        }
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.bytes.get(self.pos) {
            self.pos += 1;
        }
    }

    fn document(&mut self) -> Result<Node, Error> {
        self.skip_ws();
        if self.pos == self.bytes.len() {
            return self.error(self.pos, "the file holds no value");
        }
        let node = self.value(0)?;
        self.skip_ws();
        if self.pos != self.bytes.len() {
            return self.error(
                self.pos,
                format!("unexpected {} after the value", self.found()),
            );
        }
        Ok(node)
    }

    fn count(&mut self, at: usize) -> Result<(), Error> {
        self.nodes += 1;
        if self.nodes > self.limits.max_nodes {
            return Err(Error {
                kind: ProblemKind::Limit,
                at,
                end: at,
                message: format!(
                    "more than {} values in one file; the rest was not read",
                    self.limits.max_nodes
                ),
            });
        }
        Ok(())
    }

    fn value(&mut self, depth: usize) -> Result<Node, Error> {
        let start = self.pos;
        self.count(start)?;
        match self.bytes.get(self.pos) {
            Some(b'{') => self.object(depth),
            Some(b'[') => self.array(depth),
            Some(b'"') => {
                let s = self.string()?;
                Ok(Node::new(self.span(start, self.pos), Value::String(s)))
            }
            Some(b't') => self.literal("true", Value::Bool(true)),
            Some(b'f') => self.literal("false", Value::Bool(false)),
            Some(b'n') => self.literal("null", Value::Null),
            Some(b'-' | b'0'..=b'9') => self.number(),
            _ => self.error(start, format!("expected a value, found {}", self.found())),
        }
    }

    fn literal(&mut self, word: &str, value: Value) -> Result<Node, Error> {
        let start = self.pos;
        if self.text[start..].starts_with(word) {
            self.pos += word.len();
            Ok(Node::new(self.span(start, self.pos), value))
        } else {
            self.error(start, format!("expected a value, found {}", self.found()))
        }
    }

    fn number(&mut self) -> Result<Node, Error> {
        let start = self.pos;
        let b = self.bytes;
        let digits = |pos: &mut usize| {
            let from = *pos;
            while b.get(*pos).is_some_and(u8::is_ascii_digit) {
                *pos += 1;
            }
            *pos - from
        };
        let mut pos = self.pos;
        if b[pos] == b'-' {
            pos += 1;
        }
        match b.get(pos) {
            Some(b'0') => pos += 1,
            Some(b'1'..=b'9') => {
                digits(&mut pos);
            }
            _ => return self.error(pos.min(b.len()), "a number needs digits"),
        }
        if b.get(pos) == Some(&b'.') {
            pos += 1;
            if digits(&mut pos) == 0 {
                return self.error(pos.min(b.len()), "a number needs digits after `.`");
            }
        }
        if matches!(b.get(pos), Some(b'e' | b'E')) {
            pos += 1;
            if matches!(b.get(pos), Some(b'+' | b'-')) {
                pos += 1;
            }
            if digits(&mut pos) == 0 {
                return self.error(pos.min(b.len()), "a number needs digits in its exponent");
            }
        }
        self.pos = pos;
        Ok(Node::new(
            self.span(start, pos),
            Value::Number(Text::from(&self.text[start..pos])),
        ))
    }

    /// A string at `self.pos` (its opening quote); returns its value.
    fn string(&mut self) -> Result<Text, Error> {
        let b = self.bytes;
        let start = self.pos + 1;
        let mut pos = plain_run_end(b, start);
        // The common case: no escape, one copy.
        match b.get(pos) {
            Some(b'"') => {
                self.pos = pos + 1;
                return Ok(Text::from(&self.text[start..pos]));
            }
            Some(0..=0x1F) => {
                return self.error(pos, "a control character must be escaped in a string");
            }
            _ => {}
        }
        let mut out = Text::from(&self.text[start..pos]);
        loop {
            match b.get(pos) {
                None => return self.error(self.pos, "a string is not closed"),
                Some(b'"') => {
                    self.pos = pos + 1;
                    return Ok(out);
                }
                Some(b'\\') => {
                    let escape = pos;
                    let decoded = match b.get(pos + 1) {
                        Some(b'"') => '"',
                        Some(b'\\') => '\\',
                        Some(b'/') => '/',
                        Some(b'b') => '\u{8}',
                        Some(b'f') => '\u{c}',
                        Some(b'n') => '\n',
                        Some(b'r') => '\r',
                        Some(b't') => '\t',
                        Some(b'u') => {
                            let hi = self.hex4(pos + 2)?;
                            pos += 4;
                            if (0xD800..0xDC00).contains(&hi) {
                                if b.get(pos + 2) != Some(&b'\\') || b.get(pos + 3) != Some(&b'u') {
                                    return self.error(
                                        escape,
                                        "a high surrogate must be followed by a low one",
                                    );
                                }
                                let lo = self.hex4(pos + 4)?;
                                if !(0xDC00..0xE000).contains(&lo) {
                                    return self.error(
                                        escape,
                                        "a high surrogate must be followed by a low one",
                                    );
                                }
                                pos += 6;
                                char::from_u32(0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00))
                                    .unwrap_or('\u{FFFD}')
                            } else if (0xDC00..0xE000).contains(&hi) {
                                return self.error(escape, "a low surrogate without a high one");
                            } else {
                                char::from_u32(hi).unwrap_or('\u{FFFD}')
                            }
                        }
                        _ => return self.error(escape, "invalid escape in a string"),
                    };
                    out.push(decoded);
                    pos += 2;
                }
                Some(0..=0x1F) => {
                    return self.error(pos, "a control character must be escaped in a string");
                }
                Some(_) => {
                    // Copy up to the next quote or backslash at once.
                    let from = pos;
                    pos = plain_run_end(b, pos);
                    out.push_str(&self.text[from..pos]);
                }
            }
        }
    }

    fn hex4(&self, at: usize) -> Result<u32, Error> {
        let Some(h) = self
            .text
            .get(at..at + 4)
            .filter(|h| h.bytes().all(|c| c.is_ascii_hexdigit()))
        else {
            return self.error(at.min(self.text.len()), "`\\u` needs four hex digits");
        };
        Ok(u32::from_str_radix(h, 16).unwrap_or(0xFFFD))
    }

    fn nest(&self, depth: usize, start: usize) -> Result<(), Error> {
        if depth >= self.limits.max_depth {
            return Err(Error {
                kind: ProblemKind::Limit,
                at: start,
                end: start + 1,
                message: format!(
                    "nesting deeper than {} levels; the file was not read",
                    self.limits.max_depth
                ),
            });
        }
        Ok(())
    }

    fn array(&mut self, depth: usize) -> Result<Node, Error> {
        let start = self.pos;
        self.nest(depth, start)?;
        self.pos += 1;
        let mut items = Vec::new();
        self.skip_ws();
        if self.bytes.get(self.pos) == Some(&b']') {
            self.pos += 1;
            return Ok(Node::new(self.span(start, self.pos), Value::Seq(items)));
        }
        loop {
            self.skip_ws();
            items.push(self.value(depth + 1)?);
            if self.after_item(b']')? {
                return Ok(Node::new(self.span(start, self.pos), Value::Seq(items)));
            }
        }
    }

    fn object(&mut self, depth: usize) -> Result<Node, Error> {
        let start = self.pos;
        self.nest(depth, start)?;
        self.pos += 1;
        // Each object grows a vector of its own: a stack shared by the open objects (as
        // the YAML builder has) measured no faster here, where files are few and small.
        let mut list = Vec::new();
        let mut entries = MapEntries::open(&list);
        self.skip_ws();
        if self.bytes.get(self.pos) == Some(&b'}') {
            self.pos += 1;
            return Ok(Node::new(
                self.span(start, self.pos),
                Value::Map(Vec::new()),
            ));
        }
        loop {
            self.skip_ws();
            let key_start = self.pos;
            if self.bytes.get(self.pos) != Some(&b'"') {
                return self.error(
                    self.pos,
                    format!("expected a string key, found {}", self.found()),
                );
            }
            let key = self.string()?;
            let key_span = self.span(key_start, self.pos);
            self.skip_ws();
            if self.bytes.get(self.pos) != Some(&b':') {
                return self.error(
                    self.pos,
                    format!("expected `:` after a key, found {}", self.found()),
                );
            }
            self.pos += 1;
            self.skip_ws();
            let value = self.value(depth + 1)?;
            let entry = Entry {
                key,
                key_span,
                value,
            };
            if let Some(problem) = entries.insert(&mut list, entry) {
                self.problems.push(problem);
            }
            if self.after_item(b'}')? {
                return Ok(Node::new(self.span(start, self.pos), Value::Map(list)));
            }
        }
    }

    /// After an item of an array or object: `,` and more to come (false), or the closing
    /// bracket `close`, passed (true).
    fn after_item(&mut self, close: u8) -> Result<bool, Error> {
        self.skip_ws();
        match self.bytes.get(self.pos) {
            Some(b',') => {
                let comma = self.pos;
                self.pos += 1;
                self.skip_ws();
                if self.bytes.get(self.pos) == Some(&close) {
                    return self.error(comma, "trailing commas are not allowed");
                }
                Ok(false)
            }
            Some(&c) if c == close => {
                self.pos += 1;
                Ok(true)
            }
            _ => self.error(
                self.pos,
                format!(
                    "expected `,` or `{}`, found {}",
                    close as char,
                    self.found()
                ),
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_runs_end_at_the_first_quote_backslash_or_control() {
        for text in [
            "abc\"",
            "\"",
            "abcdefghijklmnop\"x",
            "abcdefgh\\",
            "abcdefghi\u{1}",
            "é😀é😀é😀\"",
            "\u{7f}\u{80}abcdefgh\"",
            "aaaaaaa",
            "aaaaaaaaaaaaaaaaa",
            "\u{1f}",
            "abcdefg\u{0}bbbbb\"",
        ] {
            let b = text.as_bytes();
            let expected = b
                .iter()
                .position(|&c| c == b'"' || c == b'\\' || c < 0x20)
                .unwrap_or(b.len());
            for from in 0..=expected {
                assert_eq!(plain_run_end(b, from), expected, "{text:?} from {from}");
            }
        }
    }

    fn load(text: &str) -> (Vec<Node>, Vec<Problem>) {
        parse(text, &Limits::DEFAULT)
    }

    #[test]
    fn keys_and_values_carry_byte_spans() {
        let text = "{\n  \"name\": \"Müller\",\n  \"n\": 12\n}";
        let (docs, problems) = load(text);
        assert!(problems.is_empty());
        let name = docs[0].get("name").unwrap();
        assert_eq!(&text[name.key_span.range()], "\"name\"");
        assert_eq!(&text[name.value.span.range()], "\"Müller\"");
        assert_eq!(&text[docs[0].get_value("n").unwrap().span.range()], "12");
    }

    #[test]
    fn strict_json_rejects_comments_and_trailing_commas() {
        assert_eq!(load("{\"a\": 1,}").1.len(), 1);
        assert_eq!(load("{\"a\": 1 // c\n}").1.len(), 1);
        assert_eq!(load("{'a': 1}").1.len(), 1);
    }

    #[test]
    fn surrogate_pairs_decode() {
        let (docs, problems) = load(r#"{"e": "\ud83d\ude00"}"#);
        assert!(problems.is_empty());
        assert_eq!(docs[0].get_value("e").unwrap().as_str(), Some("\u{1F600}"));
    }

    #[test]
    fn duplicate_keys() {
        let (docs, problems) = load(r#"{"a": 1, "a": 2}"#);
        assert_eq!(problems.len(), 1);
        assert_eq!(problems[0].kind, ProblemKind::DuplicateKey);
        assert_eq!(docs[0].get_value("a").unwrap().as_i64(), Some(2));
    }

    #[test]
    fn deep_nesting_is_a_limit() {
        let text = "[".repeat(200_000);
        let (docs, problems) = load(&text);
        assert!(docs.is_empty());
        assert_eq!(problems[0].kind, ProblemKind::Limit);
        let text = format!("{}{}", "[".repeat(300), "]".repeat(300));
        let (_, problems) = load(&text);
        assert_eq!(problems[0].kind, ProblemKind::Limit);
    }

    #[test]
    fn bom_is_skipped() {
        let text = "\u{feff}{\"a\": 1}";
        let (docs, problems) = load(text);
        assert!(problems.is_empty());
        assert_eq!(&text[docs[0].get_value("a").unwrap().span.range()], "1");
    }

    #[test]
    fn number_grammar() {
        for ok in ["0", "-0", "12", "-3.25", "1e5", "1E+5", "2.5e-3"] {
            let (docs, problems) = load(ok);
            assert!(problems.is_empty(), "{ok}: {problems:?}");
            assert_eq!(docs[0].as_number_text(), Some(ok));
        }
        for bad in ["01", "-", "1.", "1e", ".5", "+1", "0x1F", "NaN", "Infinity"] {
            assert_eq!(load(bad).1.len(), 1, "{bad}");
        }
    }

    #[test]
    fn string_escapes_and_errors() {
        let (docs, _) = load(r#"["a\"b\\\/\b\f\n\r\t\u00e9\ud83d\ude00", "é😀"]"#);
        let items = docs[0].as_seq().unwrap();
        assert_eq!(items[0].as_str(), Some("a\"b\\/\u{8}\u{c}\n\r\té😀"));
        assert_eq!(items[1].as_str(), Some("é😀"));
        for bad in [
            r#""\x41""#,
            r#""\ud83d""#,
            r#""\ude00""#,
            "\"a\tb\"",
            "\"open",
            r#""\u12""#,
        ] {
            let (_, problems) = load(bad);
            assert_eq!(problems.len(), 1, "{bad}");
            assert_eq!(problems[0].kind, ProblemKind::Syntax);
        }
    }

    #[test]
    fn errors_point_where_reading_stopped() {
        let text = "{\n  \"a\": 1,\n}";
        let (_, problems) = load(text);
        assert_eq!(
            problems[0].message,
            "invalid JSON: trailing commas are not allowed"
        );
        assert_eq!(&text[problems[0].span.range()], ",");
        let (_, problems) = load("{\"a\" 1}");
        assert!(problems[0].message.contains("expected `:`"));
        let (_, problems) = load("[1] 2");
        assert!(problems[0].message.contains("after the value"));
        let (_, problems) = load("");
        assert!(problems[0].message.contains("no value"));
    }

    #[test]
    fn nesting_at_the_limit_is_read() {
        let ok = format!("{}{}", "[".repeat(128), "]".repeat(128));
        assert!(load(&ok).1.is_empty());
        let deep = format!("{}{}", "[".repeat(129), "]".repeat(129));
        assert_eq!(load(&deep).1[0].kind, ProblemKind::Limit);
    }
}
