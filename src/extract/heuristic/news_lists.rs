//! Lists of other news known by their shape, whatever their markup: a run of entries that
//! each pair a date or a time of day with a linked headline ("10:54" over
//! `<a>Other story</a>`, "10.04.2013 <a>Other story</a>", a headline over its date). A
//! site's "latest news" column, "other articles" and "more on the subject" lists are
//! written this way in table rows, `<br>`-separated lines or divs; inside the article's
//! own element (a flat table cell that holds the text and the list) the tail cut of
//! [`article_edges`](super::article_edges), which looks for a long run outside that
//! element, does not see them. An article's own prose rarely links a headline beside each
//! of several dates in a row; a comment thread's dated bylines are not links.

use super::dated_posts::has_time_of_day;
use super::features::{block_value, link_density};
use super::settings::{
    HeuristicConfig, NEWS_DATE_LINE_MAX_WORDS, NEWS_ENTRY_GAP, NEWS_HEADLINE_MIN_WORDS,
    NEWS_LIST_MIN_ENTRIES,
};
use crate::extract::dom::{Block, PageDom};
use crate::extract::metadata::dates;

/// For each page block, whether a news list starts there: the first block of the first
/// of at least [`NEWS_LIST_MIN_ENTRIES`] dated entries, each within [`NEWS_ENTRY_GAP`]
/// blocks of the one before (a topic line or a short snippet may sit between them, no
/// paragraph of content evidence).
pub(super) fn news_list_starts(page: &PageDom, config: &HeuristicConfig) -> Vec<bool> {
    let blocks = &page.blocks;
    let mut starts = vec![false; blocks.len()];
    // Each block is asked up to three times (as itself and beside its neighbours).
    let is_linked: Vec<bool> = blocks
        .iter()
        .map(|b| is_linked_headline(b, config))
        .collect();
    let linked = |i: usize| is_linked.get(i).copied().unwrap_or(false);
    // Each entry as (its first block, its date's block, how many entries it holds: a
    // link-dense block of `<br>`-separated lines holds one per dated line).
    // The shape is tested before the date: looking for a date in every paragraph was 3.6 %
    // of extraction's instructions on ScrapingHub.
    let mut entries: Vec<(usize, usize, usize)> = (0..blocks.len())
        .filter(|&i| blocks[i].words > 0)
        .filter_map(|i| {
            let b = &blocks[i];
            let short = b.words <= NEWS_DATE_LINE_MAX_WORDS;
            let entry = if linked(i) {
                (i, i, 0)
            } else if short && i > 0 && linked(i - 1) {
                (i - 1, i, 1)
            } else if short && linked(i + 1) {
                (i, i, 1)
            } else {
                return None;
            };
            if !is_dated(&b.text) {
                return None;
            }
            if entry.2 == 0 {
                let lines = b.text.lines().filter(|l| is_dated(l)).count();
                return Some((i, i, lines.max(1)));
            }
            Some(entry)
        })
        .collect();
    // A linked dated line followed by a date line of its own is one entry, not two.
    entries.dedup_by(|next, prev| next.0 <= prev.1);
    let (mut run_first, mut count) = (0, 0);
    for e in 0..entries.len() {
        // A paragraph between two entries (an event's description, a post) makes them
        // items of the page's own listing, not headlines of other news.
        let prose_between = e > 0
            && blocks[entries[e - 1].1 + 1..entries[e].0]
                .iter()
                .any(|b| block_value(b, false, config) > 0.0);
        if e > 0 && (entries[e].1 - entries[e - 1].1 > NEWS_ENTRY_GAP || prose_between) {
            run_first = e;
            count = 0;
        }
        let before = count;
        count += entries[e].2;
        if before < NEWS_LIST_MIN_ENTRIES && count >= NEWS_LIST_MIN_ENTRIES {
            starts[entries[run_first].0] = true;
        }
    }
    starts
}

/// A link-dense block with a headline's worth of link words (not a "more" link).
fn is_linked_headline(b: &Block, config: &HeuristicConfig) -> bool {
    b.link_words >= NEWS_HEADLINE_MIN_WORDS
        && (link_density(b) > config.max_link_density
            || b.link_words as f64
                > config.max_link_density * b.words.saturating_sub(number_words(&b.text)) as f64)
}

/// Words that are only digits: a date and a time of day written beside a headline
/// ("03.11.2011 17:40" is five words) are no prose, so they do not dilute the line's link
/// density (a three-word headline after them is still the line's text).
fn number_words(text: &str) -> u32 {
    if !text.bytes().any(|c| c.is_ascii_digit()) {
        return 0;
    }
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty() && w.chars().all(|c| c.is_ascii_digit()))
        .count() as u32
}

/// Whether a block is only a date or a time of day ("27.11.2011 23:17", "04.01.2012
/// 14:01"): every word of it digits, and a date or time among them. Its numbers are no
/// prose, wherever it stands.
pub(super) fn is_bare_timestamp(b: &Block) -> bool {
    // A letter makes a word that is no number; prose shows one within its first bytes,
    // so this test stops early where the word count below would read the whole block
    // (it runs on every block of every listing item, in each value of a pass).
    b.words > 0
        && !b.text.chars().any(char::is_alphabetic)
        && number_words(&b.text) == b.words
        && is_dated(&b.text)
}

/// Whether a line carries a date or a time of day (`10:54`, `10.04.2013`, `17 января
/// 2012 г.`).
pub(super) fn is_dated(text: &str) -> bool {
    text.bytes().any(|c| c.is_ascii_digit())
        && (has_time_of_day(text) || dates::find_in_text(text, true).is_some())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extract::dom::parse;

    fn starts(html: &str) -> Vec<String> {
        let page = parse(html);
        let s = news_list_starts(&page, &HeuristicConfig::default());
        (0..page.blocks.len())
            .filter(|&i| s[i])
            .map(|i| page.blocks[i].text.clone())
            .collect()
    }

    #[test]
    fn a_bare_timestamp_is_only_a_date_or_a_time() {
        let page = parse(
            "<body><p>27.11.2011 23:17</p><p>05/01/2012 | 09:43</p>\
             <p>Updated 27.11.2011 23:17</p><p>2011</p><p>12 345</p></body>",
        );
        let bare: Vec<bool> = page.blocks.iter().map(is_bare_timestamp).collect();
        assert_eq!(bare, [true, true, false, false, false]);
    }

    #[test]
    fn times_over_linked_headlines_are_a_news_list() {
        let items: String = (0..5)
            .map(|h| format!("<div>1{h}:05</div><div><a href=/n{h}>Ferry timetable changed again {h}</a></div>"))
            .collect();
        assert_eq!(
            starts(&format!("<body><p>Text.</p>{items}</body>")),
            ["10:05"]
        );
    }

    #[test]
    fn dates_beside_linked_headlines_in_one_line_are_a_news_list() {
        let items: String = (0..5)
            .map(|d| {
                format!(
                    "0{}.04.2013 <a href=/n{d}>Harbour dues rise for the season {d}</a><br>",
                    d + 1
                )
            })
            .collect();
        let found = starts(&format!("<body><p>Text.</p><div>{items}</div></body>"));
        assert_eq!(found.len(), 1, "{found:?}");
    }

    #[test]
    fn a_date_and_time_do_not_hide_a_short_linked_headline() {
        // "03.11.2011 17:40" is five words beside a three-word headline: the line is
        // still a headline with its date, not prose with a link in it.
        let items: String = (0..5)
            .map(|d| {
                format!(
                    "<p>0{}.11.2011 17:40 <a href=/n{d}>Harbour dues rise</a></p>",
                    d + 1
                )
            })
            .collect();
        let found = starts(&format!(
            "<body><p>Text.</p><h3>See also</h3>{items}</body>"
        ));
        assert_eq!(found.len(), 1, "{found:?}");
        // A dated sentence with a link in it is prose: no entry.
        let prose: String = (0..5)
            .map(|d| {
                format!(
                    "<p>On 0{}.11.2011 the office said that <a href=/r{d}>the new rules</a> \
                     apply to every ferry.</p>",
                    d + 1
                )
            })
            .collect();
        assert!(starts(&format!("<body>{prose}</body>")).is_empty());
    }

    #[test]
    fn dated_lines_without_links_are_no_news_list() {
        // A comment thread's bylines, a timeline in the article: dates, no linked titles.
        let items: String = (0..6)
            .map(|h| {
                format!(
                    "<p>1{h}:05 17-January-2012</p><p>A reader wrote something about it {h}.</p>"
                )
            })
            .collect();
        assert!(starts(&format!("<body>{items}</body>")).is_empty());
    }

    #[test]
    fn dated_links_with_paragraphs_between_are_no_news_list() {
        // An events listing: each linked event with its date and a description.
        let items: String = (0..6)
            .map(|d| format!("<div><a href=/e{d}>Regional security summit number {d}</a></div><div>June {d}, 2026</div>\
                 <p>Leaders of the region meet to discuss what the coming year will bring to them {d}.</p>"))
            .collect();
        assert!(starts(&format!("<body>{items}</body>")).is_empty());
    }

    #[test]
    fn a_few_dated_links_are_no_list() {
        let items: String = (0..2)
            .map(|h| format!("<div>1{h}:05</div><div><a href=/n{h}>Ferry timetable changed again {h}</a></div>"))
            .collect();
        assert!(starts(&format!("<body>{items}</body>")).is_empty());
    }
}
