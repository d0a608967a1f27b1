//! The index's other operations: `query` (which stored documents are near given
//! records), `remove` (documents by key) and `stats`.

use std::path::{Path, PathBuf};

use redb::{ReadableMultimapTable, ReadableTable, ReadableTableMetadata};

use super::components::write_atomically;
use super::store::{self, StoredDoc, BATCHES, DATES, DOCS, KEYS, POSTINGS, SHINGLES};
use super::Index;
use crate::error::Result;

/// One stored document near a queried record.
#[derive(Debug, serde::Serialize)]
pub struct Near {
    pub id: String,
    pub similarity: f64,
}

/// A queried record and the stored documents near it (most similar first).
#[derive(Debug, serde::Serialize)]
pub struct QueryAnswer {
    pub id: String,
    pub near: Vec<Near>,
}

impl Index {
    /// For every record of `files`: the stored documents that share a band key with it
    /// and whose similarity (the index's measure, on full shingle sets) reaches the
    /// threshold, all of them (no leader shortcut: a query asks for every match). The
    /// index is not changed. A bad line is an error on stderr naming file and line, and
    /// the other records are answered. Returns (records, records with a match, bad lines).
    pub fn query(&self, files: &[PathBuf], output: Option<&Path>) -> Result<(usize, usize, usize)> {
        let err = |e: &dyn std::fmt::Display| self.store.err(e);
        let txn = self.store.db.begin_read().map_err(|e| err(&e))?;
        let docs = txn.open_table(DOCS).map_err(|e| err(&e))?;
        let shingles = txn.open_table(SHINGLES).map_err(|e| err(&e))?;
        let postings = txn.open_multimap_table(POSTINGS).map_err(|e| err(&e))?;
        let signer = self.signer();
        let mut answers: Vec<QueryAnswer> = Vec::new();
        let mut errors = crate::pipeline::ErrorLog::stderr_only();
        let mut on_error = |e: crate::page::PageError| errors.record(&e);
        crate::pipeline::for_each_signed(files, &signer, &mut on_error, |chunk, _| {
            for entry in chunk {
                let mut near = Vec::new();
                if let Some((doc, set)) = StoredDoc::from_entry(&entry) {
                    for id in self.bucket_mates(&postings, &doc.band_keys)? {
                        let stored = self.load_entry(&docs, &shingles, id)?;
                        let other = &stored.signature.as_ref().expect("stored signed").shingles;
                        let s = self.config.measure.similarity(&set, other);
                        if s >= self.config.threshold || !self.config.verify {
                            near.push(Near {
                                id: stored.meta.key,
                                similarity: (s * 10_000.0).round() / 10_000.0,
                            });
                        }
                    }
                }
                near.sort_by(|a, b| b.similarity.total_cmp(&a.similarity).then(a.id.cmp(&b.id)));
                answers.push(QueryAnswer {
                    id: entry.meta.key,
                    near,
                });
            }
            Ok(())
        })?;
        let matched = answers.iter().filter(|a| !a.near.is_empty()).count();
        write_atomically(output, |out| {
            for a in &answers {
                serde_json::to_writer(&mut *out, a)?;
                out.write_all(b"\n")?;
            }
            Ok(())
        })?;
        Ok((answers.len(), matched, errors.count()))
    }

    /// Remove documents by key in one transaction. Returns the keys not in the index, and
    /// the ids of the documents that shared a bucket with a removed one (their clusters
    /// may have changed).
    pub fn remove(&self, keys_to_remove: &[String]) -> Result<(Vec<String>, Vec<u64>)> {
        let err = |e: &dyn std::fmt::Display| self.store.err(e);
        let txn = self.store.db.begin_write().map_err(|e| err(&e))?;
        let mut missing = Vec::new();
        let mut neighbours = Vec::new();
        {
            let mut keys = txn.open_table(KEYS).map_err(|e| err(&e))?;
            let mut docs = txn.open_table(DOCS).map_err(|e| err(&e))?;
            let mut shingles = txn.open_table(SHINGLES).map_err(|e| err(&e))?;
            let mut postings = txn.open_multimap_table(POSTINGS).map_err(|e| err(&e))?;
            let mut dates = txn.open_table(DATES).map_err(|e| err(&e))?;
            for key in keys_to_remove {
                let Some(id) = keys
                    .remove(key.as_str())
                    .map_err(|e| err(&e))?
                    .map(|v| v.value())
                else {
                    missing.push(key.clone());
                    continue;
                };
                let doc = docs
                    .remove(id)
                    .map_err(|e| err(&e))?
                    .map(|v| v.value().to_vec());
                shingles.remove(id).map_err(|e| err(&e))?;
                if let Some(doc) = doc {
                    let (doc, _) = store::unseal(&doc).map_err(|e| {
                        err(&format!("damaged: document {id}: {e}; nothing was removed (run `index check`, then `index repair`)"))
                    })?;
                    store::count_dates(&mut dates, &doc.meta, -1).map_err(|e| err(&e))?;
                    for k in doc.posting_keys(self.config.canonical) {
                        postings.remove(k, id).map_err(|e| err(&e))?;
                        for m in postings.get(k).map_err(|e| err(&e))? {
                            neighbours.push(m.map_err(|e| err(&e))?.value());
                        }
                    }
                }
            }
        }
        txn.commit().map_err(|e| err(&e))?;
        // A neighbour may itself have been removed later in the list.
        let rtxn = self.store.db.begin_read().map_err(|e| err(&e))?;
        let docs = rtxn.open_table(DOCS).map_err(|e| err(&e))?;
        neighbours.sort_unstable();
        neighbours.dedup();
        let mut alive = Vec::new();
        for id in neighbours {
            if docs.get(id).map_err(|e| err(&e))?.is_some() {
                alive.push(id);
            }
        }
        Ok((missing, alive))
    }

    /// Counters of the index (JSON): documents, buckets, the largest bucket, batches,
    /// the file's size and the stored options.
    pub fn stats(&self) -> Result<serde_json::Value> {
        let err = |e: &dyn std::fmt::Display| self.store.err(e);
        let txn = self.store.db.begin_read().map_err(|e| err(&e))?;
        let docs = txn.open_table(DOCS).map_err(|e| err(&e))?;
        let postings = txn.open_multimap_table(POSTINGS).map_err(|e| err(&e))?;
        let batches = txn.open_table(BATCHES).map_err(|e| err(&e))?;
        let (mut buckets, mut shared_buckets, mut postings_n, mut largest) =
            (0u64, 0u64, 0u64, 0u64);
        let mut over_all_pairs = 0u64;
        for bucket in postings.iter().map_err(|e| err(&e))? {
            let (_, members) = bucket.map_err(|e| err(&e))?;
            let n = members.len();
            buckets += 1;
            postings_n += n;
            shared_buckets += (n >= 2) as u64;
            over_all_pairs += (n as usize > crate::dedup::lsh::MAX_BUCKET_ALL_PAIRS) as u64;
            largest = largest.max(n);
        }
        let mut batch_list = Vec::new();
        for b in batches.iter().map_err(|e| err(&e))? {
            let (_, json) = b.map_err(|e| err(&e))?;
            batch_list
                .push(serde_json::from_str::<serde_json::Value>(json.value()).unwrap_or_default());
        }
        let interrupted = batch_list.iter().filter(|b| b["complete"] != true).count();
        let file_bytes = std::fs::metadata(&self.store.path)
            .map(|m| m.len())
            .unwrap_or(0);
        Ok(serde_json::json!({
            "index": self.store.path,
            "file_bytes": file_bytes,
            "documents": docs.len().map_err(|e| err(&e))?,
            "band_keys": buckets,
            "postings": postings_n,
            "buckets_shared": shared_buckets,
            "buckets_over_all_pairs_limit": over_all_pairs,
            "largest_bucket": largest,
            "batches": batch_list.len(),
            "interrupted_batches": interrupted,
            "last_batch": batch_list.last(),
            "config": self.config,
        }))
    }
}
