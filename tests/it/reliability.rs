//! File system faults, secrets in every output format, and the promises of SECURITY.md
//! (offline, read-only), tested on the real binary.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_reqlint")
}

fn run(cwd: &Path, args: &[&str]) -> Output {
    Command::new(bin())
        .args(args)
        .current_dir(cwd)
        .env_remove("GITHUB_ACTIONS")
        .output()
        .unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A project with one ordinary file holding a known error.
fn project() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join(".reqlint.yaml"), "").unwrap();
    std::fs::write(
        dir.path().join("ok.req.yaml"),
        "request: GET /v24.0/23850000000000001\nobject: custom_audience\nobject: custom_audience\n",
    )
    .unwrap();
    dir
}

fn known_error_reported(out: &Output) {
    assert!(
        text(&out.stdout).contains("ok.req.yaml:3:1: error[duplicate-key]"),
        "{}",
        text(&out.stdout)
    );
}

#[test]
fn broken_symlinks_and_loops_in_a_walk_are_skipped() {
    let dir = project();
    std::os::unix::fs::symlink("missing.req.yaml", dir.path().join("broken.req.yaml")).unwrap();
    std::os::unix::fs::symlink("loop-b.req.yaml", dir.path().join("loop-a.req.yaml")).unwrap();
    std::os::unix::fs::symlink("loop-a.req.yaml", dir.path().join("loop-b.req.yaml")).unwrap();
    std::fs::create_dir(dir.path().join("sub")).unwrap();
    std::os::unix::fs::symlink("..", dir.path().join("sub/up")).unwrap();
    let out = run(dir.path(), &["check", ".", "--format", "concise"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    known_error_reported(&out);
    assert!(
        text(&out.stdout).contains("in 1 file"),
        "{}",
        text(&out.stdout)
    );
}

#[test]
fn a_broken_symlink_named_on_the_command_line_is_exit_2() {
    let dir = project();
    std::os::unix::fs::symlink("missing.req.yaml", dir.path().join("broken.req.yaml")).unwrap();
    let out = run(dir.path(), &["check", "broken.req.yaml", "ok.req.yaml"]);
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with("reqlint: error: broken.req.yaml: no such file or directory"),
        "{err}"
    );
}

#[test]
fn a_directory_named_like_a_request_file_is_walked_not_read() {
    let dir = project();
    std::fs::create_dir(dir.path().join("dir.req.yaml")).unwrap();
    std::fs::write(
        dir.path().join("dir.req.yaml/inner.req.yaml"),
        "- not a request\n",
    )
    .unwrap();
    let out = run(dir.path(), &["check", ".", "--format", "concise"]);
    assert_eq!(out.status.code(), Some(1));
    known_error_reported(&out);
    assert!(
        text(&out.stdout).contains("dir.req.yaml/inner.req.yaml:1:1: warning[not-a-request-file]")
    );
}

#[test]
fn a_fifo_is_not_read_and_the_rest_goes_on() {
    let dir = project();
    let fifo = dir.path().join("pipe.req.yaml");
    let status = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(status.success());
    // Walked: skipped. Named: a one-line error, exit 2, the other file still reported.
    let out = run(dir.path(), &["check", ".", "--format", "concise"]);
    assert_eq!(out.status.code(), Some(1));
    let out = run(
        dir.path(),
        &[
            "check",
            "pipe.req.yaml",
            "ok.req.yaml",
            "--format",
            "concise",
        ],
    );
    assert_eq!(out.status.code(), Some(2));
    known_error_reported(&out);
    assert!(
        text(&out.stderr).contains("cannot read pipe.req.yaml: it is not a regular file"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn non_utf8_file_names_are_reported() {
    use std::os::unix::ffi::OsStrExt;
    let dir = project();
    let name = std::ffi::OsStr::from_bytes(b"bad-\xff.req.yaml");
    std::fs::write(
        dir.path().join(name),
        "request: GET /user/emails\nparms: 1\n",
    )
    .unwrap();
    let out = run(dir.path(), &["check", ".", "--format", "concise"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stdout).contains("bad-\\xff.req.yaml:2:1: error[unknown-request-key]"),
        "{}",
        text(&out.stdout)
    );
    known_error_reported(&out);
}

#[test]
fn an_empty_directory_is_a_clean_run_with_a_warning() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join(".reqlint.yaml"), "").unwrap();
    std::fs::create_dir(dir.path().join("empty")).unwrap();
    let out = run(dir.path(), &["check", "empty"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(text(&out.stderr).contains("no request files found under empty"));
    assert!(text(&out.stdout).contains("All checks passed: 0 files"));
}

#[test]
fn a_path_that_does_not_exist_is_exit_2() {
    let dir = project();
    let out = run(dir.path(), &["check", "nowhere", "ok.req.yaml"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        text(&out.stderr).trim(),
        "reqlint: error: nowhere: no such file or directory"
    );
}

#[test]
fn a_file_that_vanishes_before_it_is_read_is_an_error_of_its_own() {
    // What the walk found may be gone when it is read; the library reports it alone.
    let dir = project();
    let settings = reqlint::engine::Settings {
        config: reqlint::model::config::Config::defaults(dir.path().to_path_buf()),
        context: reqlint::model::context::ContextIndex::default(),
        limits: reqlint::loading::Limits::DEFAULT,
    };
    let gone = dir.path().join("gone.req.yaml");
    let r = reqlint::engine::lint_path(
        &gone,
        "gone.req.yaml",
        Path::new("gone.req.yaml"),
        &settings,
    );
    assert!(
        r.io_error
            .unwrap()
            .starts_with("cannot read gone.req.yaml:")
    );
}

/// reqlint as a user that file permissions hold back: root reads anything, so as
/// `nobody` then, from a copy of the binary that `nobody` can reach.
fn as_unprivileged(dir: &Path) -> Command {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o755)).unwrap();
    let is_root = Command::new("id")
        .arg("-u")
        .output()
        .map(|o| text(&o.stdout).trim() == "0")
        .unwrap_or(false);
    if is_root {
        let copy = dir.join("reqlint-copy");
        std::fs::copy(bin(), &copy).unwrap();
        std::fs::set_permissions(&copy, std::fs::Permissions::from_mode(0o755)).unwrap();
        let mut c = Command::new("runuser");
        c.args(["-u", "nobody", "--"]).arg(copy);
        c
    } else {
        Command::new(bin())
    }
}

/// `reqlint check .` in `dir` as an unprivileged user: exit 2, `error` on standard error,
/// and the readable file's finding reported all the same.
fn check_fails_with_the_rest_reported(dir: &Path, error: &str) {
    let out = as_unprivileged(dir)
        .args(["check", ".", "--format", "concise"])
        .current_dir(dir)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(2),
        "{}{}",
        text(&out.stdout),
        text(&out.stderr)
    );
    assert!(text(&out.stderr).contains(error), "{}", text(&out.stderr));
    known_error_reported(&out);
}

#[test]
fn an_unreadable_directory_is_exit_2_and_the_rest_is_reported() {
    use std::os::unix::fs::PermissionsExt;
    let dir = project();
    let locked = dir.path().join("locked");
    std::fs::create_dir(&locked).unwrap();
    std::fs::write(
        locked.join("hidden.req.yaml"),
        "request: GET /user/emails\n",
    )
    .unwrap();
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o000)).unwrap();
    check_fails_with_the_rest_reported(
        dir.path(),
        "reqlint: error: cannot read locked: Permission denied",
    );
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o755)).unwrap();
}

#[test]
fn an_unreadable_file_is_exit_2_and_the_rest_is_reported() {
    use std::os::unix::fs::PermissionsExt;
    let dir = project();
    let locked = dir.path().join("locked.req.yaml");
    std::fs::write(&locked, "request: GET /user/emails\n").unwrap();
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o000)).unwrap();
    check_fails_with_the_rest_reported(
        dir.path(),
        "reqlint: error: cannot read locked.req.yaml: Permission denied",
    );
}

const GH_SECRET: &str = "ghp_T3stS3cretN0tInAnyFixture1234567890z";
const FB_SECRET: &str = "EAAXq7TestSecretNotInFixtures42";

fn secret_file(dir: &Path) -> PathBuf {
    let path = dir.join("secrets.req.yaml");
    std::fs::write(
        &path,
        format!(
            "requests:\n  - request: GET /v24.0/23850000000000001?access_token={FB_SECRET}\n    object: custom_audience\n  - request: GET /user/emails\n    description: \"ran with {GH_SECRET}\"\n  - request: GET /user/emails\n    params: {{Authorization: \"Bearer {GH_SECRET}\"}}\n"
        ),
    )
    .unwrap();
    path
}

fn assert_no_secret(output: &str, format: &str) {
    for secret in [GH_SECRET, FB_SECRET] {
        // Not in full, and not the part after the prefix a message may name.
        assert!(
            !output.contains(secret),
            "{format} prints a secret:\n{output}"
        );
        assert!(
            !output.contains(&secret[8..]),
            "{format} prints most of a secret:\n{output}"
        );
    }
}

#[test]
fn secrets_are_never_printed_in_any_format() {
    let dir = project();
    secret_file(dir.path());
    for format in ["human", "concise", "json", "sarif", "github"] {
        let out = run(
            dir.path(),
            &[
                "check",
                "secrets.req.yaml",
                "--format",
                format,
                "--color",
                "never",
            ],
        );
        assert_eq!(out.status.code(), Some(1), "{format}");
        let all = text(&out.stdout) + &text(&out.stderr);
        assert!(
            all.matches("literal-secret").count() >= 3,
            "{format}: {all}"
        );
        assert_no_secret(&all, format);
    }
}

#[test]
fn secrets_are_never_printed_by_the_language_server() {
    let dir = project();
    let path = secret_file(dir.path());
    let content = std::fs::read_to_string(&path).unwrap();
    let mut child = Command::new(bin())
        .arg("server")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let send = |stdin: &mut std::process::ChildStdin, v: serde_json::Value| {
        let body = v.to_string();
        write!(stdin, "Content-Length: {}\r\n\r\n{body}", body.len()).unwrap();
        stdin.flush().unwrap();
    };
    let uri = format!("file://{}", path.display());
    send(
        &mut stdin,
        serde_json::json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {}}),
    );
    send(
        &mut stdin,
        serde_json::json!({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {"uri": uri, "languageId": "yaml", "version": 1, "text": content}}}),
    );
    send(
        &mut stdin,
        serde_json::json!({"jsonrpc": "2.0", "id": 2, "method": "shutdown"}),
    );
    send(
        &mut stdin,
        serde_json::json!({"jsonrpc": "2.0", "method": "exit"}),
    );
    drop(stdin);
    let mut out = String::new();
    let mut reader = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    while reader.read_line(&mut line).unwrap() > 0 {
        out.push_str(&line);
        line.clear();
    }
    let _ = reader.read_to_string(&mut out);
    child.wait().unwrap();
    assert!(out.contains("literal-secret"), "{out}");
    assert_no_secret(&out, "the language server");
}

#[test]
fn offline_the_result_is_the_same() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let normal = run(&root, &["check", "fixtures/", "--format", "json"]);
    // A new network namespace has no interface but a down loopback: nothing can connect.
    let offline = Command::new("unshare")
        .args(["-n", bin(), "check", "fixtures/", "--format", "json"])
        .current_dir(&root)
        .output();
    match offline {
        Ok(o) if o.status.code() != Some(1) && text(&o.stderr).contains("unshare") => {
            assert!(
                std::env::var_os("REQLINT_REQUIRE_SANDBOX_CHECKS").is_none(),
                "unshare failed: {}",
                text(&o.stderr)
            );
            eprintln!(
                "skipped: unshare -n is not permitted here: {}",
                text(&o.stderr)
            );
        }
        Ok(o) => {
            assert_eq!(o.status.code(), normal.status.code());
            assert_eq!(text(&o.stdout), text(&normal.stdout));
        }
        Err(e) => {
            assert!(
                std::env::var_os("REQLINT_REQUIRE_SANDBOX_CHECKS").is_none(),
                "unshare: {e}"
            );
            eprintln!("skipped: no unshare: {e}");
        }
    }
}

#[test]
fn it_opens_no_file_for_writing_and_no_socket() {
    // With --no-cache nothing at all is written; with the cache, only its directory:
    // by default the user's cache directory, never the project.
    let cache = tempfile::tempdir().unwrap();
    let cache_dir = cache.path().join("cache");
    let cache_arg = cache_dir.to_string_lossy().into_owned();
    let user_cache = cache.path().join("home-cache");
    let user_cache_arg = user_cache.join("reqlint").to_string_lossy().into_owned();
    for (extra, allowed) in [
        (vec!["--no-cache"], None),
        (
            vec!["--cache-dir", cache_arg.as_str()],
            Some(cache_arg.as_str()),
        ),
        (vec![], Some(user_cache_arg.as_str())),
    ] {
        let Some(log) = trace_check(&extra, &user_cache) else {
            return;
        };
        let opens = log.lines().filter(|l| l.contains("open")).count();
        assert!(opens > 50, "the trace saw the files being read:\n{log}");
        let mut wrote_cache = false;
        for line in log.lines() {
            let writes = ["O_WRONLY", "O_RDWR", "O_CREAT", "O_TRUNC"]
                .iter()
                .any(|f| line.contains(f));
            let in_cache = allowed.is_some_and(|dir| line.contains(&format!("\"{dir}/")));
            wrote_cache |= writes && in_cache;
            assert!(
                !writes || line.contains("\"/dev/") || in_cache,
                "opened for writing: {line}"
            );
            assert!(
                !line.contains("socket(") && !line.contains("connect("),
                "network use: {line}"
            );
        }
        assert_eq!(wrote_cache, allowed.is_some(), "{log}");
    }
}

/// The `strace` log of `reqlint check fixtures/ --format json` with `extra` arguments;
/// `None` where strace is missing (and not required).
fn trace_check(extra: &[&str], cache_home: &Path) -> Option<String> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let trace = tempfile::NamedTempFile::new().unwrap();
    let status = Command::new("strace")
        .args([
            "-f",
            "-qq",
            "-e",
            "trace=open,openat,openat2,creat,socket,connect",
            "-o",
        ])
        .arg(trace.path())
        .args([bin(), "check", "fixtures/", "--format", "json"])
        .args(extra)
        .current_dir(&root)
        .env("XDG_CACHE_HOME", cache_home)
        .stdout(Stdio::null())
        .status();
    let Ok(status) = status else {
        assert!(
            std::env::var_os("REQLINT_REQUIRE_SANDBOX_CHECKS").is_none(),
            "strace is missing"
        );
        eprintln!("skipped: no strace");
        return None;
    };
    assert_eq!(status.code(), Some(1));
    Some(std::fs::read_to_string(trace.path()).unwrap())
}
