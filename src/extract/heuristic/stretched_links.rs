//! Cards under a stretched link: a teaser whose whole box is one link laid over it by CSS
//! (`<a href=… class="overlay"></a>` beside the unlinked kicker, title and snippet)
//! carries no link words in the markup, so a list of such teasers reads as prose and can
//! outweigh the article beside it. With `stretched_link_cards`, the words of a short card
//! holding an empty `<a href>` ([`PageDom::empty_links`]) count as link words, the card's
//! first line as its linked title: what a reader clicking anywhere on the card gets.
//! Only cards that come in lists count (at least `min_list_items` of one kind).

use super::settings::{STRETCHED_CARD_CLIMB, STRETCHED_CARD_MAX_WORDS};
use super::tree::{in_subtrees, sum_up};
use super::HeuristicConfig;
use crate::extract::dom::{classify, BlockKind, ElemId, PageDom, TagClass, NO_ELEM};

/// The page with the words of its stretched-link cards counted as link words, or `None`
/// when the switch is off or the page has no such card (the page is used as it is).
/// Linear in the page: one pass over blocks and elements for word sums, one for the
/// cards' subtrees.
pub(super) fn with_card_links(page: &PageDom, config: &HeuristicConfig) -> Option<PageDom> {
    if !config.stretched_link_cards || page.empty_links.is_empty() {
        return None;
    }
    let n = page.elements.len();
    let mut words = vec![0.0; n];
    for b in &page.blocks {
        words[b.elem as usize] += f64::from(b.words);
    }
    sum_up(page, &mut words);
    // Cards come in lists: a card kind (tag and class, `Element::sig`) counts when at
    // least `min_list_items` cards of it hold an empty link. A lone icon link (a help
    // button beside a product's price, "back to top") makes no card.
    let mut cards: Vec<ElemId> = page
        .empty_links
        .iter()
        .filter_map(|&link| card_of(page, &words, link))
        .collect();
    cards.sort_unstable();
    cards.dedup();
    let mut per_kind: std::collections::HashMap<u32, usize> = std::collections::HashMap::new();
    for &c in &cards {
        *per_kind.entry(page.elements[c as usize].sig).or_default() += 1;
    }
    let mut is_card = vec![false; n];
    let mut any = false;
    for &c in &cards {
        if per_kind[&page.elements[c as usize].sig] >= config.min_list_items as usize {
            is_card[c as usize] = true;
            any = true;
        }
    }
    if !any {
        return None;
    }
    // Inside a card: the card itself or any descendant.
    let card = in_subtrees(page, |e| is_card[e]);
    let mut blocks = page.blocks.clone();
    for b in blocks.iter_mut().filter(|b| card[b.elem as usize]) {
        b.link_words = b.words;
        b.lead_link_words = b.words;
        b.first_unlinked = 0;
        b.links = b.links.max(1);
    }
    Some(PageDom {
        elements: page.elements.clone(),
        blocks,
        title: page.title.clone(),
        meta_title: page.meta_title.clone(),
        site_name: page.site_name.clone(),
        meta_url: page.meta_url.clone(),
        body: page.body,
        truncated_depth: page.truncated_depth,
        frames: page.frames,
        og_type: page.og_type.clone(),
        ld_product: page.ld_product,
        entry_fields: page.entry_fields.clone(),
        message_fields: page.message_fields.clone(),
        empty_links: page.empty_links.clone(),
        // The heuristic reads no markup; the caller renders from the page it parsed.
        markup: None,
        boxes: page.boxes.clone(),
    })
}

/// The card an empty link in element `link` stands for: that element, or when it has no
/// text its nearest ancestor with some (within [`STRETCHED_CARD_CLIMB`] levels), if that
/// holds at most [`STRETCHED_CARD_MAX_WORDS`] words and is no paragraph or heading (an
/// empty anchor inside running text is no card).
fn card_of(page: &PageDom, words: &[f64], link: ElemId) -> Option<ElemId> {
    let mut e = link;
    for _ in 0..STRETCHED_CARD_CLIMB {
        if words[e as usize] > 0.0 {
            break;
        }
        let parent = page.elements[e as usize].parent;
        if parent == NO_ELEM {
            return None;
        }
        e = parent;
    }
    let w = words[e as usize];
    let tag = &*page.elements[e as usize].tag;
    let running_text = matches!(
        classify(tag),
        TagClass::Block(BlockKind::Paragraph | BlockKind::Heading(_))
    );
    (w > 0.0 && w <= STRETCHED_CARD_MAX_WORDS as f64 && !running_text).then_some(e)
}

#[cfg(test)]
mod tests {
    use super::super::{extract, HeuristicConfig};
    use crate::extract::dom::parse;

    /// A German article under a list of six teaser cards, each under an empty link
    /// (fixtures/cards, CC0).
    const TEASERS: &str = include_str!("../../../fixtures/cards/de-stretched-link-teasers.html");
    /// A French listing page of five such cards and nothing else.
    const LISTING: &str = include_str!("../../../fixtures/cards/fr-stretched-link-listing.html");

    fn carded() -> HeuristicConfig {
        HeuristicConfig {
            stretched_link_cards: true,
            ..HeuristicConfig::default()
        }
    }

    fn uncarded() -> HeuristicConfig {
        HeuristicConfig {
            stretched_link_cards: false,
            ..HeuristicConfig::default()
        }
    }

    #[test]
    fn cards_under_empty_links_are_read_as_links_beside_an_article() {
        let page = parse(TEASERS);
        let out = extract(&page, &carded());
        assert!(
            out.text.contains("Die Wander-App hat ihre Karten erneuert"),
            "{}",
            out.text
        );
        assert!(
            out.text.contains("kostenpflichtigen Version der App"),
            "{}",
            out.text
        );
        assert!(
            !out.text.contains("Zwölf leichte Wanderschuhe"),
            "{}",
            out.text
        );
        assert!(!out.text.contains("Tourentipp Allgäu"), "{}", out.text);
        assert!(!out.text.contains("Hüttenwirt erzählt"), "{}", out.text);
        // Without the switch the cards' unlinked snippets outweigh the short article.
        let off = extract(&page, &uncarded());
        assert!(off.text.contains("Hüttenwirt erzählt"), "{}", off.text);
    }

    #[test]
    fn a_listing_of_such_cards_keeps_them() {
        let out = extract(&parse(LISTING), &carded());
        assert!(
            out.text.contains("Trois refuges ouverts tout l'hiver"),
            "{}",
            out.text
        );
        assert!(
            out.text.contains("Elle monte au refuge en juin"),
            "{}",
            out.text
        );
    }

    #[test]
    fn only_empty_links_of_short_repeated_cards_count() {
        let page = parse(TEASERS);
        let config = carded();
        let adjusted = super::with_card_links(&page, &config).expect("cards found");
        // Every card block is link text now; the article's paragraphs are untouched.
        for (b, a) in page.blocks.iter().zip(&adjusted.blocks) {
            if b.text.contains("Wander-App") || b.text.contains("Unterwegs lassen") {
                assert_eq!(a.link_words, b.link_words, "{}", b.text);
            }
            if b.text.contains("Rundweg über drei Almen") {
                assert_eq!(a.link_words, a.words, "{}", b.text);
            }
        }
        // A lone icon link beside a price makes no card, nor do links with text.
        let lone = parse(
            "<body><div class=price><a href=/help class=icon></a>Preis 97 Euro, inkl. MwSt.</div>\
             <p>Ein Absatz mit <a href=/x>einem Link</a> darin.</p></body>",
        );
        assert!(super::with_card_links(&lone, &config).is_none());
        // Off: the page is used as it is.
        assert!(super::with_card_links(&page, &uncarded()).is_none());
    }
}
