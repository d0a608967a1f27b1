//! `extract` and `run` read streams (issue 35, item 2): a page, a WARC or a Parquet file
//! of pages given as `-`, `/dev/stdin` or a FIFO is read once, what it holds told from
//! its first bytes; a FIFO met in a directory is named as what it is, never opened (that
//! would wait for a writer).

mod common;
use common::*;

use std::io::Write;
use std::path::Path;
use std::process::{Output, Stdio};

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
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

fn mkfifo(path: &Path) {
    let made = std::process::Command::new("mkfifo")
        .arg(path)
        .status()
        .unwrap();
    assert!(made.success());
}

/// The texts of the records, in order.
fn texts(records: &[serde_json::Value]) -> Vec<String> {
    records
        .iter()
        .map(|r| r["text"].as_str().unwrap_or_default().to_string())
        .collect()
}

const PAGE: &str = "<!doctype html><html><head><title>Piped</title></head><body><article><p>A page read from standard input, with a paragraph long enough to be kept as the text.</p></article></body></html>";

#[test]
fn extract_reads_a_page_from_standard_input_plain_or_gzip() {
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    gz.write_all(PAGE.as_bytes()).unwrap();
    let gz = gz.finish().unwrap();
    for (name, bytes) in [
        ("-", PAGE.as_bytes().to_vec()),
        ("/dev/stdin", PAGE.as_bytes().to_vec()),
        ("-", gz),
    ] {
        let out = run_piped(&["extract", "--no-infholder", name], &bytes);
        assert!(out.status.success(), "{name}: {}", stderr(&out));
        let records = stdout_jsonl(&out);
        assert_eq!(records.len(), 1, "{name}: {records:?}");
        assert_eq!(records[0]["path"], name);
        assert!(
            records[0]["text"]
                .as_str()
                .unwrap()
                .contains("read from standard input"),
            "{name}: {records:?}"
        );
    }
}

#[test]
fn extract_and_run_read_a_warc_from_a_pipe_as_from_its_file() {
    let warc = fixtures().join("warc/sample.warc.gz");
    let bytes = std::fs::read(&warc).unwrap();
    let want = stdout_jsonl(&run_ok(&["extract", s(&warc)]));
    assert!(!want.is_empty());
    for name in ["-", "/dev/stdin"] {
        // With the learning pass (the default): the WARC is read twice.
        let out = run_piped(&["extract", name], &bytes);
        assert!(out.status.success(), "{name}: {}", stderr(&out));
        let got = stdout_jsonl(&out);
        assert_eq!(texts(&got), texts(&want), "{name}");
        assert!(
            got.iter()
                .all(|r| r["path"].as_str().unwrap().starts_with(&format!("{name}#"))),
            "{name}: {got:?}"
        );
    }
    let dir = tempfile::tempdir().unwrap();
    let (from_file, from_pipe) = (dir.path().join("file"), dir.path().join("pipe"));
    run_ok(&["run", s(&warc), "--out", s(&from_file)]);
    let out = run_piped(&["run", "-", "--out", s(&from_pipe)], &bytes);
    assert!(out.status.success(), "{}", stderr(&out));
    let (a, b) = (
        jsonl(&from_file.join("pages.jsonl")),
        jsonl(&from_pipe.join("pages.jsonl")),
    );
    assert_eq!(texts(&a), texts(&b));
    assert_eq!(
        std::fs::read(from_file.join("clusters.jsonl")).unwrap(),
        std::fs::read(from_pipe.join("clusters.jsonl")).unwrap()
    );
}

#[test]
fn extract_reads_a_fifo_of_parquet_pages() {
    let dir = tempfile::tempdir().unwrap();
    let pages = dir.path().join("pages.parquet");
    write_pages_parquet(&pages);
    let want = stdout_jsonl(&run_ok(&["extract", "--no-infholder", s(&pages)]));
    assert_eq!(want.len(), 2);
    let fifo = dir.path().join("pages.fifo");
    mkfifo(&fifo);
    let (from, to) = (pages.clone(), fifo.clone());
    let writer = std::thread::spawn(move || {
        std::fs::write(to, std::fs::read(from).unwrap()).unwrap();
    });
    let out = run(&["extract", "--no-infholder", s(&fifo)]);
    writer.join().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let got = stdout_jsonl(&out);
    assert_eq!(texts(&got), texts(&want));
    assert!(
        got.iter()
            .all(|r| r["path"].as_str().unwrap().starts_with(s(&fifo))),
        "{got:?}"
    );
}

/// A Parquet file of two pages (`url` and `html` columns).
fn write_pages_parquet(path: &Path) {
    use arrow_array::builder::StringBuilder;
    use arrow_array::{ArrayRef, RecordBatch};
    use arrow_schema::{DataType, Field, Schema};
    use std::sync::Arc;
    let (mut url, mut html) = (StringBuilder::new(), StringBuilder::new());
    for i in 0..2 {
        url.append_value(format!("http://p.example/{i}"));
        html.append_value(format!("<html><body><article><p>Row {i} of a Parquet file of pages, a paragraph long enough to be kept.</p></article></body></html>"));
    }
    let schema = Arc::new(Schema::new(vec![
        Field::new("url", DataType::Utf8, false),
        Field::new("html", DataType::Utf8, false),
    ]));
    let cols: Vec<ArrayRef> = vec![Arc::new(url.finish()), Arc::new(html.finish())];
    let batch = RecordBatch::try_new(schema.clone(), cols).unwrap();
    let mut w =
        parquet::arrow::ArrowWriter::try_new(std::fs::File::create(path).unwrap(), schema, None)
            .unwrap();
    w.write(&batch).unwrap();
    w.close().unwrap();
}

#[test]
fn a_fifo_in_a_directory_is_named_and_the_rest_is_read() {
    let dir = tempfile::tempdir().unwrap();
    let pages = dir.path().join("pages");
    std::fs::create_dir_all(&pages).unwrap();
    std::fs::write(pages.join("a.html"), PAGE).unwrap();
    // No writer ever opens it: opening it would wait for ever.
    mkfifo(&pages.join("b.html"));
    let out = run(&["extract", "--no-infholder", s(&pages)]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("b.html") && err.contains("FIFO") && !err.contains("no such file"),
        "{err}"
    );
    let records = stdout_jsonl(&out);
    assert!(
        records
            .iter()
            .any(|r| r["path"].as_str().unwrap().ends_with("a.html") && r["text"] != ""),
        "{records:?}"
    );
}

#[test]
fn a_device_that_never_ends_costs_one_page() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("cap.yaml");
    std::fs::write(&config, "max_page_bytes: 1048576\n").unwrap();
    let start = std::time::Instant::now();
    let out = run(&["--config", s(&config), "extract", "/dev/zero"]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(!err.contains("no such file"), "{err}");
    assert!(start.elapsed().as_secs() < 30);
    let records = stdout_jsonl(&out);
    assert_eq!(records.len(), 1, "{records:?}");
    assert_eq!(records[0]["path"], "/dev/zero");
}
