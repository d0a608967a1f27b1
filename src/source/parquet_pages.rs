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
//! record naming the file and row; a file that is not readable Parquet, lacks the `url`
//! or `html` column, or has a column of the wrong type (an integer `url`, a string
//! `popularity`: read as absent or as 0 they would pass unseen) is one error for the file. Rows are read in batches of
//! [`ROWS_PER_BATCH`], so memory follows a batch of pages, not the file.

use std::path::{Path, PathBuf};

use arrow_array::cast::AsArray;
use arrow_array::types::{Float32Type, Float64Type, Int32Type, Int64Type};
use arrow_array::{Array, ArrayRef, RecordBatch};
use arrow_schema::{DataType, TimeUnit};
use chrono::{DateTime, Utc};
use parquet::arrow::arrow_reader::{ParquetRecordBatchReader, ParquetRecordBatchReaderBuilder};

use super::PageJob;
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
        let f = std::fs::File::open(file).map_err(|e| PageError {
            kind: ErrorKind::Read,
            ..file_error(file, e.to_string())
        })?;
        let builder = ParquetRecordBatchReaderBuilder::try_new(f)
            .map_err(|e| file_error(file, format!("not readable as Parquet: {e}")))?;
        let schema = builder.schema().clone();
        for needed in ["url", "html"] {
            if schema.field_with_name(needed).is_err() {
                return Err(file_error(
                    file,
                    format!("no `{needed}` column (pages in Parquet need `url` and `html`; optional `path`, `fetched_at`, `popularity`, `content_type`)"),
                ));
            }
        }
        for field in schema.fields() {
            if let Some(wanted) = wrong_type(field.name(), field.data_type()) {
                return Err(file_error(
                    file,
                    format!(
                        "column `{}` is {}, not {wanted}",
                        field.name(),
                        field.data_type()
                    ),
                ));
            }
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
        let default_path = format!("{}#row {row}", self.file.display());
        let path = text(batch.column_by_name("path"), i).unwrap_or(default_path);
        let fail = |url: &str, message: String| PageError {
            path: path.clone(),
            url: url.to_string(),
            kind: ErrorKind::Parquet,
            message: format!("{} row {row}: {message}", self.file.display()),
        };
        let url = text(batch.column_by_name("url"), i)
            .filter(|u| !u.trim().is_empty())
            .ok_or_else(|| fail("", "no `url`".into()))?;
        let mut body = bytes(batch.column_by_name("html"), i)
            .map_err(|e| fail(&url, e))?
            .ok_or_else(|| fail(&url, "no `html`".into()))?;
        let cut = body.len() > self.max_page_bytes;
        body.truncate(self.max_page_bytes);
        if body.is_empty() {
            return Err(PageError {
                kind: ErrorKind::Empty,
                ..fail(&url, "empty `html`".into())
            });
        }
        let fetched_at = time(batch.column_by_name("fetched_at"), i).map_err(|e| fail(&url, e))?;
        let popularity = number(batch.column_by_name("popularity"), i).unwrap_or(0.0);
        let content_type = text(batch.column_by_name("content_type"), i);
        Ok(Page {
            path,
            url,
            fetched_at,
            popularity,
            content_type,
            body,
            cut,
        })
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

/// What column `name` must be when `ty` is not that (`None`: fine, or not a column read).
fn wrong_type(name: &str, ty: &DataType) -> Option<&'static str> {
    let string = matches!(ty, DataType::Utf8 | DataType::LargeUtf8 | DataType::Utf8View);
    let binary = matches!(
        ty,
        DataType::Binary | DataType::LargeBinary | DataType::BinaryView
    );
    let number = matches!(
        ty,
        DataType::Float64 | DataType::Float32 | DataType::Int64 | DataType::Int32
    );
    let null = *ty == DataType::Null;
    let ok = match name {
        "url" | "path" | "content_type" => string || null,
        "html" => string || binary || null,
        "popularity" => number || null,
        "fetched_at" => string || matches!(ty, DataType::Timestamp(..)) || null,
        _ => true,
    };
    (!ok).then_some(match name {
        "html" => "a string or binary",
        "popularity" => "a number (float or integer)",
        "fetched_at" => "an RFC 3339 string or a timestamp",
        _ => "a string",
    })
}

fn text(col: Option<&ArrayRef>, i: usize) -> Option<String> {
    let col = col.filter(|c| !c.is_null(i))?;
    match col.data_type() {
        DataType::Utf8 => Some(col.as_string::<i32>().value(i).to_string()),
        DataType::LargeUtf8 => Some(col.as_string::<i64>().value(i).to_string()),
        DataType::Utf8View => Some(col.as_string_view().value(i).to_string()),
        _ => None,
    }
}

fn bytes(col: Option<&ArrayRef>, i: usize) -> Result<Option<Vec<u8>>, String> {
    let Some(col) = col.filter(|c| !c.is_null(i)) else {
        return Ok(None);
    };
    Ok(Some(match col.data_type() {
        DataType::Binary => col.as_binary::<i32>().value(i).to_vec(),
        DataType::LargeBinary => col.as_binary::<i64>().value(i).to_vec(),
        DataType::BinaryView => col.as_binary_view().value(i).to_vec(),
        _ => match text(Some(col), i) {
            Some(s) => s.into_bytes(),
            None => {
                return Err(format!(
                    "`html` is {}, not a string or binary",
                    col.data_type()
                ))
            }
        },
    }))
}

fn number(col: Option<&ArrayRef>, i: usize) -> Option<f64> {
    let col = col.filter(|c| !c.is_null(i))?;
    match col.data_type() {
        DataType::Float64 => Some(col.as_primitive::<Float64Type>().value(i)),
        DataType::Float32 => Some(col.as_primitive::<Float32Type>().value(i) as f64),
        DataType::Int64 => Some(col.as_primitive::<Int64Type>().value(i) as f64),
        DataType::Int32 => Some(col.as_primitive::<Int32Type>().value(i) as f64),
        _ => None,
    }
}

/// `fetched_at` as an RFC 3339 string or a Parquet timestamp (any unit, UTC).
fn time(col: Option<&ArrayRef>, i: usize) -> Result<Option<DateTime<Utc>>, String> {
    let Some(col) = col.filter(|c| !c.is_null(i)) else {
        return Ok(None);
    };
    if let Some(s) = text(Some(col), i) {
        return DateTime::parse_from_rfc3339(s.trim())
            .map(|t| Some(t.with_timezone(&Utc)))
            .map_err(|e| format!("`fetched_at` {s:?}: {e}"));
    }
    use arrow_array::types::{
        TimestampMicrosecondType, TimestampMillisecondType, TimestampNanosecondType,
        TimestampSecondType,
    };
    let nanos = match col.data_type() {
        DataType::Timestamp(TimeUnit::Second, _) => col
            .as_primitive::<TimestampSecondType>()
            .value(i)
            .checked_mul(1_000_000_000),
        DataType::Timestamp(TimeUnit::Millisecond, _) => col
            .as_primitive::<TimestampMillisecondType>()
            .value(i)
            .checked_mul(1_000_000),
        DataType::Timestamp(TimeUnit::Microsecond, _) => col
            .as_primitive::<TimestampMicrosecondType>()
            .value(i)
            .checked_mul(1_000),
        DataType::Timestamp(TimeUnit::Nanosecond, _) => {
            Some(col.as_primitive::<TimestampNanosecondType>().value(i))
        }
        other => {
            return Err(format!(
                "`fetched_at` is {other}, not a string or timestamp"
            ))
        }
    }
    .ok_or_else(|| "`fetched_at` out of range".to_string())?;
    Ok(Some(DateTime::<Utc>::from_timestamp_nanos(nanos)))
}
