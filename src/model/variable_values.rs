//! A request's params as it sends them when the variables they use are known
//! (docs/formats.md, "Variables"): every string of a param's value, nested ones and
//! those of a JSON-encoded string included, whose `{{name}}` references are all known
//! is replaced by its value. A value that is one variable whole, defined in the file,
//! points at the definition; a value composed of text and references points at itself
//! as written. Each substitution is kept as a [`VariableUse`], so that a finding names
//! the use and no fix edits a definition or a composed value.

use std::cell::Cell;

use crate::loading::encoded::{Lookup, SourceMap, Substitution, decode_mapped, substitute};
use crate::loading::{Entry, Node, Span, Value, work};

use super::VariableUse;
use super::variables::Budget;

/// What a file's params are substituted with: its text, its variables, where the file
/// defines them, and the budget of JSON decoded after substitution (none: not decoded).
#[derive(Clone, Copy)]
pub(super) struct Known<'a> {
    pub file: &'a str,
    pub variables: &'a dyn Lookup,
    pub definitions: Option<&'a Node>,
    pub budget: Option<&'a Budget>,
}

/// The variable a value is as written, whole (`{{objective}}`), and its definition in
/// the file's `x-variables`, when the file itself defines it (a definition from the
/// config or an environment file has an empty span).
fn definition_of<'d>(written: &str, definitions: Option<&'d Node>) -> Option<&'d Entry> {
    let name = whole_reference(written)?;
    definitions?.as_map()?.iter().find(|e| e.key == name)
}

/// The name of the one variable a value is, whole (`{{objective}}`).
fn whole_reference(written: &str) -> Option<&str> {
    let written = written.trim();
    let (range, name) = crate::loading::encoded::references(written).next()?;
    (range == (0..written.len())).then_some(name)
}

/// A query pair whose value a variable defined in this file gave whole points at the
/// definition's value, and the use is kept, so that a finding names both. A value
/// composed of text and references (`act_{{account}}`), substituted with the request
/// line, is kept as a use of itself: no fix edits it.
pub(super) fn point_at_definition(
    pair: &mut Entry,
    file: &str,
    definitions: Option<&Node>,
    uses: &mut Vec<VariableUse>,
) {
    if let Value::EncodedJson { decoded, .. } = &mut pair.value.value {
        point_nested_at_definitions(decoded, pair.key_span, file, definitions, uses);
        return;
    }
    let Value::String(value) = &pair.value.value else {
        return;
    };
    let used = pair.value.span;
    let Some(written) = file.get(used.range()) else {
        return;
    };
    let Some(definition) = definition_of(written, definitions) else {
        keep_composed(pair, file, uses);
        return;
    };
    // Only where the definition's text is the value (no references of its own, no
    // quoting): a span inside it then means the same bytes.
    let at = definition.value.span;
    if written_as(file, at, value) {
        pair.value.span = at;
        uses.push(VariableUse {
            key: pair.key_span,
            value: at,
            used,
        });
    } else {
        keep_composed(pair, file, uses);
    }
}

/// The strings of JSON in the query (`?targeting={"countries":["{{country}}"]}`), each
/// substituted with the request line: one that a variable defined in this file gave
/// whole points at the definition, one composed of text and references is a use of
/// itself.
fn point_nested_at_definitions(
    root: &mut Node,
    key: Span,
    file: &str,
    definitions: Option<&Node>,
    uses: &mut Vec<VariableUse>,
) {
    let mut stack = vec![root];
    while let Some(node) = stack.pop() {
        work::count(1);
        match &mut node.value {
            Value::String(value) => {
                let used = node.span;
                let written = file.get(used.range()).unwrap_or_default();
                let unquoted = written
                    .strip_prefix('"')
                    .and_then(|w| w.strip_suffix('"'))
                    .unwrap_or(written);
                if !crate::loading::encoded::has_reference(unquoted) || unquoted == value.as_str() {
                    continue;
                }
                let at = definition_of(unquoted, definitions)
                    .map(|d| d.value.span)
                    .filter(|&at| written_as(file, at, value));
                if let Some(at) = at {
                    node.span = at;
                }
                uses.push(VariableUse {
                    key,
                    value: node.span,
                    used,
                });
            }
            Value::EncodedJson { decoded, .. } => stack.push(decoded),
            Value::Seq(items) => stack.extend(items.iter_mut().rev()),
            Value::Map(entries) => stack.extend(entries.iter_mut().rev().map(|e| &mut e.value)),
            _ => {}
        }
    }
}

/// A query pair whose written value holds a reference that was substituted: a use of
/// itself.
fn keep_composed(pair: &Entry, file: &str, uses: &mut Vec<VariableUse>) {
    let used = pair.value.span;
    let written = file.get(used.range()).unwrap_or_default();
    if crate::loading::encoded::has_reference(written) && pair.value.as_str() != Some(written) {
        uses.push(VariableUse {
            key: pair.key_span,
            value: used,
            used,
        });
    }
}

/// Whether the text at `at` is `value` as written, bare or quoted, with no references of
/// its own nor escapes: a span inside it then means the same bytes.
fn written_as(file: &str, at: Span, value: &str) -> bool {
    let Some(text) = file.get(at.range()).filter(|t| !t.is_empty()) else {
        return false;
    };
    let bare = ['"', '\'']
        .iter()
        .find_map(|&q| text.strip_prefix(q)?.strip_suffix(q))
        .unwrap_or(text);
    bare == value
}

/// Whether any string the loaders read from `file` can hold a `{{`: one is written so,
/// or made by what the loaders decode, an escape (`\u007b`, YAML's `\x7b` or escaped
/// line break), all of which start with `\`, or percent-decoding (`%7B`). Line folding
/// joins lines with a space, never two braces.
pub(super) fn file_may_reference(file: &str) -> bool {
    crate::loading::encoded::has_reference(file)
        || memchr::memchr2(b'\\', b'%', file.as_bytes()).is_some()
}

/// The `params` entries with every string of their values whose references are all
/// known replaced by what it sends; `None` when none is.
pub(super) fn substitute_params(
    entries: &[Entry],
    known: Known<'_>,
    uses: &mut Vec<VariableUse>,
) -> Option<Vec<Entry>> {
    let mut substituted = None;
    for (i, entry) in entries.iter().enumerate() {
        if !holds_reference(&entry.value) {
            continue;
        }
        let mut value = entry.value.clone();
        let before = uses.len();
        substitute_top(&mut value, entry.key_span, known, uses);
        substitute_nested(&mut value, entry.key_span, known, uses);
        if uses.len() > before {
            let all = substituted.get_or_insert_with(|| entries.to_vec());
            all[i].value = value;
        }
    }
    substituted
}

/// Whether a string of the value, a nested or decoded one included, holds `{{`.
fn holds_reference(node: &Node) -> bool {
    // Most values are scalars: answered without the walk's stack.
    match &node.value {
        Value::String(s) => return crate::loading::encoded::has_reference(s),
        // The decoded strings are pieces of the JSON text, unescaped: one holds `{{` only
        // where the text does, or where an escape (`\u007b`) writes a brace.
        Value::EncodedJson { text, .. }
            if !crate::loading::encoded::has_reference(text)
                && memchr::memmem::find(text.as_bytes(), b"\\u").is_none() =>
        {
            return false;
        }
        Value::Seq(_) | Value::Map(_) | Value::EncodedJson { .. } => {}
        _ => return false,
    }
    let mut found = false;
    node.walk(|n| {
        if let Value::String(s) = &n.value {
            found |= crate::loading::encoded::has_reference(s);
        }
    });
    found
}

/// A param's value that is a string: substituted, and decoded when what it sends is
/// JSON (`targeting={{targeting}}`, `{"countries":["{{country}}"]}` written as a string
/// the loader could not decode), the decoded nodes pointing where their bytes come
/// from: inside the definition, or the written text and the references of the use.
fn substitute_top(node: &mut Node, key: Span, known: Known<'_>, uses: &mut Vec<VariableUse>) {
    let Value::String(written) = &node.value else {
        return;
    };
    let Some(mut sent) = substitute_string(written, node.span, known) else {
        return;
    };
    sent.value = as_bare_json(known.file, node.span, written, sent.value);
    uses.push(VariableUse {
        key,
        value: sent.span,
        used: node.span,
    });
    let looks_like_json = crate::loading::encoded::looks_like_json(&sent.value);
    let length = sent.value.len();
    *node = Node::new(sent.span, Value::String(sent.value.into()));
    let Some(budget) = known.budget.filter(|_| looks_like_json) else {
        return;
    };
    if budget.spend_decoding(length, node.span) {
        // JSON that does not parse stays a string, judged as one.
        let limits = budget.limits();
        let _ = decode_mapped(node, &|start, end| sent.map.span(start..end), &limits);
    }
}

/// Every string below a param's value (a mapping's, a list's, a decoded JSON-encoded
/// string's) whose references are all known, substituted in place, without recursion.
fn substitute_nested(root: &mut Node, key: Span, known: Known<'_>, uses: &mut Vec<VariableUse>) {
    let mut stack: Vec<&mut Node> = Vec::new();
    match &mut root.value {
        Value::EncodedJson { decoded, .. } => stack.push(decoded),
        Value::Seq(items) => stack.extend(items.iter_mut().rev()),
        Value::Map(entries) => stack.extend(entries.iter_mut().rev().map(|e| &mut e.value)),
        _ => return,
    }
    while let Some(node) = stack.pop() {
        work::count(1);
        if let Value::String(written) = &node.value {
            if let Some(mut sent) = substitute_string(written, node.span, known) {
                sent.value = as_bare_json(known.file, node.span, written, sent.value);
                uses.push(VariableUse {
                    key,
                    value: sent.span,
                    used: node.span,
                });
                *node = Node::new(sent.span, Value::String(sent.value.into()));
            }
            continue;
        }
        match &mut node.value {
            Value::EncodedJson { decoded, .. } => stack.push(decoded),
            Value::Seq(items) => stack.extend(items.iter_mut().rev()),
            Value::Map(entries) => stack.extend(entries.iter_mut().rev().map(|e| &mut e.value)),
            _ => {}
        }
    }
}

/// What a reference written bare in a JSON body (`"status": {{status}}`, not
/// `"{{status}}"`) sends: the client pastes the value into the JSON text, so a value
/// written as a JSON string (`@status = "PAUSED"`) sends the string `PAUSED`, without
/// its quotes. Any other value is sent as it is.
fn as_bare_json(file: &str, span: Span, written: &str, value: String) -> String {
    let bare_in_json = whole_reference(written).is_some()
        && file.get(span.range()) == Some(written)
        && file
            .get(..span.start)
            .and_then(|before| before.trim_end().chars().next_back())
            .is_some_and(|c| matches!(c, ':' | '[' | ','));
    if !bare_in_json {
        return value;
    }
    match serde_json::from_str::<String>(value.trim()) {
        Ok(unquoted) => unquoted,
        Err(_) => value,
    }
}

/// What a string sends, where a finding about it points, and where each of its bytes
/// comes from.
struct Sent {
    value: String,
    span: Span,
    map: SourceMap,
}

/// A string written at `span` with every reference it holds known, substituted; `None`
/// when it holds none, or one whose value is not known (or over a limit): it then stays
/// as written.
fn substitute_string(written: &str, span: Span, known: Known<'_>) -> Option<Sent> {
    if !crate::loading::encoded::has_reference(written) {
        return None;
    }
    let map = SourceMap::for_scalar(known.file, span, written);
    let lookup = EveryReference {
        variables: known.variables,
        missing: Cell::new(false),
    };
    let (value, pieces) = substitute(written, &map, &lookup)?;
    if lookup.missing.get() {
        return None;
    }
    if let Some(definition) = definition_of(written, known.definitions) {
        let at = definition.value.span;
        if written_as(known.file, at, &value) {
            return Some(Sent {
                map: SourceMap::for_scalar(known.file, at, &value),
                value,
                span: at,
            });
        }
    }
    Some(Sent {
        value,
        span,
        map: pieces,
    })
}

/// The variables, as long as every reference of one value is known: at the first that
/// is not (or a limit), the rest of the value is left alone and the value stays as
/// written.
struct EveryReference<'l> {
    variables: &'l dyn Lookup,
    missing: Cell<bool>,
}

impl Lookup for EveryReference<'_> {
    fn substitution(&self, name: &str, reference: Span, substituted: usize) -> Substitution {
        if self.missing.get() {
            return Substitution::Stop;
        }
        match self.variables.substitution(name, reference, substituted) {
            Substitution::Value(value) => Substitution::Value(value),
            Substitution::Unknown | Substitution::Stop => {
                self.missing.set(true);
                Substitution::Stop
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::loading::{Format, Limits, Node, Value, parse_text, work};
    use crate::model::FileModel;

    fn loaded(text: &str) -> Vec<Node> {
        let (mut docs, problems) = parse_text(text, Format::Yaml, &Limits::DEFAULT);
        assert!(problems.is_empty(), "{problems:?}");
        let _ = crate::loading::encoded_params::decode_encoded_params(
            &mut docs,
            text,
            &Limits::DEFAULT,
            &[],
        );
        docs
    }

    /// The strings (keys and values, decoded JSON included) holding `{{` that the
    /// loaders read from `text`, when its strings are as written and the text cannot
    /// make a `{{` (`None` otherwise: the model searches its params as before).
    fn strings_holding_a_reference(text: &str, format: Format) -> Option<Vec<String>> {
        let mut loaded = crate::loading::load(text.as_bytes().to_vec(), format, &Limits::DEFAULT);
        let _ = crate::loading::encoded_params::decode_encoded_params(
            &mut loaded.documents,
            &loaded.text,
            &Limits::DEFAULT,
            &[],
        );
        if !loaded.strings_as_written || super::file_may_reference(text) {
            return None;
        }
        let mut found = Vec::new();
        for doc in &loaded.documents {
            let mut stack = vec![doc];
            while let Some(node) = stack.pop() {
                match &node.value {
                    Value::String(s) | Value::EncodedJson { text: s, .. } if s.contains("{{") => {
                        found.push(s.to_string());
                    }
                    _ => {}
                }
                match &node.value {
                    Value::Seq(items) => stack.extend(items),
                    Value::Map(entries) => {
                        for e in entries {
                            if e.key.contains("{{") {
                                found.push(e.key.to_string());
                            }
                            stack.push(&e.value);
                        }
                    }
                    Value::EncodedJson { decoded, .. } => stack.push(decoded),
                    _ => {}
                }
            }
        }
        Some(found)
    }

    /// The shortcut of `FileModel::build_loaded` holds on every file of `fixtures/`:
    /// where it says no string can hold a reference, none does; a Postman collection and
    /// a workflow, whose readers write references of their own, are never taken for one.
    #[test]
    fn no_fixture_without_a_possible_reference_reads_one() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
        let mut stack = vec![root];
        let (mut files, mut skipped) = (0, 0);
        while let Some(dir) = stack.pop() {
            for entry in std::fs::read_dir(&dir).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    stack.push(path);
                    continue;
                }
                let Ok(text) = std::fs::read_to_string(&path) else {
                    continue;
                };
                files += 1;
                let format = Format::from_path(&path.to_string_lossy());
                if let Some(found) = strings_holding_a_reference(&text, format) {
                    skipped += 1;
                    assert!(found.is_empty(), "{}: {found:?}", path.display());
                }
            }
        }
        assert!(
            files > 100 && skipped > 50,
            "{files} files, {skipped} without"
        );
    }

    /// Generated YAML and JSON texts with braces written in every way the loaders decode:
    /// a text that can produce `{{` is never one `file_may_reference` turns away.
    #[test]
    fn no_generated_text_without_a_possible_reference_reads_one() {
        let pieces = [
            "{", "}", "{{", "\\u007b", "\\x7b", "\\\n", "%7B", "%7b", "\n", " ", "a", "\\", "\"",
            "'",
        ];
        let mut next = crate::testing::xorshift(0x5eed_0fb4_ace5);
        let mut checked = 0;
        for _ in 0..4000 {
            let mut value = String::new();
            for _ in 0..(next() % 6 + 1) {
                value.push_str(pieces[(next() % pieces.len() as u64) as usize]);
            }
            let texts = [
                (
                    format!("request: GET /x\nparams:\n  q: \"{value}\"\n"),
                    Format::Yaml,
                ),
                (
                    format!("request: GET /x\nparams:\n  q: '{value}'\n"),
                    Format::Yaml,
                ),
                (
                    format!("request: GET /x\nparams:\n  q: x{value}\n"),
                    Format::Yaml,
                ),
                (
                    format!("request: GET /x\nparams:\n  q: |\n    {value}\n"),
                    Format::Yaml,
                ),
                (
                    format!("{{\"request\": \"GET /x\", \"params\": {{\"q\": \"{value}\"}}}}"),
                    Format::Json,
                ),
                (
                    format!("request: GET /x\nparams:\n  q: '{{\"a\": \"{value}\"}}'\n"),
                    Format::Yaml,
                ),
            ];
            for (text, format) in texts {
                if let Some(found) = strings_holding_a_reference(&text, format) {
                    checked += 1;
                    assert!(found.is_empty(), "{text:?}: {found:?}");
                }
            }
        }
        assert!(checked > 1000, "{checked}");
    }

    const VARIABLES: &str = "x-variables:\n  goal: SALE\n  country: USA\n  quoted: 'DE'\n";

    /// A reference written bare in a JSON body sends its value pasted into the JSON: a
    /// value written as a JSON string is that string, without its quotes; in a quoted
    /// string, or a form body, the quotes are part of what is sent.
    #[test]
    fn a_bare_reference_in_json_sends_a_json_string_value_unquoted() {
        let text = "@status = \"PAUSED\"\n@name = Spring\n\nPOST https://graph.facebook.com/v25.0/act_1/campaigns\nContent-Type: application/json\n\n{\"status\": {{status}}, \"name\": \"{{status}}\", \"labels\": [{{status}}], \"other\": {{name}}}\n\n###\nPOST https://graph.facebook.com/v25.0/act_1/campaigns?status={{status}}\n";
        let (docs, problems) = parse_text(
            text,
            Format::Read(crate::loading::readers::Reader::Http),
            &Limits::DEFAULT,
        );
        assert!(problems.is_empty(), "{problems:?}");
        let m = FileModel::build(&docs, text);
        let r = &m.requests[0];
        assert_eq!(r.param("status").unwrap().value.as_str(), Some("PAUSED"));
        assert_eq!(r.param("name").unwrap().value.as_str(), Some("\"PAUSED\""));
        let labels = r.param("labels").unwrap().value.as_seq().unwrap();
        assert_eq!(labels[0].as_str(), Some("PAUSED"));
        assert_eq!(r.param("other").unwrap().value.as_str(), Some("Spring"));
        let query = m.requests[1].param("status").unwrap();
        assert_eq!(query.value.as_str(), Some("\"PAUSED\""));
    }

    #[test]
    fn composed_values_are_substituted_and_point_at_themselves() {
        let text = format!(
            "{VARIABLES}requests:\n  - request: POST /v25.0/act_1/campaigns\n    params:\n      objective: OUTCOME_{{{{goal}}}}\n      name: '{{{{goal}}}} {{{{unknown}}}}'\n"
        );
        let docs = loaded(&text);
        let m = FileModel::build(&docs, &text);
        let r = &m.requests[0];
        let objective = r.param("objective").unwrap();
        assert_eq!(objective.value.as_str(), Some("OUTCOME_SALE"));
        assert_eq!(&text[objective.value.span.range()], "OUTCOME_{{goal}}");
        let uses = r.variable_uses_of(objective);
        assert_eq!(uses.len(), 1);
        assert_eq!(uses[0].value, uses[0].used);
        // No definition to name: the finding is at the use, without a label.
        assert_eq!(r.variable_use(objective), None);
        // One unknown reference: the whole value stays as written, no use kept.
        let name = r.param("name").unwrap();
        assert_eq!(name.value.as_str(), Some("{{goal}} {{unknown}}"));
        assert!(r.variable_uses_of(name).is_empty());
    }

    #[test]
    fn a_reference_written_with_a_json_escape_in_encoded_json_is_substituted() {
        // `\u007b` is a `{`: the decoded string is `{{country}}`, though the JSON text
        // holds no `{{`.
        let text = format!(
            "{VARIABLES}request: POST /v25.0/act_1/adsets\nparams:\n  encoded: '{{\"countries\": [\"\\u007b{{country}}}}\"], \"plain\": \"x\"}}'\n  other: '{{\"countries\": [\"FR\"]}}'\n"
        );
        let docs = loaded(&text);
        let written = |name: &str| {
            docs[0]
                .get_value("params")
                .unwrap()
                .get_value(name)
                .unwrap()
        };
        assert!(matches!(
            written("encoded").value,
            Value::EncodedJson { .. }
        ));
        assert!(super::holds_reference(written("encoded")));
        assert!(matches!(written("other").value, Value::EncodedJson { .. }));
        assert!(!super::holds_reference(written("other")));
        let m = FileModel::build(&docs, &text);
        let encoded = m.requests[0].param("encoded").unwrap();
        let countries = encoded.value.resolved().get_value("countries").unwrap();
        assert_eq!(countries.as_seq().unwrap()[0].as_str(), Some("USA"));
    }

    #[test]
    fn nested_values_point_at_the_definition_with_the_use_kept() {
        let text = format!(
            "{VARIABLES}request: POST /v25.0/act_1/adsets\nparams:\n  targeting:\n    geo_locations: {{countries: ['{{{{country}}}}', '{{{{quoted}}}}', FR, 'x{{{{country}}}}']}}\n  encoded: '{{\"countries\": [\"{{{{country}}}}\"]}}'\n"
        );
        let docs = loaded(&text);
        let m = FileModel::build(&docs, &text);
        let r = &m.requests[0];
        let targeting = r.param("targeting").unwrap();
        let countries = targeting
            .value
            .get_value("geo_locations")
            .and_then(|g| g.get_value("countries"))
            .and_then(Node::as_seq)
            .unwrap();
        let sent: Vec<_> = countries.iter().map(|c| c.as_str().unwrap()).collect();
        assert_eq!(sent, ["USA", "DE", "FR", "xUSA"]);
        let at: Vec<_> = countries.iter().map(|c| &text[c.span.range()]).collect();
        assert_eq!(at, ["USA", "'DE'", "FR", "'x{{country}}'"]);
        let used = r
            .variable_use_at(targeting, countries[0].span)
            .unwrap()
            .used;
        assert_eq!(&text[used.range()], "'{{country}}'");
        let used = r
            .variable_use_at(targeting, countries[1].span)
            .unwrap()
            .used;
        assert_eq!(&text[used.range()], "'{{quoted}}'");
        // The composed one is its own use; a written one is none.
        let own = r.variable_use_at(targeting, countries[3].span).unwrap();
        assert_eq!(own.used, own.value);
        assert!(r.variable_use_at(targeting, countries[2].span).is_none());
        // Inside a JSON-encoded string: decoded, then substituted.
        let encoded = r.param("encoded").unwrap();
        let Value::EncodedJson { decoded, .. } = &encoded.value.value else {
            panic!("{:?}", encoded.value)
        };
        let country = &decoded.get_value("countries").unwrap().as_seq().unwrap()[0];
        assert_eq!(country.as_str(), Some("USA"));
        assert_eq!(&text[country.span.range()], "USA");
        let used = r.variable_use_at(encoded, country.span).unwrap().used;
        assert_eq!(&text[used.range()], "\"{{country}}\"");
    }

    #[test]
    fn the_use_behind_a_finding_is_found_among_many() {
        let items = vec!["'{{country}}', 'x{{goal}}'"; 5_000].join(", ");
        let text = format!(
            "{VARIABLES}request: POST /v25.0/act_1/adsets\nparams:\n  targeting: {{countries: [{items}]}}\n"
        );
        let docs = loaded(&text);
        let m = FileModel::build(&docs, &text);
        let r = &m.requests[0];
        let targeting = r.param("targeting").unwrap();
        let countries = targeting
            .value
            .get_value("countries")
            .unwrap()
            .as_seq()
            .unwrap();
        assert_eq!(r.variable_uses_of(targeting).len(), 10_000);
        // Each use of the definition points at it: the finding names the first use.
        let first_use = text.find("'{{country}}'").unwrap();
        for c in countries.iter().step_by(2) {
            assert_eq!(
                r.variable_use_at(targeting, c.span).unwrap().used.start,
                first_use
            );
        }
        // Each composed value is its own use.
        for c in countries.iter().skip(1).step_by(2) {
            assert_eq!(r.variable_use_at(targeting, c.span).unwrap().used, c.span);
        }
        // Not inside any: the list itself, the key.
        assert!(r.variable_use_at(targeting, targeting.value.span).is_none());
        assert!(r.variable_use_at(targeting, targeting.key_span).is_none());
    }

    #[test]
    fn json_in_the_query_points_at_definitions_and_composed_values() {
        let text = format!(
            "{VARIABLES}request: POST /v25.0/act_1/adsets?targeting={{\"countries\":[\"{{{{country}}}}\",\"x{{{{goal}}}}\",\"FR\"]}}\n"
        );
        let docs = loaded(&text);
        let m = FileModel::build(&docs, &text);
        let r = &m.requests[0];
        let targeting = &r.line().unwrap().query[0];
        let countries = targeting
            .value
            .resolved()
            .get_value("countries")
            .and_then(Node::as_seq)
            .unwrap();
        let sent: Vec<_> = countries.iter().map(|c| c.as_str().unwrap()).collect();
        assert_eq!(sent, ["USA", "xSALE", "FR"]);
        let at: Vec<_> = countries.iter().map(|c| &text[c.span.range()]).collect();
        assert_eq!(at, ["USA", "\"x{{goal}}\"", "\"FR\""]);
        let used = r
            .variable_use_at(targeting, countries[0].span)
            .unwrap()
            .used;
        assert_eq!(&text[used.range()], "\"{{country}}\"");
        let own = r.variable_use_at(targeting, countries[1].span).unwrap();
        assert_eq!(own.used, own.value);
        assert!(r.variable_use_at(targeting, countries[2].span).is_none());
    }

    #[test]
    fn a_variable_whose_value_is_json_is_decoded_inside_its_definition() {
        let text = "x-variables:\n  targeting: '{\"geo_locations\": {\"countries\": [\"UK\"]}}'\n  pre: '{\"geo_locations\"'\nrequest: POST /v25.0/act_1/adsets\nparams:\n  targeting: '{{targeting}}'\n  composed: '{{pre}}: {\"countries\": [\"UK\"]}}'\n";
        let docs = loaded(text);
        let m = FileModel::build(&docs, text);
        let r = &m.requests[0];
        let countries = |name: &str| {
            let param = r.param(name).unwrap();
            let geo = param.value.resolved().get_value("geo_locations").unwrap();
            geo.get_value("countries").unwrap().as_seq().unwrap()[0].span
        };
        // Whole: inside the definition.
        let at = countries("targeting");
        assert_eq!(&text[at.range()], "\"UK\"");
        assert!(at.start < text.find("request:").unwrap());
        // Composed: where its bytes are written in the use.
        let at = countries("composed");
        assert_eq!(&text[at.range()], "\"UK\"");
        assert!(at.start > text.find("composed").unwrap());
    }

    #[test]
    fn the_work_of_nested_substitution_grows_with_the_values() {
        let file = |n: usize| {
            let items = vec!["'{{country}}'"; n].join(", ");
            format!(
                "{VARIABLES}request: POST /v25.0/act_1/adsets\nparams:\n  targeting: {{geo_locations: {{countries: [{items}]}}}}\n"
            )
        };
        let work = |n: usize| {
            let text = file(n);
            let docs = loaded(&text);
            let (uses, work) = work::measure(|| {
                let m = FileModel::build(&docs, &text);
                m.requests[0].variable_uses.len()
            });
            assert_eq!(uses, n);
            work
        };
        let (small, large) = (work(1_000), work(10_000));
        assert!(large < small * 12, "{small} {large}");
    }

    #[test]
    fn json_that_variables_make_is_decoded_within_a_budget_of_its_own() {
        let limits = Limits {
            max_substituted_value_bytes: 100,
            ..Limits::DEFAULT
        };
        // 45 bytes of JSON a request: 35 of the 50 fit in 16 × 100 bytes.
        let json = format!("[{}1]", "1,".repeat(21));
        assert_eq!(json.len(), 45);
        let mut text = format!("x-variables:\n  list: '{json}'\nrequests:\n");
        for _ in 0..50 {
            text.push_str("  - request: POST /v25.0/act_1/adsets\n    params: {t: '{{list}}'}\n");
        }
        let docs = loaded(&text);
        let m = FileModel::build_within(&docs, &text, &limits);
        let decoded = m
            .requests
            .iter()
            .filter(|r| matches!(r.param("t").unwrap().value.value, Value::EncodedJson { .. }))
            .count();
        assert_eq!(decoded, 35);
        // The rest are sent as the same text, not decoded.
        assert_eq!(
            m.requests[49].param("t").unwrap().value.as_str(),
            Some(json.as_str())
        );
        assert_eq!(m.problems.len(), 1, "{:?}", m.problems);
        assert!(m.problems[0].message.contains("not decoded"));
    }

    #[test]
    fn substitution_stops_at_the_file_limit() {
        let limits = Limits {
            max_substituted_file_bytes: 1_000,
            ..Limits::DEFAULT
        };
        let items = vec!["'{{country}}'"; 1_000].join(", ");
        let text = format!(
            "{VARIABLES}request: POST /v25.0/act_1/adsets\nparams:\n  targeting: {{countries: [{items}]}}\n"
        );
        let docs = loaded(&text);
        let m = FileModel::build_within(&docs, &text, &limits);
        let countries = m.requests[0]
            .param("targeting")
            .unwrap()
            .value
            .get_value("countries")
            .unwrap()
            .as_seq()
            .unwrap();
        // 333 values of 3 bytes fit; the rest stay as written.
        let sent = countries
            .iter()
            .filter(|c| c.as_str() == Some("USA"))
            .count();
        assert_eq!(sent, 333);
        assert_eq!(countries[999].as_str(), Some("{{country}}"));
        assert_eq!(m.problems.len(), 1, "{:?}", m.problems);
    }
}
