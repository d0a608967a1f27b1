// mimalloc: dedup allocates and frees many small vectors per document (tokens, shingles,
// signatures) across threads; measured against the system allocator in ARCHITECTURE.md.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    thresher::cli::main()
}
