//! `thresher rules test --pages`: a rule written for a site's first layout
//! (`fixtures/rules/breakage/v1`) against the same pages after a redesign (`v2`): the
//! baseline saved on v1 finds every page where the rule now keeps nothing or far less,
//! names the XPath and the text it kept before, and `--fail-on-breakage` exits 1; the
//! HTML report of a run lists the broken rule at the top of its index.

mod common;

use std::path::PathBuf;

use common::{bin, fixtures};

fn dir() -> PathBuf {
    fixtures().join("rules/breakage")
}

/// `rules test RULES --pages VERSION --manifest VERSION/manifest.jsonl ARGS…`: exit
/// code and standard output.
fn probe(version: &str, args: &[&str]) -> (i32, String) {
    let d = dir();
    let out = bin()
        .args(["rules", "test"])
        .arg(d.join("rules"))
        .arg("--pages")
        .arg(d.join(version))
        .arg("--manifest")
        .arg(d.join(version).join("manifest.jsonl"))
        .args(args)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.code().is_some(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.code().unwrap(), stdout)
}

#[test]
fn layout_change_found_against_the_baseline() {
    let tmp = tempfile::tempdir().unwrap();
    let base = tmp.path().join("baseline.jsonl");
    let b = base.to_str().unwrap();
    let (code, out) = probe("v1", &["--save-baseline", b, "--fail-on-breakage"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("5 pages probed: 0 breakage(s)"), "{out}");
    let saved = std::fs::read_to_string(&base).unwrap();
    assert_eq!(saved.lines().count(), 5, "{saved}");

    let json = tmp.path().join("breakage.json");
    let (code, out) = probe(
        "v2",
        &["--baseline", b, "--breakage-json", json.to_str().unwrap()],
    );
    assert_eq!(code, 0, "breakage is an exit status only when asked: {out}");
    let found: serde_json::Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    let broken = found["broken"].as_array().unwrap();
    let on = |page: &str| -> Vec<&serde_json::Value> {
        broken
            .iter()
            .filter(|b| b["url"].as_str().unwrap().ends_with(page))
            .collect()
    };
    assert!(on("/c.html").is_empty(), "unchanged page reported: {out}");
    // a.html: a four-word teaser where the story was.
    let a = on("/a.html");
    assert!(
        a.iter().any(|b| b["xpath"] == "//div[@id='story']"
            && b["words_now"] == 4
            && b["excerpt_before"]
                .as_str()
                .unwrap()
                .starts_with("The harbour bridge reopened")),
        "{out}"
    );
    // The remove XPath lost its node too: the share bar may leak.
    assert!(
        a.iter().any(|b| b["xpath"] == "//div[@class='share']"
            && b["what"].as_str().unwrap().contains("selects nothing now")),
        "{out}"
    );
    for page in ["/b.html", "/d.html", "/e.html"] {
        let b = on(page);
        assert!(
            b.iter().any(|b| b["xpath"].is_null()
                && b["words_now"] == 0
                && b["words_before"].as_u64().unwrap() > 50),
            "{page}: {out}"
        );
        assert!(
            b.iter().any(|b| b["what"]
                .as_str()
                .unwrap()
                .starts_with("content XPath selects nothing now")),
            "{page}: {out}"
        );
    }
    // Also said in words, with the XPath, the page and the text before.
    assert!(
        out.contains("BROKEN rules:news.example#article on "),
        "{out}"
    );
    assert!(out.contains("xpath: //div[@id='story']"), "{out}");
    assert!(
        out.contains("before: \"The harbour bridge reopened"),
        "{out}"
    );
    // Three of five pages keep nothing: the rule is empty on most of its site.
    assert!(
        out.contains("EMPTY rules:news.example#article") && out.contains("3 of its 5 pages"),
        "{out}"
    );

    let (code, out) = probe("v2", &["--baseline", b, "--fail-on-breakage"]);
    assert_eq!(code, 1, "{out}");
}

/// Without a baseline only what a run would also see is reported: pages where the rule
/// keeps nothing, and the rule empty on most pages.
#[test]
fn without_baseline_empty_pages_and_rules() {
    let (code, out) = probe("v2", &["--fail-on-breakage"]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("keeps 0 words (min_words 1)"), "{out}");
    assert!(!out.contains("a.html <"), "a teaser is not empty: {out}");
    assert!(out.contains("EMPTY rules:news.example#article"), "{out}");
    let (code, out) = probe("v1", &["--fail-on-breakage"]);
    assert_eq!(code, 0, "{out}");
}

#[test]
fn bad_baseline_names_file_and_line() {
    let tmp = tempfile::tempdir().unwrap();
    let base = tmp.path().join("baseline.jsonl");
    std::fs::write(&base, "\n{\"file\": 3}\n").unwrap();
    let d = dir();
    let out = bin()
        .args(["rules", "test"])
        .arg(d.join("rules"))
        .arg("--pages")
        .arg(d.join("v2"))
        .arg("--manifest")
        .arg(d.join("v2/manifest.jsonl"))
        .arg("--baseline")
        .arg(&base)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("baseline.jsonl:2:"), "{err}");
}

/// A run with the rules on the redesigned pages: the report's index opens with the
/// broken rule and its pages.
#[test]
fn report_lists_broken_rules_first() {
    let tmp = tempfile::tempdir().unwrap();
    let d = dir();
    let out_dir = tmp.path().join("out");
    let status = bin()
        .args(["run", "--report", "--rules"])
        .arg(d.join("rules"))
        .arg("--manifest")
        .arg(d.join("v2/manifest.jsonl"))
        .arg("--out")
        .arg(&out_dir)
        .output()
        .unwrap();
    assert!(
        status.status.code() == Some(0),
        "{}",
        String::from_utf8_lossy(&status.stderr)
    );
    let index = std::fs::read_to_string(out_dir.join("report/index.html")).unwrap();
    let section = index
        .find("<section id=broken-rules>")
        .expect("broken rules section");
    let first_table = index.find("<table").unwrap();
    assert!(section < first_table, "the section comes first");
    let end = index[section..].find("</section>").unwrap() + section;
    let body = &index[section..end];
    assert!(body.contains("news.example#article"), "{body}");
    assert!(body.contains("http://news.example/news/b.html"), "{body}");
}

/// `run --rules RULES --manifest VERSION/manifest.jsonl --out OUT ARGS…`: exit code,
/// stderr.
fn run_version(version: &str, out_dir: &std::path::Path, args: &[&str]) -> (i32, String) {
    let d = dir();
    let out = bin()
        .args(["run", "--rules"])
        .arg(d.join("rules"))
        .arg("--manifest")
        .arg(d.join(version).join("manifest.jsonl"))
        .arg("--out")
        .arg(out_dir)
        .args(args)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    (out.status.code().expect("exit code"), stderr)
}

fn read_json(path: &std::path::Path) -> serde_json::Value {
    serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
}

/// `run --rules --rules-health`: the findings of `rules test --pages` on the run's own
/// pages, in rule_health.json beside summary.json, counted in summary.json, listed in
/// the report, an exit status with --fail-on-breakage; a baseline saved by one run is
/// compared with by the next.
#[test]
fn a_run_writes_rule_health_and_compares_with_its_baseline() {
    let tmp = tempfile::tempdir().unwrap();
    let base = tmp.path().join("baseline.jsonl");
    let b = base.to_str().unwrap();
    let v1 = tmp.path().join("v1");
    let (code, err) = run_version("v1", &v1, &["--save-rules-baseline", b]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(std::fs::read_to_string(&base).unwrap().lines().count(), 5);
    let health = read_json(&v1.join("rule_health.json"));
    assert_eq!(health["pages"], 5);
    assert!(health["broken"].as_array().unwrap().is_empty(), "{health}");
    let summary = read_json(&v1.join("summary.json"));
    assert_eq!(summary["rule_health"]["pages_probed"], 5, "{summary}");
    assert_eq!(summary["rule_health"]["breakages"], 0, "{summary}");

    let v2 = tmp.path().join("v2");
    let (code, err) = run_version("v2", &v2, &["--rules-baseline", b, "--report"]);
    assert_eq!(code, 0, "breakage is an exit status only when asked: {err}");
    let health = read_json(&v2.join("rule_health.json"));
    let broken = health["broken"].as_array().unwrap();
    let urls: std::collections::BTreeSet<&str> =
        broken.iter().map(|b| b["url"].as_str().unwrap()).collect();
    let pages: Vec<&str> = urls.iter().map(|u| &u[u.len() - 7..]).collect();
    assert_eq!(
        pages,
        ["/a.html", "/b.html", "/d.html", "/e.html"],
        "{health}"
    );
    assert!(
        broken.iter().any(|b| b["xpath"] == "//div[@id='story']"
            && b["url"].as_str().unwrap().ends_with("/a.html")
            && b["excerpt_before"]
                .as_str()
                .unwrap()
                .starts_with("The harbour bridge reopened")),
        "{health}"
    );
    assert_eq!(health["empty_rules"][0]["rule"], "article", "{health}");
    let summary = read_json(&v2.join("summary.json"));
    assert_eq!(
        summary["rule_health"]["breakages"].as_u64(),
        Some(broken.len() as u64)
    );
    assert_eq!(summary["rule_health"]["rules_broken"], 1);
    assert_eq!(summary["rule_health"]["baseline"], 5);
    assert!(err.contains("BROKEN rules:news.example#article"), "{err}");
    // The report's first section names the page, the XPath and what it kept before.
    let index = std::fs::read_to_string(v2.join("report/index.html")).unwrap();
    let section = index.find("<section id=broken-rules>").unwrap();
    assert!(section < index.find("<table").unwrap());
    let end = index[section..].find("</section>").unwrap() + section;
    let body = &index[section..end];
    assert!(body.contains("content XPath selects nothing now"), "{body}");
    assert!(body.contains("The harbour bridge reopened"), "{body}");
    assert!(body.contains("http://news.example/news/a.html"), "{body}");

    let (code, err) = run_version("v2", &v2, &["--rules-baseline", b, "--fail-on-breakage"]);
    assert_eq!(code, 1, "{err}");
    // Without a baseline, what a run sees alone: pages keeping nothing, the empty rule.
    let (code, err) = run_version("v2", &v2, &["--fail-on-breakage"]);
    assert_eq!(code, 1, "{err}");
    let health = read_json(&v2.join("rule_health.json"));
    assert!(health["broken"]
        .as_array()
        .unwrap()
        .iter()
        .all(|b| b["xpath"].is_null() && b["words_now"] == 0));
    let (code, err) = run_version("v1", &v1, &["--fail-on-breakage"]);
    assert_eq!(code, 0, "{err}");
}

/// Without the rule-health options a run writes what it wrote before: no
/// rule_health.json (an earlier run's is removed), no counts in summary.json.
#[test]
fn rule_health_is_written_only_when_asked() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out");
    let (code, err) = run_version("v2", &out, &["--rules-health"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.join("rule_health.json").exists());
    let (code, err) = run_version("v2", &out, &[]);
    assert_eq!(code, 0, "{err}");
    assert!(!out.join("rule_health.json").exists());
    assert!(read_json(&out.join("summary.json"))
        .get("rule_health")
        .is_none());
    // Rule health needs rules.
    let res = bin()
        .args(["run", "--rules-health", "--out"])
        .arg(tmp.path().join("x"))
        .arg(dir().join("v1"))
        .output()
        .unwrap();
    assert_eq!(res.status.code(), Some(2));
}
