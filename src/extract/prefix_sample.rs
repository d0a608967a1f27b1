//! What the cross-page methods (Infholder, style-inbreeding) share about groups: every
//! page counts towards each of its URL prefixes (`site.ru/a/b/`, `site.ru/a/`,
//! `site.ru/`), and each prefix keeps a bounded sample of its pages, those with the
//! smallest URL hash, so the sample does not depend on input order and an 8,000-page
//! group costs the same as a 10-page one. A page whose deepest group is too small is
//! handled with the nearest wider prefix that has enough pages ([`group::prefixes`]
//! lists them most specific first).

use std::collections::{HashMap, HashSet};

use crate::group;

/// The hash that orders a group's pages for sampling.
pub fn url_hash(url: &str) -> u64 {
    xxhash_rust::xxh3::xxh3_64(url.as_bytes())
}

/// Page counts per prefix and, per prefix, the `k` items (what a method keeps of a page)
/// of the pages with the smallest URL hash.
#[derive(Debug)]
pub struct PrefixSampler<T> {
    counts: HashMap<String, usize>,
    samples: HashMap<String, Vec<(u64, T)>>,
    k: usize,
}

impl<T: Clone> PrefixSampler<T> {
    /// Samples of `k` pages per prefix (at least 2: one page has nothing to share).
    pub fn new(k: usize) -> Self {
        PrefixSampler {
            counts: HashMap::new(),
            samples: HashMap::new(),
            k: k.max(2),
        }
    }

    /// Count a page that is not in any sample (see [`sample_urls`]).
    pub fn count(&mut self, url: &str) {
        for prefix in group::prefixes(url) {
            *self.counts.entry(prefix).or_default() += 1;
        }
    }

    /// Count a page and offer its item to the sample of each of its prefixes.
    pub fn add(&mut self, url: &str, item: T) {
        let hash = url_hash(url);
        for prefix in group::prefixes(url) {
            *self.counts.entry(prefix.clone()).or_default() += 1;
            let sample = self.samples.entry(prefix).or_default();
            if sample.iter().any(|(h, _)| *h == hash) {
                continue; // the same URL twice
            }
            if sample.len() < self.k {
                sample.push((hash, item.clone()));
            } else if let Some(max) = sample.iter_mut().max_by_key(|(h, _)| *h) {
                if hash < max.0 {
                    *max = (hash, item.clone());
                }
            }
        }
    }

    /// Pages counted for `prefix`.
    pub fn pages(&self, prefix: &str) -> usize {
        self.counts.get(prefix).copied().unwrap_or(0)
    }

    /// Sizes of the samples kept, one per prefix.
    pub fn sample_sizes(&self) -> impl Iterator<Item = usize> + '_ {
        self.samples.values().map(Vec::len)
    }

    /// URL hashes of the pages sampled for `prefix`.
    pub fn sampled_hashes(&self, prefix: &str) -> HashSet<u64> {
        self.samples
            .get(prefix)
            .map(|s| s.iter().map(|(h, _)| *h).collect())
            .unwrap_or_default()
    }

    /// The prefixes with at least `min_pages` pages, sorted, each with its sample in URL
    /// hash order (the groups a method learns from).
    pub fn groups(self, min_pages: usize) -> Vec<(String, Vec<T>)> {
        let counts = self.counts;
        let mut jobs: Vec<(String, Vec<T>)> = self
            .samples
            .into_iter()
            .filter(|(k, _)| counts[k] >= min_pages)
            .map(|(k, mut sample)| {
                sample.sort_by_key(|(h, _)| *h);
                (k, sample.into_iter().map(|(_, t)| t).collect())
            })
            .collect();
        jobs.sort_by(|a, b| a.0.cmp(&b.0));
        jobs
    }
}

/// The URLs that a [`PrefixSampler`] of `k` would keep in the sample of some prefix of at
/// least `min_pages` pages (the groups [`PrefixSampler::groups`] hands on with that
/// minimum), computed from the URL list alone: only these pages need parsing in the
/// learning pass. Those prefixes' samples come out the same whether the other pages are
/// added or only counted; a prefix with fewer pages learns nothing, so its pages are not
/// parsed for it (on a crawl of many sites, most single pages of a site are not parsed
/// twice).
pub fn sample_urls<'a>(
    urls: impl Iterator<Item = &'a str>,
    k: usize,
    min_pages: usize,
) -> HashSet<&'a str> {
    let k = k.max(2);
    let mut by_prefix: HashMap<String, Vec<(u64, &'a str)>> = HashMap::new();
    for url in urls {
        let hash = url_hash(url);
        for prefix in group::prefixes(url) {
            by_prefix.entry(prefix).or_default().push((hash, url));
        }
    }
    let mut chosen = HashSet::new();
    for (_, mut list) in by_prefix {
        if list.len() < min_pages {
            continue;
        }
        list.sort_unstable();
        list.dedup();
        chosen.extend(list.into_iter().take(k).map(|(_, u)| u));
    }
    chosen
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sample_urls_match_what_the_sampler_keeps() {
        let urls: Vec<String> = (0..50).map(|k| format!("http://s.ru/a/{k}.html")).collect();
        let chosen = sample_urls(urls.iter().map(String::as_str), 10, 1);
        let mut sampler = PrefixSampler::new(10);
        for u in &urls {
            sampler.add(u, ());
        }
        let chosen_hashes: HashSet<u64> = chosen.iter().map(|u| url_hash(u)).collect();
        assert_eq!(sampler.sampled_hashes("s.ru/a/"), chosen_hashes);
        assert_eq!(sampler.pages("s.ru/a/"), 50);
        // A bigger sample contains the smaller one (methods with different sample sizes
        // share one learning pass).
        let more = sample_urls(urls.iter().map(String::as_str), 20, 1);
        assert!(chosen.is_subset(&more));
    }

    #[test]
    fn pages_only_in_small_prefixes_are_not_sampled() {
        let mut urls: Vec<String> = (0..5)
            .map(|k| format!("http://s.ru/big/{k}.html"))
            .collect();
        urls.push("http://lone.ru/x.html".into());
        let chosen = sample_urls(urls.iter().map(String::as_str), 3, 2);
        assert!(!chosen.contains("http://lone.ru/x.html"));
        // The samples of the prefixes that learn are those of the sampler fed every page.
        let mut all = PrefixSampler::new(3);
        let mut some = PrefixSampler::new(3);
        for u in &urls {
            all.add(u, url_hash(u));
            if chosen.contains(u.as_str()) {
                some.add(u, url_hash(u));
            } else {
                some.count(u);
            }
        }
        assert_eq!(all.groups(2), some.groups(2));
    }

    #[test]
    fn groups_below_the_minimum_are_left_out() {
        let mut sampler = PrefixSampler::new(3);
        for k in 0..5 {
            sampler.add(&format!("http://s.ru/big/{k}.html"), k);
        }
        sampler.add("http://s.ru/small/x.html", 99);
        let groups = sampler.groups(4);
        let names: Vec<&str> = groups.iter().map(|(g, _)| g.as_str()).collect();
        assert_eq!(names, ["s.ru/", "s.ru/big/"]);
        assert!(groups.iter().all(|(_, s)| s.len() == 3));
    }
}
