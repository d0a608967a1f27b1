//! Metadata through the CLI on `fixtures/metadata/` (invented pages, CC0): each source of
//! each field, sources that contradict each other (the more trusted one must win), the
//! five languages, the main order by publication date, and canonical URLs in dedup.

mod common;
use common::*;

use serde_json::Value;

fn extract_fixtures() -> Vec<Value> {
    let manifest = fixtures().join("metadata/manifest.jsonl");
    let out = run_ok(&["extract", "--manifest", manifest.to_str().unwrap()]);
    stdout_jsonl(&out)
}

fn by<'a>(records: &'a [Value], name: &str) -> &'a Value {
    records
        .iter()
        .find(|r| r["path"].as_str().is_some_and(|p| p.ends_with(name)))
        .unwrap_or_else(|| panic!("no record for {name}"))
}

#[test]
fn published_takes_the_most_trusted_source() {
    let recs = extract_fixtures();
    // (page, published, source): each page also carries every less trusted source with
    // another date.
    for (page, date, source) in [
        ("jsonld.html", "2021-03-04T10:00:00+02:00", "json-ld"),
        ("opengraph.html", "2020-07-01T09:30:00+00:00", "opengraph"),
        ("time.html", "2019-02-10T07:15:00+01:00", "time"),
        ("time-unmarked.html", "2018-10-12", "time"),
        ("meta.html", "2018-05-15", "meta"),
        ("url.html", "2017-06-05", "url"),
        ("text-ru.html", "2011-03-03", "text"),
        ("text-el.html", "2011-11-09", "text"),
        ("text-pl.html", "2011-10-21", "text"),
        ("text-zh.html", "2011-11-09", "text"),
        ("text-en.html", "2011-11-09", "text"),
    ] {
        let r = by(&recs, page);
        assert_eq!(r["published"], date, "{page}: {r}");
        assert_eq!(r["published_source"], source, "{page}");
    }
    let none = by(&recs, "none.html");
    assert!(
        none["published"].is_null() && none["published_source"].is_null(),
        "{none}"
    );
}

#[test]
fn language_of_the_text() {
    let recs = extract_fixtures();
    for lang in ["ru", "el", "pl", "zh", "en"] {
        assert_eq!(by(&recs, &format!("text-{lang}.html"))["lang"], lang);
    }
    assert_eq!(by(&recs, "jsonld.html")["lang"], "en");
}

#[test]
fn declared_fields_and_their_conflicts() {
    let recs = extract_fixtures();
    let j = by(&recs, "jsonld.html");
    // rel=canonical (relative, resolved) beats og:url.
    assert_eq!(
        j["canonical_url"],
        "https://harbour.example/news/bridge-budget"
    );
    // JSON-LD author beats <meta name=author>.
    assert_eq!(j["author"], "Ann Lee");
    // og:site_name beats JSON-LD publisher; og:description beats the others.
    assert_eq!(j["site_name"], "The Harbour Times");
    assert_eq!(j["description"], "The council voted for the new bridge.");
    assert_eq!(j["title"], "Harbour council approves the bridge budget");
    let og = by(&recs, "opengraph.html");
    assert_eq!(og["author"], "Bo Chan");
    assert_eq!(og["site_name"], "Castle News"); // application-name
    assert_eq!(og["description"], "The festival opened on Wednesday."); // meta description
    assert!(og["canonical_url"].is_null());
    assert_eq!(by(&recs, "time.html")["author"], "Cara Diaz"); // itemprop=author
    assert_eq!(by(&recs, "meta.html")["author"], "Dan Evans"); // rel=author
    assert_eq!(by(&recs, "meta.html")["site_name"], "Town Library");
    // Unknown fields are written as null, not left out.
    let u = by(&recs, "url.html");
    for f in ["author", "site_name", "description", "canonical_url"] {
        assert!(u.get(f).is_some_and(Value::is_null), "{f}: {u}");
    }
}

/// `run`: the original (published first, fetched last) is the main; its print copy
/// shares only ~half its shingles but names it as canonical.
#[test]
fn canonical_pairs_and_published_decides_the_main() {
    let manifest = fixtures().join("metadata/manifest.jsonl");
    let dir = tempfile::tempdir().unwrap();
    let out_dir = dir.path().join("with");
    run_manifest(&manifest, &out_dir);
    let clusters = jsonl(&out_dir.join("clusters.jsonl"));
    assert_eq!(clusters.len(), 1, "{clusters:?}");
    let c = &clusters[0];
    assert_eq!(c["main"], "dup-original.html");
    let reason = c["reason"].as_str().unwrap();
    assert!(
        reason.starts_with("earliest published 2022-09-01"),
        "{reason}"
    );
    assert!(
        reason.contains("canonical URL valley.example/news/record-season"),
        "{reason}"
    );
    let sim = c["similarity"]["dup-print.html"].as_f64().unwrap();
    assert!(
        sim < 0.7 && sim >= 0.3,
        "the pair is below the shingle threshold: {sim}"
    );
    // The home page named as canonical of an article (none.html) pairs nothing.
    // Without canonical URLs, the pair is not a near-duplicate.
    let off = dir.path().join("without");
    let out = run(&[
        "run",
        "--no-canonical",
        "--manifest",
        manifest.to_str().unwrap(),
        "--out",
        off.to_str().unwrap(),
    ]);
    assert!(out.status.success());
    assert!(jsonl(&off.join("clusters.jsonl")).is_empty());
    // Fetch time decides when asked to: the print copy was fetched first.
    let fetched = dir.path().join("fetched");
    let out = run(&[
        "run",
        "--main-order",
        "fetched_at,popularity",
        "--manifest",
        manifest.to_str().unwrap(),
        "--out",
        fetched.to_str().unwrap(),
    ]);
    assert!(out.status.success());
    let c = &jsonl(&fetched.join("clusters.jsonl"))[0];
    assert_eq!(c["main"], "dup-print.html");
    assert!(
        c["reason"]
            .as_str()
            .unwrap()
            .starts_with("earliest fetched_at"),
        "{c}"
    );
}

/// `dedup` on JSONL: `published` and `canonical_url` of the records are used.
#[test]
fn dedup_reads_published_and_canonical_from_jsonl() {
    let dir = tempfile::tempdir().unwrap();
    let docs = dir.path().join("docs.jsonl");
    let text = "the committee met on tuesday to discuss the new budget for schools roads and parks \
                after a long debate it approved a plan that moves money from road repair to school buildings";
    let other =
        "the mayor said the plan was fair and that the city would review it again next spring \
                 when the weather allows the road crews to inspect every bridge in the valley";
    let lines = [
        serde_json::json!({"id": "late", "url": "https://a.example/s", "text": text,
                           "published": "2024-02-02", "fetched_at": "2024-01-01T00:00:00Z"}),
        serde_json::json!({"id": "early", "url": "https://b.example/s", "text": text,
                           "published": "2024-01-15", "fetched_at": "2024-03-01T00:00:00Z"}),
        serde_json::json!({"id": "print", "url": "https://b.example/print/s",
                           "canonical_url": "https://b.example/s",
                           "text": format!("{text} {other}"), "fetched_at": "2024-01-02T00:00:00Z"}),
    ];
    write_jsonl(&docs, &lines);
    let out = run_ok(&["dedup", docs.to_str().unwrap()]);
    let clusters = stdout_jsonl(&out);
    assert_eq!(clusters.len(), 1, "{clusters:?}");
    assert_eq!(clusters[0]["main"], "early", "{clusters:?}");
    let members: Vec<&str> = clusters[0]["members"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    assert!(members.contains(&"print"), "{clusters:?}");
}
