//! The draft's embedded tests: two or three of its pages, each with a sentence of the
//! page's own text that the rule keeps (`must_contain`: in the rule's text and the
//! cascade's answer, on no other page) and a boilerplate line it leaves out
//! (`must_not_contain`: what a `remove` XPath cuts on that page, else a line of the
//! page that neither the rule nor the cascade keeps, preferably one other pages repeat).

use std::collections::HashSet;

use super::check::word_f1;
use super::PageData;
use crate::extract::xpath_fast::Plan;

/// Words of a `must_contain` sentence: enough to be the page's own, short to read.
const CONTAIN_WORDS: usize = 10;
/// A kept line shorter than this is no sentence (a date, a caption).
const MIN_SENTENCE_WORDS: usize = 6;
/// Words of a `must_not_contain` line.
const LEAVE_OUT_WORDS: usize = 10;
/// A left-out line needs this many words (a lone "Home" is on too many pages' text).
const MIN_LEAVE_OUT_WORDS: usize = 3;

/// One test: the page (index into the draft's pages), its rule, the snippets.
#[derive(Debug, Clone)]
pub struct DraftTest {
    pub page: usize,
    pub rule: String,
    pub must_contain: Vec<String>,
    pub must_not_contain: Vec<String>,
}

/// The first `n` words of `line`, joined as the line has them (collapsed text).
fn first_words(line: &str, n: usize) -> String {
    line.split_whitespace()
        .take(n)
        .collect::<Vec<_>>()
        .join(" ")
}

/// A sentence of `text` that the cascade's answer has too and no other page's text.
fn own_sentence(text: &str, answer: &str, others: &[&str]) -> Option<String> {
    let mut lines: Vec<&str> = text
        .lines()
        .filter(|l| l.split_whitespace().count() >= MIN_SENTENCE_WORDS)
        .collect();
    lines.sort_by_key(|l| std::cmp::Reverse(l.split_whitespace().count()));
    lines.into_iter().find_map(|l| {
        let s = first_words(l, CONTAIN_WORDS);
        (text.contains(&s) && answer.contains(&s) && !others.iter().any(|o| o.contains(&s)))
            .then_some(s)
    })
}

/// A line of the page that the rule leaves out: what a `remove` XPath cuts, else a
/// visible line neither the rule nor the cascade keeps, one other pages repeat first.
fn left_out(
    page: &PageData,
    text: &str,
    removes: &[&Plan],
    repeated: &HashSet<String>,
) -> Option<String> {
    let fits = |s: &str| {
        s.split_whitespace().count() >= MIN_LEAVE_OUT_WORDS
            && !text.contains(s)
            && !page.page.answer.text.contains(s)
    };
    for r in removes {
        for it in r.select(&page.arena) {
            let s = first_words(&Plan::item_string(&page.arena, &it), LEAVE_OUT_WORDS);
            if fits(&s) {
                return Some(s);
            }
        }
    }
    let lines: Vec<String> = page
        .page
        .parsed
        .dom
        .blocks
        .iter()
        .map(|b| first_words(&b.text, LEAVE_OUT_WORDS))
        .filter(|s| fits(s))
        .collect();
    lines
        .iter()
        .find(|s| repeated.contains(*s))
        .or(lines.first())
        .cloned()
}

/// Up to `max` tests over `pages` (each with the rule's text and its rule name), the
/// pages where the rule's text is closest to the cascade's answer first, one per rule
/// before a second for any.
pub(super) fn pick(
    pages: &[&PageData],
    texts: &[Option<(String, String)>],
    removes: &[(String, Vec<&Plan>)],
    max: usize,
) -> Vec<DraftTest> {
    let mut order: Vec<(usize, f64)> = texts
        .iter()
        .enumerate()
        .filter_map(|(i, t)| {
            t.as_ref()
                .map(|(text, _)| (i, word_f1(text, &pages[i].page.answer.text)))
        })
        .collect();
    order.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    // Lines that more than one page shows: template lines, the best to leave out.
    let mut seen: HashSet<String> = HashSet::new();
    let mut repeated: HashSet<String> = HashSet::new();
    for p in pages {
        let mut own = HashSet::new();
        for b in &p.page.parsed.dom.blocks {
            let s = first_words(&b.text, LEAVE_OUT_WORDS);
            if own.insert(s.clone()) && !seen.insert(s.clone()) {
                repeated.insert(s);
            }
        }
    }
    let all_texts: Vec<&str> = texts
        .iter()
        .map(|t| t.as_ref().map_or("", |(x, _)| x.as_str()))
        .collect();
    let mut out: Vec<(usize, DraftTest)> = Vec::new();
    let mut rules_done: HashSet<String> = HashSet::new();
    for pass in 0..2 {
        for &(i, _) in &order {
            if out.len() >= max || out.iter().any(|(j, _)| *j == i) {
                continue;
            }
            let (text, rule) = texts[i].as_ref().expect("ordered pages have a text");
            if pass == 0 && rules_done.contains(rule) {
                continue;
            }
            let others: Vec<&str> = all_texts
                .iter()
                .enumerate()
                .filter(|(j, _)| *j != i)
                .map(|(_, t)| *t)
                .collect();
            let Some(sentence) = own_sentence(text, &pages[i].page.answer.text, &others) else {
                continue;
            };
            let plans: Vec<&Plan> = removes
                .iter()
                .filter(|(r, _)| r == rule)
                .flat_map(|(_, p)| p.iter().copied())
                .collect();
            let leave = left_out(pages[i], text, &plans, &repeated);
            rules_done.insert(rule.clone());
            out.push((
                i,
                DraftTest {
                    page: pages[i].index,
                    rule: rule.clone(),
                    must_contain: vec![sentence],
                    must_not_contain: leave.into_iter().collect(),
                },
            ));
        }
    }
    out.into_iter().map(|(_, t)| t).collect()
}
