//! Comment threads known by their shape, whatever their class is named: a list of posts
//! each signed with a short byline that carries a time of day (`~drwallu [2012-01-07
//! 00:03]`, `Иван, 12:49`), below an article that stands outside the list. Class names
//! find the threads of the vocabulary's languages ([`vocab`](crate::extract::vocab));
//! this finds the others (`opOpinie`, `otzyvy`, `div.c`). A forum thread is no such
//! list: its opening post is one of the posts, so no article stands before them; a list
//! of headlines with their times is led by links, not by the posts' own text.

use super::features::block_value;
use super::marks::Marks;
use super::settings::{
    BYLINE_MAX_WORDS, TEASER_ITEMS_SHARE_DEN, TEASER_ITEMS_SHARE_NUM, TEASER_MAX_SNIPPET,
};
use super::structures::Structures;
use super::Pass;
use crate::extract::dom::{Block, BlockKind, ElemId, NO_ELEM};

/// Mark the items of every dated-post list that follows an article as boilerplate (the
/// mark is the item element, as a class-named comment's is). Nothing with
/// `include_comments` or in the cascade's unmarked pass.
pub(super) fn mark_dated_posts(pass: &Pass, st: &Structures, marked: &mut [ElemId]) {
    let (page, config) = (pass.page, pass.config);
    if config.include_comments || pass.marks == Marks::Off {
        return;
    }
    let n = page.elements.len();
    let is_list = |g: usize| {
        let gr = &st.groups[g];
        gr.content_like(config) && !gr.linked()
    };
    // The item element enclosing each element, among the candidate lists' items.
    let mut item = vec![NO_ELEM; n];
    for (i, e) in page.elements.iter().enumerate() {
        let g = st.group_of[i];
        item[i] = if g != u32::MAX && is_list(g as usize) {
            i as ElemId
        } else if e.parent != NO_ELEM {
            item[e.parent as usize]
        } else {
            NO_ELEM
        };
    }
    let groups = st.groups.len();
    // Items with a byline, per item element and per list.
    let mut signed = vec![false; n];
    let mut signed_items = vec![0u32; groups];
    // Lists with a heading in an item: a listing's entries are titled, posts are not.
    let mut headed = vec![false; groups];
    // Content evidence before each list's first item (paragraphs are lists too: `<p>`
    // siblings, so evidence is counted everywhere, not only outside lists).
    let mut before = vec![f64::NAN; groups];
    let mut so_far = 0.0;
    for (i, b) in page.blocks.iter().enumerate() {
        let e = b.elem as usize;
        if marked[e] != NO_ELEM || pass.is_template(i) {
            continue;
        }
        let mut it = item[e];
        while it != NO_ELEM {
            let g = st.group_of[it as usize] as usize;
            if before[g].is_nan() {
                before[g] = so_far;
            }
            let parent = page.elements[it as usize].parent;
            it = if parent == NO_ELEM {
                NO_ELEM
            } else {
                item[parent as usize]
            };
        }
        so_far += block_value(b, false, config).max(0.0);
        let it = item[e];
        if it != NO_ELEM && matches!(b.kind, BlockKind::Heading(_)) {
            headed[st.group_of[it as usize] as usize] = true;
        }
        if it != NO_ELEM && !signed[it as usize] && is_byline_block(b) {
            signed[it as usize] = true;
            signed_items[st.group_of[it as usize] as usize] += 1;
        }
    }
    let thread = |g: usize| {
        let gr = &st.groups[g];
        signed_items[g] * TEASER_ITEMS_SHARE_DEN >= gr.items * TEASER_ITEMS_SHARE_NUM
            && before[g] >= 4.0 * config.min_content_words as f64
            && !headed[g]
            && (gr.words - gr.link_words) as f64 <= TEASER_MAX_SNIPPET * gr.items as f64
    };
    for i in 0..n {
        let it = item[i];
        if marked[i] == NO_ELEM && it != NO_ELEM && thread(st.group_of[it as usize] as usize) {
            tracing::trace!("dated post item {it}: element {i} marked");
            marked[i] = it;
        }
    }
}

/// A block that is a byline: a short line ([`BYLINE_MAX_WORDS`]) that [`is_byline`].
pub(super) fn is_byline_block(b: &Block) -> bool {
    b.words <= BYLINE_MAX_WORDS && is_byline(&b.text)
}

/// A byline names someone and says when: letters beside a time of day (a video's
/// duration, `1:07`, or a score stands alone).
fn is_byline(text: &str) -> bool {
    text.chars().any(char::is_alphabetic) && has_time_of_day(text)
}

/// Whether `text` holds a time of day: one or two digits (an hour), a colon, two digits
/// (minutes below 60), no digit around them (`12:49`, `[2011-12-28 17:21]`; not `1:2`,
/// `2011:123`, `12:75`).
pub(super) fn has_time_of_day(text: &str) -> bool {
    let b = text.as_bytes();
    let digit = |i: usize| b.get(i).is_some_and(u8::is_ascii_digit);
    let value = |from: usize, to: usize| {
        b[from..to]
            .iter()
            .fold(0u32, |v, d| v * 10 + u32::from(d - b'0'))
    };
    (1..b.len()).any(|c| {
        if b[c] != b':' || !digit(c + 1) || !digit(c + 2) || digit(c + 3) {
            return false;
        }
        let start = (c.saturating_sub(3)..c)
            .rev()
            .take_while(|&i| digit(i))
            .last();
        start.is_some_and(|s| c - s <= 2 && value(s, c) < 24 && value(c + 1, c + 3) < 60)
    })
}

#[cfg(test)]
mod tests {
    use super::super::tests::{run, ARTICLE};
    use super::*;

    #[test]
    fn a_byline_names_someone() {
        assert!(is_byline("~drwallu [2012-01-07 00:03]"));
        assert!(!is_byline("1:07"));
        assert!(!is_byline("[2012-01-07 00:03]"));
    }

    #[test]
    fn times_of_day_are_found() {
        for t in ["~drwallu [2012-01-07 00:03]", "Иван, 9:41", "at 12:49"] {
            assert!(has_time_of_day(t), "{t}");
        }
        for t in [
            "ratio 1:2",
            "score 3:150",
            "id 2011:123",
            "at 12:75",
            "no time",
        ] {
            assert!(!has_time_of_day(t), "{t}");
        }
    }

    fn posts(n: usize) -> String {
        (1..=n)
            .map(|i| {
                format!(
                    "<div class=op><div class=who>~reader{i} [2011-12-28 17:{i:02}]</div>\
                     <div class=txt>My opinion number {i} about what this story says, long enough to read as a post by itself.</div>\
                     <div class=votes>{i}</div></div>"
                )
            })
            .collect()
    }

    #[test]
    fn dated_posts_after_an_article_are_left_out() {
        let html = format!(
            "<body><div class=story><h1>Monks fight in the basilica</h1>{}</div>\
             <div class=opinie>{}</div></body>",
            format!("<p>{ARTICLE}</p>").repeat(12),
            posts(12)
        );
        let out = run(&html);
        assert!(out.text.contains("long body"), "{}", out.text);
        assert!(!out.text.contains("My opinion"), "{}", out.text);
    }

    #[test]
    fn a_thread_of_dated_posts_alone_is_the_page() {
        // A forum thread: the opening post is one of the posts.
        let html = format!(
            "<body><h1>Monks fight</h1><div class=thread>{}</div></body>",
            posts(12)
        );
        let out = run(&html);
        assert!(out.text.contains("My opinion number 1 "), "{}", out.text);
        assert!(out.text.contains("My opinion number 12 "), "{}", out.text);
    }
}
