//! The cross-page learning pass cut into steps that can run apart, for a program that
//! spreads a site's pages over many workers (the Spark job): which pages the pass parses
//! ([`learning_sample`], from the URLs alone), what a parsed page gives the learners
//! ([`Contribution`]), the learners fed with the contributions and the other pages' URLs
//! ([`SiteLearner`]), what they learned ([`SiteState`], as bytes), and the cascade built
//! from it ([`cascade_from_state`]). `learn.rs`'s pass runs the same steps in one
//! process, so both learn the same models from the same pages.

use std::collections::HashSet;

use serde::{Deserialize, Serialize};

use crate::config::Config;
use crate::error::{Error, Result};
use crate::extract::cross_page::inbreeding::{self, Inbreeding, ModelStore};
use crate::extract::cross_page::infholder::{self, Infholder, TemplateStore};
use crate::extract::cross_page::union::Union;
use crate::extract::cross_page::CrossPage;
use crate::extract::{prefix_sample, Cascade, Extractor};
use crate::page::{Page, PageError};

use super::extract::decode_and_parse_within;

/// The fewest pages from which the cross-page methods of `config` learn anything: a
/// prefix with fewer pages gets no Infholder template (`infholder.min_group_pages`) and
/// no style-inbreeding model (`inbreeding.min_group_pages`, or two with `small_groups`).
pub fn fewest_learning_pages(config: &Config) -> usize {
    let method = config.cross_page_method();
    let ib = &config.inbreeding;
    let inbreeding = if ib.small_groups {
        ib.min_group_pages.min(2)
    } else {
        ib.min_group_pages
    };
    [
        (method.uses_infholder(), config.infholder.min_group_pages),
        (method.uses_inbreeding(), inbreeding),
    ]
    .iter()
    .filter(|(used, _)| *used)
    .map(|(_, n)| (*n).max(1))
    .min()
    .unwrap_or(usize::MAX)
}

/// Pages per prefix the pass samples: one pass serves both methods, so the larger of
/// their samples (samples are the pages of smallest URL hash, so it holds the smaller).
pub fn sample_pages(config: &Config) -> usize {
    let method = config.cross_page_method();
    [
        (method.uses_infholder(), config.infholder.sample_pages),
        (method.uses_inbreeding(), config.inbreeding.sample_pages),
    ]
    .iter()
    .filter(|(used, _)| *used)
    .map(|(_, k)| *k)
    .max()
    .unwrap_or(0)
}

/// The URLs (of `urls`: every loaded page of the site, duplicates included) whose pages
/// the learning pass parses; the other pages are only counted. Empty without a
/// cross-page method.
pub fn learning_sample<'a>(
    urls: impl Iterator<Item = &'a str>,
    config: &Config,
) -> HashSet<&'a str> {
    if config.cross_page_method() == CrossPage::None {
        return HashSet::new();
    }
    prefix_sample::sample_urls(urls, sample_pages(config), fewest_learning_pages(config))
}

/// What a sampled page gives the learners: its block vector (Infholder) and its profile
/// (style-inbreeding), for the methods in use.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Contribution {
    pub vector: Option<Vec<u32>>,
    pub profile: Option<inbreeding::Profile>,
}

impl Contribution {
    /// The page parsed and measured for the methods of `config` (an error for a page that
    /// cannot be decoded or parsed: the pass leaves it out, neither added nor counted).
    pub fn of(page: &Page, config: &Config) -> std::result::Result<Contribution, PageError> {
        let method = config.cross_page_method();
        let (parsed, _) = decode_and_parse_within(page, config.max_page_bytes)?;
        let vector = method
            .uses_infholder()
            .then(|| infholder::block_vector(&parsed.dom));
        let profile = method.uses_inbreeding().then(|| {
            let ib = &config.inbreeding;
            if ib.structure_share <= 1.0 {
                inbreeding::Profile::with_local(&parsed.dom, ib, &config.heuristic)
            } else {
                inbreeding::Profile::of(&parsed.dom, ib)
            }
        });
        Ok(Contribution { vector, profile })
    }

    pub fn to_bytes(&self) -> Vec<u8> {
        serde_json::to_vec(self).expect("a contribution serializes")
    }

    pub fn from_bytes(bytes: &[u8]) -> Result<Contribution> {
        serde_json::from_slice(bytes)
            .map_err(|e| Error::Config(format!("a learning contribution that does not read: {e}")))
    }
}

/// The learners of the methods in use: sampled pages are added with their
/// contribution, the others counted towards their groups (order does not matter: each
/// prefix keeps the pages of smallest URL hash).
pub struct SiteLearner {
    infholder: Option<infholder::Learner>,
    inbreeding: Option<inbreeding::Learner>,
    parsed: usize,
}

impl SiteLearner {
    pub fn new(config: &Config) -> SiteLearner {
        let method = config.cross_page_method();
        SiteLearner {
            infholder: method
                .uses_infholder()
                .then(|| infholder::Learner::new(&config.infholder)),
            inbreeding: method
                .uses_inbreeding()
                .then(|| inbreeding::Learner::new(&config.inbreeding)),
            parsed: 0,
        }
    }

    /// Count a page no sample needs towards its groups.
    pub fn count(&mut self, url: &str) {
        if let Some(l) = self.infholder.as_mut() {
            l.count(url);
        }
        if let Some(b) = self.inbreeding.as_mut() {
            b.count(url);
        }
    }

    /// Add a sampled page.
    pub fn add(&mut self, url: &str, contribution: Contribution) {
        self.parsed += 1;
        if let (Some(l), Some(v)) = (self.infholder.as_mut(), contribution.vector) {
            l.add(url, v);
        }
        if let (Some(b), Some(p)) = (self.inbreeding.as_mut(), contribution.profile) {
            b.add(url, p);
        }
    }

    /// Sampled pages added.
    pub fn pages_parsed(&self) -> usize {
        self.parsed
    }

    /// The templates and models of every group with enough pages.
    pub fn learn(self, config: &Config) -> SiteState {
        SiteState {
            templates: self.infholder.map(|l| l.learn(&config.infholder)),
            models: self.inbreeding.map(|b| b.learn(&config.inbreeding)),
        }
    }
}

/// What the learning pass learned, per method in use: Infholder's templates and
/// style-inbreeding's models, by URL prefix.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct SiteState {
    pub templates: Option<TemplateStore>,
    pub models: Option<ModelStore>,
}

impl SiteState {
    /// As bytes (JSON), to move between processes.
    pub fn to_bytes(&self) -> Vec<u8> {
        serde_json::to_vec(self).expect("learned models serialize")
    }

    pub fn from_bytes(bytes: &[u8]) -> Result<SiteState> {
        serde_json::from_slice(bytes)
            .map_err(|e| Error::Config(format!("a learned site state that does not read: {e}")))
    }
}

/// The cascade of `config` with what was learned: `front` extractors (site rules), the
/// cross-page method from `state`, the local heuristic. A state learned for another
/// cross-page method is refused.
pub fn cascade_from_state(
    state: SiteState,
    config: &Config,
    front: Vec<Box<dyn Extractor>>,
) -> Result<Cascade> {
    let method = config.cross_page_method();
    if method.uses_infholder() != state.templates.is_some()
        || method.uses_inbreeding() != state.models.is_some()
    {
        return Err(Error::Config(format!(
            "a learned site state of another cross-page method than `{}`",
            serde_json::to_string(&method).expect("a method serializes")
        )));
    }
    let mut steps = front;
    let infholder = state
        .templates
        .map(|store| Infholder::new(store, config.infholder.clone(), config.heuristic.clone()));
    let inbreeding = state
        .models
        .map(|models| Inbreeding::new(models, config.inbreeding.clone(), config.heuristic.clone()));
    let step: Option<Box<dyn Extractor>> = match (infholder, inbreeding) {
        (Some(a), Some(b)) => Some(Box::new(Union::new(a, b, config.heuristic.clone()))),
        (Some(a), None) => Some(Box::new(a)),
        (None, Some(b)) => Some(Box::new(b)),
        (None, None) => None,
    };
    steps.extend(step);
    steps.push(Box::new(crate::extract::heuristic::Heuristic::new(
        config.heuristic.clone(),
    )));
    Ok(Cascade::new(steps))
}
