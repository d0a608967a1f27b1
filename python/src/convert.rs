//! Conversions between Python and the library: keyword options to a `Config` (the keys of
//! a `--config` YAML file), a page's arguments to a `Page`, JSON text to Python objects,
//! library errors to the `thresher.Error` exceptions (with the CLI's messages), and the
//! thread pool the parallel calls run on.

use std::sync::OnceLock;

use chrono::{DateTime, Utc};
use pyo3::create_exception;
use pyo3::exceptions::PyException;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};
use thresher::config::Config;
use thresher::page::Page;

create_exception!(
    thresher,
    Error,
    PyException,
    "Base class of thresher's errors; the message is the CLI's."
);
create_exception!(
    thresher,
    ConfigError,
    Error,
    "An option or configuration value that is not acceptable (unknown key, bad value)."
);
create_exception!(
    thresher,
    InputError,
    Error,
    "Input that cannot be read: a file, a line of records, a WARC record, a page's fields."
);
create_exception!(
    thresher,
    OutputError,
    Error,
    "An output that cannot be written."
);
create_exception!(
    thresher,
    IndexStoreError,
    Error,
    "A persistent dedup index that cannot be used as it is (damaged, in use, other options)."
);

/// The exception of a library error: its kind's class, the CLI's message.
pub fn py_err(e: thresher::Error) -> PyErr {
    use thresher::Error as E;
    let message = e.to_string();
    match e {
        E::Config(_) | E::ConfigFile { .. } => ConfigError::new_err(message),
        E::Index { .. } => IndexStoreError::new_err(message),
        E::Output { .. } => OutputError::new_err(message),
        E::Io { .. } | E::BadLine { .. } | E::Warc { .. } | E::TooManyErrors { .. } => {
            InputError::new_err(message)
        }
    }
}

/// A Python value (dict, list, str, int, float, bool, None, path) as JSON.
pub fn to_json(value: &Bound<'_, PyAny>) -> PyResult<serde_json::Value> {
    use serde_json::Value;
    if value.is_none() {
        return Ok(Value::Null);
    }
    if let Ok(b) = value.cast::<PyBool>() {
        return Ok(Value::Bool(b.is_true()));
    }
    if value.is_instance_of::<PyInt>() {
        if let Ok(i) = value.extract::<i64>() {
            return Ok(Value::from(i));
        }
        return Ok(Value::from(value.extract::<u64>()?));
    }
    if value.is_instance_of::<PyFloat>() {
        let f: f64 = value.extract()?;
        return serde_json::Number::from_f64(f)
            .map(Value::Number)
            .ok_or_else(|| ConfigError::new_err(format!("options: {f} is not a finite number")));
    }
    if let Ok(s) = value.cast::<PyString>() {
        return Ok(Value::String(s.to_cow()?.to_string()));
    }
    if let Ok(d) = value.cast::<PyDict>() {
        let mut map = serde_json::Map::new();
        for (k, v) in d.iter() {
            let key: String = k
                .extract()
                .map_err(|_| ConfigError::new_err(format!("options: key {k} is not a string")))?;
            map.insert(key, to_json(&v)?);
        }
        return Ok(Value::Object(map));
    }
    if value.is_instance_of::<PyList>() || value.is_instance_of::<PyTuple>() {
        let items: PyResult<Vec<Value>> = value.try_iter()?.map(|v| to_json(&v?)).collect();
        return Ok(Value::Array(items?));
    }
    if value.hasattr("__fspath__")? {
        let os = value.py().import("os")?;
        return to_json(&os.call_method1("fspath", (value,))?);
    }
    Err(ConfigError::new_err(format!(
        "options: a {} cannot be an option value",
        value.get_type().name()?
    )))
}

/// JSON text (a record, a cluster) as Python objects, by the standard `json` module.
pub fn from_json<'py>(py: Python<'py>, text: &str) -> PyResult<Bound<'py, PyAny>> {
    static LOADS: OnceLock<Py<PyAny>> = OnceLock::new();
    let loads = match LOADS.get() {
        Some(f) => f.bind(py).clone(),
        None => {
            let f = py.import("json")?.getattr("loads")?;
            let _ = LOADS.set(f.clone().unbind());
            f
        }
    };
    loads.call1((text,))
}

/// The options of a call that are not `Config` keys but the CLI's flags of the same name.
#[derive(Default)]
pub struct Flags {
    /// `--rules DIR`.
    pub rules: Option<std::path::PathBuf>,
    /// `--strict`.
    pub strict: bool,
}

/// Keyword options as the run's configuration: `Config` keys (those of a `--config`
/// YAML file, nested sections as dicts) over the defaults, plus the flags `rules` and
/// `strict`. `group_depth` also takes the CLI's `--group-depth` spelling (`"parent"` or a
/// number). Unknown keys are a `ConfigError` with the configuration's message.
pub fn options(kwargs: Option<&Bound<'_, PyDict>>) -> PyResult<(Config, Flags)> {
    let mut flags = Flags::default();
    let mut map = serde_json::Map::new();
    if let Some(kwargs) = kwargs {
        for (k, v) in kwargs.iter() {
            let key: String = k.extract()?;
            match key.as_str() {
                "rules" if !v.is_none() => {
                    flags.rules = Some(v.extract::<std::path::PathBuf>()?);
                }
                "rules" => {}
                "strict" => flags.strict = v.is_truthy()?,
                "group_depth" if v.is_instance_of::<PyString>() || v.is_instance_of::<PyInt>() => {
                    let depth: thresher::group::GroupDepth =
                        v.str()?.to_cow()?.parse().map_err(|e: String| {
                            ConfigError::new_err(format!("configuration: {e}"))
                        })?;
                    map.insert(key, serde_json::to_value(depth).expect("serializable"));
                }
                _ => {
                    map.insert(key, to_json(&v)?);
                }
            }
        }
    }
    let config = Config::from_options(serde_json::Value::Object(map)).map_err(py_err)?;
    Ok((config, flags))
}

/// `fetched_at` given as an RFC 3339 string or a `datetime` (naive ones are UTC).
pub fn fetched_at(value: Option<&Bound<'_, PyAny>>) -> PyResult<Option<DateTime<Utc>>> {
    let Some(value) = value.filter(|v| !v.is_none()) else {
        return Ok(None);
    };
    let text: String = if value.is_instance_of::<PyString>() {
        value.extract()?
    } else if value.hasattr("isoformat")? {
        let iso: String = value.call_method0("isoformat")?.extract()?;
        let naive = value.getattr("tzinfo").map(|t| t.is_none()).unwrap_or(true);
        if naive {
            format!("{iso}+00:00")
        } else {
            iso
        }
    } else {
        return Err(InputError::new_err(
            "`fetched_at` must be an RFC 3339 string or a datetime",
        ));
    };
    DateTime::parse_from_rfc3339(text.trim())
        .map(|t| Some(t.with_timezone(&Utc)))
        .map_err(|e| InputError::new_err(format!("`fetched_at` {text:?}: {e}")))
}

/// A page's HTML given as bytes or str.
pub fn html_bytes(html: &Bound<'_, PyAny>) -> PyResult<Vec<u8>> {
    if let Ok(s) = html.cast::<PyString>() {
        return Ok(s.to_cow()?.as_bytes().to_vec());
    }
    html.extract::<Vec<u8>>()
        .map_err(|_| pyo3::exceptions::PyTypeError::new_err("`html` must be bytes or str"))
}

/// One page from a call's arguments. `path` defaults to the URL (the record's key for
/// `dedup`), the URL to the empty string.
#[allow(clippy::too_many_arguments)] // the page's fields, as the Python signature names them
pub fn page(
    html: &Bound<'_, PyAny>,
    url: Option<String>,
    path: Option<String>,
    fetched_at_value: Option<&Bound<'_, PyAny>>,
    popularity: Option<f64>,
    content_type: Option<String>,
) -> PyResult<Page> {
    let url = url.unwrap_or_default();
    Ok(Page {
        path: path.unwrap_or_else(|| url.clone()),
        fetched_at: fetched_at(fetched_at_value)?,
        popularity: popularity.unwrap_or(0.0),
        content_type,
        body: html_bytes(html)?,
        url,
        cut: false,
        warc_file: None,
    })
}

/// The thread pool of the parallel calls: `threads` workers (all cores when `None`), with
/// the CLI's 16 MB stacks. The all-cores pool is built once.
pub fn with_pool<T: Send>(threads: Option<usize>, f: impl FnOnce() -> T + Send) -> PyResult<T> {
    static POOL: OnceLock<rayon::ThreadPool> = OnceLock::new();
    let build = |n: Option<usize>| {
        let mut b = rayon::ThreadPoolBuilder::new().stack_size(16 << 20);
        if let Some(n) = n {
            b = b.num_threads(n);
        }
        b.build()
            .map_err(|e| ConfigError::new_err(format!("thread pool: {e}")))
    };
    match threads {
        Some(n) => Ok(build(Some(n))?.install(f)),
        None => {
            if POOL.get().is_none() {
                let _ = POOL.set(build(None)?);
            }
            Ok(POOL.get().expect("set above").install(f))
        }
    }
}
