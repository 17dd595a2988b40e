//! No silent pass, no noise: what a rule reports follows what the API does.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn run(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_reqlint"))
        .args(args)
        .current_dir(dir)
        .env_remove("GITHUB_ACTIONS")
        .output()
        .unwrap()
}

fn concise(dir: &Path, file: &str, content: &str) -> (Option<i32>, Vec<String>) {
    std::fs::write(dir.join(file), content).unwrap();
    let out = run(dir, &["check", file, "--format", "concise"]);
    let lines = String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter(|l| l.starts_with(file))
        .map(str::to_string)
        .collect();
    (out.status.code(), lines)
}

#[test]
fn a_top_level_list_of_requests_fails_and_its_requests_are_checked() {
    let dir = tempfile::tempdir().unwrap();
    let (code, lines) = concise(
        dir.path(),
        "list.req.yaml",
        "- request: POST /v24.0/act_1234567890/customaudiences\n  params:\n    name: x\n    subtype: COMBINATION\n- GET /user/emails\n",
    );
    assert_eq!(code, Some(1), "{lines:?}");
    assert!(
        lines[0].contains("error[request-list-without-key]"),
        "{lines:?}"
    );
    // The request inside is checked as one under `requests:` would be.
    assert!(
        lines.iter().any(|l| l.contains("audience-subtype-invalid")),
        "{lines:?}"
    );
    // A list of anything else stays a warning.
    let (code, lines) = concise(dir.path(), "names.req.yaml", "- Spring\n- Autumn\n");
    assert_eq!(code, Some(0));
    assert!(
        lines[0].contains("warning[not-a-request-file]"),
        "{lines:?}"
    );
}

#[test]
fn a_rule_is_silent_when_the_value_it_depends_on_is_invalid() {
    let dir = tempfile::tempdir().unwrap();
    let (_, lines) = concise(
        dir.path(),
        "a.req.yaml",
        "request: POST /v24.0/act_1234567890/customaudiences\nparams:\n  name: x\n  subtype: CUSTOMM\n  retention_days: 30\n  lookalike_spec: {ratio: 0.01, country: US}\n",
    );
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(lines[0].contains("audience-subtype-invalid"), "{lines:?}");
    let (_, lines) = concise(
        dir.path(),
        "b.req.yaml",
        "request: POST /v24.0/act_1234567890/adsets\nparams:\n  name: Spring\n  campaign_id: \"120210000000000001\"\n  daily_budget: 2000\n  billing_event: IMPRESSIONS\n  optimization_goal: OFFSITE_CONVERSIONZ\n  bid_strategy: LOWEST_COST_WITHOUT_CAPP\n  targeting: {geo_locations: {countries: [US]}}\n  status: PAUSED\n",
    );
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert!(
        lines.iter().all(|l| l.contains("ad-param-invalid")),
        "{lines:?}"
    );
}

#[test]
fn a_number_that_is_no_integer_is_said_to_be_none() {
    let dir = tempfile::tempdir().unwrap();
    let (_, lines) = concise(
        dir.path(),
        "a.req.yaml",
        "request: POST /v24.0/act_1234567890/customaudiences\nparams:\n  name: x\n  subtype: CUSTOM\n  customer_file_source: USER_PROVIDED_ONLY\n  retention_days: 90.5\n",
    );
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(
        lines[0].ends_with("`retention_days` must be an integer, not 90.5"),
        "{lines:?}"
    );
}

#[test]
fn an_organization_named_after_a_user_is_out_of_reach() {
    let dir = tempfile::tempdir().unwrap();
    let (code, lines) = concise(
        dir.path(),
        "a.req.yaml",
        "token:\n  owner: acme\n  permissions:\n    organization: {Events: read}\nrequests:\n  - GET /users/octocat/events/orgs/other-org\n  - GET /users/octocat/events/orgs/acme\n",
    );
    let reach: Vec<&String> = lines
        .iter()
        .filter(|l| l.contains("token-resource-out-of-reach"))
        .collect();
    assert_eq!(reach.len(), 1, "{lines:?}");
    assert!(reach[0].contains("`other-org`"), "{lines:?}");
    assert_eq!(code, Some(1));
}

#[test]
fn severities_follow_the_api() {
    let out = run(&root(), &["check", "fixtures/", "--format", "concise"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    for (file, rule) in [
        (
            "fixtures/adset-goal-not-for-objective/bad.req.yaml",
            "error[adset-goal-not-for-objective]",
        ),
        // v11.0 ended on 2023-09-14, as the vendor states.
        (
            "fixtures/ad-version-deprecated/bad.req.yaml",
            "error[ad-version-deprecated]",
        ),
    ] {
        assert!(
            stdout
                .lines()
                .any(|l| l.starts_with(file) && l.contains(rule)),
            "{file}: {rule}\n{stdout}"
        );
    }
}

#[test]
fn no_user_facing_text_cites_the_projects_reference_documents() {
    let rules = run(&root(), &["rules"]);
    let mut shown = String::from_utf8_lossy(&rules.stdout).into_owned();
    for line in shown.clone().lines().skip(1) {
        let name = line.split_whitespace().next().unwrap();
        let explain = run(&root(), &["explain", name]);
        shown.push_str(&String::from_utf8_lossy(&explain.stdout));
    }
    for format in ["concise", "json", "sarif", "human"] {
        let out = run(&root(), &["check", "fixtures/", "--format", format]);
        shown.push_str(&String::from_utf8_lossy(&out.stdout));
    }
    for line in shown.lines() {
        // Comments in the fixtures shown by `explain` and SARIF help may say anything;
        // the rule's text may not.
        let lower = line.to_lowercase();
        for word in ["seed 00", "seeds 00", "the seed's", "the seeds"] {
            assert!(!lower.contains(word), "{line}");
        }
    }
}

/// `--help`, the man pages and the schemas name what a reader can open (a page of
/// docs/), never a numbered section of a document the repository does not hold.
#[test]
fn help_man_pages_and_schemas_cite_what_a_reader_can_open() {
    let mut shown = String::new();
    for args in [
        &["--help"][..],
        &["check", "--help"],
        &["rules", "--help"],
        &["explain", "--help"],
        &["scopes", "--help"],
        &["server", "--help"],
        &["schema", "--help"],
        &["completions", "--help"],
        &["manpage", "--help"],
        &["manpage"],
        &["schema", "request"],
        &["schema", "config"],
    ] {
        let out = run(&root(), args);
        assert!(out.status.success(), "{args:?}");
        shown.push_str(&String::from_utf8_lossy(&out.stdout));
    }
    let pages = tempfile::tempdir().unwrap();
    let dir = pages.path().to_str().unwrap();
    assert!(run(&root(), &["manpage", "--dir", dir]).status.success());
    let mut count = 0;
    for page in std::fs::read_dir(pages.path()).unwrap() {
        shown.push_str(&std::fs::read_to_string(page.unwrap().path()).unwrap());
        count += 1;
    }
    assert!(count > 1, "one man page a command");
    for line in shown.lines() {
        let lower = line.to_lowercase();
        let numbered = lower.match_indices("spec ").any(|(at, _)| {
            lower[at + 5..]
                .chars()
                .next()
                .is_some_and(|c| c.is_ascii_digit())
        });
        assert!(!numbered, "{line}");
        for word in ["seed 00", "seeds 00", "the seed's", "the seeds"] {
            assert!(!lower.contains(word), "{line}");
        }
    }
    // What the old text said is what the new one says in its place.
    assert!(shown.contains("One JSON document (docs/usage.md#output-formats)"));
}

#[test]
fn positions_inside_block_scalars_are_exact() {
    let dir = tempfile::tempdir().unwrap();
    let (_, lines) = concise(
        dir.path(),
        "enc.req.yaml",
        "request: POST /v24.0/act_1234567890/adsets\nparams:\n  name: Spring\n  campaign_id: \"120210000000000001\"\n  daily_budget: 2000\n  billing_event: IMPRESSIONS\n  optimization_goal: REACH\n  bid_strategy: LOWEST_COST_WITHOUT_CAP\n  targeting: |\n    {\n      \"geo_locations\": {\n        \"countries\": [\"US\", \"XX\"]\n      }\n    }\n  status: PAUSED\n",
    );
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(
        lines[0].starts_with("enc.req.yaml:12:29: error[adset-country-code-invalid]"),
        "{lines:?}"
    );
    let secret = "ghp_Bl0ckS3cretN0tInAnyFixture1234567890";
    let (_, lines) = concise(
        dir.path(),
        "block.req.yaml",
        &format!(
            "request: GET /user/emails\ndescription: |\n  first line\n  the token {secret} is here\nname: >\n  folded\n  and {secret}\n"
        ),
    );
    assert_eq!(
        lines,
        [
            "block.req.yaml:4:13: error[literal-secret]: literal secret: a personal access token of the code-hosting host (`ghp_…`) is written in the file",
            "block.req.yaml:7:7: error[literal-secret]: literal secret: a personal access token of the code-hosting host (`ghp_…`) is written in the file",
        ]
    );
}
