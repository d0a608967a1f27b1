//! The rule files' own tests (`thresher rules test`): each `tests:` entry names a saved
//! page and its URL; the page must be handled by a rule of its file (the named one, if
//! any), keep every `must_contain` snippet, drop every `must_not_contain` one, and give
//! the expected title.

use super::lookup::split_url;
use super::RuleSet;
use crate::extract::dom;
use crate::extract::PageContext;

/// Outcome of one embedded test.
#[derive(Debug)]
pub struct TestOutcome {
    /// `file.yaml:line`
    pub place: String,
    pub page: String,
    pub method: String,
    pub failures: Vec<String>,
}

/// Run the embedded tests of every file: each page must be handled by a rule of its
/// file (the named one, if any) and keep / drop the listed snippets.
pub fn run_tests(set: &RuleSet) -> Vec<TestOutcome> {
    let mut outcomes = Vec::new();
    for file in &set.files {
        for t in &file.tests {
            let mut failures = Vec::new();
            let place = format!("{}:{}", file.path.display(), t.line);
            let bytes = match std::fs::read(&t.page) {
                Ok(b) => b,
                Err(e) => {
                    outcomes.push(TestOutcome {
                        place,
                        page: t.page.display().to_string(),
                        method: String::new(),
                        failures: vec![format!("cannot read the page: {e}")],
                    });
                    continue;
                }
            };
            let tld = split_url(&t.url)
                .and_then(|(h, _)| h.rsplit('.').next().map(|s| s.as_bytes().to_vec()));
            let decoded =
                crate::charset::decode_html(&bytes, t.content_type.as_deref(), tld.as_deref());
            let parsed = dom::parse_page(&decoded.text);
            let ctx = PageContext {
                url: &t.url,
                group: "",
            };
            let answer = set.apply(&parsed, &ctx);
            let method = answer
                .as_ref()
                .map_or("(no rule)".to_string(), |a| a.method.clone());
            match &answer {
                None => failures.push(format!(
                    "no rule of {} handled {} (no rule matched, or the rule broke)",
                    file.name, t.url
                )),
                Some(a) => {
                    let expected = match &t.rule {
                        Some(r) => a.method == format!("rules:{}#{r}", file.name),
                        None => a.method.starts_with(&format!("rules:{}#", file.name)),
                    };
                    if !expected {
                        failures.push(format!(
                            "handled by {}, expected rules:{}#{}",
                            a.method,
                            file.name,
                            t.rule.as_deref().unwrap_or("*")
                        ));
                    }
                    let text = &a.extracted.text;
                    for s in &t.must_contain {
                        if !text.contains(s.as_str()) {
                            failures.push(format!("missing: {s:?}"));
                        }
                    }
                    for s in &t.must_not_contain {
                        if text.contains(s.as_str()) {
                            failures.push(format!("kept but must not be: {s:?}"));
                        }
                    }
                    if let Some(title) = &t.title {
                        let got = a.title.clone().unwrap_or_else(|| {
                            crate::extract::title::page_title(&parsed.dom, Some(&t.url))
                        });
                        if &got != title {
                            failures.push(format!("title {got:?}, expected {title:?}"));
                        }
                    }
                }
            }
            outcomes.push(TestOutcome {
                place,
                page: t.page.display().to_string(),
                method,
                failures,
            });
        }
    }
    outcomes
}
