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
