//! What the flat page model keeps of a page's inline markup, for the structured outputs
//! (`render/`: Markdown and clean HTML): per text block, the spans of emphasis, code,
//! links and images as byte ranges of the block's text, and the raw text of `<pre>`
//! blocks (their indentation, which the block's text collapses). Recorded during the one
//! walk that builds the blocks, so that the structure belongs to exactly the blocks the
//! extractors keep; only when asked ([`MarkupOptions`]), since plain text needs none of it.
//! This file holds the data; `markup_walk.rs` the recording during the walk.

/// What to record beside the blocks.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct MarkupOptions {
    /// Record anything at all (emphasis, code and `<pre>` text).
    pub record: bool,
    /// Record links (`<a href>`) with their targets.
    pub links: bool,
    /// Record images (`<img>`) with their source and alt text.
    pub images: bool,
}

/// What an inline span is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SpanKind {
    /// `<em>`, `<i>`.
    Emphasis,
    /// `<strong>`, `<b>`.
    Strong,
    /// `<code>`, `<kbd>`, `<samp>`, `<tt>`, with the language its class names
    /// (`language-x`, `lang-x`), for a `<code>` inside `<pre>`.
    Code(Option<Box<str>>),
    /// `<a href>`: the target as the page gives it (resolved when rendered).
    Link(Box<str>),
    /// `<img>` (empty span): source as the page gives it, and alt text.
    Image { src: Box<str>, alt: Box<str> },
}

/// An inline span of a block's text: bytes `start..end` of [`Block::text`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Span {
    pub start: u32,
    pub end: u32,
    pub kind: SpanKind,
}

/// A span still open while its block is being built.
pub(super) const OPEN: u32 = u32::MAX;

/// The inline markup of every block of a page.
#[derive(Debug, Default)]
pub struct Markup {
    /// The spans of all blocks, block after block, each block's in document order of
    /// their starts (an outer span before the spans inside it).
    pub(super) spans: Vec<Span>,
    /// `spans[starts[i]..starts[i + 1]]` are block `i`'s spans.
    pub(super) starts: Vec<u32>,
    /// The raw text of `<pre>` blocks (whitespace as the page has it), by block index.
    pub(super) pre: Vec<(u32, String)>,
}

impl Markup {
    /// The inline spans of block `i`.
    pub fn spans(&self, i: usize) -> &[Span] {
        match (self.starts.get(i), self.starts.get(i + 1)) {
            (Some(&a), Some(&b)) => &self.spans[a as usize..b as usize],
            (Some(&a), None) => &self.spans[a as usize..],
            _ => &[],
        }
    }

    /// The raw text of block `i` when it is preformatted (its lines' indentation kept).
    pub fn pre_text(&self, i: usize) -> Option<&str> {
        self.pre
            .binary_search_by_key(&(i as u32), |(b, _)| *b)
            .ok()
            .map(|at| self.pre[at].1.as_str())
    }
}

/// The recorder's state while the walk builds a block.
#[derive(Debug, Default)]
pub(super) struct MarkupBuilder {
    pub(super) options: MarkupOptions,
    pub(super) out: Markup,
    /// Spans of the block being built (`end == OPEN` while open).
    pub(super) current: Vec<Span>,
    /// Indices in `current` of the open spans, innermost last.
    pub(super) open: Vec<usize>,
    /// Raw text of the `<pre>` block being built.
    pub(super) raw: String,
    /// Images of a block that had no text, handed to the next block when it sits in
    /// the same element (a `<figure>`'s image and its caption).
    pub(super) orphans: Vec<(super::ElemId, Span)>,
}

impl MarkupBuilder {
    pub(super) fn new(options: MarkupOptions) -> Self {
        MarkupBuilder {
            options,
            ..MarkupBuilder::default()
        }
    }

    /// The page's markup, once the walk is over.
    pub(super) fn finish(self) -> Markup {
        self.out
    }
}

/// The inline kind of a tag, if it is one the outputs show (emphasis, code).
pub(super) fn inline_kind(tag: &str, class: Option<&str>) -> Option<SpanKind> {
    match tag {
        "em" | "i" => Some(SpanKind::Emphasis),
        "strong" | "b" => Some(SpanKind::Strong),
        "code" | "kbd" | "samp" | "tt" => Some(SpanKind::Code(class.and_then(code_language))),
        _ => None,
    }
}

/// The language a class attribute names for code: `language-x`, `lang-x`, `highlight-x`,
/// `sourceCode x` (pandoc), `brush: x` (SyntaxHighlighter); lower-cased.
pub fn code_language(class: &str) -> Option<Box<str>> {
    let mut tokens = class.split_ascii_whitespace();
    while let Some(t) = tokens.next() {
        let t = t.to_ascii_lowercase();
        for prefix in ["language-", "lang-", "highlight-source-", "highlight-"] {
            if let Some(lang) = t.strip_prefix(prefix) {
                if is_language_name(lang) {
                    return Some(lang.into());
                }
            }
        }
        if t == "brush:" {
            if let Some(lang) = tokens
                .next()
                .map(|l| l.trim_end_matches(';').to_ascii_lowercase())
            {
                if is_language_name(&lang) {
                    return Some(lang.into());
                }
            }
        }
    }
    None
}

/// A word that can follow a code fence: letters, digits, `+ # - _ .`, not a generic
/// class word.
fn is_language_name(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 30
        && !matches!(s, "none" | "plaintext" | "text" | "default" | "notranslate")
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'#' | b'-' | b'_' | b'.'))
}

#[cfg(test)]
mod tests {
    use super::super::{max_tags, parse_page_marked, DEFAULT_MAX_PAGE_BYTES};
    use super::*;

    fn marked(html: &str) -> super::super::PageDom {
        let all = MarkupOptions {
            record: true,
            links: true,
            images: true,
        };
        parse_page_marked(html, max_tags(DEFAULT_MAX_PAGE_BYTES), all).dom
    }

    #[test]
    fn spans_are_byte_ranges_of_the_block_text() {
        let dom = marked("<p>One <em>two</em> <a href=/x>three <b>four</b></a> five</p>");
        let m = dom.markup.as_ref().unwrap();
        let b = &dom.blocks[0];
        let got: Vec<(&str, &SpanKind)> = m
            .spans(0)
            .iter()
            .map(|s| (&b.text[s.start as usize..s.end as usize], &s.kind))
            .collect();
        assert_eq!(got[0], ("two", &SpanKind::Emphasis));
        assert_eq!(got[1], ("three four", &SpanKind::Link("/x".into())));
        assert_eq!(got[2], ("four", &SpanKind::Strong));
    }

    #[test]
    fn a_span_across_a_block_boundary_continues_in_the_next_block() {
        let dom = marked("<div><a href=/a>one<div>two</div></a></div>");
        let m = dom.markup.as_ref().unwrap();
        assert_eq!(dom.blocks.len(), 2);
        assert_eq!(m.spans(0)[0].kind, SpanKind::Link("/a".into()));
        assert_eq!(m.spans(1)[0].kind, SpanKind::Link("/a".into()));
        assert_eq!((m.spans(1)[0].start, m.spans(1)[0].end), (0, 3));
    }

    #[test]
    fn pre_keeps_its_indentation_and_code_its_language() {
        let dom =
            marked("<pre><code class='language-python'>def f():\n    return 1\n</code></pre>");
        let m = dom.markup.as_ref().unwrap();
        assert_eq!(dom.blocks[0].text, "def f():\nreturn 1");
        assert_eq!(m.pre_text(0), Some("def f():\n    return 1"));
        assert_eq!(m.spans(0)[0].kind, SpanKind::Code(Some("python".into())));
        assert_eq!(
            code_language("highlight-source-rust notranslate").as_deref(),
            Some("rust")
        );
        assert_eq!(code_language("brush: js;").as_deref(), Some("js"));
        assert_eq!(code_language("language-none"), None);
    }

    #[test]
    fn a_figure_image_goes_to_its_caption() {
        let dom =
            marked("<figure><img src=a.png alt='A cat'><figcaption>The cat</figcaption></figure>");
        let m = dom.markup.as_ref().unwrap();
        assert_eq!(dom.blocks.len(), 1);
        assert!(
            matches!(&m.spans(0)[0].kind, SpanKind::Image { src, alt } if &**src == "a.png" && &**alt == "A cat")
        );
    }

    #[test]
    fn nothing_is_recorded_unless_asked() {
        assert!(super::super::parse("<p>One <em>two</em></p>")
            .markup
            .is_none());
    }
}
