//! Every rule's cases, as actionlint pairs each test file with its `.out` and ruff's
//! snapshots pin the frame and the fix: each request file under `fixtures/<rule>/` (and
//! under `fixtures/formats/`) is linted alone, from the repository root so that the root
//! `.reqlint.yaml` and its context snapshots apply, and what it gives must equal the
//! files beside it:
//!
//! - `<case>.out`: the whole human report (`--format human --color never`: the frames,
//!   labels, help and fix notes) without its summary line. A case without `.out` (and
//!   every `good*` case) must lint clean.
//! - `<case>.fixed`: the case's text after `--fix`, when that changes it.
//! - `<case>.unsafe.fixed`: its text after `--fix --unsafe-fixes`, when that differs
//!   from the text after `--fix` (the text after both flags is therefore the
//!   `.unsafe.fixed`, else the `.fixed`, else the case itself).
//! - `<case>.config.diff`: the unified diff of the root `.reqlint.yaml` after `--fix`,
//!   when a fix edits the config (a token named there gets a permission), and
//!   `<case>.unsafe.config.diff` after `--fix --unsafe-fixes` when that differs.
//!
//! A case whose report offers a fix (`[*] --fix:` or `--fix --unsafe-fixes:` in its
//! help) has its `.fixed` or `.config.diff`, and a case that offers none is left as it
//! is by `--fix`. The fixes are made in a temporary copy of the root config and of
//! `fixtures/` (the case and the config written afresh before each run), never in the
//! repository.
//!
//! The report's width is reqlint's own: the human report renders at 100 columns
//! (`with_width` in src/reports/human.rs), and miette's graphical handler never asks the
//! terminal (only its `MietteHandlerOpts` does, from standard output, error and input);
//! the runs here have no terminal anyway (output piped, input from /dev/null), so the
//! `.out` files are the same on any machine.
//!
//! `UPDATE_EXPECT=1 cargo test --test it fixtures::` writes them all, and removes those
//! that a case no longer gives (read the diff before committing it).

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use reqlint::rules::REGISTRY;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// `bad.req.yaml` → `bad`: the name of a case and of its expectations; the formats that
/// reqlint's readers read are cases too (`github.http` → `github`), and so is a Postman
/// collection that only its content names one (`collection.json` → `collection`), as the
/// walk finds it.
fn case_name<'f>(dir: &Path, file: &'f str) -> Option<&'f str> {
    named_case(file).or_else(|| {
        let stem = file.strip_suffix(".json")?;
        let text = std::fs::read_to_string(dir.join(file)).ok()?;
        is_postman_collection(&text).then_some(stem)
    })
}

/// A JSON text whose `info.schema` is one of Postman's collection schemas (the two hosts
/// Postman has published them on).
fn is_postman_collection(text: &str) -> bool {
    let Ok(json) = serde_json::from_str::<serde_json::Value>(text) else {
        return false;
    };
    json.pointer("/info/schema")
        .and_then(serde_json::Value::as_str)
        .is_some_and(|schema| {
            [
                "://schema.getpostman.com/json/collection/",
                "://schema.postman.com/json/collection/",
            ]
            .iter()
            .any(|host| schema.contains(host))
        })
}

/// The case of a file whose name says it is a request file.
fn named_case(file: &str) -> Option<&str> {
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

/// What a case is pinned by, beside it (`<case><suffix>`); the longer suffixes first, so
/// that the case of a file name is found by the first suffix it ends with.
const EXPECTATIONS: [&str; 5] = [
    ".unsafe.config.diff",
    ".config.diff",
    ".unsafe.fixed",
    ".fixed",
    ".out",
];

/// reqlint run from `dir` on the file `rel` with `args`, without a terminal, the cache or
/// the CI variables; it must end with 0 or 1 (findings), not 2 or a crash.
fn reqlint(dir: &Path, rel: &str, args: &[&str]) -> Output {
    let out = Command::new(env!("CARGO_BIN_EXE_reqlint"))
        .current_dir(dir)
        .arg("check")
        .arg(rel)
        .args(["--color", "never", "--no-cache"])
        .args(args)
        .env_remove("GITHUB_ACTIONS")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(
        matches!(out.status.code(), Some(0 | 1)),
        "{rel} {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// The human report of one file, without the summary line that ends it.
fn report(rel: &str) -> String {
    let out = reqlint(&root(), rel, &["--format", "human"]);
    let stdout = String::from_utf8(out.stdout).unwrap();
    let body = stdout.strip_suffix('\n').unwrap_or(&stdout);
    let (body, summary) = body.rsplit_once('\n').unwrap_or(("", body));
    assert!(
        summary.starts_with("Found ") || summary.starts_with("All checks passed"),
        "{rel}: the report ends with {summary:?}, not its summary"
    );
    if body.is_empty() {
        String::new()
    } else {
        format!("{body}\n")
    }
}

/// A temporary copy of what the fixtures' runs read: the root config and `fixtures/`
/// (the context snapshots, the environments, Bruno's collection files). `--fix` writes
/// here.
struct Sandbox {
    dir: tempfile::TempDir,
    config: String,
}

/// A file after the fixes, and the config after them.
#[derive(PartialEq)]
struct AfterFix {
    file: Vec<u8>,
    config: String,
}

impl Sandbox {
    fn new() -> Sandbox {
        let dir = tempfile::tempdir().unwrap();
        let config = std::fs::read_to_string(root().join(".reqlint.yaml")).unwrap();
        std::fs::write(dir.path().join(".reqlint.yaml"), &config).unwrap();
        copy_dir(&root().join("fixtures"), &dir.path().join("fixtures"));
        Sandbox { dir, config }
    }

    /// The case `rel` (whose text is `original`) and the config after `--fix`, with
    /// `--unsafe-fixes` when `unsafe_fixes`; both are written afresh first.
    fn fix(&self, rel: &str, original: &[u8], unsafe_fixes: bool) -> AfterFix {
        let file = self.dir.path().join(rel);
        let config = self.dir.path().join(".reqlint.yaml");
        std::fs::write(&file, original).unwrap();
        std::fs::write(&config, &self.config).unwrap();
        let args: &[&str] = if unsafe_fixes {
            &["--fix", "--unsafe-fixes", "--format", "concise"]
        } else {
            &["--fix", "--format", "concise"]
        };
        reqlint(self.dir.path(), rel, args);
        AfterFix {
            file: std::fs::read(&file).unwrap(),
            config: std::fs::read_to_string(&config).unwrap(),
        }
    }

    /// The unified diff of the root config from what it was to `after` (empty when it
    /// is the same).
    fn config_diff(&self, after: &str) -> String {
        if after == self.config {
            return String::new();
        }
        similar::TextDiff::from_lines(self.config.as_str(), after)
            .unified_diff()
            .context_radius(3)
            .header("a/.reqlint.yaml", "b/.reqlint.yaml")
            .to_string()
    }
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

/// What one case gives for each of its expectations (`EXPECTATIONS`, in that order);
/// empty: that file must not exist.
fn outcomes(sandbox: &Sandbox, rel: &str, report: &str) -> [Vec<u8>; 5] {
    let mut got: [Vec<u8>; 5] = Default::default();
    got[4] = report.as_bytes().to_vec();
    if report.is_empty() {
        return got;
    }
    let original = std::fs::read(root().join(rel)).unwrap();
    let unchanged = AfterFix {
        file: original.clone(),
        config: sandbox.config.clone(),
    };
    let safe = sandbox.fix(rel, &original, false);
    let all = sandbox.fix(rel, &original, true);

    // The fix notes of the report and what the fixes do agree: a case that offers a fix
    // changes, one that offers none stays as it is.
    let offers_safe = report.contains("[*] `--fix`:");
    let offers_unsafe = report.contains("`--fix --unsafe-fixes`:");
    assert_eq!(
        offers_safe,
        safe != unchanged,
        "{rel}: the report {} a `--fix` fix, and `--fix` {} it",
        if offers_safe { "offers" } else { "offers no" },
        if safe != unchanged {
            "changes"
        } else {
            "leaves"
        }
    );
    assert_eq!(
        offers_safe || offers_unsafe,
        all != unchanged,
        "{rel}: the report's fix notes and what `--fix --unsafe-fixes` does disagree"
    );

    if safe.file != original {
        got[3] = safe.file.clone();
    }
    if all.file != safe.file {
        got[2] = all.file.clone();
    }
    got[1] = sandbox.config_diff(&safe.config).into_bytes();
    if all.config != safe.config {
        got[0] = sandbox.config_diff(&all.config).into_bytes();
    }
    got
}

/// Checks one case against its expectations (or writes them, with `update`), and
/// returns its report; a rule's `good*` case must lint clean.
fn check_case(
    sandbox: &Sandbox,
    dir: &Path,
    (case, file): (&str, &str),
    update: bool,
    failures: &mut Vec<String>,
) -> String {
    let rel = dir
        .join(file)
        .strip_prefix(root())
        .unwrap()
        .to_string_lossy()
        .into_owned();
    let report = report(&rel);
    let a_rules_good_case = case.starts_with("good") && !rel.starts_with("fixtures/formats/");
    if a_rules_good_case && !report.is_empty() {
        failures.push(format!("{rel} is a good case but gets:\n{report}"));
        return report;
    }
    let got = outcomes(sandbox, &rel, &report);
    for (suffix, got) in EXPECTATIONS.iter().zip(got) {
        let path = dir.join(format!("{case}{suffix}"));
        let expected = std::fs::read(&path).unwrap_or_default();
        if got == expected {
            continue;
        }
        if update {
            if got.is_empty() {
                std::fs::remove_file(&path).unwrap();
            } else {
                std::fs::write(&path, &got).unwrap();
            }
        } else {
            failures.push(format!(
                "{rel}: expected ({}):\n{}got:\n{}",
                path.strip_prefix(root()).unwrap().display(),
                String::from_utf8_lossy(&expected),
                String::from_utf8_lossy(&got)
            ));
        }
    }
    report
}

/// The cases of a folder: its request files, and the workflows of its
/// `.github/workflows/` (a workflow is read as one only there), whose expectations sit
/// in the folder itself (`bad.yml` → `bad.out`).
fn cases(dir: &Path) -> Vec<(String, String)> {
    let mut cases: Vec<(String, String)> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| {
            let name = e.unwrap().file_name().to_string_lossy().into_owned();
            case_name(dir, &name).map(|c| (c.to_string(), name.clone()))
        })
        .collect();
    if let Ok(workflows) = std::fs::read_dir(dir.join(".github/workflows")) {
        for e in workflows {
            let name = e.unwrap().file_name().to_string_lossy().into_owned();
            if let Some(case) = name
                .strip_suffix(".yml")
                .or_else(|| name.strip_suffix(".yaml"))
            {
                cases.push((case.to_string(), format!(".github/workflows/{name}")));
            }
        }
    }
    cases.sort();
    cases
}

#[test]
fn every_case_has_its_expected_output() {
    let update = std::env::var_os("UPDATE_EXPECT").is_some();
    let sandbox = Sandbox::new();
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
            let report = check_case(&sandbox, &dir, (&case, &file), update, &mut failures);
            // The report's header line of a diagnostic is its rule.
            fires |= report.lines().any(|l| l == name);
        }
        assert!(
            fires,
            "no case of fixtures/{name}/ gets a `{name}` diagnostic"
        );
    }
    assert!(total >= REGISTRY.len() * 2);
    assert!(
        failures.is_empty(),
        "{} expectation(s) differ (UPDATE_EXPECT=1 rewrites them):\n\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Every expectation belongs to a case, and every folder under fixtures/ is a rule's (or
/// the shared context snapshots, or the request formats').
#[test]
fn no_stray_expectations() {
    let mut stack = Vec::new();
    for entry in std::fs::read_dir(root().join("fixtures")).unwrap() {
        let entry = entry.unwrap();
        let dir_name = entry.file_name().to_string_lossy().into_owned();
        if !entry.file_type().unwrap().is_dir() || dir_name == "context" {
            continue;
        }
        assert!(
            dir_name == "formats" || REGISTRY.iter().any(|r| r.meta().name == dir_name),
            "fixtures/{dir_name}/ names no rule"
        );
        stack.push(entry.path());
    }
    let mut expectations = 0;
    while let Some(dir) = stack.pop() {
        let cases = cases(&dir);
        for file in std::fs::read_dir(&dir).unwrap() {
            let file = file.unwrap();
            if file.file_type().unwrap().is_dir() {
                stack.push(file.path());
                continue;
            }
            let file = file.file_name().to_string_lossy().into_owned();
            let Some(case) = EXPECTATIONS.iter().find_map(|s| file.strip_suffix(s)) else {
                continue;
            };
            expectations += 1;
            assert!(
                cases.iter().any(|(c, _)| c == case),
                "{}/{file} has no case",
                dir.strip_prefix(root()).unwrap().display()
            );
        }
    }
    assert!(expectations > REGISTRY.len(), "{expectations} expectations");
}

/// The request formats that reqlint's readers read (fixtures/formats/<format>/, Bruno
/// collections in folders of their own): each file linted alone against its
/// expectations, with the environments and the token of the root `.reqlint.yaml`.
#[test]
fn every_format_case_has_its_expected_output() {
    let update = std::env::var_os("UPDATE_EXPECT").is_some();
    let sandbox = Sandbox::new();
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
            check_case(&sandbox, &dir, (&case, &file), update, &mut failures);
        }
    }
    assert!(total >= 10, "{total} format cases");
    assert!(
        failures.is_empty(),
        "{} format expectation(s) differ (UPDATE_EXPECT=1 rewrites them):\n\n{}",
        failures.len(),
        failures.join("\n")
    );
}
