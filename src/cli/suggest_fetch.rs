//! `rules suggest` on URLs: the arguments that are http(s) URLs and `--urls FILE` are
//! fetched by the crawler `thresher fetch` runs (robots.txt, per-origin delay, user
//! agent, timeouts, retries, size caps) into a WARC, which is then read like any other
//! input. Each URL that gave no page is reported by URL; the others go on.

use std::collections::HashMap;
use std::io::BufRead;
use std::path::{Path, PathBuf};

use super::fetch::{fetch_to, FetchArgs};
use crate::error::{Error, Result};
use crate::source::fetch::CrawlRecord;

/// The fetched pages' WARC; a temporary one is deleted when this is dropped.
pub struct Fetched {
    pub warc: PathBuf,
    _temp: Option<tempfile::TempDir>,
}

/// Whether a command-line argument is a URL to fetch rather than a path.
fn is_url(arg: &Path) -> bool {
    let s = arg.to_string_lossy();
    let lower = s.get(..8).unwrap_or(&s).to_ascii_lowercase();
    lower.starts_with("http://") || lower.starts_with("https://")
}

/// The arguments split into paths and URLs, in their order.
pub fn split_urls(args: &[PathBuf]) -> (Vec<PathBuf>, Vec<String>) {
    let (urls, paths): (Vec<&PathBuf>, Vec<&PathBuf>) = args.iter().partition(|a| is_url(a));
    (
        paths.into_iter().cloned().collect(),
        urls.into_iter()
            .map(|u| u.to_string_lossy().into_owned())
            .collect(),
    )
}

/// Fetch the URL arguments and `--urls FILE` when there are any (into `keep`, or a
/// temporary WARC); `None` when there is nothing to fetch.
pub fn fetch_urls(
    args: &FetchArgs,
    url_args: Vec<String>,
    keep: Option<&Path>,
    threads: Option<usize>,
) -> Result<Option<Fetched>> {
    if url_args.is_empty() && !args.has_url_file() {
        if let Some(name) = args.fetch_only_option() {
            return Err(Error::Config(format!(
                "{name} needs URLs to fetch (http(s) arguments or --urls FILE)"
            )));
        }
        if keep.is_some() {
            return Err(Error::Config(
                "--crawl needs URLs to fetch (http(s) arguments or --urls FILE)".into(),
            ));
        }
        return Ok(None);
    }
    let urls = args.urls(url_args)?;
    let (warc, temp) = match keep {
        Some(w) => (w.to_owned(), None),
        None => {
            let dir = tempfile::tempdir()
                .map_err(|e| Error::Config(format!("a temporary directory: {e}")))?;
            (dir.path().join("crawl.warc.gz"), Some(dir))
        }
    };
    let summary = fetch_to(args, urls.clone(), &warc, threads)?;
    report_no_pages(&summary.manifest, &urls)?;
    Ok(Some(Fetched { warc, _temp: temp }))
}

/// Print each listed URL that gave no page because of its answer (an HTTP error, not
/// HTML, disallowed by robots.txt); those that failed (`error`, `refused`) the fetcher
/// has printed already.
fn report_no_pages(manifest: &Path, urls: &[String]) -> Result<()> {
    let file = std::fs::File::open(manifest).map_err(|e| Error::io(manifest, e))?;
    let mut last: HashMap<String, CrawlRecord> = HashMap::new();
    for line in std::io::BufReader::new(file).lines() {
        let line = line.map_err(|e| Error::io(manifest, e))?;
        if let Ok(r) = serde_json::from_str::<CrawlRecord>(&line) {
            last.insert(r.url.clone(), r);
        }
    }
    for u in urls {
        let key = url::Url::parse(u.trim())
            .map(|mut p| {
                p.set_fragment(None);
                p.to_string()
            })
            .unwrap_or_else(|_| u.clone());
        let Some(r) = last.get(&key) else { continue };
        if matches!(
            r.outcome.as_str(),
            "page" | "not_modified" | "error" | "refused"
        ) {
            continue;
        }
        let why = match (&r.error, r.status) {
            (Some(e), _) => e.clone(),
            (None, Some(s)) => format!("HTTP {s}"),
            (None, None) => String::new(),
        };
        eprintln!(
            "warning: {key}: no page ({}{}{why})",
            r.outcome,
            if why.is_empty() { "" } else { ": " }
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_are_told_from_paths() {
        let args: Vec<PathBuf> = [
            "a.html",
            "http://x.example/1",
            "HTTPS://x.example/2",
            "http",
        ]
        .iter()
        .map(PathBuf::from)
        .collect();
        let (paths, urls) = split_urls(&args);
        assert_eq!(paths, vec![PathBuf::from("a.html"), PathBuf::from("http")]);
        assert_eq!(urls, vec!["http://x.example/1", "HTTPS://x.example/2"]);
    }
}
