//! Byte spans and their line/column view.
//!
//! Every key and value of a loaded document carries a [`Span`] of byte offsets into the
//! file. Lines and columns are derived only when a diagnostic is reported, through a
//! [`LineIndex`] built once per file.

use std::ops::Range;

/// A half-open range of byte offsets into a file's text.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Span {
    pub start: usize,
    pub end: usize,
}

impl Span {
    pub const fn new(start: usize, end: usize) -> Self {
        Span { start, end }
    }

    pub const fn empty(at: usize) -> Self {
        Span { start: at, end: at }
    }

    pub const fn len(&self) -> usize {
        self.end - self.start
    }

    pub const fn is_empty(&self) -> bool {
        self.start == self.end
    }

    pub fn range(&self) -> Range<usize> {
        self.start..self.end
    }

    /// The smallest span holding both.
    pub fn cover(self, other: Span) -> Span {
        Span::new(self.start.min(other.start), self.end.max(other.end))
    }
}

/// A 1-based line and a 1-based column counted in Unicode characters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Position {
    pub line: usize,
    pub column: usize,
}

/// Start offsets of every line of a text, for offset to line/column conversion.
#[derive(Debug, Clone)]
pub struct LineIndex {
    line_starts: Vec<usize>,
    /// Characters (and UTF-16 code units) before every [`COLUMN_CHUNK`]-th byte, made on
    /// the first column asked of a long line: many diagnostics on one long line (a
    /// minified JSON file) then cost a bounded count each instead of the whole line's.
    counts: std::sync::OnceLock<Vec<(usize, usize)>>,
}

/// A column counted inside a line shorter than this is counted directly.
const COLUMN_CHUNK: usize = 4096;

/// Characters in a byte range that may start or end inside a character: the bytes that
/// are not UTF-8 continuation bytes.
fn chars_in(bytes: &[u8]) -> usize {
    bytes.iter().filter(|&&b| (b & 0xC0) != 0x80).count()
}

/// Characters outside the Basic Multilingual Plane, which UTF-16 writes as two units: the
/// bytes that start a four-byte sequence.
fn astral_in(bytes: &[u8]) -> usize {
    bytes.iter().filter(|&&b| b >= 0xF0).count()
}

impl LineIndex {
    pub fn new(text: &str) -> Self {
        let mut line_starts = Vec::with_capacity(text.len() / 40 + 1);
        line_starts.push(0);
        line_starts.extend(memchr::memchr_iter(b'\n', text.as_bytes()).map(|i| i + 1));
        LineIndex {
            line_starts,
            counts: std::sync::OnceLock::new(),
        }
    }

    /// 0-based line holding `offset`.
    pub fn line_of(&self, offset: usize) -> usize {
        self.line_starts.partition_point(|&s| s <= offset) - 1
    }

    pub fn line_start(&self, line0: usize) -> usize {
        self.line_starts[line0]
    }

    pub fn line_count(&self) -> usize {
        self.line_starts.len()
    }

    /// Byte offset where 0-based `line0` ends, its line break excluded.
    pub fn line_end(&self, text: &str, line0: usize) -> usize {
        let end = self
            .line_starts
            .get(line0 + 1)
            .map_or(text.len(), |&next| next - 1);
        if end > self.line_starts[line0] && text.as_bytes().get(end - 1) == Some(&b'\r') {
            end - 1
        } else {
            end
        }
    }

    /// Line and character column of a byte offset. An offset inside a multi-byte
    /// character counts as that character.
    pub fn position(&self, text: &str, offset: usize) -> Position {
        let offset = offset.min(text.len());
        let line0 = self.line_of(offset);
        let start = self.line_starts[line0];
        let (chars, _) = self.counts_between(text.as_bytes(), start, offset);
        Position {
            line: line0 + 1,
            column: chars + 1,
        }
    }

    /// 0-based line and 0-based column in UTF-16 code units, as the Language Server
    /// Protocol counts them.
    pub fn utf16_position(&self, text: &str, offset: usize) -> (usize, usize) {
        let offset = offset.min(text.len());
        let line0 = self.line_of(offset);
        let start = self.line_starts[line0];
        let (chars, astral) = self.counts_between(text.as_bytes(), start, offset);
        (line0, chars + astral)
    }

    /// Characters and astral characters in `bytes[from..to]`, in time bounded by
    /// [`COLUMN_CHUNK`] whatever the distance.
    fn counts_between(&self, bytes: &[u8], from: usize, to: usize) -> (usize, usize) {
        if to - from <= COLUMN_CHUNK {
            let range = &bytes[from..to];
            return (chars_in(range), astral_in(range));
        }
        let counts = self.counts.get_or_init(|| {
            let mut counts = Vec::with_capacity(bytes.len() / COLUMN_CHUNK + 1);
            let (mut chars, mut astral) = (0, 0);
            counts.push((0, 0));
            for chunk in bytes.chunks(COLUMN_CHUNK) {
                chars += chars_in(chunk);
                astral += astral_in(chunk);
                counts.push((chars, astral));
            }
            counts
        });
        let before = |at: usize| {
            let chunk = at / COLUMN_CHUNK;
            let rest = &bytes[chunk * COLUMN_CHUNK..at];
            let (c, a) = counts[chunk];
            (c + chars_in(rest), a + astral_in(rest))
        };
        let (c_to, a_to) = before(to);
        let (c_from, a_from) = before(from);
        (c_to - c_from, a_to - a_from)
    }
}

/// Converts character indices (as the YAML parser reports them) to byte offsets.
///
/// ASCII text needs no table; otherwise a checkpoint every 64 characters keeps the
/// table small for large files while each lookup walks at most 63 characters.
pub struct CharToByte<'a> {
    text: &'a str,
    checkpoints: Option<Vec<usize>>,
}

const CHECKPOINT_EVERY: usize = 64;

impl<'a> CharToByte<'a> {
    pub fn new(text: &'a str) -> Self {
        let checkpoints = (!text.is_ascii()).then(|| {
            text.char_indices()
                .step_by(CHECKPOINT_EVERY)
                .map(|(b, _)| b)
                .collect()
        });
        CharToByte { text, checkpoints }
    }

    pub fn byte(&self, char_index: usize) -> usize {
        match &self.checkpoints {
            None => char_index.min(self.text.len()),
            Some(cps) => {
                let cp = char_index / CHECKPOINT_EVERY;
                let Some(&base) = cps.get(cp) else {
                    return self.text.len();
                };
                let rest = char_index % CHECKPOINT_EVERY;
                self.text[base..]
                    .char_indices()
                    .nth(rest)
                    .map_or(self.text.len(), |(b, _)| base + b)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_count_characters_not_bytes() {
        let text = "name: Café Müller\nx: 1\n";
        let idx = LineIndex::new(text);
        let m = text.find("Müller").unwrap();
        assert_eq!(
            idx.position(text, m),
            Position {
                line: 1,
                column: 12
            }
        );
        let x = text.find('x').unwrap();
        assert_eq!(idx.position(text, x), Position { line: 2, column: 1 });
    }

    #[test]
    fn long_lines_count_as_short_ones() {
        // Multi-byte and astral characters across many chunk boundaries, on one line
        // after a short one.
        let line: String = (0..20_000)
            .map(|i| match i % 5 {
                0 => 'é',
                1 => '\u{1F600}',
                2 => '€',
                _ => 'a',
            })
            .collect();
        let text = format!("x: 1\n{line}\nlast\n");
        let idx = LineIndex::new(&text);
        for offset in (0..text.len()).step_by(997).chain([text.len()]) {
            let start = idx.line_start(idx.line_of(offset));
            let naive = text.as_bytes()[start..offset]
                .iter()
                .filter(|&&b| (b & 0xC0) != 0x80)
                .count();
            assert_eq!(idx.position(&text, offset).column, naive + 1, "{offset}");
            let utf16: usize = text[start..text.floor_char_boundary(offset)]
                .chars()
                .map(char::len_utf16)
                .sum();
            if text.is_char_boundary(offset) {
                assert_eq!(idx.utf16_position(&text, offset).1, utf16, "{offset}");
            }
        }
    }

    #[test]
    fn emoji_counts_as_one_column() {
        let text = "a: \u{1F600}b\n";
        let idx = LineIndex::new(text);
        let b = text.find('b').unwrap();
        assert_eq!(idx.position(text, b), Position { line: 1, column: 5 });
    }

    #[test]
    fn crlf_lines() {
        let text = "a: 1\r\nb: 2\r\n";
        let idx = LineIndex::new(text);
        let b = text.find('b').unwrap();
        assert_eq!(idx.position(text, b), Position { line: 2, column: 1 });
        assert_eq!(idx.line_end(text, 0), 4);
        assert_eq!(&text[idx.line_start(1)..idx.line_end(text, 1)], "b: 2");
    }

    #[test]
    fn tabs_are_one_column() {
        let text = "\tkey: v";
        let idx = LineIndex::new(text);
        assert_eq!(idx.position(text, 1), Position { line: 1, column: 2 });
    }

    #[test]
    fn end_of_text_position() {
        let text = "a\nb";
        let idx = LineIndex::new(text);
        assert_eq!(idx.position(text, 3), Position { line: 2, column: 2 });
        assert_eq!(idx.position(text, 99), Position { line: 2, column: 2 });
    }

    #[test]
    fn char_to_byte_non_ascii_across_checkpoints() {
        let text: String = "é".repeat(200) + "x";
        let map = CharToByte::new(&text);
        assert_eq!(map.byte(0), 0);
        assert_eq!(map.byte(1), 2);
        assert_eq!(map.byte(130), 260);
        assert_eq!(map.byte(200), 400);
        assert_eq!(map.byte(201), 401);
        assert_eq!(map.byte(5000), 401);
    }

    #[test]
    fn char_to_byte_ascii_is_identity() {
        let map = CharToByte::new("hello");
        assert_eq!(map.byte(3), 3);
    }
}
