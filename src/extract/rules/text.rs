//! The text a rule keeps: selected subtrees written out as blocks (one per block-level
//! element, as in the flat page model), skipping scripts, hidden elements and removed
//! nodes, with whitespace collapsed and words counted. Two walkers, one over sxd nodes and
//! one over the fast evaluator's page index, share the tag-class decisions so both write
//! the same text.

use std::collections::HashSet;

use sxd_xpath::nodeset::Node;

use crate::extract::dom::{self, TagClass};
use crate::extract::xpath_fast::{Arena, Kind};

/// `char::is_alphanumeric`, with ASCII and the Russian alphabet decided without the
/// Unicode table lookup.
fn is_word_char(c: char) -> bool {
    if c.is_ascii() {
        c.is_ascii_alphanumeric()
    } else if matches!(c, 'а'..='я' | 'А'..='Я' | 'ё' | 'Ё') {
        true
    } else {
        c.is_alphanumeric()
    }
}

/// The text a rule keeps.
#[derive(Debug, Default)]
pub(super) struct Selection {
    pub(super) text: String,
    pub(super) words: u64,
}

/// Writes the text of selected subtrees as blocks (one per block-level element, as in
/// the flat page model), skipping scripts, hidden elements and removed nodes.
#[derive(Default)]
pub(super) struct TextWriter {
    out: String,
    block: String,
    space_pending: bool,
    pre_depth: u32,
    words: u64,
}

enum Walk<'d> {
    Enter(Node<'d>),
    ExitBlock(bool),
}

/// What a text walker does with an element, decided by its tag class (shared by the
/// sxd and the fast-path walkers, so both write the same text).
enum Visit {
    /// Not visible (or a `<br>`, already written).
    Skip,
    /// Inline: walk the children.
    Children,
    /// Block-level: a block was started; walk the children, then end it.
    Block { pre: bool },
}

impl TextWriter {
    fn visit(&mut self, tag: &str) -> Visit {
        match dom::classify(tag) {
            TagClass::Skip
            | TagClass::NoScript
            | TagClass::Frame
            | TagClass::Title
            | TagClass::Meta => Visit::Skip,
            TagClass::Br => {
                if !self.block.is_empty() {
                    self.block.push('\n');
                    self.space_pending = false;
                }
                Visit::Skip
            }
            TagClass::Inline | TagClass::Link => Visit::Children,
            TagClass::Block(kind) => {
                self.flush();
                let pre = kind == dom::BlockKind::Preformatted;
                if pre {
                    self.pre_depth += 1;
                }
                Visit::Block { pre }
            }
        }
    }

    pub(super) fn write<'d>(
        &mut self,
        node: Node<'d>,
        skip: &HashSet<Node<'d>>,
        emitted: &HashSet<Node<'d>>,
    ) {
        match node {
            Node::Attribute(a) => {
                self.flush();
                self.push_text(a.value());
                self.flush();
                return;
            }
            Node::Text(_) | Node::Element(_) => {}
            _ => return,
        }
        self.flush();
        let mut stack = vec![Walk::Enter(node)];
        while let Some(step) = stack.pop() {
            match step {
                Walk::ExitBlock(was_pre) => {
                    self.flush();
                    if was_pre {
                        self.pre_depth -= 1;
                    }
                }
                Walk::Enter(n) => {
                    if skip.contains(&n) || emitted.contains(&n) {
                        continue;
                    }
                    match n {
                        Node::Text(t) => self.push_text(t.text()),
                        Node::Element(e) => {
                            let attr = |name: &str| e.attribute_value(name);
                            if dom::is_hidden(&attr) {
                                continue;
                            }
                            let children = n.children();
                            let push_children = |stack: &mut Vec<Walk<'d>>| {
                                for c in children.iter().rev() {
                                    stack.push(Walk::Enter(*c));
                                }
                            };
                            match self.visit(e.name().local_part()) {
                                Visit::Skip => {}
                                Visit::Children => push_children(&mut stack),
                                Visit::Block { pre } => {
                                    stack.push(Walk::ExitBlock(pre));
                                    push_children(&mut stack);
                                }
                            }
                        }
                        _ => {}
                    }
                }
            }
        }
        self.flush();
    }

    /// [`write`](Self::write) for a node of the page index; `marks` are the removed and
    /// already written nodes.
    pub(super) fn write_arena(&mut self, arena: &Arena, node: u32, marks: &[u8]) {
        enum W {
            Enter(u32),
            ExitBlock(bool),
        }
        self.flush();
        let mut stack = vec![W::Enter(node)];
        while let Some(step) = stack.pop() {
            match step {
                W::ExitBlock(was_pre) => {
                    self.flush();
                    if was_pre {
                        self.pre_depth -= 1;
                    }
                }
                W::Enter(n) => {
                    if marks[n as usize] != 0 {
                        continue;
                    }
                    match arena.nodes[n as usize].kind {
                        Kind::Text => arena.with_text(n, |s| self.push_text(s)),
                        Kind::Element => {
                            let hidden = arena.with_attrs(n, |attrs| {
                                let look = |name: &str| {
                                    attrs
                                        .iter()
                                        .rev()
                                        .find(|a| &*a.name.local == name)
                                        .map(|a| &*a.value)
                                };
                                dom::is_hidden(&look)
                            });
                            if hidden {
                                continue;
                            }
                            let push_children = |stack: &mut Vec<W>| {
                                let start = stack.len();
                                stack.extend(arena.children(n).map(W::Enter));
                                stack[start..].reverse();
                            };
                            let name = arena.name(n).map_or("", |l| &**l);
                            match self.visit(name) {
                                Visit::Skip => {}
                                Visit::Children => push_children(&mut stack),
                                Visit::Block { pre } => {
                                    stack.push(W::ExitBlock(pre));
                                    push_children(&mut stack);
                                }
                            }
                        }
                        Kind::Root => {}
                    }
                }
            }
        }
        self.flush();
    }

    /// Append a text node's text, read as the flat page model reads it
    /// (`dom::read_text`: double-encoded UTF-8 read back, letters composed), so a rule
    /// keeps the words the other methods keep.
    pub(super) fn push_text(&mut self, s: &str) {
        self.push_plain(&dom::read_text(s));
    }

    /// Append text: whitespace runs collapse to one pending space (newlines kept in
    /// `<pre>`), words (runs of alphanumeric characters) are counted. One pass over the
    /// bytes, ASCII without decoding.
    fn push_plain(&mut self, s: &str) {
        let b = s.as_bytes();
        let mut in_word = false;
        let mut i = 0;
        let mut run_start = usize::MAX;
        while i < b.len() {
            let (c, len, space) = if b[i] < 0x80 {
                let c = b[i] as char;
                (c, 1, c.is_ascii_whitespace() || c == '\x0b')
            } else {
                let c = s[i..].chars().next().expect("char boundary");
                (c, c.len_utf8(), c.is_whitespace())
            };
            if space {
                if run_start != usize::MAX {
                    self.block.push_str(&s[run_start..i]);
                    run_start = usize::MAX;
                }
                in_word = false;
                if self.pre_depth > 0 && c == '\n' {
                    self.block.push('\n');
                    self.space_pending = false;
                } else if !self.block.is_empty() && !self.block.ends_with('\n') {
                    self.space_pending = true;
                }
            } else {
                if run_start == usize::MAX {
                    if self.space_pending {
                        self.block.push(' ');
                        self.space_pending = false;
                    }
                    run_start = i;
                }
                let word_char = if len == 1 {
                    c.is_ascii_alphanumeric()
                } else {
                    is_word_char(c)
                };
                if word_char && !in_word {
                    self.words += 1;
                }
                in_word = word_char;
            }
            i += len;
        }
        if run_start != usize::MAX {
            self.block.push_str(&s[run_start..]);
        }
    }

    /// The plain per-character `push_plain` the fast one must equal (tests).
    #[cfg(test)]
    fn push_text_reference(&mut self, s: &str) {
        let mut in_word = false;
        for c in s.chars() {
            if c.is_whitespace() {
                in_word = false;
                if self.pre_depth > 0 && c == '\n' {
                    self.block.push('\n');
                    self.space_pending = false;
                } else if !self.block.is_empty() && !self.block.ends_with('\n') {
                    self.space_pending = true;
                }
                continue;
            }
            if self.space_pending {
                self.block.push(' ');
                self.space_pending = false;
            }
            self.block.push(c);
            let word_char = c.is_alphanumeric();
            if word_char && !in_word {
                self.words += 1;
            }
            in_word = word_char;
        }
    }

    pub(super) fn flush(&mut self) {
        self.space_pending = false;
        let t = self.block.trim_end_matches(['\n', ' ']);
        if !t.trim().is_empty() {
            if !self.out.is_empty() {
                self.out.push('\n');
            }
            self.out.push_str(t);
        }
        self.block.clear();
    }

    pub(super) fn finish(mut self) -> Selection {
        self.flush();
        Selection {
            text: self.out,
            words: self.words,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extract::rules::differential_tests::fixture_pages;

    #[test]
    fn push_plain_equals_the_per_character_reference() {
        let mut texts: Vec<String> = vec![
            "  a  b\t\nc \u{a0}d\u{2003}e\u{3000}f\u{85}g\x0b\x0ch ".into(),
            "wo-rd don't 3.14 ½ Ⅻ ٣ 漢字 ёЁ Ωμέγα  \r\n".into(),
            String::new(),
            "\n\n".into(),
        ];
        for (_, page) in fixture_pages() {
            let arena = Arena::build(&page.tree);
            for i in 0..arena.len() as u32 {
                arena.with_text(i, |t| texts.push(t.to_string()));
            }
        }
        for pre in [0, 1] {
            let mut fast = TextWriter {
                pre_depth: pre,
                ..TextWriter::default()
            };
            let mut slow = TextWriter {
                pre_depth: pre,
                ..TextWriter::default()
            };
            for (k, t) in texts.iter().enumerate() {
                fast.push_plain(t);
                slow.push_text_reference(t);
                assert_eq!(fast.block, slow.block, "{t:?}");
                assert_eq!(fast.words, slow.words, "{t:?}");
                assert_eq!(fast.space_pending, slow.space_pending, "{t:?}");
                if k % 7 == 0 {
                    fast.flush();
                    slow.flush();
                }
            }
            assert_eq!(fast.out, slow.out);
        }
    }
}
