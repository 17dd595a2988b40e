//! Building fixes that keep the file as it is written: an edit replaces only the text of
//! a name or a value inside the span a rule found (quotes, escapes, comments and
//! indentation around it stay), or removes whole lines.

use crate::diagnostic::{Applicability, Edit, Fix};
use crate::loading::Span;

/// An edit that replaces `old` with `new` inside the text `span` covers (a key or a
/// scalar as written, quoted or inside a JSON-encoded string), when `old` stands there
/// exactly once; `new` must need no escaping where `old` needed none (names, enum
/// values).
pub fn replace_in(file: &str, span: Span, old: &str, new: &str) -> Option<Edit> {
    let raw = file.get(span.range())?;
    if old.is_empty() || new.contains(['"', '\'', '\\', '\n', '\r']) {
        return None;
    }
    let at = raw.find(old)?;
    if raw[at + old.len()..].contains(old) {
        return None;
    }
    Some(Edit {
        span: Span::new(span.start + at, span.start + at + old.len()),
        replacement: new.to_string(),
        file: None,
    })
}

/// A fix that writes `new` for the name or value `old` written at `span`.
pub fn rename(
    file: &str,
    span: Span,
    old: &str,
    new: &str,
    applicability: Applicability,
) -> Option<Fix> {
    let edit = replace_in(file, span, old, new)?;
    Some(Fix {
        applicability,
        message: format!("replace `{old}` with `{new}`"),
        edits: vec![edit],
    })
}

/// Whether whole lines may be added to or removed from the mappings of the file at
/// `path`: only a YAML block mapping takes them (a JSON entry keeps or needs its comma).
pub fn takes_line_edits(path: &str) -> bool {
    crate::loading::Format::from_path(path) == crate::loading::Format::Yaml
}

/// An edit that removes the lines from the one `start` is on to the one `end` is on,
/// when nothing but white space stands on them before `start` and after `end` (an entry
/// of a block mapping); a comment after it goes with it.
pub fn remove_lines(file: &str, start: usize, end: usize) -> Option<Edit> {
    let line_start = file[..start].rfind('\n').map_or(0, |i| i + 1);
    if !file[line_start..start].trim().is_empty() {
        return None;
    }
    let line_end = file[end..].find('\n').map_or(file.len(), |i| end + i + 1);
    let after = file[end..line_end].trim();
    if !after.is_empty() && !after.starts_with('#') {
        return None;
    }
    Some(Edit {
        span: Span::new(line_start, line_end),
        replacement: String::new(),
        file: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replacements_keep_quotes_and_escapes() {
        let file = r#"t: '{"billing_event": "IMPRESSION"}'"#;
        let start = file.find("\"IMPRESSION\"").unwrap();
        let span = Span::new(start, start + 12);
        let e = replace_in(file, span, "IMPRESSION", "IMPRESSIONS").unwrap();
        assert_eq!(&file[e.span.range()], "IMPRESSION");
        assert!(replace_in(file, span, "IMPRESSION", "A\"B").is_none());
        assert!(replace_in("aa", Span::new(0, 2), "a", "b").is_none());
    }

    #[test]
    fn whole_lines_only() {
        let file = "params:\n  nmae: x  # note\n  name: y\n";
        let s = file.find("nmae").unwrap();
        let e = remove_lines(file, s, s + 7).unwrap();
        assert_eq!(&file[e.span.range()], "  nmae: x  # note\n");
        let flow = "params: {nmae: x, name: y}\n";
        let s = flow.find("nmae").unwrap();
        assert!(remove_lines(flow, s, s + 7).is_none());
    }
}
