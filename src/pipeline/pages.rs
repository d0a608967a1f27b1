//! `pages.jsonl` of `thresher run`, in two passes. Pass 1 extracts every page into a
//! temporary file in the output folder while only the signatures stay in memory; once the
//! clusters are known, pass 2 copies the records into `pages.jsonl` with the cluster
//! fields (`cluster`, `is_main`, `main`) as the [`DuplicatePolicy`] asks.

use std::collections::HashMap;
use std::io::BufRead;
use std::path::Path;

use crate::choose_main::{DocMeta, Published};
use crate::config::Config;
use crate::dedup::canonical::{canonical_key, url_key};
use crate::dedup::{Cluster, DocEntry, Signer};
use crate::error::{Error, Result};
use crate::extract::Cascade;
use crate::page::ErrorRecord;
use crate::source;

use super::output::{open_output, write_json};
use super::record::extract_all;
use super::summary::Summary;

/// Pass 1's file in the output folder (removed after pass 2).
pub(super) const PARTIAL_PAGES: &str = ".pages.partial.jsonl";

/// What `thresher run` writes into `pages.jsonl` (clusters.jsonl is always complete).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum DuplicatePolicy {
    /// Every page, as extracted: no dedup fields (the clusters are in clusters.jsonl).
    Keep,
    /// Every page plus `cluster`, `is_main`, `main` (default).
    #[default]
    Mark,
    /// Only main documents and pages outside clusters (with the same fields).
    Drop,
}

/// Pass 1: extract every page into `tmp_path` (records and error records, in input
/// order), signing the texts on the way unless the dedup method needs collection
/// statistics first. Returns the counters, the documents to cluster and the number of
/// WARC records skipped.
pub(super) fn extract_pages(
    inputs: &source::Inputs,
    config: &Config,
    cascade: &Cascade,
    progress: &indicatif::ProgressBar,
    tmp_path: &Path,
    errors: &mut super::ErrorLog,
) -> Result<(Summary, Vec<DocEntry>, usize)> {
    let mut tmp = open_output(Some(tmp_path))?;
    let signer = Signer::new(&config.dedup);
    let mut docs: Vec<DocEntry> = Vec::new();
    let mut summary = Summary::default();
    let skipped = extract_all(
        inputs,
        config,
        cascade,
        progress,
        // Methods that need collection statistics sign after this pass.
        |record| {
            if config.dedup.method.needs_stats() {
                None
            } else {
                signer.sign(&record.text)
            }
        },
        |result| {
            let plain = result
                .as_ref()
                .map(|(r, _)| r.clone())
                .map_err(Clone::clone);
            summary.count(&plain);
            match result {
                Ok((record, signature)) => {
                    docs.push(DocEntry {
                        meta: DocMeta {
                            key: record.path.clone(),
                            fetched_at: record.fetched_at,
                            popularity: record.popularity,
                            boilerplate_ratio: record.boilerplate_ratio,
                            published: record
                                .metadata
                                .published
                                .as_deref()
                                .and_then(Published::parse),
                            canonical: canonical_key(
                                record.metadata.canonical_url.as_deref(),
                                Some(&record.url),
                            ),
                            url_key: url_key(&record.url),
                        },
                        signature,
                    });
                    write_json(&mut tmp, &record, tmp_path)
                }
                Err(e) => {
                    errors.record(&e)?;
                    write_json(&mut tmp, &ErrorRecord::from(&e), tmp_path)
                }
            }
        },
    )?;
    tmp.commit()?;
    Ok((summary, docs, skipped))
}

/// Pass 2: copy the records of `tmp_path` into `pages_path`, each page with its cluster
/// fields (or without, or only mains: `duplicates`); then remove `tmp_path`.
pub(super) fn write_pages(
    tmp_path: &Path,
    pages_path: &Path,
    clusters: &[Cluster],
    docs: &[DocEntry],
    duplicates: DuplicatePolicy,
) -> Result<()> {
    let membership = membership(clusters, docs);
    let mut out = open_output(Some(pages_path))?;
    let tmp_in = std::fs::File::open(tmp_path).map_err(|e| Error::io(tmp_path, e))?;
    for (n, line) in std::io::BufReader::new(tmp_in).lines().enumerate() {
        let line = line.map_err(|e| Error::io(tmp_path, e))?;
        let mut value: serde_json::Value =
            serde_json::from_str(&line).map_err(|e| Error::BadLine {
                path: tmp_path.to_owned(),
                line: n + 1,
                message: e.to_string(),
            })?;
        if let Some(obj) = value.as_object_mut().filter(|o| !o.contains_key("error")) {
            let path = obj
                .get("path")
                .and_then(|p| p.as_str())
                .unwrap_or("")
                .to_string();
            let (cluster, main) = match membership.get(path.as_str()) {
                Some(&(id, main)) => (Some(id.to_string()), Some(main.to_string())),
                None => (None, None),
            };
            let is_main = main.as_deref().is_none_or(|m| m == path);
            if duplicates == DuplicatePolicy::Drop && !is_main {
                continue;
            }
            if duplicates == DuplicatePolicy::Keep {
                write_json(&mut out, &value, pages_path)?;
                continue;
            }
            obj.insert("cluster".into(), cluster.into());
            obj.insert("is_main".into(), is_main.into());
            obj.insert("main".into(), main.into());
        }
        write_json(&mut out, &value, pages_path)?;
    }
    out.commit()?;
    let _ = std::fs::remove_file(tmp_path);
    Ok(())
}

/// Page key → (cluster id, its main), for the members each cluster owns (a shared member
/// belongs to a better main's cluster first).
fn membership<'a>(
    clusters: &'a [Cluster],
    docs: &'a [DocEntry],
) -> HashMap<&'a str, (&'a str, &'a str)> {
    let mut membership: HashMap<&str, (&str, &str)> = Default::default();
    for c in clusters {
        let main = docs[c.main].meta.key.as_str();
        for m in c.members.iter().filter(|m| !c.shared.contains(&m.0)) {
            membership.insert(docs[m.0].meta.key.as_str(), (c.id.as_str(), main));
        }
    }
    membership
}
