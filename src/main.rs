// On Linux with glibc, reqlint starts from C's `main` (below), not from std's runtime.
// (Not in its unit-test build, whose `main` is the test harness's.)
#![cfg_attr(all(target_os = "linux", target_env = "gnu", not(test)), no_main)]

// Parsing allocates a string for every key and value: mimalloc makes that cheaper than
// the system allocator (measured in BENCHMARKS.md).
#[global_allocator]
static GLOBAL: reqlint::allocator::Mimalloc = reqlint::allocator::Mimalloc;

// Positions in mimalloc.h's `mi_option_e` (the same in v2 and v3), which libmimalloc-sys
// does not name.
const MI_OPTION_VERBOSE: libmimalloc_sys::mi_option_t = 2;
const MI_OPTION_PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;
const MI_OPTION_ARENA_RESERVE: libmimalloc_sys::mi_option_t = 23;

/// The address space mimalloc reserves at a time, in KiB. Its default (1 GiB) costs about
/// forty page faults at every start, touching the page map and bitmaps that cover it;
/// 100,000 files peak under 40 MB, so one 64 MiB arena holds a whole run. The arena is
/// committed whole, as mimalloc does on Linux: committing it piece by piece costs a
/// system call per 64 KiB and gives nothing back, since untouched pages take no memory.
const ARENA_RESERVE_KIB: std::ffi::c_long = 64 * 1024;

/// Sets mimalloc's options before its own constructor reserves the first arena: set in
/// `main`, they would come after that reservation and shape only the arenas after it.
extern "C" fn set_allocator_options() {
    // SAFETY: setting an allocator option takes no pointer and allocates nothing;
    // mimalloc keeps a value set before it starts and reads no environment for it.
    unsafe {
        // Give freed memory back at once: files are parsed and dropped, and peak memory
        // is one of the targets.
        libmimalloc_sys::mi_option_set(MI_OPTION_PURGE_DELAY, 0);
        libmimalloc_sys::mi_option_set(MI_OPTION_ARENA_RESERVE, ARENA_RESERVE_KIB);
    }
    // mimalloc is built to read no `MIMALLOC_*` variable (.cargo/config.toml): this one,
    // which prints its options and arenas as it starts, is passed on for whoever
    // profiles it (and for the test that checks the options above).
    // SAFETY: a constructor runs before any thread that could change the environment;
    // the name is a NUL-terminated literal.
    unsafe {
        if !libc::getenv(c"MIMALLOC_VERBOSE".as_ptr()).is_null() {
            libmimalloc_sys::mi_option_set(MI_OPTION_VERBOSE, 1);
        }
    }
}

// Constructors with a priority run before those without one, and mimalloc's (built by
// cc with gcc) has none: this one runs first, in the static and the dynamic builds alike.
#[used]
#[unsafe(link_section = ".init_array.00100")]
static SET_ALLOCATOR_OPTIONS: extern "C" fn() = set_allocator_options;

fn run() -> std::process::ExitCode {
    // Without transparent huge pages: memory given back at once comes back as 2 MiB pages
    // that the kernel zeroes whole, which cost 15 % of a run's time (BENCHMARKS.md). This
    // keeps the kernel from giving them where the system enables them for every process;
    // mimalloc's `no_thp` feature (Cargo.toml) keeps mimalloc itself from asking for them
    // and planning around them: without it, 100,000 files peak 3.5 MB higher (measured).
    // SAFETY: PR_SET_THP_DISABLE takes integers only and changes this process alone.
    #[cfg(target_os = "linux")]
    unsafe {
        libc::prctl(libc::PR_SET_THP_DISABLE, 1, 0, 0, 0);
    }
    reqlint::cli::main()
}

#[cfg(not(all(target_os = "linux", target_env = "gnu", not(test))))]
fn main() -> std::process::ExitCode {
    run()
}

/// The process's entry on Linux with glibc, in place of std's runtime, which first asks
/// glibc where the main thread's stack is (for its stack overflow message): for the main
/// thread glibc reads and parses `/proc/self/maps`, about a fifth of the instructions of
/// `reqlint --version` and 0.1 ms of every start (BENCHMARKS.md). What else std's start
/// does that reqlint relies on is done here: standard input, output and error opened on
/// `/dev/null` when the parent closed them (so that no file reqlint opens takes their
/// place), `SIGPIPE` ignored (a closed pipe is an error that the reports handle), a panic
/// that reaches here ends the process with 101, and standard output flushed at exit.
/// (std's arguments and environment come from glibc as before.) A stack overflow, which
/// the readers' depth limits prevent, would end the process by `SIGSEGV` without std's
/// message.
#[cfg(all(target_os = "linux", target_env = "gnu", not(test)))]
#[unsafe(no_mangle)]
extern "C" fn main(_argc: libc::c_int, _argv: *const *const libc::c_char) -> libc::c_int {
    open_closed_standard_streams();
    // SAFETY: setting a signal's disposition to "ignore" takes no pointer to our memory.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_IGN);
    }
    let code = std::panic::catch_unwind(run).unwrap_or(std::process::ExitCode::from(101));
    // `exit` runs std's clean-up, which flushes standard output.
    std::process::exit(exit_status(code))
}

/// The status of an `ExitCode` (std gives no way to read it but to compare).
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn exit_status(code: std::process::ExitCode) -> i32 {
    (0..=u8::MAX)
        .find(|&status| std::process::ExitCode::from(status) == code)
        .map_or(1, i32::from)
}

/// Opens `/dev/null` on each of the descriptors 0, 1 and 2 that is closed, as std's
/// runtime does, and ends the process as it does when that cannot be done.
#[cfg(all(target_os = "linux", target_env = "gnu", not(test)))]
fn open_closed_standard_streams() {
    let mut streams = [0, 1, 2].map(|fd| libc::pollfd {
        fd,
        events: 0,
        revents: 0,
    });
    // SAFETY: `poll` reads and writes the three entries of `streams`, which it is given
    // with their number; `open` takes a NUL-terminated literal.
    unsafe {
        while libc::poll(streams.as_mut_ptr(), 3, 0) == -1 {
            if std::io::Error::last_os_error().kind() != std::io::ErrorKind::Interrupted {
                libc::abort();
            }
        }
        for stream in streams {
            if stream.revents & libc::POLLNVAL != 0
                && libc::open(c"/dev/null".as_ptr(), libc::O_RDWR, 0) == -1
            {
                libc::abort();
            }
        }
    }
}

#[cfg(all(test, target_os = "linux", target_env = "gnu"))]
mod tests {
    /// Every status a run can end with comes back from its `ExitCode`.
    #[test]
    fn exit_statuses_come_back() {
        for status in 0..=u8::MAX {
            assert_eq!(
                super::exit_status(std::process::ExitCode::from(status)),
                i32::from(status)
            );
        }
        assert_eq!(super::exit_status(std::process::ExitCode::SUCCESS), 0);
        assert_eq!(super::exit_status(std::process::ExitCode::FAILURE), 1);
    }
}
