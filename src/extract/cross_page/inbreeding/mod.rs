//! Style-inbreeding (algorithms.md §2, "intersect the DOM trees of a group of pages"):
//! the second cross-page method, beside Infholder, for pages of one URL-prefix group.
//!
//! 1. Every text block is keyed by its element path — the tag names of its block-level
//!    ancestors, and the kinds (`Element::sig`: tag name and the class token naming the
//!    kind) of its own element and its parent — and by a hash of its normalized text
//!    (lower-case letters only) (`keys.rs`).
//! 2. Over a bounded sample of a group's pages (the sampling, groups and wider-prefix
//!    fallback Infholder uses, `prefix_sample.rs`), a block whose (path, text) is on
//!    more than `majority` of the sample pages is template (menus, footers, "about us",
//!    copyright lines), wherever it sits in the page; and a path whose blocks are a link
//!    column on nearly every page (`link_path_share`) is template even though its text
//!    changes (daily "latest news" columns) (`model.rs`). Unlike Infholder's LCS, block
//!    order does not matter, and a class names a block's place.
//! 3. A page is then extracted by the local heuristic with those blocks marked as
//!    template, as Infholder does with its mask (a fixed link outside link columns, such
//!    as a teaser's "Read more", is left unmarked: the heuristic drops it anyway and needs
//!    it to see the teaser).
//!
//! 4. Paths outside the text: the sample pages are also extracted by the local heuristic;
//!    a path on at least half of them whose blocks it keeps on at most `max_kept_share`
//!    of them is template whatever its text (a wire of headlines in plain text), at the
//!    head and tail of the page's local answer, and only when the page cleaned with it
//!    still keeps mostly what the local heuristic keeps (`min_local_agreement`).
//!
//! 5. Sentences: a block's long lines (`sentence_min_words`) are also keyed by their text
//!    alone, so a site's sentence nested differently on some pages is template there too.
//!
//! Guards: a page uses the nearest prefix with at least `min_group_pages` pages that
//! learned something; with `small_groups`, a group of two to `min_group_pages` − 1 pages
//! of the page's own directory learns only what all its pages say, as a last resort, and
//! a page whose local answer that model would mostly mask is a copy of its sibling
//! (`masks_local_answer`); a group whose pages share too few
//! paths (median share of a sample page's blocks whose path is on another sample page
//! below `min_shared_paths`) is too varied to compare; a page whose own blocks are mostly
//! on paths the group does not have is another layout; a page whose text is nearly all
//! shared is a copy. Such pages go to the heuristic, counted by reason.

mod keys;
mod model;
#[cfg(test)]
mod tests;

use std::sync::atomic::{AtomicUsize, Ordering};

use serde::{Deserialize, Serialize};

pub use keys::{normalized_text, path_stats, BlockKeys, PathStat, Profile};
pub use model::{learn, Fallback, Learner, Model, ModelStore, Unlearned};

use super::kept_blocks;
use crate::extract::cross_page;
use crate::extract::dom::PageDom;
use crate::extract::heuristic::HeuristicConfig;
use crate::extract::{Answer, Extracted, Extractor, PageContext, ParsedPage};

/// Style-inbreeding parameters (`inbreeding:` in the configuration file); how each was
/// chosen is in ARCHITECTURE.md.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct InbreedingConfig {
    /// A prefix needs this many pages before its pages are compared. Two pages cannot
    /// tell a template from a story told twice.
    pub min_group_pages: usize,
    /// Pages per group compared (the smallest URL hashes; bounded cost per group).
    pub sample_pages: usize,
    /// A (path, text) block is template when it is on more than this share of the sample
    /// pages (strictly more: a story on two of four pages is not a majority).
    pub majority: f64,
    /// A path whose blocks are a link column on at least this share of the sample pages
    /// ("nearly every page") is template whatever its text, on pages where it is a link
    /// column too.
    pub link_path_share: f64,
    /// A path's blocks on a page are a link column when more than this share of their
    /// words are link words.
    pub max_link_density: f64,
    /// Too varied: the median share of a sample page's blocks whose path is on another
    /// sample page is below this; a page whose blocks' paths are less than this share
    /// the group's has another layout.
    pub min_shared_paths: f64,
    /// A page whose text (words outside links of its blocks of at least the heuristic's
    /// `min_content_words`) is more than this share template shares its text with the
    /// group's other pages: a copy (print version, a story filed twice), not a template.
    pub max_masked_text_share: f64,
    /// A path on at least this share of the sample pages whose blocks the local
    /// heuristic kept on at most `max_kept_share` of the pages it is on is template
    /// whatever its text; above 1: never (the sample pages are then not extracted
    /// locally in the learning pass).
    pub structure_share: f64,
    pub max_kept_share: f64,
    /// The outside paths are used on a page only when at least this share of the words
    /// the page then keeps are words the local heuristic keeps too.
    pub min_local_agreement: f64,
    /// A line of a block with at least this many words (its share of the block's words)
    /// is also keyed by its text alone, wherever it sits: a block whose such lines are all
    /// on more than `majority` of the sample pages, and hold most of its words, is
    /// template (`keys::Sentences`); 0: off.
    pub sentence_min_words: u32,
    /// A group of 2 to `min_group_pages` − 1 pages learns the (path, text) keys and
    /// sentences on all its pages, and nothing else (`Model::small_group`); false: such
    /// groups have no model.
    pub small_groups: bool,
}

impl Default for InbreedingConfig {
    /// Chosen on daniel-dev with its manifest (word F1, one knob at a time; both site
    /// halves and sites-dev checked; the sweep is in ARCHITECTURE.md).
    fn default() -> Self {
        InbreedingConfig {
            // 3: 0.8853, 4: 0.8827, 5: 0.8817, up in both halves; 2 pages cannot tell
            // a template from a story told twice.
            min_group_pages: 3,
            // Infholder's, so that one learning pass serves both (6: 0.8735, 20: 0.8847).
            sample_pages: 10,
            // A majority (0.3: 0.8847 with half B down; 0.7: 0.8694).
            majority: 0.5,
            // "Nearly every page" (0.6 the same, 1.0: 0.8846, no link columns: 0.8815).
            link_path_share: 0.8,
            // The heuristic's own link-dense threshold (0.3: 0.8860, 0.7: 0.8846).
            max_link_density: 0.5,
            // Real sites' medians are 0.87-1.00, unrelated pages' 0.0 (0.3 and 0.7 within
            // 0.0003 of it).
            min_shared_paths: 0.5,
            // Above the largest share on pages the method improves (0.80 daniel-dev, 0.92
            // sites-dev; 0.9 refuses 3 sites-dev pages, 0.9984 → 0.9971); a copy is ~1.
            max_masked_text_share: 0.95,
            // daniel-dev with its manifest 0.9094 (A 0.9120 / B 0.9063; without outside
            // paths 0.9057); 0.3: 0.9097, 0.7: 0.9086.
            structure_share: 0.5,
            // 0: 0.9085, 0.34: 0.9094: one sample page of five may keep it by mistake.
            max_kept_share: 0.2,
            // 0.3: 0.9087 (a page moved to other text), 0.8: 0.9094; without the check
            // two sites fell more than 0.05 below local.
            min_local_agreement: 0.5,
            // The heuristic's `min_content_words`: daniel-dev with its manifest 0.9269 →
            // 0.9279 (5: 0.9279, 20: 0.9278; ARCHITECTURE.md, style-inbreeding).
            sentence_min_words: 10,
            // daniel-dev with its manifest 0.9279 → 0.9290 (ARCHITECTURE.md).
            small_groups: true,
        }
    }
}

/// Style-inbreeding as an [`Extractor`] (`method`: `inbreeding+heuristic`; counters under
/// `extractors.inbreeding`).
pub struct Inbreeding {
    store: ModelStore,
    config: InbreedingConfig,
    heuristic: HeuristicConfig,
    cleaned: AtomicUsize,
    small_group: AtomicUsize,
    too_varied: AtomicUsize,
    layout_mismatch: AtomicUsize,
    no_template_blocks: AtomicUsize,
    shared_text: AtomicUsize,
    empty_after_template: AtomicUsize,
    outside_refused: AtomicUsize,
}

impl Inbreeding {
    /// The `method` of pages it cleaned.
    pub const METHOD: &'static str = "inbreeding+heuristic";

    pub fn new(store: ModelStore, config: InbreedingConfig, heuristic: HeuristicConfig) -> Self {
        Inbreeding {
            store,
            config,
            heuristic,
            cleaned: AtomicUsize::new(0),
            small_group: AtomicUsize::new(0),
            too_varied: AtomicUsize::new(0),
            layout_mismatch: AtomicUsize::new(0),
            no_template_blocks: AtomicUsize::new(0),
            shared_text: AtomicUsize::new(0),
            empty_after_template: AtomicUsize::new(0),
            outside_refused: AtomicUsize::new(0),
        }
    }

    /// The page's template mask, or why there is none.
    pub fn template_mask(&self, dom: &PageDom, url: &str) -> Result<Vec<bool>, Fallback> {
        self.masked(dom, url).map(|m| m.mask)
    }

    /// [`template_mask`](Self::template_mask), with the page cleaned with it when the
    /// agreement test of the outside paths had to clean it already.
    fn masked(&self, dom: &PageDom, url: &str) -> Result<Masked, Fallback> {
        let keys = BlockKeys::of(dom, &self.config);
        let paths = path_stats(&keys);
        let found = self.store.mask(&keys, &paths, url, &self.config)?;
        let (mut mask, outside) = (found.shared, found.outside);
        let has_outside = outside.iter().any(|&o| o);
        // The local answer, once, for the copy and agreement tests and the cleaning's
        // headline recall.
        let in_local = (found.small_group || has_outside)
            .then(|| cross_page::local_kept(dom, &self.heuristic));
        let mut cleaned = None;
        if let Some(in_local) = &in_local {
            if found.small_group && masks_local_answer(dom, &mask, in_local) {
                return Err(Fallback::SharedText);
            }
            if has_outside {
                let outside = self.outside_at_edges(dom, &outside, in_local);
                let outside = self.headline_spared(dom, &mask, outside);
                let with: Vec<bool> = mask.iter().zip(&outside).map(|(m, o)| *m || *o).collect();
                if with != mask {
                    match self.cleaned_if_agreeing(dom, &with, in_local) {
                        Some(found) => {
                            mask = with;
                            cleaned = Some(found);
                        }
                        None => {
                            self.outside_refused.fetch_add(1, Ordering::Relaxed);
                        }
                    }
                }
            }
        }
        if !mask.iter().any(|&m| m) {
            return Err(Fallback::NoTemplateBlocks);
        }
        let share = masked_text_share(dom, &mask, self.heuristic.min_content_words);
        tracing::debug!("inbreeding page {url}: masked text share {share:.3}");
        if share > self.config.max_masked_text_share {
            return Err(Fallback::SharedText);
        }
        Ok(Masked {
            mask,
            cleaned,
            in_local,
        })
    }

    /// The outside-path blocks that may be marked on this page: those the local heuristic
    /// does not keep, and those it keeps before the first or after the last block of its
    /// answer that is text (at least `min_content_words` outside links) on no outside path.
    /// Between those, an outside path is the article's own list or table whose tag path
    /// the group's menus share (a class-less `ul > li`).
    fn outside_at_edges(&self, dom: &PageDom, outside: &[bool], in_local: &[bool]) -> Vec<bool> {
        let core = |i: usize| {
            let b = &dom.blocks[i];
            in_local[i]
                && !outside[i]
                && b.words.saturating_sub(b.link_words) >= self.heuristic.min_content_words
        };
        let first = (0..dom.blocks.len()).find(|&i| core(i));
        let last = (0..dom.blocks.len()).rev().find(|&i| core(i));
        outside
            .iter()
            .enumerate()
            .map(|(i, &o)| {
                let inside = match (first, last) {
                    (Some(f), Some(l)) => in_local[i] && i > f && i < l,
                    _ => false,
                };
                o && !inside
            })
            .collect()
    }

    /// `outside` without the page's headline line (`heuristic::headline_line`, found with
    /// the shared-text and link-column `mask`). The headline's path is often one the local
    /// heuristic leaves out on most pages of the group (it trims headlines above the text
    /// as chrome), but the line says the page's own title: it is no template, and marked it
    /// could neither anchor the container nor come back through
    /// `cross_page::restore_headline`, which restores only unmarked headlines (ifeng.com's
    /// headlines; daniel-dev with its manifest: see ARCHITECTURE.md, style-inbreeding).
    fn headline_spared(&self, dom: &PageDom, mask: &[bool], mut outside: Vec<bool>) -> Vec<bool> {
        if let Some(h) = super::heuristic::headline_line(dom, &self.heuristic, mask) {
            outside[h] = false;
        }
        outside
    }

    /// The page cleaned with `mask` when it keeps mostly text the local heuristic keeps
    /// too (at least `min_local_agreement` of its words): the group's outside paths may
    /// prune the page's own answer, not move it elsewhere. Where the page's text sits on
    /// a path the other pages have around theirs (a photo story among articles), marking
    /// it sends the heuristic to the page's menus instead.
    fn cleaned_if_agreeing(
        &self,
        dom: &PageDom,
        mask: &[bool],
        in_local: &[bool],
    ) -> Option<Extracted> {
        let cleaned = cross_page::clean_with_mask(dom, &self.heuristic, mask, Some(in_local))?;
        let in_cleaned = kept_blocks(dom, &cleaned.text);
        let (all, shared) = words_also(dom, &in_cleaned, in_local);
        (all > 0 && shared as f64 >= self.config.min_local_agreement * all as f64)
            .then_some(cleaned)
    }

    /// [`template_mask`](Self::template_mask), counting the fall-back when there is none.
    pub fn page_mask(&self, dom: &PageDom, url: &str) -> Option<Vec<bool>> {
        self.page_masked(dom, url).map(|m| m.mask)
    }

    /// [`page_mask`](Self::page_mask) with the page cleaned, when that was done on the way.
    fn page_masked(&self, dom: &PageDom, url: &str) -> Option<Masked> {
        let found = self.masked(dom, url);
        crate::extract::trace::record(|t| match &found {
            Ok(m) => t.masks.push(("style-inbreeding template", m.mask.clone())),
            Err(why) => t
                .notes
                .push(format!("style-inbreeding did not apply: {why}")),
        });
        match found {
            Ok(mask) => Some(mask),
            Err(why) => {
                let counter = match why {
                    Fallback::SmallGroup => &self.small_group,
                    Fallback::TooVaried => &self.too_varied,
                    Fallback::LayoutMismatch => &self.layout_mismatch,
                    Fallback::NoTemplateBlocks => &self.no_template_blocks,
                    Fallback::SharedText => &self.shared_text,
                };
                counter.fetch_add(1, Ordering::Relaxed);
                None
            }
        }
    }

    /// Count a page cleaned with the mask, or left to the heuristic because nothing was
    /// left after it.
    pub fn note_cleaned(&self, cleaned: bool) {
        let counter = if cleaned {
            &self.cleaned
        } else {
            &self.empty_after_template
        };
        counter.fetch_add(1, Ordering::Relaxed);
    }
}

/// A page's template mask, and the page cleaned with it and the blocks the local
/// heuristic keeps if either was needed while it was made (see [`Inbreeding::masked`]).
struct Masked {
    mask: Vec<bool>,
    cleaned: Option<Extracted>,
    in_local: Option<Vec<bool>>,
}

/// Whether `mask` takes most of the words of the local heuristic's answer (`in_local`).
/// A small group's model knows only what its two or three pages say alike; when that is
/// most of a page's own text, the pages are copies of one story (an edition and its
/// update, a story filed twice in one section), not pages of one template: masked, each
/// would be left with its menus. The shared-text guard of the whole page does not see it:
/// the menus and lists around the copies can differ.
fn masks_local_answer(dom: &PageDom, mask: &[bool], in_local: &[bool]) -> bool {
    let (all, masked) = words_also(dom, in_local, mask);
    2 * masked > all
}

/// Words of the blocks `of` marks, and of those among them `also` marks too.
fn words_also(dom: &PageDom, of: &[bool], also: &[bool]) -> (u64, u64) {
    let (mut all, mut both) = (0u64, 0u64);
    for ((b, &o), &a) in dom.blocks.iter().zip(of).zip(also) {
        if o {
            all += b.words as u64;
            both += if a { b.words as u64 } else { 0 };
        }
    }
    (all, both)
}

/// Share of a page's text (non-link words of blocks with at least `min_words` of them)
/// that `mask` marks as template; 0 for a page without such blocks.
fn masked_text_share(dom: &PageDom, mask: &[bool], min_words: u32) -> f64 {
    let (mut all, mut masked) = (0u64, 0u64);
    for (b, &m) in dom.blocks.iter().zip(mask) {
        let own = b.words.saturating_sub(b.link_words);
        if own >= min_words {
            all += own as u64;
            masked += if m { own as u64 } else { 0 };
        }
    }
    if all == 0 {
        0.0
    } else {
        masked as f64 / all as f64
    }
}

impl Extractor for Inbreeding {
    fn name(&self) -> &str {
        "inbreeding"
    }

    fn extract(&self, page: &ParsedPage, ctx: &PageContext<'_>) -> Option<Extracted> {
        let masked = self.page_masked(&page.dom, ctx.url)?;
        // Cleaned already when the outside paths' agreement test ran (the same mask).
        let found = masked.cleaned.or_else(|| {
            let in_local = masked.in_local.as_deref();
            cross_page::clean_with_mask(&page.dom, &self.heuristic, &masked.mask, in_local)
        });
        self.note_cleaned(found.is_some());
        found
    }

    fn answer(&self, page: &ParsedPage, ctx: &PageContext<'_>) -> Option<Answer> {
        self.extract(page, ctx).map(|extracted| Answer {
            extracted,
            method: Self::METHOD.to_string(),
            ..Answer::default()
        })
    }

    fn report(&self) -> Option<serde_json::Value> {
        let (groups, unlearned) = self.store.counts();
        let n = |c: &AtomicUsize| c.load(Ordering::Relaxed);
        Some(serde_json::json!({
            "groups_learned": groups,
            "groups_too_varied": unlearned,
            "pages_cleaned": n(&self.cleaned),
            "fallback_small_group": n(&self.small_group),
            "fallback_too_varied": n(&self.too_varied),
            "fallback_layout_mismatch": n(&self.layout_mismatch),
            "fallback_no_template_blocks": n(&self.no_template_blocks),
            "fallback_shared_text": n(&self.shared_text),
            "fallback_empty_after_template": n(&self.empty_after_template),
            "outside_paths_refused": n(&self.outside_refused),
        }))
    }
}
