//! Signing documents read back from JSONL (`thresher dedup`, and `run`'s second signing
//! pass for the lexical methods): the collection statistics pass and the parallel signing
//! of records, with `.gz` files read as they are.

use std::io::BufRead;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use rayon::prelude::*;

use crate::choose_main::DocMeta;
use crate::dedup::{self, DedupConfig, DocEntry, Signer};
use crate::error::{Error, Result};
use crate::page::{ErrorKind, PageError};

/// JSONL lines parsed (and signed) in parallel at a time. Set in d8a5bb6 (the foundation);
/// hand-set, not swept (results do not depend on it: lines are kept in file order).
const JSONL_CHUNK_LINES: usize = 1024;

/// A record read by `thresher dedup`.
#[derive(Debug, serde::Deserialize)]
struct DedupInput {
    #[serde(default)]
    id: Option<serde_json::Value>,
    #[serde(default)]
    path: Option<String>,
    #[serde(default)]
    url: Option<String>,
    #[serde(default)]
    text: Option<String>,
    #[serde(default)]
    fetched_at: Option<chrono::DateTime<chrono::Utc>>,
    #[serde(default)]
    popularity: Option<f64>,
    #[serde(default)]
    boilerplate_ratio: Option<f64>,
    #[serde(default)]
    error: Option<serde_json::Value>,
}

fn open_jsonl(file: &Path) -> Result<Box<dyn BufRead>> {
    let f = std::fs::File::open(file).map_err(|e| Error::io(file, e))?;
    Ok(if is_gz(file) {
        Box::new(std::io::BufReader::new(flate2::read::MultiGzDecoder::new(
            f,
        )))
    } else {
        Box::new(std::io::BufReader::new(f))
    })
}

/// First pass of the lexical methods: df, cf, N and lengths of the collection's terms
/// (texts of the JSONL records that are not error records).
pub fn collection_stats(files: &[PathBuf]) -> Result<dedup::CollectionStats> {
    #[derive(serde::Deserialize)]
    struct TextOnly {
        #[serde(default)]
        text: Option<String>,
        #[serde(default)]
        error: Option<serde_json::Value>,
    }
    let normalizer = dedup::lexical::LexicalSigner::stats_normalizer();
    let mut stats = dedup::CollectionStats::default();
    for file in files {
        // An unreadable file or a broken gzip stream is reported, per file, by
        // `read_and_sign`; the statistics take what could be read.
        let Ok(reader) = open_jsonl(file) else {
            continue;
        };
        let mut lines = reader.split(b'\n');
        loop {
            let chunk: Vec<Vec<u8>> = lines
                .by_ref()
                .take(JSONL_CHUNK_LINES)
                .map_while(std::io::Result::ok)
                .collect();
            if chunk.is_empty() {
                break;
            }
            let part = chunk
                .par_iter()
                .fold(dedup::CollectionStats::default, |mut st, line| {
                    if let Ok(TextOnly {
                        text: Some(t),
                        error: None,
                    }) = serde_json::from_slice(line)
                    {
                        st.add_text(&normalizer, &t);
                    }
                    st
                })
                .reduce(dedup::CollectionStats::default, |a, b| a.merge(b));
            stats = stats.merge(part);
        }
    }
    Ok(stats)
}

/// Read JSONL documents (optionally `.gz`) and sign them in parallel. A bad line (not
/// JSON, no `text`, no key) or an unreadable file is one error passed to `on_error`
/// (naming file and line), and reading goes on; `on_error` returning `Err` stops
/// (`--max-errors`). Error records of `extract` are skipped (counted in the second
/// value: they were reported when extracted). A key seen before is a warning naming both
/// lines, and the first record is kept (see [`DuplicateKeys`]).
pub fn read_and_sign(
    files: &[PathBuf],
    signer: &Signer,
    on_error: &mut dyn FnMut(PageError) -> Result<()>,
) -> Result<(Vec<DocEntry>, usize)> {
    let mut docs = Vec::new();
    let mut skipped = 0;
    let mut seen = DuplicateKeys::default();
    for (file_index, file) in files.iter().enumerate() {
        let fail = |line: Option<usize>, kind, message: String| PageError {
            path: match line {
                Some(n) => format!("{}:{n}", file.display()),
                None => file.display().to_string(),
            },
            url: String::new(),
            kind,
            message,
        };
        let mut reader = match open_jsonl(file) {
            Ok(r) => r,
            Err(e) => {
                on_error(fail(None, ErrorKind::Read, e.to_string()))?;
                continue;
            }
        };
        let gz = is_gz(file);
        let mut line_no = 0usize;
        let mut broken = false;
        while !broken {
            // Raw lines: serde_json checks UTF-8 itself, once.
            let mut chunk: Vec<(usize, Vec<u8>)> = Vec::with_capacity(JSONL_CHUNK_LINES);
            while chunk.len() < JSONL_CHUNK_LINES {
                let mut line = Vec::new();
                match reader.read_until(b'\n', &mut line) {
                    Ok(0) => break,
                    Ok(_) => {
                        line_no += 1;
                        if !line.trim_ascii().is_empty() {
                            chunk.push((line_no, line));
                        }
                    }
                    Err(e) => {
                        // The stream cannot be resynchronised: the rest of this file is lost.
                        let kind = if gz {
                            ErrorKind::Decompress
                        } else {
                            ErrorKind::Read
                        };
                        let message = format!("cannot read after line {line_no}: {e}");
                        on_error(fail(Some(line_no + 1), kind, message))?;
                        broken = true;
                        break;
                    }
                }
            }
            if chunk.is_empty() {
                break;
            }
            let parsed: Vec<(usize, ParsedLine)> = chunk
                .par_iter()
                .map(|(n, line)| (*n, parse_line(line, signer)))
                .collect();
            for (n, p) in parsed {
                match p {
                    Ok(Some(d)) => {
                        if seen.first_place(&d.meta.key, &docs, file_index, n, files) {
                            docs.push(d);
                        }
                    }
                    Ok(None) => skipped += 1,
                    Err((kind, message)) => on_error(fail(Some(n), kind, message))?,
                }
            }
        }
    }
    seen.report();
    Ok((docs, skipped))
}

/// Keys seen so far, to find a record whose key another record already has. The choice
/// is the first record's: it came first in the inputs (an earlier file, an earlier
/// line), which is the order a user controls. Keys are held as 64-bit hashes with the
/// index of their document (whose key is compared, so a hash collision is no duplicate),
/// plus where each document was read: 16 bytes a document rather than a copy of its key.
#[derive(Default)]
struct DuplicateKeys {
    by_hash: std::collections::HashMap<u64, usize>,
    /// (file index, line) of each document kept, by document index.
    places: Vec<(u32, u32)>,
    duplicates: usize,
}

/// Duplicate warnings printed one by one; beyond this, only their number.
const DUPLICATE_WARNINGS_SHOWN: usize = 20;

impl DuplicateKeys {
    /// `true` when `key` is new (the caller keeps the document, which becomes
    /// `docs.len()`); `false` after a warning naming both places.
    fn first_place(
        &mut self,
        key: &str,
        docs: &[DocEntry],
        file: usize,
        line: usize,
        files: &[PathBuf],
    ) -> bool {
        let hash = xxhash_rust::xxh3::xxh3_64(key.as_bytes());
        match self.by_hash.entry(hash) {
            std::collections::hash_map::Entry::Occupied(e) if docs[*e.get()].meta.key == key => {
                self.duplicates += 1;
                if self.duplicates <= DUPLICATE_WARNINGS_SHOWN {
                    let (f0, l0) = self.places[*e.get()];
                    eprintln!(
                        "warning: {}:{line}: duplicate id {key:?}, first at {}:{l0}; keeping the first",
                        files[file].display(),
                        files[f0 as usize].display(),
                    );
                }
                return false;
            }
            std::collections::hash_map::Entry::Occupied(_) => {} // a hash collision
            std::collections::hash_map::Entry::Vacant(v) => {
                v.insert(docs.len());
            }
        }
        self.places.push((file as u32, line as u32));
        true
    }

    fn report(&self) {
        if self.duplicates > DUPLICATE_WARNINGS_SHOWN {
            eprintln!(
                "warning: {} records had an id seen before (first {} shown); the first of each was kept",
                self.duplicates, DUPLICATE_WARNINGS_SHOWN
            );
        }
    }
}

fn is_gz(file: &Path) -> bool {
    file.extension().is_some_and(|e| e == "gz")
}

/// What [`parse_line`] makes of a line.
type ParsedLine = Result<Option<DocEntry>, (ErrorKind, String)>;

/// One JSONL line → a signed document, `None` for blank lines and `extract`'s error
/// records, or the error kind and message.
fn parse_line(line: &[u8], signer: &Signer) -> ParsedLine {
    if line.trim_ascii().is_empty() {
        return Ok(None);
    }
    let rec: DedupInput =
        serde_json::from_slice(line).map_err(|e| (ErrorKind::Json, e.to_string()))?;
    if rec.error.is_some() {
        return Ok(None);
    }
    let key = match (&rec.id, &rec.path, &rec.url) {
        (Some(serde_json::Value::String(s)), _, _) => s.clone(),
        (Some(v), _, _) if !v.is_null() => v.to_string(),
        (_, Some(p), _) => p.clone(),
        (_, _, Some(u)) => u.clone(),
        _ => {
            return Err((
                ErrorKind::NoKey,
                "record has no key (`id`, `path` or `url`)".into(),
            ))
        }
    };
    let Some(text) = rec.text else {
        return Err((
            ErrorKind::NoText,
            format!("record {key:?} has no `text` string"),
        ));
    };
    Ok(Some(DocEntry {
        meta: DocMeta {
            key,
            fetched_at: rec.fetched_at,
            popularity: rec.popularity.unwrap_or(0.0),
            boilerplate_ratio: rec.boilerplate_ratio.unwrap_or(0.0),
        },
        signature: signer.sign(&text),
    }))
}

/// `run` with a method that needs collection statistics: a second pass over the
/// extracted texts of pass 1 (`partial`, same record order), now with df/cf/N, replaces
/// the documents' signatures.
pub(super) fn sign_with_stats(
    docs: &mut [DocEntry],
    partial: &Path,
    config: &DedupConfig,
) -> Result<()> {
    let partial = partial.to_path_buf();
    let stats = collection_stats(std::slice::from_ref(&partial))?;
    let signer = Signer::with_stats(config, Some(Arc::new(stats)));
    // The file is our own pass 1: a bad line there is a bug, not bad input.
    let (signed, _) = read_and_sign(std::slice::from_ref(&partial), &signer, &mut |e| {
        Err(Error::Config(format!("internal: {e}")))
    })?;
    for (doc, s) in docs.iter_mut().zip(signed) {
        doc.signature = s.signature;
    }
    Ok(())
}
