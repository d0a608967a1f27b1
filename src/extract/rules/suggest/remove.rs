//! `remove` XPaths: template blocks inside the content element that the cross-page
//! answer and the local heuristic agree are not the page's own. On each page, an element
//! inside the content holding visible text and none of the cascade's answer is a
//! candidate when the heuristic dropped it too, or when the same text sits inside the
//! content of another page (a repeated "share this" line, a promotion box); so is a whole
//! piece the content XPaths select, such as one `<p>` of `//div[@class='text']//p`. Its
//! stable steps become XPaths (the photo captions `//p[@class='caption']` among the
//! body's paragraphs; a step naming the body's paragraphs too cuts the answer and is
//! refused), and so do its leading words where they start such lines on several pages
//! (`labels.rs`: "Read also: …"); one is kept when cutting it
//! improves at least [`MIN_REMOVE_PAGES`] pages, cuts answer text on none and raises the
//! pages' F1 against the answer.

use std::collections::{BTreeMap, HashMap, HashSet};

use super::candidates::Candidate;
use super::labels;
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
    /// A label XPath (the line's leading words) rather than a box of the template.
    pub(super) label: bool,
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

/// Whole pieces the content XPaths select that hold visible text and none of the answer
/// (the range roots of `ranges`): a `//div[@class='text']//p` selects each line alone.
fn foreign_pieces(page: &PageData, ranges: &[(u32, u32)]) -> Vec<u32> {
    ranges
        .iter()
        .map(|&(s, _)| s)
        .filter(|&s| {
            page.arena.name(s).is_some()
                && page.map.visible(&page.arena, s) > 0
                && page.map.answer(&page.arena, s) == 0
        })
        .collect()
}

/// A foreign element of a page: its index and its text key.
struct Foreign {
    i: u32,
    key: String,
}

/// Choose `remove` XPaths for `content` on `pages`.
pub(super) fn removals(pages: &[&PageData], content: &[&Plan]) -> Vec<Removal> {
    // Candidates, with the pages where they are evidence, and the text keys seen inside
    // the content of each page.
    let mut foreign: Vec<Vec<Foreign>> = Vec::new();
    let mut key_pages: HashMap<String, HashSet<usize>> = HashMap::new();
    for (pi, p) in pages.iter().enumerate() {
        let Some(ranges) = select::ranges(p, content, &[]) else {
            foreign.push(Vec::new());
            continue;
        };
        let els: Vec<Foreign> = foreign_elements(p, &ranges)
            .into_iter()
            .chain(foreign_pieces(p, &ranges))
            .map(|i| Foreign {
                i,
                key: text_key(p, i),
            })
            .collect();
        for f in &els {
            if !f.key.is_empty() {
                key_pages.entry(f.key.clone()).or_default().insert(pi);
            }
        }
        foreign.push(els);
    }
    let mut exprs: BTreeMap<String, u32> = BTreeMap::new();
    // Label XPaths, with their cost and the pages where they start a foreign line.
    let mut label_pages: BTreeMap<String, (u32, HashSet<usize>)> = BTreeMap::new();
    for (pi, p) in pages.iter().enumerate() {
        for f in &foreign[pi] {
            let shared = key_pages.get(&f.key).is_some_and(|s| s.len() >= 2);
            let heuristic_dropped = p.map.heuristic(&p.arena, f.i) == 0;
            if !(shared || heuristic_dropped) {
                continue;
            }
            for s in own_steps(&p.arena, f.i) {
                let e = exprs.entry(format!("//{}", s.text)).or_insert(s.cost);
                *e = (*e).min(s.cost);
            }
            for l in labels::labels(&p.arena, f.i) {
                if let Some(x) = labels::xpath(&p.arena, f.i, &l) {
                    let e = label_pages
                        .entry(x)
                        .or_insert_with(|| (labels::cost(&l), HashSet::new()));
                    e.1.insert(pi);
                }
            }
        }
    }
    let mut label_xpaths = HashSet::new();
    for (x, (cost, on)) in label_pages {
        if on.len() >= MIN_REMOVE_PAGES && !exprs.contains_key(&x) {
            exprs.insert(x.clone(), cost);
            label_xpaths.insert(x);
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
        // (pages helped, cost, characters cut, candidate)
        let mut best: Option<(usize, u32, u64, &Candidate)> = None;
        for c in &cands {
            if chosen.iter().any(|r| r.cand.xpath == c.xpath) {
                continue;
            }
            let mut with = current.clone();
            with.push(&c.plan);
            let (mut helped, mut harmed, mut cut, mut gain) = (0usize, false, 0u64, 0.0);
            for (pi, p) in pages.iter().enumerate() {
                let (Some(b), Some(k)) = (base[pi], select::kept(p, content, &with)) else {
                    continue;
                };
                let total = p.map.answer_total();
                if (b.answer - k.answer) as f64 / total.max(1) as f64 > MAX_ANSWER_CUT {
                    harmed = true;
                    break;
                }
                if k.visible < b.visible && k.answer == b.answer {
                    helped += 1;
                }
                cut += b.visible - k.visible;
                gain += k.f1(total) - b.f1(total);
            }
            if harmed || helped < MIN_REMOVE_PAGES || gain <= 0.0 {
                continue;
            }
            // The most pages, then the most robust, then the most cut (a label that
            // starts two kinds of read-also lines over one that starts one kind).
            let better = match best {
                None => true,
                Some((h, cost, most, _)) => {
                    helped > h
                        || (helped == h && c.cost < cost)
                        || (helped == h && c.cost == cost && cut > most)
                }
            };
            if better {
                best = Some((helped, c.cost, cut, c));
            }
        }
        let Some((helped, _, _, c)) = best else { break };
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
            label: label_xpaths.contains(&c.xpath),
        });
        if chosen.len() >= MAX_REMOVE {
            break;
        }
    }
    chosen
}
