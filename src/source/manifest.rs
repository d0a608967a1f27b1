//! The optional manifest: one JSON object a line, `path` relative to the manifest's
//! directory, `url`, `fetched_at` (ISO-8601), `popularity`, optional `content_type`.

use std::collections::HashMap;
use std::io::BufRead;
use std::path::{Path, PathBuf};

use chrono::{DateTime, Utc};
use serde::Deserialize;

use crate::error::{Error, Result};

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
}

impl Manifest {
    /// Read a manifest. A line that is not valid JSON or lacks `path`/`url` is a
    /// configuration error naming the file and line: a half-read manifest would silently
    /// give pages wrong dates and URLs.
    pub fn load(path: &Path) -> Result<Manifest> {
        let file = std::fs::File::open(path).map_err(|e| Error::io(path, e))?;
        let base = path.parent().unwrap_or(Path::new("."));
        let mut manifest = Manifest::default();
        for (n, line) in std::io::BufReader::new(file).lines().enumerate() {
            let line = line.map_err(|e| Error::io(path, e))?;
            if line.trim().is_empty() {
                continue;
            }
            let entry: ManifestEntry = serde_json::from_str(&line).map_err(|e| Error::BadLine {
                path: path.to_owned(),
                line: n + 1,
                message: e.to_string(),
            })?;
            let file = base.join(&entry.path);
            let key = std::fs::canonicalize(&file).unwrap_or_else(|_| file.clone());
            manifest.by_file.insert(key, manifest.entries.len());
            manifest.entries.push((file, entry));
        }
        Ok(manifest)
    }

    /// The entry for a file found on disk, if the manifest lists it.
    pub fn lookup(&self, file: &Path) -> Option<&ManifestEntry> {
        let key = std::fs::canonicalize(file).ok()?;
        self.by_file.get(&key).map(|&i| &self.entries[i].1)
    }
}
