//! Neovim, a real LSP client, drives `reqlint server` headless (tests/it/support/nvim_lsp.lua),
//! set up by the block of docs/ci-and-editors.md written for its generation (0.7, 0.8 to
//! 0.10, 0.11 and later), so that the documented set-up is the tested one: the
//! diagnostics it shows, a quick fix applied through `vim.lsp.buf.code_action`, and hover
//! text. Skipped where `nvim` is not installed, unless REQLINT_REQUIRE_NEOVIM=1
//! (CI installs Neovim from Debian and sets it).

use std::path::PathBuf;
use std::process::Command;

use crate::support::watchdog;

#[test]
fn neovim_shows_diagnostics_applies_a_quick_fix_and_hovers() {
    let required = std::env::var_os("REQLINT_REQUIRE_NEOVIM").is_some();
    if Command::new("nvim").arg("--version").output().is_err() {
        assert!(
            !required,
            "REQLINT_REQUIRE_NEOVIM is set but nvim cannot run"
        );
        eprintln!("skipped: nvim is not installed");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join(".reqlint.yaml"), "").unwrap();
    std::fs::write(
        dir.path().join("a.req.yaml"),
        "name: Spring sale\nrequest: POST /v25.0/act_1/campaigns\nparms: {special_ad_categories: []}\n",
    )
    .unwrap();
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let script = root.join("tests/it/support/nvim_lsp.lua");
    let version = Command::new("nvim").arg("--version").output().unwrap();
    let version = String::from_utf8_lossy(&version.stdout).into_owned();
    let docs = std::fs::read_to_string(root.join("docs/ci-and-editors.md")).unwrap();
    let heading = setup_heading(&version);
    let setup = dir.path().join("setup.lua");
    std::fs::write(&setup, lua_block_after(&docs, heading)).unwrap();
    // The documented set-up starts `reqlint` from PATH: this build first.
    let bin_dir = PathBuf::from(env!("CARGO_BIN_EXE_reqlint"))
        .parent()
        .unwrap()
        .to_path_buf();
    let path = std::env::join_paths(std::iter::once(bin_dir).chain(std::env::split_paths(
        &std::env::var_os("PATH").unwrap_or_default(),
    )))
    .unwrap();
    // A client that hangs fails the test through the watchdog rather than the run.
    watchdog::output(
        Command::new("nvim")
            .args(["--headless", "--clean", "-n", "-c"])
            .arg(format!("luafile {}", script.display()))
            .env("PATH", path)
            .env("REQLINT_SETUP", &setup)
            .env("REQLINT_DIR", dir.path()),
        "nvim driving reqlint server",
    );
    let result = std::fs::read_to_string(dir.path().join("result.txt"))
        .unwrap_or_else(|_| "FAIL no result written".into());
    assert_eq!(result.trim(), "OK", "{heading}: {result}");
}

/// The paragraph of docs/ci-and-editors.md that opens the set-up for the Neovim whose
/// `nvim --version` is `version` (`NVIM v0.7.2`).
fn setup_heading(version: &str) -> &'static str {
    let minor: u32 = version
        .split_whitespace()
        .nth(1)
        .and_then(|v| v.trim_start_matches('v').split('.').nth(1))
        .and_then(|m| m.parse().ok())
        .unwrap_or_else(|| panic!("cannot read the version of `nvim --version`: {version}"));
    match minor {
        0..=7 => "Neovim 0.7 (",
        8..=10 => "Neovim 0.8 to 0.10 (",
        _ => "Neovim 0.11 and later (",
    }
}

/// The first ```lua block after the line that starts with `heading`.
fn lua_block_after<'a>(docs: &'a str, heading: &str) -> &'a str {
    let at = docs
        .lines()
        .position(|l| l.starts_with(heading))
        .unwrap_or_else(|| panic!("docs/ci-and-editors.md has no set-up `{heading}…`"));
    let rest: Vec<&str> = docs.lines().skip(at).collect();
    let open = rest
        .iter()
        .position(|l| *l == "```lua")
        .expect("a lua block");
    let close = open + rest[open..].iter().position(|l| *l == "```").unwrap();
    let first = rest[open + 1];
    let last = rest[close - 1];
    let start = first.as_ptr() as usize - docs.as_ptr() as usize;
    let end = last.as_ptr() as usize - docs.as_ptr() as usize + last.len();
    &docs[start..end]
}

#[test]
fn every_neovim_generation_has_a_documented_set_up() {
    let docs = std::fs::read_to_string(
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("docs/ci-and-editors.md"),
    )
    .unwrap();
    for version in ["NVIM v0.7.2", "NVIM v0.9.5", "NVIM v0.10.4", "NVIM v0.11.2"] {
        let block = lua_block_after(&docs, setup_heading(version));
        assert!(block.contains("'reqlint', 'server'"), "{version}: {block}");
    }
}
