//! Candidate-connected components of the index (documents linked by shared band keys)
//! and their clusters. A component holds every LSH bucket of its documents, so
//! [`find_clusters`] on it gives what a run over the whole index gives for them (see
//! [`crate::index`]); components are clustered in groups of bounded size, so memory
//! follows the largest component, not the index.

use std::collections::HashSet;
use std::io::Write;
use std::path::{Path, PathBuf};

use redb::ReadableMultimapTable;

use super::store::{self, forget_template_date, DATES, DOCS, POSTINGS, SHINGLES};
use super::Index;
use crate::dedup::{cluster::UnionFind, find_clusters, DocEntry};
use crate::error::{Error, Result};

/// Documents loaded per `find_clusters` call (whole components; a larger component is
/// taken alone). Bounds memory to about this many shingle sets. Hand-set.
const GROUP_DOCS: usize = 20_000;

/// A batch of at least 1/SCAN_SHARE of the index finds its components by scanning all
/// buckets rather than walking from its documents. Hand-set.
const SCAN_SHARE: u64 = 20;

/// Buckets of at most this many documents are read again when met again in a walk
/// (cheap); larger ones once per walk.
const SMALL_BUCKET: u64 = 16;

impl Index {
    /// Components (two documents or more) containing any of `seeds`: breadth-first over
    /// band keys, each bucket read once.
    pub fn components_of(&self, seeds: &[u64]) -> Result<Vec<Vec<u64>>> {
        // A walk reads each seed's buckets at random places of the postings B-tree; for a
        // batch that is a large share of the index, one sequential pass over all buckets
        // (the export's union-find) is far cheaper (measured: a walk from 1,000,000 seeds
        // had not finished after 15 minutes). Both give the same components.
        if seeds.len() as u64 * SCAN_SHARE >= self.next_id()? {
            let wanted: HashSet<u64> = seeds.iter().copied().collect();
            return Ok(self
                .all_components()?
                .into_iter()
                .filter(|c| c.iter().any(|id| wanted.contains(id)))
                .collect());
        }
        let err = |e: &dyn std::fmt::Display| self.store.err(e);
        let txn = self.store.db.begin_read().map_err(|e| err(&e))?;
        let docs = txn.open_table(DOCS).map_err(|e| err(&e))?;
        let postings = txn.open_multimap_table(POSTINGS).map_err(|e| err(&e))?;
        let mut seen_docs: HashSet<u64> = HashSet::new();
        let mut seen_keys: HashSet<u64> = HashSet::new();
        let mut comps = Vec::new();
        for &seed in seeds {
            if !seen_docs.insert(seed) {
                continue;
            }
            let mut comp = vec![seed];
            let mut next = 0;
            while next < comp.len() {
                let id = comp[next];
                next += 1;
                let doc = docs.get(id).map_err(|e| err(&e))?.ok_or_else(|| {
                    err(&format!(
                        "damaged: document {id} is missing (run `index check`)"
                    ))
                })?;
                let (doc, _) = store::unseal(doc.value()).map_err(|e| {
                    err(&format!("damaged: document {id}: {e} (run `index check`)"))
                })?;
                for k in doc.posting_keys(self.config.canonical) {
                    let members = postings.get(k).map_err(|e| err(&e))?;
                    // Only large buckets are remembered (so that 10,000 copies are not
                    // read 10,000 times); remembering every key would cost tens of bytes
                    // per band key of the batch.
                    if members.len() > SMALL_BUCKET && !seen_keys.insert(k) {
                        continue;
                    }
                    for m in members {
                        let m = m.map_err(|e| err(&e))?.value();
                        if seen_docs.insert(m) {
                            comp.push(m);
                        }
                    }
                }
            }
            if comp.len() >= 2 {
                comps.push(comp);
            }
        }
        Ok(comps)
    }

    /// Every component of two documents or more: union-find over all buckets.
    pub fn all_components(&self) -> Result<Vec<Vec<u64>>> {
        let err = |e: &dyn std::fmt::Display| self.store.err(e);
        let txn = self.store.db.begin_read().map_err(|e| err(&e))?;
        let postings = txn.open_multimap_table(POSTINGS).map_err(|e| err(&e))?;
        let next_id = self.next_id()?;
        if next_id > u32::MAX as u64 {
            return Err(err(
                &"more than 4 billion document ids: export is limited to u32 ids",
            ));
        }
        let mut uf = UnionFind::new(next_id as usize);
        for bucket in postings.iter().map_err(|e| err(&e))? {
            let (_, members) = bucket.map_err(|e| err(&e))?;
            let mut first = None;
            for m in members {
                let m = m.map_err(|e| err(&e))?.value();
                if m >= next_id {
                    return Err(err(&format!(
                        "damaged: posting of document {m} ≥ next_id {next_id} (run `index check`)"
                    )));
                }
                match first {
                    None => first = Some(m as u32),
                    Some(f) => uf.union(f, m as u32),
                }
            }
        }
        Ok(uf
            .components()
            .into_iter()
            .map(|c| c.into_iter().map(u64::from).collect())
            .collect())
    }

    pub fn next_id(&self) -> Result<u64> {
        let err = |e: &dyn std::fmt::Display| self.store.err(e);
        let txn = self.store.db.begin_read().map_err(|e| err(&e))?;
        let settings = txn
            .open_table(super::store::SETTINGS)
            .map_err(|e| err(&e))?;
        settings
            .get("next_id")
            .map_err(|e| err(&e))?
            .and_then(|v| v.value().parse().ok())
            .ok_or_else(|| err(&"damaged: next_id is missing (run `index check`)"))
    }

    /// The clusters of `comps` as `clusters.jsonl` lines (the format of `thresher dedup`),
    /// sorted by main key as `dedup` writes them. Returns (clusters, documents in them).
    pub fn write_clusters(
        &self,
        comps: &[Vec<u64>],
        output: Option<&Path>,
    ) -> Result<(usize, usize)> {
        let err = |e: &dyn std::fmt::Display| self.store.err(e);
        let txn = self.store.db.begin_read().map_err(|e| err(&e))?;
        let docs = txn.open_table(DOCS).map_err(|e| err(&e))?;
        let shingles = txn.open_table(SHINGLES).map_err(|e| err(&e))?;
        let dates = txn.open_table(DATES).map_err(|e| err(&e))?;
        let mut lines: Vec<(String, Vec<u8>)> = Vec::new();
        let mut in_clusters = 0;
        let mut group: Vec<DocEntry> = Vec::new();
        let out_name = output.map_or_else(|| PathBuf::from("-"), Path::to_path_buf);
        let mut flush = |group: &mut Vec<DocEntry>| -> Result<()> {
            let (clusters, _) = find_clusters(group, &self.config);
            for c in &clusters {
                let mut line = Vec::new();
                crate::pipeline::write_clusters(
                    std::slice::from_ref(c),
                    group,
                    &mut line,
                    &out_name,
                )?;
                in_clusters += c.members.len();
                lines.push((group[c.main].meta.key.clone(), line));
            }
            group.clear();
            Ok(())
        };
        for comp in comps {
            if !group.is_empty() && group.len() + comp.len() > GROUP_DOCS {
                flush(&mut group)?;
            }
            for &id in comp {
                let mut entry = self.load_entry(&docs, &shingles, id)?;
                forget_template_date(&dates, &mut entry.meta).map_err(|e| err(&e))?;
                group.push(entry);
            }
        }
        if !group.is_empty() {
            flush(&mut group)?;
        }
        lines.sort_by(|a, b| a.0.cmp(&b.0));
        write_atomically(output, |out| {
            for (_, line) in &lines {
                out.write_all(line)?;
            }
            Ok(())
        })?;
        Ok((lines.len(), in_clusters))
    }
}

/// Write to `path` through a temporary file renamed over it when complete (a killed run
/// never leaves half a file under the final name), or to stdout.
pub fn write_atomically(
    path: Option<&Path>,
    body: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> Result<()> {
    let Some(path) = path.filter(|p| *p != Path::new("-")) else {
        let mut out = std::io::BufWriter::new(std::io::stdout().lock());
        return body(&mut out)
            .and_then(|_| out.flush())
            .map_err(|e| Error::Output {
                path: "-".into(),
                source: e,
            });
    };
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
    }
    let mut tmp_name = path.file_name().unwrap_or_default().to_os_string();
    tmp_name.push(".partial");
    let tmp = path.with_file_name(tmp_name);
    let out_err = |e| Error::Output {
        path: path.to_path_buf(),
        source: e,
    };
    let file = std::fs::File::create(&tmp).map_err(|e| Error::io(&tmp, e))?;
    let mut out = std::io::BufWriter::with_capacity(1 << 16, file);
    body(&mut out).and_then(|_| out.flush()).map_err(out_err)?;
    out.get_ref().sync_all().map_err(out_err)?;
    drop(out);
    std::fs::rename(&tmp, path).map_err(out_err)
}
