//! `--cross-page both`: Infholder's and style-inbreeding's template masks united.

use super::clean_with_mask;
use super::inbreeding::Inbreeding;
use super::infholder::Infholder;
use crate::extract::heuristic::HeuristicConfig;
use crate::extract::{Answer, Extracted, Extractor, PageContext, ParsedPage};

/// `--cross-page both`: a block is template when either method says so. The `method` of
/// a page names the methods whose masks were used (`infholder+inbreeding+heuristic`
/// when both); each method keeps its own counters.
pub struct Union {
    infholder: Infholder,
    inbreeding: Inbreeding,
    heuristic: HeuristicConfig,
}

impl Union {
    pub fn new(infholder: Infholder, inbreeding: Inbreeding, heuristic: HeuristicConfig) -> Self {
        Union {
            infholder,
            inbreeding,
            heuristic,
        }
    }
}

impl Extractor for Union {
    fn name(&self) -> &str {
        "cross-page"
    }

    fn extract(&self, page: &ParsedPage, ctx: &PageContext<'_>) -> Option<Extracted> {
        self.answer(page, ctx).map(|a| a.extracted)
    }

    fn answer(&self, page: &ParsedPage, ctx: &PageContext<'_>) -> Option<Answer> {
        let a = self.infholder.page_mask(&page.dom, ctx.url);
        let b = self.inbreeding.page_mask(&page.dom, ctx.url);
        let (mask, method) = match (a, b) {
            (None, None) => return None,
            (Some(a), None) => (a, self.infholder.name()),
            (None, Some(b)) => (b, Inbreeding::METHOD),
            (Some(a), Some(b)) => (
                a.iter().zip(&b).map(|(x, y)| *x || *y).collect(),
                "infholder+inbreeding+heuristic",
            ),
        };
        let found = clean_with_mask(&page.dom, &self.heuristic, &mask, None);
        if method != Inbreeding::METHOD {
            self.infholder.note_cleaned(found.is_some());
        }
        if method != self.infholder.name() {
            self.inbreeding.note_cleaned(found.is_some());
        }
        found.map(|extracted| Answer {
            extracted,
            method: method.to_string(),
            ..Answer::default()
        })
    }

    fn reports(&self) -> Vec<(String, serde_json::Value)> {
        let mut out = self.infholder.reports();
        out.extend(self.inbreeding.reports());
        out
    }
}
