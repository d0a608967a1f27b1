//! The last crawl (`--previous WARC`, repeatable): for each URL, the validators of its
//! latest 2xx response (`ETag`, `Last-Modified`) and where that response is, so that the
//! request can be conditional (`If-None-Match`, `If-Modified-Since`) and a `304 Not
//! Modified` can be stored as a revisit record pointing at it (`sink.rs`).
//!
//! A previous crawl may itself hold revisits (it was conditional too): they point further
//! back, to the response that holds the payload, and that reference is carried forward
//! (with the validators of the 304, or else of that response), so chains of daily crawls
//! always refer to a record with a payload. Only record heads are kept in memory (about
//! 200 bytes per URL plus its strings); bodies are skipped while scanning.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use chrono::DateTime;

use crate::error::{Error, Result};
use crate::source::revisit::{RefersTo, PROFILE_SERVER_NOT_MODIFIED};
use crate::source::warc_records::{scan, RawRecord};

/// Bytes of each record's block read while scanning (the HTTP head is in there; the
/// payload is not needed).
const HEAD_BYTES: usize = 64 << 10;

/// What makes a request conditional.
#[derive(Debug, Clone, Default)]
pub(super) struct Validators {
    /// `ETag`, as sent by the server (sent back in `If-None-Match`).
    pub(super) etag: Option<String>,
    /// `Last-Modified`, as sent by the server (sent back in `If-Modified-Since`).
    pub(super) last_modified: Option<String>,
}

impl Validators {
    fn is_empty(&self) -> bool {
        self.etag.is_none() && self.last_modified.is_none()
    }
}

/// One URL of the last crawl.
#[derive(Debug, Clone)]
pub(super) struct Prior {
    pub(super) validators: Validators,
    /// The response holding the payload.
    pub(super) refers: RefersTo,
    /// `WARC-Date` of the record this was read from (the latest one wins).
    seen: String,
}

/// The last crawl's URLs with validators.
#[derive(Debug, Default)]
pub(super) struct Previous {
    by_url: HashMap<String, Prior>,
}

impl Previous {
    pub(super) fn get(&self, url: &str) -> Option<&Prior> {
        self.by_url.get(url)
    }

    pub(super) fn len(&self) -> usize {
        self.by_url.len()
    }

    /// Read the WARCs of earlier crawls. `out` (the WARC being written) may not be one of
    /// them. A record that cannot be read ends that file with a warning naming it; what
    /// was read before it is used.
    pub(super) fn load(paths: &[PathBuf], out: &Path) -> Result<Previous> {
        let mut prev = Previous::default();
        let out_abs = std::fs::canonicalize(out).ok();
        for path in paths {
            let abs = std::fs::canonicalize(path).map_err(|e| Error::io(path, e))?;
            if Some(&abs) == out_abs.as_ref() {
                return Err(Error::Config(format!(
                    "--previous {} is the WARC being written (--out): give the earlier crawl's file",
                    path.display()
                )));
            }
            let records = scan(&abs, HEAD_BYTES).map_err(|e| Error::io(path, e))?;
            for rec in records {
                match rec {
                    Ok(rec) => {
                        if let Some((url, prior)) = prior_of(&rec, &abs) {
                            prev.keep(url, prior);
                        }
                    }
                    // The scan resumes at the next record; the span it skipped is lost.
                    Err(e) => {
                        eprintln!("warning: --previous {}: {e}", path.display());
                    }
                }
            }
        }
        Ok(prev)
    }

    /// Keep `prior` unless an entry seen later in crawl time is there.
    fn keep(&mut self, url: String, prior: Prior) {
        let newer = |a: &str, b: &str| match (
            DateTime::parse_from_rfc3339(a),
            DateTime::parse_from_rfc3339(b),
        ) {
            (Ok(a), Ok(b)) => a >= b,
            _ => true,
        };
        match self.by_url.get(&url) {
            Some(old) if !newer(&prior.seen, &old.seen) => {}
            _ => {
                self.by_url.insert(url, prior);
            }
        }
    }
}

/// The URL and its [`Prior`] from one record of `warc`: a 2xx response with a validator,
/// or a server-not-modified revisit (validators from its 304, else from the response it
/// refers to).
fn prior_of(rec: &RawRecord, warc: &Path) -> Option<(String, Prior)> {
    let seen = rec.header("WARC-Date")?.to_string();
    match rec.warc_type() {
        "response" => {
            let (status, validators) = http_validators(&rec.block)?;
            if !(200..300).contains(&status) || validators.is_empty() {
                return None;
            }
            let refers = RefersTo::to_response(rec, warc)?;
            Some((
                refers.target_uri.clone(),
                Prior {
                    validators,
                    refers,
                    seen,
                },
            ))
        }
        "revisit" if rec.header("WARC-Profile") == Some(PROFILE_SERVER_NOT_MODIFIED) => {
            let field = |n: &str| rec.header(n).map(str::to_string);
            let mut refers = RefersTo::from_fields(&field).ok()?;
            // From here on the reference names the file found, absolute.
            refers.file = std::fs::canonicalize(refers.resolve_file(warc)?).ok()?;
            let mut validators = http_validators(&rec.block).map(|v| v.1).unwrap_or_default();
            if validators.is_empty() {
                let earlier = refers.fetch_record(warc, HEAD_BYTES).ok()?;
                validators = http_validators(&earlier.block)?.1;
            }
            if validators.is_empty() {
                return None;
            }
            Some((
                rec.target_uri().to_string(),
                Prior {
                    validators,
                    refers,
                    seen,
                },
            ))
        }
        _ => None,
    }
}

/// Status and validators of an HTTP response block (status line and headers).
fn http_validators(block: &[u8]) -> Option<(u16, Validators)> {
    let end = memchr::memmem::find(block, b"\r\n\r\n").unwrap_or(block.len());
    let head = String::from_utf8_lossy(&block[..end]);
    let mut lines = head.lines();
    let status_line = lines.next()?;
    if !status_line.starts_with("HTTP/") {
        return None;
    }
    let status = status_line.split_whitespace().nth(1)?.parse().ok()?;
    let mut v = Validators::default();
    for line in lines {
        let Some((name, value)) = line.split_once(':') else {
            continue;
        };
        let value = value.trim();
        if value.is_empty() {
            continue;
        }
        match name.trim().to_ascii_lowercase().as_str() {
            "etag" => v.etag = Some(value.to_string()),
            "last-modified" => v.last_modified = Some(value.to_string()),
            _ => {}
        }
    }
    Some((status, v))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn validators_come_from_the_response_head() {
        let block = b"HTTP/1.1 200 OK\r\nETag: \"v1\"\r\nLast-Modified: Wed, 21 Oct 2015 07:28:00 GMT\r\n\r\nETag: not a header";
        let (status, v) = http_validators(block).unwrap();
        assert_eq!(status, 200);
        assert_eq!(v.etag.as_deref(), Some("\"v1\""));
        assert_eq!(
            v.last_modified.as_deref(),
            Some("Wed, 21 Oct 2015 07:28:00 GMT")
        );
        assert!(http_validators(b"GET / HTTP/1.1\r\n\r\n").is_none());
    }
}
