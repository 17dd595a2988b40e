//! Secrets are never printed, by any path: every text shown to a user passes one
//! redaction step (src/redact.rs), whatever the rules said about the secret.

use std::path::{Path, PathBuf};
use std::process::Command;

const GH_SECRET: &str = "ghp_Rdct3dS3cretN0tInAnyFixture123456789";
const FB_SECRET: &str = "EAAXq7RedactionSecretNotInFixtures42";
const PLAIN_SECRET: &str = "s3cr3t-plain-v4lue-not-shaped";

use crate::support::project;
use project::{FORMATS, all_text, assert_none_of, bin, every_format, project, run};

/// Neither the secret nor the part of it after a prefix that a message may name.
fn assert_no_secret(output: &str, what: &str) {
    assert_none_of(output, what, &[GH_SECRET, FB_SECRET, PLAIN_SECRET], 8);
}

fn check_every_format(dir: &Path, file: &str) -> Vec<String> {
    every_format(dir, file, &[], assert_no_secret)
}

#[test]
fn a_token_written_as_the_value_of_token_is_a_secret_not_a_name() {
    let dir = project(&[(
        "t.req.yaml",
        &format!("token: {GH_SECRET}\nrequests:\n  - request: GET /user/emails\n"),
    )]);
    let outputs = check_every_format(dir.path(), "t.req.yaml");
    // SARIF lists every rule in its driver; the other formats name only what they report.
    for out in [&outputs[0], &outputs[1], &outputs[2], &outputs[4]] {
        assert!(out.contains("literal-secret"), "{out}");
        // Not a token name to define: that help would tell the user to paste the secret
        // into .reqlint.yaml.
        assert!(!out.contains("token-undefined"), "{out}");
        assert!(!out.contains("define it under"), "{out}");
    }
}

#[test]
fn secrets_in_keys_and_comments_are_reported_and_masked() {
    let dir = project(&[(
        "k.req.yaml",
        &format!(
            "request: GET /user/emails\nparams:\n  {GH_SECRET}: 1\n# the old token was {FB_SECRET}\nname: x # reqlint: ignore[{GH_SECRET}]\n"
        ),
    )]);
    let outputs = check_every_format(dir.path(), "k.req.yaml");
    let concise = &outputs[1];
    assert_eq!(
        concise.matches("literal-secret").count(),
        3,
        "the key, the comment and the suppression comment:\n{concise}"
    );
    // The key and the ignore comment are echoed by other rules too: masked there.
    assert!(concise.contains("ghp_****"), "{concise}");
}

#[test]
fn frames_mask_secrets_that_no_diagnostic_reported() {
    let cases = [
        // A syntax error near the secret: literal-secret cannot read the tree.
        (
            "syntax.req.yaml",
            format!(
                "request: GET /user/emails\nparams:\n  access_token: {PLAIN_SECRET}\n - broken\n"
            ),
        ),
        // Suppressed inline: the diagnostic goes, the masking stays.
        (
            "suppressed.req.yaml",
            format!(
                "request: GET /user/emails\nparms:\n  access_token: {PLAIN_SECRET} # reqlint: ignore[literal-secret]\n"
            ),
        ),
        // A shape under a credential key: a list.
        (
            "list.req.yaml",
            format!(
                "request: POST /v24.0/act_1234567890/customaudiences\nparams:\n  name: x\n  subtype: CUSTOM\n  customer_file_source: USER_PROVIDED_ONLY\n  access_token: [{PLAIN_SECRET}]\n  bogus: 1\n"
            ),
        ),
        // A credential-shaped word next to another finding.
        (
            "near.req.yaml",
            format!("request: GET /user/emails\ndescrption: \"{GH_SECRET}\"\n"),
        ),
    ];
    for (name, content) in &cases {
        let dir = project(&[(name, content)]);
        check_every_format(dir.path(), name);
        // Suppressed by per-file-ignores and by turning the rule off.
        let config = format!(
            "per-file-ignores:\n  \"{name}\": [literal-secret]\nrules:\n  literal-secret: off\n"
        );
        std::fs::write(dir.path().join(".reqlint.yaml"), config).unwrap();
        let outputs = check_every_format(dir.path(), name);
        assert!(
            outputs[0].contains('*'),
            "{name}: a frame shows the masked secret:\n{}",
            outputs[0]
        );
    }
}

#[test]
fn messages_that_echo_user_text_are_masked() {
    // An unknown param named like a credential, and a literal access token echoed as an
    // unknown param's value elsewhere in the file.
    let dir = project(&[(
        "m.req.yaml",
        &format!(
            "request: POST /v24.0/act_1234567890/customaudiences\nparams:\n  name: x\n  subtype: CUSTOM\n  customer_file_source: USER_PROVIDED_ONLY\n  {FB_SECRET}: 1\n  access_token: {PLAIN_SECRET}\n  retention_days: {PLAIN_SECRET}\n"
        ),
    )]);
    let outputs = check_every_format(dir.path(), "m.req.yaml");
    assert!(outputs[1].contains("EAA****"), "{}", outputs[1]);
}

#[test]
fn secrets_in_the_config_are_masked_in_run_level_diagnostics() {
    // A named token whose name is credential-shaped, in .reqlint.yaml.
    let dir = project(&[
        (
            ".reqlint.yaml",
            &format!(
                "tokens:\n  {GH_SECRET}:\n    permissions:\n      user: {{Email addresses: read, Gists: write}}\n"
            ),
        ),
        (
            "requests/a.yaml",
            &format!("token: {GH_SECRET}\nrequests:\n  - request: GET /user/emails\n"),
        ),
    ]);
    for format in FORMATS {
        let out = run(
            dir.path(),
            &["check", ".", "--format", format, "--color", "never"],
        );
        assert_ne!(out.status.code(), Some(101));
        assert_no_secret(&all_text(&out), format);
    }
}

/// gitleaks' rule for the host's classic personal access tokens.
fn looks_real_to_scanners(text: &str) -> bool {
    text.match_indices("ghp_").any(|(i, _)| {
        let body = &text.as_bytes()[i + 4..];
        body.len() >= 36 && body[..36].iter().all(u8::is_ascii_alphanumeric)
    })
}

#[test]
fn help_output_carries_no_token_that_scanners_take_for_real() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let explain = run(&root, &["explain", "literal-secret"]);
    let explain = all_text(&explain);
    assert!(explain.contains("ghp_"), "the example still shows a token");
    assert!(!looks_real_to_scanners(&explain), "{explain}");
    let sarif = run(&root, &["check", "fixtures/", "--format", "sarif"]);
    assert!(!looks_real_to_scanners(&all_text(&sarif)));
    for entry in std::fs::read_dir(root.join("fixtures/literal-secret")).unwrap() {
        let text = std::fs::read_to_string(entry.unwrap().path()).unwrap();
        assert!(!looks_real_to_scanners(&text));
    }
}

#[test]
fn control_characters_in_messages_are_escaped() {
    let dir = project(&[(
        "c.req.yaml",
        "request: GET /user/emails\n\"bad\\e]52;c;aGk=\\a\\rAll checks passed\": 1\n",
    )]);
    for out in check_every_format(dir.path(), "c.req.yaml") {
        assert!(!out.contains('\u{1b}'), "{out:?}");
        assert!(!out.contains('\r'), "{out:?}");
        assert!(!out.contains('\u{7}'), "{out:?}");
    }
}

#[test]
fn errors_of_the_run_are_masked_and_inject_no_ci_command() {
    // A config error that echoes a credential-shaped key.
    let dir = project(&[
        (".reqlint.yaml", &format!("{GH_SECRET}: 1\n")),
        ("a.req.yaml", "request: GET /user/emails\n"),
    ]);
    let out = run(dir.path(), &["check", "a.req.yaml", "--format", "github"]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_no_secret(&stderr, "a config error");
    assert!(stderr.contains("ghp_****"), "{stderr}");
    // A key with line breaks and workflow commands in it: one line on stderr, with no
    // command the Actions runner would run.
    let dir = project(&[
        (
            ".reqlint.yaml",
            "\"x\\n::add-mask::secret\\n::stop-commands::t\\n##[error]boom\": 1\n",
        ),
        ("a.req.yaml", "request: GET /user/emails\n"),
    ]);
    for env in [None, Some("true")] {
        let mut cmd = Command::new(bin());
        cmd.args(["check", "a.req.yaml"]).current_dir(dir.path());
        match env {
            Some(v) => cmd.env("GITHUB_ACTIONS", v),
            None => cmd.env_remove("GITHUB_ACTIONS"),
        };
        let out = cmd.output().unwrap();
        assert_eq!(out.status.code(), Some(2));
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(!stderr.contains("##["), "{stderr}");
        assert!(
            stderr.lines().all(|l| !l.trim_start().starts_with("::")),
            "{stderr}"
        );
    }
}
