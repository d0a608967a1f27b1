//! The page's headline and what follows it. An article page repeats its title (the
//! `<title>` without the site's name, [`page_title`]) in a line above its text, whatever
//! the era's markup for it (`<h1>`, a bold table cell, a `<font size=4>`), and the text
//! begins right under it. A listing page's title line (the category's name) is followed
//! by its items instead. Boilerpipe's ArticleExtractor uses the same evidence (its
//! document-title match); here it tells a short news article beside link lists from a
//! listing page (see [`listing_page`](super::page_type::listing_page)).

use super::features::block_value;
use super::groups::Structures;
use super::settings::{HEADLINE_MAX_WORDS, HEADLINE_MIN_WORDS, HEADLINE_TEXT_BLOCKS};
use super::Pass;
use crate::extract::dom::{unspaced_word_len, Block, BlockKind, ElemId, NO_ELEM};
use crate::extract::title::{overlap, page_title, H1_COVERAGE, H1_PRECISION};

/// Whether the first line of the page that says what its title says (else its first
/// `<h1>` sentence) is followed, within [`HEADLINE_TEXT_BLOCKS`] blocks, by a paragraph of
/// content evidence outside marks, template and linked list items; if so, the page's
/// article element: the parent of the element of the first block of that text (that
/// element itself at the root). Only the first such line counts: the title recurs lower
/// in menus, breadcrumbs and "more" lists, where its neighbours say nothing.
pub(super) fn headline_followed_by_text(
    pass: &Pass,
    marked: &[ElemId],
    st: &Structures,
) -> Option<ElemId> {
    let (page, config) = (pass.page, pass.config);
    let title = match_tokens(&page_title(page, None));
    let in_linked_item =
        |e: usize| st.item_group[e] != u32::MAX && st.groups[st.item_group[e] as usize].linked();
    let says_title = |b: &Block| {
        let line = match_tokens(&b.text);
        let shared = overlap(&line, &title) as f64;
        shared >= H1_PRECISION * line.len() as f64 && shared >= H1_COVERAGE * title.len() as f64
    };
    // A page whose `<title>` names only the site or section ("News - Health & Business")
    // still heads its article with an `<h1>` sentence.
    let sentence_h1 = |b: &Block| {
        b.kind == BlockKind::Heading(1)
            && b.link_words * 2 <= b.words
            && match_tokens(&b.text).len() >= HEADLINE_MIN_WORDS
    };
    let candidate =
        |i: usize, b: &Block| b.words >= 2 && b.words <= HEADLINE_MAX_WORDS && !pass.is_template(i);
    let first = |test: &dyn Fn(&Block) -> bool| {
        page.blocks
            .iter()
            .enumerate()
            .position(|(i, b)| candidate(i, b) && test(b))
    };
    let headline = if title.len() >= HEADLINE_MIN_WORDS {
        first(&says_title).or_else(|| first(&sentence_h1))
    } else {
        first(&sentence_h1)
    };
    let h = headline?;
    let text: Vec<(usize, f64)> = page
        .blocks
        .iter()
        .enumerate()
        .skip(h + 1)
        .take(HEADLINE_TEXT_BLOCKS)
        .filter(|&(i, b)| {
            let e = b.elem as usize;
            marked[e] == NO_ELEM && !pass.is_template(i) && !in_linked_item(e)
        })
        .map(|(i, b)| (i, block_value(b, false, config)))
        .filter(|&(_, v)| v > 0.0)
        .collect();
    let evidence: f64 = text.iter().map(|&(_, v)| v).sum();
    tracing::debug!("headline block {h} followed by evidence {evidence:.0}");
    if evidence < config.min_content_words as f64 {
        return None;
    }
    let first = page.blocks[text[0].0].elem;
    let parent = page.elements[first as usize].parent;
    Some(if parent == NO_ELEM { first } else { parent })
}

/// Lower-cased words for comparing a line with the title; letters of scripts written
/// without spaces are one token each.
fn match_tokens(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut word = String::new();
    for c in text.chars() {
        if unspaced_word_len(c).is_some() {
            out.extend((!word.is_empty()).then(|| std::mem::take(&mut word)));
            out.push(c.to_string());
        } else if c.is_alphanumeric() {
            word.extend(c.to_lowercase());
        } else if !word.is_empty() {
            out.push(std::mem::take(&mut word));
        }
    }
    out.extend((!word.is_empty()).then_some(word));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_split_unspaced_scripts_into_letters() {
        assert_eq!(
            match_tokens("Госдума, 2011: ВВП"),
            ["госдума", "2011", "ввп"]
        );
        assert_eq!(match_tokens("国务院new闻"), ["国", "务", "院", "new", "闻"]);
        let a = match_tokens("a b b c");
        assert_eq!(overlap(&a, &match_tokens("b c c d")), 2);
    }
}
