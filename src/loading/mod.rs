//! Loading: bytes to spanned document trees, with every limit enforced while parsing.
//!
//! Nothing here decides what is wrong with a request; the loader only records
//! [`Problem`]s (syntax, limits, duplicate keys, encoding) that rules turn into diagnostics.

pub mod credentials;
pub mod encoded;
pub mod encoded_params;
mod json;
pub mod readers;
pub mod span;
pub mod tree;
pub mod work;
pub mod yaml;
mod yaml_block;

use std::path::Path;

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
    /// Bytes of variable values substituted into one value (a variable's value with
    /// the references it holds resolved, a request line).
    pub max_substituted_value_bytes: usize,
    /// Bytes of variable values substituted into all the values of one file.
    pub max_substituted_file_bytes: usize,
}

impl Limits {
    pub const DEFAULT: Limits = Limits {
        max_file_bytes: 10 * 1024 * 1024,
        max_depth: 128,
        max_nodes: 1_000_000,
        max_alias_nodes: 100_000,
        max_documents: 10_000,
        max_substituted_value_bytes: 64 * 1024,
        max_substituted_file_bytes: 16 * 1024 * 1024,
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
    /// A file in a dialect of its format that reqlint does not read (a dothttp file among
    /// `.http` files): nothing in it is read, and that is said once.
    OtherDialect,
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
    /// JSON: a request file, or a Postman collection or environment (chosen by its
    /// content, whatever the file's name).
    Json,
    /// A format read by one of the [`readers`].
    Read(readers::Reader),
}

impl Format {
    /// `.postman_collection.json`, `.http`/`.rest`, `.bru` and `.hurl` are read by their
    /// readers; `.json` is JSON; anything else is read as YAML, which JSON is a subset of.
    pub fn from_path(path: &str) -> Format {
        if let Some(reader) = readers::Reader::from_path(path) {
            return Format::Read(reader);
        }
        if readers::ends_with_ignoring_case(path, ".json") {
            Format::Json
        } else {
            Format::Yaml
        }
    }

    /// Whether `#` comments of the file may hold suppressions (YAML, `.http`, Bruno and
    /// Hurl files).
    pub fn has_comments(self) -> bool {
        !matches!(self, Format::Json | Format::Read(readers::Reader::Postman))
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
    /// Whether every string of the documents is one the text writes, unescaped: true for
    /// request files read as YAML or JSON; false where a reader builds strings of its
    /// own (a Postman placeholder, a workflow's script argument, become `{{name}}`).
    pub strings_as_written: bool,
}

/// The entries of a mapping a loader has open. The entries of all the open mappings of a
/// file stand on one stack that keeps its room from one mapping to the next (the
/// innermost mapping's entries last), so that a mapping costs one allocation of its exact
/// size when it closes, where a vector of its own grew three or four times. A repeated
/// key is found at once (by a hash index once the mapping is large) and replaces the
/// first, which the duplicate-key problem keeps.
#[derive(Debug)]
pub(crate) struct MapEntries {
    /// Where this mapping's entries start on the stack.
    first: usize,
    /// One bit for each key's [`key_bit`]: a key whose bit is not set is new, and most
    /// keys are, so a small mapping is searched only on a collision.
    key_bits: u64,
    // Boxed: few mappings need an index, and an open mapping's frame, moved onto and off
    // the YAML builder's stack, stays small (measured: 0.9 M instructions less on 1,000
    // files than the index held in place).
    #[allow(clippy::box_collection)]
    index: Option<Box<std::collections::HashMap<Text, usize>>>,
}

/// The room a loader's stacks of items and entries start with: enough for most files,
/// whose collections then cost no growth of the stacks either.
pub(crate) const STACK_ROOM: usize = 32;

/// Past this many entries, keys are found through a hash index.
const LINEAR_KEY_SEARCH: usize = 16;

impl MapEntries {
    /// A mapping whose entries will follow those now on `stack`.
    pub fn open(stack: &[Entry]) -> Self {
        MapEntries {
            first: stack.len(),
            key_bits: 0,
            index: None,
        }
    }

    /// The index of the entry with this key among this mapping's entries.
    #[inline(always)]
    pub fn position(&self, stack: &[Entry], key: &str) -> Option<usize> {
        match &self.index {
            Some(index) => index.get(key).copied(),
            None if self.key_bits & key_bit(key) == 0 => None,
            None => stack[self.first..].iter().position(|e| e.key == key),
        }
    }

    #[inline]
    pub fn len(&self, stack: &[Entry]) -> usize {
        stack.len() - self.first
    }

    /// This mapping's entry `i`.
    #[inline]
    pub fn entry<'s>(&self, stack: &'s mut [Entry], i: usize) -> &'s mut Entry {
        &mut stack[self.first + i]
    }

    /// Adds an entry whose key is not there yet.
    // Inlined into the readers' loops, with the rare work out of line: a call for each
    // entry cost more than the work it did.
    #[inline(always)]
    pub fn push(&mut self, stack: &mut Vec<Entry>, entry: Entry) {
        self.key_bits |= key_bit(&entry.key);
        if self.index.is_some() || self.len(stack) >= LINEAR_KEY_SEARCH {
            self.index_key(stack, &entry.key);
        }
        stack.push(entry);
    }

    /// Enters a key about to be pushed in the hash index, made first if need be.
    #[cold]
    #[inline(never)]
    fn index_key(&mut self, stack: &[Entry], key: &Text) {
        let len = self.len(stack);
        let index = self.index.get_or_insert_with(|| {
            Box::new(
                stack[self.first..]
                    .iter()
                    .enumerate()
                    .map(|(i, e)| (e.key.clone(), i))
                    .collect(),
            )
        });
        index.insert(key.clone(), len);
    }

    /// Adds an entry, or replaces entry `found` (the one with the same key, from
    /// [`MapEntries::position`]): the API reads the last value of a repeated field, and so
    /// do the rules. The problem of a repeated key is returned.
    #[inline(always)]
    pub fn insert_at(
        &mut self,
        stack: &mut Vec<Entry>,
        found: Option<usize>,
        entry: Entry,
    ) -> Option<Problem> {
        match found {
            None => {
                self.push(stack, entry);
                None
            }
            Some(i) => Some(self.replace(stack, i, entry)),
        }
    }

    /// Replaces entry `i` by a later one with the same key: the problem of a repeated key.
    #[cold]
    #[inline(never)]
    fn replace(&self, stack: &mut [Entry], i: usize, entry: Entry) -> Problem {
        let span = entry.key_span;
        let message = format!("duplicate key `{}`", entry.key);
        let first = std::mem::replace(self.entry(stack, i), entry);
        Problem {
            kind: ProblemKind::DuplicateKey,
            span,
            message,
            related: Some(first.key_span),
            shadowed: Some(Box::new(first)),
        }
    }

    /// [`MapEntries::insert_at`] the entry's key, wherever it is.
    #[inline(always)]
    pub fn insert(&mut self, stack: &mut Vec<Entry>, entry: Entry) -> Option<Problem> {
        let found = self.position(stack, &entry.key);
        self.insert_at(stack, found, entry)
    }

    /// Closes the mapping: its entries, taken off the stack into a vector of their size.
    #[inline]
    pub fn close(self, stack: &mut Vec<Entry>) -> Vec<Entry> {
        take_from(stack, self.first)
    }
}

/// One of 64 bits picked by a key's length and its first and last bytes (keys of one
/// mapping mostly differ in one of those).
#[inline]
fn key_bit(key: &str) -> u64 {
    let b = key.as_bytes();
    let mixed = (b.len() as u64)
        | u64::from(b.first().copied().unwrap_or(0)) << 16
        | u64::from(b.last().copied().unwrap_or(0)) << 32;
    1 << (mixed.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 58)
}

/// The items of `stack` from `first` on, moved into a vector of their size in one copy
/// (`drain(..).collect()` moves them one by one).
pub(crate) fn take_from<T>(stack: &mut Vec<T>, first: usize) -> Vec<T> {
    if first == 0 {
        // `split_off(0)` hands the whole room over and gives the stack new room of the
        // same size: a copy of exactly the items is smaller.
        let mut items = Vec::with_capacity(stack.len());
        items.append(stack);
        return items;
    }
    stack.split_off(first)
}

/// How many bytes are checked for NUL to tell a binary file.
const BINARY_SNIFF_BYTES: usize = 8192;

/// A file's bytes, or its size when it is over the limit.
pub enum ReadFile {
    Bytes(Vec<u8>),
    TooLarge(u64),
}

/// Reads a regular file of at most `max` bytes in four system calls (open, stat of the
/// open file, one read, close) where `fs::metadata` and `fs::read` make six: on a run over
/// 10,000 small files the calls cost more than the reading.
pub fn read_regular_file(path: &Path, max: u64) -> std::io::Result<ReadFile> {
    read_regular_file_with_metadata(path, max).map(|(read, _)| read)
}

/// [`read_regular_file`], with the metadata of the file as it was opened.
pub fn read_regular_file_with_metadata(
    path: &Path,
    max: u64,
) -> std::io::Result<(ReadFile, std::fs::Metadata)> {
    use std::io::Read;
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    // A FIFO would block the open itself until a writer comes.
    #[cfg(target_os = "linux")]
    std::os::unix::fs::OpenOptionsExt::custom_flags(&mut options, libc::O_NONBLOCK);
    let mut file = options.open(path)?;
    let meta = file.metadata()?;
    if meta.is_dir() {
        return Err(std::io::Error::other("it is a directory"));
    }
    // A FIFO or a device would block the read, or never end.
    if !meta.is_file() {
        return Err(std::io::Error::other("it is not a regular file"));
    }
    if meta.len() > max {
        return Ok((ReadFile::TooLarge(meta.len()), meta));
    }
    // One byte more than the file holds: a read that does not fill the buffer has met
    // the end of a regular file, so no second read is needed to see it.
    let mut buf = vec![0u8; meta.len() as usize + 1];
    let mut filled = 0;
    loop {
        let n = match file.read(&mut buf[filled..]) {
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        filled += n;
        if n == 0 || filled < buf.len() {
            break;
        }
        // The file grew since it was measured.
        if filled as u64 > max {
            return Ok((ReadFile::TooLarge(filled as u64), meta));
        }
        let grown = (buf.len() * 2).min(max as usize + 1);
        buf.resize(grown, 0);
    }
    buf.truncate(filled);
    Ok((ReadFile::Bytes(buf), meta))
}

/// Reads a file reqlint is told to read besides the request files (the config, a
/// context snapshot): a regular file of at most `max` bytes, or a one-line reason.
pub fn read_bounded(path: &Path, max: u64, what: &str) -> Result<Vec<u8>, String> {
    match read_regular_file(path, max) {
        Ok(ReadFile::Bytes(bytes)) => Ok(bytes),
        Ok(ReadFile::TooLarge(size)) => Err(format!(
            "cannot read {what} {}: it is {size} bytes, over the limit of {max} bytes",
            path.display()
        )),
        Err(e) => Err(format!("cannot read {what} {}: {e}", path.display())),
    }
}

/// Reads one file's bytes into documents. Never panics on any input.
pub fn load(bytes: Vec<u8>, format: Format, limits: &Limits) -> Loaded {
    load_with(bytes, format, limits, &readers::ReadOptions::default())
}

/// [`load`], with what the config tells the readers (variables, tokens).
pub fn load_with(
    bytes: Vec<u8>,
    format: Format,
    limits: &Limits,
    options: &readers::ReadOptions,
) -> Loaded {
    if bytes.len() as u64 > limits.max_file_bytes {
        return Loaded {
            text: String::new(),
            documents: Vec::new(),
            problems: vec![too_large(Some(bytes.len() as u64), limits)],
            strings_as_written: false,
        };
    }
    let sniffed_len = bytes.len().min(BINARY_SNIFF_BYTES);
    let sniffed = &bytes[..sniffed_len];
    // The memchr crate's search reads 32 bytes a step where `contains` reads 16.
    if let Some(nul) = memchr::memchr(0, sniffed) {
        return Loaded {
            text: String::new(),
            documents: Vec::new(),
            problems: vec![Problem::new(
                ProblemKind::Encoding,
                Span::empty(0),
                format!("binary file: NUL byte at offset {nul}; request files are UTF-8 text"),
            )],
            strings_as_written: false,
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
                strings_as_written: false,
            };
        }
    };
    // The first bytes were sniffed above.
    if memchr::memchr(0, &text.as_bytes()[sniffed_len..]).is_some() {
        let at = text.find('\0').unwrap_or(0);
        return Loaded {
            problems: vec![Problem::new(
                ProblemKind::Encoding,
                Span::empty(at),
                format!("NUL byte at offset {at}; request files are UTF-8 text"),
            )],
            text,
            documents: Vec::new(),
            strings_as_written: false,
        };
    }
    let (documents, problems, strings_as_written) = read_text_as(&text, format, limits, options);
    Loaded {
        text,
        documents,
        problems,
        strings_as_written,
    }
}

/// Reads valid text in any format: YAML and JSON as they are (a JSON Postman collection
/// through its reader; a request's `Authorization` header that is a variable the config
/// maps names that token, [`readers::name_header_tokens`]), the other formats through
/// theirs.
pub fn read_text(
    text: &str,
    format: Format,
    limits: &Limits,
    options: &readers::ReadOptions,
) -> (Vec<Node>, Vec<Problem>) {
    let (documents, problems, _) = read_text_as(text, format, limits, options);
    (documents, problems)
}

/// [`read_text`], and whether the documents' strings are all as the text writes them
/// ([`Loaded::strings_as_written`]).
fn read_text_as(
    text: &str,
    format: Format,
    limits: &Limits,
    options: &readers::ReadOptions,
) -> (Vec<Node>, Vec<Problem>, bool) {
    match format {
        Format::Read(reader) => {
            let (documents, problems) = reader.read(text, limits, options);
            (documents, problems, false)
        }
        Format::Json => {
            let (documents, mut problems) = json::parse(text, limits);
            match documents.first() {
                Some(root) if readers::postman::is_collection(root) => {
                    let (docs, more) = readers::postman::convert(root, text, limits, options);
                    problems.extend(more);
                    (docs, problems, false)
                }
                Some(root) if readers::postman::is_environment(root) => (
                    readers::postman::convert_environment(root, options),
                    problems,
                    false,
                ),
                _ => {
                    let mut documents = documents;
                    readers::name_header_tokens(&mut documents, options);
                    (documents, problems, true)
                }
            }
        }
        Format::Yaml => {
            let (mut documents, problems) = yaml::parse(text, limits);
            readers::name_header_tokens(&mut documents, options);
            (documents, problems, true)
        }
    }
}

/// Parses text that is already known to be valid.
pub fn parse_text(text: &str, format: Format, limits: &Limits) -> (Vec<Node>, Vec<Problem>) {
    match format {
        Format::Yaml => yaml::parse(text, limits),
        Format::Json => json::parse(text, limits),
        Format::Read(reader) => reader.read(text, limits, &readers::ReadOptions::default()),
    }
}

/// A file over the size limit; `size` is `None` for a stream (standard input), which is
/// not read past the limit and whose size is therefore unknown.
pub fn too_large(size: Option<u64>, limits: &Limits) -> Problem {
    let message = match size {
        Some(size) => format!(
            "file is {} bytes, over the limit of {} bytes; it was not read",
            size, limits.max_file_bytes
        ),
        None => format!(
            "file is more than {} bytes, over the limit; it was not read",
            limits.max_file_bytes
        ),
    };
    Problem::new(ProblemKind::Limit, Span::empty(0), message)
}

#[cfg(test)]
mod tests {
    #[test]
    fn reads_whole_files_and_refuses_others() {
        let dir = tempfile::tempdir().unwrap();
        let read = |name: &str, max: u64| read_regular_file(&dir.path().join(name), max);
        for (name, content) in [
            ("empty", &b""[..]),
            ("small", b"a: 1\n"),
            ("exact", b"0123456789"),
        ] {
            std::fs::write(dir.path().join(name), content).unwrap();
            match read(name, 10).unwrap() {
                ReadFile::Bytes(bytes) => assert_eq!(bytes, content, "{name}"),
                ReadFile::TooLarge(_) => panic!("{name} is within the limit"),
            }
        }
        std::fs::write(dir.path().join("big"), [b'x'; 11]).unwrap();
        assert!(matches!(read("big", 10).unwrap(), ReadFile::TooLarge(11)));
        // Larger than a single read's buffer would be if the size were wrong.
        let large = "k: v\n".repeat(100_000);
        std::fs::write(dir.path().join("large"), &large).unwrap();
        match read("large", u64::MAX).unwrap() {
            ReadFile::Bytes(bytes) => assert_eq!(bytes, large.as_bytes()),
            ReadFile::TooLarge(_) => panic!("no limit"),
        }
        std::fs::create_dir(dir.path().join("sub")).unwrap();
        let err = read("sub", 10).err().unwrap();
        assert_eq!(err.to_string(), "it is a directory");
        assert_eq!(
            read("missing", 10).err().unwrap().kind(),
            std::io::ErrorKind::NotFound
        );
    }

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
