//! Signing throughput on one core, shingling included (issue 6's "signing docs/s").
//! Texts are read and decompressed first, so only normalize → shingle → sketch → keys
//! is timed.
//!
//! `cargo run --release --example sign_bench -- ../shared/eval/dedup-dev/docs.jsonl.gz [preset] [threshold]`

use std::io::BufRead;
use std::time::Instant;

use thresher::dedup::{DedupConfig, Signer};

fn main() {
    let mut args = std::env::args().skip(1);
    let path = args.next().expect("usage: sign_bench DOCS.jsonl[.gz] [preset] [threshold]");
    let mut config = DedupConfig::default();
    if let Some(p) = args.next() {
        config.normalize = p.parse().expect("preset");
    }
    if let Some(t) = args.next() {
        config.threshold = t.parse().expect("threshold");
    }
    let f = std::fs::File::open(&path).expect("open");
    let reader: Box<dyn BufRead> = if path.ends_with(".gz") {
        Box::new(std::io::BufReader::new(flate2::read::MultiGzDecoder::new(f)))
    } else {
        Box::new(std::io::BufReader::new(f))
    };
    let texts: Vec<String> = reader
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(&l.expect("line")).expect("json");
            v["text"].as_str().unwrap_or_default().to_string()
        })
        .collect();
    let bytes: usize = texts.iter().map(|t| t.len()).sum();
    let signer = Signer::new(&config);
    let mut best = f64::MAX;
    let mut shingles = 0usize;
    for _ in 0..3 {
        let start = Instant::now();
        shingles = 0;
        for t in &texts {
            if let Some(s) = signer.sign(t) {
                shingles += s.shingles.len();
            }
        }
        best = best.min(start.elapsed().as_secs_f64());
    }
    println!(
        "{} docs, {:.1} MB, {} shingles: best of 3 {:.3} s = {:.0} docs/s, {:.0} MB/s (one core)",
        texts.len(),
        bytes as f64 / 1e6,
        shingles,
        best,
        texts.len() as f64 / best,
        bytes as f64 / 1e6 / best
    );
}
