//! Shared helpers of the heuristic's unit tests (each step's own tests sit in its file)
//! and the tests of whole pages that no one step owns.

use super::{extract, HeuristicConfig};
use crate::extract::dom::parse;
use crate::extract::Extracted;

/// A paragraph long enough to be content evidence.
pub(super) const ARTICLE: &str =
    "This paragraph is the long body of the article and it goes on for many words to look real.";

/// The headline of [`headed_page`].
pub(super) const HEADLINE: &str = "Harbour cranes lifted the old ferry out of the water";

/// A page whose `<title>` and `<h1>` say [`HEADLINE`], the `<h1>` heading `inner` in the
/// story's element (`<div class=story>`).
pub(super) fn headed_page(inner: &str) -> String {
    format!(
        "<html><head><title>{HEADLINE}</title></head><body>\
         <div class=story><h1>{HEADLINE}</h1>{inner}</div></body></html>"
    )
}

/// A [`headed_page`] of two article paragraphs followed by `end` (the tail tests of the
/// written text: labels, interface lines, credits).
pub(super) fn page_ending_with(end: &str) -> String {
    headed_page(&format!(
        "<p>{ARTICLE} First.</p><p>{ARTICLE} Second.</p>{end}"
    ))
}

/// The heuristic with the default parameters on `html`.
pub(super) fn run(html: &str) -> Extracted {
    extract(&parse(html), &HeuristicConfig::default())
}

/// The text of `html` with the defaults changed by `change` (one switch turned off): a
/// test shows with it that its page needs the switch it tests.
pub(super) fn run_without(html: &str, change: impl FnOnce(&mut HeuristicConfig)) -> String {
    let mut config = HeuristicConfig::default();
    change(&mut config);
    extract(&parse(html), &config).text
}

#[test]
fn content_is_kept_and_navigation_dropped() {
    let html = format!(
        "<body><nav><a href=/>Home</a> <a href=/a>About us and the team</a></nav>\
         <div class=sidebar><p>Our sidebar tells you about the company and its long history of things.</p></div>\
         <div class=post><p class=date>12 May 2025, 300 views</p><p>{ARTICLE}</p><h2>Sub heading</h2><p>{ARTICLE} Again.</p></div>\
         <footer>Copyright 2025 Example Corporation, all rights reserved worldwide forever.</footer></body>"
    );
    let out = run(&html);
    assert!(out.text.contains("Sub heading"), "{}", out.text);
    assert!(out.text.contains("Again."));
    assert!(!out.text.contains("300 views"), "leading chrome trimmed");
    assert!(!out.text.contains("Home"));
    assert!(!out.text.contains("sidebar"));
    assert!(!out.text.contains("Copyright"));
}

#[test]
fn empty_page_says_why() {
    let out = run("<html><head><title>x</title></head></html>");
    assert_eq!(out.text, "");
    assert!(out.empty_reason.is_some());
}

#[test]
fn a_run_together_copyright_box_is_no_text() {
    // The publisher's legal notice under every article, in a box whose one run-together
    // name holds the word `article` too.
    let html = format!(
        "<body><div class=post><h1>Ferry back in service</h1><p>{ARTICLE}</p><p>{ARTICLE}</p><p>{ARTICLE}</p><p>{ARTICLE} Again.</p>\
         <div id=articleCopyright><p>No part of the works published in this daily may be copied \
         or distributed in any form or by any means without the written consent of the publisher.</p></div></div></body>"
    );
    let out = run(&html);
    assert!(out.text.contains("Again."), "{}", out.text);
    assert!(!out.text.contains("written consent"), "{}", out.text);
}

#[test]
fn a_publishers_contact_box_is_no_text() {
    // Subscriptions and advertising contacts under the article, in a box named in Polish.
    let html = format!(
        "<body><div class=post><h1>Ferry back in service</h1><p>{ARTICLE}</p><p>{ARTICLE}</p><p>{ARTICLE}</p><p>{ARTICLE} Again.</p></div>\
         <div id=kontakt><h3>Reklama:</h3><p>Oddział Biuro Reklamy, ul. Krakowskie Przedmieście 10, 20-002 Lublin, \
         tel. (81) 44-62-850, reklama w wydaniu papierowym i w serwisie internetowym.</p></div></body>"
    );
    let out = run(&html);
    assert!(out.text.contains("Again."), "{}", out.text);
    assert!(!out.text.contains("Krakowskie"), "{}", out.text);
}
