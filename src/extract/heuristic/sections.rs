//! Sibling sections: product, service and landing pages spread their copy over sibling
//! sections (hero, features, specs), each a container of its own, and the largest alone
//! loses the rest. Sections beside the container (and beside each of its ancestors)
//! with enough value join it; a run of like `<section>`s joins at a lower floor.
//!
//! Below a headed news article (`headline.rs`: a headline followed by text) the siblings
//! after the text are the page's furniture, not its further sections: the comment form
//! and its notices, the site's disclaimer and copyright paragraphs, a page-wide footer
//! without a marking class, a column of tweets. With `after_article_sections_only`, a
//! sibling after the container joins such a page only when it looks like a section of
//! the page: a `<section>`, one more `<p>` of the text, or an element that opens with a
//! heading of its own (a landing page's "Features", "Frequently asked questions").

use super::marks::Marks;
use super::settings::{
    HeuristicConfig, LIKE_RUN, LIKE_SIBLING_SHARE, SIBLING_MIN_VALUE, SIBLING_SHARE,
};
use super::structures::Structures;
use super::Pass;
use crate::extract::dom::{BlockKind, ElemId, PageDom, NO_ELEM};
use crate::extract::vocab;

/// Like Readability's sibling pass, every unmarked sibling of the container and of each
/// of its (unmarked) ancestors whose value is at least `SIBLING_SHARE` of the
/// container's is written out too (climbing all the way measured better on WCXB than
/// one level: landing pages nest their sections in wrappers of varying depth). Returns,
/// per element, whether it lies in such a sibling (none in the pass without marks).
/// Walks each ancestor's children by skipping subtrees: O(children).
pub(super) fn sibling_sections(
    pass: &Pass,
    container: ElemId,
    sum: &[f64],
    marked: &[ElemId],
    st: &Structures,
    headed: bool,
) -> Vec<bool> {
    let page = pass.page;
    let n = page.elements.len();
    let mut inside = vec![false; n];
    if pass.marks == Marks::Off {
        return inside;
    }
    let roots = sibling_roots(page, pass.config, container, sum, marked, st, headed);
    if roots.is_empty() {
        return inside;
    }
    // Comment sections are never appended: they are the page's discussion, written out
    // only as the container itself (a forum) or with `include_comments`.
    let comments = |i: usize| vocab::is_comment_name(&page.elements[i].id_class);
    for &r in &roots {
        inside[r] = !comments(r);
    }
    for i in 0..n {
        let p = page.elements[i].parent;
        if p != NO_ELEM && inside[p as usize] && !comments(i) {
            inside[i] = true;
        }
    }
    inside
}

/// The unmarked siblings of the container and of each of its unmarked ancestors with
/// enough value to join it (`SIBLING_SHARE` of its value, `LIKE_SIBLING_SHARE` in a run
/// of like sections, at least `SIBLING_MIN_VALUE`), innermost ancestor first. On a
/// `headed` page (with `after_article_sections_only`), those after the container only
/// when they [open a section](opens_a_section).
fn sibling_roots(
    page: &PageDom,
    config: &HeuristicConfig,
    container: ElemId,
    sum: &[f64],
    marked: &[ElemId],
    st: &Structures,
    headed: bool,
) -> Vec<usize> {
    let container_end = page.elements[container as usize].end as usize;
    let sections_only = headed && config.after_article_sections_only;
    let floor = (SIBLING_SHARE * sum[container as usize]).max(SIBLING_MIN_VALUE);
    let like_floor = (LIKE_SIBLING_SHARE * sum[container as usize]).max(SIBLING_MIN_VALUE);
    let mut roots = Vec::new();
    let mut cur = container;
    loop {
        let parent = page.elements[cur as usize].parent;
        if parent == NO_ELEM || marked[parent as usize] != NO_ELEM {
            break;
        }
        let mut j = parent as usize + 1;
        let end = page.elements[parent as usize].end as usize;
        let mut run = 0;
        while j < end {
            run += like_section(page, j, cur as usize) as usize;
            j = page.elements[j].end as usize;
        }
        let mut j = parent as usize + 1;
        while j < end {
            let like = run >= LIKE_RUN && like_section(page, j, cur as usize);
            let floor = if like { like_floor } else { floor };
            if j != cur as usize
                && marked[j] == NO_ELEM
                && sum[j] >= floor
                && !(config.story_is_article && lists_beside_story(st, j, cur as usize))
                && !(sections_only && j >= container_end && !opens_a_section(page, j))
            {
                roots.push(j);
            }
            if tracing::enabled!(tracing::Level::DEBUG) && j != cur as usize {
                let e = &page.elements[j];
                tracing::debug!(
                    "sibling {j} <{} {}> sum {:.1} floor {floor:.1} marked {}",
                    e.tag,
                    e.id_class,
                    sum[j],
                    marked[j] != NO_ELEM
                );
            }
            j = page.elements[j].end as usize;
        }
        cur = parent;
    }
    roots
}

/// Whether element `j` looks like a section of the page rather than its furniture: a
/// `<section>`, a `<p>` (the text goes on beside the container), or an element whose
/// first block is a heading. A comment form, a disclaimer, a footer's link rows and
/// notices open with a line of text or a link.
fn opens_a_section(page: &PageDom, j: usize) -> bool {
    let e = &page.elements[j];
    if matches!(&*e.tag, "section" | "p") {
        return true;
    }
    let end = e.end;
    page.blocks
        .iter()
        .find(|b| b.elem as usize >= j && b.elem < end)
        .is_some_and(|b| matches!(b.kind, BlockKind::Heading(_)))
}

/// Whether sibling `j` is one of the lists beside the story `cur` in a group of unlike
/// items ([`Group::story_evidence`](super::structures::Group::story_evidence)): the link
/// columns and "most read" lists of a layout row are no further sections of the story.
fn lists_beside_story(st: &Structures, j: usize, cur: usize) -> bool {
    let g = st.group_of[cur];
    g != u32::MAX && st.group_of[j] == g && st.groups[g as usize].story_evidence > 0.0
}

/// Whether sibling `j` is one more section of the same run as `cur` (the container or
/// one of its ancestors): both `<section>` elements. (Siblings of the same kind, `sig`,
/// measured worse: page-row `div`s of articles joined too.)
/// Landing and service pages spread their copy over a run of such sections, each with
/// a heading and a short paragraph or two, none close to the largest one's value.
fn like_section(page: &PageDom, j: usize, cur: usize) -> bool {
    let (a, b) = (&page.elements[j], &page.elements[cur]);
    &*a.tag == "section" && &*b.tag == "section"
}

#[cfg(test)]
mod tests {
    use super::super::tests::{run, run_without, ARTICLE};

    #[test]
    fn a_headed_article_is_joined_by_sections_not_by_notices() {
        // A news item, then beside its wrapper the site's notice (a line of text first)
        // and a section of the page that opens with its own heading. The menu keeps the
        // page wrapper from being the container.
        let menu = (1..=30)
            .map(|i| format!("<a href=/{i}>Menu item {i}</a> "))
            .collect::<String>();
        let html = format!(
            "<html><head><title>Harbour cranes lifted the old ferry out of the water</title></head>\
             <body><div class=page><nav>{menu}</nav><div class=wrap><div class=story>\
             <h1>Harbour cranes lifted the old ferry out of the water</h1>\
             <p>{ARTICLE} First.</p><p>{ARTICLE} Second.</p><p>{ARTICLE} Third.</p></div></div>\
             <div class=notes><p>Statement: articles taken from other media do not mean that this \
             site shares their views or vouches for their accuracy in any way.</p></div>\
             <div class=more><h2>Background of the ferry</h2><p>{ARTICLE} Background.</p></div>\
             </div></body></html>"
        );
        let without = run_without(&html, |c| c.after_article_sections_only = false);
        assert!(
            without.contains("Statement:"),
            "the notice joins without the test: {without}"
        );
        let out = run(&html);
        assert!(out.text.contains("Third."), "{}", out.text);
        assert!(out.text.contains("Background."), "{}", out.text);
        assert!(!out.text.contains("Statement:"), "{}", out.text);
    }

    #[test]
    fn sibling_sections_of_a_landing_page_are_kept() {
        let section = |h: &str| {
            format!(
                "<section><h2>{h}</h2><p>{ARTICLE}</p><p><a href=/x>Learn more</a></p></section>"
            )
        };
        let html = format!(
            "<body><nav><a href=/>Home</a> <a href=/p>Pricing</a></nav><div class=page>\
             <div class=wrap><section><h2>Hero</h2><p>{ARTICLE}</p><p>{ARTICLE} Again.</p></section></div>\
             {}{}</div><footer><p>{ARTICLE} Legal.</p></footer></body>",
            section("Features"),
            section("Security")
        );
        let out = run(&html);
        assert!(out.text.contains("Again."), "{}", out.text);
        assert!(out.text.contains("Features"), "{}", out.text);
        assert!(out.text.contains("Security"), "{}", out.text);
        assert!(!out.text.contains("Legal."), "{}", out.text);
        assert!(!out.text.contains("Pricing"), "{}", out.text);
    }

    #[test]
    fn a_run_of_small_sections_joins_the_largest_one() {
        // A service page: a hero section with the longest copy, then a run of sections
        // with a heading and one paragraph each, every one below the plain sibling floor.
        let section = |h: &str| format!("<section><h2>{h}</h2><p>{ARTICLE} {h}.</p></section>");
        let hero = format!("<p>{ARTICLE}</p>").repeat(6);
        // The menu inside the page wrapper keeps the wrapper from being the container.
        let menu = (1..=30)
            .map(|i| format!("<a href=/{i}>Menu item {i}</a> "))
            .collect::<String>();
        let html = format!(
            "<body><div class=page><nav>{menu}</nav>\
             <section><h1>Our service</h1>{hero}</section>{}{}{}\
             <div class=aside><p>{ARTICLE} Aside.</p></div></div></body>",
            section("Onboarding"),
            section("Support"),
            section("Security")
        );
        let out = run(&html);
        for h in ["Onboarding.", "Support.", "Security."] {
            assert!(out.text.contains(h), "{h} {}", out.text);
        }
        // A lone sibling of another kind still needs the plain floor.
        assert!(!out.text.contains("Aside."), "{}", out.text);
    }

    #[test]
    fn marks_inside_sibling_sections_still_count() {
        // The menu inside the page wrapper makes the hero the container; the Features
        // section joins it as a sibling, without its share box.
        let menu = (1..=12)
            .map(|i| format!("<a href=/{i}>Menu item {i}</a> "))
            .collect::<String>();
        let html = format!(
            "<body><div class=page><nav>{menu}</nav>\
             <div class=wrap><section><h2>Hero</h2><p>{ARTICLE}</p><p>{ARTICLE}</p><p>{ARTICLE} Again.</p></section></div>\
             <section><h2>Features</h2><p>{ARTICLE}</p><p>{ARTICLE}</p>\
             <div class=share-buttons><p>Share this page with your friends on every network you use today.</p></div>\
             </section></div></body>"
        );
        let out = run(&html);
        assert!(out.text.contains("Features"), "{}", out.text);
        assert!(!out.text.contains("friends"), "{}", out.text);
    }
}
