//! The tree as clean HTML: only the tags of [`ALLOWED_TAGS`], only `href`, `src` and
//! `alt` attributes, addresses absolute (`http`, `https`, `mailto`, `ftp`; `file` for a
//! page read from a file without an address), text
//! escaped: nothing a browser would run. One block element a line.

use super::escape;
use super::inline::{self, Context};
use super::layout::{Node, Row};

/// Every tag the HTML output may contain.
pub const ALLOWED_TAGS: &[&str] = &[
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "p",
    "ul",
    "ol",
    "li",
    "blockquote",
    "pre",
    "code",
    "table",
    "tr",
    "th",
    "td",
    "em",
    "strong",
    "a",
    "img",
    "br",
];

/// The HTML of `tree`.
pub fn write(tree: &[Node<'_>], ctx: &Context<'_>) -> String {
    let mut out = String::new();
    write_nodes(&mut out, tree, ctx);
    out
}

fn write_nodes(out: &mut String, nodes: &[Node<'_>], ctx: &Context<'_>) {
    for (k, node) in nodes.iter().enumerate() {
        if k > 0 {
            out.push('\n');
        }
        write_node(out, node, ctx);
    }
}

fn write_node(out: &mut String, node: &Node<'_>, ctx: &Context<'_>) {
    match node {
        Node::Heading(level, content) => {
            out.push_str(&format!("<h{level}>"));
            out.push_str(&inline::html(content, ctx));
            out.push_str(&format!("</h{level}>"));
        }
        Node::Paragraph(content) => {
            out.push_str("<p>");
            out.push_str(&inline::html(content, ctx));
            out.push_str("</p>");
        }
        Node::Code(_, text) => {
            out.push_str("<pre><code>");
            escape::html(out, text);
            out.push_str("</code></pre>");
        }
        Node::Quote(children) => {
            out.push_str("<blockquote>\n");
            write_nodes(out, children, ctx);
            out.push_str("\n</blockquote>");
        }
        Node::List(ordered, items) => {
            let tag = if *ordered { "ol" } else { "ul" };
            out.push_str(&format!("<{tag}>\n"));
            for item in items {
                out.push_str("<li>");
                match item.as_slice() {
                    // A one-paragraph item without the paragraph tag.
                    [Node::Paragraph(content)] => out.push_str(&inline::html(content, ctx)),
                    nodes => write_nodes(out, nodes, ctx),
                }
                out.push_str("</li>\n");
            }
            out.push_str(&format!("</{tag}>"));
        }
        Node::Table(rows) => write_table(out, rows, ctx),
    }
}

fn write_table(out: &mut String, rows: &[Row<'_>], ctx: &Context<'_>) {
    out.push_str("<table>\n");
    for row in rows {
        out.push_str("<tr>");
        for cell in &row.cells {
            let tag = if cell.header { "th" } else { "td" };
            out.push_str(&format!("<{tag}>"));
            for (k, c) in cell.content.iter().enumerate() {
                if k > 0 {
                    out.push_str("<br>");
                }
                out.push_str(&inline::html(c, ctx));
            }
            out.push_str(&format!("</{tag}>"));
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</table>");
}
