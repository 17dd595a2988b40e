//! Reading catalog files: YAML through saphyr-parser's event stream into a small tree
//! that keeps each value's line, and tab-separated tables with their line numbers. Any
//! error ends the build with `catalog/<file>:<line>: <what>`.

use crate::name_hash::name_hash;
use std::borrow::Cow;
use std::path::{Path, PathBuf};

use saphyr_parser::{Event, Parser, ScalarStyle};

/// HTTP methods as tables write them, and their `Method` variants.
pub const METHODS: [(&str, &str); 5] = [
    ("GET", "Get"),
    ("POST", "Post"),
    ("PUT", "Put"),
    ("PATCH", "Patch"),
    ("DELETE", "Delete"),
];

/// A catalog file: its path as shown in errors, and its text.
pub struct Source {
    pub shown: String,
    pub text: String,
}

impl Source {
    pub fn read(root: &Path, rel: &str) -> Source {
        let path: PathBuf = root.join(rel);
        println!("cargo:rerun-if-changed={}", path.display());
        let shown = format!("catalog/{rel}");
        match std::fs::read_to_string(&path) {
            Ok(text) => Source { shown, text },
            Err(e) => fail(&shown, 0, &format!("cannot read it: {e}")),
        }
    }

    pub fn fail(&self, line: usize, what: &str) -> ! {
        fail(&self.shown, line, what)
    }

    /// The data rows of a TSV table: `(line, cells)`, skipping comments, blank lines and
    /// the header row (the one whose first cell is `header`). Each row must have between
    /// `min` and `max` cells.
    pub fn rows(&self, header: &str, min: usize, max: usize) -> Vec<(usize, Vec<&str>)> {
        let mut rows = Vec::new();
        for (i, line) in self.text.lines().enumerate() {
            if line.starts_with('#') || line.trim().is_empty() {
                continue;
            }
            let cells: Vec<&str> = line.split('\t').collect();
            if cells[0] == header {
                continue;
            }
            if cells.len() < min || cells.len() > max {
                self.fail(
                    i + 1,
                    &format!(
                        "{} tab-separated cells where {min} to {max} are expected",
                        cells.len()
                    ),
                );
            }
            rows.push((i + 1, cells));
        }
        rows
    }

    pub fn yaml(&self) -> Yaml {
        let mut parser = Parser::new_from_str(&self.text);
        let mut stack: Vec<(Yaml, Option<(String, usize)>)> = Vec::new();
        let mut pending_key: Vec<Option<(String, usize)>> = Vec::new();
        let mut root = None;
        while let Some(next) = parser.next_event() {
            let (event, span) = match next {
                Ok(ev) => ev,
                Err(e) => self.fail(e.marker().line(), &format!("invalid YAML: {}", e.info())),
            };
            let line = span.start.line();
            let value = match event {
                Event::Scalar(text, style, _, _) => Yaml {
                    line,
                    value: Value::Scalar {
                        text: text.into_owned(),
                        quoted: !matches!(style, ScalarStyle::Plain),
                    },
                },
                Event::SequenceStart(..) => {
                    stack.push((
                        Yaml {
                            line,
                            value: Value::Seq(Vec::new()),
                        },
                        None,
                    ));
                    pending_key.push(None);
                    continue;
                }
                Event::MappingStart(..) => {
                    stack.push((
                        Yaml {
                            line,
                            value: Value::Map(Vec::new()),
                        },
                        None,
                    ));
                    pending_key.push(None);
                    continue;
                }
                Event::SequenceEnd | Event::MappingEnd => {
                    pending_key.pop();
                    stack.pop().expect("balanced events").0
                }
                Event::Alias(_) => self.fail(line, "aliases are not used in catalog files"),
                _ => continue,
            };
            let Some((top, _)) = stack.last_mut() else {
                root = Some(value);
                continue;
            };
            let key_slot = pending_key.last_mut().expect("a frame per container");
            match &mut top.value {
                Value::Seq(items) => items.push(value),
                Value::Map(entries) => match key_slot.take() {
                    None => match value.value {
                        Value::Scalar { text, .. } => {
                            if entries.iter().any(|(k, _, _)| *k == text) {
                                self.fail(line, &format!("duplicate key `{text}`"));
                            }
                            *key_slot = Some((text, line));
                        }
                        _ => self.fail(line, "keys are plain strings in catalog files"),
                    },
                    Some((key, key_line)) => entries.push((key, key_line, value)),
                },
                Value::Scalar { .. } => unreachable!("scalars hold nothing"),
            }
        }
        root.unwrap_or(Yaml {
            line: 1,
            value: Value::Map(Vec::new()),
        })
    }
}

pub fn fail(shown: &str, line: usize, what: &str) -> ! {
    if line == 0 {
        eprintln!("error: {shown}: {what}");
    } else {
        eprintln!("error: {shown}:{line}: {what}");
    }
    // cargo prints a failed build script's stderr; the message above is the whole story.
    std::process::exit(1)
}

pub struct Yaml {
    pub line: usize,
    pub value: Value,
}

pub enum Value {
    Scalar {
        text: String,
        quoted: bool,
    },
    Seq(Vec<Yaml>),
    /// Key, the key's line, value.
    Map(Vec<(String, usize, Yaml)>),
}

impl Yaml {
    pub fn get(&self, key: &str) -> Option<&Yaml> {
        match &self.value {
            Value::Map(entries) => entries.iter().find(|(k, _, _)| k == key).map(|e| &e.2),
            _ => None,
        }
    }

    pub fn entries(&self, src: &Source) -> &[(String, usize, Yaml)] {
        match &self.value {
            Value::Map(entries) => entries,
            _ => src.fail(self.line, "a mapping is expected here"),
        }
    }

    pub fn items(&self, src: &Source) -> &[Yaml] {
        match &self.value {
            Value::Seq(items) => items,
            _ => src.fail(self.line, "a list is expected here"),
        }
    }

    pub fn scalar(&self) -> Option<&str> {
        match &self.value {
            Value::Scalar { text, .. } => Some(text),
            _ => None,
        }
    }

    pub fn text(&self, src: &Source) -> &str {
        self.scalar()
            .unwrap_or_else(|| src.fail(self.line, "a scalar is expected here"))
    }

    pub fn bool(&self, src: &Source) -> bool {
        match self.value {
            Value::Scalar {
                ref text,
                quoted: false,
            } if text == "true" || text == "false" => text == "true",
            _ => src.fail(self.line, "true or false is expected here"),
        }
    }

    pub fn int(&self, src: &Source) -> i64 {
        match &self.value {
            Value::Scalar {
                text,
                quoted: false,
            } => text
                .parse()
                .unwrap_or_else(|_| src.fail(self.line, &format!("`{text}` is not an integer"))),
            _ => src.fail(self.line, "an integer is expected here"),
        }
    }

    pub fn strings(&self, src: &Source) -> Vec<String> {
        self.items(src)
            .iter()
            .map(|i| i.text(src).to_string())
            .collect()
    }
}

/// A Rust string literal.
pub fn lit(text: &str) -> String {
    format!("{text:?}")
}

/// `ad_set_create` → `AdSetCreate`.
pub fn camel(snake: &str) -> String {
    snake
        .split('_')
        .map(|w| {
            let mut c = w.chars();
            match c.next() {
                Some(f) => f.to_ascii_uppercase().to_string() + c.as_str(),
                None => String::new(),
            }
        })
        .collect()
}

pub fn is_snake(name: &str) -> bool {
    !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
        && name.as_bytes()[0].is_ascii_lowercase()
}

pub fn option(value: Option<impl AsRef<str>>) -> Cow<'static, str> {
    match value {
        Some(v) => Cow::Owned(format!("Some({})", v.as_ref())),
        None => Cow::Borrowed("None"),
    }
}

/// The strings of a table without pointers (src/catalog/packed.rs): one text, each
/// string written into it once, and read back as a byte range of it.
#[derive(Default)]
pub struct TextBlob {
    pub text: String,
    at: std::collections::HashMap<String, usize>,
}

impl TextBlob {
    /// `{ty}::new(start, len)`: the expression of `s` as a range of the text.
    pub fn range(&mut self, ty: &str, s: &str) -> String {
        let start = match self.at.get(s) {
            Some(&start) => start,
            None => {
                let start = self.text.len();
                self.text.push_str(s);
                self.at.insert(s.to_string(), start);
                start
            }
        };
        format!("{ty}::new({start}, {})", s.len())
    }
}

/// The open-addressing index of a list of distinct names (src/catalog/packed.rs's
/// `find_hashed`): the least power of two of slots that is at least twice the names, so
/// that a probe always meets an empty slot; each slot 0 (empty) or 1 + a name's index,
/// the names placed in order at their hash's slot or the first empty one after it
/// (linear probing). No slots for no names.
pub fn hash_slots<S: AsRef<str>>(names: &[S]) -> Vec<u16> {
    if names.is_empty() {
        return Vec::new();
    }
    let size = (names.len() * 2).next_power_of_two();
    let mut slots = vec![0u16; size];
    for (i, name) in names.iter().enumerate() {
        let mut at = name_hash(name.as_ref().as_bytes()) as usize & (size - 1);
        while slots[at] != 0 {
            at = (at + 1) & (size - 1);
        }
        slots[at] = u16::try_from(i + 1).expect("a list of fewer than 65,535 names");
    }
    slots
}

/// `pub static NAME: [TYPE; N] = [rows];`, a row a line: an array, not a reference to
/// one, so that the static itself holds no pointer.
pub fn table_lines(out: &mut String, doc: &str, name: &str, ty: &str, rows: &[String]) {
    use std::fmt::Write;
    writeln!(
        out,
        "/// {doc}\npub static {name}: [{ty}; {}] = [",
        rows.len()
    )
    .unwrap();
    for row in rows {
        writeln!(out, "    {row},").unwrap();
    }
    out.push_str("];\n\n");
}
