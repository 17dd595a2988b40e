//! A credential reaches no output, whatever the format that holds it: written in place,
//! through a variable of the file, through an environment file's value, in an auth block
//! a request does not use, in a disabled header, in a file that does not parse. Each case
//! runs every report format (and `--diff`, the editor) and looks for the secret's text.

use std::path::Path;

use serde_json::{Value, json};

/// A JSON Web Token (header `{"alg":"HS256"}`, a made-up payload and signature).
const JWT: &str =
    "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJyZXFsaW50LXRlc3QifQ.c2lnbmF0dXJlLW5vdC1hLXJlYWwtb25lLTAwMA";
/// Plain secrets, shaped like no credential: only their position makes them secret.
const PLAIN: [&str; 6] = [
    "pl41n-s3cret-0ne-value",
    "pl41n-s3cret-tw0-value",
    "pl41n-s3cret-thr33-value",
    "pl41n-s3cret-f0ur-value",
    "pl41n-s3cret-f1ve-value",
    "pl41n-s3cret-s1x-value",
];

use crate::support::lsp_client;
use crate::support::project;
use lsp_client::start_server;
use project::{FORMATS, all_text, assert_none_of, every_format, project, run};

/// No secret, and no large part of one (a message may keep a public prefix).
fn assert_no_secret(output: &str, what: &str) {
    let secrets: Vec<&str> = PLAIN.iter().copied().chain([JWT]).collect();
    assert_none_of(output, what, &secrets, 6);
}

/// The outputs of every format, each checked for secrets; the first is `human`, the
/// second `concise`.
fn check_every_format(dir: &Path, file: &str) -> Vec<String> {
    every_format(dir, file, &["--no-cache"], assert_no_secret)
}

/// The `literal-secret` lines of a concise report, as `line:col` (those of environment
/// files left out).
fn reported_at(concise: &str) -> Vec<String> {
    concise
        .lines()
        .filter(|l| l.contains("[literal-secret]") && !l.contains("environment.json"))
        .map(|l| l.split(':').skip(1).take(2).collect::<Vec<_>>().join(":"))
        .collect()
}

#[test]
fn http_variables_used_as_credentials_are_reported_at_their_definition_and_masked() {
    // A finding on every line next to a definition, so that the frames show them.
    let text = format!(
        "@token = {JWT}\n@t = {}\nGET https://api.github.com/user/emailz?access_token={{{{t}}}}\nAuthorization: Bearer {{{{token}}}}\n",
        PLAIN[0]
    );
    let dir = project(&[("a.http", &text)]);
    let outputs = check_every_format(dir.path(), "a.http");
    assert_eq!(reported_at(&outputs[1]), ["1:10", "2:6"], "{}", outputs[1]);
    assert!(outputs[0].contains("@t = ****"), "{}", outputs[0]);
}

#[test]
fn postman_credentials_used_or_not_are_masked_even_when_the_json_is_broken() {
    let collection = format!(
        r#"{{"info": {{"name": "x", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"}},
 "auth": {{"type": "bearer", "bearer": [{{"key": "token", "value": "{}", "type": "string"}}]}},
 "item": [
  {{"name": "a", "request": {{"method": "GET", "auth": {{"type": "noauth"}}, "url": "https://api.github.com/user/emailz",
   "header": [{{"key": "Authorization", "value": "Bearer {}", "disabled": true}}]}}}},
  {{"name": "b", "request": {{"method": "GET", "auth": {{"type": "bearer", "bearer": [{{"key": "token", "value": "{{{{tok}}}}"}}]}}, "url": "https://api.github.com/user/emailz"}}}}
 ],
 "variable": [{{"key": "tok", "value": "{}"}}]
}}
"#,
        PLAIN[0], PLAIN[1], PLAIN[2]
    );
    let dir = project(&[("c.postman_collection.json", &collection)]);
    let outputs = check_every_format(dir.path(), "c.postman_collection.json");
    // The collection's bearer token the request does not use, the disabled header, the
    // variable the other request's bearer auth uses.
    assert_eq!(
        reported_at(&outputs[1]),
        ["2:66", "5:49", "8:39"],
        "{}",
        outputs[1]
    );
    // The same file with a syntax error on each of their lines: masking does not depend
    // on the file parsing.
    for line in [1, 4, 6, 7] {
        let broken: String = collection
            .lines()
            .enumerate()
            .map(|(i, l)| {
                if i == line {
                    format!("{l} ]\n")
                } else {
                    format!("{l}\n")
                }
            })
            .collect();
        std::fs::write(dir.path().join("c.postman_collection.json"), broken).unwrap();
        let outputs = check_every_format(dir.path(), "c.postman_collection.json");
        assert!(outputs[0].contains("****"), "{}", outputs[0]);
    }
}

#[test]
fn bruno_pre_request_variables_used_by_bearer_auth_are_reported() {
    let text = format!(
        "meta {{\n  name: x\n}}\nget {{\n  url: https://api.github.com/user/emailz\n  auth: bearer\n}}\nauth:bearer {{\n  token: {{{{token}}}}\n}}\nvars:pre-request {{\n  token: {}\n}}\n",
        PLAIN[0]
    );
    let dir = project(&[("a.bru", &text)]);
    let outputs = check_every_format(dir.path(), "a.bru");
    assert_eq!(reported_at(&outputs[1]), ["12:10"], "{}", outputs[1]);
    // An auth block the method block does not use is in the file all the same.
    let unused = format!(
        "get {{\n  url: https://api.github.com/user/emailz\n  auth: none\n}}\nauth:bearer {{\n  token: {}\n}}\nauth:basic {{\n  username: alice\n  password: {}\n}}\n",
        PLAIN[1], PLAIN[2]
    );
    std::fs::write(dir.path().join("a.bru"), unused).unwrap();
    let outputs = check_every_format(dir.path(), "a.bru");
    assert_eq!(
        reported_at(&outputs[1]),
        ["6:10", "10:13"],
        "{}",
        outputs[1]
    );
}

#[test]
fn hurl_options_variables_basic_auth_and_cookies_are_masked() {
    // Every line next to a finding: an unknown endpoint on each request line.
    let text = format!(
        "GET https://api.github.com/user/emailz\n[Options]\nvariable: token={}\nGET https://api.github.com/user/emailz\n[BasicAuth]\nalice: {}\nGET https://api.github.com/user/emailz\n[Cookies]\nsession: {}\nGET https://api.github.com/user/emailz\nAuthorization: Bearer {{{{token}}}}\n",
        PLAIN[0], PLAIN[1], PLAIN[2]
    );
    let dir = project(&[("a.hurl", &text)]);
    let outputs = check_every_format(dir.path(), "a.hurl");
    // The options variable used by the bearer header, and the password.
    assert_eq!(reported_at(&outputs[1]), ["3:17", "6:8"], "{}", outputs[1]);
}

/// A project whose environment file gives a credential-shaped value, a plain value used
/// in a credential position, and one named like a credential.
fn environment_project(request_file: &str, request: &str) -> tempfile::TempDir {
    let environment = format!(
        r#"{{"values": [{{"key": "jwt", "value": "{JWT}", "enabled": true}},
 {{"key": "plain", "value": "{}", "enabled": true}},
 {{"key": "gh_token", "value": "{}", "enabled": true}}]}}"#,
        PLAIN[0], PLAIN[1]
    );
    project(&[
        (
            ".reqlint.yaml",
            "environments: [\"dev.postman_environment.json\"]\n",
        ),
        ("dev.postman_environment.json", &environment),
        (request_file, request),
    ])
}

#[test]
fn environment_values_are_never_echoed_and_not_reported_in_the_request_file() {
    let cases = [
        (
            "a.http",
            "GET https://graph.facebook.com/v25.0/act_123/campaigns?effective_status={{jwt}}&date_preset={{plain}}&time_range={{gh_token}}\nAuthorization: Bearer {{plain}}\n",
        ),
        (
            "a.hurl",
            "GET https://graph.facebook.com/v25.0/act_123/campaigns?effective_status={{jwt}}&date_preset={{plain}}&time_range={{gh_token}}\nAuthorization: Bearer {{plain}}\n",
        ),
        (
            "a.bru",
            "get {\n  url: https://graph.facebook.com/v25.0/act_123/campaigns?effective_status={{jwt}}&date_preset={{plain}}&time_range={{gh_token}}\n  auth: bearer\n}\nauth:bearer {\n  token: {{plain}}\n}\n",
        ),
    ];
    for (name, request) in cases {
        let dir = environment_project(name, request);
        let outputs = check_every_format(dir.path(), name);
        // The values were substituted: the messages are about them, masked.
        assert!(outputs[1].contains("ad-param-invalid"), "{}", outputs[1]);
        // Not written in the request file: no finding at 1:1 of it, but one where it is
        // written, in the environment file.
        assert!(reported_at(&outputs[1]).is_empty(), "{}", outputs[1]);
        let in_environment: Vec<&str> = outputs[1]
            .lines()
            .filter(|l| l.contains("[literal-secret]"))
            .collect();
        assert_eq!(in_environment.len(), 1, "{}", outputs[1]);
        assert!(
            in_environment[0].starts_with("dev.postman_environment.json:1:38: error[literal-secret]: literal secret: a JSON Web Token"),
            "{}",
            outputs[1]
        );
    }
}

#[test]
fn an_environment_value_that_may_be_a_credential_is_masked_in_every_file() {
    // Used as a credential by one file, echoed as a param's value by another, linted
    // alone or together.
    let environment = format!(
        r#"{{"values": [{{"key": "k", "value": "Zq81kLmP0xY7tRw2VbNc", "enabled": true}},
 {{"key": "s", "value": "{}", "enabled": true}}]}}"#,
        PLAIN[4]
    );
    let dir = project(&[
        (
            ".reqlint.yaml",
            "environments: [\"dev.postman_environment.json\"]\n",
        ),
        ("dev.postman_environment.json", &environment),
        (
            "a.http",
            "GET https://api.github.com/user/emails\nAuthorization: Bearer {{k}}{{s}}\n",
        ),
        (
            "b.http",
            "GET https://graph.facebook.com/v25.0/act_123/campaigns?date_preset={{k}}&effective_status={{s}}\n",
        ),
    ]);
    for target in ["b.http", "."] {
        for format in FORMATS {
            let out = run(
                dir.path(),
                &["check", target, "--format", format, "--no-cache"],
            );
            let all = all_text(&out);
            assert!(all.contains("date_preset"), "{all}");
            assert!(
                !all.contains("Zq81kLmP0xY7tRw2VbNc"),
                "{target} {format}: {all}"
            );
            assert_no_secret(&all, &format!("{target} {format}"));
        }
    }
}

#[test]
fn the_editor_masks_environment_values_and_variables() {
    let request = "GET https://graph.facebook.com/v25.0/act_123/campaigns?effective_status={{jwt}}&date_preset={{plain}}\nAuthorization: Bearer {{plain}}\n";
    let dir = environment_project("a.http", request);
    let path = dir.path().join("a.http");
    let uri = format!("file://{}", path.display());
    let (mut child, mut c) = start_server(Some(dir.path()));
    c.initialize(json!({"capabilities": {}}));
    let diagnostics = c.open(&uri, "http", request);
    let mut seen = Value::Array(diagnostics).to_string();
    assert!(seen.contains("ad-param-invalid"), "{seen}");
    // Hover and completion over the substituted params.
    for (id, method, character) in [
        (2, "textDocument/hover", 75),
        (3, "textDocument/hover", 95),
        (4, "textDocument/completion", 75),
    ] {
        c.send(
            json!({"jsonrpc": "2.0", "id": id, "method": method, "params": {"textDocument": {"uri": uri}, "position": {"line": 0, "character": character}}}),
        );
        seen.push_str(&c.response_to(&json!(id)).to_string());
    }
    c.send(json!({"jsonrpc": "2.0", "id": 9, "method": "shutdown"}));
    c.send(json!({"jsonrpc": "2.0", "method": "exit"}));
    let _ = child.wait();
    assert_no_secret(&seen, "the editor");
}

#[test]
fn diff_masks_credentials_in_context_lines() {
    let text = format!(
        "x-headers:\n  Authorization: Bearer {}\n  Cookie: session={}\nrequest: get /user/emails?access_token={}\n",
        PLAIN[0], PLAIN[1], PLAIN[2]
    );
    let dir = project(&[("d.req.yaml", &text)]);
    let out = run(dir.path(), &["check", "d.req.yaml", "--diff", "--no-cache"]);
    let all = all_text(&out);
    assert!(all.contains("+request: GET /user/emails"), "{all}");
    assert!(all.contains("Authorization: ****"), "{all}");
    assert_no_secret(&all, "--diff");
}

#[test]
fn a_query_token_and_an_authorization_header_are_both_masked() {
    for (name, text) in [
        (
            "q.http",
            format!(
                "GET https://api.github.com/user/emailz?access_token={}\nAuthorization: token {}\n",
                PLAIN[0], PLAIN[1]
            ),
        ),
        (
            "q.req.yaml",
            format!(
                "requests:\n  - request: GET /user/emailz?access_token={}&x={}\n    x-headers: {{Authorization: token {}, X-Api-Key: {}}}\n",
                PLAIN[0], PLAIN[0], PLAIN[1], PLAIN[2]
            ),
        ),
    ] {
        let dir = project(&[(name, &text)]);
        check_every_format(dir.path(), name);
    }
}

#[test]
fn a_yaml_file_that_does_not_parse_masks_its_credentials() {
    for text in [
        format!(
            "request: GET /user/emails\nx-headers: {{Authorization: \"Bearer {}\", Cookie: {}\nparams: [\n",
            PLAIN[0], PLAIN[1]
        ),
        format!(
            "x-variables:\n  tok: {}\nrequest: GET /user/emails\nx-headers:\n  Authorization: Bearer {{{{tok}}}}\n  - broken\n",
            PLAIN[2]
        ),
        format!(
            "request: GET /user/emails\nparams:\n  client_secret: {}\n  password: {}\n\t- broken\n",
            PLAIN[3], PLAIN[4]
        ),
    ] {
        let dir = project(&[("y.req.yaml", &text)]);
        let outputs = check_every_format(dir.path(), "y.req.yaml");
        assert!(outputs[0].contains("invalid-syntax"), "{}", outputs[0]);
    }
}

#[test]
fn placeholders_are_not_reported_as_literal_secrets() {
    let text = "requests:\n  - request: GET /user/emails\n    x-headers: {Authorization: Bearer YOUR_TOKEN}\n  - request: GET /v24.0/me?access_token=ghp_12324\n  - request: GET /v24.0/me\n    params: {access_token: xxx}\n  - request: GET /v24.0/me\n    params: {access_token: <token>}\n  - request: GET /v24.0/me\n    description: ran with ghp_12324 and ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\n";
    let dir = project(&[("p.req.yaml", text)]);
    let out = run(dir.path(), &["check", "p.req.yaml", "--format", "concise"]);
    let all = all_text(&out);
    assert!(!all.contains("literal-secret"), "{all}");
    // A real credential's shape is reported wherever it is.
    let real = format!(
        "request: GET /user/emails\ndescription: ran with ghp_{}\n",
        "a1B2c3".repeat(6)
    );
    std::fs::write(dir.path().join("p.req.yaml"), real).unwrap();
    let out = run(dir.path(), &["check", "p.req.yaml", "--format", "concise"]);
    assert!(
        all_text(&out).contains("literal-secret"),
        "{}",
        all_text(&out)
    );
}

#[test]
fn baselines_and_the_cache_hold_no_secret() {
    let text = format!(
        "@t = {}\nGET https://graph.facebook.com/v25.0/act_123/campaigns?date_preset={{{{t}}}}\nAuthorization: Bearer {{{{t}}}}\n",
        PLAIN[0]
    );
    let dir = project(&[(".reqlint.yaml", ""), ("a.http", &text)]);
    let out = run(
        dir.path(),
        &["check", "a.http", "--write-baseline", "base.json"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", all_text(&out));
    let baseline = std::fs::read_to_string(dir.path().join("base.json")).unwrap();
    assert!(baseline.contains("ad-param-invalid"), "{baseline}");
    assert_no_secret(&baseline, "the baseline");
    run(dir.path(), &["check", "a.http"]);
    let mut cached = Vec::new();
    let mut stack = vec![dir.path().to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(d).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path.file_name() != Some("a.http".as_ref()) {
                cached.extend(std::fs::read(&path).unwrap());
            }
        }
    }
    assert_no_secret(
        &String::from_utf8_lossy(&cached),
        "the cache and baseline files",
    );
}

#[test]
fn the_configs_variables_are_masked_in_its_frames() {
    let dir = project(&[
        (
            ".reqlint.yaml",
            &format!(
                "tokens:\n  ci:\n    permissions:\n      user: {{Email addresses: read, Gists: write}}\nvariables: {{t: {}}}\n",
                PLAIN[0]
            ),
        ),
        (
            "r/a.req.yaml",
            "token: ci\nrequests:\n  - request: GET /user/emails\n",
        ),
    ]);
    for format in FORMATS {
        let out = run(
            dir.path(),
            &[
                "check",
                ".",
                "--format",
                format,
                "--color",
                "never",
                "--no-cache",
            ],
        );
        let all = all_text(&out);
        assert!(all.contains("token-over-privileged"), "{all}");
        assert_no_secret(&all, format);
        if format == "human" {
            assert!(all.contains("variables: {t: ****"), "{all}");
        }
    }
}

#[test]
fn scopes_and_show_settings_show_no_variable_value() {
    let text = format!(
        "@t = {}\nGET https://api.github.com/repos/acme/{{{{t}}}}/pullz\nAuthorization: Bearer {{{{t}}}}\nGET https://api.github.com/repos/acme/{{{{plain}}}}/pullz\nAuthorization: Bearer {{{{plain}}}}\n",
        PLAIN[3]
    );
    let dir = environment_project("a.http", &text);
    for format in ["yaml", "json"] {
        let out = run(dir.path(), &["scopes", ".", "--format", format]);
        let all = all_text(&out);
        assert!(all.contains("/repos/acme/****/pullz"), "{all}");
        assert_no_secret(&all, &format!("scopes --format {format}"));
    }
    let out = run(dir.path(), &["check", ".", "--show-settings"]);
    let all = all_text(&out);
    assert!(all.contains("variables: gh_token, jwt, plain"), "{all}");
    assert_no_secret(&all, "--show-settings");
}

#[test]
fn a_percent_encoded_credential_is_masked_as_messages_decode_it() {
    // `%2D` is `-`: the message shows the decoded value, the text the encoded one.
    let encoded = PLAIN[5].replace('-', "%2D");
    let text = format!(
        "GET https://graph.facebook.com/v25.0/act_1/campaigns?access_token={encoded}&date_preset={encoded}\n"
    );
    let dir = project(&[("pct.http", &text)]);
    let outputs = check_every_format(dir.path(), "pct.http");
    assert!(
        outputs[1].contains("`date_preset` `****`"),
        "{}",
        outputs[1]
    );
}

#[test]
fn a_malformed_environment_file_is_reported_without_its_values() {
    for environment in [
        format!(r#"{{"values": [{{"key": "t", "value": {}}}]}}"#, PLAIN[0]),
        format!(
            r#"{{"values": [{{"key": "t", "value": "{}" "enabled": true}}]}}"#,
            PLAIN[0]
        ),
        format!(r#"{{"dev": {{"t": "{}", }}"#, PLAIN[0]),
    ] {
        let dir = project(&[
            (
                ".reqlint.yaml",
                "environments: [\"dev.postman_environment.json\"]\n",
            ),
            ("dev.postman_environment.json", &environment),
            ("a.http", "GET https://api.github.com/user/emails\n"),
        ]);
        for format in FORMATS {
            let out = run(dir.path(), &["check", "a.http", "--format", format]);
            assert_eq!(out.status.code(), Some(2), "{}", all_text(&out));
            let all = all_text(&out);
            assert!(all.contains("dev.postman_environment.json:1:"), "{all}");
            assert_no_secret(&all, "an environment file's error");
        }
    }
}

/// A value with no credential's shape or name (`hunter`), used as a credential by one
/// file and as an ordinary value by another: masked in both once the run has seen the
/// first, whether the second is linted anew or comes from the cache.
#[test]
fn a_plain_value_used_as_a_credential_anywhere_in_the_run_is_masked_everywhere() {
    let dir = project(&[
        (
            ".reqlint.yaml",
            "environments: [\"dev.postman_environment.json\"]\n",
        ),
        (
            "dev.postman_environment.json",
            r#"{"values": [{"key": "pw", "value": "hunter", "enabled": true}]}"#,
        ),
        (
            "a.http",
            "GET https://api.github.com/user/emails\nAuthorization: Bearer {{pw}}\n",
        ),
        (
            "b.http",
            "GET https://graph.facebook.com/v25.0/act_123/campaigns?date_preset={{pw}}\n",
        ),
    ]);
    let cache = tempfile::tempdir().unwrap();
    for cached in ["--no-cache", "--cache-dir"] {
        for format in FORMATS {
            let mut args = vec!["check", ".", "--format", format, cached];
            if cached == "--cache-dir" {
                args.push(cache.path().to_str().unwrap());
            }
            let all = all_text(&run(dir.path(), &args));
            assert!(all.contains("date_preset"), "{format}: {all}");
            assert!(!all.contains("hunter"), "{cached} {format}: {all}");
        }
    }
}

/// `Authorization: token …`, the code-hosting API's own scheme, holds a credential as
/// `Bearer …` does, in every format: written in place it is reported and masked; through
/// a variable of the file, the variable's definition is.
#[test]
fn the_token_scheme_of_an_authorization_header_is_a_credential_in_every_format() {
    let url = "https://api.github.com/user/emailz";
    let secret = PLAIN[3];
    let cases = [
        (
            "a.req.yaml",
            format!(
                "requests:\n  - request: GET {url}\n    x-headers:\n      Authorization: token {secret}\n"
            ),
            "4:22",
        ),
        (
            "b.http",
            format!("GET {url}\nAuthorization: token {secret}\n"),
            "2:16",
        ),
        (
            "c.bru",
            format!("get {{\n  url: {url}\n}}\nheaders {{\n  Authorization: token {secret}\n}}\n"),
            "5:18",
        ),
        (
            "d.hurl",
            format!("GET {url}\nAuthorization: Token {secret}\n"),
            "2:16",
        ),
        (
            "e.postman_collection.json",
            format!(
                r#"{{"info": {{"name": "gh", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"}},
"item": [{{"name": "x", "request": {{"method": "GET", "url": "{url}", "header": [{{"key": "Authorization", "value": "token {secret}"}}]}}}}]}}
"#
            ),
            "2:143",
        ),
        (
            "f.http",
            format!("@gh = {secret}\nGET {url}\nAuthorization: token {{{{gh}}}}\n"),
            "1:7",
        ),
    ];
    let files: Vec<(&str, &str)> = cases.iter().map(|(f, t, _)| (*f, t.as_str())).collect();
    let dir = project(&files);
    for (file, _, at) in &cases {
        let outputs = check_every_format(dir.path(), file);
        assert_eq!(reported_at(&outputs[1]), [*at], "{file}: {}", outputs[1]);
    }
}
