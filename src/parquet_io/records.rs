//! Records as Parquet: JSONL records (`extract`'s, `run`'s pages, `dedup`'s clusters)
//! converted to a Parquet file whose columns are the records' fields, and Parquet files read
//! back as JSON lines so that `dedup` and `sign` parse them with the same code as JSONL.
//!
//! The schema is inferred from all the records (arrow-json), so fields added to the
//! records later become columns without a change here; a field absent from a record is
//! null, a field that is sometimes an integer and sometimes a float is a float.

use std::io::{BufRead, Read, Write};
use std::path::Path;
use std::sync::Arc;

use arrow_array::RecordBatch;
use arrow_json::reader::infer_json_schema_from_iterator;
use arrow_schema::{DataType, Field, Schema, SchemaRef};
use parquet::arrow::arrow_reader::{ParquetRecordBatchReader, ParquetRecordBatchReaderBuilder};
use parquet::arrow::ArrowWriter;

use crate::error::{Error, Result};
use crate::render::OutputFormat;

use super::{parquet_error, writer_properties};

/// Records per row group and per conversion batch (bounded memory; hand-set, the file's
/// contents do not depend on it).
const ROWS_PER_BATCH: usize = 4096;

/// The columns of extraction records (`extract`'s records and error records) as Arrow
/// batches: every field a record or an error record can have, in the order `extract`
/// writes them, strings and floats, all nullable (a field a record leaves out is null).
/// Batches of records are built against it in strict mode, so a record field missing here
/// is an error, not a silently dropped column (see the test below).
pub fn page_record_schema() -> SchemaRef {
    page_record_schema_for(OutputFormat::Text)
}

/// [`page_record_schema`] for records rendered as `format`: with the `markdown` or
/// `html` column after `text`.
pub fn page_record_schema_for(format: OutputFormat) -> SchemaRef {
    let utf8 = |name: &str| Field::new(name, DataType::Utf8, true);
    let float = |name: &str| Field::new(name, DataType::Float64, true);
    let int = |name: &str| Field::new(name, DataType::Int64, true);
    let mut fields = vec![
        utf8("path"),
        utf8("url"),
        utf8("group"),
        utf8("title"),
        utf8("text"),
    ];
    match format {
        OutputFormat::Text => {}
        OutputFormat::Markdown => fields.push(utf8("markdown")),
        OutputFormat::Html => fields.push(utf8("html")),
    }
    fields.extend([
        utf8("method"),
        utf8("date"),
        utf8("fetched_at"),
        float("popularity"),
        float("boilerplate_ratio"),
        float("template_ratio"),
        utf8("charset"),
        utf8("empty_reason"),
        int("truncated_at"),
        int("tags_cut_at"),
        int("attributes_dropped"),
        utf8("published"),
        utf8("published_source"),
        utf8("lang"),
        utf8("canonical_url"),
        utf8("author"),
        utf8("site_name"),
        utf8("description"),
        utf8("error"),
        utf8("error_kind"),
    ]);
    Arc::new(Schema::new(fields))
}

/// Records (anything that serializes as an extraction record or error record, e.g.
/// `pipeline::RecordOut`) as one Arrow batch of [`page_record_schema`]: the same field
/// values as their JSON lines.
pub fn page_records_batch<T: serde::Serialize>(records: &[T]) -> Result<RecordBatch> {
    page_records_batch_for(records, OutputFormat::Text)
}

/// [`page_records_batch`] of records rendered as `format` ([`page_record_schema_for`]).
pub fn page_records_batch_for<T: serde::Serialize>(
    records: &[T],
    format: OutputFormat,
) -> Result<RecordBatch> {
    let schema = page_record_schema_for(format);
    let mut decoder = arrow_json::ReaderBuilder::new(schema.clone())
        .with_batch_size(records.len().max(1))
        .with_strict_mode(true)
        .build_decoder()
        .map_err(|e| Error::Config(format!("record batch: {e}")))?;
    decoder
        .serialize(records)
        .map_err(|e| Error::Config(format!("record batch: {e}")))?;
    Ok(decoder
        .flush()
        .map_err(|e| Error::Config(format!("record batch: {e}")))?
        .unwrap_or_else(|| RecordBatch::new_empty(schema)))
}

/// A change applied to each record before it is written (e.g. clusters' `similarity`
/// map, whose keys are document ids, becomes a list aligned with `members`).
pub type Rewrite = fn(&mut serde_json::Value);

/// For `clusters.jsonl` records: `similarity` as a list in the order of `members`
/// (a map keyed by document ids would become one column per document).
pub fn clusters_rewrite(rec: &mut serde_json::Value) {
    let Some(obj) = rec.as_object_mut() else {
        return;
    };
    let members: Vec<String> = obj
        .get("members")
        .and_then(|m| m.as_array())
        .map(|m| {
            m.iter()
                .filter_map(|v| v.as_str().map(String::from))
                .collect()
        })
        .unwrap_or_default();
    if let Some(serde_json::Value::Object(map)) = obj.get("similarity") {
        let list: Vec<serde_json::Value> = members
            .iter()
            .map(|k| map.get(k).cloned().unwrap_or(serde_json::Value::Null))
            .collect();
        obj.insert("similarity".into(), serde_json::Value::Array(list));
    }
}

fn read_lines(
    src: &Path,
    rewrite: Option<Rewrite>,
) -> Result<impl Iterator<Item = Result<serde_json::Value>>> {
    let file = std::fs::File::open(src).map_err(|e| Error::io(src, e))?;
    let src = src.to_path_buf();
    Ok(std::io::BufReader::new(file)
        .lines()
        .enumerate()
        .filter(|(_, l)| l.as_ref().map_or(true, |l| !l.trim().is_empty()))
        .map(move |(n, line)| {
            let line = line.map_err(|e| Error::io(&src, e))?;
            let mut v: serde_json::Value =
                serde_json::from_str(&line).map_err(|e| Error::BadLine {
                    path: src.clone(),
                    line: n + 1,
                    message: e.to_string(),
                })?;
            if let Some(f) = rewrite {
                f(&mut v);
            }
            Ok(v)
        }))
}

/// Convert the JSONL file `src` to Parquet written to `out` (`name` names it in errors).
/// Two passes over `src`: the schema, then the rows. Returns the number of records.
pub fn jsonl_to_parquet<W: Write + Send>(
    src: &Path,
    out: W,
    name: &Path,
    rewrite: Option<Rewrite>,
) -> Result<usize> {
    let mut first_error = None;
    let schema = infer_json_schema_from_iterator(
        read_lines(src, rewrite)?.map_while(|r| r.map_err(|e| first_error = Some(e)).ok().map(Ok)),
    )
    .map_err(|e| Error::Config(format!("{}: record schema: {e}", src.display())))?;
    if let Some(e) = first_error {
        return Err(e);
    }
    let schema = Arc::new(schema);
    let props = writer_properties(
        vec![("thresher.records".into(), src.display().to_string())],
        ROWS_PER_BATCH,
    );
    let mut writer = ArrowWriter::try_new(out, schema.clone(), Some(props))
        .map_err(|e| parquet_error(name, e))?;
    let mut decoder = arrow_json::ReaderBuilder::new(schema)
        .with_batch_size(ROWS_PER_BATCH)
        .build_decoder()
        .map_err(|e| parquet_error(name, e))?;
    let mut rows = 0;
    let mut pending: Vec<serde_json::Value> = Vec::with_capacity(ROWS_PER_BATCH);
    let mut lines = read_lines(src, rewrite)?.peekable();
    while lines.peek().is_some() {
        pending.clear();
        for v in lines.by_ref().take(ROWS_PER_BATCH) {
            pending.push(v?);
        }
        rows += pending.len();
        decoder
            .serialize(&pending)
            .map_err(|e| Error::Config(format!("{}: {e}", src.display())))?;
        if let Some(batch) = decoder.flush().map_err(|e| parquet_error(name, e))? {
            writer.write(&batch).map_err(|e| parquet_error(name, e))?;
        }
    }
    writer.close().map_err(|e| parquet_error(name, e))?;
    Ok(rows)
}

/// Convert `src` (JSONL) into the Parquet file `dest`, written beside it first and
/// renamed into place, then remove `src`.
pub fn replace_jsonl_with_parquet(
    src: &Path,
    dest: &Path,
    rewrite: Option<Rewrite>,
) -> Result<usize> {
    let partial = dest.with_extension("parquet.partial");
    let file = std::fs::File::create(&partial).map_err(|e| Error::io(&partial, e))?;
    let rows = jsonl_to_parquet(src, std::io::BufWriter::new(file), dest, rewrite)?;
    std::fs::rename(&partial, dest).map_err(|e| Error::io(dest, e))?;
    std::fs::remove_file(src).map_err(|e| Error::io(src, e))?;
    Ok(rows)
}

/// A Parquet file read as JSON lines (one object per row, null fields left out), for the
/// readers of JSONL records.
pub struct ParquetLines {
    reader: ParquetRecordBatchReader,
    buf: Vec<u8>,
    pos: usize,
    path: std::path::PathBuf,
}

impl ParquetLines {
    pub fn open(path: &Path) -> Result<Self> {
        let file = std::fs::File::open(path).map_err(|e| Error::io(path, e))?;
        Self::from_file(file, path)
    }

    /// The rows of an open Parquet file (`path` names it in errors).
    pub fn from_file(file: std::fs::File, path: &Path) -> Result<Self> {
        Self::from_reader(file, path)
    }

    /// The rows of a Parquet file held in memory (one read from a pipe).
    pub fn from_bytes(data: Vec<u8>, path: &Path) -> Result<Self> {
        Self::from_reader(bytes::Bytes::from(data), path)
    }

    fn from_reader<T: parquet::file::reader::ChunkReader + 'static>(
        data: T,
        path: &Path,
    ) -> Result<Self> {
        let reader = ParquetRecordBatchReaderBuilder::try_new(data)
            .and_then(|b| b.with_batch_size(1024).build())
            .map_err(|e| parquet_error(path, e))?;
        Ok(ParquetLines {
            reader,
            buf: Vec::new(),
            pos: 0,
            path: path.to_path_buf(),
        })
    }

    /// As a buffered reader of lines.
    pub fn into_bufread(self) -> Box<dyn BufRead> {
        Box::new(std::io::BufReader::with_capacity(1 << 16, self))
    }
}

impl Read for ParquetLines {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        while self.pos == self.buf.len() {
            let Some(batch) = self.reader.next() else {
                return Ok(0);
            };
            let batch = batch.map_err(|e| {
                std::io::Error::other(format!("{}: parquet: {e}", self.path.display()))
            })?;
            self.buf.clear();
            self.pos = 0;
            let mut w = arrow_json::LineDelimitedWriter::new(&mut self.buf);
            w.write(&batch)
                .and_then(|_| w.finish())
                .map_err(|e| std::io::Error::other(format!("{}: {e}", self.path.display())))?;
        }
        let n = out.len().min(self.buf.len() - self.pos);
        out[..n].copy_from_slice(&self.buf[self.pos..self.pos + n]);
        self.pos += n;
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jsonl_round_trips_through_parquet() {
        let dir = tempfile::tempdir().unwrap();
        let src = dir.path().join("r.jsonl");
        std::fs::write(
            &src,
            "{\"path\":\"a\",\"text\":\"x y\",\"popularity\":1,\"fetched_at\":\"2025-01-01T00:00:00Z\"}\n\
             \n{\"path\":\"b\",\"text\":\"é\",\"popularity\":2.5,\"error\":\"read\"}\n",
        )
        .unwrap();
        let dest = dir.path().join("r.parquet");
        assert_eq!(replace_jsonl_with_parquet(&src, &dest, None).unwrap(), 2);
        assert!(!src.exists());
        let lines: Vec<serde_json::Value> = ParquetLines::open(&dest)
            .unwrap()
            .into_bufread()
            .lines()
            .map(|l| serde_json::from_str(&l.unwrap()).unwrap())
            .collect();
        assert_eq!(lines.len(), 2);
        assert_eq!(lines[0]["popularity"], 1.0);
        assert_eq!(lines[0]["fetched_at"], "2025-01-01T00:00:00Z");
        assert!(lines[0].get("error").is_none());
        assert_eq!(lines[1]["text"], "é");
        assert_eq!(lines[1]["error"], "read");
    }

    #[test]
    fn record_schema_holds_every_record_field() {
        use crate::page::{ErrorKind, ErrorRecord, ExtractRecord, PageError};
        // A record with every optional field set, and an error record.
        let record = ExtractRecord {
            path: "p".into(),
            url: "http://a.example/x".into(),
            group: "a.example/".into(),
            title: "t".into(),
            text: "x".into(),
            markdown: Some("*x*".into()),
            html: None,
            method: "heuristic".into(),
            date: Some("2020-01-01".into()),
            fetched_at: Some(chrono::DateTime::from_timestamp(0, 0).unwrap()),
            popularity: 2.0,
            boilerplate_ratio: 0.5,
            template_ratio: Some(0.25),
            charset: "utf-8".into(),
            empty_reason: Some("r".into()),
            truncated_at: Some(1),
            tags_cut_at: Some(2),
            attributes_dropped: Some(3),
            metadata: crate::extract::metadata::Metadata {
                published: Some("2020".into()),
                published_source: Some("url".into()),
                lang: Some("en".into()),
                canonical_url: Some("http://a.example/c".into()),
                author: Some("a".into()),
                site_name: Some("s".into()),
                description: Some("d".into()),
            },
        };
        let failed = PageError {
            path: "q".into(),
            url: String::new(),
            kind: ErrorKind::Empty,
            message: "empty page".into(),
        };
        let record_json = serde_json::to_value(&record).unwrap();
        let error_json = serde_json::to_value(ErrorRecord::from(&failed)).unwrap();
        let schema = page_record_schema_for(OutputFormat::Markdown);
        for v in [&record_json, &error_json] {
            for key in v.as_object().unwrap().keys() {
                assert!(
                    schema.field_with_name(key).is_ok(),
                    "`{key}` not in the schema"
                );
            }
        }
        // The text schema has no `markdown` column: such a record does not fit it.
        assert!(page_records_batch(&[record_json.clone()]).is_err());
        let batch =
            page_records_batch_for(&[record_json, error_json], OutputFormat::Markdown).unwrap();
        assert_eq!(batch.num_rows(), 2);
        let text = batch.column_by_name("text").unwrap();
        assert_eq!(
            text.as_any()
                .downcast_ref::<arrow_array::StringArray>()
                .unwrap()
                .value(0),
            "x"
        );
        let kind = batch.column_by_name("error_kind").unwrap();
        let kind = kind
            .as_any()
            .downcast_ref::<arrow_array::StringArray>()
            .unwrap();
        assert!(arrow_array::Array::is_null(kind, 0));
        assert_eq!(kind.value(1), "empty");
        // A field the schema lacks is an error, not a dropped column.
        assert!(page_records_batch(&[serde_json::json!({"new_field": 1})]).is_err());
    }

    #[test]
    fn bad_line_is_named() {
        let dir = tempfile::tempdir().unwrap();
        let src = dir.path().join("r.jsonl");
        std::fs::write(&src, "{\"a\":1}\n{oops\n").unwrap();
        let err = jsonl_to_parquet(&src, Vec::new(), &src, None).unwrap_err();
        assert!(err.to_string().contains("r.jsonl:2"), "{err}");
    }

    #[test]
    fn clusters_similarity_follows_members() {
        let mut v = serde_json::json!({"members": ["b", "a"], "similarity": {"a": 0.9, "b": 1.0}});
        clusters_rewrite(&mut v);
        assert_eq!(v["similarity"], serde_json::json!([1.0, 0.9]));
    }
}
