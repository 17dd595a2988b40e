//! A quick reader for the YAML that request files are written in: block mappings and
//! sequences, one-line scalars (plain, single- and double-quoted), one-line flow
//! collections, comments and `---` document markers.
//!
//! saphyr-parser's scanner reads about 39 MB/s, which is most of the time a run takes.
//! This reader takes the common subset at several times that speed and gives up
//! ([`Unsupported`]) at the first thing outside it: anchors, aliases, tags, block
//! scalars, multi-line scalars or flow collections, empty values, tabs, CR, directives,
//! complex keys, and anything invalid. The caller then reads the whole file again with
//! saphyr-parser, so that every file outside the subset, and every error, is read by the
//! full parser. Inside the subset the reader builds the same trees with the same spans and
//! problems as saphyr-parser's events do through the tree builder; `invariants::loader`
//! (fuzzing, property tests, the replay of the fuzz corpora) checks that they agree.
//!
//! The tree is built as it is read, each collection's children gathered on a stack shared
//! by the open collections and moved once into a vector of their number: an event stream
//! into a separate builder moved every node three or four times more.

use super::span::Span;
use super::tree::{Entry, Node, Text, Value};
use super::yaml::{key_text, scalar_value};
use super::{Limits, MapEntries, Problem, STACK_ROOM};
use std::borrow::Cow;

/// The styles this reader reads: plain, single- and double-quoted (saphyr-parser's own
/// type, which the tree builder resolves scalars by).
pub(super) use saphyr_parser::ScalarStyle as Style;

/// The text is outside the subset this reader takes (or a limit was crossed, which the
/// full parser reports).
#[derive(Debug)]
pub(super) struct Unsupported;

type Read<T> = Result<T, Unsupported>;

/// Past this nesting the reader gives up, and the full parser applies the depth limit.
const MAX_NESTING: usize = 64;
/// saphyr-parser refuses longer implicit keys; leave them to it.
const MAX_KEY_LEN: usize = 1024;

/// The documents of a text and the problems found in them (repeated keys), or
/// [`Unsupported`].
pub(super) fn read(text: &str, limits: &Limits) -> Read<(Vec<Node>, Vec<Problem>)> {
    if !plain_characters(text.as_bytes()) {
        return Err(Unsupported);
    }
    let (items, entries) = STACKS.take();
    let mut reader = Reader {
        text,
        b: text.as_bytes(),
        pos: 0,
        limits,
        items,
        entries,
        documents: Vec::with_capacity(1),
        problems: Vec::new(),
        nodes: 0,
        open: 0,
    };
    let read = reader.stream();
    let Reader {
        mut items,
        mut entries,
        documents,
        problems,
        ..
    } = reader;
    // What a text given up on left on the stacks goes with them.
    items.clear();
    entries.clear();
    if items.capacity() <= KEPT_ROOM && entries.capacity() <= KEPT_ROOM {
        STACKS.set((items, entries));
    }
    read?;
    Ok((documents, problems))
}

thread_local! {
    /// The stacks of items and entries, kept from one file to the next on a thread: their
    /// room was two allocations and frees a file, larger and costlier than a node's.
    static STACKS: std::cell::Cell<(Vec<Node>, Vec<Entry>)> = std::cell::Cell::new((
        Vec::with_capacity(STACK_ROOM),
        Vec::with_capacity(STACK_ROOM),
    ));
}

/// Stacks that grew past this many items (a large file) are freed, not kept.
const KEPT_ROOM: usize = 1024;

/// No tab, CR, control character, byte order mark or Unicode line separator, which the
/// full parser treats in ways this reader does not follow.
fn plain_characters(b: &[u8]) -> bool {
    // Printable ASCII and newlines, a block at a time without a branch a byte (the
    // compiler vectorizes it); only a block with anything else is looked at closely.
    // Blocks of 64 bytes spent more on starting and ending each vector loop than on the
    // bytes: 1.8 M instructions on the 1,000 files, a third of that with these.
    // A block with a non-ASCII character is looked at again 64 bytes at a time, so that
    // only the bytes near such characters are looked at one by one.
    const BLOCK: usize = 1024;
    const SMALL: usize = 64;
    let printable = |block: &[u8]| {
        !block.iter().fold(false, |acc, &c| {
            acc | (c < 0x20 && c != b'\n') | (c >= 0x7F)
        })
    };
    b.chunks(BLOCK).enumerate().all(|(n, block)| {
        printable(block)
            || block.chunks(SMALL).enumerate().all(|(m, small)| {
                let from = n * BLOCK + m * SMALL;
                printable(small) || plain_bytes(b, from, from + small.len())
            })
    })
}

/// Bytes `from..to` of `b`; a character may run on past `to`.
fn plain_bytes(b: &[u8], from: usize, to: usize) -> bool {
    for i in from..to {
        let c = b[i];
        if c < 0x20 && c != b'\n' || c == 0x7F {
            return false;
        }
        if c >= 0x80 {
            let next = b.get(i + 1).copied().unwrap_or(0);
            let after = b.get(i + 2).copied().unwrap_or(0);
            // C1 controls and NEL (U+0080..U+009F).
            if c == 0xC2 && (0x80..=0x9F).contains(&next) {
                return false;
            }
            // U+2028, U+2029.
            if c == 0xE2 && next == 0x80 && matches!(after, 0xA8 | 0xA9) {
                return false;
            }
            // U+FEFF, U+FFFE, U+FFFF.
            if c == 0xEF && (next == 0xBB && after == 0xBF || next == 0xBF && after >= 0xBE) {
                return false;
            }
        }
    }
    true
}

/// The first line end, `:` or `#` in `b` from `from` on. Most keys and values are short:
/// their first 32 bytes are looked at eight at a time, where the vector search costs
/// more to start than it saves; past them the vector search takes over.
fn plain_stop(b: &[u8], from: usize) -> Option<usize> {
    const ONES: u64 = u64::from_le_bytes([0x01; 8]);
    const HIGH: u64 = u64::from_le_bytes([0x80; 8]);
    // High bit of each zero byte of `v`; above the first one a borrow may flag more, so
    // only the lowest flagged byte is to be trusted.
    let zero = |v: u64| v.wrapping_sub(ONES) & !v & HIGH;
    let mut pos = from;
    let short_end = from.saturating_add(32).min(b.len());
    while pos + 8 <= short_end {
        let word = u64::from_le_bytes(b[pos..pos + 8].try_into().unwrap_or([0; 8]));
        let found = zero(word ^ (ONES * u64::from(b'\n')))
            | zero(word ^ (ONES * u64::from(b':')))
            | zero(word ^ (ONES * u64::from(b'#')));
        if found != 0 {
            return Some(pos + (found.trailing_zeros() / 8) as usize);
        }
        pos += 8;
    }
    memchr::memchr3(b'\n', b':', b'#', b.get(pos..)?).map(|n| pos + n)
}

/// The first offset from `from` on that is not a space. Indentation comes in runs of
/// spaces: eight bytes are looked at in a step.
#[inline]
fn spaces(b: &[u8], from: usize) -> usize {
    const SPACES: u64 = u64::from_le_bytes([b' '; 8]);
    let mut i = from;
    while let Some(chunk) = b.get(i..i + 8) {
        let other = u64::from_le_bytes(chunk.try_into().unwrap_or([0; 8])) ^ SPACES;
        if other != 0 {
            return i + (other.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    while b.get(i) == Some(&b' ') {
        i += 1;
    }
    i
}

/// A line with content, after blank and comment lines.
#[derive(Clone, Copy)]
struct Line {
    /// Offset of the first character after the indentation.
    at: usize,
    indent: usize,
    /// `---` or `...` at the start of the line.
    marker: bool,
}

/// A scalar read in block context, and whether a `:` made it a mapping key.
struct Scalar<'t> {
    span: Span,
    /// The text, borrowed from the file unless escapes were decoded.
    value: Cow<'t, str>,
    style: Style,
    key: bool,
}

struct Reader<'t, 'l> {
    text: &'t str,
    b: &'t [u8],
    /// Where reading goes on; at the start of a line between block nodes.
    pos: usize,
    limits: &'l Limits,
    /// The items of the open sequences, innermost last.
    items: Vec<Node>,
    /// The entries of the open mappings, innermost last.
    entries: Vec<Entry>,
    documents: Vec<Node>,
    problems: Vec<Problem>,
    /// Keys and values read, for the node limit.
    nodes: usize,
    /// Collections open, for the depth limit.
    open: usize,
}

fn check(ok: bool) -> Read<()> {
    if ok { Ok(()) } else { Err(Unsupported) }
}

/// The text a quoted scalar at `start` is decoded into, once it needs decoding (at `at`):
/// room for the rest of its line, which it ends on.
fn decoding<'d>(
    decoded: &'d mut Option<String>,
    b: &[u8],
    start: usize,
    at: usize,
) -> &'d mut String {
    decoded.get_or_insert_with(|| {
        let line_end = memchr::memchr(b'\n', &b[at..]).map_or(b.len(), |n| at + n);
        String::with_capacity(line_end - start)
    })
}

impl<'t> Reader<'t, '_> {
    /// Counts a key or value against the node limit.
    fn count(&mut self) -> Read<()> {
        self.nodes += 1;
        check(self.nodes <= self.limits.max_nodes)
    }

    /// Opens a collection, within the depth limit.
    fn open(&mut self) -> Read<()> {
        check(self.open < self.limits.max_depth)?;
        self.open += 1;
        Ok(())
    }

    fn scalar(&mut self, span: Span, value: &str, style: Style) -> Read<Node> {
        self.count()?;
        Ok(Node::new(span, scalar_value(value, style, None)))
    }

    /// A key's text; a merge key `<<` is left to the full parser.
    fn key(&mut self, value: &str, style: Style) -> Read<Text> {
        if style == Style::Plain && value == "<<" {
            return Err(Unsupported);
        }
        self.count()?;
        Ok(key_text(value, style))
    }

    /// Adds an entry to the open mapping `map`; a repeated key replaces the first, and
    /// is a problem.
    #[inline(always)]
    fn insert(&mut self, map: &mut MapEntries, entry: Entry) {
        if let Some(problem) = map.insert(&mut self.entries, entry) {
            self.problems.push(problem);
        }
    }

    /// Closes the mapping `map` that starts at `start`: a flow mapping ends at its
    /// closing bracket `flow_end`, a block one at its last value.
    fn close_map(&mut self, map: MapEntries, start: usize, flow_end: Option<usize>) -> Read<Node> {
        let entries = map.close(&mut self.entries);
        let end = flow_end.unwrap_or_else(|| entries.last().map_or(start, |e| e.value.span.end));
        self.open -= 1;
        self.count()?;
        Ok(Node::new(
            Span::new(start, end.max(start)),
            Value::Map(entries),
        ))
    }

    /// Closes the sequence whose items start at `first` on the stack of items.
    fn close_seq(&mut self, first: usize, start: usize, flow_end: Option<usize>) -> Read<Node> {
        let end =
            flow_end.unwrap_or_else(|| self.items[first..].last().map_or(start, |n| n.span.end));
        let items = super::take_from(&mut self.items, first);
        self.open -= 1;
        self.count()?;
        Ok(Node::new(
            Span::new(start, end.max(start)),
            Value::Seq(items),
        ))
    }

    fn byte(&self, at: usize) -> u8 {
        self.b.get(at).copied().unwrap_or(b'\n')
    }

    fn is_blank_or_end(&self, at: usize) -> bool {
        matches!(self.byte(at), b' ' | b'\n')
    }

    /// The next line with content from `self.pos` (a line start), which moves there.
    fn next_line(&mut self) -> Option<Line> {
        let b = self.b;
        loop {
            if self.pos >= b.len() {
                return None;
            }
            let start = self.pos;
            let i = spaces(b, start);
            match self.byte(i) {
                b'\n' | b'#' => self.pos = self.line_end(i),
                c => {
                    let indent = i - start;
                    let marker = indent == 0
                        && matches!(c, b'-' | b'.')
                        && (b[i..].starts_with(b"---") || b[i..].starts_with(b"..."))
                        && self.is_blank_or_end(i + 3);
                    return Some(Line {
                        at: i,
                        indent,
                        marker,
                    });
                }
            }
        }
    }

    /// The start of the line after the one `at` is on.
    fn line_end(&self, at: usize) -> usize {
        // Most calls stand at the line end already (after a value); a comment is searched
        // eight bytes a step. Not the vector search: its call made the frames of the
        // callers heavier than the comments it skips.
        const ONES: u64 = u64::from_le_bytes([0x01; 8]);
        const HIGH: u64 = u64::from_le_bytes([0x80; 8]);
        const NEWLINES: u64 = u64::from_le_bytes([b'\n'; 8]);
        let b = self.b;
        if b.get(at) == Some(&b'\n') {
            return at + 1;
        }
        let mut i = at;
        while let Some(chunk) = b.get(i..i + 8) {
            let x = u64::from_le_bytes(chunk.try_into().unwrap_or([0; 8])) ^ NEWLINES;
            // Only the lowest flagged byte is sure to be a newline (a borrow may flag
            // more above it).
            let found = x.wrapping_sub(ONES) & !x & HIGH;
            if found != 0 {
                return i + (found.trailing_zeros() / 8) as usize + 1;
            }
            i += 8;
        }
        match b
            .get(i..)
            .and_then(|rest| rest.iter().position(|&c| c == b'\n'))
        {
            Some(n) => i + n + 1,
            None => b.len(),
        }
    }

    /// After a value: spaces, maybe a comment, then the end of the line.
    fn end_of_line(&mut self, after: usize) -> Read<()> {
        let at = spaces(self.b, after);
        let spaced = at > after;
        match self.byte(at) {
            b'\n' => {}
            b'#' if spaced => {}
            _ => return Err(Unsupported),
        }
        self.pos = self.line_end(at);
        Ok(())
    }

    fn stream(&mut self) -> Read<()> {
        while let Some(line) = self.next_line() {
            if line.marker {
                if &self.b[line.at..line.at + 3] != b"---" {
                    return Err(Unsupported);
                }
                self.end_of_line(line.at + 3)?;
            } else if !self.documents.is_empty() {
                return Err(Unsupported);
            }
            check(self.documents.len() < self.limits.max_documents)?;
            // An empty document is left to the full parser.
            let root = self.next_line().ok_or(Unsupported)?;
            if root.marker {
                return Err(Unsupported);
            }
            self.pos = root.at;
            let document = self.item(root.indent, 0)?;
            self.documents.push(document);
            if let Some(after) = self.next_line()
                && !after.marker
            {
                return Err(Unsupported);
            }
        }
        // A file of comments alone is left to the full parser too.
        check(!self.documents.is_empty())
    }

    /// A node that starts at `self.pos` (column `col`) and may be a block collection: the
    /// root, or an item of a sequence.
    fn item(&mut self, col: usize, depth: usize) -> Read<Node> {
        if depth > MAX_NESTING {
            return Err(Unsupported);
        }
        let at = self.pos;
        if self.byte(at) == b'-' && self.is_blank_or_end(at + 1) {
            return self.block_seq(col, false, depth);
        }
        match self.byte(at) {
            b'[' | b'{' => {
                let node = self.flow_node(depth)?;
                self.end_of_line(self.pos)?;
                Ok(node)
            }
            _ => {
                let scalar = self.block_scalar()?;
                if scalar.key {
                    self.block_map(col, scalar, depth)
                } else {
                    let node = self.scalar(scalar.span, &scalar.value, scalar.style)?;
                    self.end_of_line(self.pos)?;
                    Ok(node)
                }
            }
        }
    }

    /// A block mapping at column `col` whose first key has been read.
    fn block_map(&mut self, col: usize, first: Scalar<'t>, depth: usize) -> Read<Node> {
        self.open()?;
        let start = first.span.start;
        let mut map = MapEntries::open(&self.entries);
        let mut key = first;
        loop {
            if key.span.len() > MAX_KEY_LEN {
                return Err(Unsupported);
            }
            let text = self.key(&key.value, key.style)?;
            let value = self.map_value(col, depth)?;
            self.insert(
                &mut map,
                Entry {
                    key: text,
                    key_span: key.span,
                    value,
                },
            );
            let Some(line) = self.next_line() else { break };
            if line.marker || line.indent < col {
                break;
            }
            if line.indent > col {
                return Err(Unsupported);
            }
            self.pos = line.at;
            key = self.block_scalar()?;
            if !key.key {
                return Err(Unsupported);
            }
        }
        self.close_map(map, start, None)
    }

    /// The value after a key's `:` (at `self.pos`): on the same line, or a collection on
    /// the lines below.
    fn map_value(&mut self, col: usize, depth: usize) -> Read<Node> {
        let at = spaces(self.b, self.pos);
        match self.byte(at) {
            b'\n' | b'#' => {
                if self.byte(at) == b'#' && at == self.pos {
                    return Err(Unsupported);
                }
                self.pos = self.line_end(at);
                let line = self.next_line().ok_or(Unsupported)?;
                if line.marker {
                    return Err(Unsupported);
                }
                self.pos = line.at;
                let dash = self.byte(line.at) == b'-' && self.is_blank_or_end(line.at + 1);
                if line.indent == col && dash {
                    return self.block_seq(col, true, depth + 1);
                }
                if line.indent <= col || depth + 1 > MAX_NESTING {
                    return Err(Unsupported);
                }
                if dash {
                    return self.block_seq(line.indent, false, depth + 1);
                }
                // A scalar or flow collection alone on the next line is legal YAML, but
                // rare: not taken.
                let key = self.block_scalar()?;
                if !key.key {
                    return Err(Unsupported);
                }
                self.block_map(line.indent, key, depth + 1)
            }
            b'[' | b'{' => {
                self.pos = at;
                let node = self.flow_node(depth + 1)?;
                self.end_of_line(self.pos)?;
                Ok(node)
            }
            _ => {
                self.pos = at;
                let scalar = self.block_scalar()?;
                if scalar.key {
                    return Err(Unsupported);
                }
                let node = self.scalar(scalar.span, &scalar.value, scalar.style)?;
                self.end_of_line(self.pos)?;
                Ok(node)
            }
        }
    }

    /// A block sequence whose first `-` is at `self.pos`, column `col`. `indentless`: the
    /// value of a key at the same column.
    fn block_seq(&mut self, col: usize, indentless: bool, depth: usize) -> Read<Node> {
        self.open()?;
        let first = self.items.len();
        let mut start = None;
        loop {
            let dash = self.pos;
            let at = spaces(self.b, dash + 1);
            // `-` alone on its line (the item below it) is not taken.
            if matches!(self.byte(at), b'\n' | b'#') {
                return Err(Unsupported);
            }
            start.get_or_insert(if indentless { at } else { dash });
            self.pos = at;
            let item = self.item(col + (at - dash), depth + 1)?;
            self.items.push(item);
            let Some(line) = self.next_line() else { break };
            if line.marker || line.indent < col {
                break;
            }
            if line.indent > col {
                return Err(Unsupported);
            }
            let is_dash = self.byte(line.at) == b'-' && self.is_blank_or_end(line.at + 1);
            if !is_dash {
                if indentless {
                    break;
                }
                return Err(Unsupported);
            }
            self.pos = line.at;
        }
        self.close_seq(first, start.unwrap_or(self.pos), None)
    }

    /// A scalar in block context at `self.pos`; `self.pos` moves past it, and past the
    /// `:` when it is a key.
    fn block_scalar(&mut self) -> Read<Scalar<'t>> {
        let start = self.pos;
        let (span, value, style) = match self.byte(start) {
            b'"' | b'\'' => self.quoted()?,
            _ => {
                if !self.plain_start(start, false) {
                    return Err(Unsupported);
                }
                // Only a line end, `: ` and ` #` end a plain scalar: jump from one of
                // those bytes to the next (a description is long, and holds few).
                let mut i = start;
                let key = loop {
                    let Some(at) = plain_stop(self.b, i) else {
                        i = self.b.len();
                        break false;
                    };
                    match self.b[at] {
                        b'\n' => {
                            i = at;
                            break false;
                        }
                        b':' if self.is_blank_or_end(at + 1) => {
                            i = at;
                            break true;
                        }
                        b'#' if at > start && self.b[at - 1] == b' ' => {
                            i = at - 1;
                            break false;
                        }
                        _ => i = at + 1,
                    }
                };
                let end = start
                    + self.b[start..i]
                        .iter()
                        .rposition(|&b| b != b' ')
                        .map_or(0, |last| last + 1);
                let span = Span::new(start, end);
                self.pos = if key { i + 1 } else { end };
                return Ok(Scalar {
                    span,
                    value: Cow::Borrowed(&self.text[start..end]),
                    style: Style::Plain,
                    key,
                });
            }
        };
        // A quoted scalar is a key when `:` follows.
        let at = spaces(self.b, self.pos);
        let key = self.byte(at) == b':' && self.is_blank_or_end(at + 1);
        if key {
            self.pos = at + 1;
        }
        Ok(Scalar {
            span,
            value,
            style,
            key,
        })
    }

    /// Whether a plain scalar may start at `at`: not with an indicator, except `-`, `?`
    /// and `:` before a character that is not blank (nor, in flow, a flow indicator).
    fn plain_start(&self, at: usize, flow: bool) -> bool {
        match self.byte(at) {
            b'-' | b'?' | b':' => {
                let next = self.byte(at + 1);
                let blank = matches!(next, b' ' | b'\n');
                let flow_indicator = matches!(next, b',' | b'[' | b']' | b'{' | b'}');
                !(blank || flow && flow_indicator)
            }
            b',' | b'[' | b']' | b'{' | b'}' | b'#' | b'&' | b'*' | b'!' | b'|' | b'>' | b'\''
            | b'"' | b'%' | b'@' | b'`' | b' ' | b'\n' => false,
            _ => true,
        }
    }

    /// A one-line quoted scalar at `self.pos`: `'` doubles itself, `"` takes escapes.
    fn quoted(&mut self) -> Read<(Span, Cow<'t, str>, Style)> {
        let start = self.pos;
        let quote = self.byte(start);
        let style = if quote == b'"' {
            Style::DoubleQuoted
        } else {
            Style::SingleQuoted
        };
        // The text is copied once, at the end, unless an escape (or `''`) needs decoding:
        // then it is decoded into `decoded`, sized for the rest of the line.
        let mut decoded: Option<String> = None;
        let mut i = start + 1;
        let mut from = i;
        loop {
            // Only the quote, a backslash and the line end need a look.
            let Some(offset) = memchr::memchr3(quote, b'\\', b'\n', &self.b[i..]) else {
                return Err(Unsupported);
            };
            i += offset;
            match self.b[i] {
                b'\n' => return Err(Unsupported),
                b'\'' if quote == b'\'' && self.byte(i + 1) == b'\'' => {
                    decoding(&mut decoded, self.b, start, i).push_str(&self.text[from..=i]);
                    i += 2;
                    from = i;
                }
                c if c == quote => {
                    let value = match decoded {
                        None => Cow::Borrowed(&self.text[from..i]),
                        Some(mut text) => {
                            text.push_str(&self.text[from..i]);
                            Cow::Owned(text)
                        }
                    };
                    self.pos = i + 1;
                    return Ok((Span::new(start, i + 1), value, style));
                }
                b'\\' if quote == b'"' => {
                    let (c, len) = self.escape(i + 1)?;
                    let text = decoding(&mut decoded, self.b, start, i);
                    text.push_str(&self.text[from..i]);
                    text.push(c);
                    i += 1 + len;
                    from = i;
                }
                _ => i += 1,
            }
        }
    }

    /// The escape after a backslash at `at - 1`: the character and the escape's length.
    fn escape(&self, at: usize) -> Read<(char, usize)> {
        let simple = match self.byte(at) {
            b'"' => '"',
            b'\\' => '\\',
            b'/' => '/',
            b'n' => '\n',
            b't' => '\t',
            b'r' => '\r',
            b'b' => '\u{8}',
            b'f' => '\u{c}',
            b'0' => '\0',
            b'a' => '\u{7}',
            b'v' => '\u{b}',
            b'e' => '\u{1b}',
            b'x' => return self.hex_escape(at, 2),
            b'u' => return self.hex_escape(at, 4),
            _ => return Err(Unsupported),
        };
        Ok((simple, 1))
    }

    fn hex_escape(&self, at: usize, digits: usize) -> Read<(char, usize)> {
        let hex = self.text.get(at + 1..at + 1 + digits).ok_or(Unsupported)?;
        if !hex.bytes().all(|c| c.is_ascii_hexdigit()) {
            return Err(Unsupported);
        }
        let code = u32::from_str_radix(hex, 16).map_err(|_| Unsupported)?;
        // Surrogates are left to the full parser.
        let c = char::from_u32(code).ok_or(Unsupported)?;
        Ok((c, 1 + digits))
    }

    /// A flow collection or scalar on one line at `self.pos`.
    fn flow_node(&mut self, depth: usize) -> Read<Node> {
        if depth > MAX_NESTING {
            return Err(Unsupported);
        }
        match self.byte(self.pos) {
            b'[' => self.flow_seq(depth),
            b'{' => self.flow_map(depth),
            _ => {
                let (span, value, style) = self.flow_scalar()?;
                self.scalar(span, &value, style)
            }
        }
    }

    fn flow_scalar(&mut self) -> Read<(Span, Cow<'t, str>, Style)> {
        let start = self.pos;
        match self.byte(start) {
            b'"' | b'\'' => self.quoted(),
            _ => {
                if !self.plain_start(start, true) {
                    return Err(Unsupported);
                }
                let mut i = start;
                let mut end = start;
                loop {
                    match self.byte(i) {
                        // A flow collection goes on past the line: not taken.
                        b'\n' => return Err(Unsupported),
                        b',' | b'[' | b']' | b'{' | b'}' => break,
                        b':' if matches!(
                            self.byte(i + 1),
                            b' ' | b'\n' | b',' | b'[' | b']' | b'{' | b'}'
                        ) =>
                        {
                            break;
                        }
                        b' ' if self.byte(i + 1) == b'#' => return Err(Unsupported),
                        // saphyr-parser reads ` -` before a flow indicator as the start of
                        // another scalar, and refuses it.
                        b' ' if self.byte(i + 1) == b'-'
                            && matches!(self.byte(i + 2), b',' | b'[' | b']' | b'{' | b'}') =>
                        {
                            return Err(Unsupported);
                        }
                        b' ' => {}
                        _ => end = i + 1,
                    }
                    i += 1;
                }
                self.pos = end;
                Ok((
                    Span::new(start, end),
                    Cow::Borrowed(&self.text[start..end]),
                    Style::Plain,
                ))
            }
        }
    }

    fn skip_spaces(&mut self) {
        self.pos = spaces(self.b, self.pos);
    }

    /// After an item of a flow collection: `,` and more to come (false), or the closing
    /// bracket `close`, not passed (true).
    fn after_flow_item(&mut self, close: u8) -> Read<bool> {
        self.skip_spaces();
        match self.byte(self.pos) {
            b',' => {
                self.pos += 1;
                self.skip_spaces();
                // A trailing comma is left to the full parser.
                check(self.byte(self.pos) != close)?;
                Ok(false)
            }
            c if c == close => Ok(true),
            _ => Err(Unsupported),
        }
    }

    /// `[a, b]` on one line, at `self.pos`.
    fn flow_seq(&mut self, depth: usize) -> Read<Node> {
        self.open()?;
        let start = self.pos;
        let first = self.items.len();
        self.pos += 1;
        self.skip_spaces();
        if self.byte(self.pos) != b']' {
            loop {
                let item = self.flow_node(depth + 1)?;
                self.items.push(item);
                if self.after_flow_item(b']')? {
                    break;
                }
            }
        }
        self.pos += 1;
        self.close_seq(first, start, Some(self.pos))
    }

    /// `{k: v}` on one line, at `self.pos`.
    fn flow_map(&mut self, depth: usize) -> Read<Node> {
        self.open()?;
        let start = self.pos;
        let mut map = MapEntries::open(&self.entries);
        self.pos += 1;
        self.skip_spaces();
        if self.byte(self.pos) != b'}' {
            loop {
                if matches!(self.byte(self.pos), b'[' | b'{') {
                    return Err(Unsupported);
                }
                let (key_span, value, style) = self.flow_scalar()?;
                if key_span.len() > MAX_KEY_LEN {
                    return Err(Unsupported);
                }
                let key = self.key(&value, style)?;
                self.skip_spaces();
                if self.byte(self.pos) != b':' {
                    return Err(Unsupported);
                }
                self.pos += 1;
                // Only a quoted (JSON-like) key may have its `:` right before the value.
                if style == Style::Plain && self.byte(self.pos) != b' ' {
                    return Err(Unsupported);
                }
                self.skip_spaces();
                let value = self.flow_node(depth + 1)?;
                self.insert(
                    &mut map,
                    Entry {
                        key,
                        key_span,
                        value,
                    },
                );
                if self.after_flow_item(b'}')? {
                    break;
                }
            }
        }
        self.pos += 1;
        self.close_map(map, start, Some(self.pos))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_plain_scalar_stops_at_the_first_line_end_colon_or_hash() {
        for text in [
            "a",
            "abc: d",
            "abcdefgh#",
            "abcdefghijklmnop:",
            "é😀é😀é😀:x",
            "x".repeat(31).as_str(),
            &format!("{}:", "y".repeat(40)),
            &format!("{}\n:", "z".repeat(32)),
            "\n",
            "#:",
            "1234567:",
        ] {
            let b = text.as_bytes();
            for from in 0..=b.len() {
                let expected = b[from..]
                    .iter()
                    .position(|c| matches!(c, b'\n' | b':' | b'#'))
                    .map(|n| from + n);
                assert_eq!(plain_stop(b, from), expected, "{text:?} from {from}");
            }
        }
    }

    #[test]
    fn a_line_ends_after_its_first_newline() {
        let limits = Limits::DEFAULT;
        for text in [
            "",
            "\n",
            "# c\n",
            "# a comment longer than eight bytes\nb",
            "no newline at all, longer than eight bytes",
            "short",
            "\n\n\n",
            "é😀é😀é😀\nx",
            "1234567\n",
            "12345678\n",
            "123456789\n",
        ] {
            let reader = Reader {
                text,
                b: text.as_bytes(),
                pos: 0,
                limits: &limits,
                items: Vec::new(),
                entries: Vec::new(),
                documents: Vec::new(),
                problems: Vec::new(),
                nodes: 0,
                open: 0,
            };
            let b = text.as_bytes();
            for at in 0..=b.len() + 1 {
                let expected = b[at.min(b.len())..]
                    .iter()
                    .position(|&c| c == b'\n')
                    .map_or(b.len(), |n| at + n + 1);
                assert_eq!(reader.line_end(at), expected, "{text:?} at {at}");
            }
        }
    }

    #[test]
    fn a_run_of_spaces_ends_where_a_byte_loop_ends_it() {
        for text in [
            "",
            " ",
            "a",
            "  a",
            "        ",
            "         x",
            "   \n   ",
            "\t ",
        ] {
            for pad in 0..20 {
                let text = format!("{}{text}{}", " ".repeat(pad), "b ".repeat(pad % 3));
                let b = text.as_bytes();
                for from in 0..=b.len() {
                    let expected = (from..b.len()).find(|&i| b[i] != b' ').unwrap_or(b.len());
                    assert_eq!(spaces(b, from), expected, "{text:?} from {from}");
                }
            }
        }
    }

    #[test]
    fn characters_the_full_parser_treats_otherwise_are_found_anywhere() {
        for bad in [
            "\t", "\r", "\u{0}", "\u{7f}", "\u{85}", "\u{9f}", "\u{2028}", "\u{2029}", "\u{feff}",
            "\u{fffe}", "\u{ffff}",
        ] {
            // At every offset, so that a character across a 64-byte or a 1024-byte block
            // is found too.
            for at in (0..130).chain(950..1100) {
                let text = format!("{}{bad}{}", "a".repeat(at), "b".repeat(70));
                assert!(!plain_characters(text.as_bytes()), "{bad:?} at {at}");
            }
        }
        for good in ["a: b\n", "é ü 😀 \u{a0} \u{2027} \u{fffd}", ""] {
            let text = good.repeat(40);
            assert!(plain_characters(text.as_bytes()), "{good:?}");
        }
    }

    #[test]
    fn the_block_check_agrees_with_a_check_of_each_character() {
        let taken = |c: char| {
            c == '\n'
                || c >= ' '
                    && c != '\u{7f}'
                    && !('\u{80}'..='\u{9f}').contains(&c)
                    && !matches!(
                        c,
                        '\u{2028}' | '\u{2029}' | '\u{feff}' | '\u{fffe}' | '\u{ffff}'
                    )
        };
        let rare = [
            'é', '😀', '\u{a0}', '\u{2027}', '\u{fffd}', '\t', '\r', '\0', '\u{7f}', '\u{85}',
            '\u{9f}', '\u{2028}', '\u{2029}', '\u{feff}', '\u{fffe}', '\u{ffff}',
        ];
        let mut next = crate::testing::xorshift(0x9E37_79B9_7F4A_7C15);
        for _ in 0..2000 {
            let len = (next() % 3000) as usize;
            // Most texts have no rare character at all, some one, some several.
            let rate = [0, 0, 2000, 200][(next() % 4) as usize];
            let text: String = (0..len)
                .map(|_| {
                    let r = next();
                    if rate != 0 && r.is_multiple_of(rate) {
                        rare[(r / rate) as usize % rare.len()]
                    } else if r % 40 == 1 {
                        '\n'
                    } else {
                        char::from(b' ' + (r >> 8) as u8 % 95)
                    }
                })
                .collect();
            assert_eq!(
                plain_characters(text.as_bytes()),
                text.chars().all(taken),
                "{text:?}"
            );
        }
    }
}
