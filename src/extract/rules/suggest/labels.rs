//! Label `remove` XPaths: a line inside the content that the answer leaves out and that
//! starts with the same words on several pages though the rest of it differs ("Read
//! also: <a>another story</a>", "Photo: an agency", "Related:"). No id or class names
//! such a line (a bare `<p>`), and its text is not the same from page to page, so the
//! template removals of `remove.rs` miss it; its leading words are what a person would
//! name it by: `//p[starts-with(normalize-space(.), 'Read also:')]`.
//!
//! A label is the first one to [`MAX_LABEL_WORDS`] words of the element's text
//! (`normalize-space`d, as the XPath reads it), or its text up to and including its first
//! colon; it ends before any other whitespace (a no-break space a reviewer could not see
//! in the literal). `remove.rs` makes an XPath of each label that starts such lines on
//! [`MIN_REMOVE_PAGES`](super::remove::MIN_REMOVE_PAGES) pages or more, and keeps it only
//! where it cleans pages without cutting the answer, as any other removal.

use std::collections::BTreeSet;

use super::steps::tag;
use crate::extract::xpath_fast::{normalize_space, Arena};

/// Words of a label at most: "Read also:", "See more on this:". A longer prefix is the
/// line's own text.
const MAX_LABEL_WORDS: usize = 3;
/// Characters of a label at most.
const MAX_LABEL_CHARS: usize = 40;
/// Letters a label needs: a label of one or two letters ("A", "В") starts too many
/// sentences.
const MIN_LABEL_LETTERS: usize = 3;
/// Colons that end a label: ASCII, and the full-width one of Chinese and Japanese text
/// ("（責任編輯：").
const COLONS: &[char] = &[':', '：'];
/// Cost of a label XPath among removal candidates: after an id, a class word or a
/// positional step (0–3), which name a box rather than its words.
const LABEL_COST: u32 = 4;

/// The cost of `label` as a removal candidate, lowest for what a person names such a
/// line by: its text up to the colon ("Read also:"); then two words ("More from"), which
/// also start the lines the drafting pages did not show where a third word would be the
/// line's own ("More from Ann"); then three; then one ("More", "All"), which starts too
/// many sentences of other pages.
pub(super) fn cost(label: &str) -> u32 {
    if label.ends_with(COLONS) {
        return LABEL_COST;
    }
    match label.split(' ').count() {
        2 => LABEL_COST + 1,
        3 => LABEL_COST + 2,
        _ => LABEL_COST + 3,
    }
}

/// The labels of element `i`'s text, shortest first.
pub(super) fn labels(arena: &Arena, i: u32) -> Vec<String> {
    let text = normalize_space(&arena.string_value(i));
    // Up to the first whitespace that `normalize-space` leaves (a no-break space).
    let text = match text
        .char_indices()
        .find(|(_, c)| c.is_whitespace() && *c != ' ')
    {
        Some((k, _)) => &text[..k],
        None => text.as_str(),
    };
    let mut out = BTreeSet::new();
    let mut end = 0;
    for (n, w) in text.split(' ').take(MAX_LABEL_WORDS).enumerate() {
        end += w.len() + usize::from(n > 0);
        out.insert(text[..end].to_string());
    }
    if let Some((k, c)) = text.char_indices().find(|&(_, c)| COLONS.contains(&c)) {
        out.insert(text[..k + c.len_utf8()].to_string());
    }
    let mut out: Vec<String> = out
        .into_iter()
        .filter(|l| {
            l.chars().count() <= MAX_LABEL_CHARS
                && l.chars().filter(|c| c.is_alphabetic()).count() >= MIN_LABEL_LETTERS
        })
        .collect();
    out.sort_by_key(|l| l.len());
    out
}

/// `//tag[starts-with(normalize-space(.), 'label')]` for element `i`'s tag, the literal
/// in whichever quotes it does not hold (`None` when it holds both).
pub(super) fn xpath(arena: &Arena, i: u32, label: &str) -> Option<String> {
    let quote = if !label.contains('\'') {
        '\''
    } else if !label.contains('"') {
        '"'
    } else {
        return None;
    };
    Some(format!(
        "//{}[starts-with(normalize-space(.), {quote}{label}{quote})]",
        tag(arena, i)
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extract::dom;

    fn labels_of(html: &str) -> Vec<String> {
        let page = dom::parse_page(html);
        let arena = Arena::build(&page.tree);
        let p = (0..arena.len() as u32)
            .find(|&i| arena.name(i).is_some_and(|n| &**n == "p"))
            .unwrap();
        labels(&arena, p)
    }

    #[test]
    fn labels_are_the_leading_words_and_the_text_to_the_colon() {
        assert_eq!(
            labels_of("<p>  Read   also: <a href=/x>Another story here</a></p>"),
            vec!["Read", "Read also:", "Read also: Another"]
        );
        assert_eq!(cost("Read also:"), 4);
        assert_eq!(cost("More from"), 5);
        assert_eq!(cost("More from Ann"), 6);
        assert_eq!(cost("More"), 7);
        // A colon inside a word (a `<br>` leaves no space); a no-break space ends it.
        assert_eq!(
            labels_of("<p><b>Catalogue:<br><a href=/>Sites</a></b></p>"),
            vec!["Catalogue:", "Catalogue:Sites"]
        );
        assert_eq!(
            labels_of("<p><b>Links&nbsp;on this:</b></p>"),
            vec!["Links"]
        );
        // Too few letters, or too long.
        assert!(labels_of("<p>A: b</p>").is_empty());
        assert_eq!(
            labels_of("<p>（責任編輯：趙晗）</p>"),
            vec!["（責任編輯：", "（責任編輯：趙晗）"]
        );
        assert_eq!(
            labels_of(&format!("<p>{} b</p>", "x".repeat(50))),
            Vec::<String>::new()
        );
    }

    #[test]
    fn the_xpath_quotes_what_the_label_does_not_hold() {
        let page = dom::parse_page("<p>x</p>");
        let arena = Arena::build(&page.tree);
        let p = (0..arena.len() as u32)
            .find(|&i| arena.name(i).is_some_and(|n| &**n == "p"))
            .unwrap();
        assert_eq!(
            xpath(&arena, p, "Read also:").as_deref(),
            Some("//p[starts-with(normalize-space(.), 'Read also:')]")
        );
        assert_eq!(
            xpath(&arena, p, "Don't miss").as_deref(),
            Some("//p[starts-with(normalize-space(.), \"Don't miss\")]")
        );
        assert_eq!(xpath(&arena, p, "'\""), None);
    }
}
