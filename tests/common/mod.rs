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

/// `thresher ARGS…`, which must succeed (its stderr shown when it does not).
pub fn run_ok(args: &[&str]) -> Output {
    let out = run(args);
    assert!(
        out.status.success(),
        "thresher {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// `thresher run --manifest MANIFEST --out OUT_DIR`, which must succeed.
pub fn run_manifest(manifest: &Path, out_dir: &Path) {
    run_ok(&[
        "run",
        "--manifest",
        manifest.to_str().unwrap(),
        "--out",
        out_dir.to_str().unwrap(),
    ]);
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
        failures.extend(snippet_failures(path, rec, e));
        if rec["title"] != e["title"] {
            failures.push(format!("{path}: title {} != {}", rec["title"], e["title"]));
        }
    }
    failures
}

/// `thresher extract --no-infholder` on a fixture directory that holds an `expect.jsonl`:
/// the records (one per page, the run successful) and the expectation lines.
pub fn extract_fixture_dir(dir: &Path) -> (Vec<serde_json::Value>, Vec<serde_json::Value>) {
    let out = run_ok(&["extract", "--no-infholder", dir.to_str().unwrap()]);
    let records = stdout_jsonl(&out);
    let expect = jsonl(&dir.join("expect.jsonl"));
    assert_eq!(records.len(), expect.len());
    (records, expect)
}

/// [`extract_fixture_dir`], and every page's failures: its snippets' ([`snippet_failures`])
/// and those `more(name, record, expectation)` finds.
pub fn fixture_dir_failures(
    dir: &Path,
    more: impl Fn(&str, &serde_json::Value, &serde_json::Value) -> Option<String>,
) -> Vec<String> {
    let (records, expect) = extract_fixture_dir(dir);
    let mut failures = Vec::new();
    for e in &expect {
        let name = e["path"].as_str().unwrap();
        let rec = record_ending(&records, name);
        failures.extend(snippet_failures(name, rec, e));
        failures.extend(more(name, rec, e));
    }
    failures
}

/// The record whose path ends with a fixture's `name`.
pub fn record_ending<'a>(records: &'a [serde_json::Value], name: &str) -> &'a serde_json::Value {
    records
        .iter()
        .find(|r| r["path"].as_str().is_some_and(|p| p.ends_with(name)))
        .unwrap_or_else(|| panic!("{name}: no record"))
}

/// A record's text against one expectation line's `must_contain` / `must_not_contain`
/// snippets: every failure, named by `name`.
pub fn snippet_failures(
    name: &str,
    rec: &serde_json::Value,
    expect: &serde_json::Value,
) -> Vec<String> {
    let text = rec["text"].as_str().unwrap_or("");
    let mut failures = Vec::new();
    for s in expect["must_contain"].as_array().unwrap() {
        if !text.contains(s.as_str().unwrap()) {
            failures.push(format!("{name}: missing {s}\n  got: {text}"));
        }
    }
    for s in expect["must_not_contain"].as_array().unwrap() {
        if text.contains(s.as_str().unwrap()) {
            failures.push(format!("{name}: leaked {s}\n  got: {text}"));
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

/// splitmix64: deterministic per-record choices in generated inputs.
pub fn mix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce5_e9b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// `shared/eval/dedup-dev/docs.jsonl.gz` (THRESHER_EVAL_DIR overrides `shared/eval`).
pub fn dedup_dev() -> PathBuf {
    let dir = std::env::var_os("THRESHER_EVAL_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| root().join("../shared/eval"));
    let docs = dir.join("dedup-dev/docs.jsonl.gz");
    assert!(
        docs.exists(),
        "{}: dedup-dev not found (shared/ beside the repo, or THRESHER_EVAL_DIR)",
        docs.display()
    );
    docs
}

/// The lines of [`dedup_dev`].
pub fn dedup_dev_lines() -> Vec<String> {
    let docs = dedup_dev();
    let mut text = String::new();
    std::io::Read::read_to_string(
        &mut flate2::read::MultiGzDecoder::new(std::fs::File::open(&docs).unwrap()),
        &mut text,
    )
    .unwrap();
    text.lines().map(str::to_string).collect()
}

/// dedup-dev with the metadata `dedup` orders and joins by, generated per record from
/// its id: a `url` on a host per source; `fetched_at` (a tenth without); `published` in
/// every form (none, a day alone, an instant with an offset or in UTC, the day of the
/// variant family's root so that families tie and fetch time decides); `canonical_url`
/// on a third of the variants pointing at their parent (written `http://www.…/`, so the
/// key's normalization matters), self-canonicals, canonicals pointing at an unrelated
/// document (refused below the similarity floor), home-page canonicals (ignored).
/// With `template_dates`, half of one host's pages share one instant (a template's date,
/// which dedup forgets).
pub fn dated_dedup_dev(template_dates: bool) -> Vec<String> {
    dedup_dev_lines()
        .iter()
        .map(|line| {
            let mut r: serde_json::Value = serde_json::from_str(line).unwrap();
            let id = r["id"].as_u64().unwrap();
            let src = r["src"].as_str().unwrap().to_string();
            let host = format!("{src}.example.org");
            let h = mix(id);
            let o = r.as_object_mut().unwrap();
            o.insert("url".into(), format!("https://{host}/doc/{id}").into());
            if h % 10 != 0 {
                o.insert(
                    "fetched_at".into(),
                    format!(
                        "2025-01-{:02}T{:02}:{:02}:{:02}Z",
                        1 + (h >> 8) % 28,
                        (h >> 16) % 24,
                        (h >> 24) % 60,
                        (h >> 32) % 60
                    )
                    .into(),
                );
            }
            let (month, day) = (1 + (h >> 44) % 3, 1 + (h >> 48) % 28);
            let clock = format!(
                "{:02}:{:02}:{:02}",
                (h >> 20) % 24,
                (h >> 28) % 60,
                (h >> 36) % 60
            );
            let root = r["root"].as_u64().unwrap_or(id);
            let published = match (h >> 40) % 5 {
                0 => None,
                1 => Some(format!("2024-{month:02}-{day:02}")),
                2 => Some(format!("2024-{month:02}-{day:02}T{clock}+03:00")),
                3 => Some(format!("2024-{month:02}-{day:02}T{clock}Z")),
                _ => Some(format!("2024-02-{:02}", 1 + root % 28)),
            };
            let published = if template_dates && src == "fortunes-ru" && h % 2 == 0 {
                Some("2023-03-03T03:03:03Z".to_string())
            } else {
                published
            };
            let o = r.as_object_mut().unwrap();
            if let Some(p) = published {
                o.insert("published".into(), p.into());
            }
            let parent = o.get("parent").and_then(|p| p.as_u64());
            let canonical = match parent {
                Some(p) if (h >> 52) % 3 == 0 => Some(format!("http://www.{host}/doc/{p}/")),
                _ if (h >> 52) % 3 == 1 && h % 13 == 0 => Some(format!("https://{host}/doc/{id}")),
                _ if id % 211 == 0 => Some(format!("https://{host}/doc/{}", id + 1)),
                _ if id % 307 == 0 => Some(format!("https://{host}/")),
                _ => None,
            };
            if let Some(c) = canonical {
                o.insert("canonical_url".into(), c.into());
            }
            r.to_string()
        })
        .collect()
}

/// The (place, `error_kind`) of each line of an errors file, the place being the part of
/// its `path` after the last `sep` (`'/'`: `docs.jsonl:2`; `':'`: the line number `2`).
pub fn error_kinds(path: &Path, sep: char) -> Vec<(String, String)> {
    jsonl(path)
        .iter()
        .map(|e| {
            let place = e["path"].as_str().unwrap_or_default();
            (
                place.rsplit(sep).next().unwrap_or_default().to_string(),
                e["error_kind"].as_str().unwrap_or_default().to_string(),
            )
        })
        .collect()
}

/// `pairs` as owned strings, to compare with [`error_kinds`].
pub fn owned_pairs(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
    pairs
        .iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect()
}
