//! Per-site XPath rules through the CLI: the shipped rule files, bad rule files,
//! breakage detection, and the operator commands.

mod common;
use common::*;

fn site_rules() -> String {
    root().join("site-rules").display().to_string()
}

fn write_rules(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (name, text) in files {
        std::fs::write(dir.path().join(name), text).unwrap();
    }
    dir
}

#[test]
fn shipped_rule_files_check_clean_and_their_tests_pass() {
    let out = run(&["rules", "check", &site_rules()]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert!(stdout.contains("0 problem(s)"), "{stdout}");

    let out = run(&["rules", "test", &site_rules()]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert!(!stdout.contains("FAIL"), "{stdout}");
    let passed = stdout.lines().filter(|l| l.starts_with("PASS")).count();
    assert!(passed >= 17, "{stdout}");
    for site in [
        "technews.example",
        "gardenblog.example",
        "novosti.example",
        "gazeta.example",
        "dailydigest.example",
        "ru.wikipedia.org",
    ] {
        assert!(
            stdout.contains(&format!("rules:{site}#")),
            "no test for {site}"
        );
    }
}

#[test]
fn run_with_rules_names_the_rule_and_keeps_every_expectation() {
    let out_dir = tempfile::tempdir().unwrap();
    let manifest = fixtures().join("sites/manifest.jsonl");
    let out = run(&[
        "run",
        "--rules",
        &site_rules(),
        "--strict",
        "--manifest",
        manifest.to_str().unwrap(),
        "--out",
        out_dir.path().to_str().unwrap(),
    ]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let records = jsonl(&out_dir.path().join("pages.jsonl"));
    let failures = check_expectations(&records, |p| p.to_string());
    assert!(failures.is_empty(), "{failures:#?}");
    for r in &records {
        let method = r["method"].as_str().unwrap();
        assert!(method.starts_with("rules:"), "{method} for {}", r["path"]);
    }
    let print = records
        .iter()
        .find(|r| r["path"].as_str().unwrap().ends_with(".print.html"))
        .unwrap();
    assert_eq!(print["method"], "rules:technews.example#print");
    let gazeta = records
        .iter()
        .find(|r| r["path"] == "gazeta.example/stati/staraya-melnitsa.html")
        .unwrap();
    assert_eq!(gazeta["date"], "03.03.2025");
    let summary: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(out_dir.path().join("summary.json")).unwrap(),
    )
    .unwrap();
    let rules = &summary["extractors"]["rules"];
    assert_eq!(rules["pages_yielded"], records.len());
    assert_eq!(rules["per_rule"]["gazeta.example#statya"]["matched"], 4);
    assert_eq!(rules["per_rule"]["gazeta.example#statya"]["broke"], 0);
}

#[test]
fn a_rule_that_no_longer_fits_the_layout_falls_back_and_is_reported() {
    // The site "changed its layout": the rule's container no longer exists.
    let dir = write_rules(&[(
        "technews.example.yaml",
        "site:\n  host: technews.example\nrules:\n  - name: article\n    path_prefix: /news/\n    content: [\"//div[@class='article-body-v1']\"]\n",
    )]);
    let out_dir = tempfile::tempdir().unwrap();
    let manifest = fixtures().join("sites/manifest.jsonl");
    let out = run(&[
        "run",
        "--rules",
        dir.path().to_str().unwrap(),
        "--manifest",
        manifest.to_str().unwrap(),
        "--out",
        out_dir.path().to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0));
    let records = jsonl(&out_dir.path().join("pages.jsonl"));
    // Every page still has its text, from the next method.
    let failures = check_expectations(&records, |p| p.to_string());
    assert!(failures.is_empty(), "{failures:#?}");
    assert!(records.iter().all(|r| matches!(
        r["method"].as_str(),
        Some("heuristic" | "inbreeding+heuristic")
    )));
    let summary: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(out_dir.path().join("summary.json")).unwrap(),
    )
    .unwrap();
    let rule = &summary["extractors"]["rules"]["per_rule"]["technews.example#article"];
    assert_eq!(rule["matched"], 5, "{rule}");
    assert_eq!(rule["broke"], 5, "{rule}");
    assert_eq!(rule["yielded"], 0, "{rule}");
    assert_eq!(
        rule["examples"]["broke"][0],
        "http://technews.example/news/data-centres-waste-heat.html"
    );
}

const BAD_FILES: &[(&str, &str)] = &[
    (
        "good.yaml",
        "site:\n  host: gardenblog.example\nrules:\n  - name: post\n    content: [\"//div[@class='entry-content']\"]\n",
    ),
    (
        "z-conflict.yaml",
        "site:\n  host: gardenblog.example\nrules:\n  - name: other\n    content: ['//article']\n",
    ),
    ("broken-yaml.yaml", "site:\n  host: novosti.example\nrules: [\n"),
    (
        "unknown-key.yaml",
        "site:\n  host: dailydigest.example\nrules:\n  - name: a\n    contents: ['//p']\n",
    ),
    (
        "bad-xpath.yaml",
        "site:\n  host: technews.example\nrules:\n  - name: article\n    content: [\"//div[@class='post-body'\"]\n",
    ),
    (
        "whole.yaml",
        "site:\n  host: gazeta.example\nrules:\n  - name: all\n    content: ['/html']\n",
    ),
];

#[test]
fn rules_check_names_file_line_and_column_of_each_problem() {
    let dir = write_rules(BAD_FILES);
    let out = run(&["rules", "check", dir.path().to_str().unwrap()]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    let line_for = |file: &str| {
        stdout
            .lines()
            .find(|l| l.contains(file))
            .unwrap_or_else(|| panic!("nothing about {file}: {stdout}"))
            .to_string()
    };
    assert!(line_for("z-conflict.yaml")
        .contains("z-conflict.yaml:2:9: host `gardenblog.example` is already claimed by"));
    assert!(line_for("broken-yaml.yaml").contains("broken-yaml.yaml:3:8: unclosed bracket"));
    assert!(line_for("unknown-key.yaml").contains("unknown-key.yaml:5:5: unknown field `contents`"));
    // The XPath starts after the quote at column 15; it ends too early (no `]`).
    let bad = line_for("bad-xpath.yaml");
    assert!(bad.contains("bad-xpath.yaml:5:"), "{bad}");
    assert!(bad.contains("//div[@class='post-body'"), "{bad}");
    assert!(line_for("whole.yaml").contains("selects the whole document"));
    assert!(stdout.contains("1 rules in force"), "{stdout}");
}

#[test]
fn bad_rule_files_are_skipped_in_runs_unless_strict() {
    let dir = write_rules(BAD_FILES);
    let manifest = fixtures().join("sites/manifest.jsonl");
    let out = run(&[
        "extract",
        "--rules",
        dir.path().to_str().unwrap(),
        "--manifest",
        manifest.to_str().unwrap(),
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(
        stderr.contains("warning:") && stderr.contains("bad-xpath.yaml:5:"),
        "{stderr}"
    );
    let records = stdout_jsonl(&out);
    assert_eq!(records.len(), 16);
    for r in &records {
        let method = r["method"].as_str().unwrap();
        if r["url"].as_str().unwrap().contains("gardenblog") {
            assert_eq!(method, "rules:good#post", "{}", r["path"]);
        } else {
            assert!(!method.starts_with("rules:"), "{}: {method}", r["path"]);
        }
    }
    let failures = check_expectations(&records, |p| p.to_string());
    assert!(failures.is_empty(), "{failures:#?}");

    let out = run(&[
        "extract",
        "--rules",
        dir.path().to_str().unwrap(),
        "--strict",
        "--manifest",
        manifest.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    assert!(String::from_utf8_lossy(&out.stderr).contains("--strict"));
}

#[test]
fn rules_test_fails_when_a_snippet_is_missing() {
    let page = fixtures().join("sites/gardenblog.example/posts/pruning-apple-trees.html");
    let yaml = format!(
        "site:\n  host: gardenblog.example\nrules:\n  - name: post\n    content: [\"//div[@class='entry-content']\"]\ntests:\n  - page: {}\n    url: http://gardenblog.example/posts/pruning-apple-trees.html\n    must_contain: ['Late winter is the traditional time', 'A sentence that is not there']\n    must_not_contain: ['Join the seed swap']\n",
        page.display()
    );
    let dir = write_rules(&[("gardenblog.yaml", &yaml)]);
    let out = run(&["rules", "test", dir.path().to_str().unwrap()]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(stdout.contains("FAIL"), "{stdout}");
    assert!(
        stdout.contains("missing: \"A sentence that is not there\""),
        "{stdout}"
    );
    assert!(stdout.contains("0 passed, 1 failed"), "{stdout}");
}

#[test]
fn rules_try_shows_selection_and_kept_text() {
    let page = fixtures().join("sites/technews.example/news/passkeys-explained.html");
    let out = run(&[
        "rules",
        "try",
        "--xpath",
        "//div[@class='post-body']",
        "--remove",
        "//div[contains(@class, 'ad-slot')]",
        "--xpath",
        "//div[@class=='x']",
        page.to_str().unwrap(),
    ]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert!(
        stdout.contains("//div[@class='post-body']: 1 node(s)"),
        "{stdout}"
    );
    assert!(stdout.contains("div[@class='post-body']"), "{stdout}");
    assert!(
        stdout.contains("remove //div[contains(@class, 'ad-slot')]: 1 node(s)"),
        "{stdout}"
    );
    assert!(stdout.contains("ERROR does not parse"), "{stdout}");
    assert!(stdout.contains("(at character 14)"), "{stdout}");
    let kept = stdout.split("-- kept text").nth(1).unwrap();
    assert!(kept.contains("Passkeys are gradually replacing passwords"));
    assert!(!kept.contains("Advertisement"));

    let out = run(&[
        "rules",
        "try",
        "--rule",
        root()
            .join("site-rules/technews.example.yaml")
            .to_str()
            .unwrap(),
        "--url",
        "http://technews.example/news/passkeys-explained.print.html",
        fixtures()
            .join("sites/technews.example/news/passkeys-explained.print.html")
            .to_str()
            .unwrap(),
    ]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert!(stdout.contains("rule technews.example#print"), "{stdout}");
    assert!(
        stdout.contains("as a run would apply it: rules:technews.example#print"),
        "{stdout}"
    );
}
