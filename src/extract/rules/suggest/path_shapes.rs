//! Layouts told apart by the shape of the URL path rather than its first directory
//! (`/2011/05/slug.html` against `/topics/harbour/`, `/news/sport/a.html` against
//! `/news/politics/b.html`): each page's path as a glob (directories kept as written,
//! those with digits or unusual characters and the last segment as `*`, the extension
//! kept), written as the rule's `path_glob`. Used only where the first directory does
//! not split the pages, and only when each group agrees on a content XPath that does
//! not select the text on most of the other groups' pages.

use std::collections::BTreeMap;

use crate::extract::rules::lookup::glob_match;

/// A directory name kept in a glob: lower-case letters, digits (at most one: `2011`,
/// `page-42` are dates and ids), `-`, `_`, `.`.
fn stable(segment: &str) -> bool {
    !segment.is_empty()
        && segment.bytes().filter(u8::is_ascii_digit).count() <= 1
        && segment
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b"-_.".contains(&b))
}

/// The shape of a URL path as a glob (`/2011/05/a.html` → `/*/*/*.html`,
/// `/topics/harbour/` → `/topics/*/`, `/news/123` → `/news/*`); `None` for `/`.
pub(super) fn shape(path: &str) -> Option<String> {
    let segs: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
    let last = segs.len().checked_sub(1)?;
    let mut out = String::new();
    for (i, s) in segs.iter().enumerate() {
        out.push('/');
        if i < last {
            out.push_str(if stable(s) { s } else { "*" });
            continue;
        }
        match s.rsplit_once('.') {
            Some((stem, ext))
                if !stem.is_empty()
                    && (1..=5).contains(&ext.len())
                    && ext.bytes().all(|b| b.is_ascii_alphabetic()) =>
            {
                out.push_str("*.");
                out.push_str(&ext.to_ascii_lowercase());
            }
            _ => out.push('*'),
        }
    }
    if path.ends_with('/') {
        out.push('/');
    }
    Some(out)
}

/// Characters a glob fixes (not `*` or `/`): more is more specific, tried first.
fn literal(glob: &str) -> usize {
    glob.chars().filter(|&c| c != '*' && c != '/').count()
}

/// A rule name from a glob: its fixed directory names (`/news/sport/*.html` →
/// `news-sport`), or `layout`.
pub(super) fn name(glob: &str) -> String {
    let mut segs: Vec<&str> = glob.split('/').filter(|s| !s.is_empty()).collect();
    segs.pop();
    let words: Vec<&str> = segs.into_iter().filter(|s| !s.contains('*')).collect();
    if words.is_empty() {
        "layout".into()
    } else {
        words.join("-")
    }
}

/// The pages' indices grouped by path shape, most specific glob first; `None` when a
/// page has no shape, there is one shape only, or some page's first matching glob in
/// that order is not its own (it would get another group's rule).
pub(super) fn groups(paths: &[&str]) -> Option<Vec<(String, Vec<usize>)>> {
    let mut by: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    for (i, p) in paths.iter().enumerate() {
        by.entry(shape(p)?).or_default().push(i);
    }
    if by.len() < 2 {
        return None;
    }
    let mut out: Vec<(String, Vec<usize>)> = by.into_iter().collect();
    out.sort_by_key(|(g, _)| std::cmp::Reverse(literal(g)));
    for (k, (_, members)) in out.iter().enumerate() {
        for &i in members {
            let first = out.iter().position(|(g, _)| glob_match(g, paths[i]));
            if first != Some(k) {
                return None;
            }
        }
    }
    Some(out)
}

/// Whether `glob` takes `path`, as the rule engine decides it.
pub(super) fn matches(glob: &str, path: &str) -> bool {
    glob_match(glob, path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes_of_paths() {
        assert_eq!(shape("/2011/05/slug.html").as_deref(), Some("/*/*/*.html"));
        assert_eq!(shape("/topics/harbour/").as_deref(), Some("/topics/*/"));
        assert_eq!(shape("/news/123").as_deref(), Some("/news/*"));
        assert_eq!(shape("/blog/some-post").as_deref(), Some("/blog/*"));
        assert_eq!(
            shape("/news/sport/a.html").as_deref(),
            Some("/news/sport/*.html")
        );
        assert_eq!(shape("/News/x.PHP").as_deref(), Some("/*/*.php"));
        assert_eq!(shape("/a.b.c/v1.2"), Some("/a.b.c/*".into()));
        assert_eq!(shape("/"), None);
        // The glob of a path matches the path, by the engine's matcher.
        for p in [
            "/2011/05/slug.html",
            "/topics/harbour/",
            "/news/123",
            "/x/y.tar",
        ] {
            assert!(glob_match(&shape(p).unwrap(), p), "{p}");
        }
        assert!(!glob_match("/topics/*/", "/2011/05/slug.html"));
        assert!(!glob_match("/*/*/*.html", "/topics/harbour/"));
    }

    #[test]
    fn groups_most_specific_first_and_only_when_each_page_keeps_its_own() {
        let paths = [
            "/2011/05/a.html",
            "/topics/x/",
            "/2012/01/b.html",
            "/topics/y/",
        ];
        let g = groups(&paths).unwrap();
        assert_eq!(g[0], ("/topics/*/".to_string(), vec![1, 3]));
        assert_eq!(g[1], ("/*/*/*.html".to_string(), vec![0, 2]));
        // `/news/*` would take `/news/sport/a.html` only after `/news/sport/*.html`.
        let g = groups(&["/news/1", "/news/sport/a.html"]).unwrap();
        assert_eq!(g[0].0, "/news/sport/*.html");
        // `/*/*.html` (less specific) comes after `/*/*/*.html`, but takes its pages
        // first: `*` also matches `/`.
        assert!(groups(&["/2011/a.html", "/2011/05/b.html"]).is_none());
        assert!(groups(&["/a/1.html", "/b/2.html"]).is_some());
        assert!(groups(&["/a/1.html", "/a/2.html"]).is_none());
    }

    #[test]
    fn names_and_specificity() {
        assert_eq!(name("/news/sport/*.html"), "news-sport");
        assert_eq!(name("/*/*/*.html"), "layout");
        assert_eq!(name("/topics/*/"), "topics");
        assert!(literal("/news/sport/*.html") > literal("/news/*"));
    }
}
