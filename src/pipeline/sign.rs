//! Signing documents read back from JSONL (`thresher dedup`, and `run`'s second signing
//! pass for the lexical methods): the collection statistics pass and the parallel signing
//! of records, with `.gz` files read as they are.

use std::io::BufRead;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use rayon::prelude::*;

use crate::choose_main::{DocMeta, Published};
use crate::dedup::canonical::{canonical_key, url_key};
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
    /// ISO 8601 publication date (`extract`'s `published`).
    #[serde(default)]
    published: Option<String>,
    #[serde(default)]
    canonical_url: Option<String>,
}

fn open_jsonl(file: &Path) -> Result<Box<dyn BufRead>> {
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
    let (docs, skipped, _) = read_and_sign_within(files, signer, usize::MAX)?;
    Ok((docs, skipped))
}

/// [`read_and_sign`] keeping the documents' shingles only while all of them together stay
/// under `shingle_bytes`; past it every document's shingles are dropped (and those read
/// later are not kept) and the third value is true: verification must read the
/// documents it needs again ([`reread_shingle_sets`]).
pub fn read_and_sign_within(
    files: &[PathBuf],
    signer: &Signer,
    shingle_bytes: usize,
) -> Result<(Vec<DocEntry>, usize, bool)> {
    let mut docs: Vec<DocEntry> = Vec::new();
    let mut skipped = 0;
    let mut kept_bytes = 0usize;
    let mut dropped = false;
    for file in files {
        super::jsonl_blocks::for_each_block(file, |block| {
            let lines = block.lines();
            let keep = !dropped;
            let parsed: Vec<Result<Option<DocEntry>>> = lines
                .par_iter()
                .map(|&(n, line)| {
                    Ok(parse_doc(file, n, line)?.map(|(meta, text)| {
                        let mut signature = signer.sign(&text);
                        if let (false, Some(s)) = (keep, signature.as_mut()) {
                            s.shingles = Vec::new();
                        }
                        DocEntry { meta, signature }
                    }))
                })
                .collect();
            for p in parsed {
                match p? {
                    Some(d) => {
                        kept_bytes += d.signature.as_ref().map_or(0, |s| s.shingles.len() * 8);
                        docs.push(d);
                    }
                    None => skipped += 1,
                }
            }
            if !dropped && kept_bytes > shingle_bytes {
                dropped = true;
                for d in docs.iter_mut() {
                    if let Some(s) = d.signature.as_mut() {
                        s.shingles = Vec::new();
                    }
                }
            }
            Ok(())
        })?;
    }
    Ok((docs, skipped, dropped))
}

/// The second pass of a run whose shingles were dropped: the sorted shingle sets of the
/// documents `needed` (indices into the documents [`read_and_sign_within`] returned for
/// the same `files`, ascending), in that order. The files must not have changed since.
pub fn reread_shingle_sets(
    files: &[PathBuf],
    signer: &Signer,
    docs: &[DocEntry],
    needed: &[usize],
) -> Result<Vec<Vec<u64>>> {
    let mut sets: Vec<Vec<u64>> = Vec::with_capacity(needed.len());
    let mut next_doc = 0usize;
    for file in files {
        super::jsonl_blocks::for_each_block(file, |block| {
            let lines = block.lines();
            let parsed: Vec<Option<(DocMeta, String)>> = lines
                .par_iter()
                .map(|&(n, line)| parse_doc(file, n, line))
                .collect::<Result<_>>()?;
            let first = next_doc;
            let wanted: Vec<(usize, &(DocMeta, String))> = parsed
                .iter()
                .flatten()
                .enumerate()
                .map(|(i, d)| (first + i, d))
                .filter(|(i, _)| needed[sets.len()..].binary_search(i).is_ok())
                .collect();
            next_doc += parsed.iter().flatten().count();
            for (i, (meta, _)) in &wanted {
                if docs.get(*i).is_none_or(|d| d.meta.key != meta.key) {
                    return Err(Error::BadLine {
                        path: file.clone(),
                        line: block.first_line,
                        message: "the file changed while dedup was reading it (a document to verify is not where the first pass saw it)".into(),
                    });
                }
            }
            sets.par_extend(
                wanted
                    .par_iter()
                    .map(|(_, (_, text))| signer.shingle_set(text)),
            );
            Ok(())
        })?;
    }
    if sets.len() != needed.len() {
        return Err(Error::Config(format!(
            "{} documents to verify, {} found when reading the input again: did a file change during the run?",
            needed.len(),
            sets.len()
        )));
    }
    Ok(sets)
}

/// One JSONL line of `thresher dedup`'s input: its key (id, path or url) and metadata,
/// and its text; `None` for a blank line, an error record or a record without a key.
fn parse_doc(file: &Path, n: usize, line: &[u8]) -> Result<Option<(DocMeta, String)>> {
    if line.trim_ascii().is_empty() {
        return Ok(None);
    }
    let rec: DedupInput = serde_json::from_slice(line).map_err(|e| Error::BadLine {
        path: file.to_path_buf(),
        line: n,
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
    Ok(Some((
        DocMeta {
            key,
            fetched_at: rec.fetched_at,
            popularity: rec.popularity.unwrap_or(0.0),
            boilerplate_ratio: rec.boilerplate_ratio.unwrap_or(0.0),
            published: rec.published.as_deref().and_then(Published::parse),
            canonical: canonical_key(rec.canonical_url.as_deref(), rec.url.as_deref()),
            url_key: rec.url.as_deref().and_then(url_key),
        },
        rec.text.unwrap_or_default(),
    )))
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
