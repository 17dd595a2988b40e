//! Strict JSON through jsonc-parser's AST (every extension off) into [`Node`] trees.

use std::collections::HashMap;

use jsonc_parser::ast;
use jsonc_parser::{CollectOptions, ParseOptions};

use super::span::Span;
use super::tree::{Entry, Node, Value};
use super::{Limits, Problem, ProblemKind};

const STRICT: ParseOptions = ParseOptions {
    allow_comments: false,
    allow_loose_object_property_names: false,
    allow_trailing_commas: false,
    allow_missing_commas: false,
    allow_single_quoted_strings: false,
    allow_hexadecimal_numbers: false,
    allow_unary_plus_numbers: false,
    allow_bare_decimal_point_numbers: false,
    allow_non_finite_numbers: false,
    allow_extended_string_escapes: false,
};

pub fn parse(text: &str, limits: &Limits) -> (Vec<Node>, Vec<Problem>) {
    let mut problems = Vec::new();
    let bom = bom_len(text);
    let node = parse_mapped(text, limits, &mut problems, &|start, end| {
        Span::new(start + bom, end + bom)
    });
    (node.into_iter().collect(), problems)
}

fn bom_len(text: &str) -> usize {
    if text.starts_with('\u{feff}') { 3 } else { 0 }
}

/// Parses `text` as one JSON value; `map` turns a byte range of `text` (after any BOM)
/// into a span of the file, so that JSON inside a string gets file spans.
pub(super) fn parse_mapped(
    text: &str,
    limits: &Limits,
    problems: &mut Vec<Problem>,
    map: &dyn Fn(usize, usize) -> Span,
) -> Option<Node> {
    let body = &text[bom_len(text)..];
    let parsed = match jsonc_parser::parse_to_ast(body, &CollectOptions::default(), &STRICT) {
        Ok(parsed) => parsed,
        Err(err) => {
            let range = err.range();
            let message = err.kind().to_string();
            let kind = if message.contains("nesting depth") {
                ProblemKind::Limit
            } else {
                ProblemKind::Syntax
            };
            problems.push(Problem::new(
                kind,
                map(range.start, range.end),
                format!(
                    "invalid JSON: {}",
                    message.to_lowercase().trim_end_matches('.')
                ),
            ));
            return None;
        }
    };
    let Some(value) = parsed.value else {
        problems.push(Problem::new(
            ProblemKind::Syntax,
            map(0, 0),
            "invalid JSON: the file holds no value",
        ));
        return None;
    };
    let mut converter = Converter {
        limits,
        problems,
        map,
        nodes: 0,
    };
    converter.convert(value, 0)
}

struct Converter<'p> {
    limits: &'p Limits,
    problems: &'p mut Vec<Problem>,
    map: &'p dyn Fn(usize, usize) -> Span,
    nodes: usize,
}

impl Converter<'_> {
    fn span(&self, range: jsonc_parser::common::Range) -> Span {
        (self.map)(range.start, range.end)
    }

    fn convert(&mut self, value: ast::Value<'_>, depth: usize) -> Option<Node> {
        self.nodes += 1;
        if self.nodes > self.limits.max_nodes {
            let span = self.span(value_range(&value));
            self.problems.push(Problem::new(
                ProblemKind::Limit,
                span,
                format!(
                    "more than {} values in one file; the rest was not read",
                    self.limits.max_nodes
                ),
            ));
            return None;
        }
        Some(match value {
            ast::Value::StringLit(s) => {
                Node::new(self.span(s.range), Value::String(s.value.into_owned()))
            }
            ast::Value::NumberLit(n) => {
                Node::new(self.span(n.range), Value::Number(n.value.to_string()))
            }
            ast::Value::BooleanLit(b) => Node::new(self.span(b.range), Value::Bool(b.value)),
            ast::Value::NullKeyword(n) => Node::new(self.span(n.range), Value::Null),
            ast::Value::Array(array) => {
                let span = self.span(array.range);
                if !self.depth_ok(depth, span) {
                    return None;
                }
                let mut items = Vec::with_capacity(array.elements.len());
                for element in array.elements {
                    items.push(self.convert(element, depth + 1)?);
                }
                Node::new(span, Value::Seq(items))
            }
            ast::Value::Object(object) => {
                let span = self.span(object.range);
                if !self.depth_ok(depth, span) {
                    return None;
                }
                let mut entries: Vec<Entry> = Vec::with_capacity(object.properties.len());
                let mut index: HashMap<String, usize> = HashMap::new();
                for prop in object.properties {
                    let key_span = self.span(match &prop.name {
                        ast::ObjectPropName::String(lit) => lit.range,
                        ast::ObjectPropName::Word(lit) => lit.range,
                    });
                    let key = prop.name.into_string();
                    let value = self.convert(prop.value, depth + 1)?;
                    let entry = Entry {
                        key,
                        key_span,
                        value,
                    };
                    match index.get(&entry.key) {
                        Some(&i) => {
                            let span = entry.key_span;
                            let message = format!("duplicate key `{}`", entry.key);
                            let first = std::mem::replace(&mut entries[i], entry);
                            self.problems.push(Problem {
                                kind: ProblemKind::DuplicateKey,
                                span,
                                message,
                                related: Some(first.key_span),
                                shadowed: Some(Box::new(first)),
                            });
                        }
                        None => {
                            index.insert(entry.key.clone(), entries.len());
                            entries.push(entry);
                        }
                    }
                }
                Node::new(span, Value::Map(entries))
            }
        })
    }

    fn depth_ok(&mut self, depth: usize, span: Span) -> bool {
        if depth >= self.limits.max_depth {
            self.problems.push(Problem::new(
                ProblemKind::Limit,
                span,
                format!(
                    "nesting deeper than {} levels; the file was not read",
                    self.limits.max_depth
                ),
            ));
            return false;
        }
        true
    }
}

fn value_range(value: &ast::Value<'_>) -> jsonc_parser::common::Range {
    match value {
        ast::Value::StringLit(v) => v.range,
        ast::Value::NumberLit(v) => v.range,
        ast::Value::BooleanLit(v) => v.range,
        ast::Value::NullKeyword(v) => v.range,
        ast::Value::Array(v) => v.range,
        ast::Value::Object(v) => v.range,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
