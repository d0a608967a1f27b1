//! Rule XPaths run under a budget (issue 35, item 9): an XPath whose cost grows faster
//! than the page (an absolute path inside a predicate) is not run on a page where its
//! estimate is over `xpath_budget`; the rule fails there (counted, reported) and the page
//! falls back; `rules check` warns about such XPaths.

mod common;
use common::*;

use std::path::Path;

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

const RULE: &str = r#"site:
  host: slow.example
rules:
  - name: quadratic
    content:
      - "//p[count(//p) > 0]"
"#;

#[test]
fn a_quadratic_rule_is_not_run_past_the_budget_and_is_warned_about() {
    let dir = tempfile::tempdir().unwrap();
    let rules = dir.path().join("rules");
    std::fs::create_dir_all(&rules).unwrap();
    std::fs::write(rules.join("slow.yaml"), RULE).unwrap();
    let check = run(&["rules", "check", s(&rules)]);
    let stdout = String::from_utf8_lossy(&check.stdout);
    assert!(check.status.success(), "{stdout}");
    assert!(
        stdout.contains("warning:")
            && stdout.contains("inside a predicate")
            && stdout.contains("slow.yaml:6"),
        "{stdout}"
    );

    // 20,000 paragraphs (about 1 MB): 4 × 10^8 visits for the rule, over the budget.
    let pages = dir.path().join("pages");
    std::fs::create_dir_all(&pages).unwrap();
    let para = "<p>One of twenty thousand paragraphs, each with a few words of text.</p>";
    std::fs::write(
        pages.join("big.html"),
        format!(
            "<html><body><article>{}</article></body></html>",
            para.repeat(20_000)
        ),
    )
    .unwrap();
    std::fs::write(
        pages.join("small.html"),
        "<html><body><article><p>A small page whose one paragraph the quadratic rule may well read.</p></article></body></html>",
    )
    .unwrap();
    let manifest = pages.join("manifest.jsonl");
    std::fs::write(
        &manifest,
        "{\"path\":\"big.html\",\"url\":\"http://slow.example/big\"}\n{\"path\":\"small.html\",\"url\":\"http://slow.example/small\"}\n",
    )
    .unwrap();
    let out = dir.path().join("out");
    let start = std::time::Instant::now();
    let run = run(&[
        "run",
        "--rules",
        s(&rules),
        "--manifest",
        s(&manifest),
        "--out",
        s(&out),
    ]);
    let took = start.elapsed();
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(run.status.success(), "{stderr}");
    assert!(took.as_secs() < 30, "took {took:?}");
    let records = jsonl(&out.join("pages.jsonl"));
    let method = |path: &str| {
        records
            .iter()
            .find(|r| r["path"] == path)
            .map(|r| r["method"].as_str().unwrap().to_string())
            .unwrap()
    };
    // The big page fell back; the small one, within the budget, was answered by the rule.
    assert!(
        !method("big.html").starts_with("rules"),
        "{}",
        method("big.html")
    );
    assert!(
        method("small.html").starts_with("rules"),
        "{}",
        method("small.html")
    );
    let summary = std::fs::read_to_string(out.join("summary.json")).unwrap();
    let summary: serde_json::Value = serde_json::from_str(&summary).unwrap();
    let text = summary["extractors"].to_string();
    assert!(text.contains("quadratic"), "{text}");
    assert!(stderr.contains("xpath_budget"), "{stderr}");
}

#[test]
fn rules_try_applies_the_xpath_budget_and_says_the_rule_is_broken_there() {
    let dir = tempfile::tempdir().unwrap();
    let rule = dir.path().join("slow.yaml");
    std::fs::write(&rule, RULE).unwrap();
    // 20,000 paragraphs: 4 × 10^8 visits, over the default budget of 10^7. Unbudgeted,
    // sxd-xpath took minutes on this page.
    let para = "<p>One of twenty thousand paragraphs, each with a few words of text.</p>";
    let page = dir.path().join("big.html");
    std::fs::write(
        &page,
        format!(
            "<html><body><article>{}</article></body></html>",
            para.repeat(20_000)
        ),
    )
    .unwrap();
    let start = std::time::Instant::now();
    let out = run(&[
        "rules",
        "try",
        "--rule",
        s(&rule),
        "--url",
        "http://slow.example/big",
        s(&page),
    ]);
    let took = start.elapsed();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert!(took.as_secs() < 30, "took {took:?}");
    assert!(
        stdout.contains("//p[count(//p) > 0]: ERROR would visit about")
            && stdout.contains("over xpath_budget 10000000"),
        "{stdout}"
    );
    assert!(stdout.contains("broken on this page"), "{stdout}");
    assert!(stdout.contains("no rule answers"), "{stdout}");
    // A budget from the configuration is the one applied: raised, the XPath is run (on a
    // small page, so that the run stays short).
    let small = dir.path().join("small.html");
    std::fs::write(
        &small,
        "<html><body><article><p>One paragraph.</p><p>Two paragraphs.</p></article></body></html>",
    )
    .unwrap();
    let config = dir.path().join("tight.yaml");
    std::fs::write(&config, "xpath_budget: 3\n").unwrap();
    let tight = run(&[
        "--config",
        s(&config),
        "rules",
        "try",
        "--xpath",
        "//p[count(//p) > 0]",
        s(&small),
    ]);
    let stdout = String::from_utf8_lossy(&tight.stdout);
    assert!(stdout.contains("over xpath_budget 3"), "{stdout}");
    let loose = run_ok(&["rules", "try", "--xpath", "//p[count(//p) > 0]", s(&small)]);
    let stdout = String::from_utf8_lossy(&loose.stdout);
    assert!(stdout.contains("2 node(s)"), "{stdout}");
}
