//! Where pages come from: files and directories (`*.html`, `*.htm`, `*.html.gz`),
//! WARC files, and a manifest that gives each file its URL, time and popularity.
//!
//! Discovery is cheap and sequential (it only lists files); the bytes of each file are
//! read by the worker that processes the page ([`PageJob::load`]), so reading and
//! decompression run in parallel and no page body is held longer than its extraction.

pub mod fetch;
pub mod manifest;
pub mod page_rows;
pub mod parquet_pages;
pub mod records_input;
pub mod revisit;
pub mod sniff;
pub mod stream_input;
pub mod warc;
pub mod warc_index;
pub mod warc_records;

use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use chrono::{DateTime, Utc};

use crate::page::{ErrorKind, Page, PageError};
pub use manifest::Manifest;

/// A page file found on disk, with what is known about it before reading it.
#[derive(Debug, Clone)]
pub struct FileInput {
    pub file: PathBuf,
    pub path: String,
    pub url: String,
    pub fetched_at: Option<DateTime<Utc>>,
    pub popularity: f64,
    pub content_type: Option<String>,
    /// For a page read from a stream: the temporary copy `file` names, kept while any
    /// clone of this input lives.
    pub spool: Option<Arc<tempfile::TempPath>>,
}

/// A file of page records (WARC or Parquet): where its bytes are read (`file`) and how its
/// records and errors name it (`shown`). The two differ for a stream, read from the
/// temporary copy `spool` (kept while any clone of this lives; `stream_input.rs`).
#[derive(Debug, Clone)]
pub struct RecordsFile {
    pub file: PathBuf,
    pub shown: PathBuf,
    pub spool: Option<Arc<tempfile::TempPath>>,
}

impl RecordsFile {
    /// A file on disk, read and shown by its own path.
    pub fn on_disk(path: &Path) -> RecordsFile {
        RecordsFile {
            file: path.to_owned(),
            shown: path.to_owned(),
            spool: None,
        }
    }
}

/// What the discovery found: page files, WARC files, and arguments that could not be used.
#[derive(Debug, Default)]
pub struct Inputs {
    pub files: Vec<FileInput>,
    pub warcs: Vec<RecordsFile>,
    /// Parquet files of pages, one per row (`parquet_pages.rs`), read after the WARCs.
    pub parquets: Vec<RecordsFile>,
    pub errors: Vec<PageError>,
}

/// One unit of work for the extraction workers.
#[derive(Debug)]
pub enum PageJob {
    File(FileInput),
    Loaded(Page),
    Failed(PageError),
}

/// Options for reading pages.
#[derive(Debug, Clone, Copy)]
pub struct ReadLimits {
    /// Bytes of a page (after decompression) beyond which the rest is dropped.
    pub max_page_bytes: usize,
}

impl PageJob {
    /// Read the page's bytes (decompressing `.gz`).
    pub fn load(self, limits: ReadLimits) -> Result<Page, PageError> {
        match self {
            PageJob::Loaded(page) => Ok(page),
            PageJob::Failed(err) => Err(err),
            PageJob::File(input) => {
                let (body, cut) = read_page_file(&input.file, limits.max_page_bytes).map_err(
                    |(kind, message)| PageError {
                        path: input.path.clone(),
                        url: input.url.clone(),
                        kind,
                        message,
                    },
                )?;
                Ok(Page {
                    path: input.path,
                    url: input.url,
                    fetched_at: input.fetched_at,
                    popularity: input.popularity,
                    content_type: input.content_type,
                    body,
                    cut,
                    warc_file: None,
                })
            }
        }
    }

    /// Path shown for this job (for errors before it is loaded).
    pub fn path(&self) -> &str {
        match self {
            PageJob::File(f) => &f.path,
            PageJob::Loaded(p) => &p.path,
            PageJob::Failed(e) => &e.path,
        }
    }
}

fn is_page_file(name: &str) -> bool {
    let n = name.to_ascii_lowercase();
    n.ends_with(".html") || n.ends_with(".htm") || n.ends_with(".html.gz") || n.ends_with(".htm.gz")
}

/// Names whose extension says they are not pages (`.css`, `.jpg`, `.json`, …): not
/// opened to look. Names without an extension, or with one a crawler derives from the
/// URL (`.php`, `.asp`, `.shtml`, numbers), are sniffed.
fn has_other_extension(name: &str) -> bool {
    const NOT_PAGES: &[&str] = &[
        "css", "js", "mjs", "json", "jsonl", "txt", "xml", "csv", "tsv", "md", "yaml", "yml",
        "png", "jpg", "jpeg", "gif", "webp", "svg", "ico", "bmp", "tif", "tiff", "avif", "pdf",
        "zip", "tar", "7z", "rar", "bz2", "xz", "zst", "mp3", "mp4", "webm", "ogg", "wav", "woff",
        "woff2", "ttf", "otf", "eot", "exe", "so", "dll", "bin", "db",
    ];
    let n = name.to_ascii_lowercase();
    let n = n.strip_suffix(".gz").unwrap_or(&n);
    n.rsplit_once('.')
        .is_some_and(|(_, ext)| NOT_PAGES.contains(&ext))
}

fn is_warc_file(name: &str) -> bool {
    let n = name.to_ascii_lowercase();
    n.ends_with(".warc") || n.ends_with(".warc.gz")
}

/// List the pages named by `paths` (files or directories, recursive, sorted so that runs
/// are reproducible). Without paths, the manifest's own entries are the inputs. In a
/// directory, files are taken by name (`*.html`, `*.htm`, `*.html.gz`, `*.warc(.gz)`) or,
/// failing that, by content (`sniff`: pages saved without an extension). A directory
/// holding no page is an error (`no_pages`); a file reached twice (two arguments, a
/// link) is read once, with a warning naming both. An argument that is a stream (`-`,
/// a pipe, a FIFO, a character device) is read once and copied
/// (`stream_input.rs`; a page up to `max_page_bytes`); a FIFO met in a directory is not
/// opened (that waits for a writer) but named as an error.
pub fn discover(paths: &[PathBuf], manifest: Option<&Manifest>, max_page_bytes: usize) -> Inputs {
    let mut inputs = Inputs::default();
    if let Some(m) = manifest {
        inputs.errors.extend(m.problems.iter().cloned());
    }
    let mut seen = std::collections::HashMap::<PathBuf, PathBuf>::new();
    let mut first_time = |file: &Path| -> bool {
        let key = std::fs::canonicalize(file).unwrap_or_else(|_| file.to_owned());
        match seen.get(&key) {
            Some(first) => {
                eprintln!(
                    "warning: {} is {} again; read once",
                    file.display(),
                    first.display()
                );
                false
            }
            None => {
                seen.insert(key, file.to_owned());
                true
            }
        }
    };
    if paths.is_empty() {
        if let Some(m) = manifest {
            for (file, entry) in &m.entries {
                inputs.files.push(from_manifest(file.clone(), entry));
            }
        }
        return inputs;
    }
    for arg in paths {
        if arg.is_dir() {
            let walker = walkdir::WalkDir::new(arg)
                .follow_links(true)
                .sort_by_file_name();
            let (mut found, mut others) = (0usize, 0usize);
            for entry in walker {
                match entry {
                    Ok(e) if e.file_type().is_file() => {
                        let name = e.file_name().to_string_lossy();
                        let kind = if is_warc_file(&name) {
                            sniff::Kind::Warc
                        } else if is_page_file(&name) {
                            sniff::Kind::Page
                        } else if has_other_extension(&name) {
                            sniff::Kind::Other
                        } else {
                            sniff::sniff_file(e.path())
                        };
                        if kind == sniff::Kind::Other {
                            others += 1;
                            continue;
                        }
                        found += 1;
                        if !first_time(e.path()) {
                            continue;
                        }
                        if kind == sniff::Kind::Warc {
                            inputs.warcs.push(RecordsFile::on_disk(e.path()));
                        } else if kind == sniff::Kind::Parquet {
                            inputs.parquets.push(RecordsFile::on_disk(e.path()));
                        } else {
                            inputs.files.push(file_input(e.path(), Some(arg), manifest));
                        }
                    }
                    Ok(e) if !e.file_type().is_dir() => {
                        // A FIFO, socket or device in a directory: opening a FIFO waits
                        // for a writer, so a walk never opens one; named as what it is.
                        let what = std::fs::metadata(e.path())
                            .map(|m| kind_of(&m))
                            .unwrap_or("a special file");
                        inputs.errors.push(arg_error(
                            e.path(),
                            format!(
                                "{what} in a directory is not read (opening it would wait for a writer); name it as an argument to read it as a stream"
                            ),
                        ));
                    }
                    Ok(_) => {}
                    Err(err) => inputs.errors.push(arg_error(
                        err.path().unwrap_or(arg),
                        format!("cannot list directory: {err}"),
                    )),
                }
            }
            if found == 0 {
                inputs.errors.push(PageError {
                    path: arg.display().to_string(),
                    url: String::new(),
                    kind: ErrorKind::NoPages,
                    message: format!(
                        "no pages: {others} files, none HTML, WARC or Parquet by name or content"
                    ),
                });
            }
        } else if arg.is_file() {
            let name = arg
                .file_name()
                .map(|n| n.to_string_lossy())
                .unwrap_or_default();
            if !first_time(arg) {
                continue;
            }
            let kind = sniff::sniff_file(arg);
            if is_warc_file(&name) || kind == sniff::Kind::Warc {
                inputs.warcs.push(RecordsFile::on_disk(arg));
            } else if kind == sniff::Kind::Parquet {
                inputs.parquets.push(RecordsFile::on_disk(arg));
            } else {
                // A file named explicitly is read whatever its extension.
                inputs.files.push(file_input(arg, None, manifest));
            }
        } else if records_input::is_stdin(arg)
            || std::fs::metadata(arg).is_ok_and(|m| stream_input::is_stream(&m))
        {
            match stream_input::spool(arg, manifest, max_page_bytes) {
                Ok(stream_input::Spooled::Page(page)) => inputs.files.push(page),
                Ok(stream_input::Spooled::Warc(warc)) => inputs.warcs.push(warc),
                Ok(stream_input::Spooled::Parquet(rows)) => inputs.parquets.push(rows),
                Err(e) => inputs.errors.push(e),
            }
        } else if let Ok(meta) = std::fs::metadata(arg) {
            // There, but neither a file, a directory nor a stream (a block device).
            inputs.errors.push(arg_error(
                arg,
                format!(
                    "{}, not a regular file, a directory or a stream",
                    kind_of(&meta)
                ),
            ));
        } else {
            inputs
                .errors
                .push(arg_error(arg, "no such file or directory".to_string()));
        }
    }
    inputs
}

/// What a path that is neither a file nor a directory is.
fn kind_of(meta: &std::fs::Metadata) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    let t = meta.file_type();
    if t.is_fifo() {
        "a FIFO (named pipe)"
    } else if t.is_char_device() {
        "a character device"
    } else if t.is_block_device() {
        "a block device"
    } else if t.is_socket() {
        "a socket"
    } else {
        "a special file"
    }
}

fn arg_error(path: &Path, message: String) -> PageError {
    PageError {
        path: path.display().to_string(),
        url: String::new(),
        kind: ErrorKind::Read,
        message,
    }
}

fn from_manifest(file: PathBuf, entry: &manifest::ManifestEntry) -> FileInput {
    FileInput {
        fetched_at: entry.fetched_at.or_else(|| file_mtime(&file)),
        file,
        path: entry.path.clone(),
        url: entry.url.clone(),
        popularity: entry.popularity.unwrap_or(0.0),
        content_type: entry.content_type.clone(),
        spool: None,
    }
}

fn file_input(file: &Path, root: Option<&Path>, manifest: Option<&Manifest>) -> FileInput {
    if let Some(entry) = manifest.and_then(|m| m.lookup(file)) {
        return from_manifest(file.to_owned(), entry);
    }
    FileInput {
        file: file.to_owned(),
        path: file.display().to_string(),
        url: url_from_path(file, root),
        fetched_at: file_mtime(file),
        popularity: 0.0,
        content_type: None,
        spool: None,
    }
}

fn file_mtime(file: &Path) -> Option<DateTime<Utc>> {
    let modified = std::fs::metadata(file).ok()?.modified().ok()?;
    Some(DateTime::<Utc>::from(modified))
}

/// `<root>/example.com/a/b.html(.gz)` → `http://example.com/a/b.html`. When the first
/// directory under the root does not look like a host name, a `file://` URL is used.
pub fn url_from_path(file: &Path, root: Option<&Path>) -> String {
    if let Some(rel) = root.and_then(|r| file.strip_prefix(r).ok()) {
        let parts: Vec<String> = rel
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect();
        if parts.len() >= 2 && looks_like_host(&parts[0]) {
            let mut path = parts[1..].join("/");
            if let Some(stripped) = path.strip_suffix(".gz") {
                path = stripped.to_string();
            }
            if let Ok(u) = url::Url::parse(&format!("http://{}/{}", parts[0], path)) {
                return u.to_string();
            }
        }
    }
    let abs = std::path::absolute(file).unwrap_or_else(|_| file.to_owned());
    url::Url::from_file_path(&abs)
        .map(|u| u.to_string())
        .unwrap_or_else(|_| format!("file://{}", abs.display()))
}

fn looks_like_host(name: &str) -> bool {
    name == "localhost"
        || (name.contains('.')
            && !name.starts_with('.')
            && !is_page_file(name)
            && name
                .chars()
                .all(|c| c.is_alphanumeric() || matches!(c, '.' | '-' | ':' | '_')))
}

/// Read a page file; `.gz` is decompressed. More than `max` bytes are cut (and the page
/// kept, with `true`): a huge page still yields its beginning rather than failing the run.
fn read_page_file(file: &Path, max: usize) -> Result<(Vec<u8>, bool), (ErrorKind, String)> {
    let mut f = std::io::BufReader::new(
        std::fs::File::open(file).map_err(|e| (ErrorKind::Read, e.to_string()))?,
    );
    // By content, not name: pages saved gzipped under `.html` or without an extension.
    let gz = std::io::BufRead::fill_buf(&mut f).is_ok_and(sniff::is_gzip);
    let mut body = Vec::new();
    // One byte more than kept tells a page of exactly `max` bytes from a longer one.
    let limit = max as u64 + 1;
    let result = if gz {
        flate2::read::MultiGzDecoder::new(f)
            .take(limit)
            .read_to_end(&mut body)
    } else {
        f.take(limit).read_to_end(&mut body)
    };
    match result {
        Ok(_) => {
            let cut = body.len() > max;
            body.truncate(max);
            Ok((body, cut))
        }
        Err(e) if gz => Err((
            ErrorKind::Decompress,
            format!("corrupt or truncated gzip after {} bytes: {e}", body.len()),
        )),
        Err(e) => Err((ErrorKind::Read, e.to_string())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn url_is_derived_from_host_directory() {
        let root = Path::new("/data/crawl");
        let file = Path::new("/data/crawl/example.com/a/b.html.gz");
        assert_eq!(
            url_from_path(file, Some(root)),
            "http://example.com/a/b.html"
        );
    }

    #[test]
    fn url_falls_back_to_file_url_without_host_directory() {
        let root = Path::new("/data/html");
        let file = Path::new("/data/html/0042.html.gz");
        assert_eq!(
            url_from_path(file, Some(root)),
            "file:///data/html/0042.html.gz"
        );
    }

    #[test]
    fn page_and_warc_names() {
        assert!(is_page_file("a.HTML"));
        assert!(is_page_file("a.htm.gz"));
        assert!(!is_page_file("a.txt"));
        assert!(is_warc_file("crawl.warc.gz"));
    }
}
