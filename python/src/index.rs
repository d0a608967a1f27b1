//! The persistent dedup index from Python: `thresher.Index(path)` with the operations of
//! `thresher index` (add, query, remove, export, stats, check, repair), each opening the
//! index as the subcommand does (the readers read-only, so they work on a read-only file
//! and while an add runs elsewhere), calling the library's `index::Index`, and closing it
//! (so the index is never held open between calls).

use std::path::{Path, PathBuf};
use std::time::Duration;

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use thresher::dedup::DedupConfig;
use thresher::index::{self, store};

use crate::convert::{self, py_err, OutputError};
use crate::dedup::{dedup_config, json_lines, RecordsFile};

/// The persistent dedup index in directory `path` (`thresher index --index PATH`).
/// `create=True` creates it when missing, with `options` (the dedup keys of a `--config`
/// file, as for `dedup()`); an existing index keeps the options it was created with and
/// refuses others (`IndexStoreError`, naming them).
#[pyclass(module = "thresher")]
pub struct Index {
    dir: PathBuf,
    /// The options given (over those stored), for `add`; `None`: those stored.
    given: Option<DedupConfig>,
}

/// Run `f` on the index as the CLI does: a panic of the store is an error naming it.
fn guarded<T>(dir: &Path, f: impl FnOnce() -> thresher::Result<T>) -> PyResult<T> {
    store::catch_store_panics(&store::db_path(dir), f).map_err(py_err)
}

/// `wait` seconds as the CLI's `--wait` takes them (a negative or non-finite value is
/// refused, naming it).
fn wait_for(wait: f64) -> PyResult<Duration> {
    Duration::try_from_secs_f64(wait)
        .map_err(|e| py_err(thresher::Error::Config(format!("wait={wait}: {e}"))))
}

fn read_output(path: &Path) -> PyResult<Vec<u8>> {
    std::fs::read(path).map_err(|e| OutputError::new_err(format!("{}: {e}", path.display())))
}

#[pymethods]
impl Index {
    #[new]
    #[pyo3(signature = (path, create=false, **options))]
    fn new(path: PathBuf, create: bool, options: Option<&Bound<'_, PyDict>>) -> PyResult<Self> {
        let has_options = options.is_some_and(|o| !o.is_empty());
        let exists = store::db_path(&path).exists();
        let stored = if exists {
            guarded(&path, || {
                store::Store::open_read(&path, Duration::ZERO)?.config()
            })?
        } else {
            None
        };
        let given = if has_options || (create && stored.is_none()) {
            Some(dedup_config(options, stored.as_ref())?)
        } else {
            None
        };
        if exists && given.is_none() {
            // Opened as the readers open it: a read-only index can be queried.
            guarded(&path, || {
                index::Index::open_read(&path, Duration::ZERO).map(drop)
            })?;
        } else {
            guarded(&path, || {
                index::Index::open(&path, given.as_ref(), create).map(drop)
            })?;
        }
        Ok(Index { dir: path, given })
    }

    /// The index's directory.
    #[getter]
    fn path(&self) -> String {
        self.dir.display().to_string()
    }

    /// Add a batch of records (a list of dicts or an Arrow table, as for `dedup()`), as
    /// `thresher index add` does. Returns the batch's report (`batch`, `added`, `updated`,
    /// `unchanged`, `without_words`, `skipped_lines`) with `clusters`: the clusters the
    /// batch touched, as `index add -o` writes them.
    #[pyo3(signature = (records, *, commit_every=index::DEFAULT_COMMIT_EVERY))]
    fn add<'py>(
        &self,
        py: Python<'py>,
        records: &Bound<'py, PyAny>,
        commit_every: usize,
    ) -> PyResult<Bound<'py, PyDict>> {
        let input = RecordsFile::write(records)?;
        let files = vec![input.path.clone()];
        let out = input.path.with_file_name("clusters.jsonl");
        let (dir, given, out_path) = (self.dir.clone(), self.given.clone(), out.clone());
        let report = py.detach(move || {
            guarded(&dir, || {
                let idx = index::Index::open(&dir, given.as_ref(), true)?;
                let report = idx.add(&files, commit_every)?;
                let mut ids = report.ids.clone();
                ids.sort_unstable();
                ids.dedup();
                let comps = idx.components_of(&ids)?;
                idx.write_clusters(&comps, Some(out_path.as_path()))?;
                Ok(serde_json::to_string(&report).expect("reports serialize"))
            })
        })?;
        let dict = convert::from_json(py, &report)?.cast_into::<PyDict>()?;
        dict.set_item("clusters", json_lines(py, &read_output(&out)?)?)?;
        Ok(dict)
    }

    /// For each record, the stored documents near it, most similar first: a list of
    /// `{"id": key, "near": [{"id": stored key, "similarity": s}, ...]}` as
    /// `thresher index query` writes them. The index is read, never changed; while an
    /// add holds it, the call waits up to `wait` seconds (`--wait`), then raises
    /// `IndexStoreError` ("busy").
    #[pyo3(signature = (records, *, wait=0.0))]
    fn query<'py>(
        &self,
        py: Python<'py>,
        records: &Bound<'py, PyAny>,
        wait: f64,
    ) -> PyResult<Bound<'py, PyList>> {
        let wait = wait_for(wait)?;
        let input = RecordsFile::write(records)?;
        let files = vec![input.path.clone()];
        let out = input.path.with_file_name("answers.jsonl");
        let (dir, out_path) = (self.dir.clone(), out.clone());
        py.detach(move || {
            guarded(&dir, || {
                index::Index::open_read(&dir, wait)?.query(&files, Some(out_path.as_path()))
            })
        })?;
        json_lines(py, &read_output(&out)?)
    }

    /// Remove the documents of these keys, as `thresher index remove` does. Returns
    /// `{"removed": n, "missing": [keys not in the index], "clusters": [clusters of the
    /// removed documents' neighbours, as they are now]}`.
    fn remove<'py>(&self, py: Python<'py>, keys: Vec<String>) -> PyResult<Bound<'py, PyDict>> {
        let tmp = tempfile::tempdir().map_err(|e| OutputError::new_err(e.to_string()))?;
        let out = tmp.path().join("clusters.jsonl");
        let (dir, out_path, wanted) = (self.dir.clone(), out.clone(), keys.clone());
        let missing = py.detach(move || {
            guarded(&dir, || {
                let idx = index::Index::open(&dir, None, false)?;
                let (missing, neighbours) = idx.remove(&wanted)?;
                let comps = idx.components_of(&neighbours)?;
                idx.write_clusters(&comps, Some(out_path.as_path()))?;
                Ok(missing)
            })
        })?;
        let dict = PyDict::new(py);
        dict.set_item("removed", keys.len() - missing.len())?;
        dict.set_item("missing", missing)?;
        dict.set_item("clusters", json_lines(py, &read_output(&out)?)?)?;
        Ok(dict)
    }

    /// Every cluster of the index, as `thresher index export` writes them (the format of
    /// `thresher dedup`). Reads only; `wait` as for `query`.
    #[pyo3(signature = (*, wait=0.0))]
    fn export<'py>(&self, py: Python<'py>, wait: f64) -> PyResult<Bound<'py, PyList>> {
        let wait = wait_for(wait)?;
        let tmp = tempfile::tempdir().map_err(|e| OutputError::new_err(e.to_string()))?;
        let out = tmp.path().join("clusters.jsonl");
        let (dir, out_path) = (self.dir.clone(), out.clone());
        py.detach(move || {
            guarded(&dir, || {
                let idx = index::Index::open_read(&dir, wait)?;
                let comps = idx.all_components()?;
                idx.write_clusters(&comps, Some(out_path.as_path()))
                    .map(drop)
            })
        })?;
        json_lines(py, &read_output(&out)?)
    }

    /// The index's counters and options, as `thresher index stats` prints them. Reads
    /// only; `wait` as for `query`.
    #[pyo3(signature = (*, wait=0.0))]
    fn stats<'py>(&self, py: Python<'py>, wait: f64) -> PyResult<Bound<'py, PyAny>> {
        let wait = wait_for(wait)?;
        let dir = self.dir.clone();
        let stats =
            py.detach(move || guarded(&dir, || index::Index::open_read(&dir, wait)?.stats()))?;
        convert::from_json(py, &stats.to_string())
    }

    /// Verify the index as `thresher index check` does, without writing to it: `{"ok":
    /// bool, "documents", "postings", "repaired", "damaged": ["document ID (key): what",
    /// ...] (every document failing its checksums), "problems": [...], "more_problems":
    /// n}`. A store that cannot be opened at all is damage too (`ok` false, the reason
    /// in `problems`); an index held by an add is not: after `wait` seconds that raises
    /// `IndexStoreError` ("busy").
    #[pyo3(signature = (*, wait=0.0))]
    fn check<'py>(&self, py: Python<'py>, wait: f64) -> PyResult<Bound<'py, PyAny>> {
        let wait = wait_for(wait)?;
        let dir = self.dir.clone();
        let report = py.detach(move || match index::check::check(&dir, wait) {
            Ok(report) => Ok(report),
            Err(e) if store::is_busy(&e) => Err(e),
            Err(e) => Ok(index::check::CheckReport {
                problems: vec![e.to_string()],
                ..Default::default()
            }),
        });
        let report = report.map_err(py_err)?;
        let mut json = serde_json::to_value(&report).expect("reports serialize");
        json["ok"] = report.ok().into();
        convert::from_json(py, &json.to_string())
    }

    /// Keep what is intact, as `thresher index repair` does: `{"store_repaired": bool,
    /// "kept": n, "lost": ["document ID (key): what", ...]}`. Re-adding the batches that
    /// held the lost documents brings them back.
    fn repair<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let dir = self.dir.clone();
        let report = py.detach(move || guarded(&dir, || index::repair::repair(&dir)))?;
        convert::from_json(
            py,
            &serde_json::to_string(&report).expect("reports serialize"),
        )
    }

    fn __repr__(&self) -> String {
        format!("thresher.Index({:?})", self.dir.display().to_string())
    }
}
