//! Where things are, in the client's terms: file URIs, and positions counted in the
//! encoding the client and the server agreed on (UTF-16 code units unless the client
//! offered UTF-8).

use std::path::{Path, PathBuf};

use lsp_types::{Position, Range, Uri};

use crate::loading::{LineIndex, Span};

/// `/a/b c.yaml` → `file:///a/b%20c.yaml`: the bytes a URI path may not hold,
/// percent-encoded.
pub fn path_to_uri(path: &Path) -> String {
    let mut uri = String::from("file://");
    for &b in path.to_string_lossy().as_bytes() {
        if b.is_ascii_alphanumeric() || b"/-._~!$&'()*+,;=:@".contains(&b) {
            uri.push(char::from(b));
        } else {
            uri.push_str(&format!("%{b:02X}"));
        }
    }
    uri
}

/// The URI of a file, as the protocol's type; none if it does not parse as one, which
/// `path_to_uri`'s encoding rules out.
pub fn file_uri(path: &Path) -> Option<Uri> {
    path_to_uri(path).parse().ok()
}

/// `file:///a/b%20c.yaml` → `/a/b c.yaml`.
pub fn uri_to_path(uri: &str) -> Option<PathBuf> {
    let rest = uri.strip_prefix("file://")?;
    let bytes = rest.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let decoded = (bytes[i] == b'%')
            .then(|| bytes.get(i + 1..i + 3))
            .flatten()
            .and_then(|h| std::str::from_utf8(h).ok())
            .and_then(|h| u8::from_str_radix(h, 16).ok());
        if let Some(b) = decoded {
            out.push(b);
            i += 3;
            continue;
        }
        out.push(bytes[i]);
        i += 1;
    }
    Some(PathBuf::from(String::from_utf8(out).ok()?))
}

/// An LSP position: 0-based line, and UTF-16 code units from the line's start.
pub fn lsp_position(text: &str, lines: &LineIndex, offset: usize) -> Position {
    let (line, character) = lines.utf16_position(text, offset);
    position(line, character)
}

/// A position from a line and a column; a document is bounded far below 2^32 of either,
/// and a larger one would be clamped rather than wrapped.
fn position(line: usize, character: usize) -> Position {
    let clamp = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
    Position::new(clamp(line), clamp(character))
}

/// A text with its lines indexed, to turn byte offsets into the client's positions and
/// back.
pub struct Positions {
    text: String,
    lines: LineIndex,
    /// Positions count UTF-8 bytes, else UTF-16 code units.
    utf8: bool,
}

impl Positions {
    pub fn new(text: String, utf8: bool) -> Positions {
        let lines = LineIndex::new(&text);
        Positions { text, lines, utf8 }
    }

    pub fn text(&self) -> &str {
        &self.text
    }

    pub fn lines(&self) -> &LineIndex {
        &self.lines
    }

    /// The client's position of a byte offset (clamped to the text).
    pub fn position(&self, offset: usize) -> Position {
        if !self.utf8 {
            return lsp_position(&self.text, &self.lines, offset);
        }
        let offset = offset.min(self.text.len());
        let line = self.lines.line_of(offset);
        position(line, offset - self.lines.line_start(line))
    }

    pub fn range(&self, span: Span) -> Range {
        Range::new(self.position(span.start), self.position(span.end))
    }

    /// The byte offset of a client's position (clamped to the text).
    pub fn offset(&self, position: Position) -> usize {
        let (text, lines) = (&self.text, &self.lines);
        let line = position.line as usize;
        let character = position.character as usize;
        if line >= lines.line_count() {
            return text.len();
        }
        let start = lines.line_start(line);
        let end = lines.line_end(text, line);
        if self.utf8 {
            let mut at = (start + character).min(end);
            while !text.is_char_boundary(at) {
                at -= 1;
            }
            return at;
        }
        let mut units = 0;
        for (i, c) in text[start..end].char_indices() {
            if units >= character {
                return start + i;
            }
            units += c.len_utf16();
        }
        end
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uris_and_paths_round_trip() {
        for path in [
            "/tmp/a b/c%d.req.yaml",
            "/tmp/ü/#1?.yaml",
            "/plain/a.req.yaml",
        ] {
            let uri = path_to_uri(Path::new(path));
            assert!(!uri.contains([' ', '#', '?', 'ü'].as_slice()), "{uri}");
            assert_eq!(uri_to_path(&uri), Some(PathBuf::from(path)), "{uri}");
            // A URI the protocol's type accepts as it is.
            assert_eq!(file_uri(Path::new(path)).unwrap().as_str(), uri);
        }
        assert_eq!(
            path_to_uri(Path::new("/tmp/a b.yaml")),
            "file:///tmp/a%20b.yaml"
        );
    }

    #[test]
    fn positions_count_utf16_units() {
        let text = "a: \u{1F600} x\nb: 1\n";
        let lines = LineIndex::new(text);
        let x = text.find('x').unwrap();
        assert_eq!(lsp_position(text, &lines, x), Position::new(0, 6));
        let b = text.find('b').unwrap();
        assert_eq!(lsp_position(text, &lines, b), Position::new(1, 0));
    }

    #[test]
    fn offsets_and_positions_round_trip_in_either_encoding() {
        let text = "a: \u{1F600} x\nb: é\n";
        for (utf8, x_at) in [(false, 6), (true, 8)] {
            let positions = Positions::new(text.to_string(), utf8);
            let x = text.find('x').unwrap();
            assert_eq!(positions.position(x), Position::new(0, x_at));
            assert_eq!(positions.offset(Position::new(0, x_at)), x);
            // Past the end of a line: its end; past the last line: the text's end.
            assert_eq!(positions.offset(Position::new(1, 99)), text.len() - 1);
            assert_eq!(positions.offset(Position::new(9, 0)), text.len());
        }
        // Inside a character (UTF-8 counts): the character's start.
        let positions = Positions::new(text.to_string(), true);
        let emoji = text.find('\u{1F600}').unwrap();
        assert_eq!(positions.offset(Position::new(0, 5)), emoji);
    }

    #[test]
    fn file_uris() {
        assert_eq!(
            uri_to_path("file:///tmp/a%20b.yaml"),
            Some(PathBuf::from("/tmp/a b.yaml"))
        );
        assert_eq!(uri_to_path("untitled:1"), None);
    }
}
