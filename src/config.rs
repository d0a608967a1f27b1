//! All tunables in one place, with documented defaults. A YAML file (`--config FILE`)
//! overlays the defaults; command-line flags overlay the file.

use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::dedup::DedupConfig;
use crate::error::{Error, Result};
use crate::extract::cross_page::inbreeding::InbreedingConfig;
use crate::extract::cross_page::infholder::InfholderConfig;
use crate::extract::cross_page::CrossPage;
use crate::extract::heuristic::HeuristicConfig;
use crate::group::GroupDepth;
use crate::render::{OutputFormat, RenderOptions};
use crate::render_browser::RenderConfig;

/// The whole configuration of a run.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    /// How much of the URL path forms the group key (`parent` = up to the last segment).
    pub group_depth: GroupDepth,
    /// Bytes of one page (after decompression) beyond which the rest is ignored: bounds
    /// memory and time on huge pages, which still yield their beginning.
    pub max_page_bytes: usize,
    /// Local heuristic extractor.
    pub heuristic: HeuristicConfig,
    /// Which cross-page method cleans pages of groups before the local heuristic
    /// (`--cross-page`): `infholder`, `inbreeding`, `both` (masks united) or `none`.
    pub cross_page: CrossPage,
    /// Cross-page template removal by LCS of block vectors. `infholder.enabled: false`
    /// (`--no-infholder`) turns every cross-page method off, whatever `cross_page` says.
    pub infholder: InfholderConfig,
    /// Cross-page template removal by shared (path, text) blocks and link columns.
    pub inbreeding: InbreedingConfig,
    /// Near-duplicate detection.
    pub dedup: DedupConfig,
    /// Write the page's title as the first line of its text (`--with-title`), unless the
    /// text already starts with it. Off by default: records carry the title in `title`.
    pub with_title: bool,
    /// Node visits a rule's XPath may cost on one page, estimated before it runs
    /// (`extract::rules::cost`): over it, the rule is not run on that page (counted in
    /// its `errors`, the page falls back). Default 10,000,000.
    pub xpath_budget: u64,
    /// What records carry beside `text` (`--output-format`): `text` (nothing more),
    /// `markdown` (a `markdown` field: CommonMark with GitHub tables) or `html` (an `html`
    /// field: clean HTML). Both come from the blocks `text` is made of (`render/`).
    pub output_format: OutputFormat,
    /// In `markdown`/`html`, write links as links with their absolute address
    /// (`--links`); their text is written either way.
    pub output_links: bool,
    /// In `markdown`/`html`, write images with their alt text and absolute address
    /// (`--images`).
    pub output_images: bool,
    /// Rendering pages in headless Chromium before extraction (`--render`,
    /// `render_browser/`): switch, time budget, fallback, browser, network.
    pub render: RenderConfig,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            group_depth: GroupDepth::Parent,
            max_page_bytes: crate::extract::dom::DEFAULT_MAX_PAGE_BYTES,
            heuristic: HeuristicConfig::default(),
            cross_page: CrossPage::default(),
            infholder: InfholderConfig::default(),
            inbreeding: InbreedingConfig::default(),
            dedup: DedupConfig::default(),
            with_title: false,
            xpath_budget: crate::extract::rules::cost::DEFAULT_XPATH_BUDGET,
            output_format: OutputFormat::Text,
            output_links: false,
            output_images: false,
            render: RenderConfig::default(),
        }
    }
}

impl Config {
    /// The cross-page method in effect: `cross_page`, unless Infholder's `enabled` switch
    /// (`--no-infholder`) turned cross-page methods off.
    pub fn cross_page_method(&self) -> CrossPage {
        if self.infholder.enabled {
            self.cross_page
        } else {
            CrossPage::None
        }
    }

    /// How records are rendered beside `text`.
    pub fn render_options(&self) -> RenderOptions {
        RenderOptions {
            format: self.output_format,
            links: self.output_links,
            images: self.output_images,
        }
    }

    /// The configuration given as a JSON object of the keys of a `--config` file (a
    /// program's options, e.g. the Python binding's keyword arguments), over the defaults.
    /// Unknown keys are errors with the same message as in a file.
    pub fn from_options(options: serde_json::Value) -> Result<Config> {
        let config: Config =
            serde_json::from_value(options).map_err(|e| Error::Config(format!("options: {e}")))?;
        config.dedup.validate()?;
        Ok(config)
    }

    /// Read a YAML configuration file over the defaults. Unknown keys are errors (a typo
    /// must not silently leave a default in place).
    pub fn load(path: &Path) -> Result<Config> {
        let text = std::fs::read_to_string(path).map_err(|e| Error::io(path, e))?;
        let config: Config = serde_norway::from_str(&text).map_err(|source| Error::ConfigFile {
            path: path.to_owned(),
            source,
        })?;
        config
            .dedup
            .validate()
            .map_err(|e| Error::Config(format!("{}: {e}", path.display())))?;
        Ok(config)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_overlays_defaults_and_rejects_typos() {
        let dir = tempfile::tempdir().unwrap();
        let good = dir.path().join("good.yaml");
        std::fs::write(&good, "dedup:\n  threshold: 0.85\n").unwrap();
        let c = Config::load(&good).unwrap();
        assert_eq!(c.dedup.threshold, 0.85);
        assert_eq!(c.dedup.num_perm, DedupConfig::default().num_perm);

        let bad = dir.path().join("bad.yaml");
        std::fs::write(&bad, "dedup:\n  treshold: 0.85\n").unwrap();
        let err = Config::load(&bad).unwrap_err().to_string();
        assert!(
            err.contains("bad.yaml") && err.contains("treshold"),
            "{err}"
        );
        assert!(err.contains("line 2"), "{err}");
    }
}
