//! The page title. `<title>` usually reads "Page title | Site name" (in either order,
//! with one of several separators) and the page repeats its own title as an `<h1>`,
//! often next to another `<h1>` that is the site's logo. So:
//!
//! 1. find what names the site: `og:site_name`, the host name (`og:url`'s for files), `<h1>`s that are a link
//!    (logos) or that match only the last part of the title;
//! 2. the title's parts without the site name are the candidates; an `<h1>` that says
//!    the same as one of them (in words, not characters: "Quickstart¶", "Best Practices
//!    & Benefits" vs "Best Practices and Benefits") is the title, written as the page
//!    shows it;
//! 3. else `og:title` without the site name, else the first non-site part of `<title>`.
//!    (Taking the page's only `<h1>` here, as trafilatura does, measured worse: a
//!    template's lone heading is as common as an article's.)

use super::dom::{BlockKind, PageDom};

/// Separators between the page's and the site's part of a `<title>`.
const SEPARATORS: [&str; 9] = [
    " | ", " - ", " – ", " — ", " :: ", " » ", " · ", " • ", " / ",
];

/// An `<h1>` is the title when at least this share of its words are in a title part…
pub(crate) const H1_PRECISION: f64 = 0.6;
/// …and it covers at least this share of that part's words.
pub(crate) const H1_COVERAGE: f64 = 0.5;

/// A trailing title part of at most this many words, after at least twice as many, is
/// taken for the site's name when nothing else says which part is.
const SITE_MAX_WORDS: usize = 4;

pub fn page_title(page: &PageDom, url: Option<&str>) -> String {
    // One line: a heading broken with `<br>` reads as one title.
    choose_title(page, url)
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

fn choose_title(page: &PageDom, url: Option<&str>) -> String {
    let site = SiteName::new(page, url);
    let title = page.title.trim();
    let parts: Vec<&str> = split_parts(title)
        .into_iter()
        .filter(|p| !site.names(p))
        .collect();
    let h1s: Vec<&str> = page
        .blocks
        .iter()
        .filter(|b| b.kind == BlockKind::Heading(1) && b.words > b.link_words)
        .map(|b| clean_heading(&b.text))
        .filter(|h| !h.is_empty() && !site.names(h))
        .collect();
    // An <h1> that says what a title part says. One that says only what the last of
    // several parts says names the site ("Defining Traits - The Rust Programming
    // Language" over a book-wide <h1>): that part is dropped, the <h1> not used.
    let part_words: Vec<Vec<String>> = parts.iter().map(|p| words(p)).collect();
    let mut best: Option<(f64, &str)> = None;
    let mut site_like: Vec<&str> = Vec::new();
    for &h1 in &h1s {
        let h = words(h1);
        let matches: Vec<(usize, f64)> = part_words
            .iter()
            .enumerate()
            .filter_map(|(rank, p)| {
                let common = overlap(&h, p) as f64;
                (common >= H1_PRECISION * h.len() as f64 && common >= H1_COVERAGE * p.len() as f64)
                    .then(|| (rank, common / p.len() as f64))
            })
            .collect();
        if parts.len() >= 2 && matches.len() == 1 && matches[0].0 == parts.len() - 1 {
            site_like.push(h1);
            continue;
        }
        for (rank, coverage) in matches {
            // Better coverage wins; among equals, the earlier part (the page's own
            // title comes first by convention).
            let score = coverage - rank as f64 * 1e-3;
            if best.is_none_or(|(s, _)| score > s) {
                best = Some((score, h1));
            }
        }
    }
    if let Some((_, h1)) = best {
        return h1.to_string();
    }
    if let Some(meta) = page.meta_title.as_deref().filter(|m| !m.is_empty()) {
        return without_site(meta, &site, &[]);
    }
    if !title.is_empty() {
        return without_site(title, &site, &site_like);
    }
    h1s.first().map(|h| h.to_string()).unwrap_or_default()
}

/// What names the site rather than the page.
struct SiteName {
    /// Word sequences of `og:site_name` and of logo `<h1>`s (all link).
    names: Vec<Vec<String>>,
    /// The host's labels (hyphens dropped) and the whole host run together.
    host_labels: Vec<String>,
}

impl SiteName {
    fn new(page: &PageDom, url: Option<&str>) -> Self {
        let mut names: Vec<Vec<String>> = Vec::new();
        if let Some(s) = page.site_name.as_deref() {
            names.push(words(s));
        }
        // A heading that is all link is the logo linking home.
        names.extend(
            page.blocks
                .iter()
                .filter(|b| {
                    b.kind == BlockKind::Heading(1) && b.words > 0 && b.link_words >= b.words
                })
                .map(|b| words(clean_heading(&b.text))),
        );
        names.retain(|n| !n.is_empty());
        // Each label without `www` and the last (the suffix), and the whole host.
        let host_labels = url
            .and_then(|u| url::Url::parse(u).ok())
            .filter(|u| u.has_host())
            .or_else(|| {
                page.meta_url
                    .as_deref()
                    .and_then(|u| url::Url::parse(u).ok())
            })
            .and_then(|u| u.host_str().map(str::to_lowercase))
            .map(|h| {
                let labels: Vec<String> = h
                    .split('.')
                    .filter(|l| *l != "www")
                    .map(|l| l.replace('-', ""))
                    .collect();
                let mut out: Vec<String> = labels[..labels.len().saturating_sub(1)].to_vec();
                out.push(labels.concat());
                out
            })
            .unwrap_or_default();
        SiteName { names, host_labels }
    }

    /// Does `text` name the site (and nothing else)?
    fn names(&self, text: &str) -> bool {
        let w = words(text);
        if w.is_empty() {
            return true;
        }
        if self.names.contains(&w) {
            return true;
        }
        // "Bogleheads.org", "davidbau.com", "Arch-Linux": spelt like the host or one of
        // its labels ("Hacker News" for news.ycombinator.com is not caught).
        let joined: String = w.concat();
        self.host_labels.contains(&joined)
    }
}

/// `title` without the parts that name the site (`also_site`: texts known to name it
/// here), as written: "Page | Section | Site" → "Page | Section". With no part known to
/// be the site's, the whole title: a separator may be part of the title itself
/// ("boot — процесс запуска системы").
fn without_site(title: &str, site: &SiteName, also_site: &[&str]) -> String {
    let also: Vec<Vec<String>> = also_site.iter().map(|s| words(s)).collect();
    let parts = split_parts(title);
    let is_site: Vec<bool> = parts
        .iter()
        .map(|p| site.names(p) || also.contains(&words(p)))
        .collect();
    if !is_site.contains(&true) && parts.len() >= 2 {
        // No evidence: a short last part after a much longer title is the usual
        // "Article headline - Site Name".
        let last = words(parts[parts.len() - 1]).len();
        let rest: usize = parts[..parts.len() - 1]
            .iter()
            .map(|p| words(p).len())
            .sum();
        if last <= SITE_MAX_WORDS && rest >= 2 * last.max(1) {
            return span(title, title, parts[parts.len() - 2])
                .trim()
                .to_string();
        }
    }
    let Some(first) = is_site.iter().position(|s| !s) else {
        return title.trim().to_string();
    };
    let last = is_site.iter().rposition(|s| !s).unwrap_or(first);
    span(title, parts[first], parts[last]).to_string()
}

/// The text of `title` from part `from` to the end of part `to` (both slices of it),
/// separators between them included as written.
fn span<'a>(title: &'a str, from: &str, to: &str) -> &'a str {
    let start = from.as_ptr() as usize - title.as_ptr() as usize;
    let end = to.as_ptr() as usize - title.as_ptr() as usize + to.len();
    &title[start..end]
}

/// `Page | Section | Site` → its trimmed, non-empty parts, in order.
pub(crate) fn split_parts(title: &str) -> Vec<&str> {
    let mut parts = vec![title];
    for sep in SEPARATORS {
        parts = parts.into_iter().flat_map(|p| p.split(sep)).collect();
    }
    parts
        .into_iter()
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .collect()
}

/// Heading text without permalink marks (`¶`, `#`) around it.
fn clean_heading(text: &str) -> &str {
    text.trim()
        .trim_matches(|c: char| matches!(c, '¶' | '#' | '§' | '🔗'))
        .trim()
}

/// The text with the page's title as its first line (`with_title`), unless its first line
/// already says it (the title's words begin the line, or the line's words begin the title).
/// Corpora differ on whether an article's text holds its headline: daniel-dev's gold does
/// on 87 % of pages, WCXB's and ScrapingHub's keep the title in a field of its own, as
/// thresher's records do by default. An empty text stays empty: a page without content
/// does not become its title.
pub fn text_with_title(title: &str, text: String) -> String {
    let said = words(title);
    let first = words(text.lines().find(|l| !l.trim().is_empty()).unwrap_or(""));
    let common = said.len().min(first.len());
    if common == 0 || said[..common] == first[..common] {
        return text;
    }
    format!("{title}\n{text}")
}

fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// Size of the multiset intersection of two word lists.
pub(crate) fn overlap(a: &[String], b: &[String]) -> usize {
    let mut rest: Vec<&String> = b.iter().collect();
    let mut n = 0;
    for w in a {
        if let Some(i) = rest.iter().position(|r| *r == w) {
            rest.swap_remove(i);
            n += 1;
        }
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;

    fn title(html: &str, url: Option<&str>) -> String {
        page_title(&super::super::dom::parse(html), url)
    }

    #[test]
    fn title_line_written_first_once() {
        let body = "First paragraph of the story.\nSecond one.".to_string();
        assert_eq!(
            text_with_title("Big news today", body.clone()),
            format!("Big news today\n{body}")
        );
        // The text already starts with the headline (another case, other punctuation).
        let headed = "BIG NEWS, today!\nFirst paragraph.".to_string();
        assert_eq!(text_with_title("Big news today", headed.clone()), headed);
        // A headline line cut short by the page ("Big news…") says the title too.
        let short = "Big news\nFirst paragraph.".to_string();
        assert_eq!(text_with_title("Big news today", short.clone()), short);
        // Not a prefix of a word: "Big" is no "Bigger".
        let other = "Bigger news\nFirst paragraph.".to_string();
        assert_eq!(
            text_with_title("Big news today", other.clone()),
            format!("Big news today\n{other}")
        );
        // Chinese: runs of letters between punctuation compare as words.
        let zh = "今天的大新闻，来源：新华社\n正文第一段。".to_string();
        assert_eq!(text_with_title("今天的大新闻", zh.clone()), zh);
        assert_eq!(text_with_title("Title", String::new()), "");
        assert_eq!(text_with_title("", body.clone()), body);
    }

    #[test]
    fn h1_named_by_title_wins() {
        assert_eq!(
            title(
                "<title>Big news today | The Site</title><h1>Other</h1><h1>Big news today</h1>",
                None
            ),
            "Big news today"
        );
    }

    #[test]
    fn logo_h1_is_the_site_not_the_title() {
        let html = "<title>Certificate vs Certification | Stanford Online</title>\
                    <h1><a href=/>Stanford Online</a></h1><h1>Certificate vs Certification</h1>";
        assert_eq!(title(html, None), "Certificate vs Certification");
        // An h1 that matches only the title's last part is the site's too; then the
        // title's first part is the title.
        let html = "<title>A Beginner's Guide to Skincare – The Southerner</title>\
                    <h1>The Southerner</h1><p>x</p><h1>The Southerner</h1>";
        assert_eq!(title(html, None), "A Beginner's Guide to Skincare");
        let html = "<title>Defining Traits - The Rust Programming Language</title>\
                    <h1>The Rust Programming Language</h1>";
        assert_eq!(title(html, None), "Defining Traits");
    }

    #[test]
    fn h1_matches_in_words_not_characters() {
        let html = "<title>Quickstart — Flask Documentation (3.1.x)</title><h1>Quickstart¶</h1>";
        assert_eq!(title(html, None), "Quickstart");
        let html = "<title>Paid Time Off (PTO) Policies: Best Practices &amp; Benefits | Paycom Blog</title>\
                    <h1>Paid Time-Off Policies: Best Practices and Benefits</h1>";
        assert_eq!(
            title(html, None),
            "Paid Time-Off Policies: Best Practices and Benefits"
        );
    }

    #[test]
    fn site_name_is_stripped_from_title() {
        // Nothing says which part is the site: the whole title, unless the last part
        // is short after a long one.
        assert_eq!(
            title("<title>Site — A much longer article title</title>", None),
            "Site — A much longer article title"
        );
        assert_eq!(
            title(
                "<title>A much longer article title than that - Some Site</title>",
                None
            ),
            "A much longer article title than that"
        );
        assert_eq!(
            title("<title>boot — процесс запуска системы</title>", None),
            "boot — процесс запуска системы"
        );
        let html = "<meta property=og:site_name content=Site><title>Site — A much longer article title</title>";
        assert_eq!(title(html, None), "A much longer article title");
        let html =
            "<title>Investment Strategy Review Request, 2024 Version - Bogleheads.org</title>";
        assert_eq!(
            title(
                html,
                Some("https://www.bogleheads.org/forum/viewtopic.php?t=1")
            ),
            "Investment Strategy Review Request, 2024 Version"
        );
        let html = "<title>Bogleheads.org - Investment Strategy Review Request</title>";
        assert_eq!(
            title(
                html,
                Some("https://www.bogleheads.org/forum/viewtopic.php?t=1")
            ),
            "Investment Strategy Review Request"
        );
    }

    #[test]
    fn russian_titles_work_the_same() {
        let html =
            "<title>Новости дня — Газета</title><h1><a href=/>Газета</a></h1><h1>Новости дня</h1>";
        assert_eq!(title(html, None), "Новости дня");
    }
}
