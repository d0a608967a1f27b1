//! Where `thresher dedup`'s reading time goes (issue 15 item 6), by timing spans on one
//! thread: each stage is run alone over the whole file, its thread CPU time measured
//! (best of 3), so a busy machine does not distort the figures.
//!
//! `cargo run --release --example read_profile -- ../shared/eval/dedup-dev/docs.jsonl.gz`

use std::io::{BufRead, Read};
use std::time::Instant;

use thresher::dedup::{DedupConfig, Signer};

fn main() {
    let path = std::env::args()
        .nth(1)
        .expect("usage: read_profile DOCS.jsonl[.gz]");
    let open = || -> Box<dyn BufRead> {
        let f = std::fs::File::open(&path).expect("open");
        if path.ends_with(".gz") {
            Box::new(std::io::BufReader::with_capacity(
                1 << 16,
                flate2::read::MultiGzDecoder::new(f),
            ))
        } else {
            Box::new(std::io::BufReader::with_capacity(1 << 16, f))
        }
    };
    let mut raw = Vec::new();
    open().read_to_end(&mut raw).expect("read");
    let lines: Vec<&[u8]> = raw
        .split(|&b| b == b'\n')
        .filter(|l| !l.is_empty())
        .collect();
    let mut config = DedupConfig::default();
    config.normalize = "words".parse().expect("preset");
    config.threshold = 0.8;
    let signer = Signer::new(&config);
    let texts: Vec<String> = lines
        .iter()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_slice(l).expect("json");
            v["text"].as_str().unwrap_or_default().to_string()
        })
        .collect();

    #[derive(serde::Deserialize)]
    #[allow(dead_code)]
    struct Owned {
        id: Option<serde_json::Value>,
        text: Option<String>,
    }
    #[derive(serde::Deserialize)]
    #[allow(dead_code)]
    struct Borrowed<'a> {
        id: Option<serde::de::IgnoredAny>,
        #[serde(borrow)]
        text: Option<std::borrow::Cow<'a, str>>,
    }
    let stages: Vec<(&str, Box<dyn Fn() -> usize>)> = vec![
        (
            "decompress (read_to_end)",
            Box::new(|| {
                let mut v = Vec::new();
                open().read_to_end(&mut v).expect("read")
            }),
        ),
        (
            "decompress + read_until lines",
            Box::new(|| {
                let mut r = open();
                let mut n = 0;
                loop {
                    let mut line = Vec::new();
                    let k = r.read_until(b'\n', &mut line).expect("read");
                    if k == 0 {
                        break n;
                    }
                    n += k;
                }
            }),
        ),
        (
            "serde_json parse, owned String text",
            Box::new(|| {
                lines
                    .iter()
                    .map(|l| {
                        let r: Owned = serde_json::from_slice(l).expect("json");
                        r.text.map_or(0, |t| t.len())
                    })
                    .sum()
            }),
        ),
        (
            "serde_json parse, Cow text",
            Box::new(|| {
                lines
                    .iter()
                    .map(|l| {
                        let r: Borrowed = serde_json::from_slice(l).expect("json");
                        r.text.map_or(0, |t| t.len())
                    })
                    .sum()
            }),
        ),
        (
            "sign (normalize, shingle, sketch, bands)",
            Box::new(|| {
                texts
                    .iter()
                    .filter_map(|t| signer.sign(t))
                    .map(|s| s.band_keys.len())
                    .sum()
            }),
        ),
    ];
    println!(
        "{} lines, {:.1} MB uncompressed; thread CPU seconds, best of 3",
        lines.len(),
        raw.len() as f64 / 1e6
    );
    for (name, f) in &stages {
        let mut best = f64::MAX;
        let mut best_wall = f64::MAX;
        for _ in 0..3 {
            let t = Instant::now();
            let c = cpu();
            std::hint::black_box(f());
            best = best.min(cpu() - c);
            best_wall = best_wall.min(t.elapsed().as_secs_f64());
        }
        println!(
            "{name:<44} CPU {best:.3} s ({:.0} MB/s), wall {best_wall:.3} s",
            raw.len() as f64 / 1e6 / best
        );
    }
}

/// This thread's user + system CPU time (Linux).
fn cpu() -> f64 {
    let stat = std::fs::read_to_string("/proc/thread-self/stat").unwrap_or_default();
    let rest = stat.rsplit_once(')').map_or("", |r| r.1);
    let f: Vec<f64> = rest
        .split_whitespace()
        .map(|x| x.parse().unwrap_or(0.0))
        .collect();
    // utime and stime are fields 14 and 15 of the whole line, 12 and 13 after the name.
    (f.get(11).copied().unwrap_or(0.0) + f.get(12).copied().unwrap_or(0.0)) / 100.0
}
