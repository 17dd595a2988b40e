//! Property tests of spans: whatever a file holds, linting it never panics, and every
//! span a diagnostic carries lies inside the file's text, on character boundaries, so
//! that reports can slice the text and count columns safely.

use std::path::Path;
use std::sync::OnceLock;

use proptest::prelude::*;
use proptest::test_runner::TestCaseError;

use reqlint::engine::{self, FileResult, INTERNAL_ERROR, Settings};
use reqlint::loading::{Format, Limits, Node, ProblemKind, Span, Value, parse_text};
use reqlint::model::config::Config;
use reqlint::model::context::ContextIndex;

/// 256 cases a test, or `PROPTEST_CASES` for a longer hunt.
fn cases() -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(256)
}

fn settings() -> &'static Settings {
    static SETTINGS: OnceLock<Settings> = OnceLock::new();
    SETTINGS.get_or_init(|| Settings {
        config: Config::defaults(".".into()),
        context: ContextIndex::default(),
        limits: Limits::DEFAULT,
    })
}

fn check_span(text: &str, span: Span, what: &str) -> Result<(), TestCaseError> {
    prop_assert!(
        span.start <= span.end,
        "{what}: start {} > end {}",
        span.start,
        span.end
    );
    prop_assert!(
        span.end <= text.len(),
        "{what}: end {} > text length {}",
        span.end,
        text.len()
    );
    prop_assert!(
        text.is_char_boundary(span.start),
        "{what}: start {} is inside a character",
        span.start
    );
    prop_assert!(
        text.is_char_boundary(span.end),
        "{what}: end {} is inside a character",
        span.end
    );
    Ok(())
}

/// Lints `bytes` as the file `name` and checks every invariant of the result.
fn lint_and_check(name: &str, bytes: Vec<u8>) -> Result<FileResult, TestCaseError> {
    let result = engine::lint_bytes(name, Path::new(name), bytes, settings());
    for d in &result.diagnostics {
        prop_assert_ne!(d.rule, INTERNAL_ERROR, "reqlint panicked: {}", d.message);
    }
    if result.diagnostics.is_empty() {
        return Ok(result);
    }
    let text = result.text.as_deref();
    prop_assert!(
        text.is_some(),
        "the text is kept when there are diagnostics"
    );
    let text = text.unwrap_or_default();
    for d in &result.diagnostics {
        check_span(text, d.span, &format!("{} `{}`", d.rule, d.message))?;
        for label in &d.labels {
            check_span(
                text,
                label.span,
                &format!("label `{}` of {}", label.message, d.rule),
            )?;
        }
    }
    // Diagnostics come by position.
    let starts: Vec<usize> = result.diagnostics.iter().map(|d| d.span.start).collect();
    let mut sorted = starts.clone();
    sorted.sort_unstable();
    prop_assert_eq!(starts, sorted);
    // Every report can render the result.
    let results = [result];
    let summary = reqlint::reports::Summary::new(&results, 1, results[0].requests);
    let mut out = Vec::new();
    prop_assert!(reqlint::reports::json::write(&results, summary, &mut out).is_ok());
    prop_assert!(serde_json::from_slice::<serde_json::Value>(&out).is_ok());
    out.clear();
    prop_assert!(reqlint::reports::concise::write(&results, summary, &mut out).is_ok());
    out.clear();
    prop_assert!(reqlint::reports::human::write(&results, summary, false, &mut out).is_ok());
    out.clear();
    prop_assert!(reqlint::reports::sarif::write(&results, &mut out).is_ok());
    out.clear();
    prop_assert!(reqlint::reports::github::write(&results, summary, &mut out).is_ok());
    let [result] = results;
    Ok(result)
}

// ---------------------------------------------------------------------------------------
// Request-like documents
// ---------------------------------------------------------------------------------------

const KEYS: &[&str] = &[
    "request",
    "params",
    "name",
    "targeting",
    "token",
    "object",
    "method",
    "path",
    "café",
    "😀",
    "a",
    "b",
    "daily_budget",
    "naïve key",
    "日本",
    "access_token",
    "status",
];

/// Plain scalars that read the same in block and flow context.
const PLAIN: &[&str] = &[
    "x",
    "Spring sale DE",
    "café",
    "😀 party",
    "42",
    "-3.5",
    "true",
    "null",
    "~",
    "POST /v24.0/act_1234567890/adsets",
    "GET /user/emails",
    "${FB_TOKEN}",
    "ghp_R3qlint_Fak3_T0ken_00000000000000000",
    "EAAGm0PX4ZCpsBAOtzZBcTkZD",
    "Müller–Lüdenscheidt",
];

#[derive(Clone, Debug)]
enum Scalar {
    Plain(&'static str),
    Single(String),
    Double(String),
    /// JSON text, written as a quoted YAML string.
    Json(Json, bool),
}

#[derive(Clone, Debug)]
enum Json {
    Str(String),
    Num(i64),
    Obj(Vec<(String, Json)>),
    Arr(Vec<Json>),
}

#[derive(Clone, Debug)]
enum Tree {
    Scalar(Scalar),
    Map(Vec<(String, Tree)>),
    Seq(Vec<Tree>),
}

fn key() -> impl Strategy<Value = String> {
    prop::sample::select(KEYS).prop_map(str::to_string)
}

/// Free text with the characters that need care: quotes, escapes, multi-byte ones.
fn free_text() -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop::sample::select(
            &[
                "a", "Z", "0", " ", "é", "ß", "😀", "日", "'", "\"", "\\", "#", ":", ",", "\t",
                "{", "}", "[", "]", "ghp_", "\u{2028}",
            ][..],
        ),
        0..12,
    )
    .prop_map(|parts| {
        // Text that looks like JSON is decoded under `targeting`; keep it valid by
        // making free text never look like JSON (JSON-encoded strings are generated
        // on their own).
        let text = parts.concat();
        if text.trim_start().starts_with(['{', '[']) {
            format!("x{text}")
        } else {
            text
        }
    })
}

fn json() -> impl Strategy<Value = Json> {
    let leaf = prop_oneof![
        free_text().prop_map(Json::Str),
        any::<i32>().prop_map(|n| Json::Num(n.into())),
    ];
    leaf.prop_recursive(3, 16, 4, |inner| {
        prop_oneof![
            prop::collection::vec((key(), inner.clone()), 0..4).prop_map(Json::Obj),
            prop::collection::vec(inner, 0..4).prop_map(Json::Arr),
        ]
    })
}

fn json_object() -> impl Strategy<Value = Json> {
    prop::collection::vec((key(), json()), 0..5).prop_map(Json::Obj)
}

fn scalar() -> impl Strategy<Value = Scalar> {
    prop_oneof![
        4 => prop::sample::select(PLAIN).prop_map(Scalar::Plain),
        2 => free_text().prop_map(Scalar::Single),
        2 => free_text().prop_map(Scalar::Double),
        1 => (json_object(), any::<bool>()).prop_map(|(j, double)| Scalar::Json(j, double)),
    ]
}

fn tree() -> impl Strategy<Value = Tree> {
    scalar()
        .prop_map(Tree::Scalar)
        .prop_recursive(4, 32, 5, |inner| {
            prop_oneof![
                prop::collection::vec((key(), inner.clone()), 0..5).prop_map(Tree::Map),
                prop::collection::vec(inner, 0..4).prop_map(Tree::Seq),
            ]
        })
}

/// A request: a request line, params (with a JSON-encoded `targeting` most of the
/// time) and a few random entries, keys repeated at times.
fn request() -> impl Strategy<Value = Tree> {
    (
        prop::sample::select(PLAIN),
        prop::collection::vec((key(), tree()), 0..4),
        prop::option::of((json_object(), any::<bool>())),
        prop::collection::vec((key(), tree()), 0..3),
        any::<bool>(),
    )
        .prop_map(|(line, mut params, targeting, extra, repeat)| {
            if let Some((json, double)) = targeting {
                params.push(("targeting".into(), Tree::Scalar(Scalar::Json(json, double))));
            }
            let mut entries = vec![
                ("request".to_string(), Tree::Scalar(Scalar::Plain(line))),
                ("params".to_string(), Tree::Map(params)),
            ];
            entries.extend(extra);
            if repeat {
                let again = entries[0].clone();
                entries.push(again);
            }
            Tree::Map(entries)
        })
}

fn document() -> impl Strategy<Value = Tree> {
    prop_oneof![
        4 => request(),
        1 => prop::collection::vec(request(), 0..4)
            .prop_map(|items| Tree::Map(vec![("requests".into(), Tree::Seq(items))])),
        1 => tree(),
    ]
}

fn render_json(j: &Json, out: &mut String) {
    match j {
        Json::Str(s) => out.push_str(&serde_json::to_string(s).unwrap_or_default()),
        Json::Num(n) => out.push_str(&n.to_string()),
        Json::Obj(entries) => {
            out.push('{');
            for (i, (k, v)) in entries.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                out.push_str(&serde_json::to_string(k).unwrap_or_default());
                out.push_str(": ");
                render_json(v, out);
            }
            out.push('}');
        }
        Json::Arr(items) => {
            out.push('[');
            for (i, v) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                render_json(v, out);
            }
            out.push(']');
        }
    }
}

fn single_quoted(s: &str) -> String {
    format!("'{}'", s.replace('\'', "''"))
}

fn double_quoted(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\t' => out.push_str("\\t"),
            '\u{2028}' => out.push_str("\\L"),
            'é' => out.push_str("\\u00e9"),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn yaml_scalar(s: &Scalar, flow: bool) -> String {
    match s {
        // `{` and `}` end a plain scalar in flow context.
        Scalar::Plain(p) if flow && p.contains(['{', '}', '[', ']', ',']) => single_quoted(p),
        Scalar::Plain(p) => p.to_string(),
        Scalar::Single(t) => single_quoted(t),
        Scalar::Double(t) => double_quoted(t),
        Scalar::Json(j, double) => {
            let mut text = String::new();
            render_json(j, &mut text);
            if *double {
                double_quoted(&text)
            } else {
                single_quoted(&text)
            }
        }
    }
}

fn yaml_key(k: &str) -> String {
    // Keys with a space or a colon stay readable plain; quote some for variety.
    if k.starts_with('a') {
        single_quoted(k)
    } else {
        k.to_string()
    }
}

fn render_flow(t: &Tree, out: &mut String) {
    match t {
        Tree::Scalar(s) => out.push_str(&yaml_scalar(s, true)),
        Tree::Map(entries) => {
            out.push('{');
            for (i, (k, v)) in entries.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                out.push_str(&yaml_key(k));
                out.push_str(": ");
                render_flow(v, out);
            }
            out.push('}');
        }
        Tree::Seq(items) => {
            out.push('[');
            for (i, v) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                render_flow(v, out);
            }
            out.push(']');
        }
    }
}

/// Block style, except that small collections (by a hash of their length and depth)
/// are written in flow style, and some lines carry a suppression comment.
fn render_block(t: &Tree, indent: usize, out: &mut String) {
    let pad = " ".repeat(indent);
    match t {
        Tree::Scalar(s) => {
            out.push_str(&pad);
            out.push_str(&yaml_scalar(s, false));
            out.push('\n');
        }
        Tree::Map(entries) if entries.is_empty() => out.push_str(&format!("{pad}{{}}\n")),
        Tree::Seq(items) if items.is_empty() => out.push_str(&format!("{pad}[]\n")),
        Tree::Map(entries) => {
            for (i, (k, v)) in entries.iter().enumerate() {
                out.push_str(&pad);
                out.push_str(&yaml_key(k));
                out.push(':');
                match v {
                    Tree::Scalar(s) => {
                        out.push(' ');
                        out.push_str(&yaml_scalar(s, false));
                        if (i + indent) % 5 == 3 {
                            out.push_str("  # reqlint: ignore[duplicate-key]");
                        }
                        out.push('\n');
                    }
                    _ if (i + indent) % 3 == 1 => {
                        out.push(' ');
                        render_flow(v, out);
                        out.push('\n');
                    }
                    _ => {
                        out.push('\n');
                        render_block(v, indent + 2, out);
                    }
                }
            }
        }
        Tree::Seq(items) => {
            for v in items {
                out.push_str(&pad);
                out.push('-');
                match v {
                    Tree::Scalar(s) => {
                        out.push(' ');
                        out.push_str(&yaml_scalar(s, false));
                        out.push('\n');
                    }
                    _ => {
                        out.push('\n');
                        render_block(v, indent + 2, out);
                    }
                }
            }
        }
    }
}

/// The same tree as a JSON file (keys repeated as they are).
fn render_json_file(t: &Tree, out: &mut String) {
    match t {
        Tree::Scalar(Scalar::Plain(p)) => {
            out.push_str(&serde_json::to_string(p).unwrap_or_default())
        }
        Tree::Scalar(Scalar::Single(s) | Scalar::Double(s)) => {
            out.push_str(&serde_json::to_string(s).unwrap_or_default())
        }
        Tree::Scalar(Scalar::Json(j, _)) => {
            let mut text = String::new();
            render_json(j, &mut text);
            out.push_str(&serde_json::to_string(&text).unwrap_or_default());
        }
        Tree::Map(entries) => {
            out.push_str("{\n");
            for (i, (k, v)) in entries.iter().enumerate() {
                if i > 0 {
                    out.push_str(",\n");
                }
                out.push_str(&serde_json::to_string(k).unwrap_or_default());
                out.push_str(": ");
                render_json_file(v, out);
            }
            out.push_str("\n}");
        }
        Tree::Seq(items) => {
            out.push('[');
            for (i, v) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                render_json_file(v, out);
            }
            out.push(']');
        }
    }
}

fn has_syntax_error(result: &FileResult) -> bool {
    result
        .diagnostics
        .iter()
        .any(|d| d.rule == "invalid-syntax")
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), ..ProptestConfig::default() })]

    /// Generated YAML request files, LF or CRLF, one or several documents.
    #[test]
    fn yaml_request_files(docs in prop::collection::vec(document(), 1..3), crlf: bool, bom: bool) {
        let mut text = String::new();
        if bom {
            text.push('\u{feff}');
        }
        for (i, doc) in docs.iter().enumerate() {
            if i > 0 {
                text.push_str("---\n");
            }
            render_block(doc, 0, &mut text);
        }
        if crlf {
            text = text.replace('\n', "\r\n");
        }
        let result = lint_and_check("gen.req.yaml", text.clone().into_bytes())?;
        // The generator writes valid YAML; the loader must agree. (A JSON-encoded param
        // is decoded, and only `targeting` is generated so, always valid.)
        prop_assert!(!has_syntax_error(&result), "valid YAML reported invalid:\n{text}\n{:?}", result.diagnostics);
        if let Some(kept) = &result.text {
            prop_assert_eq!(&**kept, text.as_str(), "the text is kept as it was read");
        }
    }

    /// The same documents as JSON files.
    #[test]
    fn json_request_files(doc in document(), crlf: bool) {
        let mut text = String::new();
        render_json_file(&doc, &mut text);
        if crlf {
            text = text.replace('\n', "\r\n");
        }
        let result = lint_and_check("gen.req.json", text.clone().into_bytes())?;
        prop_assert!(!has_syntax_error(&result), "valid JSON reported invalid:\n{text}\n{:?}", result.diagnostics);
    }

    /// Re-serialising a parsed document and parsing it again gives the same tree: the
    /// generated YAML, parsed, written out as JSON, parsed as JSON and as YAML.
    #[test]
    fn reserialised_documents_parse_to_the_same_tree(doc in document()) {
        let mut text = String::new();
        render_block(&doc, 0, &mut text);
        let (docs, problems) = parse_text(&text, Format::Yaml, &Limits::DEFAULT);
        // The generator repeats keys on purpose; the tree keeps the last value.
        prop_assert!(problems.iter().all(|p| p.kind == ProblemKind::DuplicateKey), "{problems:?}\n{text}");
        for node in &docs {
            let json = node.to_json();
            for format in [Format::Json, Format::Yaml] {
                let (again, problems) = parse_text(&json, format, &Limits::DEFAULT);
                prop_assert!(problems.is_empty(), "{problems:?}\n{json}");
                prop_assert_eq!(shape(&again[0]), shape(node), "{}", json);
            }
        }
    }

    /// Any text at all, as YAML and as JSON.
    #[test]
    fn arbitrary_text(text in "(\\PC|[\r\n\t'\"\\\\{}\\[\\]:,#&*!|>-]){0,200}") {
        lint_and_check("any.req.yaml", text.clone().into_bytes())?;
        lint_and_check("any.req.json", text.into_bytes())?;
    }
}

// ---------------------------------------------------------------------------------------
// Mutated fixtures
// ---------------------------------------------------------------------------------------

/// Every fixture file: (name, bytes).
fn fixtures() -> &'static [(String, Vec<u8>)] {
    static FIXTURES: OnceLock<Vec<(String, Vec<u8>)>> = OnceLock::new();
    FIXTURES.get_or_init(|| {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
        let mut files = Vec::new();
        // Every file below fixtures/, the other formats' folders (Bruno collections)
        // included: each is read by the reader its name selects.
        let mut stack = vec![root.clone()];
        while let Some(dir) = stack.pop() {
            for file in std::fs::read_dir(&dir).expect("fixture dir") {
                let file = file.expect("fixture file").path();
                if file.is_dir() {
                    stack.push(file);
                    continue;
                }
                let name = file
                    .strip_prefix(&root)
                    .unwrap_or(&file)
                    .to_string_lossy()
                    .into_owned();
                files.push((name, std::fs::read(&file).expect("read fixture")));
            }
        }
        files.sort();
        assert!(!files.is_empty(), "no fixtures");
        files
    })
}

/// Pieces worth inserting: syntax, escapes, multi-byte characters, broken UTF-8.
const INSERTS: &[&[u8]] = &[
    b"\"",
    b"'",
    b"\\",
    b"\\u00e9",
    b"\\ud83d",
    b"{",
    b"}",
    b"[",
    b"]",
    b": ",
    b"\n",
    b"\r\n",
    b"\r",
    b"\t",
    b"  ",
    b"- ",
    b"&a ",
    b"*a",
    b"<<: ",
    b"---\n",
    b"# reqlint: ignore[duplicate-key]\n",
    b"\xc3\xa9",
    b"\xf0\x9f\x98\x80",
    b"\xc3",
    b"\xff",
    b"\0",
    b"\xef\xbb\xbf",
    b"targeting: '{\"a\": 1, \"a\": 2}'\n",
];

#[derive(Clone, Debug)]
enum Mutation {
    Replace(usize, u8),
    Insert(usize, &'static [u8]),
    Delete(usize, usize),
    /// Copy a range somewhere else (repeats lines, hence keys).
    Copy {
        from: usize,
        len: usize,
        to: usize,
    },
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        (any::<usize>(), any::<u8>()).prop_map(|(at, b)| Mutation::Replace(at, b)),
        (any::<usize>(), prop::sample::select(INSERTS)).prop_map(|(at, s)| Mutation::Insert(at, s)),
        (any::<usize>(), 1..8usize).prop_map(|(at, n)| Mutation::Delete(at, n)),
        (any::<usize>(), 1..80usize, any::<usize>()).prop_map(|(from, len, to)| Mutation::Copy {
            from,
            len,
            to
        }),
    ]
}

fn apply(bytes: &mut Vec<u8>, m: &Mutation) {
    let at = |i: usize, len: usize| if len == 0 { 0 } else { i % (len + 1) };
    match *m {
        Mutation::Replace(i, b) => {
            if !bytes.is_empty() {
                let i = i % bytes.len();
                bytes[i] = b;
            }
        }
        Mutation::Insert(i, piece) => {
            let i = at(i, bytes.len());
            bytes.splice(i..i, piece.iter().copied());
        }
        Mutation::Delete(i, n) => {
            let i = at(i, bytes.len());
            let end = (i + n).min(bytes.len());
            bytes.drain(i..end);
        }
        Mutation::Copy { from, len, to } => {
            let from = at(from, bytes.len());
            let end = (from + len).min(bytes.len());
            let piece = bytes[from..end].to_vec();
            let to = at(to, bytes.len());
            bytes.splice(to..to, piece);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), ..ProptestConfig::default() })]

    #[test]
    fn mutated_fixtures(which in any::<prop::sample::Index>(), mutations in prop::collection::vec(mutation(), 1..6)) {
        let (name, original) = which.get(fixtures());
        let mut bytes = original.clone();
        for m in &mutations {
            apply(&mut bytes, m);
        }
        lint_and_check(name, bytes.clone())?;
        // The same bytes read as the other format.
        let other = if name.ends_with(".json") { "other.req.yaml" } else { "other.req.json" };
        lint_and_check(other, bytes)?;
    }
}

/// The fixtures themselves, unmutated, as a baseline.
#[test]
fn fixtures_as_they_are() {
    for (name, bytes) in fixtures() {
        lint_and_check(name, bytes.clone()).unwrap_or_else(|e| panic!("{name}: {e}"));
    }
}

/// A tree without its spans, numbers by value.
fn shape(node: &Node) -> serde_json::Value {
    use serde_json::json;
    match &node.value {
        Value::Null => json!(null),
        Value::Bool(b) => json!(b),
        Value::Number(_) => match node.as_i64() {
            Some(i) => json!(i),
            None => json!(node.as_f64().map(|f| f.to_string())),
        },
        Value::String(s) | Value::EncodedJson { text: s, .. } => json!(s.as_str()),
        Value::Seq(items) => serde_json::Value::Array(items.iter().map(shape).collect()),
        Value::Map(entries) => serde_json::Value::Object(
            entries
                .iter()
                .map(|e| (e.key.to_string(), shape(&e.value)))
                .collect(),
        ),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), ..ProptestConfig::default() })]

    /// Any `fields` list of a read (names, expansions, modifiers, stray delimiters,
    /// percent-encoding, multi-byte text), as a param and in the query string: the
    /// diagnostics about its names point inside the file, on character boundaries.
    #[test]
    fn fields_lists(fields in r"[a-zé_{}().,% 0-9]{0,40}", object in prop::sample::select(vec!["campaign", "ad", "ad_set", "ad_creative", "custom_audience"])) {
        let quoted = serde_json::to_string(&fields).unwrap();
        let text = format!(
            "requests:\n  - request: GET /v25.0/1202\n    object: {object}\n    params:\n      fields: {quoted}\n  - request: \"GET /v25.0/act_1/campaigns?fields={}\"\n",
            fields.replace('"', "").replace(' ', "%20")
        );
        lint_and_check("fields.req.yaml", text.into_bytes())?;
    }
}
