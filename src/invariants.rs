//! Invariants that fuzz targets, property tests and the regression replay check on any
//! input: no panic, every span inside the text and on character boundaries, and the
//! same input giving the same result. Not part of the linter's behaviour.

use std::path::Path;

use crate::engine::{FileResult, Settings, lint_bytes};
use crate::loading::encoded::decode_in_place;
use crate::loading::encoded_params::decode_encoded_params;
use crate::loading::{self, Format, Limits, Node, Problem, Span, Value};
use crate::model::FileModel;
use crate::model::config::Config;
use crate::model::context::ContextIndex;

fn check_span(text: &str, span: Span, what: &str) {
    assert!(
        span.start <= span.end && span.end <= text.len(),
        "{what}: span {span:?} outside a text of {} bytes",
        text.len()
    );
    assert!(
        text.is_char_boundary(span.start) && text.is_char_boundary(span.end),
        "{what}: span {span:?} not on character boundaries"
    );
}

/// Every span of a tree (keys, values, decoded JSON) inside `text`.
pub fn check_tree(text: &str, node: &Node) {
    let mut stack = vec![node];
    while let Some(n) = stack.pop() {
        check_span(text, n.span, "node");
        match &n.value {
            Value::Seq(items) => stack.extend(items),
            Value::Map(entries) => {
                for e in entries {
                    check_span(text, e.key_span, "key");
                    stack.push(&e.value);
                }
            }
            Value::EncodedJson { decoded, .. } => stack.push(decoded),
            _ => {}
        }
    }
}

fn check_problems(text: &str, problems: &[Problem]) {
    for p in problems {
        check_span(text, p.span, "problem");
        if let Some(r) = p.related {
            check_span(text, r, "related");
        }
    }
}

/// The loader on arbitrary bytes, as YAML or JSON.
pub fn loader(data: &[u8], format: Format) {
    let first = loading::load(data.to_vec(), format, &Limits::DEFAULT);
    for doc in &first.documents {
        check_tree(&first.text, doc);
    }
    check_problems(&first.text, &first.problems);
    let again = loading::load(data.to_vec(), format, &Limits::DEFAULT);
    assert_eq!(
        first.documents, again.documents,
        "the same input gave another tree"
    );
    assert_eq!(
        first.problems, again.problems,
        "the same input gave other problems"
    );
    if format == Format::Yaml {
        yaml_readers_agree(&first.text);
    }
}

/// Where the quick YAML reader takes a text, it reads it as saphyr-parser does: the
/// same trees, spans and problems.
pub fn yaml_readers_agree(text: &str) {
    let body = text.strip_prefix('\u{feff}').unwrap_or(text);
    if let Some([quick, full]) = loading::yaml::both_readers(body, &Limits::DEFAULT) {
        assert_eq!(quick.0, full.0, "the quick YAML reader built another tree");
        assert_eq!(
            quick.1, full.1,
            "the quick YAML reader found other problems"
        );
    }
}

/// The JSON-encoded-string decoder: `data` as a string value written single-quoted and
/// double-quoted in YAML, and as a JSON string.
pub fn encoded_string(data: &[u8]) {
    let Ok(value) = std::str::from_utf8(data) else {
        return;
    };
    let double = serde_json::to_string(value).unwrap_or_default();
    let single = format!("'{}'", value.replace('\'', "''"));
    for (text, format) in [
        (format!("t: {double}\n"), Format::Yaml),
        (format!("t: {single}\n"), Format::Yaml),
        (format!("{{\"t\": {double}}}"), Format::Json),
    ] {
        let (mut docs, _) = loading::parse_text(&text, format, &Limits::DEFAULT);
        let Some(Value::Map(entries)) = docs.first_mut().map(|d| &mut d.value) else {
            continue;
        };
        let Some(entry) = entries.first_mut() else {
            continue;
        };
        let string_span = entry.value.span;
        if let Some(p) = decode_in_place(&mut entry.value, &text, &Limits::DEFAULT) {
            check_span(&text, p.span, "decode problem");
        }
        check_tree(&text, &entry.value);
        if let Value::EncodedJson { decoded, .. } = &entry.value.value {
            decoded.walk(|n| {
                assert!(
                    string_span.start <= n.span.start && n.span.end <= string_span.end,
                    "decoded span {:?} outside the string {string_span:?}",
                    n.span
                );
            });
        }
    }
}

/// The request model over a YAML document.
pub fn request_model(data: &[u8]) {
    request_model_of(data, Format::Yaml);
}

/// A reader of another format (a Postman collection, `.http`, Bruno, Hurl) on arbitrary
/// bytes: its trees and problems inside the text and the same twice, the request model
/// over them, and the whole check with every report.
pub fn reader(data: &[u8], reader: loading::readers::Reader) {
    let format = Format::Read(reader);
    loader(data, format);
    request_model_of(data, format);
    let name = match reader {
        loading::readers::Reader::Postman => "fuzz.postman_collection.json",
        loading::readers::Reader::Http => "fuzz.http",
        loading::readers::Reader::Bruno => "fuzz.bru",
        loading::readers::Reader::Hurl => "fuzz.hurl",
        loading::readers::Reader::Workflow => ".github/workflows/fuzz.yml",
    };
    whole_check(data, name);
}

fn request_model_of(data: &[u8], format: Format) {
    let mut loaded = loading::load(data.to_vec(), format, &Limits::DEFAULT);
    let problems = decode_encoded_params(
        &mut loaded.documents,
        &loaded.text,
        &Limits::DEFAULT,
        &crate::engine::Registry::builtin().json_encoded_params,
    );
    check_problems(&loaded.text, &problems);
    let model = FileModel::build(&loaded.documents, &loaded.text);
    let text = &loaded.text;
    for r in &model.requests {
        check_span(text, r.line_span, "request line");
        match &r.line {
            Ok(line) => {
                check_span(text, line.method_span, "method");
                check_span(text, line.path_span, "path");
                for s in &line.segments {
                    check_span(text, s.span, "segment");
                }
                for q in &line.query {
                    check_span(text, q.key_span, "query key");
                    check_tree(text, &q.value);
                }
                for unknown in &line.unknown_query {
                    check_span(text, *unknown, "whole-query variable");
                }
            }
            Err(e) => check_span(text, e.span, "line error"),
        }
        for e in r.substituted_params.iter().flatten() {
            check_span(text, e.key_span, "substituted param key");
            check_tree(text, &e.value);
        }
        for u in &r.variable_uses {
            check_span(text, u.key, "variable use's param");
            check_span(text, u.value, "variable use's value");
            check_span(text, u.used, "variable use");
        }
    }
    for issue in &model.shape_issues {
        check_span(text, issue.span, "shape issue");
    }
    check_problems(text, &model.problems);
}

/// How much work reading `len` bytes may count (see [`crate::loading::work`]): a fixed
/// amount per byte. Work that grew faster than the input (a scan from every brace to
/// the end, a lookup through every variable for every use) passes it on inputs of a
/// few kilobytes.
fn linear_work_bound(len: usize) -> u64 {
    64 * len as u64 + 4096
}

/// The reader a fuzz input's first byte picks, and its file name.
fn picked_reader(kind: u8) -> (loading::readers::Reader, &'static str) {
    use loading::readers::Reader;
    match kind % 4 {
        0 => (Reader::Http, "fuzz.http"),
        1 => (Reader::Bruno, "fuzz.bru"),
        2 => (Reader::Hurl, "fuzz.hurl"),
        _ => (Reader::Postman, "fuzz.postman_collection.json"),
    }
}

/// Variable expansion on arbitrary text (the first byte picks the reader, whose syntax
/// defines variables: `.http` `@v = …`, Bruno `vars`, Hurl captures, a collection's
/// `variable`), read with small limits so that inputs reach them: the work of reading
/// and substituting is linear in the input, a request line holds at most the limit of
/// substituted bytes more than it was written with, and every problem has a span in the
/// text.
pub fn variable_expansion(data: &[u8]) {
    let Some((&kind, rest)) = data.split_first() else {
        return;
    };
    let (reader, _) = picked_reader(kind);
    let text = String::from_utf8_lossy(rest);
    let limits = Limits {
        max_substituted_value_bytes: 256,
        max_substituted_file_bytes: 4096,
        ..Limits::DEFAULT
    };
    let (_, units) = crate::loading::work::measure(|| {
        let (documents, problems) =
            loading::read_text(&text, Format::Read(reader), &limits, &Default::default());
        check_problems(&text, &problems);
        let model = FileModel::build_within(&documents, &text, &limits);
        check_problems(&text, &model.problems);
        for r in &model.requests {
            check_span(&text, r.line_span, "request line");
            if let Ok(line) = &r.line {
                let written = text.get(r.line_span.range()).map_or(0, str::len);
                assert!(
                    line.path.len() <= written + limits.max_substituted_value_bytes,
                    "a path of {} bytes from a line of {written}",
                    line.path.len()
                );
            }
        }
    });
    assert!(
        units <= linear_work_bound(text.len()),
        "{units} units of work for {} bytes",
        text.len()
    );
}

/// The JSON body scan each reader shares (bare `{{name}}` references made strings, the
/// body parsed with spans, the references put back) on arbitrary text as a body, in
/// the syntax of the reader the first byte picks: trees and problems inside the file,
/// and work linear in it.
pub fn body_scan(data: &[u8]) {
    let Some((&kind, rest)) = data.split_first() else {
        return;
    };
    let (reader, _) = picked_reader(kind);
    let body = String::from_utf8_lossy(rest);
    let text = match reader {
        loading::readers::Reader::Http => {
            format!("POST https://x.test/a\nContent-Type: application/json\n\n{body}\n")
        }
        loading::readers::Reader::Bruno => {
            format!("post {{\n  url: https://x.test/a\n}}\n\nbody:json {{\n{body}\n}}\n")
        }
        loading::readers::Reader::Hurl => format!("POST https://x.test/a\n{body}\n"),
        loading::readers::Reader::Workflow => {
            format!(
                "jobs:\n  j:\n    steps:\n      - run: gh api -f body={body:?} repos/o/r/issues\n"
            )
        }
        loading::readers::Reader::Postman => {
            let raw = serde_json::to_string(&*body).unwrap_or_default();
            format!(
                "{{\"info\": {{\"schema\": \"https://schema.getpostman.com/json/collection/v2.1.0/collection.json\"}}, \"item\": [{{\"request\": {{\"method\": \"POST\", \"url\": \"https://x.test/a\", \"body\": {{\"mode\": \"raw\", \"raw\": {raw}}}}}}}]}}"
            )
        }
    };
    let (_, units) = crate::loading::work::measure(|| {
        let (documents, problems) = loading::read_text(
            &text,
            Format::Read(reader),
            &Limits::DEFAULT,
            &Default::default(),
        );
        check_problems(&text, &problems);
        for doc in &documents {
            check_tree(&text, doc);
        }
    });
    assert!(
        units <= linear_work_bound(text.len()),
        "{units} units of work for {} bytes",
        text.len()
    );
    // The scan alone: each reference it made a string is one in the text.
    let (neutral, replaced) = loading::readers::neutralize_references(&body);
    assert_eq!(neutral.len(), body.len());
    for &(start, end) in &replaced {
        assert!(body[start..end].starts_with("{{") && body[start..end].ends_with("}}"));
    }
}

/// The readers of a workflow step's scripts on arbitrary text, read both as a `run:`
/// bash script and as a github-script `script:`: every span inside the text and on
/// character boundaries, the same result twice, and the work linear in the text (no byte looked at more than a bounded
/// number of times, however the substitutions, quotes or brackets nest).
pub fn workflow_scripts(data: &[u8]) {
    use loading::readers::workflow::{github_script, shell};
    let text = String::from_utf8_lossy(data);
    let ((commands, calls), units) =
        crate::loading::work::measure(|| (shell::commands(&text), github_script::calls(&text)));
    assert!(
        units <= linear_work_bound(text.len()),
        "{units} units of work for {} bytes",
        text.len()
    );
    assert_eq!(commands, shell::commands(&text));
    assert_eq!(calls, github_script::calls(&text));
    let span = |r: &std::ops::Range<usize>, what: &str| {
        check_span(&text, Span::new(r.start, r.end), what);
    };
    for command in &commands {
        match command {
            shell::Command::Call(call) => {
                span(&call.span, "call");
                for part in [&call.method, &call.target].into_iter().flatten() {
                    span(&part.1, "method or target");
                }
                if let Some(input) = &call.input {
                    span(input, "input");
                }
                for f in &call.fields {
                    span(&f.name_span, "field name");
                    span(&f.value_span, "field value");
                }
                for h in &call.headers {
                    span(&h.span, "header");
                }
                for a in &call.assignments {
                    span(&a.span, "assignment");
                }
            }
            shell::Command::Gh {
                words,
                span: s,
                assignments,
                ..
            } => {
                span(s, "gh command");
                for w in words {
                    span(&w.span, "word");
                }
                for a in assignments {
                    span(&a.span, "assignment");
                }
            }
            shell::Command::Git { span: s, .. }
            | shell::Command::Other { span: s, .. }
            | shell::Command::Unreadable { span: s, .. } => span(s, "command"),
            shell::Command::Assignment(a) => span(&a.span, "assignment"),
        }
    }
    for (s, _) in &calls.unreadable {
        span(s, "unreadable use of the client");
    }
    for call in &calls.calls {
        span(&call.span, "script call");
        for a in &call.args {
            span(&a.name_span, "argument name");
            span(&a.value_span, "argument value");
        }
        match &call.target {
            github_script::Target::Rest {
                namespace, method, ..
            } => {
                span(&namespace.1, "namespace");
                span(&method.1, "method");
            }
            github_script::Target::Request { route } => span(&route.1, "route"),
            github_script::Target::Graphql => {}
        }
    }
}

fn settings() -> Settings {
    Settings {
        config: Config::defaults(".".into()),
        context: ContextIndex::default(),
        limits: Limits::DEFAULT,
    }
}

/// Every diagnostic of a whole check inside the file; no internal error; deterministic.
pub fn check_result(result: &FileResult) {
    let text = result.text.as_deref().unwrap_or("");
    for d in &result.diagnostics {
        assert_ne!(d.rule, crate::engine::INTERNAL_ERROR, "{}", d.message);
        check_span(text, d.span, d.rule);
        for l in &d.labels {
            check_span(text, l.span, d.rule);
        }
    }
}

/// The whole check of one file, from arbitrary bytes, as `name` (its extension picks
/// YAML or JSON).
pub fn whole_check(data: &[u8], name: &str) {
    let s = settings();
    let first = lint_bytes(name, Path::new(name), data.to_vec(), &s);
    check_result(&first);
    let again = lint_bytes(name, Path::new(name), data.to_vec(), &s);
    assert_eq!(
        first.diagnostics, again.diagnostics,
        "the same input gave other diagnostics"
    );
    reports_hold(&first);
    fixes_hold(data, name, &first, &s);
}

/// The fixes of a result, applied in rounds: the safe ones (`--fix`), and separately all
/// of them (`--fix --unsafe-fixes`). Either way the text still parses as well as it did
/// (no more `invalid-syntax`, `limit-exceeded` or `duplicate-key`: no key written
/// twice), no rule whose findings were fixed finds more than before, and the file has no
/// more errors than before. The one exception to the last two: a fix that corrects a
/// key's name may reveal errors that were there all along, since reqlint then checks
/// what the key names (a renamed `time_based_ad_rotation_id_blocks` is checked against
/// its intervals, a renamed `token:` against the requests), and so may a corrected edge
/// (an unsafe fix: the call then goes somewhere, whose params are checked); a fix of a
/// value, a method, a list's wrapping or a permission, or the removal of a param or a
/// permission, never brings an error.
pub fn fixes_hold(data: &[u8], name: &str, result: &FileResult, s: &Settings) {
    use crate::fix::Mode;
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for mode in [Mode::Safe, Mode::Unsafe] {
        let taken =
            |d: &&crate::diagnostic::Diagnostic| d.fix.as_ref().is_some_and(|f| mode.takes(f));
        let mut fixed_rules: Vec<&str> = result
            .diagnostics
            .iter()
            .filter(taken)
            .map(|d| d.rule)
            .collect();
        fixed_rules.sort_unstable();
        fixed_rules.dedup();
        if fixed_rules.is_empty() {
            continue;
        }
        let any_unsafe = result.diagnostics.iter().filter(taken).any(|d| {
            d.fix
                .as_ref()
                .is_some_and(|f| f.applicability == crate::diagnostic::Applicability::Unsafe)
        });
        if mode == Mode::Unsafe && !any_unsafe {
            // The same fixes as the safe run's.
            continue;
        }
        let fixed = crate::engine::fix_text(name, Path::new(name), text, s, mode);
        let after = lint_bytes(name, Path::new(name), fixed.text.clone().into_bytes(), s);
        check_result(&after);
        let count =
            |r: &FileResult, rule: &str| r.diagnostics.iter().filter(|d| d.rule == rule).count();
        for rule in ["invalid-syntax", "limit-exceeded", "duplicate-key"] {
            assert!(
                count(&after, rule) <= count(result, rule),
                "a fix ({mode:?}) brought `{rule}`:\n{}",
                fixed.text
            );
        }
        // A corrected edge sends the call somewhere whose params are then checked.
        let edge_renamed = mode == Mode::Unsafe
            && result
                .diagnostics
                .iter()
                .any(|d| d.rule == "ad-unknown-endpoint" && d.fix.is_some());
        if edge_renamed {
            continue;
        }
        for rule in &fixed_rules {
            assert!(
                count(&after, rule) <= count(result, rule),
                "fixing `{rule}` ({mode:?}) left more of its findings:\n{}",
                fixed.text
            );
        }
        if renames_a_key(data, name, result, mode) {
            continue;
        }
        let errors = |r: &FileResult| {
            r.diagnostics
                .iter()
                .filter(|d| d.severity == crate::diagnostic::Severity::Error)
                .count()
        };
        assert!(
            errors(&after) <= errors(result),
            "a fix ({mode:?}) brought an error ({} before, {} after):\n{}",
            errors(result),
            errors(&after),
            fixed.text
        );
    }
}

/// Whether one of the result's fixes that `mode` takes corrects the name of a key: its
/// edits all fall inside the span of a key of the file's documents (JSON-encoded values
/// included).
fn renames_a_key(data: &[u8], name: &str, result: &FileResult, mode: crate::fix::Mode) -> bool {
    let format = Format::from_path(name);
    let mut loaded = loading::load(data.to_vec(), format, &Limits::DEFAULT);
    decode_encoded_params(
        &mut loaded.documents,
        &loaded.text,
        &Limits::DEFAULT,
        &crate::engine::Registry::builtin().json_encoded_params,
    );
    let mut keys = Vec::new();
    for doc in &loaded.documents {
        doc.walk(|n| {
            if let Value::Map(entries) = &n.value {
                keys.extend(entries.iter().map(|e| e.key_span));
            }
        });
    }
    let inside_a_key = |span: Span| {
        keys.iter()
            .any(|k| k.start <= span.start && span.end <= k.end)
    };
    result
        .diagnostics
        .iter()
        .filter_map(|d| d.fix.as_ref())
        .filter(|f| mode.takes(f))
        .any(|f| {
            f.edits
                .iter()
                .all(|e| e.file.is_none() && inside_a_key(e.span))
        })
}

/// Every report renders the result without a panic, and none of them shows a
/// credential-shaped word of the file.
pub fn reports_hold(result: &FileResult) {
    use crate::reports;
    let results = std::slice::from_ref(result);
    let summary = reports::Summary::new(results, 1, result.requests);
    let mut outputs: Vec<Vec<u8>> = vec![Vec::new(); 5];
    // The human report of a file with many findings costs most of a replay's time in a
    // debug build; tests/it/reports.rs renders such files.
    let human = if result.diagnostics.len() <= 20 {
        reports::human::write(results, summary, false, &mut outputs[0])
    } else {
        Ok(())
    };
    let written = [
        human,
        reports::concise::write(results, summary, &mut outputs[1]),
        reports::json::write(results, summary, &mut outputs[2]),
        reports::sarif::write(results, &mut outputs[3]),
        reports::github::write(results, summary, &mut outputs[4]),
    ];
    assert!(
        written.iter().all(Result::is_ok),
        "a report failed to write"
    );
    let text = result.text.as_deref().unwrap_or("");
    for token in crate::model::secrets::find_tokens(text) {
        let secret = &text[token.range];
        for out in &outputs {
            assert!(
                !String::from_utf8_lossy(out).contains(secret),
                "a report shows the secret {secret:?}"
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn renames(text: &str) -> bool {
        let s = settings();
        let name = "f.req.yaml";
        let result = lint_bytes(name, Path::new(name), text.as_bytes().to_vec(), &s);
        assert!(
            result.diagnostics.iter().any(|d| d.fix.is_some()),
            "no fix for {text}"
        );
        renames_a_key(text.as_bytes(), name, &result, crate::fix::Mode::Safe)
    }

    /// Only a corrected key name may reveal errors; a corrected value may not.
    #[test]
    fn key_renames_are_told_from_value_fixes() {
        assert!(renames(
            "request: GET /v25.0/act_1/campaigns\nparms:\n  name: x\n"
        ));
        assert!(!renames("request: get /v25.0/act_1/campaigns\n"));
    }
}
