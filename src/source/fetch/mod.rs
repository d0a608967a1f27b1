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
//! * Re-fetching: with `--previous` (the last crawl's WARC) requests carry
//!   `If-None-Match`/`If-Modified-Since`; a 304 is stored as a revisit record
//!   (server-not-modified) pointing at the earlier response, which `extract`/`run` read.
//! * Recorded: robots.txt and every redirect hop are response records in the WARC.
//! * HTTPS: certificates always verified, against the system's roots plus `--ca-cert`.
//! * Safety: http(s) only; no loopback/private/link-local/multicast addresses unless
//!   allowed, checked on the resolved addresses of every hop (see [`net`]).
//!
//! Files: `crawl.rs` (the run: per-origin queues and workers, the writer thread),
//! `ctx.rs` (what the workers share: the client, settings, origins), `host.rs` (one
//! origin's state), `urls.rs` (the URL list), `one_url.rs` (one URL: attempts, redirect
//! hops, its record), `politeness.rs` (waiting for an origin's turn, robots.txt
//! fetching), `request.rs` (one
//! HTTP exchange and its failures), `retry.rs` (backoff, Retry-After), `redirect.rs`,
//! `sink.rs` (WARC records and manifest lines), `manifest.rs` (the manifest's records,
//! resume), `previous.rs` (the last crawl's validators), `options.rs` (settings and
//! defaults), `robots.rs` (robots.txt rules), `body.rs` (capped decoding), `net.rs`
//! (address safety).

pub mod body;
pub mod net;
pub mod robots;

mod crawl;
mod ctx;
mod host;
mod manifest;
mod one_url;
mod options;
mod politeness;
mod previous;
mod redirect;
mod request;
mod retry;
mod sink;
mod urls;

pub use crawl::run_fetch;
pub use manifest::{manifest_path_for, CrawlRecord, FetchSummary};
pub use options::{parse_duration, parse_size, FetchConfig};
pub use urls::read_url_list;
