//! A hang detector for the tests that start reqlint on hostile or large input.
//!
//! It is not a speed check: a build of reqlint in debug mode on a loaded 2-core machine
//! may be ten times slower than on a quiet one, and such a test must still pass. What
//! the tests bound is work (sizes, counts, n against 10n); this only turns a run that
//! never ends into a failure that says so, instead of a test binary that hangs until
//! CI's own time limit. How fast reqlint is lives in `bench/` and BENCHMARKS.md.

use std::io::Read;
use std::process::{Child, Command, Output, Stdio};
use std::thread;
use std::time::{Duration, Instant};

/// Far beyond any run the tests start on any machine that builds reqlint: only a hang
/// (or work that grew with the square of the input) gets here.
pub const HANG: Duration = Duration::from_secs(600);

/// Runs `command` to the end as [`Command::output`] does (standard input closed), and
/// fails the test, naming `what`, if it has not ended after [`HANG`].
pub fn output(command: &mut Command, what: &str) -> Output {
    let (mut child, stdout, stderr) = start(command, what);
    let status = wait(&mut child, what);
    Output {
        status,
        stdout: stdout.join().expect("stdout reader"),
        stderr: stderr.join().expect("stderr reader"),
    }
}

/// `command` started with standard input closed, and a reader of each of its outputs.
fn start(
    command: &mut Command,
    what: &str,
) -> (
    Child,
    thread::JoinHandle<Vec<u8>>,
    thread::JoinHandle<Vec<u8>>,
) {
    let mut child = command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("{what}: cannot start: {e}"));
    let stdout = drain(child.stdout.take());
    let stderr = drain(child.stderr.take());
    (child, stdout, stderr)
}

fn drain(pipe: Option<impl Read + Send + 'static>) -> thread::JoinHandle<Vec<u8>> {
    thread::spawn(move || {
        let mut bytes = Vec::new();
        if let Some(mut pipe) = pipe {
            let _ = pipe.read_to_end(&mut bytes);
        }
        bytes
    })
}

fn wait(child: &mut Child, what: &str) -> std::process::ExitStatus {
    let started = Instant::now();
    loop {
        if let Some(status) = child.try_wait().expect("wait for reqlint") {
            return status;
        }
        if started.elapsed() > HANG {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{what}: still running after {HANG:?}: a hang (this is not a speed check)");
        }
        thread::sleep(Duration::from_millis(20));
    }
}

/// [`output`], with the child's own peak resident memory in KiB: `wait4` reports the
/// child it reaps, where `getrusage(RUSAGE_CHILDREN)` would report the largest of every
/// child the test binary has reaped, which other tests start too.
#[cfg(target_os = "linux")]
pub fn output_with_peak(command: &mut Command, what: &str) -> (Output, i64) {
    use std::os::unix::process::ExitStatusExt;
    let (mut child, stdout, stderr) = start(command, what);
    let pid = child.id() as libc::pid_t;
    let started = Instant::now();
    // The child's own high-water mark, read while it runs: `ru_maxrss` of a child that
    // Rust starts with vfork/posix_spawn also counts the test binary's peak, which the
    // other tests running in it raise (671 MB seen for a 32 MB run).
    let mut polled: Option<i64> = None;
    let (status, usage) = loop {
        if let Some(kib) = vm_hwm_kib(pid) {
            polled = Some(polled.map_or(kib, |p| p.max(kib)));
        }
        let mut status = 0;
        // SAFETY: wait4 fills the status and the usage it is given, for this child only.
        let (reaped, usage) = unsafe {
            let mut usage: libc::rusage = std::mem::zeroed();
            let reaped = libc::wait4(pid, &mut status, libc::WNOHANG, &mut usage);
            (reaped, usage)
        };
        assert!(reaped >= 0, "{what}: wait4 failed");
        if reaped == pid {
            break (status, usage);
        }
        if started.elapsed() > HANG {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{what}: still running after {HANG:?}: a hang (this is not a speed check)");
        }
        thread::sleep(Duration::from_millis(5));
    };
    let output = Output {
        status: std::process::ExitStatus::from_raw(status),
        stdout: stdout.join().expect("stdout reader"),
        stderr: stderr.join().expect("stderr reader"),
    };
    (output, polled.unwrap_or(usage.ru_maxrss))
}

/// `VmHWM` of a running process, in KiB.
#[cfg(target_os = "linux")]
fn vm_hwm_kib(pid: libc::pid_t) -> Option<i64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}
