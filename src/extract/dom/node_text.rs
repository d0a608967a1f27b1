//! Text helpers on rcdom subtrees and characters: all text below a node, its readable
//! size, whitespace collapsing, and how many letters of an unspaced script make a word.

use markup5ever_rcdom::{Handle, NodeData};

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

/// For a letter of a script written without spaces between words, how many of its letters
/// count as one word; `None` for every other character. Every length measure of the
/// extractors (words per block, link density, content evidence) counts words, and a
/// Chinese paragraph is one unbroken run of letters: counted as one word it could never be
/// content evidence. Han, kana: one letter a word (the unit the scorers and most CJK tools
/// count; on daniel-dev's Chinese pages one letter a word measured better than two: 0.906
/// against 0.872 word F1). Thai, Lao, Khmer and Myanmar letters (words of about three
/// letters; no corpus here to measure them on): three letters a word, a rough length
/// (tone marks are not letters and do not count). Segmenting into real words
/// (jieba-like dictionaries) would cost a dictionary per language for a measure that
/// only needs to be proportional to the text's length.
pub fn unspaced_word_len(c: char) -> Option<u32> {
    match c as u32 {
        0x3040..=0x30FF      // Hiragana, Katakana
        | 0x3400..=0x4DBF    // CJK Extension A
        | 0x4E00..=0x9FFF    // CJK Unified Ideographs
        | 0xF900..=0xFAFF    // CJK Compatibility Ideographs
        | 0x20000..=0x3134F  // CJK Extensions B–G
        => Some(1),
        0x0E00..=0x0EFF      // Thai, Lao
        | 0x1000..=0x109F    // Myanmar
        | 0x1780..=0x17FF    // Khmer
            if c.is_alphabetic() => Some(3),
        _ => None,
    }
}
