//! Workflows end to end: a workflow written into a temporary project's
//! `.github/workflows/`, and `reqlint` run on it as a user runs it, with the rule, the
//! place and the words of every finding asserted (docs/workflows.md).

use std::path::Path;
use std::process::{Command, Output};

use serde_json::{Value, json};

use crate::support::lsp_client::{Client, start_server};
use crate::support::watchdog;

const WORKFLOW: &str = ".github/workflows/w.yml";

/// A project holding `workflow` as `.github/workflows/w.yml` and `config` as its
/// `.reqlint.yaml` (an empty one when none, so that no config above the temporary
/// directory is read).
fn project(workflow: &str, config: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), WORKFLOW, workflow);
    write(dir.path(), ".reqlint.yaml", config);
    dir
}

fn write(dir: &Path, name: &str, text: &str) {
    let path = dir.join(name);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

fn reqlint(dir: &Path, args: &[&str]) -> Output {
    watchdog::output(
        Command::new(env!("CARGO_BIN_EXE_reqlint"))
            .args(args)
            .current_dir(dir)
            .env_remove("GITHUB_ACTIONS")
            .env_remove("NO_COLOR"),
        &format!("reqlint {}", args.join(" ")),
    )
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// `reqlint check --no-cache --format json EXTRA…` in `dir`: the report, never a panic.
fn check_json(dir: &Path, extra: &[&str]) -> Value {
    let mut args = vec!["check", "--no-cache", "--format", "json"];
    args.extend_from_slice(extra);
    let out = reqlint(dir, &args);
    assert!(
        matches!(out.status.code(), Some(0 | 1)),
        "{:?}\n{}\n{}",
        out.status,
        stdout(&out),
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_str(&stdout(&out)).unwrap_or_else(|e| panic!("{e}: {}", stdout(&out)))
}

/// Each finding as "rule line:column `the text its span covers` message".
fn findings(dir: &Path, report: &Value) -> Vec<String> {
    report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            let text = std::fs::read_to_string(dir.join(d["file"].as_str().unwrap())).unwrap();
            let offset = d["span"]["offset"].as_u64().unwrap() as usize;
            let length = d["span"]["length"].as_u64().unwrap() as usize;
            format!(
                "{} {}:{} `{}` {}",
                d["rule"].as_str().unwrap(),
                d["span"]["start"]["line"],
                d["span"]["start"]["column"],
                &text[offset..offset + length],
                d["message"].as_str().unwrap()
            )
        })
        .collect()
}

/// The findings of `check` on `workflow` with `config`.
fn lint(workflow: &str, config: &str) -> Vec<String> {
    let dir = project(workflow, config);
    let report = check_json(dir.path(), &[]);
    findings(dir.path(), &report)
}

fn assert_findings(actual: &[String], expected: &[&str]) {
    assert_eq!(actual, expected, "\nactual:\n{}\n", actual.join("\n"));
}

// ----------------------------------------------------------------------------------------
// 1. Which permissions a job's token has.

#[test]
fn the_jobs_block_is_read_before_the_workflows() {
    let workflow = "\
on: push
permissions:
  issues: write
jobs:
  inherits:
    runs-on: ubuntu-latest
    steps:
      - run: gh api repos/{owner}/{repo}/issues -f title=x
        env:
          GH_TOKEN: ${{ github.token }}
  own:
    runs-on: ubuntu-latest
    permissions:
      issues: read
    steps:
      - run: gh api repos/{owner}/{repo}/issues -f title=x
        env:
          GH_TOKEN: ${{ github.token }}
";
    assert_findings(
        &lint(workflow, ""),
        &[
            "job-token-missing-permission 16:21 `repos/{owner}/{repo}/issues` `POST /repos/{owner}/{repo}/issues` needs `issues: write`, and job `own`'s GITHUB_TOKEN has `issues: read` (the job's `permissions:`)",
        ],
    );
}

#[test]
fn the_workflows_block_is_named_when_it_is_the_grant() {
    let workflow = "\
on: push
permissions:
  contents: read
jobs:
  a:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - run: gh release create v1
        env:
          GH_TOKEN: ${{ github.token }}
";
    assert_findings(
        &lint(workflow, ""),
        &[
            "job-token-missing-permission 9:14 `gh release create v1` `gh release create` needs `contents: write`, and job `a`'s GITHUB_TOKEN has `contents: read` (the workflow's `permissions:`)",
        ],
    );
}

const NO_BLOCK: &str = "\
on: push
jobs:
  a:
    runs-on: ubuntu-latest
    steps:
      - run: gh api repos/{owner}/{repo}/issues -f title=x
        env:
          GH_TOKEN: ${{ github.token }}
";

#[test]
fn without_any_block_the_restricted_default_is_assumed_and_said() {
    assert_findings(
        &lint(NO_BLOCK, ""),
        &[
            "job-token-unrestricted 3:3 `a` job `a` has no `permissions:`: its GITHUB_TOKEN takes the repository's default (restricted, assumed: no `permissions:` is written)",
            "job-token-missing-permission 6:21 `repos/{owner}/{repo}/issues` `POST /repos/{owner}/{repo}/issues` needs `issues: write`, and job `a`'s GITHUB_TOKEN has `issues: none` (the repository's default (restricted, assumed: no `permissions:` is written))",
        ],
    );
}

#[test]
fn the_config_can_say_the_default_is_permissive() {
    assert_findings(
        &lint(NO_BLOCK, "codehost:\n  workflow-permissions: permissive\n"),
        &[
            "job-token-unrestricted 3:3 `a` job `a` has no `permissions:`: its GITHUB_TOKEN takes the repository's default (permissive, as the config's `codehost.workflow-permissions` says: no `permissions:` is written)",
        ],
    );
}

#[test]
fn read_all_write_all_and_the_empty_block() {
    let job = |name: &str, block: &str| {
        format!(
            "  {name}:\n    runs-on: ubuntu-latest\n    permissions: {block}\n    steps:\n      - run: gh api repos/{{owner}}/{{repo}}/issues -f title=x\n        env:\n          GH_TOKEN: ${{{{ github.token }}}}\n"
        )
    };
    let workflow = format!(
        "on: push\njobs:\n{}{}{}",
        job("reader", "read-all"),
        job("writer", "write-all"),
        job("nothing", "{}")
    );
    assert_findings(
        &lint(&workflow, ""),
        &[
            "job-token-missing-permission 7:21 `repos/{owner}/{repo}/issues` `POST /repos/{owner}/{repo}/issues` needs `issues: write`, and job `reader`'s GITHUB_TOKEN has `issues: read` (the job's `permissions:`)",
            "job-token-unrestricted 12:18 `write-all` job `writer`'s GITHUB_TOKEN has `write-all` (its own `permissions:`)",
            "job-token-missing-permission 21:21 `repos/{owner}/{repo}/issues` `POST /repos/{owner}/{repo}/issues` needs `issues: write`, and job `nothing`'s GITHUB_TOKEN has `issues: none` (the job's `permissions:`)",
        ],
    );
}

#[test]
fn an_unlisted_key_is_none_and_metadata_is_always_read() {
    let workflow = "\
on: push
jobs:
  a:
    runs-on: ubuntu-latest
    permissions:
      contents: read
    steps:
      - run: |
          gh api repos/$GITHUB_REPOSITORY/contents/README.md
          gh api repos/$GITHUB_REPOSITORY/issues/1
          gh api repos/$GITHUB_REPOSITORY/languages
        env:
          GH_TOKEN: ${{ github.token }}
";
    // `GET /repos/{owner}/{repo}/languages` needs `metadata: read`, which no block lists
    // and every token holds.
    assert_findings(
        &lint(workflow, ""),
        &[
            "job-token-missing-permission 10:18 `repos/$GITHUB_REPOSITORY/issues/1` `GET /repos/{owner}/{repo}/issues/{issue_number}` needs `issues: read`, and job `a`'s GITHUB_TOKEN has `issues: none` (the job's `permissions:`)",
        ],
    );
}

// ----------------------------------------------------------------------------------------
// 2. Each form of call.

#[test]
fn gh_api_routes_repositories_methods_and_fields() {
    let workflow = "\
on: push
env:
  GITHUB_TOKEN: ${{ secrets.GITHUB_TOKEN }}
jobs:
  a:
    runs-on: ubuntu-latest
    permissions:
      actions: read
    steps:
      - run: gh api /repos/{owner}/{repo}/labels -f name=x
      - run: gh api repos/${{ github.repository }}/issues/1/labels -F labels[]=bug
      - run: gh api --method DELETE repos/$GITHUB_REPOSITORY/labels/bug
      - run: gh api -X PATCH \"repos/$GITHUB_REPOSITORY/issues/3\" -f state=closed
      - run: gh api repos/{owner}/{repo}/pulls --input body.json
      - run: gh api repos/{owner}/{repo}/actions/runs
";
    assert_findings(
        &lint(workflow, ""),
        &[
            "job-token-missing-permission 10:21 `/repos/{owner}/{repo}/labels` `POST /repos/{owner}/{repo}/labels` needs `issues: write` or `pull-requests: write`, and job `a`'s GITHUB_TOKEN has `issues: none` and `pull-requests: none` (the job's `permissions:`)",
            "job-token-missing-permission 11:21 `repos/${{ github.repository }}/issues/1/labels` `POST /repos/{owner}/{repo}/issues/{issue_number}/labels` needs `issues: write` or `pull-requests: write`, and job `a`'s GITHUB_TOKEN has `issues: none` and `pull-requests: none` (the job's `permissions:`)",
            "job-token-missing-permission 12:37 `repos/$GITHUB_REPOSITORY/labels/bug` `DELETE /repos/{owner}/{repo}/labels/{name}` needs `issues: write` or `pull-requests: write`, and job `a`'s GITHUB_TOKEN has `issues: none` and `pull-requests: none` (the job's `permissions:`)",
            "job-token-missing-permission 13:31 `repos/$GITHUB_REPOSITORY/issues/3` `PATCH /repos/{owner}/{repo}/issues/{issue_number}` needs `issues: write` or `pull-requests: write`, and job `a`'s GITHUB_TOKEN has `issues: none` and `pull-requests: none` (the job's `permissions:`)",
            "job-token-missing-permission 14:21 `repos/{owner}/{repo}/pulls` `POST /repos/{owner}/{repo}/pulls` needs `pull-requests: write`, and job `a`'s GITHUB_TOKEN has `pull-requests: none` (the job's `permissions:`)",
        ],
    );
}

#[test]
fn block_scalars_put_the_span_on_the_route() {
    let workflow = "\
on: push
jobs:
  a:
    runs-on: ubuntu-latest
    permissions: {}
    steps:
      - run: |
          echo start
          gh api repos/{owner}/{repo}/statuses/$GITHUB_SHA \\
            -f state=success -f context=ci
        env:
          GH_TOKEN: ${{ github.token }}
      - run: >
          gh api repos/{owner}/{repo}/deployments
          -f ref=main
        env:
          GH_TOKEN: ${{ github.token }}
";
    assert_findings(
        &lint(workflow, ""),
        &[
            "job-token-missing-permission 9:18 `repos/{owner}/{repo}/statuses/$GITHUB_SHA` `POST /repos/{owner}/{repo}/statuses/{sha}` needs `statuses: write`, and job `a`'s GITHUB_TOKEN has `statuses: none` (the job's `permissions:`)",
            "job-token-missing-permission 14:18 `repos/{owner}/{repo}/deployments` `POST /repos/{owner}/{repo}/deployments` needs `deployments: write`, and job `a`'s GITHUB_TOKEN has `deployments: none` (the job's `permissions:`)",
        ],
    );
}

#[test]
fn curl_wget_httpie_and_where_the_token_comes_from() {
    let workflow = "\
on: push
jobs:
  a:
    runs-on: ubuntu-latest
    permissions:
      actions: read
    env:
      GH_TOKEN: ${{ github.token }}
    steps:
      - run: >-
          curl -sS -H \"Authorization: Bearer ${{ secrets.GITHUB_TOKEN }}\" -X POST https://api.github.com/repos/${{ github.repository }}/dispatches -d '{\"event_type\":\"x\"}'
      - run: 'wget --header=\"Authorization: token ${{ github.token }}\" https://api.github.com/repos/octo/web/releases/latest'
      - run: |
          http POST https://api.github.com/repos/octo/web/issues \"Authorization:Bearer $GITHUB_TOKEN\" title=x
        env:
          GITHUB_TOKEN: ${{ github.token }}
      - run: GH_TOKEN=${{ github.token }} gh api repos/{owner}/{repo}/pulls/1/reviews -f event=APPROVE
      - run: |
          export GH_TOKEN=\"${{ secrets.GITHUB_TOKEN }}\"
          gh api repos/{owner}/{repo}/git/refs -f ref=refs/tags/v1 -f sha=$GITHUB_SHA
      - run: gh api repos/{owner}/{repo}/actions/runs
";
    assert_findings(
        &lint(workflow, ""),
        &[
            "job-token-missing-permission 11:83 `https://api.github.com/repos/${{ github.repository }}/dispatches` `POST /repos/{owner}/{repo}/dispatches` needs `contents: write`, and job `a`'s GITHUB_TOKEN has `contents: none` (the job's `permissions:`)",
            "job-token-missing-permission 12:72 `https://api.github.com/repos/octo/web/releases/latest` `GET /repos/{owner}/{repo}/releases/latest` needs `contents: read`, and job `a`'s GITHUB_TOKEN has `contents: none` (the job's `permissions:`)",
            "job-token-missing-permission 14:21 `https://api.github.com/repos/octo/web/issues` `POST /repos/{owner}/{repo}/issues` needs `issues: write`, and job `a`'s GITHUB_TOKEN has `issues: none` (the job's `permissions:`)",
            "job-token-missing-permission 17:50 `repos/{owner}/{repo}/pulls/1/reviews` `POST /repos/{owner}/{repo}/pulls/{pull_number}/reviews` needs `pull-requests: write`, and job `a`'s GITHUB_TOKEN has `pull-requests: none` (the job's `permissions:`)",
            "job-token-missing-permission 20:18 `repos/{owner}/{repo}/git/refs` `POST /repos/{owner}/{repo}/git/refs` needs `contents: write`, and job `a`'s GITHUB_TOKEN has `contents: none` (the job's `permissions:`)",
        ],
    );
}

#[test]
fn a_call_without_the_jobs_token_is_not_judged_against_the_job() {
    // No token at all, and a token from the step that overrides the job's.
    let workflow = "\
on: push
jobs:
  a:
    runs-on: ubuntu-latest
    permissions: {}
    env:
      GH_TOKEN: ${{ github.token }}
    steps:
      - run: curl -X POST https://api.github.com/repos/octo/web/issues -d '{\"title\":\"x\"}'
      - run: gh api repos/{owner}/{repo}/issues -f title=x
        env:
          GH_TOKEN: ${{ secrets.RELEASE_PAT }}
";
    assert_findings(&lint(workflow, ""), &[]);
}

#[test]
fn github_script_methods_and_requests() {
    let workflow = "\
on: push
jobs:
  a:
    runs-on: ubuntu-latest
    permissions:
      contents: read
    steps:
      - uses: actions/github-script@v7
        with:
          script: |
            await github.rest.issues.createComment({...context.repo, issue_number: 1, body: 'hi'})
            await github.request('POST /repos/{owner}/{repo}/releases', {...context.repo, tag_name: 'v1'})
            await github.rest.repos.getContent({...context.repo, path: 'README.md'})
";
    assert_findings(
        &lint(workflow, ""),
        &[
            "job-token-missing-permission 11:31 `issues.createComment` `POST /repos/{owner}/{repo}/issues/{issue_number}/comments` needs `issues: write` or `pull-requests: write`, and job `a`'s GITHUB_TOKEN has `issues: none` and `pull-requests: none` (the job's `permissions:`)",
            "job-token-missing-permission 12:35 `POST /repos/{owner}/{repo}/releases` `POST /repos/{owner}/{repo}/releases` needs `contents: write`, and job `a`'s GITHUB_TOKEN has `contents: read` (the job's `permissions:`)",
        ],
    );
}

#[test]
fn gh_subcommands_by_their_table() {
    let step = |command: &str| {
        format!(
            "      - run: {command}\n        env:\n          GH_TOKEN: ${{{{ github.token }}}}\n"
        )
    };
    let workflow = format!(
        "on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    permissions:\n      contents: read\n    steps:\n{}{}{}{}{}",
        step("gh pr create --fill"),
        step("gh issue comment 1 --body hi"),
        step("gh release create v1 dist/*"),
        step("gh run rerun 123 --failed"),
        step("gh workflow run ci.yml"),
    );
    assert_findings(
        &lint(&workflow, ""),
        &[
            "job-token-missing-permission 8:14 `gh pr create --fill` `gh pr create` needs `pull-requests: write`, and job `a`'s GITHUB_TOKEN has `pull-requests: none` (the job's `permissions:`)",
            "job-token-missing-permission 11:14 `gh issue comment 1 --body hi` `gh issue comment` needs `issues: write` or `pull-requests: write`, and job `a`'s GITHUB_TOKEN has `issues: none` and `pull-requests: none` (the job's `permissions:`)",
            "job-token-missing-permission 14:14 `gh release create v1 dist/*` `gh release create` needs `contents: write`, and job `a`'s GITHUB_TOKEN has `contents: read` (the job's `permissions:`)",
            "job-token-missing-permission 17:14 `gh run rerun 123 --failed` `gh run rerun` needs `actions: write`, and job `a`'s GITHUB_TOKEN has `actions: none` (the job's `permissions:`)",
            "job-token-missing-permission 20:14 `gh workflow run ci.yml` `gh workflow run` needs `actions: write`, and job `a`'s GITHUB_TOKEN has `actions: none` (the job's `permissions:`)",
        ],
    );
}

#[test]
fn first_party_actions_by_their_documentation() {
    let workflow = "\
on: push
jobs:
  a:
    runs-on: ubuntu-latest
    permissions:
      contents: read
    steps:
      - uses: actions/checkout@v4
      - uses: actions/deploy-pages@v4
      - uses: github/codeql-action/upload-sarif@v3
        with:
          sarif_file: r.sarif
      - uses: actions/attest-build-provenance@v1
        with:
          subject-path: dist/x
";
    assert_findings(
        &lint(workflow, ""),
        &[
            "job-token-missing-permission 9:15 `actions/deploy-pages@v4` `actions/deploy-pages` needs `pages: write`, and job `a`'s GITHUB_TOKEN has `pages: none` (the job's `permissions:`)",
            "job-token-missing-permission 9:15 `actions/deploy-pages@v4` `actions/deploy-pages` needs `id-token: write`, and job `a`'s GITHUB_TOKEN has `id-token: none` (the job's `permissions:`)",
            "job-token-missing-permission 10:15 `github/codeql-action/upload-sarif@v3` `github/codeql-action/upload-sarif` needs `security-events: write`, and job `a`'s GITHUB_TOKEN has `security-events: none` (the job's `permissions:`)",
            "job-token-missing-permission 13:15 `actions/attest-build-provenance@v1` `actions/attest-build-provenance` needs `id-token: write`, and job `a`'s GITHUB_TOKEN has `id-token: none` (the job's `permissions:`)",
            "job-token-missing-permission 13:15 `actions/attest-build-provenance@v1` `actions/attest-build-provenance` needs `attestations: write`, and job `a`'s GITHUB_TOKEN has `attestations: none` (the job's `permissions:`)",
        ],
    );
}

#[test]
fn git_push_after_checkout_unless_credentials_are_not_kept() {
    let job = |name: &str, with: &str| {
        format!(
            "  {name}:\n    runs-on: ubuntu-latest\n    permissions:\n      contents: read\n    steps:\n      - uses: actions/checkout@v4\n{with}      - run: git push origin HEAD:main\n"
        )
    };
    let workflow = format!(
        "on: push\njobs:\n{}{}",
        job("kept", ""),
        job(
            "dropped",
            "        with:\n          persist-credentials: false\n"
        )
    );
    assert_findings(
        &lint(&workflow, ""),
        &[
            "job-token-missing-permission 9:14 `git push origin HEAD:main` `git push` needs `contents: write`, and job `kept`'s GITHUB_TOKEN has `contents: read` (the job's `permissions:`)",
        ],
    );
}

// ----------------------------------------------------------------------------------------
// 3. Another token.

const PAT_WORKFLOW: &str = "\
on: push
jobs:
  a:
    runs-on: ubuntu-latest
    permissions:
      contents: read
    steps:
      - uses: actions/checkout@v4
      - run: gh api repos/{owner}/{repo}/issues -X POST -f title=x
        env:
          GH_TOKEN: ${{ secrets.SOME_PAT }}
";

#[test]
fn a_call_with_another_secret_is_not_judged_against_the_job() {
    assert_findings(&lint(PAT_WORKFLOW, ""), &[]);
}

#[test]
fn a_secret_the_config_names_is_judged_against_its_token() {
    let config = "tokens:\n  release-bot:\n    variables: [SOME_PAT]\n    permissions:\n      repository:\n        issues: read\n";
    assert_findings(
        &lint(PAT_WORKFLOW, config),
        &[
            "token-missing-permission 9:21 `repos/{owner}/{repo}/issues` `POST /repos/{owner}/{repo}/issues` needs the repository permission `Issues` at write; token `release-bot` has only read",
        ],
    );
}

// ----------------------------------------------------------------------------------------
// 4. What cannot be told is not claimed.

const CANNOT_TELL: &str = "\
on: push
jobs:
  third-party:
    runs-on: ubuntu-latest
    permissions:
      contents: write
      issues: write
    steps:
      - uses: peter-evans/create-pull-request@v6
      - run: gh api repos/{owner}/{repo}/issues -f title=x
        env:
          GH_TOKEN: ${{ github.token }}
  npm:
    runs-on: ubuntu-latest
    permissions:
      contents: write
    steps:
      - run: npm publish
        env:
          NODE_AUTH_TOKEN: ${{ secrets.GITHUB_TOKEN }}
  graphql:
    runs-on: ubuntu-latest
    permissions:
      contents: write
    steps:
      - run: gh api graphql -f query='query { viewer { login } }'
        env:
          GH_TOKEN: ${{ github.token }}
  pwsh:
    runs-on: ubuntu-latest
    permissions:
      contents: write
    steps:
      - shell: pwsh
        run: Invoke-RestMethod -Headers @{Authorization=\"Bearer $env:GITHUB_TOKEN\"} https://api.github.com/repos/o/r
        env:
          GITHUB_TOKEN: ${{ github.token }}
";

#[test]
fn a_step_that_cannot_be_told_makes_nothing_unused() {
    assert_findings(&lint(CANNOT_TELL, ""), &[]);
}

#[test]
fn scopes_lists_what_it_cannot_tell() {
    let dir = project(CANNOT_TELL, "");
    let out = reqlint(dir.path(), &["scopes", ".github/workflows"]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    let text = stdout(&out);
    for (job, line, what) in [
        (
            "third-party",
            "#   .github/workflows/w.yml:9:15  the action `peter-evans/create-pull-request` gets the job's token, and reqlint's table of actions does not say what it needs",
            "issues: write",
        ),
        (
            "npm",
            "#   .github/workflows/w.yml:18:14  `npm` runs with the job's token in its environment: what it calls is not known",
            "{}",
        ),
        (
            "graphql",
            "#   .github/workflows/w.yml:26:14  a GraphQL call: reqlint does not know what GraphQL operations need",
            "{}",
        ),
        (
            "pwsh",
            "#   .github/workflows/w.yml:35:14  a `pwsh` script: reqlint reads bash scripts only",
            "{}",
        ),
    ] {
        let section = text
            .split("\n\n")
            .find(|s| s.contains(&format!("job {job} (")))
            .unwrap_or_else(|| panic!("no section for {job}:\n{text}"));
        assert!(
            section.contains("# NOT told (the block may need more):\n") && section.contains(line),
            "{job}:\n{section}"
        );
        assert!(section.contains(what), "{job}:\n{section}");
    }
}

// ----------------------------------------------------------------------------------------
// 5. Fixes.

const TO_FIX: &str = "\
on: push
jobs:
  block:
    runs-on: ubuntu-latest
    permissions:
      contents: read
    steps:
      - uses: actions/checkout@v4
      - run: gh api repos/{owner}/{repo}/issues -f title=x
        env:
          GH_TOKEN: ${{ github.token }}
  flow:
    runs-on: ubuntu-latest
    permissions: {contents: read}
    steps:
      - uses: actions/checkout@v4
      - run: gh api repos/{owner}/{repo}/issues -f title=x
        env:
          GH_TOKEN: ${{ github.token }}
  unused:
    runs-on: ubuntu-latest
    permissions:
      contents: read
      issues: write
      pull-requests: write
    steps:
      - run: gh api repos/{owner}/{repo}/issues/1
        env:
          GH_TOKEN: ${{ github.token }}
  empties:
    runs-on: ubuntu-latest
    permissions:
      issues: write
    steps:
      - run: echo hi
  none:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - run: gh release create v1
        env:
          GH_TOKEN: ${{ github.token }}
  all:
    runs-on: ubuntu-latest
    permissions: write-all
    steps:
      - run: gh pr create --fill
        env:
          GH_TOKEN: ${{ github.token }}
";

const JOB_RULES: &str = "job-token-missing-permission,job-token-unused-permission,job-token-unrestricted,job-permissions-invalid";

fn fixed(dir: &Path, extra: &[&str]) -> String {
    let mut args = vec!["check", "--no-cache", "--fix", "--select", JOB_RULES];
    args.extend_from_slice(extra);
    let out = reqlint(dir, &args);
    assert!(matches!(out.status.code(), Some(0 | 1)), "{}", stdout(&out));
    std::fs::read_to_string(dir.join(WORKFLOW)).unwrap()
}

#[test]
fn fix_adds_the_missing_permission_to_block_and_flow_mappings() {
    let dir = project(TO_FIX, "");
    let text = fixed(dir.path(), &[]);
    let expected = TO_FIX
        .replace(
            "    permissions:\n      contents: read\n    steps:\n      - uses: actions/checkout@v4\n      - run: gh api repos/{owner}/{repo}/issues -f title=x",
            "    permissions:\n      contents: read\n      issues: write\n    steps:\n      - uses: actions/checkout@v4\n      - run: gh api repos/{owner}/{repo}/issues -f title=x",
        )
        .replace(
            "permissions: {contents: read}",
            "permissions: {contents: read, issues: write}",
        );
    assert_eq!(text, expected);
}

#[test]
fn unsafe_fixes_write_least_privilege_and_the_result_is_clean() {
    let dir = project(TO_FIX, "");
    let text = fixed(dir.path(), &["--unsafe-fixes"]);
    let expected = "\
on: push
jobs:
  block:
    runs-on: ubuntu-latest
    permissions:
      contents: read
      issues: write
    steps:
      - uses: actions/checkout@v4
      - run: gh api repos/{owner}/{repo}/issues -f title=x
        env:
          GH_TOKEN: ${{ github.token }}
  flow:
    runs-on: ubuntu-latest
    permissions: {contents: read, issues: write}
    steps:
      - uses: actions/checkout@v4
      - run: gh api repos/{owner}/{repo}/issues -f title=x
        env:
          GH_TOKEN: ${{ github.token }}
  unused:
    runs-on: ubuntu-latest
    permissions:
      issues: read
    steps:
      - run: gh api repos/{owner}/{repo}/issues/1
        env:
          GH_TOKEN: ${{ github.token }}
  empties:
    runs-on: ubuntu-latest
    permissions: {}
    steps:
      - run: echo hi
  none:
    permissions:
      contents: write
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - run: gh release create v1
        env:
          GH_TOKEN: ${{ github.token }}
  all:
    runs-on: ubuntu-latest
    permissions:
      pull-requests: write
    steps:
      - run: gh pr create --fill
        env:
          GH_TOKEN: ${{ github.token }}
";
    assert_eq!(text, expected);
    let report = check_json(dir.path(), &[]);
    assert_findings(&findings(dir.path(), &report), &[]);
}

// ----------------------------------------------------------------------------------------
// 6. `reqlint scopes` for a workflow of two jobs.

const TWO_JOBS: &str = "\
on: push
jobs:
  triage:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/github-script@v7
        with:
          script: |
            await github.rest.issues.addLabels({...context.repo, issue_number: 1, labels: ['bug']})
  release:
    runs-on: ubuntu-latest
    permissions: write-all
    steps:
      - uses: actions/checkout@v4
      - run: gh release create v1
        env:
          GH_TOKEN: ${{ github.token }}
";

#[test]
fn scopes_prints_each_jobs_block_in_yaml_and_json() {
    let dir = project(TWO_JOBS, "");
    let out = reqlint(dir.path(), &["scopes", ".github/workflows"]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    assert_eq!(
        stdout(&out),
        "\
# workflow .github/workflows/w.yml, job triage (line 3): paste into the job
permissions:
  issues: write
# covering each call:
#   .github/workflows/w.yml:9:31  `POST /repos/{owner}/{repo}/issues/{issue_number}/labels`  `issues: write` or `pull-requests: write`

# workflow .github/workflows/w.yml, job release (line 10): paste into the job
permissions:
  contents: write
# covering each call:
#   .github/workflows/w.yml:14:15  `actions/checkout`  `contents: read`
#   .github/workflows/w.yml:15:14  `gh release create`  `contents: write`

"
    );
    let out = reqlint(
        dir.path(),
        &["scopes", ".github/workflows", "--format", "json"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    let report: Value = serde_json::from_str(&stdout(&out)).unwrap();
    let jobs: Vec<(Value, Value, Value)> = report["jobs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|j| {
            (
                j["job"].clone(),
                j["line"].clone(),
                j["permissions"].clone(),
            )
        })
        .collect();
    assert_eq!(
        jobs,
        vec![
            (json!("triage"), json!(3), json!({"issues": "write"})),
            (json!("release"), json!(10), json!({"contents": "write"})),
        ]
    );
    assert_eq!(report["jobs"][0]["not_told"], json!([]));
}

// ----------------------------------------------------------------------------------------
// 7. SARIF and GitHub annotations point into the workflow.

const ONE_CALL: &str = "\
on: push
jobs:
  a:
    runs-on: ubuntu-latest
    permissions:
      contents: read
    steps:
      - uses: actions/checkout@v4
      - run: |
          gh api repos/{owner}/{repo}/issues -f title=x
        env:
          GH_TOKEN: ${{ github.token }}
";

#[test]
fn sarif_and_annotations_point_at_the_call() {
    let dir = project(ONE_CALL, "");
    let out = reqlint(dir.path(), &["check", "--no-cache", "--format", "sarif"]);
    assert_eq!(out.status.code(), Some(1));
    let sarif: Value = serde_json::from_str(&stdout(&out)).unwrap();
    let results = sarif["runs"][0]["results"].as_array().unwrap();
    assert_eq!(results.len(), 1, "{results:?}");
    assert_eq!(results[0]["ruleId"], "job-token-missing-permission");
    let location = &results[0]["locations"][0]["physicalLocation"];
    assert_eq!(location["artifactLocation"]["uri"], WORKFLOW);
    assert_eq!(
        location["region"],
        json!({"startLine": 10, "startColumn": 18, "endLine": 10, "endColumn": 45, "byteOffset": 162, "byteLength": 27})
    );
    assert_eq!(&ONE_CALL[162..189], "repos/{owner}/{repo}/issues");

    let out = reqlint(dir.path(), &["check", "--no-cache", "--format", "github"]);
    assert_eq!(out.status.code(), Some(1));
    let text = stdout(&out);
    assert!(
        text.starts_with("::error file=.github/workflows/w.yml,line=10,endLine=10,col=18,endColumn=45,title=reqlint job-token-missing-permission::`POST /repos/{owner}/{repo}/issues` needs `issues: write`"),
        "{text}"
    );
}

// ----------------------------------------------------------------------------------------
// 8. The language server.

#[test]
fn the_server_lints_a_workflow_and_hovers_on_its_calls_and_steps() {
    let dir = project("", "");
    let path = dir.path().join(WORKFLOW);
    let uri = format!("file://{}", path.display());
    let (mut child, mut c): (_, Client) = start_server(Some(dir.path()));
    c.initialize(
        json!({"capabilities": {}, "rootUri": format!("file://{}", dir.path().display())}),
    );
    let diagnostics = c.open(&uri, "yaml", ONE_CALL);
    let codes: Vec<(&Value, &Value)> = diagnostics
        .iter()
        .map(|d| (&d["code"], &d["range"]["start"]))
        .collect();
    assert_eq!(
        codes,
        vec![(
            &json!("job-token-missing-permission"),
            &json!({"line": 9, "character": 17})
        )],
        "{diagnostics:?}"
    );
    let hover = |c: &mut Client, id: u64, line: u64, character: u64| -> String {
        c.send(json!({"jsonrpc": "2.0", "id": id, "method": "textDocument/hover", "params": {"textDocument": {"uri": uri}, "position": {"line": line, "character": character}}}));
        let reply = c.response_to(&json!(id));
        reply["result"]["contents"]["value"]
            .as_str()
            .unwrap_or_else(|| panic!("no hover: {reply}"))
            .to_string()
    };
    // On the route of the call.
    let on_call = hover(&mut c, 1, 9, 25);
    assert!(
        on_call.contains("POST /repos/{owner}/{repo}/issues") && on_call.contains("issues: write"),
        "{on_call}"
    );
    // On `uses: actions/checkout@v4`.
    let on_checkout = hover(&mut c, 2, 7, 20);
    assert!(
        on_checkout.contains("actions/checkout") && on_checkout.contains("contents: read"),
        "{on_checkout}"
    );
    c.send(json!({"jsonrpc": "2.0", "id": 9, "method": "shutdown"}));
    let _ = c.response_to(&json!(9));
    c.send(json!({"jsonrpc": "2.0", "method": "exit"}));
    assert_eq!(child.wait().unwrap().code(), Some(0));
}

// ----------------------------------------------------------------------------------------
// Bugs the end-to-end runs found.

/// The scorecard and trusted-publishing templates check out with neither `contents` nor
/// anything but `security-events` or `id-token` granted: reading a public repository needs no permission, so
/// checkout's `contents: read` is never reported missing, but it stays in the block
/// reqlint writes (the repository may be private).
#[test]
fn checkout_without_contents_is_not_an_error() {
    let workflow = "\
on: push
permissions: read-all
jobs:
  analysis:
    runs-on: ubuntu-latest
    permissions:
      security-events: write
    steps:
      - uses: actions/checkout@v4
        with:
          persist-credentials: false
      - uses: github/codeql-action/upload-sarif@v3
        with:
          sarif_file: results.sarif
  fetch:
    runs-on: ubuntu-latest
    permissions: {}
    steps:
      - uses: actions/checkout@v4
      - run: git fetch --tags
      - run: git push origin v1
";
    let dir = project(workflow, "");
    let report = check_json(dir.path(), &[]);
    assert_findings(
        &findings(dir.path(), &report),
        &[
            "job-token-missing-permission 21:14 `git push origin v1` `git push` needs `contents: write`, and job `fetch`'s GITHUB_TOKEN has `contents: none` (the job's `permissions:`)",
        ],
    );
    let out = reqlint(
        dir.path(),
        &["scopes", ".github/workflows", "--format", "json"],
    );
    let report: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(
        report["jobs"][0]["permissions"],
        json!({"actions": "read", "contents": "read", "security-events": "write"})
    );
    assert_eq!(
        report["jobs"][1]["permissions"],
        json!({"contents": "write"})
    );
}

/// A quote left open runs the word on over the next lines: bash stops at such a script,
/// and its "route" is no endpoint reqlint should call unknown.
#[test]
fn a_quote_left_open_is_not_an_unknown_endpoint() {
    let workflow = "\
on: push
jobs:
  a:
    runs-on: ubuntu-latest
    permissions:
      issues: write
    steps:
      - run: |
          gh api \"repos/{owner}/{repo}/issues -f title=x
          echo done\"
        env:
          GH_TOKEN: ${{ github.token }}
";
    let dir = project(workflow, "");
    let report = check_json(dir.path(), &[]);
    assert_findings(&findings(dir.path(), &report), &[]);
    let out = reqlint(dir.path(), &["scopes", ".github/workflows"]);
    let text = stdout(&out);
    assert!(
        text.contains("#   .github/workflows/w.yml:9:11  a URL with white space in it (a quote left open?): not a route reqlint can read\n"),
        "{text}"
    );
    // Every line of the printed block is YAML or a comment: it can be pasted.
    for line in text.lines().filter(|l| !l.is_empty()) {
        assert!(
            line.starts_with('#') || line.starts_with("permissions") || line.starts_with("  "),
            "{line:?} in\n{text}"
        );
    }
}

/// Secret names are not case-sensitive: `secrets.github_token` is the job's token.
#[test]
fn the_jobs_token_by_any_case() {
    let workflow = "\
on: push
jobs:
  a:
    runs-on: ubuntu-latest
    permissions: {}
    steps:
      - run: gh api repos/{owner}/{repo}/issues -f title=x
        env:
          GH_TOKEN: ${{ secrets.github_token }}
";
    assert_findings(
        &lint(workflow, ""),
        &[
            "job-token-missing-permission 7:21 `repos/{owner}/{repo}/issues` `POST /repos/{owner}/{repo}/issues` needs `issues: write`, and job `a`'s GITHUB_TOKEN has `issues: none` (the job's `permissions:`)",
        ],
    );
}

// ----------------------------------------------------------------------------------------
// 9. Hostile input: no panic, and work that grows with the input, not faster.

/// A job of `steps` steps, each one call the job's `{}` block does not cover.
fn many_steps(steps: usize) -> String {
    let mut text = String::from(
        "on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    permissions: {}\n    env:\n      GH_TOKEN: ${{ github.token }}\n    steps:\n",
    );
    for i in 0..steps {
        text.push_str(&format!(
            "      - run: gh api repos/{{owner}}/{{repo}}/issues/{i}\n"
        ));
    }
    text
}

fn diagnostics_of(report: &Value) -> &Vec<Value> {
    report["diagnostics"].as_array().unwrap()
}

#[test]
fn five_thousand_steps_are_judged_each_once() {
    let mut counts = Vec::new();
    for steps in [500, 5_000] {
        let dir = project(&many_steps(steps), "");
        let report = check_json(dir.path(), &[]);
        let diagnostics = diagnostics_of(&report);
        assert!(
            diagnostics
                .iter()
                .all(|d| d["rule"] == "job-token-missing-permission"),
            "{diagnostics:?}"
        );
        assert_eq!(report["summary"]["requests"], steps);
        counts.push(diagnostics.len());
        let out = reqlint(dir.path(), &["scopes", ".github/workflows"]);
        assert_eq!(out.status.code(), Some(0));
        // One line per call under the block.
        assert_eq!(
            stdout(&out)
                .lines()
                .filter(|l| l.starts_with("#   "))
                .count(),
            steps
        );
    }
    assert_eq!(counts, [500, 5_000]);
}

#[test]
fn deep_nesting_is_reported_not_followed() {
    let depth = 5_000;
    let workflow = format!(
        "on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: x/y@v1\n        with:\n          a: {}1{}\n",
        "{a: ".repeat(depth),
        "}".repeat(depth)
    );
    let dir = project(&workflow, "");
    let report = check_json(dir.path(), &[]);
    let rules: Vec<&Value> = diagnostics_of(&report).iter().map(|d| &d["rule"]).collect();
    assert_eq!(rules, [&json!("limit-exceeded")], "{report}");
}

#[test]
fn a_megabyte_script_is_read_to_its_last_call() {
    let mut workflow = String::from(
        "on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    permissions: {}\n    steps:\n      - run: |\n",
    );
    let filler = "          echo 'a line of the script that does nothing at all, again'\n";
    let lines = 1024 * 1024 / filler.len() + 1;
    for _ in 0..lines {
        workflow.push_str(filler);
    }
    workflow.push_str(
        "          gh api repos/{owner}/{repo}/issues -f title=x\n        env:\n          GH_TOKEN: ${{ github.token }}\n",
    );
    assert!(workflow.len() > 1024 * 1024);
    let dir = project(&workflow, "");
    let (out, peak_kib) = watchdog::output_with_peak(
        Command::new(env!("CARGO_BIN_EXE_reqlint"))
            .args(["check", "--no-cache", "--format", "json"])
            .current_dir(dir.path()),
        "a megabyte script",
    );
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let found = findings(dir.path(), &report);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(
        found[0].starts_with(&format!(
            "job-token-missing-permission {}:18 `repos/{{owner}}/{{repo}}/issues`",
            lines + 8
        )),
        "{found:?}"
    );
    // The script is held a bounded number of times, not once per line.
    assert!(peak_kib < 400 * 1024, "peak {peak_kib} KiB");
}

#[test]
fn quotes_left_open_end_in_findings_not_panics() {
    let cases = [
        // Not YAML at all.
        "on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: \"gh api repos\n",
        // YAML, with a shell quote, a JavaScript string and a template left open.
        "on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    permissions: {}\n    steps:\n      - run: |\n          gh api \"repos/{owner}/{repo}/issues\n          curl -H 'Authorization: Bearer ${{ github.token }} https://api.github.com/\n        env:\n          GH_TOKEN: ${{ github.token }}\n      - uses: actions/github-script@v7\n        with:\n          script: |\n            await github.request(`GET /repos/{owner}/{repo}\n            github.rest.issues.get({owner: \"a\n",
    ];
    for workflow in cases {
        let dir = project(workflow, "");
        let report = check_json(dir.path(), &[]);
        for d in diagnostics_of(&report) {
            assert_ne!(d["rule"], "internal-error", "{d}");
            assert_ne!(d["rule"], "unknown-endpoint", "{d}");
        }
        let out = reqlint(dir.path(), &["scopes", ".github/workflows"]);
        assert_ne!(out.status.code(), Some(101), "{}", stdout(&out));
    }
}

// ----------------------------------------------------------------------------------------
// 10. Quiet on valid workflows whose blocks are right.

const VALID: &[(&str, &str)] = &[
    (
        "ci.yml",
        r#"name: CI
on:
  push:
    branches: [main]
  pull_request:
permissions:
  contents: read
jobs:
  test:
    name: test (${{ matrix.os }}, ${{ matrix.rust }})
    runs-on: ${{ matrix.os }}
    strategy:
      fail-fast: false
      matrix:
        os: [ubuntu-latest, macos-latest, windows-latest]
        rust: [stable, beta]
    steps:
      - uses: actions/checkout@v4
        with:
          persist-credentials: false
      - run: rustup toolchain install ${{ matrix.rust }} --profile minimal
      - run: cargo test --locked --all-features
"#,
    ),
    (
        "release.yml",
        r#"name: Release
on:
  push:
    tags: ['v*']
jobs:
  release:
    runs-on: ubuntu-latest
    permissions:
      contents: write
    steps:
      - uses: actions/checkout@v4
      - name: Create the release
        run: gh release create "$GITHUB_REF_NAME" --generate-notes --verify-tag
        env:
          GH_TOKEN: ${{ github.token }}
      - name: Attach the changelog entry
        run: |
          gh api "repos/$GITHUB_REPOSITORY/releases/tags/$GITHUB_REF_NAME" --jq .id > id.txt
          gh api -X PATCH "repos/$GITHUB_REPOSITORY/releases/$(cat id.txt)" -f body="$(cat NOTES.md)"
        env:
          GH_TOKEN: ${{ github.token }}
"#,
    ),
    (
        "labeler.yml",
        r#"name: Triage new issues
on:
  issues:
    types: [opened]
permissions:
  issues: write
jobs:
  triage:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/github-script@v7
        with:
          script: |
            const labels = context.payload.issue.title.includes('crash') ? ['bug', 'crash'] : ['triage'];
            await github.rest.issues.addLabels({
              ...context.repo,
              issue_number: context.issue.number,
              labels,
            });
            await github.rest.issues.createComment({
              ...context.repo,
              issue_number: context.issue.number,
              body: 'Thanks! A maintainer will look at it soon.',
            });
"#,
    ),
    (
        "pages.yml",
        r#"name: Deploy the site
on:
  push:
    branches: [main]
  workflow_dispatch:
permissions:
  contents: read
  pages: write
  id-token: write
concurrency:
  group: pages
  cancel-in-progress: false
jobs:
  build:
    runs-on: ubuntu-latest
    permissions:
      contents: read
    steps:
      - uses: actions/checkout@v4
        with:
          persist-credentials: false
      - run: mkdir -p _site && cp -r docs/* _site/
      - uses: actions/upload-pages-artifact@v3
  deploy:
    needs: build
    runs-on: ubuntu-latest
    permissions:
      pages: write
      id-token: write
    environment:
      name: github-pages
      url: ${{ steps.deployment.outputs.page_url }}
    steps:
      - id: deployment
        uses: actions/deploy-pages@v4
"#,
    ),
    (
        "automerge.yml",
        r#"name: Dependabot auto-merge
on: pull_request
permissions:
  contents: write
  pull-requests: write
jobs:
  automerge:
    runs-on: ubuntu-latest
    if: github.event.pull_request.user.login == 'dependabot[bot]'
    steps:
      - name: Approve and enable auto-merge
        run: |
          gh pr review --approve "$PR_URL"
          gh pr merge --auto --squash "$PR_URL"
        env:
          PR_URL: ${{ github.event.pull_request.html_url }}
          GH_TOKEN: ${{ secrets.GITHUB_TOKEN }}
"#,
    ),
    (
        "codeql.yml",
        r#"name: Code scanning
on:
  push:
    branches: [main]
  schedule:
    - cron: '17 4 * * 1'
jobs:
  scan:
    runs-on: ubuntu-latest
    permissions:
      security-events: write
      contents: read
      actions: read
    steps:
      - uses: actions/checkout@v4
        with:
          persist-credentials: false
      - run: ./scripts/lint-sarif.sh > results.sarif
      - uses: github/codeql-action/upload-sarif@v3
        with:
          sarif_file: results.sarif
          category: lint
"#,
    ),
];

#[test]
fn realistic_valid_workflows_have_no_finding() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), ".reqlint.yaml", "");
    for (name, text) in VALID {
        write(dir.path(), &format!(".github/workflows/{name}"), text);
    }
    let report = check_json(dir.path(), &[]);
    assert_findings(&findings(dir.path(), &report), &[]);
    assert_eq!(report["summary"]["files"], VALID.len());
    // The calls were read, not passed over: the labeler's two and the release's GET (its
    // PATCH names the release by a command's output, which reqlint cannot tell).
    assert_eq!(report["summary"]["requests"], 2 + 1);
}

/// A script's string is a string whatever it holds, and a chain of names is a value not
/// known: neither is judged as a number or as the text of its names.
#[test]
fn script_strings_stay_strings_and_names_are_not_values() {
    let workflow = "\
on: push
permissions:
  issues: write
jobs:
  a:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/github-script@v7
        with:
          script: |
            const config = { perPage: 50, state: 'open' };
            await github.rest.issues.listForRepo({ ...context.repo, per_page: config.perPage, state: config.state });
            await github.rest.reactions.createForIssue({ ...context.repo, issue_number: 1, content: '+1' });
            await github.rest.issues.update({ ...context.repo, issue_number: 1, title: \"1.0\" });
            await github.rest.issues.createLabel({ ...context.repo, name: 'v2', color: `000000` });
            await github.rest.issues.listForRepo({ ...context.repo, per_page: 'many' });
";
    assert_findings(
        &lint(workflow, ""),
        &[
            "rest-param-invalid 16:80 `many` `per_page` must be an integer, not a string: the API answers 422 Unprocessable Entity",
        ],
    );
}

/// `gh api -F` sends `true`, `false`, `null` and integers typed, anything else as a
/// string (`gh help api`).
#[test]
fn gh_api_typed_fields_are_typed_as_gh_types_them() {
    let workflow = "\
on: push
permissions:
  issues: write
jobs:
  a:
    runs-on: ubuntu-latest
    steps:
      - run: |
          gh api repos/{owner}/{repo}/issues -F title=1.0
          gh api repos/{owner}/{repo}/labels -F name=123 -f color=000000
        env:
          GH_TOKEN: ${{ github.token }}
";
    assert_findings(
        &lint(workflow, ""),
        &[
            "rest-param-invalid 10:54 `123` `name` must be a string, not a number: the API answers 422 Unprocessable Entity",
        ],
    );
}

/// A body given but not read (from standard input, a variable, a command's output) may
/// hold every required field: no field is called missing from it.
#[test]
fn a_body_not_read_is_not_missing_its_fields() {
    let workflow = "\
on: push
permissions:
  issues: write
jobs:
  a:
    runs-on: ubuntu-latest
    steps:
      - run: |
          curl -X POST -H \"Authorization: Bearer $GITHUB_TOKEN\" https://api.github.com/repos/o/r/issues -d \"$(cat b.json)\"
          curl -X POST -H \"Authorization: Bearer $GITHUB_TOKEN\" https://api.github.com/repos/o/r/issues --data-binary \"$BODY\"
          echo '{\"title\":\"x\"}' | gh api repos/{owner}/{repo}/issues --input -
          gh api -X POST repos/{owner}/{repo}/issues
        env:
          GITHUB_TOKEN: ${{ github.token }}
";
    assert_findings(
        &lint(workflow, ""),
        &[
            "rest-param-missing 12:21 `POST repos/{owner}/{repo}/issues` `POST /repos/{owner}/{repo}/issues` requires `title` in its body: the API answers 422 Unprocessable Entity",
        ],
    );
}

/// A checkout given another token or an SSH key leaves that credential for `git`, not
/// the job's token.
#[test]
fn git_after_a_checkout_with_another_credential_is_not_the_jobs() {
    let job = |name: &str, with: &str| {
        format!(
            "  {name}:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n        with:\n          {with}\n      - run: git push origin HEAD:main\n"
        )
    };
    let workflow = format!(
        "on: push\npermissions:\n  contents: read\njobs:\n{}{}{}",
        job("pat", "token: ${{ secrets.PUSH_PAT }}"),
        job("ssh", "ssh-key: ${{ secrets.DEPLOY_KEY }}"),
        job("own", "token: ${{ github.token }}"),
    );
    assert_findings(
        &lint(&workflow, ""),
        &[
            "job-token-missing-permission 25:14 `git push origin HEAD:main` `git push` needs `contents: write`, and job `own`'s GITHUB_TOKEN has `contents: read` (the workflow's `permissions:`)",
        ],
    );
}

/// A workflow only ever called by another takes the caller's permissions where it writes
/// none: neither the repository's default nor "unrestricted" applies, and nothing is
/// judged missing. A workflow also run on its own events takes the default then.
#[test]
fn a_reusable_workflow_takes_its_callers_permissions() {
    let job = "jobs:\n  release:\n    runs-on: ubuntu-latest\n    steps:\n      - run: gh release create v1\n        env:\n          GH_TOKEN: ${{ github.token }}\n      - run: gh api repos/{owner}/{repo}/branches/main/protection\n        env:\n          GH_TOKEN: ${{ github.token }}\n";
    for on in [
        "on: workflow_call\n",
        "on: [workflow_call]\n",
        "on:\n  workflow_call:\n    inputs:\n      tag:\n        type: string\n",
    ] {
        let lines = on.lines().count();
        let found = lint(&format!("{on}{job}"), "");
        assert_findings(
            &found,
            &[&format!(
                "job-token-missing-permission {}:21 `repos/{{owner}}/{{repo}}/branches/main/protection` job `release`'s GITHUB_TOKEN can never call `GET /repos/{{owner}}/{{repo}}/branches/{{branch}}/protection`: the host lists it under the app permission `administration` (repository read), which no `permissions:` key of a workflow grants",
                lines + 8
            )],
        );
    }
    let found = lint(&format!("on: [push, workflow_call]\n{job}"), "");
    let rules: Vec<&str> = found.iter().map(|f| f.split(' ').next().unwrap()).collect();
    assert_eq!(
        rules,
        [
            "job-token-unrestricted",
            "job-token-missing-permission",
            "job-token-missing-permission"
        ],
        "{found:#?}"
    );
}

// ----------------------------------------------------------------------------------------
// A need tied to an action's input, and a block GitHub refuses.

/// `actions/stale` with `with:` as given, in a job granting what stale always needs and
/// `extra`.
fn stale_job(with: &str, extra: &str) -> String {
    format!(
        "\
on:
  schedule:
    - cron: '0 0 * * *'
jobs:
  stale:
    runs-on: ubuntu-latest
    permissions:
      actions: write
      issues: write
      pull-requests: write{extra}
    steps:
      - uses: actions/stale@v9
        with:
          days-before-stale: 30{with}
"
    )
}

#[test]
fn a_need_tied_to_an_input_holds_only_when_the_step_gives_it() {
    // Without `delete-branch`, `contents: write` is one no step uses.
    assert_findings(
        &lint(&stale_job("", "\n      contents: write"), ""),
        &[
            "job-token-unused-permission 11:7 `contents: write` `contents: write` is granted, and no call of job `stale` needs `contents`",
        ],
    );
    assert_findings(
        &lint(
            &stale_job(
                "\n          delete-branch: false",
                "\n      contents: write",
            ),
            "",
        ),
        &[
            "job-token-unused-permission 11:7 `contents: write` `contents: write` is granted, and no call of job `stale` needs `contents`",
        ],
    );
    // With it, the branch is deleted with the job's token: `contents: write` is needed.
    assert_findings(
        &lint(&stale_job("\n          delete-branch: true", ""), ""),
        &[
            "job-token-missing-permission 12:15 `actions/stale@v9` `actions/stale` needs `contents: write`, and job `stale`'s GITHUB_TOKEN has `contents: none` (the job's `permissions:`)",
        ],
    );
    assert_findings(
        &lint(
            &stale_job("\n          delete-branch: true", "\n      contents: write"),
            "",
        ),
        &[],
    );
    // An expression may be either: never missing, never unused.
    let expression = "\n          delete-branch: ${{ inputs.delete }}";
    assert_findings(&lint(&stale_job(expression, ""), ""), &[]);
    assert_findings(
        &lint(&stale_job(expression, "\n      contents: write"), ""),
        &[],
    );
}

#[test]
fn the_least_privilege_block_has_a_conditional_need_only_when_its_input_is_given() {
    let job = |with: &str| {
        format!(
            "\
on: push
jobs:
  get:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/download-artifact@v4{with}
"
        )
    };
    let scopes = |workflow: &str| {
        let dir = project(workflow, "");
        let out = reqlint(dir.path(), &["scopes", ".github/workflows"]);
        assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
        stdout(&out)
    };
    assert!(
        scopes(&job("")).contains("permissions: {}"),
        "{}",
        scopes(&job(""))
    );
    let given = job(
        "\n        with:\n          run-id: ${{ github.event.workflow_run.id }}\n          github-token: ${{ github.token }}",
    );
    let text = scopes(&given);
    assert!(text.contains("permissions:\n  actions: read\n"), "{text}");
}

#[test]
fn a_block_github_refuses_is_reported_and_its_calls_are_not_judged_against_it() {
    let workflow = "\
on: pull_request_target
jobs:
  label:
    runs-on: ubuntu-latest
    permissions:
      contents: read
      pull-request: write
    steps:
      - run: gh api repos/{owner}/{repo}/issues/1/labels -f 'labels[]=triage'
        env:
          GH_TOKEN: ${{ github.token }}
";
    assert_findings(
        &lint(workflow, ""),
        &[
            "job-permissions-invalid 7:7 `pull-request` `pull-request` is not a key of a `permissions:` block: it grants nothing, and GitHub refuses the workflow",
        ],
    );
    // The fix writes the key meant; then the call is judged against the block.
    let dir = project(workflow, "");
    assert_eq!(
        fixed(dir.path(), &[]),
        workflow.replace("pull-request:", "pull-requests:")
    );
    let after = lint(&workflow.replace("pull-request:", "pull-requests:"), "");
    assert_findings(
        &after,
        &[
            "job-token-unused-permission 6:7 `contents: read` `contents: read` is granted, and no call of job `label` needs `contents`",
        ],
    );
    // The workflow's block refused: the jobs taking it are not judged against it.
    let shorthand = "\
on: push
permissions: read
jobs:
  a:
    runs-on: ubuntu-latest
    steps:
      - run: gh release create v1
        env:
          GH_TOKEN: ${{ github.token }}
";
    assert_findings(
        &lint(shorthand, ""),
        &[
            "job-permissions-invalid 2:14 `read` `permissions: read` is not a block GitHub accepts: it takes `read-all`, `write-all`, `{}` or a mapping of keys to levels",
        ],
    );
}

#[test]
fn an_unknown_route_is_shown_as_the_workflow_writes_it() {
    let workflow = "\
on: push
jobs:
  a:
    runs-on: ubuntu-latest
    permissions:
      issues: write
    steps:
      - run: |
          gh api repos/{owner}/{repo}/isues/1
          gh api repos/$GITHUB_REPOSITORY/isues/2
          gh api \"repos/${{ github.repository }}/isues/3\"
        env:
          GH_TOKEN: ${{ github.token }}
";
    let found = lint(workflow, "");
    let unknown: Vec<&String> = found
        .iter()
        .filter(|f| f.starts_with("unknown-endpoint"))
        .collect();
    assert_eq!(unknown.len(), 3, "{found:#?}");
    for (finding, route) in unknown.iter().zip([
        "repos/{owner}/{repo}/isues/1",
        "repos/$GITHUB_REPOSITORY/isues/2",
        "repos/${{ github.repository }}/isues/3",
    ]) {
        assert!(
            finding.contains(&format!("no permission table row matches `{route}` in")),
            "{finding}"
        );
        assert!(!finding.contains("{{owner}}"), "{finding}");
    }
    // What `scopes` cannot tell names the route with `{owner}`, never `{{owner}}`.
    let dir = project(workflow, "");
    let out = reqlint(dir.path(), &["scopes", ".github/workflows"]);
    let text = stdout(&out);
    assert!(
        text.contains("`GET /repos/{owner}/{repo}/isues/1`"),
        "{text}"
    );
    assert!(!text.contains("{{"), "{text}");
}

#[test]
fn gh_pr_checks_needs_check_runs_statuses_and_the_pull_request() {
    let job = |block: &str| {
        format!(
            "\
on: pull_request
jobs:
  a:
    runs-on: ubuntu-latest
    permissions:{block}
    steps:
      - run: gh pr checks 1
        env:
          GH_TOKEN: ${{{{ github.token }}}}
"
        )
    };
    // Any one of the keys the pull request is read with is enough, and none is unused.
    for reads in ["contents", "pull-requests"] {
        let block = format!("\n      checks: read\n      statuses: read\n      {reads}: read");
        assert_findings(&lint(&job(&block), ""), &[]);
    }
    assert_findings(
        &lint(&job("\n      checks: read\n      contents: read"), ""),
        &[
            "job-token-missing-permission 9:14 `gh pr checks 1` `gh pr checks` needs `statuses: read`, and job `a`'s GITHUB_TOKEN has `statuses: none` (the job's `permissions:`)",
        ],
    );
}

#[test]
fn scopes_shows_a_named_tokens_workflow_call_as_written() {
    let config = "\
tokens:
  release-pat:
    owner: acme
    permissions:
      repository:
        contents: write
    variables: [RELEASE_PAT]
";
    let workflow = "\
on: push
jobs:
  a:
    runs-on: ubuntu-latest
    permissions: {}
    steps:
      - run: gh api repos/{owner}/{repo}/isues/1
        env:
          GH_TOKEN: ${{ secrets.RELEASE_PAT }}
";
    let dir = project(workflow, config);
    let out = reqlint(dir.path(), &["scopes", ".github/workflows"]);
    let text = stdout(&out);
    assert!(
        text.contains(
            ".github/workflows/w.yml:7:21  GET repos/{owner}/{repo}/isues/1  (unknown endpoint)"
        ),
        "{text}"
    );
    assert!(!text.contains("{{owner}}"), "{text}");
}

#[test]
fn a_token_written_as_a_permissions_key_is_redacted_in_the_message() {
    let token = "ghp_R3qlint_Fak3_T0ken_00000000000000000";
    let workflow = format!(
        "\
on: push
permissions:
  {token}: write
jobs:
  a:
    runs-on: ubuntu-latest
    steps:
      - run: echo
"
    );
    let dir = project(&workflow, "");
    let report = check_json(dir.path(), &[]);
    let invalid: Vec<&Value> = diagnostics_of(&report)
        .iter()
        .filter(|d| d["rule"] == "job-permissions-invalid")
        .collect();
    assert_eq!(invalid.len(), 1, "{report:#}");
    assert!(
        invalid[0]["message"]
            .as_str()
            .unwrap()
            .contains("`ghp_****`"),
        "{report:#}"
    );
    assert!(!report.to_string().contains(token), "{report:#}");
}
