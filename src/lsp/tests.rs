//! The server driven message by message: what it writes is what the hand-written server
//! wrote before it spoke through lsp-server and lsp-types (the expected values below
//! are that server's output), and params it cannot read are answered or dropped.

use serde_json::{Value, json};

use super::path_to_uri;
use super::server::{Flow, Server};

/// A server that `initialize`d, and what it wrote.
pub(super) fn initialized_server() -> (Server, Vec<u8>) {
    let mut server = Server::new();
    let mut out = Vec::new();
    for m in [
        json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"capabilities": {}}}),
        json!({"jsonrpc": "2.0", "method": "initialized", "params": {}}),
    ] {
        server.handle(&mut out, m.to_string().as_bytes()).unwrap();
    }
    (server, out)
}

/// The messages the server writes for `message`, read back.
fn exchange(server: &mut Server, message: Value) -> Vec<Value> {
    let mut out = Vec::new();
    let flow = server.handle(&mut out, message.to_string().as_bytes());
    assert!(matches!(flow, Ok(Flow::Continue)), "{message}");
    let mut written = Vec::new();
    let mut rest = out.as_slice();
    while !rest.is_empty() {
        let text = String::from_utf8_lossy(rest);
        let (header, _) = text.split_once("\r\n\r\n").unwrap();
        let length: usize = header["Content-Length: ".len()..].parse().unwrap();
        let body = &rest[header.len() + 4..header.len() + 4 + length];
        written.push(serde_json::from_slice(body).unwrap());
        rest = &rest[header.len() + 4 + length..];
    }
    written
}

/// The one answer to a request.
fn answer(server: &mut Server, request: Value) -> Value {
    let written = exchange(server, request.clone());
    assert_eq!(written.len(), 1, "{request}: {written:?}");
    written[0].clone()
}

#[test]
fn what_the_server_writes_is_as_before() {
    let mut server = Server::new();
    let init = answer(
        &mut server,
        json!({"jsonrpc": "2.0", "id": "i", "method": "initialize", "params": {
            "capabilities": {"workspace": {"didChangeWatchedFiles": {"dynamicRegistration": true}}},
        }}),
    );
    assert_eq!(
        init,
        json!({"jsonrpc": "2.0", "id": "i", "result": {
            "capabilities": {
                "codeActionProvider": {"codeActionKinds": ["quickfix", "source.fixAll.reqlint"]},
                "completionProvider": {"triggerCharacters": [":", " "]},
                "hoverProvider": true,
                "positionEncoding": "utf-16",
                "textDocumentSync": {"change": 1, "openClose": true, "save": {"includeText": true}},
            },
            "serverInfo": {"name": "reqlint", "version": env!("CARGO_PKG_VERSION")},
        }})
    );
    let registration = answer(
        &mut server,
        json!({"jsonrpc": "2.0", "method": "initialized", "params": {}}),
    );
    assert_eq!(
        registration,
        json!({"jsonrpc": "2.0", "id": "reqlint-1", "method": "client/registerCapability",
            "params": {"registrations": [{
                "id": "reqlint-watch",
                "method": "workspace/didChangeWatchedFiles",
                "registerOptions": {"watchers": [
                    {"globPattern": "**/.reqlint.yaml"},
                    {"globPattern": "**/*.{yaml,yml,json}"},
                ]},
            }]},
        })
    );

    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join(".reqlint.yaml"), "").unwrap();
    let uri = path_to_uri(&dir.path().join("a.req.yaml"));
    let text =
        "request: GET /v24.0/23850000000000001\nobject: custom_audience\nobject: custom_audience\n";
    let published = answer(
        &mut server,
        json!({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
            "uri": uri, "languageId": "yaml", "version": 1, "text": text,
        }}}),
    );
    let line =
        |n: u32| json!({"start": {"line": n, "character": 0}, "end": {"line": n, "character": 6}});
    assert_eq!(
        published,
        json!({"jsonrpc": "2.0", "method": "textDocument/publishDiagnostics", "params": {
            "uri": uri,
            "diagnostics": [{
                "code": "duplicate-key",
                "codeDescription": {"href": "https://github.com/reqlint/reqlint/blob/main/docs/rules/duplicate-key.md"},
                "message": "duplicate key `object`\nhelp: remove one of the two; the last one is the one that counts",
                "range": line(2),
                "relatedInformation": [{"location": {"range": line(1), "uri": uri}, "message": "first given here"}],
                "severity": 1,
                "source": "reqlint",
            }],
        }})
    );
    // Nothing to say: a `result` of null, not a missing one.
    let nothing = answer(
        &mut server,
        json!({"jsonrpc": "2.0", "id": 5, "method": "textDocument/hover", "params": {
            "textDocument": {"uri": uri}, "position": {"line": 9, "character": 0},
        }}),
    );
    assert_eq!(nothing, json!({"jsonrpc": "2.0", "id": 5, "result": null}));

    let http = path_to_uri(&dir.path().join("b c.http"));
    let text = "@base = https://graph.facebook.com/v25.0\n\n### Create\nPOST {{base}}/act_1/campaigns\n    ?special_ad_categories=[]\n    &objective=OUTCOME_SALEZ\n\n###\nGET https://api.github.com/user/emailz\n";
    exchange(
        &mut server,
        json!({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
            "uri": http, "languageId": "http", "version": 1, "text": text,
        }}}),
    );
    let actions = answer(
        &mut server,
        json!({"jsonrpc": "2.0", "id": 6, "method": "textDocument/codeAction", "params": {
            "textDocument": {"uri": http},
            "range": {"start": {"line": 0, "character": 0}, "end": {"line": 9, "character": 0}},
            "context": {"diagnostics": []},
        }}),
    );
    let span = |line: u32, start: u32, end: u32| json!({"start": {"line": line, "character": start}, "end": {"line": line, "character": end}});
    let fixed = text.replace("SALEZ", "SALES");
    assert_eq!(
        actions,
        json!({"jsonrpc": "2.0", "id": 6, "result": [
            {
                "diagnostics": [{"code": "ad-param-invalid", "message": "`objective` `OUTCOME_SALEZ` is not a valid value", "range": span(5, 15, 28), "source": "reqlint"}],
                "edit": {"changes": {http.as_str(): [{"newText": "OUTCOME_SALES", "range": span(5, 15, 28)}]}},
                "isPreferred": true,
                "kind": "quickfix",
                "title": "replace `OUTCOME_SALEZ` with `OUTCOME_SALES` (ad-param-invalid)",
            },
            {
                "diagnostics": [{"code": "unknown-endpoint", "message": "no permission table row matches `/user/emailz` in API version 2022-11-28; its coverage cannot be checked", "range": span(8, 26, 38), "source": "reqlint"}],
                "edit": {"changes": {http.as_str(): [{"newText": "# reqlint: ignore[unknown-endpoint]\n", "range": span(8, 0, 0)}]}},
                "kind": "quickfix",
                "title": "Disable unknown-endpoint for this line",
            },
            {
                "edit": {"changes": {http.as_str(): [{"newText": fixed, "range": {"start": {"line": 0, "character": 0}, "end": {"line": 9, "character": 0}}}]}},
                "kind": "source.fixAll.reqlint",
                "title": "Fix all safe fixes in the file (1)",
            },
        ]})
    );
    let completion = answer(
        &mut server,
        json!({"jsonrpc": "2.0", "id": 7, "method": "textDocument/completion", "params": {
            "textDocument": {"uri": uri}, "position": {"line": 3, "character": 0},
        }}),
    );
    assert_eq!(
        completion["result"][0],
        json!({"detail": "request key", "kind": 14, "label": "request"})
    );
}

#[test]
fn params_that_cannot_be_read_are_answered_or_dropped_and_the_server_goes_on() {
    let (mut server, _) = initialized_server();
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join(".reqlint.yaml"), "").unwrap();
    let uri = path_to_uri(&dir.path().join("a.req.yaml"));
    // A request: -32602 with its id; serde's message quotes the value, which is masked.
    let token = format!("ghp_{}", "a1B2c3D4e5".repeat(4));
    let reply = answer(
        &mut server,
        json!({"jsonrpc": "2.0", "id": 1, "method": "textDocument/hover", "params": {
            "textDocument": {"uri": uri}, "position": {"line": token, "character": 0},
        }}),
    );
    assert_eq!(reply["id"], 1, "{reply}");
    assert_eq!(reply["error"]["code"], -32602, "{reply}");
    let message = reply["error"]["message"].as_str().unwrap();
    assert!(message.contains("textDocument/hover"), "{message}");
    assert!(
        message.contains("ghp_") && !message.contains(&token),
        "quoted, masked: {message}"
    );
    // A notification: dropped, nothing written, and the document not opened.
    let dropped = exchange(
        &mut server,
        json!({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {"uri": uri}}}),
    );
    assert_eq!(dropped, Vec::<Value>::new());
    assert!(server.documents.is_empty());
    // A URI that is not one (a space): the same.
    let spaced = format!("file://{}", dir.path().join("b c.req.yaml").display());
    let dropped = exchange(
        &mut server,
        json!({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
            "uri": spaced, "languageId": "yaml", "version": 1, "text": "",
        }}}),
    );
    assert_eq!(dropped, Vec::<Value>::new());
    // And the next request is served.
    let reply = answer(
        &mut server,
        json!({"jsonrpc": "2.0", "id": 2, "method": "textDocument/hover", "params": {
            "textDocument": {"uri": uri}, "position": {"line": 0, "character": 0},
        }}),
    );
    assert_eq!(reply, json!({"jsonrpc": "2.0", "id": 2, "result": null}));
}

#[test]
fn initialize_takes_params_it_cannot_read_as_a_client_that_says_nothing() {
    for params in [
        json!({}),
        json!(null),
        json!({"capabilities": 1, "rootUri": 2}),
    ] {
        let mut server = Server::new();
        let reply = answer(
            &mut server,
            json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": params}),
        );
        assert_eq!(
            reply["result"]["capabilities"]["positionEncoding"], "utf-16",
            "{params}: {reply}"
        );
        // Initialized: a request is served, not refused with -32002.
        let reply = answer(
            &mut server,
            json!({"jsonrpc": "2.0", "id": 2, "method": "no/such"}),
        );
        assert_eq!(reply["error"]["code"], -32601, "{params}: {reply}");
    }
}

/// An open `.http` document is read with the environment beside it, as `check` reads
/// the file; a change to that environment reads it again.
#[test]
fn a_document_is_read_with_the_environment_beside_it() {
    let (mut server, _) = initialized_server();
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join(".reqlint.yaml"), "").unwrap();
    let environment = dir.path().join("http-client.env.json");
    let write_environment = |objective: &str| {
        std::fs::write(
            &environment,
            format!(
                r#"{{"dev": {{"base_url": "https://graph.facebook.com/v25.0", "objective": "{objective}"}}}}"#
            ),
        )
        .unwrap();
    };
    write_environment("LEADS");
    let uri = path_to_uri(&dir.path().join("campaigns.http"));
    let text = "### Create\nPOST {{base_url}}/act_1/campaigns\nContent-Type: application/x-www-form-urlencoded\n\nname=x&objective={{objective}}&status=PAUSED&special_ad_categories=[]\n";
    let published = exchange(
        &mut server,
        json!({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
            "uri": uri, "languageId": "http", "version": 1, "text": text,
        }}}),
    );
    let messages = |published: &[Value]| -> Vec<String> {
        published[0]["params"]["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| d["message"].as_str().unwrap().to_string())
            .collect()
    };
    let found = messages(&published);
    assert!(
        found
            .iter()
            .any(|m| m.contains("`LEADS` is not a valid value")),
        "{found:?}"
    );
    write_environment("OUTCOME_LEADS");
    let republished = exchange(
        &mut server,
        json!({"jsonrpc": "2.0", "method": "workspace/didChangeWatchedFiles", "params": {
            "changes": [{"uri": path_to_uri(&environment), "type": 2}],
        }}),
    );
    assert_eq!(messages(&republished), Vec::<String>::new());
}
