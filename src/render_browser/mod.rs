//! Rendering pages in headless Chromium before extraction (`--render`): one browser per
//! process, a pool of tabs (at most one per worker thread, since each worker renders one
//! page at a time), a time budget per page, JavaScript on, and no request leaving the
//! machine unless `network: same_origin` allows the page's own origin.
//!
//! - `cdp.rs`: the browser process and the DevTools protocol over its pipe.
//! - `tab.rs`: one tab; a page's requests answered or refused; the load, the budget.
//! - `stamp.js`: the script that stamps each element with its box and serializes the
//!   document (read back by `extract/dom/boxes.rs`).
//! - `settings.rs`: [`RenderConfig`] and the fixed knobs.
//!
//! A browser that is missing, crashes or hangs costs the page it was rendering: the next
//! page starts a new browser. What the page then gets is the caller's choice
//! ([`Fallback`]).

mod cdp;
mod settings;
mod tab;

use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

pub use settings::{
    Answer, Fallback, Network, RenderConfig, LITTLE_TEXT_WORDS, RENDERED_GAIN, RENDERED_MIN_MORE,
    VIEWPORT_HEIGHT, VIEWPORT_WIDTH,
};
pub use tab::{Recorded, RecordedLookup, Rendered};

use cdp::{Browser, CdpError};
use tab::{PageRequest, Tab};

/// `answer: auto`: whether a recorded page whose answer has `static_words` words is
/// rendered at all.
pub fn worth_rendering(static_words: usize) -> bool {
    static_words < LITTLE_TEXT_WORDS
}

/// `answer: auto`: whether the rendered answer (`rendered_words`) replaces the recorded
/// one (`static_words`).
pub fn rendered_wins(static_words: usize, rendered_words: usize) -> bool {
    rendered_words >= RENDERED_GAIN * static_words + RENDERED_MIN_MORE
}

/// The address a page without an `http(s)` URL is rendered at (a reserved name: nothing
/// can be fetched from it, and its requests are refused like all others).
pub const PLACEHOLDER_URL: &str = "http://thresher.invalid/";

/// Check that the configured browser can be started; the error names the package.
pub fn check_browser(config: &RenderConfig) -> Result<(), String> {
    let path = &config.browser;
    let ok = std::fs::metadata(path).is_ok_and(|m| m.is_file() && is_executable(&m));
    if ok {
        Ok(())
    } else {
        Err(format!(
            "--render needs headless Chromium, and {} is not an executable file: install \
             Debian's package `chromium` (apt-get install chromium), or give the browser's \
             path in the configuration key `render.browser`",
            path.display()
        ))
    }
}

#[cfg(unix)]
fn is_executable(m: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::PermissionsExt;
    m.permissions().mode() & 0o111 != 0
}

#[cfg(not(unix))]
fn is_executable(_: &std::fs::Metadata) -> bool {
    true
}

/// The browser and its idle tabs.
pub struct Pool {
    config: RenderConfig,
    browser: Mutex<Option<Arc<Browser>>>,
    idle: Mutex<Vec<Tab>>,
}

impl Pool {
    pub fn new(config: RenderConfig) -> Pool {
        Pool {
            config,
            browser: Mutex::new(None),
            idle: Mutex::new(Vec::new()),
        }
    }

    /// The process-wide pool, made on first use with `config` (later calls share it, so
    /// one process renders with one configuration).
    pub fn shared(config: &RenderConfig) -> &'static Pool {
        static POOL: OnceLock<Pool> = OnceLock::new();
        POOL.get_or_init(|| Pool::new(config.clone()))
    }

    /// Render the page at `url` whose recorded text is `html`; its requests for addresses
    /// `recorded` knows are answered with those responses.
    pub fn render(
        &self,
        url: &str,
        html: &str,
        recorded: Option<&RecordedLookup<'_>>,
    ) -> Result<Rendered, String> {
        let url = page_address(url);
        let browser = self
            .browser()
            .map_err(|e| format!("starting the browser: {e}"))?;
        let tab = self
            .tab(&browser)
            .map_err(|e| format!("opening a tab: {e}"))?;
        let budget = Duration::from_millis(self.config.timeout_ms);
        let request = PageRequest {
            url: &url,
            html,
            recorded,
        };
        match tab.render(&request, self.config.network, budget) {
            Ok(r) if r.loaded => {
                lock(&self.idle).push(tab);
                Ok(r)
            }
            Ok(r) => {
                // The budget ran out: its scripts may still run, the tab is not reused.
                self.discard(tab);
                Ok(r)
            }
            Err(e) => {
                self.discard(tab);
                Err(format!("rendering: {e}"))
            }
        }
    }

    /// The running browser, started (again) when there is none or it exited.
    fn browser(&self) -> std::io::Result<Arc<Browser>> {
        let mut current = lock(&self.browser);
        if let Some(b) = current.as_ref().filter(|b| b.is_alive()) {
            return Ok(Arc::clone(b));
        }
        // Tabs of a browser that exited are useless.
        lock(&self.idle).clear();
        let offline = self.config.network == Network::None;
        let b = Arc::new(Browser::start(&self.config.browser, offline)?);
        *current = Some(Arc::clone(&b));
        Ok(b)
    }

    /// An idle tab of `browser`, or a new one.
    fn tab(&self, browser: &Arc<Browser>) -> Result<Tab, CdpError> {
        let reused = {
            let mut idle = lock(&self.idle);
            idle.retain(|t| Arc::ptr_eq(&t.browser, browser));
            idle.pop()
        };
        match reused {
            Some(t) => Ok(t),
            None => Tab::open(Arc::clone(browser)).inspect_err(|e| {
                if matches!(e, CdpError::Timeout) {
                    browser.kill();
                }
            }),
        }
    }

    /// Close a tab that is not reused; a browser that cannot close it is hung and killed
    /// (the next page starts a new one).
    fn discard(&self, tab: Tab) {
        let browser = Arc::clone(&tab.browser);
        if tab.close().is_err() {
            browser.kill();
        }
    }
}

/// Write a rendered document into `dir` under a name made from the page's `path`
/// (characters outside `[A-Za-z0-9._-]` as `_`, so that pages of one name in different
/// folders or WARC records stay apart; `.html` added when missing).
pub fn keep(dir: &std::path::Path, path: &str, html: &str) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    std::fs::write(dir.join(kept_name(path)), html)
}

/// The file name [`keep`] gives the rendered document of the page at `path`.
pub fn kept_name(path: &str) -> String {
    let mut name: String = path
        .trim_start_matches(['/', '.'])
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_') {
                c
            } else {
                '_'
            }
        })
        .collect();
    if !name.ends_with(".html") && !name.ends_with(".htm") {
        name.push_str(".html");
    }
    name
}

/// The address a page is rendered at: its URL when `http(s)` (as the browser writes it,
/// without fragment), else [`PLACEHOLDER_URL`].
fn page_address(url: &str) -> String {
    match url::Url::parse(url) {
        Ok(mut u) if matches!(u.scheme(), "http" | "https") => {
            u.set_fragment(None);
            u.to_string()
        }
        _ => PLACEHOLDER_URL.to_string(),
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn auto_answer() {
        assert!(worth_rendering(0) && worth_rendering(49) && !worth_rendering(50));
        assert!(rendered_wins(0, 20) && !rendered_wins(0, 19));
        assert!(rendered_wins(10, 40) && !rendered_wins(10, 39));
    }

    #[test]
    fn addresses() {
        assert_eq!(
            page_address("https://Example.com/a#x"),
            "https://example.com/a"
        );
        assert_eq!(page_address("example/a.html"), PLACEHOLDER_URL);
        assert_eq!(page_address("file:///tmp/a.html"), PLACEHOLDER_URL);
    }

    #[test]
    fn kept_names_are_unique_per_path() {
        assert_eq!(kept_name("a/b.html"), "a_b.html");
        assert_eq!(kept_name("/x/crawl.warc.gz#12"), "x_crawl.warc.gz_12.html");
        assert_ne!(kept_name("s1/index.html"), kept_name("s2/index.html"));
    }

    #[test]
    fn missing_browser_names_the_package() {
        let config = RenderConfig {
            browser: "/nonexistent/chromium".into(),
            ..RenderConfig::default()
        };
        let err = check_browser(&config).unwrap_err();
        assert!(
            err.contains("`chromium`") && err.contains("/nonexistent/chromium"),
            "{err}"
        );
    }
}
