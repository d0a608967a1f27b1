//! Titles of boxes that were left out. Pages set a box's title as its first line —
//! "Most read", "Read this too?", "More on the topic at the site", "Rate this story",
//! "Table of contents" — above the box's body: links, buttons, a form, teasers. The body
//! is left out (link-dense, marked, a rail), and its title, a short line of plain text,
//! stayed in the written text as a stray line, in any language and under any markup
//! (`<h3>`, `<div class="title">`, `<p><strong>`).
//!
//! A written line is such a title when it is no content evidence (short), it opens an
//! element (the box: the smallest element around it that holds more blocks after it, of
//! which it is the first block), and none of the box's other blocks was written. A
//! section whose paragraphs were written keeps its heading; a line that ends a box
//! alone (a caption, a "Source:" line) has no box of its own and stays, and so does an
//! item's name in a list of items.

use std::collections::HashSet;

use super::features::block_value;
use super::structures::Structures;
use super::Pass;
use crate::extract::dom::{Block, NO_ELEM};

/// The written blocks without the titles of boxes left out (see the module), with
/// `drop_box_titles`. The first written block stays when it would be the only one.
pub(super) fn without_box_titles<'a>(
    pass: &Pass,
    st: &Structures,
    written: Vec<(usize, &'a Block)>,
) -> Vec<(usize, &'a Block)> {
    if !pass.config.drop_box_titles || written.len() < 2 {
        return written;
    }
    let indices: HashSet<usize> = written.iter().map(|&(i, _)| i).collect();
    // An item's name in a list of items (a product card's name over its price and
    // buttons) names its item, not a box.
    let in_item = |b: &Block| st.item_group[b.elem as usize] != u32::MAX;
    written
        .iter()
        .copied()
        .filter(|&(i, b)| in_item(b) || !titles_left_out_box(pass, &indices, i, b))
        .collect()
}

/// Whether written block `i` is the first line of a box none of whose other blocks is
/// in `written`.
fn titles_left_out_box(pass: &Pass, written: &HashSet<usize>, i: usize, b: &Block) -> bool {
    let page = pass.page;
    if block_value(b, false, pass.config) > 0.0 || i + 1 >= page.blocks.len() {
        return false;
    }
    let first_of = |e: u32| i == 0 || !page.contains(e, page.blocks[i - 1].elem);
    let holds_next = |e: u32| page.contains(e, page.blocks[i + 1].elem);
    // The box: the smallest element around the line that holds the next block, as long
    // as the line is its first block.
    let mut e = b.elem;
    while e != NO_ELEM && first_of(e) && !holds_next(e) {
        e = page.elements[e as usize].parent;
    }
    if e == NO_ELEM || !first_of(e) {
        return false;
    }
    // The box's body: the blocks after the line inside it, none written, and with at
    // least as many words as the title (a body, not a stray empty wrapper).
    let body = (i + 1..page.blocks.len()).take_while(|&j| page.contains(e, page.blocks[j].elem));
    let mut words = 0;
    for j in body {
        if written.contains(&j) {
            return false;
        }
        words += page.blocks[j].words;
    }
    words >= b.words
}

#[cfg(test)]
mod tests {
    use super::super::tests::{run, ARTICLE};

    /// An article whose last paragraph is followed by `tail`.
    fn page(tail: &str) -> String {
        format!(
            "<html><head><title>The ferry of the old harbour</title></head><body>\
             <article><h1>The ferry of the old harbour</h1><p>{ARTICLE}</p><p>{ARTICLE} Second.</p>\
             {tail}</article></body></html>"
        )
    }

    #[test]
    fn a_heading_over_written_paragraphs_and_a_lone_source_line_stay() {
        let section = format!("<div><h3>The new pier</h3><p>{ARTICLE} Pier.</p></div>");
        let out = run(&page(&format!("{section}<p>Source: harbour office</p>")));
        assert!(out.text.contains("The new pier"), "{}", out.text);
        assert!(out.text.contains("Source: harbour office"), "{}", out.text);
    }
}
