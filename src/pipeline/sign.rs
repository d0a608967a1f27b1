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
    // Parquet records (`--format parquet`) are read as JSON lines, parsed as JSONL is.
    if crate::parquet_io::is_parquet(file) {
        return Ok(crate::parquet_io::records::ParquetLines::open(file)?.into_bufread());
    }
    let f = std::fs::File::open(file).map_err(|e| Error::io(file, e))?;
    Ok(if file.extension().is_some_and(|e| e == "gz") {
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
        let mut lines = open_jsonl(file)?.lines();
        loop {
            let chunk: Vec<String> = lines
                .by_ref()
                .take(JSONL_CHUNK_LINES)
                .collect::<std::io::Result<_>>()
                .map_err(|e| Error::io(file, e))?;
            if chunk.is_empty() {
                break;
            }
            let part = chunk
                .par_iter()
                .fold(dedup::CollectionStats::default, |mut st, line| {
                    if let Ok(TextOnly {
                        text: Some(t),
                        error: None,
                    }) = serde_json::from_str(line)
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

/// Read JSONL documents (optionally `.gz`) and sign them in parallel. Lines that are
/// error records or have no key are skipped with a warning; invalid JSON is an error
/// naming the file and line.
pub fn read_and_sign(files: &[PathBuf], signer: &Signer) -> Result<(Vec<DocEntry>, usize)> {
    let mut docs = Vec::new();
    let mut skipped = 0;
    for file in files {
        let mut reader = open_jsonl(file)?;
        let mut line_no = 0usize;
        loop {
            // Raw lines: serde_json checks UTF-8 itself, once.
            let mut chunk: Vec<(usize, Vec<u8>)> = Vec::with_capacity(JSONL_CHUNK_LINES);
            while chunk.len() < JSONL_CHUNK_LINES {
                let mut line = Vec::new();
                let n = reader
                    .read_until(b'\n', &mut line)
                    .map_err(|e| Error::io(file, e))?;
                if n == 0 {
                    break;
                }
                line_no += 1;
                chunk.push((line_no, line));
            }
            if chunk.is_empty() {
                break;
            }
            let parsed: Vec<Result<Option<DocEntry>>> = chunk
                .par_iter()
                .map(|(n, line)| {
                    if line.trim_ascii().is_empty() {
                        return Ok(None);
                    }
                    let rec: DedupInput =
                        serde_json::from_slice(line).map_err(|e| Error::BadLine {
                            path: file.clone(),
                            line: *n,
                            message: e.to_string(),
                        })?;
                    let key = match (&rec.id, &rec.path, &rec.url) {
                        (Some(serde_json::Value::String(s)), _, _) => s.clone(),
                        (Some(v), _, _) if !v.is_null() => v.to_string(),
                        (_, Some(p), _) => p.clone(),
                        (_, _, Some(u)) => u.clone(),
                        _ => return Ok(None),
                    };
                    if rec.error.is_some() {
                        return Ok(None);
                    }
                    let text = rec.text.unwrap_or_default();
                    Ok(Some(DocEntry {
                        meta: DocMeta {
                            key,
                            fetched_at: rec.fetched_at,
                            popularity: rec.popularity.unwrap_or(0.0),
                            boilerplate_ratio: rec.boilerplate_ratio.unwrap_or(0.0),
                        },
                        signature: signer.sign(&text),
                    }))
                })
                .collect();
            for p in parsed {
                match p? {
                    Some(d) => docs.push(d),
                    None => skipped += 1,
                }
            }
        }
    }
    Ok((docs, skipped))
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
    let (signed, _) = read_and_sign(std::slice::from_ref(&partial), &signer)?;
    for (doc, s) in docs.iter_mut().zip(signed) {
        doc.signature = s.signature;
    }
    Ok(())
}
