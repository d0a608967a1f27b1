//! The declared fields: canonical URL, author, site name and description, each from the
//! sources that declare it, most specific first.
//!
//! - canonical: `<link rel=canonical>`, else `og:url`, else a JSON-LD article's `url`;
//!   resolved against `<base href>` and the page's URL; only http(s) kept.
//! - author: JSON-LD `author`, `<meta name=author>` (and Dublin Core, Parse.ly,
//!   Sailthru, `article:author` when it is a name, not a profile URL), `itemprop=author`,
//!   `<a rel=author>`.
//! - site name: `og:site_name`, `application-name`, JSON-LD `publisher`, JSON-LD
//!   `WebSite` name.
//! - description: `og:description`, `<meta name=description>`, `twitter:description`,
//!   JSON-LD `description`.

use super::facts::Facts;
use super::jsonld::LdFacts;

/// Longest author string kept (a byline paragraph is not a name). Hand-set.
const MAX_AUTHOR_CHARS: usize = 120;
/// Longest site name kept. Hand-set.
const MAX_SITE_NAME_CHARS: usize = 120;
/// Descriptions are cut at this many characters (at a char boundary). Hand-set, above
/// the 160–300 characters search engines show.
const MAX_DESCRIPTION_CHARS: usize = 1000;

fn clean(s: &str, max: usize) -> Option<String> {
    let s = crate::extract::dom::collapse(s);
    (!s.is_empty()).then(|| s.chars().take(max).collect())
}

fn looks_like_url(s: &str) -> bool {
    s.starts_with("http://")
        || s.starts_with("https://")
        || s.starts_with("//")
        || s.starts_with('/')
}

/// The page's canonical URL, absolute, http(s).
pub fn canonical(facts: &Facts, ld: &LdFacts, page_url: &str) -> Option<String> {
    let page = url::Url::parse(page_url).ok();
    let base = match (&page, facts.base_href.as_deref()) {
        (Some(p), Some(b)) => p.join(b).ok().or_else(|| page.clone()),
        (p, _) => p.clone(),
    };
    let resolve = |href: &str| -> Option<String> {
        let href = href.trim();
        if href.is_empty() {
            return None;
        }
        let u = match &base {
            Some(b) => b.join(href).ok()?,
            None => url::Url::parse(href).ok()?,
        };
        matches!(u.scheme(), "http" | "https").then(|| {
            let mut u = u;
            u.set_fragment(None);
            u.to_string()
        })
    };
    facts
        .canonical
        .as_deref()
        .and_then(resolve)
        .or_else(|| facts.meta(&["og:url"]).and_then(resolve))
        .or_else(|| ld.url.as_deref().and_then(resolve))
}

/// The author's name(s).
pub fn author(facts: &Facts, ld: &LdFacts) -> Option<String> {
    let named = |s: &&str| !looks_like_url(s) && s.chars().count() <= MAX_AUTHOR_CHARS;
    ld.author
        .as_deref()
        .filter(named)
        .or_else(|| {
            [
                "author",
                "dc.creator",
                "dcterms.creator",
                "citation_author",
                "parsely-author",
                "sailthru.author",
                "article:author",
                "twitter:creator",
            ]
            .iter()
            .find_map(|k| facts.meta(&[k]).filter(named))
        })
        .or_else(|| facts.author_texts.iter().map(String::as_str).find(named))
        .and_then(|s| clean(s, MAX_AUTHOR_CHARS))
}

/// The site's name as the page declares it.
pub fn site_name(facts: &Facts, ld: &LdFacts) -> Option<String> {
    facts
        .meta(&["og:site_name", "application-name"])
        .map(str::to_string)
        .or_else(|| ld.publisher.clone())
        .or_else(|| ld.website_name.clone())
        .and_then(|s| clean(&s, MAX_SITE_NAME_CHARS))
}

/// The page's summary as it declares it.
pub fn description(facts: &Facts, ld: &LdFacts) -> Option<String> {
    facts
        .meta(&[
            "og:description",
            "description",
            "twitter:description",
            "dc.description",
        ])
        .map(str::to_string)
        .or_else(|| ld.description.clone())
        .and_then(|s| clean(&s, MAX_DESCRIPTION_CHARS))
}
