//! YAML 1.2 through saphyr-parser's event stream into [`Node`] trees.
//!
//! The builder keeps its own stack (no recursion), counts depth, nodes, alias
//! expansion and documents as events arrive, and stops at the first limit crossed, so
//! deep nesting and alias bombs cost bounded stack, time and memory.

use std::collections::HashMap;

use saphyr_parser::{Event, Parser, ScalarStyle, Tag};

use super::span::{CharToByte, Span};
use super::tree::{Entry, Node, Text, Value};
use super::yaml_block;
use super::{Limits, MapEntries, Problem, ProblemKind, STACK_ROOM};

pub fn parse(text: &str, limits: &Limits) -> (Vec<Node>, Vec<Problem>) {
    super::work::count(text.len());
    // A leading BOM is not content; the parser would count it as a character.
    let (body, bom) = match text.strip_prefix('\u{feff}') {
        Some(rest) => (rest, 3),
        None => (text, 0),
    };
    let (mut documents, mut problems) = read(body, limits, Reader::Quick);
    if bom != 0 {
        for doc in &mut documents {
            shift_spans(doc, bom);
        }
        for p in &mut problems {
            p.span = Span::new(p.span.start + bom, p.span.end + bom);
            p.related = p.related.map(|r| Span::new(r.start + bom, r.end + bom));
            if let Some(entry) = p.shadowed.as_deref_mut() {
                entry.key_span = Span::new(entry.key_span.start + bom, entry.key_span.end + bom);
                shift_spans(&mut entry.value, bom);
            }
        }
    }
    (documents, problems)
}

/// Which reader reads the text: the quick reader builds its trees itself, saphyr-parser
/// sends events to the tree builder.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reader {
    /// [`yaml_block`] for the common subset, saphyr-parser for the rest.
    Quick,
    /// saphyr-parser for everything.
    Full,
}

/// Reads a text without BOM into documents.
pub fn read(body: &str, limits: &Limits, reader: Reader) -> (Vec<Node>, Vec<Problem>) {
    if reader == Reader::Quick
        && let Ok(read) = yaml_block::read(body, limits)
    {
        return read;
    }
    let mut builder = Builder::new(body, limits);
    builder.run();
    (builder.documents, builder.problems)
}

/// The quick reader's documents and problems next to the full parser's, when the quick
/// reader takes the text: the two must be equal.
pub fn both_readers(body: &str, limits: &Limits) -> Option<[(Vec<Node>, Vec<Problem>); 2]> {
    let quick = yaml_block::read(body, limits).ok()?;
    Some([quick, read(body, limits, Reader::Full)])
}

fn shift_spans(node: &mut Node, by: usize) {
    let mut stack = vec![node];
    while let Some(n) = stack.pop() {
        n.span = Span::new(n.span.start + by, n.span.end + by);
        match &mut n.value {
            Value::Seq(items) => stack.extend(items.iter_mut()),
            Value::Map(entries) => {
                for e in entries.iter_mut() {
                    e.key_span = Span::new(e.key_span.start + by, e.key_span.end + by);
                    stack.push(&mut e.value);
                }
            }
            Value::EncodedJson { decoded, .. } => stack.push(decoded),
            _ => {}
        }
    }
}

/// An open collection. Its items or entries stand on the builder's stacks of them
/// (`items`, `entries`), which keep their room from one collection to the next.
enum Frame {
    Seq {
        start: usize,
        anchor: usize,
        /// Where its items start on the stack of items.
        first: usize,
    },
    Map {
        start: usize,
        anchor: usize,
        entries: MapEntries,
        /// Which keys came from a `<<` merge, which an explicit key may override; `None`
        /// until a merge (most mappings have none).
        merged: Option<Vec<bool>>,
        key: PendingKey,
    },
}

enum PendingKey {
    None,
    Key {
        text: Text,
        span: Span,
        merge: bool,
    },
    /// A key that is not a scalar; its value is read and dropped.
    Skip,
}

struct Builder<'a> {
    text: &'a str,
    limits: &'a Limits,
    stack: Vec<Frame>,
    /// The items of the open sequences, innermost last.
    items: Vec<Node>,
    /// The entries of the open mappings, innermost last.
    entries: Vec<Entry>,
    anchors: HashMap<usize, (Node, usize)>,
    documents: Vec<Node>,
    problems: Vec<Problem>,
    nodes: usize,
    documents_started: usize,
    alias_nodes: usize,
}

impl<'a> Builder<'a> {
    fn new(text: &'a str, limits: &'a Limits) -> Self {
        Builder {
            text,
            limits,
            stack: Vec::new(),
            items: Vec::with_capacity(STACK_ROOM),
            entries: Vec::with_capacity(STACK_ROOM),
            anchors: HashMap::new(),
            documents: Vec::new(),
            problems: Vec::new(),
            nodes: 0,
            documents_started: 0,
            alias_nodes: 0,
        }
    }

    fn document_start(&mut self, span: Span) -> bool {
        self.documents_started += 1;
        if self.documents_started > self.limits.max_documents {
            self.fail(
                ProblemKind::Limit,
                span,
                format!(
                    "more than {} documents in one file; the rest was not read",
                    self.limits.max_documents
                ),
            );
            return false;
        }
        true
    }

    fn fail(&mut self, kind: ProblemKind, span: Span, message: String) {
        self.problems.push(Problem::new(kind, span, message));
    }

    fn run(&mut self) {
        let chars = CharToByte::new(self.text);
        let span_of = |s: &saphyr_parser::Span| {
            Span::new(chars.byte(s.start.index()), chars.byte(s.end.index()))
        };
        let mut parser = Parser::new_from_str(self.text).keep_tags(true);
        while let Some(next) = parser.next_event() {
            let (event, raw_span) = match next {
                Ok(ev) => ev,
                Err(err) => {
                    let at = chars.byte(err.marker().index());
                    self.stack.clear();
                    // The parser's own flow nesting limit is a limit, not bad syntax.
                    let (kind, message) = if err.info().contains("recursion limit") {
                        (
                            ProblemKind::Limit,
                            format!(
                                "nesting deeper than {} levels; the rest of the file was not read",
                                self.limits.max_depth
                            ),
                        )
                    } else {
                        (ProblemKind::Syntax, format!("invalid YAML: {}", err.info()))
                    };
                    self.fail(kind, Span::empty(at), message);
                    return;
                }
            };
            let span = span_of(&raw_span);
            let ok = match event {
                Event::DocumentStart(_) => self.document_start(span),
                Event::Scalar(value, style, anchor, tag) => {
                    let quote = match style {
                        ScalarStyle::SingleQuoted => Some(b'\''),
                        ScalarStyle::DoubleQuoted => Some(b'"'),
                        _ => None,
                    };
                    // (An anchored or tagged scalar's span starts at its anchor or tag.)
                    let span = match quote {
                        Some(q) if self.text.as_bytes().get(span.start) == Some(&q) => {
                            Span::new(span.start, quoted_end(self.text, span.start))
                        }
                        _ => span,
                    };
                    let node = Node::new(span, scalar_value(&value, style, tag));
                    self.finish(node, anchor)
                }
                Event::SequenceStart(anchor, _) => self.open_anchored_seq(span, anchor),
                Event::MappingStart(anchor, _) => self.open_anchored_map(span, anchor),
                Event::SequenceEnd | Event::MappingEnd => self.close(span),
                Event::Alias(id) => self.alias(id, span),
                Event::StreamStart | Event::StreamEnd | Event::DocumentEnd | Event::Nothing => true,
            };
            if !ok {
                self.stack.clear();
                return;
            }
        }
    }

    fn count_nodes(&mut self, n: usize, span: Span) -> bool {
        self.nodes += n;
        if self.nodes > self.limits.max_nodes {
            self.fail(
                ProblemKind::Limit,
                span,
                format!(
                    "more than {} values in one file; the rest was not read",
                    self.limits.max_nodes
                ),
            );
            return false;
        }
        true
    }

    fn open_anchored_seq(&mut self, span: Span, anchor: usize) -> bool {
        let frame = Frame::Seq {
            start: span.start,
            anchor,
            first: self.items.len(),
        };
        self.open(frame, span)
    }

    fn open_anchored_map(&mut self, span: Span, anchor: usize) -> bool {
        let frame = Frame::Map {
            start: span.start,
            anchor,
            entries: MapEntries::open(&self.entries),
            merged: None,
            key: PendingKey::None,
        };
        self.open(frame, span)
    }

    fn open(&mut self, frame: Frame, span: Span) -> bool {
        if self.stack.len() >= self.limits.max_depth {
            self.fail(
                ProblemKind::Limit,
                span,
                format!(
                    "nesting deeper than {} levels; the rest of the file was not read",
                    self.limits.max_depth
                ),
            );
            return false;
        }
        self.stack.push(frame);
        true
    }

    fn close(&mut self, end_span: Span) -> bool {
        let Some(frame) = self.stack.pop() else {
            return true;
        };
        // A flow collection ends at its closing bracket; a block one at its last child.
        // saphyr-parser's span of a closing bracket runs on over a comment after it.
        let closes_flow = !end_span.is_empty()
            && matches!(self.text.as_bytes().get(end_span.start), Some(b']' | b'}'));
        let end_span = Span::new(end_span.start, end_span.start + 1);
        match frame {
            Frame::Seq {
                start,
                anchor,
                first,
            } => {
                let end = if closes_flow {
                    end_span.end
                } else {
                    self.items[first..].last().map_or(start, |n| n.span.end)
                };
                let items = super::take_from(&mut self.items, first);
                self.finish(
                    Node::new(Span::new(start, end.max(start)), Value::Seq(items)),
                    anchor,
                )
            }
            Frame::Map {
                start,
                anchor,
                entries,
                ..
            } => {
                let entries = entries.close(&mut self.entries);
                let end = if closes_flow {
                    end_span.end
                } else {
                    entries.last().map_or(start, |e| e.value.span.end)
                };
                self.finish(
                    Node::new(Span::new(start, end.max(start)), Value::Map(entries)),
                    anchor,
                )
            }
        }
    }

    fn alias(&mut self, id: usize, span: Span) -> bool {
        let Some((node, count)) = self.anchors.get(&id) else {
            self.fail(
                ProblemKind::Syntax,
                span,
                "alias to an unknown anchor".into(),
            );
            return false;
        };
        let count = *count;
        self.alias_nodes += count;
        if self.alias_nodes > self.limits.max_alias_nodes {
            self.fail(
                ProblemKind::Limit,
                span,
                format!(
                    "aliases expand to more than {} values (an alias bomb?); the rest of the file was not read",
                    self.limits.max_alias_nodes
                ),
            );
            return false;
        }
        // The copy keeps the anchored text's spans: diagnostics point where it is written.
        let node = node.clone();
        if !self.count_nodes(count, span) {
            return false;
        }
        self.attach(node)
    }

    fn finish(&mut self, node: Node, anchor: usize) -> bool {
        if !self.count_nodes(1, node.span) {
            return false;
        }
        if anchor != 0 {
            let count = node.count();
            self.anchors.insert(anchor, (node.clone(), count));
        }
        self.attach(node)
    }

    fn attach(&mut self, node: Node) -> bool {
        match self.stack.last_mut() {
            None => {
                self.documents.push(node);
                true
            }
            Some(Frame::Seq { .. }) => {
                self.items.push(node);
                true
            }
            Some(Frame::Map { key, .. }) => match std::mem::replace(key, PendingKey::None) {
                PendingKey::None => {
                    let pending = self.pending_key(node.span, node.value);
                    if let Some(Frame::Map { key, .. }) = self.stack.last_mut() {
                        *key = pending;
                    }
                    true
                }
                PendingKey::Skip => true,
                PendingKey::Key { text, span, merge } => {
                    if merge {
                        self.merge(node, span);
                    } else {
                        self.insert(Entry {
                            key: text,
                            key_span: span,
                            value: node,
                        });
                    }
                    true
                }
            },
        }
    }

    /// What a node read where a key stands becomes: the key's text, or a problem.
    fn pending_key(&mut self, span: Span, value: Value) -> PendingKey {
        match value {
            Value::String(s) => PendingKey::Key {
                merge: s == "<<" && self.text.get(span.range()) == Some("<<"),
                text: s,
                span,
            },
            Value::Number(s) => PendingKey::Key {
                text: s,
                span,
                merge: false,
            },
            Value::Bool(b) => PendingKey::Key {
                text: Text::from(if b { "true" } else { "false" }),
                span,
                merge: false,
            },
            Value::Null => PendingKey::Key {
                text: Text::default(),
                span,
                merge: false,
            },
            _ => {
                self.problems.push(Problem::new(
                    ProblemKind::Syntax,
                    span,
                    "a mapping key must be a string, not a list or a mapping",
                ));
                PendingKey::Skip
            }
        }
    }

    fn insert(&mut self, entry: Entry) {
        let Some(Frame::Map {
            entries, merged, ..
        }) = self.stack.last_mut()
        else {
            return;
        };
        let found = entries.position(&self.entries, &entry.key);
        // A key merged in with `<<` may be overridden without a problem.
        if let (Some(i), Some(merged)) = (found, merged.as_mut())
            && merged[i]
        {
            merged[i] = false;
            *entries.entry(&mut self.entries, i) = entry;
            return;
        }
        match entries.insert_at(&mut self.entries, found, entry) {
            Some(problem) => self.problems.push(problem),
            None => {
                if let Some(merged) = merged {
                    merged.push(false);
                }
            }
        }
    }

    /// `<<: *defaults` (or a list of them): keys not already present are merged in.
    fn merge(&mut self, value: Node, key_span: Span) {
        let sources: Vec<Node> = match value.value {
            Value::Map(_) => vec![value],
            Value::Seq(items) if items.iter().all(|n| matches!(n.value, Value::Map(_))) => items,
            _ => {
                self.problems.push(Problem::new(
                    ProblemKind::Syntax,
                    key_span,
                    "a merge key `<<` takes a mapping or a list of mappings",
                ));
                return;
            }
        };
        for source in sources {
            let Value::Map(src_entries) = source.value else {
                continue;
            };
            for entry in src_entries {
                let Some(Frame::Map {
                    entries, merged, ..
                }) = self.stack.last_mut()
                else {
                    return;
                };
                if entries.position(&self.entries, &entry.key).is_none() {
                    let merged =
                        merged.get_or_insert_with(|| vec![false; entries.len(&self.entries)]);
                    entries.push(&mut self.entries, entry);
                    merged.push(true);
                }
            }
        }
    }
}

/// The end of the quoted scalar whose opening quote is at `start`: saphyr-parser's span
/// of a quoted scalar runs on over a comment after it.
fn quoted_end(text: &str, start: usize) -> usize {
    let b = text.as_bytes();
    let Some(&quote) = b.get(start) else {
        return start;
    };
    let mut i = start + 1;
    while i < b.len() {
        match b[i] {
            b'\\' if quote == b'"' => i += 2,
            b'\'' if quote == b'\'' && b.get(i + 1) == Some(&b'\'') => i += 2,
            c if c == quote => return i + 1,
            _ => i += 1,
        }
    }
    text.len()
}

/// Resolves a scalar by the YAML 1.2 core schema; quoted and block scalars are strings.
pub(super) fn scalar_value(
    text: &str,
    style: ScalarStyle,
    tag: Option<std::borrow::Cow<'_, Tag>>,
) -> Value {
    if let Some(tag) = tag.as_deref().filter(|t| t.is_yaml_core_schema()) {
        return match tag.suffix.as_str() {
            "str" => Value::String(Text::from(text)),
            "null" => Value::Null,
            "bool" => match text {
                "true" | "True" | "TRUE" => Value::Bool(true),
                "false" | "False" | "FALSE" => Value::Bool(false),
                _ => Value::String(Text::from(text)),
            },
            "int" | "float" => Value::Number(Text::from(text)),
            _ => plain_value(text),
        };
    }
    match style {
        ScalarStyle::Plain => plain_value(text),
        _ => Value::String(Text::from(text)),
    }
}

/// The text of a key written as a scalar: what [`Builder::pending_key`] makes of the
/// scalar's node, without building the node first.
pub(super) fn key_text(value: &str, style: ScalarStyle) -> Text {
    match style {
        ScalarStyle::Plain => match plain_kind(value) {
            Plain::Null => Text::default(),
            Plain::Bool(b) => Text::from(if b { "true" } else { "false" }),
            Plain::Number | Plain::String => Text::from(value),
        },
        _ => Text::from(value),
    }
}

/// What a plain scalar is by the core schema.
enum Plain {
    Null,
    Bool(bool),
    Number,
    String,
}

fn plain_kind(text: &str) -> Plain {
    // Most plain scalars are words: only these bytes start a null, a boolean or a number.
    if let Some(first) = text.as_bytes().first()
        && !matches!(
            first,
            b'~' | b'n' | b'N' | b't' | b'T' | b'f' | b'F' | b'0'..=b'9' | b'-' | b'+' | b'.'
        )
    {
        return Plain::String;
    }
    match text {
        "" | "~" | "null" | "Null" | "NULL" => Plain::Null,
        "true" | "True" | "TRUE" => Plain::Bool(true),
        "false" | "False" | "FALSE" => Plain::Bool(false),
        _ if is_core_number(text) => Plain::Number,
        _ => Plain::String,
    }
}

fn plain_value(text: &str) -> Value {
    match plain_kind(text) {
        Plain::Null => Value::Null,
        Plain::Bool(b) => Value::Bool(b),
        Plain::Number => Value::Number(Text::from(text)),
        Plain::String => Value::String(Text::from(text)),
    }
}

fn is_core_number(s: &str) -> bool {
    let b = s.as_bytes();
    if b.is_empty() || !(b[0].is_ascii_digit() || matches!(b[0], b'-' | b'+' | b'.')) {
        return false;
    }
    if let Some(hex) = s.strip_prefix("0x") {
        return !hex.is_empty() && hex.bytes().all(|c| c.is_ascii_hexdigit());
    }
    if let Some(oct) = s.strip_prefix("0o") {
        return !oct.is_empty() && oct.bytes().all(|c| (b'0'..=b'7').contains(&c));
    }
    if matches!(
        s,
        ".inf"
            | ".Inf"
            | ".INF"
            | "+.inf"
            | "+.Inf"
            | "+.INF"
            | "-.inf"
            | "-.Inf"
            | "-.INF"
            | ".nan"
            | ".NaN"
            | ".NAN"
    ) {
        return true;
    }
    // [-+]? ( \. [0-9]+ | [0-9]+ ( \. [0-9]* )? ) ( [eE] [-+]? [0-9]+ )?
    let mut i = usize::from(matches!(b[0], b'-' | b'+'));
    let int_start = i;
    while i < b.len() && b[i].is_ascii_digit() {
        i += 1;
    }
    let int_digits = i - int_start;
    let mut frac_digits = 0;
    if i < b.len() && b[i] == b'.' {
        i += 1;
        let f = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        frac_digits = i - f;
    }
    if int_digits == 0 && frac_digits == 0 {
        return false;
    }
    if i < b.len() && matches!(b[i], b'e' | b'E') {
        i += 1;
        if i < b.len() && matches!(b[i], b'-' | b'+') {
            i += 1;
        }
        let e = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        if i == e {
            return false;
        }
    }
    i == b.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn load(text: &str) -> (Vec<Node>, Vec<Problem>) {
        parse(text, &Limits::DEFAULT)
    }

    fn slice(text: &str, span: Span) -> &str {
        &text[span.range()]
    }

    #[test]
    fn a_comment_after_a_quoted_scalar_or_a_bracket_is_not_in_its_span() {
        let text =
            "a: \"x\"   # note\nb: 'it''s' # note\nc: [1] # note\nd: {k: v} # n\ne: &e \"y\"\n";
        for reader in [Reader::Quick, Reader::Full] {
            let (docs, problems) = read(text, &Limits::DEFAULT, reader);
            assert!(problems.is_empty());
            let values: Vec<&str> = docs[0]
                .as_map()
                .unwrap()
                .iter()
                .map(|e| slice(text, e.value.span))
                .collect();
            // The quick reader leaves the anchored scalar to saphyr-parser, whose span
            // starts at the anchor.
            assert_eq!(
                values,
                ["\"x\"", "'it''s'", "[1]", "{k: v}", "&e \"y\""],
                "{reader:?}"
            );
        }
    }

    #[test]
    fn limits_crossed_in_the_quick_reader_are_reported_as_the_full_parser_reports_them() {
        let text = "a: 1\nb: [x, {c: d}]\ne:\n  f:\n  - g\n---\nh: i\n";
        let tight = [
            Limits {
                max_nodes: 5,
                ..Limits::DEFAULT
            },
            Limits {
                max_depth: 2,
                ..Limits::DEFAULT
            },
            Limits {
                max_documents: 1,
                ..Limits::DEFAULT
            },
        ];
        assert!(both_readers(text, &Limits::DEFAULT).is_some());
        for limits in tight {
            let (quick, full) = (
                read(text, &limits, Reader::Quick),
                read(text, &limits, Reader::Full),
            );
            assert_eq!(quick, full, "{limits:?}");
            assert_eq!(full.1.len(), 1, "{limits:?}");
            assert_eq!(full.1[0].kind, ProblemKind::Limit, "{limits:?}");
            assert!(both_readers(text, &limits).is_none(), "{limits:?}");
        }
    }

    #[test]
    fn keys_and_values_carry_byte_spans() {
        let text = "a: 1\nname: \"Café\"\nlist: [x, y]\n";
        let (docs, problems) = load(text);
        assert!(problems.is_empty());
        let doc = &docs[0];
        let name = doc.get("name").unwrap();
        assert_eq!(slice(text, name.key_span), "name");
        assert_eq!(slice(text, name.value.span), "\"Café\"");
        assert_eq!(name.value.as_str(), Some("Café"));
        let list = doc.get_value("list").unwrap();
        assert_eq!(slice(text, list.span), "[x, y]");
        assert_eq!(slice(text, list.as_seq().unwrap()[1].span), "y");
    }

    #[test]
    fn spans_after_multibyte_characters_are_bytes() {
        let text = "emoji: \"\u{1F600}\u{1F600}\"\nafter: value\n";
        let (docs, _) = load(text);
        let after = docs[0].get("after").unwrap();
        assert_eq!(slice(text, after.value.span), "value");
    }

    #[test]
    fn multi_document_files() {
        let text = "request: GET /a\n---\nrequest: GET /b\n";
        let (docs, problems) = load(text);
        assert!(problems.is_empty());
        assert_eq!(docs.len(), 2);
        let b = docs[1].get_value("request").unwrap();
        assert_eq!(slice(text, b.span), "GET /b");
    }

    #[test]
    fn crlf_spans() {
        let text = "a: 1\r\nb: two\r\n";
        let (docs, _) = load(text);
        assert_eq!(slice(text, docs[0].get_value("b").unwrap().span), "two");
    }

    #[test]
    fn bom_is_skipped_and_spans_stay_right() {
        let text = "\u{feff}a: 1\nb: two\n";
        let (docs, _) = load(text);
        assert_eq!(slice(text, docs[0].get_value("b").unwrap().span), "two");
    }

    #[test]
    fn core_schema_scalars() {
        let (docs, _) =
            load("a: 12\nb: \"12\"\nc: true\nd: ~\ne: 1.5e3\nf: 0x1F\ng: 12abc\nh: !!str 5\n");
        let d = &docs[0];
        assert_eq!(d.get_value("a").unwrap().value, Value::Number("12".into()));
        assert_eq!(d.get_value("b").unwrap().value, Value::String("12".into()));
        assert_eq!(d.get_value("c").unwrap().value, Value::Bool(true));
        assert_eq!(d.get_value("d").unwrap().value, Value::Null);
        assert_eq!(d.get_value("e").unwrap().as_f64(), Some(1500.0));
        assert_eq!(d.get_value("f").unwrap().as_i64(), Some(31));
        assert_eq!(
            d.get_value("g").unwrap().value,
            Value::String("12abc".into())
        );
        assert_eq!(d.get_value("h").unwrap().value, Value::String("5".into()));
    }

    #[test]
    fn duplicate_keys_point_at_both() {
        let text = "a: 1\nb: 2\na: 3\n";
        let (docs, problems) = load(text);
        assert_eq!(problems.len(), 1);
        assert_eq!(problems[0].kind, ProblemKind::DuplicateKey);
        assert_eq!(problems[0].span, Span::new(10, 11));
        assert_eq!(problems[0].related, Some(Span::new(0, 1)));
        assert_eq!(docs[0].get_value("a").unwrap().as_i64(), Some(3));
    }

    #[test]
    fn duplicate_keys_in_large_mappings() {
        let mut text: String = (0..40).map(|i| format!("k{i}: {i}\n")).collect();
        text.push_str("k7: again\n");
        let (_, problems) = load(&text);
        assert_eq!(problems.len(), 1);
        assert_eq!(problems[0].message, "duplicate key `k7`");
    }

    #[test]
    fn aliases_keep_the_anchored_spans() {
        let text = "base: &t\n  countries: [DE]\nparams:\n  targeting: *t\n";
        let (docs, problems) = load(text);
        assert!(problems.is_empty());
        let t = docs[0]
            .get_value("params")
            .unwrap()
            .get_value("targeting")
            .unwrap();
        let c = t.get_value("countries").unwrap();
        assert_eq!(slice(text, c.as_seq().unwrap()[0].span), "DE");
        assert_eq!(c.as_seq().unwrap()[0].span.start, text.find("DE").unwrap());
    }

    #[test]
    fn merge_keys() {
        let text = "d: &d {a: 1, b: 2}\nm:\n  <<: *d\n  b: 3\n";
        let (docs, problems) = load(text);
        assert!(problems.is_empty(), "{problems:?}");
        let m = docs[0].get_value("m").unwrap();
        assert_eq!(m.get_value("a").unwrap().as_i64(), Some(1));
        assert_eq!(m.get_value("b").unwrap().as_i64(), Some(3));
    }

    #[test]
    fn billion_laughs_stops_at_the_alias_budget() {
        let mut text = String::from("a: &a [x, x, x, x, x, x, x, x, x]\n");
        let names = ["b", "c", "d", "e", "f", "g", "h", "i"];
        let mut prev = "a";
        for n in names {
            text.push_str(&format!("{n}: &{n} [*{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}]\n"));
            prev = n;
        }
        let (_, problems) = load(&text);
        assert_eq!(problems.len(), 1);
        assert_eq!(problems[0].kind, ProblemKind::Limit);
        assert!(problems[0].message.contains("alias"));
    }

    #[test]
    fn deep_block_nesting_stops_at_the_depth_limit() {
        let text: String = (0..5000)
            .map(|i| format!("{}- \n", "  ".repeat(i)))
            .collect();
        let (_, problems) = load(&text);
        assert_eq!(problems[0].kind, ProblemKind::Limit);
    }

    #[test]
    fn deep_flow_nesting_is_a_diagnostic() {
        let text = "[".repeat(200_000);
        let (_, problems) = load(&text);
        assert_eq!(problems.len(), 1);
    }

    #[test]
    fn syntax_error_has_a_position() {
        let text = "a: [1, 2\nb: 3\n";
        let (_, problems) = load(text);
        assert_eq!(problems[0].kind, ProblemKind::Syntax);
        assert!(problems[0].message.starts_with("invalid YAML"));
    }

    #[test]
    fn block_scalar_is_a_string() {
        let text = "a: |\n  hi\n  there\n";
        let (docs, _) = load(text);
        assert_eq!(
            docs[0].get_value("a").unwrap().as_str(),
            Some("hi\nthere\n")
        );
    }
}
