//! Every reader of JSON records treats a bad record the same way and reads streams
//! (issue 35, items 1, 2 and 10): `index add` and `index query` keep the good records of a
//! batch with a bad line or a truncated `.gz`; `dedup`, `sign`, `index` and the manifest
//! read a pipe, `/dev/stdin`, `-` and a FIFO (plain, gzip or Parquet, told from the bytes
//! read); a byte-order mark costs no record; `sign` exits 1 when a record failed.

mod common;
use common::*;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Output, Stdio};

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// `families` texts of 60 words, each with one near copy: 2 × `families` JSON lines.
fn corpus(families: usize) -> Vec<String> {
    let mut lines = Vec::new();
    for f in 0..families {
        let words: Vec<String> = (0..60)
            .map(|i| format!("w{}", (f * 7919 + i * 104729) % 50_000))
            .collect();
        for copy in 0..2 {
            let mut w = words.clone();
            if copy == 1 {
                w[30] = format!("changed{f}");
            }
            lines.push(
                serde_json::json!({"id": format!("f{f}-{copy}"), "text": w.join(" ")}).to_string(),
            );
        }
    }
    lines
}

fn write_lines(path: &Path, lines: &[String]) -> PathBuf {
    let mut text = lines.join("\n");
    text.push('\n');
    std::fs::write(path, text).unwrap();
    path.to_path_buf()
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    e.write_all(bytes).unwrap();
    e.finish().unwrap()
}

/// `thresher ARGS` with `input` on its standard input.
fn run_piped(args: &[&str], input: &[u8]) -> Output {
    let mut child = bin()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_vec();
    // Written from a thread: the child may fill its stdout before reading all of stdin.
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    out
}

fn stats(index: &Path) -> serde_json::Value {
    let out = run_ok(&["index", "stats", "--index", s(index)]);
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn index_add_stores_the_good_records_of_a_batch_with_a_bad_line() {
    let dir = tempfile::tempdir().unwrap();
    let mut lines = corpus(100);
    let good = write_lines(&dir.path().join("good.jsonl"), &lines);
    lines.insert(101, r#"{"id":"broken", "text": "#.to_string());
    let mid = write_lines(&dir.path().join("mid.jsonl"), &lines);
    let ix = dir.path().join("ix");
    let out = run(&["index", "add", "--index", s(&ix), s(&mid)]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("mid.jsonl:102"), "{err}");
    let st = stats(&ix);
    assert_eq!(st["documents"], 200, "{st}");
    assert_eq!(st["interrupted_batches"], 0, "{st}");
    assert_eq!(st["last_batch"]["failed"], 1, "{st}");
    // The clusters are those of the good records, as one `dedup` run gives them.
    let export = run_ok(&["index", "export", "--index", s(&ix)]);
    let one = run_ok(&["dedup", s(&good)]);
    assert_eq!(
        String::from_utf8_lossy(&export.stdout),
        String::from_utf8_lossy(&one.stdout)
    );
    assert_eq!(stdout_jsonl(&export).len(), 100);
    // Adding the batch again finds every good record unchanged, and fails the same line.
    let again = run(&["index", "add", "--index", s(&ix), s(&mid)]);
    assert_eq!(again.status.code(), Some(1), "{}", stderr(&again));
    assert!(
        stderr(&again).contains("200 unchanged"),
        "{}",
        stderr(&again)
    );
    // A query of the same file answers the 200 good records and names the bad line.
    let q = run(&["index", "query", "--index", s(&ix), s(&mid)]);
    assert_eq!(q.status.code(), Some(1), "{}", stderr(&q));
    assert!(stderr(&q).contains("mid.jsonl:102"), "{}", stderr(&q));
    assert_eq!(stdout_jsonl(&q).len(), 200);
}

#[test]
fn index_add_of_a_truncated_gz_stores_the_lines_before_the_break() {
    let dir = tempfile::tempdir().unwrap();
    let lines = corpus(2000);
    let gz = gzip((lines.join("\n") + "\n").as_bytes());
    let cut = dir.path().join("cut.jsonl.gz");
    std::fs::write(&cut, &gz[..gz.len() / 2]).unwrap();
    let other = write_lines(&dir.path().join("other.jsonl"), &corpus(3)[..]);
    let ix = dir.path().join("ix");
    // The truncated file, then a good one: both are read.
    let out = run(&["index", "add", "--index", s(&ix), s(&cut), s(&other)]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("cut.jsonl.gz:"), "{err}");
    let st = stats(&ix);
    let docs = st["documents"].as_u64().unwrap();
    // Half the compressed bytes hold about half of the 4,000 lines (`other`'s six are
    // the first six of them again).
    assert!(docs > 500 && docs < 4000, "{st}");
    assert_eq!(st["interrupted_batches"], 0, "{st}");
}

#[test]
fn every_records_reader_takes_a_pipe_dash_and_dev_stdin() {
    let dir = tempfile::tempdir().unwrap();
    let lines = corpus(20);
    let file = write_lines(&dir.path().join("docs.jsonl"), &lines);
    let plain = std::fs::read(&file).unwrap();
    let gz = gzip(&plain);
    let want = run_ok(&["dedup", s(&file)]).stdout;
    assert_eq!(String::from_utf8_lossy(&want).lines().count(), 20);
    for name in ["-", "/dev/stdin"] {
        for (what, bytes) in [("plain", &plain), ("gzip", &gz)] {
            let out = run_piped(&["dedup", name], bytes);
            assert!(
                out.status.success(),
                "dedup {name} {what}: {}",
                stderr(&out)
            );
            assert_eq!(out.stdout, want, "dedup {name} {what}");
        }
    }
    // sign from a pipe writes the same signatures as from the file.
    let (a, b) = (dir.path().join("a.parquet"), dir.path().join("b.parquet"));
    run_ok(&["sign", s(&file), "-o", s(&a)]);
    let out = run_piped(&["sign", "-", "-o", s(&b)], &gz);
    assert!(out.status.success(), "sign -: {}", stderr(&out));
    assert_eq!(std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());
    // index add and query from a pipe.
    let ix = dir.path().join("ix");
    let out = run_piped(&["index", "add", "--index", s(&ix), "-"], &gz);
    assert!(out.status.success(), "index add -: {}", stderr(&out));
    assert_eq!(stats(&ix)["documents"], 40);
    let out = run_piped(&["index", "query", "--index", s(&ix), "/dev/stdin"], &plain);
    assert!(out.status.success(), "index query: {}", stderr(&out));
    let answers = stdout_jsonl(&out);
    assert_eq!(answers.len(), 40);
    assert!(answers
        .iter()
        .all(|a| a["near"].as_array().unwrap().len() == 2));
}

#[test]
fn a_parquet_file_of_records_is_read_from_a_pipe() {
    let dir = tempfile::tempdir().unwrap();
    let pages = dir.path().join("pages.parquet");
    run_ok(&[
        "extract",
        s(&fixtures().join("sites")),
        "--format",
        "parquet",
        "-o",
        s(&pages),
    ]);
    let want = run_ok(&["dedup", s(&pages)]).stdout;
    let out = run_piped(&["dedup", "-"], &std::fs::read(&pages).unwrap());
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(out.stdout, want);
}

#[test]
fn a_fifo_named_as_an_argument_is_read() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("docs.fifo");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    let lines = corpus(5);
    let text = lines.join("\n") + "\n";
    let path = fifo.clone();
    let writer = std::thread::spawn(move || {
        std::fs::write(path, text).unwrap();
    });
    let out = run(&["dedup", s(&fifo)]);
    writer.join().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout_jsonl(&out).len(), 5);
}

#[test]
fn a_byte_order_mark_costs_no_record() {
    let dir = tempfile::tempdir().unwrap();
    let lines = corpus(3);
    let mut bytes = b"\xef\xbb\xbf".to_vec();
    bytes.extend((lines.join("\n") + "\n").as_bytes());
    let bom = dir.path().join("bom.jsonl");
    std::fs::write(&bom, &bytes).unwrap();
    let out = run_ok(&["dedup", s(&bom)]);
    assert_eq!(stdout_jsonl(&out).len(), 3, "{}", stderr(&out));
    let gz = dir.path().join("bom.jsonl.gz");
    std::fs::write(&gz, gzip(&bytes)).unwrap();
    assert_eq!(stdout_jsonl(&run_ok(&["dedup", s(&gz)])).len(), 3);
    let ix = dir.path().join("ix");
    run_ok(&["index", "add", "--index", s(&ix), s(&bom)]);
    assert_eq!(stats(&ix)["documents"], 6);
    // A manifest starting with a mark keeps its first line.
    let pages = dir.path().join("pages");
    std::fs::create_dir_all(&pages).unwrap();
    let page = "<html><body><article><p>One paragraph of text long enough to be kept as the main content of the page.</p></article></body></html>";
    std::fs::write(pages.join("a.html"), page).unwrap();
    std::fs::write(pages.join("b.html"), page.replace("One", "Another")).unwrap();
    let manifest = pages.join("manifest.jsonl");
    std::fs::write(
        &manifest,
        b"\xef\xbb\xbf{\"path\":\"a.html\",\"url\":\"https://a.example/a\"}\n{\"path\":\"b.html\",\"url\":\"https://a.example/b\"}\n",
    )
    .unwrap();
    let out_dir = dir.path().join("out");
    let out = run(&["run", "--manifest", s(&manifest), "--out", s(&out_dir)]);
    assert!(out.status.success(), "{}", stderr(&out));
    let records = jsonl(&out_dir.join("pages.jsonl"));
    let urls: Vec<&str> = records.iter().map(|r| r["url"].as_str().unwrap()).collect();
    assert!(urls.contains(&"https://a.example/a"), "{urls:?}");
}

#[test]
fn sign_exits_1_when_a_record_failed() {
    let dir = tempfile::tempdir().unwrap();
    let mut lines = corpus(3);
    lines.push("{not json".into());
    let file = write_lines(&dir.path().join("docs.jsonl"), &lines);
    let out = run(&["sign", s(&file), "-o", s(&dir.path().join("s.parquet"))]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stderr(&out).contains("docs.jsonl:7"), "{}", stderr(&out));
}
