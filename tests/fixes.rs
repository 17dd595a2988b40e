//! Every fix of every fixture: applied alone, it leaves the rest of the file byte for
//! byte as it was, the file still parses, the finding it fixes is gone (re-linted), and it
//! brings no new error; `--fix` in rounds ends with no safe fix left; `--diff` changes
//! nothing on disk; a file that changed since it was read is not overwritten.

use std::path::{Path, PathBuf};
use std::process::Command;

use reqlint::diagnostic::Severity;
use reqlint::engine::{Settings, lint_bytes};
use reqlint::fix::{Mode, apply, fix_text};
use reqlint::loading::Limits;
use reqlint::model::config::Config;
use reqlint::model::context::ContextIndex;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn settings() -> Settings {
    let config = Config::load(&root().join(".reqlint.yaml"), &reqlint::rules::names()).unwrap();
    let (settings, _) = reqlint::settings::from_config(config).unwrap();
    let _ = (ContextIndex::default(), Limits::DEFAULT);
    settings
}

/// Every fixture file a reader or the YAML/JSON loader reads.
fn fixture_files() -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut stack = vec![root().join("fixtures")];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            let name = path.to_string_lossy().into_owned();
            if path.is_dir() {
                if !name.ends_with("context") {
                    stack.push(path);
                }
            } else if name.contains(".req.")
                || reqlint::loading::readers::Reader::from_path(&name).is_some()
            {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

fn rel(path: &Path) -> String {
    path.strip_prefix(root())
        .unwrap()
        .to_string_lossy()
        .into_owned()
}

#[test]
fn each_fix_removes_its_finding_and_nothing_else() {
    let s = settings();
    let mut fixes_tried = 0;
    let mut failures = Vec::new();
    for path in fixture_files() {
        let name = rel(&path);
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        let before = lint_bytes(&name, Path::new(&name), text.clone().into_bytes(), &s);
        let errors_before = before
            .diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .count();
        // (Fixes of another file, the config, are tried by `config_tokens_are_fixed_in_the_config`.)
        for d in before.diagnostics.iter().filter(|d| {
            d.fix
                .as_ref()
                .is_some_and(|f| f.edits.iter().all(|e| e.file.is_none()))
        }) {
            let fix = d.fix.as_ref().unwrap();
            fixes_tried += 1;
            let edits: Vec<_> = fix.edits.iter().collect();
            let after = apply(&text, &edits);
            // The rest of the file is byte for byte as it was.
            let mut first = fix.edits.iter().map(|e| e.span.start).min().unwrap();
            let last_end = fix.edits.iter().map(|e| e.span.end).max().unwrap();
            first = first.min(text.len());
            let tail = text.len() - last_end;
            if text[..first] != after[..first] || text[last_end..] != after[after.len() - tail..] {
                failures.push(format!(
                    "{name}: {} changed more than its edits",
                    fix.message
                ));
                continue;
            }
            let again = lint_bytes(&name, Path::new(&name), after.clone().into_bytes(), &s);
            // (A finding may stay at a lower severity: a permission added where the host
            // flags the endpoint as needing more leaves a warning.)
            let same_rule = |r: &reqlint::engine::FileResult| {
                r.diagnostics
                    .iter()
                    .filter(|x| x.rule == d.rule && x.severity == d.severity)
                    .count()
            };
            if same_rule(&again) >= same_rule(&before) {
                failures.push(format!(
                    "{name}: `{}` ({}) left its finding",
                    fix.message, d.rule
                ));
            }
            if again.diagnostics.iter().any(|x| x.rule == "invalid-syntax") {
                failures.push(format!("{name}: `{}` broke the syntax", fix.message));
            }
            let errors_after = again
                .diagnostics
                .iter()
                .filter(|x| x.severity == Severity::Error)
                .count();
            // A request line that could not be read, or routed, is checked once it is
            // fixed: what it hid shows then, and is no error the fix brought.
            let reveals = d.rule == "malformed-request-line" || d.rule == "ad-unknown-endpoint";
            if errors_after > errors_before && !reveals {
                failures.push(format!(
                    "{name}: `{}` brought a new error: {:?}",
                    fix.message,
                    again
                        .diagnostics
                        .iter()
                        .map(|x| &x.message)
                        .collect::<Vec<_>>()
                ));
            }
        }
    }
    assert!(
        fixes_tried >= 20,
        "only {fixes_tried} fixes in the fixtures"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn fixing_in_rounds_leaves_no_safe_fix() {
    let s = settings();
    for path in fixture_files() {
        let name = rel(&path);
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        for mode in [Mode::Safe, Mode::Unsafe] {
            let fixed = fix_text(&name, Path::new(&name), &text, &s, mode);
            let result = lint_bytes(&name, Path::new(&name), fixed.text.into_bytes(), &s);
            let left: Vec<_> = result
                .diagnostics
                .iter()
                .filter(|d| {
                    d.fix
                        .as_ref()
                        .is_some_and(|f| mode.takes(f) && f.edits.iter().all(|e| e.file.is_none()))
                })
                .map(|d| &d.message)
                .collect();
            assert!(left.is_empty(), "{name} ({mode:?}): fixes left: {left:?}");
            assert!(
                !result
                    .diagnostics
                    .iter()
                    .any(|d| d.rule == "invalid-syntax")
                    || text.is_empty()
                    || lint_bytes(&name, Path::new(&name), text.clone().into_bytes(), &s)
                        .diagnostics
                        .iter()
                        .any(|d| d.rule == "invalid-syntax"),
                "{name}: fixing broke the syntax"
            );
        }
    }
}

fn reqlint(dir: &Path, args: &[&str]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_reqlint"))
        .current_dir(dir)
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

#[test]
fn fix_diff_and_fix_only_on_disk() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join(".reqlint.yaml"), "").unwrap();
    let text = "request: post /v25.0/act_1/campaigns\nparms:\n  name: x\n";
    let file = dir.path().join("a.req.yaml");
    std::fs::write(&file, text).unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o640)).unwrap();
    }
    // --diff: the diff, exit 1, nothing written.
    let (code, out) = reqlint(dir.path(), &["check", "--diff", "a.req.yaml"]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("-request: post /v25.0/act_1/campaigns"),
        "{out}"
    );
    assert!(
        out.contains("+request: POST /v25.0/act_1/campaigns"),
        "{out}"
    );
    assert!(out.contains("+params:"), "{out}");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), text);
    // --fix-only: written, permissions kept, exit 0.
    let (code, out) = reqlint(dir.path(), &["check", "--fix-only", "a.req.yaml"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("Fixed 2 issues"), "{out}");
    assert_eq!(
        std::fs::read_to_string(&file).unwrap(),
        "request: POST /v25.0/act_1/campaigns\nparams:\n  name: x\n"
    );
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&file).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o640);
    }
    // Nothing left of the temporary file.
    let names: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names.len(), 2, "{names:?}");
}

/// `check --fix -` with standard input: the fixed text on standard output; over the
/// file-size limit, the input comes back whole and unchanged (never truncated) with exit 1.
#[test]
fn fix_of_standard_input_and_its_size_limit() {
    use std::io::Write as _;
    use std::process::Stdio;
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join(".reqlint.yaml"), "").unwrap();
    let run = |args: &[&str], input: Vec<u8>| {
        let mut child = Command::new(env!("CARGO_BIN_EXE_reqlint"))
            .current_dir(dir.path())
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        // Written from another thread: reqlint writes while it still reads.
        let writer = std::thread::spawn(move || {
            let _ = stdin.write_all(&input);
        });
        let out = child.wait_with_output().unwrap();
        writer.join().unwrap();
        out
    };
    let small = b"request: post /v25.0/act_1/campaigns\nparams:\n  name: x\n".to_vec();
    let out = run(
        &["check", "--fix", "--stdin-filename", "a.req.yaml", "-"],
        small,
    );
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "request: POST /v25.0/act_1/campaigns\nparams:\n  name: x\n"
    );

    let max = Limits::DEFAULT.max_file_bytes as usize;
    let mut big = small_request_lines(max + 4096);
    big.truncate(max + 4096);
    let out = run(&["check", "--fix", "-"], big.clone());
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout == big, "the input must come back unchanged");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("over the limit; it was not fixed"),
        "{stderr}"
    );

    let out = run(&["check", "--diff", "-"], big);
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
}

/// Request lines with fixable methods, at least `len` bytes of them.
fn small_request_lines(len: usize) -> Vec<u8> {
    let mut text = b"requests:\n".to_vec();
    while text.len() < len {
        text.extend_from_slice(b"  - get /v25.0/act_1/campaigns\n");
    }
    text
}

#[test]
fn a_file_that_changed_since_it_was_read_is_left_alone() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("a.req.yaml");
    std::fs::write(&file, "request: post /x\n").unwrap();
    let err =
        reqlint::fix::write_in_place(&file, b"request: get /x\n", "request: GET /x\n").unwrap_err();
    assert!(err.contains("changed"), "{err}");
    assert_eq!(
        std::fs::read_to_string(&file).unwrap(),
        "request: post /x\n"
    );
}

/// A token named from the config gets the permission it lacks in the config.
#[test]
fn config_tokens_are_fixed_in_the_config() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join(".reqlint.yaml"),
        "tokens:\n  ci-bot:\n    owner: acme\n    permissions:\n      repository:\n        Pull requests: read\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("a.req.yaml"),
        "token: ci-bot\nrequests:\n  - GET /repos/acme/web/pulls\n  - PUT /repos/acme/web/pulls/1/merge\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("b.req.yaml"),
        "token: ci-bot\nrequests:\n  - PUT /repos/acme/web/pulls/2/merge\n",
    )
    .unwrap();
    let (code, out) = reqlint(
        dir.path(),
        &[
            "check",
            "--fix",
            "--format",
            "concise",
            "a.req.yaml",
            "b.req.yaml",
        ],
    );
    assert_eq!(code, 0, "{out}");
    assert_eq!(
        std::fs::read_to_string(dir.path().join(".reqlint.yaml")).unwrap(),
        "tokens:\n  ci-bot:\n    owner: acme\n    permissions:\n      repository:\n        Pull requests: read\n        Contents: write\n"
    );
}

/// A named token's permission that no request of the run uses comes out of the config,
/// with `--unsafe-fixes`, when the run sees every file (a directory).
#[test]
fn unused_permissions_of_config_tokens_come_out_with_unsafe_fixes() {
    let dir = tempfile::tempdir().unwrap();
    let config = "tokens:\n  ci-bot:\n    owner: acme\n    permissions:\n      repository:\n        Pull requests: read\n        Issues: write\n";
    std::fs::write(dir.path().join(".reqlint.yaml"), config).unwrap();
    std::fs::write(
        dir.path().join("a.req.yaml"),
        "token: ci-bot\nrequests:\n  - GET /repos/acme/web/pulls\n",
    )
    .unwrap();
    let (_, out) = reqlint(dir.path(), &["check", "--fix", "--format", "concise", "."]);
    assert!(out.contains("token-over-privileged"), "{out}");
    assert_eq!(
        std::fs::read_to_string(dir.path().join(".reqlint.yaml")).unwrap(),
        config
    );
    let (code, out) = reqlint(
        dir.path(),
        &[
            "check",
            "--fix",
            "--unsafe-fixes",
            "--format",
            "concise",
            ".",
        ],
    );
    assert_eq!(code, 0, "{out}");
    assert_eq!(
        std::fs::read_to_string(dir.path().join(".reqlint.yaml")).unwrap(),
        "tokens:\n  ci-bot:\n    owner: acme\n    permissions:\n      repository:\n        Pull requests: read\n"
    );
}

/// Where every finding of a rule in a fixture has a fix, fixing the file (all fixes, in
/// rounds) leaves none of that rule's findings.
#[test]
fn rules_whose_every_finding_is_fixable_end_at_zero() {
    let s = settings();
    let mut checked = 0;
    for path in fixture_files() {
        let name = rel(&path);
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        let before = lint_bytes(&name, Path::new(&name), text.clone().into_bytes(), &s);
        let mut rules: Vec<&str> = before.diagnostics.iter().map(|d| d.rule).collect();
        rules.sort_unstable();
        rules.dedup();
        let all_fixable: Vec<&str> = rules
            .into_iter()
            .filter(|r| {
                before.diagnostics.iter().filter(|d| d.rule == *r).all(|d| {
                    d.fix
                        .as_ref()
                        .is_some_and(|f| f.edits.iter().all(|e| e.file.is_none()))
                })
            })
            .collect();
        if all_fixable.is_empty() {
            continue;
        }
        let fixed = fix_text(&name, Path::new(&name), &text, &s, Mode::Unsafe);
        let after = lint_bytes(&name, Path::new(&name), fixed.text.into_bytes(), &s);
        for rule in all_fixable {
            checked += 1;
            let left: Vec<&String> = after
                .diagnostics
                .iter()
                .filter(|d| d.rule == rule)
                .map(|d| &d.message)
                .collect();
            assert!(left.is_empty(), "{name}: `{rule}` left {left:?}");
        }
    }
    assert!(checked >= 10, "{checked}");
}
