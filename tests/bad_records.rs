//! Bad records cost one record, never the run (issue 14, items 1–3 and 7): JSONL lines of
//! `dedup`, manifest lines, WARC records; errors.jsonl and `--max-errors`; duplicate ids;
//! pages found by content; `--help` defaults and `--version`.

mod common;
use common::*;

use std::path::Path;

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

const TEXT: &str = "the quick brown fox jumps over the lazy dog while the cat watches from the warm windowsill of the old farmhouse";

#[test]
fn dedup_bad_lines_cost_their_record_and_are_listed_in_errors_jsonl() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("docs.jsonl");
    let mut bytes = Vec::new();
    bytes.extend(format!("{{\"id\": \"a\", \"text\": \"{TEXT}\"}}\n").as_bytes());
    bytes.extend(b"{\"id\": \"broken\", \"text\": \"no closing quote}\n"); // line 2: json
    bytes.extend(b"{\"id\": \"no-text\"}\n"); // line 3: no_text
    bytes.extend(b"{\"text\": \"no key at all\"}\n"); // line 4: no_key
    bytes.extend(b"{\"id\": \"latin1\", \"text\": \"caf\xe9\"}\n"); // line 5: invalid UTF-8
    bytes.extend(b"{\"id\": \"a\", \"text\": \"a different text\"}\n"); // line 6: duplicate id
    bytes.extend(format!("{{\"id\": \"b\", \"text\": \"{TEXT}\"}}\n").as_bytes());
    std::fs::write(&input, bytes).unwrap();
    let out_file = dir.path().join("out/clusters.jsonl");
    let out = run(&[
        "dedup",
        input.to_str().unwrap(),
        "-o",
        out_file.to_str().unwrap(),
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    // The good records were clustered: a and b are copies (the second `a` was dropped,
    // else it would be the cluster's second member instead of b).
    let clusters = jsonl(&out_file);
    assert_eq!(clusters.len(), 1, "{clusters:?}");
    assert_eq!(clusters[0]["members"], serde_json::json!(["a", "b"]));
    // One error per bad line, file:line and kind, on stderr and in errors.jsonl.
    let got = error_kinds(&dir.path().join("out/clusters.errors.jsonl"), '/');
    let want = owned_pairs(&[
        ("docs.jsonl:2", "json"),
        ("docs.jsonl:3", "no_text"),
        ("docs.jsonl:4", "no_key"),
        ("docs.jsonl:5", "json"),
    ]);
    assert_eq!(got, want);
    for (place, _) in &want {
        assert!(
            stderr.contains(place.as_str()),
            "stderr names {place}: {stderr}"
        );
    }
    assert!(
        stderr.contains("docs.jsonl:6: duplicate id \"a\", first at")
            && stderr.contains("docs.jsonl:1; keeping the first"),
        "{stderr}"
    );

    // A clean input: exit 0 and an empty errors.jsonl (not the old one).
    let clean = dir.path().join("clean.jsonl");
    write(
        &clean,
        &format!(
            "{{\"id\": \"x\", \"text\": \"{TEXT}\"}}\n{{\"id\": \"y\", \"text\": \"{TEXT}\"}}\n"
        ),
    );
    let out = run(&[
        "dedup",
        clean.to_str().unwrap(),
        "-o",
        out_file.to_str().unwrap(),
    ]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("out/clusters.errors.jsonl")).unwrap(),
        ""
    );

    // --max-errors 2: stops at the second bad line; the old clusters file stays.
    let before = std::fs::read_to_string(&out_file).unwrap();
    let errors_file = dir.path().join("stopped.errors.jsonl");
    let out = run(&[
        "dedup",
        input.to_str().unwrap(),
        "-o",
        out_file.to_str().unwrap(),
        "--max-errors",
        "2",
        "--errors",
        errors_file.to_str().unwrap(),
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("--max-errors 2"), "{stderr}");
    assert_eq!(jsonl(&errors_file).len(), 2);
    assert_eq!(std::fs::read_to_string(&out_file).unwrap(), before);
}

#[test]
fn a_truncated_gzip_jsonl_keeps_its_readable_lines_and_the_other_files() {
    use std::io::Write;
    let dir = tempfile::tempdir().unwrap();
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    for i in 0..2000 {
        writeln!(gz, "{{\"id\": \"g{i}\", \"text\": \"{TEXT} {i}\"}}").unwrap();
    }
    let full = gz.finish().unwrap();
    let cut = dir.path().join("cut.jsonl.gz");
    std::fs::write(&cut, &full[..full.len() / 2]).unwrap();
    let other = dir.path().join("other.jsonl");
    write(
        &other,
        &format!("{{\"id\": \"o\", \"text\": \"{TEXT}\"}}\n"),
    );
    let missing = dir.path().join("missing.jsonl");
    let out_file = dir.path().join("c.jsonl");
    let out = run(&[
        "dedup",
        cut.to_str().unwrap(),
        missing.to_str().unwrap(),
        other.to_str().unwrap(),
        "-o",
        out_file.to_str().unwrap(),
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    let errors = jsonl(&dir.path().join("c.errors.jsonl"));
    let kinds: Vec<&str> = errors
        .iter()
        .map(|e| e["error_kind"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["decompress", "read"], "{errors:?}");
    assert!(errors[0]["path"]
        .as_str()
        .unwrap()
        .contains("cut.jsonl.gz:"));
    // The readable half of the gzip and the other file were clustered: `o` and the
    // documents of the first half that share its text's shingles.
    let clusters = jsonl(&out_file);
    assert!(
        clusters
            .iter()
            .any(|c| c["members"].as_array().unwrap().iter().any(|m| m == "o")),
        "{clusters:?}"
    );
}

#[test]
fn run_counts_errors_by_kind_in_summary_and_writes_errors_jsonl() {
    let dir = tempfile::tempdir().unwrap();
    let pages = dir.path().join("pages");
    for name in ["empty.html", "garbage.html", "truncated.html.gz"] {
        std::fs::create_dir_all(&pages).unwrap();
        std::fs::copy(fixtures().join("bad").join(name), pages.join(name)).unwrap();
    }
    std::fs::copy(
        fixtures().join("sites/gardenblog.example/posts/pruning-apple-trees.html"),
        pages.join("good.html"),
    )
    .unwrap();
    let manifest = dir.path().join("m.jsonl");
    write(
        &manifest,
        "{\"path\": \"pages/good.html\", \"url\": \"http://g.example/good.html\"}\n{\"path\": 5}\n",
    );
    let out_dir = dir.path().join("out");
    let out = run(&[
        "run",
        "--manifest",
        manifest.to_str().unwrap(),
        "--out",
        out_dir.to_str().unwrap(),
        pages.to_str().unwrap(),
    ]);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out_dir.join("summary.json")).unwrap())
            .unwrap();
    assert_eq!(
        summary["errors"],
        serde_json::json!({"binary": 1, "decompress": 1, "empty": 1, "manifest": 1}),
        "{summary}"
    );
    assert_eq!(summary["extracted"], 1);
    let errors = jsonl(&out_dir.join("errors.jsonl"));
    assert_eq!(errors.len(), 4);
    assert!(errors
        .iter()
        .any(|e| e["path"].as_str().unwrap().ends_with("m.jsonl:2")));
    let pages_out = jsonl(&out_dir.join("pages.jsonl"));
    let good = pages_out.iter().find(|p| p["text"].is_string()).unwrap();
    assert_eq!(good["url"], "http://g.example/good.html");
}

#[test]
fn a_bad_warc_record_is_named_and_the_next_records_are_read() {
    let dir = tempfile::tempdir().unwrap();
    let page = |n: usize| {
        format!("<html><body><article><p>This is page number {n} of the crawl, with a paragraph long enough to be kept by the extractor as the main text of the page.</p></article></body></html>")
    };
    let record = |n: usize, date: bool| {
        let http = format!(
            "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\n\r\n{}",
            page(n)
        );
        format!(
            "WARC/1.0\r\nWARC-Type: response\r\nWARC-Record-ID: <urn:uuid:0000000{n}-0000-0000-0000-000000000000>\r\n{}WARC-Target-URI: http://w.example/{n}\r\nContent-Type: application/http; msgtype=response\r\nContent-Length: {}\r\n\r\n{http}\r\n\r\n",
            if date { "WARC-Date: 2024-01-01T00:00:00Z\r\n" } else { "" },
            http.len()
        )
    };
    // Saved without an extension: found by content.
    let warc = dir.path().join("crawl/segment-0001");
    let first = record(1, true);
    write(
        &warc,
        &(first.clone() + &record(2, false) + &record(3, true)),
    );
    let out = run(&["extract", dir.path().join("crawl").to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    let records = stdout_jsonl(&out);
    let texts: Vec<&str> = records.iter().filter_map(|r| r["text"].as_str()).collect();
    assert!(
        texts.iter().any(|t| t.contains("page number 1")),
        "{records:?}"
    );
    assert!(
        texts.iter().any(|t| t.contains("page number 3")),
        "{records:?}"
    );
    let bad = records.iter().find(|r| r["error_kind"] == "warc").unwrap();
    assert!(
        bad["path"].as_str().unwrap().ends_with("segment-0001#2"),
        "{bad}"
    );
    // The message names where the record starts in the file, and what is wrong with it.
    let message = bad["error"].as_str().unwrap();
    assert!(
        message.contains(&format!("byte offset {}", first.len())) && message.contains("WARC-Date"),
        "{bad}"
    );
    assert_eq!(bad["url"], "http://w.example/2");
    assert!(stderr.contains("segment-0001#2"), "{stderr}");
}

#[test]
fn a_huge_warc_record_is_cut_at_the_page_limit_and_the_next_record_is_read() {
    // A 40 MB response: read past without holding it (the block is kept up to
    // --max-page-bytes plus the HTTP head), its page cut at the limit, the next page read.
    let dir = tempfile::tempdir().unwrap();
    let record = |n: usize, body: &str| {
        let http = format!("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n{body}");
        format!(
            "WARC/1.0\r\nWARC-Type: response\r\nWARC-Date: 2024-01-01T00:00:00Z\r\nWARC-Target-URI: http://h.example/{n}\r\nContent-Length: {}\r\n\r\n{http}\r\n\r\n",
            http.len()
        )
    };
    let para = "<p>A paragraph of the huge page, repeated until the page is far larger than the limit.</p>\n";
    let huge = format!(
        "<html><body>{}</body></html>",
        para.repeat(40 << 20 / para.len())
    );
    let small = "<html><body><article><p>The small page after the huge one, with a paragraph long enough to be kept as its main text.</p></article></body></html>";
    let warc = dir.path().join("big.warc");
    write(&warc, &(record(1, &huge) + &record(2, small)));
    let config = dir.path().join("limit.yaml");
    write(&config, "max_page_bytes: 1000000\n");
    let out = run(&[
        "--config",
        config.to_str().unwrap(),
        "extract",
        warc.to_str().unwrap(),
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    let records = stdout_jsonl(&out);
    assert_eq!(records.len(), 2, "{stderr}");
    let text = |i: usize| records[i]["text"].as_str().unwrap_or("").to_string();
    assert!(text(0).contains("huge page") && text(0).len() < 1_000_000);
    assert!(text(1).contains("small page after the huge one"));
}

#[test]
fn pages_without_an_extension_are_found_by_content_and_an_empty_path_fails() {
    use std::io::Write;
    let dir = tempfile::tempdir().unwrap();
    let site = dir.path().join("crawl/example.com");
    let article =
        std::fs::read(fixtures().join("sites/gardenblog.example/posts/pruning-apple-trees.html"))
            .unwrap();
    std::fs::create_dir_all(&site).unwrap();
    // No extension; BOM + whitespace + a browser's comment; gzip without `.gz`.
    let mut bom = b"\xef\xbb\xbf\n  <!-- saved from url=(0022)http://example.com/ -->\n".to_vec();
    bom.extend(&article);
    std::fs::write(site.join("12345"), &bom).unwrap();
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(&article).unwrap();
    std::fs::write(site.join("index"), gz.finish().unwrap()).unwrap();
    // Not pages: left alone.
    std::fs::write(site.join("notes"), "just some notes\n").unwrap();
    std::fs::write(site.join("logo.png"), b"\x89PNG\r\n").unwrap();
    let out = run(&["extract", dir.path().join("crawl").to_str().unwrap()]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let records = stdout_jsonl(&out);
    assert_eq!(records.len(), 2, "{records:?}");
    for r in &records {
        assert!(
            r["text"].as_str().unwrap().contains("prune apple trees"),
            "{r}"
        );
        assert!(r["url"]
            .as_str()
            .unwrap()
            .starts_with("http://example.com/"));
    }

    // A directory without any page: said on stderr, exit 1.
    let none = dir.path().join("none");
    write(&none.join("readme.txt"), "hello");
    write(&none.join("data"), "1,2,3");
    let out = run(&["extract", none.to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("no pages") && stderr.contains("none"),
        "{stderr}"
    );
    // The same through `run`, and `dedup` of an empty file.
    let out = run(&[
        "run",
        "--out",
        dir.path().join("out").to_str().unwrap(),
        none.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    let empty = dir.path().join("empty.jsonl");
    write(&empty, "");
    let out = run(&["dedup", empty.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no pages"));
}

#[test]
fn help_shows_defaults_and_version_prints_the_version() {
    let out = run(&["--version"]);
    assert!(out.status.success());
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        format!("thresher {}", env!("CARGO_PKG_VERSION"))
    );
    for (cmd, wanted) in [
        (
            "dedup",
            &["--threshold", "--num-perm", "--normalize", "--max-errors"][..],
        ),
        (
            "run",
            &[
                "--threshold",
                "--duplicates",
                "--cross-page",
                "--group-depth",
                "--delay",
            ][..],
        ),
        (
            "extract",
            &["--cross-page", "--group-depth", "--threads"][..],
        ),
        ("fetch", &["--user-agent", "--concurrency"][..]),
    ] {
        let out = run(&[cmd, "--help"]);
        assert!(out.status.success());
        let help = String::from_utf8_lossy(&out.stdout);
        for flag in wanted {
            // The option's entry runs from its line to the next option's.
            let start = help
                .find(&format!("{flag} "))
                .unwrap_or_else(|| panic!("{cmd} {flag}"));
            let entry = &help[start..];
            let end = entry[2..].find("\n  -").map_or(entry.len(), |e| e + 2);
            assert!(
                entry[..end].contains("[default: "),
                "{cmd} {flag}: {}",
                &entry[..end]
            );
        }
    }
    let help = String::from_utf8_lossy(&run(&["dedup", "--help"]).stdout).to_string();
    assert!(help.contains("[default: 0.7]"), "{help}");
}
