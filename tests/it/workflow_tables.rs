//! catalog/codehost/workflows/: its generator's output is committed and `--check` sees a
//! stale table or a changed vendor file; the build step (build/workflows.rs) fails on a
//! broken table with the file, the line and what is wrong, never a panic, and gives the
//! same output twice.
//!
//! As in catalog_build, a broken table ends the process, so each case runs in a child
//! process of this test binary.

#[path = "../../build/workflows.rs"]
mod workflows;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

const CHILD: &str = "REQLINT_WORKFLOW_TABLES_CASE";

/// Run in a child: generate the tables of the catalog the parent prepared.
#[test]
fn child_generates() {
    if let Some(dir) = std::env::var_os(CHILD) {
        let _ = workflows::generate(Path::new(&dir));
    }
}

fn test_module() -> &'static str {
    module_path!()
        .split_once("::")
        .map_or(module_path!(), |(_, module)| module)
}

/// `python3 <generator> <args>`, or `None` (the test is skipped) without python3.
fn python(generator: &Path, args: &[&str]) -> Option<Output> {
    match Command::new("python3").arg(generator).args(args).output() {
        Ok(out) => Some(out),
        Err(e) => {
            eprintln!("skipped: python3 cannot run ({e})");
            None
        }
    }
}

/// The generator's inputs and output in a temporary tree laid out as the catalog.
fn generator_copy() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let codehost = root().join("catalog/codehost");
    std::fs::create_dir_all(dir.path().join("workflows")).unwrap();
    std::fs::create_dir_all(dir.path().join("vendor")).unwrap();
    for name in ["generate.py", "app_endpoints.tsv"] {
        std::fs::copy(
            codehost.join("workflows").join(name),
            dir.path().join("workflows").join(name),
        )
        .unwrap();
    }
    let vendor = "fpt-2022-11-28.server-to-server-permissions.json";
    std::fs::copy(
        codehost.join("vendor").join(vendor),
        dir.path().join("vendor").join(vendor),
    )
    .unwrap();
    dir
}

#[test]
fn generator_output_is_committed() {
    let Some(out) = python(
        &root().join("catalog/codehost/workflows/generate.py"),
        &["--check"],
    ) else {
        return;
    };
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn check_sees_a_stale_table_and_a_changed_vendor_file() {
    let dir = generator_copy();
    let generator = dir.path().join("workflows/generate.py");
    let table = dir.path().join("workflows/app_endpoints.tsv");
    let text = std::fs::read_to_string(&table).unwrap();
    let row = "POST\t/repos/{owner}/{repo}/issues\trepository\tissues\twrite\tno\t";
    assert!(text.contains(row));
    std::fs::write(&table, text.replacen(row, "", 1)).unwrap();
    let Some(out) = python(&generator, &["--check"]) else {
        return;
    };
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("app_endpoints.tsv is stale"));
    // Rewriting restores it.
    assert!(python(&generator, &[]).unwrap().status.success());
    assert_eq!(std::fs::read_to_string(&table).unwrap(), text);

    let vendor = dir
        .path()
        .join("vendor/fpt-2022-11-28.server-to-server-permissions.json");
    let json = std::fs::read_to_string(&vendor).unwrap();
    std::fs::write(&vendor, json.replacen("\"read\"", "\"write\"", 1)).unwrap();
    let out = python(&generator, &["--check"]).unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("sha256"));
}

#[test]
fn the_committed_tables_build_the_same_twice() {
    let catalog = root().join("catalog");
    let first = workflows::generate(&catalog);
    assert_eq!(first, workflows::generate(&catalog));
    assert!(first.contains("pub(super) static ENDPOINTS"));
}

fn broken(file: &str, from: &str, to: &str) -> (i32, String) {
    let dir = tempfile::tempdir().unwrap();
    let tables = dir.path().join("codehost/workflows");
    std::fs::create_dir_all(&tables).unwrap();
    for name in [
        "keys.tsv",
        "app_endpoints.tsv",
        "gh_commands.tsv",
        "actions.tsv",
    ] {
        std::fs::copy(
            root().join("catalog/codehost/workflows").join(name),
            tables.join(name),
        )
        .unwrap();
    }
    let path = dir.path().join(file);
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains(from), "{file} has no {from:?}");
    std::fs::write(&path, text.replacen(from, to, 1)).unwrap();
    let out = Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            &format!("{}::child_generates", test_module()),
            "--nocapture",
            "--test-threads=1",
        ])
        .env(CHILD, dir.path())
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn line_of(file: &str, needle: &str) -> usize {
    let text = std::fs::read_to_string(root().join("catalog").join(file)).unwrap();
    text.lines().position(|l| l.contains(needle)).unwrap() + 1
}

#[test]
fn broken_tables_fail_with_file_and_line() {
    let pr_create = line_of("codehost/workflows/gh_commands.tsv", "pr create\t");
    let checkout = line_of("codehost/workflows/actions.tsv", "actions/checkout\t");
    let models = line_of("codehost/workflows/keys.tsv", "models\tModels");
    let stale = line_of("codehost/workflows/actions.tsv", "actions/stale\t");
    let issues = line_of(
        "codehost/workflows/app_endpoints.tsv",
        "POST\t/repos/{owner}/{repo}/issues\t",
    );
    let cases = [
        (
            "codehost/workflows/gh_commands.tsv",
            "pr create\tpull-requests=write",
            "pr create\tpull-requests=read",
            format!(
                "catalog/codehost/workflows/gh_commands.tsv:{pr_create}: app_endpoints.tsv has no row of `POST /repos/{{owner}}/{{repo}}/pulls` under `pull_requests` at that level"
            ),
        ),
        (
            "codehost/workflows/gh_commands.tsv",
            "pr create\tpull-requests=write",
            "pr create\tpull-request=write",
            format!(
                "catalog/codehost/workflows/gh_commands.tsv:{pr_create}: `pull-request` is not a key of keys.tsv"
            ),
        ),
        (
            "codehost/workflows/actions.tsv",
            "actions/checkout\tcontents=read",
            "actions/checkout\tcontents=reed",
            format!(
                "catalog/codehost/workflows/actions.tsv:{checkout}: `reed` is not `read`, `write` or `none`"
            ),
        ),
        (
            "codehost/workflows/actions.tsv",
            "actions/deploy-pages\tpages=write+id-token=write",
            "actions/deploy-pages\tpages=write+id-token=read",
            "`id-token` does not take `id-token=read`".to_string(),
        ),
        (
            "codehost/workflows/actions.tsv",
            "\tdelete-branch=true\trepo-token\t",
            "\tdelete branch\trepo-token\t",
            format!(
                "catalog/codehost/workflows/actions.tsv:{stale}: `delete branch` is not `NAME`, `NAME=true` or `-`"
            ),
        ),
        (
            "codehost/workflows/keys.tsv",
            "models\tModels\tread,none\t-\tnone\tread",
            "models\tModels\tread,none\t-\tnone\twrite",
            format!(
                "catalog/codehost/workflows/keys.tsv:{models}: the default `write` is not a level it accepts"
            ),
        ),
        (
            "codehost/workflows/app_endpoints.tsv",
            "POST\t/repos/{owner}/{repo}/issues\trepository\tissues\twrite\t",
            "POST\t/repos/{owner}/{repo}/issues\trepository\tissues\twrote\t",
            format!(
                "catalog/codehost/workflows/app_endpoints.tsv:{issues}: unknown access `wrote`"
            ),
        ),
    ];
    for (file, from, to, expected) in cases {
        let (status, stderr) = broken(file, from, to);
        assert_eq!(status, 1, "{file}: {stderr}");
        assert!(
            stderr.contains(&expected),
            "{file}: expected {expected:?} in\n{stderr}"
        );
        assert!(!stderr.contains("panicked"), "{stderr}");
    }
}
