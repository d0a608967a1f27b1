//! Checks records written with `--output-format markdown` or `html`: the words of the
//! `markdown` (or `html`) field with its markup removed must be the words of `text`, in
//! order (no word added or lost). Usage: `markup_words FILE.jsonl...`; prints one line
//! per file (records, equal, different) and the first differences; exits 1 when any
//! record differs.

use std::io::BufRead;

#[path = "../tests/support/markup_words.rs"]
mod markup_words;

use markup_words::{html_plain, markdown_plain, words};

fn main() {
    let mut failed = false;
    for path in std::env::args().skip(1) {
        let file = std::fs::File::open(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        let (mut records, mut equal, mut shown) = (0usize, 0usize, 0usize);
        let mut different = Vec::new();
        for (n, line) in std::io::BufReader::new(file).lines().enumerate() {
            let line = line.unwrap_or_else(|e| panic!("{path}:{}: {e}", n + 1));
            let record: serde_json::Value =
                serde_json::from_str(&line).unwrap_or_else(|e| panic!("{path}:{}: {e}", n + 1));
            let Some(text) = record["text"].as_str() else {
                continue;
            };
            let plain = match (record["markdown"].as_str(), record["html"].as_str()) {
                (Some(md), _) => markdown_plain(md),
                (None, Some(html)) => html_plain(html),
                (None, None) => {
                    eprintln!("{path}:{}: no markdown or html field", n + 1);
                    failed = true;
                    continue;
                }
            };
            records += 1;
            let (want, got) = (words(text), words(&plain));
            if want == got {
                equal += 1;
                continue;
            }
            different.push(record["path"].as_str().unwrap_or("?").to_string());
            if shown < 3 {
                shown += 1;
                let at = want.iter().zip(&got).take_while(|(a, b)| a == b).count();
                eprintln!(
                    "{}: {} words in text, {} in the markup; first difference at word {at}: text {:?}, markup {:?}",
                    record["path"],
                    want.len(),
                    got.len(),
                    &want[at..(at + 8).min(want.len())],
                    &got[at..(at + 8).min(got.len())],
                );
            }
        }
        println!(
            "{path}: {records} records, {equal} with the same words, {} different",
            different.len()
        );
        failed |= !different.is_empty();
    }
    std::process::exit(i32::from(failed));
}
