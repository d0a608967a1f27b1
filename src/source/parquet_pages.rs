//! Pages from Parquet files (`extract`/`run` input; issue 18): one page per row, the
//! file found by content (Parquet's `PAR1` magic, [`super::sniff`]). Columns, by name
//! (others ignored):
//! - `html` (string or binary, required): the page's bytes, decoded like a file's;
//! - `url` (string, required): the page's URL;
//! - `path` (string): how the page is named in records and errors (default
//!   `FILE#row N`, rows counted from 0 as in WARC records);
//! - `fetched_at` (RFC 3339 string or a timestamp), `popularity` (float or integer),
//!   `content_type` (string), as in a manifest.
//!
//! A row without `url` or `html`, or with a `fetched_at` that does not parse, is an error
//! record naming the file and row (`page_rows.rs`, shared with Arrow batches given by a
//! program); a file that is not readable Parquet, or lacks the
//! `url` or `html` column, is one error for the file. Rows are read in batches of
//! [`ROWS_PER_BATCH`], so memory follows a batch of pages, not the file.

use std::path::{Path, PathBuf};

use arrow_array::RecordBatch;
use parquet::arrow::arrow_reader::{ParquetRecordBatchReader, ParquetRecordBatchReaderBuilder};

use super::{page_rows, PageJob};
use crate::page::{ErrorKind, Page, PageError};

/// Rows decoded at a time: pages are ~100 KB of HTML, so a batch is a few MB. Hand-set.
const ROWS_PER_BATCH: usize = 32;

/// The pages of one Parquet file, in row order.
pub struct ParquetPages {
    file: PathBuf,
    reader: Option<ParquetRecordBatchReader>,
    batch: Option<RecordBatch>,
    /// Row within `batch`, and rows of the file before it.
    at: usize,
    before: usize,
    max_page_bytes: usize,
}

fn file_error(file: &Path, message: String) -> PageError {
    PageError {
        path: file.display().to_string(),
        url: String::new(),
        kind: ErrorKind::Parquet,
        message,
    }
}

impl ParquetPages {
    /// Open `file`; an unreadable file or one without `url` and `html` columns is an
    /// error for the whole file.
    pub fn open(file: &Path, max_page_bytes: usize) -> Result<ParquetPages, PageError> {
        ParquetPages::open_as(file, file, max_page_bytes)
    }

    /// The rows of the Parquet file read from `read`, named `file` in records and errors
    /// (a stream's temporary copy under the stream's name).
    pub fn open_as(
        read: &Path,
        file: &Path,
        max_page_bytes: usize,
    ) -> Result<ParquetPages, PageError> {
        let f = std::fs::File::open(read).map_err(|e| PageError {
            kind: ErrorKind::Read,
            ..file_error(file, e.to_string())
        })?;
        let builder = ParquetRecordBatchReaderBuilder::try_new(f)
            .map_err(|e| file_error(file, format!("not readable as Parquet: {e}")))?;
        let schema = builder.schema().clone();
        if let Some(message) = page_rows::schema_problem(&schema) {
            return Err(file_error(file, message));
        }
        let reader = builder
            .with_batch_size(ROWS_PER_BATCH)
            .build()
            .map_err(|e| file_error(file, format!("not readable as Parquet: {e}")))?;
        Ok(ParquetPages {
            file: file.to_path_buf(),
            reader: Some(reader),
            batch: None,
            at: 0,
            before: 0,
            max_page_bytes,
        })
    }

    /// The page of row `i` of the current batch.
    fn row(&self, batch: &RecordBatch, i: usize) -> Result<Page, PageError> {
        let row = self.before + i;
        let name = self.file.display().to_string();
        let default_path = format!("{name}#row {row}");
        page_rows::row_page(
            batch,
            i,
            row,
            &name,
            Some(default_path),
            self.max_page_bytes,
        )
    }
}

impl Iterator for ParquetPages {
    type Item = PageJob;

    fn next(&mut self) -> Option<PageJob> {
        loop {
            if let Some(batch) = &self.batch {
                if self.at < batch.num_rows() {
                    let i = self.at;
                    self.at += 1;
                    return Some(match self.row(batch, i) {
                        Ok(page) => PageJob::Loaded(page),
                        Err(e) => PageJob::Failed(e),
                    });
                }
                self.before += batch.num_rows();
            }
            self.batch = None;
            self.at = 0;
            match self.reader.as_mut()?.next()? {
                Ok(batch) => self.batch = Some(batch),
                Err(e) => {
                    // A damaged page of the file: the rows after it cannot be reached.
                    self.reader = None;
                    return Some(PageJob::Failed(file_error(
                        &self.file,
                        format!("rows from {} on unreadable: {e}", self.before),
                    )));
                }
            }
        }
    }
}
