//! `thresher eval dedup`: pairwise precision/recall/F1 of clusters against labelled
//! pairs, and the pairs unique to each side (the seeds' Comparator, algorithms.md §3).
//!
//! Truth: TSV, one pair a line `id_a <TAB> id_b [<TAB> similarity]`; with a third
//! column, pairs below `min_similarity` are neither required nor penalised. Clusters:
//! thresher's `clusters.jsonl` (`members`, `main`). A predicted pair is a (member, main)
//! pair when clusters name their main — what a cluster claims — else every pair inside
//! a cluster. Recall counts a truth pair found when both documents share a cluster.

use std::collections::{BTreeSet, HashSet};

type Pair = (String, String);

fn pair(a: &str, b: &str) -> Pair {
    if a <= b {
        (a.to_string(), b.to_string())
    } else {
        (b.to_string(), a.to_string())
    }
}

/// The comparison's result.
#[derive(Debug, Default, serde::Serialize)]
pub struct PairScores {
    pub truth_pairs: usize,
    pub predicted_pairs: usize,
    pub found: usize,
    pub precision: f64,
    pub recall: f64,
    pub f1: f64,
    /// Truth pairs not inside any cluster.
    #[serde(skip)]
    pub missed: Vec<Pair>,
    /// Predicted pairs that are not truth pairs.
    #[serde(skip)]
    pub extra: Vec<Pair>,
}

/// Parse truth TSV text: (required pairs, ignored pairs).
pub fn parse_truth(text: &str, min_similarity: f64) -> (HashSet<Pair>, HashSet<Pair>) {
    let (mut truth, mut soft) = (HashSet::new(), HashSet::new());
    for line in text.lines() {
        let f: Vec<&str> = line.split('\t').map(str::trim).collect();
        if f.len() < 2 || f[0].is_empty() || f[0].starts_with('#') {
            continue;
        }
        let sim = f.get(2).and_then(|s| s.parse::<f64>().ok());
        if f.len() >= 3 && sim.is_none() {
            continue; // a header line
        }
        if sim.is_some_and(|s| s < min_similarity) {
            soft.insert(pair(f[0], f[1]));
        } else {
            truth.insert(pair(f[0], f[1]));
        }
    }
    (truth, soft)
}

/// Score clusters (JSONL text) against truth pairs.
pub fn score(
    truth: &HashSet<Pair>,
    soft: &HashSet<Pair>,
    clusters_jsonl: &str,
) -> Result<PairScores, String> {
    let mut inside: HashSet<Pair> = HashSet::new();
    let mut claimed: HashSet<Pair> = HashSet::new();
    let mut all_have_main = true;
    for (n, line) in clusters_jsonl.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let v: serde_json::Value =
            serde_json::from_str(line).map_err(|e| format!("line {}: {e}", n + 1))?;
        let Some(members) = v.get("members").and_then(|m| m.as_array()) else {
            continue;
        };
        let ids: BTreeSet<String> = members
            .iter()
            .map(|m| m.as_str().map_or_else(|| m.to_string(), str::to_string))
            .collect();
        let ids: Vec<&String> = ids.iter().collect();
        for x in 0..ids.len() {
            for y in x + 1..ids.len() {
                inside.insert(pair(ids[x], ids[y]));
            }
        }
        match v.get("main") {
            Some(m) if !m.is_null() => {
                let main = m.as_str().map_or_else(|| m.to_string(), str::to_string);
                for id in &ids {
                    if **id != main {
                        claimed.insert(pair(id, &main));
                    }
                }
            }
            _ => all_have_main = false,
        }
    }
    let predicted: HashSet<Pair> = if all_have_main {
        claimed
    } else {
        inside.clone()
    };
    let judged: Vec<&Pair> = predicted.iter().filter(|p| !soft.contains(*p)).collect();
    let good = judged.iter().filter(|p| truth.contains(**p)).count();
    let found = truth.iter().filter(|p| inside.contains(*p)).count();
    let precision = if judged.is_empty() {
        0.0
    } else {
        good as f64 / judged.len() as f64
    };
    let recall = if truth.is_empty() {
        0.0
    } else {
        found as f64 / truth.len() as f64
    };
    let f1 = if precision + recall > 0.0 {
        2.0 * precision * recall / (precision + recall)
    } else {
        0.0
    };
    let mut missed: Vec<Pair> = truth
        .iter()
        .filter(|p| !inside.contains(*p))
        .cloned()
        .collect();
    let mut extra: Vec<Pair> = judged
        .into_iter()
        .filter(|p| !truth.contains(*p))
        .cloned()
        .collect();
    missed.sort();
    extra.sort();
    Ok(PairScores {
        truth_pairs: truth.len(),
        predicted_pairs: predicted.len(),
        found,
        precision,
        recall,
        f1,
        missed,
        extra,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_and_lists_pairs_unique_to_each_side() {
        let (truth, soft) = parse_truth(
            "id_a\tid_b\tj\na\tb\t0.9\nb\tc\t0.85\nc\td\t0.5\nx\ty\t0.95\n",
            0.8,
        );
        assert_eq!(truth.len(), 3);
        let clusters = r#"{"main":"a","members":["a","b","c"]}
{"main":"d","members":["d","e"]}"#;
        let s = score(&truth, &soft, clusters).unwrap();
        // Claimed pairs: (a,b) ok, (a,c) wrong, (d,e) wrong; (b,c) found inside a cluster.
        assert_eq!(s.found, 2);
        assert!((s.recall - 2.0 / 3.0).abs() < 1e-9);
        assert!((s.precision - 1.0 / 3.0).abs() < 1e-9);
        assert_eq!(s.missed, vec![pair("x", "y")]);
        assert_eq!(s.extra, vec![pair("a", "c"), pair("d", "e")]);
    }
}
