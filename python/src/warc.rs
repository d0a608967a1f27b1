//! `WarcReader`: the pages of a WARC file as the CLI reads them (the library's
//! `source::warc::WarcPages`: the same page names `FILE#N`, the same records skipped, the
//! same recovery after a damaged record), one row at a time, for the Spark job's readers.

use std::path::Path;

use chrono::SecondsFormat;
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use thresher::source::warc::WarcPages;
use thresher::source::PageJob;

/// One page row: (path, url, html, fetched_at, content_type, error).
type Row<'py> = (
    String,
    String,
    Option<Bound<'py, PyBytes>>,
    Option<String>,
    Option<String>,
    Option<String>,
);

/// The pages of one WARC file (`.warc` or `.warc.gz`), read lazily by the CLI's WARC
/// reader. Iterating gives `(path, url, html, fetched_at, content_type, error)` tuples:
/// `html` is the page's bytes (cut at `max_page_bytes`), `fetched_at` an RFC 3339 string;
/// a record that cannot be read is a row with `error` set and no `html`, and reading goes
/// on at the next record.
#[pyclass(unsendable)]
pub struct WarcReader {
    pages: Option<WarcPages>,
    opening_error: Option<(String, String)>,
}

#[pymethods]
impl WarcReader {
    #[new]
    #[pyo3(signature = (path, *, max_page_bytes=None))]
    fn new(path: String, max_page_bytes: Option<usize>) -> Self {
        let max = max_page_bytes.unwrap_or(thresher::extract::dom::DEFAULT_MAX_PAGE_BYTES);
        match WarcPages::open(Path::new(&path), max) {
            Ok(pages) => WarcReader {
                pages: Some(pages),
                opening_error: None,
            },
            Err(e) => WarcReader {
                pages: None,
                opening_error: Some((e.path, e.message)),
            },
        }
    }

    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__<'py>(&mut self, py: Python<'py>) -> Option<Row<'py>> {
        if let Some((path, message)) = self.opening_error.take() {
            return Some((path, String::new(), None, None, None, Some(message)));
        }
        let job = self.pages.as_mut()?.next()?;
        let shown = job.path().to_string();
        Some(match job {
            PageJob::Loaded(page) => (
                page.path,
                page.url,
                Some(PyBytes::new(py, &page.body)),
                page.fetched_at
                    .map(|t| t.to_rfc3339_opts(SecondsFormat::AutoSi, true)),
                page.content_type,
                None,
            ),
            PageJob::Failed(e) => (e.path, e.url, None, None, None, Some(e.message)),
            PageJob::File(_) => (
                shown,
                String::new(),
                None,
                None,
                None,
                Some("a file job inside a WARC file".to_string()),
            ),
        })
    }
}
