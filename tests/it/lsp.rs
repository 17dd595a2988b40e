//! `reqlint server` driven with real JSON-RPC messages over its standard input/output.

use std::io::Write;
use std::process::{Command, Stdio};
use std::time::Duration;

use serde_json::{Value, json};

use crate::support::lsp_client;
use lsp_client::{Client, start_server};

#[test]
fn publishes_diagnostics_on_open_change_and_save_with_utf16_ranges() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join(".reqlint.yaml"), "").unwrap();
    let path = dir.path().join("a.req.yaml");
    // On disk the file is clean: the server must lint the editor's text, not the disk.
    std::fs::write(&path, "request: GET /v24.0/act_1/customaudiences\n").unwrap();
    let uri = format!("file://{}", path.display());
    let (mut child, mut c) = start();
    c.send(
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}}),
    );
    let init = c.receive();
    assert_eq!(init["id"], 1);
    assert_eq!(
        init["result"]["capabilities"]["textDocumentSync"]["change"],
        1
    );
    c.send(json!({"jsonrpc": "2.0", "method": "initialized", "params": {}}));

    // A line with an emoji before the error: LSP counts UTF-16 code units.
    let emoji_line = "params: {name: \"🎯 buyers\", retention_days: 365}\n";
    let text = format!("request: POST /v24.0/act_1234567890/customaudiences\n{emoji_line}");
    let diags = c.open(&uri, "yaml", &text);
    let range_of = |diags: &[Value], rule: &str| -> Value {
        diags
            .iter()
            .find(|d| d["code"] == rule)
            .unwrap_or_else(|| panic!("no {rule} in {diags:?}"))["range"]
            .clone()
    };
    // `params: {name: "🎯 buyers", retention_days: 365}`: 365 starts at character 44 in
    // UTF-16 (the emoji counts 2), 43 in characters, 46 in bytes.
    let prefix = &emoji_line[..emoji_line.find("365").unwrap()];
    let utf16: usize = prefix.chars().map(char::len_utf16).sum();
    assert_eq!(utf16, 44);
    assert_eq!(
        range_of(&diags, "audience-retention-days-range"),
        json!({"start": {"line": 1, "character": 44}, "end": {"line": 1, "character": 47}})
    );

    // didChange: the fix clears it (how soon is measured in BENCHMARKS.md, not here).
    let fixed = format!(
        "request: POST /v24.0/act_1234567890/customaudiences\n{}",
        emoji_line.replace("365", "30")
    );
    c.send(json!({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {"textDocument": {"uri": uri, "version": 2}, "contentChanges": [{"text": fixed}]}}));
    let diags = c.diagnostics_for(&uri);
    assert!(
        diags
            .iter()
            .all(|d| d["code"] != "audience-retention-days-range"),
        "{diags:?}"
    );

    // didSave with the text: a duplicate key now.
    let saved =
        "request: GET /v24.0/23850000000000001\nobject: custom_audience\nobject: custom_audience\n";
    c.send(json!({"jsonrpc": "2.0", "method": "textDocument/didSave", "params": {"textDocument": {"uri": uri}, "text": saved}}));
    let diags = c.diagnostics_for(&uri);
    assert_eq!(
        range_of(&diags, "duplicate-key"),
        json!({"start": {"line": 2, "character": 0}, "end": {"line": 2, "character": 6}})
    );
    assert_eq!(diags[0]["source"], "reqlint");
    assert_eq!(diags[0]["severity"], 1);

    // A file the config does not include gets no diagnostics.
    let other = format!("file://{}", dir.path().join("notes.yaml").display());
    c.send(json!({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {"uri": other, "languageId": "yaml", "version": 1, "text": "- just\n- a list\n"}}}));
    assert!(c.diagnostics_for(&other).is_empty());

    c.send(json!({"jsonrpc": "2.0", "id": 2, "method": "shutdown"}));
    let reply = c.receive();
    assert_eq!(reply["id"], 2);
    assert!(reply["result"].is_null());
    c.send(json!({"jsonrpc": "2.0", "method": "exit"}));
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(0));
}

#[test]
fn exit_without_shutdown_is_exit_code_1() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_reqlint"))
        .arg("server")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let body = json!({"jsonrpc": "2.0", "method": "exit"}).to_string();
    write!(stdin, "Content-Length: {}\r\n\r\n{body}", body.len()).unwrap();
    drop(stdin);
    assert_eq!(child.wait().unwrap().code(), Some(1));
}

fn start() -> (std::process::Child, Client) {
    start_server(None)
}

/// A workspace with this `.reqlint.yaml`, and a server initialized with it as its root
/// (no client capabilities).
fn start_in(config: &str) -> (tempfile::TempDir, std::process::Child, Client) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join(".reqlint.yaml"), config).unwrap();
    let (child, mut c) = start();
    c.initialize(
        json!({"capabilities": {}, "rootUri": format!("file://{}", dir.path().display())}),
    );
    (dir, child, c)
}

#[test]
fn malformed_messages_are_answered_and_the_server_keeps_serving() {
    let (mut child, mut c) = start();
    // A request before `initialize`: -32002, and the server goes on.
    c.send(json!({"jsonrpc": "2.0", "id": 1, "method": "shutdown"}));
    let reply = c.receive();
    assert_eq!(reply["id"], 1);
    assert_eq!(reply["error"]["code"], -32002);
    c.initialize(json!({"capabilities": {}}));
    // Invalid JSON, then a body that is not UTF-8: parse errors with id null.
    c.framed(b"{not json");
    let reply = c.receive();
    assert_eq!(reply["error"]["code"], -32700);
    assert!(reply["id"].is_null());
    c.framed(b"{\"a\": \"\xff\xfe\"}");
    assert_eq!(c.receive()["error"]["code"], -32700);
    // A message without Content-Length.
    c.raw(b"X-Whatever: 1\r\n\r\n");
    assert_eq!(c.receive()["error"]["code"], -32700);
    // A lower-case header name is a header all the same.
    let body = json!({"jsonrpc": "2.0", "id": 2, "method": "no/such"}).to_string();
    c.raw(format!("content-length: {}\r\n\r\n{body}", body.len()).as_bytes());
    let reply = c.receive();
    assert_eq!(reply["id"], 2);
    assert_eq!(reply["error"]["code"], -32601);
    // A response from the client (to a request of the server's) needs no answer; a
    // batch gets a batch answer.
    c.send(json!({"jsonrpc": "2.0", "id": "reqlint-1", "result": null}));
    c.send(json!([
        {"jsonrpc": "2.0", "id": 3, "method": "no/such"},
        {"jsonrpc": "2.0", "method": "initialized", "params": {}},
        {"jsonrpc": "2.0", "id": 4, "method": "shutdown"}
    ]));
    let reply = c.receive();
    let answers = reply.as_array().expect("a batch answer");
    assert_eq!(answers.len(), 2, "{reply}");
    assert_eq!(answers[0]["id"], 3);
    assert_eq!(answers[1]["id"], 4);
    c.send(json!({"jsonrpc": "2.0", "method": "exit"}));
    assert_eq!(child.wait().unwrap().code(), Some(0));
}

#[test]
fn a_huge_content_length_is_not_allocated() {
    let (mut child, mut c) = start();
    c.initialize(json!({"capabilities": {}}));
    // 2^64-1 used to panic; 2 GB used to be allocated before a byte was read.
    c.raw(b"Content-Length: 18446744073709551615\r\n\r\n{}");
    drop(c.stdin);
    let status = child.wait().unwrap();
    assert_eq!(
        status.code(),
        Some(1),
        "ended at the end of input, without a panic"
    );
    let (mut child, mut c) = start();
    c.initialize(json!({"capabilities": {}}));
    c.raw(b"Content-Length: 2000000000\r\n\r\n");
    drop(c.stdin);
    assert_eq!(child.wait().unwrap().code(), Some(1));
}

#[test]
fn the_workspace_root_is_where_the_default_globs_match() {
    let dir = tempfile::tempdir().unwrap();
    // No .reqlint.yaml: the default include `requests/**/*.yaml` matches from the
    // workspace root, as `check` matches from the working directory.
    std::fs::create_dir_all(dir.path().join("requests/ads")).unwrap();
    let path = dir.path().join("requests/ads/a.yaml");
    std::fs::write(&path, "").unwrap();
    let uri = format!("file://{}", path.display());
    let (mut child, mut c) = start();
    c.initialize(
        json!({"capabilities": {}, "rootUri": format!("file://{}", dir.path().display())}),
    );
    c.send(json!({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {"uri": uri, "languageId": "yaml", "version": 1, "text": "request: GET /user/emails\nparms: 1\n"}}}));
    let diags = c.diagnostics_for(&uri);
    assert!(
        diags.iter().any(|d| d["code"] == "unknown-request-key"),
        "{diags:?}"
    );
    c.send(json!({"jsonrpc": "2.0", "method": "exit"}));
    child.wait().unwrap();
}

#[test]
fn a_changed_config_is_read_again() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join(".reqlint.yaml");
    std::fs::write(&config, "rules:\n  duplicate-keys: warning\n").unwrap();
    let path = dir.path().join("a.req.yaml");
    let uri = format!("file://{}", path.display());
    let config_uri = format!("file://{}", config.display());
    let (mut child, mut c) = start();
    c.initialize(json!({
        "capabilities": {"workspace": {"didChangeWatchedFiles": {"dynamicRegistration": true}}},
        "rootUri": format!("file://{}", dir.path().display()),
    }));
    // The server asks to watch configs and snapshots.
    let registration = c.receive();
    assert_eq!(registration["method"], "client/registerCapability");
    c.send(json!({"jsonrpc": "2.0", "id": registration["id"], "result": null}));
    c.send(json!({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {"uri": uri, "languageId": "yaml", "version": 1, "text": "request: GET /user/emails\nparms: 1\n"}}}));
    let diags = c.diagnostics_for(&uri);
    assert!(
        diags[0]["message"]
            .as_str()
            .unwrap()
            .contains("cannot read its config"),
        "{diags:?}"
    );
    // Fixed on disk: a watched-file change reloads it.
    std::fs::write(&config, "rules:\n  duplicate-key: warning\n").unwrap();
    c.send(json!({"jsonrpc": "2.0", "method": "workspace/didChangeWatchedFiles", "params": {"changes": [{"uri": config_uri, "type": 2}]}}));
    let diags = c.diagnostics_for(&uri);
    assert!(
        diags.iter().any(|d| d["code"] == "unknown-request-key"),
        "{diags:?}"
    );
    // Broken again and saved in the editor: didSave of the config reloads it too.
    std::fs::write(&config, "rules: [\n").unwrap();
    c.send(json!({"jsonrpc": "2.0", "method": "textDocument/didSave", "params": {"textDocument": {"uri": config_uri}}}));
    let diags = c.diagnostics_for(&uri);
    assert!(
        diags[0]["message"]
            .as_str()
            .unwrap()
            .contains("cannot read its config"),
        "{diags:?}"
    );
    c.send(json!({"jsonrpc": "2.0", "method": "exit"}));
    child.wait().unwrap();
}

/// The config's `select`, `ignore` and `min-severity` hold in the editor too: it has no
/// command line to say them.
#[test]
fn the_configs_rule_selection_and_min_severity_hold_in_the_editor() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join(".reqlint.yaml"),
        "select: [files]\nignore: [duplicate-key]\nmin-severity: error\n",
    )
    .unwrap();
    let path = dir.path().join("a.req.yaml");
    let uri = format!("file://{}", path.display());
    let (mut child, mut c) = start();
    c.initialize(
        json!({"capabilities": {}, "rootUri": format!("file://{}", dir.path().display())}),
    );
    // unknown-request-key (files, error) stays; duplicate-key is ignored; the missing
    // permission and the unknown endpoint are of another group; unknown-suppressed-rule
    // is a warning, below the floor.
    let text = "token: {permissions: {}}\nrequest: GET /user/emails\nparms: 1\nparms: 2  # reqlint: ignore[no-such-rule]\n---\nrequest: GET /no/such/endpoint\n";
    let diags = c.open(&uri, "yaml", text);
    let codes: Vec<&str> = diags.iter().filter_map(|d| d["code"].as_str()).collect();
    assert_eq!(codes, ["unknown-request-key"], "{diags:?}");
    c.send(json!({"jsonrpc": "2.0", "method": "exit"}));
    child.wait().unwrap();
}

/// The other formats in the editor: an `.http` file and a Postman collection get their
/// diagnostics at the text written, a `{{variable}}`'s value from the file itself.
#[test]
fn http_files_and_collections_get_diagnostics_where_they_are_written() {
    let (dir, mut child, mut c) = start_in("");
    let http = format!("file://{}", dir.path().join("ads.http").display());
    let text = "@base = https://graph.facebook.com/v25.0\n\n### Create\nPOST {{base}}/act_1/campaigns\n    ?special_ad_categories=[]\n    &objective=OUTCOME_SALEZ\n";
    let diags = c.open(&http, "http", text);
    let d = diags
        .iter()
        .find(|d| d["code"] == "ad-param-invalid")
        .unwrap_or_else(|| panic!("{diags:?}"));
    assert_eq!(
        d["range"],
        json!({"start": {"line": 5, "character": 15}, "end": {"line": 5, "character": 28}})
    );
    let collection = format!(
        "file://{}",
        dir.path().join("ads.postman_collection.json").display()
    );
    let text = r#"{"info": {"schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"},
"item": [{"name": "x", "request": {"method": "GET", "url": "{{b}}/act_1/campaigns?fields=nmae"}}],
"variable": [{"key": "b", "value": "https://graph.facebook.com/v25.0"}]}"#;
    let diags = c.open(&collection, "json", text);
    let d = diags
        .iter()
        .find(|d| d["code"] == "ad-field-unknown")
        .unwrap_or_else(|| panic!("{diags:?}"));
    let start = d["range"]["start"]["character"].as_u64().unwrap() as usize;
    assert_eq!(&text.lines().nth(1).unwrap()[start..start + 4], "nmae");
    c.send(json!({"jsonrpc": "2.0", "id": 9, "method": "shutdown"}));
    assert_eq!(c.receive()["id"], 9);
    c.send(json!({"jsonrpc": "2.0", "method": "exit"}));
    assert_eq!(child.wait().unwrap().code(), Some(0));
}

/// Quick fixes, "fix all" and "disable for this line" as code actions; diagnostics with
/// their rule's docs; UTF-8 positions when the client offers them.
#[test]
fn code_actions_docs_links_and_utf8_positions() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join(".reqlint.yaml"), "").unwrap();
    let (mut child, mut c) = start();
    c.send(
        json!({"jsonrpc": "2.0", "id": "init", "method": "initialize", "params": {
            "capabilities": {"general": {"positionEncodings": ["utf-8", "utf-16"]}},
            "rootUri": format!("file://{}", dir.path().display()),
        }}),
    );
    let init = c.receive();
    assert_eq!(init["result"]["capabilities"]["positionEncoding"], "utf-8");
    assert!(init["result"]["capabilities"]["codeActionProvider"].is_object());
    c.send(json!({"jsonrpc": "2.0", "method": "initialized", "params": {}}));
    let uri = format!("file://{}", dir.path().join("a.req.yaml").display());
    let text =
        "name: \"🎯\"\nrequest: post /v25.0/act_1/campaigns\nparms: {special_ad_categories: []}\n";
    let diags = c.open(&uri, "yaml", text);
    let key = diags
        .iter()
        .find(|d| d["code"] == "unknown-request-key")
        .unwrap_or_else(|| panic!("{diags:?}"));
    assert_eq!(
        key["codeDescription"]["href"],
        "https://github.com/reqlint/reqlint/blob/main/docs/rules/unknown-request-key.md"
    );
    assert_eq!(key["range"]["start"], json!({"line": 2, "character": 0}));
    c.send(
        json!({"jsonrpc": "2.0", "id": 5, "method": "textDocument/codeAction", "params": {
            "textDocument": {"uri": uri},
            "range": {"start": {"line": 2, "character": 0}, "end": {"line": 2, "character": 5}},
            "context": {"diagnostics": []},
        }}),
    );
    let reply = c.receive();
    assert_eq!(reply["id"], 5);
    let actions = reply["result"].as_array().unwrap();
    let fix = actions
        .iter()
        .find(|a| a["kind"] == "quickfix" && a["isPreferred"] == true)
        .unwrap_or_else(|| panic!("{actions:?}"));
    let edit = &fix["edit"]["changes"][&uri][0];
    assert_eq!(edit["newText"], "params");
    assert_eq!(edit["range"]["start"], json!({"line": 2, "character": 0}));
    assert!(
        actions
            .iter()
            .any(|a| a["title"] == "Disable unknown-request-key for this line"),
        "{actions:?}"
    );
    let all = actions
        .iter()
        .find(|a| a["kind"] == "source.fixAll.reqlint")
        .unwrap_or_else(|| panic!("{actions:?}"));
    let fixed = all["edit"]["changes"][&uri][0]["newText"].as_str().unwrap();
    assert_eq!(
        fixed,
        "name: \"🎯\"\nrequest: POST /v25.0/act_1/campaigns\nparams: {special_ad_categories: []}\n"
    );
    c.send(json!({"jsonrpc": "2.0", "id": 9, "method": "shutdown"}));
    assert_eq!(c.receive()["id"], 9);
    c.send(json!({"jsonrpc": "2.0", "method": "exit"}));
    assert_eq!(child.wait().unwrap().code(), Some(0));
}

/// "Disable for this line" only where a comment line is a comment: not inside the JSON
/// body of an `.http` file, where it would break the body.
#[test]
fn disable_for_this_line_is_offered_only_where_a_comment_is_one() {
    let (dir, mut child, mut c) = start_in("");
    let actions_at = |c: &mut Client, uri: &str, text: &str, line: u64| {
        c.send(json!({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {"uri": uri, "languageId": "http", "version": 1, "text": text}}}));
        let diags = c.diagnostics_for(uri);
        assert!(
            diags.iter().any(|d| d["range"]["start"]["line"] == line),
            "{diags:?}"
        );
        c.send(json!({"jsonrpc": "2.0", "id": 7, "method": "textDocument/codeAction", "params": {
            "textDocument": {"uri": uri},
            "range": {"start": {"line": line, "character": 0}, "end": {"line": line, "character": 200}},
            "context": {"diagnostics": []},
        }}));
        let reply = c.receive();
        reply["result"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|a| a["title"].as_str().map(str::to_string))
            .collect::<Vec<_>>()
    };
    let http = format!("file://{}", dir.path().join("a.http").display());
    let body = "POST https://graph.facebook.com/v25.0/act_123/campaigns\nContent-Type: application/json\n\n{\"name\": \"x\", \"objective\": \"OUTCOME_SALES\", \"special_ad_categories\": [], \"status\": \"PAUSD\"}\n";
    let titles = actions_at(&mut c, &http, body, 3);
    assert!(
        !titles.iter().any(|t| t.starts_with("Disable")),
        "{titles:?}"
    );
    // In YAML the same finding can be silenced by a comment line.
    let yaml = format!("file://{}", dir.path().join("a.req.yaml").display());
    let text = "request: POST /v25.0/act_123/campaigns\nparams:\n  name: x\n  objective: OUTCOME_SALES\n  special_ad_categories: []\n  status: PAUSD\n";
    let titles = actions_at(&mut c, &yaml, text, 5);
    assert!(
        titles
            .iter()
            .any(|t| t == "Disable ad-param-invalid for this line"),
        "{titles:?}"
    );
    c.send(json!({"jsonrpc": "2.0", "method": "exit"}));
    child.wait().unwrap();
}

/// Hover on a diagnostic, a param and a request line; completion of params and values.
#[test]
fn hover_and_completion() {
    let (dir, mut child, mut c) = start_in("");
    let uri = format!("file://{}", dir.path().join("a.req.yaml").display());
    let text = "request: POST /v25.0/act_1/campaigns\nparams:\n  objective: OUTCOME_SALEZ\n  special_ad_categories: []\n  \nrequests_x: 1\n";
    let _ = c.open(&uri, "yaml", text);
    let hover_at = |c: &mut Client, id: u64, line: u64, character: u64| -> Value {
        c.send(json!({"jsonrpc": "2.0", "id": id, "method": "textDocument/hover", "params": {"textDocument": {"uri": uri}, "position": {"line": line, "character": character}}}));
        let reply = c.receive();
        assert_eq!(reply["id"], id);
        reply["result"].clone()
    };
    // On the misspelt value: the diagnostic's rule.
    let h = hover_at(&mut c, 1, 2, 16);
    assert!(
        h["contents"]["value"]
            .as_str()
            .unwrap()
            .contains("ad-param-invalid"),
        "{h}"
    );
    // On a param's key: its type and values.
    let h = hover_at(&mut c, 2, 3, 4);
    let v = h["contents"]["value"].as_str().unwrap();
    assert!(
        v.contains("special_ad_categories") && v.contains("required") && v.contains("HOUSING"),
        "{v}"
    );
    // On the request line: the call.
    let h = hover_at(&mut c, 3, 0, 12);
    assert!(
        h["contents"]["value"]
            .as_str()
            .unwrap()
            .contains("POST /act_<id>/campaigns"),
        "{h}"
    );
    // Completion on the empty line under `params:`.
    c.send(json!({"jsonrpc": "2.0", "id": 4, "method": "textDocument/completion", "params": {"textDocument": {"uri": uri}, "position": {"line": 4, "character": 2}}}));
    let reply = c.receive();
    let labels: Vec<&str> = reply["result"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["label"].as_str().unwrap())
        .collect();
    assert!(labels.contains(&"daily_budget"), "{labels:?}");
    assert!(!labels.contains(&"objective"), "{labels:?}");
    c.send(json!({"jsonrpc": "2.0", "id": 9, "method": "shutdown"}));
    assert_eq!(c.receive()["id"], 9);
    c.send(json!({"jsonrpc": "2.0", "method": "exit"}));
    assert_eq!(child.wait().unwrap().code(), Some(0));
}

/// The code-hosting side in the editor: a missing permission's diagnostic relates the
/// token it runs with; hover on a request line gives the permission and level it needs;
/// completion offers permission names in a token's scope and the levels after one.
#[test]
fn token_hover_completion_and_related_places() {
    let (dir, mut child, mut c) = start_in("");
    let uri = format!("file://{}", dir.path().join("a.req.yaml").display());
    let text = "token:\n  owner: acme\n  permissions:\n    repository:\n      Issues: read\n      \n      Contents: \nrequests:\n  - POST /repos/acme/web/issues\n";
    let diags = c.open(&uri, "yaml", text);
    let missing = diags
        .iter()
        .find(|d| d["code"] == "token-missing-permission")
        .unwrap_or_else(|| panic!("{diags:?}"));
    assert_eq!(missing["range"]["start"]["line"], 8, "{missing}");
    let related = missing["relatedInformation"]
        .as_array()
        .unwrap_or_else(|| panic!("{missing}"));
    assert!(
        related.iter().any(|r| r["location"]["uri"] == uri.as_str()
            && r["location"]["range"]["start"]["line"].as_u64().unwrap() < 8),
        "{related:?}"
    );
    // Hover on the request line: the permission and the level it needs.
    c.send(json!({"jsonrpc": "2.0", "id": 1, "method": "textDocument/hover", "params": {"textDocument": {"uri": uri}, "position": {"line": 8, "character": 12}}}));
    let hover = c.receive();
    let value = hover["result"]["contents"]["value"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    assert!(
        value.contains("Issues") && value.contains("write"),
        "{hover}"
    );
    let labels = |c: &mut Client, id: u64, line: u64, character: u64| -> Vec<String> {
        c.send(json!({"jsonrpc": "2.0", "id": id, "method": "textDocument/completion", "params": {"textDocument": {"uri": uri}, "position": {"line": line, "character": character}}}));
        let reply = c.receive();
        reply["result"]
            .as_array()
            .unwrap_or_else(|| panic!("{reply}"))
            .iter()
            .filter_map(|i| i["label"].as_str().map(str::to_string))
            .collect()
    };
    // Under `repository:`: the repository permissions.
    let names = labels(&mut c, 2, 5, 6);
    assert!(names.iter().any(|n| n == "Pull requests"), "{names:?}");
    // After a permission: its levels.
    let levels = labels(&mut c, 3, 6, 16);
    assert!(
        levels.iter().any(|n| n == "read") && levels.iter().any(|n| n == "write"),
        "{levels:?}"
    );
    c.send(json!({"jsonrpc": "2.0", "method": "exit"}));
    child.wait().unwrap();
}

/// A quick fix that edits the config (the permission a named token lacks) targets the
/// config's URI; when the config the editor holds differs from the one the server read,
/// no such edit is offered (its offsets would land elsewhere).
#[test]
fn config_quick_fixes_only_for_the_config_as_read() {
    let config_text = "tokens:\n  ci-bot:\n    owner: acme\n    permissions:\n      repository:\n        Pull requests: read\n";
    let (dir, mut child, mut c) = start_in(config_text);
    let uri = format!("file://{}", dir.path().join("a.req.yaml").display());
    let config_uri = format!("file://{}", dir.path().join(".reqlint.yaml").display());
    let diags = c.open(
        &uri,
        "yaml",
        "token: ci-bot\nrequest: GET /repos/acme/web/issues\n",
    );
    assert!(
        diags
            .iter()
            .any(|d| d["code"] == "token-missing-permission"),
        "{diags:?}"
    );
    let actions = |c: &mut Client, id: u64| -> Vec<Value> {
        c.send(json!({"jsonrpc": "2.0", "id": id, "method": "textDocument/codeAction", "params": {
            "textDocument": {"uri": uri},
            "range": {"start": {"line": 1, "character": 0}, "end": {"line": 1, "character": 40}},
            "context": {"diagnostics": []},
        }}));
        loop {
            let reply = c.receive();
            if reply["id"] == id {
                return reply["result"].as_array().unwrap().clone();
            }
        }
    };
    let edits_config = |actions: &[Value]| {
        actions
            .iter()
            .any(|a| a["edit"]["changes"].get(config_uri.as_str()).is_some())
    };
    assert!(edits_config(&actions(&mut c, 1)), "no config edit offered");
    // The config open in the editor with two lines more than the server read.
    c.send(json!({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {"uri": config_uri, "languageId": "yaml", "version": 1, "text": format!("# note\n# note\n{config_text}")}}}));
    assert!(
        !edits_config(&actions(&mut c, 2)),
        "a config edit with stale offsets"
    );
    c.send(json!({"jsonrpc": "2.0", "method": "exit"}));
    child.wait().unwrap();
}

/// Ends the server if the test has not finished within a generous bound: a hang fails
/// the test instead of blocking the run. It measures nothing.
struct Watchdog(Option<std::sync::mpsc::Sender<()>>);

impl Watchdog {
    fn new(child: &std::process::Child) -> Watchdog {
        let pid = child.id();
        let (done, wait) = std::sync::mpsc::channel::<()>();
        std::thread::spawn(move || {
            if wait.recv_timeout(Duration::from_secs(120))
                == Err(std::sync::mpsc::RecvTimeoutError::Timeout)
            {
                eprintln!("the server did not answer within 120 s: ending it");
                let _ = Command::new("kill").arg(pid.to_string()).status();
            }
        });
        Watchdog(Some(done))
    }
}

impl Drop for Watchdog {
    fn drop(&mut self) {
        if let Some(done) = self.0.take() {
            let _ = done.send(());
        }
    }
}

#[test]
fn a_code_action_over_a_thousand_findings_is_answered_and_the_server_keeps_serving() {
    let (dir, mut child, mut c) = start_in("");
    let _watchdog = Watchdog::new(&child);
    let uri = format!("file://{}", dir.path().join("many.http").display());
    let text = "GET https://api.github.com/user/emailz\n\n###\n\n".repeat(1200);
    let diags = c.open(&uri, "http", &text);
    assert!(diags.len() >= 1200, "{} findings", diags.len());
    // The whole document, as an editor asks after "select all".
    c.send(
        json!({"jsonrpc": "2.0", "id": 7, "method": "textDocument/codeAction", "params": {
            "textDocument": {"uri": uri},
            "range": {"start": {"line": 0, "character": 0}, "end": {"line": 4800, "character": 0}},
            "context": {"diagnostics": []},
        }}),
    );
    c.send(
        json!({"jsonrpc": "2.0", "id": 8, "method": "textDocument/hover", "params": {
            "textDocument": {"uri": uri}, "position": {"line": 0, "character": 30},
        }}),
    );
    let reply = c.receive();
    assert_eq!(reply["id"], 7, "{reply}");
    assert!(reply["result"].is_array(), "{reply}");
    assert_eq!(c.receive()["id"], 8);
    c.send(json!({"jsonrpc": "2.0", "method": "exit"}));
    child.wait().unwrap();
}

#[test]
fn a_message_without_a_usable_length_does_not_stop_the_next_request() {
    let (mut child, mut c) = start();
    let _watchdog = Watchdog::new(&child);
    c.initialize(json!({"capabilities": {}}));
    let request = |id: u64| json!({"jsonrpc": "2.0", "id": id, "method": "no/such"}).to_string();
    for (id, header) in [
        (1, "X-Whatever: 1\r\n".to_string()),
        (2, "Content-Length: -1\r\n".to_string()),
        (3, "Content-Length: 99999999999\r\n".to_string()),
        (4, "Content-Length: 12abc\r\n".to_string()),
    ] {
        // The bad message with a body, then a good request right after it.
        c.raw(format!("{header}\r\n{}", request(100 + id)).as_bytes());
        let reply = c.receive();
        assert_eq!(reply["error"]["code"], -32700, "{header}: {reply}");
        c.send(serde_json::from_str(&request(id)).unwrap());
        let reply = c.receive();
        assert_eq!(reply["id"], id, "{header}: {reply}");
        assert_eq!(reply["error"]["code"], -32601, "{header}: {reply}");
    }
    c.send(json!({"jsonrpc": "2.0", "method": "exit"}));
    child.wait().unwrap();
}

#[test]
fn exploding_variables_do_not_take_the_server_down() {
    let (dir, mut child, mut c) = start_in("");
    let _watchdog = Watchdog::new(&child);
    // Variables nesting 40 references wide and 5 deep: a gigabyte written out.
    let mut text = String::from("@v0 = xxxxxxxxxxxxxxxxxxxxxxxx\n");
    for level in 1..=5 {
        let refs = format!("{{{{v{}}}}}", level - 1).repeat(40);
        text.push_str(&format!("@v{level} = {refs}\n"));
    }
    text.push_str("\nGET https://api.github.com/repos/{{v5}}\n");
    let uri = format!("file://{}", dir.path().join("nested.http").display());
    let diags = c.open(&uri, "http", &text);
    let limits: Vec<&Value> = diags
        .iter()
        .filter(|d| d["code"] == "limit-exceeded")
        .collect();
    assert_eq!(limits.len(), 1, "{diags:?}");
    assert_eq!(limits[0]["range"]["start"]["line"], 3);
    c.send(
        json!({"jsonrpc": "2.0", "id": 5, "method": "textDocument/hover", "params": {
            "textDocument": {"uri": uri}, "position": {"line": 7, "character": 5},
        }}),
    );
    assert_eq!(c.receive()["id"], 5);
    c.send(json!({"jsonrpc": "2.0", "method": "exit"}));
    child.wait().unwrap();
}
