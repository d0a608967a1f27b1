//! Predictions: thresher's extraction records (JSONL, or the same records as Parquet),
//! or a ScrapingHub-style JSON object `{id: {articleBody}}` (also `{version, output}`), as
//! `score_extraction.py` reads them. A record is keyed by its `path`'s file name before
//! the first dot and by its whole file name (later records win, as in a Python dict); its
//! `url` is a second index, tried only when no key matched.

use std::collections::HashMap;
use std::io::BufRead;
use std::path::{Path, PathBuf};

use serde_json::Value;

use super::gold::page_id;
use crate::error::{Error, Result};

/// The records of one prediction file.
#[derive(Debug, Default)]
pub struct Predictions {
    pub path: PathBuf,
    /// Each record's text and a label for reports (its path, URL or id).
    pub records: Vec<(String, String)>,
    by_key: HashMap<String, usize>,
    by_url: HashMap<String, usize>,
}

impl Predictions {
    /// Reads a prediction file; a line that is not a JSON object, or a record with
    /// neither `path` nor `url`, is an error naming the file and line.
    pub fn read(path: &Path) -> Result<Self> {
        let mut preds = Predictions {
            path: path.to_path_buf(),
            ..Default::default()
        };
        let mut file = std::fs::File::open(path).map_err(|e| Error::io(path, e))?;
        let mut magic = [0u8; 4];
        let parquet = std::io::Read::read_exact(&mut file, &mut magic).is_ok() && &magic == b"PAR1";
        if parquet {
            let lines = crate::parquet_io::records::ParquetLines::open(path)?.into_bufread();
            preds.read_lines(lines)?;
            return Ok(preds);
        }
        let raw = std::fs::read(path).map_err(|e| Error::io(path, e))?;
        if let Ok(Value::Object(map)) = serde_json::from_slice::<Value>(&raw) {
            if !map.contains_key("path") {
                preds.read_object(map);
                return Ok(preds);
            }
        }
        preds.read_lines(std::io::Cursor::new(raw)).map(|_| preds)
    }

    fn read_object(&mut self, mut map: serde_json::Map<String, Value>) {
        if map.len() == 2 && map.contains_key("version") {
            if let Some(Value::Object(inner)) = map.remove("output") {
                map = inner;
            }
        }
        for (id, v) in map {
            let text = match &v {
                Value::Object(o) => o.get("articleBody").and_then(Value::as_str),
                Value::String(s) => Some(s.as_str()),
                _ => None,
            };
            self.records
                .push((text.unwrap_or("").to_string(), id.clone()));
            self.by_key.insert(id, self.records.len() - 1);
        }
    }

    fn read_lines(&mut self, reader: impl BufRead) -> Result<()> {
        for (n, line) in reader.split(b'\n').enumerate() {
            let line = line.map_err(|e| Error::io(&self.path, e))?;
            let bad = |message: String| Error::BadLine {
                path: self.path.clone(),
                line: n + 1,
                message,
            };
            let line = String::from_utf8(line).map_err(|_| bad("not UTF-8".into()))?;
            if line.trim().is_empty() {
                continue;
            }
            let rec: Value =
                serde_json::from_str(&line).map_err(|e| bad(format!("bad JSON: {e}")))?;
            let field = |k: &str| rec.get(k).and_then(Value::as_str);
            let (path, url) = (field("path"), field("url"));
            if path.is_none() && url.is_none() {
                return Err(bad("record without 'path' or 'url'".into()));
            }
            let text = field("text").unwrap_or("").to_string();
            let label = path.or(url).unwrap_or_default().to_string();
            let idx = self.records.len();
            if let Some(p) = path {
                let name = p.rsplit('/').next().unwrap_or(p);
                self.by_key.insert(page_id(p).to_string(), idx);
                self.by_key.insert(name.to_string(), idx);
            }
            if let Some(u) = url {
                self.by_url.insert(u.to_string(), idx);
            }
            self.records.push((text, label));
        }
        Ok(())
    }

    /// The record of a gold page: the first of `keys` that names a record, else its URL.
    pub fn find(&self, keys: &[String], url: Option<&str>) -> Option<usize> {
        keys.iter()
            .find_map(|k| self.by_key.get(k))
            .or_else(|| url.and_then(|u| self.by_url.get(u)))
            .copied()
    }
}
