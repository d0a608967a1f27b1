//! What each HTML tag is to the walk ([`classify`]): skipped matter, a block-level
//! element (and which [`BlockKind`]), inline, a link, a line break, or head matter
//! (title, meta, frames). Shared with the per-site rules' text walkers (`rules/`).

use super::BlockKind;

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
