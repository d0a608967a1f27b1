//! Values in context (step 3 of the heuristic): the content evidence below every element
//! before any mark counts, and each block's value in this pass — boilerplate and template
//! blocks count against their container, items of content-like repeated structures count
//! their own text (and, on a listing page, their linked titles), other blocks their
//! [`block_value`] — summed bottom-up over the elements.

use super::features::block_value;
use super::news_lists;
use super::settings::{LISTING_LINK_WEIGHT, TRACE_TEXT_CHARS};
use super::structures::Structures;
use super::tree::sum_up;
use super::visual_column::Layout;
use super::Pass;
use crate::extract::dom::{Block, ElemId, NO_ELEM};

/// Content evidence (positive block values) below every element, marks ignored;
/// template blocks count nothing.
pub(super) fn content_evidence(pass: &Pass) -> Vec<f64> {
    let page = pass.page;
    let mut good = vec![0f64; page.elements.len()];
    for (i, b) in page.blocks.iter().enumerate() {
        if !pass.is_template(i) {
            good[b.elem as usize] += block_value(b, false, pass.config).max(0.0);
        }
    }
    sum_up(page, &mut good);
    good
}

/// What a block's value depends on in one pass once marks and structures are known.
pub(super) struct BlockValues<'a> {
    pub(super) pass: &'a Pass<'a>,
    pub(super) marked: &'a [ElemId],
    pub(super) st: &'a Structures,
    /// Elements in rails of other stories beside a headed article
    /// ([`super::teasers::drop_teasers`]): their blocks count nothing.
    pub(super) rails: &'a [bool],
    /// The page has no article of its own ([`super::page_type::listing_page`]).
    pub(super) listing: bool,
    /// What a rendered page's boxes add ([`super::visual_column`]).
    pub(super) layout: &'a Layout,
}

impl BlockValues<'_> {
    /// The value of block `i` (`b`) in this pass: [`BlockValues::text_value`] plus what
    /// the page's boxes add.
    pub(super) fn value(&self, i: usize, b: &Block) -> f64 {
        let v = self.text_value(i, b);
        if self.layout.is_empty() {
            v
        } else {
            v + self.layout.added(self.pass.page, i, b, self.listing)
        }
    }

    /// The value of block `i` (`b`) from its text, marks and structures.
    fn text_value(&self, i: usize, b: &Block) -> f64 {
        let (marked, item_group, groups) = (self.marked, &self.st.item_group, &self.st.groups);
        let boiler = marked[b.elem as usize] != NO_ELEM || self.pass.is_template(i);
        if !boiler && self.rails[b.elem as usize] {
            return 0.0;
        }
        if !boiler && item_group[b.elem as usize] != u32::MAX {
            if news_lists::is_bare_timestamp(b) {
                // A date line of a listing item ("27.11.2011 23:17" over a news item
                // laid out as one of a row of boxes) is no text of the item's: counted
                // as its own words, it was the first content block and was written.
                return 0.0;
            }
            // A block of a listing item: its own text is content, its links are neutral…
            // …unless the page has no article of its own: then the items' linked titles
            // are what the page shows (cards wrapped whole in a link carry no other text).
            if self.listing && groups[item_group[b.elem as usize] as usize].linked() {
                (b.words - b.link_words) as f64 + LISTING_LINK_WEIGHT * b.link_words as f64
            } else {
                (b.words - b.link_words) as f64
            }
        } else {
            block_value(b, boiler, self.pass.config)
        }
    }

    /// Every element's sum of the values below it, or `None` when no block anywhere is
    /// content evidence: what is left are short lines and headings whose links and menus
    /// were dropped (a JS-rendered shell, a store page that only shows "Reviews / Similar
    /// products", footer headings). An empty answer with its reason is more honest than
    /// those crumbs.
    pub(super) fn element_sums(&self) -> Option<Vec<f64>> {
        let page = self.pass.page;
        let mut sum = vec![0f64; page.elements.len()];
        let mut has_content = false;
        let trace = tracing::enabled!(tracing::Level::TRACE);
        for (i, b) in page.blocks.iter().enumerate() {
            let v = self.value(i, b);
            if trace {
                self.trace_block(i, b, v);
            }
            has_content |= v > 0.0;
            sum[b.elem as usize] += v;
        }
        sum_up(page, &mut sum);
        has_content.then_some(sum)
    }

    fn trace_block(&self, i: usize, b: &Block, v: f64) {
        let page = self.pass.page;
        let m = self.marked[b.elem as usize];
        let e = &page.elements[b.elem as usize];
        tracing::trace!(
            "block {i} <{} {}> value {v:.1} words {} links {} mark {} item {} | {}",
            e.tag,
            e.id_class,
            b.words,
            b.link_words,
            if m == NO_ELEM {
                String::new()
            } else {
                format!(
                    "<{} {}>",
                    page.elements[m as usize].tag, page.elements[m as usize].id_class
                )
            },
            self.st.item_group[b.elem as usize] != u32::MAX,
            b.text.chars().take(TRACE_TEXT_CHARS).collect::<String>()
        );
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{run, ARTICLE};

    #[test]
    fn a_date_line_of_a_listing_item_is_no_text() {
        // The story's head and body are classless boxes told apart by ids, grouped as
        // items; the date in the head counted its five numbers as the item's text and
        // was written first.
        let html = format!(
            "<body><div id=head><h1><a href=/health>Health</a></h1>\
             <div class=date0>27.11.2011 23:17</div></div>\
             <div id=body><p>{ARTICLE} One.</p><p>{ARTICLE} Two.</p></div>\
             <div id=more><p>Other stories of the day and the week in a long row here.</p>\
             <p><a href=/a>Another story of the day</a></p></div></body>"
        );
        let out = run(&html);
        assert!(out.text.contains("Two."), "{}", out.text);
        assert!(!out.text.contains("23:17"), "{}", out.text);
    }

    #[test]
    fn page_without_a_content_block_is_empty() {
        // A store shell: menus, footer headings and one-line labels, no text of its own.
        let html = "<body><nav><a href=/>Home</a> <a href=/c>Catalogue</a></nav>\
             <h2>Main Content</h2><p>Reviews</p><p>Similar products</p>\
             <footer><h3>Help</h3><ul><li><a href=/h>Help center</a></li></ul><h3>Browse by Category</h3></footer></body>";
        let out = run(html);
        assert_eq!(out.text, "");
        assert!(out.empty_reason.is_some());
        // One real paragraph is enough to answer.
        let out = run(&format!(
            "<body><h2>Main Content</h2><p>{ARTICLE}</p></body>"
        ));
        assert!(out.text.contains("long body"), "{}", out.text);
    }
}
