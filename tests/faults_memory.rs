//! The memory bound per page holds for tag-dense and attribute-dense pages (issue 35,
//! item 6): a page of `<span>w</span>` costs its tags, not its bytes (about 560 bytes a
//! tag in work), so the opening tags a page may have are bounded by `max_page_bytes` / 64;
//! past them the rest is cut, and the record says so. An attribute costs about 44 bytes
//! whatever its length, so a page may have `max_page_bytes` / 16 of them (and a tag
//! 1,000); those past are dropped, and the record says how many. Measured as the peak RSS
//! of a child process.

mod common;
use common::*;

use std::path::Path;
use std::process::Stdio;

/// Peak resident set (VmHWM, KB) of `thresher ARGS`, polled from /proc while it runs,
/// and its output.
fn peak_rss_kb(args: &[&str]) -> (u64, std::process::Output) {
    let mut child = bin()
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let status_file = format!("/proc/{}/status", child.id());
    let mut peak = 0u64;
    // Output is read on threads, so the child never blocks on a full pipe.
    let mut out_pipe = child.stdout.take().unwrap();
    let mut err_pipe = child.stderr.take().unwrap();
    let out_reader = std::thread::spawn(move || {
        let mut v = Vec::new();
        std::io::Read::read_to_end(&mut out_pipe, &mut v).unwrap();
        v
    });
    let err_reader = std::thread::spawn(move || {
        let mut v = Vec::new();
        std::io::Read::read_to_end(&mut err_pipe, &mut v).unwrap();
        v
    });
    let status = loop {
        if let Ok(text) = std::fs::read_to_string(&status_file) {
            if let Some(kb) = text
                .lines()
                .find_map(|l| l.strip_prefix("VmHWM:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
            {
                peak = peak.max(kb);
            }
        }
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    };
    let output = std::process::Output {
        status,
        stdout: out_reader.join().unwrap(),
        stderr: err_reader.join().unwrap(),
    };
    (peak, output)
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// `thresher --threads 1 extract` of `page` (written as `name`) under a cap of `max`
/// bytes: checks that it succeeds within docs/source.md's bound for markup-dense pages,
/// 14 × max_page_bytes in work plus the binary's own ~20 MB, and returns its records
/// and stderr.
fn extract_under_bound(page: &str, max: usize, name: &str) -> (Vec<serde_json::Value>, String) {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join(name);
    std::fs::write(&file, page).unwrap();
    let config = dir.path().join("cap.yaml");
    std::fs::write(&config, format!("max_page_bytes: {max}\n")).unwrap();
    let (peak_kb, out) = peak_rss_kb(&[
        "--config",
        s(&config),
        "--threads",
        "1",
        "extract",
        s(&file),
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "{stderr}");
    let bound_kb = (14 * max as u64 + (20 << 20)) / 1024;
    assert!(
        peak_kb <= bound_kb,
        "peak RSS {peak_kb} KB over the bound of {bound_kb} KB"
    );
    (stdout_jsonl(&out), stderr)
}

#[test]
fn a_tag_dense_page_stays_under_its_memory_bound() {
    // 8 MiB of `<span>w</span>` (600,000 spans) under a cap of 8 MiB: a budget of 131,072
    // opening tags. Before the budget it peaked at 309 MB (37 × the page).
    let max = 8 << 20;
    let spans = (max - 400) / 14;
    let page = format!(
        "<html><body><article><p>The first paragraph of a page of spans, long enough to be kept.</p>{}</article></body></html>",
        "<span>w</span>".repeat(spans)
    );
    assert!(page.len() <= max);
    let (records, stderr) = extract_under_bound(&page, max, "spans.html");
    assert_eq!(records[0]["tags_cut_at"], max / 64, "{stderr}");
    assert!(stderr.contains("opening tags"), "{stderr}");
}

#[test]
fn an_attribute_dense_page_stays_under_its_memory_bound() {
    // 8 MiB of `<i aa ab … bx>w</i>` (50 two-letter attributes a tag, 2.6 million in
    // all) under a cap of 8 MiB: a budget of 524,288 attributes.
    let max = 8 << 20;
    let names: Vec<String> = (0..50)
        .map(|i| format!("{}{}", (b'a' + i / 26) as char, (b'a' + i % 26) as char))
        .collect();
    let tag = format!("<i {}>w</i>", names.join(" "));
    let head = "<html><body><article><p>The first paragraph of a page of attributes, long enough to be kept.</p>";
    let page = format!(
        "{head}{}</article></body></html>",
        tag.repeat((max - head.len() - 100) / tag.len())
    );
    assert!(page.len() <= max);
    let (records, stderr) = extract_under_bound(&page, max, "attributes.html");
    let attributes = page.matches("<i ").count() * 50;
    assert_eq!(
        records[0]["attributes_dropped"],
        attributes - max / 16,
        "{stderr}"
    );
    assert!(records[0]["text"]
        .as_str()
        .unwrap()
        .contains("first paragraph"));
    assert!(stderr.contains("attributes dropped"), "{stderr}");
}
