//! Dedup from Python: `dedup` (clusters, as `thresher dedup` writes them) and `sign_arrow`
//! (the rows `thresher sign` writes for the Spark job), over records given as a list of
//! dicts or an Arrow table. The records are written to a temporary JSONL or Parquet file
//! and read by the library exactly as the CLI reads its input files, so keys, skipped
//! error records and per-line errors are the CLI's.

use std::io::Write;
use std::path::{Path, PathBuf};

use arrow_array::RecordBatchReader;
use arrow_pyarrow::IntoPyArrow;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use parquet::arrow::ArrowWriter;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use thresher::config::Config;
use thresher::dedup::DedupConfig;
use thresher::page::PageError;
use thresher::pipeline;

use crate::convert::{self, py_err, InputError, OutputError};
use crate::extract::arrow_batches;

/// Records written to a file the library reads: a list (or iterable) of dicts as JSONL,
/// an Arrow table or batch as Parquet.
pub struct RecordsFile {
    _dir: tempfile::TempDir,
    pub path: PathBuf,
}

impl RecordsFile {
    pub fn write(records: &Bound<'_, PyAny>) -> PyResult<RecordsFile> {
        let dir = tempfile::tempdir()
            .map_err(|e| OutputError::new_err(format!("temporary directory: {e}")))?;
        let io = |path: &Path, e: std::io::Error| {
            OutputError::new_err(format!("{}: {e}", path.display()))
        };
        if records.hasattr("__arrow_c_stream__")? || records.hasattr("__arrow_c_array__")? {
            let batches = arrow_batches(records)?;
            let path = dir.path().join("records.parquet");
            let file = std::fs::File::create(&path).map_err(|e| io(&path, e))?;
            let schema = match batches.first() {
                Some(b) => b.schema(),
                None => return Err(InputError::new_err("records: an empty Arrow table")),
            };
            let mut writer = ArrowWriter::try_new(file, schema, None)
                .map_err(|e| OutputError::new_err(format!("{}: parquet: {e}", path.display())))?;
            for b in &batches {
                writer
                    .write(b)
                    .map_err(|e| InputError::new_err(format!("records: {e}")))?;
            }
            writer
                .close()
                .map_err(|e| OutputError::new_err(format!("{}: parquet: {e}", path.display())))?;
            return Ok(RecordsFile { _dir: dir, path });
        }
        let path = dir.path().join("records.jsonl");
        let file = std::fs::File::create(&path).map_err(|e| io(&path, e))?;
        let mut out = std::io::BufWriter::new(file);
        for record in records.try_iter()? {
            let value = convert::to_json(&record?)?;
            serde_json::to_writer(&mut out, &value).map_err(|e| io(&path, e.into()))?;
            out.write_all(b"\n").map_err(|e| io(&path, e))?;
        }
        out.flush().map_err(|e| io(&path, e))?;
        Ok(RecordsFile { _dir: dir, path })
    }
}

/// Dedup options (`DedupConfig` keys, the `dedup:` section of a `--config` file) over the
/// defaults, or over `base` when given.
pub fn dedup_config(
    options: Option<&Bound<'_, PyDict>>,
    base: Option<&DedupConfig>,
) -> PyResult<DedupConfig> {
    let mut section = match base {
        Some(b) => serde_json::to_value(b).expect("configurations serialize"),
        None => serde_json::Value::Object(Default::default()),
    };
    if let Some(options) = options {
        let given = convert::to_json(options.as_any())?;
        merge(&mut section, given);
    }
    let config = Config::from_options(serde_json::json!({ "dedup": section })).map_err(py_err)?;
    Ok(config.dedup)
}

/// `over` written into `base`, objects key by key.
fn merge(base: &mut serde_json::Value, over: serde_json::Value) {
    match (base, over) {
        (serde_json::Value::Object(b), serde_json::Value::Object(o)) => {
            for (k, v) in o {
                match b.get_mut(&k) {
                    Some(slot) => merge(slot, v),
                    None => {
                        b.insert(k, v);
                    }
                }
            }
        }
        (slot, v) => *slot = v,
    }
}

/// Per-record problems (bad lines, records without text or key) as Python warnings: the
/// record is skipped and the run goes on, as in the CLI.
pub fn warn_all(py: Python<'_>, errors: &[PageError]) -> PyResult<()> {
    let category = py.get_type::<pyo3::exceptions::PyUserWarning>();
    for e in errors {
        let message = std::ffi::CString::new(e.to_string().replace('\0', " ")).expect("no NUL");
        PyErr::warn(py, category.as_any(), &message, 1)?;
    }
    Ok(())
}

/// JSON lines as a list of Python objects.
pub fn json_lines<'py>(py: Python<'py>, text: &[u8]) -> PyResult<Bound<'py, PyList>> {
    let list = PyList::empty(py);
    for line in text.split(|&b| b == b'\n').filter(|l| !l.is_empty()) {
        let line = std::str::from_utf8(line).map_err(|e| OutputError::new_err(e.to_string()))?;
        list.append(convert::from_json(py, line)?)?;
    }
    Ok(list)
}

/// Near-duplicate clusters of `records`, as `thresher dedup` writes them: a list of dicts
/// (`cluster`, `main`, `size`, `members`, `similarity`, ...). `records` is a list of dicts
/// or an Arrow table/batch with `text` and a key (`id`, `path` or `url`), such as the
/// records of `extract`/`extract_arrow` (error records are skipped; optional
/// `fetched_at`, `popularity`, `boilerplate_ratio`, `published`, `canonical_url` order the
/// main). `options` are the dedup keys of a `--config` file (`threshold=0.8`,
/// `num_perm=128`, `mode="components"`, `method="tfidf"`, `shingle={"length": 5}`, ...);
/// `shingle_memory` is `--shingle-memory` in MB. A bad record is skipped with a warning.
#[pyfunction]
#[pyo3(signature = (records, *, shingle_memory=pipeline::DEFAULT_SHINGLE_MB, **options))]
pub fn dedup<'py>(
    py: Python<'py>,
    records: &Bound<'py, PyAny>,
    shingle_memory: usize,
    options: Option<&Bound<'py, PyDict>>,
) -> PyResult<Bound<'py, PyList>> {
    let config = dedup_config(options, None)?;
    let input = RecordsFile::write(records)?;
    let files = vec![input.path.clone()];
    let (out, errors) = py
        .detach(move || -> thresher::Result<(Vec<u8>, Vec<PageError>)> {
            let mut errors = Vec::new();
            let run = pipeline::dedup_paths(
                &files,
                &config,
                shingle_memory.saturating_mul(1 << 20),
                &mut |e| {
                    errors.push(e);
                    Ok(())
                },
            )?;
            let mut out = Vec::new();
            pipeline::write_clusters(&run.clusters, &run.docs, &mut out, Path::new("-"))?;
            Ok((out, errors))
        })
        .map_err(py_err)?;
    warn_all(py, &errors)?;
    json_lines(py, &out)
}

/// The signature rows `thresher sign` writes for the Spark job (key, main-order fields,
/// band hashes, MinHash signature, shingle set), as a `pyarrow.Table` with the same schema
/// and metadata (the dedup configuration). `records` and `options` as for `dedup()`.
#[pyfunction]
#[pyo3(signature = (records, **options))]
pub fn sign_arrow<'py>(
    py: Python<'py>,
    records: &Bound<'py, PyAny>,
    options: Option<&Bound<'py, PyDict>>,
) -> PyResult<Bound<'py, PyAny>> {
    let config = dedup_config(options, None)?;
    let input = RecordsFile::write(records)?;
    let files = vec![input.path.clone()];
    let out_path = input.path.with_file_name("signatures.parquet");
    let read_path = out_path.clone();
    let errors = py
        .detach(move || -> thresher::Result<Vec<PageError>> {
            thresher::parquet_io::signatures::check_supported(&config)?;
            let mut errors = Vec::new();
            let (docs, _, _) = pipeline::signed_docs(&files, &config, &mut |e| {
                errors.push(e);
                Ok(())
            })?;
            let file = std::fs::File::create(&out_path).map_err(|e| thresher::Error::Output {
                path: out_path.clone(),
                source: e,
            })?;
            thresher::parquet_io::signatures::write_signatures(&docs, &config, file, &out_path)?;
            Ok(errors)
        })
        .map_err(py_err)?;
    warn_all(py, &errors)?;
    let file = std::fs::File::open(&read_path).map_err(|e| OutputError::new_err(e.to_string()))?;
    let builder = ParquetRecordBatchReaderBuilder::try_new(file)
        .map_err(|e| OutputError::new_err(e.to_string()))?;
    // The file's key-value metadata (the signer's `thresher.dedup_config`) becomes the
    // table's schema metadata, so that the Spark job reads the configuration from it.
    let kv: std::collections::HashMap<String, String> = builder
        .metadata()
        .file_metadata()
        .key_value_metadata()
        .map(|kv| {
            kv.iter()
                .filter(|e| !e.key.starts_with("ARROW:"))
                .filter_map(|e| e.value.clone().map(|v| (e.key.clone(), v)))
                .collect()
        })
        .unwrap_or_default();
    let reader = builder
        .build()
        .map_err(|e| OutputError::new_err(e.to_string()))?;
    let schema = std::sync::Arc::new(reader.schema().as_ref().clone().with_metadata(kv));
    let batches: Result<Vec<_>, _> = reader
        .map(|b| b.and_then(|b| b.with_schema(schema.clone())))
        .collect();
    let batches = batches.map_err(|e| OutputError::new_err(e.to_string()))?;
    let table = arrow_pyarrow::Table::try_new(batches, schema)
        .map_err(|e| OutputError::new_err(e.to_string()))?;
    table.into_pyarrow(py)
}
