//! `thresher sign`'s Parquet file: one row per document with what a cluster engine (the
//! PySpark job in `spark/`) needs to reproduce `thresher dedup` exactly — the document's
//! number and key, the main-order fields and a sortable key of them, the candidate keys
//! (LSH band hashes), the MinHash signature, and the sorted shingle set for verification.
//! The dedup configuration travels in the file's key-value metadata, so the job and
//! `thresher clusters import` use the signer's threshold, measure and main order.
//!
//! u64 hashes are stored as Parquet INT64 (the same 64 bits, read as signed): equality and
//! set intersection, all the job does with them, do not depend on the sign.

use std::collections::HashMap;
use std::io::Write;
use std::path::Path;
use std::sync::Arc;

use arrow_array::builder::{
    BooleanBuilder, Float64Builder, Int64Builder, ListBuilder, StringBuilder,
};
use arrow_array::{Array, ArrayRef, RecordBatch};
use arrow_schema::{DataType, Field, Schema};
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use parquet::arrow::{ArrowWriter, ProjectionMask};

use chrono::Datelike;

use crate::choose_main::{Criterion, DocMeta, MainOrder, Published};
use crate::dedup::{minhash, DedupConfig, DocEntry, Method, Sketch};
use crate::error::{Error, Result};

use super::{column, parquet_error, writer_properties};

/// Key of the file metadata holding the dedup configuration (JSON).
pub const CONFIG_KEY: &str = "thresher.dedup_config";
/// Rows per row group: ~3 KB of shingles per document, so ~25 MB per group before
/// compression (bounded memory while writing; hand-set, results do not depend on it).
const ROWS_PER_GROUP: usize = 8192;

/// The columns of a signatures file.
pub fn schema() -> Arc<Schema> {
    let list = |name: &str| {
        Field::new(
            name,
            DataType::List(Arc::new(Field::new("item", DataType::Int64, false))),
            false,
        )
    };
    Arc::new(Schema::new(vec![
        Field::new("doc", DataType::Int64, false),
        Field::new("key", DataType::Utf8, false),
        Field::new("fetched_at", DataType::Utf8, true),
        Field::new("popularity", DataType::Float64, false),
        Field::new("boilerplate_ratio", DataType::Float64, false),
        // The publication date as the main order compares it (template dates already
        // forgotten): the day as written, and the UTC instant when the source gave one.
        Field::new("published", DataType::Utf8, true),
        Field::new("published_at", DataType::Utf8, true),
        // The canonical URL and the document's own URL as dedup compares them
        // (`dedup::canonical::url_key`: no scheme, no `www.`, no trailing `/`).
        Field::new("canonical_url", DataType::Utf8, true),
        Field::new("url_key", DataType::Utf8, true),
        list("order"),
        Field::new("signed", DataType::Boolean, false),
        list("bands"),
        list("minhash"),
        list("shingles"),
    ]))
}

/// The main order as one sortable vector of integers: comparing two documents' vectors
/// lexicographically gives [`MainOrder::compare_criteria`] (the key and the document
/// number break the remaining ties, as in `dedup`).
pub fn order_key(order: &MainOrder, meta: &DocMeta) -> Vec<i64> {
    // The i64 image of f64::total_cmp (its own bit trick): ascending integers = ascending
    // floats in the total order.
    fn total(x: f64) -> i64 {
        let b = x.to_bits() as i64;
        b ^ ((((b >> 63) as u64) >> 1) as i64)
    }
    let mut out = Vec::with_capacity(4);
    for c in &order.0 {
        match c {
            Criterion::FetchedAt => match meta.fetched_at {
                Some(t) => out.extend([0, t.timestamp(), t.timestamp_subsec_nanos() as i64]),
                None => out.extend([1, 0, 0]),
            },
            // Higher popularity first: the bitwise complement reverses the order.
            Criterion::Popularity => out.push(!total(meta.popularity)),
            Criterion::Boilerplate => out.push(total(meta.boilerplate_ratio)),
            // `Published::cmp_time`'s key (UTC day, then the instant's second, a date
            // alone after every instant of its day); undated documents last.
            Criterion::Published => match &meta.published {
                Some(p) => {
                    let day = p.instant.map_or(p.date, |t| t.date_naive());
                    out.extend([
                        0,
                        day.num_days_from_ce() as i64,
                        p.instant.map_or(i64::MAX, |t| t.timestamp()),
                    ]);
                }
                None => out.extend([1, 0, 0]),
            },
        }
    }
    out
}

/// The MinHash signature behind a document's band keys (empty for lexical methods, and
/// for bottom-k, whose "signature" is its keys). Mirrors `Signer::sign`; the test
/// `signature_gives_the_band_keys` keeps the two in step.
fn minhash_signature(shingles: &[u64], config: &DedupConfig) -> Vec<u64> {
    if config.method != Method::Minhash || config.sketch == Sketch::BottomK {
        return Vec::new();
    }
    let k = config.sketch_len();
    let sampled: Vec<u64>;
    let input: &[u64] = if config.sample_mod > 1 {
        sampled = shingles
            .iter()
            .copied()
            .filter(|&s| minhash::mix64(s ^ 0xa5a5).is_multiple_of(config.sample_mod))
            .collect();
        if sampled.is_empty() {
            shingles
        } else {
            &sampled
        }
    } else {
        shingles
    };
    match config.sketch {
        Sketch::Oph => minhash::signature(input, k).unwrap_or_default(),
        Sketch::NPerm => minhash::n_permutation(input, k),
        Sketch::BottomK => Vec::new(),
    }
}

/// Whether the Spark job can reproduce `dedup` with this configuration: it verifies
/// pairs by the measure alone, so methods with their own pair tests are refused.
pub fn check_supported(config: &DedupConfig) -> Result<()> {
    if matches!(config.method, Method::Decomposition | Method::ThreeFive) {
        return Err(Error::Config(format!(
            "sign: method {} has its own pair test, which the Spark job does not implement; use minhash or another lexical signature",
            config.method
        )));
    }
    if !config.verify {
        return Err(Error::Config(
            "sign: --no-verify is not supported by the Spark job (it always verifies)".into(),
        ));
    }
    Ok(())
}

/// Write the signatures of `docs` (numbered by their position, as `dedup` ranks ties)
/// to `out` as Parquet; `name` names the output in errors.
pub fn write_signatures<W: Write + Send>(
    docs: &[DocEntry],
    config: &DedupConfig,
    out: W,
    name: &Path,
) -> Result<()> {
    check_supported(config)?;
    let schema = schema();
    let config_json = serde_json::to_string(config).expect("config serializes");
    let props = writer_properties(vec![(CONFIG_KEY.to_string(), config_json)], ROWS_PER_GROUP);
    let mut writer = ArrowWriter::try_new(out, schema.clone(), Some(props))
        .map_err(|e| parquet_error(name, e))?;
    for (chunk_no, chunk) in docs.chunks(ROWS_PER_GROUP).enumerate() {
        let first = chunk_no * ROWS_PER_GROUP;
        let mut doc = Int64Builder::new();
        let mut key = StringBuilder::new();
        let mut fetched = StringBuilder::new();
        let mut popularity = Float64Builder::new();
        let mut boilerplate = Float64Builder::new();
        let mut published = StringBuilder::new();
        let mut published_at = StringBuilder::new();
        let mut canonical = StringBuilder::new();
        let mut url_key = StringBuilder::new();
        let mut order = ListBuilder::new(Int64Builder::new()).with_field(item_field());
        let mut signed = BooleanBuilder::new();
        let mut bands = ListBuilder::new(Int64Builder::new()).with_field(item_field());
        let mut sig = ListBuilder::new(Int64Builder::new()).with_field(item_field());
        let mut shingles = ListBuilder::new(Int64Builder::new()).with_field(item_field());
        for (i, d) in chunk.iter().enumerate() {
            doc.append_value((first + i) as i64);
            key.append_value(&d.meta.key);
            fetched.append_option(
                d.meta
                    .fetched_at
                    .map(|t| t.to_rfc3339_opts(chrono::SecondsFormat::AutoSi, true)),
            );
            popularity.append_value(d.meta.popularity);
            boilerplate.append_value(d.meta.boilerplate_ratio);
            let p = d.meta.published.as_ref();
            published.append_option(p.map(|p| p.date.format("%Y-%m-%d").to_string()));
            published_at.append_option(
                p.and_then(|p| p.instant)
                    .map(|t| t.to_rfc3339_opts(chrono::SecondsFormat::AutoSi, true)),
            );
            canonical.append_option(d.meta.canonical.as_deref());
            url_key.append_option(d.meta.url_key.as_deref());
            order
                .values()
                .append_slice(&order_key(&config.main_order, &d.meta));
            order.append(true);
            signed.append_value(d.signature.is_some());
            if let Some(s) = &d.signature {
                let mut set = s.shingles.clone();
                set.sort_unstable();
                set.dedup();
                for &b in &s.band_keys {
                    bands.values().append_value(b as i64);
                }
                for v in minhash_signature(&s.shingles, config) {
                    sig.values().append_value(v as i64);
                }
                for v in set {
                    shingles.values().append_value(v as i64);
                }
            }
            bands.append(true);
            sig.append(true);
            shingles.append(true);
        }
        let columns: Vec<ArrayRef> = vec![
            Arc::new(doc.finish()),
            Arc::new(key.finish()),
            Arc::new(fetched.finish()),
            Arc::new(popularity.finish()),
            Arc::new(boilerplate.finish()),
            Arc::new(published.finish()),
            Arc::new(published_at.finish()),
            Arc::new(canonical.finish()),
            Arc::new(url_key.finish()),
            Arc::new(order.finish()),
            Arc::new(signed.finish()),
            Arc::new(bands.finish()),
            Arc::new(sig.finish()),
            Arc::new(shingles.finish()),
        ];
        let batch = RecordBatch::try_new(schema.clone(), columns)
            .map_err(|e| Error::Config(format!("signature batch: {e}")))?;
        writer.write(&batch).map_err(|e| parquet_error(name, e))?;
    }
    writer.close().map_err(|e| parquet_error(name, e))?;
    Ok(())
}

fn item_field() -> Arc<Field> {
    Arc::new(Field::new("item", DataType::Int64, false))
}

/// The dedup configuration a signatures file was written with.
pub fn read_config(path: &Path) -> Result<DedupConfig> {
    let file = std::fs::File::open(path).map_err(|e| Error::io(path, e))?;
    let builder =
        ParquetRecordBatchReaderBuilder::try_new(file).map_err(|e| parquet_error(path, e))?;
    let json = builder
        .metadata()
        .file_metadata()
        .key_value_metadata()
        .and_then(|kv| kv.iter().find(|k| k.key == CONFIG_KEY))
        .and_then(|k| k.value.clone())
        .ok_or_else(|| {
            Error::Config(format!(
                "{}: not a `thresher sign` file (no {CONFIG_KEY} metadata)",
                path.display()
            ))
        })?;
    serde_json::from_str(&json)
        .map_err(|e| Error::Config(format!("{}: {CONFIG_KEY}: {e}", path.display())))
}

/// The main-order fields of the documents numbered in `wanted` (all of them when `None`),
/// by document number; reads only those columns.
pub fn read_metas(path: &Path, wanted: Option<&[i64]>) -> Result<HashMap<i64, DocMeta>> {
    let file = std::fs::File::open(path).map_err(|e| Error::io(path, e))?;
    let builder =
        ParquetRecordBatchReaderBuilder::try_new(file).map_err(|e| parquet_error(path, e))?;
    let mask = ProjectionMask::columns(
        builder.parquet_schema(),
        [
            "doc",
            "key",
            "fetched_at",
            "popularity",
            "boilerplate_ratio",
            "published",
            "published_at",
            "canonical_url",
            "url_key",
        ],
    );
    let reader = builder
        .with_projection(mask)
        .build()
        .map_err(|e| parquet_error(path, e))?;
    let wanted: Option<std::collections::HashSet<i64>> =
        wanted.map(|w| w.iter().copied().collect());
    let mut out = HashMap::new();
    for batch in reader {
        let batch = batch.map_err(|e| parquet_error(path, e))?;
        let doc = column::<arrow_array::Int64Array>(&batch, "doc", path)?;
        let key = column::<arrow_array::StringArray>(&batch, "key", path)?;
        let fetched = column::<arrow_array::StringArray>(&batch, "fetched_at", path)?;
        let popularity = column::<arrow_array::Float64Array>(&batch, "popularity", path)?;
        let boilerplate = column::<arrow_array::Float64Array>(&batch, "boilerplate_ratio", path)?;
        let published = column::<arrow_array::StringArray>(&batch, "published", path)?;
        let published_at = column::<arrow_array::StringArray>(&batch, "published_at", path)?;
        let canonical = column::<arrow_array::StringArray>(&batch, "canonical_url", path)?;
        let url_key = column::<arrow_array::StringArray>(&batch, "url_key", path)?;
        let text = |a: &arrow_array::StringArray, i: usize| {
            (!a.is_null(i)).then(|| a.value(i).to_string())
        };
        for i in 0..batch.num_rows() {
            let d = doc.value(i);
            if wanted.as_ref().is_some_and(|w| !w.contains(&d)) {
                continue;
            }
            let fetched_at = if fetched.is_null(i) {
                None
            } else {
                Some(fetched.value(i).parse().map_err(|e| {
                    Error::Config(format!("{}: doc {d}: fetched_at: {e}", path.display()))
                })?)
            };
            out.insert(
                d,
                DocMeta {
                    key: key.value(i).to_string(),
                    fetched_at,
                    popularity: popularity.value(i),
                    boilerplate_ratio: boilerplate.value(i),
                    published: read_published(
                        text(published, i).as_deref(),
                        text(published_at, i).as_deref(),
                    )
                    .map_err(|e| {
                        Error::Config(format!("{}: doc {d}: published: {e}", path.display()))
                    })?,
                    canonical: text(canonical, i),
                    url_key: text(url_key, i),
                },
            );
        }
    }
    Ok(out)
}

/// A [`Published`] back from its two columns (the day, the instant).
fn read_published(
    day: Option<&str>,
    instant: Option<&str>,
) -> std::result::Result<Option<Published>, String> {
    let Some(day) = day else {
        return match instant {
            None => Ok(None),
            Some(_) => Err("published_at without published".into()),
        };
    };
    let date =
        chrono::NaiveDate::parse_from_str(day, "%Y-%m-%d").map_err(|e| format!("`{day}`: {e}"))?;
    let instant = instant
        .map(|t| t.parse().map_err(|e| format!("`{t}`: {e}")))
        .transpose()?;
    Ok(Some(Published { date, instant }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dedup::Signer;

    fn meta(t: Option<&str>, pop: f64, bp: f64) -> DocMeta {
        DocMeta {
            key: "k".into(),
            fetched_at: t.map(|t| t.parse().unwrap()),
            popularity: pop,
            boilerplate_ratio: bp,
            published: None,
            canonical: None,
            url_key: None,
        }
    }

    #[test]
    fn order_key_sorts_like_main_order() {
        let metas = [
            meta(Some("2025-01-02T00:00:00Z"), 5.0, 0.1),
            meta(Some("2025-01-01T00:00:00.5Z"), 1.0, 0.1),
            meta(Some("2025-01-01T00:00:00Z"), 1.0, 0.3),
            meta(Some("2025-01-01T00:00:00Z"), 1.0, -0.0),
            meta(Some("2025-01-01T00:00:00Z"), 2.5, 0.9),
            meta(Some("1960-01-01T00:00:00.25Z"), -3.0, 0.0),
            meta(None, 100.0, 0.0),
            meta(None, -1.0, 0.0),
        ];
        // Every published form against every other: a day alone, instants on that day
        // and the next (one from an offset that moves it to another UTC day), none.
        let mut metas = metas.to_vec();
        for (i, p) in [
            "2024-12-10",
            "2024-12-10",
            "2024-12-10T23:00:00Z",
            "2024-12-11T01:00:00+09:00",
            "2024-12-10T20:00:00.7Z",
            "2024-12-11",
            "1969-07-20T20:17:40Z",
        ]
        .iter()
        .enumerate()
        {
            let mut m = metas[i % 8].clone();
            m.published = Published::parse(p);
            metas.push(m);
        }
        for order in [
            MainOrder::default(),
            "published,boilerplate".parse().unwrap(),
            "boilerplate,popularity".parse().unwrap(),
            "popularity,fetched_at".parse().unwrap(),
        ] {
            for a in &metas {
                for b in &metas {
                    assert_eq!(
                        order_key(&order, a).cmp(&order_key(&order, b)),
                        order.compare_criteria(a, b),
                        "{order:?} {a:?} {b:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn signature_gives_the_band_keys() {
        let text = (0..300)
            .map(|i| format!("w{}", i * 7 % 101))
            .collect::<Vec<_>>()
            .join(" ");
        for (sketch, sample_mod) in [(Sketch::Oph, 0), (Sketch::NPerm, 0), (Sketch::Oph, 3)] {
            let config = DedupConfig {
                sketch,
                sample_mod,
                ..DedupConfig::default()
            };
            let s = Signer::new(&config).sign(&text).unwrap();
            let sig = minhash_signature(&s.shingles, &config);
            assert_eq!(sig.len(), config.sketch_len());
            assert_eq!(
                config.banding().keys(&sig),
                s.band_keys,
                "{sketch:?} {sample_mod}"
            );
        }
    }

    #[test]
    fn signatures_round_trip_with_config() {
        let config = DedupConfig {
            threshold: 0.75,
            ..DedupConfig::default()
        };
        let signer = Signer::new(&config);
        let docs = vec![
            DocEntry {
                meta: DocMeta {
                    key: "a".into(),
                    fetched_at: Some("2025-03-01T10:00:00.123Z".parse().unwrap()),
                    popularity: 2.0,
                    boilerplate_ratio: 0.25,
                    published: Published::parse("2025-02-28T23:30:00.25-05:00"),
                    canonical: Some("x.com/a".into()),
                    url_key: Some("x.com/a/print".into()),
                },
                signature: signer.sign("one two three four five six seven"),
            },
            DocEntry {
                meta: meta(None, 0.0, 0.0),
                signature: None,
            },
        ];
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.parquet");
        write_signatures(&docs, &config, std::fs::File::create(&path).unwrap(), &path).unwrap();
        assert_eq!(read_config(&path).unwrap().threshold, 0.75);
        let metas = read_metas(&path, None).unwrap();
        assert_eq!(metas[&0], docs[0].meta);
        assert_eq!(metas[&1], docs[1].meta);
        let mut dated = docs[1].meta.clone();
        dated.published = Published::parse("2025-01-05");
        assert_eq!(
            read_published(Some("2025-01-05"), None).unwrap(),
            dated.published
        );
        assert!(read_published(None, Some("2025-01-05T00:00:00Z")).is_err());
        assert_eq!(read_metas(&path, Some(&[1])).unwrap().len(), 1);
    }
}
