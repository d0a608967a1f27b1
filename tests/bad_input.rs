//! Bad input never crashes a run or loses the other pages' results.

mod common;
use common::*;

#[test]
fn malformed_fixtures_give_errors_or_results_and_the_rest_completes() {
    let dir = tempfile::tempdir().unwrap();
    for entry in std::fs::read_dir(fixtures().join("bad")).unwrap() {
        let p = entry.unwrap().path();
        std::fs::copy(&p, dir.path().join(p.file_name().unwrap())).unwrap();
    }
    // A good page beside them must come out whole.
    std::fs::copy(
        fixtures().join("sites/gardenblog.example/posts/pruning-apple-trees.html"),
        dir.path().join("good.html"),
    )
    .unwrap();
    // An unreadable entry: a dangling symlink.
    std::os::unix::fs::symlink("/nonexistent/target.html", dir.path().join("dangling.html"))
        .unwrap();

    let out = run(&["extract", dir.path().to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1), "some pages failed → exit 1");
    let stderr = String::from_utf8_lossy(&out.stderr);
    let records = stdout_jsonl(&out);
    let find = |name: &str| {
        records
            .iter()
            .find(|r| r["path"].as_str().unwrap().ends_with(name))
            .unwrap_or_else(|| panic!("no record for {name}: {records:?}"))
    };
    for (name, kind) in [
        ("empty.html", "empty"),
        ("garbage.html", "binary"),
        ("truncated.html.gz", "decompress"),
    ] {
        let r = find(name);
        assert_eq!(r["error_kind"], kind, "{r}");
        assert!(stderr.contains(name), "stderr names {name}: {stderr}");
    }
    assert!(records
        .iter()
        .any(|r| r["path"].as_str().unwrap().contains("dangling") && r["error"].is_string()));
    for name in ["only-scripts.html", "no-body.html"] {
        let r = find(name);
        assert_eq!(r["text"], "", "{r}");
        assert!(r["empty_reason"].is_string(), "{r}");
    }
    let unclosed = find("unclosed.html")["text"].as_str().unwrap().to_string();
    assert!(unclosed.contains(
        "The lighthouse on Gull Point was switched to automatic operation in the spring of 1987"
    ));
    assert!(!unclosed.contains("Become a member"));
    let good = find("good.html")["text"].as_str().unwrap().to_string();
    assert!(good.len() > 1000);
}

#[test]
fn huge_and_deeply_nested_pages_are_handled() {
    let dir = tempfile::tempdir().unwrap();
    let deep = 200_000;
    let html = format!(
        "<html><body>{}<p>Text at the bottom of a very deep tree of elements.</p>{}</body></html>",
        "<div>".repeat(deep),
        "</div>".repeat(deep)
    );
    std::fs::write(dir.path().join("deep.html"), html).unwrap();
    let para = "<p>This is one of many paragraphs in a very large page that keeps on going with words.</p>\n";
    let big = format!(
        "<html><body>{}</body></html>",
        para.repeat(50 * 1024 * 1024 / para.len())
    );
    std::fs::write(dir.path().join("big.html"), big).unwrap();
    let out = run_ok(&["extract", dir.path().to_str().unwrap()]);
    let records = stdout_jsonl(&out);
    assert_eq!(records.len(), 2);
    let deep = records
        .iter()
        .find(|r| r["path"].as_str().unwrap().ends_with("deep.html"))
        .unwrap();
    assert!(deep["text"]
        .as_str()
        .unwrap()
        .contains("Text at the bottom"));
    let big = records
        .iter()
        .find(|r| r["path"].as_str().unwrap().ends_with("big.html"))
        .unwrap();
    assert!(big["text"].as_str().unwrap().len() > 1_000_000);
}

#[test]
fn configuration_errors_exit_2_and_name_the_place() {
    let dir = tempfile::tempdir().unwrap();
    let manifest = dir.path().join("m.jsonl");
    std::fs::write(
        &manifest,
        "{\"path\": \"a.html\", \"url\": \"http://x/a.html\"}\nnot json\n",
    )
    .unwrap();
    // A bad manifest line costs its record only (exit 1), named by file and line.
    let out = run(&["extract", "--manifest", manifest.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("m.jsonl:2"), "{stderr}");
    let records = stdout_jsonl(&out);
    assert!(records.iter().any(
        |r| r["error_kind"] == "manifest" && r["path"].as_str().unwrap().ends_with("m.jsonl:2")
    ));

    let config = dir.path().join("c.yaml");
    std::fs::write(&config, "dedup:\n  threshold: [1\n").unwrap();
    let out = run(&[
        "--config",
        config.to_str().unwrap(),
        "extract",
        dir.path().to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("c.yaml"));

    let out = run(&["dedup", "--threshold", "1.5", manifest.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let out = run(&["extract"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn missing_input_path_is_reported_and_others_processed() {
    let good = fixtures().join("sites/gardenblog.example");
    let out = run(&["extract", "/nonexistent/dir", good.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let records = stdout_jsonl(&out);
    assert_eq!(records.iter().filter(|r| r["error"].is_string()).count(), 1);
    assert_eq!(records.iter().filter(|r| r["text"].is_string()).count(), 3);
}
