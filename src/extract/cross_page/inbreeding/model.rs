//! Learning a group's shared blocks from its sample pages' profiles, and marking a page's
//! template blocks with them.

use std::collections::{HashMap, HashSet};

use serde::{Deserialize, Serialize};

use super::keys::{BlockKeys, PathStat, Profile, Sentences};
use super::InbreedingConfig;
use crate::extract::prefix_sample::{self, PrefixSampler};
use crate::group;

/// What a group's sample pages share.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Model {
    /// The URL prefix it was learned for (`site.ru/a/`).
    pub group: String,
    pub pages_sampled: usize,
    /// (path, text) keys on more than `majority` of the sample pages.
    template_pairs: HashSet<u64>,
    /// Sentence keys (`keys::Sentences`) on more than `majority` of them.
    template_sentences: HashSet<u64>,
    /// Learned from a group of fewer than `min_group_pages` pages (`small_groups`): the
    /// (path, text) keys and sentences on all its pages only, no link columns or outside
    /// paths; tried after every full model of the page's prefixes.
    pub small_group: bool,
    /// Paths whose blocks are a link column on at least `link_path_share` of them.
    link_paths: HashSet<u64>,
    /// Paths on at least `structure_share` of them that the local heuristic kept as
    /// text on at most `max_kept_share` of the pages they are on: the group's pages
    /// have them around their text, whatever they say (a "latest news" list with
    /// blurbs, a promotion line, a comment form).
    outside_paths: HashSet<u64>,
    /// Sample pages each path occurs on.
    path_pages: HashMap<u64, u32>,
    /// URL hashes of the sample pages (a sampled page's paths are counted once already).
    sampled: HashSet<u64>,
    /// Median over the sample pages of the share of a page's blocks whose path occurs on
    /// another sample page.
    #[serde(with = "crate::extract::cross_page::f64_bits")]
    pub shared_median: f64,
}

/// Why a group with enough pages has no model.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub enum Unlearned {
    /// Its pages share too few paths: another layout on every page (the median shared
    /// share is given).
    TooVaried(#[serde(with = "crate::extract::cross_page::f64_bits")] f64),
    /// They share paths but no block text and no link column.
    NothingShared,
}

/// Why a page is left to the local heuristic.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fallback {
    /// No prefix of the page has `min_group_pages` pages.
    SmallGroup,
    /// The prefixes with enough pages are too varied, or share nothing.
    TooVaried,
    /// A model exists, but this page's paths are mostly not the group's.
    LayoutMismatch,
    /// The model fits and finds no template block on this page.
    NoTemplateBlocks,
    /// Most of the page's text is on most pages of the group: the page is a copy of
    /// others (a print version, a story filed twice), and its text is no template.
    SharedText,
}

impl Fallback {
    /// Why, in words (the operator report's "style-inbreeding did not apply: …").
    pub fn reason(self) -> &'static str {
        match self {
            Fallback::SmallGroup => "the group has too few pages",
            Fallback::TooVaried => "the group's pages are too varied or share nothing",
            Fallback::LayoutMismatch => "the page's layout is not the group's",
            Fallback::NoTemplateBlocks => "no template block on the page",
            Fallback::SharedText => "the page's text is on most pages of the group (a copy)",
        }
    }
}

impl std::fmt::Display for Fallback {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.reason())
    }
}

/// Learn a group's model from its sample: `(URL hash, profile)` per page.
pub fn learn(
    group: &str,
    samples: &[(u64, Profile)],
    config: &InbreedingConfig,
) -> Result<Model, Unlearned> {
    let n = samples.len();
    let small_group = n < config.min_group_pages;
    let mut sentence_pages: HashMap<u64, u32> = HashMap::new();
    let mut pair_pages: HashMap<u64, u32> = HashMap::new();
    let mut path_pages: HashMap<u64, u32> = HashMap::new();
    let mut link_pages: HashMap<u64, u32> = HashMap::new();
    let mut kept_pages: HashMap<u64, u32> = HashMap::new();
    for (_, p) in samples {
        for &k in p.kept_paths.iter().flatten() {
            *kept_pages.entry(k).or_default() += 1;
        }
        for &k in &p.pairs {
            *pair_pages.entry(k).or_default() += 1;
        }
        for &k in &p.sentences {
            *sentence_pages.entry(k).or_default() += 1;
        }
        for s in &p.paths {
            *path_pages.entry(s.path).or_default() += 1;
            if s.link_dense {
                *link_pages.entry(s.path).or_default() += 1;
            }
        }
    }
    let mut shares: Vec<f64> = samples
        .iter()
        .map(|(_, p)| shared_share(&p.paths, &path_pages, 2))
        .collect();
    shares.sort_by(f64::total_cmp);
    let shared_median = median(&shares);
    if n < 2 || shared_median < config.min_shared_paths {
        return Err(Unlearned::TooVaried(shared_median));
    }
    let majority = |c: u32| c as f64 > config.majority * n as f64;
    let template_sentences: HashSet<u64> = sentence_pages
        .into_iter()
        .filter(|&(_, c)| majority(c))
        .map(|(k, _)| k)
        .collect();
    let template_pairs: HashSet<u64> = pair_pages
        .into_iter()
        .filter(|&(_, c)| majority(c))
        .map(|(k, _)| k)
        .collect();
    // Two pages cannot tell a link column or a path outside the text from a page's own
    // list; what both say word for word, where it sits or as a sentence, is the site's (a
    // copy of one story is refused by the shared-text guards).
    let (link_paths, outside_paths) = if small_group {
        (HashSet::new(), HashSet::new())
    } else {
        let link_needed = (config.link_path_share * n as f64).ceil().max(2.0) as u32;
        let link_paths: HashSet<u64> = link_pages
            .into_iter()
            .filter(|&(_, c)| c >= link_needed)
            .map(|(k, _)| k)
            .collect();
        (
            link_paths,
            outside_paths(samples, &path_pages, &kept_pages, config),
        )
    };
    if template_pairs.is_empty()
        && template_sentences.is_empty()
        && link_paths.is_empty()
        && outside_paths.is_empty()
    {
        return Err(Unlearned::NothingShared);
    }
    Ok(Model {
        group: group.to_string(),
        pages_sampled: n,
        template_pairs,
        template_sentences,
        small_group,
        link_paths,
        outside_paths,
        path_pages,
        sampled: samples.iter().map(|(h, _)| *h).collect(),
        shared_median,
    })
}

/// Paths on at least `structure_share` of the sample pages (and on at least
/// `min_group_pages` of them) that the local heuristic kept on at most `max_kept_share`
/// of the pages they are on. Empty unless every sample page has its local answer.
fn outside_paths(
    samples: &[(u64, Profile)],
    path_pages: &HashMap<u64, u32>,
    kept_pages: &HashMap<u64, u32>,
    config: &InbreedingConfig,
) -> HashSet<u64> {
    let n = samples.len();
    if samples.iter().any(|(_, p)| p.kept_paths.is_none()) {
        return HashSet::new();
    }
    let needed =
        ((config.structure_share * n as f64).ceil() as u32).max(config.min_group_pages as u32);
    path_pages
        .iter()
        .filter(|&(p, &c)| {
            let kept = kept_pages.get(p).copied().unwrap_or(0);
            c >= needed && kept as f64 <= config.max_kept_share * c as f64
        })
        .map(|(p, _)| *p)
        .collect()
}

/// Share of a page's blocks whose path is on at least `needed` sample pages.
fn shared_share(paths: &[PathStat], path_pages: &HashMap<u64, u32>, needed: u32) -> f64 {
    let total: u64 = paths.iter().map(|s| s.blocks as u64).sum();
    if total == 0 {
        return 0.0;
    }
    let shared: u64 = paths
        .iter()
        .filter(|s| path_pages.get(&s.path).copied().unwrap_or(0) >= needed)
        .map(|s| s.blocks as u64)
        .sum();
    shared as f64 / total as f64
}

/// The middle value of sorted `xs` (mean of the two middle ones), 0 when empty.
fn median(xs: &[f64]) -> f64 {
    match xs.len() {
        0 => 0.0,
        n if n % 2 == 1 => xs[n / 2],
        n => (xs[n / 2 - 1] + xs[n / 2]) / 2.0,
    }
}

impl Model {
    /// Share of a page's blocks whose path occurs on another sample page.
    pub fn fit(&self, paths: &[PathStat], url_hash: u64) -> f64 {
        let needed = 1 + u32::from(self.sampled.contains(&url_hash));
        shared_share(paths, &self.path_pages, needed)
    }

    /// Per block of the page: template when it sits in a link column on a path that is a
    /// link column on nearly every page of the group, or when the group shares its
    /// (path, text) and it is not itself mostly links. A link outside link columns with a
    /// fixed text ("Read more", "Comments") belongs to an item of its own (a teaser beside
    /// its blurb): the heuristic already counts link-dense blocks against their container
    /// and leaves them out of the text, and marking them would hide the item's links from its
    /// tests of teaser lists and listings (daniel-dev: health-ua.org's "related" blurbs
    /// came back, its mean F1 0.782 local → 0.732; with this rule 0.782, all pages 0.8853
    /// either way).
    pub fn mask(&self, keys: &BlockKeys) -> Vec<bool> {
        let shared =
            |k: &u64, s: &Sentences| self.template_pairs.contains(k) || self.shared_sentences(s);
        keys.pair
            .iter()
            .zip(&keys.sentences)
            .zip(&keys.path)
            .zip(&keys.in_link_column)
            .zip(&keys.link_dense)
            .map(|((((k, s), p), &column), &dense)| {
                column && self.link_paths.contains(p) || !dense && shared(k, s)
            })
            .collect()
    }

    /// A block whose long lines are all sentences most of the group's pages have,
    /// wherever they sit, and hold most of its words: the site's sentence nested
    /// differently on this page (see [`Sentences`]).
    fn shared_sentences(&self, s: &Sentences) -> bool {
        !s.keys.is_empty()
            && s.long_words > s.short_words
            && s.keys.iter().all(|k| self.template_sentences.contains(k))
    }

    /// Per block of the page: its path is one the group's pages have outside their text.
    pub fn outside_mask(&self, keys: &BlockKeys) -> Vec<bool> {
        keys.path
            .iter()
            .map(|p| self.outside_paths.contains(p))
            .collect()
    }

    /// Numbers of shared (path, text) keys and link-column paths.
    pub fn sizes(&self) -> (usize, usize) {
        (self.template_pairs.len(), self.link_paths.len())
    }
}

/// A page's masks from the model that serves it ([`ModelStore::mask`]).
#[derive(Debug, Clone, PartialEq)]
pub struct PageMasks {
    /// Blocks the group shares (text, sentences, link columns).
    pub shared: Vec<bool>,
    /// Blocks on paths the group's pages have outside their text.
    pub outside: Vec<bool>,
    /// The model is a small group's ([`Model::small_group`]).
    pub small_group: bool,
}

/// Models (or why there is none) by URL prefix, for the prefixes with enough pages.
#[derive(Debug, Default, Clone, PartialEq, Serialize, Deserialize)]
pub struct ModelStore {
    pub models: HashMap<String, Result<Model, Unlearned>>,
}

impl ModelStore {
    /// The template masks of a page (shared texts and link columns; paths outside the
    /// group's text): the model of its most specific prefix that has one
    /// and that the page fits (wider prefixes are tried when a narrower group is too
    /// small, too varied or of another layout). A small group's model (fewer than
    /// `min_group_pages` pages) is the last resort: a wider prefix's full model goes
    /// first, and only the page's own directory's is used.
    pub fn mask(
        &self,
        keys: &BlockKeys,
        paths: &[PathStat],
        url: &str,
        config: &InbreedingConfig,
    ) -> Result<PageMasks, Fallback> {
        let full = self.mask_with(keys, paths, url, config, false);
        match full {
            Err(Fallback::SmallGroup) => self.mask_with(keys, paths, url, config, true),
            found => found,
        }
    }

    /// [`mask`](Self::mask) with the full models, or with the small groups' ones.
    fn mask_with(
        &self,
        keys: &BlockKeys,
        paths: &[PathStat],
        url: &str,
        config: &InbreedingConfig,
        small_group: bool,
    ) -> Result<PageMasks, Fallback> {
        let hash = prefix_sample::url_hash(url);
        let mut why = Fallback::SmallGroup;
        // A small group's model serves only the pages of its own directory: two pages
        // that share no more than a wider prefix may be a story and its print copy in
        // another section, whose shared text is no template.
        let prefixes = group::prefixes(url);
        let tried = if small_group { 1 } else { prefixes.len() };
        for prefix in prefixes.into_iter().take(tried) {
            match self.models.get(&prefix) {
                None => {}
                Some(Ok(model)) if model.small_group != small_group => {}
                Some(Err(_)) if small_group => {}
                Some(Err(_)) if why == Fallback::SmallGroup => why = Fallback::TooVaried,
                Some(Err(_)) => {}
                Some(Ok(model)) => {
                    if model.fit(paths, hash) < config.min_shared_paths {
                        why = Fallback::LayoutMismatch;
                        continue;
                    }
                    let mask = model.mask(keys);
                    let outside = model.outside_mask(keys);
                    return if mask.iter().chain(&outside).any(|&m| m) {
                        Ok(PageMasks {
                            shared: mask,
                            outside,
                            small_group,
                        })
                    } else {
                        Err(Fallback::NoTemplateBlocks)
                    };
                }
            }
        }
        Err(why)
    }

    /// Groups with a model, and groups with enough pages but none.
    pub fn counts(&self) -> (usize, usize) {
        let learned = self.models.values().filter(|m| m.is_ok()).count();
        (learned, self.models.len() - learned)
    }
}

/// Collects page profiles during the learning pass (the sampling Infholder uses).
pub struct Learner {
    sampler: PrefixSampler<(u64, Profile)>,
}

impl Learner {
    pub fn new(config: &InbreedingConfig) -> Self {
        Learner {
            sampler: PrefixSampler::new(config.sample_pages),
        }
    }

    /// Count a page that is not in any sample.
    pub fn count(&mut self, url: &str) {
        self.sampler.count(url);
    }

    pub fn add(&mut self, url: &str, profile: Profile) {
        self.sampler
            .add(url, (prefix_sample::url_hash(url), profile));
    }

    /// A model (or why none) for every prefix with enough pages.
    pub fn learn(self, config: &InbreedingConfig) -> ModelStore {
        use rayon::prelude::*;
        // Groups of 2 to `min_group_pages - 1` pages (`small_groups`) learn what is on all
        // their pages; one that has nothing has no model (its pages fall back as a small
        // group's).
        let smallest = if config.small_groups {
            config.min_group_pages.min(2)
        } else {
            config.min_group_pages
        };
        let models = self
            .sampler
            .groups(smallest)
            .into_par_iter()
            .filter_map(|(group, sample)| {
                let m = learn(&group, &sample, config);
                if sample.len() < config.min_group_pages && m.is_err() {
                    return None;
                }
                match &m {
                    Ok(m) => tracing::debug!(
                        "inbreeding {group}: {} pages, shared paths {:.2}, {} template texts, {} link columns, {} paths outside the text",
                        m.pages_sampled,
                        m.shared_median,
                        m.template_pairs.len(),
                        m.link_paths.len(),
                        m.outside_paths.len()
                    ),
                    Err(e) => tracing::debug!("inbreeding {group}: no model ({e:?})"),
                }
                Some((group, m))
            })
            .collect();
        ModelStore { models }
    }
}
