//! `--max-errors` and `--errors` (of `extract`, `run`, `dedup`) and the run's error log:
//! opened before the run, written out whatever the run's outcome.

use std::path::{Path, PathBuf};

use clap::Args;

use crate::error::Result;
use crate::pipeline::{self, ErrorLog};

/// What to do with failed records.
#[derive(Debug, Args)]
pub struct ErrorArgs {
    /// Stop the run at the Nth failed record (outputs are then not written; errors.jsonl
    /// is; exit 1).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    max_errors: Option<u64>,
    /// Where failed records go, one JSON line each (default: `run` → OUT/errors.jsonl;
    /// `-o FILE.jsonl` → FILE.errors.jsonl beside it; standard output → none).
    #[arg(long, value_name = "FILE")]
    errors: Option<PathBuf>,
}

impl ErrorArgs {
    /// The log for a run whose errors file is `default` unless `--errors` names one.
    pub fn open(&self, default: Option<PathBuf>) -> Result<ErrorLog> {
        let path = self.errors.clone().or(default);
        ErrorLog::new(path.as_deref(), self.max_errors.map(|m| m as usize))
    }

    /// The log for a command writing `-o output` (or stdout).
    pub fn beside(&self, output: Option<&Path>) -> Result<ErrorLog> {
        self.open(pipeline::errors_path_beside(output))
    }
}

/// Write errors.jsonl whatever the run's outcome (also when `--max-errors` stopped it),
/// then pass the outcome on.
pub fn finish<T>(log: ErrorLog, result: Result<T>) -> Result<T> {
    let finished = log.finish();
    let value = result?;
    finished?;
    Ok(value)
}

/// A run that read no record at all says so and fails (a directory of pages saved under
/// names the discovery did not recognise, an empty WARC): 1 to add to the failures.
pub fn no_pages(records: usize) -> usize {
    if records == 0 {
        eprintln!("error: no pages (records) found in the inputs");
        1
    } else {
        0
    }
}
