//! Measures of one text block on its own: its link density, whether it ends cut off, and
//! its value as content evidence (step 1 of the heuristic: long blocks with few link
//! words are content, link lists and short fragments are boilerplate).

use super::settings::{
    HeuristicConfig, CONTENT_WORDS_DISCOUNT, LEAD_HEADING_PARAGRAPHS, TABLE_CELL_WORDS_FACTOR,
};
use crate::extract::dom::{Block, BlockKind};

/// Share of a block's words that are inside links (0 for a block without words).
pub(super) fn link_density(b: &Block) -> f64 {
    if b.words == 0 {
        0.0
    } else {
        b.link_words as f64 / b.words as f64
    }
}

/// A block's value as content evidence: its non-link words if it is long and not
/// link-dense, minus its words if it is link-dense or `in_boilerplate`, 0 for a heading,
/// minus `short_block_penalty` of its words if it is short.
pub(super) fn block_value(b: &Block, in_boilerplate: bool, config: &HeuristicConfig) -> f64 {
    let words = b.words as f64;
    if in_boilerplate || link_density(b) > config.max_link_density {
        return -words;
    }
    if matches!(b.kind, BlockKind::Heading(_)) && !is_prose_heading(b, config) {
        // Headings structure the text but are no evidence of it (and the headline shown
        // above the article is chrome to trim).
        return 0.0;
    }
    let own = (b.words - b.link_words) as f64;
    if b.words - b.link_words >= config.min_content_words && b.kind != BlockKind::TableCell
        || b.words - b.link_words >= config.min_content_words * TABLE_CELL_WORDS_FACTOR
    {
        // Minus half the threshold: a block just long enough (a footer line) is weak
        // evidence, a paragraph strong evidence.
        own - config.min_content_words as f64 * CONTENT_WORDS_DISCOUNT
    } else {
        -words * config.short_block_penalty
    }
}

/// Whether a heading element holds a paragraph: the article's lead (standfirst) set in an
/// `<h3>`/`<h4>` under the headline, [`LEAD_HEADING_PARAGRAPHS`] paragraphs' worth of
/// words ending in a full stop. A heading says what follows in a phrase; valued 0 as one,
/// the lead was trimmed as chrome above the text.
pub(super) fn is_prose_heading(b: &Block, config: &HeuristicConfig) -> bool {
    (b.words - b.link_words) as f64 >= LEAD_HEADING_PARAGRAPHS * config.min_content_words as f64
        && ends_a_sentence(&b.text)
}

/// A sentence's end in the scripts of the web: `.`, `!`, `?`, the ellipsis `…` (a
/// sentence that trails off), the CJK full stop and full-width marks (`。`, `！`, `？`),
/// Arabic `؟` and Urdu `۔`, Devanagari `।` and `॥`, Armenian `։`, Ethiopic `።`, Myanmar
/// `။`, Thai has none.
pub(super) fn ends_a_sentence(text: &str) -> bool {
    text.trim_end().ends_with([
        '.', '!', '?', '…', '。', '！', '？', '؟', '۔', '।', '॥', '։', '።', '။',
    ])
}

/// Whether a block's text ends with an ellipsis: a snippet cut off to fit a teaser.
pub(super) fn is_truncated(text: &str) -> bool {
    let t = text.trim_end();
    t.ends_with("...") || t.ends_with('…')
}

#[cfg(test)]
mod tests {
    use super::super::tests::{run, ARTICLE};
    use super::ends_a_sentence;

    #[test]
    fn sentence_ends_of_other_scripts_are_known() {
        for t in [
            "Fin.",
            "終わりです。",
            "هل هذا صحيح؟",
            "यह अंत है।",
            "Սա վերջն է։",
            "Ich probier’s einfach mal…",
        ] {
            assert!(ends_a_sentence(t), "{t}");
        }
        for t in ["関連記事", "Ein Titel", "A list:"] {
            assert!(!ends_a_sentence(t), "{t}");
        }
    }

    #[test]
    fn a_lead_set_as_a_heading_is_text_and_a_short_heading_is_not() {
        let lead = "The harbour cranes lifted the old ferry out of the water on Monday morning, \
                    and the town came down to the quay to watch the hull rise for the last time.";
        let html = format!(
            "<html><head><title>Harbour cranes lifted the old ferry</title></head><body>\
             <div><a href=/>Home</a> <a href=/news>News</a></div>\
             <div class=story><h1>Harbour cranes lifted the old ferry</h1><h4>{lead}</h4>\
             <p>{ARTICLE} One.</p><p>{ARTICLE} Two.</p><h3>What the mayor said</h3>\
             <p>{ARTICLE} Three.</p></div></body></html>"
        );
        let out = run(&html);
        assert!(out.text.contains("came down to the quay"), "{}", out.text);
        assert!(out.text.contains("Three."), "{}", out.text);
        // A heading inside the text stays a line of it; one above it is trimmed as before.
        assert!(
            !out.text
                .starts_with("Harbour cranes lifted the old ferry\n"),
            "{}",
            out.text
        );
    }
}
