//! The names reqlint is published under agree everywhere a user or a tool reads them:
//! the PyPI distribution is `reqlint-cli` (`reqlint` on PyPI is an unrelated project),
//! and the command it installs is `reqlint`.

use std::path::PathBuf;

const DISTRIBUTION: &str = "reqlint-cli";

fn read(path: &str) -> String {
    std::fs::read_to_string(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(path))
        .unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The value of `key = "…"` in the `[project]` table of a pyproject.toml.
fn project_value(pyproject: &str, key: &str) -> String {
    let project = pyproject
        .split("\n[")
        .find(|t| t.starts_with("project]"))
        .expect("a [project] table");
    let line = project
        .lines()
        .find(|l| l.split('=').next().is_some_and(|k| k.trim() == key))
        .unwrap_or_else(|| panic!("no {key} in [project]"));
    line.split_once('=').unwrap().1.trim().to_string()
}

#[test]
fn the_python_package_is_reqlint_cli_and_installs_the_reqlint_command() {
    let pyproject = read("pyproject.toml");
    assert_eq!(
        project_value(&pyproject, "name"),
        format!("\"{DISTRIBUTION}\"")
    );
    // maturin's `bin` bindings install the Cargo binary, whose name is the command.
    assert!(pyproject.contains("bindings = \"bin\""));
    let cargo = read("Cargo.toml");
    assert!(
        cargo.contains("\nname = \"reqlint\"\n"),
        "the binary is `reqlint`"
    );
}

#[test]
fn the_mirror_pins_the_distribution_at_reqlints_version() {
    let cargo = read("Cargo.toml");
    let version = cargo
        .lines()
        .find_map(|l| l.strip_prefix("version = "))
        .unwrap()
        .trim_matches('"');
    let mirror = read("pre-commit-mirror/pyproject.toml");
    assert_eq!(
        project_value(&mirror, "dependencies"),
        format!("[\"{DISTRIBUTION}=={version}\"]")
    );
}

#[test]
fn docs_install_the_distribution_never_the_unrelated_reqlint() {
    for path in [
        "README.md",
        "docs/install.md",
        "docs/release.md",
        "docs/ci-and-editors.md",
        ".pre-commit-hooks.yaml",
        "pre-commit-mirror/README.md",
        "pre-commit-mirror/.pre-commit-hooks.yaml",
    ] {
        let text = read(path);
        for (n, line) in text.lines().enumerate() {
            for command in ["pip install reqlint", "pipx install reqlint", "reqlint=="] {
                for (at, _) in line.match_indices(command) {
                    let after = &line[at + command.len()..];
                    // `reqlint-cli==` never matches `reqlint==`; the install commands must go on
                    // with `-cli`.
                    let ours = command != "reqlint==" && after.starts_with("-cli");
                    // The one place that names the other project says so.
                    let warned = line.contains("not ours");
                    assert!(
                        ours || warned,
                        "{path}:{}: `{command}` names PyPI's unrelated `reqlint`: {line}",
                        n + 1
                    );
                }
            }
        }
    }
    assert!(read("docs/install.md").contains("### Our names on each registry"));
}
