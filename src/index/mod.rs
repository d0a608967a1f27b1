//! Persistent dedup index (`thresher index`): documents added in daily batches are kept in
//! an embedded, crash-safe store ([`store`], redb) with what one-shot dedup needs of them
//! (main-order fields, band keys, shingle sets), so that clusters are computed over all
//! history without re-reading it.
//!
//! Why the answer equals one `thresher dedup` over the whole corpus, whatever the batches
//! and their order: documents that share a band key are *candidate-connected*; a
//! candidate-connected component holds every LSH bucket of its documents, so
//! [`crate::dedup::find_clusters`] run on the component alone sees the same candidate
//! pairs, the same large buckets (split by the same leaders), the same verified edges and
//! the same ranks as a run over everything, and gives the same clusters and mains. The
//! index therefore stores no edges or clusters (which a later batch could invalidate): it
//! stores documents and buckets, and clusters a component when it is asked for
//! ([`components`]). An add reports the clusters of the components its documents are in:
//! exactly the part of the index the batch can change.

pub mod check;
pub mod components;
pub mod ops;
pub mod repair;
pub mod store;

use std::path::{Path, PathBuf};

use redb::{ReadableMultimapTable, ReadableTable};

use crate::dedup::{DedupConfig, DocEntry, Method, Signer};
use crate::error::Result;
use store::{Store, StoredDoc, BATCHES, DATES, DOCS, KEYS, POSTINGS, SETTINGS, SHINGLES};

/// Documents written per transaction by `index add` unless `--commit-every` says
/// otherwise: large enough that the fsync of a commit costs little per document, small
/// enough that an uncommitted transaction's pages stay a few tens of MB. Hand-set.
pub const DEFAULT_COMMIT_EVERY: usize = 10_000;

/// An open index and the options it was created with.
pub struct Index {
    pub store: Store,
    pub config: DedupConfig,
}

/// Whether an index can be built with `config`: every document's candidate keys must
/// depend on the document alone.
pub fn supported(config: &DedupConfig) -> std::result::Result<(), String> {
    if config.method.needs_stats() {
        return Err(format!(
            "method {} needs statistics of the whole collection, which change with every batch; an index supports minhash and the methods without collection statistics",
            config.method
        ));
    }
    if config.method == Method::ThreeFive {
        return Err("method 3+5 is not supported by the index (its pair test needs more than the stored signatures)".into());
    }
    Ok(())
}

impl Index {
    /// Open the index in `dir`. `given`: the options of this command (`None`: those
    /// stored). A new index (only with `create`) is created with `given`; an existing one
    /// refuses options other than its own, naming the ones that differ.
    pub fn open(dir: &Path, given: Option<&DedupConfig>, create: bool) -> Result<Index> {
        let store = Store::open(dir, create)?;
        let config = match (store.config()?, given) {
            (Some(stored), None) => stored,
            (Some(stored), Some(given)) => {
                let diff = config_diff(&stored, given);
                if !diff.is_empty() {
                    return Err(store.err(format!(
                        "was created with other options; an index keeps the options it was created with (use another --index for other options): {}",
                        diff.join("; ")
                    )));
                }
                stored
            }
            (None, Some(given)) if create => {
                supported(given).map_err(|e| store.err(e))?;
                let txn = store.db.begin_write().map_err(|e| store.err(e))?;
                {
                    let mut s = txn.open_table(SETTINGS).map_err(|e| store.err(e))?;
                    let json = serde_json::to_string(given).expect("config serializes");
                    for (k, v) in [
                        ("format", store::FORMAT),
                        ("config", &json),
                        ("next_id", "0"),
                    ] {
                        s.insert(k, v).map_err(|e| store.err(e))?;
                    }
                    // The other tables exist from the start, so readers never miss one.
                    txn.open_table(KEYS).map_err(|e| store.err(e))?;
                    txn.open_table(DOCS).map_err(|e| store.err(e))?;
                    txn.open_table(SHINGLES).map_err(|e| store.err(e))?;
                    txn.open_multimap_table(POSTINGS)
                        .map_err(|e| store.err(e))?;
                    txn.open_table(BATCHES).map_err(|e| store.err(e))?;
                    txn.open_table(DATES).map_err(|e| store.err(e))?;
                }
                txn.commit().map_err(|e| store.err(e))?;
                given.clone()
            }
            (None, _) => return Err(store.err("is empty: no options stored (add a batch first)")),
        };
        Ok(Index { store, config })
    }

    /// Open the index in `dir` read-only (`query`, `stats`, `export`): the last committed
    /// state, also while an add runs; nothing is written. `wait`: how long to retry when
    /// the file is held exclusively.
    pub fn open_read(dir: &Path, wait: std::time::Duration) -> Result<Index> {
        let store = Store::open_read(dir, wait)?;
        match store.config()? {
            Some(config) => Ok(Index { store, config }),
            None => Err(store.err("is empty: no options stored (add a batch first)")),
        }
    }

    pub fn signer(&self) -> Signer {
        Signer::new(&self.config)
    }

    /// The stored document `id` as `find_clusters` takes it.
    pub fn load_entry(
        &self,
        docs: &impl ReadableTable<u64, &'static [u8]>,
        shingles: &impl ReadableTable<u64, &'static [u8]>,
        id: u64,
    ) -> Result<DocEntry> {
        let doc = docs
            .get(id)
            .map_err(|e| self.store.err(e))?
            .ok_or_else(|| {
                self.store.err(format!(
                    "damaged: document {id} is missing (run `index check`)"
                ))
            })?;
        let damaged = |e: String| {
            self.store
                .err(format!("damaged: document {id}: {e} (run `index check`)"))
        };
        let (doc, sum) = store::unseal(doc.value()).map_err(damaged)?;
        let set = shingles
            .get(id)
            .map_err(|e| self.store.err(e))?
            .ok_or_else(|| {
                self.store
                    .err(format!("damaged: shingles of document {id} are missing"))
            })?;
        let set = store::unseal_shingles(sum, set.value()).map_err(|e| {
            self.store.err(format!(
                "damaged: document {id} ({:?}): {e} (run `index check`)",
                doc.meta.key
            ))
        })?;
        Ok(store::doc_entry(doc, set))
    }

    /// Ids of the stored documents that share a band key with `band_keys`.
    pub fn bucket_mates(
        &self,
        postings: &impl ReadableMultimapTable<u64, u64>,
        band_keys: &[u64],
    ) -> Result<Vec<u64>> {
        let mut ids = Vec::new();
        for &k in band_keys {
            for m in postings.get(k).map_err(|e| self.store.err(e))? {
                ids.push(m.map_err(|e| self.store.err(e))?.value());
            }
        }
        ids.sort_unstable();
        ids.dedup();
        Ok(ids)
    }
}

/// Options that differ between the stored and the given configuration, as
/// `name: index X, given Y`.
fn config_diff(stored: &DedupConfig, given: &DedupConfig) -> Vec<String> {
    let (a, b) = (
        serde_json::to_value(stored).expect("config serializes"),
        serde_json::to_value(given).expect("config serializes"),
    );
    let (Some(a), Some(b)) = (a.as_object(), b.as_object()) else {
        return vec![];
    };
    a.iter()
        .filter(|(k, v)| b.get(*k) != Some(v))
        .map(|(k, v)| {
            format!(
                "{k}: index {v}, given {}",
                b.get(k).cloned().unwrap_or_default()
            )
        })
        .collect()
}

/// What one `index add` did.
#[derive(Debug, Default, serde::Serialize)]
pub struct AddReport {
    pub batch: u64,
    pub added: usize,
    /// Keys already stored with another text or other main-order fields: replaced.
    pub updated: usize,
    /// Keys already stored exactly so (a batch added again, e.g. after a crash).
    pub unchanged: usize,
    /// Records without words (never near-duplicates; not stored).
    pub without_words: usize,
    /// `extract`'s error records (as `dedup` skips them).
    pub skipped_lines: usize,
    /// Bad lines (not JSON, no key, no text) and broken streams: each an error on
    /// stderr naming file and line; the batch's other records are stored.
    pub failed: usize,
    pub files: Vec<PathBuf>,
    pub complete: bool,
    /// Ids of the batch's stored documents (added, updated or unchanged).
    #[serde(skip)]
    pub ids: Vec<u64>,
}

impl Index {
    /// Add the documents of `files` (JSONL, as `dedup` reads them), committing every
    /// `commit_every` documents; a killed add leaves the last commit, and adding the batch
    /// again completes it (stored documents are found unchanged).
    pub fn add(&self, files: &[PathBuf], commit_every: usize) -> Result<AddReport> {
        let err = |e: &dyn std::fmt::Display| self.store.err(e);
        let mut report = AddReport {
            files: files.to_vec(),
            ..AddReport::default()
        };
        // The batch's record first, marked incomplete until the end.
        let txn = self.store.db.begin_write().map_err(|e| err(&e))?;
        {
            let mut batches = txn.open_table(BATCHES).map_err(|e| err(&e))?;
            let last = batches.last().map_err(|e| err(&e))?.map(|(k, _)| k.value());
            report.batch = last.map_or(1, |n| n + 1);
            let json = serde_json::to_string(&report).expect("report serializes");
            batches
                .insert(report.batch, json.as_str())
                .map_err(|e| err(&e))?;
        }
        txn.commit().map_err(|e| err(&e))?;

        let signer = self.signer();
        let mut pending: Vec<DocEntry> = Vec::new();
        let mut committed = 0usize;
        let mut errors = crate::pipeline::ErrorLog::stderr_only();
        let mut on_error = |e: crate::page::PageError| errors.record(&e);
        crate::pipeline::for_each_signed(files, &signer, &mut on_error, |chunk, skipped| {
            report.skipped_lines += skipped;
            pending.extend(chunk);
            if pending.len() >= commit_every.max(1) {
                committed += pending.len();
                self.write(std::mem::take(&mut pending), &mut report, None)?;
                tracing::info!("batch {}: committed {committed} documents", report.batch);
            }
            Ok(())
        })?;
        report.failed = errors.count();
        report.complete = true;
        self.write(pending, &mut report, Some(()))?;
        tracing::info!("batch {}: complete", report.batch);
        Ok(report)
    }

    /// One transaction: store `entries`; with `finish`, also mark the batch complete.
    fn write(
        &self,
        entries: Vec<DocEntry>,
        report: &mut AddReport,
        finish: Option<()>,
    ) -> Result<()> {
        let err = |e: &dyn std::fmt::Display| self.store.err(e);
        let txn = self.store.db.begin_write().map_err(|e| err(&e))?;
        {
            let mut settings = txn.open_table(SETTINGS).map_err(|e| err(&e))?;
            let mut keys = txn.open_table(KEYS).map_err(|e| err(&e))?;
            let mut docs = txn.open_table(DOCS).map_err(|e| err(&e))?;
            let mut shingles = txn.open_table(SHINGLES).map_err(|e| err(&e))?;
            let mut postings = txn.open_multimap_table(POSTINGS).map_err(|e| err(&e))?;
            let mut dates = txn.open_table(DATES).map_err(|e| err(&e))?;
            let mut next_id: u64 = settings
                .get("next_id")
                .map_err(|e| err(&e))?
                .and_then(|v| v.value().parse().ok())
                .ok_or_else(|| err(&"damaged: next_id is missing (run `index check`)"))?;
            // Postings are inserted at the end, sorted by band key: a B-tree takes sorted
            // inserts with far fewer page visits than random ones. Keyed by id, so a key
            // given twice in one transaction leaves only its last version's postings.
            let mut new_postings: std::collections::HashMap<u64, Vec<u64>> = Default::default();
            for entry in &entries {
                let Some((doc, set)) = StoredDoc::from_entry(entry) else {
                    report.without_words += 1;
                    continue;
                };
                let enc_set = store::encode_shingles(&set);
                let enc = store::seal(&doc, &enc_set);
                let existing = keys
                    .get(doc.meta.key.as_str())
                    .map_err(|e| err(&e))?
                    .map(|v| v.value());
                let id = match existing {
                    Some(id) => {
                        let old = docs
                            .get(id)
                            .map_err(|e| err(&e))?
                            .map(|v| v.value().to_vec());
                        let old_set = shingles
                            .get(id)
                            .map_err(|e| err(&e))?
                            .map(|v| v.value().to_vec());
                        if old.as_deref() == Some(&enc[..])
                            && old_set.as_deref() == Some(&enc_set[..])
                        {
                            report.unchanged += 1;
                            report.ids.push(id);
                            continue;
                        }
                        if let Some(old) = old {
                            // A damaged document is not written over: the transaction
                            // is dropped uncommitted and the add fails, naming it.
                            let (old, _) = store::unseal(&old).map_err(|e| {
                                err(&format!("damaged: document {id}: {e}; nothing of this transaction was written (run `index check`, then `index repair`)"))
                            })?;
                            for k in old.posting_keys(self.config.canonical) {
                                postings.remove(k, id).map_err(|e| err(&e))?;
                            }
                            store::count_dates(&mut dates, &old.meta, -1).map_err(|e| err(&e))?;
                        }
                        report.updated += 1;
                        id
                    }
                    None => {
                        let id = next_id;
                        next_id += 1;
                        keys.insert(doc.meta.key.as_str(), id)
                            .map_err(|e| err(&e))?;
                        report.added += 1;
                        id
                    }
                };
                docs.insert(id, &enc[..]).map_err(|e| err(&e))?;
                store::count_dates(&mut dates, &doc.meta, 1).map_err(|e| err(&e))?;
                shingles.insert(id, &enc_set[..]).map_err(|e| err(&e))?;
                new_postings.insert(id, doc.posting_keys(self.config.canonical));
                report.ids.push(id);
            }
            let mut sorted: Vec<(u64, u64)> = new_postings
                .into_iter()
                .flat_map(|(id, keys)| keys.into_iter().map(move |k| (k, id)))
                .collect();
            sorted.sort_unstable();
            for (k, id) in sorted {
                postings.insert(k, id).map_err(|e| err(&e))?;
            }
            settings
                .insert("next_id", next_id.to_string().as_str())
                .map_err(|e| err(&e))?;
            let mut batches = txn.open_table(BATCHES).map_err(|e| err(&e))?;
            if finish.is_some() {
                let json = serde_json::to_string(&*report).expect("report serializes");
                batches
                    .insert(report.batch, json.as_str())
                    .map_err(|e| err(&e))?;
            }
        }
        txn.commit().map_err(|e| err(&e))
    }
}
