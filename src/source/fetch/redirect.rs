//! Redirects, followed by hand (the HTTP client follows none) so that every hop passes the
//! same safety and robots checks: which statuses redirect and where they lead. The hop
//! loops are in `one_url.rs` (pages, `--max-redirects`) and `politeness.rs` (robots.txt).

use reqwest::header::HeaderMap;
use url::Url;

use super::request::header_str;

/// A status that sends the client elsewhere (`Location`).
pub(super) fn is_redirect(status: u16) -> bool {
    matches!(status, 301 | 302 | 303 | 307 | 308)
}

/// Where a redirect leads: its `Location`, resolved against the URL that answered.
pub(super) fn location(headers: &HeaderMap, base: &Url) -> Option<Url> {
    header_str(headers, reqwest::header::LOCATION).and_then(|l| base.join(&l).ok())
}
