//! `thresher dedup` methods, `eval dedup`, and `run --duplicates keep`.

mod common;
use common::*;

fn write_docs(dir: &std::path::Path) -> std::path::PathBuf {
    let base = "the committee met on tuesday to discuss the new budget for schools roads and parks. \
                after a long debate it approved a plan that moves money from road repair to school buildings. \
                the mayor said the plan was fair and that the city would review it again next spring";
    let docs = dir.join("docs.jsonl");
    let lines = [
        serde_json::json!({"id": "a", "text": base}),
        serde_json::json!({"id": "b", "text": base.replace("tuesday", "wednesday")}),
        serde_json::json!({"id": "c", "text": "a completely different text about cooking pasta with garlic oil and fresh basil leaves from the garden, served with bread and a glass of wine on a warm summer evening"}),
    ];
    write_jsonl(&docs, &lines);
    docs
}

#[test]
fn every_method_runs_and_eval_scores_against_pairs() {
    let dir = tempfile::tempdir().unwrap();
    let docs = write_docs(dir.path());
    for method in [
        "minhash",
        "md5",
        "tf",
        "tfidf",
        "3+5",
        "decomposition",
        "A6",
    ] {
        let out = run(&[
            "dedup",
            "--threshold",
            "0.6",
            "--method",
            method,
            docs.to_str().unwrap(),
        ]);
        assert!(
            out.status.success(),
            "{method}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        for c in stdout_jsonl(&out) {
            let members = c["members"].as_array().unwrap();
            assert!(!members.iter().any(|m| m == "c"), "{method}: {c}");
        }
    }
    let out = run(&["dedup", "--threshold", "0.6", docs.to_str().unwrap()]);
    let clusters = dir.path().join("clusters.jsonl");
    std::fs::write(&clusters, &out.stdout).unwrap();
    let truth = dir.path().join("truth.tsv");
    std::fs::write(&truth, "a\tb\t0.7\na\tc\t0.9\n").unwrap();
    let out = run_ok(&[
        "eval",
        "dedup",
        "--truth",
        truth.to_str().unwrap(),
        clusters.to_str().unwrap(),
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("precision 1.0000  recall 0.5000"), "{text}");
    assert!(text.contains("only in truth (missed): 1\n  a\tc"), "{text}");
    let bad = run(&["dedup", "--bands", "6by14", docs.to_str().unwrap()]);
    assert_eq!(bad.status.code(), Some(2));
}

#[test]
fn duplicates_keep_writes_pages_without_dedup_fields() {
    let dir = tempfile::tempdir().unwrap();
    let out = run_fixture_sites(dir.path(), &["--duplicates", "keep"]);
    assert!(out.status.success());
    let pages = jsonl(&dir.path().join("pages.jsonl"));
    assert_eq!(pages.len(), 16);
    assert!(pages
        .iter()
        .all(|p| p.get("is_main").is_none() && p.get("cluster").is_none()));
    assert_eq!(jsonl(&dir.path().join("clusters.jsonl")).len(), 3);
}
