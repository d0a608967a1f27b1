//! Extraction from Python: one page (`extract`), the rows of an Arrow batch or table
//! (`extract_arrow`, on the thread pool with the GIL released), a group of pages that the
//! cross-page methods learn from (`GroupExtractor`), and the group key. Each calls the
//! library function `thresher extract` calls: `pipeline::page_record` for a page,
//! `pipeline::page_records` for pages in input order, `pipeline::build_cascade_for_pages`
//! for a group's learning pass.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use arrow_array::RecordBatch;
use arrow_pyarrow::{FromPyArrow, IntoPyArrow, ToPyArrow};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use thresher::config::Config;
use thresher::extract::{rules, Cascade};
use thresher::page::{Page, PageError};
use thresher::parquet_io::records::{page_record_schema_for, page_records_batch_for};
use thresher::pipeline::{self, PageResult, RecordOut};
use thresher::render::OutputFormat;
use thresher::source::PageJob;

use crate::convert::{self, py_err, Flags};

/// The cascade for pages extracted each on its own (no other page to learn from): the
/// rule files' extractors, the cross-page step with nothing learned, the heuristic.
fn lone_page_cascade(config: &Config, flags: &Flags) -> thresher::Result<Cascade> {
    let front = rules::front(flags.rules.as_deref(), flags.strict, config.xpath_budget)?;
    Ok(pipeline::build_cascade_for_pages(&[], config, front, None)?.0)
}

/// Cascades for pages alone, by configuration, reused across calls (building one clones
/// the configuration; rule files are read again on every call, as each CLI run does).
fn lone_page_engine(config: Config, flags: &Flags) -> PyResult<Arc<(Config, Cascade)>> {
    static CACHE: Mutex<Option<HashMap<String, Arc<(Config, Cascade)>>>> = Mutex::new(None);
    if flags.rules.is_some() {
        let cascade = lone_page_cascade(&config, flags).map_err(py_err)?;
        return Ok(Arc::new((config, cascade)));
    }
    let key = serde_json::to_string(&config).expect("configurations serialize");
    let mut cache = CACHE.lock().unwrap_or_else(|e| e.into_inner());
    let cache = cache.get_or_insert_with(HashMap::new);
    if let Some(engine) = cache.get(&key) {
        return Ok(engine.clone());
    }
    if cache.len() >= 16 {
        cache.clear();
    }
    let cascade = lone_page_cascade(&config, flags).map_err(py_err)?;
    let engine = Arc::new((config, cascade));
    cache.insert(key, engine.clone());
    Ok(engine)
}

/// The record `thresher extract` writes for this page, as a dict (the same fields and
/// values as its JSON line): `path`, `url`, `group`, `title`, `text`, `method`, ...,
/// `boilerplate_ratio`, `charset` and the metadata (`published`, `lang`, ...). A page that
/// cannot be extracted (empty, binary) gives the CLI's error record: `path`, `url`,
/// `error`, `error_kind`.
///
/// `html` is bytes (decoded as the CLI decodes files: BOM, `content_type`'s charset,
/// `<meta>`, UTF-8, detection) or str. `path` (default: the URL) is the record's key.
/// `fetched_at` is an RFC 3339 string or a datetime (naive: UTC). `options` are the keys of
/// a `--config` YAML file (`cross_page="none"`, `with_title=True`,
/// `heuristic={"include_comments": True}`, `group_depth=2`, ...) plus `rules=DIR` and
/// `strict=True` (`--rules`, `--strict`); an unknown key raises `ConfigError`. With
/// `output_format="markdown"` (or `"html"`; `output_links=True`, `output_images=True` as
/// `--links`, `--images`) the record carries `markdown` (or `html`) beside `text`.
///
/// The page is extracted alone: the cross-page methods learn nothing from one page (use
/// `GroupExtractor` for a group of pages).
#[pyfunction]
#[pyo3(signature = (html, url=None, *, fetched_at=None, popularity=None, path=None, content_type=None, **options))]
#[allow(clippy::too_many_arguments)] // the Python signature
pub fn extract<'py>(
    py: Python<'py>,
    html: &Bound<'py, PyAny>,
    url: Option<String>,
    fetched_at: Option<&Bound<'py, PyAny>>,
    popularity: Option<f64>,
    path: Option<String>,
    content_type: Option<String>,
    options: Option<&Bound<'py, PyDict>>,
) -> PyResult<Bound<'py, PyAny>> {
    let (config, flags) = convert::options(options)?;
    // `page_record` cuts the body at `max_page_bytes`, as the CLI's readers do.
    let page = convert::page(html, url, path, fetched_at, popularity, content_type)?;
    let engine = lone_page_engine(config, &flags)?;
    let json = py.detach(move || {
        let (config, cascade) = &*engine;
        pipeline::record_json(&pipeline::page_record(page, cascade, config))
    });
    convert::from_json(py, &json)
}

/// The record batches of a `pyarrow.RecordBatch`, `Table`, `RecordBatchReader` or any
/// object of the Arrow PyCapsule interface, through the Arrow C data interface.
pub fn arrow_batches(data: &Bound<'_, PyAny>) -> PyResult<Vec<RecordBatch>> {
    if data.hasattr("__arrow_c_stream__")? {
        let table = arrow_pyarrow::Table::from_pyarrow_bound(data)?;
        return Ok(table.into_inner().0);
    }
    Ok(vec![RecordBatch::from_pyarrow_bound(data)?])
}

/// The pages of Arrow batches (rows counted across them), or a `ConfigError` for a batch
/// without `url` or `html`.
pub fn arrow_pages(
    batches: &[RecordBatch],
    first_row: usize,
    config: &Config,
) -> PyResult<Vec<Result<Page, PageError>>> {
    let mut pages = Vec::new();
    for batch in batches {
        let rows = pipeline::batch_pages(batch, first_row + pages.len(), "batch", config)
            .map_err(py_err)?;
        pages.extend(rows);
    }
    Ok(pages)
}

pub fn jobs(pages: Vec<Result<Page, PageError>>) -> Vec<PageJob> {
    pages
        .into_iter()
        .map(|p| match p {
            Ok(page) => PageJob::Loaded(page),
            Err(e) => PageJob::Failed(e),
        })
        .collect()
}

/// Results as a `pyarrow.Table` of the record schema of `format` (`markdown` or `html`
/// after `text` when records carry it).
pub fn results_table<'py>(
    py: Python<'py>,
    results: &[PageResult],
    format: OutputFormat,
) -> PyResult<Bound<'py, PyAny>> {
    let out: Vec<RecordOut> = results.iter().map(RecordOut::from).collect();
    let batch = page_records_batch_for(&out, format).map_err(py_err)?;
    let table = arrow_pyarrow::Table::try_new(vec![batch], page_record_schema_for(format))
        .map_err(|e| convert::OutputError::new_err(e.to_string()))?;
    table.into_pyarrow(py)
}

/// Extract the pages of an Arrow `RecordBatch` or `Table` (columns `url`, `html` as string
/// or binary; optional `path`, `fetched_at` as RFC 3339 string or timestamp, `popularity`,
/// `content_type`) into a `pyarrow.Table` of records (`record_schema()`), row for row. The
/// data crosses through the Arrow C data interface (no Python object per row) and the
/// pages are extracted on `threads` threads (default: all cores) with the GIL released.
///
/// Each row gives what `extract()` gives for that page alone. A bad row (no `url`, empty
/// `html`, bad `fetched_at`, undecodable page) gives an error record in its place (`error`,
/// `error_kind` set, as the CLI writes); only a batch without a `url` or `html` column
/// raises (`ConfigError`). `options` as for `extract()`.
#[pyfunction]
#[pyo3(signature = (batch, *, threads=None, **options))]
pub fn extract_arrow<'py>(
    py: Python<'py>,
    batch: &Bound<'py, PyAny>,
    threads: Option<usize>,
    options: Option<&Bound<'py, PyDict>>,
) -> PyResult<Bound<'py, PyAny>> {
    let (config, flags) = convert::options(options)?;
    let batches = arrow_batches(batch)?;
    let pages = arrow_pages(&batches, 0, &config)?;
    drop(batches);
    let format = config.output_format;
    let engine = lone_page_engine(config, &flags)?;
    let results = py.detach(move || {
        convert::with_pool(threads, move || {
            let (config, cascade) = &*engine;
            pipeline::page_records(jobs(pages), cascade, config)
        })
    })?;
    results_table(py, &results, format)
}

/// The `pyarrow.Schema` of the record tables (`extract_arrow`, `GroupExtractor.extract_arrow`):
/// every field a record or an error record has, all nullable; with `output_format`
/// `"markdown"` or `"html"`, that field after `text`.
#[pyfunction]
#[pyo3(signature = (output_format="text"))]
pub fn record_schema<'py>(py: Python<'py>, output_format: &str) -> PyResult<Bound<'py, PyAny>> {
    let format: OutputFormat = output_format
        .parse()
        .map_err(|e: String| convert::ConfigError::new_err(format!("configuration: {e}")))?;
    page_record_schema_for(format).to_pyarrow(py)
}

/// The URL-prefix group of a page, as in its record's `group` (`host/dir1/dir2/`; scheme,
/// query, fragment and `www.` left out). `depth` is the CLI's `--group-depth`: `"parent"`
/// (up to the last path segment) or a number of directories (0: the host alone). The
/// cross-page methods learn from every prefix of a URL, down to the host, so a
/// `GroupExtractor` answers as the CLI for pages grouped by `group_key(url, 0)`.
#[pyfunction]
#[pyo3(signature = (url, depth=None))]
pub fn group_key(url: &str, depth: Option<&Bound<'_, PyAny>>) -> PyResult<String> {
    let depth =
        match depth {
            None => thresher::group::GroupDepth::Parent,
            Some(d) => d.str()?.to_cow()?.parse().map_err(|e: String| {
                convert::ConfigError::new_err(format!("configuration: {e}"))
            })?,
        };
    Ok(thresher::group::group_key(url, depth))
}

/// Extraction of a group of pages with the cross-page methods (Infholder,
/// style-inbreeding): add the group's pages (`add`, `add_arrow`), then `extract()` learns
/// from them, as `thresher extract` learns from its inputs, and extracts each page. The
/// records are those `thresher extract` writes when these pages are its input (for pages
/// of one site, the same as in a larger run: learning is per URL prefix, see `group_key`).
/// `options` as for `extract()`.
#[pyclass(module = "thresher")]
pub struct GroupExtractor {
    config: Config,
    flags: Flags,
    pages: Vec<Result<Page, PageError>>,
}

#[pymethods]
impl GroupExtractor {
    #[new]
    #[pyo3(signature = (**options))]
    fn new(options: Option<&Bound<'_, PyDict>>) -> PyResult<Self> {
        let (config, flags) = convert::options(options)?;
        Ok(GroupExtractor {
            config,
            flags,
            pages: Vec::new(),
        })
    }

    /// Add one page to the group (arguments as for `extract()`).
    #[pyo3(signature = (html, url=None, *, fetched_at=None, popularity=None, path=None, content_type=None))]
    #[allow(clippy::too_many_arguments)] // the Python signature
    fn add(
        &mut self,
        html: &Bound<'_, PyAny>,
        url: Option<String>,
        fetched_at: Option<&Bound<'_, PyAny>>,
        popularity: Option<f64>,
        path: Option<String>,
        content_type: Option<String>,
    ) -> PyResult<()> {
        let mut page = convert::page(html, url, path, fetched_at, popularity, content_type)?;
        page.cut_to(self.config.max_page_bytes);
        self.pages.push(Ok(page));
        Ok(())
    }

    /// Add the pages of an Arrow `RecordBatch` or `Table` (columns as for
    /// `extract_arrow()`); a bad row is kept as an error record.
    fn add_arrow(&mut self, batch: &Bound<'_, PyAny>) -> PyResult<()> {
        let batches = arrow_batches(batch)?;
        let pages = arrow_pages(&batches, self.pages.len(), &self.config)?;
        self.pages.extend(pages);
        Ok(())
    }

    /// Pages added so far.
    fn __len__(&self) -> usize {
        self.pages.len()
    }

    /// Forget the pages added, to start another group with the same options.
    fn clear(&mut self) {
        self.pages.clear();
    }

    /// Learn from the group's pages and extract them: a list of record dicts in the order
    /// the pages were added (error records for bad rows and pages).
    #[pyo3(signature = (*, threads=None))]
    fn extract<'py>(
        &self,
        py: Python<'py>,
        threads: Option<usize>,
    ) -> PyResult<Bound<'py, PyList>> {
        let results = self.run(py, threads)?;
        let list = PyList::empty(py);
        for r in &results {
            list.append(convert::from_json(py, &pipeline::record_json(r))?)?;
        }
        Ok(list)
    }

    /// As `extract()`, the records as a `pyarrow.Table` (`record_schema()`).
    #[pyo3(signature = (*, threads=None))]
    fn extract_arrow<'py>(
        &self,
        py: Python<'py>,
        threads: Option<usize>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let results = self.run(py, threads)?;
        results_table(py, &results, self.config.output_format)
    }
}

impl GroupExtractor {
    /// The learning pass over the group's pages, then every page extracted in order.
    fn run(&self, py: Python<'_>, threads: Option<usize>) -> PyResult<Vec<PageResult>> {
        let config = self.config.clone();
        let rules = self.flags.rules.clone();
        let strict = self.flags.strict;
        let pages = self.pages.clone();
        py.detach(move || {
            convert::with_pool(threads, move || -> thresher::Result<Vec<PageResult>> {
                let loaded: Vec<Page> = pages
                    .iter()
                    .filter_map(|p| p.as_ref().ok().cloned())
                    .collect();
                let front = rules::front(rules.as_deref(), strict, config.xpath_budget)?;
                let (cascade, _) =
                    pipeline::build_cascade_for_pages(&loaded, &config, front, None)?;
                drop(loaded);
                Ok(pipeline::page_records(jobs(pages), &cascade, &config))
            })
        })?
        .map_err(py_err)
    }
}
