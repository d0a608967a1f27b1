//! Helpers shared by the integration tests: run the binary, read JSONL.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Output;

pub fn bin() -> std::process::Command {
    std::process::Command::new(env!("CARGO_BIN_EXE_thresher"))
}

pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

pub fn fixtures() -> PathBuf {
    root().join("fixtures")
}

pub fn run(args: &[&str]) -> Output {
    let out = bin().args(args).output().expect("binary runs");
    out
}

pub fn jsonl(path: &Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).expect("valid JSON line"))
        .collect()
}

pub fn stdout_jsonl(out: &Output) -> Vec<serde_json::Value> {
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).expect("valid JSON line"))
        .collect()
}

/// Check every page's must_contain / must_not_contain snippets from
/// `fixtures/sites/expect.jsonl`; returns all failures (not just the first).
pub fn check_expectations(
    records: &[serde_json::Value],
    key_of: impl Fn(&str) -> String,
) -> Vec<String> {
    let expect = jsonl(&fixtures().join("sites/expect.jsonl"));
    let mut failures = Vec::new();
    for e in &expect {
        let path = e["path"].as_str().unwrap();
        let key = key_of(path);
        let Some(rec) = records
            .iter()
            .find(|r| r["path"].as_str() == Some(key.as_str()))
        else {
            failures.push(format!("{path}: no record"));
            continue;
        };
        let text = rec["text"].as_str().unwrap_or("");
        for s in e["must_contain"].as_array().unwrap() {
            if !text.contains(s.as_str().unwrap()) {
                failures.push(format!("{path}: missing {:?}", s.as_str().unwrap()));
            }
        }
        for s in e["must_not_contain"].as_array().unwrap() {
            if text.contains(s.as_str().unwrap()) {
                failures.push(format!("{path}: leaked {:?}", s.as_str().unwrap()));
            }
        }
        if rec["title"] != e["title"] {
            failures.push(format!("{path}: title {} != {}", rec["title"], e["title"]));
        }
    }
    failures
}

/// `thresher run` on the fixture sites with their manifest into `out_dir`, plus `extra` flags.
pub fn run_fixture_sites(out_dir: &Path, extra: &[&str]) -> Output {
    let manifest = fixtures().join("sites/manifest.jsonl");
    let mut args = vec![
        "run",
        "--manifest",
        manifest.to_str().unwrap(),
        "--out",
        out_dir.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    run(&args)
}

/// Clusters as a comparable set of (members, main).
pub fn cluster_set(
    clusters: &[serde_json::Value],
) -> std::collections::BTreeSet<(std::collections::BTreeSet<String>, String)> {
    clusters
        .iter()
        .map(|c| {
            let members = c["members"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| m.as_str().unwrap().to_string())
                .collect();
            (members, c["main"].as_str().unwrap().to_string())
        })
        .collect()
}

/// Write JSON values as a JSONL file.
pub fn write_jsonl(path: &Path, lines: &[serde_json::Value]) {
    let text: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
    std::fs::write(path, text.join("\n")).unwrap();
}
