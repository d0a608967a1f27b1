//! `thresher clusters import`: the Spark job's clusters (`spark/thresher_dedup.py`, one
//! Parquet row per cluster member) back into [`Cluster`]s, with the mains' metadata read
//! from the signatures file, so that `clusters.jsonl` is written by the same code as
//! `dedup`'s (member order, shared members, reasons, ids).

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

use arrow_array::{Array, BooleanArray, Float64Array, Int64Array, ListArray};
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;

use crate::dedup::{make_cluster, Cluster, DedupConfig, DocEntry};
use crate::error::{Error, Result};

use super::{column, parquet_error, signatures};

/// One member row of the job's output.
#[derive(Debug, Clone)]
struct MemberRow {
    member: i64,
    similarity: f64,
    /// Belongs first to this main's cluster (strict mode; always true for components).
    first: bool,
    /// Documents this member is joined to by a shared canonical URL, not its shingles.
    canonical_with: Vec<i64>,
}

/// The Parquet files of a Spark output directory (part files; `_SUCCESS`, `.crc` and
/// other hidden files skipped), or the file itself.
pub fn part_files(path: &Path) -> Result<Vec<PathBuf>> {
    if path.is_file() {
        return Ok(vec![path.to_path_buf()]);
    }
    let mut files: Vec<PathBuf> = std::fs::read_dir(path)
        .map_err(|e| Error::io(path, e))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
            !name.starts_with(['.', '_']) && super::is_parquet(p)
        })
        .collect();
    files.sort();
    if files.is_empty() {
        return Err(Error::Config(format!(
            "{}: no Parquet part files (is this the Spark job's --out?)",
            path.display()
        )));
    }
    Ok(files)
}

/// Clusters of the job's output at `clusters_path`, documents indexed by the returned
/// entries (those named in a cluster, without signatures). The dedup configuration is the
/// signatures file's (main order, `overlap`).
pub fn import(
    signatures_path: &Path,
    clusters_path: &Path,
) -> Result<(Vec<Cluster>, Vec<DocEntry>, DedupConfig)> {
    let config = signatures::read_config(signatures_path)?;
    let mut by_main: BTreeMap<i64, Vec<MemberRow>> = BTreeMap::new();
    let mut degree: HashMap<i64, u32> = HashMap::new();
    let mut strict: Option<bool> = None;
    for file in part_files(clusters_path)? {
        let f = std::fs::File::open(&file).map_err(|e| Error::io(&file, e))?;
        let reader = ParquetRecordBatchReaderBuilder::try_new(f)
            .and_then(|b| b.build())
            .map_err(|e| parquet_error(&file, e))?;
        for batch in reader {
            let batch = batch.map_err(|e| parquet_error(&file, e))?;
            let main = column::<Int64Array>(&batch, "main", &file)?;
            let member = column::<Int64Array>(&batch, "member", &file)?;
            let sim = column::<Float64Array>(&batch, "similarity", &file)?;
            let first = column::<BooleanArray>(&batch, "first", &file)?;
            let main_degree = column::<Int64Array>(&batch, "main_degree", &file)?;
            let is_strict = column::<BooleanArray>(&batch, "strict", &file)?;
            let canonical_with = column::<ListArray>(&batch, "canonical_with", &file)?;
            for i in 0..batch.num_rows() {
                if [main.is_null(i), member.is_null(i), sim.is_null(i)].contains(&true) {
                    return Err(Error::Config(format!(
                        "{}: row {i}: null field",
                        file.display()
                    )));
                }
                let s = is_strict.value(i);
                if *strict.get_or_insert(s) != s {
                    return Err(Error::Config(format!(
                        "{}: strict and components rows mixed",
                        clusters_path.display()
                    )));
                }
                by_main.entry(main.value(i)).or_default().push(MemberRow {
                    member: member.value(i),
                    similarity: sim.value(i),
                    first: first.value(i),
                    canonical_with: if canonical_with.is_null(i) {
                        Vec::new()
                    } else {
                        let list = canonical_with.value(i);
                        let ids = list.as_any().downcast_ref::<Int64Array>().ok_or_else(|| {
                            Error::Config(format!(
                                "{}: column `canonical_with` is not a list of longs",
                                file.display()
                            ))
                        })?;
                        ids.iter().flatten().collect()
                    },
                });
                degree.insert(main.value(i), main_degree.value(i) as u32);
            }
        }
    }
    let strict = strict.unwrap_or(true);
    let mut wanted: Vec<i64> = by_main
        .iter()
        .flat_map(|(m, rows)| std::iter::once(*m).chain(rows.iter().map(|r| r.member)))
        .collect();
    wanted.sort_unstable();
    wanted.dedup();
    let mut metas = signatures::read_metas(signatures_path, Some(&wanted))?;
    let mut index: HashMap<i64, usize> = HashMap::with_capacity(wanted.len());
    let mut docs = Vec::with_capacity(wanted.len());
    for d in &wanted {
        let meta = metas.remove(d).ok_or_else(|| {
            Error::Config(format!(
                "{}: document {d} of the clusters is not in {}",
                clusters_path.display(),
                signatures_path.display()
            ))
        })?;
        index.insert(*d, docs.len());
        docs.push(DocEntry {
            meta,
            signature: None,
        });
    }
    // Pairs joined by a canonical URL, as `dedup` remembers them for the reasons (both
    // ends must be named in a cluster to matter there).
    let mut by_canonical: std::collections::HashSet<(usize, usize)> = Default::default();
    for row in by_main.values().flatten() {
        for other in &row.canonical_with {
            if let (Some(&x), Some(&y)) = (index.get(&row.member), index.get(other)) {
                by_canonical.insert((x.min(y), x.max(y)));
            }
        }
    }
    let mut clusters = Vec::with_capacity(by_main.len());
    for (main, rows) in &by_main {
        let main_ix = index[main];
        if !strict {
            // Components: the main is the best member by the main order (the document
            // number, dedup's input position, breaks ties), as in `dedup`.
            let best = rows
                .iter()
                .min_by(|a, b| {
                    config
                        .main_order
                        .compare(&docs[index[&a.member]].meta, &docs[index[&b.member]].meta)
                        .then(a.member.cmp(&b.member))
                })
                .map(|r| r.member);
            if best != Some(*main) {
                return Err(Error::Config(format!(
                    "{}: component of document {main}: the job's main is not the best by the main order ({best:?})",
                    clusters_path.display()
                )));
            }
        }
        // Strict similarities are the edges' (kept as f32 by `dedup`); components
        // re-measure each member against the main (f64).
        let sim = |s: f64| if strict { s as f32 as f64 } else { s };
        let members: Vec<(usize, f64)> = rows
            .iter()
            .filter(|r| r.first || config.overlap)
            .map(|r| (index[&r.member], sim(r.similarity)))
            .collect();
        let shared: Vec<usize> = rows
            .iter()
            .filter(|r| !r.first)
            .map(|r| index[&r.member])
            .collect();
        if members.len() >= 2 {
            let d = if strict { degree[main] } else { 0 };
            clusters.push(make_cluster(
                &docs,
                main_ix,
                members,
                shared,
                d,
                &config,
                &by_canonical,
            ));
        }
    }
    clusters.sort_by(|a, b| docs[a.main].meta.key.cmp(&docs[b.main].meta.key));
    Ok((clusters, docs, config))
}
