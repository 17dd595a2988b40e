//! Environments discovered beside request files (docs/formats.md#variables), through the
//! binary: a tree, files named on the command line, standard input under its
//! `--stdin-filename`, the result cache, `scopes`, the masking of their secrets, and an
//! explicit choice that replaces discovery.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

/// reqlint run in `dir` (which holds a `.reqlint.yaml` of its own, so that no config
/// above it is read) with `args`, and `stdin`.
fn reqlint(dir: &Path, args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_reqlint"))
        .current_dir(dir)
        .args(args)
        .args(if args[0] == "check" {
            &["--color", "never"][..]
        } else {
            &[]
        })
        .env_remove("GITHUB_ACTIONS")
        .env("XDG_CACHE_HOME", dir.join(".no-cache-here"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(stdin).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        matches!(out.status.code(), Some(0 | 1)),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

const CAMPAIGNS: &str = "### Create a campaign\nPOST {{base_url}}/act_{{ad_account_id}}/campaigns\nContent-Type: application/x-www-form-urlencoded\n\nname=Spring&objective={{objective}}&status=PAUSED&special_ad_categories=[]\n";

const ACCOUNTS: &str =
    "### Ad accounts\nGET {{base_url}}/me/adaccounts?fields=name,account_statuss\n";

fn jetbrains_environment(objective: &str) -> String {
    format!(
        r#"{{"dev": {{"base_url": "https://graph.facebook.com/v25.0", "ad_account_id": "1", "objective": "{objective}"}}}}"#
    )
}

/// A project with a `.http` file and the environment beside it.
fn project(objective: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join(".reqlint.yaml"), "rules: {}\n").unwrap();
    std::fs::create_dir(dir.path().join("api")).unwrap();
    std::fs::write(dir.path().join("api/campaigns.http"), CAMPAIGNS).unwrap();
    std::fs::write(dir.path().join("api/accounts.http"), ACCOUNTS).unwrap();
    std::fs::write(
        dir.path().join("api/http-client.env.json"),
        jetbrains_environment(objective),
    )
    .unwrap();
    dir
}

#[test]
fn a_tree_named_files_and_standard_input_read_the_environment_beside_them() {
    let dir = project("LEADS");
    let tree = stdout(&reqlint(
        dir.path(),
        &["check", "--no-cache", "--format", "concise"],
        b"",
    ));
    assert!(tree.contains("api/campaigns.http:5:"), "{tree}");
    assert!(
        tree.contains("`objective` `LEADS` is not a valid value"),
        "{tree}"
    );
    // The base URL the environment gives routes a request no path of its file places.
    assert!(tree.contains("`account_statuss` is not a field"), "{tree}");
    assert!(!tree.contains("hosts reqlint does not check"), "{tree}");

    let named = stdout(&reqlint(
        dir.path(),
        &[
            "check",
            "--no-cache",
            "--format",
            "concise",
            "api/campaigns.http",
        ],
        b"",
    ));
    assert!(named.contains("`LEADS` is not a valid value"), "{named}");

    // Standard input: the environments of the directory of the name it is given.
    let piped = stdout(&reqlint(
        dir.path(),
        &[
            "check",
            "-",
            "--stdin-filename",
            "api/new.http",
            "--format",
            "concise",
        ],
        CAMPAIGNS.as_bytes(),
    ));
    assert!(piped.contains("`LEADS` is not a valid value"), "{piped}");
    let elsewhere = stdout(&reqlint(
        dir.path(),
        &[
            "check",
            "-",
            "--stdin-filename",
            "new.http",
            "--format",
            "concise",
        ],
        CAMPAIGNS.as_bytes(),
    ));
    assert!(!elsewhere.contains("LEADS"), "{elsewhere}");
}

#[test]
fn an_explicit_environment_replaces_discovery() {
    let dir = project("LEADS");
    std::fs::write(
        dir.path().join("chosen.env.json"),
        r#"{"x": {"other": "1"}}"#,
    )
    .unwrap();
    let out = stdout(&reqlint(
        dir.path(),
        &[
            "check",
            "--no-cache",
            "--format",
            "concise",
            "--environment",
            "chosen.env.json",
        ],
        b"",
    ));
    assert!(!out.contains("LEADS"), "{out}");
    std::fs::write(
        dir.path().join(".reqlint.yaml"),
        "environments: [chosen.env.json]\n",
    )
    .unwrap();
    let out = stdout(&reqlint(
        dir.path(),
        &["check", "--no-cache", "--format", "concise"],
        b"",
    ));
    assert!(!out.contains("LEADS"), "{out}");
    // The config's own variables override a discovered value.
    std::fs::write(
        dir.path().join(".reqlint.yaml"),
        "variables: {objective: OUTCOME_SALES}\n",
    )
    .unwrap();
    let out = stdout(&reqlint(
        dir.path(),
        &["check", "--no-cache", "--format", "concise"],
        b"",
    ));
    assert!(!out.contains("objective"), "{out}");
    assert!(out.contains("account_statuss"), "{out}");
}

#[test]
fn environments_that_disagree_judge_nothing_and_a_broken_one_breaks_nothing() {
    let dir = project("LEADS");
    std::fs::write(
        dir.path().join("api/http-client.env.json"),
        r#"{"dev": {"base_url": "https://graph.facebook.com/v25.0", "ad_account_id": "1", "objective": "LEADS"},
            "prod": {"base_url": "https://graph.facebook.com/v25.0", "ad_account_id": "2", "objective": "OUTCOME_SALES"}}"#,
    )
    .unwrap();
    let out = stdout(&reqlint(
        dir.path(),
        &["check", "--no-cache", "--format", "concise"],
        b"",
    ));
    assert!(!out.contains("objective"), "{out}");
    assert!(out.contains("account_statuss"), "{out}");

    std::fs::write(dir.path().join("api/http-client.env.json"), "{\"dev\": {").unwrap();
    let out = stdout(&reqlint(
        dir.path(),
        &["check", "--no-cache", "--format", "concise"],
        b"",
    ));
    assert!(!out.contains("LEADS"), "{out}");
    assert!(out.contains("hosts reqlint does not check"), "{out}");
}

/// The environment's bytes are part of each file's cache key: an edit of the
/// environment alone changes the cached result.
#[test]
fn an_edited_environment_is_not_answered_from_the_cache() {
    let dir = project("LEADS");
    let cache = tempfile::tempdir().unwrap();
    let cache_dir = cache.path().join("c");
    let args = [
        "check",
        "--format",
        "concise",
        "--cache-dir",
        cache_dir.to_str().unwrap(),
    ];
    let first = stdout(&reqlint(dir.path(), &args, b""));
    assert!(first.contains("`LEADS` is not a valid value"), "{first}");
    let again = stdout(&reqlint(dir.path(), &args, b""));
    assert_eq!(first, again);
    assert!(
        std::fs::read_dir(&cache_dir)
            .unwrap()
            .flatten()
            .any(|e| e.file_name().to_string_lossy().ends_with(".bin")),
        "the first run wrote the cache"
    );
    std::fs::write(
        dir.path().join("api/http-client.env.json"),
        jetbrains_environment("REACH_MORE"),
    )
    .unwrap();
    let edited = stdout(&reqlint(dir.path(), &args, b""));
    assert!(
        edited.contains("`REACH_MORE` is not a valid value"),
        "{edited}"
    );
    assert!(!edited.contains("LEADS"), "{edited}");
}

/// A discovered value that some file sends as a credential is masked in every file's
/// messages, and a credential-shaped value is never printed.
#[test]
fn discovered_secrets_are_masked_as_the_configs_are() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join(".reqlint.yaml"), "rules: {}\n").unwrap();
    let plain = "sunflowermeadowvalue";
    let shaped = "Zx9kQ2mW7pL4vB8n";
    std::fs::write(
        dir.path().join("http-client.env.json"),
        format!(
            r#"{{"dev": {{"base_url": "https://graph.facebook.com/v25.0", "k": "{plain}", "s": "{shaped}"}}}}"#
        ),
    )
    .unwrap();
    std::fs::write(
        dir.path().join("a.http"),
        "### Uses k as a credential\nGET {{base_url}}/me/adaccounts?fields=name\nAuthorization: Bearer {{k}}\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("b.http"),
        "### Sends them as values\nPOST {{base_url}}/act_1/campaigns\nContent-Type: application/x-www-form-urlencoded\n\nname=x&objective={{k}}&status={{s}}&special_ad_categories=[]\n",
    )
    .unwrap();
    for format in ["human", "concise", "json", "sarif"] {
        let out = stdout(&reqlint(
            dir.path(),
            &["check", "--no-cache", "--format", format],
            b"",
        ));
        assert!(out.contains("objective"), "{format}: {out}");
        assert!(!out.contains(plain), "{format}: {out}");
        assert!(!out.contains(shaped), "{format}: {out}");
    }
}

#[test]
fn postman_and_bruno_collections_find_theirs() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    std::fs::write(root.join(".reqlint.yaml"), "rules: {}\n").unwrap();
    std::fs::write(
        root.join("ads.json"),
        r#"{"info": {"name": "Ads", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"},
            "item": [{"name": "Accounts", "request": {"method": "GET", "url": "{{base_url}}/me/adaccounts?fields=name,account_statuss"}}]}"#,
    )
    .unwrap();
    std::fs::write(
        root.join("staging.json"),
        r#"{"name": "Staging", "values": [{"key": "base_url", "value": "https://graph.facebook.com/v25.0", "enabled": true}],
            "_postman_variable_scope": "environment"}"#,
    )
    .unwrap();
    std::fs::create_dir_all(root.join("bruno/environments")).unwrap();
    std::fs::create_dir_all(root.join("bruno/Accounts")).unwrap();
    std::fs::write(
        root.join("bruno/bruno.json"),
        r#"{"version": "1", "name": "B", "type": "collection"}"#,
    )
    .unwrap();
    std::fs::write(
        root.join("bruno/environments/staging.bru"),
        "vars {\n  base_url: https://graph.facebook.com/v25.0\n}\n",
    )
    .unwrap();
    std::fs::write(
        root.join("bruno/Accounts/list.bru"),
        "meta {\n  name: List\n  type: http\n  seq: 1\n}\n\nget {\n  url: {{base_url}}/me/adaccounts?fields=name,account_statuss\n  body: none\n  auth: none\n}\n",
    )
    .unwrap();
    let out = stdout(&reqlint(
        root,
        &["check", "--no-cache", "--format", "concise"],
        b"",
    ));
    assert!(out.contains("ads.json:"), "{out}");
    assert!(out.contains("bruno/Accounts/list.bru:"), "{out}");
    assert_eq!(out.matches("account_statuss").count(), 2, "{out}");

    // `scopes` reads the files as the check does; `--show-settings` names what a named
    // file is read with.
    let shown = stdout(&reqlint(
        root,
        &["check", "--show-settings", "bruno/Accounts/list.bru"],
        b"",
    ));
    assert!(
        shown.contains("bruno/Accounts/list.bru: bruno/environments/staging.bru (1 environment; known: base_url"),
        "{shown}"
    );
}

/// `scopes` reads each file with the environments beside it, as the check does: the base
/// URL they give places a request whose path alone places nowhere.
#[test]
fn scopes_reads_the_environment_beside_a_file() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join(".reqlint.yaml"),
        "tokens:\n  bot:\n    owner: acme\n    permissions:\n      repository: {Issues: write}\n    variables: [gh_token]\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("a.http"),
        "### Notifications\nGET {{gh}}/notifications\nAuthorization: Bearer {{gh_token}}\n",
    )
    .unwrap();
    let without = stdout(&reqlint(dir.path(), &["scopes"], b""));
    assert!(!without.contains("GET /notifications"), "{without}");
    std::fs::write(
        dir.path().join("http-client.env.json"),
        r#"{"dev": {"gh": "https://api.github.com"}}"#,
    )
    .unwrap();
    let with = stdout(&reqlint(dir.path(), &["scopes"], b""));
    assert!(with.contains("a.http:2:1  GET /notifications"), "{with}");
}
