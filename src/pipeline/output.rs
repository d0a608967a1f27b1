//! Writing outputs: opening a file (atomically: a temporary name renamed when whole) or
//! stdout, one JSON value a line, flushing with the file named in the error, the stderr
//! line of a failed page, and how numbers are rounded when written.

use std::io::Write;
use std::path::Path;

use serde::Serialize;

use crate::atomic_file::AtomicFile;
use crate::error::{Error, Result};
use crate::page::PageError;

pub(super) fn print_page_error(e: &PageError) {
    eprintln!(
        "error: {}{}: {}",
        e.path,
        if e.url.is_empty() {
            String::new()
        } else {
            format!(" ({})", e.url)
        },
        e.message
    );
}

/// An output: standard output, or a file written atomically (temporary name, renamed
/// by [`Output::commit`]; see `crate::atomic_file`).
pub enum Output {
    Stdout(std::io::BufWriter<std::io::Stdout>),
    File(AtomicFile),
}

impl Output {
    /// Flush; a file is renamed to its final name. Not calling it leaves the old file.
    pub fn commit(self) -> Result<()> {
        match self {
            Output::Stdout(mut w) => w.flush().map_err(|e| Error::Output {
                path: "-".into(),
                source: e,
            }),
            Output::File(f) => f.commit(),
        }
    }
}

impl Write for Output {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        match self {
            Output::Stdout(w) => w.write(buf),
            Output::File(f) => f.write(buf),
        }
    }
    fn write_all(&mut self, buf: &[u8]) -> std::io::Result<()> {
        match self {
            Output::Stdout(w) => w.write_all(buf),
            Output::File(f) => f.write_all(buf),
        }
    }
    fn flush(&mut self) -> std::io::Result<()> {
        match self {
            Output::Stdout(w) => w.flush(),
            Output::File(f) => f.flush(),
        }
    }
}

/// Open an output file (or stdout for `-` or none), creating parent directories. A file
/// appears under its name only at [`Output::commit`].
pub fn open_output(path: Option<&Path>) -> Result<Output> {
    match path {
        None => Ok(Output::Stdout(std::io::BufWriter::new(std::io::stdout()))),
        Some(p) if p == Path::new("-") => {
            Ok(Output::Stdout(std::io::BufWriter::new(std::io::stdout())))
        }
        Some(p) => Ok(Output::File(AtomicFile::create(p)?)),
    }
}

pub(super) fn write_json(out: &mut dyn Write, value: &impl Serialize, path: &Path) -> Result<()> {
    serde_json::to_writer(&mut *out, value).map_err(|e| Error::Output {
        path: path.to_owned(),
        source: e.into(),
    })?;
    out.write_all(b"\n").map_err(|e| Error::Output {
        path: path.to_owned(),
        source: e,
    })
}

/// Flush `out`; a failure names `path`.
pub(super) fn flush_output(out: &mut dyn Write, path: &Path) -> Result<()> {
    out.flush().map_err(|e| Error::Output {
        path: path.to_owned(),
        source: e,
    })
}

/// Seconds as written (three decimals).
pub(super) fn round3(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}

/// Ratios and similarities as written (four decimals).
pub(super) fn round4(x: f64) -> f64 {
    (x * 10_000.0).round() / 10_000.0
}
