//! Which text of the html5ever tree the extraction kept: the page index's text nodes
//! (`xpath_fast::Arena`, the nodes an XPath selects) are aligned with the flat model's
//! blocks (`PageDom::blocks`, what the extractors answer in), both in document order, so
//! that every element gets the characters of its subtree that the cascade kept, that the
//! local heuristic kept, and that are visible at all. Sums over a subtree are prefix-sum
//! differences (a subtree is the index range `i..end`), so scoring an element is O(1).
//!
//! Characters, not words: non-whitespace characters are what both sides share exactly
//! (a word may be split over two text nodes, `foo<b>bar</b>`). Text nodes the flat model
//! has no block for (scripts, styles, hidden elements) count as invisible.

use crate::extract::dom::PageDom;
use crate::extract::xpath_fast::{Arena, Kind};

/// How many blocks ahead a text node that does not continue the current block is looked
/// for: blocks the walk left out of the index's order (none in practice) or text the
/// flat model rewrote (mojibake repairs) cost at most this look-ahead.
const LOOK_AHEAD_BLOCKS: usize = 8;

/// Per page: for each index node, the block its text belongs to, and prefix sums of
/// kept / visible characters in document order.
pub(super) struct PageMap {
    /// Per index node: the `PageDom` block of a text node, or `u32::MAX`.
    pub(super) block_of: Vec<u32>,
    /// `vis[i]`: visible characters of nodes `0..i`.
    vis: Vec<u64>,
    /// Characters of nodes `0..i` in blocks of the cascade's answer.
    ans: Vec<u64>,
    /// Characters of nodes `0..i` in blocks the local heuristic kept.
    heur: Vec<u64>,
}

/// Non-whitespace characters of `s`.
fn solid(s: &str) -> Vec<char> {
    s.chars().filter(|c| !c.is_whitespace()).collect()
}

impl PageMap {
    /// Align `arena`'s text nodes with `dom`'s blocks; `answer` and `heuristic` are the
    /// block indices each method kept.
    pub(super) fn build(arena: &Arena, dom: &PageDom, answer: &[u32], heuristic: &[u32]) -> Self {
        let blocks: Vec<Vec<char>> = dom.blocks.iter().map(|b| solid(&b.text)).collect();
        let mut in_answer = vec![false; blocks.len()];
        for &b in answer {
            if let Some(x) = in_answer.get_mut(b as usize) {
                *x = true;
            }
        }
        let mut in_heur = vec![false; blocks.len()];
        for &b in heuristic {
            if let Some(x) = in_heur.get_mut(b as usize) {
                *x = true;
            }
        }
        let n = arena.len();
        let mut block_of = vec![u32::MAX; n];
        let (mut vis, mut ans, mut heur) =
            (vec![0u64; n + 1], vec![0u64; n + 1], vec![0u64; n + 1]);
        let (mut bi, mut off) = (0usize, 0usize);
        for i in 0..n {
            let mut weight = 0u64;
            if arena.nodes[i].kind == Kind::Text {
                let mut text = String::new();
                arena.push_text(i as u32, &mut text);
                let s = solid(&text);
                if !s.is_empty() {
                    if let Some((b, o)) = place(&blocks, bi, off, &s) {
                        block_of[i] = b as u32;
                        bi = b;
                        off = o + s.len();
                        weight = s.len() as u64;
                    }
                }
            }
            let b = block_of[i] as usize;
            let kept = |flags: &[bool]| {
                if b < flags.len() && flags[b] {
                    weight
                } else {
                    0
                }
            };
            vis[i + 1] = vis[i] + weight;
            ans[i + 1] = ans[i] + kept(&in_answer);
            heur[i + 1] = heur[i] + kept(&in_heur);
        }
        PageMap {
            block_of,
            vis,
            ans,
            heur,
        }
    }

    fn sum(prefix: &[u64], arena: &Arena, i: u32) -> u64 {
        let end = arena.nodes[i as usize].end as usize;
        prefix[end] - prefix[i as usize]
    }

    /// Visible characters in node `i`'s subtree.
    pub(super) fn visible(&self, arena: &Arena, i: u32) -> u64 {
        Self::sum(&self.vis, arena, i)
    }

    /// Characters of the cascade's answer in node `i`'s subtree.
    pub(super) fn answer(&self, arena: &Arena, i: u32) -> u64 {
        Self::sum(&self.ans, arena, i)
    }

    /// Characters the local heuristic kept in node `i`'s subtree.
    pub(super) fn heuristic(&self, arena: &Arena, i: u32) -> u64 {
        Self::sum(&self.heur, arena, i)
    }

    /// Visible characters of the index nodes `s..e`.
    pub(super) fn range_visible(&self, s: u32, e: u32) -> u64 {
        self.vis[e as usize] - self.vis[s as usize]
    }

    /// Characters of the cascade's answer in the index nodes `s..e`.
    pub(super) fn range_answer(&self, s: u32, e: u32) -> u64 {
        self.ans[e as usize] - self.ans[s as usize]
    }

    /// Characters of the cascade's answer on the whole page.
    pub(super) fn answer_total(&self) -> u64 {
        *self.ans.last().unwrap_or(&0)
    }
}

/// Where the solid text `s` of the next text node sits: continuing block `bi` at
/// character `off`, else at the start of one of the next blocks, else further inside
/// block `bi`. `None`: no block holds it (script, style, hidden text).
fn place(blocks: &[Vec<char>], bi: usize, off: usize, s: &[char]) -> Option<(usize, usize)> {
    if let Some(b) = blocks.get(bi) {
        if b.len() >= off + s.len() && &b[off..off + s.len()] == s {
            return Some((bi, off));
        }
    }
    let ahead = (bi + 1)..(bi + 1 + LOOK_AHEAD_BLOCKS).min(blocks.len());
    for b in ahead.clone() {
        if blocks[b].starts_with(s) {
            return Some((b, 0));
        }
    }
    if let Some(b) = blocks.get(bi) {
        if let Some(o) = find(&b[off.min(b.len())..], s) {
            return Some((bi, off + o));
        }
    }
    for b in ahead {
        if let Some(o) = find(&blocks[b], s) {
            return Some((b, o));
        }
    }
    None
}

fn find(hay: &[char], needle: &[char]) -> Option<usize> {
    if needle.len() > hay.len() {
        return None;
    }
    (0..=hay.len() - needle.len()).find(|&i| &hay[i..i + needle.len()] == needle)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extract::dom;

    #[test]
    fn kept_characters_land_on_the_elements_holding_them() {
        let html = "<html><body><div id=nav><a href=/>Home</a> <a href=/b>Blog</a></div>\
            <div id=main><p>First para<b>graph</b> here.</p><p>Second one.</p></div>\
            <script>var x = 'First paragraph';</script></body></html>";
        let page = dom::parse_page(html);
        let arena = Arena::build(&page.tree);
        let kept: Vec<u32> = page
            .dom
            .blocks
            .iter()
            .enumerate()
            .filter(|(_, b)| b.text.contains("para") || b.text.contains("Second"))
            .map(|(i, _)| i as u32)
            .collect();
        let map = PageMap::build(&arena, &page.dom, &kept, &[]);
        let main = (0..arena.len() as u32)
            .find(|&i| arena.attr(i, "id").as_deref() == Some("main"))
            .unwrap();
        let nav = (0..arena.len() as u32)
            .find(|&i| arena.attr(i, "id").as_deref() == Some("nav"))
            .unwrap();
        assert_eq!(map.answer(&arena, main), map.answer_total());
        assert_eq!(map.answer(&arena, main), map.visible(&arena, main));
        assert_eq!(map.answer(&arena, nav), 0);
        assert_eq!(map.visible(&arena, nav), "HomeBlog".len() as u64);
        // The script's text is not a block: invisible.
        assert_eq!(map.visible(&arena, 0), map.answer_total() + 8);
    }
}
