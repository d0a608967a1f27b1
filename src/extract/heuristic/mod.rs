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

use super::dom::{Block, BlockKind, ElemId, PageDom, ParsedPage, NO_ELEM};
use super::{vocab, Extracted, Extractor, PageContext};

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
    /// Keep comment sections (`--include-comments`); by default they are boilerplate.
    pub include_comments: bool,
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
}

impl Default for HeuristicConfig {
    fn default() -> Self {
        HeuristicConfig {
            min_content_words: 10,
            max_link_density: 0.5,
            short_block_penalty: 0.5,
            trim_edges: true,
            include_comments: false,
            min_list_items: 3,
            min_item_words: 4.0,
            min_item_text_share: 0.2,
            list_dominance: 0.3,
            min_article_evidence: 150.0,
            retry_below_words: 50,
            drop_teasers: true,
        }
    }
}

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

/// What an element's tag, role or class/id says about it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mark {
    None,
    Boilerplate,
    Comments,
}

/// Which element marks a pass of the cascade uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Marks {
    /// Tags, roles and class/id vocabulary.
    All,
    /// Tags and roles only (the vocabulary matched the page's content wrappers).
    Structural,
    /// None: link density and text length alone.
    Off,
}

fn element_mark(
    tag: &str,
    id_class: &str,
    role: &str,
    config: &HeuristicConfig,
    marks: Marks,
) -> Mark {
    if marks == Marks::Off {
        return Mark::None;
    }
    match tag {
        "body" | "html" | "main" | "article" => return Mark::None,
        _ if vocab::is_boilerplate_tag(tag) => return Mark::Boilerplate,
        _ => {}
    }
    if vocab::is_boilerplate_role(role) {
        return Mark::Boilerplate;
    }
    if vocab::is_content_role(role) {
        return Mark::None;
    }
    if marks == Marks::Structural {
        // Overlays (consent banners, modal dialogs) are never the page, even when the
        // vocabulary is otherwise distrusted: a short marked answer must not make a
        // cookie dialog the longest one.
        return if vocab::is_overlay_name(id_class) {
            Mark::Boilerplate
        } else {
            Mark::None
        };
    }
    if !config.include_comments && vocab::is_comment_name(id_class) {
        return Mark::Comments;
    }
    if vocab::is_boilerplate_name(id_class) {
        Mark::Boilerplate
    } else {
        Mark::None
    }
}

/// Run the heuristic on a page.
pub fn extract(page: &PageDom, config: &HeuristicConfig) -> Extracted {
    extract_with_template(page, config, None)
}

/// A repeated structure: siblings under `parent` sharing tag and class.
#[derive(Debug, Clone, Copy, Default)]
struct Group {
    parent: ElemId,
    items: u32,
    words: u64,
    link_words: u64,
    links: u64,
    /// Words of its largest item.
    max_item: u64,
}

/// Largest share of a group's words one item may hold for the group to be a repeated
/// structure. Siblings that share a class kind but are one text plus a few small parts
/// (Drupal layout-builder `block …` sections: date, share bar, image, body; a product
/// page's column grid; a forum page's opening post next to two stub widgets) are not a
/// list, and treating them as one turns an article page into a listing.
const MAX_ITEM_SHARE: f64 = 0.9;

impl Group {
    /// Its items are led by links (titles of listed pages), not sections or posts with
    /// a few inline links.
    fn linked(&self) -> bool {
        self.link_words as f64 >= TEASER_LINK_SHARE * self.words as f64
    }

    fn content_like(&self, config: &HeuristicConfig) -> bool {
        let words = self.words as f64;
        self.items >= config.min_list_items
            && self.max_item as f64 <= MAX_ITEM_SHARE * words
            && words >= config.min_item_words * self.items as f64
            && ((words - self.link_words as f64) >= config.min_item_text_share * words
                || self.link_words as f64 >= config.min_item_words * self.links as f64)
    }
}

/// Run the heuristic with some blocks already known to be boilerplate (`template[i]`
/// for block `i`, e.g. Infholder's cross-page template): they count against any
/// container holding them and are never written out.
pub fn extract_with_template(
    page: &PageDom,
    config: &HeuristicConfig,
    template: Option<&[bool]>,
) -> Extracted {
    // A cascade, like Readability's retries: when the result is short, the class/id
    // vocabulary may have matched the content's own wrappers (`elementor-widget`), so
    // try again without it, then without any marks; keep the longest answer.
    let mut best = extract_pass(page, config, template, Marks::All);
    for marks in [Marks::Structural, Marks::Off] {
        if best.kept_words >= config.retry_below_words as u64 {
            break;
        }
        let next = extract_pass(page, config, template, marks);
        if next.kept_words > best.kept_words {
            best = next;
        }
    }
    best
}

fn extract_pass(
    page: &PageDom,
    config: &HeuristicConfig,
    template: Option<&[bool]>,
    marks: Marks,
) -> Extracted {
    let is_template = |i: usize| template.is_some_and(|t| t.get(i).copied().unwrap_or(false));
    if page.blocks.is_empty() {
        let reason = if page.frames > 0 {
            "page has no text of its own (only frames)"
        } else {
            "page has no visible text"
        };
        return Extracted {
            empty_reason: Some(reason.into()),
            ..Extracted::default()
        };
    }
    let n = page.elements.len();
    // Content evidence (positive block values) below every element, marks ignored.
    let mut good = vec![0f64; n];
    for (i, b) in page.blocks.iter().enumerate() {
        if !is_template(i) {
            good[b.elem as usize] += block_value(b, false, config).max(0.0);
        }
    }
    sum_up(page, &mut good);
    let total_good = good.first().copied().unwrap_or(0.0);
    // Nearest boilerplate-marked ancestor-or-self of every element (elements are in
    // document order, so parents come first). Vocabulary alone does not mark an element
    // that holds most of the page's content evidence: a theme that wraps the whole page
    // in `<header class="page-header">`, a forum whose posts are `class="comment"`.
    let own_marks: Vec<Mark> = page
        .elements
        .iter()
        .map(|e| element_mark(&e.tag, &e.id_class, &e.role, config, marks))
        .collect();
    let own_marks = review_marks(page, config, marks, own_marks);
    // Comment sections are the content when the rest of the page has no article of its
    // own (a forum thread whose posts are `class="comment"`): then no comment mark counts.
    // An article page with a long discussion keeps its comments out.
    let comments_are_content = {
        let in_comments = in_subtrees(page, |i| own_marks[i] == Mark::Comments);
        let comment_good = outermost_good(page, &in_comments, &good);
        // A consent dialog's purpose texts are no article either (`vocab::is_overlay_name`).
        let in_consent = in_subtrees(page, |i| {
            !in_comments[i]
                && own_marks[i] == Mark::Boilerplate
                && vocab::is_overlay_name(&page.elements[i].id_class)
        });
        let consent_good = outermost_good(page, &in_consent, &good);
        let rest = total_good - comment_good - consent_good;
        tracing::debug!(
            "comment evidence {comment_good:.0} of {total_good:.0} (consent {consent_good:.0})"
        );
        comment_good > 0.0 && {
            let holds = holds_any(page, &in_comments);
            (rest < config.min_article_evidence
                && !declared_article_apart(page, &in_comments, &holds, &good, config))
                || posts_continue_in_comments(page, &in_comments, &holds, &good, rest)
        }
    };
    let mut marked = vec![NO_ELEM; n];
    for (i, e) in page.elements.iter().enumerate() {
        let own = match own_marks[i] {
            Mark::None => false,
            Mark::Comments if comments_are_content => false,
            _ if is_page_footer(&e.tag, &e.role) => true,
            // Consent banners and modal dialogs are never the page, however long their
            // text (cookie-category descriptions outweighing a short service page).
            // (OneTrust's vendor descriptions outweighing a listing's link-led cards or a
            // short thread: the cascade's unmarked retry still answers a dialog-only page.)
            Mark::Boilerplate if vocab::is_overlay_name(&e.id_class) => true,
            _ => good[i] < MAX_MARKED_SHARE * total_good,
        } || (marks != Marks::Off
            && total_good >= config.min_article_evidence
            && is_interface_form(&e.tag, good[i]));
        marked[i] = if own {
            i as ElemId
        } else if e.parent != NO_ELEM {
            marked[e.parent as usize]
        } else {
            NO_ELEM
        };
    }

    // Repeated structures: words per element (outside marks and template), grouped by
    // (parent, tag + class) among siblings.
    let mut words = vec![0u64; n];
    let mut link_words = vec![0u64; n];
    let mut links = vec![0u64; n];
    for (i, b) in page.blocks.iter().enumerate() {
        if marked[b.elem as usize] == NO_ELEM && !is_template(i) {
            words[b.elem as usize] += b.words as u64;
            link_words[b.elem as usize] += b.link_words as u64;
            links[b.elem as usize] += b.links as u64;
        }
    }
    for i in (1..n).rev() {
        let p = page.elements[i].parent;
        if p != NO_ELEM {
            words[p as usize] += words[i];
            link_words[p as usize] += link_words[i];
            links[p as usize] += links[i];
        }
    }
    let mut groups: Vec<Group> = Vec::new();
    let mut group_of = vec![u32::MAX; n];
    {
        let mut index: std::collections::HashMap<(ElemId, u32), u32> = Default::default();
        for (i, e) in page.elements.iter().enumerate() {
            if e.parent == NO_ELEM || words[i] == 0 || marked[i] != NO_ELEM {
                continue;
            }
            let g = *index.entry((e.parent, e.sig)).or_insert_with(|| {
                groups.push(Group {
                    parent: e.parent,
                    ..Group::default()
                });
                groups.len() as u32 - 1
            });
            let gr = &mut groups[g as usize];
            gr.items += 1;
            gr.words += words[i];
            gr.link_words += link_words[i];
            gr.links += links[i];
            gr.max_item = gr.max_item.max(words[i]);
            group_of[i] = g;
        }
    }
    if tracing::enabled!(tracing::Level::DEBUG) {
        for gr in groups.iter().filter(|g| g.content_like(config)) {
            let p = &page.elements[gr.parent as usize];
            tracing::debug!(
                "content-like group under {} <{} {}> items {} words {} link words {}",
                gr.parent,
                p.tag,
                p.id_class,
                gr.items,
                gr.words,
                gr.link_words
            );
        }
    }
    // Nearest content-like repeated item enclosing each element (or NONE).
    let mut item_group = vec![u32::MAX; n];
    for (i, e) in page.elements.iter().enumerate() {
        let g = group_of[i];
        item_group[i] = if g != u32::MAX && groups[g as usize].content_like(config) {
            g
        } else if e.parent != NO_ELEM {
            item_group[e.parent as usize]
        } else {
            u32::MAX
        };
    }

    // Teaser lists: content-like groups whose items open with a linked title (a heading
    // or a link-dense line of a few words) followed by a snippet: "related", "more from"
    // and "latest" lists. When the page has an article of its own (content evidence
    // outside every content-like item), they are boilerplate; on a listing page (no such
    // article) they are the page and stay content.
    if config.drop_teasers {
        let mut item_elem = vec![NO_ELEM; n];
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
        let mut titled = vec![0u32; groups.len()];
        let mut seen = vec![false; n];
        let mut cut = vec![false; n];
        let mut truncated = vec![0u32; groups.len()];
        for (i, b) in page.blocks.iter().enumerate() {
            let e = b.elem as usize;
            let it = item_elem[e];
            if marked[e] != NO_ELEM || is_template(i) || it == NO_ELEM {
                continue;
            }
            // The title may follow a kicker, a category label or a date line (digg,
            // news "latest" rails): the item is titled when a linked line comes before
            // its first line of content evidence.
            if !seen[it as usize] {
                if link_density(b) > config.max_link_density && b.link_words >= 3 {
                    seen[it as usize] = true;
                    titled[item_group[e] as usize] += 1;
                } else if b.words - b.link_words >= config.min_content_words {
                    seen[it as usize] = true;
                }
            }
            // A snippet cut off with an ellipsis is a teaser's, whatever precedes it
            // (an image link, an unlinked title, an author and date line).
            if !cut[it as usize] && is_truncated(&b.text) {
                cut[it as usize] = true;
                truncated[item_group[e] as usize] += 1;
            }
        }
        let teaser = |g: usize| -> bool {
            let gr = &groups[g];
            gr.content_like(config)
                && (titled[g] * 3 >= gr.items * 2 || truncated[g] * 3 >= gr.items * 2)
                && gr.linked()
                && ((gr.words - gr.link_words) as f64) <= TEASER_MAX_SNIPPET * gr.items as f64
                && !is_disclosure(&page.elements[gr.parent as usize].id_class)
        };
        // Content evidence outside every teaser item, before each teaser group: a list
        // that follows an article is "more from the site"; a list that opens the page
        // (a catalogue, search results) is the page even when legal text follows it.
        let mut in_teaser = vec![false; n];
        for (i, e) in page.elements.iter().enumerate() {
            in_teaser[i] = (e.parent != NO_ELEM && in_teaser[e.parent as usize])
                || (group_of[i] != u32::MAX && teaser(group_of[i] as usize));
        }
        let mut before = vec![f64::NAN; groups.len()];
        let mut outside = 0.0;
        for (i, b) in page.blocks.iter().enumerate() {
            let e = b.elem as usize;
            if marked[e] != NO_ELEM || is_template(i) {
                continue;
            }
            if !in_teaser[e] {
                outside += block_value(b, false, config).max(0.0);
            } else if item_elem[e] != NO_ELEM {
                let g = item_group[e] as usize;
                if before[g].is_nan() {
                    before[g] = outside;
                }
            }
        }
        // A rail of cut-off snippets ("latest", "breaking news") may also come before the
        // article: it is dropped when an article follows it.
        let drop: Vec<bool> = (0..groups.len())
            .map(|g| {
                teaser(g)
                    && (before[g] >= config.min_article_evidence
                        || (truncated[g] * 3 >= groups[g].items * 2
                            && outside - before[g] >= config.min_article_evidence))
            })
            .collect();
        if tracing::enabled!(tracing::Level::DEBUG) {
            for (g, gr) in groups.iter().enumerate() {
                if teaser(g) {
                    tracing::debug!(
                        "teaser group under <{} {}> items {} titled {} words {} links {} before {:.0} drop {}",
                        page.elements[gr.parent as usize].tag,
                        page.elements[gr.parent as usize].id_class,
                        gr.items, titled[g], gr.words, gr.link_words, before[g], drop[g]
                    );
                }
            }
        }
        if drop.iter().any(|&d| d) {
            for i in 0..n {
                if marked[i] == NO_ELEM
                    && item_elem[i] == i as ElemId
                    && drop[item_group[i] as usize]
                {
                    // Mark the item and everything below it.
                    let end = page.elements[i].end as usize;
                    for j in i..end {
                        if marked[j] == NO_ELEM {
                            marked[j] = i as ElemId;
                        }
                    }
                }
            }
        }
    }

    let listing = listing_page(page, config, &marked, &item_group, &groups, &is_template);
    let value = |i: usize, b: &Block| -> f64 {
        let boiler = marked[b.elem as usize] != NO_ELEM || is_template(i);
        if !boiler && item_group[b.elem as usize] != u32::MAX {
            // A block of a listing item: its own text is content, its links are neutral…
            // …unless the page has no article of its own: then the items' linked titles
            // are what the page shows (cards wrapped whole in a link carry no other text).
            if listing && groups[item_group[b.elem as usize] as usize].linked() {
                (b.words - b.link_words) as f64 + LISTING_LINK_WEIGHT * b.link_words as f64
            } else {
                (b.words - b.link_words) as f64
            }
        } else {
            block_value(b, boiler, config)
        }
    };
    let mut sum = vec![0f64; n];
    let mut has_content = false;
    let trace = tracing::enabled!(tracing::Level::TRACE);
    for (i, b) in page.blocks.iter().enumerate() {
        let v = value(i, b);
        if trace {
            let m = marked[b.elem as usize];
            let e = &page.elements[b.elem as usize];
            tracing::trace!(
                "block {i} <{} {}> value {v:.1} words {} links {} mark {} item {} | {}",
                e.tag,
                e.id_class,
                b.words,
                b.link_words,
                if m == NO_ELEM {
                    String::new()
                } else {
                    format!(
                        "<{} {}>",
                        page.elements[m as usize].tag, page.elements[m as usize].id_class
                    )
                },
                item_group[b.elem as usize] != u32::MAX,
                b.text.chars().take(60).collect::<String>()
            );
        }
        has_content |= v > 0.0;
        sum[b.elem as usize] += v;
    }
    sum_up(page, &mut sum);
    // No block anywhere is content evidence: what is left are short lines and headings
    // whose links and menus were dropped (a JS-rendered shell, a store page that only
    // shows "Reviews / Similar products", footer headings). An empty answer with its
    // reason is more honest than those crumbs.
    if !has_content {
        return Extracted {
            empty_reason: Some(
                "no content block (only short lines, headings and link lists)".into(),
            ),
            ..Extracted::default()
        };
    }

    let mut container = {
        // Largest sum; among equal sums the innermost (later in document order).
        let mut best = 0usize;
        for i in 0..n {
            if sum[i] >= sum[best]
                && (sum[i] > sum[best] || page.contains(best as ElemId, i as ElemId))
            {
                best = i;
            }
        }
        if tracing::enabled!(tracing::Level::DEBUG) {
            let mut top: Vec<usize> = (0..n).collect();
            top.sort_by(|&a, &b| sum[b].total_cmp(&sum[a]));
            for &i in top.iter().take(6) {
                let e = &page.elements[i];
                tracing::debug!(
                    "container candidate {i} <{} {}> sum {:.1}",
                    e.tag,
                    e.id_class,
                    sum[i]
                );
            }
        }
        best as ElemId
    };
    // An `<article>`/`<main>`/`itemprop=articleBody` element inside the container that
    // holds nearly all of its content evidence is the text the page declares: narrow to
    // it (the rest is the container's chrome: bylines, share bars, teaser snippets).
    if marks != Marks::Off {
        let c = container as usize;
        let end = page.elements[c].end as usize;
        let mut pick = NO_ELEM;
        for j in c + 1..end {
            let e = &page.elements[j];
            let declared = matches!(&*e.tag, "article" | "main")
                || e.role
                    .split(' ')
                    .any(|r| matches!(r, "main" | "articlebody"));
            if declared
                && marked[j] == NO_ELEM
                && sum[j] > 0.0
                && sum[j] >= DECLARED_SHARE * sum[c]
                && good[j] >= DECLARED_SHARE * good[c]
            {
                pick = j as ElemId; // innermost qualifying (later in document order)
            }
        }
        if pick != NO_ELEM {
            container = pick;
        }
    }
    // A container that is one item of a repeated structure (one forum post, one product
    // card) widens to the whole structure.
    while item_group[container as usize] != u32::MAX {
        let g = &groups[item_group[container as usize] as usize];
        container = g.parent;
    }
    // Sections beside the container that are content too (see `sibling_sections`).
    let in_siblings = if marks != Marks::Off {
        sibling_sections(page, container, &sum, &marked)
    } else {
        vec![false; n]
    };
    // Repeated structures that dominate the container: their link-dense blocks are
    // content (titles of listed items).
    let dominant = |g: u32| -> bool {
        g != u32::MAX
            && groups[g as usize].words as f64
                >= config.list_dominance * words[container as usize] as f64
            && page.contains(container, groups[g as usize].parent)
    };
    // Whether each element lies in an item of a dominant structure, at any depth: a
    // listing's cards may each hold a smaller repeated structure of their own (a recipe
    // category page whose sections each list eight linked cards), and the innermost
    // structure alone is too small to dominate. Only link-led structures
    // ([`Group::linked`]) pass this on: an article's paragraphs form a dominant repeated
    // structure too, and the "read more" link lists inside them stay dropped.
    let in_dominant = in_subtrees(page, |i| {
        group_of[i] != u32::MAX
            && groups[group_of[i] as usize].content_like(config)
            && groups[group_of[i] as usize].linked()
            && dominant(group_of[i])
    });

    // The container's blocks, without link lists and boilerplate-marked sub-elements.
    // With `include_comments`, comment sections outside the container (not inside
    // other boilerplate) are written out after it, as part of the page.
    let in_comments = if config.include_comments {
        in_subtrees(page, |i| {
            marked[i] == NO_ELEM
                && !page.contains(i as ElemId, container)
                && vocab::is_comment_name(&page.elements[i].id_class)
        })
    } else {
        vec![false; n]
    };
    let kept: Vec<(usize, &Block)> = page
        .blocks
        .iter()
        .enumerate()
        .filter(|&(i, _)| !is_template(i))
        .filter(|(_, b)| {
            page.contains(container, b.elem)
                || in_comments[b.elem as usize]
                || in_siblings[b.elem as usize]
        })
        .filter(|(_, b)| {
            let m = marked[b.elem as usize];
            if in_siblings[b.elem as usize] && !page.contains(container, b.elem) {
                // Sibling sections start unmarked: a mark inside one is its chrome.
                return m == NO_ELEM;
            }
            !(m != NO_ELEM && m != container && page.contains(container, m))
                || in_comments[b.elem as usize]
        })
        .filter(|(_, b)| link_density(b) <= config.max_link_density || in_dominant[b.elem as usize])
        .collect();
    let kept = drop_post_chrome(page, config, container, &groups, &group_of, &dominant, kept);
    // Short blocks before the first content block are the container's own chrome
    // (breadcrumbs, date and view-count lines, the headline shown apart from the text).
    // Short blocks after the last one are kept: they are often "Source:" lines and
    // short comments, which belong to the text (trimming them measured worse).
    let first = if config.trim_edges {
        kept.iter()
            .position(|&(i, b)| value(i, b) > 0.0)
            .unwrap_or(0)
    } else {
        0
    };
    let mut text = String::new();
    let mut kept_words = 0u64;
    for (_, b) in &kept[first..] {
        if !text.is_empty() {
            text.push('\n');
        }
        text.push_str(&b.text);
        kept_words += b.words as u64;
    }
    let empty_reason = text
        .is_empty()
        .then(|| "no block passed the content tests (only links or boilerplate)".to_string());
    Extracted {
        text,
        kept_words,
        empty_reason,
        ..Extracted::default()
    }
}

/// Most words a line of per-post chrome may have (see [`drop_post_chrome`]).
const POST_CHROME_WORDS: u32 = 4;

/// Words of unlinked text in one line that make an item a post someone wrote.
const POST_TEXT_WORDS: u32 = 20;

/// Share of a thread's posts in which the same short line must recur to be chrome.
const POST_CHROME_SHARE: f64 = 0.5;

/// Per-post chrome of a thread: when the container is dominated by a repeated structure
/// of posts with their own text (forums on XenForo, phpBB, vBulletin, StackExchange,
/// review threads), the short lines that recur with the same text in most posts are
/// the software's labels (user panels' "Joined" / "Messages" / "Reaction score", vote
/// and badge lines, "Reply", "Quote", "Report"), not what members wrote. Comparing the
/// posts with each other finds them in any language; lines that differ from post to
/// post (author names, the posts' text) are kept, and so are lines with a number in them:
/// dates recur within a thread ("Posted March 5, 2024"), and a label's number is its
/// value. A line of numbers alone right after a label is that label's value.
fn drop_post_chrome<'a>(
    page: &PageDom,
    config: &HeuristicConfig,
    container: ElemId,
    groups: &[Group],
    group_of: &[u32],
    dominant: &dyn Fn(u32) -> bool,
    kept: Vec<(usize, &'a Block)>,
) -> Vec<(usize, &'a Block)> {
    let c = container as usize;
    let end = page.elements[c].end as usize;
    // A dominant structure of posts with their own text (not link-led teasers).
    let thread = |g: u32| -> bool {
        dominant(g) && groups[g as usize].content_like(config) && !groups[g as usize].linked()
    };
    // Outermost thread post enclosing each element of the container.
    let mut post = vec![NO_ELEM; end - c];
    let mut any = false;
    for i in c + 1..end {
        let p = page.elements[i].parent as usize;
        post[i - c] = if p > c && post[p - c] != NO_ELEM {
            post[p - c]
        } else if thread(group_of[i]) {
            any = true;
            i as ElemId
        } else {
            NO_ELEM
        };
    }
    if !any {
        return kept;
    }
    let key = |b: &Block| -> String { b.text.trim().to_lowercase() };
    // Distinct posts in which each (structure, short line) recurs, and posts with a
    // paragraph of their own (what makes the items posts, not product cards, price
    // plans or table rows, whose labels recur too).
    let mut seen: std::collections::HashMap<(u32, String), (u32, ElemId)> = Default::default();
    let mut written = vec![0u32; groups.len()];
    let mut last_written = NO_ELEM;
    let short = |b: &Block| b.words <= POST_CHROME_WORDS;
    let label = |b: &Block| {
        short(b) && b.text.chars().any(char::is_alphabetic) && !b.text.chars().any(char::is_numeric)
    };
    for (_, b) in &kept {
        let e = b.elem as usize;
        if e <= c || e >= end || post[e - c] == NO_ELEM {
            continue;
        }
        let it = post[e - c];
        if b.words - b.link_words >= POST_TEXT_WORDS && last_written != it {
            last_written = it;
            written[group_of[it as usize] as usize] += 1;
        }
        if !label(b) {
            continue;
        }
        let entry = seen
            .entry((group_of[it as usize], key(b)))
            .or_insert((0, NO_ELEM));
        if entry.1 != it {
            entry.0 += 1;
            entry.1 = it;
        }
    }
    let chrome = |b: &Block| -> bool {
        let e = b.elem as usize;
        if e <= c || e >= end || post[e - c] == NO_ELEM || !label(b) {
            return false;
        }
        let g = group_of[post[e - c] as usize];
        if (written[g as usize] as f64) < POST_CHROME_SHARE * groups[g as usize].items as f64 {
            return false;
        }
        let n = seen.get(&(g, key(b))).map_or(0, |x| x.0);
        n >= config.min_list_items
            && n as f64 >= POST_CHROME_SHARE * groups[g as usize].items as f64
    };
    // A line of numbers alone right after a label of the same post is the label's value
    // ("Messages" / "1,204").
    let mut out = Vec::with_capacity(kept.len());
    let mut after_label = NO_ELEM;
    for (i, b) in kept {
        let e = b.elem as usize;
        let it = if e > c && e < end {
            post[e - c]
        } else {
            NO_ELEM
        };
        if chrome(b) {
            after_label = it;
            continue;
        }
        let value = it != NO_ELEM
            && after_label == it
            && short(b)
            && !b.text.chars().any(char::is_alphabetic);
        after_label = NO_ELEM;
        if !value {
            out.push((i, b));
        }
    }
    out
}

/// A page with no article of its own: the content evidence outside link-led content-like
/// repeated items ([`Group::linked`]; sections and posts with their own text count as
/// article) and outside boilerplate is below `min_article_evidence`, and some link-led
/// content-like repeated structure exists. Category pages, search results, shop grids and event
/// listings whose cards are wrapped whole in a link (`<a class=card><h3>…</h3><p>…</p></a>`)
/// have all their words in links, so without this their items would weigh nothing and a
/// stray paragraph (an intro line, a cookie notice) would become the container.
fn listing_page(
    page: &PageDom,
    config: &HeuristicConfig,
    marked: &[ElemId],
    item_group: &[u32],
    groups: &[Group],
    is_template: &dyn Fn(usize) -> bool,
) -> bool {
    let mut outside = 0.0;
    let mut in_items = false;
    for (i, b) in page.blocks.iter().enumerate() {
        let e = b.elem as usize;
        if marked[e] != NO_ELEM || is_template(i) {
            continue;
        }
        if item_group[e] != u32::MAX && groups[item_group[e] as usize].linked() {
            in_items = true;
        } else {
            outside += block_value(b, false, config).max(0.0);
        }
    }
    tracing::debug!("listing test: evidence outside items {outside:.0}, items {in_items}");
    in_items && outside < config.min_article_evidence
}

/// Customer reviews on a page that declares a product ([`PageDom::declares_product`]):
/// elements named as reviews ([`vocab::is_review_name`]) are boilerplate. Store
/// pages put the reviews (long paragraphs) next to a description of short lines and
/// spec rows, so by length alone the reviews win the page. Only on product pages:
/// editorial reviews (articles) name their own body `review-content`, `review-summary`
/// (on WCXB dev, marking review names on every page cost articles 0.003, on product
/// pages alone it gained products 0.019 and touched no other type). Not a comment
/// section: a short description (a few lines and spec rows) is below
/// `min_article_evidence`, which would make the reviews the page; a page whose reviews
/// are all it has comes out short and the cascade retries without vocabulary marks.
fn review_marks(
    page: &PageDom,
    config: &HeuristicConfig,
    marks: Marks,
    mut own: Vec<Mark>,
) -> Vec<Mark> {
    if marks != Marks::All || config.include_comments || !page.declares_product() {
        return own;
    }
    for (i, e) in page.elements.iter().enumerate() {
        if own[i] == Mark::None
            && !vocab::is_content_role(&e.role)
            && !matches!(&*e.tag, "body" | "html" | "main" | "article")
            && vocab::is_review_name(&e.id_class, &e.role)
        {
            own[i] = Mark::Boilerplate;
        }
    }
    own
}

/// Whether the page declares a short article of its own apart from its comment sections:
/// an `<article>` or `itemprop=articleBody` element outside every comment section, holding
/// none of them, with at least a paragraph of content evidence. A blog post of a few lines
/// followed by a long discussion (open threads, announcements) is then an article page,
/// and its comments stay boilerplate; a forum thread has no such element apart from its
/// posts.
fn declared_article_apart(
    page: &PageDom,
    in_comments: &[bool],
    holds: &[bool],
    good: &[f64],
    config: &HeuristicConfig,
) -> bool {
    page.elements.iter().enumerate().any(|(i, e)| {
        (&*e.tag == "article" || e.role.split(' ').any(|r| r == "articlebody"))
            && !in_comments[i]
            && !holds[i]
            && good[i] >= config.min_content_words as f64 * DECLARED_ARTICLE_PARAGRAPHS
    })
}

/// A forum thread whose opening post is long (a question, a story, an announcement)
/// looks like an article followed by its comments: on XenForo, Vanilla, Drupal forums,
/// Slashdot and Lemmy the replies sit in a `replies`/`comments` wrapper. What tells the
/// thread apart is that the opening post's element recurs inside the comment section:
/// an element outside every comment section holding at least `THREAD_POST_SHARE` of the
/// evidence outside them shares its tag and class kind ([`Element::sig`]) with an element
/// holding content evidence inside one (XenForo `article.message-body`, Vanilla
/// `div.Message`). A blog post's body (`entry-content`) and its comments'
/// (`comment-content`) differ. Classless elements (`<p>`, bare `<div>`) say nothing.
/// One pass over the elements with a hash map: O(n).
fn posts_continue_in_comments(
    page: &PageDom,
    in_comments: &[bool],
    holds: &[bool],
    good: &[f64],
    outside: f64,
) -> bool {
    if outside <= 0.0 {
        return false;
    }
    let n = page.elements.len();
    // The opening post: the innermost element outside the comment sections (holding
    // none: wrappers of the whole thread are not the post) with at least `THREAD_POST_SHARE` of the evidence outside them; the layout
    // wrappers above it (`container`, `row`) recur everywhere and say nothing.
    let floor = THREAD_POST_SHARE * outside;
    // A long quotation inside the opening post (a quoted e-mail, an announcement) is not
    // the post: elements in a `<blockquote>` are passed over.
    let in_quote = in_subtrees(page, |i| &*page.elements[i].tag == "blockquote");
    let big = |i: usize| !in_comments[i] && !holds[i] && !in_quote[i] && good[i] >= floor;
    let mut big_child = vec![false; n];
    for i in 0..n {
        let p = page.elements[i].parent;
        if p != NO_ELEM && big(i) {
            big_child[p as usize] = true;
        }
    }
    // A post element is known by its kind and its parent's: a news site's article body
    // and its comments' bodies may share a generic class (`div.content`) under different
    // wrappers (`div.article`, `div.comment_content`); a forum's posts share both.
    let kind = |i: usize| {
        let p = page.elements[i].parent;
        let parent_sig = if p == NO_ELEM {
            0
        } else {
            page.elements[p as usize].sig
        };
        (page.elements[i].sig, parent_sig)
    };
    let mut posts: std::collections::HashMap<(u32, u32), f64> = Default::default();
    for i in (0..n).filter(|&i| big(i) && !big_child[i]) {
        // A long paragraph (`<p>`) is the innermost: the post is its nearest classed
        // ancestor.
        let mut p = i;
        while classless(&page.elements[p]) {
            let up = page.elements[p].parent;
            if up == NO_ELEM || !big(up as usize) {
                break;
            }
            p = up as usize;
        }
        if !classless(&page.elements[p]) {
            posts.insert(kind(p), good[p]);
        }
    }
    // The replies like it hold at least `THREAD_REPLIES_SHARE` of its evidence: a
    // discussion, not a few excerpts of other posts in a misnamed sidebar.
    let mut replies: std::collections::HashMap<(u32, u32), f64> = Default::default();
    for i in (0..n).filter(|&i| in_comments[i] && good[i] > 0.0) {
        if posts.contains_key(&kind(i)) {
            *replies.entry(kind(i)).or_insert(0.0) += good[i];
        }
    }
    let found = replies
        .iter()
        .any(|(s, &r)| r >= THREAD_REPLIES_SHARE * posts[s]);
    if found && tracing::enabled!(tracing::Level::DEBUG) {
        for i in (0..n).filter(|&i| big(i) && !big_child[i]) {
            let e = &page.elements[i];
            tracing::debug!("thread post <{} {}> recurs in comments", e.tag, e.id_class);
        }
    }
    found
}

/// See [`posts_continue_in_comments`]: the opening post's share of the evidence outside
/// the comment sections.
const THREAD_POST_SHARE: f64 = 0.3;
/// See [`posts_continue_in_comments`]: the replies' evidence against the opening post's.
const THREAD_REPLIES_SHARE: f64 = 0.5;

/// Whether an element's `sig` is its tag's alone (no class naming its kind).
fn classless(e: &super::dom::Element) -> bool {
    e.sig == super::dom::kind_sig(&e.tag, "")
}

/// See [`declared_article_apart`]: the declared article's content evidence, in
/// paragraphs of `min_content_words`.
const DECLARED_ARTICLE_PARAGRAPHS: f64 = 3.0;

/// A `<form>` without a line of content evidence is interface, not text: a contact or
/// newsletter box, a search or login form (field labels, button texts, consent lines).
/// Forms that wrap text (an ASP.NET page-wide form, old Reddit's comment bodies, a
/// product or results list inside a filter form) hold content evidence and stay. Only
/// on pages with an article (`min_article_evidence`): on a product page without one,
/// the add-to-cart form holds the product's options and is the page.
fn is_interface_form(tag: &str, good: f64) -> bool {
    tag == "form" && good <= 0.0
}

/// Whether a block's text ends with an ellipsis: a snippet cut off to fit a teaser.
fn is_truncated(text: &str) -> bool {
    let t = text.trim_end();
    t.ends_with("...") || t.ends_with('…')
}

/// Product, service and landing pages spread their copy over sibling sections (hero,
/// features, specs), each a container of its own; the largest alone loses the rest.
/// Like Readability's sibling pass, every unmarked sibling of the container and of each
/// of its (unmarked) ancestors whose value is at least `SIBLING_SHARE` of the
/// container's is written out too (climbing all the way measured better on WCXB than
/// one level: landing pages nest their sections in wrappers of varying depth). Returns, per element, whether it lies in such a
/// sibling. Walks each ancestor's children by skipping subtrees: O(children).
fn sibling_sections(
    page: &PageDom,
    container: ElemId,
    sum: &[f64],
    marked: &[ElemId],
) -> Vec<bool> {
    let n = page.elements.len();
    let mut inside = vec![false; n];
    let floor = (SIBLING_SHARE * sum[container as usize]).max(SIBLING_MIN_VALUE);
    let like_floor = (LIKE_SIBLING_SHARE * sum[container as usize]).max(SIBLING_MIN_VALUE);
    let mut roots = Vec::new();
    let mut cur = container;
    loop {
        let parent = page.elements[cur as usize].parent;
        if parent == NO_ELEM || marked[parent as usize] != NO_ELEM {
            break;
        }
        let mut j = parent as usize + 1;
        let end = page.elements[parent as usize].end as usize;
        let mut run = 0;
        while j < end {
            run += like_section(page, j, cur as usize) as usize;
            j = page.elements[j].end as usize;
        }
        let mut j = parent as usize + 1;
        while j < end {
            let like = run >= LIKE_RUN && like_section(page, j, cur as usize);
            let floor = if like { like_floor } else { floor };
            if j != cur as usize && marked[j] == NO_ELEM && sum[j] >= floor {
                roots.push(j);
            }
            if tracing::enabled!(tracing::Level::DEBUG) && j != cur as usize {
                let e = &page.elements[j];
                tracing::debug!(
                    "sibling {j} <{} {}> sum {:.1} floor {floor:.1} marked {}",
                    e.tag,
                    e.id_class,
                    sum[j],
                    marked[j] != NO_ELEM
                );
            }
            j = page.elements[j].end as usize;
        }
        cur = parent;
    }
    if roots.is_empty() {
        return inside;
    }
    // Comment sections are never appended: they are the page's discussion, written out
    // only as the container itself (a forum) or with `include_comments`.
    let comments = |i: usize| vocab::is_comment_name(&page.elements[i].id_class);
    for &r in &roots {
        inside[r] = !comments(r);
    }
    for i in 0..n {
        let p = page.elements[i].parent;
        if p != NO_ELEM && inside[p as usize] && !comments(i) {
            inside[i] = true;
        }
    }
    inside
}

/// Whether sibling `j` is one more section of the same run as `cur` (the container or
/// one of its ancestors): both `<section>` elements. (Siblings of the same kind, `sig`,
/// measured worse: page-row `div`s of articles joined too.)
/// Landing and service pages spread their copy over a run of such sections, each with
/// a heading and a short paragraph or two, none close to the largest one's value.
fn like_section(page: &PageDom, j: usize, cur: usize) -> bool {
    let (a, b) = (&page.elements[j], &page.elements[cur]);
    &*a.tag == "section" && &*b.tag == "section"
}

/// A run is at least this many like sections (the container's included).
const LIKE_RUN: usize = 3;

/// A sibling of the same run as the container (see [`like_section`]) joins it with at
/// least this share of its value (and [`SIBLING_MIN_VALUE`]).
const LIKE_SIBLING_SHARE: f64 = 0.1;

/// A sibling section joins the container with at least this share of its value…
const SIBLING_SHARE: f64 = 0.2;
/// …and at least this value (one real paragraph).
const SIBLING_MIN_VALUE: f64 = 10.0;

/// Whether each element is, or lies inside, an element for which `own` holds (one pass
/// in document order: parents come before their children).
fn in_subtrees(page: &PageDom, own: impl Fn(usize) -> bool) -> Vec<bool> {
    let mut inside = vec![false; page.elements.len()];
    for (i, e) in page.elements.iter().enumerate() {
        inside[i] = (e.parent != NO_ELEM && inside[e.parent as usize]) || own(i);
    }
    inside
}

/// Content evidence of the outermost elements of `inside` (each subtree counted once).
fn outermost_good(page: &PageDom, inside: &[bool], good: &[f64]) -> f64 {
    let mut sum = 0.0;
    for (i, e) in page.elements.iter().enumerate() {
        if inside[i] && !(e.parent != NO_ELEM && inside[e.parent as usize]) {
            sum += good[i];
        }
    }
    sum
}

/// Whether each element holds (strictly contains) an element of `inside` (bottom-up).
fn holds_any(page: &PageDom, inside: &[bool]) -> Vec<bool> {
    let n = page.elements.len();
    let mut holds = vec![false; n];
    for i in (0..n).rev() {
        let p = page.elements[i].parent;
        if p != NO_ELEM && (holds[i] || inside[i]) {
            holds[p as usize] = true;
        }
    }
    holds
}

/// Add every element's value to its parent's, children before parents.
fn sum_up(page: &PageDom, values: &mut [f64]) {
    for i in (0..values.len()).rev() {
        let p = page.elements[i].parent;
        if p != NO_ELEM {
            values[p as usize] += values[i];
        }
    }
}

/// An element holding at least this share of the page's content evidence is never
/// treated as boilerplate, whatever its tag or class says.
const MAX_MARKED_SHARE: f64 = 0.5;

/// A `<footer>` element (or `role=contentinfo`) stays boilerplate even when it holds
/// most of the page's content evidence: on product and landing pages whose copy comes in
/// many short blocks, the long paragraphs are the footer's legal footnotes and
/// disclaimers. (When the footer really is all the page has, the marked pass comes out
/// empty and the cascade retries without marks.)
fn is_page_footer(tag: &str, role: &str) -> bool {
    tag == "footer" || role.split(' ').any(|r| r == "contentinfo")
}

/// A declared main element (`article`, `main`, `itemprop=articleBody`) with at least this
/// share of the container's value and content evidence becomes the container.
const DECLARED_SHARE: f64 = 0.8;

/// A teaser is a linked title and a short snippet: its title is a sizeable share of its
/// words (forum posts and FAQ answers that open with a linked name or question are not).
const TEASER_LINK_SHARE: f64 = 0.15;

/// …and its snippet is short: items averaging more words outside links are posts,
/// answers or sections, not teasers.
const TEASER_MAX_SNIPPET: f64 = 80.0;

/// On a page with no article of its own, the weight of a listing item's link words
/// (its linked title) against the container: the items are the page, but a title is
/// weaker evidence than a snippet (on WCXB dev listings 0.5 measured better than 1.0).
const LISTING_LINK_WEIGHT: f64 = 0.5;

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

fn link_density(b: &Block) -> f64 {
    if b.words == 0 {
        0.0
    } else {
        b.link_words as f64 / b.words as f64
    }
}

fn block_value(b: &Block, in_boilerplate: bool, config: &HeuristicConfig) -> f64 {
    let words = b.words as f64;
    if in_boilerplate || link_density(b) > config.max_link_density {
        return -words;
    }
    if matches!(b.kind, BlockKind::Heading(_)) {
        // Headings structure the text but are no evidence of it (and the headline shown
        // above the article is chrome to trim).
        return 0.0;
    }
    let own = (b.words - b.link_words) as f64;
    if b.words - b.link_words >= config.min_content_words && b.kind != BlockKind::TableCell
        || b.words - b.link_words >= config.min_content_words * 2
    {
        // Minus half the threshold: a block just long enough (a footer line) is weak
        // evidence, a paragraph strong evidence.
        own - config.min_content_words as f64 * 0.5
    } else {
        -words * config.short_block_penalty
    }
}

#[cfg(test)]
mod tests {
    use super::super::dom::parse;
    use super::*;

    const ARTICLE: &str = "This paragraph is the long body of the article and it goes on for many words to look real.";

    fn run(html: &str) -> Extracted {
        extract(&parse(html), &HeuristicConfig::default())
    }

    /// A long article followed, in the same container, by `rest`.
    fn after_article(rest: &str) -> Extracted {
        let article = format!("<p>{ARTICLE}</p>").repeat(12);
        run(&format!("<body><div>{article}{rest}</div></body>"))
    }

    #[test]
    fn a_group_whose_one_item_holds_nearly_all_words_is_not_a_list() {
        let config = HeuristicConfig::default();
        let g = |max_item| Group {
            parent: 0,
            items: 4,
            words: 400,
            link_words: 0,
            links: 0,
            max_item,
        };
        // Four posts of about equal length: a repeated structure.
        assert!(g(120).content_like(&config));
        // A body section next to a date line, a share bar and a caption: one text.
        assert!(!g(380).content_like(&config));
    }

    #[test]
    fn content_is_kept_and_navigation_dropped() {
        let html = format!(
            "<body><nav><a href=/>Home</a> <a href=/a>About us and the team</a></nav>\
             <div class=sidebar><p>Our sidebar tells you about the company and its long history of things.</p></div>\
             <div class=post><p class=date>12 May 2025, 300 views</p><p>{ARTICLE}</p><h2>Sub heading</h2><p>{ARTICLE} Again.</p></div>\
             <footer>Copyright 2025 Example Corporation, all rights reserved worldwide forever.</footer></body>"
        );
        let out = run(&html);
        assert!(out.text.contains("Sub heading"), "{}", out.text);
        assert!(out.text.contains("Again."));
        assert!(!out.text.contains("300 views"), "leading chrome trimmed");
        assert!(!out.text.contains("Home"));
        assert!(!out.text.contains("sidebar"));
        assert!(!out.text.contains("Copyright"));
    }

    #[test]
    fn link_lists_inside_content_are_dropped() {
        let html = format!(
            "<div><p>{ARTICLE}</p><ul><li><a href=/1>Related one</a></li><li><a href=/2>Related two</a></li></ul></div>"
        );
        let out = run(&html);
        assert!(out.text.contains("long body"));
        assert!(!out.text.contains("Related"));
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
    fn cards_wrapped_in_links_are_the_listing_page() {
        // A category page: every card is one link (title + snippet), so all its words
        // are link words; the only paragraph outside is a notice.
        let cards = (1..=6)
            .map(|i| {
                format!(
                    "<div class=card><a href=/{i}><h3>Card title number {i} about things</h3>\
                 <p>Snippet text of card {i} with a few more words here.</p></a></div>"
                )
            })
            .collect::<String>();
        let html = format!(
            "<body><div class=grid>{cards}</div>\
             <div class=notice><p>We use cookies on this site to give you a better experience and to remember your preferences when you come back.</p></div></body>"
        );
        let out = run(&html);
        assert!(out.text.contains("Card title number 3"), "{}", out.text);
        assert!(out.text.contains("Snippet text of card 5"), "{}", out.text);
        // With an article of its own, the same grid after it stays out.
        let article = format!("<p>{ARTICLE}</p>").repeat(12);
        let out = run(&format!(
            "<body><div>{article}</div><div class=grid>{cards}</div></body>"
        ));
        assert!(out.text.contains("long body"), "{}", out.text);
        assert!(!out.text.contains("Card title"), "{}", out.text);
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
    fn short_declared_article_keeps_its_long_discussion_out() {
        let comments = (1..=8)
            .map(|i| format!("<li class=comment><p>Comment {i} is a reply with enough words to count as content on its own here.</p></li>"))
            .collect::<String>();
        // Three paragraphs: above `retry_below_words`, below `min_article_evidence`.
        let article = format!("<p>{ARTICLE}</p>").repeat(3);
        let out = run(&format!(
            "<body><article>{article}</article><div id=comments><ul>{comments}</ul></div></body>"
        ));
        assert!(out.text.contains("long body"), "{}", out.text);
        assert!(!out.text.contains("reply"), "{}", out.text);
        // A thread without an article of its own: the posts are the page.
        let out = run(&format!(
            "<body><h1>Thread title</h1><div id=comments><ul>{comments}</ul></div></body>"
        ));
        assert!(out.text.contains("reply"), "{}", out.text);
    }

    #[test]
    fn thread_whose_opening_post_recurs_in_the_replies_keeps_them() {
        let post = format!("<p>{ARTICLE}</p>").repeat(12);
        let reply = |i: u32| {
            format!("<div class=post><div class=post-body><p>Reply {i} agrees with the opening post and adds a few more words of its own.</p><p>{ARTICLE}</p></div></div>")
        };
        let replies = (1..=4).map(reply).collect::<String>();
        // Long opening post, replies in a `replies` wrapper with the same post element.
        let out = run(&format!(
            "<body><div class=post><div class=post-body>{post}</div></div><div class=replies>{replies}</div></body>"
        ));
        assert!(out.text.contains("long body"), "{}", out.text);
        assert!(out.text.contains("Reply 3 agrees"), "{}", out.text);
        // The opening post is mostly a long quotation: the post, not the quote, is its
        // element.
        let out = run(&format!(
            "<body><div class=post><div class=post-body><p>I received this message today, here it is:</p><blockquote><div class=quote-text>{post}</div></blockquote></div></div><div class=replies>{replies}</div></body>"
        ));
        assert!(out.text.contains("Reply 3 agrees"), "{}", out.text);
        // An article whose comments are other elements keeps them out.
        let comments = (1..=4)
            .map(|i| format!("<div class=comment-text><p>Reply {i} agrees with the article and adds a few more words of its own.</p><p>{ARTICLE}</p></div>"))
            .collect::<String>();
        let out = run(&format!(
            "<body><div class=entry-content>{post}</div><div class=comments>{comments}</div></body>"
        ));
        assert!(out.text.contains("long body"), "{}", out.text);
        assert!(!out.text.contains("Reply 3 agrees"), "{}", out.text);
        // Same generic body class under an article wrapper and under comment wrappers:
        // a news article with its comments.
        let comments = (1..=4)
            .map(|i| format!("<div class=comment_content><div class=content><p>Reply {i} agrees with the article and adds a few more words of its own.</p><p>{ARTICLE}</p></div></div>"))
            .collect::<String>();
        let out = run(&format!(
            "<body><div class=article><div class=content>{post}</div></div><div class=comments>{comments}</div></body>"
        ));
        assert!(!out.text.contains("Reply 3 agrees"), "{}", out.text);
    }

    #[test]
    fn overlays_stay_out_even_when_they_hold_most_of_the_page() {
        // Consent dialogs' purpose texts and modals outweigh a short page; they must stay
        // boilerplate like `<footer>`: beside a short thread (and count as no article
        // against its posts), beside a listing of linked cards, beside a short service page,
        // and in the tags-and-roles retry when the vocabulary marks the content's own
        // wrapper (`widget`).
        let purpose = "These technologies are strictly necessary to provide you with the site and its features and cannot be switched off here.";
        let onetrust = format!(
            "<div id=onetrust-consent-sdk><div class=ot-pc-content>{}</div></div>",
            format!("<h4>Purpose</h4><p>{purpose}</p>").repeat(8)
        );
        let posts = (1..=3)
            .map(|i| format!("<div class=comment><p>Post {i} of the thread asks about the case and what the two holes are for, with enough words.</p></div>"))
            .collect::<String>();
        let cards = (1..=8)
            .map(|i| {
                format!(
                    "<div class=card><a href=/{i}>Recipe card number {i} with a title</a></div>"
                )
            })
            .collect::<String>();
        let copy = format!("<p>{ARTICLE} Service.</p>").repeat(3);
        let pages = [
            (format!("<div class=thread>{posts}</div>{onetrust}"), "Post 2 of the thread"),
            (format!("<div class=list>{cards}</div>{onetrust}"), "Recipe card number 3"),
            (
                format!(
                    "<main><h1>Our service</h1>{copy}</main>\
                     <div class=\"cmplz-cookiebanner cmplz-hidden\"><div class=cmplz-body>{}</div></div>\
                     <div class=memberModal><p>{purpose} Member.</p></div>",
                    format!("<p>{purpose}</p>").repeat(5)
                ),
                "Service.",
            ),
            (format!("<div class=widget>{copy}</div>{onetrust}"), "Service."),
        ];
        for (body, kept) in pages {
            let out = run(&format!("<body>{body}</body>"));
            assert!(out.text.contains(kept), "{kept}: {}", out.text);
            assert!(
                !out.text.contains("strictly necessary"),
                "{kept}: {}",
                out.text
            );
        }
    }

    #[test]
    fn interface_forms_on_article_pages_are_dropped() {
        let article = format!("<p>{ARTICLE}</p>").repeat(12);
        let form =
            "<form><p>First Name</p><input><p>Email address</p><input><p>Subscribe now</p></form>";
        let out = run(&format!("<body><div>{article}{form}</div></body>"));
        assert!(out.text.contains("long body"), "{}", out.text);
        assert!(!out.text.contains("First Name"), "{}", out.text);
        // A form that wraps the text is not an interface form.
        let out = run(&format!(
            "<body><form><div>{article}<p>Closing words</p></div><input></form></body>"
        ));
        assert!(out.text.contains("Closing words"), "{}", out.text);
    }

    #[test]
    fn run_together_caption_and_credit_classes_are_dropped() {
        let article = format!("<p>{ARTICLE}</p>").repeat(6);
        let out = run(&format!(
            "<body><div>{article}<div class=InlineImage-imageEmbedCaption>The minister walks past an aircraft at the air show on Monday morning in Dubai.</div>\
             <div class=imageEmbedCredit>Some Photographer | Agency</div>{article}</div></body>"
        ));
        assert!(out.text.contains("long body"), "{}", out.text);
        assert!(!out.text.contains("minister"), "{}", out.text);
        assert!(!out.text.contains("Photographer"), "{}", out.text);
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
    fn items_with_record_ids_in_their_class_form_one_group() {
        let teasers = (1..=4)
            .map(|i| format!("<article class=\"post-{} post\"><h3><a href=/{i}>Another story worth your time number {i}</a></h3><p>A short snippet of that story with a few words {i}.</p></article>", 7810 + i * 37))
            .collect::<String>();
        let article = format!("<p>{ARTICLE}</p>").repeat(12);
        let out = run(&format!(
            "<body><div><div class=entry>{article}</div><section>{teasers}</section></div></body>"
        ));
        assert!(out.text.contains("long body"), "{}", out.text);
        assert!(!out.text.contains("snippet"), "{}", out.text);
    }

    #[test]
    fn declared_article_narrows_the_container() {
        let article = format!("<p>{ARTICLE}</p>").repeat(8);
        let html = format!(
            "<body><div><div class=byline><p>By a writer who has written about this topic for many years now.</p></div>\
             <article>{article}</article></div></body>"
        );
        let out = run(&html);
        assert!(out.text.contains("long body"), "{}", out.text);
        assert!(!out.text.contains("writer"), "{}", out.text);
    }

    #[test]
    fn page_without_a_content_block_is_empty() {
        // A store shell: menus, footer headings and one-line labels, no text of its own.
        let html = "<body><nav><a href=/>Home</a> <a href=/c>Catalogue</a></nav>\
             <h2>Main Content</h2><p>Reviews</p><p>Similar products</p>\
             <footer><h3>Help</h3><ul><li><a href=/h>Help center</a></li></ul><h3>Browse by Category</h3></footer></body>";
        let out = run(html);
        assert_eq!(out.text, "");
        assert!(out.empty_reason.is_some());
        // One real paragraph is enough to answer.
        let out = run(&format!(
            "<body><h2>Main Content</h2><p>{ARTICLE}</p></body>"
        ));
        assert!(out.text.contains("long body"), "{}", out.text);
    }

    #[test]
    fn long_footer_footnotes_do_not_outweigh_the_page() {
        let legal = "Testing conducted by the company in January using preproduction systems and software, results may vary with configuration and usage.";
        let notes = format!("<p>{legal}</p>").repeat(4);
        // Enough copy (over `retry_below_words`) that the marked pass stands.
        let copy = format!("<p>{ARTICLE}</p>").repeat(3);
        let html = format!(
            "<body><div class=hero><h2>Built to go places</h2>{copy}</div>\
             <footer><ol>{notes}</ol></footer></body>"
        );
        let out = run(&html);
        assert!(out.text.contains("long body"), "{}", out.text);
        assert!(!out.text.contains("preproduction"), "{}", out.text);
        // A page whose only text is in its footer still answers (the cascade).
        let out = run(&format!("<body><footer>{notes}</footer></body>"));
        assert!(out.text.contains("preproduction"), "{}", out.text);
    }

    #[test]
    fn author_boxes_are_dropped() {
        let html = format!(
            "<body><article><h1>Title</h1><p>{ARTICLE}</p><p>{ARTICLE}</p><p>{ARTICLE} End.</p>\
             <div class=\"author-box\"><p>Jane writes about gardens and has done so for many years, \
             contributing to several magazines. Biography.</p></div></article></body>"
        );
        let out = run(&html);
        assert!(out.text.contains("End."), "{}", out.text);
        assert!(!out.text.contains("Biography."), "{}", out.text);
    }

    #[test]
    fn sibling_sections_of_a_landing_page_are_kept() {
        let section = |h: &str| {
            format!(
                "<section><h2>{h}</h2><p>{ARTICLE}</p><p><a href=/x>Learn more</a></p></section>"
            )
        };
        let html = format!(
            "<body><nav><a href=/>Home</a> <a href=/p>Pricing</a></nav><div class=page>\
             <div class=wrap><section><h2>Hero</h2><p>{ARTICLE}</p><p>{ARTICLE} Again.</p></section></div>\
             {}{}</div><footer><p>{ARTICLE} Legal.</p></footer></body>",
            section("Features"),
            section("Security")
        );
        let out = run(&html);
        assert!(out.text.contains("Again."), "{}", out.text);
        assert!(out.text.contains("Features"), "{}", out.text);
        assert!(out.text.contains("Security"), "{}", out.text);
        assert!(!out.text.contains("Legal."), "{}", out.text);
        assert!(!out.text.contains("Pricing"), "{}", out.text);
    }

    #[test]
    fn a_run_of_small_sections_joins_the_largest_one() {
        // A service page: a hero section with the longest copy, then a run of sections
        // with a heading and one paragraph each, every one below the plain sibling floor.
        let section = |h: &str| format!("<section><h2>{h}</h2><p>{ARTICLE} {h}.</p></section>");
        let hero = format!("<p>{ARTICLE}</p>").repeat(6);
        // The menu inside the page wrapper keeps the wrapper from being the container.
        let menu = (1..=30)
            .map(|i| format!("<a href=/{i}>Menu item {i}</a> "))
            .collect::<String>();
        let html = format!(
            "<body><div class=page><nav>{menu}</nav>\
             <section><h1>Our service</h1>{hero}</section>{}{}{}\
             <div class=aside><p>{ARTICLE} Aside.</p></div></div></body>",
            section("Onboarding"),
            section("Support"),
            section("Security")
        );
        let out = run(&html);
        for h in ["Onboarding.", "Support.", "Security."] {
            assert!(out.text.contains(h), "{h} {}", out.text);
        }
        // A lone sibling of another kind still needs the plain floor.
        assert!(!out.text.contains("Aside."), "{}", out.text);
    }

    #[test]
    fn marks_inside_sibling_sections_still_count() {
        // The menu inside the page wrapper makes the hero the container; the Features
        // section joins it as a sibling, without its share box.
        let menu = (1..=12)
            .map(|i| format!("<a href=/{i}>Menu item {i}</a> "))
            .collect::<String>();
        let html = format!(
            "<body><div class=page><nav>{menu}</nav>\
             <div class=wrap><section><h2>Hero</h2><p>{ARTICLE}</p><p>{ARTICLE}</p><p>{ARTICLE} Again.</p></section></div>\
             <section><h2>Features</h2><p>{ARTICLE}</p><p>{ARTICLE}</p>\
             <div class=share-buttons><p>Share this page with your friends on every network you use today.</p></div>\
             </section></div></body>"
        );
        let out = run(&html);
        assert!(out.text.contains("Features"), "{}", out.text);
        assert!(!out.text.contains("friends"), "{}", out.text);
    }

    #[test]
    fn customer_reviews_on_a_product_page_are_dropped() {
        let specs = (1..=8)
            .map(|i| format!("<li>Spec line {i}: a value of the product</li>"))
            .collect::<String>();
        let reviews = (1..=5)
            .map(|i| format!("<div class=customer-review><p>Reviewer {i} says this is a great thing, bought it for my son and he loves it, would buy again without a doubt.</p></div>"))
            .collect::<String>();
        let body = format!(
            "<body><div class=product><h1>Thing</h1><p>{ARTICLE}</p><p>{ARTICLE}</p><ul>{specs}</ul></div>\
             <div class=reviews-list>{reviews}</div></body>"
        );
        let product = format!("<head><meta property=og:type content=product></head>{body}");
        let out = run(&product);
        assert!(out.text.contains("Spec line 3"), "{}", out.text);
        assert!(!out.text.contains("Reviewer"), "{}", out.text);
        // JSON-LD declares the product just as well.
        let ld = format!("<head><script type=application/ld+json>{{\"@context\":\"https://schema.org\",\"@type\": [\"Product\"]}}</script></head>{body}");
        assert!(!run(&ld).text.contains("Reviewer"));
        // An article (an editorial review) keeps its `review-` named parts.
        let article = format!(
            "<head><meta property=og:type content=article></head><body><div class=review-body><p>{ARTICLE}</p><p>{ARTICLE}</p></div>\
             <div class=review-verdict><p>{ARTICLE} Verdict.</p></div></body>"
        );
        assert!(run(&article).text.contains("Verdict."));
    }

    #[test]
    fn linked_cards_of_nested_sections_are_kept_on_a_listing_page() {
        // A category page: sections (one repeated structure), each a list of linked
        // cards (a smaller one); no section's list alone dominates the page.
        let section = |s: u32| {
            let cards = (1..=4)
                .map(|i| format!("<div class=card><a href=/{s}/{i}>Linked card {s}.{i} of this section</a></div>"))
                .collect::<String>();
            format!(
                "<section class=group><h2>Section {s}</h2><div class=cards>{cards}</div></section>"
            )
        };
        let html = format!(
            "<body><div class=groups>{}</div></body>",
            (1..=6).map(section).collect::<String>()
        );
        let out = run(&html);
        assert!(out.text.contains("Linked card 2.3"), "{}", out.text);
        assert!(out.text.contains("Linked card 5.1"), "{}", out.text);
    }

    #[test]
    fn labels_recurring_in_every_post_of_a_thread_are_dropped() {
        let names = ["alice", "bob", "carol", "dave"];
        let posts: String = names
            .iter()
            .enumerate()
            .map(|(k, name)| {
                format!(
                    "<div class=post><div class=user><span>{name}</span><dl><dt>Joined</dt>\
                     <dd>Mar {k}, 2015</dd><dt>Messages</dt><dd>1,{k}04</dd></dl></div>\
                     <div class=body><p>Post number {k} by {name} says the gasket on the \
                     water pump was the culprit all along, and replacing it with a new one \
                     from the dealer stopped the leak for good after two weeks.</p></div></div>"
                )
            })
            .collect();
        let html = format!(
            "<html><body><nav><a href=/>Home</a> <a href=/f>Forums</a></nav>\
             <div class=thread><h1>Water pump leak</h1>{posts}</div>\
             <footer>Copyright</footer></body></html>"
        );
        let out = run(&html);
        for name in names {
            assert!(out.text.contains(name), "{}", out.text);
        }
        assert!(out.text.contains("Mar 2, 2015"), "{}", out.text);
        assert!(
            out.text.contains("the gasket on the water pump"),
            "{}",
            out.text
        );
        assert!(!out.text.contains("Joined"), "{}", out.text);
        assert!(!out.text.contains("Messages"), "{}", out.text);
        assert!(!out.text.contains("1,204"), "{}", out.text);
    }

    #[test]
    fn recurring_short_lines_of_an_article_without_posts_are_kept() {
        // Cards without a written paragraph (spec sheets, price plans) are no thread.
        let cards: String = (0..4)
            .map(|k| {
                format!(
                    "<div class=card><h3>Lamp {k}</h3><p>Max light</p><p>{k}00 lumens</p>\
                     <p>Weight</p><p>{k} ounces</p><p>Rechargeable battery inside</p></div>"
                )
            })
            .collect();
        let html = format!(
            "<html><body><div class=main><h1>Best lamps</h1><p>We tested many lamps over \
             several months of camping trips and these are the ones we liked the most, \
             with their light output and weight.</p>{cards}</div></body></html>"
        );
        let out = run(&html);
        assert!(out.text.contains("Max light"), "{}", out.text);
    }

    #[test]
    fn empty_page_says_why() {
        let out = run("<html><head><title>x</title></head></html>");
        assert_eq!(out.text, "");
        assert!(out.empty_reason.is_some());
    }
}
