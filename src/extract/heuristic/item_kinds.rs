//! Whether the items of a repeated structure are alike in kind. Siblings that share tag
//! and class (classless `div`s with ids, a layout's `div#left-column`, `#middle-column`,
//! `#right-column`, an article's `div#article`, `#article_related`, `#comments`) are
//! grouped as one list by [`groups`](super::groups); the items of a real list — posts,
//! cards, teasers, search results — are of one kind, each a piece of prose or each a
//! card. A group where one item is prose and the other items with any text are lists
//! themselves (most of their words in linked repeated structures of their own: "most
//! read", "related" teasers, menus) or link lists, is a story beside its link columns and
//! related lists: taken for a list, the page reads as a listing and the whole row becomes
//! the container. Complements [`Group::layout_columns`](super::structures::Group::layout_columns),
//! which needs the text item to hold most of the group's unlinked words; here the other
//! items may have snippets (teasers under "related"), as long as they are lists.

use super::features::block_value;
use super::settings::{HeuristicConfig, COLUMN_TEXT_PARAGRAPHS, COLUMN_TEXT_SHARE};
use super::structures::{Group, Structures};
use super::Pass;
use crate::extract::dom::{kind_sig, ElemId, Element, NO_ELEM};

/// What an item of a group is, by its shape.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ItemKind {
    /// At least a paragraph of content evidence outside nested lists, not link-dense,
    /// most of its words outside nested lists.
    Prose,
    /// At least two paragraphs' worth of words, most of them in nested linked lists or in
    /// links.
    List,
    /// Anything else (a tools bar, a date line, a table of figures, an empty comment box).
    Fragment,
}

/// The shape of one element's subtree, outside marks and template.
#[derive(Debug, Clone, Copy, Default)]
struct Shape {
    words: u64,
    link_words: u64,
    /// Words in items of linked repeated structures below it.
    list_words: u64,
    /// Content evidence (positive block values) outside those items.
    free_evidence: f64,
}

/// Whether an element has no class naming its kind (none, or only tokens with digits).
fn classless(e: &Element) -> bool {
    e.sig == kind_sig(&e.tag, "")
}

fn item_kind(s: &Shape, config: &HeuristicConfig) -> ItemKind {
    let enough = (COLUMN_TEXT_PARAGRAPHS * config.min_content_words as u64) as f64;
    let link_dense = s.link_words as f64 > config.max_link_density * s.words as f64;
    let in_lists = 2 * s.list_words >= s.words;
    if s.free_evidence >= config.min_content_words as f64 && !link_dense && !in_lists {
        ItemKind::Prose
    } else if s.words as f64 >= enough && (link_dense || in_lists) {
        ItemKind::List
    } else {
        ItemKind::Fragment
    }
}

/// Sets [`Group::story_evidence`] on every group of at least `min_list_items` items where
/// some item is a list and one prose item holds most (`COLUMN_TEXT_SHARE`) of the items'
/// content evidence outside nested lists. `words` and `link_words` are per element,
/// outside marks and template; `group_of` the group of each element.
pub(super) fn mark_unlike_groups(
    pass: &Pass,
    marked: &[ElemId],
    words: &[u64],
    link_words: &[u64],
    group_of: &[u32],
    groups: &mut [Group],
) {
    let (page, config) = (pass.page, pass.config);
    let n = page.elements.len();
    let is_list_item = |i: usize| {
        let g = group_of[i];
        g != u32::MAX && {
            let gr = &groups[g as usize];
            gr.items >= config.min_list_items && gr.linked()
        }
    };
    let mut shape: Vec<Shape> = (0..n)
        .map(|i| Shape {
            words: words[i],
            link_words: link_words[i],
            ..Shape::default()
        })
        .collect();
    for (i, b) in page.blocks.iter().enumerate() {
        if marked[b.elem as usize] == NO_ELEM && !pass.is_template(i) {
            shape[b.elem as usize].free_evidence += block_value(b, false, config).max(0.0);
        }
    }
    // Bottom-up: what lies in linked repeated items strictly below each element (a
    // paragraph run is no list: paragraphs are not link-led).
    for i in (1..n).rev() {
        let p = page.elements[i].parent;
        if p == NO_ELEM {
            continue;
        }
        let (list, free) = if is_list_item(i) {
            (words[i], 0.0)
        } else {
            (shape[i].list_words, shape[i].free_evidence)
        };
        shape[p as usize].list_words += list;
        shape[p as usize].free_evidence += free;
    }
    // Per group: list items, the items' free evidence, the largest of a prose item.
    let mut tally = vec![(0u32, 0.0f64, 0.0f64, NO_ELEM); groups.len()];
    for i in 0..n {
        let g = group_of[i];
        if g == u32::MAX
            || groups[g as usize].items < config.min_list_items
            || !classless(&page.elements[i])
        {
            continue;
        }
        let kind = item_kind(&shape[i], config);
        if tracing::enabled!(tracing::Level::DEBUG) && kind != ItemKind::Fragment {
            let e = &page.elements[i];
            tracing::debug!(
                "item {i} <{} {}> of group {g}: {kind:?} {:?}",
                e.tag,
                e.id_class,
                shape[i]
            );
        }
        let t = &mut tally[g as usize];
        t.1 += shape[i].free_evidence;
        match kind {
            ItemKind::Prose if shape[i].free_evidence > t.2 => {
                t.2 = shape[i].free_evidence;
                t.3 = i as ElemId;
            }
            ItemKind::Prose => {}
            ItemKind::List => t.0 += 1,
            ItemKind::Fragment => {}
        }
    }
    // Items without a class naming their kind (classless `div`s, ids only) share only
    // their tag: no sign of a designed repetition. Items of a class (`card`, `post`,
    // Tailwind sections) were made to repeat, and one of them with the page's prose
    // beside others holding lists is a landing page's or a listing's own run of
    // sections (measured: without this test WCXB dev lost 0.0016, service pages 0.007).
    for (gr, &(lists, evidence, prose, item)) in groups.iter_mut().zip(&tally) {
        if lists >= 1 && prose > 0.0 && prose >= COLUMN_TEXT_SHARE * evidence {
            gr.story_evidence = prose;
            gr.story_item = item;
        }
    }
}

/// The story of the page when it stands beside lists: the prose item of the group of
/// unlike items with the most content evidence of its own, if that is at least
/// `COLUMN_TEXT_PARAGRAPHS` paragraphs' worth. A page whose headline test fails (a
/// title of a few words, a gallery's caption) still has an article there: the lists
/// beside it are rails of other stories, and the page no listing.
pub(super) fn story_beside_lists(st: &Structures, config: &HeuristicConfig) -> Option<ElemId> {
    let enough = (COLUMN_TEXT_PARAGRAPHS * config.min_content_words as u64) as f64;
    st.groups
        .iter()
        .filter(|g| g.story_evidence >= enough)
        .max_by(|a, b| a.story_evidence.total_cmp(&b.story_evidence))
        .map(|g| g.story_item)
}

#[cfg(test)]
mod tests {
    use super::super::extract;
    use super::super::tests::{run, ARTICLE};
    use super::*;
    use crate::extract::dom::parse;

    #[test]
    fn items_are_told_by_shape() {
        let config = HeuristicConfig::default();
        let kind = |words, link_words, list_words, free_evidence| {
            let s = Shape {
                words,
                link_words,
                list_words,
                free_evidence,
            };
            item_kind(&s, &config)
        };
        // A story: words outside links, few of them in lists.
        assert_eq!(kind(120, 10, 0, 90.0), ItemKind::Prose);
        // Related teasers with snippets: not link-dense, but a list of their own.
        assert_eq!(kind(170, 46, 150, 5.0), ItemKind::List);
        // A link column.
        assert_eq!(kind(60, 50, 0, 0.0), ItemKind::List);
        // A tools bar.
        assert_eq!(kind(8, 7, 0, 0.0), ItemKind::Fragment);
        // A table of names and figures: short lines, no paragraph.
        assert_eq!(kind(500, 4, 0, 0.0), ItemKind::Fragment);
    }

    /// A layout row of three classless divs told apart only by their ids: a menu
    /// column, a short story under a title of two words (no headline test), a "most
    /// read" column of teasers.
    fn layout_row() -> String {
        let menu = (1..=12)
            .map(|i| format!("<li><a href=/s{i}>Section {i}</a></li>"))
            .collect::<String>();
        let most = (1..=6)
            .map(|i| format!("<li><h4><a href=/m{i}>Most read story number {i} today</a></h4><p>A snippet of that story {i} with a few words more.</p></li>"))
            .collect::<String>();
        format!(
            "<html><head><title>Short story</title></head><body><div id=main>\
             <div id=left-column><ul>{menu}</ul></div>\
             <div id=middle-column><h1>Short story</h1><p>{ARTICLE} {ARTICLE} It ends here.</p></div>\
             <div id=right-column><h3>Most read</h3><ul>{most}</ul></div>\
             </div></body></html>"
        )
    }

    #[test]
    fn a_story_beside_link_columns_makes_no_listing() {
        let html = layout_row();
        let out = run(&html);
        assert!(out.text.contains("It ends here."), "{}", out.text);
        // Not a listing: the menu column's links are no item titles.
        assert!(!out.text.contains("Section 3"), "{}", out.text);
        // Taken for a list of three items, the row was a listing, menu and all.
        let config = HeuristicConfig {
            unlike_items_no_list: false,
            ..HeuristicConfig::default()
        };
        let out = extract(&parse(&html), &config);
        assert!(out.text.contains("Section 3"), "{}", out.text);
        // With `story_is_article`, the "most read" teasers are the story's rails.
        let config = HeuristicConfig {
            story_is_article: true,
            ..HeuristicConfig::default()
        };
        let out = extract(&parse(&html), &config);
        assert!(out.text.contains("It ends here."), "{}", out.text);
        assert!(!out.text.contains("Most read story"), "{}", out.text);
    }

    #[test]
    fn cards_with_and_without_descriptions_stay_a_list() {
        // A grid of teasers, each a linked title and a snippet: all of one kind.
        let cards = (1..=5)
            .map(|i| format!("<div><h3><a href=/c{i}>Card title number {i}</a></h3><p>{ARTICLE} Card {i}.</p></div>"))
            .collect::<String>();
        let out = run(&format!("<body><div id=grid>{cards}</div></body>"));
        assert!(out.text.contains("Card 1."), "{}", out.text);
        assert!(out.text.contains("Card 5."), "{}", out.text);
    }
}
