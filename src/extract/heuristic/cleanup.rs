//! What is written out (step 5 of the heuristic): the container's blocks and those of
//! what joined it, in document order, without template blocks, link lists and blocks in
//! boilerplate-marked sub-elements; then the short lines before the first content block
//! are trimmed (a heading right over it stays) and the rest joined into the answer.

use super::features::link_density;
use super::headline::Headed;
use super::scoring::BlockValues;
use super::settings::{HeuristicConfig, OPENING_HEADING_MIN_WORDS, REPEAT_PARAGRAPH_WORDS};
use super::Pass;
use crate::extract::dom::{Block, BlockKind, ElemId, NO_ELEM};
use crate::extract::Extracted;

/// What a pass decided about the page's elements before writing out: the container and,
/// per element, its nearest mark and whether it joins as a sibling section, an item of a
/// dominant structure or a comment section, or is a rail. [`kept_blocks`] writes from it;
/// the report's explanation (`explain.rs`) reads the same.
#[derive(Clone, Copy)]
pub(super) struct Decisions<'d> {
    pub(super) container: ElemId,
    pub(super) marked: &'d [ElemId],
    pub(super) in_siblings: &'d [bool],
    pub(super) in_dominant: &'d [bool],
    pub(super) in_comments: &'d [bool],
    pub(super) rails: &'d [bool],
}

/// The container's blocks, without link lists and boilerplate-marked sub-elements, and
/// the blocks of sibling sections (`in_siblings`) and, with `include_comments`, of
/// comment sections outside the container (`in_comments`). Link-dense blocks stay in
/// items of dominant link-led structures (`in_dominant`).
pub(super) fn kept_blocks<'a>(pass: &Pass<'a>, d: &Decisions) -> Vec<(usize, &'a Block)> {
    let Decisions {
        container,
        marked,
        in_siblings,
        in_dominant,
        in_comments,
        rails,
    } = *d;
    let (page, config) = (pass.page, pass.config);
    page.blocks
        .iter()
        .enumerate()
        .filter(|&(i, b)| !pass.is_template(i) && !rails[b.elem as usize])
        .filter(|(_, b)| {
            page.contains(container, b.elem)
                || in_comments[b.elem as usize]
                || in_siblings[b.elem as usize]
        })
        .filter(|(_, b)| {
            let m = marked[b.elem as usize];
            if in_siblings[b.elem as usize] && !page.contains(container, b.elem) {
                // Sibling sections start unmarked: a mark inside one is its chrome.
                return m == NO_ELEM;
            }
            !(m != NO_ELEM && m != container && page.contains(container, m))
                || in_comments[b.elem as usize]
        })
        .filter(|(_, b)| link_density(b) <= config.max_link_density || in_dominant[b.elem as usize])
        .collect()
}

/// Where the written text starts, with `trim_edges`: short blocks before the first
/// content block are the container's own chrome (breadcrumbs, date and view-count lines,
/// the headline shown apart from the text). Short blocks after the last one are kept:
/// they are often "Source:" lines and short comments, which belong to the text
/// (trimming them measured worse).
pub(super) fn first_content(pass: &Pass, values: &BlockValues, kept: &[(usize, &Block)]) -> usize {
    if pass.config.trim_edges {
        kept.iter()
            .position(|&(i, b)| values.value(i, b) > 0.0)
            .unwrap_or(0)
    } else {
        0
    }
}

/// With `keep_opening_heading`: the written text starts one block earlier when the kept
/// block right above its first line is a heading of the text's element (`<h2>`–`<h6>`,
/// no links, at least [`OPENING_HEADING_MIN_WORDS`] words) and not the page's headline.
/// `trim_edges` reads it as chrome (a heading is no evidence), but a heading right over
/// the first paragraph opens the text: its first section's title, a sentence set as a
/// heading ("The poster contest for children" over "takes place for the sixth time…"),
/// or a blog post's first paragraph set as `<h3>`.
pub(super) fn with_opening_heading(
    pass: &Pass,
    headed: Option<Headed>,
    kept: &[(usize, &Block)],
    first: usize,
) -> usize {
    let Some(above) = first
        .checked_sub(1)
        .filter(|_| pass.config.keep_opening_heading)
    else {
        return first;
    };
    let (i, b) = kept[above];
    let opens = matches!(b.kind, BlockKind::Heading(level) if level >= 2)
        && b.link_words == 0
        && b.words >= OPENING_HEADING_MIN_WORDS
        && headed.is_none_or(|h| h.headline != i);
    if opens {
        above
    } else {
        first
    }
}

/// A paragraph said a second time is written once: pages that carry their article twice
/// (a print or mobile copy beside the screen one, the lead story's teaser above it) would
/// give it twice.
pub(super) fn without_repeats<'a>(
    mut kept: Vec<(usize, &'a Block)>,
    config: &HeuristicConfig,
) -> Vec<(usize, &'a Block)> {
    let paragraph = |b: &Block| b.words >= REPEAT_PARAGRAPH_WORDS * config.min_content_words;
    let mut said = std::collections::HashSet::new();
    kept.retain(|&(_, b)| !paragraph(b) || said.insert(b.text.clone()));
    kept
}

/// The answer: the kept blocks' texts, one line each.
pub(super) fn write_out(kept: &[(usize, &Block)]) -> Extracted {
    let mut text = String::new();
    let mut kept_words = 0u64;
    let mut blocks = Vec::with_capacity(kept.len());
    for &(i, b) in kept {
        blocks.push(i as u32);
        if !text.is_empty() {
            text.push('\n');
        }
        text.push_str(&b.text);
        kept_words += b.words as u64;
    }
    let empty_reason = text
        .is_empty()
        .then(|| "no block passed the content tests (only links or boilerplate)".to_string());
    Extracted {
        text,
        kept_words,
        blocks,
        empty_reason,
        ..Extracted::default()
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{headed_page, run, run_without, ARTICLE, HEADLINE};

    #[test]
    fn an_article_given_twice_is_written_once() {
        let long = format!("{ARTICLE} {ARTICLE}");
        let copy =
            format!("<h2>The story</h2><p>{long} One.</p><p>{long} Two.</p><p>Short line.</p>");
        let out = run(&format!(
            "<body><div class=screen>{copy}</div><div class=print>{copy}</div></body>"
        ));
        assert_eq!(out.text.matches("One.").count(), 1, "{}", out.text);
        assert_eq!(out.text.matches("Two.").count(), 1, "{}", out.text);
        // Short lines may recur on a page by design.
        assert_eq!(out.text.matches("Short line.").count(), 2, "{}", out.text);
    }

    #[test]
    fn link_lists_inside_content_are_dropped() {
        let html = format!(
            "<div><p>{ARTICLE}</p><ul><li><a href=/1>Related one</a></li><li><a href=/2>Related two</a></li></ul></div>"
        );
        let out = run(&html);
        assert!(out.text.contains("long body"));
        assert!(!out.text.contains("Related"));
    }
    #[test]
    fn a_heading_right_over_the_first_paragraph_opens_the_text() {
        let body = |heading: &str| {
            headed_page(&format!(
                "<div class=text>{heading}<p>{ARTICLE} First.</p><p>{ARTICLE} Second.</p></div>"
            ))
        };
        let html = body("<h2>The poster contest for children</h2>");
        let text = run(&html).text;
        assert!(
            text.starts_with("The poster contest for children\n"),
            "{text}"
        );
        assert!(!text.contains(HEADLINE), "{text}");
        // Right under the headline it is also the deck (`lead_deck`); without the deck
        // test this switch alone keeps it, and with both off `trim_edges` trims it.
        let no_deck = run_without(&html, |c| c.lead_deck = false);
        assert!(
            no_deck.starts_with("The poster contest for children\n"),
            "{no_deck}"
        );
        let off = run_without(&html, |c| {
            c.lead_deck = false;
            c.keep_opening_heading = false;
        });
        assert!(off.starts_with(ARTICLE), "{off}");
        // A label of two words, or a linked heading, is no opening.
        for heading in [
            "<h2>Local news</h2>",
            "<h3><a href=/x>The poster contest for children</a></h3>",
        ] {
            let text = run(&body(heading)).text;
            assert!(text.starts_with(ARTICLE), "{heading}: {text}");
        }
    }
}
