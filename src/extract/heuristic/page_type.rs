//! What kind of page this is, as far as the heuristic needs to know: whether its comment
//! sections are its content (a forum thread) or not (an article with its discussion),
//! whether it is a listing (no article of its own, only link-led items), and whether it
//! declares a product (then customer reviews are boilerplate).

use super::features::block_value;
use super::marks::{Mark, Marks};
use super::settings::{HeuristicConfig, DECLARED_ARTICLE_PARAGRAPHS};
use super::structures::Structures;
use super::threads::posts_continue_in_comments;
use super::tree::{holds_any, in_subtrees, outermost_good};
use super::Pass;
use crate::extract::dom::{ElemId, PageDom, NO_ELEM};
use crate::extract::vocab;

/// Comment sections are the content when the rest of the page has no article of its
/// own (a forum thread whose posts are `class="comment"`): then no comment mark counts.
/// An article page with a long discussion keeps its comments out. `own_marks` are the
/// elements' own marks, `good` their content evidence (of `total_good`).
pub(super) fn comments_are_content(
    pass: &Pass,
    own_marks: &[Mark],
    good: &[f64],
    total_good: f64,
) -> bool {
    let (page, config) = (pass.page, pass.config);
    let in_comments = in_subtrees(page, |i| own_marks[i] == Mark::Comments);
    let comment_good = outermost_good(page, &in_comments, good);
    // A consent dialog's purpose texts are no article either (`vocab::is_overlay_name`).
    let in_consent = in_subtrees(page, |i| {
        !in_comments[i]
            && own_marks[i] == Mark::Boilerplate
            && vocab::is_overlay_name(&page.elements[i].id_class)
    });
    let consent_good = outermost_good(page, &in_consent, good);
    let rest = total_good - comment_good - consent_good;
    tracing::debug!(
        "comment evidence {comment_good:.0} of {total_good:.0} (consent {consent_good:.0})"
    );
    comment_good > 0.0 && {
        let holds = holds_any(page, &in_comments);
        (rest < config.min_article_evidence
            && !declared_article_apart(page, &in_comments, &holds, good, config))
            || posts_continue_in_comments(page, &in_comments, &holds, good, rest)
    }
}

/// A page with no article of its own: the content evidence outside link-led content-like
/// repeated items ([`Group::linked`]; sections and posts with their own text count as
/// article) and outside boilerplate is below `min_article_evidence`, and some link-led
/// content-like repeated structure exists. Category pages, search results, shop grids and event
/// listings whose cards are wrapped whole in a link (`<a class=card><h3>…</h3><p>…</p></a>`)
/// have all their words in links, so without this their items would weigh nothing and a
/// stray paragraph (an intro line, a cookie notice) would become the container. A page
/// whose headline is followed by a paragraph (`headed`, [`headline_followed_by_text`](super::headline::headline_followed_by_text)) is a short
/// article beside link lists, not a listing, however little text it has.
///
/// [`Group::linked`]: super::structures::Group::linked
pub(super) fn listing_page(pass: &Pass, marked: &[ElemId], st: &Structures, headed: bool) -> bool {
    let (page, config) = (pass.page, pass.config);
    let (item_group, groups) = (&st.item_group, &st.groups);
    let mut outside = 0.0;
    let mut in_items = false;
    for (i, b) in page.blocks.iter().enumerate() {
        let e = b.elem as usize;
        if marked[e] != NO_ELEM || pass.is_template(i) {
            continue;
        }
        if item_group[e] != u32::MAX && groups[item_group[e] as usize].linked() {
            in_items = true;
        } else {
            outside += block_value(b, false, config).max(0.0);
        }
    }
    tracing::debug!("listing test: evidence outside items {outside:.0}, items {in_items}");
    in_items && outside < config.min_article_evidence && !headed
}

/// Customer reviews on a page that declares a product ([`PageDom::declares_product`]):
/// elements named as reviews ([`vocab::is_review_name`]) are boilerplate. Store
/// pages put the reviews (long paragraphs) next to a description of short lines and
/// spec rows, so by length alone the reviews win the page. Only on product pages:
/// editorial reviews (articles) name their own body `review-content`, `review-summary`
/// (on WCXB dev, marking review names on every page cost articles 0.003, on product
/// pages alone it gained products 0.019 and touched no other type). Not a comment
/// section: a short description (a few lines and spec rows) is below
/// `min_article_evidence`, which would make the reviews the page; a page whose reviews
/// are all it has comes out short and the cascade retries without vocabulary marks.
pub(super) fn review_marks(
    page: &PageDom,
    config: &HeuristicConfig,
    marks: Marks,
    mut own: Vec<Mark>,
) -> Vec<Mark> {
    if marks != Marks::All || config.include_comments || !page.declares_product() {
        return own;
    }
    for (i, e) in page.elements.iter().enumerate() {
        if own[i] == Mark::None
            && !vocab::is_content_role(&e.role)
            && !matches!(&*e.tag, "body" | "html" | "main" | "article")
            && vocab::is_review_name(&e.id_class, &e.role)
        {
            own[i] = Mark::Boilerplate;
        }
    }
    own
}

/// Whether the page declares a short article of its own apart from its comment sections:
/// an `<article>` or `itemprop=articleBody` element outside every comment section, holding
/// none of them, with at least a paragraph of content evidence. A blog post of a few lines
/// followed by a long discussion (open threads, announcements) is then an article page,
/// and its comments stay boilerplate; a forum thread has no such element apart from its
/// posts.
fn declared_article_apart(
    page: &PageDom,
    in_comments: &[bool],
    holds: &[bool],
    good: &[f64],
    config: &HeuristicConfig,
) -> bool {
    page.elements.iter().enumerate().any(|(i, e)| {
        (&*e.tag == "article" || e.role.split(' ').any(|r| r == "articlebody"))
            && !in_comments[i]
            && !holds[i]
            && good[i] >= config.min_content_words as f64 * DECLARED_ARTICLE_PARAGRAPHS
    })
}

#[cfg(test)]
mod tests {
    use super::super::tests::{run, ARTICLE};

    #[test]
    fn cards_wrapped_in_links_are_the_listing_page() {
        // A category page: every card is one link (title + snippet), so all its words
        // are link words; the only paragraph outside is a notice.
        let cards = (1..=6)
            .map(|i| {
                format!(
                    "<div class=card><a href=/{i}><h3>Card title number {i} about things</h3>\
                 <p>Snippet text of card {i} with a few more words here.</p></a></div>"
                )
            })
            .collect::<String>();
        let html = format!(
            "<body><div class=grid>{cards}</div>\
             <div class=notice><p>We use cookies on this site to give you a better experience and to remember your preferences when you come back.</p></div></body>"
        );
        let out = run(&html);
        assert!(out.text.contains("Card title number 3"), "{}", out.text);
        assert!(out.text.contains("Snippet text of card 5"), "{}", out.text);
        // With an article of its own, the same grid after it stays out.
        let article = format!("<p>{ARTICLE}</p>").repeat(12);
        let out = run(&format!(
            "<body><div>{article}</div><div class=grid>{cards}</div></body>"
        ));
        assert!(out.text.contains("long body"), "{}", out.text);
        assert!(!out.text.contains("Card title"), "{}", out.text);
    }

    #[test]
    fn short_declared_article_keeps_its_long_discussion_out() {
        let comments = (1..=8)
            .map(|i| format!("<li class=comment><p>Comment {i} is a reply with enough words to count as content on its own here.</p></li>"))
            .collect::<String>();
        // Three paragraphs: above `retry_below_words`, below `min_article_evidence`.
        let article = format!("<p>{ARTICLE}</p>").repeat(3);
        let out = run(&format!(
            "<body><article>{article}</article><div id=comments><ul>{comments}</ul></div></body>"
        ));
        assert!(out.text.contains("long body"), "{}", out.text);
        assert!(!out.text.contains("reply"), "{}", out.text);
        // A thread without an article of its own: the posts are the page.
        let out = run(&format!(
            "<body><h1>Thread title</h1><div id=comments><ul>{comments}</ul></div></body>"
        ));
        assert!(out.text.contains("reply"), "{}", out.text);
    }

    #[test]
    fn customer_reviews_on_a_product_page_are_dropped() {
        let specs = (1..=8)
            .map(|i| format!("<li>Spec line {i}: a value of the product</li>"))
            .collect::<String>();
        let reviews = (1..=5)
            .map(|i| format!("<div class=customer-review><p>Reviewer {i} says this is a great thing, bought it for my son and he loves it, would buy again without a doubt.</p></div>"))
            .collect::<String>();
        let body = format!(
            "<body><div class=product><h1>Thing</h1><p>{ARTICLE}</p><p>{ARTICLE}</p><ul>{specs}</ul></div>\
             <div class=reviews-list>{reviews}</div></body>"
        );
        let product = format!("<head><meta property=og:type content=product></head>{body}");
        let out = run(&product);
        assert!(out.text.contains("Spec line 3"), "{}", out.text);
        assert!(!out.text.contains("Reviewer"), "{}", out.text);
        // JSON-LD declares the product just as well.
        let ld = format!("<head><script type=application/ld+json>{{\"@context\":\"https://schema.org\",\"@type\": [\"Product\"]}}</script></head>{body}");
        assert!(!run(&ld).text.contains("Reviewer"));
        // An article (an editorial review) keeps its `review-` named parts.
        let article = format!(
            "<head><meta property=og:type content=article></head><body><div class=review-body><p>{ARTICLE}</p><p>{ARTICLE}</p></div>\
             <div class=review-verdict><p>{ARTICLE} Verdict.</p></div></body>"
        );
        assert!(run(&article).text.contains("Verdict."));
    }
}
