//! Every tuning knob of the local heuristic, in one place: the user-facing parameters
//! ([`HeuristicConfig`], the `heuristic:` keys of a config file, with their defaults) and
//! the internal constants (thresholds, shares and weights the scoring code uses).
//!
//! Each knob says what it does, its unit and why its value. Scores are word F1 on the
//! dev corpora of `bench/` (WCXB dev, ScrapingHub, daniel-dev, sites-dev); "A" and "B"
//! are a corpus's two halves by site (`bench/score_halves.py`). `x → y` is the score
//! without and with the knob (or with the other value named), measured on the tree of
//! the day: the size of the effect, not today's score. "Hand-set, not swept" means no
//! measurement of the value itself is recorded (the mechanism it belongs to may have
//! been measured as a whole).

/// Parameters of the local heuristic, with the defaults documented in ARCHITECTURE.md.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct HeuristicConfig {
    /// A block with at least this many non-link words is content evidence.
    pub min_content_words: u32,
    /// Blocks whose share of link words exceeds this are link lists (boilerplate).
    pub max_link_density: f64,
    /// Weight of a short (non-content, non-link) block's words against the container.
    pub short_block_penalty: f64,
    /// Drop short blocks before the container's first content block.
    pub trim_edges: bool,
    /// On a page with a headed article, end the written text at the first long, link-led
    /// run of short lines outside the article's element (`article_edges.rs`: other
    /// news with their times, archive calendars, forms and legal notices below it).
    pub cut_tail: bool,
    /// On a page with a headed article, start the written text at its headline when the
    /// kept lines above it are other stories (`article_edges.rs`). Off: it cost WCXB
    /// dev's half A 0.0003.
    pub start_at_headline: bool,
    /// Keep the heading right above the written text's first line, inside the text's
    /// element (its first section's title, a sentence set as a heading), which
    /// `trim_edges` would trim as chrome (`cleanup.rs`).
    pub keep_opening_heading: bool,
    /// Write the article's own headline as the text's first line when it stands among the
    /// kept lines above the text, inside the text's element (`headline.rs`). Off: gold
    /// conventions differ (daniel-dev's keeps headlines, ScrapingHub's and sites-dev's
    /// do not; figures in ARCHITECTURE.md), and every record carries `title` anyway.
    pub keep_headline: bool,
    /// A repeated structure whose items are one piece of prose beside lists (related
    /// teasers, link columns) is no list (`item_kinds.rs`).
    pub unlike_items_no_list: bool,
    /// Without a headline, the story of such a group is the page's article: the teaser
    /// lists beside it are rails and the page is no listing (`item_kinds.rs`). Off: it
    /// cost WCXB collections (a category's introduction beside its product grids).
    pub story_is_article: bool,
    /// End the written text at a list of other news (dated linked headlines) that
    /// follows it, inside the article's element too (`news_lists.rs`).
    pub cut_news_lists: bool,
    /// End the written text at the heading of a comment section or form
    /// (`comment_headings.rs`), unless the comments are the page's content or a thread's
    /// posts each carry one; on headed pages and unheaded ones.
    pub cut_at_comment_heading: bool,
    /// The comment-heading cut also when readers' posts under the heading outweigh the
    /// article: a run of bylined posts (`readers_posts.rs`) after which the text's element
    /// holds no more evidence is no evidence of the article's.
    pub cut_over_readers_posts: bool,
    /// End the written text at a publisher's legal notice outside the text's element
    /// (`legal_notices.rs`: "© 2004 Site", "All rights reserved"), or at the heading of a
    /// notice or contact box ("声明：", "ΕΠΙΚΟΙΝΩΝΙΑ", "Disclaimer"), when less evidence
    /// follows it.
    pub cut_at_legal_notice: bool,
    /// Drop the short lines ending in a colon at the written text's end (`labels.rs`:
    /// "Tags:", "Share this on:", "分享到:", labels of links that were left out).
    pub drop_dangling_labels: bool,
    /// Drop the section headings at the written text's end (`labels.rs`: "Related posts",
    /// "Share it!", "Recommended" over a box that was left out).
    pub drop_dangling_headings: bool,
    /// Drop the invitations to follow the site or its writer on a social network at the
    /// written text's end (`follow_lines.rs`: "Follow me: twitter.com/…", "Join us on
    /// Facebook", a short line that names a network and points to it).
    pub drop_follow_lines: bool,
    /// Drop the appeals to the reader about the text itself among the written text's
    /// last lines (`reader_appeals.rs`: "Like this story? Share it with a friend!",
    /// "Gefällt dir dieser Beitrag?").
    pub drop_reader_appeals: bool,
    /// End a headed article's text at a line that only names a box that follows
    /// articles ("Read also", "Related", "Share", `labels.rs`), like a comment heading.
    pub cut_at_closing_label: bool,
    /// Drop lines that are only an advertisement's label or a text-size control, wherever
    /// they stand (`interface_lines.rs`).
    pub drop_interface_lines: bool,
    /// Drop photo credits and short captions that end with one, wherever they stand
    /// (`interface_lines.rs`: "Fot. PAP", "Photo: Getty Images", "… | © dpa").
    pub drop_credit_lines: bool,
    /// Drop a line that only names a box that follows articles wherever it stands in the
    /// written text (`labels.rs`: "Related stories" above the text, its links left out).
    pub drop_closing_labels: bool,
    /// On a page with a headed article, a sibling section after the container joins it
    /// only when it opens like a section of the page (`sections.rs`: a `<section>`, a
    /// `<p>`, or a heading first), not a comment form, notice or footer.
    pub after_article_sections_only: bool,
    /// On a headed page, write the text right under the headline that lies above the
    /// container before the written text: the story's lead set apart from its body
    /// (`leads.rs`).
    pub lead_above_text: bool,
    /// With `lead_above_text`: a heading that is the first line under the headline is the
    /// story's deck (subtitle) and is written first however short (`leads.rs`).
    pub lead_deck: bool,
    /// With `lead_above_text`: the lead may lie in the marked box that holds the
    /// headline (an article's `<header>` with its standfirst), not only outside marks
    /// (`leads.rs`).
    pub lead_in_headline_box: bool,
    /// When the first pass wrote the paragraph right under the page's headline, a retry
    /// of the cascade (fewer marks) must write it too to replace the answer (`mod.rs`).
    pub retry_keeps_story: bool,
    /// When the first line that says the page's title heads no text, a later unlinked
    /// `<h1>` that says it is the headline (`headline.rs`).
    pub later_h1: bool,
    /// The cascade's retry without any marks replaces a short, non-empty first answer
    /// only when at most half of its words lie in elements the first pass marked
    /// (`mod.rs`).
    pub retry_outside_marks: bool,
    /// The cascade retries with tag and role marks only, whatever the first answer's
    /// length, when the first pass found no headed article, its container holds under
    /// `RETRY_CONTAINER_SHARE` of the page's content evidence and the class/id
    /// vocabulary alone marked at least `VOCABULARY_MARKED_SHARE` of it: perhaps the
    /// article's own sections (`mod.rs`).
    pub retry_when_container_minor: bool,
    /// On a headed page, a short card holding an empty `<a href>` (a link laid over the
    /// card by CSS, a "stretched link"), one of a list of such cards, reads as one link:
    /// its words count as link words, so the list is no prose beside the article
    /// (`stretched_links.rs`).
    pub stretched_link_cards: bool,
    /// Drop a section heading inside the written text when what follows it up to the
    /// next written line was left out and is mostly links: the title of a box of links
    /// ("More on this topic", "Related posts") between two parts of the text
    /// (`labels.rs`).
    pub drop_headings_over_links: bool,
    /// The same for a short line set in no heading tag ("Mehr zum Thema" in a `<div>`,
    /// "Inhaltsverzeichnis" in a `<p>`: at most [`BOX_TITLE_MAX_WORDS`] words, no link,
    /// no sentence's end) (`labels.rs`).
    pub drop_box_titles_over_links: bool,
    /// Drop a line that is only a date (a publication or update stamp) among the first
    /// and last written lines (`date_lines.rs`).
    pub drop_date_lines: bool,
    /// Keep comment sections (`--include-comments`); by default they are boilerplate.
    pub include_comments: bool,
    /// On a rendered page (`--render`), narrow columns at the side of the page's row are
    /// boilerplate (`visual.rs`). No effect on pages not rendered.
    pub visual_rails: bool,
    /// On a rendered page, elements the browser did not show (`display: none` by a
    /// stylesheet, `visibility: hidden`, `opacity: 0`, clipped or off the page) are
    /// boilerplate (`visual.rs`). No effect on pages not rendered.
    pub visual_hidden: bool,
    /// On a rendered page, blocks beside or below the main column found by width and
    /// position above the fold count less (`visual_column.rs`). No effect on pages not
    /// rendered.
    pub visual_column: bool,
    /// On a rendered page, the block above the fold in the largest font counts more as
    /// the headline (`visual_column.rs`). No effect on pages not rendered.
    pub visual_headline: bool,
    /// Siblings with one tag and class, at least this many, form a repeated structure
    /// (list items, product cards, forum posts).
    pub min_list_items: u32,
    /// A repeated structure is content-like (not a menu) when its items average at least
    /// this many words…
    pub min_item_words: f64,
    /// …and at least this share of its words are outside links, or its links average
    /// `min_item_words` words or more.
    pub min_item_text_share: f64,
    /// Link-dense blocks of a repeated structure are kept when the structure holds at
    /// least this share of the container's words (the page is a listing).
    pub list_dominance: f64,
    /// Comment sections are boilerplate unless the rest of the page has less content
    /// evidence than this (then they are the page: a forum thread).
    pub min_article_evidence: f64,
    /// A result with fewer words is retried with fewer boilerplate marks (the cascade).
    pub retry_below_words: u32,
    /// Lists of teasers (linked title + snippet, repeated) are boilerplate on pages with
    /// an article of their own (`min_article_evidence` outside repeated items).
    pub drop_teasers: bool,
    /// On a page with an article, an item outside the article's element that opens with
    /// a linked headline and runs on in unlinked text in the same block (a teaser whose
    /// title and snippet are one line) counts as titled, like a linked title block.
    pub one_block_teasers: bool,
}

impl Default for HeuristicConfig {
    fn default() -> Self {
        HeuristicConfig {
            // About a sentence. Hand-set, not swept.
            min_content_words: 10,
            // Half of a block's words in links. Hand-set, not swept.
            max_link_density: 0.5,
            // Hand-set, not swept.
            short_block_penalty: 0.5,
            // The leading edge only: trimming the trailing edge too measured worse (see
            // `cleanup::first_content`).
            trim_edges: true,
            // On (`article_edges.rs`): daniel-dev local 0.8899 → 0.8918 (half A
            // +0.0027, B +0.0010; Russian 0.799 → 0.811), WCXB dev 0.8633 → 0.8635 (A
            // unchanged, B +0.0004), ScrapingHub unchanged.
            cut_tail: true,
            // Unguarded, daniel-dev 0.8918 → 0.8945 but WCXB dev A −0.0003 (an
            // introduction above a heading lower down that repeats the title). With the
            // link-led test (`article_edges::article_start`):
            // daniel-dev local 0.8932 → 0.8947 (A +0.0014, B +0.0017; 7 pages up, none
            // down), with the manifest 0.9045 → 0.9057 (A +0.0014, B +0.0008), WCXB dev
            // 0.8636 → 0.8639 (A +0.0003, B +0.0002), ScrapingHub and sites-dev unchanged.
            start_at_headline: true,
            // On (`cleanup.rs`): trafilatura-dev 0.9264 → 0.9279 (both halves), WCXB dev
            // 0.8670 → 0.8672 (both halves); the others unchanged (docs/heuristic.md).
            keep_opening_heading: true,
            // Off: a convention of the gold, not a quality (see the field's doc).
            keep_headline: false,
            // On (`item_kinds.rs`): daniel-dev local 0.8947 → 0.8959 (half A
            // +0.0014, B +0.0008; 11 pages up, 3 down), with the manifest 0.9057 → 0.9068,
            // WCXB dev 0.8639 → 0.8641 (A +0.0001, B +0.0003), ScrapingHub and sites-dev
            // unchanged. Applied to every group (not only classless items) it cost WCXB
            // dev 0.0016 (landing pages' sections); making the groups no list at all (not
            // only keeping the container apart and the page no listing) cost informpskov
            // and ca-news (−0.97, −0.25: a short story's value as a list item was what won).
            unlike_items_no_list: true,
            // Off: daniel-dev local +0.0003 over `unlike_items_no_list` alone (tanea
            // 0.35 → 0.66, news.com.au 0.41 → 0.96, three we-dwoje pages down), WCXB dev
            // half A −0.0006 (two collection pages, 0.98 → 0.69 and 0.92 → 0.72).
            story_is_article: false,
            // On (`news_lists.rs`): daniel-dev local 0.8947 → 0.8993 (A +0.0067,
            // B +0.0020; Russian 0.8176 → 0.8353, Greek 0.9400 → 0.9449), manifest 0.9057 →
            // 0.9085, WCXB dev, ScrapingHub and sites-dev unchanged (an events listing
            // inside a WCXB article lost 0.16 before entries with prose between them were
            // kept apart).
            cut_news_lists: true,
            // On (`comment_headings.rs`): daniel-dev local 0.8993 → 0.9011 (A
            // +0.0016, B +0.0021; 11 pages up, none down), manifest 0.9085 → 0.9093,
            // WCXB dev 0.8639 (A +0.0001), ScrapingHub and sites-dev unchanged. Without the
            // posts test (`article_edges::comments_between_posts`) Stack Overflow pages lost
            // up to 0.24 (WCXB forum 0.7885 → 0.7834).
            cut_at_comment_heading: true,
            // On (`readers_posts.rs`): see ARCHITECTURE.md ("Readers' posts under a
            // comment heading") for the figures.
            cut_over_readers_posts: true,
            // On (`legal_notices.rs`), measured with the comment-heading cut on unheaded
            // pages: see ARCHITECTURE.md ("A legal notice ends the article") for the figures.
            // Notices inside the text's element too: daniel-dev +0.0002 more, but
            // ScrapingHub 0.9688 → 0.9683 (its gold keeps "© 2019 Associated Press. All
            // Rights Reserved.") and WCXB half A −0.0002 (a man page's COPYRIGHT section,
            // a boot screen quoted in `<pre>`): left out.
            cut_at_legal_notice: true,
            // On (`labels.rs`): see ARCHITECTURE.md for the figures.
            drop_dangling_labels: true,
            // On (`labels.rs`): see docs/heuristic.md for the figures.
            drop_dangling_headings: true,
            // On (`follow_lines.rs`): see ARCHITECTURE.md for the figures.
            drop_follow_lines: true,
            // On (`reader_appeals.rs`): see docs/heuristic.md for the figures.
            drop_reader_appeals: true,
            // On (`labels.rs`): see ARCHITECTURE.md for the figures.
            cut_at_closing_label: true,
            // On (`interface_lines.rs`): see ARCHITECTURE.md for the figures.
            drop_interface_lines: true,
            // On (`interface_lines.rs`): see ARCHITECTURE.md for the figures.
            drop_credit_lines: true,
            // On (`labels.rs`): see ARCHITECTURE.md for the figures.
            drop_closing_labels: true,
            // On (`sections.rs`): daniel-dev local 0.9041 → 0.9061 (A +0.0017,
            // B +0.0023; Chinese +0.0061, Greek +0.0022, Russian +0.0014; 13 pages up,
            // 2 down: argumenti.ru, whose gold repeats the lede set in a sibling after the text),
            // WCXB dev A −0.0003 (a course page's "Lab Info" box, no heading tag), B
            // unchanged. Dropping every sibling after the container on headed pages
            // gained 0.0019 on daniel-dev but cost WCXB A 0.0008 (landing pages'
            // sections, a glossary, an FAQ) and dailymail's paragraphs laid out as
            // siblings.
            after_article_sections_only: true,
            // On (`leads.rs`): see ARCHITECTURE.md for the figures.
            lead_above_text: true,
            // On (`leads.rs`, the deck): see ARCHITECTURE.md for the figures.
            lead_deck: true,
            // Off (`leads.rs`): trafilatura-dev 0.9260 → 0.9293 but ScrapingHub 0.9702 →
            // 0.9673, whose gold leaves standfirsts out (docs/heuristic.md).
            lead_in_headline_box: false,
            // On (`mod.rs`): see docs/heuristic.md for the figures.
            retry_keeps_story: true,
            // Measured in docs/heuristic.md.
            later_h1: true,
            // Off: trafilatura-dev gains on one site half only and daniel-dev with its
            // manifest loses 0.0001 (docs/heuristic.md).
            retry_outside_marks: false,
            // On: WCXB dev 0.8673 → 0.8695 on both site halves, trafilatura-dev half A
            // 0.9290 → 0.9318 (half B has no such page), the other corpora byte-identical
            // (docs/heuristic.md).
            retry_when_container_minor: true,
            // On: WCXB dev 0.8664 → 0.8670 on both site halves, trafilatura-dev half A
            // 0.9141 → 0.9156 (half B has no such cards), the other corpora unchanged
            // (docs/heuristic.md).
            stretched_link_cards: true,
            // On: trafilatura-dev 0.9232 → 0.9251 (both site halves), ScrapingHub
            // 0.9694 → 0.9696, WCXB dev 0.8670 → 0.8669, daniel-dev unchanged
            // (docs/heuristic.md).
            drop_headings_over_links: true,
            // On: trafilatura-dev 0.9317 → 0.9326 (both site halves), WCXB dev 0.8672 →
            // 0.8673 (forum +0.0011), daniel-dev 0.9241 unchanged, ScrapingHub and
            // sites-dev unchanged (docs/heuristic.md).
            drop_box_titles_over_links: true,
            // On: trafilatura-dev 0.9251 → 0.9260 (both site halves), ScrapingHub
            // 0.9696 → 0.9702, daniel-dev 0.9236 → 0.9240 (manifest 0.9306 → 0.9311),
            // WCXB dev and sites-dev unchanged (docs/heuristic.md).
            drop_date_lines: true,
            // Off: comments are not the page's text (`--include-comments` turns it on).
            include_comments: false,
            // Off: on WCXB dev's rendered documents it cost 0.0022 (0.8356 → 0.8334;
            // collection and listing pages, whose filter and category columns stand at
            // the side and are in the gold). docs/render.md.
            visual_rails: false,
            // Off: on WCXB dev's rendered documents it cost 0.0274 (0.8630 → 0.8356,
            // recall 0.899 → 0.864): offline, the scripts that reveal tabs, accordions and
            // fade-in sections never load, so text the gold holds stays hidden.
            visual_hidden: false,
            // Off: measured on the offline renderings of the dev corpora, docs/render.md.
            visual_column: false,
            // Off: measured on the offline renderings of the dev corpora, docs/render.md.
            visual_headline: false,
            // Hand-set, not swept.
            min_list_items: 3,
            // Hand-set, not swept.
            min_item_words: 4.0,
            // Hand-set, not swept.
            min_item_text_share: 0.2,
            // Hand-set, not swept.
            list_dominance: 0.3,
            // Hand-set, not swept; also what "the page has an article" means to the
            // teaser, listing and form tests.
            min_article_evidence: 150.0,
            // A few sentences. Hand-set, not swept.
            retry_below_words: 50,
            // On: ScrapingHub 0.951 → 0.959, WCXB dev unchanged (0.817).
            drop_teasers: true,
            // On: daniel-dev local 0.9022 → 0.9029 (both halves up, Russian
            // +0.0044: a "special reports" box, a news column, a related list), WCXB dev
            // 0.8641 unchanged (one service page's "related resources", kept by its gold,
            // −0.08), ScrapingHub and sites-dev unchanged.
            one_block_teasers: true,
        }
    }
}

// ---- Block values (`features::block_value`) ----

/// A table cell needs this many times `min_content_words` non-link words to be content
/// evidence (other blocks need `min_content_words`). Hand-set, not swept.
pub(super) const TABLE_CELL_WORDS_FACTOR: u32 = 2;

/// A content block's value is its non-link words minus this share of
/// `min_content_words`: a block just long enough (a footer line) is weak evidence, a
/// paragraph strong evidence. Hand-set, not swept.
pub(super) const CONTENT_WORDS_DISCOUNT: f64 = 0.5;

// ---- Marks (`marks`) ----

/// An element holding at least this share of the page's content evidence is never
/// treated as boilerplate, whatever its tag or class says (themes that wrap the whole
/// page in `<header class="page-header">`, forums whose posts are `class="comment"`).
/// Hand-set, not swept.
pub(super) const MAX_MARKED_SHARE: f64 = 0.5;

/// With `retry_when_container_minor`: a first pass whose container holds under this
/// share of the page's content evidence is retried with tag and role marks only.
/// Hand-set, not swept.
pub(super) const RETRY_CONTAINER_SHARE: f64 = 0.25;

/// With `retry_when_container_minor`: the share of the page's content evidence the
/// class/id vocabulary alone (not tags or roles) must have marked for the retry.
/// Hand-set, not swept.
pub(super) const VOCABULARY_MARKED_SHARE: f64 = 0.5;

/// A form or fieldset with at least this many fields a visitor fills in asks for input
/// and is interface whatever its text (consent and terms paragraphs; `marks.rs`). Two:
/// a name and a message, an e-mail and a consent box. Hand-set.
pub(super) const ENTRY_FORM_FIELDS: usize = 2;
/// A box of fields without a form element is a form's box when it holds at most this
/// many words per field: a label and a line of help each (`marks.rs`). Hand-set
/// between a comment box's 6 and a product column's 74 words per field.
pub(super) const FORM_WORDS_PER_FIELD: usize = 20;

// ---- Repeated structures (`groups`) ----

/// Largest share of a group's words one item may hold for the group to be a repeated
/// structure. Siblings that share a class kind but are one text plus a few small parts
/// (Drupal layout-builder `block …` sections: date, share bar, image, body; a product
/// page's column grid; a forum page's opening post next to two stub widgets) are not a
/// list, and treating them as one turns an article page into a listing. The test took
/// WCXB dev 0.8310 → 0.8313, ScrapingHub 0.9616 → 0.9629; the value itself hand-set,
/// not swept.
pub(super) const MAX_ITEM_SHARE: f64 = 0.9;

/// Layout columns ([`Group::layout_columns`](super::structures::Group::layout_columns)): the
/// text column holds at least this share of the group's words outside links…
/// For the table layouts of daniel-dev (2011 news): daniel-dev 0.773 → 0.809 word F1
/// alone, both site halves up; WCXB dev -0.001. Hand-set (a majority), not swept.
pub(super) const COLUMN_TEXT_SHARE: f64 = 0.5;
/// …and at least this many paragraphs of `min_content_words` outside links (a column of
/// a few captions next to two menus is no article). Hand-set, not swept.
pub(super) const COLUMN_TEXT_PARAGRAPHS: u64 = 2;

/// A title of fewer words (tokens; a CJK letter is one) names a category, a product
/// or a tag ("Handmade Wallet", "Air Fryer Recipes Archives"), not an article: news
/// headlines are sentences. Hand-set, not swept.
pub(super) const HEADLINE_MIN_WORDS: usize = 5;
/// …unless the title is one part (once the site's name is dropped) written in sentence
/// case: then a title of this many words is a headline too. Russian and Greek headlines
/// are often four inflected words ("Виноград помогает избежать слепоты"); a section
/// title of four words has separators ("News - Health & Business": with 4 for every
/// title, one Greek site's pages lost up to 0.86, Greek -0.06), a category's name is in
/// title case ("Air Fryer Recipes Archives": with one part only, WCXB listings -0.007,
/// half A -0.0009). Hand-set, not swept.
pub(super) const HEADLINE_BARE_MIN_WORDS: usize = 4;
/// A headline line ([`headline`](super::headline)) has at most this many words (a title
/// repeated inside a paragraph is no headline). Hand-set, not swept.
pub(super) const HEADLINE_MAX_WORDS: u32 = 60;
/// The text must begin within this many blocks under the headline (a date line, a byline,
/// a share bar and an image caption may come between). Hand-set, not swept: with the
/// listing test, daniel-dev +0.013 word F1 (Russian +0.05), WCXB dev listings
/// -0.011.
pub(super) const HEADLINE_TEXT_BLOCKS: usize = 8;
/// …counting only lines of the page's own (not marked, not template, not link-dense), and
/// within this many blocks in all: a share bar of one link per list item, a photo credit
/// and a "Related" list between the headline and its text (news.com.au, se.pl, 2011) do
/// not use up the window, but a menu or a filter column does not lead to a listing's text
/// either. Twice the window, hand-set, not swept.
pub(super) const HEADLINE_SPAN_BLOCKS: usize = 2 * HEADLINE_TEXT_BLOCKS;

/// On a headed page, a teaser list with at least this many times the words of the
/// article's element is the page's own list (a listing under an introduction), not a rail
/// of other stories (`teasers::list_outweighs_article`). Against 0.3 of the page's
/// words, daniel-dev +0.005 (both site halves up), WCXB dev −0.0003 (one shop home page
/// whose product grid follows a welcome heading); 5 measured worse on daniel-dev
/// (+0.0036). Hand-set, two values tried.
pub(super) const LIST_OVER_ARTICLE: f64 = 10.0;

// ---- Teaser lists (`teasers`) ----

/// A teaser is a linked title and a short snippet: its title is a sizeable share of its
/// words (forum posts and FAQ answers that open with a linked name or question are not).
/// Also what makes a group link-led ([`super::structures::Group::linked`]). Hand-set,
/// not swept.
pub(super) const TEASER_LINK_SHARE: f64 = 0.15;

/// …and its snippet is short: items averaging more words outside links are posts,
/// answers or sections, not teasers. Hand-set, not swept.
pub(super) const TEASER_MAX_SNIPPET: f64 = 80.0;

/// A link-dense line with at least this many link words is a teaser's linked title;
/// shorter linked lines are passed over. Hand-set, not swept.
pub(super) const TEASER_TITLE_LINK_WORDS: u32 = 3;
/// A one-block teaser (`one_block_teasers`: a block that opens with a linked title and
/// runs on in its snippet) has a title of this many words at least (two: a name, "Туризм
/// по-южноуральски")…
pub(super) const ONE_BLOCK_TITLE_MIN_WORDS: u32 = 2;
/// …and at most this many (a longer link opening a block is a sentence linked whole)…
pub(super) const ONE_BLOCK_TITLE_MAX_WORDS: u32 = 25;
/// …and a snippet of this many unlinked words at least. With a title of ≥ 3
/// words and a snippet of ≥ `min_content_words` only 2 of 5 items of a "special reports"
/// box counted (daniel-dev local +0.0003); with 2 and 4, +0.0007 (Russian +0.0044), WCXB
/// dev −0.0001 either way.
pub(super) const ONE_BLOCK_SNIPPET_MIN_WORDS: u32 = 4;

/// A group is a teaser list when at least `TEASER_ITEMS_SHARE_NUM /
/// TEASER_ITEMS_SHARE_DEN` (two thirds) of its items open with a linked title, or end a
/// snippet with an ellipsis; a rail of cut-off snippets before the article needs the
/// same share. Kept as a fraction of whole numbers (`count * 3 >= items * 2`): no float
/// rounding. Hand-set, not swept.
pub(super) const TEASER_ITEMS_SHARE_NUM: u32 = 2;
/// See [`TEASER_ITEMS_SHARE_NUM`].
pub(super) const TEASER_ITEMS_SHARE_DEN: u32 = 3;

// ---- Listing pages (`page_type::listing_page`, `scoring`) ----

/// On a page with no article of its own, the weight of a listing item's link words
/// (its linked title) against the container: the items are the page, but a title is
/// weaker evidence than a snippet. The weight took WCXB dev listing 0.5557 →
/// 0.6193, collection 0.6219 → 0.6319, all 0.8205 → 0.8257; on WCXB dev listings 0.5
/// measured better than 1.0.
pub(super) const LISTING_LINK_WEIGHT: f64 = 0.5;

// ---- Articles and threads (`page_type`, `threads`) ----

/// See [`super::page_type`]'s `declared_article_apart`: the declared article's content
/// evidence, in paragraphs of `min_content_words` (a short post above a long
/// discussion). Hand-set, not swept.
pub(super) const DECLARED_ARTICLE_PARAGRAPHS: f64 = 3.0;

/// See [`super::threads`]' `posts_continue_in_comments`: the opening post's share of the
/// evidence outside the comment sections (XenForo and Lemmy threads with a long first
/// post). Hand-set, not swept.
pub(super) const THREAD_POST_SHARE: f64 = 0.3;
/// See [`super::threads`]' `posts_continue_in_comments`: the replies' evidence against
/// the opening post's. Hand-set, not swept.
pub(super) const THREAD_REPLIES_SHARE: f64 = 0.5;

/// Most words a line of per-post chrome may have (see
/// [`super::threads::drop_post_chrome`]): "Joined", "Reaction score", "Reply", "Report".
/// Hand-set, not swept.
pub(super) const POST_CHROME_WORDS: u32 = 4;

/// Words of unlinked text in one line that make an item a post someone wrote (two
/// sentences). Hand-set, not swept.
pub(super) const POST_TEXT_WORDS: u32 = 20;

/// Share of a thread's posts in which the same short line must recur to be chrome (and
/// share of its items that must be written posts). Hand-set, not swept.
pub(super) const POST_CHROME_SHARE: f64 = 0.5;

// ---- Choosing the container (`selection`) ----

/// A declared main element (`article`, `main`, `itemprop=articleBody`) with at least this
/// share of the container's value and content evidence becomes the container. The test
/// took ScrapingHub 0.959 → 0.960, WCXB dev 0.817 → 0.818; the value itself
/// hand-set, not swept.
pub(super) const DECLARED_SHARE: f64 = 0.8;

// ---- Sibling sections (`sections`) ----

/// A sibling section joins the container with at least this share of its value…
/// Readability's sibling pass, for product, service and landing pages (the merge took
/// WCXB dev 0.8323 → 0.8451). Hand-set, not swept.
pub(super) const SIBLING_SHARE: f64 = 0.2;
/// …and at least this value (one real paragraph). Hand-set, not swept.
pub(super) const SIBLING_MIN_VALUE: f64 = 10.0;

/// A run is at least this many like sections (the container's included), as service
/// and landing pages set them. Hand-set, not swept.
pub(super) const LIKE_RUN: usize = 3;

/// A sibling of the same run as the container (see [`super::sections`]' `like_section`)
/// joins it with at least this share of its value (and [`SIBLING_MIN_VALUE`]). 0.1 rather
/// than 0.0: any like sibling at all cost articles their precision (27f023f).
pub(super) const LIKE_SIBLING_SHARE: f64 = 0.1;

// ---- The article's edges (`article_edges`) ----

/// A run of this many kept blocks without content evidence of their own ends a headed
/// article's text ([`super::article_edges::article_end`]): times of other news, an
/// archive calendar, a comment form's labels. Fewer are the article's own short lines
/// ("Source: …", the author). Hand-set; 12 measured the same on daniel-dev.
pub(super) const TAIL_GAP_LINES: usize = 8;
/// …once this many paragraphs of `min_content_words` of evidence have been written (the
/// run is after the text, not between the headline and it). Hand-set (5 measured the
/// same).
pub(super) const TAIL_MIN_PARAGRAPHS: f64 = 2.0;
/// …when link-dense blocks in the run's span number at least this share of its lines
/// (the headlines beside the times; a specification table has no links). Without it WCXB dev lost 0.0008 (spec tables, pros and cons, listings); hand-set.
pub(super) const TAIL_LINK_SHARE: f64 = 0.5;
/// …and the kept words from the run on are fewer than this many times the words before
/// it (an awards listing of thousands of short lines under an introduction is the
/// page's own content). 5 and 10 measured the same; hand-set.
pub(super) const TAIL_MAX_WORDS_RATIO: f64 = 10.0;
/// With `start_at_headline`, the lines above the headline are dropped only when they hold
/// less than this share of the evidence from the headline on (a page whose title is
/// repeated by a heading lower down keeps its top). Hand-set; without it WCXB
/// dev lost 0.0024.
pub(super) const HEAD_DROP_SHARE: f64 = 0.5;
/// `keep_opening_heading`: the heading over the text's first line has at least this many
/// words. One- and two-word headings there are labels ("Новости", "Beschreibung") more
/// often than titles: with 1, daniel-dev's Russian lost 0.0001; 3 to 4 measured the
/// same on trafilatura-dev and WCXB, 6 kept one opening sentence fewer. Hand-set.
pub(super) const OPENING_HEADING_MIN_WORDS: u32 = 3;
/// A heading under the headline is the story's subtitle (a lead set as `<h2>`,
/// `leads.rs`) when it has at least this many times `min_content_words` words outside
/// links: a paragraph, longer than the titles of sections and of other stories
/// (up to about 15 words). With 1, ScrapingHub lost 0.0004 on 7 short
/// subtitles its gold leaves out; 2 keeps daniel-dev's long ones.
pub(super) const LEAD_HEADING_WORDS_FACTOR: u32 = 2;
/// The deck (`leads.rs`): a heading that is the first line under the
/// headline, without links, is the story's subtitle when it has at least
/// `min_content_words` / this many words (five: "Human-to-human infection rare and mild";
/// a kicker or a label of one to four words is none). Hand-set, not swept.
pub(super) const LEAD_DECK_WORDS_DIVISOR: u32 = 2;

// ---- Diagnostics (debug and trace logs only; no effect on any answer) ----

/// Container candidates listed in the debug log, largest sums first: enough to see
/// the runners-up of a wrong choice.
pub(super) const DEBUG_CANDIDATES: usize = 6;

/// Characters of a block's text shown in its trace line: enough to recognise the line.
pub(super) const TRACE_TEXT_CHARS: usize = 60;

/// A post's byline (author and time: `~drwallu [2012-01-07 00:03]`) is a short line:
/// at most this many words ([`super::dated_posts`]). Hand-set, not swept.
pub(super) const BYLINE_MAX_WORDS: u32 = 12;

/// Readers' posts under a comment heading are at least this many bylines
/// ([`super::readers_posts`]): one dated line below a heading may be the article's
/// source or update line. Hand-set, not swept.
pub(super) const READERS_POSTS_MIN: usize = 2;

/// A heading element with this many times `min_content_words` unlinked words, ending in
/// a full stop, is a paragraph (a lead set as `<h4>`; [`super::features::is_prose_heading`]).
/// Hand-set, not swept.
pub(super) const LEAD_HEADING_PARAGRAPHS: f64 = 2.0;

/// A paragraph that a page's copy repeats is at least this many times
/// `min_content_words` long ([`super::cleanup::without_repeats`]): shorter lines ("Read more
/// about our services") recur on a page by design. 1× cost WCXB service
/// and listing pages whose gold repeats such lines, 3× did not. Hand-set.
pub(super) const REPEAT_PARAGRAPH_WORDS: u32 = 3;

// ---- Lists of other news (`news_lists`) ----

/// A news list has at least this many dated entries ([`super::news_lists`]): fewer are a
/// "see also" of two or three stories. Hand-set.
pub(super) const NEWS_LIST_MIN_ENTRIES: usize = 4;
/// …each entry's date within this many blocks of the one before (the headline, a snippet
/// and a topic link between two dates). Hand-set.
pub(super) const NEWS_ENTRY_GAP: usize = 4;
/// A date line of its own (beside a linked headline in the next or previous block) has at
/// most this many words ("10:54", "17 января 2012 г., 11:46"). Hand-set.
pub(super) const NEWS_DATE_LINE_MAX_WORDS: u32 = 6;
/// An entry's linked headline has at least this many link words ("more" is no headline).
/// Hand-set.
pub(super) const NEWS_HEADLINE_MIN_WORDS: u32 = 3;
/// The line above a news list that names it ("Другие статьи:", an `<h3>`) goes with it
/// when it has at most this many words. Hand-set.
pub(super) const NEWS_LIST_HEADING_MAX_WORDS: u32 = 6;
/// A line ending in a colon at the written text's end is an interface label (`labels.rs`:
/// "Tags:", "Share this on:", "分享到:") when it has at most this many words. Hand-set
/// like [`NEWS_LIST_HEADING_MAX_WORDS`].
pub(super) const LABEL_MAX_WORDS: u32 = 6;
/// A line in no heading tag titles a box of links left out (`labels.rs`,
/// `drop_box_titles_over_links`) when it has at most this many words: box titles are a
/// name of two or three words ("Mehr zum Thema", "Verwandte Bereiche:"). Hand-set, not
/// swept.
pub(super) const BOX_TITLE_MAX_WORDS: u32 = 4;
/// A line at the written text's end that names a social network and points to it is an
/// invitation to follow (`follow_lines.rs`) when it has at most this many words: those
/// of daniel-dev have 3 to 18 ("Be a fan of Lifestyle on Facebook | Follow us on Twitter!
/// | Sign up to our newsletter"). Hand-set, not swept.
pub(super) const FOLLOW_LINE_MAX_WORDS: u32 = 30;

/// A reader appeal (`reader_appeals.rs`) has at most this many words: the appeals of
/// the dev corpora have 4 to 22 as blocks count words ("We want to hear what you think
/// about this article. Submit a letter to the editor or write to letters@…", an address
/// counting as three), while the texts' own closing sentences that name "this article"
/// and speak to the reader run 25 and more. Hand-set, not swept.
pub(super) const APPEAL_MAX_WORDS: u32 = 24;

/// Reader appeals are asked for among this many last written blocks: an appeal may be
/// followed by its buttons' words, a credit or a source line. Hand-set, not swept.
pub(super) const APPEAL_TAIL_BLOCKS: usize = 4;

/// Written lines at each end of the text where a date line is looked for
/// (`date_lines.rs`).
pub(super) const DATE_LINE_EDGE: usize = 3;
/// Words at most of a date line beside its date and time (`date_lines.rs`).
pub(super) const DATE_LINE_MAX_WORDS: usize = 3;

/// A side rail (`visual.rs`) is narrower than this share of the page's width: the
/// 280–300 px sidebars of 1,200 px layouts are 0.2–0.25 of the 1,366 px viewport; an
/// article column is 0.5 or more. Hand-set, not swept.
pub(super) const RAIL_MAX_WIDTH: f32 = 0.3;
/// …its centre is further than this share of the page's width from the page's centre
/// (a sidebar's centre is 0.3–0.4 away; a centred narrow column 0). Hand-set, not swept.
pub(super) const RAIL_MIN_OFF_CENTRE: f32 = 0.2;
/// …its parent is at least this share of the page wide: a column of the page's row, not
/// a cell of a table inside an article column. Hand-set, not swept.
pub(super) const RAIL_ROW_MIN_WIDTH: f32 = 0.6;
/// …and it holds less than this share of the page's content evidence (a page whose text
/// is in a narrow column keeps it). Hand-set, not swept.
pub(super) const RAIL_MAX_EVIDENCE_SHARE: f64 = 0.5;

/// The fold of a rendered page (`visual_column.rs`): the browser's viewport height
/// (`render_browser::VIEWPORT_HEIGHT`), CSS pixels.
pub(super) const FOLD_PX: f32 = 768.0;
/// The main column is at least this share of the page wide: a 1,200 px layout's article
/// column is 0.5–0.65 of the 1,366 px viewport, a sidebar 0.2–0.25. Hand-set, not swept.
pub(super) const COLUMN_MIN_WIDTH: f32 = 0.35;
/// …and holds at least this share of the page's content evidence. Hand-set, not swept.
pub(super) const COLUMN_MIN_EVIDENCE: f64 = 0.5;
/// A block wholly beside or below the main column counts this many times its words less
/// (about what its text counted for). Hand-set, not swept.
pub(super) const COLUMN_OUTSIDE_WEIGHT: f64 = 1.0;
/// The headline's font is at least this many times the page's usual (median) font:
/// headlines are set at 1.6–3 × the body text. Hand-set, not swept.
pub(super) const HEADLINE_MIN_FONT_RATIO: f32 = 1.5;
/// The headline counts this many times its words more. Hand-set, not swept.
pub(super) const HEADLINE_WEIGHT: f64 = 1.0;

// ---- Cards under a stretched link (`stretched_links`) ----

/// At most this many words in a card holding an empty `<a href>` for its words to count
/// as link words: a teaser's title, kicker and snippet (a German news site's cards: 30–40
/// words); a paragraph of an article with an empty icon or anchor link is longer. Hand-set.
pub(super) const STRETCHED_CARD_MAX_WORDS: u64 = 60;
/// An empty link in an element without text (the card's image box) stands for the
/// nearest ancestor with text, at most this many levels up: the card's picture and its
/// text are siblings in one wrapper. Hand-set.
pub(super) const STRETCHED_CARD_CLIMB: usize = 2;
