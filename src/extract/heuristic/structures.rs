//! A repeated structure ([`Group`]: siblings under one parent sharing tag and class) and
//! a page's set of them per pass ([`Structures`]): the types that `groups.rs` (which finds
//! them), `item_kinds.rs` (whether their items are alike) and the steps after share.

use super::settings::{
    HeuristicConfig, COLUMN_TEXT_PARAGRAPHS, COLUMN_TEXT_SHARE, MAX_ITEM_SHARE, TEASER_LINK_SHARE,
};
use crate::extract::dom::ElemId;

/// A repeated structure: siblings under `parent` sharing tag and class.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Group {
    pub(super) parent: ElemId,
    pub(super) items: u32,
    pub(super) words: u64,
    pub(super) link_words: u64,
    pub(super) links: u64,
    /// Words of its largest item.
    pub(super) max_item: u64,
    /// The item with the most words outside links (its text item): those words, and
    /// all its words and link words.
    pub(super) text_item_own: u64,
    pub(super) text_item_words: u64,
    pub(super) text_item_links: u64,
    /// Its items are of unlike kinds, one piece of prose beside lists
    /// ([`item_kinds`](super::item_kinds)): that item's content evidence outside
    /// nested lists (0: alike), and that item.
    pub(super) story_evidence: f64,
    pub(super) story_item: ElemId,
}

impl Group {
    /// Its items are led by links (titles of listed pages), not sections or posts with
    /// a few inline links.
    pub(super) fn linked(&self) -> bool {
        self.link_words as f64 >= TEASER_LINK_SHARE * self.words as f64
    }

    /// Side-by-side layout columns sharing a class (`td`s of a layout table, `div.col`s):
    /// one item holds most of the group's unlinked text, at least a couple of paragraphs'
    /// worth, and the other items together are link lists (menus, "other news" columns).
    /// The items of a list are alike; these are an article beside its link columns, and
    /// taken for a list they would make the whole row the container, the columns' links
    /// neutral and the page a listing.
    pub(super) fn layout_columns(&self, config: &HeuristicConfig) -> bool {
        let own = self.words - self.link_words;
        let (other_words, other_links) = (
            self.words - self.text_item_words,
            self.link_words - self.text_item_links,
        );
        self.text_item_own as f64 >= COLUMN_TEXT_SHARE * own as f64
            && self.text_item_own >= COLUMN_TEXT_PARAGRAPHS * config.min_content_words as u64
            && other_links as f64 > config.max_link_density * other_words as f64
    }

    pub(super) fn content_like(&self, config: &HeuristicConfig) -> bool {
        let words = self.words as f64;
        self.items >= config.min_list_items
            && self.max_item as f64 <= MAX_ITEM_SHARE * words
            && !self.layout_columns(config)
            && words >= config.min_item_words * self.items as f64
            && ((words - self.link_words as f64) >= config.min_item_text_share * words
                || self.link_words as f64 >= config.min_item_words * self.links as f64)
    }
}

/// The repeated structures of a page, per pass (they depend on the marks).
pub(super) struct Structures {
    /// Words of every element outside marks and template, its subtree included.
    pub(super) words: Vec<u64>,
    pub(super) groups: Vec<Group>,
    /// The group each element is an item of (`u32::MAX`: none).
    pub(super) group_of: Vec<u32>,
    /// The content-like group of the nearest item enclosing each element, itself
    /// included (`u32::MAX`: none).
    pub(super) item_group: Vec<u32>,
}
