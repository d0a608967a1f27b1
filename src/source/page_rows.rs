//! A page from one row of an Arrow record batch: the columns of pages in Parquet files
//! (`parquet_pages.rs`) and of the batches a program hands over (the Python binding's
//! `extract_arrow`). Columns, by name (others ignored):
//! - `html` (string or binary, required): the page's bytes, decoded like a file's;
//! - `url` (string, required): the page's URL;
//! - `path` (string): how the page is named in records and errors (default: the
//!   caller's, e.g. `FILE#row N`);
//! - `fetched_at` (RFC 3339 string or a timestamp), `popularity` (float or integer),
//!   `content_type` (string), as in a manifest.
//!
//! A row without `url` or `html`, an empty `html` or a `fetched_at` that does not parse is
//! a per-row error naming the source and row, so one bad row never loses the others.

use arrow_array::cast::AsArray;
use arrow_array::types::{Float32Type, Float64Type, Int32Type, Int64Type};
use arrow_array::{Array, ArrayRef, RecordBatch};
use arrow_schema::{DataType, Schema, TimeUnit};
use chrono::{DateTime, Utc};

use crate::page::{ErrorKind, Page, PageError};

/// Why a batch of this schema cannot hold pages: the first of `url` and `html` missing, or
/// a column of the wrong type (an integer `url`, a string `popularity`: read as absent or
/// as 0 they would pass unseen).
pub fn schema_problem(schema: &Schema) -> Option<String> {
    let missing = ["url", "html"]
        .into_iter()
        .find(|needed| schema.field_with_name(needed).is_err())
        .map(|needed| {
            format!("no `{needed}` column (pages in Parquet need `url` and `html`; optional `path`, `fetched_at`, `popularity`, `content_type`)")
        });
    missing.or_else(|| {
        schema.fields().iter().find_map(|field| {
            wrong_type(field.name(), field.data_type()).map(|wanted| {
                format!(
                    "column `{}` is {}, not {wanted}",
                    field.name(),
                    field.data_type()
                )
            })
        })
    })
}

/// What column `name` must be when `ty` is not that (`None`: fine, or not a column read).
fn wrong_type(name: &str, ty: &DataType) -> Option<&'static str> {
    let string = matches!(
        ty,
        DataType::Utf8 | DataType::LargeUtf8 | DataType::Utf8View
    );
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

/// The page of row `i` of `batch`, row `row` of the source called `name` (errors say
/// `NAME row N: …`). Without a `path` value the page is named `default_path`, or its URL
/// when that is `None`. The body is cut at `max_page_bytes`, as a file's is.
pub fn row_page(
    batch: &RecordBatch,
    i: usize,
    row: usize,
    name: &str,
    default_path: Option<String>,
    max_page_bytes: usize,
) -> Result<Page, PageError> {
    let url = text(batch.column_by_name("url"), i).filter(|u| !u.trim().is_empty());
    let path = text(batch.column_by_name("path"), i)
        .or(default_path)
        .or_else(|| url.clone())
        .unwrap_or_else(|| format!("{name}#row {row}"));
    let fail = |url: &str, message: String| PageError {
        path: path.clone(),
        url: url.to_string(),
        kind: ErrorKind::Parquet,
        message: format!("{name} row {row}: {message}"),
    };
    let url = url.ok_or_else(|| fail("", "no `url`".into()))?;
    let mut body = bytes(batch.column_by_name("html"), i)
        .map_err(|e| fail(&url, e))?
        .ok_or_else(|| fail(&url, "no `html`".into()))?;
    let cut = body.len() > max_page_bytes;
    body.truncate(max_page_bytes);
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
        warc_file: None,
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
