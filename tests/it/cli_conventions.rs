//! The command line keeps its promises whatever it writes to: errors are one
//! `reqlint: error:` line, a full output is exit 2 and never a panic, `--threads` is
//! bounded.

use std::fs::File;
use std::path::PathBuf;
use std::process::{Command, Stdio};

use crate::support::watchdog;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn reqlint() -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_reqlint"));
    cmd.current_dir(root())
        .env_remove("GITHUB_ACTIONS")
        .env_remove("NO_COLOR");
    cmd
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Every command the binary has, with arguments that write something.
const COMMANDS: &[&[&str]] = &[
    &["rules"],
    &["explain", "literal-secret"],
    &["--help"],
    &["check", "--help"],
    &["--version"],
    &["schema", "request"],
    &["schema", "config"],
    &["check", "fixtures/", "--format", "json"],
    &["check", "fixtures/", "--format", "human"],
    &["scopes", "fixtures/token-missing-permission"],
    &["completions", "bash"],
    &["manpage"],
];

#[test]
fn a_full_output_is_exit_2_and_one_error_line() {
    if !std::path::Path::new("/dev/full").exists() {
        eprintln!("skipped: no /dev/full");
        return;
    }
    for args in COMMANDS {
        let out = reqlint()
            .args(*args)
            .stdout(File::options().write(true).open("/dev/full").unwrap())
            .output()
            .unwrap();
        assert_eq!(
            out.status.code(),
            Some(2),
            "{args:?}: {}",
            text(&out.stderr)
        );
        let stderr = text(&out.stderr);
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        assert!(
            stderr.starts_with("reqlint: error: cannot write"),
            "{args:?}: {stderr}"
        );
    }
}

#[test]
fn a_full_standard_error_does_not_abort() {
    if !std::path::Path::new("/dev/full").exists() {
        eprintln!("skipped: no /dev/full");
        return;
    }
    let out = reqlint()
        .args(["check", "no/such/path"])
        .stderr(File::options().write(true).open("/dev/full").unwrap())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let out = reqlint()
        .args(["check", "--no-such-option"])
        .stderr(File::options().write(true).open("/dev/full").unwrap())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn a_closed_pipe_ends_quietly() {
    for args in COMMANDS {
        let mut child = reqlint()
            .args(*args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // Close the reading end at once.
        drop(child.stdout.take());
        let out = child.wait_with_output().unwrap();
        let stderr = text(&out.stderr);
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert_ne!(out.status.code(), Some(101), "{args:?}");
        assert!(out.status.code().is_some(), "{args:?}: killed by a signal");
    }
}

#[test]
fn argument_errors_are_one_line() {
    for args in [
        &["check", "--no-such-option"][..],
        &["check", "-V"],
        &["check", "--format", "xml"],
        &["explain"],
        &["schema", "nothing"],
        &["check", "--threads", "0"],
        &["check", "--threads", "many"],
    ] {
        let out = reqlint().args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let stderr = text(&out.stderr);
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        assert!(stderr.starts_with("reqlint: error: "), "{args:?}: {stderr}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
}

#[test]
fn help_and_version_go_to_standard_output() {
    for args in [
        &["--help"][..],
        &["-V"],
        &["--version"],
        &["check", "--help"],
    ] {
        let out = reqlint().args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{args:?}");
        assert!(!out.stdout.is_empty(), "{args:?}");
        assert!(out.stderr.is_empty(), "{args:?}");
    }
}

#[test]
fn threads_are_bounded() {
    // usize::MAX used to panic, and 1,000 threads spent seconds being started: a huge
    // number is taken as the most that helps (`parse_threads`, unit-tested in cli.rs),
    // and the findings are those of one thread.
    let concise = |n: &str| {
        let out = watchdog::output(
            reqlint().args(["check", "fixtures/", "--format", "concise", "--threads", n]),
            &format!("--threads {n}"),
        );
        assert_eq!(out.status.code(), Some(1), "{n}: {}", text(&out.stderr));
        let mut lines: Vec<String> = text(&out.stdout).lines().map(String::from).collect();
        lines.sort();
        lines
    };
    let one = concise("1");
    for n in ["18446744073709551615", "100000"] {
        assert_eq!(concise(n), one, "--threads {n}");
    }
}

fn run(args: &[&str]) -> (i32, String, String) {
    run_in(&root(), args)
}

/// Runs reqlint in `dir`: its exit code, standard output and standard error.
fn run_in(dir: &std::path::Path, args: &[&str]) -> (i32, String, String) {
    let out = reqlint().current_dir(dir).args(args).output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        text(&out.stdout),
        text(&out.stderr),
    )
}

fn rules_reported(stdout: &str) -> std::collections::BTreeSet<String> {
    stdout
        .lines()
        .filter_map(|l| {
            l.split_once("]: ")
                .and_then(|(head, _)| head.rsplit_once('['))
        })
        .map(|(_, rule)| rule.to_string())
        .collect()
}

/// `--select`, `--extend-select` and `--ignore` take rules and groups, as ruff's do.
#[test]
fn select_ignore_and_extend_select() {
    let (_, out, _) = run(&[
        "check",
        "fixtures/",
        "--format",
        "concise",
        "--select",
        "advertising",
    ]);
    let rules = rules_reported(&out);
    assert!(!rules.is_empty());
    let advertising = |r: &String| {
        r.starts_with("ad")
            || r.starts_with("audience")
            || r.starts_with("campaign")
            || ["invalid-syntax", "limit-exceeded"].contains(&r.as_str())
    };
    assert!(rules.iter().all(advertising), "{rules:?}");
    let (_, out, _) = run(&[
        "check",
        "fixtures/",
        "--format",
        "concise",
        "--select",
        "ad-param-invalid,literal-secret",
    ]);
    // A file that cannot be read is reported whatever is selected, as ruff reports
    // syntax errors.
    assert_eq!(
        rules_reported(&out).into_iter().collect::<Vec<_>>(),
        [
            "ad-param-invalid",
            "invalid-syntax",
            "limit-exceeded",
            "literal-secret"
        ]
    );
    let (_, out, _) = run(&[
        "check",
        "fixtures/",
        "--format",
        "concise",
        "--ignore",
        "files,code-hosting",
    ]);
    assert!(rules_reported(&out).iter().all(advertising));
    for empty in ["", ","] {
        let (code, _, err) = run(&["check", "fixtures/", "--select", empty]);
        assert_eq!(code, 2, "{empty:?}");
        assert!(err.contains("`--select` names no rule or group"), "{err}");
    }
    let (code, _, err) = run(&["check", "fixtures/", "--select", "ad-parm-invalid"]);
    assert_eq!(code, 2);
    assert!(err.contains("did you mean `ad-param-invalid`"), "{err}");
    // A rule the config turns off comes back with --extend-select.
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join(".reqlint.yaml"),
        "rules:\n  unknown-request-key: off\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("a.req.yaml"),
        "request: GET /user\nparms: {}\n",
    )
    .unwrap();
    let here = |args: &[&str]| run_in(dir.path(), args).1;
    assert!(!here(&["check", "--format", "concise", "."]).contains("unknown-request-key"));
    assert!(
        here(&[
            "check",
            "--format",
            "concise",
            "--extend-select",
            "unknown-request-key",
            "."
        ])
        .contains("unknown-request-key")
    );
}

/// The config's `select`, `extend-select`, `ignore` and `min-severity`, and the command
/// line over them (as ruff's `lint.select` and `--select`).
#[test]
fn the_config_selects_rules_and_the_command_line_overrides_it() {
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, text: &str| std::fs::write(dir.path().join(name), text).unwrap();
    write(
        "a.req.yaml",
        "token: {permissions: {}}\nrequest: GET /user/emails\nparms: 1\n",
    );
    write("broken.req.yaml", "request: [\n");
    let here = |args: &[&str]| run_in(dir.path(), args);
    let reported = |args: &[&str]| {
        let mut all = vec!["check", "--no-cache", "--format", "concise", "."];
        all.extend_from_slice(args);
        rules_reported(&here(&all).1)
    };
    write(".reqlint.yaml", "select: [code-hosting]\n");
    // A file that cannot be read is reported whatever is selected.
    assert_eq!(
        reported(&[]).into_iter().collect::<Vec<_>>(),
        ["invalid-syntax", "token-missing-permission"]
    );
    // --select replaces the config's select.
    assert_eq!(
        reported(&["--select", "files"])
            .into_iter()
            .collect::<Vec<_>>(),
        ["invalid-syntax", "unknown-request-key"]
    );
    write(
        ".reqlint.yaml",
        "ignore: [unknown-request-key, invalid-syntax]\nextend-select: [files]\n",
    );
    // ignore wins over extend-select in the same config ...
    assert_eq!(
        reported(&[]).into_iter().collect::<Vec<_>>(),
        ["token-missing-permission"]
    );
    // ... and --extend-select on the command line wins over the config's ignore.
    assert_eq!(
        reported(&["--extend-select", "unknown-request-key"])
            .into_iter()
            .collect::<Vec<_>>(),
        ["token-missing-permission", "unknown-request-key"]
    );
    // `rules` gives the severity of a selected rule; min-severity drops what is below.
    write(
        ".reqlint.yaml",
        "select: [files, token-missing-permission]\nrules:\n  token-missing-permission: warning\nmin-severity: error\n",
    );
    let (code, out, _) = here(&["check", "--no-cache", "--format", "concise", "."]);
    assert_eq!(code, 1);
    assert_eq!(
        rules_reported(&out).into_iter().collect::<Vec<_>>(),
        ["invalid-syntax", "unknown-request-key"]
    );
    assert_eq!(
        reported(&["--min-severity", "warning"])
            .into_iter()
            .collect::<Vec<_>>(),
        [
            "invalid-syntax",
            "token-missing-permission",
            "unknown-request-key"
        ]
    );
    let (_, out, _) = here(&["check", "--show-settings"]);
    assert!(out.contains("min-severity: error (set)"), "{out}");
    assert!(out.contains("  duplicate-key: error\n"), "{out}");
    assert!(
        out.contains("  token-over-privileged: off (set)\n"),
        "{out}"
    );
    let (_, out, _) = here(&["check", "--show-settings", "--min-severity", "info"]);
    assert!(out.contains("min-severity: info (--min-severity)"), "{out}");
    // A name that is neither a rule nor a group is an error at its place.
    write(".reqlint.yaml", "select:\n  - files\n  - advertisng\n");
    let (code, _, err) = here(&["check", "."]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains(
            ".reqlint.yaml:3:5: unknown rule or group `advertisng` (did you mean `advertising`?)"
        ),
        "{err}"
    );
    write(".reqlint.yaml", "min-severity: warn\n");
    let (code, _, err) = here(&["check", "."]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains(".reqlint.yaml:1:15: unknown severity `warn`"),
        "{err}"
    );
}

/// `--min-severity`, `--output-file` and `--statistics`.
#[test]
fn min_severity_output_file_and_statistics() {
    let (code, out, _) = run(&[
        "check",
        "fixtures/",
        "--format",
        "concise",
        "--min-severity",
        "error",
    ]);
    assert_eq!(code, 1);
    assert!(
        out.lines()
            .filter(|l| l.contains(": "))
            .all(|l| !l.contains(": warning[") && !l.contains(": info[")),
        "{out}"
    );
    let (code, out, _) = run(&[
        "check",
        "fixtures/ad-version-newer-than-catalog/bad.req.yaml",
        "--min-severity",
        "warning",
        "--format",
        "concise",
    ]);
    assert_eq!(code, 0, "{out}");
    assert!(out.starts_with("All checks passed"), "{out}");
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("report.json");
    let (code, out, _) = run(&[
        "check",
        "fixtures/ad-param-invalid/bad.req.yaml",
        "--format",
        "json",
        "--output-file",
        file.to_str().unwrap(),
    ]);
    assert_eq!(code, 1);
    assert!(out.is_empty(), "{out}");
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert!(report["summary"]["errors"].as_u64().unwrap() > 0);
    // Every format goes to the file, byte for byte what standard output would get.
    for format in ["human", "concise", "json", "sarif", "github"] {
        let args = [
            "check",
            "fixtures/ad-param-invalid/bad.req.yaml",
            "--color",
            "never",
            "--format",
            format,
        ];
        let (_, stdout, _) = run(&args);
        let file = dir.path().join(format!("report.{format}"));
        let mut with_file = args.to_vec();
        with_file.extend(["--output-file", file.to_str().unwrap()]);
        let (code, out, _) = run(&with_file);
        assert_eq!(code, 1, "{format}");
        assert!(out.is_empty(), "{format}: {out}");
        assert_eq!(std::fs::read_to_string(&file).unwrap(), stdout, "{format}");
    }
    let (_, out, _) = run(&["check", "fixtures/", "--statistics"]);
    let first = out.lines().next().unwrap();
    assert!(
        first
            .split_whitespace()
            .next()
            .unwrap()
            .parse::<u32>()
            .is_ok(),
        "{out}"
    );
    assert!(out.contains("ad-param-invalid (error)"), "{out}");
    let (_, out, _) = run(&["check", "fixtures/", "--statistics", "--format", "json"]);
    let stats: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert!(
        stats["statistics"]
            .as_array()
            .unwrap()
            .iter()
            .any(|s| s["rule"] == "ad-param-invalid")
    );
}

/// Shell completions and the man page, generated from the command line's definitions.
#[test]
fn completions_and_man_page() {
    for shell in ["bash", "zsh", "fish", "powershell", "elvish"] {
        let (code, out, _) = run(&["completions", shell]);
        assert_eq!(code, 0, "{shell}");
        assert!(out.contains("reqlint"), "{shell}");
        assert!(
            out.contains("select") && out.contains("unsafe-fixes"),
            "{shell}"
        );
    }
    // The bash script is valid bash.
    let (_, script, _) = run(&["completions", "bash"]);
    if let Ok(out) = Command::new("bash").args(["-n", "-c", &script]).output() {
        assert!(out.status.success(), "{}", text(&out.stderr));
    }
    let (code, man, _) = run(&["manpage"]);
    assert_eq!(code, 0);
    assert!(man.contains(".TH reqlint 1"), "{man}");
    assert!(man.contains("completions"), "{man}");
    // --dir: the page of each command the main page's SEE ALSO names.
    let dir = tempfile::tempdir().unwrap();
    let (code, _, err) = run(&["manpage", "--dir", dir.path().to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    for page in [
        "reqlint.1",
        "reqlint-check.1",
        "reqlint-scopes.1",
        "reqlint-explain.1",
    ] {
        assert!(dir.path().join(page).is_file(), "{page}");
    }
    let check = std::fs::read_to_string(dir.path().join("reqlint-check.1")).unwrap();
    assert!(check.contains("min\\-severity"), "{check}");
    // A missing argument is named in the one error line.
    let (code, _, err) = run(&["completions"]);
    assert_eq!(code, 2);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("not provided: <SHELL>"), "{err}");
}

/// `--show-files` and `--show-settings` lint nothing and say what a run would do.
#[test]
fn show_files_and_settings() {
    let (code, out, _) = run(&["check", "--show-files", "fixtures/ad-param-missing"]);
    assert_eq!(code, 0);
    assert!(
        out.lines()
            .all(|l| l.starts_with("fixtures/ad-param-missing/")),
        "{out}"
    );
    assert!(
        out.contains("fixtures/ad-param-missing/bad.req.yaml"),
        "{out}"
    );
    assert!(!out.contains(".out"), "{out}");
    // Under each file, the requests no API checks, by line and where they go.
    let (code, out, _) = run(&[
        "check",
        "--show-files",
        "fixtures/unknown-endpoint/good-unknown-hosts.req.yaml",
        "fixtures/unknown-endpoint/good.req.yaml",
    ]);
    assert_eq!(code, 0);
    assert_eq!(
        out,
        "fixtures/unknown-endpoint/good-unknown-hosts.req.yaml\n\
         \x20 line 8: not checked: a request to localhost:8080\n\
         \x20 line 9: not checked: a request to raw.githubusercontent.com\n\
         \x20 line 10: not checked: a request to rupload.facebook.com\n\
         \x20 line 11: not checked: a request to graph.instagram.com\n\
         fixtures/unknown-endpoint/good.req.yaml\n"
    );
    let (code, out, _) = run(&["check", "--show-settings", "--ignore", "literal-secret"]);
    assert_eq!(code, 0);
    assert!(
        out.contains("config: ") && out.contains(".reqlint.yaml"),
        "{out}"
    );
    assert!(out.contains("  literal-secret: off (set)"), "{out}");
    assert!(out.contains("  ad-param-invalid: error\n"), "{out}");
    assert!(out.contains("tokens: collections-bot"), "{out}");
    assert!(out.contains("variables: "), "{out}");
    // The environments found beside a file named on the command line, by name only.
    let (code, named, _) = run(&[
        "check",
        "--show-settings",
        "fixtures/formats/http/github.http",
    ]);
    assert_eq!(code, 0);
    assert!(
        named.contains("environments: discovered beside each request file")
            && named.contains("fixtures/formats/http/github.http: fixtures/formats/http/http-client.private.env.json, fixtures/formats/http/http-client.env.json (2 environments;")
            && named.contains("access_token"),
        "{named}"
    );
    assert!(!named.contains("kept out of the repository"), "{named}");
    // The cache is the user's, out of the project.
    assert!(out.contains("cache: ") && out.contains("reqlint/"), "{out}");
    assert!(!out.contains(".reqlint_cache"), "{out}");
    let (_, out, _) = run(&["check", "--show-settings", "--no-cache"]);
    assert!(out.contains("cache: off (--no-cache)\n"), "{out}");
    assert!(out.contains("\nforce-exclude: no"), "{out}");
    assert!(out.contains("\nper-file-ignores:"), "{out}");
    // --output-file takes what --show-settings and --show-files print.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("settings.txt");
    let (code, out, _) = run(&[
        "check",
        "--show-settings",
        "--force-exclude",
        "--output-file",
        file.to_str().unwrap(),
    ]);
    assert_eq!(code, 0);
    assert!(out.is_empty(), "{out}");
    let written = std::fs::read_to_string(&file).unwrap();
    assert!(
        written.contains("force-exclude: yes (--force-exclude)\n"),
        "{written}"
    );
}

/// `--force-exclude`: files named on the command line obey `include` and `exclude`, as a
/// hook that passes every changed file needs; without it they are linted anyway.
#[test]
fn force_exclude_applies_the_config_to_named_files() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join(".reqlint.yaml"),
        "exclude: [\"vendor/**\"]\nper-file-ignores:\n  \"legacy/**\": [unknown-request-key]\n",
    )
    .unwrap();
    for sub in ["vendor", "legacy"] {
        std::fs::create_dir(dir.path().join(sub)).unwrap();
        std::fs::write(
            dir.path().join(sub).join("a.req.yaml"),
            "request: GET /user\nparms: {}\n",
        )
        .unwrap();
    }
    std::fs::write(dir.path().join("notes.yaml"), "parms: {}\n").unwrap();
    let here = |args: &[&str]| {
        let mut all = vec!["check", "--no-cache", "--format", "concise"];
        all.extend_from_slice(args);
        run_in(dir.path(), &all)
    };
    let named = ["vendor/a.req.yaml", "notes.yaml", "legacy/a.req.yaml"];
    // Named files are linted whatever exclude and include say ...
    let (code, out, _) = here(&named);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("vendor/a.req.yaml:2:1"), "{out}");
    // ... per-file-ignores hold for them all the same.
    assert!(!out.contains("legacy/a.req.yaml:2:1"), "{out}");
    // With --force-exclude, the excluded and the not included are left out, in silence.
    let mut args = vec!["--force-exclude"];
    args.extend(named);
    let (code, out, err) = here(&args);
    assert_eq!(code, 0, "{out}{err}");
    assert!(!out.contains("vendor/"), "{out}");
    assert!(!out.contains("notes.yaml"), "{out}");
    assert_eq!(err, "");
    let (_, out, _) = here(&[
        "--show-files",
        "--force-exclude",
        "vendor/a.req.yaml",
        "legacy/a.req.yaml",
    ]);
    assert_eq!(out, "legacy/a.req.yaml\n");
    // Standard input, under the name it is linted as.
    let (code, out, _) = here(&[
        "--show-files",
        "--stdin-filename",
        "requests/x.req.yaml",
        "-",
    ]);
    assert_eq!(code, 0);
    assert_eq!(out, "requests/x.req.yaml (standard input)\n");
    let (_, out, _) = here(&[
        "--show-files",
        "--force-exclude",
        "--stdin-filename",
        "vendor/x.req.yaml",
        "-",
    ]);
    assert_eq!(out, "");
}

/// A baseline: written once, it leaves its findings out of later runs, also when lines
/// move; a new finding still shows.
#[test]
fn baseline_for_gradual_adoption() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join(".reqlint.yaml"), "").unwrap();
    let file = dir.path().join("a.req.yaml");
    std::fs::write(&file, "request: POST /v25.0/act_1/campaigns\nparams:\n  objective: SALEZ\n  special_ad_categories: []\n").unwrap();
    let here = |args: &[&str]| {
        let (code, out, _) = run_in(dir.path(), args);
        (code, out)
    };
    let (code, _, err) = run_in(
        dir.path(),
        &["check", "--write-baseline", "baseline.json", "."],
    );
    assert_eq!(code, 0);
    // Success is news, not a warning.
    assert_eq!(
        err,
        "reqlint: wrote 1 finding to the baseline baseline.json\n"
    );
    let baseline: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("baseline.json")).unwrap())
            .unwrap();
    assert_eq!(baseline["entries"][0]["rule"], "ad-param-invalid");
    let against_baseline = [
        "check",
        "--baseline",
        "baseline.json",
        "--format",
        "concise",
        ".",
    ];
    let (code, out) = here(&against_baseline);
    assert_eq!(code, 0, "{out}");
    // The summary says what the baseline hid.
    assert_eq!(
        out,
        "All checks passed: 1 file (1 request) (1 finding hidden by the baseline).\n"
    );
    // Lines above it move the finding: still left out. A new one shows.
    std::fs::write(&file, "# a note\n\nrequest: POST /v25.0/act_1/campaigns\nparams:\n  objective: SALEZ\n  status: PAUSD\n  special_ad_categories: []\n").unwrap();
    let (code, out) = here(&against_baseline);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("PAUSD") && !out.contains("SALEZ"), "{out}");
    // Entries name the file relative to the config's directory: a run from a
    // subdirectory or with an absolute path matches them, and the same findings in
    // another file are not taken for them.
    std::fs::create_dir(dir.path().join("sub")).unwrap();
    std::fs::copy(&file, dir.path().join("sub/a.req.yaml")).unwrap();
    let (code, out) = here(&[
        "check",
        "--baseline",
        "baseline.json",
        "--format",
        "concise",
        file.to_str().unwrap(),
    ]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("PAUSD") && !out.contains("SALEZ"), "{out}");
    let (_, out, _) = run_in(
        &dir.path().join("sub"),
        &[
            "check",
            "--baseline",
            "../baseline.json",
            "--format",
            "concise",
            ".",
        ],
    );
    assert!(out.contains("SALEZ") && out.contains("PAUSD"), "{out}");
    std::fs::write(dir.path().join("bad.json"), "{}").unwrap();
    let (code, _) = here(&["check", "--baseline", "bad.json", "."]);
    assert_eq!(code, 2);
}

/// The result cache: a second run reuses what the first wrote and reports the same;
/// a changed file, config or context snapshot is checked again; `--no-cache` writes
/// nothing; `--cache-dir` moves it; a damaged cache file changes nothing. By default it
/// is in the user's cache directory, one per project, and nothing is written in the
/// project.
#[test]
fn result_cache_is_keyed_by_content_and_config() {
    let dir = tempfile::tempdir().unwrap();
    let cache_home = tempfile::tempdir().unwrap();
    let at = |rel: &str| dir.path().join(rel);
    let write = |rel: &str, text: &str| std::fs::write(at(rel), text).unwrap();
    write(".reqlint.yaml", "context: [snapshot.yaml]\n");
    write(
        "snapshot.yaml",
        "custom_audiences:\n  - id: \"23850000000000001\"\n    subtype: ENGAGEMENT\n    operation_status: {code: 471}\n    fields_violating_integrity_policy: [name]\n",
    );
    write(
        "edit.req.yaml",
        "request: POST /v24.0/23850000000000001\nparams:\n  description: x\n",
    );
    write(
        "typo.req.yaml",
        "request: GET /v24.0/act_1/campaigns\nparms: {}\n",
    );
    let check = |extra: &[&str]| {
        let out = reqlint()
            .current_dir(dir.path())
            .env("XDG_CACHE_HOME", cache_home.path())
            .env("LOCALAPPDATA", cache_home.path())
            .args(["check", ".", "--format", "concise"])
            .args(extra)
            .output()
            .unwrap();
        assert!(out.stderr.is_empty(), "{}", text(&out.stderr));
        (out.status.code().unwrap_or(-1), text(&out.stdout))
    };
    // The project's directory in the user's cache: `reqlint/` and 16 hex digits.
    let user_cache = || -> std::path::PathBuf {
        let projects: Vec<_> = std::fs::read_dir(cache_home.path().join("reqlint"))
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        assert_eq!(projects.len(), 1, "{projects:?}");
        let name = projects[0]
            .file_name()
            .unwrap()
            .to_string_lossy()
            .into_owned();
        assert!(
            name.len() == 16 && name.bytes().all(|b| b.is_ascii_hexdigit()),
            "{name}"
        );
        projects[0].clone()
    };
    let cache_files = |dir: &std::path::Path| -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .map(|d| {
                d.map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                    .collect()
            })
            .unwrap_or_default();
        names.sort();
        names
    };

    let uncached = check(&["--no-cache"]);
    assert!(
        uncached.1.contains("audience-flagged-edit"),
        "{}",
        uncached.1
    );
    assert!(uncached.1.contains("unknown-request-key"), "{}", uncached.1);
    assert!(
        !cache_home.path().join("reqlint").exists(),
        "--no-cache wrote a cache"
    );

    let before: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
    assert_eq!(check(&[]), uncached);
    assert_eq!(
        std::fs::read_dir(dir.path()).unwrap().count(),
        before.len(),
        "the cache wrote in the project"
    );
    let files = cache_files(&user_cache());
    assert_eq!(files.len(), 3, "{files:?}");
    assert!(files.contains(&"CACHEDIR.TAG".to_string()));
    assert_eq!(
        std::fs::read_to_string(user_cache().join(".gitignore")).unwrap(),
        "# reqlint's result cache\n*\n"
    );
    // Reused: the same report.
    assert_eq!(check(&[]), uncached);

    // A changed file is checked again.
    write(
        "typo.req.yaml",
        "request: GET /v24.0/act_1/campaigns\nparams: {}\n",
    );
    let (_, out) = check(&[]);
    assert!(!out.contains("unknown-request-key"), "{out}");
    assert_eq!(check(&[]), check(&["--no-cache"]));

    // A changed context snapshot, then a changed config.
    write(
        "snapshot.yaml",
        "custom_audiences:\n  - id: \"23850000000000001\"\n    subtype: ENGAGEMENT\n",
    );
    let (code, out) = check(&[]);
    assert!(!out.contains("audience-flagged-edit"), "{out}");
    assert_eq!(code, 0, "{out}");
    write(
        ".reqlint.yaml",
        "context: []\nrules:\n  unknown-request-key: off\n",
    );
    write(
        "typo.req.yaml",
        "request: GET /v24.0/act_1/campaigns\nparms: {}\n",
    );
    assert_eq!(check(&[]), check(&["--no-cache"]));
    write(".reqlint.yaml", "context: []\n");
    let (_, out) = check(&[]);
    assert!(out.contains("unknown-request-key"), "{out}");

    // A changed environment file: its variables' values are read into the requests.
    write(
        ".reqlint.yaml",
        "environments: [dev.postman_environment.json]\n",
    );
    let environment = |objective: &str| {
        format!(
            "{{\"name\": \"dev\", \"values\": [{{\"key\": \"objective\", \"value\": \"{objective}\", \"enabled\": true}}]}}\n"
        )
    };
    write(
        "dev.postman_environment.json",
        &environment("OUTCOME_SALEZ"),
    );
    write(
        "a.http",
        "POST https://graph.facebook.com/v25.0/act_1/campaigns?objective={{objective}}&special_ad_categories=[]&name=x&status=PAUSED\n",
    );
    let (_, out) = check(&[]);
    assert!(out.contains("OUTCOME_SALEZ"), "{out}");
    write(
        "dev.postman_environment.json",
        &environment("OUTCOME_SALES"),
    );
    let (_, out) = check(&[]);
    assert!(!out.contains("a.http"), "{out}");
    assert_eq!(check(&[]), check(&["--no-cache"]));
    std::fs::remove_file(at("a.http")).unwrap();
    write(".reqlint.yaml", "context: []\n");

    // A damaged cache file is ignored.
    for name in cache_files(&user_cache()) {
        if name.ends_with(".bin") {
            let path = user_cache().join(&name);
            let mut bytes = std::fs::read(&path).unwrap();
            let half = bytes.len() / 2;
            bytes.truncate(half);
            bytes.extend_from_slice(b"\xff\xff\xff");
            std::fs::write(&path, bytes).unwrap();
        }
    }
    assert_eq!(check(&[]), check(&["--no-cache"]));

    // --cache-dir: there, and nowhere else.
    std::fs::remove_dir_all(user_cache()).unwrap();
    let elsewhere = tempfile::tempdir().unwrap();
    let cache_dir = elsewhere.path().join("c");
    let cache_arg = cache_dir.to_string_lossy().into_owned();
    assert_eq!(check(&["--cache-dir", &cache_arg]), check(&["--no-cache"]));
    assert_eq!(
        std::fs::read_dir(cache_home.path().join("reqlint"))
            .unwrap()
            .count(),
        0
    );
    assert_eq!(cache_files(&cache_dir).len(), 3);

    // A run that writes the cache removes the files of other days and versions, and
    // nothing that is not a cache file.
    let stale = cache_dir.join("reqlint-0.0.1-19000-0123456789abcdef.bin");
    let unrelated = cache_dir.join("notes.bin");
    std::fs::write(&stale, b"old").unwrap();
    std::fs::write(&unrelated, b"mine").unwrap();
    write(
        "typo.req.yaml",
        "request: GET /v24.0/act_1/campaigns\nparams: {}\n",
    );
    check(&["--cache-dir", &cache_arg]);
    assert!(!stale.exists());
    assert!(unrelated.exists());
    assert_eq!(cache_files(&cache_dir).len(), 4);

    // A cache directory made by hand gets the markers; one that holds other files
    // does not get a `.gitignore` that would hide them.
    let by_hand = elsewhere.path().join("by-hand");
    std::fs::create_dir(&by_hand).unwrap();
    check(&["--cache-dir", &by_hand.to_string_lossy()]);
    assert!(by_hand.join(".gitignore").exists() && by_hand.join("CACHEDIR.TAG").exists());
    let shared = elsewhere.path().join("shared");
    std::fs::create_dir(&shared).unwrap();
    std::fs::write(shared.join("README"), "mine").unwrap();
    check(&["--cache-dir", &shared.to_string_lossy()]);
    assert!(!shared.join(".gitignore").exists());
    assert_eq!(cache_files(&shared).len(), 2);
}

/// `--diff` prints a patch that `git apply` takes, its summary on standard error; with
/// `--unsafe-fixes`, the summary counts the unsafe fixes as fixable with both flags.
#[test]
fn diff_is_a_clean_patch_and_unsafe_fixes_are_counted() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join(".reqlint.yaml"), "").unwrap();
    let file = dir.path().join("a.req.yaml");
    let before = "request: post /v25.0/act_1/campaigns\nparms:\n  name: x\n";
    std::fs::write(&file, before).unwrap();
    let here = |args: &[&str]| run_in(dir.path(), args);
    let (code, out, err) = here(&["check", "--diff", "a.req.yaml"]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        out.starts_with("--- a/a.req.yaml\n+++ b/a.req.yaml\n"),
        "{out}"
    );
    assert!(!out.contains("Would fix"), "{out}");
    assert_eq!(err, "Would fix 2 issues.\n");
    let git = Command::new("git").arg("--version").output();
    if git.is_ok_and(|o| o.status.success()) {
        std::fs::write(dir.path().join("fix.patch"), &out).unwrap();
        let applied = Command::new("git")
            .current_dir(dir.path())
            .args(["apply", "fix.patch"])
            .output()
            .unwrap();
        assert!(applied.status.success(), "{}", text(&applied.stderr));
        assert_eq!(
            std::fs::read_to_string(&file).unwrap(),
            "request: POST /v25.0/act_1/campaigns\nparams:\n  name: x\n"
        );
    } else {
        eprintln!("skipped git apply: no git");
    }

    // An unused permission: its removal is an unsafe fix.
    std::fs::write(
        &file,
        "token:\n  permissions:\n    user:\n      Email addresses: read\n      Followers: read\nrequest: GET /user/emails\n",
    )
    .unwrap();
    let (_, out, _) = here(&["check", "--format", "concise", "a.req.yaml"]);
    // Nothing is fixable by `--fix` alone: the count says with which flags.
    assert!(
        out.ends_with("(1 fixable with `--fix --unsafe-fixes`).\n"),
        "{out}"
    );
    let (_, out, _) = here(&[
        "check",
        "--format",
        "concise",
        "--unsafe-fixes",
        "a.req.yaml",
    ]);
    assert!(
        out.ends_with("([*] 1 fixable with `--fix --unsafe-fixes`).\n"),
        "{out}"
    );
}

/// Standard output closed by the parent (no descriptor at all, not a closed pipe): the
/// process starts (it opens `/dev/null` there, as Rust's runtime does, see src/main.rs),
/// `--version` succeeds, and a run writes its whole report to `--output-file` and ends
/// with its status.
#[test]
fn a_closed_standard_output_is_no_failure() {
    let dir = tempfile::tempdir().unwrap();
    let bad = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/token-missing-permission/bad.req.yaml");
    let script = "exec \"$0\" \"$@\" >&-";
    let status = Command::new("sh")
        .args(["-c", script, env!("CARGO_BIN_EXE_reqlint"), "--version"])
        .status()
        .unwrap();
    assert_eq!(status.code(), Some(0));
    let out_file = dir.path().join("report.json");
    let status = Command::new("sh")
        .args(["-c", script, env!("CARGO_BIN_EXE_reqlint"), "check"])
        .arg(&bad)
        .args(["--no-cache", "--format", "json", "--output-file"])
        .arg(&out_file)
        .status()
        .unwrap();
    assert_eq!(status.code(), Some(1));
    let report: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&out_file).unwrap()).unwrap();
    assert!(!report["diagnostics"].as_array().unwrap().is_empty());
}
