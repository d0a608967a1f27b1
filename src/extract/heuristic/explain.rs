//! The heuristic's side of the operator report (`crate::extract::trace`): after a pass
//! has chosen its blocks, say for each block of the page why it was left out — the first
//! of `cleanup::kept_blocks`' tests it fails (template, rail, outside the container,
//! inside a marked element, link density), or trimmed as leading chrome, or dropped as
//! a repeat, an interface line or thread-post chrome, or dropped by one of the tests on
//! the written lines ([`written_drops`]: labels and credits, box titles, date stamps) —
//! with the block's value in the pass. Runs only when a trace is being recorded; it reads
//! the pass's final state and decides nothing.

use std::collections::HashSet;

use super::article_edges::EndCut;
use super::cleanup::Decisions;
use super::features::link_density;
use super::interface_lines;
use super::marks::Marks;
use super::scoring::BlockValues;
use super::Pass;
use crate::extract::dom::{Block, ElemId, PageDom, NO_ELEM};
use crate::extract::trace::{self, PassTrace, Reason};
use crate::extract::vocab;

/// A pass starts (pushed first, so that passes that end early are counted too).
pub(super) fn begin_pass(marks: Marks) {
    if !trace::enabled() {
        return;
    }
    let marks = match marks {
        Marks::All => "all",
        Marks::Structural => "structural",
        Marks::Off => "off",
    };
    trace::record(|t| {
        t.passes.push(PassTrace {
            marks,
            ..PassTrace::default()
        })
    });
}

/// Passes traced so far on this page (0 when tracing is off): where a run of the cascade
/// begins, for [`forget_passes_from`].
pub(super) fn passes_traced() -> usize {
    let mut n = 0;
    trace::record(|t| n = t.passes.len());
    n
}

/// Drop the traced passes from the `n`th on: a run of the cascade whose answer was not
/// taken (`stretched_links.rs`), so the report shows the run that answered.
pub(super) fn forget_passes_from(n: usize) {
    trace::record(|t| t.passes.truncate(n));
}

/// What the pass decided, block by block. `kept` are the blocks that passed
/// `kept_blocks` and the post-chrome filter; those before `first` were trimmed, those
/// from `end` on were after the article's end (`article_edges.rs`), which `end_cut` found.
pub(super) fn end_pass(
    pass: &Pass,
    values: &BlockValues,
    d: &Decisions,
    kept: &[(usize, &Block)],
    (first, end): (usize, usize),
    end_cut: EndCut,
) {
    if !trace::enabled() {
        return;
    }
    let Decisions {
        container,
        marked,
        in_siblings,
        in_dominant,
        in_comments,
        rails,
    } = *d;
    let page = pass.page;
    let trimmed: HashSet<usize> = kept[..first].iter().map(|&(i, _)| i).collect();
    let after_end: HashSet<usize> = kept[end..].iter().map(|&(i, _)| i).collect();
    let written: HashSet<usize> = kept[first..end].iter().map(|&(i, _)| i).collect();
    let kept_texts: HashSet<&str> = kept.iter().map(|&(_, b)| b.text.as_str()).collect();
    let written_texts: HashSet<&str> = kept[first..end]
        .iter()
        .map(|&(_, b)| b.text.as_str())
        .collect();
    let blocks = page
        .blocks
        .iter()
        .enumerate()
        .map(|(i, b)| {
            let v = values.value(i, b);
            let e = b.elem as usize;
            let why = |kind, label: String| Some(Reason { kind, label });
            let in_container = page.contains(container, b.elem);
            let m = marked[e];
            let reason = if written.contains(&i) {
                None
            } else if written_texts.contains(b.text.as_str()) && !pass.is_template(i) {
                why(
                    "repeat",
                    "the same paragraph is written earlier on the page".into(),
                )
            } else if pass.is_template(i) {
                why("template", "cross-page template".into())
            } else if rails[e] {
                why(
                    "rail",
                    "teaser rail: other stories beside the headline's article".into(),
                )
            } else if !(in_container || in_comments[e] || in_siblings[e]) {
                why(
                    "container",
                    format!(
                        "outside the content container {} (block value {v:.1})",
                        describe(page, container)
                    ),
                )
            } else if m != NO_ELEM
                && ((in_siblings[e] && !in_container)
                    || (m != container && page.contains(container, m) && !in_comments[e]))
            {
                why(
                    "mark",
                    format!("inside {}: {}", describe(page, m), mark_kind(page, m)),
                )
            } else if link_density(b) > pass.config.max_link_density && !in_dominant[e] {
                why(
                    "links",
                    format!(
                        "link density {:.2} > max_link_density {}",
                        link_density(b),
                        pass.config.max_link_density
                    ),
                )
            } else if after_end.contains(&i) {
                why(
                    "tail",
                    format!(
                        "after the article's end: {} (block value {v:.1})",
                        end_cut.describe()
                    ),
                )
            } else if trimmed.contains(&i) {
                why(
                    "trim",
                    format!("before the first content block (trim_edges; block value {v:.1})"),
                )
            } else if kept_texts.contains(b.text.as_str()) {
                // `cleanup::without_repeats` left the earlier copy, which the edges cut.
                why(
                    "repeat",
                    "the same paragraph stands earlier on the page (that copy is left out above the text)"
                        .into(),
                )
            } else if interface_lines::drops_interface_line(pass.config, b) {
                why(
                    "interface",
                    "an ad label or text-size control (drop_interface_lines)".into(),
                )
            } else {
                why(
                    "chrome",
                    "thread-post chrome: the same short line recurs in most posts".into(),
                )
            };
            (round1(v), reason)
        })
        .collect();
    let kept_words = kept[first..end].iter().map(|(_, b)| b.words as u64).sum();
    let container = describe(page, container);
    trace::record(|t| {
        if let Some(p) = t.passes.last_mut() {
            p.kept_words = kept_words;
            p.container = Some(container);
            p.blocks = blocks;
        }
    });
}

/// The lines of `before` that a test on the written lines left out of `after` get that
/// test's reason (`kind`, `label`), and their words leave the pass's count.
pub(super) fn written_drops(
    before: &[(usize, &Block)],
    after: &[(usize, &Block)],
    kind: &'static str,
    label: &str,
) {
    if !trace::enabled() || before.len() == after.len() {
        return;
    }
    let still: HashSet<usize> = after.iter().map(|&(i, _)| i).collect();
    let gone: Vec<(usize, u64)> = before
        .iter()
        .filter(|(i, _)| !still.contains(i))
        .map(|&(i, b)| (i, b.words as u64))
        .collect();
    trace::record(|t| {
        if let Some(p) = t.passes.last_mut() {
            for &(i, words) in &gone {
                if let Some(block) = p.blocks.get_mut(i) {
                    block.1 = Some(Reason {
                        kind,
                        label: label.to_string(),
                    });
                    p.kept_words = p.kept_words.saturating_sub(words);
                }
            }
        }
    });
}

fn round1(v: f64) -> f64 {
    (v * 10.0).round() / 10.0
}

/// `<div id class>` as the page has it (lower-cased).
fn describe(page: &PageDom, e: ElemId) -> String {
    let el = &page.elements[e as usize];
    let attrs = el.id_class.trim();
    if attrs.is_empty() {
        format!("<{}>", el.tag)
    } else {
        format!("<{} \"{attrs}\">", el.tag)
    }
}

/// Which of the marks an element carries (the first that applies, in `marks.rs`'s
/// order); marks set by later steps (teaser lists, customer reviews) are the rest.
fn mark_kind(page: &PageDom, e: ElemId) -> String {
    let el = &page.elements[e as usize];
    if vocab::is_boilerplate_tag(&el.tag) {
        format!("boilerplate tag <{}>", el.tag)
    } else if vocab::is_boilerplate_role(&el.role) {
        format!("boilerplate role `{}`", el.role)
    } else if vocab::is_overlay_name(&el.id_class) {
        "overlay (consent banner, modal) by class/id".into()
    } else if vocab::is_comment_name(&el.id_class) {
        "comment section by class/id".into()
    } else if vocab::is_boilerplate_name(&el.id_class) {
        "boilerplate class/id vocabulary".into()
    } else {
        "teaser list, customer reviews or interface form".into()
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{run, ARTICLE, HEADLINE};
    use crate::extract::trace;

    /// The reasons the chosen pass gives the blocks whose text starts with `start`.
    fn reasons_of(html: &str, start: &str) -> Vec<Option<&'static str>> {
        let (_, t) = trace::capture(|| run(html));
        let pass = t.chosen_pass().expect("a traced pass");
        let page = crate::extract::dom::parse(html);
        page.blocks
            .iter()
            .zip(&pass.blocks)
            .filter(|(b, _)| b.text.starts_with(start))
            .map(|(_, (_, r))| r.as_ref().map(|r| r.kind))
            .collect()
    }

    #[test]
    fn dropped_copies_and_interface_lines_say_so() {
        // A box above the headline repeats the story's first paragraph: the story's copy
        // is the repeat. (When the edges cut the earlier copy, as on a shop page whose
        // description stands in a teaser above the product's name, the later copy still
        // says `repeat`, not `chrome`.) An ad label in the text is an interface line.
        let first = format!("{ARTICLE} {ARTICLE} Teased.");
        let body = (1..=6)
            .map(|k| format!("<p>{ARTICLE} Part {k}.</p>"))
            .collect::<String>();
        let html = format!(
            "<html><head><title>{HEADLINE}</title></head><body><div class=page>\
             <div class=box><p>{first}</p></div>\
             <h1>{HEADLINE}</h1><p>{first}</p>{body}<p>Advertisement</p><p>{ARTICLE} Last.</p>\
             </div></body></html>"
        );
        assert_eq!(reasons_of(&html, &first), [None, Some("repeat")]);
        assert_eq!(reasons_of(&html, "Advertisement"), [Some("interface")]);
    }
}
