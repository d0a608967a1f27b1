//! The URL list: read from a file, then parsed (fragment dropped), deduplicated, and
//! sorted into the URLs to fetch, the ones an earlier run finished (skipped) and the
//! unparsable ones (refused at once).

use std::collections::HashSet;
use std::io::BufRead;
use std::path::Path;

use url::Url;

use super::manifest::{CrawlRecord, FetchSummary};
use super::one_url::Done;
use crate::error::{Error, Result};

/// URLs from a file: one a line; blank lines and `#` comments are skipped.
pub fn read_url_list(path: &Path) -> Result<Vec<String>> {
    let file = std::fs::File::open(path).map_err(|e| Error::io(path, e))?;
    let mut urls = Vec::new();
    for line in std::io::BufReader::new(file).lines() {
        let line = line.map_err(|e| Error::io(path, e))?;
        let t = line.trim();
        if !t.is_empty() && !t.starts_with('#') {
            urls.push(t.to_string());
        }
    }
    Ok(urls)
}

/// Parse, drop fragments and duplicates, skip what is done (`done`: URLs an earlier run
/// finished). Counts the listed and skipped URLs into `summary`; returns the URLs to
/// fetch, in input order, and the refused ones' records.
pub(super) fn plan_urls(
    urls: &[String],
    done: &HashSet<String>,
    summary: &mut FetchSummary,
) -> (Vec<Url>, Vec<Done>) {
    let mut seen = HashSet::new();
    let mut todo: Vec<Url> = Vec::new();
    let mut immediate: Vec<Done> = Vec::new();
    for raw in urls {
        let parsed = Url::parse(raw.trim()).map(|mut u| {
            u.set_fragment(None);
            u
        });
        let key = parsed
            .as_ref()
            .map(|u| u.to_string())
            .unwrap_or_else(|_| raw.trim().to_string());
        if !seen.insert(key.clone()) {
            continue;
        }
        summary.urls += 1;
        if done.contains(&key) {
            summary.already_done += 1;
            continue;
        }
        match parsed {
            Err(e) => {
                let mut record = CrawlRecord {
                    url: key,
                    ..Default::default()
                };
                record.fail("refused", "bad_url", format!("{raw}: {e}"), false);
                immediate.push(Done {
                    record,
                    exchanges: Vec::new(),
                });
            }
            Ok(u) => todo.push(u),
        }
    }
    (todo, immediate)
}
