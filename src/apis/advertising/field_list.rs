//! A read's `fields` list (`id,name,creative{id,title},insights.date_preset(last_7d){spend}`)
//! as a tree of names with their byte ranges in the string, for the rules that check
//! names against a node's fields and edges.

/// One name of a `fields` list.
#[derive(Debug, PartialEq)]
pub struct FieldItem {
    /// The name's byte range in the string.
    pub start: usize,
    pub end: usize,
    /// Modifiers (`.limit(5)`, `.date_preset(last_7d)`) or an expansion follow the name.
    pub nested: bool,
    /// The names inside its braces, if it has them.
    pub children: Option<Vec<FieldItem>>,
}

/// Expansions deeper than this are not read (the API itself stops far sooner).
const MAX_DEPTH: usize = 32;

/// Parses a `fields` string. Never fails: what does not parse is skipped.
pub fn parse(text: &str) -> Vec<FieldItem> {
    let mut at = 0;
    let mut out = Vec::new();
    loop {
        list(text, &mut at, 0, &mut out);
        // A stray `}` at the top level ends nothing: skip it and go on.
        if at >= text.len() {
            return out;
        }
        at += 1;
    }
}

fn is_delimiter(b: u8) -> bool {
    matches!(b, b',' | b'{' | b'}' | b'.' | b'(' | b')')
}

/// Skips a balanced `( ... )` or `{ ... }` starting at `*at`.
fn skip_balanced(b: &[u8], at: &mut usize, open: u8, close: u8) {
    let mut depth = 0usize;
    while *at < b.len() {
        let c = b[*at];
        *at += 1;
        if c == open {
            depth += 1;
        } else if c == close {
            depth = depth.saturating_sub(1);
            if depth == 0 {
                return;
            }
        }
    }
}

fn list(text: &str, at: &mut usize, depth: usize, out: &mut Vec<FieldItem>) {
    let b = text.as_bytes();
    loop {
        while *at < b.len() && (b[*at] == b',' || b[*at].is_ascii_whitespace()) {
            *at += 1;
        }
        if *at >= b.len() || b[*at] == b'}' {
            return;
        }
        let start = *at;
        while *at < b.len() && !is_delimiter(b[*at]) {
            *at += 1;
        }
        let raw = &text[start..*at];
        let lead = raw.len() - raw.trim_start().len();
        let mut item = FieldItem {
            start: start + lead,
            end: start + lead + raw.trim().len(),
            nested: false,
            children: None,
        };
        loop {
            match b.get(*at) {
                Some(b'.') => {
                    item.nested = true;
                    *at += 1;
                    while *at < b.len() && !is_delimiter(b[*at]) {
                        *at += 1;
                    }
                }
                Some(b'(') => {
                    item.nested = true;
                    skip_balanced(b, at, b'(', b')');
                }
                Some(b')') => *at += 1,
                Some(b'{') => {
                    item.nested = true;
                    if depth >= MAX_DEPTH {
                        skip_balanced(b, at, b'{', b'}');
                        continue;
                    }
                    *at += 1;
                    let mut children = Vec::new();
                    list(text, at, depth + 1, &mut children);
                    if b.get(*at) == Some(&b'}') {
                        *at += 1;
                    }
                    item.children = Some(children);
                }
                _ => break,
            }
        }
        if item.end > item.start {
            out.push(item);
        } else if *at == start {
            // Nothing was read (a lone delimiter): step over it.
            *at += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn show(text: &str, items: &[FieldItem]) -> String {
        items
            .iter()
            .map(|i| {
                let name = &text[i.start..i.end];
                match &i.children {
                    Some(c) => format!("{name}{{{}}}", show(text, c)),
                    None if i.nested => format!("{name}.."),
                    None => name.to_string(),
                }
            })
            .collect::<Vec<_>>()
            .join(",")
    }

    #[test]
    fn names_modifiers_and_expansions() {
        let text = " id, name ,campaign{name,objective},ads.limit(5){id, creative{title}},insights.date_preset(maximum),,";
        assert_eq!(
            show(text, &parse(text)),
            "id,name,campaign{name,objective},ads{id,creative{title}},insights.."
        );
        assert_eq!(show("", &parse("")), "");
        assert_eq!(show("a{b{c}},d", &parse("a{b{c}},d")), "a{b{c}},d");
    }

    #[test]
    fn broken_lists_end() {
        for text in [
            "}", "{", "a{", "a{b", ")(", "a.b(", "a}}b", "{{{{", "a(((", ".,.,", "é{ü}",
        ] {
            let _ = parse(text);
        }
        assert_eq!(show("a}}b", &parse("a}}b")), "a,b");
        let deep = format!("{}x{}", "a{".repeat(1000), "}".repeat(1000));
        let items = parse(&deep);
        assert_eq!(items.len(), 1);
    }
}
