//! The optional manifest: one JSON object a line, `path` relative to the manifest's
//! directory, `url`, `fetched_at` (ISO-8601), `popularity`, optional `content_type`.

use std::collections::HashMap;
use std::io::BufRead;
use std::path::{Path, PathBuf};

use chrono::{DateTime, Utc};
use serde::Deserialize;

use crate::error::Result;
use crate::page::{ErrorKind, PageError};

/// One manifest line.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ManifestEntry {
    pub path: String,
    pub url: String,
    #[serde(default)]
    pub fetched_at: Option<DateTime<Utc>>,
    #[serde(default)]
    pub popularity: Option<f64>,
    #[serde(default)]
    pub content_type: Option<String>,
    /// Extra fields some manifests carry (e.g. `site`); accepted and ignored.
    #[serde(default)]
    pub site: Option<String>,
    #[serde(default)]
    pub status: Option<u16>,
}

/// A loaded manifest, looked up by the file's canonical path.
#[derive(Debug, Default)]
pub struct Manifest {
    /// Entries in file order, with the file each names.
    pub entries: Vec<(PathBuf, ManifestEntry)>,
    by_file: HashMap<PathBuf, usize>,
    /// Lines that could not be used (`manifest.jsonl:N`): each costs its page only.
    pub problems: Vec<PageError>,
}

impl Manifest {
    /// Read a manifest. A line that is not valid JSON or lacks `path`/`url` is a
    /// per-record error naming the file and line ([`Manifest::problems`]; its page, if
    /// found in a directory, gets no manifest data). A second line for the same file is
    /// a warning naming both lines; the first is kept. Only an unreadable manifest fails.
    pub fn load(path: &Path) -> Result<Manifest> {
        // The reader of every records file: a pipe or `-` too, gzip, no byte-order mark.
        let file = super::records_input::open(path)?.into_lines(path)?;
        let base = path.parent().unwrap_or(Path::new("."));
        let mut manifest = Manifest::default();
        let mut lines_of: Vec<usize> = Vec::new();
        // Bytes, not `lines()`: a line of invalid UTF-8 is one bad line, not the end.
        for (n, line) in std::io::BufReader::new(file).split(b'\n').enumerate() {
            let line = match line {
                Ok(line) => line,
                // A broken stream (a truncated gzip): the lines before it are kept.
                Err(e) => {
                    manifest.problems.push(PageError {
                        path: format!("{}:{}", path.display(), n + 1),
                        url: String::new(),
                        kind: ErrorKind::Manifest,
                        message: format!("cannot read: {e}"),
                    });
                    break;
                }
            };
            if line.trim_ascii().is_empty() {
                continue;
            }
            let entry: ManifestEntry = match serde_json::from_slice(&line) {
                Ok(e) => e,
                Err(e) => {
                    manifest.problems.push(PageError {
                        path: format!("{}:{}", path.display(), n + 1),
                        url: String::new(),
                        kind: ErrorKind::Manifest,
                        message: e.to_string(),
                    });
                    continue;
                }
            };
            let file = base.join(&entry.path);
            let key = std::fs::canonicalize(&file).unwrap_or_else(|_| file.clone());
            if let Some(&first) = manifest.by_file.get(&key) {
                eprintln!(
                    "warning: {}:{}: {} is listed again (first at line {}); keeping the first",
                    path.display(),
                    n + 1,
                    entry.path,
                    lines_of[first]
                );
                continue;
            }
            manifest.by_file.insert(key, manifest.entries.len());
            manifest.entries.push((file, entry));
            lines_of.push(n + 1);
        }
        Ok(manifest)
    }

    /// The entry for a file found on disk, if the manifest lists it.
    pub fn lookup(&self, file: &Path) -> Option<&ManifestEntry> {
        let key = std::fs::canonicalize(file).ok()?;
        self.by_file.get(&key).map(|&i| &self.entries[i].1)
    }
}
