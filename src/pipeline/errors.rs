//! The run's per-record errors: each bad record (a page, a WARC record, a manifest or
//! JSONL line) costs that record only. It becomes one line on stderr naming the file and
//! line (or WARC record, or URL), one JSON line in `errors.jsonl`, and a count by kind;
//! the run goes on unless `--max-errors N` says to stop at the Nth.
//!
//! Where `errors.jsonl` goes: `run` → `OUT/errors.jsonl`; `extract`/`dedup -o FILE.jsonl`
//! → `FILE.errors.jsonl` beside it; stdout → none; `--errors FILE` overrides all three.
//! It is written atomically and always (empty when nothing failed), so an old run's file
//! never passes for this run's.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};

use crate::atomic_file::AtomicFile;
use crate::error::{Error, Result};
use crate::page::{ErrorRecord, PageError};

use super::output::{print_page_error, write_json};

/// Collects the run's per-record errors (see the module comment).
pub struct ErrorLog {
    file: Option<AtomicFile>,
    max: Option<usize>,
    count: usize,
    by_kind: BTreeMap<&'static str, usize>,
}

impl ErrorLog {
    /// A log writing `errors.jsonl` at `path` (none: stderr only), stopping the run at
    /// the `max`th error.
    pub fn new(path: Option<&Path>, max: Option<usize>) -> Result<ErrorLog> {
        Ok(ErrorLog {
            file: path.map(AtomicFile::create).transpose()?,
            max,
            count: 0,
            by_kind: BTreeMap::new(),
        })
    }

    /// A log that only prints (tests, library callers).
    pub fn stderr_only() -> ErrorLog {
        ErrorLog {
            file: None,
            max: None,
            count: 0,
            by_kind: BTreeMap::new(),
        }
    }

    /// Report one failed record. `Err` when `--max-errors` is reached: the caller stops.
    pub fn record(&mut self, e: &PageError) -> Result<()> {
        print_page_error(e);
        self.count += 1;
        *self.by_kind.entry(e.kind.as_str()).or_default() += 1;
        if let Some(f) = self.file.as_mut() {
            let path = f.path().to_owned();
            write_json(f, &ErrorRecord::from(e), &path)?;
        }
        match self.max {
            Some(limit) if self.count >= limit => Err(Error::TooManyErrors { limit }),
            _ => Ok(()),
        }
    }

    /// Errors so far.
    pub fn count(&self) -> usize {
        self.count
    }

    /// Errors so far by kind (`summary.json`'s `errors`).
    pub fn by_kind(&self) -> &BTreeMap<&'static str, usize> {
        &self.by_kind
    }

    /// Write `errors.jsonl` under its name (also after the run stopped at `--max-errors`).
    pub fn finish(mut self) -> Result<usize> {
        if let Some(mut f) = self.file.take() {
            f.flush().map_err(|e| Error::Output {
                path: f.path().to_owned(),
                source: e,
            })?;
            f.commit()?;
        }
        Ok(self.count)
    }
}

/// Where `errors.jsonl` goes for an output file `-o FILE` (see the module comment):
/// `out/pages.jsonl` → `out/pages.errors.jsonl`; stdout → none.
pub fn errors_path_beside(output: Option<&Path>) -> Option<PathBuf> {
    let out = output.filter(|p| *p != Path::new("-"))?;
    let name = out.file_name()?.to_string_lossy();
    let stem = name
        .strip_suffix(".jsonl.gz")
        .or_else(|| name.strip_suffix(".jsonl"))
        .or_else(|| name.strip_suffix(".json"))
        .unwrap_or(&name);
    Some(out.with_file_name(format!("{stem}.errors.jsonl")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::page::ErrorKind;

    fn err(n: usize) -> PageError {
        PageError {
            path: format!("in.jsonl:{n}"),
            url: String::new(),
            kind: ErrorKind::Json,
            message: "expected value".into(),
        }
    }

    #[test]
    fn errors_are_written_counted_and_stop_at_the_limit() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("errors.jsonl");
        let mut log = ErrorLog::new(Some(&path), Some(2)).unwrap();
        log.record(&err(1)).unwrap();
        assert!(matches!(
            log.record(&err(2)),
            Err(Error::TooManyErrors { limit: 2 })
        ));
        assert_eq!(log.by_kind().get("json"), Some(&2));
        assert!(!path.exists(), "not visible before finish");
        assert_eq!(log.finish().unwrap(), 2);
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(text.lines().count(), 2);
        assert!(text.contains("\"path\":\"in.jsonl:2\""), "{text}");
    }

    #[test]
    fn errors_file_goes_beside_the_output() {
        assert_eq!(
            errors_path_beside(Some(Path::new("out/wcxb.jsonl"))),
            Some(PathBuf::from("out/wcxb.errors.jsonl"))
        );
        assert_eq!(errors_path_beside(Some(Path::new("-"))), None);
        assert_eq!(errors_path_beside(None), None);
    }
}
