//! The `response` records of one WARC file by URL, so that a page rendered from the WARC
//! has its requests for other records (scripts, stylesheets, data, frames) answered from
//! the crawl itself. Only each record's byte offset is kept (a URL and a number a record:
//! a few megabytes for a WARC of tens of thousands of records); its body is read from the
//! file when a page asks for it.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

use super::warc::http_payload;
use super::warc_records;

/// Indexes kept at once (most recently asked for first): the files a run reads are read
/// one after the other, so the current one and a few before it are enough.
const INDEXES_KEPT: usize = 4;

/// Bytes of a record's block read for a sub-resource (the payload plus its HTTP head):
/// script bundles of a few megabytes are common; a longer payload is not served, since a
/// cut script or stylesheet is broken.
pub const RESOURCE_MAX_BYTES: usize = 16 << 20;

/// A recorded response, as served to the browser.
#[derive(Debug, Clone, PartialEq)]
pub struct Payload {
    pub status: u16,
    pub content_type: Option<String>,
    pub body: Vec<u8>,
}

/// The offsets of one WARC file's `response` records by URL (the first record of a URL).
#[derive(Debug)]
pub struct WarcIndex {
    file: PathBuf,
    offsets: HashMap<String, u64>,
}

impl WarcIndex {
    /// Scan `file` once (blocks skipped, not kept). Records whose start is not known (a
    /// record after the first in one gzip member) cannot be read back alone and are
    /// left out; unreadable spans are skipped as the page reader skips them.
    pub fn build(file: &Path) -> std::io::Result<WarcIndex> {
        let mut offsets = HashMap::new();
        for record in warc_records::scan(file, 0)?.flatten() {
            let Some(offset) = record.offset else {
                continue;
            };
            if !record.warc_type().eq_ignore_ascii_case("response") {
                continue;
            }
            if let Some(key) = url_key(record.target_uri()) {
                offsets.entry(key).or_insert(offset);
            }
        }
        Ok(WarcIndex {
            file: file.to_owned(),
            offsets,
        })
    }

    /// Responses indexed.
    pub fn len(&self) -> usize {
        self.offsets.len()
    }

    pub fn is_empty(&self) -> bool {
        self.offsets.is_empty()
    }

    /// The recorded response for `url` when there is one with a 2xx status and a payload
    /// within [`RESOURCE_MAX_BYTES`]; `Err` when its record cannot be read.
    pub fn get(&self, url: &str) -> Option<Result<Payload, String>> {
        let offset = *self.offsets.get(&url_key(url)?)?;
        Some(self.read(offset)).and_then(|r| r.transpose())
    }

    fn read(&self, offset: u64) -> Result<Option<Payload>, String> {
        let record = warc_records::read_record_at(&self.file, offset, RESOURCE_MAX_BYTES)?;
        if record.cut {
            return Ok(None);
        }
        let (status, content_type, body) = http_payload(&record.block, RESOURCE_MAX_BYTES)
            .map_err(|e| format!("{}: offset {offset}: {e}", self.file.display()))?;
        if !(200..300).contains(&status) || body.len() > RESOURCE_MAX_BYTES {
            return Ok(None);
        }
        Ok(Some(Payload {
            status,
            content_type,
            body,
        }))
    }
}

/// The index of `file`, built on first use and shared (by the worker threads rendering
/// its pages); the [`INDEXES_KEPT`] files last asked for keep theirs.
pub fn shared(file: &Path) -> Arc<std::io::Result<WarcIndex>> {
    type Slot = Arc<OnceLock<Arc<std::io::Result<WarcIndex>>>>;
    static KEPT: Mutex<Vec<(PathBuf, Slot)>> = Mutex::new(Vec::new());
    let slot = {
        let mut kept = KEPT.lock().unwrap_or_else(|e| e.into_inner());
        let slot = match kept.iter().position(|(p, _)| p == file) {
            Some(i) => kept.remove(i).1,
            None => Slot::default(),
        };
        kept.insert(0, (file.to_owned(), Arc::clone(&slot)));
        kept.truncate(INDEXES_KEPT);
        slot
    };
    // Built outside the lock: other files' pages need not wait for this scan.
    Arc::clone(slot.get_or_init(|| Arc::new(WarcIndex::build(file))))
}

/// A URL as compared: parsed and written back (scheme and host lower-cased, default port
/// dropped, as the browser writes request URLs), without its fragment.
fn url_key(url: &str) -> Option<String> {
    let mut u = url::Url::parse(url).ok()?;
    u.set_fragment(None);
    Some(u.into())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::warc::WarcWriter;

    fn response(body: &str, status: &str, ct: &str) -> Vec<u8> {
        format!(
            "HTTP/1.1 {status}\r\nContent-Type: {ct}\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        )
        .into_bytes()
    }

    #[test]
    fn responses_are_found_by_url_and_read_on_demand() {
        for name in ["a.warc", "a.warc.gz"] {
            let dir = tempfile::tempdir().unwrap();
            let path = dir.path().join(name);
            let mut w = WarcWriter::open_append(&path, None).unwrap();
            let records = [
                (
                    "http://Example.com/app.js",
                    response("go()", "200 OK", "text/javascript"),
                ),
                (
                    "http://example.com/gone.js",
                    response("", "404 Not Found", "text/plain"),
                ),
                (
                    "http://example.com/app.js",
                    response("later()", "200 OK", "text/javascript"),
                ),
            ];
            for (url, block) in &records {
                let headers = [
                    ("WARC-Type", "response".to_string()),
                    ("WARC-Target-URI", url.to_string()),
                    ("WARC-Date", "2024-01-01T00:00:00Z".to_string()),
                    (
                        "Content-Type",
                        "application/http; msgtype=response".to_string(),
                    ),
                ];
                w.write_record(&headers, block).unwrap();
            }
            w.flush().unwrap();
            drop(w);
            let index = WarcIndex::build(&path).unwrap();
            assert_eq!(index.len(), 2, "{name}");
            let got = index
                .get("http://example.com:80/app.js#top")
                .unwrap()
                .unwrap();
            assert_eq!(got.body, b"go()", "{name}: the first record of a URL");
            assert_eq!(got.content_type.as_deref(), Some("text/javascript"));
            assert!(
                index.get("http://example.com/gone.js").is_none(),
                "{name}: 404"
            );
            assert!(index.get("http://example.com/other.js").is_none(), "{name}");
            assert!(shared(&path)
                .as_ref()
                .as_ref()
                .unwrap()
                .get("http://example.com/app.js")
                .is_some());
        }
    }
}
