//! Measures of one text block on its own: its link density, whether it ends cut off, and
//! its value as content evidence (step 1 of the heuristic: long blocks with few link
//! words are content, link lists and short fragments are boilerplate).

use super::settings::{HeuristicConfig, CONTENT_WORDS_DISCOUNT, TABLE_CELL_WORDS_FACTOR};
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
    if matches!(b.kind, BlockKind::Heading(_)) {
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

/// Whether a block's text ends with an ellipsis: a snippet cut off to fit a teaser.
pub(super) fn is_truncated(text: &str) -> bool {
    let t = text.trim_end();
    t.ends_with("...") || t.ends_with('…')
}
