//! The page title: the `<h1>` that the `<title>` also names, else `og:title`, else the
//! `<title>` without its site-name part (`Article – Site`).

use super::dom::{BlockKind, PageDom};

pub fn page_title(page: &PageDom) -> String {
    let title = page.title.trim();
    let h1s = page
        .blocks
        .iter()
        .filter(|b| b.kind == BlockKind::Heading(1) && b.words > 0)
        .map(|b| b.text.trim());
    let lower_title = title.to_lowercase();
    for h1 in h1s.clone() {
        if !lower_title.is_empty() && lower_title.contains(&h1.to_lowercase()) {
            return h1.to_string();
        }
    }
    if let Some(meta) = page.meta_title.as_deref().filter(|m| !m.is_empty()) {
        return meta.to_string();
    }
    if !title.is_empty() {
        return strip_site_name(title).to_string();
    }
    h1s.into_iter().next().unwrap_or_default().to_string()
}

/// `Article name | Site` → `Article name`: the longest part between common separators.
fn strip_site_name(title: &str) -> &str {
    const SEPARATORS: [&str; 7] = [" | ", " - ", " – ", " — ", " :: ", " » ", " · "];
    let mut parts = vec![title];
    for sep in SEPARATORS {
        parts = parts.into_iter().flat_map(|p| p.split(sep)).collect();
    }
    let parts: Vec<&str> = parts.into_iter().map(str::trim).collect();
    if parts.len() < 2 {
        return title;
    }
    parts
        .into_iter()
        .max_by_key(|p| p.chars().count())
        .unwrap_or(title)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn h1_named_by_title_wins() {
        let page = super::super::dom::parse(
            "<title>Big news today | The Site</title><h1>Other</h1><h1>Big news today</h1>",
        );
        assert_eq!(page_title(&page), "Big news today");
    }

    #[test]
    fn site_name_is_stripped_from_title() {
        let page = super::super::dom::parse("<title>Site — A much longer article title</title>");
        assert_eq!(page_title(&page), "A much longer article title");
    }
}
