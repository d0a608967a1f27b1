//! For the Spark job (`spark/thresher_run.py`): `clusters_from_rows`, the cluster records
//! of a group of mains from the job's member rows, made by the library code that
//! `thresher clusters import` runs (`parquet_io::spark_clusters::import`), so ids, member
//! order, shared members and the mains' reasons are `thresher run`'s.

use std::path::Path;

use parquet::arrow::ArrowWriter;
use parquet::file::metadata::KeyValue;
use parquet::file::properties::WriterProperties;
use pyo3::prelude::*;
use pyo3::types::PyList;
use thresher::parquet_io::spark_clusters;
use thresher::pipeline;

use crate::convert::{py_err, InputError, OutputError};
use crate::dedup::json_lines;
use crate::extract::arrow_batches;

/// An Arrow table or batch written as a Parquet file at `path` (its schema metadata, such
/// as the signer's dedup configuration, becomes the file's key-value metadata).
fn write_parquet(data: &Bound<'_, PyAny>, path: &Path, what: &str) -> PyResult<()> {
    let batches = arrow_batches(data)?;
    let Some(schema) = batches.first().map(|b| b.schema()) else {
        return Err(InputError::new_err(format!("{what}: an empty Arrow table")));
    };
    let out = |e: String| OutputError::new_err(format!("{}: {e}", path.display()));
    let file = std::fs::File::create(path).map_err(|e| out(e.to_string()))?;
    let kv: Vec<KeyValue> = schema
        .metadata()
        .iter()
        .map(|(k, v)| KeyValue::new(k.clone(), v.clone()))
        .collect();
    let props = WriterProperties::builder()
        .set_key_value_metadata(Some(kv))
        .build();
    let mut writer =
        ArrowWriter::try_new(file, schema, Some(props)).map_err(|e| out(e.to_string()))?;
    for b in &batches {
        writer
            .write(b)
            .map_err(|e| InputError::new_err(format!("{what}: {e}")))?;
    }
    writer.close().map_err(|e| out(e.to_string()))?;
    Ok(())
}

/// clusters_from_rows(signatures, rows)
/// --
///
/// Cluster records (as `thresher run` and `thresher dedup` write them: `cluster`,
/// `main`, `size`, `members`, `similarity`, `shared`, `reason`) of the Spark job's member
/// rows. `rows`: an Arrow table with `main`, `member`, `similarity`, `first`,
/// `main_degree`, `strict`, `canonical_with`, every row of each main it names;
/// `signatures`: the signature rows (`doc`, `key`, `fetched_at`, `popularity`,
/// `boilerplate_ratio`, `published`, `published_at`, `canonical_url`, `url_key`) of the
/// documents the rows name, with the signer's `thresher.dedup_config` schema metadata.
#[pyfunction]
pub fn clusters_from_rows<'py>(
    py: Python<'py>,
    signatures: &Bound<'py, PyAny>,
    rows: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyList>> {
    let dir = tempfile::tempdir()
        .map_err(|e| OutputError::new_err(format!("temporary directory: {e}")))?;
    let sigs_path = dir.path().join("signatures.parquet");
    let rows_path = dir.path().join("rows.parquet");
    write_parquet(signatures, &sigs_path, "signatures")?;
    write_parquet(rows, &rows_path, "rows")?;
    let out = py
        .detach(move || -> thresher::Result<Vec<u8>> {
            let (clusters, docs, _) = spark_clusters::import(&sigs_path, &rows_path)?;
            let mut out = Vec::new();
            pipeline::write_clusters(&clusters, &docs, &mut out, Path::new("-"))?;
            Ok(out)
        })
        .map_err(py_err)?;
    json_lines(py, &out)
}
