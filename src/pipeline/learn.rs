//! Learning the cross-page methods before extraction (one pass over the inputs: block
//! vectors (Infholder) and path/text profiles (style-inbreeding) of sampled pages, saved
//! templates checked against this run's pages) and building the extraction cascade:
//! front extractors (site rules), the cross-page method, the local heuristic.

use std::collections::{HashMap, HashSet};
use std::path::Path;
use std::time::Instant;

use serde::Serialize;

use crate::config::Config;
use crate::error::{Error, Result};
use crate::extract::cross_page::infholder::{Infholder, TemplateStore};
use crate::extract::cross_page::CrossPage;
use crate::extract::Cascade;
use crate::page::{Page, PageError};
use crate::source::{self, PageJob};

use super::output::round3;
use super::site_learning::{
    cascade_from_state, learning_sample, Contribution, SiteLearner, SiteState,
};
use super::stream::{stream_jobs, stream_pages};

/// A saved template is relearned when more than one in this many of this run's pages it
/// was tried on do not fit it (a majority: "most of this run's pages no longer fit").
/// Set in 56550da (Infholder's saved templates); hand-set, not swept.
const RELEARN_MISFIT_ONE_IN: usize = 2;

/// What the cross-page learning pass did (for `summary.json`, under `infholder`).
#[derive(Debug, Default, Clone, Serialize)]
pub struct LearnReport {
    pub pages_parsed: usize,
    pub templates_learned: usize,
    pub templates_loaded: usize,
    /// Saved templates replaced because most of this run's pages no longer matched them.
    pub templates_relearned: usize,
    pub seconds: f64,
}

/// Build the extraction cascade for a run: `front` extractors (e.g. site rules) first,
/// then the cross-page method (`config.cross_page_method()`: Infholder with templates
/// learned from `inputs` and loaded from / saved to `templates_dir`, style-inbreeding
/// with models learned in the same pass, or both united), then the local heuristic.
pub fn build_cascade(
    inputs: &source::Inputs,
    config: &Config,
    front: Vec<Box<dyn crate::extract::Extractor>>,
    templates_dir: Option<&Path>,
) -> Result<(Cascade, Option<LearnReport>)> {
    cascade_from(LearnSource::Inputs(inputs), config, front, templates_dir)
}

/// [`build_cascade`] for pages held in memory (a group of pages handed over by a
/// program): the same learning pass over the same samples, so each page's record is the
/// one `thresher extract` writes when these pages are its input. Pages of groups too
/// small to learn from are not parsed for learning: a single page given alone costs one
/// parse, and gets the same cascade (with empty templates and models) as `thresher
/// extract` of that page alone.
pub fn build_cascade_for_pages(
    pages: &[Page],
    config: &Config,
    front: Vec<Box<dyn crate::extract::Extractor>>,
    templates_dir: Option<&Path>,
) -> Result<(Cascade, Option<LearnReport>)> {
    cascade_from(LearnSource::Pages(pages), config, front, templates_dir)
}

/// Where the learning pass reads its pages.
enum LearnSource<'a> {
    Inputs(&'a source::Inputs),
    Pages(&'a [Page]),
}

/// What the learning pass streams: the inputs (files no sample needs left out) or pages
/// in memory.
enum Pass {
    Inputs(source::Inputs),
    Jobs(Vec<PageJob>),
}

fn owned(urls: HashSet<&str>) -> HashSet<String> {
    urls.into_iter().map(str::to_owned).collect()
}

/// The URLs of the WARC records and Parquet rows of `inputs`, read without parsing a
/// page (a record that cannot be read is left out here and reported by the extraction
/// pass).
fn record_urls(inputs: &source::Inputs, config: &Config) -> Vec<String> {
    let loaded_url = |job: PageJob| match job {
        PageJob::Loaded(page) => Some(page.url),
        PageJob::File(_) | PageJob::Failed(_) => None,
    };
    let mut urls = Vec::new();
    for w in &inputs.warcs {
        if let Ok(pages) =
            source::warc::WarcPages::open_as(&w.file, &w.shown, config.max_page_bytes)
        {
            urls.extend(pages.filter_map(loaded_url));
        }
    }
    for p in &inputs.parquets {
        if let Ok(rows) =
            source::parquet_pages::ParquetPages::open_as(&p.file, &p.shown, config.max_page_bytes)
        {
            urls.extend(rows.filter_map(loaded_url));
        }
    }
    urls
}

fn cascade_from(
    source: LearnSource<'_>,
    config: &Config,
    front: Vec<Box<dyn crate::extract::Extractor>>,
    templates_dir: Option<&Path>,
) -> Result<(Cascade, Option<LearnReport>)> {
    let method = config.cross_page_method();
    let (state, report) = if method != CrossPage::None {
        let (state, r) = learn_pass(source, config, method, templates_dir)?;
        (state, Some(r))
    } else {
        (SiteState::default(), None)
    };
    Ok((cascade_from_state(state, config, front)?, report))
}

/// What the learning pass keeps of a page: its block vector (Infholder), its profile
/// (style-inbreeding), and whether the saved template of its group fits it; or only its
/// URL, counted towards its groups, when no sample needs it.
enum Learnt {
    Parsed {
        url: String,
        contribution: Contribution,
        saved_fit: Option<(String, bool)>,
    },
    Counted(String),
}

/// The learning pass, one read of the sampled pages for both methods. Infholder:
/// templates loaded from `templates_dir`, checked against this run's pages, completed
/// with the groups learned from them, saved back. Style-inbreeding: a model per group
/// from the same groups and samples. Returns what was learned and what the pass did.
fn learn_pass(
    source: LearnSource<'_>,
    config: &Config,
    method: CrossPage,
    templates_dir: Option<&Path>,
) -> Result<(SiteState, LearnReport)> {
    let start = Instant::now();
    let use_infholder = method.uses_infholder();
    if templates_dir.is_some() && !use_infholder {
        return Err(Error::Config(
            "--templates keeps Infholder templates: use it with --cross-page infholder or both"
                .into(),
        ));
    }
    let saved = match templates_dir {
        Some(dir) if use_infholder => TemplateStore::load(dir)?,
        _ => TemplateStore::default(),
    };
    let probe = Infholder::new(
        saved.clone(),
        config.infholder.clone(),
        config.heuristic.clone(),
    );
    let mut learner = SiteLearner::new(config);
    // Per saved template: pages of this run it was tried on, and how many it did not fit.
    let mut fit: HashMap<String, (usize, usize)> = Default::default();
    // What the pass parses: the sampled pages; the others are only counted. Without saved
    // templates to check, the sample is known before parsing: the URLs of files and pages
    // in memory are at hand, those of WARC records and Parquet rows are read first (no
    // parsing). With saved templates every page is parsed (each is checked against its
    // group's template).
    let sample: Option<HashSet<String>> = match &source {
        _ if !saved.templates.is_empty() => None,
        LearnSource::Inputs(inputs) => {
            let records = record_urls(inputs, config);
            let urls = inputs.files.iter().map(|f| f.url.as_str());
            let urls = urls.chain(records.iter().map(String::as_str));
            Some(owned(learning_sample(urls, config)))
        }
        LearnSource::Pages(pages) => {
            let urls = pages.iter().map(|p| p.url.as_str());
            Some(owned(learning_sample(urls, config)))
        }
    };
    let sampled = |url: &str| sample.as_ref().is_none_or(|s| s.contains(url));
    let pass = match source {
        LearnSource::Inputs(inputs) => {
            let (files, counted): (Vec<_>, Vec<_>) =
                inputs.files.iter().cloned().partition(|f| sampled(&f.url));
            for f in &counted {
                learner.count(&f.url);
            }
            Pass::Inputs(source::Inputs {
                files,
                warcs: inputs.warcs.clone(),
                parquets: inputs.parquets.clone(),
                errors: Vec::new(),
            })
        }
        LearnSource::Pages(pages) => {
            Pass::Jobs(pages.iter().cloned().map(PageJob::Loaded).collect())
        }
    };
    let work = |page: Page| -> Result<Learnt, PageError> {
        if !sampled(&page.url) {
            return Ok(Learnt::Counted(page.url));
        }
        let contribution = Contribution::of(&page, config)?;
        let saved_fit = match &contribution.vector {
            Some(vector) => saved.candidates(&page.url).next().map(|t| {
                let ok = probe.template_mask(vector, &page.url).is_ok();
                (t.group.clone(), ok)
            }),
            None => None,
        };
        Ok(Learnt::Parsed {
            url: page.url,
            contribution,
            saved_fit,
        })
    };
    let sink = |result: Result<Learnt, PageError>| -> Result<()> {
        match result {
            Ok(Learnt::Counted(url)) => learner.count(&url),
            Ok(Learnt::Parsed {
                url,
                contribution,
                saved_fit,
            }) => {
                learner.add(&url, contribution);
                if let Some((group, ok)) = saved_fit {
                    let e = fit.entry(group).or_default();
                    e.0 += 1;
                    e.1 += usize::from(!ok);
                }
            }
            Err(_) => {}
        }
        Ok(())
    };
    match pass {
        Pass::Inputs(inputs) => {
            stream_pages(&inputs, config, work, || {}, sink)?;
        }
        Pass::Jobs(jobs) => stream_jobs(jobs, config, work, || {}, sink)?,
    }
    let mut r = LearnReport {
        pages_parsed: learner.pages_parsed(),
        templates_loaded: saved.templates.len(),
        ..LearnReport::default()
    };
    let mut state = learner.learn(config);
    if let Some(learned) = state.templates.take() {
        let store = merge_learned(&saved, learned, &fit, &mut r);
        if let Some(dir) = templates_dir {
            store.save(dir)?;
        }
        state.templates = Some(store);
    }
    r.seconds = round3(start.elapsed().as_secs_f64());
    Ok((state, r))
}

/// The saved templates, plus the groups learned in this run that had none, with a saved
/// template replaced by this run's when most pages it was tried on did not fit it
/// (`fit`: per saved template, pages tried and pages that did not fit).
fn merge_learned(
    saved: &TemplateStore,
    learned: TemplateStore,
    fit: &HashMap<String, (usize, usize)>,
    r: &mut LearnReport,
) -> TemplateStore {
    let mut store = saved.clone();
    for (group, template) in learned.templates {
        match saved.templates.get(&group) {
            None => {
                r.templates_learned += 1;
                store.templates.insert(group, template);
            }
            Some(_) => {
                let (tried, misfit) = fit.get(&group).copied().unwrap_or_default();
                if tried > 0 && misfit * RELEARN_MISFIT_ONE_IN > tried {
                    tracing::info!(
                        "template {group} no longer fits {misfit} of {tried} pages: relearned"
                    );
                    r.templates_relearned += 1;
                    store.templates.insert(group, template);
                }
            }
        }
    }
    store
}
