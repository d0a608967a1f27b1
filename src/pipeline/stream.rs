//! Reading the inputs: files first, then the records of each WARC file, then the rows of
//! each Parquet file, in chunks handed
//! to the thread pool; results come back in input order, so outputs are reproducible
//! whatever the thread count.

use rayon::prelude::*;

use crate::config::Config;
use crate::error::Result;
use crate::page::{Page, PageError};
use crate::source::{self, PageJob, ReadLimits};

/// Pages handed to the worker pool at a time: big enough to keep both cores busy,
/// small enough that a chunk's bodies never weigh much. Hand-set, not swept. It also sets where `chunk_done` falls (extractors that learn
/// across pages advance there), so changing it may change outputs; the thread count does
/// not.
const CHUNK: usize = 64;

/// Streams the pages of `inputs` through `work` on the thread pool, calling `sink` with
/// the results in input order. `chunk_done` runs after each chunk's work, before its
/// results are sunk (extractors that learn from earlier pages advance there, so results
/// do not depend on the thread count). Returns the number of WARC records skipped.
pub fn stream_pages<T: Send>(
    inputs: &source::Inputs,
    config: &Config,
    work: impl Fn(Page) -> Result<T, PageError> + Sync,
    chunk_done: impl Fn(),
    mut sink: impl FnMut(Result<T, PageError>) -> Result<()>,
) -> Result<usize> {
    let limits = ReadLimits {
        max_page_bytes: config.max_page_bytes,
    };
    let mut warc_skipped = 0;
    let mut file_jobs = inputs
        .errors
        .iter()
        .cloned()
        .map(PageJob::Failed)
        .chain(inputs.files.iter().cloned().map(PageJob::File));
    let mut warc_files = inputs.warcs.iter();
    let mut warc: Option<source::warc::WarcPages> = None;
    let mut parquet_files = inputs.parquets.iter();
    let mut parquet: Option<source::parquet_pages::ParquetPages> = None;
    loop {
        // Fill a chunk: files first, then the records of each WARC file in turn.
        let mut chunk: Vec<PageJob> = Vec::with_capacity(CHUNK);
        while chunk.len() < CHUNK {
            if let Some(job) = file_jobs.next() {
                chunk.push(job);
                continue;
            }
            if let Some(pages) = warc.as_mut() {
                if let Some(job) = pages.next() {
                    chunk.push(job);
                    continue;
                }
                for (uri, reason) in &pages.skipped {
                    tracing::info!("WARC record skipped: {uri}: {reason}");
                }
                warc_skipped += pages.skipped.len();
                warc = None;
            }
            if let Some(w) = warc_files.next() {
                match source::warc::WarcPages::open_as(&w.file, &w.shown, config.max_page_bytes) {
                    Ok(pages) => warc = Some(pages),
                    Err(e) => chunk.push(PageJob::Failed(e)),
                }
                continue;
            }
            // Then the rows of each Parquet file in turn.
            if let Some(rows) = parquet.as_mut() {
                if let Some(job) = rows.next() {
                    chunk.push(job);
                    continue;
                }
                parquet = None;
            }
            match parquet_files.next() {
                Some(p) => {
                    match source::parquet_pages::ParquetPages::open_as(
                        &p.file,
                        &p.shown,
                        config.max_page_bytes,
                    ) {
                        Ok(rows) => parquet = Some(rows),
                        Err(e) => chunk.push(PageJob::Failed(e)),
                    }
                }
                None => break,
            }
        }
        if chunk.is_empty() {
            break;
        }
        run_chunk(chunk, limits, &work, &chunk_done, &mut sink)?;
    }
    Ok(warc_skipped)
}

/// Streams pages already in memory (`PageJob::Loaded` or `Failed`, e.g. the rows of an
/// Arrow batch) through `work` exactly as [`stream_pages`] streams files: in chunks of
/// [`CHUNK`] on the thread pool, `chunk_done` after each, `sink` in input order; so a
/// page's record does not depend on whether it came from a file or from memory.
pub fn stream_jobs<T: Send>(
    jobs: Vec<PageJob>,
    config: &Config,
    work: impl Fn(Page) -> Result<T, PageError> + Sync,
    chunk_done: impl Fn(),
    mut sink: impl FnMut(Result<T, PageError>) -> Result<()>,
) -> Result<()> {
    let limits = ReadLimits {
        max_page_bytes: config.max_page_bytes,
    };
    let mut jobs = jobs.into_iter().peekable();
    while jobs.peek().is_some() {
        let chunk: Vec<PageJob> = jobs.by_ref().take(CHUNK).collect();
        run_chunk(chunk, limits, &work, &chunk_done, &mut sink)?;
    }
    Ok(())
}

/// One chunk: loaded and worked on in parallel, then `chunk_done`, then sunk in order.
fn run_chunk<T: Send>(
    chunk: Vec<PageJob>,
    limits: ReadLimits,
    work: &(impl Fn(Page) -> Result<T, PageError> + Sync),
    chunk_done: &impl Fn(),
    sink: &mut impl FnMut(Result<T, PageError>) -> Result<()>,
) -> Result<()> {
    let results: Vec<_> = chunk
        .into_par_iter()
        .map(|job| work(job.load(limits)?))
        .collect();
    chunk_done();
    for r in results {
        sink(r)?;
    }
    Ok(())
}
