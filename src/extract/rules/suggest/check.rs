//! The draft through the rule engine itself: the YAML is loaded as `rules check` loads it
//! and applied to the pages as `extract --rules` applies it, so the page counts in the
//! draft's comments and the embedded tests are those of the file as written.

use std::collections::HashMap;
use std::path::Path;

use super::PageData;
use crate::extract::rules::{run_tests, RuleSet};
use crate::extract::{Answer, PageContext};

/// Lower-cased word tokens (letters and digits); a letter of a script written without
/// spaces (CJK) is a token of its own, as the corpora's scorers count Chinese.
pub(super) fn tokens(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    for c in text.chars().flat_map(char::to_lowercase) {
        if c.is_alphanumeric() || c == '_' {
            if is_unspaced(c) {
                if !cur.is_empty() {
                    out.push(std::mem::take(&mut cur));
                }
                out.push(c.to_string());
            } else {
                cur.push(c);
            }
        } else if !cur.is_empty() {
            out.push(std::mem::take(&mut cur));
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

fn is_unspaced(c: char) -> bool {
    matches!(c as u32, 0x3040..=0x30ff | 0x3400..=0x4dbf | 0x4e00..=0x9fff | 0xac00..=0xd7af)
}

/// Word F1 of `pred` against `reference` (bags of [`tokens`]).
pub(super) fn word_f1(pred: &str, reference: &str) -> f64 {
    let (p, r) = (tokens(pred), tokens(reference));
    if p.is_empty() || r.is_empty() {
        return if p.is_empty() && r.is_empty() {
            1.0
        } else {
            0.0
        };
    }
    let mut bag: HashMap<&str, i64> = HashMap::new();
    for t in &r {
        *bag.entry(t).or_default() += 1;
    }
    let mut overlap = 0i64;
    for t in &p {
        if let Some(n) = bag.get_mut(t.as_str()) {
            if *n > 0 {
                *n -= 1;
                overlap += 1;
            }
        }
    }
    if overlap == 0 {
        return 0.0;
    }
    let (pr, rc) = (
        overlap as f64 / p.len() as f64,
        overlap as f64 / r.len() as f64,
    );
    2.0 * pr * rc / (pr + rc)
}

/// The rule file `yaml` applied to each page as a run applies it (`None`: no rule
/// answered). `Err`: the file has problems (`rules check` would print them).
pub(super) fn apply(yaml: &str, pages: &[&PageData]) -> Result<Vec<Option<Answer>>, String> {
    let set = RuleSet::from_sources(vec![("suggested.yaml".into(), yaml.to_string())]);
    problems(&set)?;
    Ok(pages
        .iter()
        .map(|p| {
            let ctx = PageContext {
                url: &p.page.url,
                group: "",
            };
            set.apply(&p.page.parsed, &ctx)
        })
        .collect())
}

fn problems(set: &RuleSet) -> Result<(), String> {
    if set.problems().is_empty() {
        Ok(())
    } else {
        Err(set
            .problems()
            .iter()
            .map(|p| p.to_string())
            .collect::<Vec<_>>()
            .join("; "))
    }
}

/// Check a finished draft as `rules check` and `rules test` would, as if saved at
/// `path` (test pages are relative to it): `Err` on a problem of the file; otherwise the
/// failures of each embedded test, in file order (empty when it passes).
pub fn validate(yaml: &str, path: &Path) -> Result<Vec<Vec<String>>, String> {
    let set = RuleSet::from_sources(vec![(path.to_owned(), yaml.to_string())]);
    problems(&set)?;
    Ok(run_tests(&set).into_iter().map(|o| o.failures).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn word_f1_counts_bags_of_lower_case_words() {
        assert_eq!(word_f1("The cat sat", "the cat sat"), 1.0);
        assert!((word_f1("a b", "a c") - 0.5).abs() < 1e-9);
        assert_eq!(tokens("北京 Hi"), vec!["北", "京", "hi"]);
    }
}
