//! Breakage an operator can act on, from probes of a site's pages and, when given, a
//! baseline of the same pages from when the rules worked:
//!
//! - a page where the rule keeps fewer than its `min_words` words (a run falls back there);
//! - with a baseline: a page where the rule keeps less than [`BREAK_RATIO`] of the words it
//!   kept before, a `content` XPath that selects less than that share of its words before,
//!   a `remove` XPath that selected text before and selects nothing now (the template it
//!   cut leaks into the text), a page no rule takes any more;
//! - a rule that keeps fewer than `min_words` words on most (more than half, at least two)
//!   of the probed pages it takes: its layout is gone even where no baseline says so.

use std::collections::BTreeMap;
use std::fmt::Write;

use super::baseline::Baseline;
use super::PageProbe;

/// A page (or XPath) keeping less than this share of the words it kept in the baseline
/// is broken there. Half: ordinary edits of an article (a paragraph added or cut) stay
/// well above it, a selection that lost the article body falls far below. Hand-set.
pub const BREAK_RATIO: f64 = 0.5;

/// One breakage on one page.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Breakage {
    pub file: String,
    /// The rule (the one of the baseline when no rule takes the page now).
    pub rule: String,
    /// `file.yaml:line` of the rule, or of the XPath when one is named.
    pub place: String,
    pub page: String,
    pub url: String,
    /// The XPath that broke (`None`: the rule's kept text as a whole).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub xpath: Option<String>,
    pub words_now: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub words_before: Option<u64>,
    pub excerpt_now: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub excerpt_before: Option<String>,
    /// What broke, in words.
    pub what: String,
}

/// A rule that keeps (almost) nothing on most of the probed pages it takes.
#[derive(Debug, Clone, serde::Serialize)]
pub struct EmptyRule {
    pub file: String,
    pub rule: String,
    pub place: String,
    pub pages: usize,
    pub empty: usize,
    /// The first pages where it kept nothing.
    pub examples: Vec<String>,
}

/// A `remove` XPath that selects nothing on any of the probed pages where its rule keeps
/// text: the template it was written for is gone or renamed (its text may now be kept),
/// or the XPath is no longer needed. Reported, not a breakage: a rule may remove a box
/// that only some pages carry.
#[derive(Debug, Clone, serde::Serialize)]
pub struct IdleRemove {
    pub file: String,
    pub rule: String,
    /// `file.yaml:line` of the XPath.
    pub place: String,
    pub xpath: String,
    /// Pages where the rule kept text (and the XPath selected nothing).
    pub pages: usize,
}

/// Everything found on a set of pages.
#[derive(Debug, Clone, Default, serde::Serialize)]
pub struct Health {
    /// Pages probed (of sites with a rule file).
    pub pages: usize,
    pub broken: Vec<Breakage>,
    pub empty_rules: Vec<EmptyRule>,
    pub idle_removes: Vec<IdleRemove>,
}

impl Health {
    /// Whether there is anything to act on.
    pub fn has_breakage(&self) -> bool {
        !self.broken.is_empty() || !self.empty_rules.is_empty()
    }
}

/// Examples named per empty rule.
const EXAMPLES: usize = 3;

/// Pages (where its rule keeps text) a `remove` XPath must select nothing on before it
/// is reported idle: fewer say little about a box that only some pages carry. Hand-set.
pub const IDLE_REMOVE_PAGES: usize = 3;

/// The `remove` XPaths that select nothing on any of (at least [`IDLE_REMOVE_PAGES`])
/// pages where their rule keeps text.
fn idle_removes(probes: &[PageProbe]) -> Vec<IdleRemove> {
    // (file, rule, place, xpath) → (pages, pages where it selected something)
    let mut seen: BTreeMap<(&str, &str, &str, &str), (usize, usize)> = BTreeMap::new();
    for p in probes {
        let Some(rule) = &p.rule else { continue };
        if p.words < p.min_words {
            continue;
        }
        for x in p.xpaths.iter().filter(|x| x.role == "remove") {
            let e = seen.entry((&p.file, rule, &x.place, &x.xpath)).or_default();
            e.0 += 1;
            if x.nodes > 0 {
                e.1 += 1;
            }
        }
    }
    seen.into_iter()
        .filter(|(_, (pages, hit))| *pages >= IDLE_REMOVE_PAGES && *hit == 0)
        .map(|((file, rule, place, xpath), (pages, _))| IdleRemove {
            file: file.into(),
            rule: rule.into(),
            place: place.into(),
            xpath: xpath.into(),
            pages,
        })
        .collect()
}

fn pct(now: u64, before: u64) -> String {
    format!("{:.0}%", 100.0 * now as f64 / before as f64)
}

/// The breakages of `probes`, against `baseline` when given.
pub fn findings(probes: &[PageProbe], baseline: Option<&Baseline>) -> Health {
    let mut broken = Vec::new();
    for p in probes {
        let before = baseline.and_then(|b| b.get(p));
        let entry = |rule: &str,
                     place: &str,
                     xpath: Option<&str>,
                     now: (u64, &str),
                     was: Option<(u64, &str)>,
                     what: String| Breakage {
            file: p.file.clone(),
            rule: rule.to_string(),
            place: place.to_string(),
            page: p.page.clone(),
            url: p.url.clone(),
            xpath: xpath.map(str::to_string),
            words_now: now.0,
            words_before: was.map(|w| w.0),
            excerpt_now: now.1.to_string(),
            excerpt_before: was.map(|w| w.1.to_string()),
            what,
        };
        let Some(rule) = &p.rule else {
            if let Some(b) = before.filter(|b| b.rule.is_some()) {
                let r = b.rule.as_deref().unwrap_or_default();
                broken.push(entry(
                    r,
                    &b.place,
                    None,
                    (0, ""),
                    Some((b.words, &b.excerpt)),
                    format!("no rule of {} takes the page now (`{r}` did)", p.file),
                ));
            }
            continue;
        };
        let was = before.map(|b| (b.words, b.excerpt.as_str()));
        if p.words < p.min_words {
            broken.push(entry(
                rule,
                &p.place,
                None,
                (p.words, &p.excerpt),
                was,
                format!(
                    "the rule keeps {} words (min_words {}): a run falls back to the next method",
                    p.words, p.min_words
                ),
            ));
        } else if let Some(b) =
            before.filter(|b| b.words > 0 && (p.words as f64) < BREAK_RATIO * b.words as f64)
        {
            broken.push(entry(
                rule,
                &p.place,
                None,
                (p.words, &p.excerpt),
                was,
                format!(
                    "the rule keeps {} words, {} of the {} it kept before",
                    p.words,
                    pct(p.words, b.words),
                    b.words
                ),
            ));
        }
        let Some(b) = before else { continue };
        for x in &p.xpaths {
            let Some(old) = b
                .xpaths
                .iter()
                .find(|o| o.role == x.role && o.xpath == x.xpath)
            else {
                continue;
            };
            let what = match x.role.as_str() {
                "content" if old.words > 0 && (x.words as f64) < BREAK_RATIO * old.words as f64 => {
                    if x.nodes == 0 {
                        format!("content XPath selects nothing now ({} words before)", old.words)
                    } else {
                        format!("content XPath selects {} words, {} of the {} before", x.words, pct(x.words, old.words), old.words)
                    }
                }
                // (Not on a page where the rule keeps nothing: nothing can leak there.)
                "remove" if old.nodes > 0 && x.nodes == 0 && p.words >= p.min_words => format!(
                    "remove XPath selects nothing now (it cut {} words before): that template text may be kept",
                    old.words
                ),
                _ => continue,
            };
            let what = match &x.error {
                Some(e) => format!("{what}; {e}"),
                None => what,
            };
            broken.push(entry(
                rule,
                &x.place,
                Some(&x.xpath),
                (x.words, &x.excerpt),
                Some((old.words, &old.excerpt)),
                what,
            ));
        }
    }
    let mut per_rule: BTreeMap<(&str, &str), (&str, usize, Vec<&str>)> = BTreeMap::new();
    for p in probes {
        let Some(rule) = &p.rule else { continue };
        let e = per_rule
            .entry((&p.file, rule))
            .or_insert((&p.place, 0, Vec::new()));
        e.1 += 1;
        if p.words < p.min_words {
            e.2.push(&p.page);
        }
    }
    let empty_rules = per_rule
        .into_iter()
        .filter(|(_, (_, pages, empty))| *pages >= 2 && 2 * empty.len() > *pages)
        .map(|((file, rule), (place, pages, empty))| EmptyRule {
            file: file.to_string(),
            rule: rule.to_string(),
            place: place.to_string(),
            pages,
            empty: empty.len(),
            examples: empty.iter().take(EXAMPLES).map(|s| s.to_string()).collect(),
        })
        .collect();
    Health {
        pages: probes.len(),
        broken,
        empty_rules,
        idle_removes: idle_removes(probes),
    }
}

/// The findings as text, rules that select nothing on most pages first.
pub fn render_text(h: &Health) -> String {
    let mut out = String::new();
    for e in &h.empty_rules {
        let _ = writeln!(
            out,
            "EMPTY rules:{}#{} ({}): keeps nothing on {} of its {} pages, e.g. {}",
            e.file,
            e.rule,
            e.place,
            e.empty,
            e.pages,
            e.examples.join(" ")
        );
    }
    for b in &h.broken {
        let _ = writeln!(
            out,
            "BROKEN rules:{}#{} on {} <{}>",
            b.file, b.rule, b.page, b.url
        );
        let _ = writeln!(out, "     {} ({})", b.what, b.place);
        if let Some(x) = &b.xpath {
            let _ = writeln!(out, "     xpath: {x}");
        }
        if let Some(before) = &b.excerpt_before {
            let _ = writeln!(out, "     before: {before:?}");
        }
        let _ = writeln!(out, "     now:    {:?}", b.excerpt_now);
    }
    for r in &h.idle_removes {
        let _ = writeln!(
            out,
            "IDLE rules:{}#{} ({}): remove XPath selects nothing on any of its {} pages (the template it cut may be kept, or it is not needed): {}",
            r.file, r.rule, r.place, r.pages, r.xpath
        );
    }
    let _ = writeln!(
        out,
        "{} pages probed: {} breakage(s), {} rule(s) empty on most pages, {} idle remove XPath(s)",
        h.pages,
        h.broken.len(),
        h.empty_rules.len(),
        h.idle_removes.len()
    );
    out
}

#[cfg(test)]
mod tests {
    use super::super::XpathProbe;
    use super::*;

    fn page(url: &str, words: u64, remove_nodes: usize) -> PageProbe {
        PageProbe {
            file: "a.example".into(),
            rule: Some("main".into()),
            place: "a.example.yaml:3".into(),
            page: url.into(),
            url: url.into(),
            words,
            excerpt: String::new(),
            min_words: 1,
            xpaths: vec![XpathProbe {
                role: "remove".into(),
                xpath: "//div[@class='share']".into(),
                place: "a.example.yaml:7".into(),
                nodes: remove_nodes,
                words: 4 * remove_nodes as u64,
                excerpt: String::new(),
                error: None,
            }],
        }
    }

    #[test]
    fn a_remove_selecting_nothing_anywhere_is_idle_once_enough_pages_say_so() {
        let idle: Vec<PageProbe> = (0..3).map(|i| page(&format!("u{i}"), 50, 0)).collect();
        let h = findings(&idle, None);
        assert_eq!(h.idle_removes.len(), 1);
        assert_eq!(h.idle_removes[0].pages, 3);
        assert!(!h.has_breakage());
        // One page where it cuts something: not idle.
        let mut some = idle.clone();
        some.push(page("u9", 50, 1));
        assert!(findings(&some, None).idle_removes.is_empty());
        // Two pages are too few; pages where the rule keeps nothing do not count.
        assert!(findings(&idle[..2], None).idle_removes.is_empty());
        let mut empty = idle[..2].to_vec();
        empty.push(page("u5", 0, 0));
        assert!(findings(&empty, None).idle_removes.is_empty());
    }
}
