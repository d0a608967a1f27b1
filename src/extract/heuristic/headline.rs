//! The page's headline and what follows it. An article page repeats its title (the
//! `<title>` without the site's name, [`page_title`]) in a line above its text, whatever
//! the era's markup for it (`<h1>`, a bold table cell, a `<font size=4>`), and the text
//! begins right under it. A listing page's title line (the category's name) is followed
//! by its items instead. Boilerpipe's ArticleExtractor uses the same evidence (its
//! document-title match); here it tells a short news article beside link lists from a
//! listing page (see [`listing_page`](super::page_type::listing_page)).

use std::cell::{Cell, OnceCell};

use super::features::block_value;
use super::news_lists;
use super::settings::{
    HeuristicConfig, HEADLINE_BARE_MIN_WORDS, HEADLINE_MAX_WORDS, HEADLINE_MIN_WORDS,
    HEADLINE_SPAN_BLOCKS, HEADLINE_TEXT_BLOCKS,
};
use super::structures::Structures;
use super::Pass;
use crate::extract::dom::{unspaced_word_len, Block, BlockKind, ElemId, NO_ELEM};
use crate::extract::title::{overlap, page_title, split_parts, H1_COVERAGE, H1_PRECISION};

/// A page whose headline is followed by its text: the headline's block index and the
/// article element.
#[derive(Clone, Copy)]
pub(super) struct Headed {
    pub headline: usize,
    pub article: ElemId,
}

/// Whether the first line of the page that says what its title says (else its first
/// `<h1>` sentence) is followed, within [`HEADLINE_TEXT_BLOCKS`] blocks, by a paragraph of
/// content evidence outside marks, template and linked list items; if so, that line and
/// the page's article element: the parent of the element of the first block of that text
/// (that element itself at the root). Only the first such line counts: the title recurs lower
/// in menus, breadcrumbs and "more" lists, where its neighbours say nothing; a line in a
/// marked element or a link (not a heading) is passed over when another line says the
/// title (the story's own entry in a menu or news column listed above the article). The
/// one exception is a later `<h1>` saying the title when the first line heads nothing
/// ([`later_h1_saying_title`]).
pub(super) fn headline_followed_by_text(
    pass: &Pass,
    marked: &[ElemId],
    st: &Structures,
) -> Option<Headed> {
    let line = headline_block(pass, marked)?;
    let followed = |h: usize| {
        let text = text_under(pass, marked, st, h);
        let evidence: f64 = text.iter().map(|&(_, v)| v).sum();
        tracing::debug!("headline block {h} followed by evidence {evidence:.0}");
        (evidence >= pass.config.min_content_words as f64).then_some((h, text))
    };
    let (h, text) = followed(line).or_else(|| {
        let h1 = later_h1_saying_title(pass, marked, line)?;
        followed(h1)
    })?;
    let first = pass.page.blocks[text[0].0].elem;
    let parent = pass.page.elements[first as usize].parent;
    Some(Headed {
        headline: h,
        article: if parent == NO_ELEM { first } else { parent },
    })
}

/// With `later_h1`: an unlinked `<h1>` below the first line that says the title, saying it
/// too. When that first line heads nothing (a slider or a menu at the top lists the
/// story's title as a heading, the article's own `<h1>` comes after it), the page's
/// `<h1>` is its headline. Only an `<h1>`: lower recurrences of the title in "more" lists
/// are links or lesser headings.
fn later_h1_saying_title(pass: &Pass, marked: &[ElemId], first: usize) -> Option<usize> {
    if !pass.config.later_h1 {
        return None;
    }
    let (title, min_words) = title_tokens(pass);
    if title.len() < min_words {
        return None;
    }
    let page = pass.page;
    (first + 1..page.blocks.len()).find(|&i| {
        let b = &page.blocks[i];
        b.kind == BlockKind::Heading(1)
            && b.link_words * 2 <= b.words
            && b.words <= HEADLINE_MAX_WORDS
            && marked[b.elem as usize] == NO_ELEM
            && !pass.is_template(i)
            && says(&match_tokens(&b.text), &title)
    })
}

/// The text right under headline block `h`: the blocks of [`lines_under`] that are
/// content evidence, with their values.
pub(super) fn text_under(
    pass: &Pass,
    marked: &[ElemId],
    st: &Structures,
    h: usize,
) -> Vec<(usize, f64)> {
    lines_under(pass, marked, st, h, false)
        .into_iter()
        .map(|i| (i, block_value(&pass.page.blocks[i], false, pass.config)))
        .filter(|&(_, v)| v > 0.0)
        .collect()
}

/// The lines right under headline block `h`: the next [`HEADLINE_TEXT_BLOCKS`] blocks
/// outside marks, template and linked list items (except the headline's own item: a news
/// item laid out as one box of a row of teaser boxes) that are not link-dense, with the
/// link-dense ones among them, all within [`HEADLINE_SPAN_BLOCKS`]. Marked, template and
/// link-dense blocks do not use up the window: a share bar ("Print", "Email", "Add to
/// Digg", … one list item each), a photo credit and a "Related" link list between the
/// headline and its text are no lines of the page's own.
pub(super) fn lines_under(
    pass: &Pass,
    marked: &[ElemId],
    st: &Structures,
    h: usize,
    in_headline_box: bool,
) -> Vec<usize> {
    let page = pass.page;
    // With `in_headline_box`, lines in the marked box that also holds the headline (the
    // article's own header: `<header>` with the headline and its standfirst) count too.
    let headline_box = marked[page.blocks[h].elem as usize];
    let unmarked = |e: ElemId| {
        marked[e as usize] == NO_ELEM
            || (in_headline_box && headline_box != NO_ELEM && marked[e as usize] == headline_box)
    };
    let in_linked_item =
        |e: usize| st.item_group[e] != u32::MAX && st.groups[st.item_group[e] as usize].linked();
    // The headline's own item: text under the same item as an unlinked headline is that
    // item's article, not a teaser's snippet, whose title would be a link.
    let headline_block = &page.blocks[h];
    let own_item = (headline_block.link_words * 2 <= headline_block.words)
        .then(|| nearest_item(pass, st, headline_block.elem))
        .flatten();
    let in_own_item = |e: ElemId| own_item.is_some_and(|item| is_within(pass, e, item));
    let mut counted = 0;
    (h + 1..page.blocks.len())
        .take(HEADLINE_SPAN_BLOCKS)
        .filter(|&i| {
            let e = page.blocks[i].elem;
            unmarked(e) && !pass.is_template(i) && (!in_linked_item(e as usize) || in_own_item(e))
        })
        .take_while(|&i| {
            let b = &page.blocks[i];
            counted += usize::from(b.link_words * 2 <= b.words);
            counted <= HEADLINE_TEXT_BLOCKS
        })
        .collect()
}

/// With `keep_headline`: the headline line of a headed page when it is among the kept
/// lines above the text (`above`: inside the text's element, not marked, trimmed as
/// leading chrome since a heading is no evidence) and not already in the lead, to be
/// written first. A headline outside the text's element (a page header's, a column's
/// entry) stays out.
pub(super) fn kept_headline<'a>(
    config: &HeuristicConfig,
    headed: Option<Headed>,
    above: &[(usize, &'a Block)],
    lead: &[(usize, &'a Block)],
) -> Option<(usize, &'a Block)> {
    let h = headed.filter(|_| config.keep_headline)?.headline;
    if lead.iter().any(|&(i, _)| i == h) {
        return None;
    }
    above.iter().copied().find(|&(i, _)| i == h)
}

/// The page's headline: the first line (2 to [`HEADLINE_MAX_WORDS`] words, not template)
/// that says what its `<title>` says, else what one of the `<title>`'s parts says, else
/// its first `<h1>` sentence; as a block index.
/// Lines in a `marked` element, and links that are no heading, come last (see
/// [`headline_followed_by_text`]).
pub(super) fn headline_block(pass: &Pass, marked: &[ElemId]) -> Option<usize> {
    let page = pass.page;
    let (title, min_words) = title_tokens(pass);
    // Each line is tokenized once and compared with the title once: the second look
    // (`apart` false) and the title's parts read the answers of the first.
    let tokens: Vec<OnceCell<Vec<String>>> = vec![OnceCell::new(); page.blocks.len()];
    let line = |i: usize, b: &Block| tokens[i].get_or_init(|| match_tokens(&b.text));
    let said: Vec<Cell<Option<bool>>> = vec![Cell::new(None); page.blocks.len()];
    let says_title = |i: usize, b: &Block| {
        *said[i]
            .get()
            .get_or_insert_with(|| says(line(i, b), &title))
    };
    // A page whose `<title>` names only the site or section ("News - Health & Business")
    // still heads its article with an `<h1>` sentence.
    let sentence_h1 = |i: usize, b: &Block| {
        b.kind == BlockKind::Heading(1)
            && b.link_words * 2 <= b.words
            && line(i, b).len() >= HEADLINE_MIN_WORDS
    };
    // The title also recurs above the headline, as a link in a menu or "latest news"
    // column listed before the article (2011 news sites list their day's stories, this
    // one included, in a left column): a line in a marked element or a link that is no
    // heading names the article, it does not head it. Such lines are passed over, and
    // taken only when no other line says the title.
    let candidate = |i: usize, b: &Block, apart: bool| {
        b.words >= 2
            && b.words <= HEADLINE_MAX_WORDS
            && !pass.is_template(i)
            && (!apart || marked[b.elem as usize] == NO_ELEM)
            && (!apart || matches!(b.kind, BlockKind::Heading(_)) || b.link_words * 2 <= b.words)
    };
    let first = |test: &dyn Fn(usize, &Block) -> bool, apart: bool| {
        page.blocks
            .iter()
            .enumerate()
            .position(|(i, b)| candidate(i, b, apart) && test(i, b))
    };
    // The `<title>`'s own parts, each on its own, when the title without the site's name
    // is not said: the site's or section's name may be written in a form `page_title`
    // does not know ("Imprezowe stylizacje gwiazd! > Styl gwiazd", an `og:title` of
    // "v2.imerisia.gr - ΕΛΛΑΔΑ", the article's linked `<h1>` taken for a logo).
    let parts = title_parts(&page.title, &title);
    let says_part = |i: usize, b: &Block| parts.iter().any(|part| says(line(i, b), part));
    let pick = |apart: bool| {
        let by_title = if title.len() >= min_words {
            first(&says_title, apart)
        } else {
            None
        };
        by_title
            .or_else(|| {
                (!parts.is_empty())
                    .then(|| first(&says_part, apart))
                    .flatten()
            })
            .or_else(|| first(&sentence_h1, apart))
    };
    pick(true).or_else(|| pick(false))
}

/// The page title's tokens (without the site's name and a trailing date) and the fewest
/// a headline's title has: a title that is one phrase written as a sentence may be
/// short; a category's name or one of several parts ("Air Fryer Recipes Archives",
/// "News - Health & Business") must say more (see the settings).
fn title_tokens(pass: &Pass) -> (Vec<String>, usize) {
    let full_title = page_title(pass.page, None);
    let title_line = without_date(&full_title);
    let one_sentence = split_parts(title_line).len() == 1 && sentence_case(title_line);
    (match_tokens(title_line), title_min_words(one_sentence))
}

/// The fewest words a title (or a title's part) has to be a headline's: fewer when it is
/// one phrase written as a sentence.
fn title_min_words(one_sentence: bool) -> usize {
    if one_sentence {
        HEADLINE_BARE_MIN_WORDS
    } else {
        HEADLINE_MIN_WORDS
    }
}

/// Whether a line's tokens say what a title's say: most of the line is the title's words,
/// and it covers enough of them.
fn says(line: &[String], title: &[String]) -> bool {
    let shared = overlap(line, title) as f64;
    shared >= H1_PRECISION * line.len() as f64 && shared >= H1_COVERAGE * title.len() as f64
}

/// The parts of a raw `<title>` (at its separators) other than the page title `title`
/// that are long enough to be a headline's title (as [`title_tokens`] asks of the whole),
/// as tokens.
fn title_parts(raw: &str, title: &[String]) -> Vec<Vec<String>> {
    split_parts(raw)
        .into_iter()
        .filter_map(|p| {
            let tokens = match_tokens(p);
            (tokens.len() >= title_min_words(sentence_case(p)) && tokens != title).then_some(tokens)
        })
        .collect()
}

/// A title without the date written after its last comma ("Россияне определили элиту
/// общества, 4 января 2012-17:33"; a date of at most four words, a time with it): the
/// headline line on the page does not repeat it,
/// and its tokens would halve the line's coverage of the title.
fn without_date(title: &str) -> &str {
    match title.rsplit_once(", ") {
        Some((head, date))
            if !head.is_empty()
                && news_lists::is_dated(date)
                && date.split_whitespace().count() <= 4 =>
        {
            head
        }
        _ => title,
    }
}

/// Whether a line is written as a sentence, not in title case: a word of at least four
/// letters starts with a lower-case letter ("Виноград помогает избежать слепоты", not
/// "Professional Gym Equipment Rental"). Scripts without case never are.
fn sentence_case(line: &str) -> bool {
    line.split_whitespace().any(|w| {
        let letters: Vec<char> = w.chars().filter(|c| c.is_alphabetic()).collect();
        letters.len() >= 4 && letters[0].is_lowercase()
    })
}

/// The nearest element enclosing `e` (itself included) that is an item of a content-like
/// group.
fn nearest_item(pass: &Pass, st: &Structures, mut e: ElemId) -> Option<ElemId> {
    while e != NO_ELEM {
        let g = st.group_of[e as usize];
        if g != u32::MAX && st.groups[g as usize].content_like(pass.config) {
            return Some(e);
        }
        e = pass.page.elements[e as usize].parent;
    }
    None
}

/// Whether `e` is `ancestor` or lies below it.
fn is_within(pass: &Pass, mut e: ElemId, ancestor: ElemId) -> bool {
    while e != NO_ELEM {
        if e == ancestor {
            return true;
        }
        e = pass.page.elements[e as usize].parent;
    }
    false
}

/// Lower-cased words for comparing a line with the title; letters of scripts written
/// without spaces are one token each.
fn match_tokens(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut word = String::new();
    for c in text.chars() {
        if unspaced_word_len(c).is_some() {
            out.extend((!word.is_empty()).then(|| std::mem::take(&mut word)));
            out.push(c.to_string());
        } else if c.is_ascii() {
            // (ASCII first: most text, and lower-casing it needs no table.)
            if c.is_ascii_alphanumeric() {
                word.push(c.to_ascii_lowercase());
            } else if !word.is_empty() {
                out.push(std::mem::take(&mut word));
            }
        } else if c.is_alphanumeric() {
            word.extend(c.to_lowercase());
        } else if !word.is_empty() {
            out.push(std::mem::take(&mut word));
        }
    }
    out.extend((!word.is_empty()).then_some(word));
    out
}

#[cfg(test)]
mod tests {
    use super::super::tests::{headed_page, ARTICLE, HEADLINE};
    use super::*;

    #[test]
    fn keep_headline_writes_the_articles_own_headline_first() {
        use super::super::extract;
        use crate::extract::dom::parse;
        let title = HEADLINE;
        let body = format!("<p>{ARTICLE} First.</p><p>{ARTICLE} Second.</p>");
        let inside = headed_page(&body);
        // The headline in a page header above the story's element is the header's.
        let outside = format!(
            "<html><head><title>{title} | Bay Courier</title></head><body>\
             <header><h1>{title}</h1></header><div class=story>{body}</div></body></html>"
        );
        let mut config = HeuristicConfig::default();
        let off = extract(&parse(&inside), &config).text;
        assert!(off.starts_with("This paragraph"), "{off}");
        config.keep_headline = true;
        let on = extract(&parse(&inside), &config).text;
        assert!(on.starts_with(&format!("{title}\n")), "{on}");
        assert_eq!(on.matches(title).count(), 1, "{on}");
        let out = extract(&parse(&outside), &config).text;
        assert!(!out.contains(title), "{out}");
    }

    #[test]
    fn text_under_the_headlines_own_item_counts_though_its_row_is_teasers() {
        // A row of three boxes of one class, mostly links: teasers with snippets, the
        // article (unlinked headline, its text, a short link list), a "latest news"
        // column. The row is a linked list of items; the article is one of them.
        let teasers = (1..=5)
            .map(|i| format!("<div><a href=/s{i}>Special report {i}</a> Snippet number {i} of a report that goes on a while.</div>"))
            .collect::<String>();
        let latest = (1..=20)
            .map(|i| format!("<div>12:{i:02}</div><p><a href=/n{i}>Latest headline of the day number {i}</a></p>"))
            .collect::<String>();
        let related = (1..=6)
            .map(|i| format!("<li><a href=/r{i}>Related story number {i} here</a></li>"))
            .collect::<String>();
        let html = format!(
            "<html><head><title>Rural doctors will get compensation for their bills - Example News</title></head>\
             <body><div class=content>\
             <div class=box>{teasers}</div>\
             <div class=box><h1>Rural doctors will get compensation for their bills</h1><div>{ARTICLE} {ARTICLE}</div><ul>{related}</ul></div>\
             <div class=box><div class=nlist>{latest}</div></div>\
             </div></body></html>"
        );
        let out = super::super::tests::run(&html);
        assert!(out.text.contains("long body"), "{}", out.text);
        assert!(!out.text.contains("Latest headline"), "{}", out.text);
    }

    /// A short item in a flat cell under a four-word `title`, followed in the same cell
    /// by the site's other news (times beside linked headlines) and its legal notice.
    fn short_titled(title: &str) -> String {
        let latest: String = (0..6)
            .map(|h| {
                format!("1{h}:05 <a href=/n{h}>Ferry timetable changed again today {h}</a><br>")
            })
            .collect();
        format!(
            "<html><head><title>{title} - Example News</title></head><body><table><tr>\
             <td><a href=/>Home</a></td><td><div class=head>{title}</div>\
             <p>{ARTICLE} First.</p><p>{ARTICLE} Second.</p><p>{ARTICLE} Third.</p>\
             <b>Other news:</b><br>{latest}<p>Any use of the materials of this site requires a \
             link to the site, unless the copyright belongs to third parties.</p>\
             </td></tr></table></body></html>"
        )
    }

    #[test]
    fn a_four_word_sentence_title_heads_the_article() {
        // Sentence case: a headline, so the news list under the item ends it.
        let out = super::super::tests::run(&short_titled("Harbour cranes lift ferry"));
        assert!(out.text.contains("Third."), "{}", out.text);
        assert!(!out.text.contains("Ferry timetable"), "{}", out.text);
        assert!(!out.text.contains("copyright"), "{}", out.text);
        // Title case: a category's name, no headline, no cut.
        let out = super::super::tests::run(&short_titled("Harbour Cranes Lift Ferry"));
        assert!(out.text.contains("copyright"), "{}", out.text);
    }

    #[test]
    fn a_share_bar_between_headline_and_text_does_not_hide_the_text() {
        // Ten one-link lines (print, e-mail, "Add to …", each its own kind of box) and a
        // photo credit link between the headline and the item's text: more than the
        // window's 8 blocks, but no line of the page's own. The page is headed, so the
        // news list and the legal notice below the item end its text.
        let kinds = [
            "alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota", "kappa",
        ];
        let share: String = kinds
            .iter()
            .map(|k| format!("<div class={k}><a href=/{k}>Add to {k}</a></div>"))
            .collect();
        let bar = format!("{share}<div><a href=/photo>Photo: agency</a></div>");
        let html =
            short_titled("Harbour cranes lift ferry").replacen("<p>", &format!("{bar}<p>"), 1);
        let out = super::super::tests::run(&html);
        assert!(out.text.contains("Third."), "{}", out.text);
        assert!(!out.text.contains("Ferry timetable"), "{}", out.text);
        assert!(!out.text.contains("Add to"), "{}", out.text);
        assert!(!out.text.contains("copyright"), "{}", out.text);
    }

    #[test]
    fn a_title_part_heads_the_article_when_the_short_title_does_not() {
        // The `og:title` is the page title: four words in title case, no headline's
        // title. The `<title>` says more ("… > Port News": a section, with a separator
        // that is none of the known ones), and its line above the text is the headline:
        // the news list and the legal notice under the item end its text.
        let page = short_titled("Harbour Cranes Lift Ferry").replacen(
            "<title>Harbour Cranes Lift Ferry - Example News</title>",
            "<title>Harbour Cranes Lift Ferry &gt; Port News</title>\
             <meta property=og:title content=\"Harbour Cranes Lift Ferry\">",
            1,
        );
        let out = super::super::tests::run(&page);
        assert!(out.text.contains("Third."), "{}", out.text);
        assert!(!out.text.contains("Ferry timetable"), "{}", out.text);
        assert!(!out.text.contains("copyright"), "{}", out.text);
        // Without that part, as before: no headline, no cut.
        let out = super::super::tests::run(&page.replacen(" &gt; Port News", "", 1));
        assert!(out.text.contains("copyright"), "{}", out.text);
    }

    #[test]
    fn a_date_after_the_titles_last_comma_is_dropped() {
        assert_eq!(
            without_date("Россияне определили элиту общества, 4 января 2012-17:33"),
            "Россияне определили элиту общества"
        );
        // A clause after a comma is the headline's.
        let clause = "Harbour cranes lifted the ferry, the port says";
        assert_eq!(without_date(clause), clause);
    }

    #[test]
    fn sentence_case_needs_a_lower_case_word() {
        assert!(sentence_case("Виноград помогает избежать слепоты"));
        assert!(sentence_case("Μυστήριο η μακροζωία της"));
        assert!(!sentence_case("Air Fryer Recipes Archives"));
        assert!(!sentence_case("Espresso Machine Under $500"));
        assert!(!sentence_case("国务院新闻"));
    }

    #[test]
    fn tokens_split_unspaced_scripts_into_letters() {
        assert_eq!(
            match_tokens("Госдума, 2011: ВВП"),
            ["госдума", "2011", "ввп"]
        );
        assert_eq!(match_tokens("国务院new闻"), ["国", "务", "院", "new", "闻"]);
        let a = match_tokens("a b b c");
        assert_eq!(overlap(&a, &match_tokens("b c c d")), 2);
    }

    #[test]
    fn a_later_h1_heads_the_story_when_a_slider_says_the_title_first() {
        use super::super::{extract, tests::ARTICLE, tests::HEADLINE};
        use crate::extract::dom::parse;
        // A slider at the top lists the story among others as headings; the story's own
        // `<h1>` comes below, over its lead, and a box of other stories sits between the
        // lead and the body. The lead is written only when the `<h1>` is taken for the
        // headline (`leads.rs`); the slider's heading heads nothing.
        let slides: String = (1..=10)
            .map(|i| format!("<li><span>Slide {i}</span></li>"))
            .collect();
        let others: String = (1..=2)
            .map(|i| format!("<p>Other story {i} tells how the cranes of another port lifted a ship years ago, at length.</p>"))
            .collect();
        let lead = "The old ferry was lifted out of the harbour by two cranes on Monday morning.";
        let html = format!(
            "<html><head><title>{HEADLINE}</title></head><body>\
             <div class=slides><h2>{HEADLINE}</h2><ul>{slides}</ul></div>\
             <div class=page><h1>{HEADLINE}</h1><div class=intro>{lead}</div>\
             <div class=related>{others}</div>\
             <div class=body><p>{ARTICLE} First.</p><p>{ARTICLE} Second.</p><p>{ARTICLE} Third.</p></div>\
             </div></body></html>"
        );
        let mut config = HeuristicConfig::default();
        let on = extract(&parse(&html), &config).text;
        assert!(on.starts_with(lead), "{on}");
        assert!(on.contains("Third."), "{on}");
        config.later_h1 = false;
        let off = extract(&parse(&html), &config).text;
        assert!(!off.contains(lead), "{off}");
    }
}
