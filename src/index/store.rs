//! The on-disk store of a dedup index: one redb file (`DIR/index.redb`, ACID, crash-safe:
//! a killed process leaves the last committed transaction) and its tables, and how a
//! document is encoded in it.
//!
//! Tables:
//! - `settings`: `format` (this file's layout), `config` (the [`DedupConfig`] the index was
//!   created with, JSON), `next_id`;
//! - `keys`: document key → id; `docs`: id → [`StoredDoc`] without shingles (key, main-order
//!   fields, band keys) and a checksum of the document and its shingle set
//!   ([`seal`]); `shingles`: id → the sorted, deduplicated shingle set (what
//!   verification needs, kept apart so that walking band keys reads small values);
//! - `postings` (multimap): band key → ids of the documents that have it (LSH buckets);
//! - `batches`: batch number → JSON of what one `index add` did (`complete` false while it
//!   runs, so a killed add stays visible in `index stats`).
//!
//! Readers and the writer: the file is opened in redb's `SingleWriter` mode. One process
//! writes (`add`, `remove`, `repair`); any number of read-only handles (`query`, `stats`,
//! `export`, `check`) open it at the same time, each reading the last committed state,
//! and never write a byte (they work on a read-only file).

use std::path::{Path, PathBuf};

use chrono::{DateTime, Datelike, NaiveDate, Utc};
use redb::{
    ConcurrencyMode, Database, MultimapTableDefinition, ReadOnlyDatabase, ReadTransaction,
    ReadableDatabase, ReadableTable, TableDefinition, WriteTransaction,
};

use crate::choose_main::{DocMeta, Published};
use crate::dedup::{DedupConfig, DocEntry, DocSignature};
use crate::error::{Error, Result};

pub const SETTINGS: TableDefinition<&str, &str> = TableDefinition::new("settings");
pub const KEYS: TableDefinition<&str, u64> = TableDefinition::new("keys");
pub const DOCS: TableDefinition<u64, &[u8]> = TableDefinition::new("docs");
pub const SHINGLES: TableDefinition<u64, &[u8]> = TableDefinition::new("shingles");
pub const POSTINGS: MultimapTableDefinition<u64, u64> = MultimapTableDefinition::new("postings");
pub const BATCHES: TableDefinition<u64, &str> = TableDefinition::new("batches");
/// Counters of publication dates per host, day and instant
/// (`dedup::template_dates::count_keys`), kept with the documents so that a date a
/// site's template repeats is forgotten as one `dedup` run over all batches forgets it.
pub const DATES: TableDefinition<&str, u64> = TableDefinition::new("dates");

/// Add `delta` (±1) to the date counters of `meta` (a counter at zero is removed).
pub fn count_dates(
    table: &mut redb::Table<&str, u64>,
    meta: &DocMeta,
    delta: i64,
) -> std::result::Result<(), redb::StorageError> {
    for key in crate::dedup::template_dates::count_keys(meta) {
        let now = table.get(key.as_str())?.map_or(0, |v| v.value()) as i64 + delta;
        if now > 0 {
            table.insert(key.as_str(), now as u64)?;
        } else {
            table.remove(key.as_str())?;
        }
    }
    Ok(())
}

/// `meta`'s publication date forgotten when the stored counters make it its site
/// template's (as `dedup::template_dates::forget_template_dates` over all documents).
pub fn forget_template_date(
    table: &impl ReadableTable<&'static str, u64>,
    meta: &mut DocMeta,
) -> std::result::Result<(), redb::StorageError> {
    let Some(p) = meta.published else {
        return Ok(());
    };
    let keys = crate::dedup::template_dates::count_keys(meta);
    let mut counts = [0usize; 3];
    for (c, k) in counts.iter_mut().zip(&keys) {
        *c = table.get(k.as_str())?.map_or(0, |v| v.value()) as usize;
    }
    let [dated, same_day, same_instant] = counts;
    if crate::dedup::template_dates::is_template(&p, same_instant, same_day, dated) {
        meta.published = None;
    }
    Ok(())
}

/// Layout version of the tables; an index of another version is refused (it is not
/// converted: its documents carry no checksum to trust them by). 2: documents carry their
/// publication date, canonical URL and URL key (1 had neither); 3: each document record
/// ends with a checksum of the document and its shingle set (2 had none).
pub const FORMAT: &str = "3";

/// What each format added, for the message refusing an older one.
const FORMAT_HISTORY: &str =
    "format 2 stores publication dates and canonical URLs, format 3 a checksum of every document";

/// redb's page cache. redb's default (1 GiB) alone would exceed the memory budget of an
/// add of a million documents (≤ 1 GB peak); 256 MiB keeps the postings' upper B-tree
/// levels and the current batch's pages hot. Hand-set, not swept.
const CACHE_BYTES: usize = 256 << 20;

/// The file of the index in `dir`.
pub fn db_path(dir: &Path) -> PathBuf {
    dir.join("index.redb")
}

/// An error of the store at `path`.
pub fn store_err(path: &Path, e: impl std::fmt::Display) -> Error {
    Error::Index {
        path: path.to_path_buf(),
        message: e.to_string(),
    }
}

/// How [`catch_store_panics`] begins its message.
pub const PANIC_PREFIX: &str = "the store's pages are damaged";

/// Run `f`, turning a panic into an error of the store at `path`: redb panics on some
/// damaged pages (an `unreachable!` in its B-tree code) instead of returning an error.
/// The panic hook is silenced meanwhile, so no backtrace is printed.
pub fn catch_store_panics<T>(path: &Path, f: impl FnOnce() -> Result<T>) -> Result<T> {
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f));
    std::panic::set_hook(hook);
    outcome.unwrap_or_else(|payload| {
        let what = payload
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_default();
        Err(store_err(
            path,
            format!("{PANIC_PREFIX} (reading them failed: {what}); run `thresher index check`"),
        ))
    })
}

/// The open store.
pub struct Store {
    pub db: Db,
    pub path: PathBuf,
}

/// The redb handle: the writer, or a read-only handle (see the module comment).
pub enum Db {
    Write(Database),
    Read(ReadOnlyDatabase),
}

impl Db {
    pub fn begin_read(&self) -> std::result::Result<ReadTransaction, redb::TransactionError> {
        match self {
            Db::Write(db) => db.begin_read(),
            Db::Read(db) => db.begin_read(),
        }
    }

    /// A write transaction; a read-only handle has none (a bug of the caller).
    pub fn begin_write(&self) -> std::result::Result<WriteTransaction, String> {
        match self {
            Db::Write(db) => db.begin_write().map_err(|e| e.to_string()),
            Db::Read(_) => Err("opened read-only: no writes".into()),
        }
    }

    /// The writer, for redb's own integrity check and repair.
    pub fn writer(&mut self) -> Option<&mut Database> {
        match self {
            Db::Write(db) => Some(db),
            Db::Read(_) => None,
        }
    }
}

/// Whether `e` says the index is held by another process (not damaged).
pub fn is_busy(e: &Error) -> bool {
    matches!(e, Error::Index { message, .. } if message.starts_with("busy:"))
}

/// The message of an index another process holds.
const BUSY: &str = "busy: in use by another process (an `index add`, `remove` or `repair` still running); readers wait with --wait SECONDS";

impl Store {
    /// Open the index in `dir` to write; `create` makes the directory and an empty store
    /// when there is none (otherwise a missing index is an error).
    pub fn open(dir: &Path, create: bool) -> Result<Store> {
        let path = db_path(dir);
        if !path.exists() {
            if !create {
                return Err(no_index(&path));
            }
            std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
        }
        let mut builder = Database::builder();
        builder.set_cache_size(CACHE_BYTES);
        builder.set_concurrency_mode(ConcurrencyMode::SingleWriter);
        let db = if create {
            builder.create(&path)
        } else {
            builder.open(&path)
        }
        .map_err(|e| open_err(&path, e))?;
        Ok(Store {
            db: Db::Write(db),
            path,
        })
    }

    /// Open the index in `dir` read-only: nothing is written, a read-only file will do, and
    /// a running writer is no obstacle (its last commit is read). When the file is held
    /// exclusively (an older writer's lock), retry for up to `wait`, then say it is busy.
    pub fn open_read(dir: &Path, wait: std::time::Duration) -> Result<Store> {
        let path = db_path(dir);
        if !path.exists() {
            return Err(no_index(&path));
        }
        let mut builder = Database::builder();
        builder.set_cache_size(CACHE_BYTES);
        builder.set_concurrency_mode(ConcurrencyMode::SingleWriter);
        let until = std::time::Instant::now() + wait;
        let mut recovered = false;
        loop {
            match builder.open_read_only(&path) {
                Ok(db) => {
                    return Ok(Store {
                        db: Db::Read(db),
                        path,
                    })
                }
                // Not closed cleanly (a killed writer): redb's recovery restores the last
                // commit, as SQLite's readers roll back a hot journal; then it is read.
                // A cleanly closed index is never written by a reader.
                Err(redb::DatabaseError::RepairAborted) if !recovered => {
                    drop(builder.open(&path).map_err(|e| open_err(&path, e))?);
                    recovered = true;
                }
                Err(redb::DatabaseError::DatabaseAlreadyOpen)
                    if std::time::Instant::now() < until =>
                {
                    std::thread::sleep(std::time::Duration::from_millis(100));
                }
                Err(e) => return Err(open_err(&path, e)),
            }
        }
    }

    pub fn err(&self, e: impl std::fmt::Display) -> Error {
        store_err(&self.path, e)
    }

    /// The options the index was created with (`None` for a store never written to).
    pub fn config(&self) -> Result<Option<DedupConfig>> {
        let txn = self.db.begin_read().map_err(|e| self.err(e))?;
        let table = match txn.open_table(SETTINGS) {
            Ok(t) => t,
            Err(redb::TableError::TableDoesNotExist(_)) => return Ok(None),
            Err(e) => return Err(self.err(e)),
        };
        let format = table.get("format").map_err(|e| self.err(e))?;
        match format.as_ref().map(|v| v.value()) {
            Some(FORMAT) => {}
            Some(other) => {
                return Err(self.err(format!(
                    "index format {other}, this thresher reads format {FORMAT} only ({FORMAT_HISTORY}); build a new index from the batches with `thresher index add`"
                )))
            }
            None => return Ok(None),
        }
        let json = table
            .get("config")
            .map_err(|e| self.err(e))?
            .ok_or_else(|| {
                self.err("damaged: the options the index was created with are missing")
            })?;
        serde_json::from_str(json.value())
            .map(Some)
            .map_err(|e| self.err(format!("damaged: stored options do not parse: {e}")))
    }
}

fn no_index(path: &Path) -> Error {
    store_err(
        path,
        "no index here (create one with `thresher index add --index DIR ...`)",
    )
}

fn open_err(path: &Path, e: redb::DatabaseError) -> Error {
    match e {
        redb::DatabaseError::DatabaseAlreadyOpen => store_err(path, BUSY),
        e => store_err(
            path,
            format!("cannot be opened: {e} (run `thresher index check`)"),
        ),
    }
}

/// A stored document: what choosing a main needs, and its band keys (sorted, unique).
#[derive(Debug, Clone, PartialEq)]
pub struct StoredDoc {
    pub meta: DocMeta,
    pub band_keys: Vec<u64>,
}

impl StoredDoc {
    /// From a signed document; band keys sorted and deduplicated (LSH candidates do not
    /// depend on their order or repeats: `lsh::candidates` deduplicates them too).
    pub fn from_entry(entry: &DocEntry) -> Option<(StoredDoc, Vec<u64>)> {
        let sig = entry.signature.as_ref()?;
        let mut band_keys = sig.band_keys.clone();
        band_keys.sort_unstable();
        band_keys.dedup();
        let mut shingles = sig.shingles.clone();
        shingles.sort_unstable();
        shingles.dedup();
        Some((
            StoredDoc {
                meta: entry.meta.clone(),
                band_keys,
            },
            shingles,
        ))
    }

    /// The keys this document is posted under: its band keys and, when canonical URLs
    /// join documents, one link key for its canonical URL and one for its own URL, so
    /// that documents sharing a canonical URL (or one's URL the other's canonical) are in
    /// one component. Sorted, unique. A link key equal to a band key by chance only
    /// merges two components, which changes no cluster.
    pub fn posting_keys(&self, canonical: bool) -> Vec<u64> {
        let mut keys = self.band_keys.clone();
        if canonical {
            for url in [&self.meta.canonical, &self.meta.url_key]
                .into_iter()
                .flatten()
            {
                keys.push(link_key(url));
            }
            keys.sort_unstable();
            keys.dedup();
        }
        keys
    }

    /// Encoding (hand-written: a fixed little-endian layout keeps floats and times exact,
    /// which the main order compares, and needs no serialization crate):
    /// `flags u8 (1: fetched_at, 2: published, 4: published instant, 8: canonical,
    /// 16: url key) | secs i64 | nanos u32 | popularity f64 | boilerplate f64 |
    /// published day i32 (days from CE) | instant secs i64 | instant nanos u32 |
    /// n u32 | n band keys u64 | canonical: len u32, UTF-8 | url key: len u32, UTF-8 |
    /// key (UTF-8, the rest)`.
    pub fn encode(&self) -> Vec<u8> {
        let m = &self.meta;
        let mut out = Vec::with_capacity(61 + 8 * self.band_keys.len() + m.key.len());
        let instant = m.published.and_then(|p| p.instant);
        let flags = m.fetched_at.is_some() as u8
            | (m.published.is_some() as u8) << 1
            | (instant.is_some() as u8) << 2
            | (m.canonical.is_some() as u8) << 3
            | (m.url_key.is_some() as u8) << 4;
        out.push(flags);
        let (secs, nanos) = m
            .fetched_at
            .map_or((0, 0), |t| (t.timestamp(), t.timestamp_subsec_nanos()));
        out.extend_from_slice(&secs.to_le_bytes());
        out.extend_from_slice(&nanos.to_le_bytes());
        out.extend_from_slice(&m.popularity.to_bits().to_le_bytes());
        out.extend_from_slice(&m.boilerplate_ratio.to_bits().to_le_bytes());
        let day = m.published.map_or(0, |p| p.date.num_days_from_ce());
        out.extend_from_slice(&day.to_le_bytes());
        let (psecs, pnanos) =
            instant.map_or((0, 0), |t| (t.timestamp(), t.timestamp_subsec_nanos()));
        out.extend_from_slice(&psecs.to_le_bytes());
        out.extend_from_slice(&pnanos.to_le_bytes());
        out.extend_from_slice(&(self.band_keys.len() as u32).to_le_bytes());
        for k in &self.band_keys {
            out.extend_from_slice(&k.to_le_bytes());
        }
        for s in [&m.canonical, &m.url_key] {
            let s = s.as_deref().unwrap_or("");
            out.extend_from_slice(&(s.len() as u32).to_le_bytes());
            out.extend_from_slice(s.as_bytes());
        }
        out.extend_from_slice(m.key.as_bytes());
        out
    }

    pub fn decode(bytes: &[u8]) -> std::result::Result<StoredDoc, String> {
        let take = |at: usize, n: usize| {
            bytes
                .get(at..at + n)
                .ok_or_else(|| format!("document record of {} bytes is truncated", bytes.len()))
        };
        let u64_at = |at: usize| take(at, 8).map(|b| u64::from_le_bytes(b.try_into().unwrap()));
        let u32_at = |at: usize| take(at, 4).map(|b| u32::from_le_bytes(b.try_into().unwrap()));
        let flags = take(0, 1)?[0];
        if flags >> 5 != 0 || (flags & 4 != 0 && flags & 2 == 0) {
            return Err(format!("unknown flags {flags}"));
        }
        let secs = u64_at(1)? as i64;
        let nanos = u32_at(9)?;
        let popularity = f64::from_bits(u64_at(13)?);
        let boilerplate_ratio = f64::from_bits(u64_at(21)?);
        let day = u32_at(29)? as i32;
        let psecs = u64_at(33)? as i64;
        let pnanos = u32_at(41)?;
        let n = u32_at(45)? as usize;
        let band_keys = (0..n)
            .map(|i| u64_at(49 + 8 * i))
            .collect::<std::result::Result<Vec<u64>, String>>()?;
        let mut at = 49 + 8 * n;
        let mut text = |present: bool| -> std::result::Result<Option<String>, String> {
            let len = u32_at(at)? as usize;
            let s = std::str::from_utf8(take(at + 4, len)?)
                .map_err(|_| "a URL key is not UTF-8".to_string())?
                .to_string();
            at += 4 + len;
            Ok(present.then_some(s))
        };
        let canonical = text(flags & 8 != 0)?;
        let url_key = text(flags & 16 != 0)?;
        let key = std::str::from_utf8(&bytes[at.min(bytes.len())..])
            .map_err(|_| "document key is not UTF-8".to_string())?
            .to_string();
        let time = |secs: i64, nanos: u32, what: &str| {
            DateTime::<Utc>::from_timestamp(secs, nanos)
                .ok_or_else(|| format!("{what} {secs}.{nanos} out of range"))
        };
        let fetched_at = (flags & 1 != 0)
            .then(|| time(secs, nanos, "fetched_at"))
            .transpose()?;
        let published = if flags & 2 != 0 {
            let date = NaiveDate::from_num_days_from_ce_opt(day)
                .ok_or_else(|| format!("published day {day} out of range"))?;
            let instant = (flags & 4 != 0)
                .then(|| time(psecs, pnanos, "published"))
                .transpose()?;
            Some(Published { date, instant })
        } else {
            None
        };
        Ok(StoredDoc {
            meta: DocMeta {
                key,
                fetched_at,
                popularity,
                boilerplate_ratio,
                published,
                canonical,
                url_key,
            },
            band_keys,
        })
    }
}

/// Bytes a `docs` value holds after the document's encoding: the checksum of that
/// encoding, then the checksum of the document's shingle set (xxh3-64 each, little-endian).
const SEAL_BYTES: usize = 16;

/// The `docs` value of `doc` whose shingle set is stored as `shingles` (encoded): the
/// document's encoding and the two checksums, so that a changed bit in either value is
/// found when it is read ([`unseal`], [`unseal_shingles`]).
pub fn seal(doc: &StoredDoc, shingles: &[u8]) -> Vec<u8> {
    let mut value = doc.encode();
    let own = xxhash_rust::xxh3::xxh3_64(&value);
    value.extend_from_slice(&own.to_le_bytes());
    value.extend_from_slice(&xxhash_rust::xxh3::xxh3_64(shingles).to_le_bytes());
    value
}

/// The document of a `docs` value and the checksum its shingle set must have; `Err` when
/// the value fails its own checksum or does not decode.
pub fn unseal(value: &[u8]) -> std::result::Result<(StoredDoc, u64), String> {
    let Some(body_len) = value.len().checked_sub(SEAL_BYTES) else {
        return Err(format!(
            "document record of {} bytes is truncated",
            value.len()
        ));
    };
    let (body, seal) = value.split_at(body_len);
    let sum = |at: usize| u64::from_le_bytes(seal[at..at + 8].try_into().expect("8 bytes"));
    if xxhash_rust::xxh3::xxh3_64(body) != sum(0) {
        // The key, when it still decodes, tells the user which document it was.
        let named = StoredDoc::decode(body)
            .map(|d| format!(" (key {:?}, as far as it can be read)", d.meta.key))
            .unwrap_or_default();
        return Err(format!(
            "checksum mismatch: the document record is damaged{named}"
        ));
    }
    Ok((StoredDoc::decode(body)?, sum(8)))
}

/// The shingle set of a `shingles` value checked against the checksum its document
/// carries ([`unseal`]).
pub fn unseal_shingles(sum: u64, bytes: &[u8]) -> std::result::Result<Vec<u64>, String> {
    if xxhash_rust::xxh3::xxh3_64(bytes) != sum {
        return Err("checksum mismatch: the shingle set is damaged".into());
    }
    decode_shingles(bytes)
}

/// The posting key of a URL key (canonical or own; [`StoredDoc::posting_keys`]).
pub fn link_key(url_key: &str) -> u64 {
    xxhash_rust::xxh3::xxh3_64_with_seed(url_key.as_bytes(), 0x63616e6f6e)
}

pub fn encode_shingles(set: &[u64]) -> Vec<u8> {
    set.iter().flat_map(|s| s.to_le_bytes()).collect()
}

pub fn decode_shingles(bytes: &[u8]) -> std::result::Result<Vec<u64>, String> {
    if !bytes.len().is_multiple_of(8) {
        return Err(format!(
            "shingle set of {} bytes (not a multiple of 8)",
            bytes.len()
        ));
    }
    Ok(bytes
        .chunks_exact(8)
        .map(|b| u64::from_le_bytes(b.try_into().unwrap()))
        .collect())
}

/// A stored document as [`crate::dedup::find_clusters`] takes it.
pub fn doc_entry(doc: StoredDoc, shingles: Vec<u64>) -> DocEntry {
    DocEntry {
        meta: doc.meta,
        signature: Some(DocSignature {
            shingles,
            band_keys: doc.band_keys,
            three_five: None,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn document_encoding_round_trips_exactly() {
        let doc = StoredDoc {
            meta: DocMeta {
                key: "https://example.com/ü".into(),
                fetched_at: Some("2025-03-01T10:20:30.123456789Z".parse().unwrap()),
                popularity: 0.1 + 0.2,
                boilerplate_ratio: 1.0 / 3.0,
                published: Published::parse("2024-12-11T01:00:00.5+09:00"),
                canonical: Some("x.com/a".into()),
                url_key: Some("x.com/a/print?p=1".into()),
            },
            band_keys: vec![1, u64::MAX, 42],
        };
        assert_eq!(StoredDoc::decode(&doc.encode()).unwrap(), doc);
        for (published, canonical, url_key) in [
            (Published::parse("1999-01-02"), None, Some("y.org")),
            (None, Some("é.com/ü"), None),
            (Published::parse("0001-01-01"), Some(""), Some("")),
        ] {
            let other = StoredDoc {
                meta: DocMeta {
                    published,
                    canonical: canonical.map(String::from),
                    url_key: url_key.map(String::from),
                    ..doc.meta.clone()
                },
                band_keys: vec![7],
            };
            assert_eq!(StoredDoc::decode(&other.encode()).unwrap(), other);
        }
        let none = StoredDoc {
            meta: DocMeta {
                fetched_at: None,
                ..doc.meta.clone()
            },
            band_keys: vec![],
        };
        assert_eq!(StoredDoc::decode(&none.encode()).unwrap(), none);
        assert!(StoredDoc::decode(&doc.encode()[..20]).is_err());
        assert_eq!(decode_shingles(&encode_shingles(&[3, 9])).unwrap(), [3, 9]);
        assert!(decode_shingles(&[1, 2, 3]).is_err());
    }

    #[test]
    fn every_changed_bit_of_a_stored_document_is_found() {
        let doc = StoredDoc {
            meta: DocMeta {
                key: "k".into(),
                fetched_at: None,
                popularity: 1.0,
                boilerplate_ratio: 0.5,
                published: None,
                canonical: None,
                url_key: None,
            },
            band_keys: vec![5, 9],
        };
        let set = encode_shingles(&[1, 2, 3]);
        let value = seal(&doc, &set);
        let (back, sum) = unseal(&value).unwrap();
        assert_eq!(back, doc);
        assert_eq!(unseal_shingles(sum, &set).unwrap(), [1, 2, 3]);
        for bit in 0..value.len() * 8 {
            let mut v = value.clone();
            v[bit / 8] ^= 1 << (bit % 8);
            let ok = unseal(&v).is_ok_and(|(d, s)| d == doc && unseal_shingles(s, &set).is_ok());
            assert!(!ok, "bit {bit} of the document record");
        }
        for bit in 0..set.len() * 8 {
            let mut v = set.clone();
            v[bit / 8] ^= 1 << (bit % 8);
            assert!(
                unseal_shingles(sum, &v).is_err(),
                "bit {bit} of the shingle set"
            );
        }
        assert!(unseal(&value[..10]).is_err());
    }
}
