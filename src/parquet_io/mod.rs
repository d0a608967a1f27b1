//! Parquet in and out (arrow + parquet crates): `thresher sign`'s signatures for the Spark
//! job (`signatures.rs`), the job's clusters read back by `thresher clusters import`
//! (`spark_clusters.rs`), and records as Parquet instead of JSONL (`records.rs`:
//! `--format parquet` of `extract`/`run`/`dedup`, Parquet input of `dedup` and `sign`).
//! Writers are functions that write to a given writer; opening (and atomically replacing)
//! the output file is the caller's.

pub mod records;
pub mod signatures;
pub mod spark_clusters;

use std::path::Path;

use arrow_array::RecordBatch;
use parquet::basic::Compression;
use parquet::file::metadata::KeyValue;
use parquet::file::properties::WriterProperties;

use crate::error::Error;

/// A Parquet or Arrow error about `path`, as an I/O error naming it.
pub(crate) fn parquet_error(path: &Path, e: impl std::fmt::Display) -> Error {
    Error::io(path, std::io::Error::other(format!("parquet: {e}")))
}

/// Snappy (fast, the Spark default), the given metadata, `rows` rows per row group.
pub(crate) fn writer_properties(metadata: Vec<(String, String)>, rows: usize) -> WriterProperties {
    WriterProperties::builder()
        .set_compression(Compression::SNAPPY)
        .set_max_row_group_row_count(Some(rows))
        .set_key_value_metadata(Some(
            metadata
                .into_iter()
                .map(|(k, v)| KeyValue::new(k, v))
                .collect(),
        ))
        .build()
}

/// Column `name` of `batch` as array type `A`, or an error naming the file.
pub(crate) fn column<'a, A: 'static>(
    batch: &'a RecordBatch,
    name: &str,
    path: &Path,
) -> crate::Result<&'a A> {
    batch
        .column_by_name(name)
        .and_then(|c| c.as_any().downcast_ref::<A>())
        .ok_or_else(|| {
            Error::Config(format!(
                "{}: column `{name}` missing or of another type",
                path.display()
            ))
        })
}

/// Whether `path` is a Parquet file: by its extension, or else by its content (the magic
/// `PAR1` that starts every Parquet file), as `extract` and `run` find their inputs, so that
/// `dedup`, `sign` and `index` read a Parquet file whatever it is called.
pub fn is_parquet(path: &Path) -> bool {
    if path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("parquet"))
    {
        return true;
    }
    let mut head = [0u8; 4];
    std::fs::File::open(path)
        .and_then(|mut f| std::io::Read::read_exact(&mut f, &mut head))
        .is_ok_and(|()| &head == b"PAR1")
}
