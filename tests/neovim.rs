//! Neovim, a real LSP client, drives `reqlint server` headless (tests/support/nvim_lsp.lua):
//! the diagnostics it shows, a quick fix applied through `vim.lsp.buf.code_action`, and
//! hover text. Skipped where `nvim` is not installed, unless REQLINT_REQUIRE_NEOVIM=1
//! (CI installs Neovim from Debian and sets it).

use std::path::PathBuf;
use std::process::Command;

#[path = "support/watchdog.rs"]
mod watchdog;

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
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/support/nvim_lsp.lua");
    // A client that hangs fails the test through the watchdog rather than the run.
    watchdog::output(
        Command::new("nvim")
            .args(["--headless", "--clean", "-n", "-c"])
            .arg(format!("luafile {}", script.display()))
            .env("REQLINT_BIN", env!("CARGO_BIN_EXE_reqlint"))
            .env("REQLINT_DIR", dir.path()),
        "nvim driving reqlint server",
    );
    let result = std::fs::read_to_string(dir.path().join("result.txt"))
        .unwrap_or_else(|_| "FAIL no result written".into());
    assert_eq!(result.trim(), "OK", "{result}");
}
