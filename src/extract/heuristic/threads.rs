//! Forum threads: telling a thread whose opening post is long from an article followed
//! by its comments ([`posts_continue_in_comments`]), and dropping the per-post chrome the
//! forum software repeats in every post ([`drop_post_chrome`]).

use super::selection::dominates;
use super::settings::{
    POST_CHROME_SHARE, POST_CHROME_WORDS, POST_TEXT_WORDS, THREAD_POST_SHARE, THREAD_REPLIES_SHARE,
};
use super::structures::Structures;
use super::tree::in_subtrees;
use super::Pass;
use crate::extract::dom::{self, Block, ElemId, PageDom, NO_ELEM};

/// A forum thread whose opening post is long (a question, a story, an announcement)
/// looks like an article followed by its comments: on XenForo, Vanilla, Drupal forums,
/// Slashdot and Lemmy the replies sit in a `replies`/`comments` wrapper. What tells the
/// thread apart is that the opening post's element recurs inside the comment section:
/// an element outside every comment section holding at least `THREAD_POST_SHARE` of the
/// evidence outside them shares its tag and class kind ([`dom::Element::sig`]) with an element
/// holding content evidence inside one (XenForo `article.message-body`, Vanilla
/// `div.Message`). A blog post's body (`entry-content`) and its comments'
/// (`comment-content`) differ. Classless elements (`<p>`, bare `<div>`) say nothing.
/// One pass over the elements with a hash map: O(n).
pub(super) fn posts_continue_in_comments(
    page: &PageDom,
    in_comments: &[bool],
    holds: &[bool],
    good: &[f64],
    outside: f64,
) -> bool {
    if outside <= 0.0 {
        return false;
    }
    let n = page.elements.len();
    // The opening post: the innermost element outside the comment sections (holding
    // none: wrappers of the whole thread are not the post) with at least
    // `THREAD_POST_SHARE` of the evidence outside them; the layout wrappers above it
    // (`container`, `row`) recur everywhere and say nothing.
    let floor = THREAD_POST_SHARE * outside;
    // A long quotation inside the opening post (a quoted e-mail, an announcement) is not
    // the post: elements in a `<blockquote>` are passed over.
    let in_quote = in_subtrees(page, |i| &*page.elements[i].tag == "blockquote");
    let big = |i: usize| !in_comments[i] && !holds[i] && !in_quote[i] && good[i] >= floor;
    let mut big_child = vec![false; n];
    for i in 0..n {
        let p = page.elements[i].parent;
        if p != NO_ELEM && big(i) {
            big_child[p as usize] = true;
        }
    }
    // A post element is known by its kind and its parent's: a news site's article body
    // and its comments' bodies may share a generic class (`div.content`) under different
    // wrappers (`div.article`, `div.comment_content`); a forum's posts share both.
    let kind = |i: usize| {
        let p = page.elements[i].parent;
        let parent_sig = if p == NO_ELEM {
            0
        } else {
            page.elements[p as usize].sig
        };
        (page.elements[i].sig, parent_sig)
    };
    let mut posts: std::collections::HashMap<(u32, u32), f64> = Default::default();
    for i in (0..n).filter(|&i| big(i) && !big_child[i]) {
        // A long paragraph (`<p>`) is the innermost: the post is its nearest classed
        // ancestor.
        let mut p = i;
        while classless(&page.elements[p]) {
            let up = page.elements[p].parent;
            if up == NO_ELEM || !big(up as usize) {
                break;
            }
            p = up as usize;
        }
        if !classless(&page.elements[p]) {
            posts.insert(kind(p), good[p]);
        }
    }
    // The replies like it hold at least `THREAD_REPLIES_SHARE` of its evidence: a
    // discussion, not a few excerpts of other posts in a misnamed sidebar.
    let mut replies: std::collections::HashMap<(u32, u32), f64> = Default::default();
    for i in (0..n).filter(|&i| in_comments[i] && good[i] > 0.0) {
        if posts.contains_key(&kind(i)) {
            *replies.entry(kind(i)).or_insert(0.0) += good[i];
        }
    }
    let found = replies
        .iter()
        .any(|(s, &r)| r >= THREAD_REPLIES_SHARE * posts[s]);
    if found && tracing::enabled!(tracing::Level::DEBUG) {
        for i in (0..n).filter(|&i| big(i) && !big_child[i]) {
            let e = &page.elements[i];
            tracing::debug!("thread post <{} {}> recurs in comments", e.tag, e.id_class);
        }
    }
    found
}

/// Whether an element's `sig` is its tag's alone (no class naming its kind).
fn classless(e: &dom::Element) -> bool {
    e.sig == dom::kind_sig(&e.tag, "")
}

/// Per-post chrome of a thread: when the container is dominated by a repeated structure
/// of posts with their own text (forums on XenForo, phpBB, vBulletin, StackExchange,
/// review threads), the short lines that recur with the same text in most posts are
/// the software's labels (user panels' "Joined" / "Messages" / "Reaction score", vote
/// and badge lines, "Reply", "Quote", "Report"), not what members wrote. Comparing the
/// posts with each other finds them in any language; lines that differ from post to
/// post (author names, the posts' text) are kept, and so are lines with a number in them:
/// dates recur within a thread ("Posted March 5, 2024"), and a label's number is its
/// value. A line of numbers alone right after a label is that label's value.
pub(super) fn drop_post_chrome<'a>(
    pass: &Pass,
    container: ElemId,
    st: &Structures,
    kept: Vec<(usize, &'a Block)>,
) -> Vec<(usize, &'a Block)> {
    let (page, config) = (pass.page, pass.config);
    let (groups, group_of) = (&st.groups, &st.group_of);
    let c = container as usize;
    let end = page.elements[c].end as usize;
    // A dominant structure of posts with their own text (not link-led teasers).
    let thread = |g: u32| -> bool {
        dominates(pass, st, container, g)
            && groups[g as usize].content_like(config)
            && !groups[g as usize].linked()
    };
    // Outermost thread post enclosing each element of the container.
    let mut post = vec![NO_ELEM; end - c];
    let mut any = false;
    for i in c + 1..end {
        let p = page.elements[i].parent as usize;
        post[i - c] = if p > c && post[p - c] != NO_ELEM {
            post[p - c]
        } else if thread(group_of[i]) {
            any = true;
            i as ElemId
        } else {
            NO_ELEM
        };
    }
    if !any {
        return kept;
    }
    let key = |b: &Block| -> String { b.text.trim().to_lowercase() };
    // Distinct posts in which each (structure, short line) recurs, and posts with a
    // paragraph of their own (what makes the items posts, not product cards, price
    // plans or table rows, whose labels recur too).
    let mut seen: std::collections::HashMap<(u32, String), (u32, ElemId)> = Default::default();
    let mut written = vec![0u32; groups.len()];
    let mut last_written = NO_ELEM;
    let short = |b: &Block| b.words <= POST_CHROME_WORDS;
    let label = |b: &Block| {
        short(b) && b.text.chars().any(char::is_alphabetic) && !b.text.chars().any(char::is_numeric)
    };
    for (_, b) in &kept {
        let e = b.elem as usize;
        if e <= c || e >= end || post[e - c] == NO_ELEM {
            continue;
        }
        let it = post[e - c];
        if b.words - b.link_words >= POST_TEXT_WORDS && last_written != it {
            last_written = it;
            written[group_of[it as usize] as usize] += 1;
        }
        if !label(b) {
            continue;
        }
        let entry = seen
            .entry((group_of[it as usize], key(b)))
            .or_insert((0, NO_ELEM));
        if entry.1 != it {
            entry.0 += 1;
            entry.1 = it;
        }
    }
    let chrome = |b: &Block| -> bool {
        let e = b.elem as usize;
        if e <= c || e >= end || post[e - c] == NO_ELEM || !label(b) {
            return false;
        }
        let g = group_of[post[e - c] as usize];
        if (written[g as usize] as f64) < POST_CHROME_SHARE * groups[g as usize].items as f64 {
            return false;
        }
        let n = seen.get(&(g, key(b))).map_or(0, |x| x.0);
        n >= config.min_list_items
            && n as f64 >= POST_CHROME_SHARE * groups[g as usize].items as f64
    };
    // A line of numbers alone right after a label of the same post is the label's value
    // ("Messages" / "1,204").
    let mut out = Vec::with_capacity(kept.len());
    let mut after_label = NO_ELEM;
    for (i, b) in kept {
        let e = b.elem as usize;
        let it = if e > c && e < end {
            post[e - c]
        } else {
            NO_ELEM
        };
        if chrome(b) {
            after_label = it;
            continue;
        }
        let value = it != NO_ELEM
            && after_label == it
            && short(b)
            && !b.text.chars().any(char::is_alphabetic);
        after_label = NO_ELEM;
        if !value {
            out.push((i, b));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::tests::{run, ARTICLE};

    #[test]
    fn thread_whose_opening_post_recurs_in_the_replies_keeps_them() {
        let post = format!("<p>{ARTICLE}</p>").repeat(12);
        let reply = |i: u32| {
            format!("<div class=post><div class=post-body><p>Reply {i} agrees with the opening post and adds a few more words of its own.</p><p>{ARTICLE}</p></div></div>")
        };
        let replies = (1..=4).map(reply).collect::<String>();
        // Long opening post, replies in a `replies` wrapper with the same post element.
        let out = run(&format!(
            "<body><div class=post><div class=post-body>{post}</div></div><div class=replies>{replies}</div></body>"
        ));
        assert!(out.text.contains("long body"), "{}", out.text);
        assert!(out.text.contains("Reply 3 agrees"), "{}", out.text);
        // The opening post is mostly a long quotation: the post, not the quote, is its
        // element.
        let out = run(&format!(
            "<body><div class=post><div class=post-body><p>I received this message today, here it is:</p><blockquote><div class=quote-text>{post}</div></blockquote></div></div><div class=replies>{replies}</div></body>"
        ));
        assert!(out.text.contains("Reply 3 agrees"), "{}", out.text);
        // An article whose comments are other elements keeps them out.
        let comments = (1..=4)
            .map(|i| format!("<div class=comment-text><p>Reply {i} agrees with the article and adds a few more words of its own.</p><p>{ARTICLE}</p></div>"))
            .collect::<String>();
        let out = run(&format!(
            "<body><div class=entry-content>{post}</div><div class=comments>{comments}</div></body>"
        ));
        assert!(out.text.contains("long body"), "{}", out.text);
        assert!(!out.text.contains("Reply 3 agrees"), "{}", out.text);
        // Same generic body class under an article wrapper and under comment wrappers:
        // a news article with its comments.
        let comments = (1..=4)
            .map(|i| format!("<div class=comment_content><div class=content><p>Reply {i} agrees with the article and adds a few more words of its own.</p><p>{ARTICLE}</p></div></div>"))
            .collect::<String>();
        let out = run(&format!(
            "<body><div class=article><div class=content>{post}</div></div><div class=comments>{comments}</div></body>"
        ));
        assert!(!out.text.contains("Reply 3 agrees"), "{}", out.text);
    }

    #[test]
    fn labels_recurring_in_every_post_of_a_thread_are_dropped() {
        let names = ["alice", "bob", "carol", "dave"];
        let posts: String = names
            .iter()
            .enumerate()
            .map(|(k, name)| {
                format!(
                    "<div class=post><div class=user><span>{name}</span><dl><dt>Joined</dt>\
                     <dd>Mar {k}, 2015</dd><dt>Messages</dt><dd>1,{k}04</dd></dl></div>\
                     <div class=body><p>Post number {k} by {name} says the gasket on the \
                     water pump was the culprit all along, and replacing it with a new one \
                     from the dealer stopped the leak for good after two weeks.</p></div></div>"
                )
            })
            .collect();
        let html = format!(
            "<html><body><nav><a href=/>Home</a> <a href=/f>Forums</a></nav>\
             <div class=thread><h1>Water pump leak</h1>{posts}</div>\
             <footer>Copyright</footer></body></html>"
        );
        let out = run(&html);
        for name in names {
            assert!(out.text.contains(name), "{}", out.text);
        }
        assert!(out.text.contains("Mar 2, 2015"), "{}", out.text);
        assert!(
            out.text.contains("the gasket on the water pump"),
            "{}",
            out.text
        );
        assert!(!out.text.contains("Joined"), "{}", out.text);
        assert!(!out.text.contains("Messages"), "{}", out.text);
        assert!(!out.text.contains("1,204"), "{}", out.text);
    }

    #[test]
    fn recurring_short_lines_of_an_article_without_posts_are_kept() {
        // Cards without a written paragraph (spec sheets, price plans) are no thread.
        let cards: String = (0..4)
            .map(|k| {
                format!(
                    "<div class=card><h3>Lamp {k}</h3><p>Max light</p><p>{k}00 lumens</p>\
                     <p>Weight</p><p>{k} ounces</p><p>Rechargeable battery inside</p></div>"
                )
            })
            .collect();
        let html = format!(
            "<html><body><div class=main><h1>Best lamps</h1><p>We tested many lamps over \
             several months of camping trips and these are the ones we liked the most, \
             with their light output and weight.</p>{cards}</div></body></html>"
        );
        let out = run(&html);
        assert!(out.text.contains("Max light"), "{}", out.text);
    }
}
