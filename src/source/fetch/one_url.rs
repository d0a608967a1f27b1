//! Fetching one listed URL: attempts (retried after timeouts, transport errors, 5xx and
//! 429, with backoff or Retry-After), redirect hops (each checked for safety and robots
//! again, at most `--max-redirects`, each hop's response stored), conditional requests
//! for URLs of the last crawl (a 304 becomes a revisit), and the manifest record of how it
//! ended. The robots.txt exchanges of the origin go to the WARC with the first URL that
//! meets them.

use std::time::Duration;

use chrono::{DateTime, SecondsFormat, Utc};
use tokio::time::Instant;
use url::Url;

use super::body::Cut;
use super::ctx::Ctx;
use super::host::take_robots_exchanges;
use super::manifest::CrawlRecord;
use super::politeness::{polite_request, robots_for};
use super::redirect::{is_redirect, location};
use super::request::{check_target, header_str, Exchange, Fetched};
use super::retry::{backoff, retry_after, retryable_status};

/// A finished URL, sent to the writer.
pub(super) struct Done {
    pub(super) record: CrawlRecord,
    pub(super) exchanges: Vec<Exchange>,
}

/// Fetch one listed URL: redirects hop by hop, retries, robots and safety on every hop.
pub(super) async fn fetch_one(ctx: &Ctx, url: Url) -> Done {
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
            exchanges.extend(take_robots_exchanges(&host));
            if let Err((message, retryable)) = verdict {
                // robots.txt unreachable because of TLS: the page would fail the same way.
                let (outcome, kind) = if !retryable {
                    ("robots", "robots_disallowed")
                } else if message.starts_with("robots.txt: tls:") {
                    ("error", "tls")
                } else {
                    ("robots", "robots_unreachable")
                };
                rec.fail(outcome, kind, format!("{current}: {message}"), retryable);
                break 'attempts;
            }
            let prior = ctx.previous.get(current.as_str());
            let result = polite_request(
                ctx,
                &host,
                &current,
                true,
                cfg.max_body,
                cfg.max_decoded,
                prior.map(|p| &p.validators),
            )
            .await;
            let f = match result {
                Ok(f) => f,
                Err(f) => {
                    if f.kind == "blocked_address" {
                        rec.fail("refused", f.kind, f.message, true);
                        break 'attempts;
                    }
                    if f.kind == "tls" {
                        // A later run (with --ca-cert) may succeed.
                        rec.fail("error", f.kind, format!("{current}: {}", f.message), true);
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
            let mut f = f;
            let status = f.status;
            record_response(&mut rec, &f);
            rec.final_url = (current != url).then(|| current.to_string());
            rec.redirects = redirects;
            // Not modified since the last crawl: stored as a revisit of its response.
            let revisit = prior.filter(|_| status == 304);
            if let Some(p) = revisit {
                f.exchange.revisit = Some(p.refers.clone());
                rec.revisit_of = Some(p.refers.date.clone());
                rec.etag = rec.etag.or_else(|| p.validators.etag.clone());
                rec.last_modified = rec
                    .last_modified
                    .or_else(|| p.validators.last_modified.as_deref().map(iso_date));
            }
            exchanges.push(f.exchange);
            if revisit.is_some() {
                rec.outcome = "not_modified".into();
                break 'attempts;
            }

            if is_redirect(status) {
                let Some(mut next) = location(&f.headers, &current) else {
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
            if retryable_status(status) {
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

/// What the record says about a response: status, time, content type, Last-Modified (as
/// ISO-8601 when it parses), ETag, bytes stored and why they are incomplete.
fn record_response(rec: &mut CrawlRecord, f: &Fetched) {
    rec.status = Some(f.status);
    rec.fetched_at = Some(f.exchange.date);
    rec.content_type = header_str(&f.headers, reqwest::header::CONTENT_TYPE);
    rec.last_modified =
        header_str(&f.headers, reqwest::header::LAST_MODIFIED).map(|v| iso_date(&v));
    rec.etag = header_str(&f.headers, reqwest::header::ETAG);
    rec.bytes = Some(f.exchange.body.len() as u64);
    rec.truncated = match (f.skipped_body, f.cut) {
        (true, _) => Some("not_html".into()),
        (false, Some(Cut::Body)) => Some("length".into()),
        (false, Some(Cut::Decoded)) => Some("decoded".into()),
        (false, None) => None,
    };
}

/// An HTTP date as ISO-8601 when it parses, else as sent.
fn iso_date(v: &str) -> String {
    DateTime::parse_from_rfc2822(v)
        .map(|d| {
            d.with_timezone(&Utc)
                .to_rfc3339_opts(SecondsFormat::Secs, true)
        })
        .unwrap_or_else(|_| v.to_string())
}
