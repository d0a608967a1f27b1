//! Extraction speed against the parsing floor, in one run:
//!
//! ```sh
//! cargo bench --bench extract -- [DIR_OR_FILES...] [--rounds N]
//! ```
//!
//! Default input: `../shared/eval/scrapinghub/html` (`*.html`, `*.html.gz`). Pages are
//! read, gunzipped and decoded to text before timing. Then, single-threaded:
//!
//! * **parse-only**: html5ever `parse_document` into a markup5ever_rcdom `RcDom` (and
//!   dropping it), nothing else;
//! * **extract**: what the local extractor does per page: nesting limit, the same parse,
//!   the walk into the flat page model, the heuristic and the title.
//!
//! Each is timed over all pages `--rounds` times (default 5) and the fastest round is
//! reported in ms/page, with the ratio. Finally extraction runs on a 2-thread rayon pool
//! and the speed-up over one thread is printed. Both run under mimalloc, the allocator
//! of the `thresher` binary.

// The allocator of the `thresher` binary (src/main.rs), so that both sides are timed as
// the shipped program runs them.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::path::{Path, PathBuf};
use std::time::Instant;

use html5ever::tendril::TendrilSink;
use markup5ever_rcdom::RcDom;
use rayon::prelude::*;
use thresher::extract::{dom, heuristic, title};

fn collect(path: &Path, out: &mut Vec<PathBuf>) {
    if path.is_dir() {
        let mut entries: Vec<_> = std::fs::read_dir(path)
            .expect("readable directory")
            .filter_map(|e| e.ok().map(|e| e.path()))
            .collect();
        entries.sort();
        for e in entries {
            collect(&e, out);
        }
    } else {
        let name = path.to_string_lossy();
        if name.ends_with(".html") || name.ends_with(".htm") || name.ends_with(".html.gz") {
            out.push(path.to_path_buf());
        }
    }
}

fn load(path: &Path) -> String {
    let raw = std::fs::read(path).expect("readable page");
    let bytes = if path.to_string_lossy().ends_with(".gz") {
        let mut s = Vec::new();
        std::io::Read::read_to_end(&mut flate2::read::GzDecoder::new(&raw[..]), &mut s)
            .expect("gzip");
        s
    } else {
        raw
    };
    thresher::charset::decode_html(&bytes, None, None).text
}

fn parse_only(html: &str) -> usize {
    let tree = html5ever::parse_document(RcDom::default(), Default::default()).one(html);
    let n = tree.document.children.borrow().len();
    drop(tree);
    n
}

fn extract(html: &str, config: &heuristic::HeuristicConfig) -> usize {
    let page = dom::parse_page(html);
    let found = heuristic::extract(&page.dom, config);
    let t = title::page_title(&page.dom, None);
    found.text.len() + t.len()
}

/// Fastest of `rounds` passes over all pages, in seconds.
fn time(rounds: usize, mut pass: impl FnMut() -> usize) -> f64 {
    let mut best = f64::INFINITY;
    for _ in 0..rounds {
        let start = Instant::now();
        std::hint::black_box(pass());
        best = best.min(start.elapsed().as_secs_f64());
    }
    best
}

fn main() {
    let mut inputs = Vec::new();
    let mut rounds = 5usize;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--rounds" => {
                rounds = args
                    .next()
                    .and_then(|v| v.parse().ok())
                    .expect("--rounds N")
            }
            "--bench" => {}
            _ => inputs.push(PathBuf::from(a)),
        }
    }
    if inputs.is_empty() {
        inputs.push(PathBuf::from("../shared/eval/scrapinghub/html"));
    }
    let mut files = Vec::new();
    for i in &inputs {
        collect(i, &mut files);
    }
    if files.is_empty() {
        eprintln!("no pages found in {inputs:?}");
        return;
    }
    let pages: Vec<String> = files.iter().map(|f| load(f)).collect();
    let n = pages.len() as f64;
    let bytes: usize = pages.iter().map(String::len).sum();
    let config = heuristic::HeuristicConfig::default();
    println!(
        "{} pages, {:.1} MB of decoded HTML ({:.0} KB/page), best of {rounds} rounds",
        pages.len(),
        bytes as f64 / 1e6,
        bytes as f64 / 1e3 / n
    );

    let parse = time(rounds, || pages.iter().map(|p| parse_only(p)).sum());
    let single = time(rounds, || pages.iter().map(|p| extract(p, &config)).sum());
    println!(
        "parse-only (html5ever → RcDom), 1 thread: {:7.3} ms/page  {:6.1} MB/s",
        parse * 1e3 / n,
        bytes as f64 / 1e6 / parse
    );
    println!(
        "extract (parse + walk + heuristic + title), 1 thread: {:7.3} ms/page  = {:.2}× parse-only",
        single * 1e3 / n,
        single / parse
    );
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .expect("thread pool");
    let double = pool.install(|| {
        time(rounds, || {
            pages.par_iter().map(|p| extract(p, &config)).sum()
        })
    });
    println!(
        "extract, 2 threads: {:7.3} ms/page wall  = {:.2}× one thread",
        double * 1e3 / n,
        single / double
    );
}
