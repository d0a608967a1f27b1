//! `index check`: the index's invariants, read through a read-only handle (nothing is
//! written, a read-only file will do, an add may run meanwhile: its last commit is
//! checked): options and format stored; keys ↔ documents one to one; every document
//! passes its checksums (its record and its shingle set: each one that does not is
//! listed, all of them), decodes, has a sorted non-empty shingle set and sorted band keys;
//! postings are exactly the documents' band keys (each posting names a document that has
//! that key, and there are as many postings as band keys); batches parse. redb's own
//! page check, which commits, is `index repair`'s.

use std::path::Path;

use redb::{ReadableMultimapTable, ReadableTable, ReadableTableMetadata};

use super::store::{self, Store, BATCHES, DOCS, KEYS, POSTINGS, SETTINGS, SHINGLES};
use crate::error::Result;

/// Problems listed in full; beyond that only counted.
const MAX_LISTED: usize = 20;

/// What `index check` found.
#[derive(Debug, Default, serde::Serialize)]
pub struct CheckReport {
    pub documents: u64,
    pub postings: u64,
    /// redb repaired the file while checking (it was not closed cleanly and was fixed).
    pub repaired: bool,
    /// Documents that fail their checksums, every one: "document ID (key): what".
    pub damaged: Vec<String>,
    pub problems: Vec<String>,
    pub more_problems: usize,
}

impl CheckReport {
    fn problem(&mut self, p: String) {
        if self.problems.len() < MAX_LISTED {
            self.problems.push(p);
        } else {
            self.more_problems += 1;
        }
    }

    pub fn ok(&self) -> bool {
        self.problems.is_empty() && self.damaged.is_empty()
    }
}

/// Check the index in `dir`. `Err` only when it cannot be opened at all (which is
/// damage too: the caller reports it the same way). redb panics on some damaged pages
/// (an `unreachable!` in its B-tree code) instead of returning an error: the check turns
/// such a panic into a problem (with the hook silenced, so no backtrace is printed).
pub fn check(dir: &Path, wait: std::time::Duration) -> Result<CheckReport> {
    store::catch_store_panics(&store::db_path(dir), || check_inner(dir, wait)).or_else(
        |e| match e {
            crate::Error::Index { message, .. } if message.starts_with(store::PANIC_PREFIX) => {
                Ok(CheckReport {
                    problems: vec![message],
                    ..CheckReport::default()
                })
            }
            e => Err(e),
        },
    )
}

fn check_inner(dir: &Path, wait: std::time::Duration) -> Result<CheckReport> {
    let store = Store::open_read(dir, wait)?;
    let mut report = CheckReport::default();
    if let Err(e) = invariants(&store, &mut report) {
        report.problem(format!("cannot be read: {e}"));
    }
    Ok(report)
}

fn invariants(store: &Store, report: &mut CheckReport) -> std::result::Result<(), String> {
    let s = |e: &dyn std::fmt::Display| e.to_string();
    let txn = store.db.begin_read().map_err(|e| s(&e))?;
    let settings = txn.open_table(SETTINGS).map_err(|e| s(&e))?;
    let get = |k: &str| -> std::result::Result<Option<String>, String> {
        Ok(settings
            .get(k)
            .map_err(|e| s(&e))?
            .map(|v| v.value().to_string()))
    };
    match get("format")? {
        Some(f) if f == store::FORMAT => {}
        other => report.problem(format!("format is {other:?}, expected {}", store::FORMAT)),
    }
    let config = get("config")?.map(|c| serde_json::from_str::<crate::dedup::DedupConfig>(&c));
    let config = match config {
        Some(Ok(c)) => Some(c),
        Some(Err(e)) => {
            report.problem(format!("stored options do not parse: {e}"));
            None
        }
        None => {
            report.problem("the options the index was created with are missing".into());
            None
        }
    };
    if let Some(Err(e)) = config.as_ref().map(super::supported) {
        report.problem(format!("stored options: {e}"));
    }
    let next_id: u64 = match get("next_id")?.and_then(|v| v.parse().ok()) {
        Some(n) => n,
        None => {
            report.problem("next_id is missing or not a number".into());
            u64::MAX
        }
    };
    let keys = txn.open_table(KEYS).map_err(|e| s(&e))?;
    let docs = txn.open_table(DOCS).map_err(|e| s(&e))?;
    let shingles = txn.open_table(SHINGLES).map_err(|e| s(&e))?;
    let postings = txn.open_multimap_table(POSTINGS).map_err(|e| s(&e))?;
    let expected_bands = config.as_ref().and_then(|c| {
        (c.method == crate::dedup::Method::Minhash && c.sketch != crate::dedup::Sketch::BottomK)
            .then(|| c.banding().bands)
    });

    for entry in keys.iter().map_err(|e| s(&e))? {
        let (key, id) = entry.map_err(|e| s(&e))?;
        let (key, id) = (key.value(), id.value());
        match docs.get(id).map_err(|e| s(&e))? {
            None => report.problem(format!("key {key:?} names document {id}, which is missing")),
            Some(d) => match store::unseal(d.value()) {
                Ok((d, _)) if d.meta.key == key => {}
                Ok((d, _)) => report.problem(format!(
                    "key {key:?} names document {id}, whose key is {:?}",
                    d.meta.key
                )),
                Err(_) => {} // reported below with the document
            },
        }
    }
    // Documents are also posted under link keys of their URLs when canonical URLs join.
    let canonical = config.as_ref().is_some_and(|c| c.canonical);
    let mut band_total = 0u64;
    let mut date_counts: std::collections::HashMap<String, u64> = Default::default();
    for entry in docs.iter().map_err(|e| s(&e))? {
        let (id, blob) = entry.map_err(|e| s(&e))?;
        let id = id.value();
        report.documents += 1;
        if id >= next_id {
            report.problem(format!("document {id} is not below next_id {next_id}"));
        }
        let (doc, shingles_sum) = match store::unseal(blob.value()) {
            Ok(d) => d,
            Err(e) => {
                report.damaged.push(format!("document {id}: {e}"));
                continue;
            }
        };
        band_total += doc.posting_keys(canonical).len() as u64;
        for k in crate::dedup::template_dates::count_keys(&doc.meta) {
            *date_counts.entry(k).or_default() += 1;
        }
        match keys.get(doc.meta.key.as_str()).map_err(|e| s(&e))? {
            Some(k) if k.value() == id => {}
            Some(k) => report.problem(format!(
                "document {id} ({:?}) is not the one its key names ({})",
                doc.meta.key,
                k.value()
            )),
            None => report.problem(format!(
                "document {id} ({:?}) has no key entry",
                doc.meta.key
            )),
        }
        if doc.band_keys.is_empty() || !doc.band_keys.windows(2).all(|w| w[0] < w[1]) {
            report.problem(format!(
                "document {id}: band keys empty or not sorted and unique"
            ));
        }
        if let Some(b) = expected_bands {
            if doc.band_keys.len() > b {
                report.problem(format!(
                    "document {id}: {} band keys, the options give {b}",
                    doc.band_keys.len()
                ));
            }
        }
        match shingles.get(id).map_err(|e| s(&e))? {
            None => report.problem(format!("document {id}: shingle set missing")),
            Some(set) => match store::unseal_shingles(shingles_sum, set.value()) {
                Ok(set) if !set.is_empty() && set.windows(2).all(|w| w[0] < w[1]) => {}
                Ok(_) => report.problem(format!("document {id}: shingle set empty or not sorted")),
                Err(e) => report
                    .damaged
                    .push(format!("document {id} ({:?}): {e}", doc.meta.key)),
            },
        }
    }
    let (n_keys, n_sets) = (
        keys.len().map_err(|e| s(&e))?,
        shingles.len().map_err(|e| s(&e))?,
    );
    if n_keys != report.documents || n_sets != report.documents {
        report.problem(format!(
            "{} documents, {n_keys} keys, {n_sets} shingle sets: they must be equal",
            report.documents
        ));
    }
    for bucket in postings.iter().map_err(|e| s(&e))? {
        let (k, members) = bucket.map_err(|e| s(&e))?;
        let k = k.value();
        for m in members {
            let id = m.map_err(|e| s(&e))?.value();
            report.postings += 1;
            let has = match docs.get(id).map_err(|e| s(&e))? {
                None => false,
                Some(d) => store::unseal(d.value())
                    .map(|(d, _)| d.posting_keys(canonical).binary_search(&k).is_ok())
                    // A damaged document is listed as such; its postings are not doubted.
                    .unwrap_or(true),
            };
            if !has {
                report.problem(format!(
                    "posting {k:016x} → document {id}, which is missing or has no such band or URL key"
                ));
            }
        }
    }
    // (The counts of damaged documents are unknown: their postings and dates are not
    // counted against them.)
    if report.damaged.is_empty() && report.postings != band_total {
        report.problem(format!(
            "{} postings for {band_total} band and URL keys of documents: a document is missing from a bucket",
            report.postings
        ));
    }
    // The date counters must be those of the stored documents.
    let dates = txn.open_table(store::DATES).map_err(|e| s(&e))?;
    let mut wrong_dates = 0usize;
    for entry in dates.iter().map_err(|e| s(&e))? {
        let (k, n) = entry.map_err(|e| s(&e))?;
        if date_counts.remove(k.value()) != Some(n.value()) {
            wrong_dates += 1;
        }
    }
    wrong_dates += date_counts.len();
    if wrong_dates > 0 && report.damaged.is_empty() {
        report.problem(format!(
            "{wrong_dates} publication-date counters differ from the stored documents' dates"
        ));
    }
    let batches = txn.open_table(BATCHES).map_err(|e| s(&e))?;
    for b in batches.iter().map_err(|e| s(&e))? {
        let (n, json) = b.map_err(|e| s(&e))?;
        if serde_json::from_str::<serde_json::Value>(json.value()).is_err() {
            report.problem(format!("batch {} record does not parse", n.value()));
        }
    }
    Ok(())
}
