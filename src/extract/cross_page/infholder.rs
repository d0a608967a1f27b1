//! Infholder (algorithms.md §2): pages of one URL-prefix group share a template, and the
//! template is what their block vectors have in common.
//!
//! 1. Every page becomes a vector of blocks: the text between block-level tag boundaries
//!    (`p`, `div`, `li`, `td`, `h1`…; inline tags such as `a`, `span`, `b` are grouped into
//!    the block whose text they carry), attributes dropped. A block's value is the CRC32
//!    of its tag path (tag names only, from the well-formed html5ever tree) and its text.
//! 2. A group's template is learned from a bounded sample (`sample_pages`, chosen by URL
//!    hash, so the same pages are chosen whatever the input order): for every pair of
//!    sample pages the longest common subsequence (LCS) of their vectors is computed; a
//!    block of a page is template when it lies in the pairwise LCS with at least
//!    `majority` of the other sample pages. One odd page (another layout, an error page)
//!    then cannot shrink the template, as it would in a progressive k-way LCS, and a text
//!    repeated on two pages of a group (a syndicated article, a print copy) is not a
//!    majority. The template is the longest such per-page subsequence.
//! 3. A page is cleaned by the LCS of its vector with the template: matched blocks are
//!    template. When fewer than `min_template_match` of the template's blocks are found,
//!    the page does not have the group's layout and the cascade moves on.
//! 4. What the template does not catch (related lists, date lines, counters) is left to
//!    the local heuristic, run with the template blocks marked as boilerplate.
//!
//! Groups with fewer than `min_group_pages` pages learn nothing; their pages use the
//! template of the nearest wider prefix that has one (`site.ru/a/b/` → `site.ru/a/` →
//! `site.ru/`).

use std::collections::HashMap;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};

use serde::{Deserialize, Serialize};

use crate::extract::cross_page;
use crate::extract::dom::{PageDom, NO_ELEM};
use crate::extract::heuristic::HeuristicConfig;
use crate::extract::prefix_sample::PrefixSampler;
use crate::extract::{Extracted, Extractor, PageContext, ParsedPage};
use crate::group;

/// Infholder parameters; defaults documented in ARCHITECTURE.md.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct InfholderConfig {
    /// Use Infholder at all (it costs a learning pass over the pages).
    pub enabled: bool,
    /// A prefix needs this many pages before a template is learned for it.
    pub min_group_pages: usize,
    /// Pages per group used for learning (bounded: an 8,000-page group costs the same).
    pub sample_pages: usize,
    /// Share of the other sample pages whose pairwise LCS must contain a block.
    pub majority: f64,
    /// A template with fewer blocks is no template (pages share no layout).
    pub min_template_blocks: usize,
    /// Share of the template's blocks a page must contain to be cleaned with it.
    pub min_template_match: f64,
    /// More matching block pairs than this between two pages (pathological repetition)
    /// and the LCS falls back to greedy in-order matching.
    pub max_lcs_cells: usize,
}

impl Default for InfholderConfig {
    fn default() -> Self {
        InfholderConfig {
            enabled: true,
            min_group_pages: 4,
            sample_pages: 10,
            majority: 0.5,
            min_template_blocks: 5,
            min_template_match: 0.5,
            max_lcs_cells: 4_000_000,
        }
    }
}

/// The block vector of a page: CRC32 of (tag path, text) per text block.
pub fn block_vector(dom: &PageDom) -> Vec<u32> {
    let mut path_hash = vec![0u32; dom.elements.len()];
    for (i, e) in dom.elements.iter().enumerate() {
        let mut h = crc32fast::Hasher::new();
        if e.parent != NO_ELEM {
            h.update(&path_hash[e.parent as usize].to_le_bytes());
        }
        h.update(e.tag.as_bytes());
        path_hash[i] = h.finalize();
    }
    dom.blocks
        .iter()
        .map(|b| {
            let mut h = crc32fast::Hasher::new();
            h.update(
                &path_hash
                    .get(b.elem as usize)
                    .copied()
                    .unwrap_or(0)
                    .to_le_bytes(),
            );
            h.update(b.text.as_bytes());
            h.finalize()
        })
        .collect()
}

/// Index pairs `(i, j)`, `a[i] == b[j]`, of one longest common subsequence of `a` and
/// `b`, in order. Common prefixes and suffixes (headers and footers) are matched
/// directly; the middle is solved by Hunt–Szymanski: the match pairs, taken row by row
/// with columns descending, and their longest strictly increasing run of columns. That is
/// O(r log r) for r matching pairs — near-linear for block vectors, whose values are
/// mostly unique — instead of the O(n·m) table. Above `max_pairs` matching pairs
/// (pathological repetition) values are matched greedily in order instead.
pub fn lcs_pairs(a: &[u32], b: &[u32], max_pairs: usize) -> Vec<(usize, usize)> {
    let prefix = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let suffix = a[prefix..]
        .iter()
        .rev()
        .zip(b[prefix..].iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    let mut pairs: Vec<(usize, usize)> = (0..prefix).map(|i| (i, i)).collect();
    let (a_end, b_end) = (a.len() - suffix, b.len() - suffix);
    let mut columns: HashMap<u32, Vec<usize>> = HashMap::new();
    for (j, &v) in b.iter().enumerate().take(b_end).skip(prefix) {
        columns.entry(v).or_default().push(j);
    }
    let total: usize = (prefix..a_end)
        .map(|i| columns.get(&a[i]).map_or(0, Vec::len))
        .sum();
    if total > max_pairs {
        // Greedy in-order matching: bounded work on pathological pages.
        let mut next_free = prefix;
        for (i, v) in a.iter().enumerate().take(a_end).skip(prefix) {
            if let Some(cols) = columns.get(v) {
                if let Some(&j) = cols.iter().find(|&&j| j >= next_free) {
                    pairs.push((i, j));
                    next_free = j + 1;
                }
            }
        }
    } else {
        let mut matches: Vec<(usize, usize)> = Vec::with_capacity(total);
        for (i, v) in a.iter().enumerate().take(a_end).skip(prefix) {
            if let Some(cols) = columns.get(v) {
                matches.extend(cols.iter().rev().map(|&j| (i, j)));
            }
        }
        // Longest strictly increasing subsequence of the columns (patience sorting).
        let mut tails: Vec<usize> = Vec::new();
        let mut prev: Vec<usize> = vec![usize::MAX; matches.len()];
        for (k, &(_, j)) in matches.iter().enumerate() {
            let pos = tails.partition_point(|&t| matches[t].1 < j);
            if pos > 0 {
                prev[k] = tails[pos - 1];
            }
            if pos == tails.len() {
                tails.push(k);
            } else {
                tails[pos] = k;
            }
        }
        let mut chain = Vec::with_capacity(tails.len());
        let mut k = tails.last().copied().unwrap_or(usize::MAX);
        while k != usize::MAX {
            chain.push(matches[k]);
            k = prev[k];
        }
        pairs.extend(chain.into_iter().rev());
    }
    pairs.extend(
        (0..suffix)
            .rev()
            .map(|k| (a.len() - 1 - k, b.len() - 1 - k)),
    );
    pairs
}

/// A learned template: the block values of a group's shared layout, in page order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Template {
    /// The URL prefix it was learned for (`site.ru/a/`).
    pub group: String,
    pub blocks: Vec<u32>,
    pub pages_sampled: usize,
}

/// Learn a template from sample vectors (see the module docs).
pub fn learn(group: &str, samples: &[Vec<u32>], config: &InfholderConfig) -> Option<Template> {
    let n = samples.len();
    if n < 2 {
        return None;
    }
    let mut counts: Vec<Vec<u32>> = samples.iter().map(|s| vec![0; s.len()]).collect();
    for p in 0..n {
        for q in p + 1..n {
            for (i, j) in lcs_pairs(&samples[p], &samples[q], config.max_lcs_cells) {
                counts[p][i] += 1;
                counts[q][j] += 1;
            }
        }
    }
    let needed = ((config.majority * (n - 1) as f64).ceil() as u32).max(1);
    let best = (0..n)
        .map(|p| {
            samples[p]
                .iter()
                .zip(&counts[p])
                .filter(|(_, &c)| c >= needed)
                .map(|(&v, _)| v)
                .collect::<Vec<u32>>()
        })
        .max_by(|x, y| x.len().cmp(&y.len()).then(std::cmp::Ordering::Greater))?;
    (best.len() >= config.min_template_blocks).then(|| Template {
        group: group.to_string(),
        blocks: best,
        pages_sampled: n,
    })
}

/// Which of `page`'s blocks are template, and how many of the template's blocks matched.
pub fn match_template(page: &[u32], template: &Template, max_cells: usize) -> (Vec<bool>, usize) {
    let pairs = lcs_pairs(page, &template.blocks, max_cells);
    let mut mask = vec![false; page.len()];
    for &(i, _) in &pairs {
        mask[i] = true;
    }
    (mask, pairs.len())
}

/// Collects block vectors during the learning pass: page counts per prefix and, per
/// prefix, the `sample_pages` vectors of the pages with the smallest URL hash
/// ([`PrefixSampler`], shared with style-inbreeding).
pub struct Learner {
    sampler: PrefixSampler<Vec<u32>>,
}

impl Learner {
    pub fn new(config: &InfholderConfig) -> Self {
        Learner {
            sampler: PrefixSampler::new(config.sample_pages),
        }
    }

    /// Count a page that is not in any sample (see [`sample_urls`](crate::extract::prefix_sample::sample_urls)).
    pub fn count(&mut self, url: &str) {
        self.sampler.count(url);
    }

    pub fn add(&mut self, url: &str, vector: Vec<u32>) {
        self.sampler.add(url, vector);
    }

    /// Learn a template for every prefix with enough pages.
    pub fn learn(self, config: &InfholderConfig) -> TemplateStore {
        use rayon::prelude::*;
        let learned: Vec<Template> = self
            .sampler
            .groups(config.min_group_pages)
            .into_par_iter()
            .filter_map(|(group, vectors)| learn(&group, &vectors, config))
            .collect();
        let mut store = TemplateStore::default();
        for t in learned {
            store.templates.insert(t.group.clone(), t);
        }
        store
    }
}

/// Templates by URL prefix.
#[derive(Debug, Default, Clone, PartialEq, Serialize, Deserialize)]
pub struct TemplateStore {
    pub templates: HashMap<String, Template>,
}

impl TemplateStore {
    /// Templates that may apply to `url`, most specific prefix first.
    pub fn candidates<'a>(&'a self, url: &str) -> impl Iterator<Item = &'a Template> + 'a {
        group::prefixes(url)
            .into_iter()
            .filter_map(move |p| self.templates.get(&p))
    }

    /// Load every `*.json` template in `dir` (missing directory: empty store).
    pub fn load(dir: &Path) -> crate::Result<TemplateStore> {
        let mut store = TemplateStore::default();
        let Ok(entries) = std::fs::read_dir(dir) else {
            return Ok(store);
        };
        for entry in entries {
            let path = entry.map_err(|e| crate::Error::io(dir, e))?.path();
            if path.extension().is_none_or(|e| e != "json") {
                continue;
            }
            let text = std::fs::read_to_string(&path).map_err(|e| crate::Error::io(&path, e))?;
            let t: Template = serde_json::from_str(&text).map_err(|e| crate::Error::BadLine {
                path: path.clone(),
                line: e.line(),
                message: e.to_string(),
            })?;
            store.templates.insert(t.group.clone(), t);
        }
        Ok(store)
    }

    /// Write every template as `dir/<prefix>.json`.
    pub fn save(&self, dir: &Path) -> crate::Result<()> {
        std::fs::create_dir_all(dir).map_err(|e| crate::Error::io(dir, e))?;
        for t in self.templates.values() {
            let name: String = t
                .group
                .chars()
                .map(|c| {
                    if c.is_alphanumeric() || c == '.' || c == '-' {
                        c
                    } else {
                        '_'
                    }
                })
                .collect();
            let path = dir.join(format!("{name}.json"));
            let text = serde_json::to_string(t).expect("template serializes");
            crate::atomic_file::write_atomic(&path, text.as_bytes())?;
        }
        Ok(())
    }
}

/// Infholder as an [`Extractor`]: cleans pages whose group has a matching template.
pub struct Infholder {
    store: TemplateStore,
    config: InfholderConfig,
    heuristic: HeuristicConfig,
    applied: AtomicUsize,
    no_template: AtomicUsize,
    layout_mismatch: AtomicUsize,
    empty_after_template: AtomicUsize,
}

impl Infholder {
    pub fn new(store: TemplateStore, config: InfholderConfig, heuristic: HeuristicConfig) -> Self {
        Infholder {
            store,
            config,
            heuristic,
            applied: AtomicUsize::new(0),
            no_template: AtomicUsize::new(0),
            layout_mismatch: AtomicUsize::new(0),
            empty_after_template: AtomicUsize::new(0),
        }
    }

    /// The template mask for a page, if one of its prefixes' templates matches it.
    /// `vector` is the page's [`block_vector`].
    pub fn template_mask(&self, vector: &[u32], url: &str) -> Result<Vec<bool>, &'static str> {
        let mut any = false;
        for t in self.store.candidates(url) {
            any = true;
            let (mask, matched) = match_template(vector, t, self.config.max_lcs_cells);
            if matched >= self.config.min_template_blocks
                && matched as f64 >= self.config.min_template_match * t.blocks.len() as f64
            {
                return Ok(mask);
            }
        }
        Err(if any {
            "layout mismatch"
        } else {
            "no template"
        })
    }

    /// The page's template mask, counting the fall-back when there is none.
    pub fn page_mask(&self, dom: &PageDom, url: &str) -> Option<Vec<bool>> {
        let found = self.template_mask(&block_vector(dom), url);
        crate::extract::trace::record(|t| match &found {
            Ok(mask) => t.masks.push(("Infholder template", mask.clone())),
            Err(why) => t.notes.push(format!("Infholder did not apply: {why}")),
        });
        match found {
            Ok(mask) => Some(mask),
            Err("no template") => {
                self.no_template.fetch_add(1, Ordering::Relaxed);
                None
            }
            Err(_) => {
                self.layout_mismatch.fetch_add(1, Ordering::Relaxed);
                None
            }
        }
    }

    /// Count a page cleaned with the mask, or left to the heuristic because everything
    /// left was template or chrome.
    pub fn note_cleaned(&self, cleaned: bool) {
        let counter = if cleaned {
            &self.applied
        } else {
            &self.empty_after_template
        };
        counter.fetch_add(1, Ordering::Relaxed);
    }
}

impl Extractor for Infholder {
    fn name(&self) -> &str {
        "infholder+heuristic"
    }

    fn extract(&self, page: &ParsedPage, ctx: &PageContext<'_>) -> Option<Extracted> {
        let mask = self.page_mask(&page.dom, ctx.url)?;
        let found = cross_page::clean_with_mask(&page.dom, &self.heuristic, &mask, None);
        self.note_cleaned(found.is_some());
        found
    }

    fn report(&self) -> Option<serde_json::Value> {
        Some(serde_json::json!({
            "templates": self.store.templates.len(),
            "pages_cleaned": self.applied.load(Ordering::Relaxed),
            "fallback_no_template": self.no_template.load(Ordering::Relaxed),
            "fallback_layout_mismatch": self.layout_mismatch.load(Ordering::Relaxed),
            "fallback_empty_after_template": self.empty_after_template.load(Ordering::Relaxed),
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extract::prefix_sample;
    use std::collections::HashSet;

    /// Reference LCS length by dynamic programming.
    fn lcs_len(a: &[u32], b: &[u32]) -> usize {
        let mut t = vec![vec![0usize; b.len() + 1]; a.len() + 1];
        for i in (0..a.len()).rev() {
            for j in (0..b.len()).rev() {
                t[i][j] = if a[i] == b[j] {
                    t[i + 1][j + 1] + 1
                } else {
                    t[i + 1][j].max(t[i][j + 1])
                };
            }
        }
        t[0][0]
    }

    #[test]
    fn lcs_matches_dynamic_programming_on_random_vectors() {
        let mut x = 12345u64;
        let mut next = || {
            x = crate::dedup::minhash::mix64(x);
            (x % 6) as u32
        };
        for len in [0, 1, 5, 17, 40] {
            for _ in 0..20 {
                let a: Vec<u32> = (0..len).map(|_| next()).collect();
                let b: Vec<u32> = (0..len + 3).map(|_| next()).collect();
                let pairs = lcs_pairs(&a, &b, usize::MAX);
                assert_eq!(pairs.len(), lcs_len(&a, &b), "{a:?} {b:?}");
                assert!(pairs.iter().all(|&(i, j)| a[i] == b[j]));
                assert!(pairs.windows(2).all(|w| w[0].0 < w[1].0 && w[0].1 < w[1].1));
            }
        }
    }

    #[test]
    fn lcs_finds_common_subsequence_with_prefix_and_suffix() {
        let a = [1, 2, 10, 3, 11, 4, 5];
        let b = [1, 2, 3, 20, 4, 21, 5];
        let pairs = lcs_pairs(&a, &b, 1_000_000);
        let values: Vec<u32> = pairs.iter().map(|&(i, _)| a[i]).collect();
        assert_eq!(values, [1, 2, 3, 4, 5]);
        assert!(pairs.iter().all(|&(i, j)| a[i] == b[j]));
        // The greedy fallback gives an in-order matching too.
        let small = lcs_pairs(&a, &b, 1);
        assert!(small.windows(2).all(|w| w[0].0 < w[1].0 && w[0].1 < w[1].1));
    }

    fn page(template: &[u32], content: &[u32]) -> Vec<u32> {
        // header, content, footer
        let (head, foot) = template.split_at(template.len() / 2);
        head.iter().chain(content).chain(foot).copied().collect()
    }

    #[test]
    fn majority_template_survives_one_odd_page() {
        let tpl: Vec<u32> = (1..=10).collect();
        let mut samples: Vec<Vec<u32>> = (0..6)
            .map(|k| page(&tpl, &[100 + k, 200 + k, 300 + k]))
            .collect();
        samples.push(vec![7, 8, 9, 1000, 1001]); // an odd page with another layout
                                                 // A syndicated article on two pages of the group is not template.
        samples[0].splice(5..5, [555, 556]);
        samples[1].splice(5..5, [555, 556]);
        let t = learn("g/", &samples, &InfholderConfig::default()).expect("template");
        assert_eq!(t.blocks, tpl);
        let (mask, matched) = match_template(&samples[0], &t, 1_000_000);
        assert_eq!(matched, 10);
        let kept: Vec<u32> = samples[0]
            .iter()
            .zip(&mask)
            .filter(|(_, m)| !**m)
            .map(|(v, _)| *v)
            .collect();
        assert_eq!(kept, [555, 556, 100, 200, 300]);
    }

    #[test]
    fn learning_sample_is_bounded_whatever_the_group_size() {
        let config = InfholderConfig::default();
        let mut learner = Learner::new(&config);
        let tpl: Vec<u32> = (1..=8).collect();
        for k in 0..8_000u32 {
            learner.add(
                &format!("http://big.ru/forum/{k}.html"),
                page(&tpl, &[100_000 + k]),
            );
        }
        assert_eq!(learner.sampler.pages("big.ru/forum/"), 8_000);
        assert!(learner
            .sampler
            .sample_sizes()
            .all(|n| n == config.sample_pages));
        let store = learner.learn(&config);
        assert_eq!(store.templates["big.ru/forum/"].blocks, tpl);
        assert_eq!(
            store.templates["big.ru/forum/"].pages_sampled,
            config.sample_pages
        );
    }

    #[test]
    fn sample_urls_match_what_the_learner_keeps() {
        let config = InfholderConfig::default();
        let urls: Vec<String> = (0..50).map(|k| format!("http://s.ru/a/{k}.html")).collect();
        let chosen =
            prefix_sample::sample_urls(urls.iter().map(String::as_str), config.sample_pages, 1);
        let mut learner = Learner::new(&config);
        for u in &urls {
            learner.add(u, vec![1]);
        }
        let kept: HashSet<u64> = learner.sampler.sampled_hashes("s.ru/a/");
        let chosen_hashes: HashSet<u64> = chosen
            .iter()
            .map(|u| xxhash_rust::xxh3::xxh3_64(u.as_bytes()))
            .collect();
        assert_eq!(kept, chosen_hashes);
    }

    #[test]
    fn pages_without_shared_layout_learn_nothing() {
        let samples: Vec<Vec<u32>> = (0..5).map(|k| (k * 100..k * 100 + 20).collect()).collect();
        assert!(learn("g/", &samples, &InfholderConfig::default()).is_none());
        assert!(learn("g/", &samples[..1], &InfholderConfig::default()).is_none());
    }

    #[test]
    fn learner_uses_wider_prefix_for_small_groups_and_round_trips() {
        let config = InfholderConfig::default();
        let mut learner = Learner::new(&config);
        let tpl: Vec<u32> = (1..=8).collect();
        for k in 0..6u32 {
            learner.add(&format!("http://s.ru/news/{k}.html"), page(&tpl, &[50 + k]));
        }
        learner.add("http://s.ru/amp/x.html", page(&tpl, &[99]));
        let store = learner.learn(&config);
        assert!(store.templates.contains_key("s.ru/news/"));
        assert!(!store.templates.contains_key("s.ru/amp/"));
        let wider: Vec<&str> = store
            .candidates("http://s.ru/amp/x.html")
            .map(|t| t.group.as_str())
            .collect();
        assert_eq!(wider, ["s.ru/"]);
        let dir = tempfile::tempdir().unwrap();
        store.save(dir.path()).unwrap();
        let loaded = TemplateStore::load(dir.path()).unwrap();
        assert_eq!(loaded.templates, store.templates);
    }
}
