//! Building fixes that keep the file as it is written: an edit replaces only the text of
//! a name or a value inside the span a rule found (quotes, escapes, comments and
//! indentation around it stay), or removes whole lines.

use crate::diagnostic::{Applicability, Edit, Fix};
use crate::loading::{Format, Span};
use crate::model::file::FileContext;

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
    use crate::loading::{Format, readers::Reader};
    matches!(
        Format::from_path(path),
        Format::Yaml | Format::Read(Reader::Workflow)
    )
}

/// An edit that removes the lines from the one `start` is on to the one `end` is on,
/// when nothing but white space stands on them before `start` and after `end` (an entry
/// of a block mapping); a comment after it goes with it. White space at the end of the
/// range does not count: a block scalar's span runs over the blank lines after it, up to
/// the next key's line, whose comment above that key stays.
pub fn remove_lines(file: &str, start: usize, end: usize) -> Option<Edit> {
    let end = start + file.get(start..end)?.trim_end().len();
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

/// The line break of the line `at` is on (`\r\n` or `\n`), else the file's first, else
/// `\n`: a line a fix adds takes the file's own line ending.
pub fn line_break(text: &str, at: usize) -> &'static str {
    let at = at.min(text.len());
    let crlf = |i: usize| i > 0 && text.as_bytes()[i - 1] == b'\r';
    match text[at..]
        .find('\n')
        .map(|i| at + i)
        .or_else(|| text.find('\n'))
    {
        Some(i) if crlf(i) => "\r\n",
        _ => "\n",
    }
}

/// An edit that adds `line` as a whole line of its own after the line `at` is on (after
/// its end-of-line comment and line break, with the file's line ending), or at the end of
/// a file whose last line has no line break.
pub fn insert_line_after(text: &str, at: usize, line: &str) -> Edit {
    let at = at.min(text.len());
    let eol = line_break(text, at);
    let (at, replacement) = match text[at..].find('\n') {
        Some(i) => (at + i + 1, format!("{line}{eol}")),
        None => (text.len(), format!("{eol}{line}")),
    };
    Edit {
        span: Span::empty(at),
        replacement,
        file: None,
    }
}

/// Whether an edit of `span` in the file changes only what is read where it is written:
/// not where a YAML alias reads the same text (`billing_event: *n` with `&n IMPRESSION`
/// elsewhere: the node the alias gives keeps the anchored text's span, so an edit there
/// would change every value the anchor stands for), nor a removal of an anchored value an
/// alias reads later (the alias would then name no anchor). An insertion (an empty span)
/// counts when it falls inside such text.
///
/// Nor inside a variable's definition that a param's value was taken from
/// (`@objective = OUTCOME_SALE` for `objective={{objective}}`): the definition is read
/// wherever the variable is used.
///
/// Nor inside a value written with references whose value was judged
/// (`{{objective}}` from an environment, `OUTCOME_{{goal}}`): what is judged is not what
/// is written there. An edit that takes such a value whole with more around it (the
/// removal of the param) is one.
pub fn written_once(file: &FileContext<'_>, span: Span) -> bool {
    let (aliased, uses) = file
        .memo
        .get::<AliasedSpans>()
        .0
        .get_or_init(|| (aliased_spans(file), substituted_uses(file)));
    outside(aliased, span) && !uses.any_edited_inside(span)
}

/// Spans sorted by start, with the furthest end of each prefix, so that the ones an edit
/// meets are found by binary search, not by looking at every one.
#[derive(Default)]
struct SortedSpans {
    spans: Vec<Span>,
    furthest_end: Vec<usize>,
}

impl SortedSpans {
    fn new(mut spans: Vec<Span>) -> SortedSpans {
        spans.sort_by_key(|s| (s.start, s.end));
        spans.dedup();
        let furthest_end = spans
            .iter()
            .scan(0, |end, s| {
                *end = s.end.max(*end);
                Some(*end)
            })
            .collect();
        SortedSpans {
            spans,
            furthest_end,
        }
    }

    /// Whether an edit of `span` changes part of one of the spans, or all of it and
    /// nothing else.
    fn any_edited_inside(&self, span: Span) -> bool {
        // Only spans that start before the edit ends can meet it, and of those only
        // while some end lies after its start.
        let before = self.spans.partition_point(|s| s.start <= span.end);
        (0..before)
            .rev()
            .take_while(|&i| self.furthest_end[i] >= span.start)
            .any(|i| edits_inside(span, self.spans[i]))
    }
}

/// The spans of a file written once but read at several places of its tree (YAML
/// aliases, the definitions of variables params take their values from), which every
/// rule's fixes stay out of, and the values written with references that were judged by
/// their variables' values: found once a file.
#[derive(Default)]
struct AliasedSpans(std::cell::OnceCell<(Vec<Span>, SortedSpans)>);

/// Whether an edit of `span` changes part of `used`, or all of it and nothing else.
fn edits_inside(span: Span, used: Span) -> bool {
    let overlaps = if span.is_empty() {
        used.start < span.start && span.start < used.end
    } else {
        used.start < span.end && span.start < used.end
    };
    let takes_more = span.start <= used.start && used.end <= span.end && span.len() > used.len();
    overlaps && !takes_more
}

/// The values of params written with references (`{{objective}}`, `act_{{account}}`).
fn substituted_uses(file: &FileContext<'_>) -> SortedSpans {
    SortedSpans::new(
        file.model
            .requests
            .iter()
            .flat_map(|r| &r.variable_uses)
            .map(|u| u.used)
            .collect(),
    )
}

/// Whether `span` lies outside every one of the `aliased` spans (an insertion, an empty
/// span, counts when it falls strictly inside one).
pub fn outside(aliased: &[Span], span: Span) -> bool {
    !aliased.iter().any(|r| {
        if span.is_empty() {
            r.start < span.start && span.start < r.end
        } else {
            r.start < span.end && span.start < r.end
        }
    })
}

/// `fix` where each of its edits of the file itself is [`written_once`], with the same
/// edit made at a value's twin (a Postman URL's part and its `raw`): a fix that cannot
/// edit every place that holds the value is not offered.
pub fn written_once_fix(file: &FileContext<'_>, fix: Option<Fix>) -> Option<Fix> {
    let mut fix = fix.filter(|f| {
        f.edits
            .iter()
            .all(|e| e.file.is_some() || written_once(file, e.span))
    })?;
    let twins = file
        .memo
        .get::<TwinSpans>()
        .0
        .get_or_init(|| twin_spans(file));
    if twins.is_empty() {
        return Some(fix);
    }
    let mut more = Vec::new();
    for edit in fix.edits.iter().filter(|e| e.file.is_none()) {
        // Parts do not overlap: the one that starts last at or before the edit is the
        // only one that may hold it.
        let at = twins.partition_point(|(part, _)| part.start <= edit.span.start);
        let Some((part, raw)) = at
            .checked_sub(1)
            .map(|i| &twins[i])
            .filter(|(part, _)| edit.span.end <= part.end)
        else {
            continue;
        };
        // The twin must be written as the part is, byte for byte, for the edit to mean
        // the same there.
        let raw = (*raw).filter(|r| file.text.get(r.range()) == file.text.get(part.range()))?;
        let at = raw.start + (edit.span.start - part.start);
        more.push(Edit {
            span: Span::new(at, at + edit.span.len()),
            replacement: edit.replacement.clone(),
            file: None,
        });
    }
    if !more.is_empty() {
        fix.edits.extend(more);
        fix.edits.sort_by_key(|e| (e.file.is_some(), e.span.start));
    }
    Some(fix)
}

/// The twins of a file, found once a file.
#[derive(Default)]
struct TwinSpans(std::cell::OnceCell<Vec<(Span, Option<Span>)>>);

/// The twins a reader recorded ([`crate::loading::readers::postman::TWINS_KEY`]): each
/// part's span, and its twin's when there is one, in the order of the parts.
fn twin_spans(file: &FileContext<'_>) -> Vec<(Span, Option<Span>)> {
    use crate::loading::readers::postman::TWINS_KEY;
    let mut out = Vec::new();
    for doc in &file.model.documents {
        for pair in doc
            .root
            .get_value(TWINS_KEY)
            .and_then(crate::loading::Node::as_seq)
            .unwrap_or_default()
        {
            let nodes = pair.as_seq().unwrap_or_default();
            if let Some(part) = nodes.first() {
                out.push((part.span, nodes.get(1).map(|r| r.span)));
            }
        }
    }
    out.sort_by_key(|(part, _)| part.start);
    out
}

/// Whether `span` of the config's text stands at one place of its named tokens: not
/// where a YAML alias makes one token a copy of another's permissions (`ci-bot: *base`),
/// which an edit for one would change for both.
pub fn written_once_in_config(config: &crate::model::config::Config, span: Span) -> bool {
    outside(&config.token_aliases, span)
}

/// The spans of keys and values that stand at more than one place of the file's trees:
/// a YAML alias copies the anchored node with its spans (only YAML has aliases, and only
/// a text with a `*` holds one).
fn aliased_spans(file: &FileContext<'_>) -> Vec<Span> {
    let definitions = file
        .model
        .requests
        .iter()
        .flat_map(|r| &r.variable_uses)
        .filter(|u| u.value != u.used)
        .map(|u| u.value);
    // Each definition once, however many uses it has.
    let mut definitions: Vec<Span> = definitions.collect();
    definitions.sort_unstable_by_key(|s| (s.start, s.end));
    definitions.dedup();
    if file.format != Format::Yaml || !file.text.contains('*') {
        return definitions;
    }
    let mut spans = crate::loading::tree::aliased_in(file.model.documents.iter().map(|d| d.root));
    spans.extend(definitions);
    spans
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn added_lines_follow_their_line_with_its_ending() {
        let text = "a: 1  # note\r\nb: 2\r\n";
        let e = insert_line_after(text, 4, "c: 3");
        assert_eq!(e.span, Span::empty(14));
        assert_eq!(e.replacement, "c: 3\r\n");
        let text = "a: 1\nb: 2";
        let e = insert_line_after(text, 9, "c: 3");
        assert_eq!((e.span, e.replacement.as_str()), (Span::empty(9), "\nc: 3"));
        assert_eq!(line_break("x", 0), "\n");
        assert_eq!(line_break("a\r\nb", 3), "\r\n");
    }

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
    fn no_edit_inside_a_value_written_with_references_but_one_that_takes_it_whole() {
        // `objective: OUTCOME_{{goal}}` at 11..27, `name: '{{goal}}'` at 40..50.
        let uses = SortedSpans::new(vec![
            Span::new(40, 50),
            Span::new(11, 27),
            Span::new(40, 50),
        ]);
        assert!(uses.any_edited_inside(Span::new(11, 27)));
        assert!(uses.any_edited_inside(Span::new(19, 27)));
        assert!(uses.any_edited_inside(Span::new(20, 30)));
        assert!(uses.any_edited_inside(Span::empty(45)));
        assert!(uses.any_edited_inside(Span::new(40, 50)));
        // The removal of the param, key and all; edits elsewhere.
        assert!(!uses.any_edited_inside(Span::new(0, 28)));
        assert!(!uses.any_edited_inside(Span::new(28, 40)));
        assert!(!uses.any_edited_inside(Span::empty(11)));
        assert!(!uses.any_edited_inside(Span::new(50, 60)));
        // A long span before others is still met.
        let nested = SortedSpans::new(vec![
            Span::new(0, 100),
            Span::new(10, 20),
            Span::new(30, 40),
        ]);
        assert!(nested.any_edited_inside(Span::new(50, 60)));
        assert!(!nested.any_edited_inside(Span::new(100, 110)));
    }

    #[test]
    fn whole_lines_only() {
        let file = "params:\n  nmae: x  # note\n  name: y\n";
        let s = file.find("nmae").unwrap();
        let e = remove_lines(file, s, s + 7).unwrap();
        assert_eq!(&file[e.span.range()], "  nmae: x  # note\n");
        // A block scalar's span runs up to the next key's line: the comment above that
        // key stays.
        let file = "params:\n  a: |\n    line\n\n  # about b\n  b: 1\n";
        let s = file.find("a:").unwrap();
        let end = file.find("  # about").unwrap();
        let e = remove_lines(file, s, end).unwrap();
        assert_eq!(&file[e.span.range()], "  a: |\n    line\n");
        let flow = "params: {nmae: x, name: y}\n";
        let s = flow.find("nmae").unwrap();
        assert!(remove_lines(flow, s, s + 7).is_none());
    }
}
