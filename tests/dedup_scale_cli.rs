//! `thresher dedup` in bounded memory (shingles dropped, candidates read again) and
//! `--mode itemsets` (issue 15 items 4 and 5), through the CLI.

mod common;
use common::*;

/// A word of a made-up 5,000-word vocabulary.
fn word(i: u64) -> String {
    format!("w{}", thresher::dedup::minhash::mix64(i) % 5000)
}

/// `groups` groups of near-duplicates (a base text and `copies` variants with one word
/// changed in a different place each) among `singles` unrelated documents; ids say the
/// group (`g3v1`). Written gzip-compressed when `gz`, with a blank line and an error
/// record in between (skipped).
fn corpus(
    dir: &std::path::Path,
    groups: u64,
    copies: u64,
    singles: u64,
    gz: bool,
) -> std::path::PathBuf {
    let mut lines = Vec::new();
    for g in 0..groups {
        let base: Vec<String> = (0..300).map(|i| word(g * 1_000_003 + i)).collect();
        for v in 0..=copies {
            let mut w = base.clone();
            if v > 0 {
                w[(v * 37) as usize % 300] = format!("edit{v}");
            }
            lines.push(serde_json::json!({"id": format!("g{g}v{v}"), "text": w.join(" ")}));
        }
    }
    for s in 0..singles {
        let w: Vec<String> = (0..300)
            .map(|i| word(9_000_000_000 + s * 1_000_003 + i))
            .collect();
        lines.push(serde_json::json!({"id": format!("s{s}"), "text": w.join(" ")}));
    }
    lines.push(serde_json::json!({"id": "bad", "error": "fetch failed"}));
    let mut text = String::new();
    for (i, l) in lines.iter().enumerate() {
        text.push_str(&format!("{l}\n"));
        if i == 5 {
            text.push('\n');
        }
    }
    let path = dir.join(if gz { "docs.jsonl.gz" } else { "docs.jsonl" });
    if gz {
        use std::io::Write;
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        e.write_all(text.as_bytes()).unwrap();
        std::fs::write(&path, e.finish().unwrap()).unwrap();
    } else {
        std::fs::write(&path, text).unwrap();
    }
    path
}

fn dedup(args: &[&str]) -> (Vec<serde_json::Value>, String) {
    let mut all = vec!["dedup", "--explain"];
    all.extend_from_slice(args);
    let out = run(&all);
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(out.status.success(), "{stderr}");
    (stdout_jsonl(&out), stderr)
}

#[test]
fn second_pass_gives_the_same_clusters_as_shingles_in_memory() {
    let dir = tempfile::tempdir().unwrap();
    for gz in [false, true] {
        // ~3,000 documents: more than one block of the reader.
        let docs = corpus(dir.path(), 200, 3, 2200, gz);
        let docs = docs.to_str().unwrap();
        let (in_memory, err) = dedup(&[docs]);
        assert!(!err.contains("read again"), "{err}");
        assert_eq!(in_memory.len(), 200, "one cluster per planted group");
        for c in &in_memory {
            let members = c["members"].as_array().unwrap();
            let group = c["main"]
                .as_str()
                .unwrap()
                .split('v')
                .next()
                .unwrap()
                .to_string();
            assert_eq!(members.len(), 4, "{c}");
            assert!(
                members
                    .iter()
                    .all(|m| m.as_str().unwrap().starts_with(&format!("{group}v"))),
                "{c}"
            );
        }
        let (reread, err) = dedup(&["--shingle-memory", "0", docs]);
        assert!(
            err.contains("read again"),
            "the budget of 0 MB must force a second pass: {err}"
        );
        assert_eq!(reread, in_memory, "gz {gz}");
    }
}

#[test]
fn a_file_changed_between_the_passes_is_an_error_not_wrong_clusters() {
    // Not reproducible through timing; the second pass checks keys: a file whose
    // documents are not where the first pass saw them. Simulated by the library call.
    let dir = tempfile::tempdir().unwrap();
    let a = corpus(dir.path(), 3, 1, 5, false);
    let config = thresher::dedup::DedupConfig::default();
    let signer = thresher::dedup::Signer::new(&config);
    let files = vec![a.clone()];
    let (docs, _, dropped) =
        thresher::pipeline::read_and_sign_within(&files, &signer, 0, &mut |e| panic!("{e}"))
            .unwrap();
    assert!(dropped);
    let mut other = std::fs::read_to_string(&a).unwrap();
    other = other.replacen("\"g0v0\"", "\"zzz\"", 1);
    std::fs::write(&a, other).unwrap();
    let err = thresher::pipeline::reread_shingle_sets(&files, &signer, &docs, &[0, 1])
        .unwrap_err()
        .to_string();
    assert!(err.contains("changed"), "{err}");
}

#[test]
fn itemsets_mode_finds_groups_reports_their_itemset_and_ignores_input_order() {
    let dir = tempfile::tempdir().unwrap();
    let docs = corpus(dir.path(), 30, 2, 300, false);
    let (clusters, err) = dedup(&[
        "--mode",
        "itemsets",
        "--threshold",
        "0.8",
        docs.to_str().unwrap(),
    ]);
    assert!(err.contains("maximal frequent itemsets"), "{err}");
    assert_eq!(clusters.len(), 30, "{clusters:?}");
    let support = thresher::dedup::itemsets::default_support(128, 0.8);
    for c in &clusters {
        let main = c["main"].as_str().unwrap();
        let group = main.split('v').next().unwrap();
        let members: Vec<&str> = c["members"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m.as_str().unwrap())
            .collect();
        assert_eq!(members.len(), 3, "{c}");
        assert!(
            members.iter().all(|m| m.starts_with(&format!("{group}v"))),
            "{c}"
        );
        let itemset = c["itemset"].as_array().expect("itemset reported");
        assert!(
            itemset.len() >= support && itemset.len() <= 128,
            "{} elements",
            itemset.len()
        );
    }
    // Reversed input: the same clusters, the same mains.
    let text = std::fs::read_to_string(&docs).unwrap();
    let mut lines: Vec<&str> = text.lines().collect();
    lines.reverse();
    let reversed = dir.path().join("reversed.jsonl");
    std::fs::write(&reversed, lines.join("\n")).unwrap();
    let (again, _) = dedup(&[
        "--mode",
        "itemsets",
        "--threshold",
        "0.8",
        reversed.to_str().unwrap(),
    ]);
    assert_eq!(again, clusters);
    // Itemsets mine MinHash sketches: a lexical method is a usage error, not silence.
    let out = run(&[
        "dedup",
        "--mode",
        "itemsets",
        "--method",
        "tf",
        docs.to_str().unwrap(),
    ]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("--method minhash"));
    // A support above the sketch size finds nothing.
    let (none, _) = dedup(&[
        "--mode",
        "itemsets",
        "--itemset-support",
        "129",
        docs.to_str().unwrap(),
    ]);
    assert!(none.is_empty());
}
