//! Which rule file and which rule a page's URL belongs to: the host (lower-case, no
//! `www.`, punycode) is one hash-map probe, then one per parent domain for files with
//! `subdomains: true`, so pages of sites without rules cost next to nothing; a rule's
//! `path_prefix` and `path_glob` then test the path.

use super::{Rule, RuleFile, RuleSet};

impl RuleSet {
    /// The file whose site the URL belongs to: one hash probe for the host and one per
    /// parent domain (for files with `subdomains: true`).
    pub fn file_for<'u>(&self, url: &'u str) -> Option<(&RuleFile, &'u str)> {
        let (host, path) = split_url(url)?;
        let host = host.strip_prefix("www.").unwrap_or(&host);
        if let Some(&(i, _)) = self.hosts.get(host) {
            return Some((&self.files[i], path));
        }
        let mut rest = host;
        while let Some(dot) = rest.find('.') {
            rest = &rest[dot + 1..];
            if let Some(&(i, true)) = self.hosts.get(rest) {
                return Some((&self.files[i], path));
            }
        }
        None
    }
}

impl Rule {
    /// Whether the rule's `path_prefix` / `path_glob` accept this URL path.
    pub fn url_matches(&self, path: &str) -> bool {
        self.path_prefix
            .as_deref()
            .is_none_or(|p| path.starts_with(p))
            && self
                .path_glob
                .as_deref()
                .is_none_or(|g| glob_match(g, path))
    }
}

/// Lower-case, no trailing dot, IDNs in punycode.
pub fn normalize_host(host: &str) -> Option<String> {
    let h = host.trim().trim_end_matches('.').to_lowercase();
    if h.is_empty() || h.contains(['/', ' ', ':', '@']) {
        return None;
    }
    let h = if h.is_ascii() {
        h
    } else {
        url::Url::parse(&format!("http://{h}/"))
            .ok()?
            .host_str()?
            .to_string()
    };
    Some(h)
}

/// Host (lower-case) and path (without query or fragment) of a URL, without a full
/// URL parse: this runs for every page.
pub(super) fn split_url(url: &str) -> Option<(std::borrow::Cow<'_, str>, &str)> {
    let rest = &url[url.find("://")? + 3..];
    let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let authority = &rest[..end];
    let authority = authority.rsplit('@').next().unwrap_or(authority);
    let host = match authority.rfind(':') {
        Some(p) if !authority.ends_with(']') => &authority[..p],
        _ => authority,
    };
    let host = host.trim_end_matches('.');
    let path_and_more = &rest[end..];
    let path_end = path_and_more
        .find(['?', '#'])
        .unwrap_or(path_and_more.len());
    let path = if path_end == 0 {
        "/"
    } else {
        &path_and_more[..path_end]
    };
    let host = if host
        .bytes()
        .any(|b| b.is_ascii_uppercase() || !b.is_ascii())
    {
        std::borrow::Cow::Owned(normalize_host(host)?)
    } else {
        std::borrow::Cow::Borrowed(host)
    };
    Some((host, path))
}

/// `*` matches any run of characters (including `/`); everything else literally; the
/// whole path must match.
pub(super) fn glob_match(pattern: &str, text: &str) -> bool {
    let (p, t) = (pattern.as_bytes(), text.as_bytes());
    let (mut pi, mut ti) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while ti < t.len() {
        if pi < p.len() && p[pi] == b'*' {
            star = Some((pi, ti));
            pi += 1;
        } else if pi < p.len() && p[pi] == t[ti] {
            pi += 1;
            ti += 1;
        } else if let Some((sp, st)) = star {
            pi = sp + 1;
            ti = st + 1;
            star = Some((sp, st + 1));
        } else {
            return false;
        }
    }
    p[pi..].iter().all(|&c| c == b'*')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn globs_and_urls() {
        assert!(glob_match("/news/*.print.html", "/news/a/b.print.html"));
        assert!(!glob_match("/news/*.print.html", "/news/a.html"));
        assert!(glob_match("*", "/"));
        assert_eq!(
            split_url("http://u@Www.X.org:8080/a/b?c#d").map(|(h, p)| (h.into_owned(), p)),
            Some(("www.x.org".into(), "/a/b"))
        );
        assert_eq!(
            split_url("https://x.org").map(|(h, p)| (h.into_owned(), p)),
            Some(("x.org".into(), "/"))
        );
        assert_eq!(
            normalize_host("Президент.РФ").as_deref(),
            Some("xn--d1abbgf6aiiy.xn--p1ai")
        );
    }
}
