//! The words of Markdown and HTML outputs with their markup removed, to compare with the
//! words of `text` (shared by `tests/output_format.rs` and `examples/markup_words.rs`).
//! A word is a run of letters and digits, as in the corpus scores.

use html5ever::tendril::TendrilSink;
use markup5ever_rcdom::{Handle, NodeData, RcDom};
use pulldown_cmark::{Event, Options, Parser, Tag, TagEnd};

/// The runs of letters and digits of `s`, in order.
pub fn words(s: &str) -> Vec<&str> {
    s.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect()
}

/// The text of Markdown as a CommonMark reader (with GitHub tables) sees it: text and
/// code, a space at every block boundary and line break, images' alt text left out (it
/// is no word of the page's text), raw HTML kept as written (so that markup the writer
/// let through shows up as extra words).
pub fn markdown_plain(md: &str) -> String {
    let mut out = String::new();
    let mut in_image = 0usize;
    for event in Parser::new_ext(md, Options::ENABLE_TABLES) {
        match event {
            Event::Text(t) | Event::Code(t) => {
                if in_image == 0 {
                    out.push_str(&t);
                }
            }
            Event::Html(h) | Event::InlineHtml(h) => out.push_str(&h),
            Event::Start(Tag::Image { .. }) => in_image += 1,
            Event::End(TagEnd::Image) => in_image = in_image.saturating_sub(1),
            Event::Start(Tag::Emphasis | Tag::Strong | Tag::Strikethrough | Tag::Link { .. })
            | Event::End(
                TagEnd::Emphasis | TagEnd::Strong | TagEnd::Strikethrough | TagEnd::Link,
            ) => {}
            Event::Start(_) | Event::End(_) | Event::SoftBreak | Event::HardBreak | Event::Rule => {
                out.push(' ')
            }
            _ => {}
        }
    }
    out
}

/// The text of an HTML fragment: text nodes, a space at every element boundary but for
/// the inline elements the writer uses (`em`, `strong`, `code`, `a`, `img`).
pub fn html_plain(html: &str) -> String {
    let dom = html5ever::parse_document(RcDom::default(), Default::default()).one(html);
    let mut out = String::new();
    let mut stack: Vec<Handle> = vec![dom.document.clone()];
    // Children in order: push in reverse; a `None` marks an element's end.
    let mut work: Vec<Option<Handle>> = stack.drain(..).map(Some).collect();
    while let Some(item) = work.pop() {
        let Some(node) = item else {
            out.push(' ');
            continue;
        };
        match &node.data {
            NodeData::Text { contents } => out.push_str(&contents.borrow()),
            NodeData::Element { name, .. } => {
                let inline = matches!(&*name.local, "em" | "strong" | "code" | "a" | "img");
                if !inline {
                    out.push(' ');
                    work.push(None);
                }
                for c in node.children.borrow().iter().rev() {
                    work.push(Some(c.clone()));
                }
            }
            _ => {
                for c in node.children.borrow().iter().rev() {
                    work.push(Some(c.clone()));
                }
            }
        }
    }
    out
}
