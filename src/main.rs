// Parsing allocates a string for every key and value: mimalloc makes that cheaper than
// the system allocator (measured in BENCHMARKS.md).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    reqlint::cli::main()
}
