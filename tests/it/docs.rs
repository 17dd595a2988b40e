//! `docs/rules/` is generated from the rules' metadata: this test fails when a page is
//! stale, missing or left over. `UPDATE_DOCS=1 cargo test --test it docs::` writes them.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use reqlint::docs::rules::{index_page, rule_page};
use reqlint::rules::REGISTRY;

/// What `reqlint check --format concise` says of a file (the bad example, on its rule's
/// page), from the repository root, without the summary line.
fn concise_output(root: &Path, path: &str) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_reqlint"))
        .current_dir(root)
        .args(["check", path, "--format", "concise", "--color", "never"])
        .args(["--no-cache"])
        .env_remove("GITHUB_ACTIONS")
        .output()
        .unwrap();
    assert!(matches!(out.status.code(), Some(0 | 1)), "{path}: {out:?}");
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with("Found ") && !l.starts_with("All checks passed"))
        .map(|l| format!("{l}\n"))
        .collect()
}

#[test]
fn rule_pages_are_generated_from_the_metadata() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let dir = root.join("docs/rules");
    let mut pages = BTreeMap::new();
    pages.insert("README.md".to_string(), index_page());
    for rule in REGISTRY {
        let m = rule.meta();
        pages.insert(
            format!("{}.md", m.name),
            rule_page(m, &concise_output(&root, m.bad.path)),
        );
    }
    let update = std::env::var_os("UPDATE_DOCS").is_some();
    if update {
        std::fs::create_dir_all(&dir).unwrap();
    }
    let mut stale = Vec::new();
    for (name, text) in &pages {
        let path = dir.join(name);
        if std::fs::read_to_string(&path).ok().as_deref() != Some(text.as_str()) {
            if update {
                std::fs::write(&path, text).unwrap();
            } else {
                stale.push(name.clone());
            }
        }
    }
    for entry in std::fs::read_dir(&dir).into_iter().flatten() {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        if !pages.contains_key(&name) {
            if update {
                std::fs::remove_file(dir.join(&name)).unwrap();
            } else {
                stale.push(format!("{name} (no such rule)"));
            }
        }
    }
    assert!(
        stale.is_empty(),
        "docs/rules/ is stale; run `UPDATE_DOCS=1 cargo test --test it docs::`: {}",
        stale.join(", ")
    );
}

/// The Marketing API catalog reference is generated from the compiled catalog.
#[test]
fn catalog_reference_is_generated_from_the_catalog() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let update = std::env::var_os("UPDATE_DOCS").is_some();
    let mut stale = Vec::new();
    for (name, text) in [
        (
            "marketing-api-catalog.md",
            reqlint::docs::catalog::catalog_page(),
        ),
        (
            "marketing-api-enums.md",
            reqlint::docs::catalog::enums_page(),
        ),
        (
            "codehost-catalog.md",
            reqlint::docs::codehost_catalog::catalog_page(),
        ),
        (
            "workflow-permissions.md",
            reqlint::docs::workflow_tables::permissions_page(),
        ),
    ] {
        let path = root.join("docs").join(name);
        if std::fs::read_to_string(&path).ok().as_deref() != Some(text.as_str()) {
            if update {
                std::fs::write(&path, text).unwrap();
            } else {
                stale.push(name);
            }
        }
    }
    assert!(
        stale.is_empty(),
        "docs/ is stale; run `UPDATE_DOCS=1 cargo test --test it docs::`: {}",
        stale.join(", ")
    );
}

/// The JSON Schemas are published under schemas/ (with stable `$id`s) as
/// `reqlint schema request|config` prints them; `UPDATE_DOCS=1` rewrites them.
#[test]
fn schemas_are_published() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let update = std::env::var_os("UPDATE_DOCS").is_some();
    let mut stale = Vec::new();
    for (name, schema) in [
        ("request.schema.json", reqlint::docs::schema::request()),
        ("config.schema.json", reqlint::docs::schema::config()),
    ] {
        let text = format!("{}\n", serde_json::to_string_pretty(&schema).unwrap());
        let path = root.join("schemas").join(name);
        if std::fs::read_to_string(&path).ok().as_deref() != Some(text.as_str()) {
            if update {
                std::fs::create_dir_all(root.join("schemas")).unwrap();
                std::fs::write(&path, text).unwrap();
            } else {
                stale.push(name);
            }
        }
    }
    assert!(
        stale.is_empty(),
        "schemas/ is stale; run `UPDATE_DOCS=1 cargo test --test it docs::`: {}",
        stale.join(", ")
    );
}
