//! What the tests that run reqlint on a project of their own share: the binary, a run
//! with the CI and colour variables removed, its whole output, and a temporary project.
// Each test binary includes this file and uses part of it.
#![allow(dead_code)]

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
