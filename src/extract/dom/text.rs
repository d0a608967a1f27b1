//! Text and its measures: the block being built (whitespace collapsed, `<pre>` newlines
//! kept, words and words inside links counted, the block closed at a block-level
//! boundary), and the text helpers on rcdom subtrees (all text below a node, readable
//! text size, whitespace collapsing).

use markup5ever_rcdom::{Handle, NodeData};

use super::build::Builder;
use super::{Block, BlockKind, Element, NO_ELEM};

impl Builder {
    /// Append a text node to the block being built: whitespace runs become one space
    /// (a newline inside `<pre>`), and each run of alphanumeric characters is a word (a
    /// link word inside `<a href>`).
    pub(super) fn push_text(&mut self, s: &str) {
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
    pub(super) fn flush(&mut self) {
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

/// Non-whitespace text bytes below a node, outside scripts, styles and templates.
pub(super) fn readable_text_bytes(node: &Handle) -> usize {
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

/// All text below a node (used for `<title>`), iteratively.
pub(super) fn text_of(node: &Handle) -> String {
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
