//! Outputs are atomic (issue 14, item 6): a `thresher run` killed with SIGKILL at any
//! moment leaves each output either as the previous run wrote it or whole and valid from
//! the new run, never half written. Kills fall at fractions of a full run's time and at
//! the moments each output's temporary file exists (while it is being written).

mod common;
use common::*;

use std::path::Path;
use std::time::{Duration, Instant};

const OUTPUTS: [&str; 4] = [
    "pages.jsonl",
    "clusters.jsonl",
    "summary.json",
    "errors.jsonl",
];

/// `n` pages of generated text (every 10th a near copy of another, so clusters exist;
/// one empty file, so errors.jsonl has a line).
fn corpus(dir: &Path, n: usize, seed: u64) {
    let words = [
        "river", "stone", "garden", "winter", "harbour", "lantern", "market", "orchard", "bridge",
        "meadow", "copper", "violin", "shadow", "forest", "candle", "pepper", "island", "ladder",
        "mirror", "thunder", "velvet", "window", "basket", "engine",
    ];
    let mut x = seed;
    let mut next = move || {
        x = x
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (x >> 33) as usize
    };
    let site = dir.join("example.com");
    std::fs::create_dir_all(&site).unwrap();
    let mut texts: Vec<String> = Vec::new();
    for i in 0..n {
        let text = if i % 10 == 9 {
            texts[i - 5].clone() + " copied"
        } else {
            (0..6)
                .map(|_| {
                    let s: Vec<&str> = (0..40).map(|_| words[next() % words.len()]).collect();
                    format!("<p>{}.</p>", s.join(" "))
                })
                .collect::<String>()
        };
        texts.push(text.clone());
        let html = format!(
            "<html><head><title>Page {i}</title></head><body><nav><a href='/'>Home</a> <a href='/a'>About</a></nav><article>{text}</article><footer>Copyright Example</footer></body></html>"
        );
        std::fs::write(site.join(format!("p{i:05}.html")), html).unwrap();
    }
    std::fs::write(site.join("empty.html"), "").unwrap();
}

fn run_cmd(input: &Path, out: &Path) -> std::process::Command {
    let mut cmd = bin();
    cmd.args(["run", "--threads", "1", "--no-infholder", "--out"])
        .arg(out)
        .arg(input)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null());
    cmd
}

/// Whole and valid: every line (or the file) parses, and as many pages as the input has.
fn valid(name: &str, bytes: &[u8], pages: usize) -> Result<(), String> {
    let text = std::str::from_utf8(bytes).map_err(|e| e.to_string())?;
    if name == "summary.json" {
        let v: serde_json::Value = serde_json::from_str(text).map_err(|e| e.to_string())?;
        return (v["pages"] == pages)
            .then_some(())
            .ok_or(format!("pages {}", v["pages"]));
    }
    if !text.is_empty() && !text.ends_with('\n') {
        return Err("no final newline".into());
    }
    for line in text.lines() {
        serde_json::from_str::<serde_json::Value>(line).map_err(|e| format!("{e}: {line}"))?;
    }
    let lines = text.lines().count();
    match name {
        "pages.jsonl" if lines != pages => Err(format!("{lines} lines, {pages} pages")),
        "errors.jsonl" if lines != 1 => Err(format!("{lines} error lines")),
        "clusters.jsonl" if lines == 0 => Err("no clusters".into()),
        _ => Ok(()),
    }
}

/// When to kill: given the output directory and the time since the start.
type KillWhen = Box<dyn Fn(&Path, Duration) -> bool>;

#[test]
fn a_killed_run_leaves_each_output_old_or_whole() {
    let dir = tempfile::tempdir().unwrap();
    let (old_in, new_in, out) = (
        dir.path().join("old"),
        dir.path().join("new"),
        dir.path().join("out"),
    );
    let (old_pages, new_pages) = (300, 1500);
    corpus(&old_in, old_pages - 1, 1);
    corpus(&new_in, new_pages - 1, 2);

    // The old outputs, and how long a whole new run takes.
    assert!(run_cmd(&old_in, &out).status().unwrap().code() == Some(1)); // the empty page
    let old: Vec<Vec<u8>> = OUTPUTS
        .iter()
        .map(|n| std::fs::read(out.join(n)).unwrap())
        .collect();
    let scratch = dir.path().join("scratch");
    let t0 = Instant::now();
    run_cmd(&new_in, &scratch).status().unwrap();
    let full = t0.elapsed();

    // Kill moments: fractions of the run, then "while NAME's temporary file exists".
    let mut moments: Vec<(String, KillWhen)> = Vec::new();
    for f in [0.05, 0.3, 0.6, 0.85, 0.95, 0.99] {
        let at = full.mul_f64(f);
        moments.push((format!("at {f} of the run"), Box::new(move |_, t| t >= at)));
    }
    for name in OUTPUTS {
        moments.push((
            format!("while writing {name}"),
            Box::new(move |out: &Path, _| {
                std::fs::read_dir(out).unwrap().flatten().any(|e| {
                    let f = e.file_name().to_string_lossy().into_owned();
                    f.starts_with(&format!(".{name}.")) && f.ends_with(".tmp")
                })
            }),
        ));
    }
    let (mut saw_old, mut saw_new) = (0, 0);
    for (what, when) in &moments {
        // Start each time from the old outputs.
        for (n, bytes) in OUTPUTS.iter().zip(&old) {
            std::fs::write(out.join(n), bytes).unwrap();
        }
        let mut child = run_cmd(&new_in, &out).spawn().unwrap();
        let start = Instant::now();
        let killed = loop {
            if when(&out, start.elapsed()) {
                child.kill().unwrap(); // SIGKILL
                break true;
            }
            if child.try_wait().unwrap().is_some() || start.elapsed() > full * 4 {
                break false;
            }
            std::thread::sleep(Duration::from_micros(200));
        };
        child.wait().unwrap();
        eprintln!("{what}: killed {killed}");
        for (i, name) in OUTPUTS.iter().enumerate() {
            let now = std::fs::read(out.join(name)).unwrap_or_default();
            if now == old[i] {
                saw_old += 1;
            } else {
                valid(name, &now, new_pages).unwrap_or_else(|e| {
                    panic!("{what} (killed: {killed}): {name} is neither old nor whole: {e}")
                });
                saw_new += 1;
            }
        }
    }
    eprintln!("full run {full:?}; outputs old {saw_old}, new {saw_new}");
    // Both outcomes happened: the kills fell before and after outputs were replaced.
    assert!(saw_old > 0 && saw_new > 0, "old {saw_old}, new {saw_new}");
}
