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
    let path = args
        .next()
        .expect("usage: sign_bench DOCS.jsonl[.gz] [preset] [threshold]");
    let mut config = DedupConfig::default();
    if let Some(p) = args.next() {
        config.normalize = p.parse().expect("preset");
    }
    if let Some(t) = args.next() {
        config.threshold = t.parse().expect("threshold");
    }
    let f = std::fs::File::open(&path).expect("open");
    let reader: Box<dyn BufRead> = if path.ends_with(".gz") {
        Box::new(std::io::BufReader::new(flate2::read::MultiGzDecoder::new(
            f,
        )))
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
    let mut best_cpu = f64::MAX;
    for _ in 0..5 {
        let start = Instant::now();
        let cpu0 = thread_cpu_seconds();
        shingles = 0;
        for t in &texts {
            if let Some(s) = signer.sign(t) {
                shingles += s.shingles.len();
            }
        }
        best = best.min(start.elapsed().as_secs_f64());
        best_cpu = best_cpu.min(thread_cpu_seconds() - cpu0);
    }
    println!(
        "{} docs, {:.1} MB, {} shingles: best of 5 {:.3} s wall = {:.0} docs/s, {:.0} MB/s; \
         CPU {:.2} s = {:.0} docs/s (one core)",
        texts.len(),
        bytes as f64 / 1e6,
        shingles,
        best,
        texts.len() as f64 / best,
        bytes as f64 / 1e6 / best,
        best_cpu,
        texts.len() as f64 / best_cpu
    );
}

/// This thread's user + system CPU time (Linux; 0 elsewhere), so that a busy machine
/// does not distort the figure.
fn thread_cpu_seconds() -> f64 {
    let Ok(stat) = std::fs::read_to_string("/proc/thread-self/stat") else {
        return 0.0;
    };
    // Fields after the command name (which is in parentheses).
    let rest = stat.rsplit_once(')').map_or("", |r| r.1);
    let f: Vec<f64> = rest
        .split_whitespace()
        .map(|x| x.parse().unwrap_or(0.0))
        .collect();
    // utime and stime are fields 14 and 15 of the whole line: 12 and 13 after `)`.
    (f.get(11).copied().unwrap_or(0.0) + f.get(12).copied().unwrap_or(0.0)) / 100.0
}
