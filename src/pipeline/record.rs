//! One page's record as `thresher extract` writes it, for the CLI and for programs that
//! embed thresher (the Python binding): a page given as bytes extracted into its record or
//! its error record, pages in memory extracted in input order on the thread pool, and the
//! record's serialization (one JSON object; the same fields go into Arrow batches).

use std::io::Write;
use std::path::Path;

use serde::Serialize;

use crate::config::Config;
use crate::error::Result;
use crate::extract::Cascade;
use crate::page::{ErrorRecord, ExtractRecord, Page, PageError};
use crate::source::{self, PageJob};

use super::extract::extract_page;
use super::output::write_json;
use super::stream::{stream_jobs, stream_pages};

/// A page's outcome: its record, or why it has none (written as an error record).
pub type PageResult = std::result::Result<ExtractRecord, PageError>;

/// The record of a page given as bytes: its body cut at `max_page_bytes` (as a file's
/// is when read), decoded, parsed and extracted by `cascade`. What `thresher extract`
/// writes for the page is [`write_record`] of this.
pub fn page_record(mut page: Page, cascade: &Cascade, config: &Config) -> PageResult {
    page.cut_to(config.max_page_bytes);
    extract_page(&page, cascade, config)
}

/// Streams the pages of `inputs` through extraction, calling `sink` in input order.
/// `per_page` runs in the worker right after extraction (e.g. to sign the text) and
/// its result travels with the record.
pub fn extract_all<T: Send>(
    inputs: &source::Inputs,
    config: &Config,
    cascade: &Cascade,
    progress: &indicatif::ProgressBar,
    per_page: impl Fn(&ExtractRecord) -> T + Sync,
    mut sink: impl FnMut(Result<(ExtractRecord, T), PageError>) -> Result<()>,
) -> Result<usize> {
    stream_pages(
        inputs,
        config,
        |page| {
            let record = page_record(page, cascade, config)?;
            let extra = per_page(&record);
            Ok((record, extra))
        },
        || cascade.end_batch(),
        |result| {
            progress.inc(1);
            sink(result)
        },
    )
}

/// The records of pages in memory (loaded pages and per-row failures), in input order,
/// extracted in chunks on the thread pool exactly as `thresher extract` streams files
/// (extractors that learn between chunks see the same chunks).
pub fn page_records(jobs: Vec<PageJob>, cascade: &Cascade, config: &Config) -> Vec<PageResult> {
    let mut out = Vec::with_capacity(jobs.len());
    let streamed = stream_jobs(
        jobs,
        config,
        |page| page_record(page, cascade, config),
        || cascade.end_batch(),
        |result| {
            out.push(result);
            Ok(())
        },
    );
    // The sink above never fails.
    debug_assert!(streamed.is_ok());
    out
}

/// What is written for a page: its record, or its error record (`path`, `url`, `error`,
/// `error_kind`).
#[derive(Serialize)]
#[serde(untagged)]
pub enum RecordOut<'a> {
    Page(&'a ExtractRecord),
    Failed(ErrorRecord<'a>),
}

impl<'a> From<&'a PageResult> for RecordOut<'a> {
    fn from(result: &'a PageResult) -> Self {
        match result {
            Ok(record) => RecordOut::Page(record),
            Err(e) => RecordOut::Failed(ErrorRecord::from(e)),
        }
    }
}

/// Write a page's record as one JSON line (`path` names `out` in errors).
pub fn write_record(out: &mut dyn Write, result: &PageResult, path: &Path) -> Result<()> {
    write_json(out, &RecordOut::from(result), path)
}

/// A page's record as the JSON text `thresher extract` writes for it (without the newline).
pub fn record_json(result: &PageResult) -> String {
    serde_json::to_string(&RecordOut::from(result)).expect("records serialize to JSON")
}
