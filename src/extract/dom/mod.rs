//! html5ever → a flat, `Send` page model that the extractors share: block-level
//! elements in document order (an arena with parent links), and text blocks, each
//! with its word and link-word counts. The tree is walked once, iteratively (pages
//! nested 100,000 deep must not overflow the stack), and the RcDom is dropped right
//! after, so the rest of the pipeline works on compact data.
//!
//! Where things are:
//! - `mod.rs` (this file): the page model ([`PageDom`], [`Element`], [`Block`],
//!   [`BlockKind`], [`ParsedPage`]) and the entry points [`parse_page`] / [`parse`].
//! - `settings.rs`: every size threshold, share and scan cap of the DOM code, with how
//!   it was chosen.
//! - `limits.rs`: [`limit_nesting`], dropping tags nested too deep before parsing.
//! - `build.rs`: the walk from the rcdom tree to the flat page (elements, `<noscript>`
//!   fragments, depth cap).
//! - `tags.rs`: what each tag is to the walk (`classify`: skipped, block, inline, …).
//! - `text.rs`: the text of the block being built and its measures (whitespace, words,
//!   link words).
//! - `node_text.rs`: text of rcdom subtrees, readable text size, [`collapse`],
//!   [`unspaced_word_len`].
//! - `attrs.rs`: attribute lookups, the `id class` / `role` strings, kind signatures
//!   (`kind_sig`).
//! - `meta.rs`: title, `og:*` metas, JSON-LD product, [`PageDom::declares_product`].
//! - `hidden.rs`: what counts as hidden (attributes, inline styles, utility classes).
//! - `skip_hidden.rs`: the walk's one question, whether to skip an element as hidden
//!   (`hidden.rs` less the guards of `panels.rs` and `wrappers.rs`).
//! - `panels.rs`: hidden tab panels and switchable panels (accordions, tab sets) that
//!   are walked anyway.
//! - `wrappers.rs`: hidden page or `<main>` wrappers (hidden until scripts run) that are
//!   walked anyway.
//! - `tree.rs`: parent / sibling / child navigation on the rcdom tree.
//! - `boxes.rs`: where each element stands on a rendered page ([`ElemBox`], read from the
//!   browser's stamp into [`PageDom::boxes`]).
//! - `markup.rs`: the inline markup kept for the structured outputs ([`Markup`]: spans of
//!   emphasis, code, links, images; raw `<pre>` text), recorded when asked
//!   ([`parse_page_marked`]) by `markup_walk.rs`.

use html5ever::tendril::TendrilSink;
use html5ever::ParseOpts;
use markup5ever_rcdom::RcDom;

mod attr_limits;
mod attrs;
mod boxes;
mod build;
mod hidden;
mod limits;
mod markup;
mod markup_walk;
mod meta;
mod mojibake;
mod node_text;
mod panels;
mod settings;
mod skip_hidden;
mod tags;
mod text;
mod tree;
mod wrappers;

pub use attr_limits::limit_attributes;
pub(crate) use attrs::kind_sig;
pub use boxes::{ElemBox, BOX_ATTR};
pub(crate) use hidden::is_hidden;
pub use limits::{limit_nesting, limit_tags};
pub use markup::{code_language, Markup, MarkupOptions, Span, SpanKind};
pub use node_text::{collapse, unspaced_word_len};
pub use settings::{
    max_attributes, max_tags, BYTES_PER_ATTRIBUTE, BYTES_PER_TAG, DEFAULT_MAX_PAGE_BYTES,
    MAX_ATTRIBUTES_PER_TAG, MAX_DEPTH, MAX_SOURCE_DEPTH, NOSCRIPT_MIN_BYTES,
};
pub(crate) use tags::{classify, TagClass};
pub(crate) use text::read_text;

use build::Builder;

/// Index of an element in [`PageDom::elements`].
pub type ElemId = u32;
/// No element (the parent of the root).
pub const NO_ELEM: ElemId = u32::MAX;

/// A block-level element (`div`, `p`, `td`, `article`, …).
#[derive(Debug, Clone)]
pub struct Element {
    /// Lower-case tag name.
    pub tag: Box<str>,
    pub parent: ElemId,
    /// One past the index of the last descendant: `e < d < end` iff `d` is inside `e`.
    pub end: ElemId,
    /// Lower-cased `id` and `class` attribute values joined by a space; a heading's `id`
    /// (an anchor made of its words) is left out (`attrs::id_class`).
    pub id_class: Box<str>,
    /// `itemprop`/`role` values, lower-cased (e.g. `articlebody`, `main`).
    pub role: Box<str>,
    /// Hash of the tag name and the class token naming its kind (`kind_sig` in `attrs.rs`):
    /// siblings with equal `sig` are items
    /// of one repeated structure (a product grid, a list of posts).
    pub sig: u32,
}

/// What kind of element a block of text comes from; decides how it is written out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BlockKind {
    Paragraph,
    Heading(u8),
    ListItem,
    Preformatted,
    TableCell,
    Other,
}

/// A run of text between block-level boundaries.
#[derive(Debug, Clone)]
pub struct Block {
    /// Whitespace-collapsed text (newlines kept inside `<pre>` and at `<br>`).
    pub text: String,
    pub words: u32,
    /// Words inside `<a href>`.
    pub link_words: u32,
    /// Number of `<a href>` elements that carry text into the block.
    pub links: u32,
    /// Link words before the block's first unlinked word: a block that opens with a
    /// linked title (a teaser whose title and snippet are one line) has them.
    pub lead_link_words: u32,
    /// Byte offset in `text` of the first unlinked word (0 when there is none): where
    /// the text after a leading link begins.
    pub first_unlinked: u32,
    /// Innermost block-level element containing the block.
    pub elem: ElemId,
    pub kind: BlockKind,
}

/// The page as the extractors see it.
#[derive(Debug, Default)]
pub struct PageDom {
    pub elements: Vec<Element>,
    pub blocks: Vec<Block>,
    /// `<title>` text.
    pub title: String,
    /// `og:title` / `twitter:title` meta content.
    pub meta_title: Option<String>,
    /// `og:site_name` / `application-name` meta content: the site's name, which titles
    /// repeat next to the page's own title.
    pub site_name: Option<String>,
    /// `og:url`: the address the page gives itself (for pages read from files).
    pub meta_url: Option<String>,
    /// The `<body>` element, if there was one with content.
    pub body: Option<ElemId>,
    /// Elements nested deeper than [`MAX_DEPTH`] were flattened into their ancestor.
    pub truncated_depth: bool,
    /// Number of `<frame>`/`<iframe>` elements (a page that is only frames has no text).
    pub frames: u32,
    /// `og:type` meta content, lower-cased (`article`, `product`, `product.group`…).
    pub og_type: Option<String>,
    /// A JSON-LD block (`<script type=application/ld+json>`) gives some entity the type
    /// `Product` (see [`PageDom::declares_product`]).
    pub ld_product: bool,
    /// For every field a visitor fills in (a text, e-mail or password box, a checkbox or
    /// radio button, a `<select>`, a `<textarea>`; not hidden inputs nor buttons), the
    /// block element it sits in, in document order: forms that ask for input
    /// ([`PageDom::entry_fields_in`]).
    pub entry_fields: Vec<ElemId>,
    /// The block element of every `<textarea>` (also in `entry_fields`): a box for a
    /// message, which comment and contact forms have and search or filter forms do not.
    pub message_fields: Vec<ElemId>,
    /// The block element of every `<a href>` with neither text nor image inside, in
    /// document order (an element once per run): a link laid over its card by CSS (a
    /// "stretched link" covering a teaser whose title and snippet are unlinked text), or
    /// an icon link.
    pub empty_links: Vec<ElemId>,
    /// Inline markup of the blocks (emphasis, code, links, images, raw `<pre>` text), when
    /// the parse was asked to record it ([`parse_page_marked`]).
    pub markup: Option<Box<Markup>>,
    /// On a rendered page (`--render`), each element's box by [`ElemId`] (`None` for an
    /// element the browser did not stamp); `None` on pages not rendered.
    pub boxes: Option<Vec<Option<ElemBox>>>,
}

impl PageDom {
    /// The box of element `e` on a rendered page.
    pub fn elem_box(&self, e: ElemId) -> Option<&ElemBox> {
        self.boxes.as_ref()?.get(e as usize)?.as_ref()
    }

    /// Total words of all visible blocks.
    pub fn visible_words(&self) -> u64 {
        self.blocks.iter().map(|b| b.words as u64).sum()
    }

    /// Number of fields a visitor fills in inside element `e`.
    pub fn entry_fields_in(&self, e: ElemId) -> usize {
        self.entry_fields
            .iter()
            .filter(|&&f| self.contains(e, f))
            .count()
    }

    /// Words of the visible blocks inside element `e`.
    pub fn words_in(&self, e: ElemId) -> u64 {
        self.blocks
            .iter()
            .filter(|b| self.contains(e, b.elem))
            .map(|b| b.words as u64)
            .sum()
    }

    /// Whether element `inner` is `outer` or inside it.
    pub fn contains(&self, outer: ElemId, inner: ElemId) -> bool {
        outer <= inner && inner < self.elements[outer as usize].end
    }
}

/// A parsed page: the html5ever tree (for extractors that need the full tree, such as
/// XPath rules) and the flat model built from it once.
pub struct ParsedPage {
    pub tree: RcDom,
    pub dom: PageDom,
    /// The tag budget when the page had more opening tags and was cut before the next
    /// ([`limit_tags`]).
    pub tags_cut_at: Option<usize>,
    /// Attributes dropped before parsing, past the page's attribute budget or a tag's
    /// ([`limit_attributes`]); 0 for pages within them.
    pub attributes_dropped: usize,
}

/// Parse `html` into the tree and the flat page model, with the tag budget of the
/// default `max_page_bytes`.
pub fn parse_page(html: &str) -> ParsedPage {
    parse_page_within(html, max_tags(DEFAULT_MAX_PAGE_BYTES))
}

/// Parse `html` (its first `max_tags` opening tags: [`limit_tags`]; as many attributes as
/// the same `max_page_bytes` allows, `max_tags` × 4: [`limit_attributes`]) into the tree
/// and the flat page model.
pub fn parse_page_within(html: &str, max_tags: usize) -> ParsedPage {
    parse_page_marked(html, max_tags, MarkupOptions::default())
}

/// [`parse_page_within`], recording the blocks' inline markup as `markup` asks (for the
/// structured outputs; the blocks are the same either way).
pub fn parse_page_marked(html: &str, max_tags: usize, markup: MarkupOptions) -> ParsedPage {
    let (html, cut) = limit_tags(html, max_tags);
    let (html, attributes_dropped) = limit_attributes(
        html,
        max_tags.saturating_mul(BYTES_PER_TAG / BYTES_PER_ATTRIBUTE),
    );
    let html = limit_nesting(&html, MAX_SOURCE_DEPTH);
    let tree = html5ever::parse_document(RcDom::default(), ParseOpts::default()).one(&*html);
    let mut builder = Builder::default();
    if markup.record {
        builder.markup = Some(Box::new(markup::MarkupBuilder::new(markup)));
    }
    let dom = builder.build(&tree.document);
    ParsedPage {
        tree,
        dom,
        tags_cut_at: cut.then_some(max_tags),
        attributes_dropped,
    }
}

/// Parse `html` and keep only the flat page model.
pub fn parse(html: &str) -> PageDom {
    parse_page(html).dom
}
