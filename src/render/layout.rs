//! The written blocks as a document tree: each block's leaf (heading, paragraph, code
//! block, table cell) and the containers its element sits in (block quotes, lists and
//! their items, tables), read from its ancestors in the page. Blocks in a row that share a
//! container share it in the tree; a container the page closed between two written
//! blocks is closed here too. Everything inside a table cell (nested lists, tables) is
//! that cell's content, as pipe tables hold one line a cell.

use std::borrow::Cow;

use crate::extract::dom::{code_language, BlockKind, ElemId, PageDom, SpanKind, NO_ELEM};

use super::align::Piece;

/// Inline content: a block's text (or its beginning), with the block's spans.
#[derive(Debug, Clone, Copy)]
pub struct Inline<'a> {
    pub text: &'a str,
    /// The block whose spans apply (`None`: a line no block gives).
    pub block: Option<usize>,
}

/// A table cell: its blocks' contents, whether it is a header cell (`<th>`), and its
/// column (its place among the row's cells on the page, empty ones included).
#[derive(Debug)]
pub struct Cell<'a> {
    elem: ElemId,
    pub content: Vec<Inline<'a>>,
    pub header: bool,
    pub column: usize,
}

/// A table row: its written cells, and how many cells it has on the page (0 when the
/// cells are not in a row).
#[derive(Debug)]
pub struct Row<'a> {
    elem: ElemId,
    pub cells: Vec<Cell<'a>>,
    pub width: usize,
}

/// A node of the tree.
#[derive(Debug)]
pub enum Node<'a> {
    Heading(u8, Inline<'a>),
    Paragraph(Inline<'a>),
    /// Preformatted text, and the language the page names for it.
    Code(Option<Box<str>>, Cow<'a, str>),
    /// A list (ordered or not) of items, each a sequence of nodes.
    List(bool, Vec<Vec<Node<'a>>>),
    Quote(Vec<Node<'a>>),
    Table(Vec<Row<'a>>),
}

/// A container on the way from the root to a block.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Step {
    Quote(ElemId),
    List(ElemId, bool),
    Item(ElemId),
    Table(ElemId),
}

/// What a block is inside its innermost container.
enum Leaf {
    Heading(u8),
    Paragraph,
    Code,
    Cell {
        row: ElemId,
        cell: ElemId,
        header: bool,
    },
}

/// An open container while the tree is built.
enum Frame<'a> {
    Quote(ElemId, Vec<Node<'a>>),
    List(ElemId, bool, Vec<Vec<Node<'a>>>),
    Item(ElemId, Vec<Node<'a>>),
    Table(ElemId, Vec<Row<'a>>),
}

impl Frame<'_> {
    fn step(&self) -> Step {
        match self {
            Frame::Quote(e, _) => Step::Quote(*e),
            Frame::List(e, o, _) => Step::List(*e, *o),
            Frame::Item(e, _) => Step::Item(*e),
            Frame::Table(e, _) => Step::Table(*e),
        }
    }
}

/// The tree of the pieces, in order.
pub fn layout<'a>(dom: &'a PageDom, pieces: &[Piece<'a>]) -> Vec<Node<'a>> {
    let mut root = Vec::new();
    let mut stack: Vec<Frame<'a>> = Vec::new();
    for piece in pieces {
        let (path, leaf, inline) = match *piece {
            Piece::Title(t) => (
                Vec::new(),
                Leaf::Heading(1),
                Inline {
                    text: t,
                    block: None,
                },
            ),
            Piece::Line(t) => (
                Vec::new(),
                Leaf::Paragraph,
                Inline {
                    text: t,
                    block: None,
                },
            ),
            Piece::Block { index, len } => {
                let (path, leaf) = path_of(dom, index);
                let text = &dom.blocks[index].text[..len];
                (
                    path,
                    leaf,
                    Inline {
                        text,
                        block: Some(index),
                    },
                )
            }
        };
        let common = stack
            .iter()
            .zip(&path)
            .take_while(|(f, s)| f.step() == **s)
            .count();
        while stack.len() > common {
            close(&mut stack, &mut root);
        }
        for &step in &path[common..] {
            open(&mut stack, step, dom);
        }
        add_leaf(&mut stack, &mut root, leaf, inline, dom, piece);
    }
    while !stack.is_empty() {
        close(&mut stack, &mut root);
    }
    root
}

/// The containers of block `index` from the outermost, and its leaf.
fn path_of(dom: &PageDom, index: usize) -> (Vec<Step>, Leaf) {
    let block = &dom.blocks[index];
    let mut chain = Vec::new();
    let mut e = block.elem;
    while e != NO_ELEM {
        chain.push(e);
        e = dom.elements[e as usize].parent;
    }
    chain.reverse();
    let tag = |e: ElemId| &*dom.elements[e as usize].tag;
    let mut path = Vec::new();
    for (k, &e) in chain.iter().enumerate() {
        match tag(e) {
            "blockquote" => path.push(Step::Quote(e)),
            "ul" | "menu" | "dir" => path.push(Step::List(e, false)),
            "ol" => path.push(Step::List(e, true)),
            "li" => {
                if !matches!(path.last(), Some(Step::List(..))) {
                    // An item outside a list: a list of its own parent's items.
                    let parent = dom.elements[e as usize].parent;
                    path.push(Step::List(parent, false));
                }
                path.push(Step::Item(e));
            }
            "table" => {
                let below = &chain[k + 1..];
                if below.iter().any(|&d| tag(d) == "caption") {
                    return (path, Leaf::Paragraph);
                }
                let row = below.iter().copied().find(|&d| tag(d) == "tr");
                let cell = below
                    .iter()
                    .copied()
                    .find(|&d| matches!(tag(d), "td" | "th"));
                path.push(Step::Table(e));
                return (
                    path,
                    Leaf::Cell {
                        row: row.unwrap_or(NO_ELEM),
                        cell: cell.unwrap_or(block.elem),
                        header: cell.is_some_and(|c| tag(c) == "th"),
                    },
                );
            }
            _ => {}
        }
    }
    let leaf = match block.kind {
        BlockKind::Heading(n) => Leaf::Heading(n),
        BlockKind::Preformatted => Leaf::Code,
        _ => Leaf::Paragraph,
    };
    (path, leaf)
}

fn open<'a>(stack: &mut Vec<Frame<'a>>, step: Step, _dom: &PageDom) {
    stack.push(match step {
        Step::Quote(e) => Frame::Quote(e, Vec::new()),
        Step::List(e, o) => Frame::List(e, o, Vec::new()),
        Step::Item(e) => Frame::Item(e, Vec::new()),
        Step::Table(e) => Frame::Table(e, Vec::new()),
    });
}

/// Close the innermost container into its parent (or the root).
fn close<'a>(stack: &mut Vec<Frame<'a>>, root: &mut Vec<Node<'a>>) {
    let node = match stack.pop() {
        Some(Frame::Quote(_, children)) => Node::Quote(children),
        Some(Frame::List(_, ordered, items)) => Node::List(ordered, items),
        Some(Frame::Table(_, rows)) => Node::Table(rows),
        Some(Frame::Item(_, children)) => {
            // Items live in their list's frame, which `path_of` always opens first.
            if let Some(Frame::List(_, _, items)) = stack.last_mut() {
                items.push(children);
            } else {
                push_node(stack, root, Node::List(false, vec![children]));
            }
            return;
        }
        None => return,
    };
    push_node(stack, root, node);
}

/// Add a finished node to the innermost container.
fn push_node<'a>(stack: &mut [Frame<'a>], root: &mut Vec<Node<'a>>, node: Node<'a>) {
    match stack.last_mut() {
        None => root.push(node),
        Some(Frame::Quote(_, children)) | Some(Frame::Item(_, children)) => children.push(node),
        // Content directly in a list (no item around it): an item of its own.
        Some(Frame::List(_, _, items)) => items.push(vec![node]),
        // Only cells go into tables (`path_of` ends a table's path with a cell).
        Some(Frame::Table(..)) => root.push(node),
    }
}

fn add_leaf<'a>(
    stack: &mut [Frame<'a>],
    root: &mut Vec<Node<'a>>,
    leaf: Leaf,
    inline: Inline<'a>,
    dom: &'a PageDom,
    piece: &Piece<'a>,
) {
    let node = match leaf {
        Leaf::Cell { row, cell, header } => {
            if let Some(Frame::Table(_, rows)) = stack.last_mut() {
                if rows.last().is_none_or(|r| r.elem != row) {
                    rows.push(Row {
                        elem: row,
                        cells: Vec::new(),
                        width: row_cells(dom, row).count(),
                    });
                }
                let cells = &mut rows.last_mut().expect("pushed above").cells;
                match cells.last_mut() {
                    Some(c) if c.elem == cell => c.content.push(inline),
                    _ => {
                        let before = cells.last().map_or(0, |c| c.column + 1);
                        let column = row_cells(dom, row)
                            .position(|c| c == cell)
                            .unwrap_or(before)
                            .max(before);
                        cells.push(Cell {
                            elem: cell,
                            content: vec![inline],
                            header,
                            column,
                        })
                    }
                }
                return;
            }
            Node::Paragraph(inline)
        }
        Leaf::Heading(n) => Node::Heading(n, inline),
        Leaf::Paragraph => Node::Paragraph(inline),
        Leaf::Code => {
            let Piece::Block { index, len } = *piece else {
                unreachable!("code leaves are blocks")
            };
            code_node(dom, index, len)
        }
    };
    push_node(stack, root, node);
}

/// The cells (`<td>`, `<th>`) of row element `row`, in order.
fn row_cells(dom: &PageDom, row: ElemId) -> impl Iterator<Item = ElemId> + '_ {
    let range = if row == NO_ELEM {
        0..0
    } else {
        row + 1..dom.elements[row as usize].end
    };
    range.filter(move |&e| {
        let el = &dom.elements[e as usize];
        el.parent == row && matches!(&*el.tag, "td" | "th")
    })
}

/// A `<pre>` block: its raw text (indentation kept) when written whole, and the
/// language its `<code>` child or its nearest ancestors name.
fn code_node(dom: &PageDom, index: usize, len: usize) -> Node<'_> {
    let block = &dom.blocks[index];
    let markup = dom.markup.as_deref();
    let lang = markup
        .and_then(|m| {
            m.spans(index).iter().find_map(|s| match &s.kind {
                SpanKind::Code(Some(lang)) => Some(lang.clone()),
                _ => None,
            })
        })
        .or_else(|| {
            let mut e = block.elem;
            for _ in 0..3 {
                if e == NO_ELEM {
                    break;
                }
                let el = &dom.elements[e as usize];
                if let Some(l) = code_language(&el.id_class) {
                    return Some(l);
                }
                e = el.parent;
            }
            None
        });
    let raw = markup
        .filter(|_| len == block.text.len())
        .and_then(|m| m.pre_text(index));
    let text = match raw {
        Some(r) => Cow::Borrowed(r),
        None => Cow::Borrowed(&block.text[..len]),
    };
    Node::Code(lang, text)
}
