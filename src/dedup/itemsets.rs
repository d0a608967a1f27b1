//! `--mode itemsets` (seed 000, algorithms.md §4): a cluster is a set of documents that
//! share at least `m` elements of their sketches, found as a maximal frequent itemset.
//! As in the seed, the sketch elements are the transactions and the documents the items:
//! an element held by several documents is the transaction of those documents, and a
//! set of documents is frequent when at least `m` elements are common to all of them.
//! Each document's sketch is "the k minimal elements of one permutation" (bottom-k of its
//! shingles, after mod-m sampling when `sample_mod` is set; k = `num_perm`). The result
//! does not depend on input order, every pair inside a cluster shares `m` sketch
//! elements, and each cluster reports that shared itemset.

use std::collections::HashMap;

use rayon::prelude::*;

use super::{fpmax, make_cluster, shared_members, Cluster, DedupConfig, DedupStats, DocEntry};

/// Common sketch elements that make a cluster, from the similarity threshold: two sets
/// of Jaccard `t` whose bottom-k sketches are taken from equal-sized sets share about
/// k·2t/(1+t) elements (their Dice coefficient), with a binomial spread; the support is
/// two standard deviations below that, so that pairs at the threshold are found and the
/// verification (on by default) removes those below it.
pub fn default_support(k: usize, threshold: f64) -> usize {
    let p = 2.0 * threshold / (1.0 + threshold);
    let mean = k as f64 * p;
    let sd = (k as f64 * p * (1.0 - p)).sqrt();
    ((mean - 2.0 * sd).floor() as usize).clamp(2, k.max(2))
}

/// The itemset clusters of the signed documents ranked in `order` (best main first).
pub(super) fn find<E>(
    docs: &[DocEntry],
    config: &DedupConfig,
    order: &[usize],
    load_sets: impl FnOnce(&[usize]) -> Result<Vec<Vec<u64>>, E>,
) -> Result<(Vec<Cluster>, DedupStats), E> {
    let image = |r: u32| -> &[u64] {
        docs[order[r as usize]]
            .signature
            .as_ref()
            .map_or(&[][..], |s| s.band_keys.as_slice())
    };
    let k = config.sketch_len();
    let min = config
        .itemset_support
        .unwrap_or_else(|| default_support(k, config.threshold)) as u32;
    // Transactions: for each element held by two or more documents, their ranks.
    let mut entries: Vec<(u64, u32)> = (0..order.len() as u32)
        .flat_map(|r| image(r).iter().map(move |&e| (e, r)))
        .collect();
    entries.par_sort_unstable();
    entries.dedup();
    let mut transactions: Vec<Vec<u32>> = entries
        .chunk_by(|a, b| a.0 == b.0)
        .filter(|g| g.len() >= 2)
        .map(|g| g.iter().map(|e| e.1).collect())
        .collect();
    drop(entries);
    // Documents in fewer than `min` transactions are in no cluster: drop them first.
    let mut support: HashMap<u32, u32> = HashMap::new();
    for t in &transactions {
        for &r in t {
            *support.entry(r).or_default() += 1;
        }
    }
    for t in transactions.iter_mut() {
        t.retain(|r| support[r] >= min);
    }
    transactions.retain(|t| t.len() >= 2);
    transactions.sort_unstable();
    let mut weighted: Vec<(Vec<u32>, u32)> = Vec::new();
    for t in transactions {
        match weighted.last_mut() {
            Some(last) if last.0 == t => last.1 += 1,
            _ => weighted.push((t, 1)),
        }
    }
    let itemsets: Vec<Vec<u32>> = fpmax::maximal_itemsets(&weighted, min)
        .into_iter()
        .filter(|s| s.len() >= 2)
        .collect();
    drop(weighted);
    // Real similarities to each itemset's main (its best rank).
    let mut involved: Vec<usize> = itemsets
        .iter()
        .flatten()
        .map(|&r| order[r as usize])
        .collect();
    involved.sort_unstable();
    involved.dedup();
    let sets: HashMap<usize, Vec<u64>> = involved
        .iter()
        .copied()
        .zip(load_sets(&involved)?)
        .collect();
    let sim = |a: usize, b: usize| config.measure.similarity(&sets[&a], &sets[&b]);
    let mut by_main: Vec<&Vec<u32>> = itemsets.iter().collect();
    by_main.sort_by_key(|s| (s[0], s.len()));
    let mut verifications = 0;
    let mut first: HashMap<u32, usize> = HashMap::new(); // rank → index of its first cluster
    let mut found: Vec<(usize, Vec<(usize, f64)>, Vec<usize>, Vec<u64>)> = Vec::new();
    for set in by_main {
        let main = order[set[0] as usize];
        let idx = found.len();
        let mut kept = Vec::new();
        for &r in &set[1..] {
            let d = order[r as usize];
            let s = sim(main, d);
            verifications += 1;
            if !config.verify || s >= config.threshold {
                kept.push((r, d, s));
            }
        }
        if kept.is_empty() {
            continue;
        }
        let mut members = vec![(main, 1.0)];
        let mut shared = Vec::new();
        for (r, d, s) in kept {
            let owner = *first.entry(r).or_insert(idx);
            if owner == idx || config.overlap {
                members.push((d, s));
            }
            if owner != idx {
                shared.push(d);
            }
        }
        first.entry(set[0]).or_insert(idx);
        // The shared itemset: the elements common to every member's sketch.
        let mut common: Vec<u64> = image(set[0]).to_vec();
        for &r in &set[1..] {
            let other = image(r);
            common.retain(|e| other.binary_search(e).is_ok());
        }
        found.push((main, members, shared, common));
    }
    let verified_pairs = found.iter().map(|f| f.1.len() - 1).sum();
    let mut clusters: Vec<Cluster> = found
        .into_iter()
        .map(|(main, members, shared, common)| {
            // Canonical URLs join pairs in the strict and components modes only.
            let no_canonical_pairs = Default::default();
            let mut c = make_cluster(docs, main, members, shared, 0, config, &no_canonical_pairs);
            c.itemset = common;
            c
        })
        .filter(|c| c.members.len() >= 2)
        .collect();
    clusters.sort_by(|a, b| docs[a.main].meta.key.cmp(&docs[b.main].meta.key));
    let stats = DedupStats {
        template_dates: 0,
        documents: docs.len(),
        signed: order.len(),
        candidate_pairs: 0,
        large_buckets: 0,
        verifications,
        verified_pairs,
        clusters: clusters.len(),
        duplicates: clusters.iter().map(Cluster::duplicates).sum(),
        shared_members: shared_members(&clusters),
        bands: 0,
        rows: 0,
    };
    Ok((clusters, stats))
}
