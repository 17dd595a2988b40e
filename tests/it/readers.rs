//! The request formats reqlint's readers read (Postman collections, `.http`, Bruno and
//! Hurl files): every diagnostic points at the exact text written in the original file,
//! inside URL query strings, JSON bodies (also when the body is a JSON string of a JSON
//! collection), form fields and headers; and standard input picks the reader by name.

use std::path::PathBuf;
use std::process::{Command, Stdio};

use crate::support::spans::rules_and_texts;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// (rule, the text the diagnostic's span covers) of each diagnostic, in order.
fn rules_and_texts_of(rel: &str) -> Vec<(String, String)> {
    let out = Command::new(env!("CARGO_BIN_EXE_reqlint"))
        .current_dir(root())
        .args(["check", rel, "--format", "json"])
        .output()
        .unwrap();
    let text = std::fs::read_to_string(root().join(rel)).unwrap();
    rules_and_texts(&text, &serde_json::from_slice(&out.stdout).unwrap())
}

fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
    list.iter()
        .map(|(r, t)| (r.to_string(), t.to_string()))
        .collect()
}

#[test]
fn postman_spans_land_on_the_text_written() {
    assert_eq!(
        rules_and_texts_of("fixtures/formats/postman/mistakes.postman_collection.json"),
        pairs(&[
            (
                "ad-param-missing",
                "\"{{base_url}}/act_{{ad_account_id}}/campaigns?objective=OUTCOME_SALEZ\"",
            ),
            ("ad-param-invalid", "OUTCOME_SALEZ"),
            ("ad-param-invalid", "\\\"PAUSD\\\""),
            ("ad-field-unknown", "objectve"),
            ("ad-unknown-endpoint", "ad_sets"),
            ("literal-secret", "\"Bearer EAAGm0PX4ZCpsBAOtzZBcTkZD\""),
        ])
    );
}

#[test]
fn http_spans_land_on_the_text_written() {
    assert_eq!(
        rules_and_texts_of("fixtures/formats/http/mistakes.http"),
        pairs(&[
            ("ad-param-invalid", "OUTCOME_SALEZ"),
            ("ad-param-invalid", "\"PAUSD\""),
            (
                "ad-param-missing",
                "GET {{base_url}}/act_{{ad_account_id}}/targetingsearch"
            ),
            ("ad-field-unknown", "titel"),
        ])
    );
}

#[test]
fn bruno_spans_land_on_the_text_written() {
    assert_eq!(
        rules_and_texts_of("fixtures/formats/bruno/marketing-api/Campaigns/mistakes.bru"),
        pairs(&[
            (
                "ad-param-missing",
                "{{base_url}}/act_{{ad_account_id}}/campaigns",
            ),
            ("ad-param-invalid", "OUTCOME_SALEZ"),
        ])
    );
}

#[test]
fn tokens_named_by_a_variable_are_checked() {
    let found = rules_and_texts_of("fixtures/formats/postman/github.postman_collection.json");
    assert!(
        found
            .iter()
            .any(|(rule, text)| rule == "token-missing-permission"
                && text == "\"{{gh_base}}/repos/{{owner}}/{{repo}}/pulls/1347/merge\""),
        "{found:?}"
    );
    let found = rules_and_texts_of("fixtures/formats/http/github.http");
    assert!(
        found
            .iter()
            .any(|(rule, _)| rule == "token-missing-permission"),
        "{found:?}"
    );
}

/// `check -` reads standard input with the reader its `--stdin-filename` selects.
#[test]
fn standard_input_picks_the_reader_by_name() {
    let text = std::fs::read(root().join("fixtures/formats/http/mistakes.http")).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_reqlint"))
        .current_dir(root())
        .args([
            "check",
            "-",
            "--stdin-filename",
            "fixtures/formats/http/mistakes.http",
            "--format",
            "human",
            "--color",
            "never",
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    child.stdin.take().unwrap().write_all(&text).unwrap();
    let out = child.wait_with_output().unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    // The file's report as fixtures.rs pins it, then the summary line.
    let expected =
        std::fs::read_to_string(root().join("fixtures/formats/http/mistakes.out")).unwrap();
    assert!(
        stdout.starts_with(&expected) && stdout[expected.len()..].starts_with("Found "),
        "expected\n{expected}got\n{stdout}"
    );
}

/// `reqlint scopes` reads collections and `.http` files as the check does: the token a
/// `{{variable}}` stands for, and the permissions its requests need.
#[test]
fn scopes_of_collections() {
    let out = Command::new(env!("CARGO_BIN_EXE_reqlint"))
        .current_dir(root())
        .args([
            "scopes",
            "fixtures/formats/http/github.http",
            "fixtures/formats/postman/github.postman_collection.json",
        ])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("collections-bot:"), "{text}");
    for needed in ["Contents: write", "Issues: write", "Pull requests: read"] {
        assert!(text.contains(needed), "{needed} not in\n{text}");
    }
}

/// `--fix` parts two requests of an `.http` file written with CRLF line ends by a
/// separator line with the file's line end, and both are then read as requests.
#[test]
fn a_separator_keeps_the_files_line_ends() {
    let dir = tempfile::tempdir().unwrap();
    let text = "GET https://api.github.com/repos/acme/web/pulls\r\nAccept: application/json\r\n\r\n# @name issues\r\nGET https://api.github.com/repos/acme/web/issues\r\n";
    std::fs::write(dir.path().join("a.http"), text).unwrap();
    std::fs::write(dir.path().join(".reqlint.yaml"), "").unwrap();
    let run = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_reqlint"))
            .current_dir(dir.path())
            .args(["check", "a.http", "--no-cache", "--format", "concise"])
            .args(args)
            .output()
            .unwrap()
    };
    let before = String::from_utf8(run(&[]).stdout).unwrap();
    assert!(
        before.contains("a.http:5:1: warning[http-request-not-separated]")
            && before.contains("(1 request)"),
        "{before}"
    );
    run(&["--fix"]);
    let fixed = std::fs::read_to_string(dir.path().join("a.http")).unwrap();
    assert_eq!(
        fixed,
        text.replace("\r\n# @name", "\r\n###\r\n# @name"),
        "{fixed:?}"
    );
    let after = String::from_utf8(run(&[]).stdout).unwrap();
    assert!(
        after.contains("All checks passed: 1 file (2 requests)"),
        "{after}"
    );
}

/// reqlint run in `dir` with `args`, without a cache or CI variables: its exit code and
/// its concise report.
fn check_in(dir: &std::path::Path, args: &[&str]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_reqlint"))
        .current_dir(dir)
        .arg("check")
        .args(args)
        .args(["--no-cache", "--color", "never", "--format", "concise"])
        .env_remove("GITHUB_ACTIONS")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
    )
}

/// A Postman collection or environment is found by its content, whatever its name: in a
/// directory walk (a `.json` file no include glob names), and named on the command line.
/// Other JSON files stay out of the walk.
#[test]
fn postman_files_are_found_by_content_whatever_their_name() {
    let dir = tempfile::tempdir().unwrap();
    let collection =
        std::fs::read(root().join("fixtures/formats/postman/mistakes.postman_collection.json"))
            .unwrap();
    for name in [
        "github-postman-collection.json",
        "APICollection.postman.json",
        "api/collection.json",
    ] {
        let path = dir.path().join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, &collection).unwrap();
    }
    // An environment whose scope comes after 8 KiB of values: its end is read too.
    let values: Vec<String> = (0..400)
        .map(|i| format!(r#"{{"key": "var_{i}", "value": "value {i}", "enabled": true}}"#))
        .collect();
    let environment = format!(
        r#"{{"id": "1", "name": "staging", "values": [{}, {{"key": "access_token", "value": "EAAGm0PX4ZCpsBAOtzZBcTkZD", "type": "secret"}}], "_postman_variable_scope": "environment"}}"#,
        values.join(",\n")
    );
    assert!(environment.len() > 16 * 1024);
    std::fs::write(dir.path().join("staging.json"), &environment).unwrap();
    // JSON that is not Postman's, and a collection that `exclude` leaves out.
    std::fs::write(dir.path().join("package.json"), r#"{"name": "web"}"#).unwrap();
    std::fs::create_dir(dir.path().join("vendor")).unwrap();
    std::fs::write(dir.path().join("vendor/collection.json"), &collection).unwrap();
    std::fs::write(
        dir.path().join(".reqlint.yaml"),
        "exclude: [\"vendor/**\"]\n",
    )
    .unwrap();

    let (code, report) = check_in(dir.path(), &["."]);
    assert_eq!(code, 1, "{report}");
    for name in [
        "github-postman-collection.json",
        "APICollection.postman.json",
        "api/collection.json",
    ] {
        assert!(
            report.contains(&format!("{name}:14:76: error[ad-param-invalid]")),
            "{name} not linted:\n{report}"
        );
    }
    assert!(
        report.contains("staging.json:") && report.contains("error[literal-secret]"),
        "{report}"
    );
    assert!(!report.contains("package.json"), "{report}");
    assert!(!report.contains("vendor/"), "{report}");
    assert!(report.contains("in 4 files"), "{report}");

    // Named on the command line, a collection is read as one whatever its name; with
    // `--force-exclude` (hooks, editors), it is sniffed as a walk does, and `exclude`
    // still leaves a file out.
    for args in [
        &["api/collection.json"][..],
        &[
            "api/collection.json",
            "vendor/collection.json",
            "--force-exclude",
        ],
    ] {
        let (code, report) = check_in(dir.path(), args);
        assert_eq!(code, 1, "{args:?}: {report}");
        assert!(
            report.contains("api/collection.json:14:76: error[ad-param-invalid]"),
            "{args:?}: {report}"
        );
        assert!(!report.contains("vendor/"), "{args:?}: {report}");
    }
}

/// The realistic collections, for both APIs, with their environments: no finding, and
/// the environments themselves lint clean.
#[test]
fn realistic_collections_with_their_environments_lint_clean() {
    for (collection, environment) in [
        (
            "fixtures/formats/postman/github-rest-api.postman_collection.json",
            "fixtures/formats/postman/github-rest-api.postman_environment.json",
        ),
        (
            "fixtures/formats/postman/meta-marketing-api.postman_collection.json",
            "fixtures/formats/postman/meta-marketing-api.postman_environment.json",
        ),
    ] {
        let (code, report) = check_in(
            &root(),
            &[collection, environment, "--environment", environment],
        );
        assert_eq!(code, 0, "{collection}:\n{report}");
        assert!(report.starts_with("All checks passed: 2 files"), "{report}");
    }
}

/// The `token` each request of a request file gets from its `Authorization` header
/// (`-`: none), and the text it spans.
fn header_tokens(text: &str, format: reqlint::loading::Format) -> Vec<(String, String)> {
    let tokens = [("gh_token".to_string(), "ci-bot".to_string())].into();
    let options = reqlint::loading::readers::ReadOptions {
        token_variables: &tokens,
        ..reqlint::loading::readers::ReadOptions::default()
    };
    let (docs, problems) =
        reqlint::loading::read_text(text, format, &reqlint::loading::Limits::DEFAULT, &options);
    assert!(problems.is_empty(), "{problems:?}");
    let model = reqlint::model::FileModel::build(&docs, text);
    model
        .requests
        .iter()
        .map(|r| match r.token {
            Some(reqlint::model::TokenRef::Named { name, span }) => {
                (name.to_string(), text[span.range()].to_string())
            }
            _ => ("-".to_string(), String::new()),
        })
        .collect()
}

/// In reqlint's own request files, an `Authorization` header whose token is a
/// variable the config maps names that token, as in the other formats; a request's
/// own `token:` wins, and the header wins over its document's `token:`.
#[test]
fn an_authorization_header_names_the_config_s_token_in_request_files() {
    let yaml = "token: doc-bot\nrequests:\n  - request: GET /user\n    x-headers: {Authorization: 'Bearer {{gh_token}}'}\n  - request: GET /user\n    x-headers:\n      authorization: token {{ gh_token }}\n  - request: GET /user\n    token: own-bot\n    x-headers: {Authorization: 'Bearer {{gh_token}}'}\n  - request: GET /user\n    x-headers: {Authorization: 'Bearer {{other}}'}\n  - request: GET /user\n    x-headers: {Authorization: Bearer abc}\n  - GET /user\n";
    let named = |name: &str, at: &str| (name.to_string(), at.to_string());
    assert_eq!(
        header_tokens(yaml, reqlint::loading::Format::Yaml),
        [
            named("ci-bot", "'Bearer {{gh_token}}'"),
            named("ci-bot", "token {{ gh_token }}"),
            named("own-bot", "own-bot"),
            named("doc-bot", "doc-bot"),
            named("doc-bot", "doc-bot"),
            named("doc-bot", "doc-bot"),
        ]
    );
    // One request, in JSON.
    let json = r#"{"request": "GET /user", "x-headers": {"Authorization": "Bearer {{gh_token}}"}}"#;
    assert_eq!(
        header_tokens(json, reqlint::loading::Format::Json),
        [("ci-bot".to_string(), "\"Bearer {{gh_token}}\"".to_string())]
    );
}
