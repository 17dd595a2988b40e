//! Standard input, output and error: every line reqlint says about a run, a command's
//! output, and standard input read within the file-size limit.

use std::io::{Read, Write};
use std::process::ExitCode;

use crate::redact;

/// Writes a line `reqlint: error: MESSAGE` on standard error: every error of the run
/// goes through here, so every one is a single line with its secrets masked, control
/// characters escaped and no CI workflow command in it ([`redact::log_line`]).
pub fn print_error(message: &str) {
    print_line("error", message);
}

/// `reqlint: warning: MESSAGE` on standard error, cleaned as [`print_error`] cleans.
pub fn print_warning(message: &str) {
    print_line("warning", message);
}

/// What the run did, when it did what it was asked (`reqlint: wrote …`), on standard
/// error.
pub(super) fn print_note(message: &str) {
    print_stderr(&format!("reqlint: {}\n", redact::log_line(message)));
}

pub(super) fn print_line(kind: &str, message: &str) {
    print_stderr(&format!("reqlint: {kind}: {}\n", redact::log_line(message)));
}

fn print_stderr(line: &str) {
    // A standard error that cannot be written to (full, closed) must not turn an error
    // into a panic: the exit code still tells.
    let _ = std::io::stderr().lock().write_all(line.as_bytes());
}

/// Writes a command's output; a closed pipe ends quietly (exit 0, as `head` expects),
/// any other failure (a full disk) is an error of the run.
pub(super) fn write_stdout(bytes: &[u8]) -> Result<ExitCode, String> {
    let mut out = std::io::stdout().lock();
    match out.write_all(bytes).and_then(|()| out.flush()) {
        Ok(()) => Ok(ExitCode::SUCCESS),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(ExitCode::SUCCESS),
        Err(e) => Err(format!("cannot write the output: {e}")),
    }
}

/// Standard input, of which no more than one byte past the file-size limit `max` is
/// held, whatever is piped in (more than `max` bytes: the input is too big).
pub(super) fn read_stdin(max: u64) -> Result<Vec<u8>, String> {
    let mut bytes = Vec::new();
    std::io::stdin()
        .take(max + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read standard input: {e}"))?;
    Ok(bytes)
}

/// Writes `held` (the start of standard input) and then the rest of standard input to
/// standard output, holding no more than a buffer of it at a time.
pub(super) fn pass_stdin_through(held: &[u8]) -> Result<(), String> {
    let mut out = std::io::stdout().lock();
    let copied = out
        .write_all(held)
        .and_then(|()| std::io::copy(&mut std::io::stdin().lock(), &mut out))
        .and_then(|_| out.flush());
    match copied {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err(format!("cannot pass standard input through: {e}")),
    }
}
