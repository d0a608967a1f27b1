//! The text an extractor wrote, matched back to the blocks it came from: each line run
//! that is a block's text becomes that block (or the beginning of it, when the last
//! block's trailing lines were cut), and a line no block gives (a title line, text a
//! rule wrote its own way) stays a line. The pieces cover the text exactly, in order.

use crate::extract::dom::PageDom;

/// A run of the text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Piece<'a> {
    /// The first `len` bytes of block `index`'s text (all of it but for a cut last block).
    Block { index: usize, len: usize },
    /// The title line above the text (`with_title`).
    Title(&'a str),
    /// A line of the text that is no block's.
    Line(&'a str),
}

/// The pieces of `text`. `order`: the blocks the extractor wrote, in order; when empty,
/// the page's blocks in document order are searched forward for each line.
pub fn align<'a>(
    dom: &PageDom,
    order: &[u32],
    text: &'a str,
    title_line: Option<&'a str>,
) -> Vec<Piece<'a>> {
    let mut pieces = Vec::new();
    let mut rest = text;
    if let Some(title) = title_line {
        if let Some(after) = rest.strip_prefix(title) {
            if after.is_empty() || after.starts_with('\n') {
                pieces.push(Piece::Title(title));
                rest = after.strip_prefix('\n').unwrap_or(after);
            }
        }
    }
    let all: Vec<u32>;
    let candidates = if order.is_empty() {
        all = (0..dom.blocks.len() as u32).collect();
        &all[..]
    } else {
        order
    };
    let mut next = 0;
    while !rest.is_empty() {
        // A whole block first; the beginning of one only when none is whole.
        let find = |whole: bool| {
            candidates[next..].iter().enumerate().find_map(|(k, &b)| {
                let t = dom.blocks.get(b as usize)?.text.as_str();
                matched_len(t, rest, whole).map(|len| (k, b as usize, len))
            })
        };
        let found = find(true).or_else(|| find(false));
        match found {
            Some((k, index, len)) => {
                pieces.push(Piece::Block { index, len });
                next += k + 1;
                rest = &rest[len..];
            }
            None => {
                let line = rest.split('\n').next().unwrap_or(rest);
                pieces.push(Piece::Line(line));
                rest = &rest[line.len()..];
            }
        }
        rest = rest.strip_prefix('\n').unwrap_or(rest);
    }
    pieces
}

/// How many bytes of `block`'s text begin `rest`: with `whole`, all of it when `rest`
/// goes on with a new line or ends there; else `rest` whole when it is the beginning of
/// the block (the end of the text, cut inside its last block).
fn matched_len(block: &str, rest: &str, whole: bool) -> Option<usize> {
    if block.is_empty() {
        return None;
    }
    if whole {
        let after = rest.strip_prefix(block)?;
        return (after.is_empty() || after.starts_with('\n')).then_some(block.len());
    }
    (block.len() > rest.len() && block.starts_with(rest)).then_some(rest.len())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extract::dom::parse;

    #[test]
    fn lines_become_blocks_or_stay_lines() {
        let dom = parse("<p>One</p><p>Two\nlines</p><p>Three</p>");
        let text = "Title\nOne\nStray\nThree";
        let pieces = align(&dom, &[], text, Some("Title"));
        assert_eq!(
            pieces,
            [
                Piece::Title("Title"),
                Piece::Block { index: 0, len: 3 },
                Piece::Line("Stray"),
                Piece::Block { index: 2, len: 5 },
            ]
        );
    }

    #[test]
    fn the_written_order_is_followed_and_a_cut_last_block_is_a_prefix() {
        let dom = parse("<p>A b</p><p>Lead</p><p>Body one<br>follow us</p>");
        let pieces = align(&dom, &[1, 0, 2], "Lead\nA b\nBody one", None);
        assert_eq!(
            pieces,
            [
                Piece::Block { index: 1, len: 4 },
                Piece::Block { index: 0, len: 3 },
                Piece::Block { index: 2, len: 8 },
            ]
        );
    }
}
