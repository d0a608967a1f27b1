//! The fetcher's settings ([`FetchConfig`]) with their defaults, and the parsers of the
//! `fetch` command's duration and size options.

use std::time::Duration;

use super::net::AddrPolicy;

// The defaults below (the `fetch` options' defaults, listed in README and in `--help`) are
// polite, conventional crawler values; hand-set, not swept.

/// Requests in flight overall (`--concurrency`).
const DEFAULT_CONCURRENCY: usize = 32;
/// Requests in flight per origin (`--per-host`).
const DEFAULT_PER_HOST: usize = 2;
/// Minimum time between two request starts on one origin (`--delay`; Crawl-delay raises it).
const DEFAULT_DELAY: Duration = Duration::from_secs(1);
/// `--connect-timeout`.
const DEFAULT_CONNECT_TIMEOUT: Duration = Duration::from_secs(10);
/// Whole request, body included (`--timeout`).
const DEFAULT_TIMEOUT: Duration = Duration::from_secs(30);
/// Bytes received per body (`--max-body`, 10 MiB).
const DEFAULT_MAX_BODY: usize = 10 << 20;
/// Bytes a compressed body may decode to (`--max-decompressed`, 32 MiB).
const DEFAULT_MAX_DECODED: usize = 32 << 20;
/// Redirects followed per URL (`--max-redirects`).
const DEFAULT_MAX_REDIRECTS: usize = 10;
/// Retries after the first attempt (`--retries`).
const DEFAULT_RETRIES: u32 = 2;
/// First backoff, doubled at each retry (`--retry-delay`).
const DEFAULT_RETRY_DELAY: Duration = Duration::from_secs(1);
/// Longest Retry-After waited for (`--max-retry-after`).
const DEFAULT_MAX_RETRY_AFTER: Duration = Duration::from_secs(120);
/// Longest robots.txt Crawl-delay honoured (`--max-crawl-delay`); a longer one is cut to
/// this. 30 s is Nutch's and StormCrawler's `fetcher.max.crawl.delay`.
const DEFAULT_MAX_CRAWL_DELAY: Duration = Duration::from_secs(30);

/// Fetch settings (the `fetch` command's options).
#[derive(Debug, Clone)]
pub struct FetchConfig {
    /// Sent with every request; its first product token is matched against robots.txt.
    pub user_agent: String,
    /// Requests in flight overall.
    pub concurrency: usize,
    /// Requests in flight per origin.
    pub per_host: usize,
    /// Minimum time between the starts of two requests to one origin (raised to the
    /// origin's Crawl-delay).
    pub delay: Duration,
    pub connect_timeout: Duration,
    /// Whole request: connecting, headers and body.
    pub timeout: Duration,
    /// Bytes received for one body; the rest is not read (the page keeps its beginning).
    pub max_body: usize,
    /// Bytes a compressed body may decode to.
    pub max_decoded: usize,
    pub max_redirects: usize,
    /// Retries after the first attempt (timeouts, transport errors, 5xx, 429).
    pub retries: u32,
    /// First backoff; doubled at each retry.
    pub retry_delay: Duration,
    /// A Retry-After longer than this is not waited for: the URL is recorded as retryable.
    pub max_retry_after: Duration,
    pub addr_policy: AddrPolicy,
    /// Tokio worker threads (0: one per core).
    pub threads: usize,
    /// A robots.txt Crawl-delay longer than this is cut to it (with a warning).
    pub max_crawl_delay: Duration,
    /// PEM files of certificate authorities trusted besides the system's (`--ca-cert`).
    pub ca_certs: Vec<std::path::PathBuf>,
    /// WARC files of earlier crawls (`--previous`): their validators make requests
    /// conditional, and a 304 is stored as a revisit of their response.
    pub previous: Vec<std::path::PathBuf>,
}

impl Default for FetchConfig {
    fn default() -> Self {
        FetchConfig {
            user_agent: format!(
                "thresher/{} (web page preprocessor; honours robots.txt)",
                env!("CARGO_PKG_VERSION")
            ),
            concurrency: DEFAULT_CONCURRENCY,
            per_host: DEFAULT_PER_HOST,
            delay: DEFAULT_DELAY,
            connect_timeout: DEFAULT_CONNECT_TIMEOUT,
            timeout: DEFAULT_TIMEOUT,
            max_body: DEFAULT_MAX_BODY,
            max_decoded: DEFAULT_MAX_DECODED,
            max_redirects: DEFAULT_MAX_REDIRECTS,
            retries: DEFAULT_RETRIES,
            retry_delay: DEFAULT_RETRY_DELAY,
            max_retry_after: DEFAULT_MAX_RETRY_AFTER,
            addr_policy: AddrPolicy::default(),
            threads: 0,
            max_crawl_delay: DEFAULT_MAX_CRAWL_DELAY,
            ca_certs: Vec::new(),
            previous: Vec::new(),
        }
    }
}

/// `500ms`, `2s`, `1.5s`, `2m`, or a plain number of seconds.
pub fn parse_duration(s: &str) -> std::result::Result<Duration, String> {
    let t = s.trim();
    let (num, mult) = if let Some(n) = t.strip_suffix("ms") {
        (n, 0.001)
    } else if let Some(n) = t.strip_suffix('s') {
        (n, 1.0)
    } else if let Some(n) = t.strip_suffix('m') {
        (n, 60.0)
    } else {
        (t, 1.0)
    };
    let v: f64 = num
        .trim()
        .parse()
        .map_err(|_| format!("not a duration: {s} (e.g. 500ms, 2s, 1m)"))?;
    if !(v >= 0.0 && v.is_finite()) {
        return Err(format!("not a duration: {s}"));
    }
    Ok(Duration::from_secs_f64(v * mult))
}

/// `1048576`, `100K`/`100KB`/`100KiB`, `10M`, `1G` (K = 1024).
pub fn parse_size(s: &str) -> std::result::Result<usize, String> {
    let t = s.trim().to_ascii_lowercase();
    let t = t.trim_end_matches("ib").trim_end_matches('b');
    let (num, mult) = match t.chars().last() {
        Some('k') => (&t[..t.len() - 1], 1u64 << 10),
        Some('m') => (&t[..t.len() - 1], 1 << 20),
        Some('g') => (&t[..t.len() - 1], 1 << 30),
        _ => (t, 1),
    };
    let v: f64 = num
        .trim()
        .parse()
        .map_err(|_| format!("not a size: {s} (e.g. 100K, 10M)"))?;
    if !(v >= 1.0 && v.is_finite()) {
        return Err(format!("not a size: {s}"));
    }
    Ok((v * mult as f64) as usize)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_and_sizes_parse() {
        assert_eq!(parse_duration("500ms").unwrap(), Duration::from_millis(500));
        assert_eq!(parse_duration("2").unwrap(), Duration::from_secs(2));
        assert_eq!(parse_duration("1.5s").unwrap(), Duration::from_millis(1500));
        assert_eq!(parse_duration("2m").unwrap(), Duration::from_secs(120));
        assert!(parse_duration("soon").is_err());
        assert_eq!(parse_size("100K").unwrap(), 100 << 10);
        assert_eq!(parse_size("10MiB").unwrap(), 10 << 20);
        assert_eq!(parse_size("2048").unwrap(), 2048);
        assert!(parse_size("0").is_err());
    }
}
