//! The fetch manifest (`crawl.manifest.jsonl` beside `crawl.warc.gz`): one
//! [`CrawlRecord`] line per URL telling what happened to it, the end-of-run counts
//! ([`FetchSummary`]), and resuming: reading an earlier run's manifest to skip the URLs it
//! finished and find where the WARC's committed part ends. (Input manifests of
//! `extract`/`run` are `source/manifest.rs`.)

use std::collections::{BTreeMap, HashMap, HashSet};
use std::io::Write;
use std::path::{Path, PathBuf};

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};

/// One manifest line: what happened to one URL.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct CrawlRecord {
    /// The URL as listed (parsed and re-serialized; fragment dropped).
    pub url: String,
    /// Where the last redirect led, when it is not `url`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub final_url: Option<String>,
    /// `page` (2xx HTML, stored), `not_modified` (304 to a conditional request: stored
    /// as a revisit of the last crawl's response), `not_html` (2xx, other content type:
    /// headers stored, body not downloaded), `http_error` (final status not 2xx), `robots` (not allowed by
    /// robots.txt), `refused` (bad URL, scheme or address), `error` (timeout, transport,
    /// decoding, too many redirects).
    pub outcome: String,
    #[serde(default)]
    pub fetched_at: Option<DateTime<Utc>>,
    #[serde(default)]
    pub status: Option<u16>,
    #[serde(default)]
    pub content_type: Option<String>,
    /// `Last-Modified`, as ISO-8601 when it parses, else as sent.
    #[serde(default)]
    pub last_modified: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub etag: Option<String>,
    /// Payload bytes stored (decoded).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bytes: Option<u64>,
    /// Why the stored payload is incomplete: `length` (body cap), `decoded` (decompression
    /// cap), `not_html` (body not downloaded).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub truncated: Option<String>,
    #[serde(default)]
    pub redirects: u32,
    #[serde(default)]
    pub attempts: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// `timeout`, `connect`, `transport`, `decompress`, `too_many_redirects`,
    /// `blocked_address`, `bad_scheme`, `bad_url`, `robots_disallowed`, `robots_unreachable`,
    /// `retry_after_too_long`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error_kind: Option<String>,
    /// Whether a later run should try this URL again.
    #[serde(default)]
    pub retryable: bool,
    /// For `not_modified`: the `WARC-Date` of the earlier response the revisit refers to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub revisit_of: Option<String>,
    /// Offset of the final response (or revisit) record in the WARC file.
    #[serde(default)]
    pub warc_offset: Option<u64>,
    /// Length of the WARC file once this URL's records were written (resume point).
    #[serde(default)]
    pub warc_end: u64,
}

impl CrawlRecord {
    /// End the record with a failure: `outcome`, `error_kind`, `error`, `retryable`.
    pub(super) fn fail(&mut self, outcome: &str, kind: &str, message: String, retryable: bool) {
        self.outcome = outcome.into();
        self.error_kind = Some(kind.into());
        self.error = Some(message);
        self.retryable = retryable;
    }
}

/// Counts for the end-of-run line.
#[derive(Debug, Default, Clone, Serialize)]
pub struct FetchSummary {
    /// URLs in the input (after removing duplicates).
    pub urls: usize,
    /// URLs skipped because an earlier run finished them.
    pub already_done: usize,
    /// URLs with validators in the `--previous` crawl(s) (requested conditionally).
    pub previous_urls: usize,
    /// URLs handled in this run, by outcome.
    pub outcomes: BTreeMap<String, usize>,
    /// HTTP requests sent (pages, redirects, retries, robots.txt).
    pub requests: usize,
    pub seconds: f64,
    pub warc: PathBuf,
    pub manifest: PathBuf,
    /// The URLs of this run that failed (outcome `error` or `refused`): (URL, error
    /// kind, message), in the order they finished.
    #[serde(skip)]
    pub failures: Vec<(String, String, String)>,
}

impl FetchSummary {
    /// URLs that ended in `error` or `refused` (exit code 1).
    pub fn failed(&self) -> usize {
        self.outcomes.get("error").copied().unwrap_or(0)
            + self.outcomes.get("refused").copied().unwrap_or(0)
    }
}

/// `crawl.warc.gz` → `crawl.manifest.jsonl` beside it.
pub fn manifest_path_for(warc: &Path) -> PathBuf {
    let name = warc
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let lower = name.to_ascii_lowercase();
    let stem = [".warc.gz", ".warc", ".gz"]
        .iter()
        .find(|s| lower.ends_with(*s))
        .map(|s| &name[..name.len() - s.len()])
        .unwrap_or(&name);
    warc.with_file_name(format!("{stem}.manifest.jsonl"))
}

/// What a resumed run finds: URLs finished earlier and where the WARC's committed part ends.
pub(super) struct Resume {
    pub(super) done: HashSet<String>,
    pub(super) warc_end: Option<u64>,
}

/// Read the manifest of an earlier run; drop a half-written last line.
pub(super) fn load_resume(manifest: &Path) -> Result<Resume> {
    let mut resume = Resume {
        done: HashSet::new(),
        warc_end: None,
    };
    let Ok(bytes) = std::fs::read(manifest) else {
        return Ok(resume);
    };
    let mut last: HashMap<String, bool> = HashMap::new();
    let mut good_len = 0usize;
    let mut pos = 0usize;
    let mut line_no = 0;
    while pos < bytes.len() {
        line_no += 1;
        let end = memchr::memchr(b'\n', &bytes[pos..]).map(|i| pos + i);
        let line = &bytes[pos..end.unwrap_or(bytes.len())];
        let text = String::from_utf8_lossy(line);
        if !text.trim().is_empty() {
            match serde_json::from_str::<CrawlRecord>(&text) {
                Ok(r) => {
                    if end.is_none() {
                        // Complete JSON but no newline: keep it, finish the line.
                        good_len = bytes.len();
                    }
                    resume.warc_end = Some(resume.warc_end.unwrap_or(0).max(r.warc_end));
                    last.insert(r.url, r.retryable);
                }
                Err(_) if end.is_none() => break, // interrupted while writing this line
                Err(e) => {
                    return Err(Error::BadLine {
                        path: manifest.to_owned(),
                        line: line_no,
                        message: e.to_string(),
                    })
                }
            }
        }
        match end {
            Some(e) => {
                pos = e + 1;
                good_len = pos;
            }
            None => break,
        }
    }
    if good_len < bytes.len() {
        let f = std::fs::OpenOptions::new()
            .write(true)
            .open(manifest)
            .map_err(|e| Error::io(manifest, e))?;
        f.set_len(good_len as u64)
            .map_err(|e| Error::io(manifest, e))?;
    } else if good_len > 0 && bytes.last() != Some(&b'\n') {
        let mut f = std::fs::OpenOptions::new()
            .append(true)
            .open(manifest)
            .map_err(|e| Error::io(manifest, e))?;
        f.write_all(b"\n").map_err(|e| Error::io(manifest, e))?;
    }
    resume.done = last
        .into_iter()
        .filter(|(_, retryable)| !retryable)
        .map(|(u, _)| u)
        .collect();
    Ok(resume)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn manifest_sits_beside_the_warc() {
        assert_eq!(
            manifest_path_for(Path::new("out/crawl.warc.gz")),
            Path::new("out/crawl.manifest.jsonl")
        );
        assert_eq!(
            manifest_path_for(Path::new("a.warc")),
            Path::new("a.manifest.jsonl")
        );
    }

    #[test]
    fn resume_keeps_finished_urls_and_drops_a_torn_line() {
        let dir = tempfile::tempdir().unwrap();
        let m = dir.path().join("c.manifest.jsonl");
        let lines = [
            r#"{"url":"http://a/1","outcome":"page","retryable":false,"warc_end":100}"#,
            r#"{"url":"http://a/2","outcome":"error","retryable":true,"warc_end":150}"#,
            r#"{"url":"http://a/3","outcome":"error","retryable":true,"warc_end":160}"#,
            r#"{"url":"http://a/3","outcome":"page","retryable":false,"warc_end":300}"#,
        ];
        std::fs::write(
            &m,
            format!("{}\n{{\"url\":\"http://a/4\",\"outc", lines.join("\n")),
        )
        .unwrap();
        let r = load_resume(&m).unwrap();
        assert_eq!(r.warc_end, Some(300));
        let mut done: Vec<_> = r.done.into_iter().collect();
        done.sort();
        assert_eq!(done, ["http://a/1", "http://a/3"]);
        assert!(std::fs::read_to_string(&m).unwrap().ends_with("300}\n"));
    }
}
