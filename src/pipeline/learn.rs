//! Learning Infholder templates before extraction (one pass over the inputs: block vectors
//! of sampled pages, saved templates checked against this run's pages) and building the
//! extraction cascade: front extractors (site rules), Infholder, the local heuristic.

use std::collections::HashMap;
use std::path::Path;
use std::time::Instant;

use serde::Serialize;

use crate::config::Config;
use crate::error::Result;
use crate::extract::infholder::{self, Infholder, Learner, TemplateStore};
use crate::extract::Cascade;
use crate::source;

use super::extract::decode_and_parse;
use super::output::round3;
use super::stream::stream_pages;

/// A saved template is relearned when more than one in this many of this run's pages it
/// was tried on do not fit it (a majority: "most of this run's pages no longer fit").
/// Set in 56550da (Infholder's saved templates); hand-set, not swept.
const RELEARN_MISFIT_ONE_IN: usize = 2;

/// What the Infholder learning pass did (for `summary.json`).
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
/// then Infholder with templates learned from `inputs` (and loaded from / saved to
/// `templates_dir`), then the local heuristic.
pub fn build_cascade(
    inputs: &source::Inputs,
    config: &Config,
    front: Vec<Box<dyn crate::extract::Extractor>>,
    templates_dir: Option<&Path>,
) -> Result<(Cascade, Option<LearnReport>)> {
    let mut steps = front;
    let mut report = None;
    if config.infholder.enabled {
        let (store, r) = learn_templates(inputs, config, templates_dir)?;
        report = Some(r);
        steps.push(Box::new(Infholder::new(
            store,
            config.infholder.clone(),
            config.heuristic.clone(),
        )));
    }
    steps.push(Box::new(crate::extract::heuristic::Heuristic::new(
        config.heuristic.clone(),
    )));
    Ok((Cascade::new(steps), report))
}

/// The learning pass: templates loaded from `templates_dir`, checked against this run's
/// pages, completed with the groups learned from them, saved back. Returns the templates
/// to extract with and what the pass did.
fn learn_templates(
    inputs: &source::Inputs,
    config: &Config,
    templates_dir: Option<&Path>,
) -> Result<(TemplateStore, LearnReport)> {
    let start = Instant::now();
    let saved = match templates_dir {
        Some(dir) => TemplateStore::load(dir)?,
        None => TemplateStore::default(),
    };
    let probe = Infholder::new(
        saved.clone(),
        config.infholder.clone(),
        config.heuristic.clone(),
    );
    let mut learner = Learner::new(&config.infholder);
    // Per saved template: pages of this run it was tried on, and how many it did not fit.
    let mut fit: HashMap<String, (usize, usize)> = Default::default();
    let mut pages_seen = 0;
    // Without saved templates to check, only the pages some sample needs are parsed
    // (URLs of files are known before reading); WARC records are all read.
    let learn_inputs;
    let pass_inputs = if saved.templates.is_empty() {
        let sample = infholder::sample_urls(
            inputs.files.iter().map(|f| f.url.as_str()),
            &config.infholder,
        );
        let (sampled, counted): (Vec<_>, Vec<_>) = inputs
            .files
            .iter()
            .cloned()
            .partition(|f| sample.contains(f.url.as_str()));
        for f in &counted {
            learner.count(&f.url);
        }
        learn_inputs = source::Inputs {
            files: sampled,
            warcs: inputs.warcs.clone(),
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
            let (parsed, _) = decode_and_parse(&page)?;
            let vector = infholder::block_vector(&parsed.dom);
            let saved_fit = saved.candidates(&page.url).next().map(|t| {
                let ok = probe.template_mask(&vector, &page.url).is_ok();
                (t.group.clone(), ok)
            });
            Ok((page.url, vector, saved_fit))
        },
        || {},
        |result| {
            if let Ok((url, vector, saved_fit)) = result {
                pages_seen += 1;
                learner.add(&url, vector);
                if let Some((group, ok)) = saved_fit {
                    let e = fit.entry(group).or_default();
                    e.0 += 1;
                    e.1 += usize::from(!ok);
                }
            }
            Ok(())
        },
    )?;
    let learned = learner.learn(&config.infholder);
    let mut r = LearnReport {
        pages_parsed: pages_seen,
        templates_loaded: saved.templates.len(),
        ..LearnReport::default()
    };
    let store = merge_learned(&saved, learned, &fit, &mut r);
    if let Some(dir) = templates_dir {
        store.save(dir)?;
    }
    r.seconds = round3(start.elapsed().as_secs_f64());
    Ok((store, r))
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
