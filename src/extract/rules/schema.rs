//! The YAML schema of a rule file, as serde reads it: a `site` (which hosts), its
//! `rules` (which nodes to keep and cut, and where title and date are) and its embedded
//! `tests`. Every field a position is reported for is `Spanned`; unknown fields are
//! errors. What these become once checked is in `mod.rs` (`RuleFile`, `Rule`,
//! `TestCase`); the checking is in `load.rs`. The schema is documented for rule writers
//! in `site-rules/README.md`.

use serde::Deserialize;
use serde_saphyr::Spanned;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawFile {
    pub(super) site: RawSite,
    pub(super) rules: Vec<RawRule>,
    #[serde(default)]
    pub(super) tests: Vec<RawTest>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawSite {
    #[serde(default)]
    pub(super) host: Option<Spanned<String>>,
    #[serde(default)]
    pub(super) hosts: Vec<Spanned<String>>,
    #[serde(default)]
    pub(super) subdomains: bool,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawRule {
    pub(super) name: Spanned<String>,
    #[serde(default)]
    pub(super) path_prefix: Option<String>,
    #[serde(default)]
    pub(super) path_glob: Option<String>,
    #[serde(default)]
    pub(super) when: Option<Spanned<String>>,
    pub(super) content: Vec<Spanned<String>>,
    #[serde(default)]
    pub(super) remove: Vec<Spanned<String>>,
    #[serde(default)]
    pub(super) title: Option<Spanned<String>>,
    #[serde(default)]
    pub(super) date: Option<Spanned<String>>,
    #[serde(default)]
    pub(super) min_words: Option<u64>,
    #[serde(default)]
    pub(super) min_ratio: Option<f64>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawTest {
    pub(super) page: Spanned<String>,
    pub(super) url: String,
    #[serde(default)]
    pub(super) content_type: Option<String>,
    #[serde(default)]
    pub(super) rule: Option<String>,
    #[serde(default)]
    pub(super) title: Option<String>,
    #[serde(default)]
    pub(super) must_contain: Vec<String>,
    #[serde(default)]
    pub(super) must_not_contain: Vec<String>,
}
