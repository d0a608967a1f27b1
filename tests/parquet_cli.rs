//! Records as Parquet through the CLI: `extract`/`run`/`dedup --format parquet`, Parquet
//! input of `dedup` and `sign` giving the same clusters as JSONL input, and bad Parquet
//! input named in the error.

mod common;

use std::io::BufRead;
use std::path::Path;

use common::*;
use thresher::parquet_io::records::ParquetLines;

fn parquet_rows(path: &Path) -> Vec<serde_json::Value> {
    let bytes = std::fs::read(path).unwrap();
    assert_eq!(&bytes[..4], b"PAR1", "{} is not Parquet", path.display());
    ParquetLines::open(path)
        .unwrap()
        .into_bufread()
        .lines()
        .map(|l| serde_json::from_str(&l.unwrap()).unwrap())
        .collect()
}

#[test]
fn extract_and_dedup_round_trip_through_parquet() {
    let dir = tempfile::tempdir().unwrap();
    let p = |n: &str| dir.path().join(n).to_str().unwrap().to_string();
    let manifest = fixtures().join("sites/manifest.jsonl");
    let manifest = manifest.to_str().unwrap();
    run_ok(&["extract", "--manifest", manifest, "-o", &p("pages.jsonl")]);
    run_ok(&[
        "extract",
        "--manifest",
        manifest,
        "--format",
        "parquet",
        "-o",
        &p("pages.parquet"),
    ]);
    assert!(!dir.path().join("pages.partial.jsonl").exists());
    let json = jsonl(&dir.path().join("pages.jsonl"));
    let rows = parquet_rows(&dir.path().join("pages.parquet"));
    assert_eq!(rows.len(), json.len());
    for (r, j) in rows.iter().zip(&json) {
        for field in [
            "path",
            "url",
            "text",
            "title",
            "fetched_at",
            "boilerplate_ratio",
        ] {
            assert_eq!(r.get(field), j.get(field), "{field}");
        }
    }
    // dedup reads Parquet records as it reads JSONL: the same clusters.
    run_ok(&["dedup", &p("pages.jsonl"), "-o", &p("from-jsonl.jsonl")]);
    run_ok(&["dedup", &p("pages.parquet"), "-o", &p("from-parquet.jsonl")]);
    let a = std::fs::read_to_string(dir.path().join("from-jsonl.jsonl")).unwrap();
    assert!(a.lines().count() >= 2, "{a}");
    assert_eq!(
        a,
        std::fs::read_to_string(dir.path().join("from-parquet.jsonl")).unwrap()
    );
    // Found by content, as extract finds its inputs: a Parquet file without its extension.
    std::fs::copy(
        dir.path().join("pages.parquet"),
        dir.path().join("pages.dat"),
    )
    .unwrap();
    run_ok(&["dedup", &p("pages.dat"), "-o", &p("from-dat.jsonl")]);
    assert_eq!(
        a,
        std::fs::read_to_string(dir.path().join("from-dat.jsonl")).unwrap()
    );
    // Clusters as Parquet: similarity aligned with members.
    run_ok(&[
        "dedup",
        &p("pages.parquet"),
        "--format",
        "parquet",
        "-o",
        &p("clusters.parquet"),
    ]);
    let clusters = parquet_rows(&dir.path().join("clusters.parquet"));
    let expected: Vec<serde_json::Value> = a
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(clusters.len(), expected.len());
    for (c, e) in clusters.iter().zip(&expected) {
        assert_eq!(c["main"], e["main"]);
        assert_eq!(c["members"], e["members"]);
        let sims: Vec<&serde_json::Value> = e["members"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| &e["similarity"][m.as_str().unwrap()])
            .collect();
        assert_eq!(
            c["similarity"]
                .as_array()
                .unwrap()
                .iter()
                .collect::<Vec<_>>(),
            sims
        );
    }
    // sign reads Parquet records too.
    run_ok(&["sign", &p("pages.parquet"), "-o", &p("sigs.parquet")]);
    let sigs = parquet_rows(&dir.path().join("sigs.parquet"));
    assert_eq!(
        sigs.len(),
        json.iter().filter(|r| r.get("error").is_none()).count()
    );
    assert!(sigs
        .iter()
        .any(|s| s["bands"].as_array().is_some_and(|b| !b.is_empty())));
}

#[test]
fn run_writes_pages_and_clusters_as_parquet() {
    let dir = tempfile::tempdir().unwrap();
    let out = run_fixture_sites(dir.path(), &["--format", "parquet"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(!dir.path().join("pages.jsonl").exists());
    assert!(!dir.path().join("clusters.jsonl").exists());
    let pages = parquet_rows(&dir.path().join("pages.parquet"));
    let clusters = parquet_rows(&dir.path().join("clusters.parquet"));
    assert!(clusters.len() >= 2);
    let mains = pages
        .iter()
        .filter(|p| p["is_main"] == true && p.get("cluster").is_some_and(|c| !c.is_null()))
        .count();
    assert_eq!(mains, clusters.len());
}

#[test]
fn bad_parquet_input_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("broken.parquet");
    std::fs::write(&bad, b"not parquet at all").unwrap();
    // An unreadable input costs that file (an error naming it), like any bad input: exit 1.
    let out = run(&["dedup", bad.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("broken.parquet"));
    let out = run(&[
        "clusters",
        "import",
        "--signatures",
        bad.to_str().unwrap(),
        dir.path().to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("broken.parquet"));
    let out = run(&[
        "extract",
        "--format",
        "parquet",
        fixtures().join("sites").to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2), "parquet to stdout is refused");
}
