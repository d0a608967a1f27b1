//! robots.txt rules for one origin, following RFC 9309: a 2xx file is parsed (texting_robots);
//! 4xx means no rules (everything allowed); 5xx, 429, network errors and too many redirects
//! mean "unreachable", a complete disallow for this run (and the URLs stay retryable).

use std::time::Duration;

/// The rules that apply to one origin.
pub enum Robots {
    /// No robots.txt (4xx) or an unparsable one: everything allowed.
    AllowAll,
    /// robots.txt could not be fetched (server error, network error): nothing allowed.
    Unreachable(String),
    /// Parsed rules for our user-agent token.
    Rules(Box<texting_robots::Robot>),
}

/// robots.txt bodies larger than this are cut (RFC 9309 asks crawlers to read ≥ 500 KiB).
pub const MAX_ROBOTS_BYTES: usize = 512 << 10;

impl Robots {
    /// Rules from a fetched robots.txt.
    pub fn from_response(status: u16, body: &[u8], agent: &str) -> Robots {
        match status {
            200..=299 => match texting_robots::Robot::new(agent, body) {
                Ok(r) => Robots::Rules(Box::new(r)),
                Err(_) => Robots::AllowAll,
            },
            429 => Robots::Unreachable("robots.txt answered 429".into()),
            400..=499 => Robots::AllowAll,
            _ => Robots::Unreachable(format!("robots.txt answered {status}")),
        }
    }

    /// `Err(reason)` when the URL may not be fetched. `retryable` in the reason's pair says
    /// whether a later run may succeed (robots.txt unreachable) or not (disallowed).
    pub fn check(&self, url: &url::Url) -> Result<(), (String, bool)> {
        match self {
            Robots::AllowAll => Ok(()),
            Robots::Unreachable(why) => Err((format!("{why}: the whole host is off limits"), true)),
            Robots::Rules(r) => {
                if r.allowed(url.as_str()) {
                    Ok(())
                } else {
                    Err(("disallowed by robots.txt".into(), false))
                }
            }
        }
    }

    /// Crawl-delay for our user-agent, if the file sets one.
    pub fn crawl_delay(&self) -> Option<Duration> {
        match self {
            Robots::Rules(r) => r
                .delay
                .filter(|d| d.is_finite() && *d > 0.0)
                .map(|d| Duration::from_secs_f64(f64::from(d).min(86_400.0))),
            _ => None,
        }
    }
}

/// The product token robots.txt groups are matched against: `thresher/0.1 (…)` → `thresher`.
pub fn agent_token(user_agent: &str) -> &str {
    let token = user_agent
        .split(|c: char| c == '/' || c.is_whitespace())
        .next()
        .unwrap_or("");
    if token.is_empty() {
        "thresher"
    } else {
        token
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn url(s: &str) -> url::Url {
        s.parse().unwrap()
    }

    #[test]
    fn rules_for_our_agent_and_crawl_delay() {
        let txt = b"User-agent: thresher\nDisallow: /private\nCrawl-delay: 2\n\nUser-agent: *\nDisallow: /\n";
        let r = Robots::from_response(200, txt, "thresher");
        assert!(r.check(&url("http://a.example/public")).is_ok());
        assert_eq!(
            r.check(&url("http://a.example/private/x")).unwrap_err().1,
            false
        );
        assert_eq!(r.crawl_delay(), Some(Duration::from_secs(2)));
        let other = Robots::from_response(200, txt, "otherbot");
        assert!(other.check(&url("http://a.example/public")).is_err());
    }

    #[test]
    fn status_codes_follow_rfc_9309() {
        assert!(Robots::from_response(404, b"", "thresher")
            .check(&url("http://a.example/x"))
            .is_ok());
        let e = Robots::from_response(503, b"", "thresher")
            .check(&url("http://a.example/x"))
            .unwrap_err();
        assert!(e.1, "unreachable robots.txt leaves the URL retryable");
    }

    #[test]
    fn agent_token_is_the_product_name() {
        assert_eq!(agent_token("thresher/0.1.0 (+robots)"), "thresher");
        assert_eq!(agent_token("MyBot"), "MyBot");
        assert_eq!(agent_token(""), "thresher");
    }
}
