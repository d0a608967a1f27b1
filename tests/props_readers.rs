//! Property tests of the readers on bad input (issue 14, item 5): page files (plain and
//! gzip), WARC files, dedup JSONL, manifests and content sniffing, fed random bytes and
//! randomly damaged valid inputs. Each must give a result or a per-record error — never
//! a panic, never a hang — and account for every record it was given. Fixed seed, so a
//! run is reproducible; `cargo-fuzz` targets for longer runs are in `fuzz/`.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed};

use thresher::config::Config as ThresherConfig;
use thresher::dedup::{DedupConfig, Signer};
use thresher::extract::{heuristic::HeuristicConfig, Cascade};
use thresher::page::Page;
use thresher::pipeline::{extract_page, read_and_sign};
use thresher::source::{self, sniff, warc::WarcPages, FileInput, Manifest, PageJob, ReadLimits};

/// Cases per property: a few thousand in all over the property tests.
fn config(cases: u32) -> Config {
    Config {
        cases,
        rng_seed: RngSeed::Fixed(0x7468_7265_7368),
        failure_persistence: None,
        max_shrink_iters: 256,
        ..Config::default()
    }
}

/// Run `f` on a thread with the pipeline's stack size; a case that does not end within
/// a minute is a hang (no case comes near it: the whole suite takes seconds).
fn no_hang<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::Builder::new()
        .stack_size(16 << 20)
        .spawn(move || {
            let _ = tx.send(std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)));
        })
        .unwrap();
    match rx.recv_timeout(Duration::from_secs(60)) {
        Ok(Ok(v)) => v,
        Ok(Err(panic)) => std::panic::resume_unwind(panic),
        Err(_) => panic!("no result within 60 s: a hang"),
    }
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    gz.write_all(bytes).unwrap();
    gz.finish().unwrap()
}

/// A valid input damaged: bytes overwritten, inserted, removed, or the end cut off.
fn damaged(valid: Vec<u8>) -> impl Strategy<Value = Vec<u8>> {
    let len = valid.len();
    (
        prop::collection::vec((0..len.max(1), any::<u8>(), 0..3u8), 0..8),
        prop::option::of(0..len.max(1)),
    )
        .prop_map(move |(edits, cut)| {
            let mut v = valid.clone();
            for (at, byte, op) in edits {
                let at = at.min(v.len().saturating_sub(1));
                match op {
                    0 if !v.is_empty() => v[at] = byte,
                    1 => v.insert(at, byte),
                    _ if !v.is_empty() => {
                        v.remove(at);
                    }
                    _ => {}
                }
            }
            if let Some(c) = cut {
                v.truncate(c.min(v.len()));
            }
            v
        })
}

const PAGE: &str = "<!doctype html><html><head><meta charset=utf-8><title>A page</title></head><body><nav><a href=/>Home</a></nav><article><h1>Heading</h1><p>The body of the article has enough words to be taken for the main text of the page.</p><p>Ещё абзац по-русски, чтобы были и многобайтовые буквы.</p></article><footer>© Example</footer></body></html>";

fn warc_record(n: usize, body: &str) -> String {
    let http = format!(
        "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    format!(
        "WARC/1.0\r\nWARC-Type: response\r\nWARC-Record-ID: <urn:uuid:00000000-0000-0000-0000-00000000000{n}>\r\nWARC-Date: 2024-01-0{n}T00:00:00Z\r\nWARC-Target-URI: http://example.com/{n}\r\nContent-Type: application/http; msgtype=response\r\nContent-Length: {}\r\n\r\n{http}\r\n\r\n",
        http.len()
    )
}

fn valid_warc() -> Vec<u8> {
    (1..=3)
        .map(|n| warc_record(n, PAGE))
        .collect::<String>()
        .into_bytes()
}

/// Every page job of a WARC file, loaded and extracted: pages or per-record errors.
fn read_warc(path: PathBuf) -> (usize, usize) {
    let cascade = Cascade::local(HeuristicConfig::default());
    let config = ThresherConfig::default();
    let limits = ReadLimits {
        max_page_bytes: 1 << 20,
    };
    let pages = match WarcPages::open(&path, 1 << 20) {
        Ok(p) => p,
        Err(_) => return (0, 1),
    };
    let (mut ok, mut failed) = (0, 0);
    for job in pages {
        match job
            .load(limits)
            .and_then(|page| extract_page(&page, &cascade, &config))
        {
            Ok(_) => ok += 1,
            Err(e) => {
                assert!(
                    e.path.contains(&*path.to_string_lossy()),
                    "error names the file: {e}"
                );
                failed += 1
            }
        }
    }
    (ok, failed)
}

fn write_tmp(dir: &Path, name: &str, bytes: &[u8]) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, bytes).unwrap();
    p
}

proptest! {
    #![proptest_config(config(300))]

    #[test]
    fn warc_files_give_pages_or_record_errors(bytes in prop_oneof![
        damaged(valid_warc()),
        damaged(gzip(&valid_warc())),
        prop::collection::vec(any::<u8>(), 0..2048),
    ]) {
        let dir = tempfile::tempdir().unwrap();
        let path = write_tmp(dir.path(), "crawl.warc", &bytes);
        let (ok, failed) = no_hang(move || read_warc(path));
        // Three records at most can come out of the damaged file (plus one error for
        // a record the damage split in two).
        prop_assert!(ok + failed <= 3 + bytes.len() / 64 + 1);
    }

    /// One bad span among good records costs one error: a corrupt or cut gzip member,
    /// a Content-Length too large, too small or not a number, garbage between records;
    /// every good record around it is a page (issue 35, item 5).
    #[test]
    fn one_bad_warc_span_costs_one_error(
        good in 2usize..6,
        at in 0usize..6,
        kind in 0usize..5,
        gz in any::<bool>(),
        junk in prop::collection::vec(any::<u8>().prop_filter("no record start", |b| *b != b'W' && *b != 0x1f), 1..64)
            .prop_filter("not blank", |v| v.iter().any(|b| !b.is_ascii_whitespace())),
    ) {
        let at = at % (good + 1);
        let bad_record = || -> Vec<u8> {
            let rec = warc_record(9, PAGE);
            // The WARC header's Content-Length (the first; the HTTP head has its own).
            let len = rec.split("Content-Length: ").nth(1).unwrap().split('\r').next().unwrap().to_string();
            let swap = |v: &str| rec.replacen(&format!("Content-Length: {len}\r\n\r\nHTTP"), &format!("Content-Length: {v}\r\n\r\nHTTP"), 1);
            match kind {
                0 => swap("99999").into_bytes(),
                1 => swap("40").into_bytes(),
                2 => swap("ten").into_bytes(),
                // Garbage lines between records: the next record starts on a line of its
                // own (a record whose `WARC/1.` line is itself damaged is lost with it).
                _ => [junk.as_slice(), b"\r\n"].concat(),
            }
        };
        let mut parts: Vec<Vec<u8>> = (1..=good).map(|n| warc_record(n % 9 + 1, PAGE).into_bytes()).collect();
        let mut bad = bad_record();
        if gz {
            parts = parts.iter().map(|p| gzip(p)).collect();
            bad = match kind {
                // A member cut short, or with its middle overwritten.
                3 => { let g = gzip(&warc_record(9, PAGE).into_bytes()); g[..g.len() / 2].to_vec() }
                4 => { let mut g = gzip(&warc_record(9, PAGE).into_bytes()); let m = g.len() / 2; for b in &mut g[m..m + 6] { *b ^= 0x5a; } g }
                0..=2 => gzip(&bad),
                _ => bad,
            };
        }
        parts.insert(at, bad);
        let bytes = parts.concat();
        let dir = tempfile::tempdir().unwrap();
        let path = write_tmp(dir.path(), if gz { "c.warc.gz" } else { "c.warc" }, &bytes);
        let (ok, failed) = no_hang(move || read_warc(path));
        prop_assert_eq!((ok, failed), (good, 1));
    }

    #[test]
    fn page_files_give_a_record_or_an_error(bytes in prop_oneof![
        damaged(PAGE.as_bytes().to_vec()),
        damaged(gzip(PAGE.as_bytes())),
        prop::collection::vec(any::<u8>(), 0..4096),
    ], gz_name in any::<bool>()) {
        let dir = tempfile::tempdir().unwrap();
        let name = if gz_name { "page.html.gz" } else { "page.html" };
        let file = write_tmp(dir.path(), name, &bytes);
        let result = no_hang(move || {
            let input = FileInput {
                path: file.display().to_string(),
                url: "http://example.com/page.html".into(),
                file,
                fetched_at: None,
                popularity: 0.0,
                content_type: None,
                spool: None,
            };
            let cascade = Cascade::local(HeuristicConfig::default());
            PageJob::File(input)
                .load(ReadLimits { max_page_bytes: 1 << 20 })
                .and_then(|page| extract_page(&page, &cascade, &ThresherConfig::default()))
        });
        if let Err(e) = result {
            prop_assert!(e.path.ends_with(name));
        }
    }

    #[test]
    fn any_bytes_are_a_page_or_an_error(body in prop::collection::vec(any::<u8>(), 0..4096),
                                        content_type in prop::option::of("[ -~]{0,40}")) {
        let page = Page {
            path: "p".into(),
            url: "http://example.com/".into(),
            fetched_at: None,
            popularity: 0.0,
            content_type,
            body,
            cut: false,
            warc_file: None,
        };
        let _ = no_hang(move || {
            extract_page(&page, &Cascade::local(HeuristicConfig::default()), &ThresherConfig::default())
        });
    }

    #[test]
    fn sniffing_never_fails(head in prop::collection::vec(any::<u8>(), 0..512)) {
        let _ = sniff::sniff_bytes(&head);
    }
}

/// A dedup input line: valid records, records missing fields, damaged JSON, random bytes.
fn jsonl_line() -> impl Strategy<Value = Vec<u8>> {
    let key = prop_oneof![Just("a".to_string()), Just("b".to_string()), "[a-z]{1,6}"];
    prop_oneof![
        (key.clone(), "[a-z ]{0,80}")
            .prop_map(|(k, t)| format!("{{\"id\": \"{k}\", \"text\": \"{t}\"}}").into_bytes()),
        key.clone()
            .prop_map(|k| format!("{{\"id\": \"{k}\"}}").into_bytes()),
        "[a-z ]{0,40}".prop_map(|t| format!("{{\"text\": \"{t}\"}}").into_bytes()),
        (key, "[a-z ]{0,80}").prop_flat_map(|(k, t)| damaged(
            format!("{{\"url\": \"{k}\", \"text\": \"{t}\", \"popularity\": 1.5}}").into_bytes()
        )),
        prop::collection::vec(any::<u8>(), 0..120),
        Just(b"{\"path\": \"x\", \"error\": \"read\", \"error_kind\": \"read\"}".to_vec()),
    ]
    .prop_map(|mut l| {
        l.retain(|&b| b != b'\n');
        l
    })
}

proptest! {
    #![proptest_config(config(300))]

    #[test]
    fn dedup_jsonl_accounts_for_every_line(lines in prop::collection::vec(jsonl_line(), 0..40), gz in any::<bool>()) {
        let dir = tempfile::tempdir().unwrap();
        let mut bytes = lines.join(&b'\n');
        bytes.push(b'\n');
        let file = if gz {
            write_tmp(dir.path(), "docs.jsonl.gz", &gzip(&bytes))
        } else {
            write_tmp(dir.path(), "docs.jsonl", &bytes)
        };
        let (docs, skipped, errors) = no_hang(move || {
            let signer = Signer::new(&DedupConfig::default());
            let mut errors = Vec::new();
            let (docs, skipped) = read_and_sign(&[file], &signer, &mut |e| {
                errors.push(e);
                Ok(())
            })
            .expect("only --max-errors stops a read");
            (docs, skipped, errors)
        });
        let blank = lines.iter().filter(|l| l.trim_ascii().is_empty()).count();
        let keys: std::collections::HashSet<_> = docs.iter().map(|d| d.meta.key.clone()).collect();
        prop_assert_eq!(keys.len(), docs.len(), "a key kept twice");
        // Every non-blank line is a document, an error, a skipped error record or a
        // duplicate of a kept key.
        prop_assert!(docs.len() + skipped + errors.len() + blank <= lines.len());
        for e in &errors {
            prop_assert!(e.path.contains("docs.jsonl"), "{}", e);
        }
    }

    #[test]
    fn manifests_keep_good_lines_and_name_bad_ones(lines in prop::collection::vec(prop_oneof![
        "[a-z]{1,8}".prop_map(|p| format!("{{\"path\": \"{p}.html\", \"url\": \"http://x.example/{p}\"}}").into_bytes()),
        jsonl_line(),
    ], 0..30)) {
        let dir = tempfile::tempdir().unwrap();
        let mut bytes = lines.join(&b'\n');
        bytes.push(b'\n');
        let file = write_tmp(dir.path(), "manifest.jsonl", &bytes);
        let m = no_hang(move || Manifest::load(&file).expect("a readable manifest loads"));
        let blank = lines.iter().filter(|l| l.trim_ascii().is_empty()).count();
        prop_assert!(m.entries.len() + m.problems.len() + blank <= lines.len());
        for p in &m.problems {
            prop_assert!(p.path.contains("manifest.jsonl:"), "{}", p);
        }
        let inputs = source::discover(&[], Some(&m), 1 << 20);
        prop_assert_eq!(inputs.files.len(), m.entries.len());
        prop_assert_eq!(inputs.errors.len(), m.problems.len());
    }
}
