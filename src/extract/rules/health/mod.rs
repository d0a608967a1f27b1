//! Rule health: what each rule selects on a set of pages, so that an operator sees which
//! rules a site's layout change broke (`thresher rules test --pages`). [`probe`] measures
//! one page under its rule (the kept words, and per `content` / `remove` XPath the nodes,
//! words and first words selected, through sxd-xpath, the reference engine);
//! [`baseline`] keeps those measures in a JSONL file to compare later runs with;
//! [`findings`] turns probes (and a baseline) into breakages and rules that select nothing
//! on most pages of their site.

pub mod baseline;
pub mod findings;

use super::eval::PageTrees;
use super::try_xpath::{try_xpaths, TriedValue};
use super::{RuleSet, XpathSrc};
use crate::extract::dom::ParsedPage;

/// Characters of text kept as an excerpt (enough to recognise the text in a report).
pub const EXCERPT_CHARS: usize = 160;

/// What one XPath of a rule selected on a page.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct XpathProbe {
    /// `content` or `remove`.
    pub role: String,
    pub xpath: String,
    /// `file.yaml:line` of the XPath.
    pub place: String,
    pub nodes: usize,
    pub words: u64,
    pub excerpt: String,
    /// The XPath failed or was over the budget on this page.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// What a page's rule kept on it.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct PageProbe {
    /// The rule file's name (`example.com` for `example.com.yaml`) and the rule's
    /// (none when the site has a file but no rule of it takes the page).
    pub file: String,
    pub rule: Option<String>,
    /// `file.yaml:line` of the rule.
    #[serde(default)]
    pub place: String,
    /// The page's file (as given) and URL.
    pub page: String,
    pub url: String,
    /// Words the rule kept (after `remove`), as a run counts them, and their start.
    pub words: u64,
    pub excerpt: String,
    /// The rule's `min_words`: fewer kept words is a breakage in a run too.
    pub min_words: u64,
    pub xpaths: Vec<XpathProbe>,
}

/// Words as the rules count them: runs of letters and digits.
pub fn count_words(text: &str) -> u64 {
    let mut n = 0;
    let mut inside = false;
    for c in text.chars() {
        let a = c.is_alphanumeric();
        if a && !inside {
            n += 1;
        }
        inside = a;
    }
    n
}

/// The first [`EXCERPT_CHARS`] characters of `text`, white space collapsed.
pub fn excerpt(text: &str) -> String {
    let flat: Vec<&str> = text.split_whitespace().collect();
    let flat = flat.join(" ");
    match flat.char_indices().nth(EXCERPT_CHARS) {
        Some((i, _)) => format!("{}…", &flat[..i]),
        None => flat,
    }
}

/// The site's file and the rule a page takes (its URL, `path_*` and `when`), as a run
/// chooses it; `None` when the page's site has no rule file, and `Some((file, None))`
/// when it has one but no rule of it matches the page.
pub fn rule_of(set: &RuleSet, page: &ParsedPage, url: &str) -> Option<(usize, Option<usize>)> {
    let (file, path) = set.file_for(url)?;
    let fi = set.files.iter().position(|f| std::ptr::eq(f, file))?;
    let trees = PageTrees::new(page);
    let ri = file.rules.iter().position(|rule| {
        rule.url_matches(path)
            && rule
                .when
                .is_none_or(|w| set.eval_bool(w, &trees).unwrap_or(false))
    });
    Some((fi, ri))
}

/// What the rule of `url` keeps on `page` (`label` names the page's file); `None` when
/// the page's site has no rule file.
pub fn probe(set: &RuleSet, page: &ParsedPage, url: &str, label: &str) -> Option<PageProbe> {
    let (fi, ri) = rule_of(set, page, url)?;
    let file = &set.files[fi];
    let Some(ri) = ri else {
        return Some(PageProbe {
            file: file.name.clone(),
            rule: None,
            place: file.path.display().to_string(),
            page: label.to_string(),
            url: url.to_string(),
            words: 0,
            excerpt: String::new(),
            min_words: 0,
            xpaths: Vec::new(),
        });
    };
    let rule = &file.rules[ri];
    let (content, remove) = super::rule_xpaths(set, fi, ri);
    let (kept, removed, text) = try_xpaths(page, &content, &remove, set.xpath_budget);
    let place = |x: &XpathSrc| format!("{}:{}", file.path.display(), x.line);
    let srcs = rule
        .content
        .iter()
        .chain(&rule.remove)
        .map(|&i| &set.xpaths[i]);
    let roles = std::iter::repeat_n("content", kept.len())
        .chain(std::iter::repeat_n("remove", removed.len()));
    let xpaths = kept
        .iter()
        .chain(&removed)
        .zip(srcs)
        .zip(roles)
        .map(|((t, src), role)| {
            let (nodes, body, error) = match &t.result {
                Ok(TriedValue::Nodes(ns)) => {
                    let body: Vec<&str> = ns.iter().map(|(_, s)| s.as_str()).collect();
                    (ns.len(), body.join("\n"), None)
                }
                Ok(TriedValue::Scalar(s)) => (0, s.clone(), None),
                Err(e) => (0, String::new(), Some(e.clone())),
            };
            XpathProbe {
                role: role.to_string(),
                xpath: t.expr.clone(),
                place: place(src),
                nodes,
                words: count_words(&body),
                excerpt: excerpt(&body),
                error,
            }
        })
        .collect();
    Some(PageProbe {
        file: file.name.clone(),
        rule: Some(rule.name.clone()),
        place: format!("{}:{}", file.path.display(), rule.line),
        page: label.to_string(),
        url: url.to_string(),
        words: count_words(&text),
        excerpt: excerpt(&text),
        min_words: rule.min_words,
        xpaths,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_and_excerpts() {
        assert_eq!(count_words("Hello, world! 42 a-b"), 5);
        assert_eq!(excerpt(" a \n b "), "a b");
        let long = "x".repeat(EXCERPT_CHARS + 5);
        assert_eq!(excerpt(&long).chars().count(), EXCERPT_CHARS + 1);
    }
}
