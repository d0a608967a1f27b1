//! `remove` XPaths: template blocks inside the content element that the cross-page
//! answer and the local heuristic agree are not the page's own. On each page, an element
//! inside the content holding visible text and none of the cascade's answer is a
//! candidate when the heuristic dropped it too, or when the same text sits inside the
//! content of another page (a repeated "share this" line, a promotion box). Its stable
//! steps become XPaths; one is kept when cutting it improves at least
//! [`MIN_REMOVE_PAGES`] pages and cuts answer text on none.

use std::collections::{BTreeMap, HashMap, HashSet};

use super::candidates::Candidate;
use super::select;
use super::steps::own_steps;
use super::PageData;
use crate::extract::xpath_fast::Plan;

/// A `remove` XPath must help on at least this many pages: one page's odd box is that
/// page's business, two pages make a habit of the template.
pub(super) const MIN_REMOVE_PAGES: usize = 2;
/// Cutting more than this share of a page's answer characters counts as harm.
const MAX_ANSWER_CUT: f64 = 0.02;
/// The most `remove` XPaths a drafted rule gets.
const MAX_REMOVE: usize = 8;
/// Characters of an element's text that identify it across pages.
const KEY_CHARS: usize = 200;

/// A chosen `remove` XPath: how many pages it cleaned and a preview of what it cuts.
#[derive(Debug, Clone)]
pub(super) struct Removal {
    pub(super) cand: Candidate,
    pub(super) pages: usize,
    pub(super) preview: String,
}

/// Lower-case letters of an element's text (as style-inbreeding keys text): the same
/// box with another counter or date is the same text.
fn text_key(page: &PageData, i: u32) -> String {
    page.arena
        .string_value(i)
        .chars()
        .filter(|c| c.is_alphabetic())
        .flat_map(char::to_lowercase)
        .take(KEY_CHARS)
        .collect()
}

/// Maximal elements inside the kept ranges with visible text and no answer text.
fn foreign_elements(page: &PageData, ranges: &[(u32, u32)]) -> Vec<u32> {
    let arena = &page.arena;
    let mut out = Vec::new();
    for &(s, e) in ranges {
        let mut i = s + 1;
        while i < e {
            let n = &arena.nodes[i as usize];
            let heading = arena
                .name(i)
                .is_some_and(|n| matches!(&**n, "h1" | "h2" | "h3" | "h4" | "h5" | "h6"));
            // A heading is the start of a section, not a box of the template ("See
            // also", "Examples" are headings the answer may leave out with their list).
            if arena.name(i).is_some()
                && !heading
                && page.map.visible(arena, i) > 0
                && page.map.answer(arena, i) == 0
            {
                out.push(i);
                i = n.end;
            } else {
                i += 1;
            }
        }
    }
    out
}

/// Choose `remove` XPaths for `content` on `pages`.
pub(super) fn removals(pages: &[&PageData], content: &[&Plan]) -> Vec<Removal> {
    // Candidates, with the pages where they are evidence, and the text keys seen inside
    // the content of each page.
    let mut foreign: Vec<Vec<(u32, String)>> = Vec::new();
    let mut key_pages: HashMap<String, HashSet<usize>> = HashMap::new();
    for (pi, p) in pages.iter().enumerate() {
        let Some(ranges) = select::ranges(p, content, &[]) else {
            foreign.push(Vec::new());
            continue;
        };
        let els: Vec<(u32, String)> = foreign_elements(p, &ranges)
            .into_iter()
            .map(|i| (i, text_key(p, i)))
            .collect();
        for (_, k) in &els {
            if !k.is_empty() {
                key_pages.entry(k.clone()).or_default().insert(pi);
            }
        }
        foreign.push(els);
    }
    let mut exprs: BTreeMap<String, u32> = BTreeMap::new();
    for (pi, p) in pages.iter().enumerate() {
        for (i, key) in &foreign[pi] {
            let shared = key_pages.get(key).is_some_and(|s| s.len() >= 2);
            let heuristic_dropped = p.map.heuristic(&p.arena, *i) == 0;
            if !(shared || heuristic_dropped) {
                continue;
            }
            for s in own_steps(&p.arena, *i) {
                let e = exprs.entry(format!("//{}", s.text)).or_insert(s.cost);
                *e = (*e).min(s.cost);
            }
        }
    }
    let cands: Vec<Candidate> = exprs
        .into_iter()
        .filter_map(|(xpath, cost)| {
            Plan::compile(&xpath).map(|plan| Candidate { xpath, cost, plan })
        })
        .collect();
    // Greedy: the candidate that cleans the most pages without harm, again and again.
    let mut chosen: Vec<Removal> = Vec::new();
    loop {
        let current: Vec<&Plan> = chosen.iter().map(|r| &r.cand.plan).collect();
        let base: Vec<Option<select::Kept>> = pages
            .iter()
            .map(|p| select::kept(p, content, &current))
            .collect();
        let mut best: Option<(usize, u32, &Candidate)> = None;
        for c in &cands {
            if chosen.iter().any(|r| r.cand.xpath == c.xpath) {
                continue;
            }
            let mut with = current.clone();
            with.push(&c.plan);
            let (mut helped, mut harmed) = (0usize, false);
            for (pi, p) in pages.iter().enumerate() {
                let (Some(b), Some(k)) = (base[pi], select::kept(p, content, &with)) else {
                    continue;
                };
                let total = p.map.answer_total().max(1) as f64;
                if (b.answer - k.answer) as f64 / total > MAX_ANSWER_CUT {
                    harmed = true;
                    break;
                }
                if k.visible < b.visible && k.answer == b.answer {
                    helped += 1;
                }
            }
            if harmed || helped < MIN_REMOVE_PAGES {
                continue;
            }
            let better = match best {
                None => true,
                Some((h, cost, _)) => helped > h || (helped == h && c.cost < cost),
            };
            if better {
                best = Some((helped, c.cost, c));
            }
        }
        let Some((helped, _, c)) = best else { break };
        let preview = pages
            .iter()
            .find_map(|p| {
                select::nodes(p, &c.plan)
                    .first()
                    .map(|&i| p.arena.string_value(i))
            })
            .unwrap_or_default();
        chosen.push(Removal {
            cand: c.clone(),
            pages: helped,
            preview: crate::extract::dom::collapse(&preview),
        });
        if chosen.len() >= MAX_REMOVE {
            break;
        }
    }
    chosen
}
