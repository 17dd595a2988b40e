//! Every fix of every fixture: applied alone, it leaves the rest of the file byte for
//! byte as it was, the file still parses, the finding it fixes is gone (re-linted), and it
//! brings no new error; `--fix` in rounds ends with no safe fix left; `--diff` changes
//! nothing on disk; a file that changed since it was read is not overwritten.

use std::path::{Path, PathBuf};
use std::process::Command;

use reqlint::diagnostic::{Edit, Severity};
use reqlint::engine::fix_text;
use reqlint::engine::{Settings, lint_bytes};
use reqlint::fix::{Mode, apply};
use reqlint::loading::{Limits, Span};
use reqlint::model::config::Config;
use reqlint::model::context::ContextIndex;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn settings() -> Settings {
    let config = Config::load(
        &root().join(".reqlint.yaml"),
        &reqlint::rules::names(),
        &reqlint::apis::config_sections(),
    )
    .unwrap();
    let (settings, _) = reqlint::run::settings::from_config(config).unwrap();
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

/// The rules' metadata says which fixes their findings carry (`reqlint explain`, the
/// docs, the `FIX` column of `reqlint rules`): every fix a fixture's finding carries is
/// declared by its rule, at its applicability, and every declared fix is shown by a
/// fixture.
#[test]
fn every_fix_is_declared_by_its_rule_and_shown_by_a_fixture() {
    use reqlint::diagnostic::Applicability;
    let s = settings();
    let mut shown = std::collections::BTreeSet::new();
    for path in fixture_files() {
        let name = rel(&path);
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        let result = lint_bytes(&name, Path::new(&name), text.into_bytes(), &s);
        for d in &result.diagnostics {
            let Some(fix) = &d.fix else { continue };
            let meta = reqlint::rules::find(d.rule).unwrap().meta();
            assert!(
                meta.fixes
                    .iter()
                    .any(|f| f.applicability == fix.applicability),
                "{name}: a {:?} fix of {} that its metadata does not declare",
                fix.applicability,
                d.rule
            );
            shown.insert((d.rule, fix.applicability == Applicability::Safe));
        }
    }
    for rule in reqlint::rules::REGISTRY {
        let m = rule.meta();
        for f in m.fixes {
            assert!(
                shown.contains(&(m.name, f.applicability == Applicability::Safe)),
                "{}: no fixture shows its {:?} fix",
                m.name,
                f.applicability
            );
        }
    }
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
            // The finding is gone from where it was (its span moved by the edits): no
            // finding of its rule there. A list put under `requests:` leaves none in the
            // whole file.
            let at = moved(d.span, &fix.edits);
            let left: Vec<_> = again
                .diagnostics
                .iter()
                .filter(|x| x.rule == d.rule && x.severity == d.severity)
                .filter(|x| d.rule == "request-list-without-key" || overlaps(x.span, at))
                .map(|x| &x.message)
                .collect();
            if !left.is_empty() {
                failures.push(format!(
                    "{name}: `{}` ({}) left a finding where it was: {left:?}",
                    fix.message, d.rule
                ));
            }
            for rule in ["invalid-syntax", "limit-exceeded", "duplicate-key"] {
                let count = |r: &reqlint::engine::FileResult| {
                    r.diagnostics.iter().filter(|x| x.rule == rule).count()
                };
                if count(&again) > count(&before) {
                    failures.push(format!("{name}: `{}` brought {rule}", fix.message));
                }
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

/// Where `span` of a text stands once `edits` are applied: moved by the edits before it,
/// and covering what replaced the edits inside it.
fn moved(span: Span, edits: &[Edit]) -> Span {
    let at = |p: usize, end: bool| {
        let mut delta = 0isize;
        for e in edits {
            let grown = e.replacement.len() as isize - e.span.len() as isize;
            if e.span.end <= p {
                delta += grown;
            } else if e.span.start < p {
                // Inside the edit: its start, or the end of its replacement.
                let base = e.span.start as isize + delta;
                return (if end {
                    base + e.replacement.len() as isize
                } else {
                    base
                }) as usize;
            }
        }
        (p as isize + delta) as usize
    };
    let start = at(span.start, false);
    Span::new(start, at(span.end, true).max(start))
}

/// Whether two spans share a byte, or an empty one stands where the other starts.
fn overlaps(a: Span, b: Span) -> bool {
    (a.start < b.end && b.start < a.end) || a.start == b.start
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
        reqlint::fix::write_in_place(&file, dir.path(), b"request: get /x\n", "request: GET /x\n")
            .unwrap_err();
    assert!(err.contains("changed"), "{err}");
    assert_eq!(
        std::fs::read_to_string(&file).unwrap(),
        "request: post /x\n"
    );
}

/// `--fix` on `a.req.yaml` and `b.req.yaml` (with these texts) beside a config: the
/// config as the fixes left it, after a check that the run found nothing more.
fn config_after_fix(config: &str, a: &str, b: &str) -> String {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join(".reqlint.yaml"), config).unwrap();
    std::fs::write(dir.path().join("a.req.yaml"), a).unwrap();
    std::fs::write(dir.path().join("b.req.yaml"), b).unwrap();
    let files = ["a.req.yaml", "b.req.yaml"];
    let mut args = vec!["check", "--fix", "--format", "concise"];
    args.extend(files);
    let (code, out) = reqlint(dir.path(), &args);
    assert_eq!(code, 0, "{out}");
    let mut args = vec!["check", "--format", "concise"];
    args.extend(files);
    let (code, out) = reqlint(dir.path(), &args);
    assert_eq!(code, 0, "{out}");
    std::fs::read_to_string(dir.path().join(".reqlint.yaml")).unwrap()
}

/// A token named from the config gets the permission it lacks in the config.
#[test]
fn config_tokens_are_fixed_in_the_config() {
    let config = "tokens:\n  ci-bot:\n    owner: acme\n    permissions:\n      repository:\n        Pull requests: read\n";
    let fixed = config_after_fix(
        config,
        "token: ci-bot\nrequests:\n  - GET /repos/acme/web/pulls\n  - PUT /repos/acme/web/pulls/1/merge\n",
        "token: ci-bot\nrequests:\n  - PUT /repos/acme/web/pulls/2/merge\n",
    );
    assert_eq!(fixed, format!("{config}        Contents: write\n"));
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

/// Settings of a directory without a config of its own.
fn plain_settings() -> Settings {
    let (settings, _) = reqlint::run::settings::from_config(Config::defaults(".".into())).unwrap();
    settings
}

/// `text` fixed as `name` in `mode`, checked for what every fix promises: the text still
/// parses (no `invalid-syntax`, `limit-exceeded` or `duplicate-key`), `rule` finds
/// nothing left, and the file has no error it did not have.
fn fixed_clean(name: &str, text: &str, mode: Mode, rule: &str) -> String {
    let s = plain_settings();
    let before = lint_bytes(name, Path::new(name), text.as_bytes().to_vec(), &s);
    let fixed = fix_text(name, Path::new(name), text, &s, mode);
    let after = lint_bytes(name, Path::new(name), fixed.text.clone().into_bytes(), &s);
    let messages = |r: &reqlint::engine::FileResult| -> Vec<String> {
        r.diagnostics
            .iter()
            .map(|d| format!("{}: {}", d.rule, d.message))
            .collect()
    };
    for parse in ["invalid-syntax", "limit-exceeded", "duplicate-key"] {
        assert!(
            !after.diagnostics.iter().any(|d| d.rule == parse),
            "{name} ({mode:?}): {parse} after the fix:\n{}\n{:?}",
            fixed.text,
            messages(&after)
        );
    }
    assert!(
        !after.diagnostics.iter().any(|d| d.rule == rule),
        "{name} ({mode:?}): `{rule}` left:\n{}\n{:?}",
        fixed.text,
        messages(&after)
    );
    let errors = |r: &reqlint::engine::FileResult| {
        r.diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .count()
    };
    assert!(
        errors(&after) <= errors(&before),
        "{name} ({mode:?}): a new error:\n{}\n{:?}",
        fixed.text,
        messages(&after)
    );
    fixed.text
}

/// The permission a token lacks goes on a line of its own after the last one of its
/// scope: the comment of that line (a suppression, here) stays where it is.
#[test]
fn an_added_permission_leaves_the_comment_of_the_line_before_in_place() {
    let text = "token:\n  owner: acme\n  permissions:\n    repository:\n      Pull requests: read  # reqlint: ignore[token-over-privileged]\nrequests:\n  - POST /repos/acme/web/statuses/3f2a9c1\n";
    let fixed = fixed_clean("a.req.yaml", text, Mode::Safe, "token-missing-permission");
    assert_eq!(
        fixed,
        "token:\n  owner: acme\n  permissions:\n    repository:\n      Pull requests: read  # reqlint: ignore[token-over-privileged]\n      Commit statuses: write\nrequests:\n  - POST /repos/acme/web/statuses/3f2a9c1\n"
    );
    // The suppression still silences the line it was written on.
    let s = plain_settings();
    let again = lint_bytes(
        "a.req.yaml",
        Path::new("a.req.yaml"),
        fixed.into_bytes(),
        &s,
    );
    assert!(again.diagnostics.is_empty(), "{:?}", again.diagnostics);

    // Where the last line of the scope is the one a suppression silences, and another
    // fix removes a line before it (in a later round).
    let path = root().join("fixtures/token-permission-invalid/suppressed.req.yaml");
    let text = std::fs::read_to_string(path).unwrap();
    let fixed = fixed_clean(
        "suppressed.req.yaml",
        &text,
        Mode::Unsafe,
        "token-permission-invalid",
    );
    for line in text.lines().filter(|l| l.contains("reqlint: ignore")) {
        assert!(fixed.lines().any(|l| l == line), "{line:?} lost:\n{fixed}");
    }
}

/// A line a fix adds ends as the file's lines do.
#[test]
fn added_lines_take_the_files_line_ending() {
    let text = "token:\r\n  owner: acme\r\n  permissions:\r\n    repository:\r\n      Pull requests: read\r\nrequests:\r\n  - POST /repos/acme/web/statuses/3f2a9c1\r\n";
    let fixed = fixed_clean("a.req.yaml", text, Mode::Safe, "token-missing-permission");
    assert_eq!(
        fixed,
        "token:\r\n  owner: acme\r\n  permissions:\r\n    repository:\r\n      Pull requests: read\r\n      Commit statuses: write\r\nrequests:\r\n  - POST /repos/acme/web/statuses/3f2a9c1\r\n"
    );
    let text = "- GET /user/emails\r\n- POST /user/emails\r\n";
    let fixed = fixed_clean("b.req.yaml", text, Mode::Safe, "request-list-without-key");
    assert_eq!(fixed, format!("requests:\r\n{text}"));
    // The last line without a line break: the new line goes after it.
    let text = "requests:\n  - request: POST /repos/acme/web/statuses/3f2a9c1\n    token:\n      permissions:\n        repository:\n          Pull requests: read";
    let fixed = fixed_clean("c.req.yaml", text, Mode::Safe, "token-missing-permission");
    assert_eq!(fixed, format!("{text}\n          Commit statuses: write"));
}

/// A flow list over several lines at the top level, put under `requests:`: its other
/// lines indented under the key, so that it still reads as the same list.
#[test]
fn a_flow_list_over_several_lines_is_wrapped_into_valid_yaml() {
    let text = "[\n\"GET /user/emails\",\n\"post /user/emails\"\n]\n";
    let fixed = fixed_clean("a.req.yaml", text, Mode::Safe, "request-list-without-key");
    assert_eq!(
        fixed,
        "requests: [\n  \"GET /user/emails\",\n  \"POST /user/emails\"\n  ]\n"
    );
    let s = plain_settings();
    let result = lint_bytes(
        "a.req.yaml",
        Path::new("a.req.yaml"),
        fixed.into_bytes(),
        &s,
    );
    assert_eq!(result.requests, 2);
    // On one line, the key goes before it; not at the start of a line, no fix.
    let fixed = fixed_clean(
        "b.req.yaml",
        "[GET /user/emails, GET /user]\n",
        Mode::Safe,
        "request-list-without-key",
    );
    assert_eq!(fixed, "requests: [GET /user/emails, GET /user]\n");
}

/// A value reached through an alias is written where its anchor is, for another key or
/// request too: no fix rewrites it there.
#[test]
fn no_fix_edits_a_value_through_an_alias() {
    let s = plain_settings();
    for text in [
        // The anchor is another request's name.
        "requests:\n  - request: POST /v24.0/act_1234567890/customaudiences\n    params: {name: &n IMPRESSION, subtype: CUSTOM, customer_file_source: USER_PROVIDED_ONLY}\n  - request: POST /v24.0/act_1234567890/adsets\n    params:\n      name: Spring sale\n      campaign_id: \"120210000000000001\"\n      daily_budget: \"2000\"\n      billing_event: *n\n      bid_strategy: LOWEST_COST_WITHOUT_CAP\n      optimization_goal: REACH\n      targeting: {geo_locations: {countries: [US]}}\n      status: PAUSED\n",
        // A request's params reached through an alias.
        "requests:\n  - request: POST /v24.0/act_1234567890/customaudiences\n    params: &p {name: x, subtype: CUSTOMM, customer_file_source: USER_PROVIDED_ONLY}\n  - request: POST /v24.0/act_1234567890/customaudiences\n    params: *p\n",
    ] {
        let result = lint_bytes(
            "a.req.yaml",
            Path::new("a.req.yaml"),
            text.as_bytes().to_vec(),
            &s,
        );
        assert!(
            result
                .diagnostics
                .iter()
                .any(|d| d.rule.starts_with("ad-") || d.rule.starts_with("audience-")),
            "{:?}",
            result.diagnostics
        );
        let fixable: Vec<_> = result
            .diagnostics
            .iter()
            .filter(|d| d.fix.is_some())
            .map(|d| &d.message)
            .collect();
        assert!(fixable.is_empty(), "{fixable:?}");
        for mode in [Mode::Safe, Mode::Unsafe] {
            assert_eq!(
                fix_text("a.req.yaml", Path::new("a.req.yaml"), text, &s, mode).text,
                text
            );
        }
    }
    // Where the value is written for its own key, the fix stays.
    let text = "requests:\n  - request: POST /v24.0/act_1234567890/customaudiences\n    params: {name: x, subtype: CUSTOMM, customer_file_source: USER_PROVIDED_ONLY}\n";
    let fixed = fixed_clean("b.req.yaml", text, Mode::Safe, "audience-subtype-invalid");
    assert_eq!(fixed, text.replace("CUSTOMM", "CUSTOM"));
}

/// The removals of `--unsafe-fixes` keep the file valid: the last permission of a scope
/// goes with its scope, a param whose anchor another request reads stays, and a block
/// scalar's removal ends at its last line (the comment above the next key stays).
#[test]
fn unsafe_removals_keep_the_file_valid() {
    let text = "token:\n  owner: acme\n  permissions:\n    repository:\n      Commit statuses: write\n    user:\n      Followers: read\nrequests:\n  - POST /repos/acme/web/statuses/3f2a9c1\n";
    let fixed = fixed_clean("a.req.yaml", text, Mode::Unsafe, "token-over-privileged");
    assert_eq!(
        fixed,
        "token:\n  owner: acme\n  permissions:\n    repository:\n      Commit statuses: write\nrequests:\n  - POST /repos/acme/web/statuses/3f2a9c1\n"
    );
    // Every scope unused: nothing is left to stand under `permissions:`, so no removal.
    let text = "token:\n  owner: acme\n  permissions:\n    user:\n      Followers: read\nrequests:\n  - request: GET /orgs/acme/campaigns\n    public: true\n  - GET /user/emails\n";
    let s = plain_settings();
    let result = lint_bytes(
        "b.req.yaml",
        Path::new("b.req.yaml"),
        text.as_bytes().to_vec(),
        &s,
    );
    let unused: Vec<_> = result
        .diagnostics
        .iter()
        .filter(|d| d.rule == "token-over-privileged")
        .collect();
    assert!(
        !unused.is_empty() && unused.iter().all(|d| d.fix.is_none()),
        "{:?}",
        result.diagnostics
    );

    let text = "requests:\n  - request: POST /v24.0/act_1234567890/customaudiences\n    params:\n      name: Newsletter subscribers\n      zzzqqq: &desc Shared text\n      subtype: CUSTOM\n      customer_file_source: USER_PROVIDED_ONLY\n  - request: POST /v24.0/act_1234567890/customaudiences\n    params:\n      name: Other\n      subtype: CUSTOM\n      customer_file_source: USER_PROVIDED_ONLY\n      description: *desc\n";
    let s = plain_settings();
    let fixed = fix_text(
        "c.req.yaml",
        Path::new("c.req.yaml"),
        text,
        &s,
        Mode::Unsafe,
    );
    assert_eq!(fixed.text, text, "the anchor an alias reads stays");

    let text = "request: POST /v24.0/act_1234567890/customaudiences\nparams:\n  name: Newsletter subscribers\n  subtype: CUSTOM\n  customer_file_source: USER_PROVIDED_ONLY\n  zzzqqq: |\n    line one\n\n  # a comment about description\n  description: keep me\n";
    let fixed = fixed_clean("d.req.yaml", text, Mode::Unsafe, "ad-param-unknown");
    assert_eq!(
        fixed,
        "request: POST /v24.0/act_1234567890/customaudiences\nparams:\n  name: Newsletter subscribers\n  subtype: CUSTOM\n  customer_file_source: USER_PROVIDED_ONLY\n\n  # a comment about description\n  description: keep me\n"
    );
}

/// Raising the level of a permission of a token named from the config edits the config,
/// at the config's offsets; the request file stays as it is.
#[test]
fn a_named_tokens_level_is_raised_in_the_config() {
    let dir = tempfile::tempdir().unwrap();
    let config = "tokens:\n  ci-bot:\n    owner: acme\n    permissions:\n      repository: {Pull requests: read, Issues: read}\n";
    std::fs::write(dir.path().join(".reqlint.yaml"), config).unwrap();
    let request = "# a comment at the top that is long enough to cover the config's byte offsets here.....\ntoken: ci-bot\nrequests:\n  - POST /repos/acme/web/issues\n";
    std::fs::write(dir.path().join("a.req.yaml"), request).unwrap();
    let (code, out) = reqlint(
        dir.path(),
        &["check", "--fix", "--format", "concise", "a.req.yaml"],
    );
    assert_eq!(code, 0, "{out}");
    assert_eq!(
        std::fs::read_to_string(dir.path().join("a.req.yaml")).unwrap(),
        request
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join(".reqlint.yaml")).unwrap(),
        config.replace("Issues: read", "Issues: write")
    );
}

/// Two files need one permission of a named token at two levels: the config gets it
/// once, at the higher level (two lines would write the key twice).
#[test]
fn config_edits_of_one_permission_from_two_files_merge() {
    let config = "tokens:\n  ci-bot:\n    owner: acme\n    permissions:\n      repository:\n        Pull requests: read  # keep\n";
    let fixed = config_after_fix(
        config,
        "token: ci-bot\nrequests:\n  - GET /repos/acme/web/issues\n",
        "token: ci-bot\nrequests:\n  - POST /repos/acme/web/issues\n",
    );
    assert_eq!(fixed, format!("{config}        Issues: write\n"));
}

/// A token that holds nothing of the scope a request needs gets the scope too: in the
/// request file (in rounds: the second permission goes under the scope the first added),
/// and in the config, where two files' needs of one new scope become one block.
#[test]
fn a_missing_scope_is_added_with_its_permission() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join(".reqlint.yaml"), "").unwrap();
    let file = dir.path().join("a.req.yaml");
    std::fs::write(
        &file,
        "token:\n  owner: acme\n  permissions:\n    repository:\n      Issues: read   # the list\nrequests:\n  - GET /repos/acme/web/issues\n  - GET /user/emails\n  - GET /user/followers\n",
    )
    .unwrap();
    let (code, out) = reqlint(
        dir.path(),
        &["check", "--fix", "--format", "concise", "a.req.yaml"],
    );
    assert_eq!(code, 0, "{out}");
    assert_eq!(
        std::fs::read_to_string(&file).unwrap(),
        "token:\n  owner: acme\n  permissions:\n    repository:\n      Issues: read   # the list\n    user:\n      Email addresses: read\n      Followers: read\nrequests:\n  - GET /repos/acme/web/issues\n  - GET /user/emails\n  - GET /user/followers\n"
    );

    let config = "tokens:\n  ci-bot:\n    owner: acme\n    permissions:\n      repository:\n        Issues: read\n";
    let fixed = config_after_fix(
        config,
        "token: ci-bot\nrequests:\n  - GET /user/emails\n  - GET /repos/acme/web/issues\n",
        "token: ci-bot\nrequests:\n  - GET /user/followers\n  - GET /user/emails\n",
    );
    assert_eq!(
        fixed,
        format!("{config}      user:\n        Email addresses: read\n        Followers: read\n")
    );
}

/// A request file that is a symbolic link stays one: the file it points to is rewritten.
#[cfg(unix)]
#[test]
fn a_symbolic_link_stays_a_link() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join(".reqlint.yaml"), "").unwrap();
    std::fs::create_dir(dir.path().join("real")).unwrap();
    std::fs::write(
        dir.path().join("real/target.yaml"),
        "request: post /v24.0/act_1234567890/customaudiences\nparams:\n  name: x\n  subtype: CUSTOM\n",
    )
    .unwrap();
    std::os::unix::fs::symlink("real/target.yaml", dir.path().join("link.req.yaml")).unwrap();
    let (code, out) = reqlint(
        dir.path(),
        &["check", "--fix", "--format", "concise", "link.req.yaml"],
    );
    assert_eq!(code, 0, "{out}");
    let link = dir.path().join("link.req.yaml");
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("real/target.yaml")).unwrap(),
        "request: POST /v24.0/act_1234567890/customaudiences\nparams:\n  name: x\n  subtype: CUSTOM\n"
    );
    // Nothing left of the temporary file beside the target.
    assert_eq!(
        std::fs::read_dir(dir.path().join("real")).unwrap().count(),
        1
    );
}

/// `--fix` (and `--unsafe-fixes`) on one request file beside an empty config: the file
/// as it is afterwards, and the concise report of the run.
fn fixed_file(text: &str, unsafe_fixes: bool) -> (String, String) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join(".reqlint.yaml"), "").unwrap();
    let file = dir.path().join("a.req.yaml");
    std::fs::write(&file, text).unwrap();
    let mut args = vec!["check", "--fix", "--no-cache", "--format", "concise"];
    if unsafe_fixes {
        args.push("--unsafe-fixes");
    }
    args.push("a.req.yaml");
    let (_, out) = reqlint(dir.path(), &args);
    (std::fs::read_to_string(&file).unwrap(), out)
}

/// Token fixes that would break the file or change another token are not offered: a
/// scope key in another case (no line under it gives the permission: it looped, writing
/// the line again each round), a multi-line flow mapping (a line inside `{...}` breaks
/// it), a level shared by a YAML alias; and an insertion at the end of a scope being
/// removed waits for the next round instead of landing in the scope before.
#[test]
fn token_fixes_leave_what_they_cannot_edit_alone() {
    let wrong_case = "token:\n  owner: acme\n  permissions:\n    Repository:\n      Issues: read\nrequests:\n  - GET /repos/acme/web/contents/x\n";
    let (after, out) = fixed_file(wrong_case, false);
    assert_eq!(after, wrong_case, "{out}");
    assert!(!out.contains("duplicate-key"), "{out}");

    let flow = "token:\n  owner: acme\n  permissions:\n    repository: {\n      Contents: read\n    }\nrequests:\n  - GET /repos/acme/web/contents/README.md\n  - GET /repos/acme/web/issues\n  - DELETE /gists/abc\n";
    let (after, out) = fixed_file(flow, false);
    assert_eq!(after, flow, "{out}");
    assert!(!out.contains("invalid-syntax"), "{out}");

    let aliased = "token:\n  owner: acme\n  permissions:\n    repository:\n      Issues: &lvl read\n      Contents: *lvl\nrequests:\n  - GET /repos/acme/web/issues\n  - PUT /repos/acme/web/contents/README.md\n";
    for unsafe_fixes in [false, true] {
        let (after, out) = fixed_file(aliased, unsafe_fixes);
        assert_eq!(after, aliased, "{out}");
        assert!(!out.contains("fixed"), "{out}");
    }
    // One token named by several requests through an alias is still one token: fixed.
    let shared = "x-token: &t\n  owner: acme\n  permissions:\n    repository:\n      Issues: read\nrequests:\n  - {request: GET /repos/acme/web/issues, token: *t}\n  - {request: POST /repos/acme/web/issues, token: *t}\n";
    let (after, out) = fixed_file(shared, false);
    assert!(after.contains("      Issues: write\n"), "{after}\n{out}");

    let moved = "token:\n  owner: acme\n  permissions:\n    user:\n      Gists: write\n    repository:\n      Contents: read\nrequests:\n  - DELETE /gists/abc\n  - GET /repos/acme/web/issues\n";
    let (after, out) = fixed_file(moved, true);
    assert!(!out.contains("token-permission-invalid"), "{out}");
    assert!(!out.contains("error["), "{after}\n{out}");
    assert!(
        after.contains("    repository:\n      Issues: read\n"),
        "{after}"
    );
}

/// `--fix --unsafe-fixes` over a tree of a config and request files: the config as it
/// is afterwards, and the concise report.
fn config_after_unsafe_fix(config: &str, files: &[(&str, &str)]) -> (String, String) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join(".reqlint.yaml"), config).unwrap();
    for (name, text) in files {
        std::fs::write(dir.path().join(name), text).unwrap();
    }
    let args = [
        "check",
        "--fix",
        "--unsafe-fixes",
        "--no-cache",
        "--format",
        "concise",
        ".",
    ];
    let (_, out) = reqlint(dir.path(), &args);
    let config = std::fs::read_to_string(dir.path().join(".reqlint.yaml")).unwrap();
    (config, out)
}

/// A named token copied from another by a YAML alias (`ci-bot: *base`) gets no edit in
/// the config: it would change both.
#[test]
fn an_aliased_config_token_is_not_edited() {
    let config = "tokens:\n  base: &base\n    owner: acme\n    permissions:\n      repository:\n        Contents: read\n  ci-bot: *base\n";
    let files = [(
        "a.req.yaml",
        "token: ci-bot\nrequests:\n  - GET /repos/acme/web/issues\n",
    )];
    let (after, out) = config_after_unsafe_fix(config, &files);
    assert_eq!(after, config, "{out}");
}

/// A file whose fixes take more rounds than the cap still tells the run which
/// permissions its requests need: a named token's permission it uses is not removed.
#[test]
fn out_of_rounds_the_file_still_tells_what_it_needs() {
    let config = "tokens:\n  ci-bot:\n    owner: acme\n    permissions:\n      repository:\n        Contents: read\n        Issues: read\n";
    let mut a = String::from(
        "token:\n  owner: acme\n  permissions:\n    repository:\n      Metadata: read\nrequests:\n  - request: GET /repos/acme/web/issues\n    token: ci-bot\n",
    );
    for path in [
        "environments",
        "autolinks",
        "codespaces",
        "activity",
        "deployments",
        "issues",
        "pages",
        "pulls",
        "security-advisories",
        "hooks",
    ] {
        a.push_str(&format!("  - GET /repos/acme/web/{path}\n"));
    }
    a.push_str("  - GET /user/emails\n  - GET /user/followers\n");
    let files = [
        ("a.req.yaml", a.as_str()),
        (
            "b.req.yaml",
            "token: ci-bot\nrequests:\n  - GET /repos/acme/web/activity\n",
        ),
    ];
    let (config, out) = config_after_unsafe_fix(config, &files);
    assert!(config.contains("        Issues: read\n"), "{config}\n{out}");
}

/// An endpoint that takes one of several permissions, with the token holding one of them
/// too low: that one is raised, rather than a second permission added beside it.
#[test]
fn a_held_alternative_is_raised() {
    let text = "token:\n  owner: acme\n  permissions:\n    repository:\n      Pull requests: read\nrequests:\n  - POST /repos/acme/web/issues/1/labels\n";
    let (after, out) = fixed_file(text, false);
    assert_eq!(
        after,
        text.replace("Pull requests: read", "Pull requests: write"),
        "{out}"
    );
    // (What is left is the host's note that the endpoint may need more: a warning.)
    assert!(!out.contains("error[token-missing-permission]"), "{out}");
}

/// Anchors a token shares with other places of the file get no fix (a level shared with
/// a description, a scope merged in with `<<:` from an anchor elsewhere); in the config,
/// a permission a token needs goes in before an unused scope of it is removed.
#[test]
fn token_fixes_and_anchors_outside_the_token() {
    let merged = "x-a:\n  b: &base\n        Contents: read\ntoken:\n  permissions:\n    repository:\n      <<: *base\nrequests:\n  - GET /user/followers\n  - GET /repos/a/b/contents/x\n";
    let (after, out) = fixed_file(merged, false);
    assert_eq!(after, merged, "{out}");
    assert!(!out.contains("invalid-syntax"), "{out}");
    let shared = "token:\n  permissions:\n    repository:\n      Issues: &lvl read\nrequests:\n  - request: POST /repos/acme/web/issues\n  - request: GET /repos/acme/web/issues\n    description: *lvl\n";
    for unsafe_fixes in [false, true] {
        let (after, out) = fixed_file(shared, unsafe_fixes);
        assert_eq!(after, shared, "{out}");
    }

    let config = "tokens:\n  bot:\n    owner: acme\n    permissions:\n      repository:\n        Contents: read\n      user:\n        Followers: read\n";
    let files = [(
        "a.req.yaml",
        "token: bot\nrequests:\n  - POST /repos/acme/web/issues\n  - GET /user/followers\n",
    )];
    let (after, out) = config_after_unsafe_fix(config, &files);
    assert!(after.contains("        Issues: write\n"), "{after}\n{out}");
    assert!(!out.contains("error[token-missing-permission]"), "{out}");
}
