//! The writer: each finished URL's exchanges (robots.txt, redirect hops, the page) go to
//! the WARC as a `response` record — or, for a 304 to a conditional request, a `revisit`
//! record (profile server-not-modified) referring to the last crawl's response — followed
//! by its `request` record (digests, IP address, truncation), flushed before the URL's
//! manifest line is written (the manifest is the commit log); a `warcinfo` record starts a
//! new WARC file.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};

use chrono::{DateTime, SecondsFormat, Utc};

use super::one_url::Done;
use super::options::FetchConfig;
use super::request::Exchange;
use crate::error::{Error, Result};
use crate::source::revisit::{self, RefersTo};
use crate::source::warc::{new_record_id, sha1_digest, WarcWriter};

/// Writes each finished URL's exchanges to the WARC, then its manifest line.
pub(super) struct Sink {
    warc: WarcWriter,
    manifest: std::io::BufWriter<std::fs::File>,
    manifest_path: PathBuf,
    /// The WARC's directory, absolute: revisit records name the earlier WARC relative to it.
    warc_dir: PathBuf,
    /// URLs written, by outcome.
    pub(super) outcomes: BTreeMap<String, usize>,
    /// URLs that failed (`error`, `refused`): (URL, error kind, message).
    pub(super) failures: Vec<(String, String, String)>,
}

fn warc_date(d: &DateTime<Utc>) -> String {
    d.to_rfc3339_opts(SecondsFormat::Secs, true)
}

impl Sink {
    /// Open the WARC for appending, cut back to `warc_end` (the part an earlier run's
    /// manifest committed), with a `warcinfo` record when it starts afresh, and the
    /// manifest for appending.
    pub(super) fn open(
        warc_path: &Path,
        manifest_path: &Path,
        warc_end: Option<u64>,
        cfg: &FetchConfig,
    ) -> Result<Sink> {
        // Without a manifest, nothing was committed: start the WARC afresh.
        let truncate_to = Some(warc_end.unwrap_or(0));
        let mut warc =
            WarcWriter::open_append(warc_path, truncate_to).map_err(|e| Error::io(warc_path, e))?;
        if warc.position() == 0 {
            write_warcinfo(&mut warc, cfg).map_err(|e| Error::io(warc_path, e))?;
            warc.flush().map_err(|e| Error::io(warc_path, e))?;
        }
        let manifest = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(manifest_path)
            .map_err(|e| Error::io(manifest_path, e))?;
        let warc_dir = std::fs::canonicalize(warc_path)
            .map_err(|e| Error::io(warc_path, e))?
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_default();
        Ok(Sink {
            warc,
            manifest: std::io::BufWriter::new(manifest),
            manifest_path: manifest_path.to_owned(),
            warc_dir,
            outcomes: BTreeMap::new(),
            failures: Vec::new(),
        })
    }

    /// Write one finished URL: its exchanges, then its manifest line.
    pub(super) fn write(&mut self, done: Done) -> Result<()> {
        let Done {
            mut record,
            exchanges,
        } = done;
        let warc_path = self.warc.path().to_owned();
        let werr = |e| Error::Output {
            path: warc_path.clone(),
            source: e,
        };
        let mut last_response = None;
        for ex in &exchanges {
            let response_id = new_record_id();
            let mut block = Vec::with_capacity(ex.response_head.len() + ex.body.len());
            block.extend_from_slice(&ex.response_head);
            block.extend_from_slice(&ex.body);
            let headers = match &ex.revisit {
                None => response_headers(ex, &response_id, &block),
                Some(refers) => revisit_headers(ex, &response_id, &block, refers, &self.warc_dir),
            };
            let offset = self.warc.write_record(&headers, &block).map_err(werr)?;
            last_response = Some(offset);
            let req_headers = vec![
                ("WARC-Type", "request".to_string()),
                ("WARC-Record-ID", new_record_id()),
                ("WARC-Date", warc_date(&ex.date)),
                ("WARC-Target-URI", ex.target.clone()),
                ("WARC-Concurrent-To", response_id),
                ("Content-Type", "application/http;msgtype=request".into()),
                ("WARC-Block-Digest", sha1_digest(&ex.request)),
            ];
            self.warc
                .write_record(&req_headers, &ex.request)
                .map_err(werr)?;
        }
        self.warc.flush().map_err(werr)?;
        // The final attempt's response, when it got one.
        record.warc_offset = record.status.and(last_response);
        record.warc_end = self.warc.position();
        let line = serde_json::to_string(&record).expect("serializable record");
        let merr = |e| Error::Output {
            path: self.manifest_path.clone(),
            source: e,
        };
        self.manifest.write_all(line.as_bytes()).map_err(merr)?;
        self.manifest.write_all(b"\n").map_err(merr)?;
        self.manifest.flush().map_err(merr)?;
        if matches!(record.outcome.as_str(), "error" | "refused") {
            eprintln!(
                "error: {}: {}: {}",
                record.url,
                record.error_kind.as_deref().unwrap_or(""),
                record.error.as_deref().unwrap_or("")
            );
            self.failures.push((
                record.url.clone(),
                record.error_kind.clone().unwrap_or_default(),
                record.error.clone().unwrap_or_default(),
            ));
        }
        *self.outcomes.entry(record.outcome).or_default() += 1;
        Ok(())
    }
}

/// The fields of a `response` record.
fn response_headers(ex: &Exchange, id: &str, block: &[u8]) -> Vec<(&'static str, String)> {
    let mut headers = vec![
        ("WARC-Type", "response".to_string()),
        ("WARC-Record-ID", id.to_string()),
        ("WARC-Date", warc_date(&ex.date)),
        ("WARC-Target-URI", ex.target.clone()),
    ];
    if let Some(ip) = ex.ip {
        headers.push(("WARC-IP-Address", ip.to_string()));
    }
    headers.push(("Content-Type", "application/http;msgtype=response".into()));
    headers.push(("WARC-Block-Digest", sha1_digest(block)));
    headers.push(("WARC-Payload-Digest", sha1_digest(&ex.body)));
    if let Some(t) = ex.truncated {
        headers.push(("WARC-Truncated", t.into()));
    }
    headers
}

/// The fields of a `revisit` record (WARC 1.1 profile server-not-modified; the block is
/// the 304's status line and headers): the earlier response by URI, date and record id,
/// and by file (relative to this WARC's directory) and offset for readers that open it.
fn revisit_headers(
    ex: &Exchange,
    id: &str,
    block: &[u8],
    refers: &RefersTo,
    warc_dir: &Path,
) -> Vec<(&'static str, String)> {
    let mut headers = vec![
        ("WARC-Type", "revisit".to_string()),
        ("WARC-Record-ID", id.to_string()),
        ("WARC-Date", warc_date(&ex.date)),
        ("WARC-Target-URI", ex.target.clone()),
    ];
    if let Some(ip) = ex.ip {
        headers.push(("WARC-IP-Address", ip.to_string()));
    }
    headers.push(("WARC-Profile", revisit::PROFILE_SERVER_NOT_MODIFIED.into()));
    headers.push((revisit::REFERS_TO_TARGET_URI, refers.target_uri.clone()));
    headers.push((revisit::REFERS_TO_DATE, refers.date.clone()));
    if let Some(rid) = &refers.record_id {
        headers.push((revisit::REFERS_TO, rid.clone()));
    }
    let file = revisit::relative_to(&refers.file, warc_dir);
    headers.push((
        revisit::REFERS_TO_FILENAME,
        file.to_string_lossy().into_owned(),
    ));
    headers.push((revisit::REFERS_TO_FILE_OFFSET, refers.offset.to_string()));
    headers.push(("Content-Type", "application/http;msgtype=response".into()));
    headers.push(("WARC-Block-Digest", sha1_digest(block)));
    if let Some(d) = &refers.payload_digest {
        headers.push(("WARC-Payload-Digest", d.clone()));
    }
    headers
}

fn write_warcinfo(warc: &mut WarcWriter, cfg: &FetchConfig) -> std::io::Result<()> {
    let info = format!(
        "software: thresher/{}\r\nformat: WARC File Format 1.1\r\nhttp-header-user-agent: {}\r\nrobots: obey\r\n",
        env!("CARGO_PKG_VERSION"),
        cfg.user_agent
    );
    let name = warc
        .path()
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    warc.write_record(
        &[
            ("WARC-Type", "warcinfo".into()),
            ("WARC-Record-ID", new_record_id()),
            ("WARC-Date", warc_date(&Utc::now())),
            ("WARC-Filename", name),
            ("Content-Type", "application/warc-fields".into()),
        ],
        info.as_bytes(),
    )?;
    Ok(())
}
