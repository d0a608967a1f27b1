//! Style-inbreeding end to end on `fixtures/inbreeding/`: an invented paper whose five
//! pages share a menu, an "about us" paragraph inside the article column, a footer and a
//! "latest" column whose headlines change; and a two-page blog, a group of two that learns
//! only what both its pages say.

mod common;
use common::*;

fn manifest() -> String {
    fixtures()
        .join("inbreeding/manifest.jsonl")
        .to_str()
        .unwrap()
        .to_string()
}

fn extract(extra: &[&str]) -> Vec<serde_json::Value> {
    let manifest = manifest();
    let mut args = vec!["extract", "--manifest", manifest.as_str()];
    args.extend(extra);
    let out = run(&args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    stdout_jsonl(&out)
}

#[test]
fn shared_blocks_are_dropped_the_articles_kept_and_groups_of_two_learn_what_both_say() {
    let records = extract(&["--cross-page", "inbreeding"]);
    let expect = jsonl(&fixtures().join("inbreeding/expect.jsonl"));
    assert_eq!(records.len(), expect.len());
    let mut failures = Vec::new();
    for e in &expect {
        let path = e["path"].as_str().unwrap();
        let rec = records
            .iter()
            .find(|r| r["path"] == e["path"])
            .unwrap_or_else(|| panic!("{path}: no record"));
        if rec["method"] != e["method"] {
            failures.push(format!(
                "{path}: method {} != {}",
                rec["method"], e["method"]
            ));
        }
        failures.extend(snippet_failures(path, rec, e));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_about_paragraph_is_what_the_local_method_alone_keeps() {
    // The paragraph sits in the article's column and reads like text: only the group
    // shows it is template.
    let about = "The Harbour Times is written by six reporters";
    let local = extract(&["--no-infholder"]);
    let paper = |r: &&serde_json::Value| r["path"].as_str().unwrap().starts_with("harbourtimes");
    assert!(local
        .iter()
        .filter(paper)
        .all(|r| r["method"] == "heuristic" && r["text"].as_str().unwrap().contains(about)));
    let both = extract(&["--cross-page", "both"]);
    assert!(both.iter().filter(paper).all(|r| {
        r["method"] == "infholder+inbreeding+heuristic"
            && !r["text"].as_str().unwrap().contains(about)
    }));
}

#[test]
fn run_counts_pages_cleaned_and_fall_backs_by_reason() {
    let dir = tempfile::tempdir().unwrap();
    let manifest = manifest();
    run_ok(&[
        "run",
        "--manifest",
        &manifest,
        "--cross-page",
        "inbreeding",
        "--out",
        dir.path().to_str().unwrap(),
    ]);
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("summary.json")).unwrap())
            .unwrap();
    assert_eq!(summary["methods"]["inbreeding+heuristic"], 7);
    let c = &summary["extractors"]["inbreeding"];
    assert_eq!(c["pages_cleaned"], 7);
    assert_eq!(c["fallback_small_group"], 0);
    assert_eq!(c["fallback_too_varied"], 0);
}

#[test]
fn cross_page_flags_that_do_not_go_together_are_usage_errors() {
    let manifest = manifest();
    let out = run(&[
        "extract",
        "--manifest",
        &manifest,
        "--no-infholder",
        "--cross-page",
        "inbreeding",
    ]);
    assert_eq!(out.status.code(), Some(2));
    let dir = tempfile::tempdir().unwrap();
    let out = run(&[
        "extract",
        "--manifest",
        &manifest,
        "--cross-page",
        "inbreeding",
        "--templates",
        dir.path().to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--templates"));
}

#[test]
fn two_editions_of_one_story_stay_the_heuristic_s_and_are_one_cluster() {
    // A group of two whose pages share the story (an edition and its update, the
    // footer rewritten in between): no template of the site, so neither page is left
    // with only its header, and dedup sees the two copies.
    let dir = tempfile::tempdir().unwrap();
    let notes = dir.path().join("notes");
    std::fs::create_dir(&notes).unwrap();
    let first =
        std::fs::read_to_string(fixtures().join("inbreeding/plot17.example/notes/1.html")).unwrap();
    let update = first.replace(
        "Written on a bench at plot 17. Comments by letter only.",
        "Updated in March: the beans flowered early, and the blackfly stayed away from the \
         pinched tops, so the second sowing goes in next week along the shed.",
    );
    assert_ne!(first, update);
    std::fs::write(notes.join("1.html"), &first).unwrap();
    std::fs::write(notes.join("1-update.html"), &update).unwrap();
    let manifest = dir.path().join("manifest.jsonl");
    write_jsonl(
        &manifest,
        &["1.html", "1-update.html"].map(|f| {
            serde_json::json!({
                "path": notes.join(f),
                "url": format!("http://plot17.example/notes/{f}"),
            })
        }),
    );
    let out_dir = dir.path().join("out");
    run_manifest(&manifest, &out_dir);
    let pages = jsonl(&out_dir.join("pages.jsonl"));
    assert_eq!(pages.len(), 2);
    for p in &pages {
        assert_eq!(p["method"], "heuristic", "{p}");
    }
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out_dir.join("summary.json")).unwrap())
            .unwrap();
    assert_eq!(
        summary["extractors"]["inbreeding"]["fallback_shared_text"],
        2
    );
    let clusters = jsonl(&out_dir.join("clusters.jsonl"));
    assert!(
        clusters
            .iter()
            .any(|c| c["members"].as_array().is_some_and(|m| m.len() == 2)),
        "{clusters:?}"
    );
}
