//! The publication date, from the sources a page offers, in order of trust: a per-site
//! rule's date node (the operator pointed at it), JSON-LD `datePublished`, OpenGraph
//! `article:published_time`, a `<time>` marked as the publication date (else the first
//! `<time>` outside navigation, sidebars and comments), date meta tags (Dublin Core,
//! `pubdate`, Parse.ly, Sailthru, citation), a date in the URL's path, and last a date
//! written in the lines around the headline. The first plausible one wins: not before
//! [`MIN_YEAR`](super::dates::MIN_YEAR) and not after the fetch (or now) plus a day.

use chrono::{DateTime, Duration, Utc};

use super::dates::{self, Dated};
use super::facts::Facts;
use super::jsonld::LdFacts;
use crate::extract::dom::{BlockKind, PageDom};

/// Which source gave the date (`published_source` in the record).
pub const SOURCES: [&str; 7] = [
    "rules",
    "json-ld",
    "opengraph",
    "time",
    "meta",
    "url",
    "text",
];

/// Meta names (lower-case) that carry the publication date, most specific first.
const DATE_METAS: &[&str] = &[
    "datepublished",
    "dc.date.issued",
    "dcterms.issued",
    "dc.date.created",
    "dcterms.created",
    "citation_publication_date",
    "citation_date",
    "pubdate",
    "publishdate",
    "publish_date",
    "publish-date",
    "published_time",
    "article.published",
    "parsely-pub-date",
    "sailthru.date",
    "original-publish-date",
    "dc.date",
    "dcterms.date",
    "date",
];

/// Blocks looked at after the headline (the byline, the lead) and before it (a kicker
/// with the date, a breadcrumb). Hand-set: a byline sits within a few lines of the
/// headline; further lines are the article's own dates or other stories'.
const AFTER_HEADLINE: usize = 12;
const BEFORE_HEADLINE: usize = 8;
/// A block longer than this is article text, whose dates are events', not the page's.
const MAX_DATE_BLOCK_WORDS: u32 = 40;
/// Without a headline: the first lines of the extracted text.
const FIRST_TEXT_LINES: usize = 8;

/// Everything the date sources need.
pub struct DateInputs<'a> {
    pub facts: &'a Facts,
    pub ld: &'a LdFacts,
    pub dom: &'a PageDom,
    pub url: &'a str,
    pub title: &'a str,
    pub text: &'a str,
    pub rules_date: Option<&'a str>,
    pub fetched_at: Option<DateTime<Utc>>,
    /// How to read `05/06/2011`: day first unless the page is English.
    pub day_first: bool,
}

/// The publication date and the source that gave it.
pub fn find(inp: &DateInputs<'_>) -> Option<(Dated, &'static str)> {
    let latest = inp.fetched_at.unwrap_or_else(Utc::now).date_naive() + Duration::days(1);
    let ok = |d: &Dated| d.date <= latest;
    let machine = |s: &str| dates::parse_machine(s, inp.day_first).filter(ok);
    if let Some(d) = inp.rules_date.and_then(machine) {
        return Some((d, "rules"));
    }
    if let Some(d) = inp.ld.date_published.as_deref().and_then(machine) {
        return Some((d, "json-ld"));
    }
    if let Some(d) = inp
        .facts
        .meta(&[
            "article:published_time",
            "og:published_time",
            "og:article:published_time",
        ])
        .and_then(machine)
    {
        return Some((d, "opengraph"));
    }
    if let Some(d) = from_times(inp, &ok) {
        return Some((d, "time"));
    }
    if let Some(d) = inp.facts.meta(DATE_METAS).and_then(machine) {
        return Some((d, "meta"));
    }
    if let Some(d) = dates::from_url(inp.url).map(Dated::day).filter(ok) {
        return Some((d, "url"));
    }
    near_headline(inp, &ok).map(|d| (d, "text"))
}

/// A `<time>` marked as the publication; else the first outside boilerplate that is not
/// marked as an update.
fn from_times(inp: &DateInputs<'_>, ok: &impl Fn(&Dated) -> bool) -> Option<Dated> {
    let read = |t: &super::facts::TimeFact| {
        t.datetime
            .as_deref()
            .and_then(|s| dates::parse_machine(s, inp.day_first))
            .or_else(|| dates::find_in_text(&t.text, inp.day_first).map(Dated::day))
            .filter(ok)
    };
    let times = &inp.facts.times;
    times
        .iter()
        .filter(|t| t.marked_published && !t.marked_modified)
        .find_map(read)
        .or_else(|| {
            times
                .iter()
                .filter(|t| !t.in_boilerplate && !t.marked_modified)
                .find_map(read)
        })
}

/// Letters and digits, lower-cased: to compare a block with the title.
fn squash(s: &str) -> String {
    s.chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

/// The block holding the headline: the first heading that says the title (or that the
/// title contains, when it has the site's name around it), else any such block, else
/// the first `<h1>`-level heading.
fn headline(dom: &PageDom, title: &str) -> Option<usize> {
    let t = squash(title);
    let says_title = |b: &crate::extract::dom::Block| {
        let s = squash(&b.text);
        !t.is_empty() && s.chars().count() >= 8 && (s == t || t.contains(&s) || s.contains(&t))
    };
    let is_heading = |b: &crate::extract::dom::Block| matches!(b.kind, BlockKind::Heading(_));
    let blocks = &dom.blocks;
    blocks
        .iter()
        .position(|b| is_heading(b) && says_title(b))
        .or_else(|| blocks.iter().position(|b| b.words <= 40 && says_title(b)))
        .or_else(|| blocks.iter().position(|b| b.kind == BlockKind::Heading(1)))
}

/// The first date in the lines around the headline, nearest first (after it before
/// before it at equal distance); without a headline, in the first lines of the text.
fn near_headline(inp: &DateInputs<'_>, ok: &impl Fn(&Dated) -> bool) -> Option<Dated> {
    let find = |s: &str| {
        dates::all_in_text(s, inp.day_first)
            .map(Dated::day)
            .find(|d| ok(d))
    };
    let blocks = &inp.dom.blocks;
    if let Some(h) = headline(inp.dom, inp.title) {
        let mut order: Vec<usize> = Vec::new();
        for dist in 0..=AFTER_HEADLINE {
            if h + dist < blocks.len() {
                order.push(h + dist);
            }
            if dist > 0 && dist <= BEFORE_HEADLINE && dist <= h {
                order.push(h - dist);
            }
        }
        return order
            .into_iter()
            .filter(|&i| blocks[i].words <= MAX_DATE_BLOCK_WORDS)
            .find_map(|i| find(&blocks[i].text));
    }
    inp.text
        .lines()
        .take(FIRST_TEXT_LINES)
        .filter(|l| l.split_whitespace().count() as u32 <= MAX_DATE_BLOCK_WORDS)
        .find_map(find)
}
