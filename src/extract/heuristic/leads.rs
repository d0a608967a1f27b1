//! The lead above the container. News pages set the lead (standfirst) of a story apart
//! from its body: a bold `<div class=head>` or loose text between the headline and the
//! body's element, often with a photo, a "related" box or the comment count between them.
//! The container is the body (its sum is the largest), and the lead, outside it, was
//! lost: readers and annotators read it as the story's first paragraph.
//!
//! Only on a headed page (`headline.rs`): the paragraphs of evidence right under the
//! headline (the lines the headline test reads), and headings there as long as a
//! paragraph (a subtitle set as `<h2>`, [`LEAD_HEADING_WORDS_FACTOR`]) or, when first
//! under the headline, as long as a short sentence (the deck, [`is_deck`]), when they lie
//! above the first written block, are written before it. The blocks must be unmarked,
//! not template, not rails, not in linked list items (the headline test's own filter),
//! carry no date or time of day (the dateline
//! and byline under a headline: "2012年01月12日 15:20 来源：…", "PAP - 27-12-2011
//! 10:10"), hold fewer words than the written text (a lead is shorter than its story)
//! and not repeat one of its paragraphs.

use super::features::{block_value, link_density};
use super::headline::{lines_under, Headed};
use super::news_lists;
use super::settings::{HeuristicConfig, LEAD_DECK_WORDS_DIVISOR, LEAD_HEADING_WORDS_FACTOR};
use super::structures::Structures;
use super::Pass;
use crate::extract::dom::{Block, BlockKind, ElemId};

/// The blocks of the lead to write before the `written` text, in document order (empty
/// when there is none).
pub(super) fn lead_above<'a>(
    pass: &Pass<'a>,
    headed: Option<Headed>,
    marked: &[ElemId],
    st: &Structures,
    rails: &[bool],
    written: &[(usize, &Block)],
) -> Vec<(usize, &'a Block)> {
    let config = pass.config;
    let (true, Some(headed), Some(&(start, _))) = (config.lead_above_text, headed, written.first())
    else {
        return Vec::new();
    };
    let page = pass.page;
    // A paragraph of evidence, or a heading as long as a paragraph (a subtitle set as
    // `<h2>` under the headline; titles of sections and other stories are shorter).
    let is_lead = |b: &Block| {
        block_value(b, false, config) > 0.0
            || matches!(b.kind, BlockKind::Heading(_))
                && b.words - b.link_words >= LEAD_HEADING_WORDS_FACTOR * config.min_content_words
    };
    let under = lines_under(
        pass,
        marked,
        st,
        headed.headline,
        config.lead_in_headline_box,
    );
    let deck = under
        .first()
        .copied()
        .filter(|&i| config.lead_deck && is_deck(&page.blocks[i], config));
    let lead: Vec<(usize, &'a Block)> = under
        .into_iter()
        .filter(|&i| i < start)
        .map(|i| (i, &page.blocks[i]))
        .filter(|&(i, b)| {
            (is_lead(b) || deck == Some(i))
                && !rails[b.elem as usize]
                && link_density(b) <= config.max_link_density
                // No dateline (in the headline's box too, with `lead_in_headline_box`).
                && !news_lists::is_dated(&b.text)
                && !written.iter().any(|(_, w)| w.text == b.text)
        })
        .collect();
    // Words outside links: a subtitle heading has no value as evidence.
    let words =
        |s: &[(usize, &Block)]| -> u32 { s.iter().map(|(_, b)| b.words - b.link_words).sum() };
    if lead.is_empty() || words(&lead) >= words(written) {
        return Vec::new();
    }
    lead
}

/// The deck: the first line under the headline (`lines_under`'s first, nothing of the
/// page's own between them), set as a heading without links, of at least
/// `min_content_words` / [`LEAD_DECK_WORDS_DIVISOR`] words. News pages put a one-line
/// subtitle there ("Human-to-human infection rare and mild, but good hygiene still
/// important" as an `<h2>`, "За неделю количество простудившихся выросло на 10
/// процентов" as an `<h4>`); it is shorter than a paragraph, so the length test of other
/// headings under the headline (section and teaser titles lower down) misses it.
fn is_deck(b: &Block, config: &HeuristicConfig) -> bool {
    matches!(b.kind, BlockKind::Heading(_))
        && b.link_words == 0
        && b.words * LEAD_DECK_WORDS_DIVISOR >= config.min_content_words
}

#[cfg(test)]
mod tests {
    use super::super::tests::{run, run_without, ARTICLE};
    use super::super::{extract, HeuristicConfig};
    use crate::extract::dom::parse;

    /// A story whose lead sits between the headline and the body, apart from the body by
    /// a box of other stories that outweighs the lead in their common parent.
    fn page(lead: &str) -> String {
        let others: String = (1..=2)
            .map(|i| format!("<p>Other story {i} tells how the cranes of another port lifted a ship years ago, at length.</p>"))
            .collect();
        format!(
            "<html><head><title>Harbour cranes lifted the old ferry out of the water</title></head><body>\
             <div class=page><h1>Harbour cranes lifted the old ferry out of the water</h1>\
             {lead}<div class=related>{others}</div>\
             <div class=body><p>{ARTICLE} First.</p><p>{ARTICLE} Second.</p><p>{ARTICLE} Third.</p></div>\
             </div></body></html>"
        )
    }

    #[test]
    fn the_lead_between_headline_and_body_is_written_first() {
        let lead = "The old ferry was lifted out of the harbour by two cranes on Monday morning.";
        let out = run(&page(&format!("<div class=intro>{lead}</div>")));
        assert!(out.text.starts_with(lead), "{}", out.text);
        assert!(out.text.contains("Third."), "{}", out.text);
        assert!(!out.text.contains("Other story"), "{}", out.text);
        // A subtitle set as a heading, as long as a paragraph.
        let subtitle =
            format!("{lead} The crane operators had waited for calm weather since the spring.");
        let out = run(&page(&format!("<h2>{subtitle}</h2>")));
        assert!(out.text.starts_with(&subtitle), "{}", out.text);
    }

    #[test]
    fn a_short_heading_first_under_the_headline_is_its_deck() {
        for deck in [
            "<h2>Two cranes worked for six hours in calm weather</h2>",
            "<h4>The ferry goes to a museum next year</h4>",
        ] {
            let out = run(&page(deck));
            let text = deck[4..deck.len() - 5].to_string();
            assert!(out.text.starts_with(&text), "{deck}: {}", out.text);
            assert!(out.text.contains("Third."), "{}", out.text);
        }
        // Off: the text starts with the body.
        let config = HeuristicConfig {
            lead_deck: false,
            ..HeuristicConfig::default()
        };
        let html = page("<h2>Two cranes worked for six hours in calm weather</h2>");
        let out = extract(&parse(&html), &config);
        assert!(out.text.starts_with(ARTICLE), "{}", out.text);
    }

    #[test]
    fn datelines_short_lines_and_links_above_the_body_are_no_lead() {
        for line in [
            "<div>Photo: the harbour office</div>",
            "<h2>The harbour</h2>",
            // A section's title lower down, not the first line under the headline.
            "<div>Photo: the harbour office</div>\
             <h2>What the two cranes on the quay can lift, and what the harbour plans next</h2>",
            // A linked heading first under the headline: another story's title.
            "<h2><a href=/x>Cranes lifted a ferry in another port</a></h2>",
            // A kicker of a few words.
            "<h3>Harbour news</h3>",
            "<div>By the harbour office reporter, 12 January 2012, 10:54, updated at noon today</div>",
            "<div><a href=/x>Read the whole series of reports about the harbour and its ferries here</a></div>",
        ] {
            let out = run(&page(line));
            assert!(out.text.starts_with(ARTICLE), "{line}: {}", out.text);
        }
    }
    #[test]
    fn a_standfirst_in_the_headline_box_is_written_only_when_asked() {
        let lead = "The old ferry was lifted out of the harbour by two cranes on Monday morning.";
        let html = format!(
            "<html><head><title>Harbour cranes lifted the old ferry out of the water</title></head><body>\
             <article><header class=article-header><h1>Harbour cranes lifted the old ferry out of the water</h1>\
             <p class=lead>{lead}</p><div class=byline>By the harbour reporter, 12 May 2021</div></header>\
             <div class=body><p>{ARTICLE} First.</p><p>{ARTICLE} Second.</p><p>{ARTICLE} Third.</p></div>\
             </article></body></html>"
        );
        // By default the marked header is left out, standfirst and all.
        let out = run(&html);
        assert!(out.text.starts_with(ARTICLE), "{}", out.text);
        // Asked for, the standfirst comes first, and the dated byline beside it stays out.
        let on = run_without(&html, |c| c.lead_in_headline_box = true);
        assert!(on.starts_with(lead), "{on}");
        assert!(!on.contains("harbour reporter"), "{on}");
        assert!(on.contains("Third."), "{on}");
    }
}
