//! The reports hold whatever a file holds: no panic on long lines, output bounded by
//! the findings, no control character or CI command from a file reaching a
//! terminal or a log, file names that stay apart and point where they should.

use std::path::Path;
use std::process::{Command, Output};

use crate::support::watchdog;

fn run(dir: &Path, args: &[&str]) -> Output {
    watchdog::output(
        Command::new(env!("CARGO_BIN_EXE_reqlint"))
            .args(args)
            .current_dir(dir)
            .env_remove("GITHUB_ACTIONS")
            .env_remove("NO_COLOR"),
        &format!("reqlint {args:?}"),
    )
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A minified one-line JSON request with `findings` unknown keys after a long value.
fn one_line_json(findings: usize, padding: usize) -> String {
    let mut s = format!(
        "{{\"request\": \"GET /user/emails\", \"description\": \"{}\"",
        "y".repeat(padding)
    );
    for i in 0..findings {
        s.push_str(&format!(", \"unknown{i}\": 1"));
    }
    s.push('}');
    s
}

#[test]
fn a_column_past_65535_does_not_panic() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("min.req.json"), one_line_json(2, 70_000)).unwrap();
    for format in ["human", "concise", "json", "sarif", "github"] {
        let out = run(
            dir.path(),
            &[
                "check",
                "min.req.json",
                "--format",
                format,
                "--color",
                "never",
            ],
        );
        assert_eq!(
            out.status.code(),
            Some(1),
            "{format}: {}",
            text(&out.stderr)
        );
    }
    let out = run(dir.path(), &["check", "min.req.json", "--color", "never"]);
    let human = text(&out.stdout);
    assert!(human.contains("[min.req.json:1:700"), "{human}");
    // The frame shows a window of the line, not the line.
    assert!(human.len() < 4_000, "{} bytes:\n{human}", human.len());
    assert!(human.contains('…'), "{human}");
}

#[test]
fn many_findings_on_one_long_line_cost_a_bounded_frame_each() {
    let dir = tempfile::tempdir().unwrap();
    let findings = 20_000;
    let file = one_line_json(findings, 600_000);
    assert!(file.len() > 900_000);
    std::fs::write(dir.path().join("wide.req.json"), &file).unwrap();
    for format in ["human", "concise", "sarif"] {
        let out = run(
            dir.path(),
            &[
                "check",
                "wide.req.json",
                "--format",
                format,
                "--color",
                "never",
            ],
        );
        assert_eq!(out.status.code(), Some(1), "{format}");
        let per_finding = out.stdout.len() / findings;
        assert!(
            per_finding < 2_000,
            "{format}: {per_finding} bytes a finding"
        );
    }
}

#[cfg(target_os = "linux")]
#[test]
fn sarif_memory_does_not_grow_with_the_findings() {
    let dir = tempfile::tempdir().unwrap();
    for i in 0..3 {
        std::fs::write(
            dir.path().join(format!("f{i}.req.json")),
            one_line_json(25_000, 10),
        )
        .unwrap();
    }
    let args = ["check", ".", "--format", "sarif", "--threads", "1"];
    let (out, peak_kib) = watchdog::output_with_peak(
        Command::new(env!("CARGO_BIN_EXE_reqlint"))
            .args(args)
            .current_dir(dir.path())
            .env_remove("GITHUB_ACTIONS"),
        &format!("reqlint {args:?}"),
    );
    assert_eq!(out.status.code(), Some(1));
    let log: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(log["runs"][0]["results"].as_array().unwrap().len(), 75_000);
    // The whole log as one value took about 9 KB a finding (675 MB here).
    assert!(peak_kib < 400_000, "peak {peak_kib} KiB");
}

#[test]
fn control_characters_from_files_never_reach_the_terminal() {
    let dir = tempfile::tempdir().unwrap();
    // ESC sequences, an OSC 52 clipboard write, a CR that would rewrite the line, a
    // backspace and a right-to-left override, in the text and in the file's name.
    let hostile = "\u{1b}[2J\u{1b}]52;c;aGk=\u{7}\rAll checks passed\u{8}\u{202e}";
    std::fs::write(
        dir.path().join(format!("x{hostile}.req.yaml")),
        format!("request: GET /user/emails\nbad{hostile}: 1\nparams: {{a: 1, a: 2}}\n"),
    )
    .unwrap();
    for format in ["human", "concise", "github"] {
        let out = run(
            dir.path(),
            &["check", ".", "--format", format, "--color", "never"],
        );
        assert_eq!(out.status.code(), Some(1), "{format}");
        let all = text(&out.stdout) + &text(&out.stderr);
        for c in ['\u{1b}', '\u{7}', '\r', '\u{8}', '\u{202e}'] {
            assert!(!all.contains(c), "{format} prints {c:?}:\n{all:?}");
        }
    }
    let human = text(&run(dir.path(), &["check", ".", "--color", "never"]).stdout);
    // The frame shows the control characters as visible symbols.
    assert!(human.contains('␛'), "{human}");
}

#[test]
fn no_ci_command_is_injected_on_standard_output() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("a.req.yaml"),
        "request: GET /user/emails\n\"##[error]boom\": 1\n\"x\\n::add-mask::y\": 2\n",
    )
    .unwrap();
    for format in ["human", "concise", "github"] {
        let out = run(
            dir.path(),
            &["check", ".", "--format", format, "--color", "never"],
        );
        let stdout = text(&out.stdout);
        assert!(!stdout.contains("##["), "{format}:\n{stdout}");
        let commands: Vec<&str> = stdout
            .lines()
            .filter(|l| l.trim_start().starts_with("::"))
            .collect();
        if format == "github" {
            assert!(commands.iter().all(|l| l.starts_with("::error ")
                || l.starts_with("::warning ")
                || l.starts_with("::notice ")));
            assert!(
                !stdout
                    .lines()
                    .any(|l| l.trim_start().starts_with("::add-mask::")),
                "{stdout}"
            );
        } else {
            assert!(commands.is_empty(), "{format}:\n{stdout}");
        }
    }
}

#[test]
fn github_annotations_name_the_file_as_it_is() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("a b,c.req.yaml"),
        "request: GET /user/emails\nparms: 1\n",
    )
    .unwrap();
    let out = run(dir.path(), &["check", ".", "--format", "github"]);
    let stdout = text(&out.stdout);
    // The runner decodes %2C (and %25, %3A, %0D, %0A) once: a space stays a space.
    assert!(stdout.contains("file=a b%2Cc.req.yaml,"), "{stdout}");
}

#[test]
fn sarif_uris_are_uri_references() {
    let dir = tempfile::tempdir().unwrap();
    for name in [
        "https:x.req.yaml",
        "back\\slash.req.yaml",
        "sp ace.req.yaml",
    ] {
        std::fs::write(
            dir.path().join(name),
            "request: GET /user/emails\nparms: 1\n",
        )
        .unwrap();
    }
    let out = run(dir.path(), &["check", ".", "--format", "sarif"]);
    let log: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let mut uris: Vec<String> = log["runs"][0]["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
                .as_str()
                .unwrap()
                .to_string()
        })
        .collect();
    uris.sort();
    assert_eq!(
        uris,
        [
            "./https:x.req.yaml",
            "back%5Cslash.req.yaml",
            "sp%20ace.req.yaml"
        ]
    );
}

#[cfg(unix)]
#[test]
fn names_that_are_not_utf8_stay_apart() {
    use std::os::unix::ffi::OsStrExt;
    let dir = tempfile::tempdir().unwrap();
    for byte in [0xffu8, 0xfe] {
        let bytes = [b'a', byte, b'.', b'y', b'a', b'm', b'l'];
        let name = std::ffi::OsStr::from_bytes(&bytes);
        std::fs::write(
            dir.path().join(name),
            "request: GET /user/emails\nparms: 1\n",
        )
        .unwrap();
    }
    for format in ["concise", "json", "sarif"] {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_reqlint"));
        cmd.current_dir(dir.path())
            .args(["check", "--format", format]);
        for byte in [0xffu8, 0xfe] {
            cmd.arg(std::ffi::OsStr::from_bytes(&[
                b'a', byte, b'.', b'y', b'a', b'm', b'l',
            ]));
        }
        let out = cmd.output().unwrap();
        let stdout = text(&out.stdout);
        let (ff, fe) = match format {
            "concise" => ("a\\xff.yaml:", "a\\xfe.yaml:"),
            "json" => ("\"a\\\\xff.yaml\"", "\"a\\\\xfe.yaml\""),
            _ => ("\"a%5Cxff.yaml\"", "\"a%5Cxfe.yaml\""),
        };
        assert!(
            stdout.contains(ff) && stdout.contains(fe),
            "{format}: {stdout}"
        );
    }
}

/// The human report ends no line with a space and heads no frame with a bare severity
/// (`Advice:` before a far label's frame).
#[test]
fn human_report_has_no_orphan_headers_or_trailing_spaces() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = run(root, &["check", "fixtures/", "--color", "never"]);
    let human = text(&out.stdout);
    assert!(human.contains("ARCHIVED ad set"), "a far label is shown");
    for (n, line) in human.lines().enumerate() {
        assert!(!line.ends_with(' '), "line {}: {line:?}", n + 1);
        assert!(
            !["Advice:", "Warning:", "Error:"].contains(&line.trim()),
            "line {}: an orphan header",
            n + 1
        );
    }
}

/// A finding said once per run (a Marketing API version newer than the catalog) is shown
/// for the first file only; the second file's other finding keeps its own line in every
/// format, those without code frames included (they read positions kept apart from the
/// text).
#[test]
fn a_finding_said_once_leaves_the_other_positions_in_place() {
    let dir = crate::support::project::project(&[
        (".reqlint.yaml", "{}\n"),
        (
            "a.req.yaml",
            "request: POST /v26.0/act_1234567890/campaigns\nparams:\n  name: Spring sale\n  special_ad_categories: []\n",
        ),
        (
            "b.req.yaml",
            "requests:\n  - request: POST /v26.0/act_1234567890/campaigns\n    params:\n      name: Spring sale\n      special_ad_categories: []\n  - request: POST /v26.0/act_1234567890/campaigns\n    params:\n      name: Spring sale\n      special_ad_categories: []\n      bogus_param: 1\n",
        ),
    ]);
    let out = run(
        dir.path(),
        &["check", ".", "--format", "concise", "--no-cache"],
    );
    let concise = text(&out.stdout);
    assert!(
        concise.contains("b.req.yaml:10:7: warning[ad-param-unknown]"),
        "{concise}"
    );
    assert_eq!(
        concise.matches("ad-version-newer-than-catalog").count(),
        1,
        "{concise}"
    );
    let out = run(
        dir.path(),
        &["check", ".", "--format", "json", "--no-cache"],
    );
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let lines: Vec<(String, u64)> = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["rule"].as_str().unwrap().to_string(),
                d["span"]["start"]["line"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        lines,
        [
            ("ad-version-newer-than-catalog".to_string(), 1),
            ("ad-param-unknown".to_string(), 10)
        ]
    );
    let out = run(
        dir.path(),
        &["check", ".", "--format", "github", "--no-cache"],
    );
    let github = text(&out.stdout);
    assert!(github.contains("file=b.req.yaml,line=10,"), "{github}");
    let out = run(
        dir.path(),
        &["check", ".", "--format", "sarif", "--no-cache"],
    );
    let log: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let start_lines: Vec<u64> = log["runs"][0]["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            r["locations"][0]["physicalLocation"]["region"]["startLine"]
                .as_u64()
                .unwrap()
        })
        .collect();
    assert_eq!(start_lines, [1, 10]);
}
