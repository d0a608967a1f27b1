//! The cross-page step of the cascade: which method (`--cross-page`), cleaning a page
//! with a template mask (shared by Infholder and style-inbreeding), and `both`, the
//! union of the two methods' masks.

use serde::{Deserialize, Serialize};

use super::dom::PageDom;
use super::heuristic::{self, HeuristicConfig};
use super::inbreeding::Inbreeding;
use super::infholder::Infholder;
use super::{Answer, Extracted, Extractor, PageContext, ParsedPage};

/// Which cross-page method runs between the site rules and the local heuristic.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CrossPage {
    /// None (`--no-infholder`): no learning pass.
    None,
    /// Infholder: majority pairwise LCS of block vectors.
    Infholder,
    /// Style-inbreeding: (path, text) blocks and link-column paths the group shares.
    /// The default: daniel-dev with its manifest 0.9094 word F1 (Infholder 0.9029, both
    /// 0.9094, session 7), sites-dev 0.9975 token F1.
    #[default]
    Inbreeding,
    /// Both, their template masks united.
    Both,
}

impl CrossPage {
    pub fn uses_infholder(self) -> bool {
        matches!(self, CrossPage::Infholder | CrossPage::Both)
    }

    pub fn uses_inbreeding(self) -> bool {
        matches!(self, CrossPage::Inbreeding | CrossPage::Both)
    }
}

impl std::str::FromStr for CrossPage {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "infholder" => Ok(CrossPage::Infholder),
            "inbreeding" => Ok(CrossPage::Inbreeding),
            "both" => Ok(CrossPage::Both),
            "none" => Ok(CrossPage::None),
            _ => Err(format!(
                "cross-page method must be infholder, inbreeding, both or none, not `{s}`"
            )),
        }
    }
}

/// Run the local heuristic with `mask`'s blocks marked as template. `None` when nothing
/// is left: never return nothing because the text repeats across the group; the local
/// method then decides alone. Sets `template_ratio`.
pub fn clean_with_mask(
    dom: &PageDom,
    config: &HeuristicConfig,
    mask: &[bool],
) -> Option<Extracted> {
    let mut found = heuristic::extract_with_template(dom, config, Some(mask));
    if found.text.is_empty() {
        return None;
    }
    let visible = dom.visible_words().max(1);
    let template_words: u64 = dom
        .blocks
        .iter()
        .zip(mask)
        .filter(|(_, &t)| t)
        .map(|(b, _)| b.words as u64)
        .sum();
    found.template_ratio =
        Some((template_words as f64 / visible as f64 * 10_000.0).round() / 10_000.0);
    Some(found)
}

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
        let found = clean_with_mask(&page.dom, &self.heuristic, &mask);
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
