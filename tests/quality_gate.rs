//! The extraction quality gate (like trafilatura's eval gate): a pinned set of pages
//! (`fixtures/gate/`, one per WCXB page type plus written Russian pages) with "must
//! contain" / "must not contain" snippets. A change may not lower the number of passed
//! checks below the floor; raise the floor when a change passes more. The full corpora
//! runs (`../shared/eval`) are benchmarks, not tests.
//!
//! Also here: pathological pages (giant `<pre>`, megabytes of nested tables, thousands
//! of links, frames only) finish within a time bound with a result or an empty-text
//! reason.

mod common;

use std::time::{Duration, Instant};

use common::*;

/// Checks passed by the current heuristic (of 107). Known misses: two `must_not`
/// snippets of the Steam Deck product page (a teaser line and a link sit in the
/// product container), the intro line of the seriouseats listing (2974), and the opening
/// line of the XenForo thread (0534), whose snippet has a straight apostrophe where the
/// page has a curly one. Without the heuristic's overlay and thread-post rules the
/// forum and overlay pages (2974, 0574, 0534) pass 12 of their 26 checks.
const GATE_FLOOR: usize = 103;

fn norm(s: &str) -> String {
    s.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

#[test]
fn quality_gate_floor_holds() {
    let gate = fixtures().join("gate");
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("gate.jsonl");
    run_ok(&[
        "extract",
        "--no-infholder",
        gate.join("pages").to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ]);
    let records = jsonl(&out);
    let text_of = |file: &str| -> String {
        let name = std::path::Path::new(file)
            .file_name()
            .unwrap()
            .to_str()
            .unwrap();
        records
            .iter()
            .find(|r| r["path"].as_str().unwrap_or("").ends_with(name))
            .and_then(|r| r["text"].as_str())
            .map(norm)
            .unwrap_or_default()
    };
    let mut passed = 0;
    let mut total = 0;
    let mut report = String::new();
    for e in jsonl(&gate.join("expect.jsonl")) {
        let file = e["file"].as_str().unwrap();
        let text = text_of(file);
        assert!(!text.is_empty(), "{file}: empty text");
        for s in e["must"].as_array().unwrap() {
            total += 1;
            if text.contains(&norm(s.as_str().unwrap())) {
                passed += 1;
            } else {
                report.push_str(&format!("{file}: missing {s}\n"));
            }
        }
        for s in e["must_not"].as_array().unwrap() {
            total += 1;
            if !text.contains(&norm(s.as_str().unwrap())) {
                passed += 1;
            } else {
                report.push_str(&format!("{file}: leaked {s}\n"));
            }
        }
    }
    eprintln!("quality gate: {passed}/{total} checks\n{report}");
    assert!(
        passed >= GATE_FLOOR,
        "quality gate: {passed}/{total} checks passed, floor {GATE_FLOOR}\n{report}"
    );
}

#[test]
fn comments_are_kept_only_when_asked() {
    let page = fixtures().join("gate/pages/ru-article.html");
    let page = page.to_str().unwrap();
    let default = stdout_jsonl(&run(&["extract", "--no-infholder", page]));
    let with = stdout_jsonl(&run(&[
        "extract",
        "--no-infholder",
        "--include-comments",
        page,
    ]));
    let text = |r: &[serde_json::Value]| r[0]["text"].as_str().unwrap_or("").to_string();
    assert!(!text(&default).contains("насосы работают с утра"));
    assert!(text(&with).contains("Уровень воды в Волге"));
    assert!(text(&with).contains("насосы работают с утра"));
}

/// Runs `extract` on generated pages; each must finish within the bound.
#[test]
fn pathological_pages_are_bounded() {
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, body: String| {
        std::fs::write(dir.path().join(name), body).unwrap();
    };
    // One giant <pre> (8 MB).
    write(
        "pre.html",
        format!(
            "<html><body><pre>{}</pre></body></html>",
            "let x = compute(a, b); // a line of code\n".repeat(200_000)
        ),
    );
    // About 10 MB of nested tables.
    let mut tables = String::from("<html><body>");
    for i in 0..60_000 {
        tables.push_str("<table><tr><td>cell text here ");
        tables.push_str(&i.to_string());
        tables.push_str("</td><td>");
        if i % 50 == 49 {
            tables.push_str(&"</td></tr></table>".repeat(50));
        }
    }
    tables.push_str("</body></html>");
    write("tables.html", tables);
    // Thousands of links and nothing else.
    write(
        "links.html",
        format!(
            "<html><body><ul>{}</ul></body></html>",
            (0..20_000)
                .map(|i| format!("<li><a href=/p{i}>Link number {i}</a></li>"))
                .collect::<String>()
        ),
    );
    // Only frames.
    write(
        "frames.html",
        "<html><frameset><frame src=a.html><frame src=b.html></frameset></html>".into(),
    );
    let start = Instant::now();
    let out = run(&["--threads", "1", "extract", dir.path().to_str().unwrap()]);
    let took = start.elapsed();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let records = stdout_jsonl(&out);
    assert_eq!(records.len(), 4);
    for r in &records {
        let text = r["text"].as_str().unwrap_or("");
        assert!(
            !text.is_empty() || r["empty_reason"].as_str().is_some(),
            "{r}: neither text nor a reason"
        );
    }
    let by = |name: &str| {
        records
            .iter()
            .find(|r| r["path"].as_str().unwrap().ends_with(name))
            .unwrap()
            .clone()
    };
    assert!(by("pre.html")["text"]
        .as_str()
        .unwrap()
        .contains("compute(a, b)"));
    assert!(by("frames.html")["empty_reason"]
        .as_str()
        .unwrap()
        .contains("frames"));
    assert!(took < Duration::from_secs(60), "took {took:?}");
}
