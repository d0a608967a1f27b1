//! Fetching URL lists like a polite, robust crawler, into a WARC file plus a manifest.
//!
//! * One manifest line (JSONL) per URL: what happened to it (`outcome`), status,
//!   content type, Last-Modified, where its response record is in the WARC. The manifest
//!   is the crawl's log and its resume point: a URL whose last line is not `retryable`
//!   is not fetched again.
//! * Politeness per origin (`scheme://host:port`): robots.txt fetched once and honoured
//!   (with Crawl-delay), at most `per_host` requests in flight, request starts at least
//!   `delay` apart; `concurrency` requests in flight overall.
//! * Limits: connect and total timeouts, bytes received and bytes decoded capped while
//!   streaming, redirects followed by hand (each hop checked again), only HTML-like bodies
//!   downloaded; timeouts, transport errors, 5xx and 429 retried with backoff, Retry-After
//!   honoured.
//! * Safety: http(s) only; no loopback/private/link-local/multicast addresses unless
//!   allowed, checked on the resolved addresses of every hop (see [`net`]).

pub mod body;
pub mod net;
pub mod robots;

use std::collections::{BTreeMap, HashMap, HashSet, VecDeque};
use std::io::{BufRead, Write};
use std::net::IpAddr;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use chrono::{DateTime, SecondsFormat, Utc};
use serde::{Deserialize, Serialize};
use tokio::sync::{OnceCell, Semaphore};
use tokio::time::Instant;
use url::Url;

use super::warc::{is_html_content_type, new_record_id, sha1_digest, WarcWriter};
use crate::error::{Error, Result};
use body::{BodyDecoder, Cut};
use net::{AddrPolicy, GuardedResolver};
use robots::Robots;

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
}

impl Default for FetchConfig {
    fn default() -> Self {
        FetchConfig {
            user_agent: format!(
                "thresher/{} (web page preprocessor; honours robots.txt)",
                env!("CARGO_PKG_VERSION")
            ),
            concurrency: 32,
            per_host: 2,
            delay: Duration::from_secs(1),
            connect_timeout: Duration::from_secs(10),
            timeout: Duration::from_secs(30),
            max_body: 10 << 20,
            max_decoded: 32 << 20,
            max_redirects: 10,
            retries: 2,
            retry_delay: Duration::from_secs(1),
            max_retry_after: Duration::from_secs(120),
            addr_policy: AddrPolicy::default(),
            threads: 0,
        }
    }
}

/// One manifest line: what happened to one URL.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct CrawlRecord {
    /// The URL as listed (parsed and re-serialized; fragment dropped).
    pub url: String,
    /// Where the last redirect led, when it is not `url`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub final_url: Option<String>,
    /// `page` (2xx HTML, stored), `not_html` (2xx, other content type: headers stored,
    /// body not downloaded), `http_error` (final status not 2xx), `robots` (not allowed by
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
    /// Offset of the final response record in the WARC file.
    #[serde(default)]
    pub warc_offset: Option<u64>,
    /// Length of the WARC file once this URL's records were written (resume point).
    #[serde(default)]
    pub warc_end: u64,
}

impl CrawlRecord {
    fn fail(&mut self, outcome: &str, kind: &str, message: String, retryable: bool) {
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
    /// URLs handled in this run, by outcome.
    pub outcomes: BTreeMap<String, usize>,
    /// HTTP requests sent (pages, redirects, retries, robots.txt).
    pub requests: usize,
    pub seconds: f64,
    pub warc: PathBuf,
    pub manifest: PathBuf,
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

/// What a resumed run finds: URLs finished earlier and where the WARC's committed part ends.
struct Resume {
    done: HashSet<String>,
    warc_end: Option<u64>,
}

/// Read the manifest of an earlier run; drop a half-written last line.
fn load_resume(manifest: &Path) -> Result<Resume> {
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

/// A request and its response as they go into the WARC.
struct Exchange {
    target: String,
    request: Vec<u8>,
    response_head: Vec<u8>,
    body: Vec<u8>,
    date: DateTime<Utc>,
    ip: Option<IpAddr>,
    truncated: Option<&'static str>,
}

/// A finished URL, sent to the writer.
struct Done {
    record: CrawlRecord,
    exchanges: Vec<Exchange>,
}

/// Per-origin state.
struct Host {
    in_flight: Semaphore,
    turns: Mutex<Turns>,
    robots: OnceCell<Robots>,
    queue: Mutex<VecDeque<Url>>,
}

/// When requests to one origin may start.
struct Turns {
    /// Minimum time between two starts (the larger of `--delay` and Crawl-delay).
    delay: Duration,
    last_start: Option<Instant>,
    /// No start before this (Retry-After).
    hold: Option<Instant>,
}

impl Host {
    fn new(per_host: usize, delay: Duration) -> Host {
        Host {
            in_flight: Semaphore::new(per_host.max(1)),
            turns: Mutex::new(Turns {
                delay,
                last_start: None,
                hold: None,
            }),
            robots: OnceCell::new(),
            queue: Mutex::new(VecDeque::new()),
        }
    }

    /// Wait until this origin may see the next request start.
    async fn wait_turn(&self) {
        let start = {
            let mut t = self.turns.lock().expect("lock");
            let mut start = Instant::now();
            if let Some(last) = t.last_start {
                start = start.max(last + t.delay);
            }
            if let Some(hold) = t.hold {
                start = start.max(hold);
            }
            t.last_start = Some(start);
            start
        };
        tokio::time::sleep_until(start).await;
    }

    /// No request to this origin before `until` (Retry-After).
    fn hold_until(&self, until: Instant) {
        let mut t = self.turns.lock().expect("lock");
        t.hold = Some(t.hold.map_or(until, |h| h.max(until)));
    }

    fn raise_delay(&self, d: Duration) {
        let mut t = self.turns.lock().expect("lock");
        t.delay = t.delay.max(d);
    }
}

struct Ctx {
    client: reqwest::Client,
    cfg: FetchConfig,
    agent: String,
    hosts: Mutex<HashMap<String, Arc<Host>>>,
    global: Semaphore,
    requests: AtomicUsize,
}

fn origin_key(url: &Url) -> String {
    url.origin().ascii_serialization()
}

impl Ctx {
    fn host(&self, url: &Url) -> Arc<Host> {
        let mut hosts = self.hosts.lock().expect("lock");
        hosts
            .entry(origin_key(url))
            .or_insert_with(|| Arc::new(Host::new(self.cfg.per_host, self.cfg.delay)))
            .clone()
    }
}

/// A failure of one request: kind, message, and whether trying again may help.
struct Failure {
    kind: &'static str,
    message: String,
    transient: bool,
}

/// A response with its body read (or skipped, for non-HTML).
struct Fetched {
    status: u16,
    headers: reqwest::header::HeaderMap,
    exchange: Exchange,
    cut: Option<Cut>,
    skipped_body: bool,
}

fn error_text(e: &(dyn std::error::Error + 'static)) -> String {
    let mut parts = vec![e.to_string()];
    let mut cur = e.source();
    while let Some(s) = cur {
        let t = s.to_string();
        if !parts.iter().any(|p| p.contains(&t)) {
            parts.push(t);
        }
        cur = s.source();
    }
    parts.join(": ")
}

fn classify(e: &reqwest::Error) -> Failure {
    if let Some(b) = net::blocked_in_chain(e) {
        return Failure {
            kind: "blocked_address",
            message: b,
            transient: false,
        };
    }
    let message = error_text(e);
    let kind = if e.is_timeout() {
        "timeout"
    } else if e.is_connect() {
        "connect"
    } else {
        "transport"
    };
    Failure {
        kind,
        message,
        transient: true,
    }
}

/// Refuse non-http(s) schemes and IP literals outside the address policy.
fn check_target(url: &Url, policy: &AddrPolicy) -> std::result::Result<(), Failure> {
    if !matches!(url.scheme(), "http" | "https") {
        return Err(Failure {
            kind: "bad_scheme",
            message: format!("scheme {}: only http and https are fetched", url.scheme()),
            transient: false,
        });
    }
    let ip = match url.host() {
        Some(url::Host::Ipv4(a)) => Some(IpAddr::V4(a)),
        Some(url::Host::Ipv6(a)) => Some(IpAddr::V6(a)),
        Some(url::Host::Domain(_)) => None,
        None => {
            return Err(Failure {
                kind: "bad_url",
                message: "no host".into(),
                transient: false,
            })
        }
    };
    if let Some(ip) = ip {
        policy.check(ip).map_err(|message| Failure {
            kind: "blocked_address",
            message,
            transient: false,
        })?;
    }
    Ok(())
}

fn request_head(url: &Url, cfg: &FetchConfig) -> Vec<u8> {
    let mut target = url.path().to_string();
    if let Some(q) = url.query() {
        target.push('?');
        target.push_str(q);
    }
    let host = match url.port() {
        Some(p) => format!("{}:{p}", url.host_str().unwrap_or("")),
        None => url.host_str().unwrap_or("").to_string(),
    };
    format!(
        "GET {target} HTTP/1.1\r\nHost: {host}\r\nUser-Agent: {}\r\nAccept: {ACCEPT}\r\nAccept-Encoding: {ACCEPT_ENCODING}\r\n\r\n",
        cfg.user_agent
    )
    .into_bytes()
}

const ACCEPT: &str = "text/html,application/xhtml+xml;q=0.9,*/*;q=0.5";
const ACCEPT_ENCODING: &str = "gzip, deflate, br";

/// The response's status line and headers as stored: the body is stored decoded and
/// de-chunked, so `Content-Length` is the stored length and the original
/// `Content-Encoding`, `Transfer-Encoding` and `Content-Length` are kept under
/// `X-Thresher-Orig-…`.
fn response_head(resp: &reqwest::Response, decoded: bool, stored_len: usize) -> Vec<u8> {
    let version = match resp.version() {
        reqwest::Version::HTTP_09 => "HTTP/0.9",
        reqwest::Version::HTTP_10 => "HTTP/1.0",
        reqwest::Version::HTTP_2 => "HTTP/2",
        reqwest::Version::HTTP_3 => "HTTP/3",
        _ => "HTTP/1.1",
    };
    let status = resp.status();
    let mut head = format!(
        "{version} {} {}\r\n",
        status.as_u16(),
        status.canonical_reason().unwrap_or("")
    )
    .into_bytes();
    for (name, value) in resp.headers() {
        let n = name.as_str();
        let rename = matches!(n, "content-length" | "transfer-encoding")
            || (n == "content-encoding" && decoded);
        if rename {
            head.extend_from_slice(b"X-Thresher-Orig-");
        }
        head.extend_from_slice(n.as_bytes());
        head.extend_from_slice(b": ");
        head.extend_from_slice(value.as_bytes());
        head.extend_from_slice(b"\r\n");
    }
    head.extend_from_slice(format!("Content-Length: {stored_len}\r\n\r\n").as_bytes());
    head
}

fn header_str(h: &reqwest::header::HeaderMap, name: reqwest::header::HeaderName) -> Option<String> {
    h.get(name)
        .and_then(|v| v.to_str().ok())
        .map(|s| s.trim().to_string())
}

/// One GET, body streamed through the caps. `html_only`: a 2xx response that is not
/// HTML-like is not downloaded.
async fn request(
    ctx: &Ctx,
    url: &Url,
    html_only: bool,
    max_body: usize,
    max_decoded: usize,
) -> std::result::Result<Fetched, Failure> {
    ctx.requests.fetch_add(1, Ordering::Relaxed);
    let deadline = Instant::now() + ctx.cfg.timeout;
    let timeout = || Failure {
        kind: "timeout",
        message: format!("no complete response within {:?}", ctx.cfg.timeout),
        transient: true,
    };
    let send = ctx
        .client
        .get(url.clone())
        .header(reqwest::header::ACCEPT, ACCEPT)
        .header(reqwest::header::ACCEPT_ENCODING, ACCEPT_ENCODING)
        .send();
    let mut resp = match tokio::time::timeout_at(deadline, send).await {
        Err(_) => return Err(timeout()),
        Ok(Err(e)) => return Err(classify(&e)),
        Ok(Ok(r)) => r,
    };
    let date = Utc::now();
    let status = resp.status().as_u16();
    let headers = resp.headers().clone();
    let content_type = header_str(&headers, reqwest::header::CONTENT_TYPE);
    let ip = resp.remote_addr().map(|a| a.ip());
    let request = request_head(url, &ctx.cfg);
    if html_only
        && (200..300).contains(&status)
        && content_type
            .as_deref()
            .is_some_and(|ct| !is_html_content_type(ct))
    {
        let response_head = response_head(&resp, false, 0);
        return Ok(Fetched {
            status,
            headers,
            exchange: Exchange {
                target: url.to_string(),
                request,
                response_head,
                body: Vec::new(),
                date,
                ip,
                truncated: Some("unspecified"),
            },
            cut: None,
            skipped_body: true,
        });
    }
    let encoding = header_str(&headers, reqwest::header::CONTENT_ENCODING)
        .map(|e| e.to_ascii_lowercase())
        .filter(|e| body::supported_encoding(e));
    let mut decoder = BodyDecoder::new(encoding.as_deref(), max_body, max_decoded);
    loop {
        match tokio::time::timeout_at(deadline, resp.chunk()).await {
            Err(_) => return Err(timeout()),
            Ok(Err(e)) => {
                let mut f = classify(&e);
                f.message = format!("after {} body bytes: {}", decoder.raw_len(), f.message);
                return Err(f);
            }
            Ok(Ok(None)) => break,
            Ok(Ok(Some(chunk))) => match decoder.push(&chunk) {
                Ok(true) => {}
                Ok(false) => break, // a cap: stop reading, the connection is dropped
                Err(message) => {
                    return Err(Failure {
                        kind: "decompress",
                        message,
                        transient: false,
                    })
                }
            },
        }
    }
    let decoded = decoder.encoding.is_some();
    let (body, cut) = decoder.finish().map_err(|message| Failure {
        kind: "decompress",
        message,
        transient: false,
    })?;
    let response_head = response_head(&resp, decoded, body.len());
    Ok(Fetched {
        status,
        headers,
        exchange: Exchange {
            target: url.to_string(),
            request,
            response_head,
            body,
            date,
            ip,
            truncated: cut.map(|_| "length"),
        },
        cut,
        skipped_body: false,
    })
}

fn backoff(cfg: &FetchConfig, attempt: u32, url: &Url) -> Duration {
    let base = cfg.retry_delay.as_secs_f64() * 2f64.powi(attempt.saturating_sub(1).min(16) as i32);
    // Deterministic jitter (0–50 %) so that many URLs failing together spread out.
    let h = xxhash_rust::xxh3::xxh3_64(format!("{url}#{attempt}").as_bytes());
    let jitter = (h % 1000) as f64 / 2000.0;
    Duration::from_secs_f64((base * (1.0 + jitter)).min(300.0))
}

/// Retry-After: seconds or an HTTP date.
fn retry_after(h: &reqwest::header::HeaderMap) -> Option<Duration> {
    let v = header_str(h, reqwest::header::RETRY_AFTER)?;
    if let Ok(secs) = v.parse::<u64>() {
        return Some(Duration::from_secs(secs));
    }
    let at = DateTime::parse_from_rfc2822(&v).ok()?;
    let wait = at.with_timezone(&Utc) - Utc::now();
    Some(wait.to_std().unwrap_or(Duration::ZERO))
}

fn is_redirect(status: u16) -> bool {
    matches!(status, 301 | 302 | 303 | 307 | 308)
}

/// robots.txt of `url`'s origin, fetched (redirects followed, 5 at most) with the same
/// politeness, safety checks and retries as pages.
async fn fetch_robots(ctx: &Ctx, host: &Host, url: &Url) -> Robots {
    let Ok(mut target) = url.join("/robots.txt") else {
        return Robots::AllowAll;
    };
    let mut attempt = 0;
    let mut hops = 0;
    loop {
        if check_target(&target, &ctx.cfg.addr_policy).is_err() {
            return Robots::AllowAll; // a redirect elsewhere: as if there were no file
        }
        let result = {
            let _slot = host.in_flight.acquire().await.expect("open semaphore");
            host.wait_turn().await;
            let _global = ctx.global.acquire().await.expect("open semaphore");
            request(
                ctx,
                &target,
                false,
                robots::MAX_ROBOTS_BYTES,
                robots::MAX_ROBOTS_BYTES,
            )
            .await
        };
        match result {
            Ok(f) if is_redirect(f.status) => {
                hops += 1;
                let next = header_str(&f.headers, reqwest::header::LOCATION)
                    .and_then(|l| target.join(&l).ok());
                match next {
                    Some(n) if hops <= 5 => target = n,
                    _ => return Robots::AllowAll,
                }
            }
            Ok(f) if (f.status >= 500 || f.status == 429) && attempt < ctx.cfg.retries => {
                attempt += 1;
                tokio::time::sleep(
                    retry_after(&f.headers)
                        .filter(|d| *d <= ctx.cfg.max_retry_after)
                        .unwrap_or_else(|| backoff(&ctx.cfg, attempt, &target)),
                )
                .await;
            }
            Ok(f) => return Robots::from_response(f.status, &f.exchange.body, &ctx.agent),
            Err(f) if f.kind == "blocked_address" => return Robots::AllowAll,
            Err(f) if f.transient && attempt < ctx.cfg.retries => {
                attempt += 1;
                tokio::time::sleep(backoff(&ctx.cfg, attempt, &target)).await;
            }
            Err(f) => return Robots::Unreachable(format!("robots.txt: {}: {}", f.kind, f.message)),
        }
    }
}

async fn robots_for(ctx: &Ctx, url: &Url) -> (Arc<Host>, std::result::Result<(), (String, bool)>) {
    let host = ctx.host(url);
    let rules = host
        .robots
        .get_or_init(|| async {
            let r = fetch_robots(ctx, &host, url).await;
            if let Some(d) = r.crawl_delay() {
                host.raise_delay(d);
            }
            r
        })
        .await;
    let verdict = rules.check(url);
    (host, verdict)
}

/// Fetch one listed URL: redirects hop by hop, retries, robots and safety on every hop.
async fn fetch_one(ctx: &Ctx, url: Url) -> Done {
    let mut rec = CrawlRecord {
        url: url.to_string(),
        ..Default::default()
    };
    let mut exchanges = Vec::new();
    let cfg = &ctx.cfg;
    let mut attempt: u32 = 0;
    'attempts: loop {
        attempt += 1;
        // Each attempt starts afresh: the record tells about the last one.
        rec = CrawlRecord {
            url: rec.url,
            attempts: attempt,
            ..Default::default()
        };
        let mut current = url.clone();
        let mut redirects = 0u32;
        loop {
            if let Err(f) = check_target(&current, &cfg.addr_policy) {
                // Blocked addresses may be allowed by a later run's options.
                let retryable = f.kind == "blocked_address";
                rec.fail("refused", f.kind, f.message, retryable);
                break 'attempts;
            }
            let (host, verdict) = robots_for(ctx, &current).await;
            if let Err((message, retryable)) = verdict {
                let kind = if retryable {
                    "robots_unreachable"
                } else {
                    "robots_disallowed"
                };
                rec.fail("robots", kind, format!("{current}: {message}"), retryable);
                break 'attempts;
            }
            let result = {
                let _slot = host.in_flight.acquire().await.expect("open semaphore");
                host.wait_turn().await;
                let _global = ctx.global.acquire().await.expect("open semaphore");
                request(ctx, &current, true, cfg.max_body, cfg.max_decoded).await
            };
            let f = match result {
                Ok(f) => f,
                Err(f) => {
                    if f.kind == "blocked_address" {
                        rec.fail("refused", f.kind, f.message, true);
                        break 'attempts;
                    }
                    if f.transient && attempt <= cfg.retries {
                        tokio::time::sleep(backoff(cfg, attempt, &current)).await;
                        continue 'attempts;
                    }
                    rec.fail(
                        "error",
                        f.kind,
                        format!("{current}: {}", f.message),
                        f.transient,
                    );
                    break 'attempts;
                }
            };
            let status = f.status;
            rec.status = Some(status);
            rec.fetched_at = Some(f.exchange.date);
            rec.content_type = header_str(&f.headers, reqwest::header::CONTENT_TYPE);
            rec.last_modified = header_str(&f.headers, reqwest::header::LAST_MODIFIED).map(|v| {
                DateTime::parse_from_rfc2822(&v)
                    .map(|d| {
                        d.with_timezone(&Utc)
                            .to_rfc3339_opts(SecondsFormat::Secs, true)
                    })
                    .unwrap_or(v)
            });
            rec.etag = header_str(&f.headers, reqwest::header::ETAG);
            rec.bytes = Some(f.exchange.body.len() as u64);
            rec.truncated = match (f.skipped_body, f.cut) {
                (true, _) => Some("not_html".into()),
                (false, Some(Cut::Body)) => Some("length".into()),
                (false, Some(Cut::Decoded)) => Some("decoded".into()),
                (false, None) => None,
            };
            rec.final_url = (current != url).then(|| current.to_string());
            rec.redirects = redirects;
            exchanges.push(f.exchange);

            if is_redirect(status) {
                let next = header_str(&f.headers, reqwest::header::LOCATION)
                    .and_then(|l| current.join(&l).ok());
                let Some(mut next) = next else {
                    rec.outcome = "http_error".into();
                    rec.error = Some("redirect without a usable Location".into());
                    break 'attempts;
                };
                next.set_fragment(None);
                redirects += 1;
                if redirects as usize > cfg.max_redirects {
                    rec.fail(
                        "error",
                        "too_many_redirects",
                        format!("more than {} redirects (last to {next})", cfg.max_redirects),
                        false,
                    );
                    break 'attempts;
                }
                current = next;
                continue;
            }
            let retry_status = status >= 500 || status == 429;
            if retry_status {
                let wait = match retry_after(&f.headers) {
                    Some(ra) if matches!(status, 429 | 503) => {
                        if ra > cfg.max_retry_after {
                            rec.fail(
                                "http_error",
                                "retry_after_too_long",
                                format!("HTTP {status} with Retry-After {}s (more than --max-retry-after)", ra.as_secs()),
                                true,
                            );
                            break 'attempts;
                        }
                        host.hold_until(Instant::now() + ra);
                        Duration::ZERO // the host's next turn is the wait
                    }
                    _ => backoff(cfg, attempt, &current),
                };
                if attempt <= cfg.retries {
                    tokio::time::sleep(wait).await;
                    continue 'attempts;
                }
                rec.outcome = "http_error".into();
                rec.error = Some(format!("HTTP {status} after {attempt} attempts"));
                rec.retryable = true;
                break 'attempts;
            }
            rec.outcome = if !(200..300).contains(&status) {
                "http_error"
            } else if rec.truncated.as_deref() == Some("not_html") {
                "not_html"
            } else {
                "page"
            }
            .into();
            break 'attempts;
        }
    }
    Done {
        record: rec,
        exchanges,
    }
}

/// Writes each finished URL's exchanges to the WARC, then its manifest line.
struct Sink {
    warc: WarcWriter,
    manifest: std::io::BufWriter<std::fs::File>,
    manifest_path: PathBuf,
    outcomes: BTreeMap<String, usize>,
}

fn warc_date(d: &DateTime<Utc>) -> String {
    d.to_rfc3339_opts(SecondsFormat::Secs, true)
}

impl Sink {
    fn write(&mut self, done: Done) -> Result<()> {
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
            let mut headers = vec![
                ("WARC-Type", "response".to_string()),
                ("WARC-Record-ID", response_id.clone()),
                ("WARC-Date", warc_date(&ex.date)),
                ("WARC-Target-URI", ex.target.clone()),
            ];
            if let Some(ip) = ex.ip {
                headers.push(("WARC-IP-Address", ip.to_string()));
            }
            headers.push(("Content-Type", "application/http;msgtype=response".into()));
            headers.push(("WARC-Block-Digest", sha1_digest(&block)));
            headers.push(("WARC-Payload-Digest", sha1_digest(&ex.body)));
            if let Some(t) = ex.truncated {
                headers.push(("WARC-Truncated", t.into()));
            }
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
        }
        *self.outcomes.entry(record.outcome).or_default() += 1;
        Ok(())
    }
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

/// Fetch `urls` into `warc` (appending: URLs finished by an earlier run with the same
/// output are skipped) and its manifest ([`manifest_path_for`]).
pub fn run_fetch(
    urls: &[String],
    warc_path: &Path,
    cfg: &FetchConfig,
    progress: &indicatif::ProgressBar,
) -> Result<FetchSummary> {
    let start = std::time::Instant::now();
    let manifest_path = manifest_path_for(warc_path);
    if let Some(dir) = warc_path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
    }
    let resume = load_resume(&manifest_path)?;
    // Without a manifest, nothing was committed: start the WARC afresh.
    let truncate_to = Some(resume.warc_end.unwrap_or(0));
    let mut warc =
        WarcWriter::open_append(warc_path, truncate_to).map_err(|e| Error::io(warc_path, e))?;
    if warc.position() == 0 {
        write_warcinfo(&mut warc, cfg).map_err(|e| Error::io(warc_path, e))?;
        warc.flush().map_err(|e| Error::io(warc_path, e))?;
    }
    let manifest = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&manifest_path)
        .map_err(|e| Error::io(&manifest_path, e))?;
    let mut sink = Sink {
        warc,
        manifest: std::io::BufWriter::new(manifest),
        manifest_path: manifest_path.clone(),
        outcomes: BTreeMap::new(),
    };

    // Parse, drop fragments and duplicates, skip what is done.
    let mut seen = HashSet::new();
    let mut todo: Vec<Url> = Vec::new();
    let mut immediate: Vec<Done> = Vec::new();
    let mut summary = FetchSummary {
        warc: warc_path.to_owned(),
        manifest: manifest_path.clone(),
        ..Default::default()
    };
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
        if resume.done.contains(&key) {
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
    progress.set_length(todo.len() as u64 + immediate.len() as u64);
    for d in immediate {
        sink.write(d)?;
        progress.inc(1);
    }

    let _ = rustls::crypto::ring::default_provider().install_default();
    let policy = Arc::new(cfg.addr_policy.clone());
    let client = reqwest::Client::builder()
        .user_agent(cfg.user_agent.clone())
        .redirect(reqwest::redirect::Policy::none())
        .retry(reqwest::retry::never())
        .no_proxy()
        .connect_timeout(cfg.connect_timeout)
        .pool_max_idle_per_host(cfg.per_host.max(1))
        .pool_idle_timeout(Duration::from_secs(30))
        .dns_resolver(Arc::new(GuardedResolver { policy }))
        .build()
        .map_err(|e| Error::Config(format!("HTTP client: {e}")))?;
    let ctx = Arc::new(Ctx {
        client,
        cfg: cfg.clone(),
        agent: robots::agent_token(&cfg.user_agent).to_string(),
        hosts: Mutex::new(HashMap::new()),
        global: Semaphore::new(cfg.concurrency.max(1)),
        requests: AtomicUsize::new(0),
    });

    let mut rt = tokio::runtime::Builder::new_multi_thread();
    if cfg.threads > 0 {
        rt.worker_threads(cfg.threads);
    }
    let rt = rt
        .enable_all()
        .build()
        .map_err(|e| Error::Config(format!("async runtime: {e}")))?;

    let (tx, mut rx) = tokio::sync::mpsc::channel::<Done>(64);
    let bar = progress.clone();
    let writer = std::thread::spawn(move || -> Result<Sink> {
        while let Some(done) = rx.blocking_recv() {
            sink.write(done)?;
            bar.inc(1);
        }
        Ok(sink)
    });

    rt.block_on(async {
        // Queue URLs per origin, in input order; `per_host` workers drain each queue.
        let mut order: Vec<Arc<Host>> = Vec::new();
        for u in todo {
            let host = ctx.host(&u);
            let mut q = host.queue.lock().expect("lock");
            if q.is_empty() {
                order.push(host.clone());
            }
            q.push_back(u);
        }
        let mut workers = tokio::task::JoinSet::new();
        for host in order {
            let n = host
                .queue
                .lock()
                .expect("lock")
                .len()
                .min(cfg.per_host.max(1));
            for _ in 0..n {
                let ctx = ctx.clone();
                let host = host.clone();
                let tx = tx.clone();
                workers.spawn(async move {
                    loop {
                        let next = host.queue.lock().expect("lock").pop_front();
                        let Some(url) = next else { break };
                        let done = fetch_one(&ctx, url).await;
                        if tx.send(done).await.is_err() {
                            break; // the writer failed; its error is reported below
                        }
                    }
                });
            }
        }
        drop(tx);
        while workers.join_next().await.is_some() {}
    });
    drop(rt);
    let sink = writer
        .join()
        .map_err(|_| Error::Config("the WARC writer panicked".into()))??;
    summary.outcomes = sink.outcomes;
    summary.requests = ctx.requests.load(Ordering::Relaxed);
    summary.seconds = start.elapsed().as_secs_f64();
    Ok(summary)
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

    #[test]
    fn retry_after_reads_seconds_and_dates() {
        let mut h = reqwest::header::HeaderMap::new();
        h.insert(reqwest::header::RETRY_AFTER, "7".parse().unwrap());
        assert_eq!(retry_after(&h), Some(Duration::from_secs(7)));
        h.insert(
            reqwest::header::RETRY_AFTER,
            "Wed, 21 Oct 2015 07:28:00 GMT".parse().unwrap(),
        );
        assert_eq!(retry_after(&h), Some(Duration::ZERO));
    }
}
