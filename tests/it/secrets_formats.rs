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

/// Every auth type Postman exports, with its fields: `true` for those that hold a
/// credential (Postman collection schema v2.1.0, `auth-attribute`).
const AUTH_TYPES: &[(&str, &[(&str, bool)])] = &[
    ("apikey", &[("key", false), ("value", true), ("in", false)]),
    (
        "awsv4",
        &[
            ("accessKey", false),
            ("secretKey", true),
            ("sessionToken", true),
            ("region", false),
        ],
    ),
    ("basic", &[("username", false), ("password", true)]),
    ("bearer", &[("token", true)]),
    (
        "digest",
        &[("username", false), ("realm", false), ("password", true)],
    ),
    (
        "edgegrid",
        &[
            ("accessToken", true),
            ("clientToken", true),
            ("clientSecret", true),
            ("baseURL", false),
        ],
    ),
    (
        "hawk",
        &[("authId", false), ("authKey", true), ("algorithm", false)],
    ),
    (
        "ntlm",
        &[("username", false), ("password", true), ("domain", false)],
    ),
    (
        "oauth1",
        &[
            ("consumerKey", false),
            ("consumerSecret", true),
            ("token", true),
            ("tokenSecret", true),
            ("signatureMethod", false),
        ],
    ),
    (
        "oauth2",
        &[
            ("accessToken", true),
            ("refreshToken", true),
            ("clientId", false),
            ("clientSecret", true),
            ("tokenType", false),
            ("addTokenTo", false),
        ],
    ),
    (
        "jwt",
        &[
            ("algorithm", false),
            ("secret", true),
            ("queryParamKey", false),
            ("privateKey", true),
        ],
    ),
    (
        "asap",
        &[("kid", false), ("iss", false), ("privateKey", true)],
    ),
];

/// Where an auth block is written in a collection.
#[derive(Clone, Copy, Debug, PartialEq)]
enum AuthLevel {
    Collection,
    Folder,
    Request,
}

/// A collection, in v2.0 (`"bearer": {"token": …}`) or v2.1 (`"bearer": [{"key": "token",
/// "value": …}]`) form, with one auth block of `kind` at `level` (one line of its own);
/// each field's value is unique and named after the level, the type and the field: a
/// secret-looking value for a credential field, a plain one for the others. Returns the
/// text and the values of the credential fields.
fn auth_collection(kind: &str, level: AuthLevel, v21: bool) -> (String, Vec<String>) {
    let fields = AUTH_TYPES.iter().find(|(k, _)| *k == kind).unwrap().1;
    let mut secrets = Vec::new();
    let values: Vec<(&str, String)> = fields
        .iter()
        .map(|(field, secret)| {
            let value = if *secret {
                let v = format!("S3c{level:?}{kind}{field}9q7Zx");
                secrets.push(v.clone());
                v
            } else {
                format!("plain-{field}")
            };
            (*field, value)
        })
        .collect();
    let block = if v21 {
        values
            .iter()
            .map(|(f, v)| format!(r#"{{"key": "{f}", "value": "{v}", "type": "string"}}"#))
            .collect::<Vec<_>>()
            .join(", ")
    } else {
        values
            .iter()
            .map(|(f, v)| format!(r#""{f}": "{v}""#))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let auth = if v21 {
        format!(r#""auth": {{"type": "{kind}", "{kind}": [{block}]}},"#)
    } else {
        format!(r#""auth": {{"type": "{kind}", "{kind}": {{{block}}}}},"#)
    };
    let line = |at: AuthLevel| if at == level { auth.as_str() } else { "" };
    let schema = if v21 { "v2.1.0" } else { "v2.0.0" };
    let text = format!(
        r#"{{"info": {{"name": "auth", "schema": "https://schema.getpostman.com/json/collection/{schema}/collection.json"}},
{}
"item": [{{"name": "folder",
{}
"item": [{{"name": "emails", "request": {{"method": "GET",
{}
"url": "https://api.github.com/user/emailz"}}}}]}}]}}
"#,
        line(AuthLevel::Collection),
        line(AuthLevel::Folder),
        line(AuthLevel::Request),
    );
    (text, secrets)
}

/// `line:col` of each value, as a concise report gives the start of its span (the
/// opening quote), in the order of the file.
fn positions_of(text: &str, values: &[String]) -> Vec<String> {
    let mut at: Vec<(usize, usize)> = values
        .iter()
        .map(|v| {
            let offset = text.find(&format!("\"{v}\"")).unwrap();
            let line = text[..offset].matches('\n').count() + 1;
            let col = offset - text[..offset].rfind('\n').map_or(0, |n| n + 1) + 1;
            (line, col)
        })
        .collect();
    at.sort_unstable();
    at.iter().map(|(l, c)| format!("{l}:{c}")).collect()
}

/// A literal credential in a Postman auth block is reported once, at its value, and
/// shown by no output: for every auth type, at the collection's, a folder's and a
/// request's level, in v2.0 and v2.1 form; the fields that name or identify (a user
/// name, AWS's access key id, JWT's query param name) are not reported.
fn postman_auth_is_reported_at(level: AuthLevel, v21: bool) {
    let cases: Vec<(String, String, Vec<String>)> = AUTH_TYPES
        .iter()
        .map(|(kind, _)| {
            let (text, secrets) = auth_collection(kind, level, v21);
            (format!("{kind}.postman_collection.json"), text, secrets)
        })
        .collect();
    let files: Vec<(&str, &str)> = cases
        .iter()
        .map(|(f, t, _)| (f.as_str(), t.as_str()))
        .collect();
    let dir = project(&files);
    let every: Vec<&str> = cases
        .iter()
        .flat_map(|(_, _, s)| s.iter().map(String::as_str))
        .collect();
    let outputs = every_format(dir.path(), ".", &["--no-cache"], |output, what| {
        assert_none_of(output, what, &every, 6)
    });
    for (file, text, secrets) in &cases {
        let reported: Vec<String> = outputs[1]
            .lines()
            .filter(|l| l.contains("[literal-secret]") && l.starts_with(file.as_str()))
            .map(|l| l.split(':').skip(1).take(2).collect::<Vec<_>>().join(":"))
            .collect();
        assert_eq!(
            reported,
            positions_of(text, secrets),
            "{file} at {level:?} (v2.1: {v21}):\n{}",
            outputs[1]
        );
    }
}

#[test]
fn postman_collection_level_auth_v2_1_is_reported() {
    postman_auth_is_reported_at(AuthLevel::Collection, true);
}

#[test]
fn postman_collection_level_auth_v2_0_is_reported() {
    postman_auth_is_reported_at(AuthLevel::Collection, false);
}

#[test]
fn postman_folder_level_auth_v2_1_is_reported() {
    postman_auth_is_reported_at(AuthLevel::Folder, true);
}

#[test]
fn postman_folder_level_auth_v2_0_is_reported() {
    postman_auth_is_reported_at(AuthLevel::Folder, false);
}

#[test]
fn postman_request_level_auth_v2_1_is_reported() {
    postman_auth_is_reported_at(AuthLevel::Request, true);
}

#[test]
fn postman_request_level_auth_v2_0_is_reported() {
    postman_auth_is_reported_at(AuthLevel::Request, false);
}

/// A token cut two characters short (as published in a collection's top-level bearer
/// auth, `ghp_` and 34 random characters) is no placeholder: in a credential position it
/// is reported, once, at its value, and masked in every output. Before, a known prefix
/// with a body of another length was taken for a placeholder such as `ghp_12324`.
#[test]
fn a_cut_token_in_a_collection_level_auth_is_reported_once() {
    let cut = format!(
        "ghp_{}",
        "Qz7Lm2Xv9Rt4Wn8Bk3Hs5Dp1Cj6Fy0Ga".to_string() + "Zq"
    );
    assert_eq!(cut.len(), 38);
    let collection = format!(
        r#"{{"info": {{"name": "GitHub", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"}},
"item": [{{"name": "repos", "request": {{"method": "GET", "url": "https://api.github.com/user/repos"}}}}],
"auth": {{"type": "bearer", "bearer": [{{"key": "token", "value": "{cut}", "type": "string"}}]}}}}
"#
    );
    let dir = project(&[("c.postman_collection.json", &collection)]);
    let outputs = every_format(
        dir.path(),
        "c.postman_collection.json",
        &["--no-cache"],
        |output, what| assert_none_of(output, what, &[&cut], 4),
    );
    assert_eq!(reported_at(&outputs[1]), ["3:65"], "{}", outputs[1]);
}

/// Values that only stand in for a credential are neither reported nor masked, in every
/// format: a value equal to its key's name (Meta's documented WhatsApp register body,
/// `"password": "password"`), and placeholder words with a few digits (a 401 test's
/// `invalidtoken123`, `Password123`).
#[test]
fn stand_in_values_are_neither_reported_nor_masked_in_any_format() {
    let url = "https://api.github.com/user/emailz";
    let cases = [
        (
            "a.req.yaml",
            format!(
                "requests:\n  - request: GET {url}\n    x-headers: {{Authorization: Bearer invalidtoken123}}\n    params: {{password: password}}\n"
            ),
        ),
        (
            "b.http",
            format!(
                "POST {url}\nAuthorization: token invalidtoken123\nContent-Type: application/json\n\n{{\"password\": \"password\"}}\n"
            ),
        ),
        (
            "c.bru",
            format!(
                "get {{\n  url: {url}\n  auth: basic\n}}\nauth:basic {{\n  username: octocat\n  password: Password123\n}}\n"
            ),
        ),
        (
            "d.hurl",
            format!("GET {url}\n[BasicAuth]\noctocat: wrong-password-1\n"),
        ),
        (
            "e.postman_collection.json",
            format!(
                r#"{{"info": {{"name": "wa", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"}},
"item": [{{"name": "Migrate Account", "request": {{"method": "POST", "url": "{url}",
"auth": {{"type": "bearer", "bearer": [{{"key": "token", "value": "invalidtoken123"}}]}},
"body": {{"mode": "raw", "raw": "{{\"cc\": \"1\", \"pin\": \"123456\", \"password\": \"password\"}}"}}}}}}]}}
"#
            ),
        ),
    ];
    let files: Vec<(&str, &str)> = cases.iter().map(|(f, t)| (*f, t.as_str())).collect();
    let dir = project(&files);
    for (file, _) in &cases {
        // (SARIF's rule help shows the masked examples of `reqlint explain`.)
        let outputs = every_format(dir.path(), file, &["--no-cache"], |output, what| {
            let results = output.split("\"tool\"").next().unwrap_or(output);
            assert!(
                !results.contains("****"),
                "{what} masks a stand-in:\n{output}"
            );
        });
        assert!(
            reported_at(&outputs[1]).is_empty(),
            "{file}: {}",
            outputs[1]
        );
        // Something is shown about the file: its frames have the stand-ins in them.
        assert!(
            outputs[1].contains("unknown-endpoint"),
            "{file}: {}",
            outputs[1]
        );
    }
}

/// Masking covers a credential's values, never a key that is spelled the same: the
/// frame shows the key and masks the value, where Meta's body showed
/// `***********": ************`.
#[test]
fn a_key_spelled_like_a_secret_stays_readable_in_frames() {
    let secret = "Zq81kLmP0xY7tRw2";
    let cases = [
        (
            "a.req.yaml",
            format!(
                "request: GET https://api.github.com/user/emailz\nparams: {{access_token: {secret}, {secret}: 1}}\n"
            ),
            format!("params: {{access_token: ****************, {secret}: 1}}"),
        ),
        (
            "b.postman_collection.json",
            format!(
                r#"{{"info": {{"name": "x", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"}},
"item": [{{"name": "x", "request": {{"method": "POST", "url": "https://api.github.com/user/emailz",
"body": {{"mode": "raw", "raw": "{{\"password\": \"{secret}\", \"{secret}\": true}}"}}}}}}]}}
"#
            ),
            format!(r#""raw": "{{\"password\": ********************, \"{secret}\": true}}""#),
        ),
    ];
    let files: Vec<(&str, &str)> = cases.iter().map(|(f, t, _)| (*f, t.as_str())).collect();
    let dir = project(&files);
    for (file, _, shown) in &cases {
        let human = all_text(&run(
            dir.path(),
            &["check", file, "--no-cache", "--color", "never"],
        ));
        assert!(human.contains(shown.as_str()), "{file}: {shown}\n{human}");
    }
}
