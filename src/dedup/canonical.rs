//! Canonical URLs as a dedup signal: a page that declares `<link rel=canonical>` says
//! which document it is a copy of (print and AMP versions, tracking-parameter variants,
//! syndicated copies that credit the original). Documents whose canonical URL is the same
//! — or whose own URL is another's canonical — are paired whatever their shingles say,
//! and join one cluster when their texts are at least [`DedupConfig::canonical_min_similarity`]
//! similar (a canonical pointing at the wrong page, a template bug, must not merge
//! different articles).
//!
//! [`DedupConfig::canonical_min_similarity`]: super::DedupConfig::canonical_min_similarity

use std::collections::HashMap;

use crate::choose_main::DocMeta;

/// A group of documents sharing a key larger than this is paired as a star around its
/// best-ranked member instead of all pairs (10,000 pages with one canonical cost 9,999
/// comparisons).
const ALL_PAIRS_MAX: usize = 64;

/// A URL as a comparison key: host without `www.`, path without a trailing `/`, query;
/// scheme, port and fragment dropped (`http://www.x.com/a/` = `https://x.com/a`).
pub fn url_key(url: &str) -> Option<String> {
    let u = url::Url::parse(url.trim()).ok()?;
    if !matches!(u.scheme(), "http" | "https") {
        return None;
    }
    let host = u.host_str()?.trim_start_matches("www.");
    let path = u.path().trim_end_matches('/');
    Some(match u.query() {
        Some(q) if !q.is_empty() => format!("{host}{path}?{q}"),
        _ => format!("{host}{path}"),
    })
}

/// The key of a declared canonical URL, unless it looks like a template's mistake: a
/// site's home page named as the canonical of a page that is not the home page.
pub fn canonical_key(canonical: Option<&str>, page_url: Option<&str>) -> Option<String> {
    let key = url_key(canonical?)?;
    let is_root = |k: &str| !k.contains('/') && !k.contains('?');
    if is_root(&key) {
        if let Some(own) = page_url.and_then(url_key) {
            if !is_root(&own) {
                return None;
            }
        }
    }
    Some(key)
}

/// Pairs of positions in `ranked` (documents sorted best main first) that share a
/// canonical key: two documents declaring the same one, or one whose own URL another
/// declares. Pairs are `(a, b)` with `a < b`.
pub fn pairs(ranked: &[&DocMeta]) -> Vec<(u32, u32)> {
    let mut groups: HashMap<&str, Vec<u32>> = HashMap::new();
    for (r, m) in ranked.iter().enumerate() {
        if let Some(c) = m.canonical.as_deref() {
            groups.entry(c).or_default().push(r as u32);
        }
    }
    for (r, m) in ranked.iter().enumerate() {
        if let Some(own) = m.url_key.as_deref() {
            // A page is the canonical of others: it joins their group (once).
            if m.canonical.as_deref() != Some(own) {
                if let Some(g) = groups.get_mut(own) {
                    g.push(r as u32);
                }
            }
        }
    }
    let mut out = Vec::new();
    for mut g in groups.into_values() {
        g.sort_unstable();
        g.dedup();
        if g.len() <= ALL_PAIRS_MAX {
            for i in 0..g.len() {
                for j in i + 1..g.len() {
                    out.push((g[i], g[j]));
                }
            }
        } else {
            out.extend(g[1..].iter().map(|&x| (g[0], x)));
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_ignore_scheme_www_slash_and_fragment() {
        assert_eq!(
            url_key("http://www.x.com/a/#top").as_deref(),
            Some("x.com/a")
        );
        assert_eq!(url_key("https://x.com/a").as_deref(), Some("x.com/a"));
        assert_eq!(
            url_key("https://x.com/a?id=2").as_deref(),
            Some("x.com/a?id=2")
        );
        assert_eq!(url_key("file:///tmp/a.html"), None);
    }

    #[test]
    fn home_page_canonical_on_an_article_is_ignored() {
        assert_eq!(
            canonical_key(Some("https://x.com/"), Some("https://x.com/news/1")),
            None
        );
        assert_eq!(
            canonical_key(Some("https://x.com/"), Some("https://www.x.com/")).as_deref(),
            Some("x.com")
        );
        assert_eq!(
            canonical_key(Some("https://x.com/news/1"), Some("https://x.com/print/1")).as_deref(),
            Some("x.com/news/1")
        );
    }

    #[test]
    fn pairs_by_shared_canonical_and_by_own_url() {
        let m = |canonical: Option<&str>, url: &str| DocMeta {
            canonical: canonical.map(String::from),
            url_key: Some(url.to_string()),
            ..DocMeta::default()
        };
        let docs = [
            m(None, "x.com/a"),                  // the original, declares nothing
            m(Some("x.com/a"), "x.com/a/print"), // its print copy
            m(Some("x.com/a"), "amp.x.com/a"),   // its AMP copy
            m(Some("x.com/b"), "x.com/b"),       // another page, self-canonical
            m(None, "y.com/a"),
        ];
        let refs: Vec<&DocMeta> = docs.iter().collect();
        assert_eq!(pairs(&refs), vec![(0, 1), (0, 2), (1, 2)]);
    }
}
