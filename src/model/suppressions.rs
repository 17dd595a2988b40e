//! Inline suppression comments (docs/usage.md#suppressing-diagnostics), YAML only: `# reqlint: ignore[rule-a, rule-b]` at
//! the end of a line silences those rules on that line; alone on a line, on the next line.

use crate::loading::{Node, Span};

/// One suppression comment.
#[derive(Debug, PartialEq)]
pub struct Suppression {
    /// The 0-based line it silences.
    pub line: usize,
    /// The rules it names, each with where the name is written.
    pub rules: Vec<(String, Span)>,
    /// The byte offset of its `#`.
    pub at: usize,
}

/// The suppression comments of a file, without those that are text inside a string of
/// `documents` (a block scalar, say).
pub fn comments(text: &str, documents: &[&Node]) -> Vec<Suppression> {
    let mut found = parse(text);
    if found.is_empty() {
        return found;
    }
    let mut strings = Vec::new();
    for doc in documents {
        doc.walk(|n| {
            if n.as_str().is_some() {
                strings.push(n.span);
            }
        });
    }
    let inside = InsideAny::new(strings);
    found.retain(|s| !inside.contains(s.at));
    found
}

/// Every line's suppression comment, strings or not.
pub fn parse(text: &str) -> Vec<Suppression> {
    const MARKER: &str = "reqlint:";
    // Built once: making the searcher cost more than searching a typical file with it.
    static FINDER: std::sync::LazyLock<memchr::memmem::Finder<'static>> =
        std::sync::LazyLock::new(|| memchr::memmem::Finder::new(MARKER));
    let mut found = Vec::new();
    if FINDER.find(text.as_bytes()).is_none() {
        return found;
    }
    let mut line_start = 0;
    for (line0, raw_line) in text.split_inclusive('\n').enumerate() {
        let start = line_start;
        line_start += raw_line.len();
        let line = raw_line.trim_end_matches(['\n', '\r']);
        let Some(at) = line.find(MARKER) else {
            continue;
        };
        let Some(hash) = line[..at].rfind('#') else {
            continue;
        };
        if !line[hash + 1..at].trim().is_empty() {
            continue;
        }
        // A comment starts a line or follows white space.
        if hash > 0 && !line[..hash].ends_with([' ', '\t']) {
            continue;
        }
        let after_marker = at + MARKER.len();
        let rest = &line[after_marker..];
        let list_at = after_marker + (rest.len() - rest.trim_start().len());
        let Some(list) = line[list_at..].strip_prefix("ignore[") else {
            continue;
        };
        let Some(close) = list.find(']') else {
            continue;
        };
        let list_start = start + list_at + "ignore[".len();
        let mut rules = Vec::new();
        let mut offset = 0;
        for name in list[..close].split(',') {
            let trimmed = name.trim();
            if !trimmed.is_empty() {
                let lead = name.len() - name.trim_start().len();
                let from = list_start + offset + lead;
                rules.push((trimmed.to_string(), Span::new(from, from + trimmed.len())));
            }
            offset += name.len() + 1;
        }
        let alone = line[..hash].trim().is_empty();
        found.push(Suppression {
            line: if alone { line0 + 1 } else { line0 },
            rules,
            at: start + hash,
        });
    }
    found
}

/// Whether an offset falls inside any of a set of spans, in a binary search.
struct InsideAny {
    /// Sorted by start.
    spans: Vec<Span>,
    /// The largest end among `spans[..=i]`: spans may nest (a string inside a
    /// JSON-encoded string).
    max_end: Vec<usize>,
}

impl InsideAny {
    fn new(mut spans: Vec<Span>) -> Self {
        spans.sort_unstable_by_key(|s| s.start);
        let max_end = spans
            .iter()
            .scan(0, |max, s| {
                *max = (*max).max(s.end);
                Some(*max)
            })
            .collect();
        InsideAny { spans, max_end }
    }

    fn contains(&self, at: usize) -> bool {
        // The spans that start at or before `at`.
        let before = self.spans.partition_point(|s| s.start <= at);
        before > 0 && self.max_end[before - 1] > at
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_and_the_spans_of_their_rule_names() {
        let text = "a: 1 # reqlint: ignore[rule-a,  rule-b ]\n# reqlint:ignore[rule-c]\nb: 2\nc: |\n  # reqlint: ignore[x]\nd: a#reqlint:ignore[y]\né: 2 # reqlint: ignore[z]\r\n";
        let found = parse(text);
        let names: Vec<(usize, Vec<&str>, &str)> = found
            .iter()
            .map(|s| {
                (
                    s.line,
                    s.rules
                        .iter()
                        .map(|(_, span)| &text[span.range()])
                        .collect(),
                    &text[s.at..s.at + 1],
                )
            })
            .collect();
        assert_eq!(
            names,
            vec![
                (0, vec!["rule-a", "rule-b"], "#"),
                (2, vec!["rule-c"], "#"),
                // Parsed, but inside a block scalar: `comments` leaves it out.
                (5, vec!["x"], "#"),
                (6, vec!["z"], "#"),
            ]
        );
        for s in &found {
            for (name, span) in &s.rules {
                assert_eq!(&text[span.range()], name);
            }
        }
        let (docs, _) =
            crate::loading::parse_text(text, crate::loading::Format::Yaml, &Default::default());
        let roots: Vec<&Node> = docs.iter().collect();
        let lines: Vec<usize> = comments(text, &roots).iter().map(|s| s.line).collect();
        assert_eq!(lines, [0, 2, 6]);
    }

    #[test]
    fn inside_any_span_with_nesting() {
        let inside = InsideAny::new(vec![Span::new(10, 20), Span::new(2, 30), Span::new(40, 41)]);
        for (at, expected) in [
            (0, false),
            (2, true),
            (15, true),
            (25, true),
            (30, false),
            (40, true),
            (41, false),
        ] {
            assert_eq!(inside.contains(at), expected, "{at}");
        }
        assert!(!InsideAny::new(Vec::new()).contains(0));
    }
}
