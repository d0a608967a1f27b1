//! The walk from html5ever's tree to the flat [`PageDom`]: one iterative pass (an
//! explicit stack, so pages nested 100,000 deep do not overflow the call stack) that
//! skips hidden subtrees (`skip_hidden.rs`), opens an arena entry per block-level element
//! (`tags.rs` says which tags are), parses large `<noscript>` fragments, reads head
//! matter (`meta.rs`) and hands text to the block builder (`text.rs`).

use html5ever::tendril::TendrilSink;
use html5ever::ParseOpts;
use markup5ever_rcdom::{Handle, NodeData, RcDom};

use super::attrs::{attr_value, id_class, kind_sig, role};
use super::boxes::{ElemBox, BOX_ATTR};
use super::limits::limit_nesting;
use super::markup::{inline_kind, MarkupBuilder, SpanKind};
use super::node_text::text_of;
use super::settings::{MAX_DEPTH, MAX_SOURCE_DEPTH, NOSCRIPT_MIN_BYTES};
use super::tags::{classify, TagClass};
use super::{BlockKind, ElemId, Element, PageDom, NO_ELEM};

/// One step of the iterative walk.
enum Step {
    Enter(Handle, usize),
    /// Leaving a block-level element: restore the enclosing one.
    ExitBlock {
        restore: ElemId,
        restore_kind: Option<BlockKind>,
        was_pre: bool,
    },
    /// Leaving a link (`span`: its markup span was opened; the walk's word and image
    /// counts and the enclosing element when it was entered, to tell an empty link).
    ExitLink {
        span: bool,
        words_at: u64,
        images_at: u64,
        elem: ElemId,
    },
    /// Leaving an inline element whose markup span was opened.
    ExitInline,
}

/// The walk's state: the page built so far, the block being built (its text and counts,
/// see `text.rs`), the enclosing element and block kind, and the caches of the wrapper
/// guard (`wrappers.rs`).
#[derive(Default)]
pub(super) struct Builder {
    pub(super) page: PageDom,
    pub(super) text: String,
    pub(super) words: u32,
    pub(super) link_words: u32,
    pub(super) links: u32,
    pub(super) lead_link_words: u32,
    /// Whether an unlinked word has been seen in the block being built.
    pub(super) unlinked_seen: bool,
    pub(super) first_unlinked: u32,
    /// Whether the last char pushed to `text` was whitespace (for collapsing).
    pub(super) space_pending: bool,
    pub(super) current: ElemId,
    pub(super) kind: Option<BlockKind>,
    pub(super) link_depth: u32,
    pub(super) pre_depth: u32,
    /// Words and `<img>`s met so far in the whole walk (a link that adds neither is
    /// empty: [`PageDom::empty_links`]).
    pub(super) total_words: u64,
    pub(super) images: u64,
    /// Parsed `<noscript>` fragments being walked.
    pub(super) fragments: Vec<RcDom>,
    /// The document root and its readable text size (computed on first need), for
    /// [`Builder::holds_most_text`].
    pub(super) document: Option<Handle>,
    pub(super) doc_text_bytes: Option<usize>,
    /// Readable text size of the `<main>` regions met by [`Builder::holds_most_text`],
    /// by node address (computed once each: a page may hide many panels in one region).
    pub(super) main_text_bytes: Vec<(usize, usize)>,
    /// The inline markup recorder, when the structured outputs need it (`markup.rs`).
    pub(super) markup: Option<Box<MarkupBuilder>>,
}

impl Builder {
    pub(super) fn build(mut self, document: &Handle) -> PageDom {
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
                        self.exit_markup(id);
                    }
                    self.current = restore;
                    self.kind = restore_kind;
                    if was_pre {
                        self.pre_depth -= 1;
                    }
                }
                Step::ExitLink {
                    span,
                    words_at,
                    images_at,
                    elem,
                } => {
                    self.link_depth -= 1;
                    let empty = self.total_words == words_at && self.images == images_at;
                    if empty && elem != NO_ELEM && self.page.empty_links.last() != Some(&elem) {
                        self.page.empty_links.push(elem);
                    }
                    if span {
                        self.close_span();
                    }
                }
                Step::ExitInline => self.close_span(),
            }
        }
        self.flush();
        let mut page = self.page;
        if let Some(boxes) = page.boxes.as_mut() {
            boxes.resize(page.elements.len(), None);
        }
        page.markup = self.markup.map(|m| Box::new(m.finish()));
        page
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
                if self.is_skipped_as_hidden(node, &attr) {
                    return;
                }
                match classify(tag) {
                    TagClass::Skip => {
                        if tag == "script" {
                            self.read_ld_json(node, &attr);
                        } else if is_entry_field(tag, attr("type")) && self.current != NO_ELEM {
                            self.page.entry_fields.push(self.current);
                            if tag == "textarea" {
                                self.page.message_fields.push(self.current);
                            }
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
                    TagClass::Title => self.read_title(node),
                    TagClass::Meta => self.read_meta(&attr),
                    TagClass::Br => {
                        if !self.text.is_empty() {
                            self.text.push('\n');
                            self.space_pending = false;
                        }
                        if self.pre_depth > 0 {
                            self.push_raw("\n");
                        }
                    }
                    TagClass::Link => {
                        if let Some(href) = attr("href") {
                            self.link_depth += 1;
                            self.links += 1;
                            let span = self.markup.as_ref().is_some_and(|m| m.options.links)
                                && self.open_span(SpanKind::Link(href.trim().into()));
                            stack.push(Step::ExitLink {
                                span,
                                words_at: self.total_words,
                                images_at: self.images,
                                elem: self.current,
                            });
                        }
                        push_children(node, depth, stack);
                    }
                    TagClass::Inline => {
                        if tag == "img" {
                            self.images += 1;
                        }
                        if self.markup.is_some() {
                            self.enter_inline(tag, &attr, stack);
                        }
                        push_children(node, depth, stack);
                    }
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

    /// An inline element while markup is recorded: open its span (emphasis, code) or
    /// record its image.
    fn enter_inline<'a>(
        &mut self,
        tag: &str,
        attr: &impl Fn(&str) -> Option<&'a str>,
        stack: &mut Vec<Step>,
    ) {
        if tag == "img" {
            if self.markup.as_ref().is_some_and(|m| m.options.images) {
                if let Some(src) = image_source(attr) {
                    self.image(src, attr("alt").unwrap_or(""));
                }
            }
        } else if let Some(kind) = inline_kind(tag, attr("class")) {
            if self.open_span(kind) {
                stack.push(Step::ExitInline);
            }
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
        self.page.elements.push(Element {
            tag: tag.into(),
            parent: self.current,
            end: id + 1,
            id_class: id_class(tag, attr).into(),
            role: role(attr).into(),
            sig: kind_sig(tag, attr("class").unwrap_or("")),
        });
        if let Some(b) = attr(BOX_ATTR).and_then(ElemBox::parse) {
            let boxes = self.page.boxes.get_or_insert_with(Vec::new);
            boxes.resize(id as usize, None);
            boxes.push(Some(b));
        }
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
}

/// An image's address: `src`, or the lazy-loading attribute a script copies into it when
/// `src` is a placeholder (empty or a `data:` URL).
fn image_source<'a>(attr: &impl Fn(&str) -> Option<&'a str>) -> Option<&'a str> {
    let usable = |v: &&str| !v.trim().is_empty() && !v.trim_start().starts_with("data:");
    ["src", "data-src", "data-original", "data-lazy-src"]
        .into_iter()
        .find_map(|a| attr(a).filter(usable))
        .map(str::trim)
}

fn push_children(node: &Handle, depth: usize, stack: &mut Vec<Step>) {
    for child in node.children.borrow().iter().rev() {
        stack.push(Step::Enter(child.clone(), depth));
    }
}

#[cfg(test)]
mod tests {
    use super::super::{parse, BlockKind};

    #[test]
    fn empty_links_are_recorded_by_their_element() {
        // An overlay link without text or image, an icon link, a linked image and a
        // linked word: only the first two are empty.
        let page = parse(
            "<body><div class=card><a href=/a></a><p>Title</p></div>\
             <div class=share><a href=/fb><i class=icon></i></a></div>\
             <div class=pic><a href=/b><img src=x.jpg></a></div>\
             <p><a href=/c>word</a></p></body>",
        );
        let tags: Vec<&str> = page
            .empty_links
            .iter()
            .map(|&e| &*page.elements[e as usize].id_class)
            .collect();
        assert_eq!(tags, ["card", "share"]);
    }

    #[test]
    fn entry_fields_are_counted_per_element() {
        let page = parse(
            "<body><form><p>Name</p><input><input type=EMAIL><input type=checkbox>\
             <input type=hidden><input type=submit><button>Go</button><select></select>\
             <textarea></textarea></form><div><input type=image></div></body>",
        );
        let form = page
            .elements
            .iter()
            .position(|e| &*e.tag == "form")
            .unwrap();
        assert_eq!(page.entry_fields_in(form as u32), 5);
        assert_eq!(page.entry_fields.len(), 5);
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
        // The leading link and where the unlinked text after it begins.
        assert_eq!(page.blocks[1].lead_link_words, 2);
        assert_eq!(
            &page.blocks[1].text[page.blocks[1].first_unlinked as usize..],
            "six"
        );
        assert_eq!(page.blocks[0].lead_link_words, 0);
        let div = page.elements.iter().find(|e| &*e.tag == "div").unwrap();
        assert_eq!(&*div.id_class, "main a b");
    }
}

/// A form control a visitor fills in: a `<textarea>`, a `<select>`, or an `<input>` that
/// is not hidden and not a button (text, e-mail, password, checkbox, radio…; no `type`
/// means text).
fn is_entry_field(tag: &str, input_type: Option<&str>) -> bool {
    match tag {
        "textarea" | "select" => true,
        "input" => !input_type.is_some_and(|t| {
            ["hidden", "submit", "button", "image", "reset"]
                .iter()
                .any(|b| t.trim().eq_ignore_ascii_case(b))
        }),
        _ => false,
    }
}
