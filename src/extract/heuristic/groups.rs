//! Repeated structures (step 2 of the heuristic): siblings under one parent that share
//! tag and class kind (`sig`) — list items, product cards, forum posts, search results —
//! their word counts outside marks, and whether they are content-like (a listing) rather
//! than a menu.

use super::item_kinds;
use super::structures::{Group, Structures};
use super::Pass;
use crate::extract::dom::{ElemId, NO_ELEM};

/// Repeated structures: words per element (outside marks and template), grouped by
/// (parent, tag + class) among siblings, and the content-like item enclosing each
/// element.
pub(super) fn repeated_structures(pass: &Pass, marked: &[ElemId]) -> Structures {
    let counts = counts_below(pass, marked);
    let (mut groups, group_of) = group_siblings(pass, marked, &counts);
    if pass.config.unlike_items_no_list {
        item_kinds::mark_unlike_groups(
            pass,
            marked,
            &counts.words,
            &counts.link_words,
            &group_of,
            &mut groups,
        );
    }
    let item_group = nearest_items(pass, &groups, &group_of);
    Structures {
        words: counts.words,
        groups,
        group_of,
        item_group,
    }
}

/// Words, link words and links of every element's subtree, outside marks and template.
struct Counts {
    words: Vec<u64>,
    link_words: Vec<u64>,
    links: Vec<u64>,
}

fn counts_below(pass: &Pass, marked: &[ElemId]) -> Counts {
    let page = pass.page;
    let n = page.elements.len();
    let mut words = vec![0u64; n];
    let mut link_words = vec![0u64; n];
    let mut links = vec![0u64; n];
    for (i, b) in page.blocks.iter().enumerate() {
        if marked[b.elem as usize] == NO_ELEM && !pass.is_template(i) {
            words[b.elem as usize] += b.words as u64;
            link_words[b.elem as usize] += b.link_words as u64;
            links[b.elem as usize] += b.links as u64;
        }
    }
    for i in (1..n).rev() {
        let p = page.elements[i].parent;
        if p != NO_ELEM {
            words[p as usize] += words[i];
            link_words[p as usize] += link_words[i];
            links[p as usize] += links[i];
        }
    }
    Counts {
        words,
        link_words,
        links,
    }
}

/// Groups of unmarked siblings with text, by (parent, `sig`), and the group of each
/// element (`u32::MAX`: none). One hash map over the elements.
fn group_siblings(pass: &Pass, marked: &[ElemId], counts: &Counts) -> (Vec<Group>, Vec<u32>) {
    let (page, config) = (pass.page, pass.config);
    let (words, link_words, links) = (&counts.words, &counts.link_words, &counts.links);
    let mut groups: Vec<Group> = Vec::new();
    let mut group_of = vec![u32::MAX; page.elements.len()];
    let mut index: std::collections::HashMap<(ElemId, u32), u32> = Default::default();
    for (i, e) in page.elements.iter().enumerate() {
        if e.parent == NO_ELEM || words[i] == 0 || marked[i] != NO_ELEM {
            continue;
        }
        let g = *index.entry((e.parent, e.sig)).or_insert_with(|| {
            groups.push(Group {
                parent: e.parent,
                ..Group::default()
            });
            groups.len() as u32 - 1
        });
        let gr = &mut groups[g as usize];
        gr.items += 1;
        gr.words += words[i];
        gr.link_words += link_words[i];
        gr.links += links[i];
        gr.max_item = gr.max_item.max(words[i]);
        let own = words[i] - link_words[i];
        if own > gr.text_item_own || gr.items == 1 {
            gr.text_item_own = own;
            gr.text_item_words = words[i];
            gr.text_item_links = link_words[i];
        }
        group_of[i] = g;
    }
    if tracing::enabled!(tracing::Level::DEBUG) {
        for gr in groups.iter().filter(|g| g.content_like(config)) {
            let p = &page.elements[gr.parent as usize];
            tracing::debug!(
                "content-like group under {} <{} {}> items {} words {} link words {}",
                gr.parent,
                p.tag,
                p.id_class,
                gr.items,
                gr.words,
                gr.link_words
            );
        }
    }
    (groups, group_of)
}

/// Nearest content-like repeated item enclosing each element (or `u32::MAX`): the
/// item's group.
fn nearest_items(pass: &Pass, groups: &[Group], group_of: &[u32]) -> Vec<u32> {
    let (page, config) = (pass.page, pass.config);
    let mut item_group = vec![u32::MAX; page.elements.len()];
    for (i, e) in page.elements.iter().enumerate() {
        let g = group_of[i];
        item_group[i] = if g != u32::MAX && groups[g as usize].content_like(config) {
            g
        } else if e.parent != NO_ELEM {
            item_group[e.parent as usize]
        } else {
            u32::MAX
        };
    }
    item_group
}

#[cfg(test)]
mod tests {
    use super::super::settings::HeuristicConfig;
    use super::super::tests::{run, ARTICLE};
    use super::*;

    #[test]
    fn a_group_whose_one_item_holds_nearly_all_words_is_not_a_list() {
        let config = HeuristicConfig::default();
        let g = |max_item| Group {
            parent: 0,
            items: 4,
            words: 400,
            link_words: 0,
            links: 0,
            max_item,
            ..Group::default()
        };
        // Four posts of about equal length: a repeated structure.
        assert!(g(120).content_like(&config));
        // A body section next to a date line, a share bar and a caption: one text.
        assert!(!g(380).content_like(&config));
    }

    #[test]
    fn items_with_record_ids_in_their_class_form_one_group() {
        let teasers = (1..=4)
            .map(|i| format!("<article class=\"post-{} post\"><h3><a href=/{i}>Another story worth your time number {i}</a></h3><p>A short snippet of that story with a few words {i}.</p></article>", 7810 + i * 37))
            .collect::<String>();
        let article = format!("<p>{ARTICLE}</p>").repeat(12);
        let out = run(&format!(
            "<body><div><div class=entry>{article}</div><section>{teasers}</section></div></body>"
        ));
        assert!(out.text.contains("long body"), "{}", out.text);
        assert!(!out.text.contains("snippet"), "{}", out.text);
    }

    #[test]
    fn layout_columns_are_no_list() {
        // A layout table's row: an article cell between two link columns, all three
        // cells of one class.
        let menu = (1..=12)
            .map(|i| format!("<div><a href=/m{i}>Section number {i}</a></div>"))
            .collect::<String>();
        let news = (1..=8)
            .map(|i| format!("<div><a href=/n{i}>Other headline of the day number {i}</a></div>"))
            .collect::<String>();
        let article = format!(
            "<h1>The story</h1>{}",
            format!("<p>{ARTICLE}</p>").repeat(4)
        );
        let out = run(&format!(
            "<body><table><tr><td class=col>{menu}</td><td class=col>{article}</td><td class=col>{news}</td></tr></table></body>"
        ));
        assert!(out.text.contains("long body"), "{}", out.text);
        assert!(!out.text.contains("Section number"), "{}", out.text);
        assert!(!out.text.contains("Other headline"), "{}", out.text);
        let config = HeuristicConfig::default();
        let g = |text_item_links, other_links| Group {
            parent: 0,
            items: 3,
            words: 300,
            link_words: text_item_links + other_links,
            max_item: 150,
            text_item_own: 150 - text_item_links,
            text_item_words: 150,
            text_item_links,
            ..Group::default()
        };
        // The other items are link lists: columns.
        assert!(g(10, 140).layout_columns(&config));
        // The other items carry text of their own: posts or cards, a list.
        assert!(!g(10, 40).layout_columns(&config));
    }
}
