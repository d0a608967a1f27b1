//! `thresher fetch` and `run --fetch`: options → [`FetchConfig`] → [`fetch::run_fetch`].

use std::path::{Path, PathBuf};
use std::time::Duration;

use clap::Args;

use crate::error::{Error, Result};
use crate::source::fetch::{self, net::Cidr, FetchConfig, FetchSummary};

/// Options of the fetcher (shared by `fetch` and `run --fetch`).
#[derive(Debug, Args)]
pub struct FetchArgs {
    /// File of URLs, one a line (`#` comments and blank lines skipped).
    #[arg(long, value_name = "FILE")]
    urls: Option<PathBuf>,
    /// User-Agent sent; its first token (`thresher`) is matched against robots.txt.
    #[arg(long)]
    user_agent: Option<String>,
    /// Requests in flight overall [default: 32].
    #[arg(long)]
    concurrency: Option<usize>,
    /// Requests in flight per origin (scheme://host:port) [default: 2].
    #[arg(long)]
    per_host: Option<usize>,
    /// Minimum time between request starts on one origin; a robots.txt Crawl-delay
    /// raises it [default: 1s].
    #[arg(long, value_parser = fetch::parse_duration)]
    delay: Option<Duration>,
    /// Connect timeout [default: 10s].
    #[arg(long, value_parser = fetch::parse_duration)]
    connect_timeout: Option<Duration>,
    /// Total time for one request, body included [default: 30s].
    #[arg(long, value_parser = fetch::parse_duration)]
    timeout: Option<Duration>,
    /// Bytes received per body; the rest is not read [default: 10M].
    #[arg(long, value_parser = fetch::parse_size)]
    max_body: Option<usize>,
    /// Bytes a compressed body may decode to (gzip/deflate/brotli bombs stop there) [default: 32M].
    #[arg(long, value_parser = fetch::parse_size)]
    max_decompressed: Option<usize>,
    /// Redirects followed per URL [default: 10].
    #[arg(long)]
    max_redirects: Option<usize>,
    /// Retries after timeouts, transport errors, 5xx and 429 [default: 2].
    #[arg(long)]
    retries: Option<u32>,
    /// First retry backoff, doubled each time [default: 1s].
    #[arg(long, value_parser = fetch::parse_duration)]
    retry_delay: Option<Duration>,
    /// Longest Retry-After waited for; longer ones leave the URL retryable [default: 120s].
    #[arg(long, value_parser = fetch::parse_duration)]
    max_retry_after: Option<Duration>,
    /// Allow loopback, private, link-local and other non-public addresses (tests, intranets).
    #[arg(long)]
    allow_private: bool,
    /// Allow one non-public address range (repeatable), e.g. `10.1.0.0/16`.
    #[arg(long, value_name = "CIDR")]
    allow_net: Vec<Cidr>,
    /// Longest robots.txt Crawl-delay honoured; a longer one is cut to this, with a
    /// warning [default: 30s].
    #[arg(long, value_parser = fetch::parse_duration)]
    max_crawl_delay: Option<Duration>,
    /// Trust the certificate authorities in this PEM file for HTTPS, besides the system's
    /// (repeatable). Certificates are always verified.
    #[arg(long, value_name = "PEM")]
    ca_cert: Vec<PathBuf>,
    /// WARC of an earlier crawl (repeatable): requests for its URLs carry If-None-Match /
    /// If-Modified-Since from its ETag / Last-Modified, and a 304 is stored as a revisit
    /// record pointing at its response.
    #[arg(long, value_name = "WARC")]
    previous: Vec<PathBuf>,
}

impl FetchArgs {
    pub fn config(&self, threads: Option<usize>) -> Result<FetchConfig> {
        let mut c = FetchConfig::default();
        if let Some(ua) = &self.user_agent {
            if ua.trim().is_empty() || ua.contains(['\r', '\n']) {
                return Err(Error::Config(
                    "--user-agent must be one non-empty line".into(),
                ));
            }
            c.user_agent = ua.clone();
        }
        for (name, v) in [
            ("--concurrency", self.concurrency),
            ("--per-host", self.per_host),
        ] {
            if v == Some(0) {
                return Err(Error::Config(format!("{name} must be at least 1")));
            }
        }
        if let Some(v) = self.concurrency {
            c.concurrency = v;
        }
        if let Some(v) = self.per_host {
            c.per_host = v;
        }
        if let Some(v) = self.delay {
            c.delay = v;
        }
        if let Some(v) = self.connect_timeout {
            c.connect_timeout = v;
        }
        if let Some(v) = self.timeout {
            c.timeout = v;
        }
        if let Some(v) = self.max_body {
            c.max_body = v;
        }
        if let Some(v) = self.max_decompressed {
            c.max_decoded = v;
        }
        if let Some(v) = self.max_redirects {
            c.max_redirects = v;
        }
        if let Some(v) = self.retries {
            c.retries = v;
        }
        if let Some(v) = self.retry_delay {
            c.retry_delay = v;
        }
        if let Some(v) = self.max_retry_after {
            c.max_retry_after = v;
        }
        c.addr_policy.allow_private = self.allow_private;
        c.addr_policy.allow_nets = self.allow_net.clone();
        c.threads = threads.unwrap_or(0);
        if let Some(v) = self.max_crawl_delay {
            c.max_crawl_delay = v;
        }
        c.ca_certs = self.ca_cert.clone();
        c.previous = self.previous.clone();
        Ok(c)
    }

    /// The URLs to fetch: `--urls FILE` first, then the command line's.
    pub fn urls(&self, extra: impl IntoIterator<Item = String>) -> Result<Vec<String>> {
        let mut urls = match &self.urls {
            Some(f) => fetch::read_url_list(f)?,
            None => Vec::new(),
        };
        urls.extend(extra);
        if urls.is_empty() {
            return Err(Error::Config("give URLs or --urls FILE".into()));
        }
        Ok(urls)
    }

    /// Whether `--urls FILE` was given.
    pub fn has_url_file(&self) -> bool {
        self.urls.is_some()
    }

    /// `run` without `--fetch`: options that only mean something when fetching are errors
    /// rather than silently ignored.
    pub fn check_without_fetch(&self) -> Result<()> {
        match self.fetch_only_option() {
            Some(name) => Err(Error::Config(format!("{name} needs --fetch"))),
            None => Ok(()),
        }
    }

    /// The first option given that only means something when fetching.
    pub fn fetch_only_option(&self) -> Option<&'static str> {
        let given = [
            ("--urls", self.urls.is_some()),
            ("--previous", !self.previous.is_empty()),
            ("--ca-cert", !self.ca_cert.is_empty()),
        ];
        given.iter().find(|(_, set)| *set).map(|(name, _)| *name)
    }
}

/// Fetch into `warc` and print the summary line on stderr.
pub fn fetch_to(
    args: &FetchArgs,
    urls: Vec<String>,
    warc: &Path,
    threads: Option<usize>,
) -> Result<FetchSummary> {
    let cfg = args.config(threads)?;
    let bar = super::progress_bar(Some(0));
    let summary = fetch::run_fetch(&urls, warc, &cfg, &bar)?;
    bar.finish_and_clear();
    if !cfg.previous.is_empty() {
        eprintln!(
            "previous crawl: {} URLs with ETag/Last-Modified, requested conditionally",
            summary.previous_urls
        );
    }
    let handled: usize = summary.outcomes.values().sum();
    let outcomes: Vec<String> = summary
        .outcomes
        .iter()
        .map(|(k, v)| format!("{v} {k}"))
        .collect();
    eprintln!(
        "{} URLs: {} fetched earlier, {} now ({}) with {} requests in {:.2} s ({:.1} URLs/s) → {}, {}",
        summary.urls,
        summary.already_done,
        handled,
        if outcomes.is_empty() { "none".into() } else { outcomes.join(", ") },
        summary.requests,
        summary.seconds,
        handled as f64 / summary.seconds.max(1e-9),
        summary.warc.display(),
        summary.manifest.display()
    );
    Ok(summary)
}
