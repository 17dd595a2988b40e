//! The command line keeps its promises whatever it writes to: errors are one
//! `reqlint: error:` line, a full output is exit 2 and never a panic, `--threads` is
//! bounded.

use std::fs::File;
use std::path::PathBuf;
use std::process::{Command, Stdio};

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
    // usize::MAX used to panic; a huge number is taken as the most that helps.
    for n in ["18446744073709551615", "100000"] {
        let start = std::time::Instant::now();
        let out = reqlint()
            .args(["check", "fixtures/", "--format", "concise", "--threads", n])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "{n}: {}", text(&out.stderr));
        assert!(
            start.elapsed() < std::time::Duration::from_secs(20),
            "{n} threads took {:?}",
            start.elapsed()
        );
    }
}
