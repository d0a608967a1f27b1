//! `thresher extract` on hand-written blog and short-news pages (fixtures/blogs: German,
//! Spanish): a post's paragraphs are kept and the titles of "recommended" and "most read"
//! boxes whose links were left out are dropped (at the text's end and between two of its
//! parts: German, French), publication stamps on lines of their own at the text's edges
//! are dropped (German, Spanish), and a short news item is kept, its menu
//! dropped, on a page whose login panels outweigh it (the cascade's retries run there), and
//! on a video page whose login messages are `<article>` elements named as modal dialogs;
//! photo captions ending in a copyright credit are dropped (German, Polish), and so are
//! titles of link boxes left out set in no heading tag (German, Spanish), and a post's
//! donation appeal, metadata line and author boxes named in run-together words (German,
//! English), a paid article's paywall prompt and buy box (French, English), and an
//! appeal to share the text among its last lines (German, Spanish); a test report whose
//! sections the vocabulary marks is found beside a longer coupon box (German).

mod common;
use common::*;

#[test]
fn blog_fixtures_keep_the_story_and_drop_what_surrounds_it() {
    let failures = fixture_dir_failures(&fixtures().join("blogs"), |_, _, _| None);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
