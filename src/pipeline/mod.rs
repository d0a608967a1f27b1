//! Wires the stages: Source → group → extract → normalize/sign → dedup → choose main →
//! Sink. Pages stream through in chunks; each chunk is processed in parallel (rayon) and
//! written in input order, so outputs are reproducible. Only signatures stay in memory.
//!
//! The two drivers below, [`run_extract`] (`thresher extract`) and [`run_pipeline`]
//! (`thresher run`), are lists of stages; each stage lives in its own file:
//! - `stream.rs`: reading the inputs in chunks through the thread pool, in input order;
//! - `learn.rs`: the Infholder learning pass and the extraction cascade;
//! - `site_learning.rs`: that pass's steps, to run apart (a sample from URLs, a page's
//!   contribution, the learners, the learned state as bytes, the cascade from it);
//! - `extract.rs`: one page decoded, parsed, grouped and extracted; all pages streamed;
//! - `batches.rs`: the pages of an Arrow batch extracted into a batch of records;
//! - `record.rs`: one page's record from its bytes and its serialization (the CLI's and
//!   the Python binding's), pages in memory extracted in input order;
//! - `pages.rs`: `run`'s `pages.jsonl` (pass 1 to a temporary file, pass 2 with the
//!   cluster fields);
//! - `sign.rs`: signing records read back from JSONL (`dedup`, lexical methods);
//! - `jsonl_blocks.rs`: JSONL read in blocks of lines by a thread of its own;
//! - `flat_json.rs`: the fields `dedup` needs from a one-level JSON record, fast, or
//!   `None` for serde_json to decide;
//! - `dedup_files.rs`: `thresher dedup` in bounded memory (shingles dropped past a
//!   budget, candidates' texts read again);
//! - `clusters.rs`: `clusters.jsonl`;
//! - `summary.rs`: `summary.json`'s counters and timings;
//! - `output.rs`: output files, JSON lines, rounding.
//!
//! Dedup itself (clusters and their mains) is `crate::dedup::find_clusters`.

mod batches;
mod clusters;
mod dedup_files;
mod errors;
mod extract;
mod flat_json;
mod jsonl_blocks;
mod learn;
mod output;
mod pages;
mod record;
mod rule_health;
mod sign;
mod site_learning;
mod stream;
mod suggest;
mod summary;

use std::io::Write;
use std::path::Path;
use std::time::Instant;

use crate::config::Config;
use crate::dedup;
use crate::error::{Error, Result};
use crate::extract::Cascade;
use crate::source;

pub use batches::{batch_pages, extract_batch};
pub use clusters::{write_clusters, ClusterRecord};
pub use dedup_files::{
    dedup_files, dedup_paths, signed_docs, signer_for, DedupFiles, DEFAULT_SHINGLE_MB,
};
pub use errors::{errors_path_beside, ErrorLog};
pub use extract::{
    decode_and_parse, decode_and_parse_marked, decode_and_parse_within, extract_page,
};
pub use learn::{build_cascade, build_cascade_for_pages, LearnReport};
pub use output::open_output;
pub use pages::DuplicatePolicy;
pub use record::{
    extract_all, page_record, page_records, record_json, write_record, PageResult, RecordOut,
};
pub use rule_health::{probe_inputs, write_run_health, HEALTH_FILE};
pub use sign::{
    collection_stats, for_each_signed, read_and_sign, read_and_sign_within, reread_shingle_sets,
};
pub use site_learning::{
    cascade_from_state, learning_sample, Contribution, SiteLearner, SiteState,
};
pub use stream::{stream_jobs, stream_pages};
pub use suggest::{draft_sites, read_pages, InputPage, SiteDraft};
pub use summary::Summary;

use clusters::write_clusters_file;
use output::flush_output;
use pages::{extract_pages, write_pages, PARTIAL_PAGES};
use sign::sign_with_stats;
use summary::write_summary;

/// `thresher extract`: one JSON record per page. Returns the summary.
#[allow(clippy::too_many_arguments)] // the stages' inputs, each used once; no bundle would read better
pub fn run_extract(
    inputs: source::Inputs,
    config: &Config,
    cascade: &Cascade,
    learn: Option<LearnReport>,
    out: &mut dyn Write,
    out_path: &Path,
    progress: &indicatif::ProgressBar,
    errors: &mut ErrorLog,
) -> Result<Summary> {
    let start = Instant::now();
    let mut summary = Summary::default();
    let skipped = extract_all(
        &inputs,
        config,
        cascade,
        progress,
        |_| (),
        |result| {
            let result = result.map(|(r, ())| r);
            summary.count(&result);
            if let Err(e) = &result {
                errors.record(e)?;
            }
            write_record(out, &result, out_path)
        },
    )?;
    flush_output(out, out_path)?;
    summary.end_extraction(skipped, learn, cascade, start);
    Ok(summary)
}

/// `thresher run`: extract, dedup, choose main; write `pages.jsonl`, `clusters.jsonl`
/// and `summary.json` into `out_dir`.
#[allow(clippy::too_many_arguments)] // as run_extract
pub fn run_pipeline(
    inputs: source::Inputs,
    config: &Config,
    cascade: &Cascade,
    learn: Option<LearnReport>,
    out_dir: &Path,
    duplicates: DuplicatePolicy,
    progress: &indicatif::ProgressBar,
    errors: &mut ErrorLog,
) -> Result<Summary> {
    let start = Instant::now();
    std::fs::create_dir_all(out_dir).map_err(|e| Error::io(out_dir, e))?;
    // Extract (pass 1): records to a temporary file, signatures in memory.
    let partial = out_dir.join(PARTIAL_PAGES);
    let (mut summary, mut docs, skipped) =
        extract_pages(&inputs, config, cascade, progress, &partial, errors)?;
    summary.end_extraction(skipped, learn, cascade, start);

    // Dedup: sign again with collection statistics when the method needs them, then
    // cluster near-duplicates and choose each cluster's main document.
    let dedup_start = Instant::now();
    progress.set_message("dedup");
    if config.dedup.method.needs_stats() {
        sign_with_stats(&mut docs, &partial, &config.dedup)?;
    }
    let template_dates = dedup::template_dates::forget_template_dates(&mut docs);
    let (clusters, mut stats) = dedup::find_clusters(&docs, &config.dedup);
    stats.template_dates = template_dates;
    summary.time_stage("dedup", dedup_start);
    summary.dedup = Some(stats);

    // Write: clusters.jsonl, pages.jsonl (pass 2), summary.json.
    let write_start = Instant::now();
    progress.set_message("writing pages.jsonl");
    write_clusters_file(&out_dir.join("clusters.jsonl"), &clusters, &docs)?;
    write_pages(
        &partial,
        &out_dir.join("pages.jsonl"),
        &clusters,
        &docs,
        duplicates,
    )?;
    summary.time_stage("write", write_start);
    summary.time_total(start);
    write_summary(&out_dir.join("summary.json"), &summary)?;
    Ok(summary)
}
