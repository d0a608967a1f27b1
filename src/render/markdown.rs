//! The tree as Markdown: CommonMark with GitHub's pipe tables. Blocks are separated by
//! a blank line; list items by a line break (continuation lines indented under the
//! marker); quotes prefix every line with `>`; a table whose rows all have the same
//! number of cells on the page is a pipe table with its first row as header (cells the
//! extractor left out are empty), any other is written one row a line, cells separated
//! by `|`.

use super::escape::Mode;
use super::inline::{self, Context};
use super::layout::{Inline, Node, Row};

/// The Markdown of `tree`.
pub fn write(tree: &[Node<'_>], ctx: &Context<'_>) -> String {
    let mut out = String::new();
    write_nodes(&mut out, tree, ctx, false);
    out
}

/// Nodes separated by blank lines, except, in a list item, a list right after the
/// paragraph it belongs to (the item's text and its sub-list), which follows on the next
/// line.
fn write_nodes(out: &mut String, nodes: &[Node<'_>], ctx: &Context<'_>, in_item: bool) {
    for (k, node) in nodes.iter().enumerate() {
        if k > 0 {
            let tight = in_item
                && matches!(node, Node::List(..))
                && matches!(nodes[k - 1], Node::Paragraph(_));
            out.push_str(if tight { "\n" } else { "\n\n" });
        }
        write_node(out, node, ctx);
    }
}

fn write_node(out: &mut String, node: &Node<'_>, ctx: &Context<'_>) {
    match node {
        Node::Heading(level, content) => {
            for _ in 0..*level {
                out.push('#');
            }
            out.push(' ');
            out.push_str(&inline::markdown(content, ctx, Mode::Heading));
        }
        Node::Paragraph(content) => out.push_str(&inline::markdown(content, ctx, Mode::Paragraph)),
        Node::Code(lang, text) => {
            let longest = text.split(|c| c != '`').map(str::len).max().unwrap_or(0);
            let fence = "`".repeat((longest + 1).max(3));
            out.push_str(&fence);
            if let Some(lang) = lang {
                out.push_str(lang);
            }
            out.push('\n');
            out.push_str(text);
            out.push('\n');
            out.push_str(&fence);
        }
        Node::Quote(children) => {
            let mut inner = String::new();
            write_nodes(&mut inner, children, ctx, false);
            prefix_lines(out, &inner, ">", ">");
        }
        Node::List(ordered, items) => {
            for (k, item) in items.iter().enumerate() {
                if k > 0 {
                    out.push('\n');
                }
                let marker = if *ordered {
                    format!("{}.", k + 1)
                } else {
                    "-".to_string()
                };
                let indent = " ".repeat(marker.len() + 1);
                let mut inner = String::new();
                write_nodes(&mut inner, item, ctx, true);
                prefix_lines(out, &inner, &marker, &indent);
            }
        }
        Node::Table(rows) => write_table(out, rows, ctx),
    }
}

/// `text`'s lines, the first after `first` and a space, the others after `rest` (a
/// blank line gets the prefix trimmed: `>` in a quote, nothing in a list item).
fn prefix_lines(out: &mut String, text: &str, first: &str, rest: &str) {
    for (k, line) in text.split('\n').enumerate() {
        if k > 0 {
            out.push('\n');
        }
        let prefix = if k == 0 { first } else { rest };
        if line.is_empty() {
            out.push_str(prefix.trim_end());
        } else if k == 0 || prefix == ">" {
            out.push_str(prefix);
            out.push(' ');
            out.push_str(line);
        } else {
            out.push_str(prefix);
            out.push_str(line);
        }
    }
}

/// A cell's content on one line: its blocks separated by a space.
fn cell_text(content: &[Inline<'_>], ctx: &Context<'_>) -> String {
    content
        .iter()
        .map(|c| inline::markdown(c, ctx, Mode::Cell))
        .collect::<Vec<_>>()
        .join(" ")
}

fn write_table(out: &mut String, rows: &[Row<'_>], ctx: &Context<'_>) {
    // Rectangular: every row has as many cells on the page; a cell the extractor left
    // out (empty, or not content) is an empty cell in its column.
    let width = rows.first().map_or(0, |r| r.width);
    let rectangular = width > 0
        && rows
            .iter()
            .all(|r| r.width == width && r.cells.iter().all(|c| c.column < width));
    if rectangular {
        for (k, row) in rows.iter().enumerate() {
            if k > 0 {
                out.push('\n');
            }
            let mut line = vec![String::new(); width];
            for c in &row.cells {
                line[c.column] = cell_text(&c.content, ctx);
            }
            out.push_str("| ");
            out.push_str(&line.join(" | "));
            out.push_str(" |");
            if k == 0 {
                out.push('\n');
                out.push('|');
                for _ in 0..width {
                    out.push_str(" --- |");
                }
            }
        }
    } else {
        // One row a line, as a paragraph with hard line breaks.
        for (k, row) in rows.iter().enumerate() {
            if k > 0 {
                out.push_str("\\\n");
            }
            let cells: Vec<String> = row
                .cells
                .iter()
                .map(|c| cell_text(&c.content, ctx))
                .collect();
            out.push_str(&cells.join(" | "));
        }
    }
}
