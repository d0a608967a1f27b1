//! Synthetic documents for the scale run (issue 6): `N` documents of 80 words drawn
//! from a 50,000-word vocabulary; every 10th document is a near-duplicate of an earlier
//! one (one word changed); 10,000 exact copies of one document.
//!
//! `cargo run --release --example synth -- 1000000 > out/synth1m.jsonl`

use std::io::Write;

fn main() {
    let n: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(1_000_000);
    let mut state = 0x2545f4914f6cdd1du64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let word = |i: u64| format!("w{}", thresher::dedup::minhash::mix64(i) % 1_000_000);
    let vocab: Vec<String> = (0..50_000).map(word).collect();
    let out = std::io::stdout();
    let mut out = std::io::BufWriter::new(out.lock());
    let mut recent: Vec<Vec<usize>> = Vec::new();
    let copies = 10_000.min(n / 10);
    for id in 0..n {
        let words: Vec<usize> = if id < copies {
            // The big cluster: all copies of one text.
            let mut s = 42u64;
            (0..80)
                .map(|_| {
                    s = thresher::dedup::minhash::mix64(s);
                    (s % 50_000) as usize
                })
                .collect()
        } else if id % 10 == 0 && !recent.is_empty() {
            let mut w = recent[(next() % recent.len() as u64) as usize].clone();
            let at = (next() % 80) as usize;
            w[at] = (next() % 50_000) as usize;
            w
        } else {
            (0..80).map(|_| (next() % 50_000) as usize).collect()
        };
        if recent.len() < 1000 {
            recent.push(words.clone());
        } else {
            let slot = (next() % 1000) as usize;
            recent[slot] = words.clone();
        }
        let text: Vec<&str> = words.iter().map(|&w| vocab[w].as_str()).collect();
        writeln!(out, "{{\"id\":{id},\"text\":\"{}\"}}", text.join(" ")).expect("write");
    }
}
