//! Boilerplate removal. Every method is an [`Extractor`]; a [`Cascade`] asks them in
//! order (per-site rules → a cross-page method (Infholder, style-inbreeding or both) →
//! local heuristic) and the first that
//! answers wins. The page records which one it was (`method`).

pub mod cross_page;
pub mod dom;
pub mod heuristic;
pub mod metadata;
pub mod prefix_sample;
pub mod rules;
pub mod title;
pub mod trace;
pub mod vocab;
pub mod xml;
pub mod xpath_fast;

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
    /// The indices of the page's blocks (`PageDom::blocks`) written as `text`, in the
    /// order written, for the structured outputs (`render/`); empty when the method
    /// writes text of its own (per-site rules), whose lines are then matched to blocks.
    pub blocks: Vec<u32>,
    /// Why the text is empty, when it is.
    pub empty_reason: Option<String>,
    /// Share of the page's visible words removed as cross-page template (Infholder,
    /// style-inbreeding).
    pub template_ratio: Option<f64>,
}

/// The cascade's answer for a page: the text, the method that produced it, and the
/// fields an extractor may know better than the generic code (per-site rules name the
/// title and date nodes).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Answer {
    pub extracted: Extracted,
    /// `heuristic`, `rules:<file>#<rule>`, …
    pub method: String,
    /// Overrides the generic title when set.
    pub title: Option<String>,
    /// Publication date as the page gives it, when the method knows where it is.
    pub date: Option<String>,
}

/// One boilerplate-removal method.
pub trait Extractor: Send + Sync {
    /// The `method` recorded for pages this extractor handled.
    fn name(&self) -> &str;
    /// `None` when the method does not apply to this page (no rule for the site, no
    /// template for the group, …), so the next method in the cascade runs.
    fn extract(&self, page: &ParsedPage, ctx: &PageContext<'_>) -> Option<Extracted>;
    /// What the cascade calls: by default [`extract`](Self::extract) under
    /// [`name`](Self::name). An extractor made of parts (rule files) overrides it to name
    /// the part (`rules:<file>#<rule>`) and to supply a title or date.
    fn answer(&self, page: &ParsedPage, ctx: &PageContext<'_>) -> Option<Answer> {
        self.extract(page, ctx).map(|extracted| Answer {
            extracted,
            method: self.name().to_string(),
            ..Answer::default()
        })
    }
    /// Called between batches of pages (in input order), so that an extractor that
    /// learns from the pages it saw does so reproducibly whatever the thread count.
    fn end_batch(&self) {}
    /// Counters for `summary.json` (under `extractors.<name>`).
    fn report(&self) -> Option<serde_json::Value> {
        None
    }
    /// What `summary.json` shows under `extractors`: by default [`report`](Self::report)
    /// under [`name`](Self::name); an extractor made of others lists theirs.
    fn reports(&self) -> Vec<(String, serde_json::Value)> {
        self.report()
            .map(|r| vec![(self.name().to_string(), r)])
            .unwrap_or_default()
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

    /// Run the cascade; returns the text and the name of the method that produced it.
    pub fn extract(&self, page: &ParsedPage, ctx: &PageContext<'_>) -> (Extracted, String) {
        let a = self.answer(page, ctx);
        (a.extracted, a.method)
    }

    /// Run the cascade; the first extractor that answers wins.
    pub fn answer(&self, page: &ParsedPage, ctx: &PageContext<'_>) -> Answer {
        for step in &self.steps {
            if let Some(found) = step.answer(page, ctx) {
                return found;
            }
        }
        Answer {
            extracted: Extracted {
                empty_reason: Some("no extractor applied".into()),
                ..Extracted::default()
            },
            method: "none".to_string(),
            ..Answer::default()
        }
    }

    /// Tell every extractor that a batch of pages is done.
    pub fn end_batch(&self) {
        for step in &self.steps {
            step.end_batch();
        }
    }

    /// Each extractor's counters, by name (for `summary.json`).
    pub fn report(&self) -> std::collections::BTreeMap<String, serde_json::Value> {
        self.steps.iter().flat_map(|s| s.reports()).collect()
    }
}
