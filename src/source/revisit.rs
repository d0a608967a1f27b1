//! Revisit records (WARC 1.1, profile server-not-modified): what the fetcher writes when a
//! conditional request is answered `304 Not Modified`, and how `extract`/`run` read them.
//!
//! A revisit record carries no payload; it names the earlier response it stands for with
//! `WARC-Refers-To-Target-URI`, `WARC-Refers-To-Date`, `WARC-Refers-To` (record id) and,
//! as warcio and OpenWayback read them, `WARC-Refers-To-Filename` and
//! `WARC-Refers-To-File-Offset`. The reader opens that file at that offset and uses the
//! earlier response's payload, under the revisit's URL and date (the date the page was
//! confirmed unchanged). The file name is resolved relative to the directory of the WARC
//! being read first (the fetcher writes it relative, so a tree of crawls can be moved),
//! then as given, then as a bare name beside the WARC being read. The record found must
//! be a response for the same target URI (and date, when both are given), or the revisit
//! is an error for that page ([`UNRESOLVED`]). A revisit without file and offset (from
//! another crawler, e.g. Common Crawl's identical-payload-digest revisits, which expect a
//! CDX index to find the original) is skipped like other non-page records, with that
//! reason; the original is never guessed.
//!
//! Also here: robots.txt responses, which the fetcher records in its WARC but which are
//! crawl metadata, not pages.

use std::path::{Path, PathBuf};

use super::warc_records::{read_record_at, RawRecord};

pub const PROFILE_SERVER_NOT_MODIFIED: &str =
    "http://netpreserve.org/warc/1.1/revisit/server-not-modified";
pub const REFERS_TO: &str = "WARC-Refers-To";
pub const REFERS_TO_TARGET_URI: &str = "WARC-Refers-To-Target-URI";
pub const REFERS_TO_DATE: &str = "WARC-Refers-To-Date";
pub const REFERS_TO_FILENAME: &str = "WARC-Refers-To-Filename";
pub const REFERS_TO_FILE_OFFSET: &str = "WARC-Refers-To-File-Offset";

/// How the message of a revisit whose earlier response was named but cannot be read
/// starts (the reader makes it an error, not a skipped record).
pub const UNRESOLVED: &str = "revisit unresolved: ";

/// Where a revisit's earlier response is, as its fields say.
#[derive(Debug, Clone)]
pub struct RefersTo {
    pub target_uri: String,
    /// `WARC-Date` of the earlier response, as written there.
    pub date: String,
    pub record_id: Option<String>,
    /// The WARC file holding it (absolute when built by the fetcher).
    pub file: PathBuf,
    pub offset: u64,
    /// The earlier response's `WARC-Payload-Digest`, when it had one.
    pub payload_digest: Option<String>,
}

impl RefersTo {
    /// The reference a revisit record's fields give; `file` as written (not resolved).
    pub fn from_fields(field: &dyn Fn(&str) -> Option<String>) -> Result<RefersTo, String> {
        let need = |name: &str| {
            field(name)
                .filter(|v| !v.trim().is_empty())
                .ok_or_else(|| format!("revisit without {name}"))
        };
        let offset = need(REFERS_TO_FILE_OFFSET)?;
        Ok(RefersTo {
            target_uri: need(REFERS_TO_TARGET_URI)?
                .trim_matches(['<', '>'])
                .to_string(),
            date: field(REFERS_TO_DATE).unwrap_or_default(),
            record_id: field(REFERS_TO),
            file: PathBuf::from(need(REFERS_TO_FILENAME)?),
            offset: offset
                .trim()
                .parse()
                .map_err(|_| format!("{REFERS_TO_FILE_OFFSET} is not a number: {offset}"))?,
            payload_digest: field("WARC-Payload-Digest"),
        })
    }

    /// The reference to a response record read from `file` (an absolute path).
    pub fn to_response(rec: &RawRecord, file: &Path) -> Option<RefersTo> {
        Some(RefersTo {
            target_uri: rec.target_uri().to_string(),
            date: rec.header("WARC-Date")?.to_string(),
            record_id: rec.header("WARC-Record-ID").map(str::to_string),
            file: file.to_owned(),
            offset: rec.offset?,
            payload_digest: rec.header("WARC-Payload-Digest").map(str::to_string),
        })
    }

    /// The earlier response record, `file` resolved from the directory of `warc` (the
    /// WARC holding the revisit); checked to be a response for the same URI and date.
    pub fn fetch_record(&self, warc: &Path, max_block: usize) -> Result<RawRecord, String> {
        let file = self.resolve_file(warc).ok_or_else(|| {
            format!(
                "{UNRESOLVED}{}: its earlier response's WARC {} is not found (looked beside {})",
                self.target_uri,
                self.file.display(),
                warc.display()
            )
        })?;
        let rec = read_record_at(&file, self.offset, max_block).map_err(|e| {
            format!(
                "{UNRESOLVED}{} (refers to {}): {e}",
                self.target_uri,
                self.file.display()
            )
        })?;
        let date_ok = self.date.is_empty()
            || rec
                .header("WARC-Date")
                .is_none_or(|d| same_date(d, &self.date));
        if rec.warc_type() != "response" || rec.target_uri() != self.target_uri || !date_ok {
            return Err(format!(
                "{UNRESOLVED}{} ({}): {} offset {} holds a {} record for {} ({}), not the earlier response",
                self.target_uri,
                self.date,
                file.display(),
                self.offset,
                rec.warc_type(),
                rec.target_uri(),
                rec.header("WARC-Date").unwrap_or("")
            ));
        }
        Ok(rec)
    }

    /// The file named by the reference, looked for beside `warc` (the WARC holding the
    /// reference), as given, then by its bare name beside `warc`.
    pub fn resolve_file(&self, warc: &Path) -> Option<PathBuf> {
        let dir = warc.parent().unwrap_or(Path::new(""));
        let named = [dir.join(&self.file), self.file.clone()];
        if let Some(found) = named.into_iter().find(|c| c.is_file()) {
            return Some(found);
        }
        // By bare name, never the WARC holding the reference itself (daily crawls often
        // share a file name: `day2/crawl.warc.gz` is not `../day1/crawl.warc.gz`).
        let itself = std::fs::canonicalize(warc).ok();
        let bare = dir.join(self.file.file_name()?);
        (bare.is_file() && std::fs::canonicalize(&bare).ok() != itself).then_some(bare)
    }
}

/// WARC dates compared as instants when both parse (writers differ in fractional seconds).
fn same_date(a: &str, b: &str) -> bool {
    match (
        chrono::DateTime::parse_from_rfc3339(a),
        chrono::DateTime::parse_from_rfc3339(b),
    ) {
        (Ok(x), Ok(y)) => x == y,
        _ => a == b,
    }
}

/// The HTTP response block (status line, headers, payload) of the earlier response a
/// revisit record in `warc` refers to; `max_block` bytes at most.
pub fn earlier_response_block(
    field: &dyn Fn(&str) -> Option<String>,
    warc: &Path,
    max_block: usize,
) -> Result<Vec<u8>, String> {
    let profile = field("WARC-Profile").unwrap_or_default();
    let target = field("WARC-Target-URI").unwrap_or_default();
    let refers = RefersTo::from_fields(field).map_err(|e| {
        format!("{e} ({target}; profile {profile}): its payload is not in this WARC")
    })?;
    Ok(refers.fetch_record(warc, max_block)?.block)
}

/// `path` relative to `dir` (both absolute) when they share a root, else `path` itself:
/// what the fetcher writes as `WARC-Refers-To-Filename`.
pub fn relative_to(path: &Path, dir: &Path) -> PathBuf {
    use std::path::Component;
    let p: Vec<Component> = path.components().collect();
    let d: Vec<Component> = dir.components().collect();
    let common = p.iter().zip(&d).take_while(|(a, b)| a == b).count();
    if common == 0 {
        return path.to_owned();
    }
    let mut out = PathBuf::new();
    for _ in common..d.len() {
        out.push("..");
    }
    for c in &p[common..] {
        out.push(c);
    }
    out
}

/// A robots.txt URL (`/robots.txt` at the root of its origin): crawl metadata, not a page.
pub fn is_robots_txt(url: &str) -> bool {
    url::Url::parse(url).is_ok_and(|u| u.path() == "/robots.txt")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_paths_climb_out_of_the_warc_directory() {
        assert_eq!(
            relative_to(Path::new("/c/day1/crawl.warc.gz"), Path::new("/c/day2")),
            Path::new("../day1/crawl.warc.gz")
        );
        assert_eq!(
            relative_to(Path::new("/c/day2/old.warc"), Path::new("/c/day2")),
            Path::new("old.warc")
        );
    }

    #[test]
    fn robots_txt_is_recognised_only_at_the_root() {
        assert!(is_robots_txt("http://a.example:8080/robots.txt"));
        assert!(!is_robots_txt("http://a.example/docs/robots.txt"));
        assert!(!is_robots_txt("http://a.example/robots.txt.html"));
    }

    #[test]
    fn unreferenced_revisits_are_skipped_and_unresolved_ones_are_errors() {
        use crate::source::warc::{new_record_id, WarcPages, WarcWriter};
        use crate::source::PageJob;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("c.warc.gz");
        let mut w = WarcWriter::open_append(&path, None).unwrap();
        let page = b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<p>hello</p>";
        let at = w
            .write_record(
                &[
                    ("WARC-Type", "response".into()),
                    ("WARC-Record-ID", new_record_id()),
                    ("WARC-Date", "2026-01-01T00:00:00Z".into()),
                    ("WARC-Target-URI", "http://a.example/".into()),
                ],
                page,
            )
            .unwrap();
        let revisit = |w: &mut WarcWriter, uri: &str, refs: Vec<(&'static str, String)>| {
            let mut h = vec![
                ("WARC-Type", "revisit".to_string()),
                ("WARC-Record-ID", new_record_id()),
                ("WARC-Date", "2026-01-02T00:00:00Z".into()),
                ("WARC-Target-URI", uri.to_string()),
                (REFERS_TO_TARGET_URI, "http://a.example/".into()),
                (REFERS_TO_DATE, "2026-01-01T00:00:00Z".into()),
            ];
            h.extend(refs);
            w.write_record(&h, b"HTTP/1.1 304 Not Modified\r\n\r\n")
                .unwrap();
        };
        // Common Crawl style: no file, no offset.
        revisit(&mut w, "http://a.example/dup", vec![]);
        // Ours, resolving into this very file.
        revisit(
            &mut w,
            "http://a.example/",
            vec![
                (REFERS_TO_FILENAME, "c.warc.gz".into()),
                (REFERS_TO_FILE_OFFSET, at.to_string()),
            ],
        );
        // Ours, pointing at a file that is not there.
        revisit(
            &mut w,
            "http://a.example/",
            vec![
                (REFERS_TO_FILENAME, "../gone/old.warc.gz".into()),
                (REFERS_TO_FILE_OFFSET, "0".into()),
            ],
        );
        w.flush().unwrap();
        drop(w);
        let mut pages = WarcPages::open(&path, 1 << 20).unwrap();
        let jobs: Vec<PageJob> = pages.by_ref().collect();
        let loaded: Vec<_> = jobs
            .iter()
            .filter_map(|j| match j {
                PageJob::Loaded(p) => Some((p.url.as_str(), p.fetched_at.unwrap().to_rfc3339())),
                _ => None,
            })
            .collect();
        assert_eq!(
            loaded,
            [
                ("http://a.example/", "2026-01-01T00:00:00+00:00".to_string()),
                ("http://a.example/", "2026-01-02T00:00:00+00:00".to_string())
            ],
            "{jobs:?}"
        );
        let failed: Vec<_> = jobs
            .iter()
            .filter_map(|j| match j {
                PageJob::Failed(e) => Some(e.message.clone()),
                _ => None,
            })
            .collect();
        assert_eq!(failed.len(), 1, "{failed:?}");
        assert!(failed[0].contains("../gone/old.warc.gz"), "{failed:?}");
        assert_eq!(pages.skipped.len(), 1, "{:?}", pages.skipped);
        assert_eq!(pages.skipped[0].0, "http://a.example/dup");
    }

    #[test]
    fn dates_compare_as_instants() {
        assert!(same_date(
            "2026-01-02T03:04:05Z",
            "2026-01-02T03:04:05.000Z"
        ));
        assert!(!same_date("2026-01-02T03:04:05Z", "2026-01-02T03:04:06Z"));
    }
}
