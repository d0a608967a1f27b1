//! `clusters.jsonl`: one line per near-duplicate cluster (its main document, members,
//! their similarity to the main, members shared with a better main's cluster, and why this
//! main), written by `thresher run` and `thresher dedup`.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;

use serde::Serialize;

use crate::dedup::{Cluster, DocEntry};
use crate::error::Result;

use super::output::{flush_output, open_output, round4, write_json};

/// A cluster as written to `clusters.jsonl`.
#[derive(Debug, Serialize)]
pub struct ClusterRecord<'a> {
    pub cluster: &'a str,
    pub main: &'a str,
    pub size: usize,
    pub members: Vec<&'a str>,
    /// Each member's similarity to the main.
    pub similarity: BTreeMap<&'a str, f64>,
    /// Members listed here too but belonging first to a better main's cluster.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub shared: Vec<&'a str>,
    pub reason: &'a str,
    /// Mode `itemsets`: the sketch elements (hex) all members share.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub itemset: Vec<String>,
}

/// Write clusters as JSONL.
pub fn write_clusters(
    clusters: &[Cluster],
    docs: &[DocEntry],
    out: &mut dyn Write,
    out_path: &Path,
) -> Result<()> {
    for c in clusters {
        let rec = ClusterRecord {
            cluster: &c.id,
            main: &docs[c.main].meta.key,
            size: c.members.len(),
            members: c
                .members
                .iter()
                .map(|m| docs[m.0].meta.key.as_str())
                .collect(),
            similarity: c
                .members
                .iter()
                .map(|m| (docs[m.0].meta.key.as_str(), round4(m.1)))
                .collect(),
            shared: c
                .shared
                .iter()
                .map(|&m| docs[m].meta.key.as_str())
                .collect(),
            reason: &c.reason,
            itemset: c.itemset.iter().map(|e| format!("{e:016x}")).collect(),
        };
        write_json(out, &rec, out_path)?;
    }
    flush_output(out, out_path)
}

/// Write `clusters.jsonl` of `thresher run` at `path`.
pub(super) fn write_clusters_file(
    path: &Path,
    clusters: &[Cluster],
    docs: &[DocEntry],
) -> Result<()> {
    let mut out = open_output(Some(path))?;
    write_clusters(clusters, docs, &mut out, path)?;
    out.commit()
}
