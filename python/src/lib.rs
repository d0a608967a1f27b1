//! `thresher._native`: the Python binding of the thresher library. Thin: every function
//! converts its Python arguments, calls the library function the CLI calls for the same
//! job, and converts the answer back; nothing here decides about pages or documents.
//!
//! - `convert.rs`: Python values to options (`Config`), pages, JSON; errors to exceptions;
//! - `extract.rs`: `extract`, `extract_arrow`, `GroupExtractor`, `group_key`;
//! - `dedup.rs`: `dedup`, `sign`, `sign_arrow`;
//! - `index.rs`: `Index`;
//! - `site.rs`: `loadable`, `learning_sample`, `learning_contributions`, `SiteLearner`,
//!   `SiteModel` (a site's learning spread over tasks);
//! - `spark.rs`: `clusters_from_rows` (the Spark job's cluster records);
//! - `warc.rs`: `WarcReader` (a WARC file's pages as the CLI reads them).

use pyo3::prelude::*;

mod convert;
mod dedup;
mod extract;
mod index;
mod site;
mod spark;
mod warc;

/// The native module; `thresher/__init__.py` re-exports it.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("Error", py.get_type::<convert::Error>())?;
    m.add("ConfigError", py.get_type::<convert::ConfigError>())?;
    m.add("InputError", py.get_type::<convert::InputError>())?;
    m.add("OutputError", py.get_type::<convert::OutputError>())?;
    m.add("IndexStoreError", py.get_type::<convert::IndexStoreError>())?;
    m.add_function(wrap_pyfunction!(extract::extract, m)?)?;
    m.add_function(wrap_pyfunction!(extract::extract_arrow, m)?)?;
    m.add_function(wrap_pyfunction!(extract::group_key, m)?)?;
    m.add_function(wrap_pyfunction!(extract::record_schema, m)?)?;
    m.add_class::<extract::GroupExtractor>()?;
    m.add_function(wrap_pyfunction!(site::loadable, m)?)?;
    m.add_function(wrap_pyfunction!(site::learning_sample, m)?)?;
    m.add_function(wrap_pyfunction!(site::learning_contributions, m)?)?;
    m.add_class::<site::SiteLearner>()?;
    m.add_class::<site::SiteModel>()?;
    m.add_function(wrap_pyfunction!(dedup::dedup, m)?)?;
    m.add_function(wrap_pyfunction!(dedup::sign_arrow, m)?)?;
    m.add_class::<index::Index>()?;
    m.add_function(wrap_pyfunction!(spark::clusters_from_rows, m)?)?;
    m.add_class::<warc::WarcReader>()?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
