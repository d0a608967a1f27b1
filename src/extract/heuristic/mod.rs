//! The local, single-page extractor (boilerpipe's idea, algorithms.md §2): text comes in
//! blocks; long blocks with few link words are content, link lists and short fragments
//! are boilerplate, and boilerplate and content sit in different subtrees.
//!
//! 1. Each text block gets a value: its non-link words if it is long and not link-dense
//!    (content evidence), minus its words if it is link-dense or sits in an element whose
//!    tag/class/id says boilerplate (`nav`, `footer`, `sidebar`, `меню`…), minus half its
//!    words if it is short.
//! 2. Values are summed bottom-up over the block-level elements; the element with the
//!    largest sum is the content container: going up from it adds more boilerplate than
//!    content, going down loses content.
//! 3. The container's blocks are written out in document order, except link-dense
//!    blocks and blocks inside boilerplate-marked sub-elements.
//!
//! # Map of this folder, in the order the stages run
//!
//! [`extract_with_template`] runs the cascade: up to three passes (`extract_pass`) with
//! fewer and fewer boilerplate marks (`marks::Marks`: all, tags and roles only, none),
//! keeping the longest answer; with `stretched_link_cards`, on a headed page with lists
//! of cards under empty links, again on the page with the cards read as links
//! (`stretched_links.rs`), whose answer is taken when no longer. One pass runs these
//! steps, in this order:
//!
//! 1. **Content evidence** (`scoring.rs`, `features.rs`): each block's value on its own
//!    (`features::block_value`: length, link density), summed below every element,
//!    marks ignored.
//! 2. **Own marks** (`marks.rs`, `page_type.rs`): what each element's tag, role and
//!    class/id say; customer reviews on product pages (`page_type::review_marks`).
//! 3. **Comments or thread** (`page_type.rs`, `threads.rs`): whether the comment
//!    sections are the page (a forum thread) or an article's discussion.
//! 4. **Nearest marks** (`marks.rs`): the marked ancestor-or-self of every element, with
//!    the exceptions (most of the page's evidence; footers, overlays, interface forms);
//!    on a rendered page, narrow columns at the side of the page's row (`visual.rs`).
//! 5. **Repeated structures** (`groups.rs`, their types in `structures.rs`): siblings
//!    sharing tag and class kind, and which are content-like (listings, not menus);
//!    classless ones whose items are one story beside lists (`item_kinds.rs`).
//! 6. **Dated posts and teaser lists** (`dated_posts.rs`, `headline.rs`, `teasers.rs`):
//!    lists of posts signed with a byline and a time, below an article, are its comments
//!    whatever their class; "related" / "latest" lists beside an article are marked too.
//! 7. **Listing page** (`page_type.rs`): a page with no article of its own (no
//!    headline followed by text, no story beside lists), only link-led items.
//! 8. **Values and sums** (`scoring.rs`): each block's value in context (on a rendered
//!    page, plus what its boxes add: `visual_column.rs`), summed bottom-up; no content
//!    block anywhere → an empty answer with its reason.
//! 9. **Container** (`selection.rs`): the largest sum, narrowed to a declared
//!    `<article>`/`<main>`, widened to a whole repeated structure.
//! 10. **What joins it** (`sections.rs`, `selection.rs`): sibling sections; the titles
//!     of dominant link-led structures; comment sections with `include_comments`.
//! 11. **Written out** (`cleanup.rs`, `threads.rs`, `article_edges.rs`, `labels.rs`,
//!     `interface_lines.rs`, `label_phrases.rs`, `follow_lines.rs`, `reader_appeals.rs`):
//!     the kept blocks, per-post chrome of threads and interface lines (ad labels,
//!     text-size controls) dropped, leading chrome trimmed, a headed article's text
//!     ended where a long link-led run of short lines or a "read also" label begins and
//!     without the labels and invitations to follow on a social network dangling at
//!     its end, its lead set apart above the container
//!     written first (`leads.rs`), photo credits, bare labels and appeals to the reader
//!     about the text among its last lines dropped, texts joined.
//!
//! Every threshold, share and weight is in `settings.rs` ([`HeuristicConfig`] and the
//! named constants); `tree.rs` holds the per-element sums and subtree flags the steps
//! share. Each step's unit tests sit in its file; shared test helpers and whole-page
//! tests are in `tests.rs`.

mod article_edges;
mod cleanup;
mod comment_headings;
mod date_lines;
mod dated_posts;
mod explain;
mod features;
mod follow_lines;
mod groups;
mod headline;
mod interface_lines;
mod item_kinds;
mod label_phrases;
mod labels;
mod leads;
mod legal_notices;
mod marks;
mod news_lists;
mod page_type;
mod reader_appeals;
mod readers_posts;
mod scoring;
mod sections;
mod selection;
mod settings;
mod stretched_links;
mod structures;
mod teasers;
mod threads;
mod tree;
mod visual;
mod visual_column;

#[cfg(test)]
mod tests;

pub use settings::HeuristicConfig;

use super::dom::{self, PageDom, ParsedPage};
use super::{Extracted, Extractor, PageContext};
use marks::Marks;
use scoring::BlockValues;
use settings::{RETRY_CONTAINER_SHARE, VOCABULARY_MARKED_SHARE};

/// The local heuristic as an [`Extractor`]; it always answers.
pub struct Heuristic {
    config: HeuristicConfig,
}

impl Heuristic {
    pub fn new(config: HeuristicConfig) -> Self {
        Heuristic { config }
    }
}

impl Extractor for Heuristic {
    fn name(&self) -> &str {
        "heuristic"
    }

    fn extract(&self, page: &ParsedPage, _ctx: &PageContext<'_>) -> Option<Extracted> {
        Some(extract(&page.dom, &self.config))
    }
}

/// Run the heuristic on a page.
pub fn extract(page: &PageDom, config: &HeuristicConfig) -> Extracted {
    extract_with_template(page, config, None)
}

/// Run the heuristic with some blocks already known to be boilerplate (`template[i]`
/// for block `i`, e.g. Infholder's cross-page template): they count against any
/// container holding them and are never written out.
pub fn extract_with_template(
    page: &PageDom,
    config: &HeuristicConfig,
    template: Option<&[bool]>,
) -> Extracted {
    let (best, headed) = cascade(page, config, template);
    // On a page whose article is headed, cards under a stretched link read as links
    // (`stretched_links.rs`): the cascade runs again on the page so read, and its answer
    // is taken when it is no longer (reading card text as links is to leave cards out,
    // not to widen the box: a list valued as a rail no longer pulls a wrapper's sum
    // down). Not on other pages: a listing's cards are its text.
    match headed
        .then(|| stretched_links::with_card_links(page, config))
        .flatten()
    {
        Some(carded) => {
            let traced = explain::passes_traced();
            let (next, _) = cascade(&carded, config, template);
            if next.kept_words <= best.kept_words {
                next
            } else {
                explain::forget_passes_from(traced);
                best
            }
        }
        None => best,
    }
}

/// The cascade of passes on `page`; with whether its first pass found a headed article.
fn cascade(
    page: &PageDom,
    config: &HeuristicConfig,
    template: Option<&[bool]>,
) -> (Extracted, bool) {
    // A cascade, like Readability's retries: when the result is short, the class/id
    // vocabulary may have matched the content's own wrappers (`elementor-widget`), so
    // try again without it, then without any marks; keep the longest answer.
    // With `retry_keeps_story`, when the first pass's text starts right under the
    // page's headline (a short story, a few lines of a post), a retry's answer counts
    // only if it writes that first line too: the content's own wrappers, unmarked, hold
    // it; a login panel, a comment form or a related list the vocabulary had marked
    // does not.
    let first = extract_pass(page, config, template, Marks::All);
    let headed = first.headed;
    let story = first.story.filter(|_| config.retry_keeps_story);
    // With `retry_outside_marks`, what the first pass marked (tags, roles, vocabulary),
    // when it answered at all: the retry without any marks may not answer mostly with
    // text that both the first pass and the tag-and-role pass marked (a sidebar, a comment form, a
    // share box around a post of a few lines). Text only the vocabulary marked stays
    // open to it (an article's own wrapper with a boilerplate-sounding name).
    let first_marked = Some(first.marked)
        .filter(|m| config.retry_outside_marks && !m.is_empty() && first.out.kept_words > 0);
    let mut structural_marked = Vec::new();
    let mut best = first.out;
    // With `retry_when_container_minor`, a first answer from a container that holds a
    // small share of the page's content evidence is retried with tag and role marks
    // however long it is: the vocabulary marked the rest (every section of a test
    // report named `Section--Ads`), and the answer is a box beside it.
    let minor = first.container_minor;
    if minor {
        tracing::debug!("retry: the first container holds a minor share of the evidence");
    }
    for marks in [Marks::Structural, Marks::Off] {
        let short = best.kept_words < config.retry_below_words as u64;
        if !short && !(minor && marks == Marks::Structural) {
            break;
        }
        let next = extract_pass(page, config, template, marks);
        if marks == Marks::Structural && first_marked.is_some() {
            structural_marked = next.marked;
        }
        let next = next.out;
        let keeps_story = story.is_none_or(|b| next.text.contains(&page.blocks[b].text[..]));
        let outside_marks = marks != Marks::Off
            || first_marked.as_ref().is_none_or(|m| {
                structural_marked.is_empty()
                    || mostly_unmarked(page, &[m, &structural_marked], &next.blocks)
            });
        if next.kept_words > best.kept_words && keeps_story && outside_marks {
            best = next;
        }
    }
    (best, headed)
}

/// Whether at most half of the words of the blocks `written` lie in elements that every
/// one of `marked` (nearest marks of passes) marks.
fn mostly_unmarked(page: &PageDom, marked: &[&Vec<dom::ElemId>], written: &[u32]) -> bool {
    let (inside, all) = written.iter().map(|&b| &page.blocks[b as usize]).fold(
        (0u64, 0u64),
        |(inside, all), block| {
            let w = u64::from(block.words);
            let e = block.elem as usize;
            let is_marked = marked.iter().all(|m| m[e] != dom::NO_ELEM);
            (inside + if is_marked { w } else { 0 }, all + w)
        },
    );
    2 * inside <= all
}

/// The page's headline line (block index) as the heuristic's headline test picks it with
/// no boilerplate marks: the first line outside `template` that says what the page's
/// `<title>` says, else its first `<h1>` sentence. For the cross-page recall step
/// (`cross_page/mod.rs`), which asks whether a cleaned answer lost it.
pub fn headline_line(page: &PageDom, config: &HeuristicConfig, template: &[bool]) -> Option<usize> {
    let pass = Pass {
        page,
        config,
        template: Some(template),
        marks: Marks::Off,
    };
    headline::headline_block(&pass, &vec![dom::NO_ELEM; page.elements.len()])
}

/// What one pass of the cascade works on: the page, the parameters, the blocks known to
/// be boilerplate and the marks in use.
struct Pass<'a> {
    page: &'a PageDom,
    config: &'a HeuristicConfig,
    template: Option<&'a [bool]>,
    marks: Marks,
}

impl Pass<'_> {
    /// Whether block `i` is known boilerplate (in the template).
    fn is_template(&self, i: usize) -> bool {
        self.template
            .is_some_and(|t| t.get(i).copied().unwrap_or(false))
    }
}

/// One pass of the cascade with the given marks: the steps of the folder map above, in
/// that order.
fn extract_pass(
    page: &PageDom,
    config: &HeuristicConfig,
    template: Option<&[bool]>,
    marks: Marks,
) -> PassAnswer {
    let pass = Pass {
        page,
        config,
        template,
        marks,
    };
    explain::begin_pass(marks);
    if page.blocks.is_empty() {
        let reason = if page.frames > 0 {
            "page has no text of its own (only frames)"
        } else {
            "page has no visible text"
        };
        return PassAnswer::new(empty(reason), None, false);
    }
    // 1-4: content evidence, marks, comments or thread.
    let good = scoring::content_evidence(&pass);
    let total_good = good.first().copied().unwrap_or(0.0);
    let own_marks = page_type::review_marks(page, pass.config, pass.marks, marks::own_marks(&pass));
    let comments_are_content =
        page_type::comments_are_content(&pass, &own_marks, &good, total_good);
    let mut marked =
        marks::nearest_marks(&pass, &own_marks, comments_are_content, &good, total_good);
    // On a rendered page, the columns at the side (`visual.rs`).
    visual::mark_side_rails(&pass, &good, total_good, &mut marked);
    // 5-6: repeated structures, teaser lists.
    let st = groups::repeated_structures(&pass, &marked);
    dated_posts::mark_dated_posts(&pass, &st, &mut marked);
    let headed = headline::headline_followed_by_text(&pass, &marked, &st);
    let article = headed.map(|h| h.article);
    // Without a headline, a story beside lists (`item_kinds.rs`) makes the page no
    // listing; with `story_is_article`, the teaser lists beside it are its rails too.
    let story = match article {
        None if config.unlike_items_no_list => item_kinds::story_beside_lists(&st, config),
        _ => None,
    };
    let rails_of = article.or(story.filter(|_| config.story_is_article));
    let rails = teasers::drop_teasers(&pass, &st, rails_of, &mut marked);
    // 7-8: listing page, values (on a rendered page, with what its boxes add:
    // `visual_column.rs`) and sums.
    let layout = visual_column::layout(&pass, &good, total_good);
    let values = BlockValues {
        pass: &pass,
        marked: &marked,
        st: &st,
        rails: &rails,
        listing: page_type::listing_page(&pass, &marked, &st, article.or(story).is_some()),
        layout: &layout,
    };
    let Some(sum) = values.element_sums() else {
        return PassAnswer::new(
            empty("no content block (only short lines, headings and link lists)"),
            None,
            headed.is_some(),
        );
    };
    // 9: the container.
    let container = selection::largest_sum(page, &sum);
    let container = selection::narrow_to_declared(&pass, container, &sum, &good, &marked);
    let container = selection::widen_to_structure(container, &st);
    // 10: what joins it.
    let in_siblings =
        sections::sibling_sections(&pass, container, &sum, &marked, &st, headed.is_some());
    let in_dominant = selection::in_dominant_structures(&pass, &st, container);
    let in_comments = selection::comments_outside(&pass, &marked, container);
    // 11: what is written out.
    let decisions = cleanup::Decisions {
        container,
        marked: &marked,
        in_siblings: &in_siblings,
        in_dominant: &in_dominant,
        in_comments: &in_comments,
        rails: &rails,
    };
    let kept = cleanup::kept_blocks(&pass, &decisions);
    let kept = threads::drop_post_chrome(&pass, container, &st, kept);
    let kept = cleanup::without_repeats(kept, config);
    let kept = interface_lines::without_interface_lines(config, kept);
    let first = cleanup::first_content(&pass, &values, &kept);
    let first = article_edges::article_start(&pass, headed, &kept, first);
    let first = cleanup::with_opening_heading(&pass, headed, &kept, first);
    let (end, end_cut) =
        article_edges::article_end(&pass, article, &kept, first, comments_are_content);
    let end = end.max(first);
    let end = follow_lines::without_follow_lines(config, &kept, first, end);
    let end = labels::without_dangling_labels(&pass, &st, &kept, first, end);
    // The story's lead, set apart above the body, goes before it; with `keep_headline`,
    // its headline before both.
    let mut lead = leads::lead_above(&pass, headed, &marked, &st, &rails, &kept[first..end]);
    if let Some(line) = headline::kept_headline(config, headed, &kept[..first], &lead) {
        lead.insert(0, line);
    }
    let (kept, end) = if lead.is_empty() {
        (kept, end)
    } else {
        let n = lead.len();
        let mut with_lead = kept[..first].to_vec();
        with_lead.extend(lead);
        with_lead.extend_from_slice(&kept[first..]);
        (with_lead, end + n)
    };
    explain::end_pass(&pass, &values, &decisions, &kept, (first, end), end_cut);
    let body = &kept[first..end];
    let written = labels::without_written_labels(config, body);
    explain::written_drops(
        body,
        &written,
        "label",
        "a label or credit line (drop_credit_lines, drop_closing_labels)",
    );
    let titled = labels::without_headings_over_links(&pass, &written);
    explain::written_drops(
        &written,
        &titled,
        "box-title",
        "the title of a box of links left out inside the text (drop_headings_over_links, drop_box_titles_over_links)",
    );
    let written = date_lines::without_date_lines(config, &titled);
    explain::written_drops(
        &titled,
        &written,
        "date",
        "a date stamp at the text's edges (drop_date_lines)",
    );
    let appealed = reader_appeals::without_reader_appeals(config, &written);
    explain::written_drops(
        &written,
        &appealed,
        "appeal",
        "an appeal to the reader about the text itself among its last lines (drop_reader_appeals)",
    );
    let written = appealed;
    let mut out = cleanup::write_out(&written);
    follow_lines::trim_last_block(config, &mut out, written.last().map(|&(_, b)| b));
    // The story this pass wrote: its first written line, when that is one of the lines
    // right under the page's headline. Asked only of a short first answer (the cascade
    // retries only those).
    let short = marks == Marks::All && out.kept_words < config.retry_below_words as u64;
    let story = written.first().map(|&(i, _)| i).filter(|&i| {
        short
            && headed
                .map(|h| h.headline)
                .or_else(|| headline::headline_block(&pass, &marked))
                .is_some_and(|h| headline::lines_under(&pass, &marked, &st, h, false).contains(&i))
    });
    let mut answer = PassAnswer::new(out, story, headed.is_some());
    answer.container_minor = config.retry_when_container_minor
        && marks == Marks::All
        && headed.is_none()
        && good[container as usize] < RETRY_CONTAINER_SHARE * total_good
        && marks::vocabulary_share(&pass, &good, total_good) >= VOCABULARY_MARKED_SHARE;
    if config.retry_outside_marks && (short || marks == Marks::Structural) {
        answer.marked = marked.clone();
    }
    answer
}

/// One pass's answer and what the cascade asks of the first pass.
struct PassAnswer {
    out: Extracted,
    /// The answer's first written line when it is one of the lines right under the
    /// page's headline (asked only of a short first answer).
    story: Option<usize>,
    /// Whether the pass found a headed article.
    headed: bool,
    /// The pass's nearest marks (`marks::nearest_marks`, with dated posts and teaser
    /// lists), kept with `retry_outside_marks` for a short first answer and the
    /// tag-and-role pass (the cascade asks them); else empty.
    marked: Vec<dom::ElemId>,
    /// With `retry_when_container_minor`, the first pass found no headed article, its
    /// container holds under `RETRY_CONTAINER_SHARE` of the page's content evidence, and
    /// the class/id vocabulary alone marked `VOCABULARY_MARKED_SHARE` or more of it.
    container_minor: bool,
}

impl PassAnswer {
    fn new(out: Extracted, story: Option<usize>, headed: bool) -> Self {
        PassAnswer {
            out,
            story,
            headed,
            marked: Vec::new(),
            container_minor: false,
        }
    }
}

/// An empty answer with its reason.
fn empty(reason: &str) -> Extracted {
    Extracted {
        empty_reason: Some(reason.into()),
        ..Extracted::default()
    }
}
