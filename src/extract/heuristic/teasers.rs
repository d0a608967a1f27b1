//! Teaser lists: content-like repeated structures whose items open with a linked title
//! (a heading or a link-dense line of a few words) followed by a snippet — "related",
//! "more from" and "latest" lists. When the page has an article of its own (content
//! evidence outside every content-like item), they are boilerplate; on a listing page
//! (no such article) they are the page and stay content.

use super::features::{block_value, is_truncated, link_density};
use super::settings::{
    LIST_OVER_ARTICLE, ONE_BLOCK_SNIPPET_MIN_WORDS, ONE_BLOCK_TITLE_MAX_WORDS,
    ONE_BLOCK_TITLE_MIN_WORDS, TEASER_ITEMS_SHARE_DEN, TEASER_ITEMS_SHARE_NUM, TEASER_MAX_SNIPPET,
    TEASER_TITLE_LINK_WORDS,
};
use super::structures::Structures;
use super::tree::in_subtrees;
use super::Pass;
use crate::extract::dom::{Block, ElemId, NO_ELEM};

/// Marks the items of teaser lists that follow (or, cut off, precede) an article as
/// boilerplate (in `marked`, each item and everything below it). On a page whose article
/// is headed ([`headline_followed_by_text`](super::headline::headline_followed_by_text);
/// `article` is the element holding the first paragraph under the headline), every other
/// teaser list outside that element that does not outweigh it ([`list_outweighs_article`]) is a rail of other
/// stories, however short the article (a list inside the article's own element is part
/// of it: a post's list of links): those are returned as *rails* (per element,
/// whether it lies in such an item), which are left out of the text but count nothing
/// either way (a rail inside the article's own wrapper must not outweigh a short article
/// with its words). Does nothing without `drop_teasers`.
pub(super) fn drop_teasers(
    pass: &Pass,
    st: &Structures,
    article: Option<ElemId>,
    marked: &mut [ElemId],
) -> Vec<bool> {
    let n = pass.page.elements.len();
    if !pass.config.drop_teasers {
        return vec![false; n];
    }
    let item_elem = item_elements(pass, st);
    let own = item_openings(
        pass,
        st,
        marked,
        &item_elem,
        &vec![false; st.groups.len()],
        article,
    );
    let parts = parts_of_one_item(st, &own);
    let openings = item_openings(pass, st, marked, &item_elem, &parts, article);
    let teaser = |g: usize| is_teaser(pass, st, &openings, g);
    let (before, outside) = evidence_before(pass, st, marked, &item_elem, &parts, &teaser);
    let drop = dropped_groups(pass, st, &openings, &teaser, &before, outside);
    let rail: Vec<bool> = (0..st.groups.len())
        .map(|g| {
            !drop[g]
                && teaser(g)
                && article.is_some_and(|a| {
                    !pass.page.contains(a, st.groups[g].parent) && !list_outweighs_article(st, g, a)
                })
        })
        .collect();
    if tracing::enabled!(tracing::Level::DEBUG) {
        let page = pass.page;
        for (g, gr) in st.groups.iter().enumerate() {
            if teaser(g) {
                tracing::debug!(
                    "teaser group under <{} {}> items {} titled {} words {} links {} before {:.0} drop {} rail {}",
                    page.elements[gr.parent as usize].tag,
                    page.elements[gr.parent as usize].id_class,
                    gr.items, openings.titled[g], gr.words, gr.link_words, before[g], drop[g], rail[g]
                );
            }
        }
    }
    if drop.iter().any(|&d| d) {
        mark_items(pass, st, &item_elem, &drop, marked);
    }
    // The item that holds the article's own element is the article's box, not a rail
    // beside it (a site that sets its story as one box of a row of boxes).
    let holds_article = |i: usize| article.is_some_and(|a| pass.page.contains(i as ElemId, a));
    let in_rail_item = |i: usize| {
        item_elem[i] == i as ElemId
            && marked[i] == NO_ELEM
            && rail[st.item_group[i] as usize]
            && !holds_article(i)
    };
    in_subtrees(pass.page, in_rail_item)
}

/// Nearest content-like repeated item enclosing each element, itself included (or
/// `NO_ELEM`): the item element, where [`Structures::item_group`] has its group.
fn item_elements(pass: &Pass, st: &Structures) -> Vec<ElemId> {
    let (page, config) = (pass.page, pass.config);
    let (groups, group_of) = (&st.groups, &st.group_of);
    let mut item_elem = vec![NO_ELEM; page.elements.len()];
    for (i, e) in page.elements.iter().enumerate() {
        item_elem[i] =
            if group_of[i] != u32::MAX && groups[group_of[i] as usize].content_like(config) {
                i as ElemId
            } else if e.parent != NO_ELEM {
                item_elem[e.parent as usize]
            } else {
                NO_ELEM
            };
    }
    item_elem
}

/// How the items of each group open: how many with a linked title, how many with a
/// snippet cut off by an ellipsis.
struct Openings {
    titled: Vec<u32>,
    truncated: Vec<u32>,
}

fn item_openings(
    pass: &Pass,
    st: &Structures,
    marked: &[ElemId],
    item_elem: &[ElemId],
    parts: &[bool],
    article: Option<ElemId>,
) -> Openings {
    let (page, config) = (pass.page, pass.config);
    let n = page.elements.len();
    let item_group = &st.item_group;
    let mut titled = vec![0u32; st.groups.len()];
    let mut seen = vec![false; n];
    let mut cut = vec![false; n];
    let mut truncated = vec![0u32; st.groups.len()];
    for (i, b) in page.blocks.iter().enumerate() {
        let e = b.elem as usize;
        if marked[e] != NO_ELEM || pass.is_template(i) || item_elem[e] == NO_ELEM {
            continue;
        }
        let one_block = config.one_block_teasers
            && article.is_some_and(|a| !page.contains(a, b.elem))
            && opens_with_linked_title(b);
        let title = one_block
            || (link_density(b) > config.max_link_density
                && b.link_words >= TEASER_TITLE_LINK_WORDS);
        let content = b.words - b.link_words >= config.min_content_words;
        for it in enclosing_items(pass, st, item_elem, parts, b.elem) {
            let (it, g) = (it as usize, item_group[it as usize] as usize);
            // The title may follow a kicker, a category label or a date line (digg,
            // news "latest" rails): the item is titled when a linked line comes before
            // its first line of content evidence.
            if !seen[it] && (title || content) {
                seen[it] = true;
                titled[g] += u32::from(title);
            }
            // A snippet cut off with an ellipsis is a teaser's, whatever precedes it
            // (an image link, an unlinked title, an author and date line).
            if !cut[it] && is_truncated(&b.text) {
                cut[it] = true;
                truncated[g] += 1;
            }
        }
    }
    Openings { titled, truncated }
}

/// Groups whose items are parts of the item around them, through which an opening line
/// passes on to that item: those whose items do not mostly open with a linked title of
/// their own (by the items' own openings). A teaser whose title, snippet and "read more"
/// link are sibling elements of one kind (classless `div`s told apart by ids only:
/// `#name`, `#description`, `#link`) is grouped as a list of its three parts, one of them
/// titled; its title opens the teaser. A list of linked entries (each item titled) is the
/// section's content: its first entry does not make the section around it a teaser (an
/// article's sections of course or form links, WCXB dev: without this, every content-like
/// item around another counted it, classcentral and kansaslegalservices −0.11).
fn parts_of_one_item(st: &Structures, own: &Openings) -> Vec<bool> {
    (0..st.groups.len())
        .map(|g| !most_items(own.titled[g], st.groups[g].items))
        .collect()
}

/// The content-like items a block of element `e` counts for, innermost first: its
/// nearest item, and the item around that one for as long as the item below is a part
/// of it (`parts`): the title of a teaser made of parts opens the teaser, and the
/// teaser list around it is a list of titled items.
fn enclosing_items<'a>(
    pass: &'a Pass,
    st: &'a Structures,
    item_elem: &'a [ElemId],
    parts: &'a [bool],
    e: ElemId,
) -> impl Iterator<Item = ElemId> + 'a {
    let page = pass.page;
    let up = move |it: ElemId| {
        Some(page.elements[it as usize].parent)
            .filter(|&p| p != NO_ELEM && parts[st.item_group[it as usize] as usize])
            .map(|p| item_elem[p as usize])
            .filter(|&it| it != NO_ELEM)
    };
    let first = Some(item_elem[e as usize]).filter(|&it| it != NO_ELEM);
    std::iter::successors(first, move |&it| up(it))
}

/// Whether a block is a teaser in one line: it opens with a link of a headline's length
/// and runs on with a snippet of unlinked words that starts a sentence of its own.
/// Counted only outside a headed article's element (a post's own list of links with
/// descriptions is part of it): then a box of other stories whose titles and snippets
/// share a line ("special reports" above a news item, a related list) is a teaser list
/// as one with a title line and a snippet line is.
fn opens_with_linked_title(b: &Block) -> bool {
    (ONE_BLOCK_TITLE_MIN_WORDS..=ONE_BLOCK_TITLE_MAX_WORDS).contains(&b.lead_link_words)
        && b.words - b.link_words >= ONE_BLOCK_SNIPPET_MIN_WORDS
        && snippet_starts_a_sentence(&b.text, b.first_unlinked as usize)
}

/// Whether the unlinked text after a leading link (from byte `at`) starts a sentence of
/// its own: a capital letter, not after a colon or a parenthesis. A teaser's snippet is
/// a sentence of its own under the title; a list in an article's body runs the link into
/// its sentence ("Model X ($249 at a shop): While…", "a URL: the tool we use…", "Guide -
/// Month-by-month plan"); without the colon and parenthesis WCXB dev lost two articles'
/// lists of products and tools (−0.04, −0.03), without the dash two more (−0.02, −0.01);
/// daniel-dev's one-line teasers gain the same either way.
fn snippet_starts_a_sentence(text: &str, at: usize) -> bool {
    let (Some(head), Some(rest)) = (text.get(..at), text.get(at..)) else {
        return false;
    };
    let capital = rest.chars().next().is_some_and(char::is_uppercase);
    let separator = head.trim_end_matches(|c: char| !c.is_alphanumeric());
    let separator = &head[separator.len()..];
    capital && !separator.contains([':', '(', ')', '-', '–', '—'])
}

/// Whether `count` of a group's `items` is at least [`TEASER_ITEMS_SHARE_NUM`] /
/// [`TEASER_ITEMS_SHARE_DEN`] of them (in whole numbers).
fn most_items(count: u32, items: u32) -> bool {
    count * TEASER_ITEMS_SHARE_DEN >= items * TEASER_ITEMS_SHARE_NUM
}

/// Whether group `g` is a teaser list: content-like, most items titled or cut off, led by
/// links, short snippets, and no accordion ([`is_disclosure`]).
fn is_teaser(pass: &Pass, st: &Structures, openings: &Openings, g: usize) -> bool {
    let gr = &st.groups[g];
    gr.content_like(pass.config)
        && (most_items(openings.titled[g], gr.items) || most_items(openings.truncated[g], gr.items))
        && gr.linked()
        && ((gr.words - gr.link_words) as f64) <= TEASER_MAX_SNIPPET * gr.items as f64
        && !is_disclosure(&pass.page.elements[gr.parent as usize].id_class)
}

/// Content evidence outside every teaser item, before each teaser group (NaN for other
/// groups), and in all: a list that follows an article is "more from the site"; a list
/// that opens the page (a catalogue, search results) is the page even when legal text
/// follows it.
fn evidence_before(
    pass: &Pass,
    st: &Structures,
    marked: &[ElemId],
    item_elem: &[ElemId],
    parts: &[bool],
    teaser: &dyn Fn(usize) -> bool,
) -> (Vec<f64>, f64) {
    let page = pass.page;
    let group_of = &st.group_of;
    let mut in_teaser = vec![false; page.elements.len()];
    for (i, e) in page.elements.iter().enumerate() {
        in_teaser[i] = (e.parent != NO_ELEM && in_teaser[e.parent as usize])
            || (group_of[i] != u32::MAX && teaser(group_of[i] as usize));
    }
    let mut before = vec![f64::NAN; st.groups.len()];
    let mut outside = 0.0;
    for (i, b) in page.blocks.iter().enumerate() {
        let e = b.elem as usize;
        if marked[e] != NO_ELEM || pass.is_template(i) {
            continue;
        }
        if !in_teaser[e] {
            outside += block_value(b, false, pass.config).max(0.0);
        } else {
            for it in enclosing_items(pass, st, item_elem, parts, b.elem) {
                let g = st.item_group[it as usize] as usize;
                if before[g].is_nan() {
                    before[g] = outside;
                }
            }
        }
    }
    (before, outside)
}

/// The teaser groups to drop: those after an article (`before` it at least
/// `min_article_evidence`). A rail of cut-off snippets ("latest", "breaking news") may
/// also come before the article: it is dropped when an article follows it.
fn dropped_groups(
    pass: &Pass,
    st: &Structures,
    openings: &Openings,
    teaser: &dyn Fn(usize) -> bool,
    before: &[f64],
    outside: f64,
) -> Vec<bool> {
    let min_article = pass.config.min_article_evidence;
    (0..st.groups.len())
        .map(|g| {
            teaser(g)
                && (before[g] >= min_article
                    || (most_items(openings.truncated[g], st.groups[g].items)
                        && outside - before[g] >= min_article))
        })
        .collect()
}

/// Whether teaser group `g` is what a headed page shows rather than a rail beside its
/// article: its words are at least [`LIST_OVER_ARTICLE`] times those of the element
/// holding the headline's first paragraph (`article`). A listing's introduction under its
/// headline is short against the list; a news article is long against its "other news"
/// column. (Against the page's words, `list_dominance` of them, measured worse on
/// daniel-dev: a long "other news" table is a third of a 2011 news page.)
fn list_outweighs_article(st: &Structures, g: usize, article: ElemId) -> bool {
    st.groups[g].words as f64 >= LIST_OVER_ARTICLE * st.words[article as usize] as f64
}

/// Marks every unmarked item of a dropped group, and everything below it.
fn mark_items(
    pass: &Pass,
    st: &Structures,
    item_elem: &[ElemId],
    drop: &[bool],
    marked: &mut [ElemId],
) {
    let page = pass.page;
    for i in 0..page.elements.len() {
        if marked[i] == NO_ELEM && item_elem[i] == i as ElemId && drop[st.item_group[i] as usize] {
            // Mark the item and everything below it.
            let end = page.elements[i].end as usize;
            for m in &mut marked[i..end] {
                if *m == NO_ELEM {
                    *m = i as ElemId;
                }
            }
        }
    }
}

/// Accordions and FAQ toggles: their items open with a link (the toggle) but the text
/// under it belongs to the page.
fn is_disclosure(id_class: &str) -> bool {
    id_class.split(|c: char| !c.is_alphanumeric()).any(|t| {
        matches!(
            t,
            "accordion"
                | "accordions"
                | "faq"
                | "faqs"
                | "toggles"
                | "toggle"
                | "collapse"
                | "tabs"
        )
    }) || id_class.contains("accordion")
}

#[cfg(test)]
mod tests {
    use super::super::tests::{run, ARTICLE};
    use crate::extract::Extracted;

    /// A long article followed, in the same container, by `rest`.
    fn after_article(rest: &str) -> Extracted {
        let article = format!("<p>{ARTICLE}</p>").repeat(12);
        run(&format!("<body><div>{article}{rest}</div></body>"))
    }

    #[test]
    fn teaser_lists_after_the_article_are_dropped_but_listings_kept() {
        let teasers = (1..=4)
            .map(|i| format!("<li class=t><h5><a href=/{i}>Another story worth your time number {i}</a></h5><p>A short snippet of that story with a few words {i}.</p></li>"))
            .collect::<String>();
        let out = after_article(&format!("<ul>{teasers}</ul>"));
        assert!(out.text.contains("long body"), "{}", out.text);
        assert!(!out.text.contains("snippet"), "{}", out.text);
        // Without an article before it, the list is the page.
        let out = run(&format!(
            "<body><div><ul>{teasers}</ul><p>{ARTICLE}</p></div></body>"
        ));
        assert!(out.text.contains("snippet"), "{}", out.text);
    }

    #[test]
    fn teasers_with_a_kicker_before_the_linked_title_are_dropped() {
        let teasers = (1..=4)
            .map(|i| format!("<li class=t><div class=kicker>Politics</div><h5><a href=/{i}>Another story worth your time number {i}</a></h5><p>A short snippet of that story with a few words {i}.</p></li>"))
            .collect::<String>();
        let out = after_article(&format!("<ul>{teasers}</ul>"));
        assert!(out.text.contains("long body"), "{}", out.text);
        assert!(!out.text.contains("snippet"), "{}", out.text);
    }

    #[test]
    fn rail_of_cut_off_snippets_before_the_article_is_dropped() {
        let rail = (1..=5)
            .map(|i| format!("<li class=r><a href=/{i}>Headline of another story {i}</a> <span>WASHINGTON: The opening words of that other story run on until they are cut off here...</span></li>"))
            .collect::<String>();
        let article = format!("<p>{ARTICLE}</p>").repeat(12);
        let out = run(&format!("<body><div><ul>{rail}</ul>{article}</div></body>"));
        assert!(out.text.contains("long body"), "{}", out.text);
        assert!(!out.text.contains("WASHINGTON"), "{}", out.text);
        // Without an article after it, the list of snippets is the page.
        let out = run(&format!(
            "<body><div><ul>{rail}</ul><p>{ARTICLE}</p></div></body>"
        ));
        assert!(out.text.contains("WASHINGTON"), "{}", out.text);
    }

    #[test]
    fn one_block_teasers_beside_a_headed_article_are_left_out() {
        // A box of other stories above a headed news item, each title linked and its
        // snippet on the same line; the article's own list runs links into sentences.
        let others = [
            (
                "Queen of disco",
                "The singer of the eighties has not forgotten her fans",
            ),
            (
                "A hundred traffic officers",
                "One collector keeps toy policemen in his office",
            ),
            (
                "Winter tourism at home",
                "Where to spend the longest holidays of the year nearby",
            ),
            (
                "Boxer of the region",
                "The champion is the main candidate for the games",
            ),
        ];
        let box_items = others
            .iter()
            .enumerate()
            .map(|(i, (t, s))| {
                format!("<div class=news><div><a href=/r{i}>{t}</a> <span>{s}</span></div></div>")
            })
            .collect::<String>();
        let tools = (1..=4)
            .map(|i| format!("<li><a href=/t{i}>Tool number {i}</a>: what the tool number {i} does for us in the tests we run.</li>"))
            .collect::<String>();
        let html = format!(
            "<html><head><title>Rural doctors get a housing allowance | News</title></head><body>\
             <div class=left><div class=box><h2>Special reports</h2>{box_items}</div></div>\
             <div class=mid><h1>Rural doctors get a housing allowance</h1><div class=text>\
             <p>{ARTICLE}</p><p>{ARTICLE}</p><ul>{tools}</ul><p>{ARTICLE}</p></div></div></body></html>"
        );
        let out = run(&html);
        assert!(out.text.contains("long body"), "{}", out.text);
        assert!(out.text.contains("does for us"), "{}", out.text);
        assert!(!out.text.contains("longest holidays"), "{}", out.text);
        assert!(!out.text.contains("toy policemen"), "{}", out.text);
    }

    #[test]
    fn teasers_made_of_sibling_parts_after_the_article_are_dropped() {
        // A column of "recommended" boxes beside the article: each teaser is a classless
        // `div` whose title, snippet and "read more" link are classless sibling `div`s
        // told apart by ids only, so its three parts group as a list of their own.
        let teaser = |i: usize| {
            format!(
                "<div id=short><div id=name><a href=/r{i}>Recommended story number {i} of the week</a></div>\
                 <div id=description><p>The snippet of recommended story {i} runs for a sentence or two here.</p></div>\
                 <div id=link><a href=/r{i}>Read more</a></div></div>"
            )
        };
        let boxes = (0..3)
            .map(|b| {
                format!(
                    "<div id=box{b}>{}{}</div>",
                    teaser(2 * b),
                    teaser(2 * b + 1)
                )
            })
            .collect::<String>();
        let article = format!("<p>{ARTICLE}</p>").repeat(12);
        let html = format!(
            "<body><div class=row><div class=column><div id=text>{article}</div></div>\
             <div class=column>{boxes}<div id=all><a href=/all>All recommended stories</a></div></div></div></body>"
        );
        let out = run(&html);
        assert!(out.text.contains("long body"), "{}", out.text);
        assert!(!out.text.contains("snippet of recommended"), "{}", out.text);
        // Without an article before them, the boxes are the page (a listing).
        let out = run(&format!("<body><div class=column>{boxes}</div></body>"));
        assert!(out.text.contains("snippet of recommended"), "{}", out.text);
    }

    #[test]
    fn snippet_after_a_colon_a_dash_or_in_lower_case_runs_the_link_into_a_sentence() {
        use super::snippet_starts_a_sentence as starts;
        assert!(starts("Title of a story Snippet starts here", 17));
        assert!(starts("Title of a story. Snippet starts here", 18));
        assert!(!starts("Model X ($249 at a shop): While it costs", 26));
        assert!(!starts("Model X and the rest of it", 8));
        assert!(!starts("Planning guide - Month by month", 17));
        assert!(!starts("Title", 10));
    }

    #[test]
    fn rails_beside_a_short_headed_article_are_left_out() {
        // A news item of one paragraph under its headline (the page's title), a column of
        // five other stories with snippets, whose text outweighs it, and a portal's long
        // column of section links.
        let sections = (1..=110)
            .map(|i| format!("<div><a href=/c{i}>Section {i} page</a></div>"))
            .collect::<String>();
        let rail = (1..=5)
            .map(|i| format!("<li><a href=/s{i}>Other story of the day number {i} in town</a><p>Snippet of that other story, long enough to be read as a real line of text number {i}.</p></li>"))
            .collect::<String>();
        let html = format!(
            "<html><head><title>Pharmacies of the city open longer from next Monday | Health Today</title></head><body>\
             <div class=leftcol>{sections}</div><div class=midcol><h1>Pharmacies of the city open longer from next Monday</h1>\
             <p>From next Monday the pharmacies of the city stay open until ten in the evening, the association of pharmacists said after a meeting with the ministry yesterday.</p></div>\
             <div class=rightcol><ul>{rail}</ul></div></body></html>"
        );
        let out = run(&html);
        assert!(out.text.contains("stay open until ten"), "{}", out.text);
        assert!(
            !out.text.contains("Snippet of that other story"),
            "{}",
            out.text
        );
        // Without a headline over the paragraph, nothing says the page is an article:
        // the stories stay (a listing with an introduction).
        let html = html.replace(
            "<h1>Pharmacies of the city open longer from next Monday</h1>",
            "",
        );
        let html = html.replace("Pharmacies of the city open longer from next Monday | ", "");
        let out = run(&html);
        assert!(
            out.text.contains("Snippet of that other story"),
            "{}",
            out.text
        );
    }
    #[test]
    fn the_articles_own_box_in_a_row_of_teasers_is_no_rail() {
        use super::super::tests::{run, ARTICLE, HEADLINE};
        // The story is one box of a row of boxes of one class; the other boxes are
        // teasers (a linked title over a snippet). The story's box is the article.
        let teasers: String = (1..=4)
            .map(|i| {
                format!(
                    "<div class=box><a href=/s{i}>Other story title number {i}</a>\
                     <p>Snippet of other story {i} that runs on for a few words…</p></div>"
                )
            })
            .collect();
        let html = format!(
            "<html><head><title>{HEADLINE} | Example</title></head><body><div class=row>\
             <div class=box><h1>{HEADLINE}</h1><p>{ARTICLE}</p></div>{teasers}</div></body></html>"
        );
        let out = run(&html);
        assert!(out.text.contains("long body"), "{}", out.text);
        assert!(!out.text.contains("Snippet of other"), "{}", out.text);
    }
}
