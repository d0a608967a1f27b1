//! Grouping pages by URL prefix: pages whose URLs agree up to the last path segment
//! (`http://site.ru/a/b/c1.html`, `http://site.ru/a/b/c2.html`) share a template more
//! often than not, which is what cross-page boilerplate removal (Infholder) relies on.

/// How deep the group key goes into the URL path.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GroupDepth {
    /// All directory segments: the URL up to its last segment (the design's definition).
    #[default]
    Parent,
    /// At most this many leading directory segments (0 = the host alone).
    Segments(usize),
}

impl std::str::FromStr for GroupDepth {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        if s == "parent" {
            return Ok(GroupDepth::Parent);
        }
        s.parse::<usize>()
            .map(GroupDepth::Segments)
            .map_err(|_| format!("group depth must be `parent` or a number, not `{s}`"))
    }
}

/// The group key of a URL: `host[:port]/dir1/dir2/`. Scheme, query, fragment and
/// `www.` are left out, so that http/https and print variants (`?print=1`) of a page
/// fall into the same group. An unparsable URL is its own group.
pub fn group_key(url: &str, depth: GroupDepth) -> String {
    let Ok(parsed) = url::Url::parse(url) else {
        return url.to_string();
    };
    let host = parsed.host_str().unwrap_or("");
    let host = host.strip_prefix("www.").unwrap_or(host);
    let mut key = String::with_capacity(url.len());
    key.push_str(host);
    if let Some(port) = parsed.port() {
        key.push(':');
        key.push_str(&port.to_string());
    }
    key.push('/');
    let segments: Vec<&str> = parsed
        .path_segments()
        .map(|s| s.collect())
        .unwrap_or_default();
    // The last segment names the page itself (possibly empty for `/dir/`).
    let dirs = &segments[..segments.len().saturating_sub(1)];
    let take = match depth {
        GroupDepth::Parent => dirs.len(),
        GroupDepth::Segments(n) => n.min(dirs.len()),
    };
    for seg in &dirs[..take] {
        key.push_str(seg);
        key.push('/');
    }
    key
}

/// All group keys of a URL from the deepest (`Parent`) to the host alone: the
/// successively wider groups a page belongs to.
pub fn prefixes(url: &str) -> Vec<String> {
    let deepest = group_key(url, GroupDepth::Parent);
    let Some(slash) = deepest.find('/') else {
        return vec![deepest];
    };
    let dirs = deepest[slash + 1..].matches('/').count();
    (0..=dirs)
        .rev()
        .map(|d| group_key(url, GroupDepth::Segments(d)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pages_in_one_directory_share_a_group() {
        let a = group_key("http://site.ru/a/b/c1.html", GroupDepth::Parent);
        let b = group_key(
            "https://www.site.ru/a/b/c2.html?print=1",
            GroupDepth::Parent,
        );
        assert_eq!(a, "site.ru/a/b/");
        assert_eq!(a, b);
        assert_ne!(
            a,
            group_key("http://site.ru/a/x/c1.html", GroupDepth::Parent)
        );
    }

    #[test]
    fn depth_limits_the_prefix() {
        let url = "http://site.ru/a/b/c/d.html";
        assert_eq!(group_key(url, GroupDepth::Segments(1)), "site.ru/a/");
        assert_eq!(group_key(url, GroupDepth::Segments(0)), "site.ru/");
        assert_eq!(group_key(url, GroupDepth::Segments(9)), "site.ru/a/b/c/");
        assert_eq!(group_key("http://site.ru/", GroupDepth::Parent), "site.ru/");
    }

    #[test]
    fn prefixes_go_from_deepest_to_host() {
        assert_eq!(
            prefixes("http://site.ru/a/b/c.html"),
            ["site.ru/a/b/", "site.ru/a/", "site.ru/"]
        );
        assert_eq!(prefixes("http://site.ru/c.html"), ["site.ru/"]);
    }

    #[test]
    fn depth_parses_from_cli_text() {
        assert_eq!("parent".parse::<GroupDepth>(), Ok(GroupDepth::Parent));
        assert_eq!("2".parse::<GroupDepth>(), Ok(GroupDepth::Segments(2)));
        assert!("x".parse::<GroupDepth>().is_err());
    }
}
