//! The structured outputs (`--output-format markdown|html`): the main content as
//! Markdown or as clean HTML, beside the plain `text`. Nothing here decides what is
//! content: the text an extractor wrote is matched back to the page's blocks it came
//! from, and the structure (headings, lists, tables, code, quotes) and inline markup
//! (emphasis, code, links, images) are read from those blocks' elements and recorded
//! spans. Every character of the text is written, so the words of the Markdown with its
//! markup removed are the words of `text`.
//!
//! - `mod.rs` (this file): [`OutputFormat`], [`RenderOptions`] and [`render`].
//! - `align.rs`: the text's lines matched to the blocks they came from.
//! - `layout.rs`: the blocks as a tree of headings, paragraphs, lists, tables, quotes and
//!   code blocks, from their elements' ancestors.
//! - `inline.rs`: a block's text with its spans, as Markdown or HTML inline content;
//!   addresses made absolute.
//! - `escape.rs`: Markdown escaping of text, HTML escaping.
//! - `markdown.rs`, `html.rs`: the tree written out.

mod align;
mod escape;
mod html;
mod inline;
mod layout;
mod markdown;

use serde::{Deserialize, Serialize};

use crate::extract::dom::{MarkupOptions, PageDom};

pub use html::ALLOWED_TAGS;

/// What records carry beside `text`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum OutputFormat {
    /// `text` alone.
    #[default]
    Text,
    /// `markdown` beside `text`: CommonMark with GitHub tables.
    Markdown,
    /// `html` beside `text`: the kept blocks as clean HTML.
    Html,
}

impl std::str::FromStr for OutputFormat {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "text" => Ok(OutputFormat::Text),
            "markdown" | "md" => Ok(OutputFormat::Markdown),
            "html" => Ok(OutputFormat::Html),
            _ => Err(format!(
                "output format must be text, markdown or html, not `{s}`"
            )),
        }
    }
}

impl std::fmt::Display for OutputFormat {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            OutputFormat::Text => "text",
            OutputFormat::Markdown => "markdown",
            OutputFormat::Html => "html",
        })
    }
}

/// How to render.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct RenderOptions {
    pub format: OutputFormat,
    /// Links as links (their text is written either way).
    pub links: bool,
    /// Images (alt text and absolute address).
    pub images: bool,
}

impl RenderOptions {
    /// What the parse must record for this output (nothing for `text`).
    pub fn markup(&self) -> MarkupOptions {
        let record = self.format != OutputFormat::Text;
        MarkupOptions {
            record,
            links: record && self.links,
            images: record && self.images,
        }
    }
}

/// What [`render`] renders: the page, the text written for it, and where it came from.
pub struct Rendered<'a> {
    pub dom: &'a PageDom,
    /// The record's `text`.
    pub text: &'a str,
    /// The blocks the extractor wrote, in order (`Extracted::blocks`; empty: match the
    /// text's lines against all blocks).
    pub blocks: &'a [u32],
    /// The title line put above the text (`with_title`), written as a level-1 heading.
    pub title_line: Option<&'a str>,
    /// The page's address, against which links and images are resolved.
    pub url: &'a str,
}

/// The Markdown or HTML of a page's text (`None` for [`OutputFormat::Text`]).
pub fn render(page: &Rendered<'_>, options: &RenderOptions) -> Option<String> {
    if options.format == OutputFormat::Text {
        return None;
    }
    let pieces = align::align(page.dom, page.blocks, page.text, page.title_line);
    let tree = layout::layout(page.dom, &pieces);
    let base = url::Url::parse(page.url).ok();
    let ctx = inline::Context {
        markup: page.dom.markup.as_deref(),
        base: base.as_ref(),
        links: options.links,
        images: options.images,
    };
    Some(match options.format {
        OutputFormat::Markdown => markdown::write(&tree, &ctx),
        OutputFormat::Html => html::write(&tree, &ctx),
        OutputFormat::Text => unreachable!("returned above"),
    })
}
