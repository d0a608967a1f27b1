//! The Python package (`python/`): installed into a virtual environment under `target/`
//! with one `pip install ./python` (maturin builds the extension module from this
//! checkout), then its pytest suite (`python/tests`, the whole folder) is run against real
//! pyarrow, comparing the package's answers with the CLI binary's on the eval corpora.
//! Needs python3 with venv and pip, and pyarrow, pytest and maturin importable by it,
//! which `.ci/install` installs; without them this test fails, naming it.

use std::path::Path;
use std::process::Command;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn run(cmd: &mut Command, what: &str) {
    let o = cmd
        .output()
        .unwrap_or_else(|e| panic!("{what}: cannot start: {e}"));
    assert!(
        o.status.success(),
        "{what} failed ({}):\n{}\n{}",
        o.status,
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    // pytest's summary line, so that the test runner's output shows what ran.
    eprintln!("{}", String::from_utf8_lossy(&o.stdout).trim_end());
}

#[test]
fn python_package_passes_its_tests() {
    let tools = Command::new("python3")
        .args(["-c", "import venv, pip, pyarrow, pytest, maturin"])
        .output();
    assert!(
        tools.is_ok_and(|o| o.status.success()),
        "python3 with venv, pip, pyarrow, pytest and maturin is needed: run .ci/install"
    );
    let venv = root().join("target/python-venv");
    let python = venv.join("bin/python");
    if !python.exists() {
        run(
            Command::new("python3")
                .args(["-m", "venv", "--system-site-packages"])
                .arg(&venv),
            "python3 -m venv",
        );
    }
    // maturin's build hook runs the `maturin` program found on PATH: the one installed
    // beside python3's packages.
    let scripts = Command::new("python3")
        .args([
            "-c",
            "import sysconfig; print(sysconfig.get_path('scripts'))",
        ])
        .output()
        .expect("python3 runs");
    let scripts = String::from_utf8_lossy(&scripts.stdout).trim().to_string();
    let path = std::env::join_paths(std::iter::once(std::path::PathBuf::from(scripts)).chain(
        std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()),
    ))
    .expect("PATH joins");
    // The build backend (maturin) is the one .ci/install put beside pyarrow and pytest, so
    // the install needs no network. The extension is built in a target directory of its
    // own: `cargo test` holds the lock of target/ while the tests run, and a nested build
    // there would wait for it forever.
    run(
        Command::new(&python)
            .args([
                "-m",
                "pip",
                "install",
                "--quiet",
                "--disable-pip-version-check",
                "--no-build-isolation",
                "--force-reinstall",
                "--no-deps",
                "./python",
            ])
            .current_dir(root())
            .env("PATH", &path)
            .env("CARGO_TARGET_DIR", root().join("target/python-build")),
        "pip install ./python",
    );
    let eval = std::env::var_os("THRESHER_EVAL_DIR")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| root().join("../shared/eval"));
    run(
        Command::new(&python)
            .args([
                "-m",
                "pytest",
                "python/tests",
                "-q",
                "-p",
                "no:cacheprovider",
            ])
            .current_dir(root())
            .env("THRESHER_BIN", env!("CARGO_BIN_EXE_thresher"))
            .env("THRESHER_EVAL_DIR", eval),
        "pytest python/tests",
    );
}
