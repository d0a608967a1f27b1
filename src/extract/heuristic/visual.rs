//! Where blocks stand on a rendered page (`--render`; `dom/boxes.rs`): a narrow column at
//! the side of a wide row is a rail (links, teasers, ads), whatever its source order and
//! its class names (`visual_rails`); an element the browser did not show is not content
//! (`visual_hidden`). Their elements are marked like boilerplate, on top of the marks the
//! tag, role and class vocabulary gave (`marks.rs`). Pages that were not rendered carry
//! no boxes, and nothing here runs for them. Both are off by default (they cost WCXB dev
//! on offline renderings, see `settings.rs`).

use super::settings::{
    RAIL_MAX_EVIDENCE_SHARE, RAIL_MAX_WIDTH, RAIL_MIN_OFF_CENTRE, RAIL_ROW_MIN_WIDTH,
};
use super::Pass;
use crate::extract::dom::{ElemId, NO_ELEM};

/// Mark the side rails of a rendered page in `marked` (elements not marked yet get the
/// rail as their mark). A rail is a shown element narrower than [`RAIL_MAX_WIDTH`] of the
/// page, whose centre is further than [`RAIL_MIN_OFF_CENTRE`] of the page from the
/// page's centre, in a parent at least [`RAIL_ROW_MIN_WIDTH`] of the page wide (a column
/// of the page's row, not a cell of a narrow article), and holding less than
/// [`RAIL_MAX_EVIDENCE_SHARE`] of the page's content evidence (`good`, of `total_good`).
pub(super) fn mark_side_rails(pass: &Pass, good: &[f64], total_good: f64, marked: &mut [ElemId]) {
    let page = pass.page;
    if page.boxes.is_none() {
        return;
    }
    if pass.config.visual_hidden {
        mark_unshown(pass, marked);
    }
    if !pass.config.visual_rails {
        return;
    }
    let Some(width) = page.body.and_then(|b| page.elem_box(b)).map(|b| b.width) else {
        return;
    };
    if width <= 0.0 {
        return;
    }
    let centre = width / 2.0;
    let mut rail_of = vec![NO_ELEM; page.elements.len()];
    for (i, e) in page.elements.iter().enumerate() {
        if e.parent != NO_ELEM && rail_of[e.parent as usize] != NO_ELEM {
            rail_of[i] = rail_of[e.parent as usize];
            continue;
        }
        let (Some(b), Some(parent)) = (page.elem_box(i as ElemId), page.elem_box(e.parent)) else {
            continue;
        };
        let is_rail = b.visible
            && b.width > 0.0
            && b.height > 0.0
            && b.width < RAIL_MAX_WIDTH * width
            && (b.centre_x() - centre).abs() > RAIL_MIN_OFF_CENTRE * width
            && parent.width >= RAIL_ROW_MIN_WIDTH * width
            && good[i] < RAIL_MAX_EVIDENCE_SHARE * total_good;
        if is_rail {
            rail_of[i] = i as ElemId;
        }
    }
    for (m, r) in marked.iter_mut().zip(rail_of) {
        if *m == NO_ELEM && r != NO_ELEM {
            *m = r;
        }
    }
}

/// Mark the elements the browser did not show (and what is inside them).
fn mark_unshown(pass: &Pass, marked: &mut [ElemId]) {
    let page = pass.page;
    let mut hidden_by = vec![NO_ELEM; page.elements.len()];
    for (i, e) in page.elements.iter().enumerate() {
        hidden_by[i] = if e.parent != NO_ELEM && hidden_by[e.parent as usize] != NO_ELEM {
            hidden_by[e.parent as usize]
        } else if page.elem_box(i as ElemId).is_some_and(|b| !b.visible) {
            i as ElemId
        } else {
            NO_ELEM
        };
    }
    for (m, h) in marked.iter_mut().zip(hidden_by) {
        if *m == NO_ELEM && h != NO_ELEM {
            *m = h;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::ARTICLE;
    use crate::extract::dom::{self, BOX_ATTR};
    use crate::extract::heuristic::{extract, HeuristicConfig};
    use crate::extract::Extracted;

    fn run(html: &str) -> Extracted {
        let config = HeuristicConfig {
            visual_rails: true,
            visual_hidden: true,
            ..HeuristicConfig::default()
        };
        extract(&dom::parse(html), &config)
    }

    /// A classless column before the article in the source, placed at the right by CSS.
    fn page(side_box: &str) -> String {
        format!(
            "<html><body {BOX_ATTR}='0 0 1366 2000 16 1'><div id=wrap {BOX_ATTR}='83 0 1200 2000 16 1'>\
             <div id=c1 {BOX_ATTR}='{side_box}'><p {BOX_ATTR}='{side_box}'>Our partners write \
             about many other things on their own pages every day of the week, read them.</p></div>\
             <div id=c2 {BOX_ATTR}='83 0 850 2000 16 1'><p {BOX_ATTR}='83 0 850 100 16 1'>{ARTICLE} One.</p>\
             <p {BOX_ATTR}='83 100 850 100 16 1'>{ARTICLE} Two.</p></div></div></body></html>"
        )
    }

    #[test]
    fn a_narrow_column_at_the_side_is_a_rail() {
        let out = run(&page("1000 0 280 600 16 1"));
        assert!(out.text.contains("Two."), "{}", out.text);
        assert!(!out.text.contains("partners"), "{}", out.text);
    }

    #[test]
    fn a_wide_or_centred_column_is_not() {
        let out = run(&page("83 0 1200 100 16 1"));
        assert!(out.text.contains("partners"), "{}", out.text);
    }

    #[test]
    fn an_unshown_column_is_not_content() {
        let out = run(&page("83 0 1200 100 16 0"));
        assert!(!out.text.contains("partners"), "{}", out.text);
        // Off by default.
        let html = page("1000 0 280 600 16 0");
        let out = extract(&dom::parse(&html), &HeuristicConfig::default());
        assert!(out.text.contains("partners"), "{}", out.text);
    }
}
