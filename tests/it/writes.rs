//! Nothing written outside the repository, nothing lost: every file reqlint creates is
//! created exclusively under an unpredictable name, never through a link the repository
//! planted; a link in the project is followed only to a file of the project; a fix that
//! could not be written fails the run; a cache the repository planted is never read; a
//! config names no file outside its directory.
// The attacks are links: Unix only.
#![cfg(unix)]

use std::path::Path;
use std::process::{Command, Output};

/// reqlint in `dir`, with its user cache in `cache_home`.
fn reqlint(dir: &Path, cache_home: &Path) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_reqlint"));
    cmd.current_dir(dir)
        .env("XDG_CACHE_HOME", cache_home)
        .env("LOCALAPPDATA", cache_home)
        .env_remove("GITHUB_ACTIONS")
        .env_remove("NO_COLOR");
    cmd
}

fn code(out: &Output) -> i32 {
    out.status.code().unwrap_or(-1)
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// A project with an empty config, and a directory outside it.
fn project() -> (tempfile::TempDir, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join(".reqlint.yaml"), "").unwrap();
    (dir, tempfile::tempdir().unwrap())
}

/// A request whose method `--fix` writes in capitals.
const FIXABLE: &str =
    "request: post /v24.0/act_1234567890/customaudiences\nparams:\n  name: x\n  subtype: CUSTOM\n";
const FIXED: &str =
    "request: POST /v24.0/act_1234567890/customaudiences\nparams:\n  name: x\n  subtype: CUSTOM\n";

/// Plants, in `dir`, a link to `target` under the name `name(pid)` for each of the next
/// `count` process ids: the names a file named after reqlint's process id would take.
fn plant_for_next_pids(dir: &Path, count: u32, name: impl Fn(u32) -> String, target: &Path) {
    let mut probe = Command::new("true").spawn().unwrap();
    let last = probe.id();
    probe.wait().unwrap();
    let max: u32 = std::fs::read_to_string("/proc/sys/kernel/pid_max")
        .ok()
        .and_then(|s| s.trim().parse().ok())
        .unwrap_or(99_999);
    for step in 1..=count {
        let pid = (last + step) % max;
        let _ = std::os::unix::fs::symlink(target, dir.join(name(pid)));
    }
}

fn is_link(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink())
}

/// `--fix` once wrote its temporary file through a link committed under the name it
/// would take (`.a.req.yaml.reqlint-fix-<pid>`), overwriting a file outside the
/// repository, and renamed the link over the request file.
#[test]
fn fix_never_writes_through_a_planted_temporary_file() {
    let (dir, outside) = project();
    let cache = tempfile::tempdir().unwrap();
    let victim = outside.path().join("victim");
    std::fs::write(&victim, "precious").unwrap();
    let file = dir.path().join("a.req.yaml");
    std::fs::write(&file, FIXABLE).unwrap();
    plant_for_next_pids(
        dir.path(),
        20_000,
        |pid| format!(".a.req.yaml.reqlint-fix-{pid}"),
        &victim,
    );
    let out = reqlint(dir.path(), cache.path())
        .args(["check", "--fix", "--format", "concise", "a.req.yaml"])
        .output()
        .unwrap();
    assert_eq!(code(&out), 0, "{}{}", stdout(&out), stderr(&out));
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");
    assert!(!is_link(&file));
    assert_eq!(std::fs::read_to_string(&file).unwrap(), FIXED);
}

/// A request file (or a directory on its way) that is a link leading out of the project
/// is not fixed, and the run says it failed whatever `--exit-zero` says; a link to a
/// file inside the project is fixed.
#[test]
fn fix_follows_no_link_out_of_the_project_and_fails_the_run() {
    use std::os::unix::fs::symlink;
    let (dir, outside) = project();
    let cache = tempfile::tempdir().unwrap();
    let victim = outside.path().join("victim.req.yaml");
    std::fs::write(&victim, FIXABLE).unwrap();
    symlink(&victim, dir.path().join("a.req.yaml")).unwrap();
    symlink(outside.path(), dir.path().join("sub")).unwrap();
    for args in [
        &["check", "--fix-only", "a.req.yaml"][..],
        &["check", "--fix", "--exit-zero", "a.req.yaml"],
        &["check", "--fix-only", "sub/victim.req.yaml"],
        &["check", "--fix", "--exit-zero", "sub/victim.req.yaml"],
    ] {
        let out = reqlint(dir.path(), cache.path())
            .args(args)
            .output()
            .unwrap();
        assert_eq!(code(&out), 2, "{args:?}: {}", stderr(&out));
        assert!(
            stderr(&out).contains("leads out of"),
            "{args:?}: {}",
            stderr(&out)
        );
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), FIXABLE);
    }
    // Inside the project: fixed through the link, which stays a link.
    std::fs::write(dir.path().join("real.yaml"), FIXABLE).unwrap();
    symlink("real.yaml", dir.path().join("b.req.yaml")).unwrap();
    let out = reqlint(dir.path(), cache.path())
        .args(["check", "--fix-only", "b.req.yaml"])
        .output()
        .unwrap();
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(is_link(&dir.path().join("b.req.yaml")));
    assert_eq!(
        std::fs::read_to_string(dir.path().join("real.yaml")).unwrap(),
        FIXED
    );
}

/// The cache once wrote its temporary file through a committed `.tmp-<pid>` link and
/// created its `.gitignore` and `CACHEDIR.TAG` through dangling links, every run.
#[test]
fn the_cache_never_writes_through_a_planted_link() {
    let (dir, outside) = project();
    let cache_home = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.req.yaml"), FIXED).unwrap();
    let victim = outside.path().join("victim");
    std::fs::write(&victim, "precious").unwrap();
    let run = |cache_dir: &Path| {
        let out = reqlint(dir.path(), cache_home.path())
            .args(["check", "--format", "concise", "--cache-dir"])
            .arg(cache_dir)
            .output()
            .unwrap();
        assert_eq!(code(&out), 0, "{}{}", stdout(&out), stderr(&out));
        assert!(stderr(&out).is_empty(), "{}", stderr(&out));
    };
    // Markers that are links to nothing: nothing is created where they point.
    let markers = cache_home.path().join("markers");
    std::fs::create_dir(&markers).unwrap();
    for name in [".gitignore", "CACHEDIR.TAG"] {
        std::os::unix::fs::symlink(outside.path().join(name), markers.join(name)).unwrap();
    }
    run(&markers);
    run(&markers);
    assert_eq!(std::fs::read_dir(outside.path()).unwrap().count(), 1);
    // Temporary files named after the process id, all links to the victim.
    let temps = cache_home.path().join("temps");
    std::fs::create_dir(&temps).unwrap();
    plant_for_next_pids(&temps, 20_000, |pid| format!(".tmp-{pid}"), &victim);
    run(&temps);
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");
    let written: Vec<_> = std::fs::read_dir(&temps)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "bin"))
        .collect();
    assert_eq!(written.len(), 1, "{written:?}");
    assert!(!is_link(&written[0]));
}

/// A cache entry crafted for a file (its path, length and SHA-256, no finding): read
/// from a cache of the user's own it is trusted (the trust model), but a cache the
/// repository holds, a cache directory that is a link or a file, or one that belongs to
/// another user is never read, and the finding is reported.
#[test]
fn a_planted_cache_never_turns_a_finding_into_a_pass() {
    use sha2::Digest;
    let (dir, outside) = project();
    let cache_home = tempfile::tempdir().unwrap();
    let clean = "request: GET /v24.0/act_1/campaigns\nparams: {}\n";
    let bad = "request: GET /v24.0/act_1/campaigns\nparms:  {}\n";
    assert_eq!(clean.len(), bad.len());
    let file = dir.path().join("a.req.yaml");
    let check = |extra: &[&std::ffi::OsStr]| {
        reqlint(dir.path(), cache_home.path())
            .args(["check", "--format", "concise", "."])
            .args(extra)
            .output()
            .unwrap()
    };
    // A genuine cache of the clean file, then its entry given the bad file's hash.
    let forged = outside.path().join("forged");
    std::fs::write(&file, clean).unwrap();
    assert_eq!(code(&check(&["--cache-dir".as_ref(), forged.as_ref()])), 0);
    std::fs::write(&file, bad).unwrap();
    let cache_file = std::fs::read_dir(&forged)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|e| e == "bin"))
        .unwrap();
    let mut bytes = std::fs::read(&cache_file).unwrap();
    let clean_hash = sha2::Sha256::digest(clean.as_bytes());
    let at = bytes
        .windows(32)
        .position(|w| w == clean_hash.as_slice())
        .expect("the clean file's SHA-256 in its entry");
    bytes[at..at + 32].copy_from_slice(&sha2::Sha256::digest(bad.as_bytes()));
    std::fs::write(&cache_file, &bytes).unwrap();
    // The forgery works where the cache is trusted: the user's own directory.
    let trusted = check(&["--cache-dir".as_ref(), forged.as_ref()]);
    assert_eq!(code(&trusted), 0, "the forged entry is not a valid one");

    // In the project, where the cache used to be: not read.
    let planted = dir.path().join(".reqlint_cache");
    std::fs::create_dir(&planted).unwrap();
    std::fs::copy(&cache_file, planted.join(cache_file.file_name().unwrap())).unwrap();
    let out = check(&[]);
    assert_eq!(code(&out), 1, "{}", stdout(&out));
    assert!(stdout(&out).contains("unknown-request-key"));
    // Through a link to the forged directory, or a file where the directory should be.
    let link = outside.path().join("link");
    std::os::unix::fs::symlink(&forged, &link).unwrap();
    let not_a_dir = outside.path().join("file");
    std::fs::write(&not_a_dir, "").unwrap();
    for cache_dir in [&link, &not_a_dir] {
        let out = check(&["--cache-dir".as_ref(), cache_dir.as_ref()]);
        assert_eq!(code(&out), 1, "{}", stdout(&out));
        assert!(
            stderr(&out).contains("the result cache is not used"),
            "{}",
            stderr(&out)
        );
    }
    // The cache file itself a link to the forged one.
    let linked_file = outside.path().join("linked-file");
    std::fs::create_dir(&linked_file).unwrap();
    std::os::unix::fs::symlink(
        &cache_file,
        linked_file.join(cache_file.file_name().unwrap()),
    )
    .unwrap();
    let out = check(&["--cache-dir".as_ref(), linked_file.as_ref()]);
    assert_eq!(code(&out), 1, "{}", stdout(&out));
    // Writable by every user: anyone could have planted it.
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&forged, std::fs::Permissions::from_mode(0o777)).unwrap();
    let out = check(&["--cache-dir".as_ref(), forged.as_ref()]);
    assert_eq!(code(&out), 1, "{}", stdout(&out));
    std::fs::set_permissions(&forged, std::fs::Permissions::from_mode(0o700)).unwrap();
    // Another user's (only root can give a directory away).
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } == 0 {
        std::os::unix::fs::chown(&forged, Some(65534), None).unwrap();
        let out = check(&["--cache-dir".as_ref(), forged.as_ref()]);
        assert_eq!(code(&out), 1, "{}", stdout(&out));
        assert!(stderr(&out).contains("another user"), "{}", stderr(&out));
    }
}

/// Environment files and context snapshots that a committed config names stay in its
/// directory: not `..`, not an absolute path or glob, not a link out of it. Its values
/// are not read, so not printed. A snapshot outside is read when named on the command
/// line.
#[test]
fn a_config_names_no_file_outside_its_directory() {
    use std::os::unix::fs::symlink;
    let (dir, outside) = project();
    let cache = tempfile::tempdir().unwrap();
    let secret = "OUTCOME_PRIVATE_VALUE";
    let environment = outside.path().join("home.postman_environment.json");
    std::fs::write(
        &environment,
        format!("{{\"name\": \"dev\", \"values\": [{{\"key\": \"objective\", \"value\": \"{secret}\", \"enabled\": true}}]}}\n"),
    )
    .unwrap();
    let snapshot = outside.path().join("state.yaml");
    std::fs::write(
        &snapshot,
        "custom_audiences:\n  - id: \"23850000000000001\"\n    subtype: ENGAGEMENT\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("a.http"),
        "POST https://graph.facebook.com/v25.0/act_1/campaigns?objective={{objective}}&special_ad_categories=[]&name=x&status=PAUSED\n",
    )
    .unwrap();
    symlink(
        &environment,
        dir.path().join("env.postman_environment.json"),
    )
    .unwrap();
    symlink(&snapshot, dir.path().join("snapshot.yaml")).unwrap();
    symlink(outside.path(), dir.path().join("state")).unwrap();
    let relative_out = format!(
        "../{}/home.postman_environment.json",
        outside.path().file_name().unwrap().to_string_lossy()
    );
    let configs = [
        format!("environments: [\"{relative_out}\"]\n"),
        format!("environments: [\"{}\"]\n", environment.display()),
        format!("environments: [\"{}#dev\"]\n", environment.display()),
        "environments: [env.postman_environment.json]\n".to_string(),
        format!("context: [\"{}\"]\n", snapshot.display()),
        format!("context: [\"{}/*.yaml\"]\n", outside.path().display()),
        "context: [snapshot.yaml]\n".to_string(),
        "context: [\"state/*.yaml\"]\n".to_string(),
    ];
    for config in &configs {
        std::fs::write(dir.path().join(".reqlint.yaml"), config).unwrap();
        let out = reqlint(dir.path(), cache.path())
            .args(["check", "--format", "concise", "."])
            .output()
            .unwrap();
        assert_eq!(code(&out), 2, "{config}: {}", stdout(&out));
        let said = format!("{}{}", stdout(&out), stderr(&out));
        assert!(
            said.contains("leaves the config's directory") || said.contains("leads out of"),
            "{config}: {said}"
        );
        assert!(!said.contains(secret), "{config}: {said}");
    }
    // Named on the command line, files outside are read: the environment's value is in
    // the finding about it.
    std::fs::write(dir.path().join(".reqlint.yaml"), "").unwrap();
    let out = reqlint(dir.path(), cache.path())
        .args(["check", "--format", "concise", "a.http", "--environment"])
        .arg(&environment)
        .output()
        .unwrap();
    assert_eq!(code(&out), 1, "{}{}", stdout(&out), stderr(&out));
    assert!(stdout(&out).contains(secret), "{}", stdout(&out));
    let out = reqlint(dir.path(), cache.path())
        .args(["check", "--format", "concise", "a.http", "--context"])
        .arg(&snapshot)
        .output()
        .unwrap();
    assert_ne!(code(&out), 2, "{}{}", stdout(&out), stderr(&out));
    assert!(stderr(&out).is_empty(), "{}", stderr(&out));
}

/// Files a user names to be written (`--output-file`, `--write-baseline`, `manpage
/// --dir`) go where the user says, but a link in the project that leads out of it is
/// not written through: the run fails and the file it points to is untouched.
#[test]
fn named_outputs_follow_no_link_out_of_the_project() {
    use std::os::unix::fs::symlink;
    let (dir, outside) = project();
    let cache = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("a.req.yaml"),
        "request: GET /v24.0/act_1/campaigns\nparms: {}\n",
    )
    .unwrap();
    let victim = outside.path().join("victim");
    std::fs::write(&victim, "precious").unwrap();
    symlink(&victim, dir.path().join("report.json")).unwrap();
    symlink(outside.path().join("new"), dir.path().join("dangling.json")).unwrap();
    symlink(outside.path(), dir.path().join("out")).unwrap();
    for args in [
        &["check", ".", "--output-file", "report.json"][..],
        &["check", ".", "--output-file", "dangling.json"],
        &["check", ".", "--output-file", "out/report.json"],
        &["check", ".", "--write-baseline", "report.json"],
        &[
            "check",
            ".",
            "--show-settings",
            "--output-file",
            "report.json",
        ],
    ] {
        let out = reqlint(dir.path(), cache.path())
            .args(args)
            .output()
            .unwrap();
        assert_eq!(code(&out), 2, "{args:?}: {}", stderr(&out));
        assert!(
            stderr(&out).contains("was not written"),
            "{args:?}: {}",
            stderr(&out)
        );
    }
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");
    assert_eq!(std::fs::read_dir(outside.path()).unwrap().count(), 1);
    // Outside the project, where the user says.
    let report = outside.path().join("report.json");
    let out = reqlint(dir.path(), cache.path())
        .args(["check", ".", "--format", "json", "--output-file"])
        .arg(&report)
        .output()
        .unwrap();
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    assert!(std::fs::read_to_string(&report).unwrap().contains("parms"));
    // Man pages: a page planted in the directory as a link out of it.
    let man = dir.path().join("man");
    std::fs::create_dir(&man).unwrap();
    symlink(&victim, man.join("reqlint.1")).unwrap();
    let out = reqlint(dir.path(), cache.path())
        .args(["manpage", "--dir", "man"])
        .output()
        .unwrap();
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");
    // A directory that is (or is under) a link out of the project.
    for man_dir in ["out/man", "out/a/b/man"] {
        let out = reqlint(dir.path(), cache.path())
            .args(["manpage", "--dir", man_dir])
            .output()
            .unwrap();
        assert_eq!(code(&out), 2, "{}", stderr(&out));
    }
    assert!(!outside.path().join("man").exists() && !outside.path().join("a").exists());
    std::fs::remove_file(man.join("reqlint.1")).unwrap();
    let out = reqlint(dir.path(), cache.path())
        .args(["manpage", "--dir", "man"])
        .output()
        .unwrap();
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(man.join("reqlint.1").is_file() && man.join("reqlint-check.1").is_file());
}
