//! `thresher dedup` over JSONL files in bounded memory (issue 15 item 4). What a run
//! keeps per document is its key, metadata and candidate keys (a few hundred bytes);
//! the shingles, which verification needs (~8 bytes per word: 2.7 KB for a 2 KB text),
//! are kept only while all of them fit in `shingle_bytes`. Past that they are dropped,
//! and once the candidates are known the files are read a second time for the shingle
//! sets of the documents that have a candidate — usually a small share of them.

use std::path::PathBuf;

use crate::dedup::{self, Cluster, DedupConfig, DedupStats, DocEntry, Signer};
use crate::error::Result;
use crate::page::PageError;

use super::sign::{read_and_sign_within, reread_shingle_sets};

/// Default of `thresher dedup --shingle-memory` in MB: with the rest of a run this keeps
/// one million 2 KB documents under 1 GB (README, "Scale").
pub const DEFAULT_SHINGLE_MB: usize = 256;

/// What [`dedup_files`] found.
pub struct DedupFiles {
    /// The documents read, in file order; their shingles were handed to the
    /// verification and are empty.
    pub docs: Vec<DocEntry>,
    pub clusters: Vec<Cluster>,
    pub stats: DedupStats,
    /// Lines skipped (error records, no key).
    pub skipped: usize,
    /// Whether the shingles were dropped and the files read again.
    pub second_pass: bool,
    /// Seconds spent reading and signing (first pass).
    pub sign_seconds: f64,
}

/// Read, sign and cluster `files`. Files that cannot be read twice (pipes, `/dev/stdin`)
/// keep every shingle in memory.
pub fn dedup_files(
    files: &[PathBuf],
    config: &DedupConfig,
    signer: &Signer,
    shingle_bytes: usize,
    on_error: &mut dyn FnMut(PageError) -> Result<()>,
) -> Result<DedupFiles> {
    let start = std::time::Instant::now();
    let rereadable = files
        .iter()
        .all(|f| std::fs::metadata(f).is_ok_and(|m| m.is_file()));
    let budget = if rereadable {
        shingle_bytes
    } else {
        usize::MAX
    };
    let (mut docs, skipped, second_pass) = read_and_sign_within(files, signer, budget, on_error)?;
    let sign_seconds = start.elapsed().as_secs_f64();
    let template_dates = dedup::template_dates::forget_template_dates(&mut docs);
    let (clusters, mut stats) = if second_pass {
        tracing::info!(
            "shingles of {} documents exceed {} MB: reading the candidates' texts again",
            docs.len(),
            shingle_bytes >> 20
        );
        dedup::find_clusters_with_sets(&docs, config, |needed| {
            reread_shingle_sets(files, signer, &docs, needed)
        })?
    } else {
        dedup::find_clusters_taking_shingles(&mut docs, config)
    };
    stats.template_dates = template_dates;
    Ok(DedupFiles {
        docs,
        clusters,
        stats,
        skipped,
        second_pass,
        sign_seconds,
    })
}

/// `thresher dedup`'s reading, signing and clustering of `files`: collection statistics
/// first when the method needs them, then [`dedup_files`] with the signer they make.
pub fn dedup_paths(
    files: &[PathBuf],
    config: &DedupConfig,
    shingle_bytes: usize,
    on_error: &mut dyn FnMut(PageError) -> Result<()>,
) -> Result<DedupFiles> {
    let signer = signer_for(files, config)?;
    dedup_files(files, config, &signer, shingle_bytes, on_error)
}

/// The signer of a run over `files`: with their collection statistics when the method
/// needs them (lexical signatures weighted by document frequencies).
pub fn signer_for(files: &[PathBuf], config: &DedupConfig) -> Result<Signer> {
    let stats = if config.method.needs_stats() {
        Some(std::sync::Arc::new(super::sign::collection_stats(files)?))
    } else {
        None
    };
    Ok(Signer::with_stats(config, stats))
}

/// `thresher sign`'s documents: `files` read and signed (a bad line passed to `on_error`),
/// the dates a site's template repeats forgotten as `dedup` forgets them before clustering.
/// Returns the documents, the lines skipped (error records, no key) and the dates forgotten.
pub fn signed_docs(
    files: &[PathBuf],
    config: &DedupConfig,
    on_error: &mut dyn FnMut(PageError) -> Result<()>,
) -> Result<(Vec<DocEntry>, usize, usize)> {
    let signer = signer_for(files, config)?;
    let (mut docs, skipped) = super::sign::read_and_sign(files, &signer, on_error)?;
    let template_dates = dedup::template_dates::forget_template_dates(&mut docs);
    Ok((docs, skipped, template_dates))
}
