//! Politeness per origin (`scheme://host:port`): at most `per_host` requests in flight,
//! request starts at least `delay` apart (raised to the origin's Crawl-delay, pushed back
//! by Retry-After), then a global slot (`concurrency`), so that slow or throttled hosts
//! never hold global slots while waiting; and robots.txt, fetched once per origin under
//! the same rules (each hop's exchange kept for the WARC), checked for every URL and
//! redirect hop, its Crawl-delay honoured up to `--max-crawl-delay`.

use std::sync::atomic::Ordering;
use std::sync::Arc;

use url::Url;

use super::ctx::Ctx;
use super::host::{origin_key, Host};
use super::previous::Validators;
use super::redirect::{is_redirect, location};
use super::request::{check_target, request, Failure, Fetched};
use super::retry::{backoff, retry_after, retryable_status};
use super::robots::{self, Robots};

/// Redirects followed for robots.txt: RFC 9309 (2.3.1.2) asks crawlers to follow at
/// least five; five, the least the RFC allows, bounds the work per origin.
const MAX_ROBOTS_REDIRECTS: usize = 5;

/// One request to `url` under `host`'s politeness: the origin's in-flight slot, its turn,
/// then a global slot, all held until the response is read.
pub(super) async fn polite_request(
    ctx: &Ctx,
    host: &Host,
    url: &Url,
    html_only: bool,
    max_body: usize,
    max_decoded: usize,
    cond: Option<&Validators>,
) -> std::result::Result<Fetched, Failure> {
    let _slot = host.in_flight.acquire().await.expect("open semaphore");
    host.wait_turn().await;
    let _global = ctx.global.acquire().await.expect("open semaphore");
    ctx.requests.fetch_add(1, Ordering::Relaxed);
    request(
        &ctx.client,
        &ctx.cfg,
        url,
        html_only,
        max_body,
        max_decoded,
        cond,
    )
    .await
}

/// robots.txt of `url`'s origin, fetched (redirects followed, [`MAX_ROBOTS_REDIRECTS`] at
/// most) with the same politeness, safety checks and retries as pages; every response is
/// kept in `host.robots_exchanges` for the WARC.
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
        let result = polite_request(
            ctx,
            host,
            &target,
            false,
            robots::MAX_ROBOTS_BYTES,
            robots::MAX_ROBOTS_BYTES,
            None,
        )
        .await;
        let f = match result {
            Ok(f) => f,
            Err(f) if f.kind == "blocked_address" => return Robots::AllowAll,
            Err(f) if f.transient && attempt < ctx.cfg.retries => {
                attempt += 1;
                tokio::time::sleep(backoff(&ctx.cfg, attempt, &target)).await;
                continue;
            }
            Err(f) => return Robots::Unreachable(format!("robots.txt: {}: {}", f.kind, f.message)),
        };
        let Fetched {
            status,
            headers,
            exchange,
            ..
        } = f;
        let verdict = if is_redirect(status) {
            hops += 1;
            match location(&headers, &target) {
                Some(n) if hops <= MAX_ROBOTS_REDIRECTS => {
                    target = n;
                    None
                }
                _ => Some(Robots::AllowAll),
            }
        } else if retryable_status(status) && attempt < ctx.cfg.retries {
            attempt += 1;
            let wait = retry_after(&headers)
                .filter(|d| *d <= ctx.cfg.max_retry_after)
                .unwrap_or_else(|| backoff(&ctx.cfg, attempt, &target));
            host.robots_exchanges.lock().expect("lock").push(exchange);
            tokio::time::sleep(wait).await;
            continue;
        } else {
            Some(Robots::from_response(status, &exchange.body, &ctx.agent))
        };
        host.robots_exchanges.lock().expect("lock").push(exchange);
        if let Some(v) = verdict {
            return v;
        }
    }
}

/// The origin of `url` and whether its robots.txt (fetched on first use) allows it:
/// `Err((why, retryable))` when not.
pub(super) async fn robots_for(
    ctx: &Ctx,
    url: &Url,
) -> (Arc<Host>, std::result::Result<(), (String, bool)>) {
    let host = ctx.host(url);
    let rules = host
        .robots
        .get_or_init(|| async {
            let r = fetch_robots(ctx, &host, url).await;
            if let Some(d) = r.crawl_delay() {
                let cap = ctx.cfg.max_crawl_delay;
                if d > cap {
                    eprintln!(
                        "warning: {}: robots.txt Crawl-delay {}s is longer than --max-crawl-delay {}s: requests are {}s apart",
                        origin_key(url),
                        d.as_secs_f64(),
                        cap.as_secs_f64(),
                        cap.max(ctx.cfg.delay).as_secs_f64()
                    );
                }
                host.raise_delay(d.min(cap));
            }
            r
        })
        .await;
    let verdict = rules.check(url);
    (host, verdict)
}
