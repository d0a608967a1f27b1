//! Near-duplicate detection: normalize → shingles → MinHash → LSH bands → candidate
//! pairs → verification on the real similarity of the full shingle sets → clusters →
//! main document per cluster.

pub mod canonical;
pub mod cluster;
pub mod eval;
pub mod fpmax;
pub mod itemsets;
pub mod lexical;
pub mod lsh;
pub mod minhash;
pub mod shingle;
pub mod template_dates;

use rayon::prelude::*;

use crate::choose_main::{DocMeta, MainOrder};
use crate::normalize::{Normalizer, Preset};
pub use cluster::ClusterMode;
pub use lexical::{CollectionStats, Method};
use lsh::Banding;
pub use minhash::Sketch;
use shingle::ShingleConfig;

/// Similarity measure used to verify candidates and to build clusters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Measure {
    #[default]
    Jaccard,
    Dice,
    /// Containment of the smaller set in the larger (a fragment inside a page).
    Containment,
}

impl std::str::FromStr for Measure {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "jaccard" => Ok(Measure::Jaccard),
            "dice" => Ok(Measure::Dice),
            "containment" => Ok(Measure::Containment),
            _ => Err(format!(
                "unknown measure `{s}` (jaccard, dice, containment)"
            )),
        }
    }
}

impl Measure {
    pub fn similarity(self, a: &[u64], b: &[u64]) -> f64 {
        match self {
            Measure::Jaccard => shingle::jaccard(a, b),
            Measure::Dice => shingle::dice(a, b),
            Measure::Containment => {
                let (small, large) = if a.len() <= b.len() { (a, b) } else { (b, a) };
                shingle::containment(small, large)
            }
        }
    }
}

/// Longest signature accepted (`num_perm`, or M·N of supershingles): 4,096 values are
/// 32 KB a document and estimate a Jaccard similarity within about ±1.6 % (1/√k);
/// longer ones only cost time (`--bands 1000x1000` took 28 s for two documents).
pub const MAX_SKETCH_LEN: usize = 4096;

/// Dedup parameters; defaults documented in ARCHITECTURE.md.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct DedupConfig {
    /// Documents at or above this similarity are near-duplicates.
    pub threshold: f64,
    /// MinHash signature length.
    pub num_perm: usize,
    /// Probability with which a pair at `threshold` must become an LSH candidate.
    pub candidate_recall: f64,
    pub shingle: ShingleConfig,
    pub normalize: Preset,
    pub measure: Measure,
    pub mode: ClusterMode,
    pub main_order: MainOrder,
    /// Candidate keys: `minhash` (sketch + LSH bands) or a lexical signature A0–A12.
    pub method: Method,
    /// MinHash sketch kind (method `minhash`).
    pub sketch: Sketch,
    /// Sample shingles whose hash is divisible by this before sketching (0 or 1: all).
    pub sample_mod: u64,
    /// Supershingles `[M, N]`: M bands of N rows (num_perm = M·N) instead of the banding
    /// chosen from `threshold` and `candidate_recall`.
    pub supershingles: Option<[usize; 2]>,
    /// Verify candidates on the real similarity (true); false takes the method's
    /// matches as they are (to measure a method alone).
    pub verify: bool,
    /// Strict mode: also list, among a cluster's members, documents similar to its main
    /// that belong first to another cluster (clusters then overlap). Without it they
    /// are named in the cluster's `shared` field only.
    pub overlap: bool,
    /// Mode `itemsets`: sketch elements a cluster's documents must all share (default
    /// from `threshold` and `num_perm`, see [`itemsets::default_support`]).
    pub itemset_support: Option<usize>,
    /// Documents sharing a canonical URL (`dedup/canonical.rs`) are the same document
    /// when their similarity is at least `canonical_min_similarity` (`--no-canonical`).
    pub canonical: bool,
    /// Hand-set: a print or AMP copy of an article keeps most of its shingles (≥ 0.5);
    /// different articles of one site share almost none (< 0.1); 0.3 lies between, so
    /// a canonical tag pointing at the wrong page does not merge two articles.
    pub canonical_min_similarity: f64,
}

impl Default for DedupConfig {
    fn default() -> Self {
        DedupConfig {
            threshold: 0.7,
            num_perm: 128,
            candidate_recall: 0.99,
            shingle: ShingleConfig::default(),
            normalize: Preset::Default,
            measure: Measure::Jaccard,
            mode: ClusterMode::Strict,
            main_order: MainOrder::default(),
            method: Method::Minhash,
            sketch: Sketch::Oph,
            sample_mod: 0,
            supershingles: None,
            verify: true,
            overlap: false,
            itemset_support: None,
            canonical: true,
            canonical_min_similarity: 0.3,
        }
    }
}

impl DedupConfig {
    /// The ranges every entry point holds the options to (flags, `--config` files, the
    /// Python package's keyword options), each error naming the key and its flag.
    pub fn validate(&self) -> crate::Result<()> {
        let bad = |m: String| Err(crate::Error::Config(m));
        let unit = |v: f64| (0.0..=1.0).contains(&v);
        if !unit(self.threshold) {
            return bad(format!(
                "threshold (--threshold) must be within 0..1, not {}",
                self.threshold
            ));
        }
        if !unit(self.candidate_recall) || self.candidate_recall == 0.0 {
            return bad(format!(
                "candidate_recall must be within 0..1 and above 0, not {}",
                self.candidate_recall
            ));
        }
        if !unit(self.canonical_min_similarity) {
            return bad(format!(
                "canonical_min_similarity must be within 0..1, not {}",
                self.canonical_min_similarity
            ));
        }
        if self.num_perm == 0 {
            return bad("num_perm (--num-perm) must be at least 1".into());
        }
        if self.shingle.length == 0 {
            return bad("shingle length (--shingle-length) must be at least 1".into());
        }
        if let Some([m, n]) = self.supershingles {
            if m == 0 || n == 0 {
                return bad(format!(
                    "supershingles (--bands) must be M×N with M, N ≥ 1, not {m}×{n}"
                ));
            }
        }
        if self.mode == ClusterMode::Itemsets && self.method != Method::Minhash {
            return bad(format!(
                "mode itemsets (--mode) mines the documents' bottom-k sketches: it needs --method minhash (`method: minhash`), not {}",
                self.method
            ));
        }
        if self.sketch_len() > MAX_SKETCH_LEN {
            return bad(format!(
                "a signature of {} values (num_perm / --num-perm, or M×N of supershingles / --bands) is over the limit of {}: each document would cost {} KB of signature and its signing time grows with it, for an estimate already within ±{:.1} % at the limit",
                self.sketch_len(),
                MAX_SKETCH_LEN,
                self.sketch_len() * 8 / 1024,
                100.0 / (MAX_SKETCH_LEN as f64).sqrt()
            ));
        }
        Ok(())
    }

    pub fn banding(&self) -> Banding {
        match self.supershingles {
            Some([m, n]) => Banding { bands: m, rows: n },
            None => Banding::for_threshold(self.num_perm, self.threshold, self.candidate_recall),
        }
    }

    /// Signature length: `num_perm`, or M·N with supershingles (at most
    /// [`MAX_SKETCH_LEN`], checked by [`DedupConfig::validate`]).
    pub fn sketch_len(&self) -> usize {
        self.supershingles
            .map_or(self.num_perm, |[m, n]| m.saturating_mul(n))
    }
}

/// What dedup keeps per document: the shingle set (for verification) and band keys.
#[derive(Debug, Clone, Default)]
pub struct DocSignature {
    /// Shingle hashes in text order, repeats included: sorting is left to
    /// [`find_clusters`], which sorts only the sets it verifies.
    pub shingles: Vec<u64>,
    /// Candidate keys: LSH band keys, or the lexical method's signatures.
    pub band_keys: Vec<u64>,
    /// What method 3+5 compares beyond its keys.
    pub three_five: Option<Box<lexical::ThreeFive>>,
}

/// Turns texts into signatures; shareable across threads.
pub struct Signer {
    normalizer: Normalizer,
    shingle: ShingleConfig,
    num_perm: usize,
    banding: Banding,
    sketch: Sketch,
    sample_mod: u64,
    lexical: Option<lexical::LexicalSigner>,
    /// Mode `itemsets`: the candidate keys are the bottom-k sketch itself.
    itemsets: bool,
}

impl Signer {
    /// A signer; methods that need collection statistics get them with
    /// [`Signer::with_stats`].
    pub fn new(config: &DedupConfig) -> Self {
        Self::with_stats(config, None)
    }

    pub fn with_stats(
        config: &DedupConfig,
        stats: Option<std::sync::Arc<CollectionStats>>,
    ) -> Self {
        Signer {
            normalizer: Normalizer::preset(config.normalize),
            shingle: config.shingle,
            num_perm: config.sketch_len(),
            banding: config.banding(),
            sketch: config.sketch,
            sample_mod: config.sample_mod,
            lexical: (config.method != Method::Minhash)
                .then(|| lexical::LexicalSigner::new(config.method, config.normalize, stats)),
            itemsets: config.mode == ClusterMode::Itemsets,
        }
    }

    /// The sorted, deduplicated shingle set of `text`, as verification compares it
    /// (what [`find_clusters_with_sets`] asks for).
    pub fn shingle_set(&self, text: &str) -> Vec<u64> {
        shingle::shingles(&self.normalizer, text, &self.shingle)
    }

    /// `None` for a text without words.
    pub fn sign(&self, text: &str) -> Option<DocSignature> {
        let shingles = shingle::shingles_unsorted(&self.normalizer, text, &self.shingle);
        if shingles.is_empty() {
            return None;
        }
        if let Some(lex) = &self.lexical {
            let (band_keys, three_five) = lex.keys(text, &shingles);
            return Some(DocSignature {
                shingles,
                band_keys,
                three_five,
            });
        }
        let sampled: Vec<u64>;
        let input: &[u64] = if self.sample_mod > 1 {
            sampled = shingles
                .iter()
                .copied()
                .filter(|&s| minhash::mix64(s ^ 0xa5a5).is_multiple_of(self.sample_mod))
                .collect();
            if sampled.is_empty() {
                &shingles
            } else {
                &sampled
            }
        } else {
            &shingles
        };
        let band_keys = match self.sketch {
            _ if self.itemsets => minhash::bottom_k(input, self.num_perm),
            Sketch::Oph => self
                .banding
                .keys(&minhash::signature(input, self.num_perm)?),
            Sketch::NPerm => self
                .banding
                .keys(&minhash::n_permutation(input, self.num_perm)),
            Sketch::BottomK => minhash::bottom_k(input, self.num_perm),
        };
        Some(DocSignature {
            band_keys,
            shingles,
            three_five: None,
        })
    }
}

/// One document given to [`find_clusters`].
#[derive(Debug, Clone)]
pub struct DocEntry {
    pub meta: DocMeta,
    pub signature: Option<DocSignature>,
}

/// A cluster of near-duplicates (two or more documents). Indices refer to the slice
/// given to [`find_clusters`].
#[derive(Debug, Clone, PartialEq)]
pub struct Cluster {
    /// Stable id derived from the main document's key.
    pub id: String,
    pub main: usize,
    /// Members (the main included, first) with their similarity to the main.
    pub members: Vec<(usize, f64)>,
    /// Documents that are near-duplicates of this main but belong first to the cluster
    /// of a better main (strict mode only; among `members` only with `overlap`).
    pub shared: Vec<usize>,
    /// Why the main was chosen.
    pub reason: String,
    /// Mode `itemsets`: the sketch elements every member shares (empty in other modes).
    pub itemset: Vec<u64>,
}

impl Cluster {
    /// Members that are this cluster's duplicates: all but the main and the shared ones
    /// (those counted in the cluster of a better main).
    pub fn duplicates(&self) -> usize {
        let shared = self
            .members
            .iter()
            .filter(|m| self.shared.contains(&m.0))
            .count();
        self.members.len() - 1 - shared
    }
}

/// Documents shared between clusters (strict mode), each counted once.
fn shared_members(clusters: &[Cluster]) -> usize {
    let mut s: Vec<usize> = clusters
        .iter()
        .flat_map(|c| c.shared.iter().copied())
        .collect();
    s.sort_unstable();
    s.dedup();
    s.len()
}

/// Counters of one dedup run (for `summary.json` and `--explain`).
#[derive(Debug, Clone, Default, serde::Serialize)]
pub struct DedupStats {
    pub documents: usize,
    pub signed: usize,
    /// Candidate pairs from buckets small enough to expand into all their pairs.
    pub candidate_pairs: usize,
    /// Buckets too large to expand (split by leaders instead).
    pub large_buckets: usize,
    /// Similarity computations on full shingle sets, all stages together.
    pub verifications: usize,
    /// Pairs found similar (edges of the near-duplicate graph).
    pub verified_pairs: usize,
    pub clusters: usize,
    /// Documents that are not the main of their (first) cluster.
    pub duplicates: usize,
    /// Non-main documents listed in more than one cluster.
    pub shared_members: usize,
    pub bands: usize,
    pub rows: usize,
    /// Publication dates ignored as their site template's (`template_dates.rs`).
    pub template_dates: usize,
}

/// Find the clusters among `docs`, verifying on the shingles kept in their signatures.
pub fn find_clusters(docs: &[DocEntry], config: &DedupConfig) -> (Vec<Cluster>, DedupStats) {
    find_clusters_with_shingles(docs, config, |needed| {
        needed
            .par_iter()
            .map(|&i| {
                docs[i]
                    .signature
                    .as_ref()
                    .map_or_else(Vec::new, |s| s.shingles.clone())
            })
            .collect()
    })
}

/// [`find_clusters`] that takes the documents' shingles instead of copying them (the
/// documents are left without: `thresher dedup` needs only their metadata afterwards).
/// The copies were ~18 MB of fresh memory on the serial tail of a dedup-dev run.
pub fn find_clusters_taking_shingles(
    docs: &mut [DocEntry],
    config: &DedupConfig,
) -> (Vec<Cluster>, DedupStats) {
    let mut shingles: Vec<Vec<u64>> = docs
        .iter_mut()
        .map(|d| {
            d.signature
                .as_mut()
                .map_or_else(Vec::new, |s| std::mem::take(&mut s.shingles))
        })
        .collect();
    find_clusters_with_shingles(docs, config, |needed| {
        needed
            .iter()
            .map(|&i| std::mem::take(&mut shingles[i]))
            .collect()
    })
}

/// [`find_clusters_with_sets`] given the needed documents' shingles in text order
/// (repeats included): they are sorted and deduplicated here, in parallel.
fn find_clusters_with_shingles(
    docs: &[DocEntry],
    config: &DedupConfig,
    shingles: impl FnOnce(&[usize]) -> Vec<Vec<u64>>,
) -> (Vec<Cluster>, DedupStats) {
    let sets = |needed: &[usize]| -> Result<Vec<Vec<u64>>, std::convert::Infallible> {
        let mut sets = shingles(needed);
        sets.par_iter_mut().for_each(|set| {
            set.sort_unstable();
            set.dedup();
        });
        Ok(sets)
    };
    match find_clusters_with_sets(docs, config, sets) {
        Ok(found) => found,
        Err(never) => match never {},
    }
}

/// Find the clusters among `docs`, asking `load_sets` for the sorted, deduplicated
/// shingle sets of the documents to verify (indices into `docs`, ascending; one set
/// each, in that order) once the candidates are known — so that a large run need not
/// keep every document's shingles in memory (`pipeline::dedup_files` re-reads them).
pub fn find_clusters_with_sets<E>(
    docs: &[DocEntry],
    config: &DedupConfig,
    load_sets: impl FnOnce(&[usize]) -> Result<Vec<Vec<u64>>, E>,
) -> Result<(Vec<Cluster>, DedupStats), E> {
    // Rank documents by the main order (key last): nothing below depends on input order,
    // and a lower rank is always the better main candidate.
    let mut order: Vec<usize> = (0..docs.len())
        .filter(|&i| docs[i].signature.is_some())
        .collect();
    order.sort_by(|&a, &b| {
        config
            .main_order
            .compare(&docs[a].meta, &docs[b].meta)
            .then(a.cmp(&b))
    });
    if config.mode == ClusterMode::Itemsets {
        return itemsets::find(docs, config, &order, load_sets);
    }
    let threshold = config.threshold;
    let keys: Vec<&[u64]> = order
        .iter()
        .map(|&i| docs[i].signature.as_ref().unwrap().band_keys.as_slice())
        .collect();
    let (pairs, big) = lsh::candidates(&keys);
    drop(keys);
    let canon_pairs: Vec<(u32, u32)> = if config.canonical {
        let ranked: Vec<&DocMeta> = order.iter().map(|&i| &docs[i].meta).collect();
        canonical::pairs(&ranked)
    } else {
        Vec::new()
    };
    // The sorted, deduplicated shingle sets of the documents that will be verified.
    let mut involved: Vec<u32> = pairs
        .iter()
        .chain(canon_pairs.iter())
        .flat_map(|&(a, b)| [a, b])
        .chain(big.iter().flatten().copied())
        .collect();
    involved.sort_unstable();
    involved.dedup();
    let mut by_doc: Vec<(usize, u32)> = involved.iter().map(|&r| (order[r as usize], r)).collect();
    by_doc.sort_unstable();
    drop(involved);
    let needed: Vec<usize> = by_doc.iter().map(|p| p.0).collect();
    let loaded = load_sets(&needed)?;
    drop(needed);
    let sets: std::collections::HashMap<u32, Vec<u64>> =
        by_doc.iter().map(|p| p.1).zip(loaded).collect();
    drop(by_doc);
    let sim = |a: u32, b: u32| config.measure.similarity(&sets[&a], &sets[&b]);
    let signature = |r: u32| docs[order[r as usize]].signature.as_ref().unwrap();
    // Whether a candidate pair is an edge, with its similarity, and whether the real
    // similarity was computed. Decomposition (A11) always compares exactly, within its
    // length window; 3+5 (A12) first applies its own pair test.
    let max_len_ratio = 2.0 - threshold;
    let accept = |a: u32, b: u32| -> (Option<f32>, bool) {
        match config.method {
            Method::Decomposition => {
                let (x, y) = (sets[&a].len().max(1) as f64, sets[&b].len().max(1) as f64);
                if x.max(y) / x.min(y) > 1.0 / threshold.max(0.01) {
                    return (None, false);
                }
                let s = sim(a, b);
                return ((s >= threshold).then_some(s as f32), true);
            }
            Method::ThreeFive => {
                let ok = match (&signature(a).three_five, &signature(b).three_five) {
                    (Some(x), Some(y)) => lexical::three_five_match(x, y, max_len_ratio),
                    _ => false,
                };
                if !ok {
                    return (None, false);
                }
            }
            _ => {}
        }
        let s = sim(a, b);
        if config.verify {
            ((s >= threshold).then_some(s as f32), true)
        } else {
            (Some(s as f32), true)
        }
    };
    let checked: Vec<(u32, u32, Option<f32>, bool)> = pairs
        .par_iter()
        .map(|&(a, b)| {
            let (s, computed) = accept(a, b);
            (a, b, s, computed)
        })
        .collect();
    let mut verifications = checked.iter().filter(|c| c.3).count();
    let mut edges: Vec<(u32, u32, f32)> = checked
        .into_iter()
        .filter_map(|(a, b, s, _)| s.map(|s| (a, b, s)))
        .collect();
    // Large buckets (e.g. 10,000 copies): the best-ranked document leads; every other
    // member is verified against it once; those not similar form the rest of the bucket,
    // led by their best, and so on. Pairs already verified are not verified again.
    let mut memo: std::collections::HashMap<(u32, u32), Option<f32>> = Default::default();
    for bucket in &big {
        let mut rest: Vec<u32> = bucket.clone();
        while rest.len() >= 2 {
            let leader = rest[0];
            let mut next = Vec::new();
            for &x in &rest[1..] {
                let s = *memo.entry((leader, x)).or_insert_with(|| {
                    let (s, computed) = accept(leader, x);
                    verifications += computed as usize;
                    s
                });
                match s {
                    Some(s) => edges.push((leader, x, s)),
                    None => next.push(x),
                }
            }
            rest = next;
        }
    }
    drop(memo);
    // Canonical URLs: pairs the shingles did not make edges become edges when similar
    // enough; they are remembered (as document pairs) for the clusters' reasons.
    let mut by_canonical: std::collections::HashSet<(usize, usize)> = Default::default();
    if !canon_pairs.is_empty() {
        let known: std::collections::HashSet<(u32, u32)> =
            edges.iter().map(|e| (e.0.min(e.1), e.0.max(e.1))).collect();
        for &(a, b) in &canon_pairs {
            if known.contains(&(a, b)) {
                continue;
            }
            let s = sim(a, b);
            verifications += 1;
            if s >= config.canonical_min_similarity {
                edges.push((a, b, s as f32));
                let (x, y) = (order[a as usize], order[b as usize]);
                by_canonical.insert((x.min(y), x.max(y)));
            }
        }
    }
    edges.sort_unstable_by_key(|e| (e.0, e.1));
    edges.dedup_by_key(|e| (e.0, e.1));
    let n = order.len();
    let mut clusters: Vec<Cluster> = match config.mode {
        ClusterMode::Strict => {
            // Among documents equal on every main-order criterion, the one with more
            // near-duplicates is taken first: it stands for more of them (a chain
            // a~b~c becomes one cluster around b). The key breaks the remaining ties.
            let mut degree = vec![0u32; n];
            for &(a, b, _) in &edges {
                degree[a as usize] += 1;
                degree[b as usize] += 1;
            }
            let mut by_rank: Vec<u32> = (0..n as u32).collect();
            by_rank.sort_by(|&a, &b| {
                let (x, y) = (&docs[order[a as usize]].meta, &docs[order[b as usize]].meta);
                config
                    .main_order
                    .compare_criteria(x, y)
                    .then(degree[b as usize].cmp(&degree[a as usize]))
                    .then(a.cmp(&b))
            });
            let mut new_rank = vec![0u32; n];
            for (r, &old) in by_rank.iter().enumerate() {
                new_rank[old as usize] = r as u32;
            }
            let mut ranked: Vec<(u32, u32, f32)> = edges
                .iter()
                .map(|&(a, b, s)| {
                    let (x, y) = (new_rank[a as usize], new_rank[b as usize]);
                    (x.min(y), x.max(y), s)
                })
                .collect();
            ranked.sort_unstable_by_key(|e| (e.0, e.1));
            let doc_of = |r: u32| order[by_rank[r as usize] as usize];
            cluster::stars(n, &ranked)
                .into_iter()
                .filter_map(|star| {
                    let members: Vec<(usize, f64)> = star
                        .members
                        .iter()
                        .filter(|m| m.2 || config.overlap)
                        .map(|&(r, s, _)| (doc_of(r), s as f64))
                        .collect();
                    let shared: Vec<usize> = star
                        .members
                        .iter()
                        .filter(|m| !m.2)
                        .map(|m| doc_of(m.0))
                        .collect();
                    let main = doc_of(star.main);
                    let main_degree = degree[by_rank[star.main as usize] as usize];
                    (members.len() >= 2).then(|| {
                        make_cluster(
                            docs,
                            main,
                            members,
                            shared,
                            main_degree,
                            config,
                            &by_canonical,
                        )
                    })
                })
                .collect()
        }
        ClusterMode::Itemsets => unreachable!("handled above"),
        ClusterMode::Components => {
            let mut uf = cluster::UnionFind::new(n);
            for &(a, b, _) in &edges {
                uf.union(a, b);
            }
            let comps = uf.components();
            verifications += comps.iter().map(|c| c.len() - 1).sum::<usize>();
            comps
                .par_iter()
                .map(|comp| {
                    // Ranks are sorted: the first is the best main candidate.
                    let main = comp[0];
                    let members = comp
                        .iter()
                        .map(|&r| {
                            let s = if r == main { 1.0 } else { sim(main, r) };
                            (order[r as usize], s)
                        })
                        .collect();
                    make_cluster(
                        docs,
                        order[main as usize],
                        members,
                        Vec::new(),
                        0,
                        config,
                        &by_canonical,
                    )
                })
                .collect()
        }
    };
    clusters.sort_by(|a, b| docs[a.main].meta.key.cmp(&docs[b.main].meta.key));
    let banding = config.banding();
    let stats = DedupStats {
        documents: docs.len(),
        signed: n,
        candidate_pairs: pairs.len(),
        large_buckets: big.len(),
        verifications,
        verified_pairs: edges.len(),
        clusters: clusters.len(),
        duplicates: clusters.iter().map(Cluster::duplicates).sum(),
        shared_members: shared_members(&clusters),
        bands: banding.bands,
        rows: banding.rows,
        template_dates: 0,
    };
    Ok((clusters, stats))
}

/// A cluster record: members sorted main first, then by key; the reason compares the
/// main with the members that belong to it first.
pub fn make_cluster(
    docs: &[DocEntry],
    main: usize,
    mut members: Vec<(usize, f64)>,
    shared: Vec<usize>,
    main_degree: u32,
    config: &DedupConfig,
    by_canonical: &std::collections::HashSet<(usize, usize)>,
) -> Cluster {
    members.sort_by(|a, b| {
        (a.0 != main)
            .cmp(&(b.0 != main))
            .then(docs[a.0].meta.key.cmp(&docs[b.0].meta.key))
    });
    let own: Vec<&DocMeta> = members
        .iter()
        .filter(|m| !shared.contains(&m.0))
        .map(|m| &docs[m.0].meta)
        .collect();
    let reason = if own.len() >= 2 {
        let (_, reason) = config.main_order.choose(&own);
        let runner_up_tied = own
            .iter()
            .filter(|m| m.key != docs[main].meta.key)
            .any(|m| {
                config
                    .main_order
                    .compare_criteria(m, &docs[main].meta)
                    .is_eq()
            });
        if runner_up_tied && main_degree > 0 && reason.starts_with("all criteria equal") {
            format!("all criteria equal; most near-duplicates ({main_degree})")
        } else {
            reason
        }
    } else {
        "not a near-duplicate of any better main; its members belong first to other clusters"
            .to_string()
    };
    // Members that are in the cluster through a shared canonical URL, not their shingles.
    let own_ids: Vec<usize> = members
        .iter()
        .map(|m| m.0)
        .filter(|m| !shared.contains(m))
        .collect();
    let joined = own_ids
        .iter()
        .filter(|&&m| {
            m != main
                && own_ids
                    .iter()
                    .any(|&o| o != m && by_canonical.contains(&(m.min(o), m.max(o))))
        })
        .count();
    let reason = if joined > 0 {
        let url = own_ids
            .iter()
            .find_map(|&m| docs[m].meta.canonical.clone())
            .unwrap_or_default();
        format!("{reason}; {joined} joined by shared canonical URL {url}")
    } else {
        reason
    };
    let mut shared = shared;
    shared.sort_by(|&a, &b| docs[a].meta.key.cmp(&docs[b].meta.key));
    Cluster {
        id: cluster_id(&docs[main].meta.key),
        main,
        members,
        shared,
        reason,
        itemset: Vec::new(),
    }
}

/// `c` + 16 hex digits of the main key's hash: stable across runs and input orders.
pub fn cluster_id(main_key: &str) -> String {
    format!("c{:016x}", xxhash_rust::xxh3::xxh3_64(main_key.as_bytes()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(signer: &Signer, key: &str, text: &str, day: u32) -> DocEntry {
        DocEntry {
            meta: DocMeta {
                key: key.into(),
                fetched_at: Some(format!("2025-01-{day:02}T00:00:00Z").parse().unwrap()),
                popularity: 0.0,
                boilerplate_ratio: 0.0,
                ..DocMeta::default()
            },
            signature: signer.sign(text),
        }
    }

    fn text(seed: u64, n: usize) -> String {
        (0..n)
            .map(|i| format!("w{}", minhash::mix64(seed * 1000 + i as u64) % 5000))
            .collect::<Vec<_>>()
            .join(" ")
    }

    #[test]
    fn near_duplicates_cluster_and_input_order_does_not_matter() {
        let config = DedupConfig::default();
        let signer = Signer::new(&config);
        let base = text(1, 300);
        let edited = base.replacen("w", "x", 2);
        let docs = vec![
            entry(&signer, "a", &base, 3),
            entry(&signer, "b", &text(2, 300), 1),
            entry(&signer, "c", &edited, 2),
            entry(&signer, "d", &base, 5),
        ];
        let (clusters, stats) = find_clusters(&docs, &config);
        assert_eq!(clusters.len(), 1, "{stats:?}");
        let c = &clusters[0];
        assert_eq!(docs[c.main].meta.key, "c", "earliest member is main");
        let mut keys: Vec<&str> = c
            .members
            .iter()
            .map(|m| docs[m.0].meta.key.as_str())
            .collect();
        keys.sort();
        assert_eq!(keys, ["a", "c", "d"]);

        let mut reversed = docs.clone();
        reversed.reverse();
        let (again, _) = find_clusters(&reversed, &config);
        assert_eq!(again.len(), 1);
        assert_eq!(again[0].id, c.id);
        assert_eq!(reversed[again[0].main].meta.key, "c");
    }

    #[test]
    fn ten_thousand_copies_cost_linear_verifications() {
        let config = DedupConfig::default();
        let signer = Signer::new(&config);
        let base = text(7, 200);
        let sig = signer.sign(&base);
        let mut docs: Vec<DocEntry> = (0..10_000)
            .map(|i| DocEntry {
                meta: DocMeta {
                    key: format!("copy{i:05}"),
                    fetched_at: None,
                    popularity: 0.0,
                    boilerplate_ratio: 0.0,
                    ..DocMeta::default()
                },
                signature: sig.clone(),
            })
            .collect();
        docs.push(entry(&signer, "other", &text(8, 200), 1));
        for mode in [ClusterMode::Strict, ClusterMode::Components] {
            let config = DedupConfig {
                mode,
                ..DedupConfig::default()
            };
            let (clusters, stats) = find_clusters(&docs, &config);
            assert_eq!(clusters.len(), 1, "{mode:?}");
            assert_eq!(clusters[0].members.len(), 10_000);
            assert_eq!(docs[clusters[0].main].meta.key, "copy00000");
            // At most two verifications per copy (each band bucket holds the same 10,000
            // documents; repeats are remembered; components re-measure to the main), not 50 million pairs.
            assert!(stats.verifications < 3 * 10_000, "{mode:?} {stats:?}");
            assert!(stats.candidate_pairs == 0 && stats.large_buckets >= 1);
        }
    }
}
