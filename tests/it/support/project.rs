//! What the tests that run reqlint on a project of their own share: the binary, a run
//! with the CI and colour variables removed, its whole output, and a temporary project.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

pub fn bin() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_reqlint"))
}

/// `reqlint ARGS` in `dir`, as a terminal user runs it (not as GitHub Actions does).
pub fn run(dir: &Path, args: &[&str]) -> Output {
    Command::new(bin())
        .args(args)
        .current_dir(dir)
        .env_remove("GITHUB_ACTIONS")
        .env_remove("NO_COLOR")
        .output()
        .unwrap()
}

/// Standard output and standard error, one after the other.
pub fn all_text(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr)
}

/// A temporary project holding `files` (name, contents), directories made as needed.
pub fn project(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (name, content) in files {
        let path = dir.path().join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, content).unwrap();
    }
    dir
}

/// Every report format, `human` first and `concise` second.
pub const FORMATS: [&str; 5] = ["human", "concise", "json", "sarif", "github"];

/// Fails the test when `output` holds any of `secrets`, or the part of one after its
/// first `shown` characters (a message may name a public prefix).
pub fn assert_none_of(output: &str, what: &str, secrets: &[&str], shown: usize) {
    for secret in secrets {
        assert!(
            !output.contains(secret),
            "{what} prints {secret}:\n{output}"
        );
        assert!(
            !output.contains(&secret[shown..]),
            "{what} prints most of {secret}:\n{output}"
        );
    }
}

/// `reqlint check FILE --color never EXTRA…` in every format of [`FORMATS`], in order,
/// none a panic; `check` is given each output (standard output and error) with what it
/// is.
pub fn every_format(
    dir: &Path,
    file: &str,
    extra: &[&str],
    check: impl Fn(&str, &str),
) -> Vec<String> {
    FORMATS
        .iter()
        .map(|format| {
            let mut args = vec!["check", file, "--format", format, "--color", "never"];
            args.extend_from_slice(extra);
            let out = run(dir, &args);
            assert_ne!(out.status.code(), Some(101), "{format} panicked");
            let all = all_text(&out);
            check(&all, &format!("{file} in {format}"));
            all
        })
        .collect()
}
