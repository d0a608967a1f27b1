//! Boilerplate removal. Every method is an [`Extractor`]; a [`Cascade`] asks them in
//! order (per-site rules → Infholder → local heuristic, as each lands) and the first that
//! answers wins. The page records which one it was (`method`).

pub mod dom;
pub mod heuristic;
pub mod infholder;
pub mod title;
pub mod vocab;

pub use dom::{PageDom, ParsedPage};

/// What an extractor is told about the page besides its DOM.
#[derive(Debug, Clone, Copy)]
pub struct PageContext<'a> {
    pub url: &'a str,
    pub group: &'a str,
}

/// An extractor's answer.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Extracted {
    /// Main text, blocks separated by `\n`.
    pub text: String,
    /// Words of the page kept as main text (to compute the boilerplate ratio).
    pub kept_words: u64,
    /// Why the text is empty, when it is.
    pub empty_reason: Option<String>,
    /// Share of the page's visible words removed as cross-page template (Infholder).
    pub template_ratio: Option<f64>,
}

/// One boilerplate-removal method.
pub trait Extractor: Send + Sync {
    /// The `method` recorded for pages this extractor handled.
    fn name(&self) -> &str;
    /// `None` when the method does not apply to this page (no rule for the site, no
    /// template for the group, …), so the next method in the cascade runs.
    fn extract(&self, page: &ParsedPage, ctx: &PageContext<'_>) -> Option<Extracted>;
    /// Counters for `summary.json` (under `extractors.<name>`), if the method keeps any.
    fn report(&self) -> Option<serde_json::Value> {
        None
    }
}

/// Extractors in order of precedence. The last one should always answer.
pub struct Cascade {
    steps: Vec<Box<dyn Extractor>>,
}

impl Cascade {
    pub fn new(steps: Vec<Box<dyn Extractor>>) -> Self {
        Cascade { steps }
    }

    /// The default cascade: the local heuristic alone.
    pub fn local(config: heuristic::HeuristicConfig) -> Self {
        Cascade::new(vec![Box::new(heuristic::Heuristic::new(config))])
    }

    /// Each extractor's counters, by name.
    pub fn reports(&self) -> std::collections::BTreeMap<String, serde_json::Value> {
        self.steps
            .iter()
            .filter_map(|s| s.report().map(|r| (s.name().to_string(), r)))
            .collect()
    }

    /// Run the cascade; returns the text and the name of the method that produced it.
    pub fn extract(&self, page: &ParsedPage, ctx: &PageContext<'_>) -> (Extracted, String) {
        for step in &self.steps {
            if let Some(found) = step.extract(page, ctx) {
                return (found, step.name().to_string());
            }
        }
        (
            Extracted {
                empty_reason: Some("no extractor applied".into()),
                ..Extracted::default()
            },
            "none".to_string(),
        )
    }
}
