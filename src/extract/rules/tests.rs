//! Rule sets loaded from YAML text and applied to pages end to end: the text a rule
//! keeps and cuts, breakage and its counters, problems with their places, and the rule
//! set shared between threads.

use std::path::PathBuf;

use super::breakage::MIN_HISTORY;
use super::RuleSet;
use crate::extract::dom;
use crate::extract::xpath_fast::{Plan, StrPlan};
use crate::extract::PageContext;

fn set_of(files: &[(&str, &str)]) -> RuleSet {
    RuleSet::from_sources(
        files
            .iter()
            .map(|(p, t)| (PathBuf::from(p), t.to_string()))
            .collect(),
    )
}

const SITE: &str = "site:\n  host: a.example\n  subdomains: true\nrules:\n  - name: article\n    path_prefix: /news/\n    content: [\"//h1\", \"//div[@class='body']\"]\n    remove: [\"//div[@class='ad']\"]\n    title: \"//h1\"\n    date: \"//meta[@name='date']/@content\"\n";

const PAGE: &str = "<html><head><meta name=date content='2025-01-02'></head><body><nav>Home News</nav><h1>The headline</h1><div class=body><p>First paragraph of the body.</p><div class=ad>Buy now</div><p>Second <b>one</b>.</p><script>x()</script></div><footer>(c) site</footer></body></html>";

fn ctx(url: &str) -> PageContext<'_> {
    PageContext { url, group: "" }
}

#[test]
fn a_rule_keeps_its_content_in_order_and_cuts_what_it_removes() {
    let set = set_of(&[("r/a.example.yaml", SITE)]);
    assert!(set.problems().is_empty(), "{:?}", set.problems());
    let page = dom::parse_page(PAGE);
    let a = set
        .apply(&page, &ctx("https://www.A.example/news/x.html?q=1"))
        .unwrap();
    assert_eq!(a.method, "rules:a.example#article");
    assert_eq!(
        a.extracted.text,
        "The headline\nFirst paragraph of the body.\nSecond one."
    );
    assert_eq!(a.title.as_deref(), Some("The headline"));
    assert_eq!(a.date.as_deref(), Some("2025-01-02"));
    // Subdomain, but a path no rule covers: next method.
    assert!(set
        .apply(&page, &ctx("http://m.a.example/about/"))
        .is_none());
    // Another host.
    assert!(set
        .apply(&page, &ctx("http://b.example/news/x.html"))
        .is_none());
}

#[test]
fn a_rule_that_selects_nothing_is_broken_and_counted() {
    let set = set_of(&[("a.example.yaml", SITE)]);
    let page = dom::parse_page("<html><body><p>A different layout entirely.</p></body></html>");
    assert!(set.apply(&page, &ctx("http://a.example/news/1")).is_none());
    let r = set.report();
    assert_eq!(r["per_rule"]["a.example#article"]["broke"], 1);
    assert_eq!(
        r["per_rule"]["a.example#article"]["examples"]["broke"][0],
        "http://a.example/news/1"
    );
}

#[test]
fn far_less_text_than_usual_is_broken_after_a_history() {
    let set = set_of(&[("a.example.yaml", SITE)]);
    let page = dom::parse_page(PAGE);
    for _ in 0..MIN_HISTORY {
        assert!(set.apply(&page, &ctx("http://a.example/news/1")).is_some());
    }
    set.end_batch();
    let thin = dom::parse_page("<html><body><h1>Only</h1><div class=body></div></body></html>");
    assert!(set.apply(&thin, &ctx("http://a.example/news/2")).is_none());
    assert_eq!(set.report()["per_rule"]["a.example#article"]["broke"], 1);
}

#[test]
fn bad_files_and_rules_are_reported_with_their_place() {
    let set = set_of(&[
        ("ok.yaml", SITE),
        ("dup.yaml", "site: {host: a.example}\nrules:\n  - name: x\n    content: ['//p']\n"),
        ("unknown.yaml", "site:\n  host: c.example\n  colour: red\nrules: []\n"),
        (
            "badxpath.yaml",
            "site:\n  host: d.example\nrules:\n  - name: x\n    content: [\"//div[@class=='a']\"]\n  - name: y\n    content: ['//p']\n",
        ),
        ("whole.yaml", "site:\n  host: e.example\nrules:\n  - name: all\n    content: ['//body']\n"),
        ("func.yaml", "site:\n  host: f.example\nrules:\n  - name: f\n    content: ['//div[matches(@class, \"x\")]']\n"),
        ("num.yaml", "site:\n  host: g.example\nrules:\n  - name: n\n    content: ['count(//p)']\n"),
    ]);
    let msgs: Vec<String> = set.problems().iter().map(|p| p.to_string()).collect();
    let find = |needle: &str| {
        msgs.iter()
            .find(|m| m.contains(needle))
            .unwrap_or_else(|| panic!("no problem mentioning {needle}: {msgs:#?}"))
            .clone()
    };
    assert!(find("dup.yaml").contains("already claimed by ok.yaml"));
    assert!(find("unknown.yaml").starts_with("unknown.yaml:3:3: unknown field `colour`"));
    // The second `=` of `==` is character 15 of the XPath; the XPath starts at
    // column 15 after its quote.
    assert!(
        find("badxpath.yaml").starts_with("badxpath.yaml:5:29: XPath"),
        "{msgs:#?}"
    );
    assert!(find("whole.yaml").contains("selects the whole document"));
    assert!(find("func.yaml").contains("unknown function `matches()`"));
    assert!(find("num.yaml").contains("must select nodes"));
    // The good rule of badxpath.yaml still works; the bad one is disabled.
    assert_eq!(set.active_rules(), 1 + 1 + 0 + 0 + 0);
}

#[test]
fn plans_are_shared_between_threads() {
    fn shared<T: Send + Sync>() {}
    shared::<Plan>();
    shared::<StrPlan>();
    shared::<RuleSet>();
}
