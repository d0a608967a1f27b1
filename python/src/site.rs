//! A site's cross-page learning spread over many tasks (the Spark job,
//! `spark/thresher_spark/pages.py`), in the steps of `thresher extract`'s learning pass
//! (`pipeline::site_learning`): `loadable` (the rows that are pages), `learning_sample`
//! (which pages the pass parses, from URLs alone), `learning_contributions` (what a
//! sampled page gives the learners), `SiteLearner` (the learned state as bytes) and
//! `SiteModel` (pages extracted with a learned state, without the site's other pages).

use std::sync::Arc;

use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList};
use rayon::prelude::*;
use thresher::config::Config;
use thresher::extract::{rules, Cascade};
use thresher::pipeline::{self, Contribution, SiteState};

use crate::convert::{self, py_err};
use crate::extract::{arrow_batches, arrow_pages, jobs, results_table};

/// For each row of an Arrow `RecordBatch` or `Table` of pages (columns as for
/// `extract_arrow()`), whether it is a page (`True`) or gives an error record (no `url`,
/// empty `html`, bad `fetched_at`, ...): only pages count for the learning pass.
#[pyfunction]
#[pyo3(signature = (batch, **options))]
pub fn loadable(
    batch: &Bound<'_, PyAny>,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<Vec<bool>> {
    let (config, _) = convert::options(options)?;
    let batches = arrow_batches(batch)?;
    Ok(arrow_pages(&batches, 0, &config)?
        .iter()
        .map(Result::is_ok)
        .collect())
}

/// For each URL of `urls` (the URLs of every page of a site, duplicates included, as
/// `loadable()` tells pages), whether the cross-page learning pass parses its page; the
/// other pages are only counted. It depends on the URLs alone: per URL prefix with enough
/// pages, the sample of smallest URL hash. `options` as for `extract()` (the cross-page
/// method and its `sample_pages`, `min_group_pages`).
#[pyfunction]
#[pyo3(signature = (urls, **options))]
pub fn learning_sample(
    urls: Vec<String>,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<Vec<bool>> {
    let (config, _) = convert::options(options)?;
    let chosen = pipeline::learning_sample(urls.iter().map(String::as_str), &config);
    Ok(urls.iter().map(|u| chosen.contains(u.as_str())).collect())
}

/// What each page of an Arrow `RecordBatch` or `Table` (columns as for `extract_arrow()`)
/// gives the cross-page learners, as bytes for `SiteLearner.add()`; `None` for a row that
/// is not a page or cannot be decoded and parsed (the learning pass leaves it out). Pages
/// are parsed on `threads` threads (default: all cores) with the GIL released.
#[pyfunction]
#[pyo3(signature = (batch, *, threads=None, **options))]
pub fn learning_contributions<'py>(
    py: Python<'py>,
    batch: &Bound<'py, PyAny>,
    threads: Option<usize>,
    options: Option<&Bound<'py, PyDict>>,
) -> PyResult<Bound<'py, PyList>> {
    let (config, _) = convert::options(options)?;
    let batches = arrow_batches(batch)?;
    let pages = arrow_pages(&batches, 0, &config)?;
    drop(batches);
    let out: Vec<Option<Vec<u8>>> = py.detach(|| {
        convert::with_pool(threads, || {
            pages
                .par_iter()
                .map(|p| {
                    let page = p.as_ref().ok()?;
                    Contribution::of(page, &config).ok().map(|c| c.to_bytes())
                })
                .collect()
        })
    })?;
    let list = PyList::empty(py);
    for c in out {
        match c {
            Some(bytes) => list.append(PyBytes::new(py, &bytes))?,
            None => list.append(py.None())?,
        }
    }
    Ok(list)
}

/// The cross-page learners of one site: `count()` the URLs of its pages that
/// `learning_sample()` left out, `add()` the sampled pages' contributions (in any order,
/// from any number of tasks), then `state()` learns the templates and models as bytes
/// for `SiteModel`. The same models as `GroupExtractor` learns from all the site's pages.
/// `options` as for `extract()`.
#[pyclass(module = "thresher")]
pub struct SiteLearner {
    config: Config,
    learner: Option<pipeline::SiteLearner>,
}

impl SiteLearner {
    fn learner(&mut self) -> PyResult<&mut pipeline::SiteLearner> {
        self.learner.as_mut().ok_or_else(|| {
            convert::ConfigError::new_err("SiteLearner: state() was called; make a new one")
        })
    }
}

#[pymethods]
impl SiteLearner {
    #[new]
    #[pyo3(signature = (**options))]
    fn new(options: Option<&Bound<'_, PyDict>>) -> PyResult<Self> {
        let (config, _) = convert::options(options)?;
        let learner = Some(pipeline::SiteLearner::new(&config));
        Ok(SiteLearner { config, learner })
    }

    /// Count pages that no sample needs, by URL.
    fn count(&mut self, urls: Vec<String>) -> PyResult<()> {
        let learner = self.learner()?;
        for u in &urls {
            learner.count(u);
        }
        Ok(())
    }

    /// Add sampled pages: their URLs and `learning_contributions()` bytes (a `None` is
    /// skipped: a page that could not be parsed).
    fn add(
        &mut self,
        urls: Vec<String>,
        contributions: Vec<Option<Bound<'_, PyBytes>>>,
    ) -> PyResult<()> {
        if urls.len() != contributions.len() {
            return Err(convert::InputError::new_err(format!(
                "SiteLearner.add: {} URLs, {} contributions",
                urls.len(),
                contributions.len()
            )));
        }
        let learner = self.learner()?;
        for (u, c) in urls.iter().zip(contributions) {
            if let Some(bytes) = c {
                learner.add(
                    u,
                    Contribution::from_bytes(bytes.as_bytes()).map_err(py_err)?,
                );
            }
        }
        Ok(())
    }

    /// Learn from what was added and counted: the site's state as bytes (JSON) for
    /// `SiteModel`. The learner is spent afterwards.
    fn state<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        let learner = self.learner.take().ok_or_else(|| {
            convert::ConfigError::new_err("SiteLearner: state() was called already")
        })?;
        let config = self.config.clone();
        let bytes = py.detach(move || learner.learn(&config).to_bytes());
        Ok(PyBytes::new(py, &bytes))
    }
}

/// Extraction of a site's pages with a learned state (`SiteLearner.state()`), any subset
/// of them at a time: each record is the one `GroupExtractor` (and `thresher extract`)
/// gives that page among all the site's pages. `options` as for `extract()`, the same as
/// the state was learned with (a state of another cross-page method raises `ConfigError`).
#[pyclass(module = "thresher")]
pub struct SiteModel {
    engine: Arc<(Config, Cascade)>,
}

#[pymethods]
impl SiteModel {
    #[new]
    #[pyo3(signature = (state, **options))]
    fn new(py: Python<'_>, state: &[u8], options: Option<&Bound<'_, PyDict>>) -> PyResult<Self> {
        let (config, flags) = convert::options(options)?;
        let state = SiteState::from_bytes(state).map_err(py_err)?;
        let engine = py
            .detach(|| -> thresher::Result<(Config, Cascade)> {
                let front =
                    rules::front(flags.rules.as_deref(), flags.strict, config.xpath_budget)?;
                let cascade = pipeline::cascade_from_state(state, &config, front)?;
                Ok((config, cascade))
            })
            .map_err(py_err)?;
        Ok(SiteModel {
            engine: Arc::new(engine),
        })
    }

    /// The records of the pages of an Arrow `RecordBatch` or `Table` (columns as for
    /// `extract_arrow()`), row for row, as a `pyarrow.Table` (`record_schema()`); bad rows
    /// give error records. On `threads` threads (default: all cores), GIL released.
    #[pyo3(signature = (batch, *, threads=None))]
    fn extract_arrow<'py>(
        &self,
        py: Python<'py>,
        batch: &Bound<'py, PyAny>,
        threads: Option<usize>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let (config, _) = &*self.engine;
        let batches = arrow_batches(batch)?;
        let pages = arrow_pages(&batches, 0, config)?;
        drop(batches);
        let format = config.output_format;
        let engine = self.engine.clone();
        let results = py.detach(move || {
            convert::with_pool(threads, move || {
                let (config, cascade) = &*engine;
                pipeline::page_records(jobs(pages), cascade, config)
            })
        })?;
        results_table(py, &results, format)
    }
}
