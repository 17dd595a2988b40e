//! Every rule's cases, as actionlint pairs each test file with its `.out`: each request
//! file under `fixtures/<rule>/` is linted alone (from the repository root, so the root
//! `.reqlint.yaml` and its context snapshots apply) and its concise output, without the
//! summary line, must equal `<case>.out` beside it; a case without `.out` must lint
//! clean. `UPDATE_EXPECT=1 cargo test --test it fixtures::` writes the `.out` files (read
//! the diff before committing it).

use std::path::{Path, PathBuf};
use std::process::Command;

use reqlint::rules::REGISTRY;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// `bad.req.yaml` → `bad`: the name of a case and of its `.out`; the formats that
/// reqlint's readers read are cases too (`github.http` → `github`).
fn case_name(file: &str) -> Option<&str> {
    [
        ".req.yaml",
        ".req.yml",
        ".req.json",
        ".postman_collection.json",
        ".http",
        ".rest",
        ".bru",
        ".hurl",
    ]
    .iter()
    .find_map(|ext| file.strip_suffix(ext))
}

/// The concise output of `reqlint check` on one file, without the summary line.
fn lint(rel: &str) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_reqlint"))
        .current_dir(root())
        .args(["check", rel, "--format", "concise", "--color", "never"])
        .env_remove("GITHUB_ACTIONS")
        .output()
        .unwrap();
    assert!(
        matches!(out.status.code(), Some(0 | 1)),
        "{rel}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8(out.stdout).unwrap();
    stdout
        .lines()
        .filter(|l| !l.starts_with("Found ") && !l.starts_with("All checks passed"))
        .map(|l| format!("{l}\n"))
        .collect()
}

/// The output of a case against its `.out` (none: it must lint clean); with `update`,
/// the `.out` is written instead.
fn compare(rel: &str, got: &str, out: &Path, update: bool, failures: &mut Vec<String>) {
    let expected = std::fs::read_to_string(out).unwrap_or_default();
    if got == expected {
        return;
    }
    if update {
        if got.is_empty() {
            std::fs::remove_file(out).ok();
        } else {
            std::fs::write(out, got).unwrap();
        }
    } else {
        failures.push(format!(
            "{rel}: expected ({}):\n{expected}got:\n{got}",
            out.strip_prefix(root()).unwrap_or(out).display()
        ));
    }
}

fn cases(dir: &Path) -> Vec<(String, String)> {
    let mut cases: Vec<(String, String)> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| {
            let name = e.unwrap().file_name().to_string_lossy().into_owned();
            case_name(&name).map(|c| (c.to_string(), name.clone()))
        })
        .collect();
    cases.sort();
    cases
}

#[test]
fn every_case_has_its_expected_output() {
    let update = std::env::var_os("UPDATE_EXPECT").is_some();
    let mut failures = Vec::new();
    let mut total = 0;
    for rule in REGISTRY {
        let name = rule.meta().name;
        let dir = root().join("fixtures").join(name);
        let cases = cases(&dir);
        assert!(
            cases.iter().any(|(c, _)| c == "bad") && cases.iter().any(|(c, _)| c == "good"),
            "fixtures/{name}/ has a bad and a good case (the `explain` examples)"
        );
        let mut fires = false;
        for (case, file) in cases {
            total += 1;
            let rel = format!("fixtures/{name}/{file}");
            let got = lint(&rel);
            fires |= got.contains(&format!("[{name}]"));
            if case.starts_with("good") && !got.is_empty() {
                failures.push(format!("{rel} is a good case but gets:\n{got}"));
                continue;
            }
            compare(
                &rel,
                &got,
                &dir.join(format!("{case}.out")),
                update,
                &mut failures,
            );
        }
        assert!(
            fires,
            "no case of fixtures/{name}/ gets a `{name}` diagnostic"
        );
    }
    assert!(total >= REGISTRY.len() * 2);
    assert!(
        failures.is_empty(),
        "{} case(s) differ (UPDATE_EXPECT=1 rewrites the .out files):\n\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Every `.out` belongs to a case, and every folder under fixtures/ is a rule's (or the
/// shared context snapshots).
#[test]
fn no_stray_expectations() {
    for entry in std::fs::read_dir(root().join("fixtures")).unwrap() {
        let entry = entry.unwrap();
        let dir_name = entry.file_name().to_string_lossy().into_owned();
        if !entry.file_type().unwrap().is_dir() || dir_name == "context" || dir_name == "formats" {
            continue;
        }
        assert!(
            REGISTRY.iter().any(|r| r.meta().name == dir_name),
            "fixtures/{dir_name}/ names no rule"
        );
        let cases = cases(&entry.path());
        for file in std::fs::read_dir(entry.path()).unwrap() {
            let file = file.unwrap().file_name().to_string_lossy().into_owned();
            if let Some(case) = file.strip_suffix(".out") {
                assert!(
                    cases.iter().any(|(c, _)| c == case),
                    "fixtures/{dir_name}/{file} has no case"
                );
            }
        }
    }
}

/// The request formats that reqlint's readers read (fixtures/formats/<format>/, Bruno
/// collections in folders of their own): each file linted alone against its `.out`,
/// with the environments and the token of the root `.reqlint.yaml`.
#[test]
fn every_format_case_has_its_expected_output() {
    let update = std::env::var_os("UPDATE_EXPECT").is_some();
    let mut failures = Vec::new();
    let mut total = 0;
    let mut stack = vec![root().join("fixtures/formats")];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let entry = entry.unwrap();
            if entry.file_type().unwrap().is_dir() {
                stack.push(entry.path());
            }
        }
        for (case, file) in cases(&dir) {
            total += 1;
            let path = dir.join(&file);
            let rel = path
                .strip_prefix(root())
                .unwrap()
                .to_string_lossy()
                .into_owned();
            let got = lint(&rel);
            compare(
                &rel,
                &got,
                &dir.join(format!("{case}.out")),
                update,
                &mut failures,
            );
        }
    }
    assert!(total >= 10, "{total} format cases");
    assert!(
        failures.is_empty(),
        "{} format case(s) differ (UPDATE_EXPECT=1 rewrites the .out files):\n\n{}",
        failures.len(),
        failures.join("\n")
    );
}
