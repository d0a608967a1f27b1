//! `title` and `date` XPaths, when the pages carry them in one place. Title: the page's
//! `<h1>` (with a stable class when it has one) or its `og:title`, taken when on every
//! page it gives a text that differs from page to page (not the site's logo) and that
//! the page's `<title>` or `og:title` contains (it is the page's title, without the
//! site's name). Date: the usual machine-readable places (`article:published_time`,
//! `itemprop=datePublished`, `<time datetime>`), taken when every page gives a value
//! with a year in it and the values are not all the same (a template date).

use std::collections::HashSet;

use super::steps::own_steps;
use super::PageData;
use crate::extract::xpath_fast::Plan;

/// Where pages say when they were published, in order of preference.
const DATE_XPATHS: &[&str] = &[
    "//meta[@property='article:published_time']/@content",
    "//meta[@itemprop='datePublished']/@content",
    "//*[@itemprop='datePublished']/@datetime",
    "//*[@itemprop='datePublished']/@content",
    "//meta[@name='date']/@content",
    "//meta[@name='pubdate']/@content",
    "//time[@pubdate]/@datetime",
    "//time/@datetime",
];

/// A field XPath and how many pages it gave a fitting value on.
#[derive(Debug, Clone)]
pub(super) struct Field {
    pub(super) xpath: String,
    pub(super) pages: usize,
}

/// The first node's text of `xpath` on `page`, collapsed (as a rule's `title`/`date`).
fn value(page: &PageData, plan: &Plan) -> Option<String> {
    let first = plan.select(&page.arena).into_iter().next()?;
    let v = crate::extract::dom::collapse(&Plan::item_string(&page.arena, &first));
    (!v.is_empty()).then_some(v)
}

fn norm(s: &str) -> String {
    s.chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

/// Values on every page, all different, and `fits` on every page.
fn everywhere(
    pages: &[&PageData],
    xpath: &str,
    fits: impl Fn(&PageData, &str) -> bool,
    distinct: bool,
) -> Option<Field> {
    let plan = Plan::compile(xpath)?;
    let mut seen = HashSet::new();
    for p in pages {
        let v = value(p, &plan)?;
        if !fits(p, &v) {
            return None;
        }
        seen.insert(v);
    }
    let enough = if distinct { pages.len() } else { 2 };
    (seen.len() >= enough.min(pages.len())).then(|| Field {
        xpath: xpath.to_string(),
        pages: pages.len(),
    })
}

/// The title XPath, if the pages carry the title in one place.
pub(super) fn title(pages: &[&PageData]) -> Option<Field> {
    let mut cands: Vec<String> = Vec::new();
    // The first page's h1's stable steps, then any h1, then og:title.
    if let Some(p) = pages.first() {
        let h1 = (1..p.arena.len() as u32).find(|&i| p.arena.name(i).is_some_and(|n| &**n == "h1"));
        if let Some(h) = h1 {
            cands.extend(
                own_steps(&p.arena, h)
                    .into_iter()
                    .map(|s| format!("//{}", s.text)),
            );
        }
    }
    cands.push("//h1".into());
    cands.push("//meta[@property='og:title']/@content".into());
    let fits = |p: &PageData, v: &str| {
        let v = norm(v);
        let dom = &p.page.parsed.dom;
        v.chars().count() >= 4
            && (norm(&dom.title).contains(&v)
                || dom
                    .meta_title
                    .as_deref()
                    .is_some_and(|t| norm(t).contains(&v)))
    };
    cands.iter().find_map(|x| everywhere(pages, x, fits, true))
}

/// The date XPath, if the pages carry a date in one place.
pub(super) fn date(pages: &[&PageData]) -> Option<Field> {
    let has_year = |_: &PageData, v: &str| {
        let b = v.as_bytes();
        b.windows(4).any(|w| {
            w.iter().all(u8::is_ascii_digit) && (w.starts_with(b"19") || w.starts_with(b"20"))
        })
    };
    DATE_XPATHS
        .iter()
        .find_map(|x| everywhere(pages, x, has_year, false))
}
