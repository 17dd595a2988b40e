//! The acceptance check for hostile input: a directory of files built to cost unbounded
//! time, memory or stack is linted to the end, every such file is reported, and an
//! ordinary file beside them is still linted. What bounds the work is checked by
//! counting (memory, output size; n against 10n in tests/it/bounds.rs and the readers'
//! unit tests); a run that never ends fails through the watchdog, which is no timing
//! assertion (BENCHMARKS.md has the timings).

use std::fmt::Write;
use std::path::Path;
use std::process::Command;

use serde_json::Value;

use crate::support::watchdog;

const DEPTH: usize = 200_000;

const ORDINARY: &str = "request: POST /v24.0/act_1234567890/adsets\nparams:\n  name: Spring sale DE\n  daily_budget: 2000\n  daily_budget: 5000\n";

/// Deep YAML flow collections reach the YAML parser's own recursion limit (256 levels
/// of look-ahead) before reqlint's depth limit, and are reported as invalid YAML.
const DEEP_YAML_FLOW: &[&str] = &["limit-exceeded", "invalid-syntax"];

/// (file name, contents, the rules of which at least one must report it).
fn hostile_files() -> Vec<(&'static str, Vec<u8>, &'static [&'static str])> {
    let mut files: Vec<(&'static str, Vec<u8>, &'static [&'static str])> = Vec::new();

    // Billion laughs: nine levels, each nine aliases of the one before.
    let mut bomb = String::from("lol0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n");
    for level in 1..=9 {
        let prev = format!("*l{}", level - 1);
        let items = [prev.as_str(); 9].join(", ");
        bomb.push_str(&format!("lol{level}: &l{level} [{items}]\n"));
    }
    bomb.push_str("request: POST /v24.0/act_1234567890/adsets\nparams:\n  name: *l9\n");
    files.push(("bomb.req.yaml", bomb.into_bytes(), &["limit-exceeded"]));

    // 200,000 unclosed flow sequences, as YAML and as JSON.
    files.push((
        "deep-flow.req.yaml",
        "[".repeat(DEPTH).into_bytes(),
        DEEP_YAML_FLOW,
    ));
    files.push((
        "deep-flow.req.json",
        "[".repeat(DEPTH).into_bytes(),
        &["limit-exceeded"],
    ));
    // The same closed, and flow mappings.
    let closed = format!("{}{}", "[".repeat(DEPTH), "]".repeat(DEPTH));
    files.push((
        "deep-closed.req.json",
        closed.into_bytes(),
        &["limit-exceeded"],
    ));
    let maps = format!("{}x{}", "{a: ".repeat(DEPTH), "}".repeat(DEPTH));
    files.push(("deep-map.req.yaml", maps.into_bytes(), DEEP_YAML_FLOW));

    // 200,000 nested block sequences: `- - - - … x`.
    let mut block = "- ".repeat(DEPTH);
    block.push_str("x\n");
    files.push((
        "deep-block.req.yaml",
        block.into_bytes(),
        &["limit-exceeded"],
    ));

    // Block mappings on lines of growing indentation (quadratic in size, so fewer levels,
    // still far past the depth limit).
    let mut indented = String::new();
    for level in 0..2_000 {
        indented.push_str(&" ".repeat(level));
        indented.push_str("a:\n");
    }
    files.push((
        "deep-indent.req.yaml",
        indented.into_bytes(),
        &["limit-exceeded"],
    ));

    // A 20 MB string.
    let mut big = String::from("request: POST /v24.0/act_1234567890/adsets\nparams:\n  name: \"");
    big.push_str(&"x".repeat(20 * 1024 * 1024));
    big.push_str("\"\n");
    files.push(("big-string.req.yaml", big.into_bytes(), &["limit-exceeded"]));

    // Invalid UTF-8 in the middle of an otherwise fine request.
    let mut bad_utf8 =
        b"request: POST /v24.0/act_1234567890/adsets\nparams:\n  name: Spring ".to_vec();
    bad_utf8.extend_from_slice(&[0xC3, 0x28, 0xFF, 0xFE]);
    bad_utf8.extend_from_slice(b" sale\n  status: PAUSED\n");
    files.push(("bad-utf8.req.yaml", bad_utf8, &["invalid-syntax"]));

    // Random bytes, NUL included.
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut garbage: Vec<u8> = (0..64 * 1024)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 24) as u8
        })
        .collect();
    garbage[100] = 0;
    files.push(("binary.req.yaml", garbage, &["invalid-syntax"]));

    // Only a top-level list: of requests, it is an error; of anything else, a warning.
    files.push((
        "list.req.yaml",
        b"- GET /user/emails\n- POST /repos/acme/web/statuses/3f2a9c1\n".to_vec(),
        &["request-list-without-key"],
    ));
    files.push((
        "names.req.yaml",
        b"- Spring sale\n- Autumn sale\n".to_vec(),
        &["not-a-request-file"],
    ));
    files
}

fn write_all(dir: &Path) -> Vec<&'static str> {
    let mut names = Vec::new();
    for (name, bytes, _) in hostile_files() {
        std::fs::write(dir.join(name), bytes).expect("write hostile file");
        names.push(name);
    }
    std::fs::write(dir.join("ordinary.req.yaml"), ORDINARY).expect("write ordinary file");
    // No config above the temporary directory is picked up.
    std::fs::write(dir.join(".reqlint.yaml"), "").expect("write config");
    names
}

fn run(dir: &Path, format: &str) -> std::process::Output {
    watchdog::output(
        Command::new(env!("CARGO_BIN_EXE_reqlint"))
            .args(["check", ".", "--format", format, "--color", "never"])
            .current_dir(dir),
        &format!("reqlint check --format {format} on the hostile directory"),
    )
}

#[test]
fn hostile_directory_is_linted_completely() {
    let dir = tempfile::tempdir().expect("tempdir");
    write_all(dir.path());

    let output = run(dir.path(), "json");
    let stdout = String::from_utf8(output.stdout).expect("stdout is UTF-8");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(
        output.status.code(),
        Some(1),
        "stderr: {stderr}\nstdout: {stdout}"
    );
    assert_eq!(stderr, "", "nothing on stderr");

    let json: Value = serde_json::from_str(&stdout).expect("one JSON document");
    let diagnostics = json["diagnostics"].as_array().expect("diagnostics");
    let of =
        |file: &str| -> Vec<&Value> { diagnostics.iter().filter(|d| d["file"] == file).collect() };

    for d in diagnostics {
        assert_ne!(d["rule"], "internal-error", "reqlint failed on a file: {d}");
    }
    for (name, _, rules) in hostile_files() {
        let found = of(name);
        assert!(!found.is_empty(), "{name} has no diagnostic");
        assert!(
            found.iter().any(|d| rules.iter().any(|r| d["rule"] == *r)),
            "{name}: expected one of {rules:?}, got {found:?}"
        );
        for d in &found {
            assert_eq!(
                d["severity"],
                if rules == ["not-a-request-file"] {
                    "warning"
                } else {
                    "error"
                }
            );
        }
    }
    let ordinary = of("ordinary.req.yaml");
    let duplicate: Vec<_> = ordinary
        .iter()
        .filter(|d| d["rule"] == "duplicate-key")
        .collect();
    assert_eq!(duplicate.len(), 1, "{ordinary:?}");
    assert_eq!(duplicate[0]["span"]["start"]["line"], 5);
    assert_eq!(duplicate[0]["span"]["start"]["column"], 3);
    assert_eq!(json["summary"]["files"], hostile_files().len() + 1);
}

/// The other reports read code frames out of the hostile files: they too end, report
/// every file, and show a bounded window of each hostile line.
#[test]
fn hostile_directory_human_and_concise_reports() {
    let dir = tempfile::tempdir().expect("tempdir");
    let names = write_all(dir.path());
    for format in ["human", "concise"] {
        let output = run(dir.path(), format);
        let stdout = String::from_utf8(output.stdout).expect("stdout is UTF-8");
        assert_eq!(output.status.code(), Some(1), "{format}: {stdout}");
        for name in &names {
            assert!(stdout.contains(name), "{format}: {name} is not reported");
        }
        assert!(stdout.contains("ordinary.req.yaml"));
        assert!(!stdout.contains("internal-error"), "{format}: {stdout}");
        // Code frames quote whole lines, so a one-line hostile file shows in full;
        // printed for the record, not asserted.
        let longest = stdout.lines().map(str::len).max().unwrap_or(0);
        println!(
            "{format}: {} bytes, longest line {longest} bytes",
            stdout.len()
        );
    }
}

/// Runs reqlint on one file, returning (exit code, stdout, max RSS in KiB when GNU time
/// is there to tell).
fn lint_one(dir: &Path, name: &str) -> (Option<i32>, String, Option<u64>) {
    let time = Path::new("/usr/bin/time");
    let mut cmd = if time.exists() {
        let mut c = Command::new(time);
        c.args(["-f", "maxrss=%M"])
            .arg(env!("CARGO_BIN_EXE_reqlint"));
        c
    } else {
        Command::new(env!("CARGO_BIN_EXE_reqlint"))
    };
    let out = watchdog::output(
        cmd.args(["check", name, "--format", "concise"])
            .current_dir(dir),
        name,
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    let rss = stderr
        .lines()
        .find_map(|l| l.strip_prefix("maxrss="))
        .and_then(|v| v.trim().parse().ok());
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        rss,
    )
}

#[test]
fn more_hostile_shapes_end_in_bounded_memory() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join(".reqlint.yaml"), "").unwrap();
    // (name, contents, a rule that must report it, or None when it must pass clean)
    let mut big = String::from("request: GET /user/emails\ndescription: \"");
    big.push_str(&"y".repeat(12 * 1024 * 1024));
    big.push_str("\"\n");
    let mut many =
        String::from("token:\n  permissions:\n    user: {Email addresses: read}\nrequests:\n");
    for _ in 0..200_000 {
        many.push_str("  - GET /user/emails\n");
    }
    // Work that grows with the square of requests, diagnostics or suppressions would
    // take minutes on these.
    let mut suppressed = String::from("requests:\n");
    let mut own_tokens = String::from("requests:\n");
    for i in 0..150_000 {
        let _ = writeln!(
            suppressed,
            "  - SEND /user/x{i}  # reqlint: ignore[unknown-request-key]"
        );
    }
    for i in 0..150_000 {
        let _ = writeln!(own_tokens, "  - {{request: GET /user/x{i}, token: {{}}}}");
    }
    // A multipart body of 150,000 parts and no closing line, and one JSON definition of
    // 60 KB used as the value of 250 requests (decoded once a use, it would be 7.5
    // million nodes).
    let mut parts = String::from(
        "POST https://graph.facebook.com/v25.0/act_1/advideos\nContent-Type: multipart/form-data; boundary=B\n\n",
    );
    for i in 0..150_000 {
        let _ = write!(
            parts,
            "--B\nContent-Disposition: form-data; name=\"f{i}\"\n\nx\n"
        );
    }
    let mut json_uses = format!("@t = [{}1]\n", "1,".repeat(30_000));
    for _ in 0..250 {
        json_uses.push_str("###\nPOST https://graph.facebook.com/v25.0/act_1/adsets\nContent-Type: application/x-www-form-urlencoded\n\ntargeting={{t}}\n");
    }
    let cases: Vec<(&str, Vec<u8>, Option<&str>)> = vec![
        ("multipart.http", parts.into_bytes(), Some("invalid-syntax")),
        ("json-uses.http", json_uses.into_bytes(), Some("limit-exceeded")),
        ("huge.req.yaml", big.into_bytes(), Some("limit-exceeded")),
        ("suppressed.req.yaml", suppressed.into_bytes(), Some("malformed-request-line")),
        ("own-tokens.req.yaml", own_tokens.into_bytes(), Some("unknown-endpoint")),
        (
            "bom-crlf-tabs.req.yaml",
            "\u{feff}request: GET /v24.0/23850000000000001\r\nobject: custom_audience\r\nparams:\r\n  fields: \"name,\tsubtype\"\r\n".as_bytes().to_vec(),
            None,
        ),
        (
            "bom.req.json",
            "\u{feff}{\"request\": \"GET /user/emails\", \"parms\": 1}".as_bytes().to_vec(),
            Some("unknown-request-key"),
        ),
        (
            "tabs-indent.req.yaml",
            b"request: GET /user/emails\nparams:\n\tfields: x\n".to_vec(),
            Some("invalid-syntax"),
        ),
        (
            "tags.req.yaml",
            b"request: !!str GET /user/emails\nparams: !custom {per_page: !!int \"30\"}\ndescription: !!binary aGVsbG8=\n".to_vec(),
            None,
        ),
        (
            "merge.req.yaml",
            b"x-defaults: &d {object: custom_audience}\nrequest: GET /v24.0/23850000000000001\n<<: *d\n".to_vec(),
            None,
        ),
        ("scalar.req.yaml", b"just a sentence\n".to_vec(), Some("not-a-request-file")),
        ("number.req.json", b"42".to_vec(), Some("not-a-request-file")),
        ("many.req.yaml", many.into_bytes(), None),
    ];
    for (name, bytes, _) in &cases {
        std::fs::write(dir.path().join(name), bytes).unwrap();
    }
    for (name, _, expected) in &cases {
        let (code, stdout, rss) = lint_one(dir.path(), name);
        println!("{name}: max RSS {rss:?} KiB");
        if let Some(kb) = rss {
            assert!(kb < 512 * 1024, "{name} used {kb} KiB");
        }
        assert!(!stdout.contains("internal-error"), "{name}: {stdout}");
        match expected {
            Some(rule) => assert!(stdout.contains(&format!("[{rule}]")), "{name}: {stdout}"),
            None => {
                assert_eq!(code, Some(0), "{name}: {stdout}");
                assert!(stdout.starts_with("All checks passed"), "{name}: {stdout}");
            }
        }
    }
}
