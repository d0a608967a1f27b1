//! One bad WARC record costs that record only (issue 35, item 5): after a corrupt gzip
//! member, a Content-Length too large, too small or not a number, or garbage between
//! records, reading resumes at the next record (the next gzip member, or the next
//! `WARC/1.` line), and each skipped span is one error naming its byte offset.

mod common;
use common::*;

use std::io::Write;

fn page(n: usize) -> String {
    format!("<html><body><article><p>This is page number {n} of the crawl, with a paragraph long enough to be kept by the extractor as the main text of the page.</p></article></body></html>")
}

/// A response record for page `n`; `length` replaces its Content-Length value.
fn record(n: usize, length: Option<&str>) -> Vec<u8> {
    let http = format!(
        "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\n\r\n{}",
        page(n)
    );
    let len = http.len().to_string();
    format!(
        "WARC/1.0\r\nWARC-Type: response\r\nWARC-Record-ID: <urn:uuid:0000000{n}-0000-0000-0000-000000000000>\r\nWARC-Date: 2024-01-01T00:00:00Z\r\nWARC-Target-URI: http://w.example/{n}\r\nContent-Type: application/http; msgtype=response\r\nContent-Length: {}\r\n\r\n{http}\r\n\r\n",
        length.unwrap_or(&len)
    )
    .into_bytes()
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    e.write_all(bytes).unwrap();
    e.finish().unwrap()
}

/// Extract `bytes` saved as `name`: the page numbers read, and the error messages.
fn extract(name: &str, bytes: &[u8]) -> (Vec<usize>, Vec<String>, Option<i32>) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(name);
    std::fs::write(&path, bytes).unwrap();
    let out = run(&["extract", path.to_str().unwrap()]);
    let mut pages = Vec::new();
    let mut errors = Vec::new();
    for r in stdout_jsonl(&out) {
        if let Some(e) = r["error"].as_str() {
            errors.push(e.to_string());
        } else {
            let text = r["text"].as_str().unwrap();
            let n = text
                .split("page number ")
                .nth(1)
                .unwrap()
                .split(' ')
                .next()
                .unwrap();
            pages.push(n.parse().unwrap());
        }
    }
    (pages, errors, out.status.code())
}

#[test]
fn a_bad_record_in_a_plain_warc_costs_that_record_only() {
    let bad_lengths = [
        ("9999", "too large"),
        ("40", "too small"),
        ("abc", "not a number"),
    ];
    for (length, what) in bad_lengths {
        let bytes = [
            record(1, None),
            record(2, Some(length)),
            record(3, None),
            record(4, None),
        ]
        .concat();
        let (pages, errors, code) = extract("c.warc", &bytes);
        assert_eq!(code, Some(1), "{what}: {errors:?}");
        // Too large swallows record 3's start: its record is found again after the span.
        assert!(
            pages.contains(&1) && pages.contains(&4),
            "Content-Length {what}: {pages:?} {errors:?}"
        );
        assert!(
            pages.contains(&3),
            "Content-Length {what}: {pages:?} {errors:?}"
        );
        assert_eq!(errors.len(), 1, "Content-Length {what}: {errors:?}");
        let first = record(1, None).len();
        assert!(
            errors[0].contains(&format!("offset {first}")),
            "{what}: {errors:?}"
        );
    }
    // Garbage between two records.
    let bytes = [
        record(1, None),
        b"garbage \x00\x01 bytes\r\n\r\n".to_vec(),
        record(2, None),
    ]
    .concat();
    let (pages, errors, code) = extract("g.warc", &bytes);
    assert_eq!(
        (pages, errors.len(), code),
        (vec![1, 2], 1, Some(1)),
        "{errors:?}"
    );
}

#[test]
fn a_bad_member_of_a_warc_gz_costs_that_record_only() {
    let members = |second: Vec<u8>| -> Vec<u8> {
        [
            gzip(&record(1, None)),
            second,
            gzip(&record(3, None)),
            gzip(&record(4, None)),
        ]
        .concat()
    };
    let mut corrupt = gzip(&record(2, None));
    let mid = corrupt.len() / 2;
    for b in &mut corrupt[mid..mid + 8] {
        *b ^= 0xa5;
    }
    let cases = [
        ("corrupt member", members(corrupt)),
        (
            "Content-Length too large",
            members(gzip(&record(2, Some("9999")))),
        ),
        (
            "Content-Length too small",
            members(gzip(&record(2, Some("40")))),
        ),
        (
            "Content-Length not a number",
            members(gzip(&record(2, Some("x1")))),
        ),
        (
            "garbage between members",
            members(b"not gzip at all, \x1f\x8b but no member".to_vec()),
        ),
    ];
    let first = gzip(&record(1, None)).len();
    for (what, bytes) in cases {
        let (pages, errors, code) = extract("c.warc.gz", &bytes);
        assert_eq!(pages, [1, 3, 4], "{what}: {errors:?}");
        assert_eq!(errors.len(), 1, "{what}: {errors:?}");
        assert!(
            errors[0].contains(&format!("offset {first}")),
            "{what}: {errors:?}"
        );
        assert_eq!(code, Some(1), "{what}");
    }
}
