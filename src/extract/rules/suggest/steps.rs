//! One step of a drafted XPath, written as a person would: an element's `id`, a class
//! word, an `itemprop`/`role`, a semantic tag, and only failing those its tag and
//! position under the nearest element that has one of them. What looks generated (a
//! number in it, a hash, a CSS-in-JS prefix) is not stable: the next page, or the next
//! deploy, names it differently.

use crate::extract::xpath_fast::Arena;

/// Class and id prefixes of CSS-in-JS and framework-generated names.
const GENERATED_PREFIXES: &[&str] = &["css-", "sc-", "jsx-", "ember", "yui_", "ng-", "svelte-"];

/// Tags that name the main content by themselves when a page has one of them.
const SEMANTIC_TAGS: &[&str] = &["article", "main"];

/// An `itemprop`/`role` value that names the main content.
const CONTENT_ROLES: &[(&str, &str)] = &[
    ("itemprop", "articleBody"),
    ("itemprop", "text"),
    ("itemprop", "reviewBody"),
    ("itemprop", "description"),
    ("role", "main"),
    ("role", "article"),
];

/// Whether a class word or id looks written by a person and kept across pages: letters,
/// at most one digit, `-`/`_` separators, no generated prefix, no run of mixed case and
/// digits.
pub(super) fn stable_token(t: &str) -> bool {
    let digits = t.chars().filter(|c| c.is_ascii_digit()).count();
    if t.is_empty() || t.len() > 40 || digits > 1 {
        return false;
    }
    if !t
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    {
        return false;
    }
    if !t.chars().next().is_some_and(|c| c.is_ascii_alphabetic()) {
        return false;
    }
    let lower = t.to_ascii_lowercase();
    if GENERATED_PREFIXES.iter().any(|p| lower.starts_with(p)) {
        return false;
    }
    // `bdVaJa`, `xY3kq`: case changes inside a part (not `camelCase` once).
    let case_changes = t
        .as_bytes()
        .windows(2)
        .filter(|w| w[0].is_ascii_lowercase() && w[1].is_ascii_uppercase())
        .count();
    // `SSPGKf`: more capitals than a camel-case word has, mixed with small letters.
    let upper = t.chars().filter(|c| c.is_ascii_uppercase()).count();
    let lower_count = t.chars().filter(|c| c.is_ascii_lowercase()).count();
    case_changes <= 1 && (upper <= 2 || lower_count == 0)
}

/// A step and how much a person would trust it (lower is better: an id 0, a class word
/// 1, a semantic tag 1, a tag with a position 3).
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Step {
    pub(super) text: String,
    pub(super) cost: u32,
}

/// The element's local name.
pub(super) fn tag(arena: &Arena, i: u32) -> String {
    arena.name(i).map(|l| l.to_string()).unwrap_or_default()
}

/// The stable steps naming element `i` by itself: id, content role, class words (each
/// both as the robust word test and, when the attribute is that one word, as an
/// equality), semantic tag.
pub(super) fn own_steps(arena: &Arena, i: u32) -> Vec<Step> {
    let name = tag(arena, i);
    let mut out = Vec::new();
    if let Some(id) = arena.attr(i, "id") {
        let id = id.trim();
        if stable_token(id) {
            out.push(Step {
                text: format!("{name}[@id='{id}']"),
                cost: 0,
            });
        }
    }
    for (attr, value) in CONTENT_ROLES {
        if arena.attr(i, attr).as_deref().map(str::trim) == Some(value) {
            out.push(Step {
                text: format!("{name}[@{attr}='{value}']"),
                cost: 0,
            });
        }
    }
    if let Some(class) = arena.attr(i, "class") {
        let words: Vec<&str> = class.split_ascii_whitespace().collect();
        for w in words.iter().filter(|w| stable_token(w)).take(4) {
            if words.len() == 1 && class == *w {
                out.push(Step {
                    text: format!("{name}[@class='{w}']"),
                    cost: 1,
                });
            }
            out.push(Step {
                text: format!(
                    "{name}[contains(concat(' ', normalize-space(@class), ' '), ' {w} ')]"
                ),
                cost: 1,
            });
        }
    }
    if SEMANTIC_TAGS.contains(&name.as_str()) {
        out.push(Step {
            text: name,
            cost: 1,
        });
    }
    out
}

/// `tag` or `tag[n]` for element `i` among its parent's children of the same name.
pub(super) fn positional_step(arena: &Arena, i: u32) -> Step {
    let name = tag(arena, i);
    let parent = arena.nodes[i as usize].parent;
    let same: Vec<u32> = arena
        .children(parent)
        .filter(|&c| arena.name(c).is_some_and(|n| **n == *name))
        .collect();
    if same.len() <= 1 {
        Step {
            text: name,
            cost: 2,
        }
    } else {
        let n = same.iter().position(|&c| c == i).unwrap_or(0) + 1;
        Step {
            text: format!("{name}[{n}]"),
            cost: 3,
        }
    }
}

/// Ancestors of `i` (parent first), elements only, below the document root.
pub(super) fn ancestors(arena: &Arena, i: u32) -> Vec<u32> {
    let mut out = Vec::new();
    let mut a = arena.nodes[i as usize].parent;
    while a != 0 {
        out.push(a);
        a = arena.nodes[a as usize].parent;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generated_looking_names_are_not_stable() {
        for ok in [
            "post-body",
            "entry_content",
            "content",
            "articleBody",
            "col2",
        ] {
            assert!(stable_token(ok), "{ok}");
        }
        for bad in [
            "post-12345",
            "css-1x2y3z",
            "sc-bdVaJa",
            "a1b2",
            "x9f3e2",
            "",
            "2col",
        ] {
            assert!(!stable_token(bad), "{bad}");
        }
    }
}
