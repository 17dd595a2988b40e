//! The catalog build step (build/) on broken tables: each fails with the file and line
//! and a message, never a panic; the committed catalog builds the same twice.
//!
//! The build modules are compiled into this test; a broken table ends the process (as
//! it ends the build), so each case runs in a child process of this test binary.

#![allow(dead_code)]

#[path = "../../build/advertising.rs"]
mod advertising;
#[path = "../../build/codehost.rs"]
mod codehost;
#[path = "../../build/edge_fields.rs"]
mod edge_fields;
#[path = "../../build/geo.rs"]
pub(crate) mod geo;
#[path = "../../src/catalog/name_hash.rs"]
pub(crate) mod name_hash;
#[path = "../../src/catalog/names.rs"]
pub(crate) mod names;
#[path = "../../build/octokit.rs"]
mod octokit;
#[path = "../../build/openapi.rs"]
mod openapi;
#[path = "../../build/source.rs"]
pub(crate) mod source;

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every generated table of a catalog folder.
fn generate(catalog: &Path) -> Vec<String> {
    let (geo, countries) = geo::generate(catalog);
    vec![
        geo,
        codehost::generate(catalog),
        openapi::generate(catalog),
        octokit::generate(catalog),
        advertising::generate(catalog, &countries),
        edge_fields::generate(catalog),
    ]
}

const CHILD: &str = "REQLINT_CATALOG_CASE";

/// Run in a child: generate the catalog the parent prepared (and exit 1 on an error).
#[test]
fn child_generates() {
    if let Some(dir) = std::env::var_os(CHILD) {
        let _ = generate(Path::new(&dir));
    }
}

/// This module as the test harness names its tests: the module path without the test
/// binary's root (`catalog_build`, whose `child_generates` the children run).
fn test_module() -> &'static str {
    module_path!()
        .split_once("::")
        .map_or(module_path!(), |(_, module)| module)
}

/// The catalog with `file`'s text `from` replaced by `to`, generated in a child process:
/// its exit status and standard error.
fn broken(file: &str, from: &str, to: &str) -> (i32, String) {
    let dir = tempfile::tempdir().unwrap();
    copy_dir(&root().join("catalog"), dir.path());
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

fn line_of(file: &str, needle: &str) -> usize {
    let text = std::fs::read_to_string(root().join("catalog").join(file)).unwrap();
    text.lines().position(|l| l.contains(needle)).unwrap() + 1
}

#[test]
fn the_committed_catalog_builds_the_same_twice() {
    let catalog = root().join("catalog");
    let first = generate(&catalog);
    assert_eq!(first, generate(&catalog));
    assert!(first.iter().all(|t| !t.is_empty()));
}

#[test]
fn broken_tables_fail_with_file_and_line() {
    let retention = line_of("advertising/params.yaml", "retention_days:");
    let blocks = line_of("codehost/permissions.tsv", "/orgs/{org}/blocks/{username}");
    let v20 = line_of("advertising/versions.tsv", "v20.0");
    let rate_limit = line_of("codehost/openapi/operations.tsv", "\tGET\t/rate_limit\t");
    let create_comment = line_of("codehost/octokit/methods.tsv", "issues\tcreateComment\t");
    let potection = line_of(
        "codehost/octokit/methods.tsv",
        "\tupdateStatusCheckPotection\t",
    );
    let assigned = line_of(
        "advertising/edge_fields.tsv",
        "ad_account\tassigned_users\ttasks",
    );
    let agencies = line_of(
        "advertising/edge_fields.tsv",
        "ad_account\tagencies\taccess_status",
    );
    let cases = [
        (
            "advertising/params.yaml",
            "rule: audience-retention-days-range",
            "rule: Audience-Retention-Days-Range",
            format!(
                "catalog/advertising/params.yaml:{retention}: `Audience-Retention-Days-Range` is not a rule name (kebab-case)"
            ),
        ),
        (
            "advertising/params.yaml",
            "retention_days: {type: int64,",
            "retention_days: {type: int46,",
            format!("catalog/advertising/params.yaml:{retention}: unknown type `int46`"),
        ),
        (
            "codehost/permissions.tsv",
            "PUT\t/orgs/{org}/blocks/{username}\twrite",
            "PUT\t/orgs/{org}/blocks/{username}\twrote",
            format!("catalog/codehost/permissions.tsv:{blocks}: unknown access `wrote`"),
        ),
        (
            "codehost/openapi/operations.tsv",
            "*\tGET\t/rate_limit\t",
            "*\tGOT\t/rate_limit\t",
            format!("catalog/codehost/openapi/operations.tsv:{rate_limit}: unknown method `GOT`"),
        ),
        (
            "codehost/openapi/params.tsv",
            "\tpath\tbranch\trequired\t",
            "\tpath\tbranch\trequird\t",
            "is not `required` or `-`".to_string(),
        ),
        (
            "codehost/openapi/bodies.tsv",
            "\t$.lock_reason\tstring\t",
            "\tlock_reason\tstring\t",
            "the property `lock_reason` does not start with `$`".to_string(),
        ),
        (
            "codehost/octokit/methods.tsv",
            "issues\tcreateComment\tPOST\t",
            "issues\tcreateComment\tPOTS\t",
            format!("catalog/codehost/octokit/methods.tsv:{create_comment}: unknown method `POTS`"),
        ),
        (
            "codehost/octokit/methods.tsv",
            "renamed-to=repos.updateStatusCheckProtection",
            "renamed-to=repos.updateStatusCheckProtektion",
            format!(
                "catalog/codehost/octokit/methods.tsv:{potection}: renamed to `repos.updateStatusCheckProtektion`, which has no row"
            ),
        ),
        (
            "codehost/octokit/methods.tsv",
            "/issues/{issue_number}/comments\t-",
            "/issues/{issue_number/comments\t-",
            format!(
                "catalog/codehost/octokit/methods.tsv:{create_comment}: `{{issue_number` in `/repos/{{owner}}/{{repo}}/issues/{{issue_number/comments` has a malformed placeholder"
            ),
        ),
        (
            "advertising/versions.tsv",
            "v20.0\t2024-05-21",
            "v20.0\t2024-13-21",
            format!("catalog/advertising/versions.tsv:{v20}: `2024-13-21` is not a date"),
        ),
        (
            "advertising/operations.tsv",
            "ad_set_copy\tad_set\tcopy",
            "ad_set_copy\tad_sett\tcopy",
            "catalog/advertising/operations.tsv:".to_string(),
        ),
        (
            "advertising/adset_budget_minimums.yaml",
            "  GB: United Kingdom",
            "  UK: United Kingdom",
            "`UK` is not in geo/iso_countries.tsv".to_string(),
        ),
        (
            "advertising/params.yaml",
            "  audience_read:",
            "  audience_reed:",
            "`audience_reed` is not an operation of advertising/operations.tsv".to_string(),
        ),
        (
            "advertising/edge_fields.tsv",
            "ad_account\tassigned_users\ttasks",
            "ad_account\tassigned_userz\ttasks",
            format!(
                "catalog/advertising/edge_fields.tsv:{assigned}: `ad_account` has no `assigned_userz` edge to read (graph/calls.tsv)"
            ),
        ),
        (
            "advertising/edge_fields.tsv",
            "ad_account\tagencies\taccess_status",
            "ad_account\tagencies\tname",
            format!(
                "catalog/advertising/edge_fields.tsv:{agencies}: `business` has the field `name` already (graph/fields.tsv)"
            ),
        ),
        (
            "advertising/edge_fields.tsv",
            "assigned_users\ttasks\tlist<string>",
            "assigned_users\ttasks\tlist<strung>",
            format!("catalog/advertising/edge_fields.tsv:{assigned}: unknown type `list<strung>`"),
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

/// The generators give the committed tables from the vendor files (they are
/// deterministic: rows sorted, nothing from the clock or the environment): the
/// code-hosting endpoints.tsv and the advertising graph/.
#[test]
fn generator_output_is_committed() {
    for generator in [
        "catalog/codehost/generate.py",
        "catalog/advertising/generate.py",
    ] {
        let out = match Command::new("python3")
            .arg(root().join(generator))
            .arg("--check")
            .output()
        {
            Ok(out) => out,
            Err(e) => {
                eprintln!("skipped: python3 cannot run ({e})");
                return;
            }
        };
        assert!(
            out.status.success(),
            "{generator}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

/// The per-operation access table is its extractor's output from the committed inputs,
/// the extractor's self-test passes, and the rows that name a permission agree with the
/// host's permission tables (catalog/codehost/access/).
#[test]
fn access_table_is_the_extractors_output_and_agrees_with_the_permission_tables() {
    for mode in ["--check", "--cross-check", "--self-test"] {
        let out = match Command::new("python3")
            .arg(root().join("catalog/codehost/access/extract.py"))
            .arg(mode)
            .output()
        {
            Ok(out) => out,
            Err(e) => {
                eprintln!("skipped: python3 cannot run ({e})");
                return;
            }
        };
        assert!(
            out.status.success(),
            "extract.py {mode}: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

/// The host's OpenAPI description, as the pinned npm package: where the tests look for
/// it (it is not in the repository; `npm pack @octokit/openapi@23.0.2` fetches it).
fn octokit_tarball() -> Option<PathBuf> {
    let given = std::env::var_os("REQLINT_OCTOKIT_OPENAPI_TGZ").map(PathBuf::from);
    let default = PathBuf::from("/tmp/octo/octokit-openapi-23.0.2.tgz");
    given.into_iter().chain([default]).find(|p| p.is_file())
}

/// The committed catalog/codehost/openapi/ tables are the generator's output from the
/// pinned package, when the package is at hand.
#[test]
fn openapi_tables_are_the_generators_output() {
    let Some(tarball) = octokit_tarball() else {
        eprintln!(
            "skipped: the @octokit/openapi 23.0.2 tarball is neither at $REQLINT_OCTOKIT_OPENAPI_TGZ nor at /tmp/octo/octokit-openapi-23.0.2.tgz"
        );
        return;
    };
    let out = match Command::new("python3")
        .arg(root().join("catalog/codehost/openapi/generate.py"))
        .arg(&tarball)
        .arg("--check")
        .output()
    {
        Ok(out) => out,
        Err(e) => {
            eprintln!("skipped: python3 cannot run ({e})");
            return;
        }
    };
    assert!(
        out.status.success(),
        "{}: {}",
        tarball.display(),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A tarball that is not the pinned one is refused before anything is read from it.
#[test]
fn the_openapi_generator_refuses_another_tarball() {
    let dir = tempfile::tempdir().unwrap();
    let fake = dir.path().join("octokit-openapi-23.0.2.tgz");
    std::fs::write(&fake, b"not the package").unwrap();
    let out = match Command::new("python3")
        .arg(root().join("catalog/codehost/openapi/generate.py"))
        .arg(&fake)
        .arg("--check")
        .output()
    {
        Ok(out) => out,
        Err(e) => {
            eprintln!("skipped: python3 cannot run ({e})");
            return;
        }
    };
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("not the pinned"), "{stderr}");
}

/// Octokit's REST methods plugin, as the pinned npm package: where the tests look for it
/// (it is not in the repository; `npm pack @octokit/plugin-rest-endpoint-methods@18.0.0`
/// fetches it).
fn octokit_methods_tarball() -> Option<PathBuf> {
    let given = std::env::var_os("REQLINT_OCTOKIT_METHODS_TGZ").map(PathBuf::from);
    let default = PathBuf::from("/tmp/octo/octokit-plugin-rest-endpoint-methods-18.0.0.tgz");
    given.into_iter().chain([default]).find(|p| p.is_file())
}

/// The committed catalog/codehost/octokit/methods.tsv is the generator's output from the
/// pinned package, when the package is at hand.
#[test]
fn octokit_methods_table_is_the_generators_output() {
    let Some(tarball) = octokit_methods_tarball() else {
        eprintln!(
            "skipped: the @octokit/plugin-rest-endpoint-methods 18.0.0 tarball is neither at $REQLINT_OCTOKIT_METHODS_TGZ nor at /tmp/octo/octokit-plugin-rest-endpoint-methods-18.0.0.tgz"
        );
        return;
    };
    let out = match Command::new("python3")
        .arg(root().join("catalog/codehost/octokit/generate.py"))
        .arg(&tarball)
        .arg("--check")
        .output()
    {
        Ok(out) => out,
        Err(e) => {
            eprintln!("skipped: python3 cannot run ({e})");
            return;
        }
    };
    assert!(
        out.status.success(),
        "{}: {}",
        tarball.display(),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A tarball that is not the pinned one is refused before anything is read from it.
#[test]
fn the_octokit_methods_generator_refuses_another_tarball() {
    let dir = tempfile::tempdir().unwrap();
    let fake = dir
        .path()
        .join("octokit-plugin-rest-endpoint-methods-18.0.0.tgz");
    std::fs::write(&fake, b"not the package").unwrap();
    let out = match Command::new("python3")
        .arg(root().join("catalog/codehost/octokit/generate.py"))
        .arg(&fake)
        .arg("--check")
        .output()
    {
        Ok(out) => out,
        Err(e) => {
            eprintln!("skipped: python3 cannot run ({e})");
            return;
        }
    };
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("not the pinned"), "{stderr}");
}
