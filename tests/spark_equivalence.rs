//! The Spark job (`spark/thresher_dedup.py`) on Spark in local mode gives exactly the
//! clusters and mains of `thresher dedup`: on dedup-dev (strict and components modes), and
//! on 100,000 documents sharing band hashes (the skew guard: large buckets split by
//! leaders, never expanded into pairs). Needs Java and pyspark, which `.ci/install`
//! installs; without them these tests fail, naming it.

mod common;

use std::path::Path;
use std::process::Command;

use common::*;

fn require_spark() {
    let java = Command::new("java").arg("-version").output();
    assert!(
        java.is_ok_and(|o| o.status.success()),
        "java not found: run .ci/install (installs openjdk-17-jre-headless and pyspark)"
    );
    let py = Command::new("python3")
        .args(["-c", "import pyspark"])
        .output();
    assert!(
        py.is_ok_and(|o| o.status.success()),
        "pyspark not importable by python3: run .ci/install"
    );
}

/// Run the job in local mode (2 cores, few shuffle partitions: the data is small).
fn spark_job(sigs: &Path, out: &Path, mode: &str) {
    let job = root().join("spark/thresher_dedup.py");
    let o = Command::new("python3")
        .arg(&job)
        .args(["--master", "local[2]", "--shuffle-partitions", "4", mode])
        .arg("--signatures")
        .arg(sigs)
        .arg("--out")
        .arg(out)
        .env("PYSPARK_PYTHON", "python3")
        .output()
        .expect("python3 runs");
    assert!(
        o.status.success(),
        "spark job failed: {}",
        String::from_utf8_lossy(&o.stderr)
    );
}

/// dedup's clusters.jsonl and the imported Spark clusters, byte for byte.
fn assert_same(local: &Path, spark: &Path, min_clusters: usize) {
    let a = std::fs::read_to_string(local).unwrap();
    let b = std::fs::read_to_string(spark).unwrap();
    let n = a.lines().count();
    assert!(n >= min_clusters, "only {n} clusters from dedup");
    if a != b {
        let diff: Vec<(&str, &str)> = a
            .lines()
            .zip(b.lines())
            .filter(|(x, y)| x != y)
            .take(3)
            .collect();
        panic!(
            "Spark clusters differ from dedup's ({} vs {} lines); first differences: {diff:#?}",
            n,
            b.lines().count()
        );
    }
}

/// `sign` (once per directory), `dedup` and the job in `mode`, with the same `flags`.
fn equal_in_mode(input: &Path, dir: &Path, mode: &str, flags: &[&str], min_clusters: usize) {
    let s = |p: &Path| p.to_str().unwrap().to_string();
    let sigs = dir.join("sigs.parquet");
    let local = dir.join(format!("local-{mode}.jsonl"));
    let spark_out = dir.join(format!("spark-{mode}"));
    let imported = dir.join(format!("spark-{mode}.jsonl"));
    if !sigs.exists() {
        run_ok(&[&["sign", &s(input), "-o", &s(&sigs)], flags].concat());
    }
    run_ok(
        &[
            &["dedup", &s(input), "--mode", mode, "-o", &s(&local)],
            flags,
        ]
        .concat(),
    );
    spark_job(&sigs, &spark_out, &format!("--{mode}"));
    run_ok(&[
        "clusters",
        "import",
        "--signatures",
        &s(&sigs),
        &s(&spark_out),
        "-o",
        &s(&imported),
    ]);
    assert_same(&local, &imported, min_clusters);
}

#[test]
fn spark_job_equals_dedup_on_dedup_dev() {
    require_spark();
    let input = dedup_dev();
    let dir = tempfile::tempdir().unwrap();
    equal_in_mode(&input, dir.path(), "strict", &[], 1000);
    equal_in_mode(&input, dir.path(), "components", &[], 1000);
}

/// dedup-dev with publication dates in every form, fetch times, canonical URLs (shared
/// by variants and their parents, self-canonicals, wrong ones, home pages) and one host's
/// template date (`common::dated_dedup_dev`), default main order (published first):
/// the clusters, their mains and their reasons equal `dedup`'s byte for byte.
#[test]
fn spark_job_equals_dedup_with_published_dates_and_canonical_urls() {
    require_spark();
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("dated.jsonl");
    std::fs::write(&input, dated_dedup_dev(true).join("\n") + "\n").unwrap();
    equal_in_mode(&input, dir.path(), "strict", &[], 1000);
    // The equality covers what this test is about only if these decided somewhere.
    let clusters = jsonl(&dir.path().join("spark-strict.jsonl"));
    let reasons: Vec<&str> = clusters
        .iter()
        .map(|c| c["reason"].as_str().unwrap())
        .collect();
    let count = |what: &str| reasons.iter().filter(|r| r.contains(what)).count();
    for what in [
        "earliest published",
        "same published",
        "joined by shared canonical URL",
    ] {
        assert!(
            count(what) >= 5,
            "only {} reasons with `{what}`",
            count(what)
        );
    }
}

/// 100,000 documents: one 60-word text plus one word of their own, so that most band
/// hashes are shared by all of them (buckets of 100,000), a few by some; and 200 other
/// documents. dedup splits the large buckets by leaders; so must the job, and equally.
/// Supershingles 4x8 (4 bands of 8 rows) keep the number of large buckets, and
/// the test's time, small: each band is still one hash shared by ~100,000 documents.
#[test]
fn one_band_hash_shared_by_100k_documents() {
    require_spark();
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("skew.jsonl");
    let base: Vec<String> = (0..60).map(|i| format!("base{i}")).collect();
    let base = base.join(" ");
    let mut lines = String::new();
    for i in 0..100_000 {
        lines.push_str(&format!(
            "{{\"id\":\"d{i:06}\",\"text\":\"{base} own{i}\",\"popularity\":{}}}\n",
            i % 7
        ));
    }
    for i in 0..200 {
        let text: Vec<String> = (0..40).map(|w| format!("o{}w{}", i / 2, w)).collect();
        lines.push_str(&format!(
            "{{\"id\":\"o{i:03}\",\"text\":\"{}\"}}\n",
            text.join(" ")
        ));
    }
    std::fs::write(&input, lines).unwrap();
    equal_in_mode(&input, dir.path(), "strict", &["--bands", "4x8"], 101);
    let clusters = jsonl(&dir.path().join("spark-strict.jsonl"));
    let big = clusters
        .iter()
        .map(|c| c["size"].as_u64().unwrap())
        .max()
        .unwrap();
    assert_eq!(big, 100_000, "the copies form one cluster");
}
