//! The cross-page step of the cascade: which method (`--cross-page`), and what the
//! methods share: cleaning a page with a template mask, the side run of the local
//! heuristic, and which blocks an answer kept. The methods sit beneath:
//! `infholder.rs` (majority LCS of block vectors), `inbreeding/` (style-inbreeding),
//! and `union.rs` (`both`, the two masks united).

pub mod inbreeding;
pub mod infholder;
pub mod union;

/// An `f64` (de)serialized as its bits, so a learned model read back from JSON is the
/// same number (shortest decimal text does not promise that to every parser).
pub(crate) mod f64_bits {
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(v: &f64, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u64(v.to_bits())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
        u64::deserialize(d).map(f64::from_bits)
    }
}

use serde::{Deserialize, Serialize};

use super::dom::PageDom;
use super::heuristic::{self, HeuristicConfig};
use super::trace;
use super::Extracted;

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
    /// 0.9094), sites-dev 0.9975 token F1.
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
/// method then decides alone. Sets `template_ratio`. `in_local`: the blocks the local
/// heuristic keeps, when the caller has them already (else computed if needed).
pub fn clean_with_mask(
    dom: &PageDom,
    config: &HeuristicConfig,
    mask: &[bool],
    in_local: Option<&[bool]>,
) -> Option<Extracted> {
    let mut found = heuristic::extract_with_template(dom, config, Some(mask));
    if found.text.is_empty() {
        return None;
    }
    restore_headline(dom, config, mask, in_local, &mut found);
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

/// Per block: whether the local heuristic alone keeps it. A side run of the cross-page
/// methods (their agreement and copy tests, the headline's recall, the paths a
/// style-inbreeding profile learns the text from): the trace records
/// nothing of it, so the operator report shows the pass whose answer is written.
pub fn local_kept(dom: &PageDom, config: &HeuristicConfig) -> Vec<bool> {
    let local = trace::unrecorded(|| heuristic::extract(dom, config));
    kept_blocks(dom, &local.text)
}

/// Per block of `dom`: whether it is one of the blocks an extractor wrote out as `text`.
/// The heuristic writes its kept blocks' texts in document order, one a line; walking
/// the blocks in order and taking each whose text is next in `text` recovers them (a
/// dropped block with the same text as the next kept one may be taken for it: the same
/// text either way).
pub fn kept_blocks(dom: &PageDom, text: &str) -> Vec<bool> {
    let mut rest = text;
    dom.blocks
        .iter()
        .map(|b| {
            if b.text.is_empty() {
                return false;
            }
            match rest.strip_prefix(b.text.as_str()) {
                Some(after) if after.is_empty() || after.starts_with('\n') => {
                    rest = after.strip_prefix('\n').unwrap_or(after);
                    true
                }
                _ => false,
            }
        })
        .collect()
}

/// The cross-page recall step: the page's headline (`heuristic::headline_line`, not in
/// the mask), when the local heuristic alone keeps it and the answer cleaned with the
/// mask starts below it, is written back at the top. The masks make the container
/// narrower (the template around the text no longer outweighs the lines above the
/// text), and the headline and its date lines fall outside it; the headline says the
/// page's own title, so it is no template, and the local answer shows it belongs to the
/// text. daniel-dev with its manifest: see ARCHITECTURE.md (style-inbreeding).
fn restore_headline(
    dom: &PageDom,
    config: &HeuristicConfig,
    mask: &[bool],
    in_local: Option<&[bool]>,
    found: &mut Extracted,
) {
    let Some(h) = heuristic::headline_line(dom, config, mask) else {
        return;
    };
    let in_cleaned = kept_blocks(dom, &found.text);
    if in_cleaned[..=h].iter().any(|&k| k) {
        return;
    }
    let kept_locally = match in_local {
        Some(kept) => kept[h],
        None => local_kept(dom, config)[h],
    };
    if !kept_locally {
        return;
    }
    let headline = &dom.blocks[h];
    found.text = format!("{}\n{}", headline.text, found.text);
    found.blocks.insert(0, h as u32);
    found.kept_words += headline.words as u64;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extract::dom::parse;

    const ARTICLE: &str = "This paragraph is the long body of the article and it goes on for many words to look real.";

    #[test]
    fn a_headline_the_local_answer_keeps_comes_back_after_the_mask() {
        // The site's slogan above the headline is template; cleaned with it, the text
        // starts at the first paragraph and the headline is trimmed with the chrome.
        let html = format!(
            "<html><head><title>Rural doctors get a housing allowance | News</title></head><body>\
             <div class=main><p>Our site brings the news of the whole region to you every single day.</p>\
             <h1>Rural doctors get a housing allowance</h1>{}</div></body></html>",
            format!("<p>{ARTICLE}</p>").repeat(4)
        );
        let dom = parse(&html);
        let config = HeuristicConfig::default();
        assert!(heuristic::extract(&dom, &config)
            .text
            .contains("Rural doctors"));
        let slogan = dom
            .blocks
            .iter()
            .position(|b| b.text.starts_with("Our site"))
            .unwrap();
        let mut mask = vec![false; dom.blocks.len()];
        mask[slogan] = true;
        let out = clean_with_mask(&dom, &config, &mask, None).unwrap();
        assert!(
            out.text
                .starts_with("Rural doctors get a housing allowance\n"),
            "{}",
            out.text
        );
        assert!(!out.text.contains("Our site"), "{}", out.text);
        // The operator report's trace shows the cleaned pass, not the local run the
        // headline test made on the way.
        let (_, traced) = trace::capture(|| clean_with_mask(&dom, &config, &mask, None));
        let chosen = traced.chosen_pass().unwrap();
        let why = chosen.blocks[slogan].1.as_ref().map(|r| r.kind);
        assert_eq!(why, Some("template"), "{chosen:?}");
        // A headline line the mask marks (a site-wide title line) stays out.
        let headline = dom
            .blocks
            .iter()
            .position(|b| b.text.starts_with("Rural"))
            .unwrap();
        mask[headline] = true;
        let out = clean_with_mask(&dom, &config, &mask, None).unwrap();
        assert!(!out.text.contains("Rural doctors"), "{}", out.text);
    }
}
