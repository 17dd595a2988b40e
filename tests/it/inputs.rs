//! Every file reqlint reads besides the request files (the config, context snapshots,
//! the files `scopes` reads) is bounded as request files are: no hang on a FIFO, no
//! unbounded read, no glob that crashes the process or walks the whole filesystem, and a
//! config that cannot be read is an error of the run (exit 2).

use std::path::Path;
use std::process::{Command, Output};

use crate::support::watchdog;

/// Runs reqlint; one that blocks on a FIFO or walks without end fails the watchdog.
fn run(dir: &Path, args: &[&str]) -> Output {
    watchdog::output(
        Command::new(env!("CARGO_BIN_EXE_reqlint"))
            .args(args)
            .current_dir(dir)
            .env_remove("GITHUB_ACTIONS"),
        &format!("reqlint {args:?}"),
    )
}

fn project() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.req.yaml"), "request: GET /user/emails\n").unwrap();
    dir
}

/// Exit 2 with one `reqlint: error:` line holding `expected`.
fn fails_with(out: &Output, expected: &str) {
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.starts_with("reqlint: error: "), "{stderr}");
    assert!(stderr.contains(expected), "{stderr}");
}

#[cfg(unix)]
fn fifo(path: &Path) {
    let status = Command::new("mkfifo").arg(path).status().unwrap();
    assert!(status.success());
}

#[cfg(unix)]
#[test]
fn fifos_are_refused_not_waited_on() {
    let dir = project();
    fifo(&dir.path().join("pipe.yaml"));
    fails_with(
        &run(
            dir.path(),
            &["check", "--config", "pipe.yaml", "a.req.yaml"],
        ),
        "not a regular file",
    );
    fails_with(
        &run(
            dir.path(),
            &["check", "--context", "pipe.yaml", "a.req.yaml"],
        ),
        "not a regular file",
    );
    fails_with(
        &run(dir.path(), &["scopes", "pipe.yaml"]),
        "not a regular file",
    );
    std::fs::rename(
        dir.path().join("pipe.yaml"),
        dir.path().join(".reqlint.yaml"),
    )
    .unwrap();
    fails_with(
        &run(dir.path(), &["check", "a.req.yaml"]),
        "not a regular file",
    );
}

#[cfg(unix)]
#[test]
fn a_config_that_cannot_be_read_is_an_error_of_the_run() {
    let dir = project();
    std::os::unix::fs::symlink("nowhere", dir.path().join(".reqlint.yaml")).unwrap();
    fails_with(&run(dir.path(), &["check", "a.req.yaml"]), ".reqlint.yaml");
    std::fs::remove_file(dir.path().join(".reqlint.yaml")).unwrap();
    std::fs::create_dir(dir.path().join(".reqlint.yaml")).unwrap();
    fails_with(&run(dir.path(), &["check", "a.req.yaml"]), "is a directory");
}

#[test]
fn config_and_context_files_are_bounded_in_size() {
    let dir = project();
    // Sparse: 20 MB that take no disk.
    let big = std::fs::File::create(dir.path().join("big.yaml")).unwrap();
    big.set_len(20_000_000).unwrap();
    fails_with(
        &run(dir.path(), &["check", "--config", "big.yaml", "a.req.yaml"]),
        "over the limit",
    );
    fails_with(
        &run(
            dir.path(),
            &["check", "--context", "big.yaml", "a.req.yaml"],
        ),
        "over the limit",
    );
    std::fs::write(dir.path().join(".reqlint.yaml"), "context: [big.yaml]\n").unwrap();
    fails_with(&run(dir.path(), &["check", "a.req.yaml"]), "over the limit");
    let big_request = std::fs::File::create(dir.path().join("big.req.yaml")).unwrap();
    big_request.set_len(20_000_000).unwrap();
    std::fs::remove_file(dir.path().join(".reqlint.yaml")).unwrap();
    fails_with(
        &run(dir.path(), &["scopes", "big.req.yaml"]),
        "over the limit",
    );
}

#[test]
fn glob_bombs_are_config_errors() {
    let dir = project();
    let deep = format!("{}a{}", "{".repeat(600), "}".repeat(600));
    let nested = format!("{}a{}", "{x,".repeat(20), "}".repeat(20));
    for (key, pattern, expected) in [
        ("include", deep.as_str(), "the limit is 1024"),
        ("exclude", nested.as_str(), "nests"),
        ("context", nested.as_str(), "nests"),
    ] {
        std::fs::write(
            dir.path().join(".reqlint.yaml"),
            format!("{key}: [\"{pattern}\"]\n"),
        )
        .unwrap();
        fails_with(&run(dir.path(), &["check", "a.req.yaml"]), expected);
        fails_with(&run(dir.path(), &["check", "."]), expected);
    }
    std::fs::write(
        dir.path().join(".reqlint.yaml"),
        format!("per-file-ignores:\n  \"{nested}\": [literal-secret]\n"),
    )
    .unwrap();
    fails_with(&run(dir.path(), &["check", "a.req.yaml"]), "nests");
}

#[test]
fn context_globs_stay_inside_the_config_directory() {
    let dir = project();
    std::fs::write(
        dir.path().join(".reqlint.yaml"),
        "context: [\"../*.yaml\"]\n",
    )
    .unwrap();
    fails_with(
        &run(dir.path(), &["check", "a.req.yaml"]),
        "leaves the config's directory",
    );
}

/// An absolute glob would walk the whole filesystem and read what it finds: a config
/// names files of its own directory only.
#[test]
fn a_glob_over_the_whole_filesystem_is_refused() {
    let dir = project();
    std::fs::write(
        dir.path().join(".reqlint.yaml"),
        "context: [\"/**/*.snapshot.yaml\"]\n",
    )
    .unwrap();
    fails_with(
        &run(dir.path(), &["check", "a.req.yaml"]),
        "leaves the config's directory",
    );
}

/// Standard input is not read past the size limit, so its size is not known: the
/// diagnostic says "more than" the limit rather than a size it did not measure.
#[test]
fn standard_input_over_the_limit_says_more_than() {
    use std::io::Write;
    let dir = project();
    let mut child = Command::new(env!("CARGO_BIN_EXE_reqlint"))
        .current_dir(dir.path())
        .args([
            "check",
            "-",
            "--stdin-filename",
            "big.req.yaml",
            "--format",
            "concise",
        ])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        let chunk = vec![b'#'; 1 << 20];
        for _ in 0..12 {
            if stdin.write_all(&chunk).is_err() {
                break;
            }
        }
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains("limit-exceeded]: file is more than 10485760 bytes, over the limit"),
        "{stdout}"
    );
}
