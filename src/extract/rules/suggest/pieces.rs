//! The page's own pieces outside the content's element: the headline above the article,
//! a title line in a box of its own, the caption under the lead photo. The cascade
//! decides on each page whether such a short piece is kept (one headline sits next to
//! the text the heuristic keeps, the next one is cut off by a date line), so its answers
//! keep it on some pages of a site and not on others; a rule keeps what it keeps on every
//! page, and the drafting pages' F1 against those answers cannot tell it which way to
//! go. A piece is written as a content XPath when the cascade's answer holds most of its
//! text on at least [`MIN_PIECE_PAGES`] pages (one page's odd line is that page's
//! business, two pages make a habit of the site), and on every page where it is present
//! its text is smaller than the text the content selects, is not mostly links, is not
//! the text of an element the content already holds (a sticky bar repeating the
//! headline), and differs from page to page on most pages (not a box of the template).
//! Measured on daniel-dev, whose gold has the headline in the text (regnum.ru's `h1`,
//! uho.com.tw's title box); sites-dev's gold leaves headlines out, and there the rules
//! of two sites now keep them (site35, site36).

use std::collections::{BTreeMap, HashSet};

use super::select;
use super::steps::{ancestors, own_steps, tag};
use super::PageData;
use crate::extract::xpath_fast::Plan;

/// Pages on which thresher must keep a piece.
pub(super) const MIN_PIECE_PAGES: usize = 2;
/// Characters of a piece's text that identify it across pages.
const KEY_CHARS: usize = 200;
/// Elements whose text is not a piece of the page's text.
const NOT_PIECE: &[&str] = &[
    "select", "option", "optgroup", "button", "input", "textarea", "script", "style", "form",
    "nav", "label", "head", "title", "a", "ul", "ol", "li", "table", "tr", "td", "th", "tbody",
    "body", "html",
];

/// Elements whose descendants are the page's interface, not its text (a sticky bar's
/// copy of the headline sits in a `<button>`).
const INTERFACE: &[&str] = &["button", "nav", "form", "select", "label", "aside"];

/// Whether element `i` sits inside one of [`INTERFACE`].
fn in_interface(page: &PageData, i: u32) -> bool {
    ancestors(&page.arena, i)
        .into_iter()
        .any(|a| INTERFACE.contains(&tag(&page.arena, a).as_str()))
}

/// A chosen piece.
pub(super) struct Piece {
    pub(super) xpath: String,
    pub(super) plan: Plan,
    /// Pages where thresher keeps it.
    pub(super) kept: usize,
    /// Pages where it is present outside the content.
    pub(super) present: usize,
    /// Whether it is the page's `<h1>`.
    pub(super) headline: bool,
}

/// Whether the cascade's answer holds most of element `i`'s text.
fn kept_here(page: &PageData, i: u32) -> bool {
    let (a, v) = (
        page.map.answer(&page.arena, i),
        page.map.visible(&page.arena, i),
    );
    v > 0 && 2 * a > v
}

/// The elements `plan` selects on `page` outside the content's `ranges` (and not around
/// them), outermost only.
fn outside(page: &PageData, plan: &Plan, ranges: &[(u32, u32)]) -> Vec<u32> {
    let mut out: Vec<u32> = Vec::new();
    for i in select::nodes(page, plan) {
        if page.arena.is_whole_document(i)
            || in_interface(page, i)
            || ranges.iter().any(|&(s, _)| page.arena.nested(s, i))
            || out.iter().any(|&o| page.arena.nested(o, i))
        {
            continue;
        }
        out.push(i);
    }
    out
}

/// The text keys of the elements inside the content's `ranges`.
fn content_keys(page: &PageData, ranges: &[(u32, u32)]) -> HashSet<String> {
    ranges
        .iter()
        .flat_map(|&(s, e)| s..e)
        .filter(|&i| page.arena.name(i).is_some())
        .map(|i| text_key(page, &[i]))
        .collect()
}

/// Visible characters of `nodes` inside links.
fn link_chars(page: &PageData, nodes: &[u32]) -> u64 {
    let arena = &page.arena;
    let mut sum = 0;
    for &n in nodes {
        let mut i = n;
        while i < arena.nodes[n as usize].end {
            if tag(arena, i) == "a" {
                sum += page.map.visible(arena, i);
                i = arena.nodes[i as usize].end;
            } else {
                i += 1;
            }
        }
    }
    sum
}

fn text_key(page: &PageData, nodes: &[u32]) -> String {
    nodes
        .iter()
        .flat_map(|&i| page.arena.string_value(i).chars().collect::<Vec<_>>())
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .take(KEY_CHARS)
        .collect()
}

/// The pieces to add to `content` on `pages`, in the order of the first page where they
/// are present.
pub(super) fn pieces(pages: &[&PageData], content: &[&Plan]) -> Vec<Piece> {
    let ranges: Vec<Vec<(u32, u32)>> = pages
        .iter()
        .map(|p| select::ranges(p, content, &[]).unwrap_or_default())
        .collect();
    // Candidates: the stable steps of every element outside the content that thresher
    // keeps, and the page's `<h1>`.
    let mut cands: BTreeMap<String, u32> = BTreeMap::new();
    for (p, r) in pages.iter().zip(&ranges) {
        if r.is_empty() {
            continue;
        }
        let arena = &p.arena;
        for i in 1..arena.len() as u32 {
            if arena.name(i).is_none()
                || arena.is_whole_document(i)
                || NOT_PIECE.contains(&tag(arena, i).as_str())
                || r.iter().any(|&(s, _)| p.arena.nested(s, i))
                || !kept_here(p, i)
                || in_interface(p, i)
            {
                continue;
            }
            for s in own_steps(arena, i) {
                let e = cands.entry(format!("//{}", s.text)).or_insert(s.cost);
                *e = (*e).min(s.cost);
            }
        }
        if let Some(h) = (1..arena.len() as u32).find(|&i| tag(arena, i) == "h1") {
            for s in own_steps(arena, h) {
                let e = cands.entry(format!("//{}", s.text)).or_insert(s.cost);
                *e = (*e).min(s.cost);
            }
        }
    }
    cands.entry("//h1".into()).or_insert(2);
    // The text keys of each page's content elements, asked of every candidate.
    let held: Vec<HashSet<String>> = pages
        .iter()
        .zip(&ranges)
        .map(|(p, r)| content_keys(p, r))
        .collect();
    // Scored: (kept, present, cost, xpath, plan, visible characters on all pages).
    let mut scored: Vec<(usize, usize, u32, String, Plan, u64)> = Vec::new();
    for (xpath, cost) in cands {
        let Some(plan) = Plan::compile(&xpath) else {
            continue;
        };
        let (mut kept, mut present, mut fits, mut size) = (0, 0, true, 0u64);
        let mut keys = HashSet::new();
        for ((p, r), held) in pages.iter().zip(&ranges).zip(&held) {
            if r.is_empty() {
                continue;
            }
            let nodes = outside(p, &plan, r);
            let v: u64 = nodes.iter().map(|&i| p.map.visible(&p.arena, i)).sum();
            if v == 0 {
                continue;
            }
            let body: u64 = r.iter().map(|&(s, e)| p.map.range_visible(s, e)).sum();
            let key = text_key(p, &nodes);
            // Larger than the body, or the same text as the content holds (a sticky
            // bar repeating the headline).
            if v >= body
                || 2 * link_chars(p, &nodes) > v
                || (!key.is_empty() && held.contains(&key))
            {
                fits = false;
                break;
            }
            keys.insert(key);
            present += 1;
            size += v;
            if nodes.iter().any(|&i| kept_here(p, i)) {
                kept += 1;
            }
        }
        // Text that differs from page to page on most pages: not a box of the template.
        let own_text = keys.len() * 2 > present;
        if fits && own_text && kept >= MIN_PIECE_PAGES {
            scored.push((kept, present, cost, xpath, plan, size));
        }
    }
    // The most pages kept, then the least text (the headline rather than the box
    // around it and its date), then the most robust; one XPath per piece.
    scored.sort_by(|a, b| {
        b.0.cmp(&a.0)
            .then(a.5.cmp(&b.5))
            .then(a.2.cmp(&b.2))
            .then(a.3.cmp(&b.3))
    });
    let mut chosen: Vec<Piece> = Vec::new();
    let mut taken: Vec<Vec<u32>> = vec![Vec::new(); pages.len()];
    for (kept, present, _, xpath, plan, _) in scored {
        let nodes: Vec<Vec<u32>> = pages
            .iter()
            .zip(&ranges)
            .map(|(p, r)| {
                if r.is_empty() {
                    Vec::new()
                } else {
                    outside(p, &plan, r)
                }
            })
            .collect();
        let overlaps = pages.iter().enumerate().any(|(pi, p)| {
            nodes[pi]
                .iter()
                .any(|&i| taken[pi].iter().any(|&t| p.arena.nested(t, i)))
        });
        if overlaps {
            continue;
        }
        for (pi, n) in nodes.into_iter().enumerate() {
            taken[pi].extend(n);
        }
        let headline = xpath.starts_with("//h1");
        chosen.push(Piece {
            xpath,
            plan,
            kept,
            present,
            headline,
        });
    }
    if let Some(p) = pages.first() {
        chosen.sort_by_key(|c| {
            select::nodes(p, &c.plan)
                .first()
                .copied()
                .unwrap_or(u32::MAX)
        });
    }
    chosen
}
