//! What a set of `content`/`remove` XPaths keeps on a page, measured in the characters
//! of the alignment (`align.rs`): the union of the content subtrees less the removed
//! subtrees, and how much of it is the cascade's answer. Fast evaluator only: every
//! XPath the drafting writes is inside its subset.

use super::PageData;
use crate::extract::xpath_fast::{Item, Plan};

/// What some XPaths keep on one page.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Kept {
    /// Characters of the cascade's answer kept.
    pub(super) answer: u64,
    /// Visible characters kept.
    pub(super) visible: u64,
}

impl Kept {
    /// Character F1 against the cascade's answer of `total` characters.
    pub(super) fn f1(&self, total: u64) -> f64 {
        if self.answer == 0 || total == 0 {
            return 0.0;
        }
        2.0 * self.answer as f64 / (self.visible + total) as f64
    }
}

/// Sorted, merged `[start, end)` ranges of the subtrees of `nodes`.
fn merged(page: &PageData, nodes: impl Iterator<Item = u32>) -> Vec<(u32, u32)> {
    let mut r: Vec<(u32, u32)> = nodes
        .map(|i| (i, page.arena.nodes[i as usize].end))
        .collect();
    r.sort_unstable();
    let mut out: Vec<(u32, u32)> = Vec::new();
    for (s, e) in r {
        match out.last_mut() {
            Some(last) if s < last.1 => last.1 = last.1.max(e),
            _ => out.push((s, e)),
        }
    }
    out
}

/// Element nodes `plan` selects (attributes leave nothing to keep or cut).
pub(super) fn nodes(page: &PageData, plan: &Plan) -> Vec<u32> {
    plan.select(&page.arena)
        .into_iter()
        .filter_map(|it| match it {
            Item::Node(i) => Some(i),
            Item::Attr(..) => None,
        })
        .collect()
}

/// The ranges `content` keeps less those `remove` cuts; `None` when a content XPath
/// selects the whole document (the engine refuses that).
pub(super) fn ranges(
    page: &PageData,
    content: &[&Plan],
    remove: &[&Plan],
) -> Option<Vec<(u32, u32)>> {
    let mut sel = Vec::new();
    for p in content {
        for i in nodes(page, p) {
            if page.arena.is_whole_document(i) {
                return None;
            }
            sel.push(i);
        }
    }
    let keep = merged(page, sel.into_iter());
    let cut = merged(page, remove.iter().flat_map(|p| nodes(page, p)));
    let mut out = Vec::new();
    for (s, e) in keep {
        let mut at = s;
        for &(cs, ce) in cut.iter().filter(|&&(cs, ce)| ce > s && cs < e) {
            if cs > at {
                out.push((at, cs));
            }
            at = at.max(ce);
        }
        if at < e {
            out.push((at, e));
        }
    }
    Some(out)
}

/// What `content` less `remove` keeps on `page` (`None`: selects the whole document).
pub(super) fn kept(page: &PageData, content: &[&Plan], remove: &[&Plan]) -> Option<Kept> {
    let r = ranges(page, content, remove)?;
    let mut k = Kept::default();
    for (s, e) in r {
        k.answer += page.map.range_answer(s, e);
        k.visible += page.map.range_visible(s, e);
    }
    Some(k)
}

/// Character F1 of `content` less `remove` on `page` (0 when it selects the document).
pub(super) fn f1(page: &PageData, content: &[&Plan], remove: &[&Plan]) -> f64 {
    kept(page, content, remove).map_or(0.0, |k| k.f1(page.map.answer_total()))
}
