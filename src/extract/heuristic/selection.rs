//! Choosing the content container (step 4 of the heuristic): the element with the
//! largest sum, narrowed to a declared main element inside it and widened to the whole
//! repeated structure it is an item of; then what else joins it besides sibling
//! sections ([`super::sections`]): the link-dense blocks of structures that dominate it
//! (a listing's titles) and, with `include_comments`, the comment sections outside it.

use super::marks::Marks;
use super::settings::{DEBUG_CANDIDATES, DECLARED_SHARE};
use super::structures::Structures;
use super::tree::in_subtrees;
use super::Pass;
use crate::extract::dom::{ElemId, PageDom, NO_ELEM};
use crate::extract::vocab;

/// The element with the largest sum; among equal sums the innermost (later in document
/// order).
pub(super) fn largest_sum(page: &PageDom, sum: &[f64]) -> ElemId {
    let n = page.elements.len();
    let mut best = 0usize;
    for i in 0..n {
        if sum[i] >= sum[best] && (sum[i] > sum[best] || page.contains(best as ElemId, i as ElemId))
        {
            best = i;
        }
    }
    if tracing::enabled!(tracing::Level::DEBUG) {
        let mut top: Vec<usize> = (0..n).collect();
        top.sort_by(|&a, &b| sum[b].total_cmp(&sum[a]));
        for &i in top.iter().take(DEBUG_CANDIDATES) {
            let e = &page.elements[i];
            tracing::debug!(
                "container candidate {i} <{} {}> sum {:.1}",
                e.tag,
                e.id_class,
                sum[i]
            );
        }
    }
    best as ElemId
}

/// An `<article>`/`<main>`/`itemprop=articleBody` element inside the container that
/// holds nearly all of its content evidence is the text the page declares: narrow to
/// it (the rest is the container's chrome: bylines, share bars, teaser snippets). Not in
/// the pass without marks.
pub(super) fn narrow_to_declared(
    pass: &Pass,
    container: ElemId,
    sum: &[f64],
    good: &[f64],
    marked: &[ElemId],
) -> ElemId {
    if pass.marks == Marks::Off {
        return container;
    }
    let page = pass.page;
    let c = container as usize;
    let end = page.elements[c].end as usize;
    let mut pick = NO_ELEM;
    for j in c + 1..end {
        let e = &page.elements[j];
        let declared = matches!(&*e.tag, "article" | "main")
            || e.role
                .split(' ')
                .any(|r| matches!(r, "main" | "articlebody"));
        if declared
            && marked[j] == NO_ELEM
            && sum[j] > 0.0
            && sum[j] >= DECLARED_SHARE * sum[c]
            && good[j] >= DECLARED_SHARE * good[c]
        {
            pick = j as ElemId; // innermost qualifying (later in document order)
        }
    }
    if pick != NO_ELEM {
        pick
    } else {
        container
    }
}

/// A container that is one item of a repeated structure (one forum post, one product
/// card) widens to the whole structure, unless the structure is a story beside lists
/// ([`Group::story_evidence`](super::structures::Group::story_evidence)): a layout row's
/// story column stays apart from the link columns beside it.
pub(super) fn widen_to_structure(mut container: ElemId, st: &Structures) -> ElemId {
    while st.item_group[container as usize] != u32::MAX {
        let g = &st.groups[st.item_group[container as usize] as usize];
        if g.story_evidence > 0.0 {
            break;
        }
        container = g.parent;
    }
    container
}

/// Whether group `g` (`u32::MAX`: none) is a repeated structure that dominates the
/// container (at least `list_dominance` of its words): its link-dense blocks are content
/// (titles of listed items).
pub(super) fn dominates(pass: &Pass, st: &Structures, container: ElemId, g: u32) -> bool {
    g != u32::MAX
        && st.groups[g as usize].words as f64
            >= pass.config.list_dominance * st.words[container as usize] as f64
        && pass.page.contains(container, st.groups[g as usize].parent)
}

/// Whether each element lies in an item of a dominant structure, at any depth: a
/// listing's cards may each hold a smaller repeated structure of their own (a recipe
/// category page whose sections each list eight linked cards), and the innermost
/// structure alone is too small to dominate. Only link-led structures
/// ([`super::structures::Group::linked`]) pass this on: an article's paragraphs form a
/// dominant repeated structure too, and the "read more" link lists inside them stay
/// dropped.
pub(super) fn in_dominant_structures(pass: &Pass, st: &Structures, container: ElemId) -> Vec<bool> {
    let (groups, group_of) = (&st.groups, &st.group_of);
    in_subtrees(pass.page, |i| {
        group_of[i] != u32::MAX
            && groups[group_of[i] as usize].content_like(pass.config)
            && groups[group_of[i] as usize].linked()
            && dominates(pass, st, container, group_of[i])
    })
}

/// With `include_comments`, the comment sections outside the container (not inside
/// other boilerplate): they are written out after it, as part of the page. Without it,
/// none.
pub(super) fn comments_outside(pass: &Pass, marked: &[ElemId], container: ElemId) -> Vec<bool> {
    let page = pass.page;
    if pass.config.include_comments {
        in_subtrees(page, |i| {
            marked[i] == NO_ELEM
                && !page.contains(i as ElemId, container)
                && vocab::is_comment_name(&page.elements[i].id_class)
        })
    } else {
        vec![false; page.elements.len()]
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{run, ARTICLE};

    #[test]
    fn declared_article_narrows_the_container() {
        let article = format!("<p>{ARTICLE}</p>").repeat(8);
        let html = format!(
            "<body><div><div class=byline><p>By a writer who has written about this topic for many years now.</p></div>\
             <article>{article}</article></div></body>"
        );
        let out = run(&html);
        assert!(out.text.contains("long body"), "{}", out.text);
        assert!(!out.text.contains("writer"), "{}", out.text);
    }

    #[test]
    fn linked_cards_of_nested_sections_are_kept_on_a_listing_page() {
        // A category page: sections (one repeated structure), each a list of linked
        // cards (a smaller one); no section's list alone dominates the page.
        let section = |s: u32| {
            let cards = (1..=4)
                .map(|i| format!("<div class=card><a href=/{s}/{i}>Linked card {s}.{i} of this section</a></div>"))
                .collect::<String>();
            format!(
                "<section class=group><h2>Section {s}</h2><div class=cards>{cards}</div></section>"
            )
        };
        let html = format!(
            "<body><div class=groups>{}</div></body>",
            (1..=6).map(section).collect::<String>()
        );
        let out = run(&html);
        assert!(out.text.contains("Linked card 2.3"), "{}", out.text);
        assert!(out.text.contains("Linked card 5.1"), "{}", out.text);
    }
}
