//! A line that is only a date at the written text's edges: the stamp a site sets above
//! or under the article in an element of its own ("23.10.2018", "Aktualisiert:
//! 11.04.2020, 10:27", "22 de abril de 2022 6:46 PM", "Last updated: 13 July 2020"). It
//! says when the page was published, which the record carries as `published`; it is no
//! line of the text, and annotators leave it out. Only the first and last
//! [`DATE_LINE_EDGE`] written lines are looked at.
//!
//! A date line holds a date with a year (`metadata::dates`: numeric dates, and month
//! names in the twenty-odd languages of `metadata::months`) and at most
//! [`DATE_LINE_MAX_WORDS`] other words (a label such as "Updated", a weekday, a time
//! zone), on one line. Inside the text, a dated line means the text's dates are its own
//! (a thread's posts, a diary's entries, a timeline): then no date line goes.

use super::settings::{HeuristicConfig, DATE_LINE_EDGE, DATE_LINE_MAX_WORDS};
use crate::extract::dom::Block;
use crate::extract::metadata::dates;

/// Characters at most of a date line (a sentence with a date in it is longer).
const DATE_LINE_MAX_CHARS: usize = 80;

/// `written` without the date lines among its first and last [`DATE_LINE_EDGE`] blocks,
/// when it has more blocks than that and no date line stands between them (the dates of
/// a thread's posts or a diary's entries are the text's). Only with `drop_date_lines`.
pub(super) fn without_date_lines<'a>(
    config: &HeuristicConfig,
    written: &[(usize, &'a Block)],
) -> Vec<(usize, &'a Block)> {
    let n = written.len();
    if !config.drop_date_lines || n <= DATE_LINE_EDGE {
        return written.to_vec();
    }
    let edge = |k: usize| k < DATE_LINE_EDGE || k >= n - DATE_LINE_EDGE;
    let dated: Vec<bool> = written.iter().map(|(_, b)| is_date_text(&b.text)).collect();
    if (0..n).any(|k| dated[k] && !edge(k)) {
        return written.to_vec();
    }
    written
        .iter()
        .zip(dated)
        .filter_map(|(&w, d)| (!d).then_some(w))
        .collect()
}

/// Whether `text` is one short line holding a date and at most [`DATE_LINE_MAX_WORDS`]
/// other words.
fn is_date_text(text: &str) -> bool {
    let text = text.trim();
    !text.contains('\n')
        && text.chars().count() < DATE_LINE_MAX_CHARS
        && dates::words_beside_date(text, true).is_some_and(|w| w <= DATE_LINE_MAX_WORDS)
}

#[cfg(test)]
mod tests {
    use super::super::tests::{headed_page, run, run_without, ARTICLE};
    use super::is_date_text;

    #[test]
    fn date_lines_are_known() {
        for line in [
            "23.10.2018",
            "Aktualisiert: 11.04.2020, 10:27",
            "22 de abril de 2022 6:46 PM",
            "Last updated: 13 July 2020",
            "Mittwoch, 01. November 2023 - Handel",
            "2011年12月15日 23:39",
        ] {
            assert!(is_date_text(line), "{line}");
        }
        for line in [
            "The ferry was lifted out of the water on 12 May 2021 after a long week.",
            "Harbour news",
            "12:40",
            "In 2021",
        ] {
            assert!(!is_date_text(line), "{line}");
        }
    }

    #[test]
    fn a_date_line_at_the_texts_edges_goes() {
        let html = headed_page(&format!(
            "<div class=stamp>Published: 12 May 2021, 10:30</div>\
             <p>{ARTICLE} First.</p><p>{ARTICLE} Second.</p><p>{ARTICLE} Third.</p>\
             <p>{ARTICLE} Fourth.</p><div class=stamp>Updated 14.05.2021</div>"
        ));
        let without = run_without(&html, |c| c.drop_date_lines = false);
        assert!(without.contains("Updated 14.05.2021"), "{without}");
        let out = run(&html).text;
        assert!(!out.contains("Published:"), "{out}");
        assert!(!out.contains("Updated 14.05.2021"), "{out}");
        assert!(out.starts_with(ARTICLE), "{out}");
        assert!(out.ends_with("Fourth."), "{out}");
    }

    #[test]
    fn the_dates_of_a_diarys_entries_stay() {
        // A date line between the edges: the dates are the entries' own, and the ones
        // among the first and last lines stay too.
        let html = headed_page(&format!(
            "<p>{ARTICLE} Intro.</p><p>{ARTICLE} More.</p><p>3 June 2021</p>\
             <p>{ARTICLE} One.</p><p>4 June 2021</p><p>{ARTICLE} Two.</p>\
             <p>5 June 2021</p><p>{ARTICLE} Three.</p><p>{ARTICLE} End.</p>"
        ));
        let out = run(&html).text;
        for d in ["3 June 2021", "4 June 2021", "5 June 2021"] {
            assert!(out.contains(&format!("\n{d}\n")), "{out}");
        }
    }
}
