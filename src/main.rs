fn main() -> std::process::ExitCode {
    thresher::cli::main()
}
