//! Readers' posts under a comment heading, known by their bylines. Flat layouts write
//! the posts in the article's own cell or in classless tables after it (`Комментарии
//! нашего читателя: гость` / the text / `11:02 17-January-2012`; `piotr 22.12.2011,
//! 11:21` / the text), and a few posts under a short news item hold more words than the
//! item: the comment-heading cut ([`article_edges`](super::article_edges)), which asks
//! for less evidence after the heading than before it, kept them. Each post carries a
//! byline (a name and a time of day, [`is_byline_block`]), and the article's text does not
//! resume after the last one: that run is the posts, whatever its words weigh.
//!
//! The bylines must not recur from above the heading (the same element kind carrying a
//! byline before it): an article's own dated entries (a live blog's, a chronicle's) are
//! the text's, and a thread whose posts each have a comment heading is kept by
//! `comments_between_posts`.

use super::dated_posts::is_byline_block;
use super::settings::READERS_POSTS_MIN;
use crate::extract::dom::{Block, PageDom};
use std::collections::HashMap;

/// For each of `kept[first..]`, the end (exclusive) of the readers' posts below it: the
/// block after the last byline (the last post's text, when its byline leads it), when at
/// least [`READERS_POSTS_MIN`] bylines follow the block and none of their element kinds
/// carried a byline at or above it; else 0 (no posts).
pub(super) fn readers_posts_end(
    page: &PageDom,
    kept: &[(usize, &Block)],
    first: usize,
) -> Vec<usize> {
    let n = kept.len();
    let mut out = vec![0; n];
    let sig = |k: usize| page.elements[kept[k].1.elem as usize].sig;
    let byline: Vec<bool> = kept.iter().map(|&(_, b)| is_byline_block(b)).collect();
    let Some(last) = byline.iter().rposition(|&y| y) else {
        return out;
    };
    // The last byline of each element kind.
    let mut last_of: HashMap<u32, usize> = HashMap::new();
    for k in (first..n).filter(|&k| byline[k]) {
        last_of.insert(sig(k), k);
    }
    let mut after = byline[first..].iter().filter(|&&y| y).count();
    // The last byline of a kind seen at or above the current block.
    let mut recurs_to = 0;
    for k in first..n {
        if byline[k] {
            after -= 1;
            recurs_to = recurs_to.max(last_of[&sig(k)]);
        }
        if after >= READERS_POSTS_MIN && recurs_to <= k {
            out[k] = (last + 2).min(n);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extract::dom::parse;

    /// The kept blocks of a page: all of them.
    fn ends(html: &str) -> Vec<(String, usize)> {
        let page = parse(html);
        let kept: Vec<(usize, &Block)> = page.blocks.iter().enumerate().collect();
        let ends = readers_posts_end(&page, &kept, 0);
        kept.iter()
            .zip(ends)
            .map(|(&(_, b), e)| (b.text.clone(), e))
            .collect()
    }

    #[test]
    fn bylines_below_a_line_make_posts() {
        let html = "<body><p>The article's only paragraph.</p><b>Comments</b>\
             <div class=by>anna 22.12.2011, 11:21</div><p>First post.</p>\
             <div class=by>piotr 22.12.2011, 12:05</div><p>Second post.</p>\
             <p>Footer</p></body>";
        let e = ends(html);
        let at = |t: &str| e.iter().find(|(x, _)| x == t).unwrap().1;
        // Past the last post's text, before the footer.
        assert_eq!(at("Comments"), 6);
        assert_eq!(at("The article's only paragraph."), 6);
        // One byline below the first post's: no run of posts.
        assert_eq!(at("First post."), 0);
    }

    #[test]
    fn bylines_that_recur_from_above_are_the_articles() {
        // A live blog: its entries' times above the heading share the posts' element kind.
        let html = "<body><div class=by>Editor, 09:15</div><p>Entry.</p><b>Comments</b>\
             <div class=by>anna, 11:21</div><p>First post.</p>\
             <div class=by>piotr, 12:05</div><p>Second post.</p></body>";
        let e = ends(html);
        assert!(e.iter().skip(1).all(|(_, end)| *end == 0), "{e:?}");
    }
}
