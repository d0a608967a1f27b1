//! One error type for the crate. Variants carry the file, line or URL they are about,
//! so that a message printed at the end of a long run still says where to look.

use std::path::PathBuf;

/// Everything that can go wrong in thresher.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// An I/O error on a named file.
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// A line of a JSONL input (manifest, extraction records) that could not be used.
    #[error("{path}:{line}: {message}")]
    BadLine {
        path: PathBuf,
        line: usize,
        message: String,
    },
    /// A record of a WARC file that could not be parsed.
    #[error("{path}: WARC record {record}: {message}")]
    Warc {
        path: PathBuf,
        record: usize,
        message: String,
    },
    /// A configuration file or command-line value that is not acceptable.
    #[error("configuration: {0}")]
    Config(String),
    /// A configuration file that does not parse, with its position.
    #[error("{path}: {source}")]
    ConfigFile {
        path: PathBuf,
        #[source]
        source: serde_norway::Error,
    },
    /// `--max-errors N`: the Nth failed record stopped the run.
    #[error("stopped after {limit} failed records (--max-errors {limit}); outputs not written, see errors.jsonl")]
    TooManyErrors { limit: usize },
    /// A persistent dedup index (`thresher index`) that cannot be used as it is: damaged,
    /// in use, or created with other options.
    #[error("index {path}: {message}")]
    Index { path: PathBuf, message: String },
    /// Writing an output failed.
    #[error("writing {path}: {source}")]
    Output {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

impl Error {
    pub(crate) fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        Error::Io {
            path: path.into(),
            source,
        }
    }
}

/// Crate-wide result type.
pub type Result<T, E = Error> = std::result::Result<T, E>;
