//! Writing outputs: opening a file (or stdout), one JSON value a line, flushing with the
//! file named in the error, the stderr line of a failed page, and how numbers are rounded
//! when written.

use std::io::Write;
use std::path::Path;

use serde::Serialize;

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

/// Open an output file (or stdout for `-`), creating parent directories.
pub fn open_output(path: Option<&Path>) -> Result<Box<dyn Write>> {
    match path {
        None => Ok(Box::new(std::io::BufWriter::new(std::io::stdout()))),
        Some(p) if p == Path::new("-") => Ok(Box::new(std::io::BufWriter::new(std::io::stdout()))),
        Some(p) => {
            if let Some(dir) = p.parent().filter(|d| !d.as_os_str().is_empty()) {
                std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
            }
            let f = std::fs::File::create(p).map_err(|e| Error::io(p, e))?;
            Ok(Box::new(std::io::BufWriter::with_capacity(1 << 16, f)))
        }
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
