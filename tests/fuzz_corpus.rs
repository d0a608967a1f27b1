//! Replays `fuzz/corpus/<target>/*` through the same functions the cargo-fuzz targets
//! call (`fuzz/fuzz_targets/common.rs`), so every crashing input found by fuzzing (named
//! `crash-*`) stays fixed, in `cargo test` on the stable toolchain.

#[path = "../fuzz/fuzz_targets/common.rs"]
mod common;

use std::path::PathBuf;

fn corpus(target: &str) -> Vec<(PathBuf, Vec<u8>)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("fuzz/corpus")
        .join(target);
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    assert!(!files.is_empty(), "{}: empty corpus", dir.display());
    files
        .into_iter()
        .map(|p| {
            let b = std::fs::read(&p).unwrap();
            (p, b)
        })
        .collect()
}

#[test]
fn corpus_inputs_run_through_every_target() {
    type Target = (&'static str, fn(&[u8]));
    let targets: [Target; 4] = [
        ("extract_page", common::extract_page_bytes),
        ("warc_file", common::warc_file_bytes),
        ("dedup_jsonl", common::dedup_jsonl_bytes),
        ("rules_yaml", common::rules_yaml_bytes),
    ];
    for (target, run) in targets {
        for (path, bytes) in corpus(target) {
            eprintln!("{target}: {}", path.display());
            run(&bytes);
            // Every input goes through every target: a crash of one reader is often an
            // input for another (a WARC header inside a page, YAML inside JSONL).
            for (_, other) in targets {
                other(&bytes);
            }
        }
    }
}

/// A WARC header value that is not UTF-8 (it made the warc crate's `header()` panic,
/// found by fuzzing): the record comes out as a page, its URL read lossily.
#[test]
fn warc_header_not_utf8_is_a_page() {
    use thresher::source::warc::WarcPages;
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fuzz/corpus/warc_file");
    let mut pages = WarcPages::open(&dir.join("crash-target-uri-not-utf8"), 1 << 20).unwrap();
    match pages.next() {
        Some(thresher::source::PageJob::Loaded(page)) => {
            assert!(page.url.starts_with("http://example.com/"), "{}", page.url);
            assert!(String::from_utf8_lossy(&page.body).contains("hello"));
        }
        other => panic!("{other:?}"),
    }
}
