//! `thresher eval extract`: extraction records scored against a gold standard, with
//! exactly the figures of the benchmarks' Python scorers (`../shared/eval/
//! score_extraction.py`): [`tokens`] cuts words as Python's `re` does, [`measures`] holds
//! the three measures, [`gold`] reads the five gold formats, [`preds`] the records, and
//! [`report`] writes the result as text or JSON.

use std::collections::BTreeMap;

pub mod gold;
pub mod measures;
pub mod preds;
pub mod report;
pub mod tokens;

use gold::{Gold, Truth};
use measures::{page_prf, summarize, PageStat, Summary};
use preds::Predictions;

/// How pages are grouped beside the overall figures.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum GroupBy {
    /// The gold's page type (WCXB: article, forum…; daniel-dev: the language).
    Type,
    /// The gold's language (daniel-dev's `lang`).
    Language,
    /// No groups.
    None,
}

/// One page's figures.
#[derive(Debug, Clone, serde::Serialize)]
pub struct PageRow {
    pub id: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub group: Option<String>,
    pub precision: f64,
    pub recall: f64,
    pub f1: f64,
    /// No record for this page: scored as an empty text.
    pub missing: bool,
}

/// The figures of one prediction file against one gold.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Evaluation {
    pub gold: String,
    pub predictions: String,
    pub measure: &'static str,
    #[serde(flatten)]
    pub overall: Summary,
    /// Per page type or language (empty with `--by none`).
    pub groups: BTreeMap<String, Summary>,
    /// Gold pages without a record, scored as empty, and the first few of them.
    pub missing: usize,
    pub missing_pages: Vec<String>,
    /// Records that no gold page took, and the first few of them.
    pub extra: usize,
    pub extra_records: Vec<String>,
    /// The pages of lowest F1 (`--worst N`), lowest first.
    pub worst: Vec<PageRow>,
}

/// How many missing pages and extra records are named.
const EXAMPLES: usize = 10;

/// Scores `preds` against `gold`.
pub fn evaluate(gold: &Gold, preds: &Predictions, by: GroupBy, worst: usize) -> Evaluation {
    let mut used = vec![false; preds.records.len()];
    let mut stats = Vec::with_capacity(gold.pages.len());
    let mut rows = Vec::with_capacity(gold.pages.len());
    let mut missing_pages = Vec::new();
    for page in &gold.pages {
        let found = preds.find(&page.keys, page.url.as_deref());
        if let Some(i) = found {
            used[i] = true;
        } else {
            missing_pages.push(page.id.clone());
        }
        let text = found.map(|i| preds.records[i].0.as_str());
        let stat = match &page.truth {
            Truth::Words {
                text: gold_text,
                chinese,
                snippets,
            } => {
                let pred = text.unwrap_or("");
                let (p, r, f1) = measures::word_prf(pred, gold_text, *chinese);
                let rates = snippets.as_ref().map(|(w, wo)| {
                    (
                        measures::snippet_rate(w, pred),
                        measures::snippet_rate(wo, pred),
                    )
                });
                PageStat::Words {
                    p,
                    r,
                    f1,
                    with_rate: rates.map(|r| r.0),
                    without_rate: rates.map(|r| r.1),
                }
            }
            Truth::Shingles(gold_text) => measures::shingle_stat(text.unwrap_or(""), gold_text),
            Truth::Snippets { with, without } => measures::snippet_stat(text, with, without),
        };
        let group = match by {
            GroupBy::Type => Some(page.page_type.clone().unwrap_or_else(|| "unknown".into())),
            GroupBy::Language => Some(page.language.clone().unwrap_or_else(|| "unknown".into())),
            GroupBy::None => None,
        };
        let (precision, recall, f1) = page_prf(&stat);
        rows.push(PageRow {
            id: page.id.clone(),
            group,
            precision,
            recall,
            f1,
            missing: found.is_none(),
        });
        stats.push(stat);
    }
    let mut by_group: BTreeMap<String, Vec<&PageStat>> = BTreeMap::new();
    for (row, stat) in rows.iter().zip(&stats) {
        if let Some(g) = &row.group {
            by_group.entry(g.clone()).or_default().push(stat);
        }
    }
    // One group that only says the gold has no types is the overall figure again.
    if by_group.len() == 1 && by_group.contains_key("unknown") {
        by_group.clear();
    }
    let extra_records: Vec<String> = used
        .iter()
        .zip(&preds.records)
        .filter(|(u, _)| !**u)
        .map(|(_, r)| r.1.clone())
        .collect();
    rows.sort_by(|a, b| a.f1.total_cmp(&b.f1).then_with(|| a.id.cmp(&b.id)));
    rows.truncate(worst);
    Evaluation {
        gold: format!("{}:{}", gold.kind.name(), gold.path.display()),
        predictions: preds.path.display().to_string(),
        measure: gold.kind.measure(),
        overall: summarize(&stats.iter().collect::<Vec<_>>()),
        groups: by_group
            .into_iter()
            .map(|(g, s)| (g, summarize(&s)))
            .collect(),
        missing: missing_pages.len(),
        missing_pages: missing_pages.into_iter().take(EXAMPLES).collect(),
        extra: extra_records.len(),
        extra_records: extra_records.into_iter().take(EXAMPLES).collect(),
        worst: rows,
    }
}
