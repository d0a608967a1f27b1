//! What each fuzz target does with its input, shared by the targets and by the replay of
//! `fuzz/corpus/` in `cargo test` (`tests/fuzz_corpus.rs`), so a crash found here stays
//! fixed. Each function must return (a result or per-record errors), never panic or hang.

#![allow(dead_code)]

use std::path::{Path, PathBuf};

use thresher::config::Config;
use thresher::dedup::{DedupConfig, Signer};
use thresher::extract::heuristic::{Heuristic, HeuristicConfig};
use thresher::extract::rules::{RuleSet, Rules};
use thresher::extract::{dom, Cascade, PageContext};
use thresher::page::Page;
use thresher::pipeline::{extract_page, read_and_sign};
use thresher::source::{sniff, warc::WarcPages, Manifest, ReadLimits};

/// A file in the temporary directory, unique to this process and target.
fn scratch(name: &str, bytes: &[u8]) -> PathBuf {
    let path = std::env::temp_dir().join(format!("thresher-fuzz-{}-{name}", std::process::id()));
    std::fs::write(&path, bytes).expect("temporary file");
    path
}

/// Bytes as a page body: decoded, parsed, extracted (and sniffed).
pub fn extract_page_bytes(data: &[u8]) {
    let _ = sniff::sniff_bytes(data);
    let page = Page {
        path: "fuzz".into(),
        url: "http://example.com/a/b.html".into(),
        fetched_at: None,
        popularity: 0.0,
        content_type: None,
        body: data.to_vec(),
        cut: false,
        warc_file: None,
    };
    let _ = extract_page(
        &page,
        &Cascade::local(HeuristicConfig::default()),
        &Config::default(),
    );
}

/// Bytes as a WARC file (plain or gzip): every record a page or a per-record error.
pub fn warc_file_bytes(data: &[u8]) {
    let path = scratch("warc", data);
    if let Ok(pages) = WarcPages::open(&path, 1 << 20) {
        let cascade = Cascade::local(HeuristicConfig::default());
        for job in pages {
            if let Ok(page) = job.load(ReadLimits {
                max_page_bytes: 1 << 20,
            }) {
                let _ = extract_page(&page, &cascade, &Config::default());
            }
        }
    }
    let _ = std::fs::remove_file(path);
}

/// Bytes as a dedup JSONL input and as a manifest.
pub fn dedup_jsonl_bytes(data: &[u8]) {
    let path = scratch("docs.jsonl", data);
    let signer = Signer::new(&DedupConfig::default());
    let (docs, _) = read_and_sign(std::slice::from_ref(&path), &signer, &mut |_| Ok(()))
        .expect("only --max-errors stops a read");
    let (clusters, _) = thresher::dedup::find_clusters(&docs, &DedupConfig::default());
    let _ = clusters;
    let _ = Manifest::load(&path).expect("a readable manifest loads");
    let _ = std::fs::remove_file(path);
}

const RULE_PAGE: &str = "<html><head><title>T</title></head><body><nav><a href=/>Home</a></nav><article class=content><h1>Head line</h1><p class=post>The article text.</p></article><footer>Copyright</footer></body></html>";

/// Bytes as a rule file (UTF-8, lossy): loaded, then applied to a page of its host.
pub fn rules_yaml_bytes(data: &[u8]) {
    let text = String::from_utf8_lossy(data).into_owned();
    let set = RuleSet::from_sources(vec![(Path::new("example.com.yaml").to_owned(), text)]);
    let cascade = Cascade::new(vec![
        Box::new(Rules::new(set)),
        Box::new(Heuristic::new(HeuristicConfig::default())),
    ]);
    let parsed = dom::parse_page(RULE_PAGE);
    for url in ["http://example.com/", "http://www.example.com/news/a.html"] {
        let _ = cascade.answer(
            &parsed,
            &PageContext {
                url,
                group: "example.com/",
            },
        );
    }
}
