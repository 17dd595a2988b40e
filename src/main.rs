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

fn main() -> std::process::ExitCode {
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
