//! The state of one origin (`scheme://host:port`): its in-flight slots, when its next
//! request may start, its robots.txt, and the URLs waiting for one of its workers.

use std::collections::VecDeque;
use std::sync::Mutex;
use std::time::Duration;

use tokio::sync::{OnceCell, Semaphore};
use tokio::time::Instant;
use url::Url;

use super::request::Exchange;
use super::robots::Robots;

/// Per-origin state.
pub(super) struct Host {
    pub(super) in_flight: Semaphore,
    turns: Mutex<Turns>,
    pub(super) robots: OnceCell<Robots>,
    /// The robots.txt exchanges (one per hop), until a URL's record takes them to the WARC.
    pub(super) robots_exchanges: Mutex<Vec<Exchange>>,
    /// URLs of this origin waiting for one of its workers, in input order.
    pub(super) queue: Mutex<VecDeque<Url>>,
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
    pub(super) fn new(per_host: usize, delay: Duration) -> Host {
        Host {
            in_flight: Semaphore::new(per_host.max(1)),
            turns: Mutex::new(Turns {
                delay,
                last_start: None,
                hold: None,
            }),
            robots: OnceCell::new(),
            robots_exchanges: Mutex::new(Vec::new()),
            queue: Mutex::new(VecDeque::new()),
        }
    }

    /// Wait until this origin may see the next request start.
    pub(super) async fn wait_turn(&self) {
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
    pub(super) fn hold_until(&self, until: Instant) {
        let mut t = self.turns.lock().expect("lock");
        t.hold = Some(t.hold.map_or(until, |h| h.max(until)));
    }

    pub(super) fn raise_delay(&self, d: Duration) {
        let mut t = self.turns.lock().expect("lock");
        t.delay = t.delay.max(d);
    }
}

/// `scheme://host:port`: what politeness counts per.
pub(super) fn origin_key(url: &Url) -> String {
    url.origin().ascii_serialization()
}

/// The robots.txt exchanges not yet handed to a URL's record (the first URL of an origin
/// to pass by after robots.txt was fetched takes them to the WARC).
pub(super) fn take_robots_exchanges(host: &Host) -> Vec<Exchange> {
    std::mem::take(&mut *host.robots_exchanges.lock().expect("lock"))
}
