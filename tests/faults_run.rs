//! Failures of `run` that must show in its outputs (issue 35, items 6 and 7): a URL of
//! `run --fetch` that could not be fetched is a failed record in errors.jsonl and
//! summary.json; a page cut at `max_page_bytes` says so in its record (`truncated_at`),
//! in summary.json (`pages_truncated`) and in a warning, from a file, a WARC or Parquet.

mod common;
use common::*;

use std::path::Path;

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn fetch_failures_are_failed_records_of_the_run() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    // Non-public addresses are refused before any connection: no network is needed.
    let run = run(&[
        "run",
        "--fetch",
        "http://10.255.255.1/a.html",
        "http://192.168.255.1/b.html",
        "--out",
        s(&out),
    ]);
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(1), "{stderr}");
    let errors = jsonl(&out.join("errors.jsonl"));
    assert_eq!(errors.len(), 2, "{errors:?}");
    assert!(
        errors.iter().all(|e| e["error_kind"] == "fetch"),
        "{errors:?}"
    );
    assert_eq!(errors[0]["url"], "http://10.255.255.1/a.html");
    assert!(
        errors[0]["error"]
            .as_str()
            .unwrap()
            .contains("blocked_address"),
        "{errors:?}"
    );
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("summary.json")).unwrap()).unwrap();
    assert_eq!(summary["failed"], 2, "{summary}");
    assert_eq!(summary["errors"]["fetch"], 2, "{summary}");
}

#[test]
fn a_page_cut_at_max_page_bytes_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let para =
        "<p>A paragraph of the long page, repeated until the page is larger than the limit.</p>\n";
    let long = format!(
        "<html><body><article>{}</article></body></html>",
        para.repeat(400)
    );
    let short = "<html><body><article><p>A short page with a paragraph long enough to be kept as its main text.</p></article></body></html>";
    let pages = dir.path().join("pages");
    std::fs::create_dir_all(&pages).unwrap();
    std::fs::write(pages.join("long.html"), &long).unwrap();
    std::fs::write(pages.join("short.html"), short).unwrap();
    // The same two pages in a WARC.
    let record = |n: usize, body: &str| {
        let http = format!("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n{body}");
        format!(
            "WARC/1.0\r\nWARC-Type: response\r\nWARC-Date: 2024-01-01T00:00:00Z\r\nWARC-Target-URI: http://h.example/{n}\r\nContent-Length: {}\r\n\r\n{http}\r\n\r\n",
            http.len()
        )
    };
    let warc = dir.path().join("w.warc");
    std::fs::write(&warc, record(1, &long) + &record(2, short)).unwrap();
    let config = dir.path().join("limit.yaml");
    std::fs::write(&config, "max_page_bytes: 10000\n").unwrap();
    for input in [&pages, &warc] {
        let out_dir = dir.path().join(format!(
            "out-{}",
            input.file_name().unwrap().to_str().unwrap()
        ));
        let run = run(&[
            "--config",
            s(&config),
            "run",
            s(input),
            "--out",
            s(&out_dir),
        ]);
        let stderr = String::from_utf8_lossy(&run.stderr);
        assert_eq!(run.status.code(), Some(0), "{stderr}");
        let records = jsonl(&out_dir.join("pages.jsonl"));
        assert_eq!(records.len(), 2);
        let cut: Vec<&serde_json::Value> = records
            .iter()
            .filter(|r| r.get("truncated_at").is_some())
            .collect();
        assert_eq!(cut.len(), 1, "{input:?}: {records:?}");
        assert_eq!(cut[0]["truncated_at"], 10000);
        assert!(cut[0]["text"].as_str().unwrap().contains("long page"));
        assert!(
            stderr.contains("longer than max_page_bytes (10000)"),
            "{stderr}"
        );
        let summary: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(out_dir.join("summary.json")).unwrap())
                .unwrap();
        assert_eq!(summary["pages_truncated"], 1, "{summary}");
    }
}
