//! html5ever → a flat, `Send` page model that the extractors share: block-level
//! elements in document order (an arena with parent links), and text blocks, each
//! with its word and link-word counts. The tree is walked once, iteratively (pages
//! nested 100,000 deep must not overflow the stack), and the RcDom is dropped right
//! after, so the rest of the pipeline works on compact data.

use html5ever::tendril::TendrilSink;
use html5ever::ParseOpts;
use markup5ever_rcdom::{Handle, NodeData, RcDom};

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
    /// Lower-cased `id` and `class` attribute values joined by a space.
    pub id_class: Box<str>,
    /// `itemprop`/`role` values, lower-cased (e.g. `articlebody`, `main`).
    pub role: Box<str>,
    /// Hash of the tag name and the class token naming its kind ([`sig_class`]):
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
}

impl PageDom {
    /// Total words of all visible blocks.
    pub fn visible_words(&self) -> u64 {
        self.blocks.iter().map(|b| b.words as u64).sum()
    }

    /// Whether the page says it shows one product: `og:type` `product` (or
    /// `product.item`, not `product.group`, a category page), or a JSON-LD `Product` on a
    /// page that does not call itself an article (editorial reviews describe the reviewed
    /// product in JSON-LD too). Stores' product pages carry customer reviews and
    /// questions next to the description; see the heuristic's review items.
    pub fn declares_product(&self) -> bool {
        match self.og_type.as_deref() {
            Some(t) if t.starts_with("product") || t.starts_with("og:product") => {
                !t.contains("group")
            }
            Some("article") => false,
            _ => self.ld_product,
        }
    }

    /// Whether element `inner` is `outer` or inside it.
    pub fn contains(&self, outer: ElemId, inner: ElemId) -> bool {
        outer <= inner && inner < self.elements[outer as usize].end
    }
}

/// A `<noscript>` with less raw markup than this is skipped (tracking pixels, "enable
/// JavaScript" notes); a larger one is parsed and walked.
pub const NOSCRIPT_MIN_BYTES: usize = 2_000;

/// Elements deeper than this are not given their own arena entry (their text still
/// counts, attributed to the ancestor at this depth): real pages stay far below it, and
/// it bounds the work on pathological nesting.
pub const MAX_DEPTH: usize = 512;

/// A parsed page: the html5ever tree (for extractors that need the full tree, such as
/// XPath rules) and the flat model built from it once.
pub struct ParsedPage {
    pub tree: RcDom,
    pub dom: PageDom,
}

/// Parse `html` into the tree and the flat page model.
pub fn parse_page(html: &str) -> ParsedPage {
    let html = limit_nesting(html, MAX_SOURCE_DEPTH);
    let tree = html5ever::parse_document(RcDom::default(), ParseOpts::default()).one(&*html);
    let dom = Builder::default().build(&tree.document);
    ParsedPage { tree, dom }
}

/// Parse `html` and keep only the flat page model.
pub fn parse(html: &str) -> PageDom {
    parse_page(html).dom
}

/// Nesting depth in the source beyond which opening tags are dropped before parsing.
/// html5ever's tree builder scans its stack of open elements for many tags, so a page
/// nested 100,000 deep costs it minutes; real pages stay below a few hundred.
pub const MAX_SOURCE_DEPTH: usize = 2_000;

/// Drop opening tags (and as many closing tags) nested deeper than `max` in the source,
/// keeping all text. Elements whose end tags are optional (`p`, `li`, `td`, …) and void
/// elements are not counted. Pages that stay within `max` are returned as they are.
pub fn limit_nesting(html: &str, max: usize) -> std::borrow::Cow<'_, str> {
    let bytes = html.as_bytes();
    let mut out: Option<String> = None;
    let mut copied = 0; // bytes of `html` already handled when rewriting
    let mut depth = 0usize;
    let mut suppressed = 0usize;
    let mut pos = 0;
    while let Some(off) = memchr::memchr(b'<', &bytes[pos..]) {
        let start = pos + off;
        let rest = &bytes[start + 1..];
        if rest.starts_with(b"!--") {
            pos = memchr::memmem::find(rest, b"-->").map_or(bytes.len(), |e| start + 1 + e + 3);
            continue;
        }
        let closing = rest.first() == Some(&b'/');
        let name_start = start + 1 + closing as usize;
        let name_len = bytes[name_start..]
            .iter()
            .take_while(|b| b.is_ascii_alphanumeric())
            .count();
        let Some(end) = memchr::memchr(b'>', &bytes[name_start..]).map(|e| name_start + e + 1)
        else {
            break;
        };
        pos = end;
        if name_len == 0 {
            continue;
        }
        // Tag names are short: lower-case into a stack buffer (a longer one is a custom
        // element, counted like any other).
        let mut buf = [0u8; 16];
        let name: &str = if name_len <= buf.len() {
            for (d, s) in buf
                .iter_mut()
                .zip(&bytes[name_start..name_start + name_len])
            {
                *d = s.to_ascii_lowercase();
            }
            std::str::from_utf8(&buf[..name_len]).unwrap_or("-")
        } else {
            "-"
        };
        if !closing
            && matches!(
                name,
                "script"
                    | "style"
                    | "textarea"
                    | "title"
                    | "xmp"
                    | "noembed"
                    | "noframes"
                    | "iframe"
            )
        {
            // Raw text: skip to the matching end tag (case-insensitive, no copying).
            pos = find_end_tag(bytes, end, name.as_bytes()).unwrap_or(bytes.len());
            continue;
        }
        let counted = !bytes[end - 2..end].starts_with(b"/")
            && !matches!(
                name,
                "p" | "li"
                    | "dt"
                    | "dd"
                    | "tr"
                    | "td"
                    | "th"
                    | "option"
                    | "optgroup"
                    | "thead"
                    | "tbody"
                    | "tfoot"
                    | "colgroup"
                    | "caption"
                    | "rp"
                    | "rt"
                    | "html"
                    | "head"
                    | "body"
                    | "br"
                    | "img"
                    | "input"
                    | "meta"
                    | "link"
                    | "hr"
                    | "area"
                    | "base"
                    | "col"
                    | "embed"
                    | "param"
                    | "source"
                    | "track"
                    | "wbr"
            );
        if !counted {
            continue;
        }
        let drop_tag = if closing {
            if suppressed > 0 {
                suppressed -= 1;
                true
            } else {
                depth = depth.saturating_sub(1);
                false
            }
        } else if depth >= max {
            suppressed += 1;
            true
        } else {
            depth += 1;
            false
        };
        if drop_tag {
            let buf = out.get_or_insert_with(|| String::with_capacity(html.len()));
            buf.push_str(&html[copied..start]);
            copied = end;
        }
    }
    match out {
        None => std::borrow::Cow::Borrowed(html),
        Some(mut buf) => {
            buf.push_str(&html[copied..]);
            std::borrow::Cow::Owned(buf)
        }
    }
}

/// Position of the first `</name` (ASCII case-insensitive) at or after `from`.
fn find_end_tag(bytes: &[u8], from: usize, name: &[u8]) -> Option<usize> {
    let mut at = from;
    while let Some(off) = memchr::memmem::find(&bytes[at..], b"</") {
        let start = at + off;
        let rest = &bytes[start + 2..];
        if rest.len() >= name.len() && rest[..name.len()].eq_ignore_ascii_case(name) {
            return Some(start);
        }
        at = start + 2;
    }
    None
}

pub(crate) enum TagClass {
    /// Not visible text (script, style, head matter, form controls).
    Skip,
    /// `<noscript>`: raw text when parsing with scripting on.
    NoScript,
    Block(BlockKind),
    Inline,
    Link,
    Br,
    Title,
    Meta,
    Frame,
}

pub(crate) fn classify(tag: &str) -> TagClass {
    use BlockKind::*;
    match tag {
        "noscript" => TagClass::NoScript,
        "script" | "style" | "template" | "svg" | "math" | "object" | "embed" | "canvas"
        | "select" | "option" | "button" | "input" | "textarea" | "video" | "audio" | "map"
        | "datalist" | "link" | "base" => TagClass::Skip,
        "iframe" | "frame" | "frameset" => TagClass::Frame,
        "title" => TagClass::Title,
        "meta" => TagClass::Meta,
        "a" => TagClass::Link,
        "br" => TagClass::Br,
        "p" => TagClass::Block(Paragraph),
        "h1" => TagClass::Block(Heading(1)),
        "h2" => TagClass::Block(Heading(2)),
        "h3" => TagClass::Block(Heading(3)),
        "h4" => TagClass::Block(Heading(4)),
        "h5" => TagClass::Block(Heading(5)),
        "h6" => TagClass::Block(Heading(6)),
        "li" | "dt" | "dd" => TagClass::Block(ListItem),
        "pre" => TagClass::Block(Preformatted),
        "td" | "th" | "caption" => TagClass::Block(TableCell),
        "html" | "body" | "div" | "section" | "article" | "main" | "header" | "footer" | "nav"
        | "aside" | "blockquote" | "ul" | "ol" | "dl" | "table" | "tbody" | "thead" | "tfoot"
        | "tr" | "form" | "fieldset" | "figure" | "figcaption" | "address" | "center"
        | "details" | "summary" | "hgroup" | "hr" | "menu" | "dir" | "legend" | "dialog"
        | "noframes" | "search" => TagClass::Block(Other),
        _ => TagClass::Inline,
    }
}

enum Step {
    Enter(Handle, usize),
    /// Leaving a block-level element: restore the enclosing one.
    ExitBlock {
        restore: ElemId,
        restore_kind: Option<BlockKind>,
        was_pre: bool,
    },
    ExitLink,
}

#[derive(Default)]
struct Builder {
    page: PageDom,
    text: String,
    words: u32,
    link_words: u32,
    links: u32,
    /// Whether the last char pushed to `text` was whitespace (for collapsing).
    space_pending: bool,
    current: ElemId,
    kind: Option<BlockKind>,
    link_depth: u32,
    pre_depth: u32,
    /// Parsed `<noscript>` fragments being walked.
    fragments: Vec<RcDom>,
    /// The document root and its readable text size (computed on first need), for
    /// [`holds_most_text`].
    document: Option<Handle>,
    doc_text_bytes: Option<usize>,
    /// Readable text size of the `<main>` regions met by [`Builder::holds_most_text`],
    /// by node address (computed once each: a page may hide many panels in one region).
    main_text_bytes: Vec<(usize, usize)>,
}

impl Builder {
    fn build(mut self, document: &Handle) -> PageDom {
        self.current = NO_ELEM;
        self.document = Some(document.clone());
        let mut stack = vec![Step::Enter(document.clone(), 0)];
        while let Some(step) = stack.pop() {
            match step {
                Step::Enter(node, depth) => self.enter(&node, depth, &mut stack),
                Step::ExitBlock {
                    restore,
                    restore_kind,
                    was_pre,
                } => {
                    self.flush();
                    let id = self.current;
                    if id != NO_ELEM {
                        self.page.elements[id as usize].end = self.page.elements.len() as ElemId;
                    }
                    self.current = restore;
                    self.kind = restore_kind;
                    if was_pre {
                        self.pre_depth -= 1;
                    }
                }
                Step::ExitLink => self.link_depth -= 1,
            }
        }
        self.flush();
        self.page
    }

    fn enter(&mut self, node: &Handle, depth: usize, stack: &mut Vec<Step>) {
        match &node.data {
            NodeData::Document => push_children(node, depth, stack),
            NodeData::Text { contents } => {
                let contents = contents.borrow();
                self.push_text(&contents);
            }
            NodeData::Element { name, attrs, .. } => {
                let tag: &str = &name.local;
                let attrs = attrs.borrow();
                let attr = |n: &str| attr_value(&attrs, n);
                if ((is_hidden(&attr)
                    || hidden_by_hide_class(attr("class"))
                    || hidden_by_display_class(attr("class")))
                    && !is_tab_panel(&attr)
                    && !is_switchable_panel(node)
                    && !self.holds_most_text(node))
                    || hidden_by_class(attr("class"), node)
                {
                    return;
                }
                match classify(tag) {
                    TagClass::Skip => {
                        if tag == "script"
                            && !self.page.ld_product
                            && attr("type").is_some_and(|t| t.contains("ld+json"))
                        {
                            self.page.ld_product = ld_declares_product(&text_of(node));
                        }
                    }
                    TagClass::NoScript => {
                        // With scripting on, html5ever keeps `<noscript>` as raw text. Some
                        // sites (Discourse, Flarum forums) put the whole page there for
                        // clients without JavaScript: parse a large one as a fragment and
                        // walk it as a `noscript` block element (the heuristic treats it as
                        // boilerplate unless it holds most of the page's text).
                        let raw = text_of(node);
                        if raw.len() < NOSCRIPT_MIN_BYTES || depth >= MAX_DEPTH {
                            return;
                        }
                        let fragment = html5ever::parse_fragment(
                            RcDom::default(),
                            ParseOpts::default(),
                            html5ever::QualName::new(
                                None,
                                html5ever::ns!(html),
                                html5ever::local_name!("div"),
                            ),
                            vec![],
                            false,
                        )
                        .one(&*limit_nesting(&raw, MAX_SOURCE_DEPTH));
                        self.flush();
                        self.open_block(tag, &attr, BlockKind::Other, stack);
                        push_children(&fragment.document, depth + 1, stack);
                        // RcDom's drop empties its nodes' child lists: keep the fragment
                        // alive until the walk is over.
                        self.fragments.push(fragment);
                    }
                    TagClass::Frame => self.page.frames += 1,
                    TagClass::Title => {
                        if self.page.title.is_empty() {
                            self.page.title = collapse(&text_of(node));
                        }
                    }
                    TagClass::Meta => {
                        let prop = attr("property").or_else(|| attr("name")).unwrap_or("");
                        if matches!(prop, "og:title" | "twitter:title")
                            && self.page.meta_title.is_none()
                        {
                            self.page.meta_title = attr("content").map(collapse);
                        }
                        if matches!(prop, "og:site_name" | "application-name")
                            && self.page.site_name.is_none()
                        {
                            self.page.site_name = attr("content").map(collapse);
                        }
                        if prop == "og:type" && self.page.og_type.is_none() {
                            self.page.og_type = attr("content").map(|c| collapse(c).to_lowercase());
                        }
                        if prop == "og:url" && self.page.meta_url.is_none() {
                            self.page.meta_url = attr("content").map(collapse);
                        }
                    }
                    TagClass::Br => {
                        if !self.text.is_empty() {
                            self.text.push('\n');
                            self.space_pending = false;
                        }
                    }
                    TagClass::Link => {
                        if attr("href").is_some() {
                            self.link_depth += 1;
                            self.links += 1;
                            stack.push(Step::ExitLink);
                        }
                        push_children(node, depth, stack);
                    }
                    TagClass::Inline => push_children(node, depth, stack),
                    TagClass::Block(kind) => {
                        self.flush();
                        if depth >= MAX_DEPTH {
                            self.page.truncated_depth = true;
                            push_children(node, depth, stack);
                            return;
                        }
                        self.open_block(tag, &attr, kind, stack);
                        push_children(node, depth + 1, stack);
                    }
                }
            }
            _ => {}
        }
    }

    /// Start a block-level element: push it to the arena and schedule its exit.
    fn open_block<'a>(
        &mut self,
        tag: &str,
        attr: &impl Fn(&str) -> Option<&'a str>,
        kind: BlockKind,
        stack: &mut Vec<Step>,
    ) {
        let id = self.page.elements.len() as ElemId;
        let mut id_class = String::new();
        for n in ["id", "class"] {
            if let Some(v) = attr(n) {
                if !id_class.is_empty() {
                    id_class.push(' ');
                }
                id_class.push_str(&v.to_lowercase());
            }
        }
        let mut role = String::new();
        for n in ["itemprop", "role"] {
            if let Some(v) = attr(n) {
                role.push_str(&v.to_lowercase());
                role.push(' ');
            }
        }
        self.page.elements.push(Element {
            tag: tag.into(),
            parent: self.current,
            end: id + 1,
            id_class: id_class.into(),
            role: role.trim_end().into(),
            sig: kind_sig(tag, attr("class").unwrap_or("")),
        });
        if tag == "body" && self.page.body.is_none() {
            self.page.body = Some(id);
        }
        let was_pre = kind == BlockKind::Preformatted;
        if was_pre {
            self.pre_depth += 1;
        }
        stack.push(Step::ExitBlock {
            restore: self.current,
            restore_kind: self.kind,
            was_pre,
        });
        self.current = id;
        self.kind = Some(kind);
    }

    fn push_text(&mut self, s: &str) {
        let in_link = self.link_depth > 0;
        let mut in_word = false;
        for c in s.chars() {
            if c.is_whitespace() {
                in_word = false;
                if self.pre_depth > 0 && c == '\n' {
                    self.text.push('\n');
                    self.space_pending = false;
                } else if !self.text.is_empty() && !self.text.ends_with('\n') {
                    self.space_pending = true;
                }
                continue;
            }
            if self.space_pending {
                self.text.push(' ');
                self.space_pending = false;
            }
            self.text.push(c);
            let word_char = c.is_alphanumeric();
            if word_char && !in_word {
                self.words += 1;
                if in_link {
                    self.link_words += 1;
                }
            }
            in_word = word_char;
        }
    }

    /// End the current block (if it has any text) at a block-level boundary.
    fn flush(&mut self) {
        self.space_pending = false;
        if self.words == 0 && self.text.trim().is_empty() {
            self.text.clear();
            return;
        }
        let text = std::mem::take(&mut self.text);
        let text = text.trim_end_matches(['\n', ' ']).to_string();
        let elem = if self.current == NO_ELEM {
            0
        } else {
            self.current
        };
        if self.page.elements.is_empty() {
            // Text before any element (only possible in odd documents): give it a root.
            self.page.elements.push(Element {
                tag: "html".into(),
                parent: NO_ELEM,
                end: 1,
                id_class: "".into(),
                role: "".into(),
                sig: 0,
            });
        }
        self.page.blocks.push(Block {
            text,
            words: self.words,
            link_words: self.link_words,
            links: self.links,
            elem,
            kind: self.kind.unwrap_or(BlockKind::Other),
        });
        self.words = 0;
        self.link_words = 0;
        self.links = 0;
    }
}

impl Builder {
    /// Whether `node` holds most of the document's readable text. Single-page-app and
    /// theme templates hide the whole page until scripts or fonts load (Next.js
    /// `<div style="visibility:hidden">` around everything, `aria-hidden="true"` on the
    /// app root while a consent dialog is open); a reader sees that text, so such a
    /// page-level wrapper is not treated as hidden. Real hidden parts (menus, modals,
    /// the mobile copy of a section) hold a minority of the page.
    fn holds_most_text(&mut self, node: &Handle) -> bool {
        let total = match self.doc_text_bytes {
            Some(t) => t,
            None => {
                let t = self.document.as_ref().map_or(0, readable_text_bytes);
                self.doc_text_bytes = Some(t);
                t
            }
        };
        let own = readable_text_bytes(node);
        if own < HIDDEN_CLASS_MAX_BYTES {
            return false;
        }
        if own as f64 > HIDDEN_WRAPPER_MIN_SHARE * total as f64 {
            return true;
        }
        let Some(main) = enclosing_main(node) else {
            return false;
        };
        let key = std::rc::Rc::as_ptr(&main) as usize;
        let region = match self.main_text_bytes.iter().find(|(k, _)| *k == key) {
            Some(&(_, t)) => t,
            None => {
                let t = readable_text_bytes(&main);
                self.main_text_bytes.push((key, t));
                t
            }
        };
        own as f64 > HIDDEN_MAIN_MIN_SHARE * region as f64
    }
}

/// The nearest `<main>` (or `role=main`) ancestor of `node`. A hidden wrapper holding
/// most of the page's main region is hidden only until scripts run (Shopify lock-down
/// and age-gate apps wrap the product section in `<div style="display:none">` inside
/// `<main>`), even when menus and footers outweigh it in the whole document.
/// (A hidden copy of a visible text, such as a blog's raw Markdown in `<pre hidden>`,
/// holds only about half of its main region: see [`HIDDEN_MAIN_MIN_SHARE`].)
fn enclosing_main(node: &Handle) -> Option<Handle> {
    let mut cur = parent_of(node);
    while let Some(h) = cur {
        if let NodeData::Element { name, attrs, .. } = &h.data {
            let main = &*name.local == "main"
                || attr_value(&attrs.borrow(), "role")
                    .is_some_and(|r| r.eq_ignore_ascii_case("main"));
            if main {
                return Some(h);
            }
        }
        cur = parent_of(&h);
    }
    None
}

fn parent_of(node: &Handle) -> Option<Handle> {
    let weak = node.parent.take();
    let parent = weak.as_ref().and_then(|w| w.upgrade());
    node.parent.set(weak);
    parent
}

/// Share of its `<main>` region's text a hidden element must hold to be that region's
/// wrapper hidden until scripts run (the rest of the region is then nearly empty).
const HIDDEN_MAIN_MIN_SHARE: f64 = 0.8;

/// An inactive tab of a tab set (`role="tabpanel"`, hidden until its tab is clicked):
/// documentation sites show one code sample or install recipe per language or platform
/// this way (Docusaurus, Sphinx tabs, design-system tabs); every panel is part of the
/// page's text, the hidden ones only a click away.
fn is_tab_panel<'a>(attr: &impl Fn(&str) -> Option<&'a str>) -> bool {
    attr("role").is_some_and(|r| {
        r.split_ascii_whitespace()
            .any(|t| t.eq_ignore_ascii_case("tabpanel"))
    })
}

/// Share of the document's readable text a hidden element must hold to be a page-level
/// wrapper hidden only until scripts run (see [`Builder::holds_most_text`]).
const HIDDEN_WRAPPER_MIN_SHARE: f64 = 0.5;

/// Non-whitespace text bytes below a node, outside scripts, styles and templates.
fn readable_text_bytes(node: &Handle) -> usize {
    let mut n = 0;
    let mut stack = vec![node.clone()];
    while let Some(h) = stack.pop() {
        match &h.data {
            NodeData::Text { contents } => {
                n += contents
                    .borrow()
                    .bytes()
                    .filter(|b| !b.is_ascii_whitespace())
                    .count();
            }
            NodeData::Element { name, .. }
                if matches!(
                    &*name.local,
                    "script" | "style" | "template" | "noscript" | "svg"
                ) => {}
            _ => {
                for c in h.children.borrow().iter() {
                    stack.push(c.clone());
                }
            }
        }
    }
    n
}

fn push_children(node: &Handle, depth: usize, stack: &mut Vec<Step>) {
    for child in node.children.borrow().iter().rev() {
        stack.push(Step::Enter(child.clone(), depth));
    }
}

/// `hidden`, `aria-hidden="true"`, `style="display:none"`: not shown to a reader.
pub(crate) fn is_hidden<'a>(attr: &impl Fn(&str) -> Option<&'a str>) -> bool {
    if attr("hidden").is_some() && !attr("id").is_some_and(is_streamed_segment_id) {
        return true;
    }
    if aria_hidden(attr) {
        return true;
    }
    attr("style").is_some_and(|s| {
        let s: String = s
            .chars()
            .filter(|c| !c.is_whitespace())
            .collect::<String>()
            .to_ascii_lowercase();
        s.contains("display:none") || s.contains("visibility:hidden")
    })
}

/// `aria-hidden="true"`. (On a sibling of a hidden panel, see [`is_switchable_panel`],
/// it marks the off-screen slide or the cloned copy of a carousel or marquee, not a tab.)
fn aria_hidden<'a>(attr: &impl Fn(&str) -> Option<&'a str>) -> bool {
    attr("aria-hidden").is_some_and(|v| v.eq_ignore_ascii_case("true"))
}

/// The value of attribute `name`, if the element has it.
fn attr_value<'a>(attrs: &'a [html5ever::Attribute], name: &str) -> Option<&'a str> {
    attrs
        .iter()
        .find(|a| &*a.name.local == name)
        .map(|a| &*a.value)
}

/// React's streaming server rendering (Next.js app router and others) sends each
/// Suspense boundary's content late in the document as `<div hidden id="S:0">…</div>`;
/// an inline script (`$RC("B:0","S:0")`) moves it into place on load, so a reader sees
/// it. Such pages put their whole product description or landing copy there.
fn is_streamed_segment_id(id: &str) -> bool {
    id.strip_prefix("S:")
        .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

/// Utility classes that hide an element (Bootstrap `d-none`, `sr-only`, `visually-hidden`,
/// WordPress `screen-reader-text`, plain `hidden`), as exact class tokens, on a small
/// element only: "Skip to content", "Posted on", "opens in a new window". A large one is
/// kept (CSS may show it on some screens, and missing text costs more than a stray line).
fn hidden_by_class(class: Option<&str>, node: &Handle) -> bool {
    class.is_some_and(|c| {
        c.split_ascii_whitespace().any(|t| {
            matches!(
                t,
                "d-none" | "hidden" | "sr-only" | "visually-hidden" | "screen-reader-text"
            )
        })
    }) && text_of(node).len() <= HIDDEN_CLASS_MAX_BYTES
}

const HIDDEN_CLASS_MAX_BYTES: usize = 200;

/// The `hide` utility class (Bootstrap 2/3, Foundation, many themes: `.hide {display:
/// none}`): hidden like an inline `display:none`, at any size, and with the same guards
/// (a page-level wrapper hidden until scripts run, a tab panel). Unlike `hidden`, it is
/// not a Tailwind class that a responsive `lg:block` shows again on desktop.
fn hidden_by_hide_class(class: Option<&str>) -> bool {
    class.is_some_and(|c| c.split_ascii_whitespace().any(|t| t == "hide"))
}

/// The display utility classes that hide an element at every size unless another class
/// shows it again (Tailwind `hidden`, Bootstrap 4/5 `d-none`, Bulma `is-hidden`): hidden
/// like an inline `display:none`, with the same guards. A responsive class that shows it
/// at a breakpoint (Tailwind `hidden lg:block`, Bootstrap `d-none d-md-flex`, Bulma
/// `is-hidden is-flex-desktop`) makes it visible on a desktop screen: kept.
/// (`sr-only` / `visually-hidden` are not here: screen-reader text, and a large one is
/// often the page's real heading or summary.)
fn hidden_by_display_class(class: Option<&str>) -> bool {
    let Some(c) = class else {
        return false;
    };
    let mut hidden = false;
    for t in c.split_ascii_whitespace() {
        if is_display_hiding_token(t) {
            hidden = true;
        } else if shows_at_breakpoint(t) {
            return false;
        }
    }
    hidden
}

/// The display utility tokens that hide an element (see [`hidden_by_display_class`]).
fn is_display_hiding_token(t: &str) -> bool {
    matches!(t, "hidden" | "d-none" | "is-hidden")
}

/// A responsive class token that sets a visible display value at some screen size:
/// Tailwind `md:block`, `lg:flex`, `xl:inline-grid`, `min-[900px]:table`; Bootstrap
/// `d-md-block`, `d-lg-flex`; Bulma `is-block-desktop`, `is-flex-tablet`. (Print-only
/// tokens such as `d-print-block` and `print:block` do not count.)
fn shows_at_breakpoint(t: &str) -> bool {
    fn visible(v: &str) -> bool {
        matches!(
            v,
            "block"
                | "flex"
                | "grid"
                | "inline"
                | "inline-block"
                | "inline-flex"
                | "inline-grid"
                | "table"
                | "contents"
                | "flow-root"
                | "list-item"
                | "table-cell"
                | "table-row"
        )
    }
    if let Some((prefix, value)) = t.rsplit_once(':') {
        return !prefix.ends_with("print") && visible(value.trim_start_matches('!'));
    }
    if let Some(rest) = t.strip_prefix("d-") {
        return rest
            .split_once('-')
            .is_some_and(|(bp, v)| bp != "print" && visible(v));
    }
    if let Some(rest) = t.strip_prefix("is-") {
        return rest.rsplit_once('-').is_some_and(|(v, bp)| {
            matches!(
                bp,
                "mobile" | "tablet" | "touch" | "desktop" | "widescreen" | "fullhd"
            ) && visible(v)
        });
    }
    false
}

/// A panel that a control on the page shows, hidden only until clicked; its text is part
/// of the page (FAQ answers, "read more" bodies, the other tabs of a tab set). Two markups,
/// seen from the panel's previous element sibling:
/// - an accordion: the sibling is the toggle (`<button>`, `<summary>`, `role=button`,
///   `aria-expanded`), or wraps it as its last element;
/// - a tab set without ARIA roles: the sibling is a panel of the same kind shown (same
///   tag, the same class tokens but for the hiding one).
fn is_switchable_panel(node: &Handle) -> bool {
    let Some(prev) = prev_element_sibling(node) else {
        return false;
    };
    let mut toggle = Some(prev.clone());
    for _ in 0..3 {
        let Some(t) = toggle else {
            break;
        };
        if is_toggle(&t) {
            return true;
        }
        if is_form(&t) {
            break;
        }
        toggle = last_element_child(&t);
    }
    let (
        NodeData::Element {
            name: n1,
            attrs: a1,
            ..
        },
        NodeData::Element {
            name: n2,
            attrs: a2,
            ..
        },
    ) = (&node.data, &prev.data)
    else {
        return false;
    };
    let (a1, a2) = (a1.borrow(), a2.borrow());
    if n1.local != n2.local || aria_hidden(&|n| attr_value(&a1, n)) {
        return false;
    }
    // The class tokens but for the hiding ones, sorted.
    fn kind(a: &[html5ever::Attribute]) -> Vec<&str> {
        let mut tokens: Vec<&str> = attr_value(a, "class")
            .unwrap_or("")
            .split_ascii_whitespace()
            .filter(|t| !is_display_hiding_token(t))
            .collect();
        tokens.sort_unstable();
        tokens
    }
    let own = kind(&a1);
    !own.is_empty() && own == kind(&a2)
}

/// A `<form>`: its last button submits it, and the hidden element after it is the
/// form's "thank you" message, not a panel that button opens.
fn is_form(h: &Handle) -> bool {
    matches!(&h.data, NodeData::Element { name, .. } if &*name.local == "form")
}

/// An accordion toggle: a `<button>` or `<summary>`, or an element with `role=button` or
/// `aria-expanded`.
fn is_toggle(h: &Handle) -> bool {
    let NodeData::Element { name, attrs, .. } = &h.data else {
        return false;
    };
    let attrs = attrs.borrow();
    let role = attr_value(&attrs, "role");
    let opens_popup = attr_value(&attrs, "aria-haspopup").is_some()
        || role.is_some_and(|r| !r.eq_ignore_ascii_case("button"));
    !opens_popup
        && (matches!(&*name.local, "button" | "summary")
            || attr_value(&attrs, "aria-expanded").is_some()
            || role.is_some_and(|r| r.eq_ignore_ascii_case("button")))
}

/// Children of one parent beyond which a hidden element's previous sibling is not looked
/// for (keeps the walk linear on a long list of hidden items; panels have few siblings).
const MAX_SIBLINGS_SCANNED: usize = 1024;

fn prev_element_sibling(node: &Handle) -> Option<Handle> {
    let parent = parent_of(node)?;
    let children = parent.children.borrow();
    if children.len() > MAX_SIBLINGS_SCANNED {
        return None;
    }
    let at = children.iter().position(|c| std::rc::Rc::ptr_eq(c, node))?;
    children[..at]
        .iter()
        .rev()
        .find(|c| matches!(c.data, NodeData::Element { .. }))
        .cloned()
}

fn last_element_child(node: &Handle) -> Option<Handle> {
    node.children
        .borrow()
        .iter()
        .rev()
        .find(|c| matches!(c.data, NodeData::Element { .. }))
        .cloned()
}

/// Whether a JSON-LD text gives some entity the type `Product` (`"@type": "Product"` or
/// `"@type": ["Product", …]`), by a plain scan: no JSON parse.
fn ld_declares_product(json: &str) -> bool {
    let mut rest = json;
    while let Some(at) = rest.find("\"@type\"") {
        rest = &rest[at + "\"@type\"".len()..];
        let v = rest.trim_start();
        let Some(v) = v.strip_prefix(':') else {
            continue;
        };
        let v = v.trim_start();
        let v = v.strip_prefix('[').map_or(v, str::trim_start);
        if v.starts_with("\"Product\"") {
            return true;
        }
    }
    false
}

/// All text below a node (used for `<title>`), iteratively.
fn text_of(node: &Handle) -> String {
    let mut out = String::new();
    let mut stack = vec![node.clone()];
    while let Some(n) = stack.pop() {
        if let NodeData::Text { contents } = &n.data {
            out.push_str(&contents.borrow());
        }
        for c in n.children.borrow().iter().rev() {
            stack.push(c.clone());
        }
    }
    out
}

/// Collapse whitespace runs to one space and trim.
pub fn collapse(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for w in s.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(w);
    }
    out
}

/// An element's kind, [`Element::sig`]: its tag and the part of its `class` value that
/// names its kind ([`sig_class`]).
pub(crate) fn kind_sig(tag: &str, class: &str) -> u32 {
    let mut h = crc32fast::Hasher::new();
    h.update(tag.as_bytes());
    h.update(b"\0");
    h.update(sig_class(class).as_bytes());
    h.finalize()
}

/// The part of a `class` value that names an element's kind, for [`Element::sig`].
/// CMS templates add per-item tokens to repeated items (WordPress `post-94972
/// category-dinner`, WooCommerce `product_cat-bags instock first`, `card card--featured`),
/// which would make every card of a grid its own kind; the first token without a digit
/// names the kind (`product`, `carousel-cell`, `card`). On WCXB dev this beat both the
/// whole value and the value without digit tokens (listing, collection, product, service).
fn sig_class(class: &str) -> &str {
    class
        .split_ascii_whitespace()
        .find(|t| !t.bytes().any(|b| b.is_ascii_digit()))
        .unwrap_or("")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nesting_beyond_the_limit_is_flattened_keeping_text() {
        let html = format!("{}<b>x</b>{}", "<div>".repeat(10), "</div>".repeat(10));
        assert!(matches!(
            limit_nesting(&html, 11),
            std::borrow::Cow::Borrowed(_)
        ));
        let limited = limit_nesting(&html, 4);
        assert_eq!(
            limited,
            format!("{}x{}", "<div>".repeat(4), "</div>".repeat(4))
        );
        let with_optional = "<p><p><p><li><li><div>t</div><script>\"<div><div>\"</script>";
        assert!(matches!(
            limit_nesting(with_optional, 1),
            std::borrow::Cow::Borrowed(_)
        ));
    }

    #[test]
    fn cards_with_per_item_classes_share_a_signature() {
        let page = parse(
            "<body><div><article class='post-11 post category-soup'><p>a</p></article>\
             <article class='post-12 post category-bread has-thumb'><p>b</p></article>\
             <article class='teaser'><p>c</p></article></div></body>",
        );
        let sigs: Vec<u32> = page
            .elements
            .iter()
            .filter(|e| &*e.tag == "article")
            .map(|e| e.sig)
            .collect();
        assert_eq!(sigs.len(), 3);
        assert_eq!(sigs[0], sigs[1]);
        assert_ne!(sigs[0], sigs[2]);
    }

    #[test]
    fn blocks_split_at_block_elements_and_count_links() {
        let page = parse(
            "<html><head><title> T  x </title></head><body><div id=Main class='A b'>\
             <p>One two <b>three</b></p><ul><li><a href=/x>four five</a> six</li></ul>\
             <script>var no = 1;</script></div></body></html>",
        );
        assert_eq!(page.title, "T x");
        let texts: Vec<&str> = page.blocks.iter().map(|b| b.text.as_str()).collect();
        assert_eq!(texts, ["One two three", "four five six"]);
        assert_eq!(page.blocks[1].link_words, 2);
        assert_eq!(page.blocks[1].words, 3);
        assert_eq!(page.blocks[1].kind, BlockKind::ListItem);
        let div = page.elements.iter().find(|e| &*e.tag == "div").unwrap();
        assert_eq!(&*div.id_class, "main a b");
    }

    #[test]
    fn small_elements_hidden_by_utility_classes_are_skipped() {
        let page = parse("<p>seen <span class='sr-only'>skip me</span></p><p class='x hidden'>no</p><p class=hidden-md>kept</p>");
        let text: Vec<&str> = page.blocks.iter().map(|b| b.text.as_str()).collect();
        assert_eq!(text, ["seen", "kept"]);
    }

    #[test]
    fn page_wrapper_hidden_until_scripts_run_is_walked() {
        let body = "the whole page text is here ".repeat(10);
        let html = format!(
            "<div style='visibility:hidden'><p style='display:none'>menu</p><p>{body}</p></div><p>foot</p>"
        );
        let page = parse(&html);
        let text: Vec<&str> = page.blocks.iter().map(|b| b.text.as_str()).collect();
        assert_eq!(text, [body.trim(), "foot"]);
        // A hidden part holding a minority of the text stays hidden.
        let page = parse(&format!(
            "<p>{body}</p><p>{body}</p><div aria-hidden=true><p>{body}</p></div>"
        ));
        assert_eq!(page.blocks.len(), 2);
    }

    #[test]
    fn main_region_hidden_until_scripts_run_is_walked() {
        let body = "the product description is here ".repeat(10);
        let menu = "<p>menu entry and another menu entry</p>".repeat(30);
        let html = format!(
            "<nav>{menu}</nav><main><div style='display:none'><p>{body}</p></div><p>x</p></main>"
        );
        let page = parse(&html);
        assert!(page.blocks.iter().any(|b| b.text == body.trim()));
        // A hidden copy of a visible text in the same region stays hidden.
        let html = format!("<nav>{menu}</nav><main><p>{body}</p><pre hidden>{body}</pre></main>");
        assert_eq!(
            parse(&html)
                .blocks
                .iter()
                .filter(|b| b.text == body.trim())
                .count(),
            1
        );
    }

    #[test]
    fn hide_class_hides_at_any_size() {
        let body = "the whole page text is here ".repeat(10);
        let page = parse(&format!(
            "<p>{body}</p><p>{body}</p><dl class='info hide'><dt>{body}</dt></dl><p class=hide-mobile>kept</p>"
        ));
        let text: Vec<&str> = page.blocks.iter().map(|b| b.text.as_str()).collect();
        assert_eq!(text, [body.trim(), body.trim(), "kept"]);
        // A page-level wrapper hidden until scripts run is walked.
        let page = parse(&format!(
            "<main class='post hide'><p>{body}</p></main><p>foot</p>"
        ));
        assert_eq!(page.blocks.len(), 2);
    }

    #[test]
    fn display_classes_hide_unless_shown_at_a_breakpoint() {
        let body = "the whole page text is here ".repeat(10);
        let page = parse(&format!(
            "<p>{body}</p><p>{body}</p><div class='menu hidden'><p>{body}</p></div>\
             <div class='d-none'><p>{body}</p></div><div class='hidden lg:block'><p>desk {body}</p></div>\
             <div class='d-none d-md-flex'><p>md {body}</p></div><div class='d-none d-print-block'><p>{body}</p></div>"
        ));
        let text: Vec<&str> = page.blocks.iter().map(|b| b.text.as_str()).collect();
        let desk = format!("desk {}", body.trim());
        let md = format!("md {}", body.trim());
        assert_eq!(text, [body.trim(), body.trim(), &desk, &md]);
    }

    #[test]
    fn hidden_accordion_bodies_and_tab_siblings_are_walked() {
        let body = "the whole page text is here ".repeat(10);
        let long = |w: &str| format!("{w} {}", "and some more words ".repeat(12).trim());
        let (answer, detail, two, three, thanks, clone) = (
            long("answer"),
            long("detail"),
            long("two"),
            long("three"),
            long("thanks"),
            long("clone"),
        );
        let page = parse(&format!(
            "<p>{body}</p><p>{body}</p><p>{body}</p>\
             <div><div><button>Question?</button></div><div class='answer hidden'><p>{answer}</p></div></div>\
             <details><summary>More</summary><div style='display:none'><p>{detail}</p></div></details>\
             <ul class='list'><li>one</li></ul><ul class='list hidden'><li>{two}</li></ul><ul class='list hidden'><li>{three}</li></ul>\
             <form><button>Send</button></form><div class='hidden'><p>{thanks}</p></div>\
             <div class='slide'><p>a</p></div><div class='slide' aria-hidden=true><p>{clone}</p></div>"
        ));
        let text: Vec<&str> = page.blocks.iter().map(|b| b.text.as_str()).collect();
        assert!(text.contains(&answer.as_str()), "{text:?}");
        assert!(text.contains(&detail.as_str()));
        assert!(text.contains(&two.as_str()) && text.contains(&three.as_str()));
        assert!(!text.contains(&thanks.as_str()));
        assert!(!text.contains(&clone.as_str()));
    }

    #[test]
    fn hidden_tab_panels_are_walked() {
        let page = parse(
            "<div role=tabpanel><p>pip install x</p></div><div role=tabpanel hidden style='display:none'><p>npm install x</p></div><p>intro</p><p>intro</p><p>intro</p><p>intro</p>",
        );
        let text: Vec<&str> = page.blocks.iter().map(|b| b.text.as_str()).collect();
        assert_eq!(text[..2], ["pip install x", "npm install x"]);
    }

    #[test]
    fn product_declarations() {
        let og = |t: &str| parse(&format!("<meta property=og:type content='{t}'><p>x</p>"));
        assert!(og("product").declares_product());
        assert!(og("product.item").declares_product());
        assert!(!og("product.group").declares_product());
        assert!(!og("website").declares_product());
        let ld = |og: &str, json: &str| {
            parse(&format!(
                "<meta property=og:type content={og}><script type='application/ld+json'>{json}</script><p>x</p>"
            ))
        };
        assert!(ld("website", r#"{"@type" : "Product", "name": "x"}"#).declares_product());
        assert!(ld("website", r#"{"@type":["Product","Thing"]}"#).declares_product());
        assert!(!ld("website", r#"{"@type":"ProductGroup"}"#).declares_product());
        // An editorial review describes the reviewed product too.
        assert!(!ld(
            "article",
            r#"{"@type":"Review","itemReviewed":{"@type":"Product"}}"#
        )
        .declares_product());
    }

    #[test]
    fn hidden_elements_are_skipped() {
        let page = parse("<p>seen</p><p style='display: none'>unseen</p><p hidden>no</p>");
        assert_eq!(page.blocks.len(), 1);
    }

    #[test]
    fn streamed_react_segments_are_not_hidden() {
        let page = parse(
            "<p>seen</p><div hidden id='S:1'><p>streamed</p></div><div hidden id='S:x'><p>no</p></div>",
        );
        let texts: Vec<&str> = page.blocks.iter().map(|b| b.text.as_str()).collect();
        assert_eq!(texts, ["seen", "streamed"]);
    }

    #[test]
    fn deep_nesting_does_not_overflow_and_keeps_text() {
        let depth = 100_000;
        let html = format!(
            "{}deep text{}",
            "<div>".repeat(depth),
            "</div>".repeat(depth)
        );
        let page = parse(&html);
        assert_eq!(page.blocks.len(), 1);
        assert_eq!(page.blocks[0].text, "deep text");
    }
}
