//! Candidate `content` XPaths: on each page, the elements that hold the cascade's answer
//! best (character F1 of their subtree against it, `align.rs`), their ancestors, and
//! the elements around its largest piece of text; each written in the robust forms of
//! `steps.rs` (its own id or class word; a stable ancestor and the tags below it; an
//! absolute tag path only when nothing on the way is stable). Then every candidate is
//! scored on every page, and the best is the one that selects the text on the most
//! pages, then the best mean F1 (in steps of [`F1_STEP`]), then the most robust.

use std::collections::BTreeMap;

use super::select;
use super::steps::{ancestors, own_steps, positional_step, tag, Step};
use super::PageData;
use crate::extract::xpath_fast::{Arena, Plan};

/// Elements per page taken as starting points (by F1 against the answer).
const TOP_ELEMENTS: usize = 3;
/// Ancestors of a starting point looked at for a stable anchor.
const ANCHOR_LEVELS: usize = 8;
/// Mean F1 differences below this are ties, decided by robustness: a person prefers
/// `//div[@id='content']` to a positional path that keeps one more caption.
pub(super) const F1_STEP: f64 = 0.02;
/// Cost of an absolute tag path, on top of its positions.
const ABSOLUTE_PATH_COST: u32 = 6;
/// A position (`div[3]`) or an absolute path is taken over an XPath without one only
/// when it does this much better in mean F1 on the same number of pages: drafted from
/// three pages, `//div[@class='story']/div[3]` fits them all and misses the next page,
/// whose story has one more box above the text (daniel-dev's telegraph.co.uk: word F1
/// 0.08 on the held-back pages against 0.93 for the cross-page answer).
const POSITION_MARGIN: f64 = 0.05;
/// Pieces of the answer outside its best element taken as starting points.
const OUTSIDE_ELEMENTS: usize = 2;
/// Share of such a piece's visible characters that must be the answer's.
const OUTSIDE_PRECISION: f64 = 0.8;
/// Elements whose text is never a page's content (a menu's options are not an article).
const NOT_CONTENT: &[&str] = &[
    "select", "option", "optgroup", "button", "input", "textarea", "script", "style", "form",
    "nav", "label", "head", "title",
];

/// A candidate XPath and how robust it is (lower cost is better).
#[derive(Debug, Clone)]
pub(super) struct Candidate {
    pub(super) xpath: String,
    pub(super) cost: u32,
    pub(super) plan: Plan,
}

/// The XPaths naming element `i`: its own stable steps, anchored forms under the
/// nearest stable ancestor, and the absolute tag path when there is no anchor.
fn expressions(arena: &Arena, i: u32, out: &mut BTreeMap<String, u32>) {
    let mut add = |x: String, c: u32| {
        let e = out.entry(x).or_insert(c);
        *e = (*e).min(c);
    };
    let own = own_steps(arena, i);
    for s in &own {
        add(format!("//{}", s.text), s.cost);
    }
    // The nearest stable ancestor, and the path of tags from it down to `i`.
    let mut path: Vec<Step> = vec![positional_step(arena, i)];
    for a in ancestors(arena, i).into_iter().take(ANCHOR_LEVELS) {
        if arena.is_whole_document(a) {
            break;
        }
        let anchor = own_steps(arena, a).into_iter().min_by_key(|s| s.cost);
        if let Some(anchor) = anchor {
            let below: u32 = path.iter().map(|s| s.cost).sum();
            let rel: Vec<&str> = path.iter().rev().map(|s| s.text.as_str()).collect();
            add(
                format!("//{}/{}", anchor.text, rel.join("/")),
                anchor.cost + below,
            );
            for s in &own {
                add(
                    format!("//{}//{}", anchor.text, s.text),
                    anchor.cost + s.cost + 1,
                );
            }
            if own.is_empty() {
                add(
                    format!("//{}//{}", anchor.text, tag(arena, i)),
                    anchor.cost + 3,
                );
            }
            return;
        }
        path.push(positional_step(arena, a));
    }
    if own.is_empty() {
        // Nothing stable up to the body: the absolute tag path.
        let mut steps = vec![positional_step(arena, i)];
        for a in ancestors(arena, i) {
            steps.push(positional_step(arena, a));
        }
        let cost: u32 = steps.iter().map(|s| s.cost).sum();
        let rel: Vec<&str> = steps.iter().rev().map(|s| s.text.as_str()).collect();
        add(format!("/{}", rel.join("/")), ABSOLUTE_PATH_COST + cost);
    }
}

/// The starting elements of one page: the [`TOP_ELEMENTS`] best by F1 against the
/// answer, the ancestors of the best while they keep half its F1, and the ancestors of
/// the text node carrying the most answer characters up to the best.
fn starting_points(page: &PageData) -> Vec<u32> {
    let arena = &page.arena;
    let total = page.map.answer_total();
    if total == 0 {
        return Vec::new();
    }
    let mut scored: Vec<(f64, u32)> = (1..arena.len() as u32)
        .filter(|&i| arena.name(i).is_some() && !arena.is_whole_document(i))
        .filter(|&i| !NOT_CONTENT.contains(&tag(arena, i).as_str()))
        .filter_map(|i| {
            let a = page.map.answer(arena, i);
            (a > 0).then(|| {
                let v = page.map.visible(arena, i);
                (2.0 * a as f64 / (v + total) as f64, i)
            })
        })
        .collect();
    scored.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    let mut out: Vec<u32> = scored.iter().take(TOP_ELEMENTS).map(|s| s.1).collect();
    if let Some(&(best_f1, best)) = scored.first() {
        out.extend(outside_pieces(page, best));
        for a in ancestors(arena, best) {
            if arena.is_whole_document(a) {
                break;
            }
            let v = page.map.visible(arena, a);
            let f = 2.0 * page.map.answer(arena, a) as f64 / (v + total) as f64;
            if f < best_f1 / 2.0 {
                break;
            }
            out.push(a);
        }
        // The element of the largest kept text node, and its ancestors below `best`.
        let biggest = (1..arena.len() as u32)
            .filter(|&i| page.map.block_of[i as usize] != u32::MAX)
            .max_by_key(|&i| (page.map.answer(arena, i), std::cmp::Reverse(i)));
        if let Some(t) = biggest {
            for a in ancestors(arena, t) {
                if NOT_CONTENT.contains(&tag(arena, a).as_str()) {
                    continue;
                }
                out.push(a);
                if a == best || arena.is_whole_document(a) {
                    break;
                }
            }
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// The pieces of the answer outside the best element: the largest elements neither
/// inside nor around `best` whose visible text is mostly the answer's (at least
/// [`OUTSIDE_PRECISION`] of it), at most [`OUTSIDE_ELEMENTS`], none inside another. A
/// story's lead or deck and the caption of its photo sit above the body's element; the
/// cascade writes them, and a rule of the body's element alone loses them (daniel-dev's
/// zdrowie.gazeta.pl and latimes.com). They become content XPaths only when they raise
/// the drafting pages' F1 (`layouts::choose`).
fn outside_pieces(page: &PageData, best: u32) -> Vec<u32> {
    let arena = &page.arena;
    let mut pieces: Vec<(u64, u32)> = (1..arena.len() as u32)
        .filter(|&i| {
            arena.name(i).is_some() && !arena.is_whole_document(i) && !arena.nested(i, best)
        })
        .filter(|&i| !NOT_CONTENT.contains(&tag(arena, i).as_str()))
        .filter_map(|i| {
            let a = page.map.answer(arena, i);
            let v = page.map.visible(arena, i);
            (a > 0 && a as f64 >= OUTSIDE_PRECISION * v as f64).then_some((a, i))
        })
        .collect();
    pieces.sort_by(|x, y| y.0.cmp(&x.0).then(x.1.cmp(&y.1)));
    let mut out: Vec<u32> = Vec::new();
    for (_, i) in pieces {
        if out.len() == OUTSIDE_ELEMENTS {
            break;
        }
        if !out.iter().any(|&o| arena.nested(o, i)) {
            out.push(i);
        }
    }
    out
}

/// Every candidate of every page, compiled (those outside the fast subset are dropped;
/// the drafting writes none).
pub(super) fn candidates(pages: &[&PageData]) -> Vec<Candidate> {
    let mut all: BTreeMap<String, u32> = BTreeMap::new();
    for p in pages {
        for i in starting_points(p) {
            expressions(&p.arena, i, &mut all);
        }
    }
    all.into_iter()
        .filter_map(|(xpath, cost)| {
            Plan::compile(&xpath).map(|plan| Candidate { xpath, cost, plan })
        })
        .collect()
}

/// How some content XPaths do on the pages: character F1 per page.
#[derive(Debug, Clone)]
pub(super) struct Score {
    pub(super) f1: Vec<f64>,
}

impl Score {
    pub(super) fn of(pages: &[&PageData], content: &[&Plan], remove: &[&Plan]) -> Score {
        Score {
            f1: pages
                .iter()
                .map(|p| select::f1(p, content, remove))
                .collect(),
        }
    }

    /// Pages where the XPaths select the text (F1 ≥ `min_f1`).
    pub(super) fn selected(&self, min_f1: f64) -> usize {
        self.f1.iter().filter(|&&f| f >= min_f1).count()
    }

    pub(super) fn mean(&self) -> f64 {
        if self.f1.is_empty() {
            0.0
        } else {
            self.f1.iter().sum::<f64>() / self.f1.len() as f64
        }
    }

    /// Sort key: more pages selected, then higher mean F1 in steps of [`F1_STEP`].
    pub(super) fn key(&self, min_f1: f64) -> (usize, i64) {
        (
            self.selected(min_f1),
            (self.mean() / F1_STEP).floor() as i64,
        )
    }
}

/// Whether an XPath depends on positions (`[3]`) or is an absolute tag path.
pub(super) fn positional(xpath: &str) -> bool {
    xpath.starts_with("/html")
        || xpath
            .as_bytes()
            .windows(2)
            .any(|w| w[0] == b'[' && w[1].is_ascii_digit())
}

/// The best single content XPath and its score, if any candidate selects anything; one
/// without positions when it is within [`POSITION_MARGIN`] of a positional best.
pub(super) fn best<'c>(
    pages: &[&PageData],
    cands: &'c [Candidate],
    min_f1: f64,
) -> Option<(&'c Candidate, Score)> {
    let (c, s) = best_of(pages, cands.iter(), min_f1)?;
    if positional(&c.xpath) {
        let robust = cands.iter().filter(|c| !positional(&c.xpath));
        if let Some((rc, rs)) = best_of(pages, robust, min_f1) {
            if rs.selected(min_f1) >= s.selected(min_f1) && rs.mean() >= s.mean() - POSITION_MARGIN
            {
                return Some((rc, rs));
            }
        }
    }
    Some((c, s))
}

fn best_of<'c>(
    pages: &[&PageData],
    cands: impl Iterator<Item = &'c Candidate>,
    min_f1: f64,
) -> Option<(&'c Candidate, Score)> {
    let mut best: Option<(&Candidate, Score)> = None;
    for c in cands {
        let s = Score::of(pages, &[&c.plan], &[]);
        if s.mean() == 0.0 {
            continue;
        }
        let better = match &best {
            None => true,
            Some((bc, bs)) => {
                let (k, bk) = (s.key(min_f1), bs.key(min_f1));
                k > bk
                    || (k == bk && c.cost < bc.cost)
                    || (k == bk && c.cost == bc.cost && s.mean() > bs.mean())
            }
        };
        if better {
            best = Some((c, s));
        }
    }
    best
}
