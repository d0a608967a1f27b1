//! Near-duplicate detection: normalize → shingles → MinHash → LSH bands → candidate
//! pairs → verification on the real similarity of the full shingle sets → clusters →
//! main document per cluster.

pub mod cluster;
pub mod lsh;
pub mod minhash;
pub mod shingle;

use rayon::prelude::*;

use crate::choose_main::{DocMeta, MainOrder};
use crate::normalize::{Normalizer, Preset};
pub use cluster::ClusterMode;
use lsh::Banding;
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
        }
    }
}

impl DedupConfig {
    pub fn banding(&self) -> Banding {
        Banding::for_threshold(self.num_perm, self.threshold, self.candidate_recall)
    }
}

/// What dedup keeps per document: the shingle set (for verification) and band keys.
#[derive(Debug, Clone, Default)]
pub struct DocSignature {
    pub shingles: Vec<u64>,
    pub band_keys: Vec<u64>,
}

/// Turns texts into signatures; shareable across threads.
pub struct Signer {
    normalizer: Normalizer,
    shingle: ShingleConfig,
    num_perm: usize,
    banding: Banding,
}

impl Signer {
    pub fn new(config: &DedupConfig) -> Self {
        Signer {
            normalizer: Normalizer::preset(config.normalize),
            shingle: config.shingle,
            num_perm: config.num_perm,
            banding: config.banding(),
        }
    }

    /// `None` for a text without words.
    pub fn sign(&self, text: &str) -> Option<DocSignature> {
        let shingles = shingle::shingles(&self.normalizer, text, &self.shingle);
        let sig = minhash::signature(&shingles, self.num_perm)?;
        Some(DocSignature {
            band_keys: self.banding.keys(&sig),
            shingles,
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
    /// Why the main was chosen.
    pub reason: String,
}

/// Counters of one dedup run (for `summary.json` and `--explain`).
#[derive(Debug, Clone, Default, serde::Serialize)]
pub struct DedupStats {
    pub documents: usize,
    pub signed: usize,
    pub candidate_pairs: usize,
    pub verified_pairs: usize,
    pub clusters: usize,
    pub duplicates: usize,
    pub bands: usize,
    pub rows: usize,
}

/// Find the clusters among `docs`.
pub fn find_clusters(docs: &[DocEntry], config: &DedupConfig) -> (Vec<Cluster>, DedupStats) {
    // Work in key order so that nothing below depends on the input order.
    let mut order: Vec<usize> = (0..docs.len())
        .filter(|&i| docs[i].signature.is_some())
        .collect();
    order.sort_by(|&a, &b| docs[a].meta.key.cmp(&docs[b].meta.key).then(a.cmp(&b)));
    let sig = |i: usize| docs[order[i]].signature.as_ref().expect("filtered above");
    let keys: Vec<Vec<u64>> = (0..order.len()).map(|i| sig(i).band_keys.clone()).collect();
    let candidates = lsh::candidate_pairs(&keys);
    drop(keys);
    let threshold = config.threshold;
    let verified: Vec<(u32, u32)> = candidates
        .par_iter()
        .copied()
        .filter(|&(a, b)| {
            config
                .measure
                .similarity(&sig(a as usize).shingles, &sig(b as usize).shingles)
                >= threshold
        })
        .collect();
    let mut uf = cluster::UnionFind::new(order.len());
    for &(a, b) in &verified {
        uf.union(a, b);
    }
    let components = uf.components();
    let similarity = |a: usize, b: usize| {
        config.measure.similarity(
            &docs[a].signature.as_ref().unwrap().shingles,
            &docs[b].signature.as_ref().unwrap().shingles,
        )
    };
    let mut clusters: Vec<Cluster> = components
        .par_iter()
        .flat_map_iter(|comp| {
            let members: Vec<usize> = comp.iter().map(|&i| order[i as usize]).collect();
            match config.mode {
                ClusterMode::Components => vec![make_cluster(docs, &members, config, &similarity)]
                    .into_iter()
                    .flatten()
                    .collect::<Vec<_>>(),
                ClusterMode::Strict => strict_split(docs, members, config, &similarity),
            }
        })
        .collect();
    clusters.sort_by(|a, b| docs[a.main].meta.key.cmp(&docs[b.main].meta.key));
    let stats = DedupStats {
        documents: docs.len(),
        signed: order.len(),
        candidate_pairs: candidates.len(),
        verified_pairs: verified.len(),
        clusters: clusters.len(),
        duplicates: clusters.iter().map(|c| c.members.len() - 1).sum(),
        bands: config.banding().bands,
        rows: config.banding().rows,
    };
    (clusters, stats)
}

fn make_cluster(
    docs: &[DocEntry],
    members: &[usize],
    config: &DedupConfig,
    similarity: &impl Fn(usize, usize) -> f64,
) -> Option<Cluster> {
    if members.len() < 2 {
        return None;
    }
    let metas: Vec<&DocMeta> = members.iter().map(|&i| &docs[i].meta).collect();
    let (best, reason) = config.main_order.choose(&metas);
    let main = members[best];
    let mut list: Vec<(usize, f64)> = members
        .iter()
        .map(|&m| (m, if m == main { 1.0 } else { similarity(main, m) }))
        .collect();
    list.sort_by(|a, b| {
        (a.0 != main)
            .cmp(&(b.0 != main))
            .then(docs[a.0].meta.key.cmp(&docs[b.0].meta.key))
    });
    Some(Cluster {
        id: cluster_id(&docs[main].meta.key),
        main,
        members: list,
        reason,
    })
}

/// Strict mode: the best main candidate takes the members similar to it; repeat on the
/// rest. Every member ends up verified against its own main.
fn strict_split(
    docs: &[DocEntry],
    mut rest: Vec<usize>,
    config: &DedupConfig,
    similarity: &impl Fn(usize, usize) -> f64,
) -> Vec<Cluster> {
    let mut out = Vec::new();
    rest.sort_by(|&a, &b| config.main_order.compare(&docs[a].meta, &docs[b].meta));
    while rest.len() >= 2 {
        let main = rest[0];
        let (taken, left): (Vec<usize>, Vec<usize>) = rest
            .iter()
            .partition(|&&m| m == main || similarity(main, m) >= config.threshold);
        if let Some(c) = make_cluster(docs, &taken, config, similarity) {
            out.push(c);
        }
        rest = left;
    }
    out
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
}
