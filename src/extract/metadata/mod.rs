//! Page metadata beside the text: publication date, language, canonical URL, author,
//! site name and description (what trafilatura and news extractors give each page).
//! Read after the cascade from the html5ever tree the page was parsed into (one walk,
//! `facts.rs`) and the extracted text; the text itself is not touched.
//!
//! - `facts.rs`: the walk (metas, links, `<time>`, JSON-LD texts, author markup).
//! - `jsonld.rs`: schema.org entities, the page's own one first.
//! - `published.rs`: the date sources in order of trust; `dates.rs` reads the dates
//!   (machine formats, text in five languages, URLs), `months.rs` names the months.
//! - `lang.rs`: whatlang on the extracted text.
//! - `fields.rs`: canonical URL, author, site name, description.

pub(crate) mod dates;
mod facts;
mod fields;
mod jsonld;
pub mod lang;
mod months;
mod published;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use super::dom::ParsedPage;

pub use dates::{find_in_text, parse_machine, Dated};
pub use published::SOURCES as PUBLISHED_SOURCES;

/// The metadata fields of a record (flattened into `ExtractRecord`'s JSON). Every field
/// is written, `null` when unknown.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Metadata {
    /// Publication date, ISO 8601: `2011-11-09`, or with time and offset when the source
    /// gives them.
    #[serde(default)]
    pub published: Option<String>,
    /// Which source gave `published`: rules, json-ld, opengraph, time, meta, url, text.
    #[serde(default)]
    pub published_source: Option<String>,
    /// ISO 639-1 code of the extracted text's language.
    #[serde(default)]
    pub lang: Option<String>,
    /// `<link rel=canonical>` (else `og:url`), absolute.
    #[serde(default)]
    pub canonical_url: Option<String>,
    #[serde(default)]
    pub author: Option<String>,
    #[serde(default)]
    pub site_name: Option<String>,
    #[serde(default)]
    pub description: Option<String>,
}

/// What besides the parsed page the metadata needs.
pub struct MetaInputs<'a> {
    pub url: &'a str,
    /// The record's title and text (after extraction).
    pub title: &'a str,
    pub text: &'a str,
    /// A per-site rule's date, as the page shows it.
    pub rules_date: Option<&'a str>,
    pub fetched_at: Option<DateTime<Utc>>,
}

/// Read a page's metadata.
pub fn extract(page: &ParsedPage, inp: &MetaInputs<'_>) -> Metadata {
    let facts = facts::collect(&page.tree);
    let ld = jsonld::read(&facts.ld_json);
    let description = fields::description(&facts, &ld);
    let lang = lang::detect(inp.text, inp.title, description.as_deref());
    let dated = published::find(&published::DateInputs {
        facts: &facts,
        ld: &ld,
        dom: &page.dom,
        url: inp.url,
        title: inp.title,
        text: inp.text,
        rules_date: inp.rules_date,
        fetched_at: inp.fetched_at,
        day_first: lang.as_deref() != Some("en"),
    });
    Metadata {
        published: dated.map(|(d, _)| d.to_iso()),
        published_source: dated.map(|(_, s)| s.to_string()),
        lang,
        canonical_url: fields::canonical(&facts, &ld, inp.url),
        author: fields::author(&facts, &ld),
        site_name: fields::site_name(&facts, &ld),
        description,
    }
}
