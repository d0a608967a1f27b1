//! `thresher run` and `thresher dedup` end to end: clusters, main documents, outputs.

mod common;
use common::*;

fn run_sites_ok(out_dir: &std::path::Path) {
    let sites = fixtures().join("sites");
    let out = run_fixture_sites(out_dir, &[sites.to_str().unwrap()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn run_finds_the_syndicated_and_print_copies_and_their_originals() {
    let dir = tempfile::tempdir().unwrap();
    run_sites_ok(dir.path());
    let expected: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(fixtures().join("sites/expect_clusters.json")).unwrap(),
    )
    .unwrap();
    let clusters = jsonl(&dir.path().join("clusters.jsonl"));
    let got = cluster_set(&clusters);
    let want = cluster_set(expected["clusters"].as_array().unwrap());
    assert_eq!(got, want);
    for c in &clusters {
        // The main order starts with the publication date, then the fetch time.
        let reason = c["reason"].as_str().unwrap();
        assert!(
            reason.starts_with("earliest published") || reason.contains("earliest fetched_at"),
            "{c}"
        );
        let sims = c["similarity"].as_object().unwrap();
        assert_eq!(sims.len(), c["members"].as_array().unwrap().len());
        assert_eq!(sims[c["main"].as_str().unwrap()], 1.0);
    }

    let pages = jsonl(&dir.path().join("pages.jsonl"));
    assert_eq!(pages.len(), 16);
    let hard: Vec<&str> = expected["hard_negative"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    for p in &pages {
        let path = p["path"].as_str().unwrap();
        if hard.contains(&path) {
            assert!(p["cluster"].is_null(), "hard negative clustered: {p}");
        }
        match p["main"].as_str() {
            Some(main) => assert_eq!(p["is_main"], main == path),
            None => assert_eq!(p["is_main"], true),
        }
    }
    let print = pages
        .iter()
        .find(|p| p["path"] == "technews.example/news/passkeys-explained.print.html")
        .unwrap();
    assert_eq!(print["is_main"], false);
    assert_eq!(
        print["main"],
        "technews.example/news/passkeys-explained.html"
    );

    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("summary.json")).unwrap())
            .unwrap();
    assert_eq!(summary["pages"], 16);
    assert_eq!(summary["failed"], 0);
    // The default cross-page method (style-inbreeding) cleans every page of a group of
    // three or more; the print copy has another layout, one page is alone in its site.
    assert_eq!(summary["methods"]["heuristic"], 2);
    assert_eq!(summary["methods"]["inbreeding+heuristic"], 14);
    let inbreeding = &summary["extractors"]["inbreeding"];
    assert_eq!(inbreeding["pages_cleaned"], 14);
    assert_eq!(inbreeding["fallback_layout_mismatch"], 1);
    assert_eq!(inbreeding["fallback_small_group"], 1);
    assert_eq!(summary["dedup"]["clusters"], 3);
    assert!(summary["timings_s"]["total"].as_f64().is_some());
}

#[test]
fn duplicates_drop_writes_only_main_documents() {
    let dir = tempfile::tempdir().unwrap();
    let out = run_fixture_sites(dir.path(), &["--duplicates", "drop"]);
    assert!(out.status.success());
    let pages = jsonl(&dir.path().join("pages.jsonl"));
    assert_eq!(pages.len(), 13);
    assert!(pages.iter().all(|p| p["is_main"] == true));
}

#[test]
fn dedup_clusters_do_not_depend_on_input_order() {
    let dir = tempfile::tempdir().unwrap();
    run_sites_ok(dir.path());
    let pages = std::fs::read_to_string(dir.path().join("pages.jsonl")).unwrap();
    let mut lines: Vec<&str> = pages.lines().collect();
    let forward = dir.path().join("forward.jsonl");
    std::fs::write(&forward, lines.join("\n")).unwrap();
    // A fixed shuffle: reverse, then interleave halves.
    lines.reverse();
    let (a, b) = lines.split_at(lines.len() / 2);
    let shuffled: Vec<&str> = b
        .iter()
        .zip(a.iter())
        .flat_map(|(x, y)| [*x, *y])
        .chain(b.iter().skip(a.len()).copied())
        .collect();
    assert_eq!(shuffled.len(), lines.len());
    let backward = dir.path().join("shuffled.jsonl");
    std::fs::write(&backward, shuffled.join("\n")).unwrap();
    let one = run(&["dedup", forward.to_str().unwrap()]);
    let two = run(&["dedup", backward.to_str().unwrap()]);
    assert!(one.status.success() && two.status.success());
    assert_eq!(stdout_jsonl(&one).len(), 3);
    assert_eq!(
        one.stdout, two.stdout,
        "same clusters, same ids, same order"
    );
}

#[test]
fn dedup_reads_plain_documents_with_numeric_ids_and_explains() {
    let dir = tempfile::tempdir().unwrap();
    let docs = dir.path().join("docs.jsonl");
    let base = "the committee met on tuesday to discuss the new budget for schools roads and parks \
                and after a long debate it approved a plan that moves money from road repair to school buildings";
    let lines = [
        serde_json::json!({"id": 1, "text": base, "fetched_at": "2025-01-02T00:00:00Z"}),
        serde_json::json!({"id": 2, "text": base.replace("tuesday", "wednesday"), "fetched_at": "2025-01-01T00:00:00Z"}),
        serde_json::json!({"id": 3, "text": "a completely different text about cooking pasta with garlic oil and fresh basil leaves from the garden"}),
        serde_json::json!({"path": "x", "error": "failed"}),
    ];
    write_jsonl(&docs, &lines);
    let out = run_ok(&[
        "dedup",
        "--threshold",
        "0.6",
        "--explain",
        docs.to_str().unwrap(),
    ]);
    let clusters = stdout_jsonl(&out);
    assert_eq!(clusters.len(), 1);
    assert_eq!(clusters[0]["main"], "2");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("bands"), "{stderr}");
    assert!(stderr.contains("J = 0.80"), "{stderr}");
}
