//! `--render`, `--render-timeout-ms`, `--render-fallback` (of `extract` and `run`):
//! rendering pages in headless Chromium before extraction (`render_browser/`).

use clap::Args;

use crate::config::Config;
use crate::error::{Error, Result};
use crate::render_browser::{self, Fallback, Network};

/// How pages are rendered before extraction.
#[derive(Debug, Args)]
pub struct RenderArgs {
    /// Render pages in headless Chromium (Debian's package `chromium`): by default those
    /// whose answer is little text, answered from the rendering when it has much more
    /// (`render.answer`); pages read from files, WARC or Parquet load nothing from the
    /// network.
    #[arg(long)]
    render: bool,
    /// With --render: time budget of one page in milliseconds, past which the document is
    /// read as it stands.
    #[arg(long, value_name = "MS", value_parser = clap::value_parser!(u64).range(1..))]
    render_timeout_ms: Option<u64>,
    /// With --render: what a page gets when the browser fails on it (missing, crashed,
    /// hung): `static` (extracted as recorded) or `error` (an error record).
    // The values are named in the text: listed with their own help, clap would lay out
    // every option of the command on two lines.
    #[arg(long, value_name = "WHAT", hide_possible_values = true)]
    render_fallback: Option<Fallback>,
}

impl RenderArgs {
    /// Apply the flags; `fetched` pages may load from their own origin. With rendering
    /// on, a browser that cannot be started stops the run at once (exit 2).
    pub fn apply(&self, config: &mut Config, fetched: bool) -> Result<()> {
        let r = &mut config.render;
        if self.render {
            r.enabled = true;
        }
        if let Some(ms) = self.render_timeout_ms {
            r.timeout_ms = ms;
        }
        if let Some(f) = self.render_fallback {
            r.fallback = f;
        }
        if fetched {
            r.network = Network::SameOrigin;
        }
        if r.enabled {
            render_browser::check_browser(r).map_err(Error::Config)?;
        }
        Ok(())
    }
}
