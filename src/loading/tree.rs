//! The spanned document tree shared by YAML and JSON.

use super::span::Span;

/// The text of a key or scalar: most are short and kept inline (up to 24 bytes) instead of
/// in an allocation of their own, which made allocating and freeing trees most of a
/// loader's time.
pub type Text = compact_str::CompactString;

/// A key or value of a document with the byte span it was read from.
#[derive(Clone, Debug, PartialEq)]
pub struct Node {
    pub span: Span,
    pub value: Value,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Null,
    Bool(bool),
    /// A number as written (`12`, `-3.5`, `0x1F`); parse with [`Node::as_i64`] or
    /// [`Node::as_f64`] so that out-of-range integers stay visible to rules.
    Number(Text),
    String(Text),
    /// A string whose text is JSON (a JSON-encoded param), with the decoded tree. The decoded
    /// nodes' spans point inside the string in the file.
    EncodedJson {
        text: Text,
        decoded: Box<Node>,
    },
    Seq(Vec<Node>),
    Map(Vec<Entry>),
}

#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    pub key: Text,
    pub key_span: Span,
    pub value: Node,
}

impl Node {
    pub fn new(span: Span, value: Value) -> Self {
        Node { span, value }
    }

    /// The node rules should read: the decoded tree of a JSON-encoded string, else itself.
    pub fn resolved(&self) -> &Node {
        match &self.value {
            Value::EncodedJson { decoded, .. } => decoded,
            _ => self,
        }
    }

    pub fn as_map(&self) -> Option<&[Entry]> {
        match &self.resolved().value {
            Value::Map(entries) => Some(entries),
            _ => None,
        }
    }

    pub fn as_seq(&self) -> Option<&[Node]> {
        match &self.resolved().value {
            Value::Seq(items) => Some(items),
            _ => None,
        }
    }

    /// The text of a string (including a JSON-encoded one, as written).
    pub fn as_str(&self) -> Option<&str> {
        match &self.value {
            Value::String(s) | Value::EncodedJson { text: s, .. } => Some(s),
            _ => None,
        }
    }

    pub fn as_bool(&self) -> Option<bool> {
        match self.value {
            Value::Bool(b) => Some(b),
            _ => None,
        }
    }

    pub fn as_number_text(&self) -> Option<&str> {
        match &self.value {
            Value::Number(n) => Some(n),
            _ => None,
        }
    }

    pub fn as_i64(&self) -> Option<i64> {
        parse_int(self.as_number_text()?)
    }

    pub fn as_f64(&self) -> Option<f64> {
        let text = self.as_number_text()?;
        parse_int(text)
            .map(|i| i as f64)
            .or_else(|| parse_float(text))
    }

    /// A scalar's text as a person wrote it (numbers and booleans included).
    pub fn scalar_text(&self) -> Option<std::borrow::Cow<'_, str>> {
        use std::borrow::Cow;
        match &self.value {
            Value::String(s) | Value::EncodedJson { text: s, .. } | Value::Number(s) => {
                Some(Cow::Borrowed(s))
            }
            Value::Bool(b) => Some(Cow::Borrowed(if *b { "true" } else { "false" })),
            Value::Null => Some(Cow::Borrowed("null")),
            _ => None,
        }
    }

    /// The entry of a mapping by key.
    pub fn get(&self, key: &str) -> Option<&Entry> {
        self.as_map()?.iter().find(|e| e.key == key)
    }

    pub fn get_value(&self, key: &str) -> Option<&Node> {
        self.get(key).map(|e| &e.value)
    }

    /// What kind of value this is, for messages.
    pub fn kind_name(&self) -> &'static str {
        match &self.value {
            Value::Null => "null",
            Value::Bool(_) => "a boolean",
            Value::Number(_) => "a number",
            Value::String(_) => "a string",
            Value::EncodedJson { .. } => "a JSON-encoded string",
            Value::Seq(_) => "a list",
            Value::Map(_) => "a mapping",
        }
    }

    /// Visits this node and every node below it (keys excluded), decoded JSON included,
    /// without recursion.
    pub fn walk<'a>(&'a self, mut visit: impl FnMut(&'a Node)) {
        let mut stack = vec![self];
        while let Some(node) = stack.pop() {
            visit(node);
            match &node.value {
                Value::Seq(items) => stack.extend(items.iter().rev()),
                Value::Map(entries) => stack.extend(entries.iter().rev().map(|e| &e.value)),
                Value::EncodedJson { decoded, .. } => stack.push(decoded),
                _ => {}
            }
        }
    }

    /// The tree as compact JSON: strings escaped, numbers by value where YAML wrote one
    /// JSON cannot read (`0x1F`, `.5`), keys in their order.
    pub fn to_json(&self) -> String {
        let mut out = String::new();
        self.write_json(&mut out);
        out
    }

    fn write_json(&self, out: &mut String) {
        let string = |s: &str, out: &mut String| {
            out.push_str(&serde_json::to_string(s).unwrap_or_else(|_| "\"\"".into()));
        };
        match &self.value {
            Value::Null => out.push_str("null"),
            Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            Value::Number(n) => match self.as_i64() {
                Some(i) => out.push_str(&i.to_string()),
                None => match self.as_f64().filter(|f| f.is_finite()) {
                    Some(f) => out.push_str(&format!("{f:?}")),
                    None => string(n, out),
                },
            },
            Value::String(s) | Value::EncodedJson { text: s, .. } => string(s, out),
            Value::Seq(items) => {
                out.push('[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    item.write_json(out);
                }
                out.push(']');
            }
            Value::Map(entries) => {
                out.push('{');
                for (i, e) in entries.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    string(&e.key, out);
                    out.push(':');
                    e.value.write_json(out);
                }
                out.push('}');
            }
        }
    }

    /// Number of nodes in this subtree, for the alias expansion budget.
    pub fn count(&self) -> usize {
        let mut n = 0;
        self.walk(|_| n += 1);
        n
    }
}

fn parse_int(text: &str) -> Option<i64> {
    let (neg, digits) = match text.as_bytes().first()? {
        b'-' => (true, &text[1..]),
        b'+' => (false, &text[1..]),
        _ => (false, text),
    };
    let magnitude = if let Some(hex) = digits.strip_prefix("0x") {
        i64::from_str_radix(hex, 16).ok()?
    } else if let Some(oct) = digits.strip_prefix("0o") {
        i64::from_str_radix(oct, 8).ok()?
    } else if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
        digits.parse::<i64>().ok()?
    } else {
        return None;
    };
    Some(if neg { -magnitude } else { magnitude })
}

fn parse_float(text: &str) -> Option<f64> {
    match text {
        ".inf" | ".Inf" | ".INF" | "+.inf" | "+.Inf" | "+.INF" => Some(f64::INFINITY),
        "-.inf" | "-.Inf" | "-.INF" => Some(f64::NEG_INFINITY),
        ".nan" | ".NaN" | ".NAN" => Some(f64::NAN),
        _ => text.parse().ok(),
    }
}

/// The spans that stand at more than one place of these trees: a YAML alias copies the
/// anchored node with its spans, so these are the texts an alias reads again.
pub fn aliased_in<'n>(roots: impl Iterator<Item = &'n Node>) -> Vec<Span> {
    aliased_except(roots, |_| false, std::iter::empty())
}

/// The spans that stand at more than one place of the trees `pruned` (where a node
/// `skip` picks is counted neither itself nor with what it holds) and `whole`.
pub fn aliased_except<'n>(
    pruned: impl Iterator<Item = &'n Node>,
    skip: impl Fn(&Node) -> bool,
    whole: impl Iterator<Item = &'n Node>,
) -> Vec<Span> {
    let mut seen: std::collections::HashMap<(Span, u8), u32> = std::collections::HashMap::new();
    let roots = pruned.map(|n| (n, true)).chain(whole.map(|n| (n, false)));
    for (root, prune) in roots {
        let mut stack = vec![root];
        while let Some(n) = stack.pop() {
            if prune && skip(n) {
                continue;
            }
            match &n.value {
                Value::Seq(items) => stack.extend(items.iter()),
                Value::Map(entries) => stack.extend(entries.iter().map(|e| &e.value)),
                Value::EncodedJson { decoded, .. } => stack.push(decoded),
                _ => {}
            }
            let kind = match &n.value {
                Value::Null => 0,
                Value::Bool(_) => 1,
                Value::Number(_) => 2,
                Value::String(_) => 3,
                Value::EncodedJson { .. } => 4,
                Value::Seq(_) => 5,
                Value::Map(entries) => {
                    for e in entries {
                        if !e.key_span.is_empty() {
                            *seen.entry((e.key_span, 7)).or_default() += 1;
                        }
                    }
                    6
                }
            };
            if !n.span.is_empty() {
                *seen.entry((n.span, kind)).or_default() += 1;
            }
        }
    }
    let mut spans: Vec<Span> = seen
        .into_iter()
        .filter(|&(_, count)| count > 1)
        .map(|((span, _), _)| span)
        .collect();
    spans.sort_unstable();
    spans.dedup();
    spans
}

#[cfg(test)]
mod tests {
    use super::*;

    fn num(s: &str) -> Node {
        Node::new(Span::empty(0), Value::Number(s.into()))
    }

    #[test]
    fn json_of_a_tree() {
        let (docs, _) = crate::loading::parse_text(
            "a: [1, 0x1F, .5, \"x\\\"y\", null, true]\nb: {c: d}\n",
            crate::loading::Format::Yaml,
            &crate::loading::Limits::DEFAULT,
        );
        assert_eq!(
            docs[0].to_json(),
            r#"{"a":[1,31,0.5,"x\"y",null,true],"b":{"c":"d"}}"#
        );
    }

    #[test]
    fn integers_in_yaml_notations() {
        assert_eq!(num("42").as_i64(), Some(42));
        assert_eq!(num("-7").as_i64(), Some(-7));
        assert_eq!(num("0x1F").as_i64(), Some(31));
        assert_eq!(num("0o17").as_i64(), Some(15));
        assert_eq!(num("1.5").as_i64(), None);
        assert_eq!(num("99999999999999999999").as_i64(), None);
        assert_eq!(num("1.5").as_f64(), Some(1.5));
        assert_eq!(num("1e3").as_f64(), Some(1000.0));
    }
}
