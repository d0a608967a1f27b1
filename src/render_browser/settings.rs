//! The knobs of rendering: the user's (`render:` keys of a config file, flags of
//! `extract`/`run`) and the fixed ones, each with its unit and why its value.

use std::path::PathBuf;
use std::time::Duration;

use serde::{Deserialize, Serialize};

/// Width of the browser's viewport, CSS pixels: the most common desktop screen width
/// (1366 × 768), so pages lay out their desktop columns (sidebars beside the article).
pub const VIEWPORT_WIDTH: u32 = 1366;
/// Height of the viewport, CSS pixels: where the fold is (`heuristic/visual.rs`).
pub const VIEWPORT_HEIGHT: u32 = 768;
/// After the load event, how long timers and promises set at load may still change the
/// page before it is read, milliseconds. Frameworks render on the next tick; 100 ms is
/// hand-set, within the budget.
pub const SETTLE_MS: u64 = 100;
/// Time allowed for opening a tab, and for reading the page once its budget is spent
/// (stopping its scripts, stamping boxes). Past it the tab is taken for hung: closed, and
/// the browser killed when closing fails too.
pub const SETUP_TIMEOUT: Duration = Duration::from_secs(10);

/// Which requests of a rendered page may leave the machine.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Network {
    /// None: the page's own address is answered with its recorded bytes, all else refused
    /// (pages read from files, WARC, Parquet).
    None,
    /// Requests to the page's own origin (scheme, host, port) are fetched (`run --fetch`).
    SameOrigin,
}

/// What a page gets when its rendering fails (browser missing, crashed, hung).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "snake_case")]
pub enum Fallback {
    /// The page is extracted from its recorded HTML, as without `--render`.
    #[default]
    Static,
    /// The page gets an error record (`error_kind: render`) naming it.
    Error,
}

/// Which answer a rendered page's record carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Answer {
    /// The recorded page is extracted first; it is rendered only when its answer has
    /// fewer than [`LITTLE_TEXT_WORDS`] words, and the rendered answer replaces it when
    /// it has at least [`RENDERED_GAIN`] × as many words plus [`RENDERED_MIN_MORE`] (a
    /// page whose text a script builds). Rendering everything and using it lost on WCXB
    /// dev (docs/render.md).
    #[default]
    Auto,
    /// Every page is rendered and its rendered document extracted.
    Rendered,
}

/// `answer: auto`: a recorded page's answer shorter than this (words as the extractors
/// count them: runs of letters and digits, and a letter of Chinese or Japanese a word) is a shell worth rendering. A few sentences; WCXB dev's script-built pages
/// have 0–25. Hand-set, not swept.
pub const LITTLE_TEXT_WORDS: usize = 50;
/// `answer: auto`: the rendered answer replaces the recorded one when it has at least
/// this many times its words… Hand-set, not swept.
pub const RENDERED_GAIN: usize = 2;
/// …plus this many. Hand-set, not swept.
pub const RENDERED_MIN_MORE: usize = 20;

/// The `render:` section of the configuration.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct RenderConfig {
    /// Render every page in headless Chromium before extraction (`--render`).
    pub enabled: bool,
    /// Time budget of one page, milliseconds (`--render-timeout-ms`): past it the
    /// document is read as it stands. Default 10,000.
    pub timeout_ms: u64,
    /// When rendering fails: `static` (extract the recorded HTML) or `error` (an error
    /// record) (`--render-fallback`).
    pub fallback: Fallback,
    /// The Chromium executable. Default `/usr/bin/chromium` (Debian's package `chromium`).
    pub browser: PathBuf,
    /// `auto` (default: render only pages whose recorded answer is little text, and use
    /// the rendered answer when it has much more) or `rendered` (render every page and
    /// extract the rendered document).
    pub answer: Answer,
    /// Which requests may leave: `none` (default for recorded pages) or `same_origin`
    /// (set by `run --fetch --render`).
    pub network: Network,
    /// Also write each rendered document (boxes stamped) into this directory, named
    /// after the page's path (characters outside `[A-Za-z0-9._-]` become `_`): to look at what the browser made of a page, or to extract the rendered pages
    /// again without a browser (the stamps are read as on a rendered page).
    pub keep_dir: Option<PathBuf>,
}

impl Default for RenderConfig {
    fn default() -> Self {
        RenderConfig {
            enabled: false,
            timeout_ms: 10_000,
            fallback: Fallback::Static,
            answer: Answer::Auto,
            browser: PathBuf::from("/usr/bin/chromium"),
            network: Network::None,
            keep_dir: None,
        }
    }
}
