//! Inputs of `extract` and `run` that are streams: `-` (standard input), a pipe named as
//! `/dev/stdin`, a FIFO, a character device. A stream is read once, from its start, and
//! what it holds is told by its first bytes ([`sniff::sniff_bytes`], looked into when
//! gzip), never by opening the path again (a pipe cannot be read twice).
//!
//! The pipeline reads WARC and Parquet files by position and more than once (the learning
//! pass and the report read the inputs again; after a bad WARC record the reader searches
//! forward for the next one; a revisit reads an earlier record; Parquet's footer is at its
//! end). So a stream of WARC or Parquet is copied, as it is read, into a temporary file
//! (in `$TMPDIR`, removed when the inputs are dropped) that those readers then read like
//! any file, under the stream's own name. A stream holding a page (anything else: a file
//! named explicitly is read whatever it holds) is read up to `max_page_bytes` + 1 bytes,
//! inflated when gzip, as a page file is: a device that never ends (`/dev/zero`) costs
//! one page, and the disk used is one page.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::records_input::is_stdin;
use super::sniff::{self, Kind};
use super::{FileInput, Manifest, RecordsFile};
use crate::page::{ErrorKind, PageError};

/// Bytes read to tell what a stream holds (as many as [`sniff::sniff_file`] reads).
const HEAD_BYTES: u64 = 8192;

/// What a stream turned out to hold, copied where the readers can reach it.
pub enum Spooled {
    Page(FileInput),
    Warc(RecordsFile),
    Parquet(RecordsFile),
}

/// The name a stream argument is shown by: `-` stays `-`.
fn shown(arg: &Path) -> String {
    arg.display().to_string()
}

fn stream_error(arg: &Path, kind: ErrorKind, message: String) -> PageError {
    PageError {
        path: shown(arg),
        url: String::new(),
        kind,
        message,
    }
}

/// Read the stream `arg` (`-`: standard input) once and copy what it holds to a temporary
/// file: a WARC or Parquet stream whole, a page up to `max_page_bytes` + 1 bytes (the
/// page reader cuts at `max_page_bytes` and says so). `manifest` may give the page its
/// URL, time and popularity, as for a file.
pub fn spool(
    arg: &Path,
    manifest: Option<&Manifest>,
    max_page_bytes: usize,
) -> Result<Spooled, PageError> {
    let read_error = |e: std::io::Error| stream_error(arg, ErrorKind::Read, e.to_string());
    let mut stream: Box<dyn Read> = if is_stdin(arg) {
        Box::new(std::io::stdin().lock())
    } else {
        Box::new(std::fs::File::open(arg).map_err(read_error)?)
    };
    let mut head = Vec::with_capacity(HEAD_BYTES as usize);
    (&mut stream)
        .take(HEAD_BYTES)
        .read_to_end(&mut head)
        .map_err(read_error)?;
    let gzip = sniff::is_gzip(&head);
    let kind = if gzip {
        // Only the bytes already read are inflated: a cut stream still gives its start.
        let mut inner = Vec::new();
        let _ = flate2::read::MultiGzDecoder::new(&head[..])
            .take(HEAD_BYTES)
            .read_to_end(&mut inner);
        match sniff::sniff_bytes(&inner) {
            // Parquet cannot be read through gzip: the bytes are taken as a page.
            Kind::Parquet => Kind::Other,
            kind => kind,
        }
    } else {
        sniff::sniff_bytes(&head)
    };
    let whole = std::io::Cursor::new(head).chain(stream);
    let mut copy = tempfile::Builder::new()
        .prefix(".thresher-stream-")
        .tempfile()
        .map_err(|e| {
            stream_error(
                arg,
                ErrorKind::Read,
                format!("cannot make a temporary file for the stream: {e}"),
            )
        })?;
    match kind {
        Kind::Warc | Kind::Parquet => {
            // The raw bytes (a gzipped WARC stays gzipped: its reader finds records by member).
            copy_all(whole, copy.as_file_mut()).map_err(read_error)?;
            let records = RecordsFile {
                file: copy.path().to_owned(),
                shown: arg.to_owned(),
                spool: Some(Arc::new(copy.into_temp_path())),
            };
            Ok(if kind == Kind::Warc {
                Spooled::Warc(records)
            } else {
                Spooled::Parquet(records)
            })
        }
        Kind::Page | Kind::Other => {
            // One byte more than a page keeps tells a page of exactly the limit from a longer one.
            let limit = max_page_bytes as u64 + 1;
            if gzip {
                copy_all(
                    flate2::read::MultiGzDecoder::new(whole).take(limit),
                    copy.as_file_mut(),
                )
                .map_err(|e| {
                    stream_error(
                        arg,
                        ErrorKind::Decompress,
                        format!("corrupt or truncated gzip: {e}"),
                    )
                })?;
            } else {
                copy_all(whole.take(limit), copy.as_file_mut()).map_err(read_error)?;
            }
            let mut input = if is_stdin(arg) {
                FileInput {
                    file: PathBuf::new(),
                    path: shown(arg),
                    url: "file:///dev/stdin".to_string(),
                    fetched_at: None,
                    popularity: 0.0,
                    content_type: None,
                    spool: None,
                }
            } else {
                super::file_input(arg, None, manifest)
            };
            input.file = copy.path().to_owned();
            input.spool = Some(Arc::new(copy.into_temp_path()));
            Ok(Spooled::Page(input))
        }
    }
}

/// Copy `from` to `to` to its end, and flush.
fn copy_all(mut from: impl Read, to: &mut std::fs::File) -> std::io::Result<()> {
    let mut to = std::io::BufWriter::with_capacity(1 << 16, to);
    std::io::copy(&mut from, &mut to)?;
    to.flush()
}

/// `true` when `meta` is something read as a stream: a FIFO, a character device or a
/// socket (not a regular file or a directory).
pub fn is_stream(meta: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::FileTypeExt;
    let t = meta.file_type();
    t.is_fifo() || t.is_char_device() || t.is_socket()
}
