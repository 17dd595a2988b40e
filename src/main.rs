// Parsing allocates a string for every key and value: mimalloc makes that cheaper than
// the system allocator (measured in BENCHMARKS.md).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

// Positions in mimalloc.h's `mi_option_e` (v2), which libmimalloc-sys does not name.
const MI_OPTION_ARENA_EAGER_COMMIT: libmimalloc_sys::mi_option_t = 4;
const MI_OPTION_PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;

fn main() -> std::process::ExitCode {
    // Give freed memory back at once and commit arena memory as it is used: files are
    // parsed and dropped, and peak memory is one of the targets.
    // SAFETY: setting an allocator option takes no pointer; mimalloc reads it as it goes.
    unsafe {
        libmimalloc_sys::mi_option_set(MI_OPTION_ARENA_EAGER_COMMIT, 0);
        libmimalloc_sys::mi_option_set(MI_OPTION_PURGE_DELAY, 0);
    }
    reqlint::cli::main()
}
