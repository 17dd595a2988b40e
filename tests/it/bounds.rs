//! Bounded cost for every input, variables included: the work of reading each format
//! and substituting its variables grows linearly with the input, shown by counting the
//! work (reqlint::loading::work) on an input and on one ten times as large, never by a
//! clock; and variable expansion that would explode is cut at its limits, reported with
//! a span, while the other files' findings are kept.

use std::path::Path;
use std::process::Command;

use reqlint::loading::encoded_params::decode_encoded_params;
use reqlint::loading::{self, Format, Limits, work};
use reqlint::model::FileModel;
use serde_json::Value;

/// The work of reading a file as a check does, up to its requests' model.
fn work_of(name: &str, text: &str) -> u64 {
    let (_, units) = work::measure(|| {
        let mut loaded = loading::load(
            text.as_bytes().to_vec(),
            Format::from_path(name),
            &Limits::DEFAULT,
        );
        decode_encoded_params(
            &mut loaded.documents,
            &loaded.text,
            &Limits::DEFAULT,
            &reqlint::engine::Registry::builtin().json_encoded_params,
        );
        let model = FileModel::build(&loaded.documents, &loaded.text);
        model.requests.len() + model.problems.len()
    });
    units
}

/// The work for `shape(10 n)` is at most 12 times the work for `shape(n)`: a scan that
/// looked at every byte again for each of n items would make it about 100 times.
fn assert_linear(name: &str, n: usize, shape: impl Fn(usize) -> String) {
    let small = work_of(name, &shape(n));
    let large = work_of(name, &shape(10 * n));
    assert!(small > 0, "{name}: no work counted");
    assert!(
        large <= 12 * small,
        "{name}: the work for n = {n} is {small}, for 10 n {large} ({:.1} times)",
        large as f64 / small as f64
    );
}

#[test]
fn http_variable_definitions_are_linear() {
    // Definitions that repeat names, which replaced each other by a scan of the list.
    assert_linear("defs.http", 5_000, |n| {
        let mut text = String::new();
        for i in 0..n {
            text.push_str(&format!("@v{} = x{i}\n", i % (n / 2)));
        }
        text.push_str("GET https://api.github.com/repos/{{v0}}/{{v1}}\n");
        text
    });
}

#[test]
fn json_bodies_of_open_braces_are_linear_in_every_reader() {
    let braces = |n: usize| "{".repeat(n);
    let open_refs = |n: usize| format!("{{\"a\": {}", "{{x".repeat(n));
    for body in [&braces as &dyn Fn(usize) -> String, &open_refs] {
        assert_linear("a.http", 20_000, |n| {
            format!(
                "POST https://x.test/a\nContent-Type: application/json\n\n{}\n",
                body(n)
            )
        });
        assert_linear("a.hurl", 20_000, |n| {
            format!("POST https://x.test/a\n{}\n", body(n))
        });
        assert_linear("a.bru", 20_000, |n| {
            format!(
                "post {{\n  url: https://x.test/a\n}}\n\nbody:json {{\n{}\n}}\n",
                body(n)
            )
        });
        assert_linear("a.postman_collection.json", 20_000, |n| {
            let raw = serde_json::to_string(&body(n)).unwrap();
            format!(
                r#"{{"info": {{"schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"}},
                "item": [{{"request": {{"method": "POST", "url": "https://x.test/a",
                "body": {{"mode": "raw", "raw": {raw}}}}}}}]}}"#
            )
        });
    }
}

#[test]
fn bodies_full_of_references_are_linear() {
    assert_linear("refs.http", 5_000, |n| {
        let fields: Vec<String> = (0..n).map(|i| format!("\"f{i}\": {{{{v{i}}}}}")).collect();
        format!(
            "POST https://x.test/a\nContent-Type: application/json\n\n{{{}}}\n",
            fields.join(", ")
        )
    });
}

/// `n` variables and a URL that uses each of them, in a reader's syntax.
fn variables_and_uses(name: &str, n: usize) -> String {
    let uses: String = (0..n).map(|i| format!("/{{{{v{i}}}}}")).collect();
    let url = format!("https://api.github.com/repos{uses}");
    match name {
        "a.bru" => {
            let vars: String = (0..n).map(|i| format!("  v{i}: {i}\n")).collect();
            format!("get {{\n  url: {url}\n}}\n\nvars:pre-request {{\n{vars}}}\n")
        }
        "a.http" => {
            let vars: String = (0..n).map(|i| format!("@v{i} = {i}\n")).collect();
            format!("{vars}\nGET {url}\n")
        }
        "a.postman_collection.json" => {
            let vars: Vec<String> = (0..n)
                .map(|i| format!(r#"{{"key": "v{i}", "value": "{i}"}}"#))
                .collect();
            format!(
                r#"{{"info": {{"schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"}},
                "item": [{{"request": {{"method": "GET", "url": "{url}"}}}}],
                "variable": [{}]}}"#,
                vars.join(", ")
            )
        }
        _ => {
            let vars: String = (0..n).map(|i| format!("  v{i}: '{i}'\n")).collect();
            format!("x-variables:\n{vars}request: GET {url}\n")
        }
    }
}

#[test]
fn variable_lookups_are_linear_in_every_format() {
    for name in ["a.bru", "a.http", "a.postman_collection.json", "a.req.yaml"] {
        assert_linear(name, 2_000, |n| variables_and_uses(name, n));
    }
}

#[test]
fn variables_that_refer_to_each_other_are_linear() {
    // A chain (each variable the next one's reference) and a star (each the first's).
    assert_linear("chain.req.yaml", 2_000, |n| {
        let vars: String = (0..n)
            .map(|i| format!("  v{i}: 'a{{{{v{}}}}}'\n", i + 1))
            .collect();
        format!(
            "x-variables:\n{vars}  v{n}: end\nrequest: GET /repos/{{{{v{}}}}}\n",
            n / 2
        )
    });
    assert_linear("star.http", 2_000, |n| {
        let vars: String = (1..n)
            .map(|i| format!("@v{i} = {{{{v0}}}}/{i}\n"))
            .collect();
        let uses: String = (1..n).map(|i| format!("/{{{{v{i}}}}}")).collect();
        format!("@v0 = x\n{vars}\nGET https://api.github.com/repos{uses}\n")
    });
}

#[test]
fn unclosed_references_in_request_lines_are_linear() {
    assert_linear("open.http", 20_000, |n| {
        format!("GET https://api.github.com/{}\n", "{{".repeat(n))
    });
    assert_linear("open.req.yaml", 20_000, |n| {
        format!("request: GET /repos/{}\n", "{{x".repeat(n))
    });
}

#[test]
fn hurl_entries_and_captures_are_linear() {
    assert_linear("many.hurl", 2_000, |n| {
        let entry = "POST https://x.test/{{id}}\nA: b\n[Query]\nq: 1\n{\"k\": [1, 2]}\nHTTP 200\n[Captures]\nid: jsonpath \"$.id\"\n\n";
        entry.repeat(n)
    });
}

fn run_check(dir: &Path) -> Value {
    let output = Command::new(env!("CARGO_BIN_EXE_reqlint"))
        .args(["check", ".", "--format", "json", "--color", "never"])
        .current_dir(dir)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.code().is_some(),
        "reqlint was killed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{e}: {stdout}"))
}

/// A 1.3 KB `.http` file whose variables nest 40 references wide and 5 deep: written
/// out, 40⁵ copies of the innermost value (a gigabyte).
fn exploding_http() -> String {
    let mut text = String::from("@v0 = xxxxxxxxxxxxxxxxxxxxxxxx\n");
    for level in 1..=5 {
        let refs = format!("{{{{v{}}}}}", level - 1).repeat(40);
        text.push_str(&format!("@v{level} = {refs}\n"));
    }
    text.push_str("\nGET https://api.github.com/repos/{{v5}}\n");
    text
}

#[test]
fn exploding_variables_are_reported_and_the_other_files_still_linted() {
    let dir = tempfile::tempdir().unwrap();
    let exploding = exploding_http();
    assert!(exploding.len() < 1500);
    std::fs::write(dir.path().join("explode.http"), &exploding).unwrap();
    // A 1 MiB value referenced 4,000 times.
    let big = format!(
        "@big = {}\n\n{}",
        "y".repeat(1 << 20),
        "GET https://api.github.com/repos/{{big}}\n\n###\n\n".repeat(4000)
    );
    std::fs::write(dir.path().join("big.http"), &big).unwrap();
    // An ordinary file beside them, with a finding of its own.
    std::fs::write(
        dir.path().join("ordinary.req.yaml"),
        "request: POST /v24.0/act_1234567890/adsets\nparams:\n  name: Spring sale DE\n  daily_budget: 2000\n  daily_budget: 5000\n",
    )
    .unwrap();
    let json = run_check(dir.path());
    let diagnostics = json["diagnostics"].as_array().unwrap();
    let of = |file: &str, rule: &str| -> Vec<&Value> {
        diagnostics
            .iter()
            .filter(|d| d["file"] == file && d["rule"] == rule)
            .collect()
    };
    for d in diagnostics {
        assert_ne!(d["rule"], "internal-error", "{d}");
    }
    // The definition that would pass the limit for one value: `@v3`, 24 × 40³ bytes.
    let explode = of("explode.http", "limit-exceeded");
    assert_eq!(explode.len(), 1, "{explode:?}");
    assert_eq!(explode[0]["span"]["start"]["line"], 4, "{}", explode[0]);
    // The big value: once at its first use, over the limit for one value.
    let big = of("big.http", "limit-exceeded");
    assert_eq!(big.len(), 1, "{big:?}");
    assert_eq!(big[0]["span"]["start"]["line"], 3, "{}", big[0]);
    assert!(!of("ordinary.req.yaml", "duplicate-key").is_empty());
}

#[test]
fn a_file_budget_spent_by_many_uses_is_reported_once() {
    // 40 KiB values (under the limit for one value) used 1,000 times: 40 MiB in all.
    let dir = tempfile::tempdir().unwrap();
    let text = format!(
        "@big = {}\n\n{}",
        "y".repeat(40 << 10),
        "GET https://api.github.com/repos/{{big}}\n\n###\n\n".repeat(1000)
    );
    std::fs::write(dir.path().join("uses.http"), &text).unwrap();
    let json = run_check(dir.path());
    let limits: Vec<&Value> = json["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["rule"] == "limit-exceeded")
        .collect();
    assert_eq!(limits.len(), 1, "{limits:?}");
    assert!(
        limits[0]["message"]
            .as_str()
            .unwrap()
            .contains("the limit for one file"),
        "{}",
        limits[0]
    );
}

#[test]
fn a_value_with_references_past_the_limit_is_reported_once() {
    // 20,000 small variables in one URL: past 64 KiB of them, the rest stay as written,
    // with one problem for the value, not one for each reference left.
    let text = variables_and_uses("a.bru", 20_000);
    let loaded = loading::load(
        text.clone().into_bytes(),
        Format::from_path("a.bru"),
        &Limits::DEFAULT,
    );
    let model = FileModel::build(&loaded.documents, &loaded.text);
    assert_eq!(
        model.problems.len(),
        1,
        "{:?}",
        &model.problems[..3.min(model.problems.len())]
    );
    let problem = &model.problems[0];
    assert!(text[problem.span.range()].starts_with("{{v"), "{problem:?}");
    let line = model.requests[0].line().unwrap();
    assert!(line.path.len() <= text.len() + Limits::DEFAULT.max_substituted_value_bytes);
    assert!(
        line.path.ends_with("/{{v19999}}"),
        "{}",
        &line.path[line.path.len() - 20..]
    );
}

/// A Postman URL read as it is sent: a string URL full of `<` that never closes a
/// placeholder, and a structured URL of n `:name` segments with n path variables.
#[test]
fn postman_urls_in_parts_and_placeholders_are_linear() {
    let collection = |url: String| {
        format!(
            r#"{{"info": {{"schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"}},
"item": [{{"request": {{"method": "GET", "url": {url}}}}}]}}"#
        )
    };
    assert_linear("a.postman_collection.json", 2_000, |n| {
        collection(format!(
            "\"https://graph.facebook.com/v25.0/{}<a b>/x?q=<{}\"",
            "<".repeat(n),
            "<string>".repeat(n)
        ))
    });
    assert_linear("a.postman_collection.json", 2_000, |n| {
        let segments: Vec<String> = (0..n).map(|i| format!("\":v{i}\"")).collect();
        let variables: Vec<String> = (0..n)
            .map(|i| format!(r#"{{"key": "v{i}", "value": "s{i}"}}"#))
            .collect();
        let query: Vec<String> = (0..n)
            .map(|i| format!(r#"{{"key": "k{i}", "value": "<integer>"}}"#))
            .collect();
        collection(format!(
            r#"{{"raw": "{{{{b}}}}/x", "host": ["{{{{b}}}}"], "path": [{}], "query": [{}], "variable": [{}]}}"#,
            segments.join(","),
            query.join(","),
            variables.join(",")
        ))
    });
}

#[test]
fn multipart_bodies_are_linear() {
    // Many parts, and one part of many lines, each with its headers and a long boundary.
    let boundary = "b".repeat(200);
    assert_linear("multipart.http", 2_000, |n| {
        let part = format!(
            "--{boundary}\nContent-Disposition: form-data; name=\"title\"; x=\"{}\"\nContent-Type: text/plain\n\nT\n",
            ";".repeat(50)
        );
        format!(
            "POST https://graph.facebook.com/v25.0/act_1/advideos\nContent-Type: multipart/form-data; boundary={boundary}\n\n{}--{boundary}--\n",
            part.repeat(n)
        )
    });
    assert_linear("multipart.http", 20_000, |n| {
        format!(
            "POST https://graph.facebook.com/v25.0/act_1/advideos\nContent-Type: multipart/form-data; boundary=B\n\n--B\nContent-Disposition: form-data; name=\"title\"\n\n{}",
            "--C\n".repeat(n)
        )
    });
}

#[test]
fn variables_nested_in_values_are_linear_in_every_format() {
    let items = |n: usize| vec!["\"x{{country}}{{goal}}\""; n].join(", ");
    assert_linear("nested.req.yaml", 2_000, |n| {
        format!(
            "x-variables:\n  country: US\n  goal: SALES\nrequest: POST /v25.0/act_1/adsets\nparams:\n  targeting: {{geo_locations: {{countries: [{0}]}}}}\n  encoded: '{{\"countries\": [{0}]}}'\n",
            items(n)
        )
    });
    assert_linear("nested.http", 2_000, |n| {
        format!(
            "@country = US\n@goal = SALES\nPOST https://graph.facebook.com/v25.0/act_1/adsets\nContent-Type: application/json\n\n{{\"targeting\": {{\"geo_locations\": {{\"countries\": [{}]}}}}}}\n",
            items(n)
        )
    });
    assert_linear("nested.postman_collection.json", 2_000, |n| {
        let body =
            format!("{{\"targeting\": {{\"countries\": [{}]}}}}", items(n)).replace('"', "\\\"");
        format!(
            "{{\"info\": {{\"name\": \"n\", \"schema\": \"https://schema.getpostman.com/json/collection/v2.1.0/collection.json\"}}, \"variable\": [{{\"key\": \"country\", \"value\": \"US\"}}, {{\"key\": \"goal\", \"value\": \"SALES\"}}], \"item\": [{{\"name\": \"a\", \"request\": {{\"method\": \"POST\", \"url\": \"https://graph.facebook.com/v25.0/act_1/adsets\", \"body\": {{\"mode\": \"raw\", \"raw\": \"{body}\"}}}}}}]}}"
        )
    });
}
