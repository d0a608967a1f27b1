//! Pages in an Arrow record batch extracted into a batch of records (the Python binding's
//! `extract_arrow`): each row read as a Parquet page's row is (`source::page_rows`), the
//! pages extracted as `thresher extract` extracts them ([`super::page_records`]), the
//! records written with the one record schema (`parquet_io::records`). A bad row is an
//! error record in its place; only a batch without `url` or `html` columns is an error.

use arrow_array::RecordBatch;

use crate::config::Config;
use crate::error::{Error, Result};
use crate::extract::Cascade;
use crate::page::{Page, PageError};
use crate::parquet_io::records::page_records_batch_for;
use crate::source::{page_rows, PageJob};

use super::record::{page_records, RecordOut};

/// The pages of `batch`, one per row, row numbers starting at `first_row` (errors name
/// `NAME row N`; a row without `path` is named by its URL).
pub fn batch_pages(
    batch: &RecordBatch,
    first_row: usize,
    name: &str,
    config: &Config,
) -> Result<Vec<Result<Page, PageError>>> {
    if let Some(message) = page_rows::schema_problem(&batch.schema()) {
        return Err(Error::Config(format!("{name}: {message}")));
    }
    Ok((0..batch.num_rows())
        .map(|i| page_rows::row_page(batch, i, first_row + i, name, None, config.max_page_bytes))
        .collect())
}

/// The records of the pages of `batch` as a batch of `parquet_io::records::page_record_schema_for`
/// the configured output format,
/// row for row.
pub fn extract_batch(
    batch: &RecordBatch,
    first_row: usize,
    name: &str,
    cascade: &Cascade,
    config: &Config,
) -> Result<RecordBatch> {
    let jobs = batch_pages(batch, first_row, name, config)?
        .into_iter()
        .map(|page| match page {
            Ok(page) => PageJob::Loaded(page),
            Err(e) => PageJob::Failed(e),
        })
        .collect();
    let results = page_records(jobs, cascade, config);
    let out: Vec<RecordOut> = results.iter().map(RecordOut::from).collect();
    page_records_batch_for(&out, config.output_format)
}
