//! The lead above the container. News pages set the lead (standfirst) of a story apart
//! from its body: a bold `<div class=head>` or loose text between the headline and the
//! body's element, often with a photo, a "related" box or the comment count between them.
//! The container is the body (its sum is the largest), and the lead, outside it, was
//! lost: readers and annotators read it as the story's first paragraph.
//!
//! Only on a headed page (`headline.rs`): the paragraphs of evidence right under the
//! headline (the lines the headline test reads), and headings there as long as a
//! paragraph (a subtitle set as `<h2>`, [`LEAD_HEADING_WORDS_FACTOR`]), when they lie
//! above the first written block, are written before it. The blocks must be unmarked,
//! not template, not rails, not in linked list items (the headline test's own filter),
//! carry no date or time of day (the dateline
//! and byline under a headline: "2012年01月12日 15:20 来源：…", "PAP - 27-12-2011
//! 10:10"), hold fewer words than the written text (a lead is shorter than its story)
//! and not repeat one of its paragraphs.

use super::features::{block_value, link_density};
use super::groups::Structures;
use super::headline::{lines_under, Headed};
use super::news_lists;
use super::settings::LEAD_HEADING_WORDS_FACTOR;
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
    let lead: Vec<(usize, &'a Block)> = lines_under(pass, marked, st, headed.headline)
        .into_iter()
        .filter(|&i| i < start)
        .map(|i| (i, &page.blocks[i]))
        .filter(|&(_, b)| {
            is_lead(b)
                && !rails[b.elem as usize]
                && link_density(b) <= config.max_link_density
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

#[cfg(test)]
mod tests {
    use super::super::tests::{run, ARTICLE};

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
    fn datelines_short_lines_and_links_above_the_body_are_no_lead() {
        for line in [
            "<div>Photo: the harbour office</div>",
            "<h2>The harbour</h2>",
            "<h2>What the two cranes on the quay can lift, and what the harbour plans next</h2>",
            "<div>By the harbour office reporter, 12 January 2012, 10:54, updated at noon today</div>",
            "<div><a href=/x>Read the whole series of reports about the harbour and its ferries here</a></div>",
        ] {
            let out = run(&page(line));
            assert!(out.text.starts_with(ARTICLE), "{line}: {}", out.text);
        }
    }
}
