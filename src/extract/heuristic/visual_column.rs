//! Where a rendered page's text stands (`--render`; `dom/boxes.rs`), as values added to
//! the blocks' values of the scoring step (`scoring.rs`), never replacing them:
//!
//! - `visual_column`: the page's main column is the smallest shown box at least
//!   [`COLUMN_MIN_WIDTH`] of the page wide, starting above the fold ([`FOLD_PX`]) and
//!   holding at least [`COLUMN_MIN_EVIDENCE`] of the page's content evidence; a block
//!   that stands wholly beside it or below its end counts [`COLUMN_OUTSIDE_WEIGHT`] × its
//!   words less.
//! - `visual_headline`: the shown block above the fold in the largest font, at least
//!   [`HEADLINE_MIN_FONT_RATIO`] × the page's usual font and of at most
//!   [`HEADLINE_MAX_WORDS`] words (as for the headline found by text, `headline.rs`), is the headline and counts [`HEADLINE_WEIGHT`] × its
//!   words more.
//!
//! Pages that were not rendered carry no boxes, and nothing here changes their values.

use super::settings::{
    COLUMN_MIN_EVIDENCE, COLUMN_MIN_WIDTH, COLUMN_OUTSIDE_WEIGHT, FOLD_PX, HEADLINE_MAX_WORDS,
    HEADLINE_MIN_FONT_RATIO, HEADLINE_WEIGHT,
};
use super::Pass;
use crate::extract::dom::{Block, ElemBox, ElemId, PageDom, NO_ELEM};

/// What the boxes of one page add to its blocks' values.
#[derive(Default)]
pub(super) struct Layout {
    /// The main column's element and box (`visual_column`).
    column: Option<(ElemId, ElemBox)>,
    /// The headline's block (`visual_headline`).
    headline: Option<usize>,
}

impl Layout {
    /// Nothing is added to any block.
    pub(super) fn is_empty(&self) -> bool {
        self.column.is_none() && self.headline.is_none()
    }

    /// The value added to block `i` (`b`); on a `listing` page (no article of its own)
    /// the main column adds nothing: the filter and category columns beside a listing are
    /// in WCXB's gold (with them, WCXB dev's listing pages lost 0.045).
    pub(super) fn added(&self, page: &PageDom, i: usize, b: &Block, listing: bool) -> f64 {
        let mut added = 0.0;
        if self.headline == Some(i) {
            added += HEADLINE_WEIGHT * b.words as f64;
        }
        let column = self.column.filter(|_| !listing);
        if let (Some((col, cb)), Some(bb)) = (column, page.elem_box(b.elem)) {
            let shown = bb.visible && bb.width > 0.0 && bb.height > 0.0;
            let beside = bb.x + bb.width <= cb.x || bb.x >= cb.x + cb.width;
            let below = bb.y >= cb.y + cb.height;
            if shown && (beside || below) && !is_within(page, b.elem, col) {
                added -= COLUMN_OUTSIDE_WEIGHT * b.words as f64;
            }
        }
        added
    }
}

/// The layout of `pass`'s page, from its content evidence `good` (of `total_good`).
pub(super) fn layout(pass: &Pass, good: &[f64], total_good: f64) -> Layout {
    let page = pass.page;
    let mut out = Layout::default();
    if page.boxes.is_none() || !(pass.config.visual_column || pass.config.visual_headline) {
        return out;
    }
    let Some(width) = page.body.and_then(|b| page.elem_box(b)).map(|b| b.width) else {
        return out;
    };
    if width <= 0.0 {
        return out;
    }
    if pass.config.visual_column && total_good > 0.0 {
        out.column = page
            .elements
            .iter()
            .enumerate()
            .filter_map(|(i, _)| Some((i as ElemId, *page.elem_box(i as ElemId)?)))
            .filter(|(i, b)| {
                b.visible
                    && b.height > 0.0
                    && b.width >= COLUMN_MIN_WIDTH * width
                    && b.y < FOLD_PX
                    && good[*i as usize] >= COLUMN_MIN_EVIDENCE * total_good
            })
            .min_by(|a, b| a.1.area().total_cmp(&b.1.area()));
    }
    if pass.config.visual_headline {
        out.headline = headline(page);
    }
    out
}

/// The headline by font size (see the module's header).
fn headline(page: &PageDom) -> Option<usize> {
    let shown = |b: &Block| {
        page.elem_box(b.elem)
            .filter(|bb| bb.visible && bb.width > 0.0 && bb.height > 0.0)
            .copied()
    };
    // The usual font: the median over the shown words.
    let mut fonts: Vec<(f32, u32)> = page
        .blocks
        .iter()
        .filter_map(|b| Some((shown(b)?.font_size, b.words)))
        .collect();
    fonts.sort_by(|a, b| a.0.total_cmp(&b.0));
    let half = fonts.iter().map(|f| f.1 as u64).sum::<u64>() / 2;
    let mut seen = 0u64;
    let usual = fonts.iter().find(|f| {
        seen += f.1 as u64;
        seen > half
    })?;
    page.blocks
        .iter()
        .enumerate()
        .filter_map(|(i, b)| Some((i, b, shown(b)?)))
        .filter(|(_, b, bb)| {
            bb.y < FOLD_PX
                && b.words > 0
                && b.words <= HEADLINE_MAX_WORDS
                && bb.font_size >= HEADLINE_MIN_FONT_RATIO * usual.0
        })
        .max_by(|a, b| a.2.font_size.total_cmp(&b.2.font_size).then(b.0.cmp(&a.0)))
        .map(|(i, _, _)| i)
}

/// Whether `e` is `ancestor` or lies below it.
fn is_within(page: &PageDom, mut e: ElemId, ancestor: ElemId) -> bool {
    while e != NO_ELEM {
        if e == ancestor {
            return true;
        }
        e = page.elements[e as usize].parent;
    }
    false
}

#[cfg(test)]
mod tests {
    use super::super::tests::ARTICLE;
    use crate::extract::dom::{self, BOX_ATTR};
    use crate::extract::heuristic::{extract, HeuristicConfig};

    /// An article column with a big headline, and a classless block of links below it.
    fn page() -> String {
        format!(
            "<html><body {BOX_ATTR}='0 0 1366 3000 16 1'><div {BOX_ATTR}='0 0 1366 3000 16 1'>\
             <div id=a {BOX_ATTR}='283 0 800 1000 16 1'><div {BOX_ATTR}='283 0 800 60 40 1'>\
             Mayor opens the library</div><p {BOX_ATTR}='283 100 800 400 16 1'>{ARTICLE} One.</p>\
             <p {BOX_ATTR}='283 500 800 400 16 1'>{ARTICLE} Two.</p></div>\
             <div id=b {BOX_ATTR}='283 2000 800 300 16 1'><p {BOX_ATTR}='283 2000 800 300 16 1'>\
             Below the story, a few words of another kind that follow every page of the \
             site in the same place, with a line or two more of them here.</p></div>\
             </div></body></html>"
        )
    }

    #[test]
    fn column_and_headline_add_to_the_values() {
        let html = page();
        let parsed = dom::parse(&html);
        let plain = extract(&parsed, &HeuristicConfig::default());
        let visual = extract(
            &parsed,
            &HeuristicConfig {
                visual_column: true,
                visual_headline: true,
                ..HeuristicConfig::default()
            },
        );
        assert!(visual.text.contains("Two."), "{}", visual.text);
        assert!(!visual.text.contains("Below the story"), "{}", visual.text);
        assert!(visual.text.contains("Mayor opens"), "{}", visual.text);
        // The same page without the switches keeps the text below the column.
        assert!(plain.text.contains("Below the story"), "{}", plain.text);
    }
}
