//! Loading: bytes to spanned document trees, with every limit enforced while parsing.
//!
//! Nothing here decides what is wrong with a request; the loader only records
//! [`Problem`]s (syntax, limits, duplicate keys, encoding) that rules turn into diagnostics.

pub mod encoded;
mod json;
pub mod span;
pub mod tree;
pub mod yaml;
mod yaml_block;

pub use span::{LineIndex, Position, Span};
pub use tree::{Entry, Node, Text, Value};

/// Hard limits that keep a hostile file from costing unbounded time, memory or stack.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    pub max_file_bytes: u64,
    pub max_depth: usize,
    pub max_nodes: usize,
    pub max_alias_nodes: usize,
    pub max_documents: usize,
}

impl Limits {
    pub const DEFAULT: Limits = Limits {
        max_file_bytes: 10 * 1024 * 1024,
        max_depth: 128,
        max_nodes: 1_000_000,
        max_alias_nodes: 100_000,
        max_documents: 10_000,
    };
}

impl Default for Limits {
    fn default() -> Self {
        Limits::DEFAULT
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProblemKind {
    /// Not valid YAML or JSON.
    Syntax,
    /// Not text: invalid UTF-8, NUL bytes.
    Encoding,
    /// Size, depth, node, alias or document limit.
    Limit,
    /// A mapping key given twice; `related` is the first occurrence.
    DuplicateKey,
}

/// Something the loader found wrong with the file itself.
#[derive(Clone, Debug, PartialEq)]
pub struct Problem {
    pub kind: ProblemKind,
    pub span: Span,
    pub message: String,
    pub related: Option<Span>,
    /// For a duplicate key: the entry the later one replaced, which rules that look
    /// for secrets still need to see.
    pub shadowed: Option<Box<Entry>>,
}

impl Problem {
    pub fn new(kind: ProblemKind, span: Span, message: impl Into<String>) -> Self {
        Problem {
            kind,
            span,
            message: message.into(),
            related: None,
            shadowed: None,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Yaml,
    Json,
}

impl Format {
    /// `.json` is JSON; anything else is read as YAML, which JSON is a subset of.
    pub fn from_path(path: &str) -> Format {
        let lower = path.to_ascii_lowercase();
        if lower.ends_with(".json") {
            Format::Json
        } else {
            Format::Yaml
        }
    }
}

/// A file's text and the documents read from it.
#[derive(Debug, Default)]
pub struct Loaded {
    /// The text as read; for a file that is not valid UTF-8, its lossy decoding (the
    /// bytes before the first invalid sequence keep their offsets).
    pub text: String,
    pub documents: Vec<Node>,
    pub problems: Vec<Problem>,
}

/// The entries of a mapping as a loader reads them: a repeated key is found at once (by
/// a hash index once the mapping is large) and replaces the first, which the
/// duplicate-key problem keeps.
#[derive(Debug, Default)]
pub(crate) struct MapEntries {
    pub entries: Vec<Entry>,
    index: Option<std::collections::HashMap<Text, usize>>,
}

/// Past this many entries, keys are found through a hash index.
const LINEAR_KEY_SEARCH: usize = 16;

impl MapEntries {
    pub fn position(&self, key: &str) -> Option<usize> {
        match &self.index {
            Some(index) => index.get(key).copied(),
            None => self.entries.iter().position(|e| e.key == key),
        }
    }

    /// Adds an entry whose key is not there yet.
    pub fn push(&mut self, entry: Entry) {
        if let Some(index) = &mut self.index {
            index.insert(entry.key.clone(), self.entries.len());
        } else if self.entries.len() >= LINEAR_KEY_SEARCH {
            let mut index: std::collections::HashMap<Text, usize> = self
                .entries
                .iter()
                .enumerate()
                .map(|(i, e)| (e.key.clone(), i))
                .collect();
            index.insert(entry.key.clone(), self.entries.len());
            self.index = Some(index);
        }
        self.entries.push(entry);
    }

    /// Adds an entry, or replaces the one with the same key: the API reads the last value
    /// of a repeated field, and so do the rules. The problem of a repeated key is returned.
    pub fn insert(&mut self, entry: Entry) -> Option<Problem> {
        let Some(i) = self.position(&entry.key) else {
            self.push(entry);
            return None;
        };
        let span = entry.key_span;
        let message = format!("duplicate key `{}`", entry.key);
        let first = std::mem::replace(&mut self.entries[i], entry);
        Some(Problem {
            kind: ProblemKind::DuplicateKey,
            span,
            message,
            related: Some(first.key_span),
            shadowed: Some(Box::new(first)),
        })
    }
}

/// How many bytes are checked for NUL to tell a binary file.
const BINARY_SNIFF_BYTES: usize = 8192;

/// Reads one file's bytes into documents. Never panics on any input.
pub fn load(bytes: Vec<u8>, format: Format, limits: &Limits) -> Loaded {
    if bytes.len() as u64 > limits.max_file_bytes {
        return Loaded {
            text: String::new(),
            documents: Vec::new(),
            problems: vec![too_large(bytes.len() as u64, limits)],
        };
    }
    let sniffed_len = bytes.len().min(BINARY_SNIFF_BYTES);
    let sniffed = &bytes[..sniffed_len];
    // `contains` on bytes is a memchr; `position` only runs on a binary file.
    if sniffed.contains(&0)
        && let Some(nul) = sniffed.iter().position(|&b| b == 0)
    {
        return Loaded {
            text: String::new(),
            documents: Vec::new(),
            problems: vec![Problem::new(
                ProblemKind::Encoding,
                Span::empty(0),
                format!("binary file: NUL byte at offset {nul}; request files are UTF-8 text"),
            )],
        };
    }
    let text = match String::from_utf8(bytes) {
        Ok(text) => text,
        Err(err) => {
            let at = err.utf8_error().valid_up_to();
            let text = String::from_utf8_lossy(err.as_bytes()).into_owned();
            return Loaded {
                text,
                documents: Vec::new(),
                problems: vec![Problem::new(
                    ProblemKind::Encoding,
                    Span::empty(at),
                    format!("invalid UTF-8 at byte {at}; request files are UTF-8 text"),
                )],
            };
        }
    };
    // The first bytes were sniffed above.
    if text.as_bytes()[sniffed_len..].contains(&0) {
        let at = text.find('\0').unwrap_or(0);
        return Loaded {
            problems: vec![Problem::new(
                ProblemKind::Encoding,
                Span::empty(at),
                format!("NUL byte at offset {at}; request files are UTF-8 text"),
            )],
            text,
            documents: Vec::new(),
        };
    }
    let (documents, problems) = parse_text(&text, format, limits);
    Loaded {
        text,
        documents,
        problems,
    }
}

/// Parses text that is already known to be valid.
pub fn parse_text(text: &str, format: Format, limits: &Limits) -> (Vec<Node>, Vec<Problem>) {
    match format {
        Format::Yaml => yaml::parse(text, limits),
        Format::Json => json::parse(text, limits),
    }
}

pub fn too_large(size: u64, limits: &Limits) -> Problem {
    Problem::new(
        ProblemKind::Limit,
        Span::empty(0),
        format!(
            "file is {} bytes, over the limit of {} bytes; it was not read",
            size, limits.max_file_bytes
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_nul_byte_is_found_before_and_after_the_sniffed_bytes() {
        for before in [
            0,
            10,
            BINARY_SNIFF_BYTES - 1,
            BINARY_SNIFF_BYTES - 2,
            BINARY_SNIFF_BYTES + 5,
        ] {
            // A two-byte character across the end of the sniffed bytes, then the NUL.
            let mut text = "a".repeat(before);
            text.push('é');
            text.push('\0');
            text.push_str("b: 1\n");
            let loaded = load(text.clone().into_bytes(), Format::Yaml, &Limits::DEFAULT);
            assert!(loaded.documents.is_empty(), "{before}");
            assert_eq!(loaded.problems.len(), 1, "{before}");
            assert_eq!(loaded.problems[0].kind, ProblemKind::Encoding, "{before}");
            assert!(
                loaded.problems[0]
                    .message
                    .contains(&format!("offset {}", before + 2)),
                "{before}: {}",
                loaded.problems[0].message
            );
        }
    }
}
