//! One page's view in the report: every text block of the page, kept or removed, and for
//! each removed block the reason — the rule and its XPath, the heuristic's signal with its
//! value, the cross-page template — read off the page's trace (`extract::trace`).

use crate::extract::dom::{collapse, PageDom};
use crate::extract::trace::{PageTrace, Reason, RuleTrace};
use crate::extract::Answer;

/// One block of the page as the report shows it.
#[derive(Debug, Clone)]
pub struct BlockView {
    pub text: String,
    /// Tag of the block's innermost block element.
    pub tag: String,
    pub kept: bool,
    /// The block's value in the heuristic's chosen pass.
    pub value: Option<f64>,
    pub reason: Option<Reason>,
}

/// What the report shows of one page besides its cluster.
#[derive(Debug, Clone, Default)]
pub struct PageView {
    pub url: String,
    pub path: String,
    pub title: String,
    pub method: String,
    pub kept_words: u64,
    pub empty_reason: Option<String>,
    pub template_ratio: Option<f64>,
    /// The heuristic's container and which marks its chosen pass used.
    pub container: Option<String>,
    pub pass: Option<&'static str>,
    /// Why earlier methods of the cascade did not answer; other remarks.
    pub notes: Vec<String>,
    pub blocks: Vec<BlockView>,
}

impl PageView {
    /// The view of a page extracted with tracing on: `answer` is what the cascade
    /// answered, `trace` what the extractors recorded.
    pub fn traced(dom: &PageDom, answer: &Answer, trace: &PageTrace) -> PageView {
        let method = answer.method.as_str();
        let blocks = match (&trace.rule, trace.chosen_pass()) {
            (Some(rule), _) if method.starts_with("rules:") => {
                by_rule(dom, &answer.extracted.text, rule)
            }
            (_, Some(pass)) if !pass.blocks.is_empty() && method.contains("heuristic") => dom
                .blocks
                .iter()
                .zip(&pass.blocks)
                .enumerate()
                .map(|(i, (b, (value, reason)))| BlockView {
                    text: b.text.clone(),
                    tag: dom.elements[b.elem as usize].tag.to_string(),
                    kept: reason.is_none(),
                    value: Some(*value),
                    reason: reason.as_ref().map(|r| template_named(r, trace, i)),
                })
                .collect(),
            _ => all_removed(dom, answer),
        };
        let chosen = trace.chosen_pass().filter(|_| method.contains("heuristic"));
        PageView {
            method: answer.method.clone(),
            kept_words: answer.extracted.kept_words,
            empty_reason: answer.extracted.empty_reason.clone(),
            template_ratio: answer.extracted.template_ratio,
            container: chosen.and_then(|p| p.container.clone()),
            pass: chosen.map(|p| p.marks),
            notes: trace.notes.clone(),
            blocks,
            ..PageView::default()
        }
    }
}

/// A template reason names the methods whose masks hold the block.
fn template_named(r: &Reason, trace: &PageTrace, i: usize) -> Reason {
    if r.kind != "template" {
        return r.clone();
    }
    let names = trace.template_of(i);
    Reason {
        kind: "template",
        label: if names.is_empty() {
            r.label.clone()
        } else {
            format!("{}: a block the URL group's pages share", names.join(" + "))
        },
    }
}

/// Blocks of a page a rule answered: a block is kept when its text is in the rule's
/// output; a removed block is attributed to the first `remove` XPath whose nodes hold its
/// text, else it was outside every `content` XPath. (Rules write from the HTML tree, not
/// from these blocks, so the match is by text.)
pub fn by_rule(dom: &PageDom, text: &str, rule: &RuleTrace) -> Vec<BlockView> {
    let out = collapse(text);
    dom.blocks
        .iter()
        .map(|b| {
            let t = collapse(&b.text);
            let kept = !t.is_empty() && out.contains(&t);
            let reason = (!kept).then(|| {
                match rule
                    .remove
                    .iter()
                    .find(|(_, texts)| texts.iter().any(|x| x.contains(&t)))
                {
                    Some((xp, _)) => Reason {
                        kind: "rule",
                        label: format!("rule {}: remove `{xp}`", rule.rule),
                    },
                    None => Reason {
                        kind: "rule",
                        label: format!(
                            "rule {}: outside content {}",
                            rule.rule,
                            rule.content
                                .iter()
                                .map(|c| format!("`{c}`"))
                                .collect::<Vec<_>>()
                                .join(", ")
                        ),
                    },
                }
            });
            BlockView {
                text: b.text.clone(),
                tag: dom.elements[b.elem as usize].tag.to_string(),
                kept,
                value: None,
                reason,
            }
        })
        .collect()
}

/// Every block removed, for the empty reason the answer gives.
fn all_removed(dom: &PageDom, answer: &Answer) -> Vec<BlockView> {
    let label = answer
        .extracted
        .empty_reason
        .clone()
        .unwrap_or_else(|| format!("not part of {}'s answer", answer.method));
    let out = collapse(&answer.extracted.text);
    dom.blocks
        .iter()
        .map(|b| {
            let kept = !out.is_empty() && out.contains(&collapse(&b.text));
            BlockView {
                text: b.text.clone(),
                tag: dom.elements[b.elem as usize].tag.to_string(),
                kept,
                value: None,
                reason: (!kept).then(|| Reason {
                    kind: "empty",
                    label: label.clone(),
                }),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extract::heuristic::HeuristicConfig;
    use crate::extract::{dom, trace, Cascade, PageContext};

    /// Every fixture page: the view's kept blocks are exactly the heuristic's text, and
    /// every removed block has a reason.
    #[test]
    fn kept_blocks_are_the_answer_and_removed_ones_say_why() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
        let cascade = Cascade::local(HeuristicConfig::default());
        let mut pages = 0;
        let mut kinds = std::collections::BTreeSet::new();
        for dir in [
            "layouts",
            "sites/technews.example/news",
            "sites/gazeta.example/stati",
        ] {
            for entry in std::fs::read_dir(root.join(dir)).unwrap() {
                let path = entry.unwrap().path();
                if path.extension().is_none_or(|e| e != "html") {
                    continue;
                }
                let bytes = std::fs::read(&path).unwrap();
                let html = crate::charset::decode_html(&bytes, None, None).text;
                let parsed = dom::parse_page(&html);
                let ctx = PageContext {
                    url: "http://example.com/a/b.html",
                    group: "example.com/a/",
                };
                let (answer, tr) = trace::capture(|| cascade.answer(&parsed, &ctx));
                let (plain, _) = cascade.extract(&parsed, &ctx);
                assert_eq!(
                    plain,
                    answer.extracted,
                    "{}: tracing changes nothing",
                    path.display()
                );
                let view = PageView::traced(&parsed.dom, &answer, &tr);
                let kept: Vec<&str> = view
                    .blocks
                    .iter()
                    .filter(|b| b.kept)
                    .map(|b| b.text.as_str())
                    .collect();
                assert_eq!(kept.join("\n"), answer.extracted.text, "{}", path.display());
                for b in view.blocks.iter().filter(|b| !b.kept) {
                    let r = b.reason.as_ref().unwrap();
                    assert!(!r.label.is_empty());
                    kinds.insert(r.kind);
                }
                assert_eq!(view.blocks.len(), parsed.dom.blocks.len());
                pages += 1;
            }
        }
        assert!(pages >= 10, "{pages} pages");
        // The fixtures exercise several of the heuristic's reasons.
        for k in ["container", "links"] {
            assert!(kinds.contains(k), "{kinds:?}");
        }
    }
}
