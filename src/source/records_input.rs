//! Opening a file of JSON records (`dedup`, `sign`, `index`, the manifest) as one stream
//! read once from its start: a regular file, a pipe, a FIFO, `/dev/stdin` or `-`
//! (standard input). What it holds is told by the bytes already read, never by
//! reopening the path (a pipe cannot be read twice): gzip's magic `1f 8b` → inflated as
//! it is read; Parquet's `PAR1` → its rows as JSON lines (a Parquet file read from a
//! pipe is held in memory: its footer is at the end); anything else → text lines. A
//! UTF-8 byte-order mark at the start of the text is dropped (editors on Windows write
//! one; it is no part of the first record).

use std::io::Read;
use std::path::Path;

use crate::error::{Error, Result};

/// What the first bytes of a records file say it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Plain,
    Gzip,
    Parquet,
}

/// An input opened and its first bytes read.
pub struct Opened {
    /// The first bytes (up to 4; fewer only at the end of the input).
    head: Vec<u8>,
    /// The bytes after `head`.
    rest: Box<dyn Read + Send>,
    /// The file itself when it is a regular file (Parquet is read from it by position).
    file: Option<std::fs::File>,
    pub format: Format,
}

/// `true` for the name of standard input.
pub fn is_stdin(path: &Path) -> bool {
    path == Path::new("-")
}

/// Whether `path` can be read a second time from its start (a regular file; not a pipe,
/// a FIFO, a device or `-`).
pub fn rereadable(path: &Path) -> bool {
    !is_stdin(path) && std::fs::metadata(path).is_ok_and(|m| m.is_file())
}

/// Open `path` (`-`: standard input) and read its first bytes.
pub fn open(path: &Path) -> Result<Opened> {
    let (mut rest, file): (Box<dyn Read + Send>, Option<std::fs::File>) = if is_stdin(path) {
        (Box::new(std::io::stdin()), None)
    } else {
        let f = std::fs::File::open(path).map_err(|e| Error::io(path, e))?;
        let regular = f.metadata().map_err(|e| Error::io(path, e))?.is_file();
        if regular {
            let again = f.try_clone().map_err(|e| Error::io(path, e))?;
            (Box::new(f), Some(again))
        } else {
            (Box::new(f), None)
        }
    };
    let mut head = Vec::with_capacity(4);
    (&mut rest)
        .take(4)
        .read_to_end(&mut head)
        .map_err(|e| Error::io(path, e))?;
    let format = format_of(&head);
    Ok(Opened {
        head,
        rest,
        file,
        format,
    })
}

/// The format of a records file starting with `head`.
fn format_of(head: &[u8]) -> Format {
    if head.starts_with(&[0x1f, 0x8b]) {
        Format::Gzip
    } else if head.starts_with(b"PAR1") {
        Format::Parquet
    } else {
        Format::Plain
    }
}

/// The records of a file already read into memory (`path` names it), as [`Opened::into_lines`].
pub fn open_bytes(data: Vec<u8>, path: &Path) -> Result<Box<dyn Read + Send>> {
    Opened {
        format: format_of(&data),
        head: Vec::new(),
        rest: Box::new(std::io::Cursor::new(data)),
        file: None,
    }
    .into_lines(path)
}

impl Opened {
    /// The size of the file when it is a regular one.
    pub fn regular_len(&self) -> Option<u64> {
        self.file.as_ref()?.metadata().ok().map(|m| m.len())
    }

    /// The raw bytes from the start (compressed when gzip).
    pub fn into_raw(self) -> Box<dyn Read + Send> {
        Box::new(std::io::Cursor::new(self.head).chain(self.rest))
    }

    /// The records as text lines: inflated, or Parquet rows as JSON lines; without a
    /// leading byte-order mark.
    pub fn into_lines(mut self, path: &Path) -> Result<Box<dyn Read + Send>> {
        Ok(match self.format {
            Format::Parquet => {
                let lines = match self.file.take() {
                    // The regular file's own handle: it is read by position.
                    Some(f) => crate::parquet_io::records::ParquetLines::from_file(f, path)?,
                    None => {
                        let mut all = Vec::new();
                        self.into_raw()
                            .read_to_end(&mut all)
                            .map_err(|e| Error::io(path, e))?;
                        crate::parquet_io::records::ParquetLines::from_bytes(all, path)?
                    }
                };
                Box::new(lines)
            }
            Format::Gzip => Box::new(SkipBom::new(flate2::read::MultiGzDecoder::new(
                self.into_raw(),
            ))),
            Format::Plain => Box::new(SkipBom::new(self.into_raw())),
        })
    }
}

/// The text of `text` without a leading UTF-8 byte-order mark.
pub fn strip_bom(text: &[u8]) -> &[u8] {
    text.strip_prefix(&[0xef, 0xbb, 0xbf]).unwrap_or(text)
}

/// A reader that drops a UTF-8 byte-order mark at the start of its input.
struct SkipBom<R> {
    inner: R,
    /// Bytes read ahead to look for the mark, not yet given out.
    ahead: Vec<u8>,
    checked: bool,
}

impl<R: Read> SkipBom<R> {
    fn new(inner: R) -> Self {
        SkipBom {
            inner,
            ahead: Vec::new(),
            checked: false,
        }
    }
}

impl<R: Read> Read for SkipBom<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if !self.checked {
            (&mut self.inner).take(3).read_to_end(&mut self.ahead)?;
            self.checked = true;
            if self.ahead == [0xef, 0xbb, 0xbf] {
                self.ahead.clear();
            }
        }
        if !self.ahead.is_empty() {
            let n = buf.len().min(self.ahead.len());
            buf[..n].copy_from_slice(&self.ahead[..n]);
            self.ahead.drain(..n);
            return Ok(n);
        }
        self.inner.read(buf)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A reader giving one byte per call, as a slow pipe may.
    struct Trickle<'a>(&'a [u8]);
    impl Read for Trickle<'_> {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            if self.0.is_empty() || buf.is_empty() {
                return Ok(0);
            }
            buf[0] = self.0[0];
            self.0 = &self.0[1..];
            Ok(1)
        }
    }

    #[test]
    fn a_byte_order_mark_is_dropped_however_it_arrives() {
        for text in [&b"\xef\xbb\xbf{\"a\":1}\n"[..], b"{\"a\":1}\n"] {
            let mut out = Vec::new();
            SkipBom::new(Trickle(text)).read_to_end(&mut out).unwrap();
            assert_eq!(out, b"{\"a\":1}\n");
        }
        // Short inputs, and a mark's first bytes that are not a mark.
        for text in [&b""[..], b"\xef", b"\xef\xbb", b"\xef\xbbx", b"ab"] {
            let mut out = Vec::new();
            SkipBom::new(Trickle(text)).read_to_end(&mut out).unwrap();
            assert_eq!(out, text);
        }
    }

    #[test]
    fn the_format_is_told_from_the_bytes_read() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("r.jsonl");
        std::fs::write(&p, b"{\"id\":\"a\"}\n").unwrap();
        let o = open(&p).unwrap();
        assert_eq!(o.format, Format::Plain);
        let mut text = String::new();
        o.into_lines(&p).unwrap().read_to_string(&mut text).unwrap();
        assert_eq!(text, "{\"id\":\"a\"}\n");
        // A file shorter than the magic.
        std::fs::write(&p, b"{}").unwrap();
        let mut text = String::new();
        open(&p)
            .unwrap()
            .into_lines(&p)
            .unwrap()
            .read_to_string(&mut text)
            .unwrap();
        assert_eq!(text, "{}");
    }
}
