//! `index repair`: keep what is intact, say what was lost. redb's own check first (it
//! verifies every page's checksum and rebuilds its allocator state, committing the
//! repair); then, in one transaction, every document is read against its checksums:
//! a damaged one (record or shingle set) is removed, and the tables derived from the
//! documents (keys, postings, publication-date counters) are rebuilt from the intact
//! ones, so no key, posting or counter can name what was lost. Re-adding the batches
//! that held the lost documents brings them back (`index add` finds the others
//! unchanged).

use std::path::Path;

use redb::ReadableTable;

use super::store::{self, Store, DATES, DOCS, KEYS, POSTINGS, SETTINGS, SHINGLES};
use crate::error::Result;

/// What `index repair` did.
#[derive(Debug, Default, serde::Serialize)]
pub struct RepairReport {
    /// redb fixed its own pages or allocator state (an unclean shutdown).
    pub store_repaired: bool,
    /// Documents kept.
    pub kept: u64,
    /// Documents removed as damaged: "document ID (key): what" (the key when it reads).
    pub lost: Vec<String>,
}

/// Repair the index in `dir` (see the module comment).
pub fn repair(dir: &Path) -> Result<RepairReport> {
    let mut store = Store::open(dir, false)?;
    store.config()?; // a store of another format is refused, not rewritten
    let mut report = RepairReport::default();
    let db = store.db.writer().expect("opened to write");
    match db.check_integrity() {
        Ok(clean) => report.store_repaired = !clean,
        Err(e) => {
            return Err(store.err(format!(
                "the store's pages are damaged beyond redb's repair ({e}): build a new index from the batches with `thresher index add`"
            )))
        }
    }
    let err = |e: &dyn std::fmt::Display| store.err(e);
    let canonical = store.config()?.is_some_and(|c| c.canonical);
    let txn = store.db.begin_write().map_err(|e| err(&e))?;
    {
        // The derived tables start empty and are refilled from the intact documents.
        txn.delete_table(KEYS).map_err(|e| err(&e))?;
        txn.delete_multimap_table(POSTINGS).map_err(|e| err(&e))?;
        txn.delete_table(DATES).map_err(|e| err(&e))?;
        let mut keys = txn.open_table(KEYS).map_err(|e| err(&e))?;
        let mut postings = txn.open_multimap_table(POSTINGS).map_err(|e| err(&e))?;
        let mut dates = txn.open_table(DATES).map_err(|e| err(&e))?;
        let mut docs = txn.open_table(DOCS).map_err(|e| err(&e))?;
        let mut shingles = txn.open_table(SHINGLES).map_err(|e| err(&e))?;
        let mut lost_ids = Vec::new();
        let mut max_id = None;
        for entry in docs.iter().map_err(|e| err(&e))? {
            let (id, value) = entry.map_err(|e| err(&e))?;
            let id = id.value();
            max_id = max_id.max(Some(id));
            let intact = store::unseal(value.value()).and_then(|(doc, sum)| {
                let set = shingles
                    .get(id)
                    .map_err(|e| e.to_string())?
                    .ok_or_else(|| "shingle set missing".to_string())?;
                store::unseal_shingles(sum, set.value())
                    .map_err(|e| format!("{e} (key {:?})", doc.meta.key))?;
                Ok(doc)
            });
            let doc = match intact {
                Ok(doc) => doc,
                Err(e) => {
                    report.lost.push(format!("document {id}: {e}"));
                    lost_ids.push(id);
                    continue;
                }
            };
            keys.insert(doc.meta.key.as_str(), id)
                .map_err(|e| err(&e))?;
            for k in doc.posting_keys(canonical) {
                postings.insert(k, id).map_err(|e| err(&e))?;
            }
            store::count_dates(&mut dates, &doc.meta, 1).map_err(|e| err(&e))?;
            report.kept += 1;
        }
        for id in &lost_ids {
            docs.remove(id).map_err(|e| err(&e))?;
            shingles.remove(id).map_err(|e| err(&e))?;
        }
        // Shingle sets without their document.
        let mut orphans = Vec::new();
        for entry in shingles.iter().map_err(|e| err(&e))? {
            let id = entry.map_err(|e| err(&e))?.0.value();
            if docs.get(id).map_err(|e| err(&e))?.is_none() {
                orphans.push(id);
            }
        }
        for id in orphans {
            shingles.remove(id).map_err(|e| err(&e))?;
        }
        // next_id stays above every id ever given (a lost `next_id` is set past them).
        let mut settings = txn.open_table(SETTINGS).map_err(|e| err(&e))?;
        let next: Option<u64> = settings
            .get("next_id")
            .map_err(|e| err(&e))?
            .and_then(|v| v.value().parse().ok());
        let floor = max_id.map_or(0, |m| m + 1);
        if !matches!(next, Some(n) if n >= floor) {
            settings
                .insert("next_id", floor.to_string().as_str())
                .map_err(|e| err(&e))?;
        }
    }
    txn.commit().map_err(|e| err(&e))?;
    Ok(report)
}
