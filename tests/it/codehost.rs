//! The code-hosting rules over whole runs: named tokens judged across files, and
//! `reqlint scopes` whose output, pasted as the token, makes `check` quiet.

use std::path::Path;
use std::process::{Command, Output};

fn reqlint(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_reqlint"))
        .args(args)
        .current_dir(dir)
        .env_remove("GITHUB_ACTIONS")
        .output()
        .expect("reqlint runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn write(dir: &Path, name: &str, text: &str) {
    let path = dir.join(name);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

const CONFIG: &str = "tokens:\n  ci-bot:\n    owner: acme\n    permissions:\n      repository:\n        statuses: write\n        contents: read\n      user:\n        emails: write\n";

fn named_token_project() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), ".reqlint.yaml", CONFIG);
    write(
        dir.path(),
        "requests/a.req.yaml",
        "token: ci-bot\nrequests:\n  - POST /repos/acme/web/statuses/3f2a9c1\n",
    );
    write(
        dir.path(),
        "requests/b.req.yaml",
        "token: ci-bot\nrequests:\n  - GET /user/emails\n",
    );
    dir
}

#[test]
fn named_token_is_judged_over_every_file_of_the_run() {
    let dir = named_token_project();
    let out = reqlint(dir.path(), &["check", ".", "--format", "concise"]);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{text}");
    let lines: Vec<&str> = text
        .lines()
        .filter(|l| l.contains("token-over-privileged"))
        .collect();
    assert_eq!(
        lines,
        vec![
            ".reqlint.yaml:7:9: warning[token-over-privileged]: token `ci-bot` holds the repository permission `contents` but none of its 2 requests uses it",
            ".reqlint.yaml:9:17: warning[token-over-privileged]: token `ci-bot` holds `emails` at write, but its requests only read",
        ],
        "{text}"
    );
    assert!(!text.contains("token-missing-permission"), "{text}");
}

#[test]
fn named_token_is_not_judged_on_a_few_chosen_files() {
    // A pre-commit hook passes only the changed files: nothing can be called unused.
    let dir = named_token_project();
    let out = reqlint(
        dir.path(),
        &["check", "requests/a.req.yaml", "--format", "concise"],
    );
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(!text.contains("token-over-privileged"), "{text}");
}

#[test]
fn run_level_diagnostics_honour_severity_and_suppression() {
    let dir = named_token_project();
    let config = CONFIG.replace(
        "contents: read",
        "contents: read  # reqlint: ignore[token-over-privileged]",
    );
    write(
        dir.path(),
        ".reqlint.yaml",
        &format!("rules:\n  token-over-privileged: error\n{config}"),
    );
    let out = reqlint(dir.path(), &["check", ".", "--format", "json"]);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let diags = json["diagnostics"].as_array().unwrap();
    assert_eq!(diags.len(), 1, "{json}");
    assert_eq!(diags[0]["file"], ".reqlint.yaml");
    assert_eq!(diags[0]["severity"], "error");
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn a_token_with_an_unknown_endpoint_is_not_judged() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "x.req.yaml",
        "token:\n  permissions:\n    repository: {contents: read}\nrequests:\n  - GET /repos/acme/web/no-such-endpoint\n",
    );
    let out = reqlint(dir.path(), &["check", ".", "--format", "concise"]);
    let text = stdout(&out);
    assert!(text.contains("unknown-endpoint"), "{text}");
    assert!(!text.contains("token-over-privileged"), "{text}");
}

/// The `tokens:` entry that `scopes` prints for a token named in the config, as it is.
fn token_block_as_config(scopes_output: &str, token: &str) -> String {
    let start = scopes_output
        .find(&format!("# token {token} "))
        .unwrap_or_else(|| panic!("no block for {token} in:\n{scopes_output}"));
    let block: Vec<&str> = scopes_output[start..]
        .lines()
        .skip(1)
        .take_while(|l| !l.starts_with('#'))
        .collect();
    assert_eq!(block[0], "tokens:");
    assert_eq!(block[1], format!("  {token}:"));
    block.iter().map(|l| format!("{l}\n")).collect()
}

#[test]
fn scopes_output_pasted_as_the_token_makes_check_quiet() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "requests/ci.req.yaml",
        "token: ci-bot\nrequests:\n  - POST /repos/acme/web/statuses/3f2a9c1\n  - GET /repos/acme/web/commits/main/statuses\n  - GET /orgs/acme/depalert/alerts?per_page=100\n",
    );
    write(
        dir.path(),
        "requests/user.req.json",
        r#"{"token": "ci-bot", "requests": ["GET /user/emails", "PUT /user/following/octocat", "DELETE /gists/aa5a315d61ae9438b18d", {"request": "GET /orgs/acme/campaigns", "public": true}]}"#,
    );
    write(
        dir.path(),
        "requests/orgs.req.yaml",
        "token: ci-bot\nrequests:\n  - PATCH /organizations/acme/org-properties/values\n  - GET /users/octocat/events/orgs/acme\n",
    );
    write(dir.path(), ".reqlint.yaml", "");
    let scopes = reqlint(dir.path(), &["scopes", "."]);
    assert_eq!(scopes.status.code(), Some(0));
    let printed = stdout(&scopes);
    let config = token_block_as_config(&printed, "ci-bot");
    assert!(config.contains("Commit statuses: write"), "{config}");
    assert!(config.contains("Dependabot alerts: read"), "{config}");
    assert!(
        config.contains("Custom properties for organizations: write"),
        "{config}"
    );
    assert!(
        !config.contains("Campaigns"),
        "a public GET needs nothing: {config}"
    );
    write(dir.path(), ".reqlint.yaml", &config);
    let out = reqlint(dir.path(), &["check", ".", "--format", "concise"]);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{config}\n{text}");
    assert!(text.starts_with("All checks passed"), "{config}\n{text}");
}

#[test]
fn scopes_json_lists_tokens_permissions_and_requests() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), ".reqlint.yaml", "");
    write(
        dir.path(),
        "a.req.yaml",
        "token:\n  permissions: {}\nrequests:\n  - GET /user/emails\n  - POST /user/emails\n",
    );
    let out = reqlint(dir.path(), &["scopes", ".", "--format", "json"]);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let token = &json["tokens"][0];
    assert_eq!(token["token"], "a.req.yaml:2");
    assert_eq!(token["permissions"]["user"]["Email addresses"], "write");
    let requests = token["requests"].as_array().unwrap();
    assert_eq!(requests.len(), 2);
    assert_eq!(requests[0]["endpoint"], "/user/emails");
    assert_eq!(requests[0]["access"], "read");
    assert_eq!(requests[0]["line"], 4);
    assert_eq!(requests[1]["access"], "write");
}

/// Requests of one file with different tokens (the file's, a request's own inline one, a
/// named one) are each checked against their own token, however many requests share one.
#[test]
fn each_request_is_checked_against_its_own_token() {
    let dir = named_token_project();
    write(
        dir.path(),
        "requests/mixed.req.yaml",
        "token:\n  permissions:\n    user: {emails: read}\nrequests:\n  - GET /user/emails\n  - PATCH /user/email/visibility\n  - request: PATCH /user/email/visibility\n    token:\n      permissions:\n        user: {emails: write}\n  - request: POST /repos/acme/web/statuses/3f2a9c1\n    token: ci-bot\n  - request: POST /repos/acme/web/statuses/3f2a9c1\n  - GET /user/emails\n",
    );
    let out = reqlint(
        dir.path(),
        &["check", "requests/mixed.req.yaml", "--format", "concise"],
    );
    let text = stdout(&out);
    let missing: Vec<String> = text
        .lines()
        .filter(|l| l.contains("token-missing-permission"))
        .map(|l| l.split(':').take(2).collect::<Vec<_>>().join(":"))
        .collect();
    // Line 6: the file's token reads emails only; line 13: the file's token has no
    // statuses. Lines 7 and 11 run with their own tokens, which suffice.
    assert_eq!(
        missing,
        ["requests/mixed.req.yaml:6", "requests/mixed.req.yaml:13"],
        "{text}"
    );
}

#[test]
fn scopes_keeps_owner_and_repositories_and_says_what_it_cannot_cover() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        ".reqlint.yaml",
        "tokens:\n  ci-bot:\n    owner: acme\n    repositories: [web]\n    permissions: {}\n",
    );
    write(
        dir.path(),
        "a.req.yaml",
        "token: ci-bot\nrequests:\n  - POST /repos/acme/web/statuses/3f2a9c1\n  - GET /repos/acme/web/no-such-thing\n",
    );
    write(
        dir.path(),
        "b.req.yaml",
        "token:\n  owner: octo-org\n  permissions: {}\nrequests:\n  - GET /user/emails\n",
    );
    let out = reqlint(dir.path(), &["scopes", "."]);
    let printed = stdout(&out);
    // A named token: its `tokens:` entry, owner and repositories kept.
    assert!(
        printed.contains("tokens:\n  ci-bot:\n    owner: acme\n    repositories: [web]\n    permissions:\n      repository:\n        Commit statuses: write\n"),
        "{printed}"
    );
    // The request it could not resolve is said, not silently left out.
    assert!(printed.contains("# NOT covered"), "{printed}");
    assert!(
        printed.contains("a.req.yaml:4:5  GET /repos/acme/web/no-such-thing  (unknown endpoint)"),
        "{printed}"
    );
    // An inline token: a `token:` block with its owner.
    assert!(
        printed.contains(
            "token:\n  owner: octo-org\n  permissions:\n    user:\n      Email addresses: read\n"
        ),
        "{printed}"
    );
    let json = reqlint(dir.path(), &["scopes", ".", "--format", "json"]);
    let json: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    let named = json["tokens"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["token"] == "ci-bot")
        .unwrap();
    assert_eq!(named["defined"], "config");
    assert_eq!(named["owner"], "acme");
    assert_eq!(named["unresolved"][0]["reason"], "unknown endpoint");
}

#[test]
fn scopes_never_prints_a_secret() {
    let dir = tempfile::tempdir().unwrap();
    let secret = "ghp_Sc0pesS3cretN0tInAnyFixture1234567890";
    write(dir.path(), ".reqlint.yaml", "");
    write(
        dir.path(),
        "a.req.yaml",
        &format!("token: {secret}\nrequests:\n  - GET /user/emails\n"),
    );
    for format in ["yaml", "json"] {
        let out = reqlint(dir.path(), &["scopes", ".", "--format", format]);
        let printed = stdout(&out);
        assert!(!printed.contains(&secret[8..]), "{format}: {printed}");
        assert!(printed.contains("ghp_****"), "{format}: {printed}");
    }
}

/// `scopes` over a mix of endpoints: levels from the host's table (admin included), the
/// endpoints it flags listed apart with their docs page, and a version chosen per file.
#[test]
fn scopes_with_admin_levels_flagged_endpoints_and_versions() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "requests/mix.req.yaml",
        "token: ci-bot\nrequests:\n  - PATCH /orgs/acme/properties/schema\n  - POST /repos/acme/web/releases\n  - GET /repos/acme/web/pulls\n",
    );
    write(
        dir.path(),
        "requests/new.req.yaml",
        "token: ci-bot\napi-version: '2026-03-10'\nrequests:\n  - DELETE /orgs/acme/agents/secrets/DEPLOY_KEY\n",
    );
    write(dir.path(), ".reqlint.yaml", "");
    let scopes = reqlint(dir.path(), &["scopes", "."]);
    assert_eq!(scopes.status.code(), Some(0));
    let printed = stdout(&scopes);
    let config = token_block_as_config(&printed, "ci-bot");
    assert!(config.contains("Custom properties: admin"), "{config}");
    assert!(config.contains("Contents: write"), "{config}");
    assert!(config.contains("Pull requests: read"), "{config}");
    assert!(config.contains("Agent secrets: write"), "{config}");
    assert!(printed.contains("# may need more"), "{printed}");
    assert!(
        printed.contains("https://docs.github.com/rest/releases/releases#create-a-release"),
        "{printed}"
    );
    // Pasted as the token, the block leaves only the flagged endpoint's warning.
    write(dir.path(), ".reqlint.yaml", &config);
    let out = reqlint(dir.path(), &["check", ".", "--format", "concise"]);
    let text = stdout(&out);
    assert!(!text.contains("error["), "{text}");
    assert_eq!(
        text.matches("warning[token-missing-permission]").count(),
        1,
        "{text}"
    );
}

/// The request of every format in a project, each in its own file: `DELETE` of an agent
/// secret (an endpoint of API version 2026-03-10 only) with the header `version` asks
/// for, run with the token `{{gh}}` stands for, written with the host's own `token`
/// scheme (reqlint's format names its token with `token:`).
fn headers_project(version: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        ".reqlint.yaml",
        "tokens:\n  ci-bot:\n    owner: acme\n    permissions:\n      organization: {organization_agent_secrets: read}\n    variables: [gh]\n",
    );
    let url = "https://api.github.com/orgs/acme/agents/secrets/DEPLOY_KEY";
    write(
        dir.path(),
        "a.req.yaml",
        &format!(
            "requests:\n  - request: DELETE {url}\n    token: ci-bot\n    x-headers:\n      X-GitHub-Api-Version: \"{version}\"\n"
        ),
    );
    write(
        dir.path(),
        "b.req.json",
        &format!(
            "{{\"request\": \"DELETE {url}\", \"token\": \"ci-bot\", \"x-headers\": {{\"x-github-api-version\": \"{version}\"}}}}\n"
        ),
    );
    write(
        dir.path(),
        "c.http",
        &format!(
            "DELETE {url}\nAuthorization: token {{{{gh}}}}\nX-GitHub-Api-Version: {version}\n"
        ),
    );
    write(
        dir.path(),
        "d.bru",
        &format!(
            "meta {{\n  name: Delete\n}}\n\ndelete {{\n  url: {url}\n}}\n\nheaders {{\n  Authorization: token {{{{gh}}}}\n  X-GitHub-Api-Version: {version}\n}}\n"
        ),
    );
    write(
        dir.path(),
        "e.hurl",
        &format!(
            "DELETE {url}\nAuthorization: token {{{{gh}}}}\nX-GitHub-Api-Version: {version}\n"
        ),
    );
    write(
        dir.path(),
        "f.postman_collection.json",
        &format!(
            r#"{{"info": {{"name": "gh", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"}},
 "item": [{{"name": "Delete", "request": {{"method": "DELETE", "url": "{url}",
   "header": [{{"key": "Authorization", "value": "token {{{{gh}}}}"}}, {{"key": "X-GitHub-Api-Version", "value": "{version}"}}]}}}}]}}
"#
        ),
    );
    dir
}

const HEADER_FILES: [&str; 6] = [
    "a.req.yaml",
    "b.req.json",
    "c.http",
    "d.bru",
    "e.hurl",
    "f.postman_collection.json",
];

/// `X-GitHub-Api-Version` is the request's API version and `Authorization: token
/// {{gh}}` names the token `{{gh}}` stands for, in every format: the endpoint's
/// permission is in the 2026-03-10 table only, where it is judged against the token,
/// which holds too little.
#[test]
fn the_version_header_and_the_token_scheme_work_in_every_format() {
    let dir = headers_project("2026-03-10");
    let out = reqlint(
        dir.path(),
        &["check", ".", "--format", "concise", "--no-cache"],
    );
    let text = stdout(&out);
    assert!(!text.contains("unknown-endpoint"), "{text}");
    for file in HEADER_FILES {
        let lines: Vec<&str> = text
            .lines()
            .filter(|l| l.starts_with(&format!("{file}:")))
            .collect();
        assert_eq!(lines.len(), 1, "{file}: {text}");
        assert!(
            lines[0].contains("[token-missing-permission]") && lines[0].contains("`ci-bot`"),
            "{file}: {text}"
        );
    }
    // Without the header, the host's default version: its REST description has the
    // endpoint, but its permission table gives no permission for it, so it is neither
    // unknown nor judged against the token.
    let dir = headers_project("2022-11-28");
    let text = stdout(&reqlint(
        dir.path(),
        &["check", ".", "--format", "concise", "--no-cache"],
    ));
    assert!(!text.contains("[unknown-endpoint]"), "{text}");
    assert!(!text.contains("[token-missing-permission]"), "{text}");
}

/// A version the host does not have is reported as a wrong `api-version` is, at the
/// header's value, in every format.
#[test]
fn an_unknown_version_in_the_header_is_reported_at_its_value_in_every_format() {
    let dir = headers_project("2026-03-01");
    let out = reqlint(
        dir.path(),
        &["check", ".", "--format", "json", "--no-cache"],
    );
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    for file in HEADER_FILES {
        let text = std::fs::read_to_string(dir.path().join(file)).unwrap();
        let found: Vec<&serde_json::Value> = report["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|d| d["file"].as_str().is_some_and(|f| f.ends_with(file)))
            .filter(|d| d["rule"] == "invalid-request-field")
            .collect();
        assert_eq!(found.len(), 1, "{file}: {report}");
        let message = found[0]["message"].as_str().unwrap();
        assert!(
            message
                .to_ascii_lowercase()
                .contains("x-github-api-version")
                && message.contains("not `2026-03-01`"),
            "{file}: {message}"
        );
        let at = found[0]["span"]["offset"].as_u64().unwrap_or(u64::MAX) as usize;
        assert!(
            text.get(at..)
                .is_some_and(|t| t.starts_with("2026-03-01") || t.starts_with("\"2026-03-01\"")),
            "{file}: {:?}",
            found[0]
        );
    }
}

/// Paths whose params hold slashes (the host marks them multi-segment) are the
/// operations they call, judged against the token; `reqlint scopes` covers them and the
/// endpoints that need no permission, and its block makes `check` quiet.
#[test]
fn paths_with_slashes_and_endpoints_without_permission_are_covered() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), ".reqlint.yaml", "");
    let requests = "requests:\n  - GET /repos/acme/web/contents/src/lib.rs\n  - DELETE /repos/acme/web/git/refs/heads/feature/x\n  - GET /repos/acme/web/git/ref/tags/v1.2.0\n  - GET /repos/acme/web/branches/feature/x/protection\n  - GET /repos/acme/web/compare/main...feature/x\n  - GET /user\n  - GET /rate_limit\n  - GET /orgs/acme\n";
    write(
        dir.path(),
        "a.req.yaml",
        &format!("token:\n  owner: acme\n  permissions: {{}}\n{requests}"),
    );
    let out = reqlint(dir.path(), &["check", ".", "--format", "concise"]);
    let text = stdout(&out);
    let missing: Vec<&str> = text
        .lines()
        .filter(|l| l.contains("[token-missing-permission]"))
        .collect();
    assert_eq!(missing.len(), 5, "{text}");
    for (line, permission) in [
        ("a.req.yaml:5:", "`Contents` at read"),
        ("a.req.yaml:6:", "`Contents` at write"),
        ("a.req.yaml:7:", "`Contents` at read"),
        ("a.req.yaml:8:", "`Administration` at read"),
        ("a.req.yaml:9:", "`Contents` at read"),
    ] {
        assert!(
            missing
                .iter()
                .any(|l| l.starts_with(line) && l.contains(permission)),
            "{line} {permission}: {text}"
        );
    }
    assert!(!text.contains("unknown-endpoint"), "{text}");

    let scopes = reqlint(dir.path(), &["scopes", "a.req.yaml"]);
    let printed = stdout(&scopes);
    assert!(printed.contains("Contents: write"), "{printed}");
    assert!(printed.contains("Administration: read"), "{printed}");
    assert!(
        printed.contains("# needs no permission (any token covers it):"),
        "{printed}"
    );
    for open in ["GET /user\n", "GET /rate_limit\n", "GET /orgs/{org}\n"] {
        assert!(printed.contains(open), "{open}: {printed}");
    }
    assert!(!printed.contains("NOT covered"), "{printed}");
    let block: String = printed
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| format!("{l}\n"))
        .collect();
    write(dir.path(), "a.req.yaml", &format!("{block}{requests}"));
    let out = reqlint(dir.path(), &["check", ".", "--format", "concise"]);
    let text = stdout(&out);
    assert!(text.starts_with("All checks passed"), "{block}\n{text}");
}

/// The edition of a host decides which operations exist there: an enterprise server's
/// administration endpoints are no GitHub.com operation.
#[test]
fn a_hosts_edition_decides_which_operations_it_has() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        ".reqlint.yaml",
        "codehost:\n  hosts: [ghe.acme.com]\n  editions:\n    ghe.acme.com: ghes-3.17\n",
    );
    write(
        dir.path(),
        "a.req.yaml",
        "requests:\n  - GET https://api.github.com/admin/hooks\n  - GET https://ghe.acme.com/api/v3/admin/hooks\n  - GET /admin/hooks\n",
    );
    let out = reqlint(dir.path(), &["check", ".", "--format", "concise"]);
    let text = stdout(&out);
    let warned: Vec<&str> = text.lines().filter(|l| l.contains("warning[")).collect();
    assert_eq!(warned.len(), 1, "{text}");
    assert!(
        warned[0].starts_with("a.req.yaml:2:")
            && warned[0].contains("GitHub.com's REST API has no `GET /admin/hooks`"),
        "{text}"
    );

    // Each edition's permission table: the rule suites of a repository need
    // `Administration` at write on Enterprise Server 3.17, at read on 3.19 and GitHub.com.
    write(
        dir.path(),
        ".reqlint.yaml",
        "codehost:\n  hosts: [ghe-old.acme.com, ghe.acme.com]\n  editions:\n    ghe-old.acme.com: ghes-3.17\n    ghe.acme.com: ghes-3.19\n",
    );
    write(
        dir.path(),
        "a.req.yaml",
        "token:\n  owner: acme\n  permissions:\n    repository: {Administration: read}\nrequests:\n  - GET https://ghe-old.acme.com/api/v3/repos/acme/web/rulesets/rule-suites\n  - GET https://ghe.acme.com/api/v3/repos/acme/web/rulesets/rule-suites\n  - GET https://api.github.com/repos/acme/web/rulesets/rule-suites\n",
    );
    let out = reqlint(dir.path(), &["check", ".", "--format", "concise"]);
    let text = stdout(&out);
    let errors: Vec<&str> = text.lines().filter(|l| l.contains("error[")).collect();
    assert_eq!(errors.len(), 1, "{text}");
    assert!(
        errors[0].starts_with("a.req.yaml:6:") && errors[0].contains("`Administration` at write"),
        "{text}"
    );

    write(
        dir.path(),
        ".reqlint.yaml",
        "codehost:\n  editions:\n    ghe.acme.com: ghes-3.71\n",
    );
    let out = reqlint(dir.path(), &["check", "."]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("not `ghes-3.71`"), "{err}");
}
