//! Learning the cross-page methods before extraction (one pass over the inputs: block
//! vectors (Infholder) and path/text profiles (style-inbreeding) of sampled pages, saved
//! templates checked against this run's pages) and building the extraction cascade:
//! front extractors (site rules), the cross-page method, the local heuristic.

use std::collections::HashMap;
use std::path::Path;
use std::time::Instant;

use serde::Serialize;

use crate::config::Config;
use crate::error::{Error, Result};
use crate::extract::cross_page::inbreeding::{self, Inbreeding, ModelStore};
use crate::extract::cross_page::infholder::{self, Infholder, Learner, TemplateStore};
use crate::extract::cross_page::union::Union;
use crate::extract::cross_page::CrossPage;
use crate::extract::{prefix_sample, Cascade};
use crate::source;

use super::extract::decode_and_parse_within;
use super::output::round3;
use super::stream::stream_pages;

/// A saved template is relearned when more than one in this many of this run's pages it
/// was tried on do not fit it (a majority: "most of this run's pages no longer fit").
/// Hand-set, not swept.
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
    let mut steps = front;
    let mut report = None;
    let method = config.cross_page_method();
    if method != CrossPage::None {
        let (learned, r) = learn_pass(inputs, config, method, templates_dir)?;
        report = Some(r);
        let infholder = learned
            .templates
            .map(|store| Infholder::new(store, config.infholder.clone(), config.heuristic.clone()));
        let inbreeding = learned.models.map(|models| {
            Inbreeding::new(models, config.inbreeding.clone(), config.heuristic.clone())
        });
        let step: Box<dyn crate::extract::Extractor> = match (infholder, inbreeding) {
            (Some(a), Some(b)) => Box::new(Union::new(a, b, config.heuristic.clone())),
            (Some(a), None) => Box::new(a),
            (None, Some(b)) => Box::new(b),
            (None, None) => unreachable!("a cross-page method learns something"),
        };
        steps.push(step);
    }
    steps.push(Box::new(crate::extract::heuristic::Heuristic::new(
        config.heuristic.clone(),
    )));
    Ok((Cascade::new(steps), report))
}

/// What the learning pass produced for each cross-page method in use.
struct Learned {
    templates: Option<TemplateStore>,
    models: Option<ModelStore>,
}

/// The learning pass, one read of the sampled pages for both methods. Infholder:
/// templates loaded from `templates_dir`, checked against this run's pages, completed
/// with the groups learned from them, saved back. Style-inbreeding: a model per group
/// from the same groups and samples. Returns what was learned and what the pass did.
fn learn_pass(
    inputs: &source::Inputs,
    config: &Config,
    method: CrossPage,
    templates_dir: Option<&Path>,
) -> Result<(Learned, LearnReport)> {
    let start = Instant::now();
    let use_infholder = method.uses_infholder();
    let use_inbreeding = method.uses_inbreeding();
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
    let mut learner = use_infholder.then(|| Learner::new(&config.infholder));
    let mut breeder = use_inbreeding.then(|| inbreeding::Learner::new(&config.inbreeding));
    // Per saved template: pages of this run it was tried on, and how many it did not fit.
    let mut fit: HashMap<String, (usize, usize)> = Default::default();
    let mut pages_seen = 0;
    // Without saved templates to check, only the pages some sample needs are parsed
    // (URLs of files are known before reading); WARC records are all read. Samples are
    // the pages of smallest URL hash, so the larger sample holds the smaller one.
    let sample_pages = [
        (use_infholder, config.infholder.sample_pages),
        (use_inbreeding, config.inbreeding.sample_pages),
    ]
    .iter()
    .filter(|(used, _)| *used)
    .map(|(_, k)| *k)
    .max()
    .unwrap_or(0);
    let learn_inputs;
    let pass_inputs = if saved.templates.is_empty() {
        let sample =
            prefix_sample::sample_urls(inputs.files.iter().map(|f| f.url.as_str()), sample_pages);
        let (sampled, counted): (Vec<_>, Vec<_>) = inputs
            .files
            .iter()
            .cloned()
            .partition(|f| sample.contains(f.url.as_str()));
        for f in &counted {
            if let Some(l) = learner.as_mut() {
                l.count(&f.url);
            }
            if let Some(b) = breeder.as_mut() {
                b.count(&f.url);
            }
        }
        learn_inputs = source::Inputs {
            files: sampled,
            warcs: inputs.warcs.clone(),
            parquets: inputs.parquets.clone(),
            errors: Vec::new(),
        };
        &learn_inputs
    } else {
        inputs
    };
    stream_pages(
        pass_inputs,
        config,
        |page| {
            let (parsed, _) = decode_and_parse_within(&page, config.max_page_bytes)?;
            let vector = use_infholder.then(|| infholder::block_vector(&parsed.dom));
            let profile = use_inbreeding.then(|| {
                let ib = &config.inbreeding;
                if ib.structure_share <= 1.0 {
                    inbreeding::Profile::with_local(&parsed.dom, ib, &config.heuristic)
                } else {
                    inbreeding::Profile::of(&parsed.dom, ib)
                }
            });
            let saved_fit = match &vector {
                Some(vector) => saved.candidates(&page.url).next().map(|t| {
                    let ok = probe.template_mask(vector, &page.url).is_ok();
                    (t.group.clone(), ok)
                }),
                None => None,
            };
            Ok((page.url, vector, profile, saved_fit))
        },
        || {},
        |result| {
            if let Ok((url, vector, profile, saved_fit)) = result {
                pages_seen += 1;
                if let (Some(l), Some(v)) = (learner.as_mut(), vector) {
                    l.add(&url, v);
                }
                if let (Some(b), Some(p)) = (breeder.as_mut(), profile) {
                    b.add(&url, p);
                }
                if let Some((group, ok)) = saved_fit {
                    let e = fit.entry(group).or_default();
                    e.0 += 1;
                    e.1 += usize::from(!ok);
                }
            }
            Ok(())
        },
    )?;
    let mut r = LearnReport {
        pages_parsed: pages_seen,
        templates_loaded: saved.templates.len(),
        ..LearnReport::default()
    };
    let templates = match learner {
        Some(learner) => {
            let learned = learner.learn(&config.infholder);
            let store = merge_learned(&saved, learned, &fit, &mut r);
            if let Some(dir) = templates_dir {
                store.save(dir)?;
            }
            Some(store)
        }
        None => None,
    };
    let models = breeder.map(|b| b.learn(&config.inbreeding));
    r.seconds = round3(start.elapsed().as_secs_f64());
    Ok((Learned { templates, models }, r))
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
