fn main() -> std::process::ExitCode {
    reqlint::cli::main()
}
