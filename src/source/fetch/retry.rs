//! When to try again: exponential backoff with a deterministic jitter per URL, and the
//! server's `Retry-After`. (Which failures are retried, and how often, is decided in
//! `one_url.rs` and `politeness.rs` with `--retries`.)

use std::time::Duration;

use chrono::{DateTime, Utc};
use url::Url;

use super::options::FetchConfig;
use super::request::header_str;

// The bounds below are hand-set, not swept.

/// The backoff doubles at most this many times (keeps the power finite for any attempt
/// count; with the default `--retry-delay` of 1 s, [`MAX_BACKOFF_SECS`] caps it sooner).
const MAX_DOUBLINGS: u32 = 16;
/// Jitter resolution: the URL's hash modulo this, scaled to 0–50 % of the backoff.
const JITTER_STEPS: u64 = 1000;
/// No single backoff is longer than this (seconds).
const MAX_BACKOFF_SECS: f64 = 300.0;

/// Statuses retried like transport failures: server errors and 429 Too Many Requests.
pub(super) fn retryable_status(status: u16) -> bool {
    status >= 500 || status == 429
}

/// How long to wait before retry number `attempt` (1 for the first retry) of `url`.
pub(super) fn backoff(cfg: &FetchConfig, attempt: u32, url: &Url) -> Duration {
    let base = cfg.retry_delay.as_secs_f64()
        * 2f64.powi(attempt.saturating_sub(1).min(MAX_DOUBLINGS) as i32);
    // Deterministic jitter (0–50 %) so that many URLs failing together spread out.
    let h = xxhash_rust::xxh3::xxh3_64(format!("{url}#{attempt}").as_bytes());
    let jitter = (h % JITTER_STEPS) as f64 / (2 * JITTER_STEPS) as f64;
    Duration::from_secs_f64((base * (1.0 + jitter)).min(MAX_BACKOFF_SECS))
}

/// Retry-After: seconds or an HTTP date.
pub(super) fn retry_after(h: &reqwest::header::HeaderMap) -> Option<Duration> {
    let v = header_str(h, reqwest::header::RETRY_AFTER)?;
    if let Ok(secs) = v.parse::<u64>() {
        return Some(Duration::from_secs(secs));
    }
    let at = DateTime::parse_from_rfc2822(&v).ok()?;
    let wait = at.with_timezone(&Utc) - Utc::now();
    Some(wait.to_std().unwrap_or(Duration::ZERO))
}

#[cfg(test)]
mod tests {
    use super::*;

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
