//! Boilerplate marks: what an element's tag, ARIA role or class/id vocabulary says about
//! it ([`Mark`]), which of those a pass of the cascade trusts ([`Marks`]), and the
//! nearest marked ancestor-or-self of every element, with the exceptions that keep a
//! mark off the page's own text (an element holding most of the content evidence) or on
//! where it must stay (footers, overlays, interface forms).

use std::collections::HashMap;

use super::settings::{HeuristicConfig, ENTRY_FORM_FIELDS, FORM_WORDS_PER_FIELD, MAX_MARKED_SHARE};
use super::{tree, Pass};
use crate::extract::dom::{ElemId, PageDom, NO_ELEM};
use crate::extract::vocab;

/// What an element's tag, role or class/id says about it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Mark {
    None,
    Boilerplate,
    Comments,
}

/// Which element marks a pass of the cascade uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Marks {
    /// Tags, roles and class/id vocabulary.
    All,
    /// Tags and roles only (the vocabulary matched the page's content wrappers).
    Structural,
    /// None: link density and text length alone.
    Off,
}

/// An element's mark by its tag and role, or `None` when its class and id names decide
/// ([`vocab_mark`]).
fn element_mark(tag: &str, role: &str, id_class: &str, marks: Marks) -> Option<Mark> {
    if marks == Marks::Off {
        return Some(Mark::None);
    }
    match tag {
        // A login panel's messages or a newsletter box set as an `<article>` named as a
        // modal dialog are an overlay (`vocab::is_overlay_name`), not the page's text.
        "main" | "article" if vocab::is_overlay_name(id_class) => return Some(Mark::Boilerplate),
        "body" | "html" | "main" | "article" => return Some(Mark::None),
        _ if vocab::is_boilerplate_tag(tag) => return Some(Mark::Boilerplate),
        _ => {}
    }
    if vocab::is_boilerplate_role(role) {
        return Some(Mark::Boilerplate);
    }
    if vocab::is_content_role(role) {
        return Some(Mark::None);
    }
    None
}

/// The mark an element's class and id names give it in this pass (see [`element_mark`]).
fn vocab_mark(id_class: &str, config: &HeuristicConfig, marks: Marks) -> Mark {
    if marks == Marks::Structural {
        // Overlays (consent banners, modal dialogs) are never the page, even when the
        // vocabulary is otherwise distrusted: a short marked answer must not make a
        // cookie dialog the longest one.
        return if vocab::is_overlay_name(id_class) {
            Mark::Boilerplate
        } else {
            Mark::None
        };
    }
    if !config.include_comments && vocab::is_comment_name(id_class) {
        return Mark::Comments;
    }
    if vocab::is_boilerplate_name(id_class) {
        Mark::Boilerplate
    } else {
        Mark::None
    }
}

/// Every element's own mark in this pass: its tag, role and vocabulary
/// ([`element_mark`]). (The page type adds the customer reviews of product pages:
/// `page_type::review_marks`.)
pub(super) fn own_marks(pass: &Pass) -> Vec<Mark> {
    let (page, config, marks) = (pass.page, pass.config, pass.marks);
    // Pages repeat their class names (every item of a list, every cell of a table), and
    // the vocabulary test was 3 % of extraction's time on ScrapingHub: one test per name.
    let mut by_name: HashMap<&str, Mark> = HashMap::new();
    page.elements
        .iter()
        .map(|e| {
            element_mark(&e.tag, &e.role, &e.id_class, marks).unwrap_or_else(|| {
                if e.id_class.is_empty() {
                    // No name, no mark (most elements), and no lookup: the lookups
                    // were a tenth of the heuristic's time on ScrapingHub.
                    return Mark::None;
                }
                *by_name
                    .entry(&e.id_class[..])
                    .or_insert_with(|| vocab_mark(&e.id_class, config, marks))
            })
        })
        .collect()
}

/// The share of the page's content evidence (`good`, of `total_good`) in elements that
/// the class/id vocabulary alone marks as boilerplate ([`vocab_mark`] where
/// [`element_mark`] leaves the decision to it: not by tag or role, not as customer
/// reviews or comments), each subtree counted once. An element holding
/// `MAX_MARKED_SHARE` of the evidence counts not: [`nearest_marks`] leaves it unmarked
/// (`content-sidebar-wrap`).
pub(super) fn vocabulary_share(pass: &Pass, good: &[f64], total_good: f64) -> f64 {
    if total_good <= 0.0 {
        return 0.0;
    }
    let page = pass.page;
    let by_vocabulary = tree::in_subtrees(page, |i| {
        let e = &page.elements[i];
        !e.id_class.is_empty()
            && good[i] < MAX_MARKED_SHARE * total_good
            && element_mark(&e.tag, &e.role, &e.id_class, Marks::All).is_none()
            && vocab_mark(&e.id_class, pass.config, Marks::All) == Mark::Boilerplate
    });
    tree::outermost_good(page, &by_vocabulary, good) / total_good
}

/// Nearest boilerplate-marked ancestor-or-self of every element (elements are in
/// document order, so parents come first), or `NO_ELEM`. Vocabulary alone does not mark
/// an element that holds most of the page's content evidence (`good`, of `total_good`):
/// a theme that wraps the whole page in `<header class="page-header">`, a forum whose
/// posts are `class="comment"`. Comment marks count unless `comments_are_content`.
pub(super) fn nearest_marks<'a>(
    pass: &Pass<'a>,
    own_marks: &[Mark],
    comments_are_content: bool,
    good: &[f64],
    total_good: f64,
) -> Vec<ElemId> {
    let (page, config, marks) = (pass.page, pass.config, pass.marks);
    let mut marked = vec![NO_ELEM; page.elements.len()];
    // The overlay test once per class/id value, as in `own_marks` (marked items of a
    // list or menu repeat their names).
    let mut overlay: HashMap<&str, bool> = HashMap::new();
    let mut is_overlay = |id_class: &'a str| {
        !id_class.is_empty()
            && *overlay
                .entry(id_class)
                .or_insert_with(|| vocab::is_overlay_name(id_class))
    };
    let forms_apply = marks != Marks::Off && total_good >= config.min_article_evidence;
    let formless = if marks != Marks::Off && !page.message_fields.is_empty() {
        formless_boxes(page)
    } else {
        Vec::new()
    };
    for (i, e) in page.elements.iter().enumerate() {
        let own = match own_marks[i] {
            Mark::None => false,
            Mark::Comments if comments_are_content => false,
            _ if is_page_footer(&e.tag, &e.role) => true,
            // Consent banners and modal dialogs are never the page, however long their
            // text (cookie-category descriptions outweighing a short service page).
            // (OneTrust's vendor descriptions outweighing a listing's link-led cards or a
            // short thread: the cascade's unmarked retry still answers a dialog-only page.)
            Mark::Boilerplate if is_overlay(&e.id_class) => true,
            _ => good[i] < MAX_MARKED_SHARE * total_good,
        } || (forms_apply && is_interface_form(page, i as ElemId, good[i]))
            || (marks != Marks::Off
                && is_message_form(page, i as ElemId, formless.get(i) == Some(&true)));
        marked[i] = if own {
            i as ElemId
        } else if e.parent != NO_ELEM {
            marked[e.parent as usize]
        } else {
            NO_ELEM
        };
    }
    marked
}

/// A `<footer>` element (or `role=contentinfo`) stays boilerplate even when it holds
/// most of the page's content evidence: on product and landing pages whose copy comes in
/// many short blocks, the long paragraphs are the footer's legal footnotes and
/// disclaimers. (When the footer really is all the page has, the marked pass comes out
/// empty and the cascade retries without marks.)
fn is_page_footer(tag: &str, role: &str) -> bool {
    tag == "footer" || role.split(' ').any(|r| r == "contentinfo")
}

/// A `<form>` without a line of content evidence is interface, not text: a contact or
/// newsletter box, a search or login form (field labels, button texts, consent lines).
/// Forms that wrap text (an ASP.NET page-wide form, old Reddit's comment bodies, a
/// product or results list inside a filter form) hold content evidence and stay. Only
/// on pages with an article (`min_article_evidence`): on a product page without one,
/// the add-to-cart form holds the product's options and is the page.
///
/// A form (or fieldset) that asks for input ([`asks_for_input`]) is interface whatever
/// its text: a subscription or comment form's consent and terms paragraphs read as
/// prose and outweighed a paywalled article's short lead.
fn is_interface_form(page: &PageDom, e: ElemId, good: f64) -> bool {
    let tag = &*page.elements[e as usize].tag;
    (tag == "form" && good <= 0.0)
        || (matches!(tag, "form" | "fieldset") && asks_for_input(page, e))
}

/// Per element: it is the smallest element around at least [`ENTRY_FORM_FIELDS`] fields
/// that no `<form>` or `<fieldset>` holds. Script-driven comment and contact forms write
/// their boxes in a `<div>` or a table with no form element (tanea.gr's "Οι απόψεις σας":
/// name, e-mail and message cells and the rules under them); the smallest element around
/// them is that form's box, not the article beside it.
fn formless_boxes(page: &PageDom) -> Vec<bool> {
    let n = page.elements.len();
    let mut fields = vec![0usize; n];
    let in_form = |f: ElemId| {
        let mut e = f;
        while e != NO_ELEM {
            if matches!(&*page.elements[e as usize].tag, "form" | "fieldset") {
                return true;
            }
            e = page.elements[e as usize].parent;
        }
        false
    };
    for &f in page.entry_fields.iter().filter(|&&f| !in_form(f)) {
        let mut e = f;
        while e != NO_ELEM {
            fields[e as usize] += 1;
            e = page.elements[e as usize].parent;
        }
    }
    // Elements with enough fields one of whose children has enough too are not the
    // smallest.
    let mut wider = vec![false; n];
    for (i, e) in page.elements.iter().enumerate() {
        if fields[i] >= ENTRY_FORM_FIELDS && e.parent != NO_ELEM {
            wider[e.parent as usize] = true;
        }
    }
    (0..n)
        .map(|i| fields[i] >= ENTRY_FORM_FIELDS && !wider[i])
        .collect()
}

/// A form, fieldset or formless box of fields ([`formless_boxes`]) that asks for input
/// and holds a box for a message (a `<textarea>`): a comment or contact form. It is
/// interface on any page, with or without an article: a short news item's comment form
/// (name, e-mail, message and the rules above them) outweighed the item, and no page's
/// text is written in a message box. Forms without one (an add-to-cart form with its
/// options, a filter form) keep the evidence gate of [`is_interface_form`].
fn is_message_form(page: &PageDom, e: ElemId, formless: bool) -> bool {
    let is_form = matches!(&*page.elements[e as usize].tag, "form" | "fieldset");
    (is_form || formless && is_labels_only(page, e))
        && page.message_fields.iter().any(|&f| page.contains(e, f))
        && asks_for_input(page, e)
}

/// A box of fields without a form element is a form's box only when its text is the
/// fields' own: a label and a line of help per field (tanea.gr: 19 words for 3 fields).
/// The smallest element around a product page's quantity box and its questions box is
/// the product's whole column, 74–93 words per field, whose text is the page's.
fn is_labels_only(page: &PageDom, e: ElemId) -> bool {
    page.words_in(e) <= (FORM_WORDS_PER_FIELD * page.entry_fields_in(e)) as u64
}

/// At least [`ENTRY_FORM_FIELDS`] fields a visitor fills in (text boxes, checkboxes,
/// selects, text areas), and less than half the page's words: an ASP.NET form that wraps
/// the whole page, search box and all, is the page.
fn asks_for_input(page: &PageDom, e: ElemId) -> bool {
    if page.entry_fields_in(e) < ENTRY_FORM_FIELDS {
        return false;
    }
    2 * page.words_in(e) < page.visible_words()
}

#[cfg(test)]
mod tests {
    use super::super::tests::{run, ARTICLE};

    #[test]
    fn overlays_stay_out_even_when_they_hold_most_of_the_page() {
        // Consent dialogs' purpose texts and modals outweigh a short page; they must stay
        // boilerplate like `<footer>`: beside a short thread (and count as no article
        // against its posts), beside a listing of linked cards, beside a short service page,
        // and in the tags-and-roles retry when the vocabulary marks the content's own
        // wrapper (`widget`).
        let purpose = "These technologies are strictly necessary to provide you with the site and its features and cannot be switched off here.";
        let onetrust = format!(
            "<div id=onetrust-consent-sdk><div class=ot-pc-content>{}</div></div>",
            format!("<h4>Purpose</h4><p>{purpose}</p>").repeat(8)
        );
        let posts = (1..=3)
            .map(|i| format!("<div class=comment><p>Post {i} of the thread asks about the case and what the two holes are for, with enough words.</p></div>"))
            .collect::<String>();
        let cards = (1..=8)
            .map(|i| {
                format!(
                    "<div class=card><a href=/{i}>Recipe card number {i} with a title</a></div>"
                )
            })
            .collect::<String>();
        let copy = format!("<p>{ARTICLE} Service.</p>").repeat(3);
        let pages = [
            (format!("<div class=thread>{posts}</div>{onetrust}"), "Post 2 of the thread"),
            (format!("<div class=list>{cards}</div>{onetrust}"), "Recipe card number 3"),
            (
                format!(
                    "<main><h1>Our service</h1>{copy}</main>\
                     <div class=\"cmplz-cookiebanner cmplz-hidden\"><div class=cmplz-body>{}</div></div>\
                     <div class=memberModal><p>{purpose} Member.</p></div>",
                    format!("<p>{purpose}</p>").repeat(5)
                ),
                "Service.",
            ),
            (format!("<div class=widget>{copy}</div>{onetrust}"), "Service."),
        ];
        for (body, kept) in pages {
            let out = run(&format!("<body>{body}</body>"));
            assert!(out.text.contains(kept), "{kept}: {}", out.text);
            assert!(
                !out.text.contains("strictly necessary"),
                "{kept}: {}",
                out.text
            );
        }
    }

    #[test]
    fn interface_forms_on_article_pages_are_dropped() {
        let article = format!("<p>{ARTICLE}</p>").repeat(12);
        let form =
            "<form><p>First Name</p><input><p>Email address</p><input><p>Subscribe now</p></form>";
        let out = run(&format!("<body><div>{article}{form}</div></body>"));
        assert!(out.text.contains("long body"), "{}", out.text);
        assert!(!out.text.contains("First Name"), "{}", out.text);
        // A form that wraps the text is not an interface form.
        let out = run(&format!(
            "<body><form><div>{article}<p>Closing words</p></div><input></form></body>"
        ));
        assert!(out.text.contains("Closing words"), "{}", out.text);
    }

    #[test]
    fn forms_asking_for_input_are_dropped_whatever_their_text() {
        // A paywalled story shows its lead; the subscription form below it carries long
        // consent paragraphs beside its fields. The consent is no article.
        let consent = "I agree to the processing of my personal data by the publisher for the purposes of marketing its goods and services, as described in the terms.";
        let agree =
            format!("<div class=agree><input type=checkbox><div>{consent}</div></div>").repeat(4);
        let form = format!(
            "<form class=subscribe-box><p>Name</p><input type=text><p>E-mail</p><input type=email>\
             <fieldset>{agree}</fieldset><input type=submit value=Send></form>"
        );
        let lead = format!("<p>{ARTICLE} The lead of the story ends here.</p>").repeat(4);
        let menu = (1..=40)
            .map(|i| format!("<a href=/s{i}>Section number {i}</a> "))
            .collect::<String>();
        let out = run(&format!(
            "<body><nav>{menu}</nav><div id=story><h1>The story</h1>{lead}</div><div class=box>{form}</div></body>"
        ));
        assert!(out.text.contains("lead of the story"), "{}", out.text);
        assert!(!out.text.contains("personal data"), "{}", out.text);
        // A form wrapping the whole page (ASP.NET), search box and login fields and all,
        // is the page.
        let article = format!("<p>{ARTICLE}</p>").repeat(8);
        let out = run(&format!(
            "<body><form id=aspnetForm><input type=text name=q><input type=password>\
             <div class=main>{article}<p>Closing words of the page.</p></div></form></body>"
        ));
        assert!(out.text.contains("Closing words"), "{}", out.text);
    }

    #[test]
    fn message_forms_are_dropped_under_a_short_item_too() {
        // A short news item (far under `min_article_evidence`) and the comment form under
        // it, whose rules outweigh the item: a form with a message box is no page's text.
        let item = format!("<p>{ARTICLE}</p><p>{ARTICLE}</p><p>{ARTICLE} The item ends here.</p>");
        let rules = "Comments are checked by the editors before they appear, and comments written in capital letters or in another alphabet, with insults or links to other sites, are not published here at all.";
        let fields = format!(
            "<p>Your name</p><input type=text name=author><p>Your e-mail</p><input type=text name=email>\
             <p>{rules}</p><textarea name=comment></textarea>"
        );
        let out = run(&format!(
            "<body><div class=post><h1>The item</h1>{item}<form id=commentform>{fields}<input type=submit value=Send></form></div></body>"
        ));
        assert!(out.text.contains("The item ends here"), "{}", out.text);
        assert!(!out.text.contains("checked by the editors"), "{}", out.text);
        // Script-driven: the same boxes in a table with no form element.
        let table = format!(
            "<table><tr><td><input type=text></td><td>Your name *</td></tr>\
             <tr><td><input type=text></td><td>E-mail</td></tr>\
             <tr><td><textarea></textarea></td><td>Message *</td></tr>\
             <tr><td colspan=2>Fields with * are required. {}</td></tr></table>",
            "Comments in capital letters are not published."
        );
        let out = run(&format!(
            "<body><div class=post><h1>The item</h1>{item}<div id=send><h3>Your views</h3>{table}</div></div></body>"
        ));
        assert!(out.text.contains("The item ends here"), "{}", out.text);
        assert!(!out.text.contains("capital letters"), "{}", out.text);
        // A product's column holds a quantity box and a questions box, without a form
        // element: its words are the page's, not the boxes' labels (and under half of
        // the page's, beside the shop's long footer).
        let about = format!("<p>{ARTICLE} The lamp is built for the road.</p>").repeat(4);
        let footer = format!("<footer>{}</footer>", format!("<p>{ARTICLE}</p>").repeat(8));
        let out = run(&format!(
            "<body><div class=main><div class=product><h1>Road lamp</h1>{about}<input type=text name=qty>\
             <textarea placeholder=\"Type your question\"></textarea></div>\
             <div class=shipping>{}</div></div>{footer}</body>",
            format!("<p>{ARTICLE} Shipping is free.</p>").repeat(6)
        ));
        assert!(out.text.contains("built for the road"), "{}", out.text);
    }

    #[test]
    fn run_together_caption_and_credit_classes_are_dropped() {
        let article = format!("<p>{ARTICLE}</p>").repeat(6);
        let out = run(&format!(
            "<body><div>{article}<div class=InlineImage-imageEmbedCaption>The minister walks past an aircraft at the air show on Monday morning in Dubai.</div>\
             <div class=imageEmbedCredit>Some Photographer | Agency</div>{article}</div></body>"
        ));
        assert!(out.text.contains("long body"), "{}", out.text);
        assert!(!out.text.contains("minister"), "{}", out.text);
        assert!(!out.text.contains("Photographer"), "{}", out.text);
    }

    #[test]
    fn run_together_copyright_boxes_are_dropped() {
        // A reproduction notice under every article, named `articleCopyright`: its long
        // sentences must not be written as the article's last paragraph.
        let article = format!("<p>{ARTICLE}</p>").repeat(6);
        let out = run(&format!(
            "<body><div class=story>{article}<div id=articleCopyright><div id=articleCopyrightText>             No part of the works published in this daily may be copied or distributed in any form or by any means without the written consent of the publisher.             </div></div></div></body>"
        ));
        assert!(out.text.contains("long body"), "{}", out.text);
        assert!(!out.text.contains("written consent"), "{}", out.text);
    }

    #[test]
    fn long_footer_footnotes_do_not_outweigh_the_page() {
        let legal = "Testing conducted by the company in January using preproduction systems and software, results may vary with configuration and usage.";
        let notes = format!("<p>{legal}</p>").repeat(4);
        // Enough copy (over `retry_below_words`) that the marked pass stands.
        let copy = format!("<p>{ARTICLE}</p>").repeat(3);
        let html = format!(
            "<body><div class=hero><h2>Built to go places</h2>{copy}</div>\
             <footer><ol>{notes}</ol></footer></body>"
        );
        let out = run(&html);
        assert!(out.text.contains("long body"), "{}", out.text);
        assert!(!out.text.contains("preproduction"), "{}", out.text);
        // A page whose only text is in its footer still answers (the cascade).
        let out = run(&format!("<body><footer>{notes}</footer></body>"));
        assert!(out.text.contains("preproduction"), "{}", out.text);
    }

    #[test]
    fn author_boxes_are_dropped() {
        let html = format!(
            "<body><article><h1>Title</h1><p>{ARTICLE}</p><p>{ARTICLE}</p><p>{ARTICLE} End.</p>\
             <div class=\"author-box\"><p>Jane writes about gardens and has done so for many years, \
             contributing to several magazines. Biography.</p></div></article></body>"
        );
        let out = run(&html);
        assert!(out.text.contains("End."), "{}", out.text);
        assert!(!out.text.contains("Biography."), "{}", out.text);
    }
}
