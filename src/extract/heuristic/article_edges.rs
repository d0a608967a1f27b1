//! Where a headed article's written text ends (and, with `start_at_headline`, where it
//! starts). A short news item in a page-wide column — a table layout's centre cell, a
//! `<div id=content>` that also holds the "latest news" times, the archive calendar, the
//! weather, the comment form and the legal notice — is chosen with everything below it:
//! the column's few long lines there (the copyright paragraph, a teaser) outweigh its
//! many short ones, and `trim_edges` trims only the leading edge. Readers and annotators
//! end the article where its prose stops and a long run of short lines and links begins.
//!
//! Only on pages whose headline is followed by text (`headline.rs`): there the text
//! starts at a known place and runs down from it. The run must also
//! - lie outside the smallest element holding the text written so far (a list, a table
//!   or a code block inside the article's own element is the article's),
//! - be link-led (other stories' headlines and times, calendar days: at least
//!   [`TAIL_LINK_SHARE`] of its lines are matched by link-dense blocks in its span; a
//!   specification table or a list of pros and cons has no links),
//! - hold less content evidence after it than the text before it, and fewer than
//!   [`TAIL_MAX_WORDS_RATIO`] times its words (a listing under an introduction is the
//!   page's own content).
//!
//! A list of other news (dated linked headlines, [`news_lists`]) ends the text too,
//! inside the text's element as well (a flat table cell holding the article and the
//! site's "other articles" with their dates), once the same evidence is written. So does
//! a line that only names a comment section or form ([`comment_headings`](super::comment_headings):
//! "Оставить комментарий", "Post a comment"; kept, or left out just above a kept block,
//! `heading_left_out`) when less evidence follows it than precedes it, unless comment
//! headings recur between posts (a question and its answers); when
//! bylined readers' posts follow the heading ([`readers_posts`](super::readers_posts)),
//! their evidence is not counted, so a few long posts under a short item go too. So does
//! a line that only names a box that follows articles ([`labels`](super::labels): "Читайте
//! также", "ZOBACZ TAKŻE", "相关报道", "Share this"), with the same tests.
//!
//! A publisher's legal notice ([`legal_notices`](super::legal_notices): "© SITE, 2004",
//! "All rights reserved") outside the text's element ends the text the same way: a flat
//! layout's imprint (the notice, the registration, the editors' address and telephones)
//! is written in the article's table with no class that names it. So does a line that
//! only names a notice or contact box ("声明：", "ΕΠΙΚΟΙΝΩΝΙΑ", "Contact us"), inside the
//! text's element too, when the evidence after the box's first block is less. These two cuts go by
//! the words of the line, not by the page's headline: they also end an article whose
//! headline the page does not repeat (a title that names only the site, a headline
//! written as a link).

use super::comment_headings::is_comment_heading;
use super::features::{block_value, link_density};
use super::headline::Headed;
use super::labels::is_closing_label;
use super::legal_notices::{holds_legal_notice, is_notice_heading};
use super::news_lists;
use super::readers_posts::readers_posts_end;
use super::settings::{
    HeuristicConfig, HEAD_DROP_SHARE, NEWS_LIST_HEADING_MAX_WORDS, TAIL_GAP_LINES, TAIL_LINK_SHARE,
    TAIL_MAX_WORDS_RATIO, TAIL_MIN_PARAGRAPHS,
};
use super::Pass;
use crate::extract::dom::{Block, BlockKind, ElemId, PageDom, NO_ELEM};

/// The end (exclusive) of the written text among `kept[first..]`: the start of the first
/// run of [`TAIL_GAP_LINES`] blocks without content evidence of their own that passes the
/// tests of the module's header, once [`TAIL_MIN_PARAGRAPHS`] paragraphs' worth of
/// evidence has been written; else the end of `kept`. Only with `cut_tail`, on a page
/// with a headed article (`article`). With `cut_news_lists`, also the start of a list of
/// other news ([`news_lists`]) after that evidence, inside the text's element too, with
/// the heading or link-led run of short lines just above it, under the same evidence and
/// words tests. With `cut_at_comment_heading` and `cut_at_legal_notice`, also the line
/// that names a comment section or form, and a block outside the text's element that holds
/// a legal notice, when less evidence follows; on any page, headed or not.
pub(super) fn article_end(
    pass: &Pass,
    article: Option<ElemId>,
    kept: &[(usize, &Block)],
    first: usize,
    comments_are_content: bool,
) -> (usize, EndCut) {
    let (page, config) = (pass.page, pass.config);
    let may_cut_comments =
        config.cut_at_comment_heading && !comments_are_content && !config.include_comments;
    let tail = config.cut_tail && article.is_some();
    let news = config.cut_news_lists && article.is_some();
    let notices = config.cut_at_legal_notice;
    let labels_end = config.cut_at_closing_label && article.is_some();
    if !(tail || news || may_cut_comments || notices || labels_end) || first >= kept.len() {
        return (kept.len(), EndCut::None);
    }
    // Each kept block's value and comment-heading test, once.
    let value: Vec<f64> = kept
        .iter()
        .map(|&(_, b)| block_value(b, false, config))
        .collect();
    let comment_heading: Vec<bool> = kept
        .iter()
        .map(|&(_, b)| may_cut_comments && is_comment_heading(first_line(b)))
        .collect();
    // A kept comment heading, or one the pass left out just above a kept block
    // (`heading_left_out`).
    let heads_section: Vec<bool> = (0..kept.len())
        .map(|k| {
            comment_heading[k]
                || may_cut_comments && k > first && heading_left_out(page, config, kept, k)
        })
        .collect();
    let closing: Vec<bool> = kept
        .iter()
        .map(|&(_, b)| labels_end && is_closing_label(first_line(b)))
        .collect();
    let comments_end = may_cut_comments
        && !comments_between_posts(&value[first..], &heads_section[first..], config);
    let lists = if news {
        news_lists::news_list_starts(page, config)
    } else {
        Vec::new()
    };
    let needed = TAIL_MIN_PARAGRAPHS * config.min_content_words as f64;
    // Where the readers' posts below each block end (`readers_posts.rs`).
    let posts_end = if comments_end && config.cut_over_readers_posts {
        readers_posts_end(page, kept, first)
    } else {
        vec![0; kept.len()]
    };
    // Content evidence from each kept block to the end.
    let mut rest = vec![0.0; kept.len() + 1];
    for k in (0..kept.len()).rev() {
        rest[k] = rest[k + 1] + value[k].max(0.0);
    }
    let words = |s: &[(usize, &Block)]| s.iter().map(|&(_, b)| b.words as f64).sum::<f64>();
    let mut evidence = 0.0;
    // The smallest element holding the text written so far, and the page block after
    // the last content block.
    let mut text_elem: Option<ElemId> = None;
    let mut after_text = kept[first].0;
    let mut run_start = None;
    let mut run_lines = 0usize;
    for (k, &(i, b)) in kept.iter().enumerate().skip(first) {
        // A news list starting among the page's blocks since the previous kept one ends
        // the text wherever it lies (`news_lists.rs`), with its heading.
        let since = if k > first { kept[k - 1].0 + 1 } else { i };
        // Where a cut at this block starts: the link-led run of short lines just above it
        // (the list's topic links, a print link, share buttons) goes with it, else `own`.
        let run_above = |own: usize| match run_start {
            Some(s) if link_led_since(page, config, after_text, i, run_lines) => s,
            _ => own,
        };
        if news && evidence >= needed && lists[since..=i].contains(&true) {
            let start = run_above(with_heading(kept, k, first));
            if rest[start] < evidence
                && words(&kept[start..]) < TAIL_MAX_WORDS_RATIO * words(&kept[first..start])
            {
                return (start, EndCut::NewsList);
            }
        }
        // The heading of a comment section or form (`comment_headings.rs`), with the
        // link-led run of short lines above it (a print link, share buttons).
        if (comments_end && heads_section[k] || closing[k]) && evidence >= needed {
            let start = run_above(k);
            if rest[start] < evidence {
                let cut = if comments_end && heads_section[k] {
                    EndCut::CommentHeading
                } else {
                    EndCut::ClosingLabel
                };
                return (start, cut);
            }
            // Readers' posts under a comment heading: their evidence is not the article's,
            // unless the text's element holds evidence after them. Under a heading left
            // out (then k > first), they start at this block.
            if heads_section[k] {
                let end = posts_end[if comment_heading[k] { k } else { k - 1 }];
                let resumes = || {
                    kept[end..].iter().zip(&value[end..]).any(|(&(_, b), &v)| {
                        v > 0.0 && text_elem.is_some_and(|e| page.contains(e, b.elem))
                    })
                };
                if end > k && (rest[end] < evidence || !resumes()) {
                    return (start, EndCut::ReadersPosts);
                }
            }
        }
        // The heading of a notice or contact box (`legal_notices.rs`), inside the text's
        // element too (a flat cell); the box under it is no evidence of the article's.
        if notices && evidence >= needed && is_notice_heading(first_line(b)) {
            let start = run_above(k);
            if rest[(k + 2).min(kept.len())] < evidence {
                return (start, EndCut::NoticeHeading);
            }
        }
        // A publisher's legal notice (`legal_notices.rs`), with the link-led run of
        // short lines above it.
        if notices
            && evidence >= needed
            && !text_elem.is_some_and(|e| page.contains(e, b.elem))
            && holds_legal_notice(&b.text)
        {
            let start = run_above(k);
            if rest[start] < evidence {
                return (start, EndCut::LegalNotice);
            }
        }
        if value[k] > 0.0 {
            evidence += value[k];
            after_text = i + 1;
            text_elem = Some(text_elem.map_or(b.elem, |e| common_ancestor(page, e, b.elem)));
            run_start = None;
            run_lines = 0;
            continue;
        }
        if !tail {
            continue;
        }
        if text_elem.is_some_and(|e| page.contains(e, b.elem)) {
            // A short line of the article's own element (a list item, a table cell).
            run_start = None;
            run_lines = 0;
            continue;
        }
        let start = *run_start.get_or_insert(k);
        run_lines += 1;
        if !link_led_since(page, config, after_text, i + 1, run_lines) {
            continue;
        }
        if run_lines >= TAIL_GAP_LINES
            && evidence >= needed
            && rest[start] < evidence
            && words(&kept[start..]) < TAIL_MAX_WORDS_RATIO * words(&kept[first..start])
        {
            return (start, EndCut::Tail);
        }
    }
    (kept.len(), EndCut::None)
}

/// Which test of [`article_end`] ended the text, for the operator report (`explain.rs`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum EndCut {
    /// The text runs to the last kept block (short lines ending in a colon and
    /// invitations to follow on a social network may still be dropped from its end,
    /// `labels::without_dangling_labels`, `follow_lines::without_follow_lines`).
    None,
    NewsList,
    CommentHeading,
    ReadersPosts,
    ClosingLabel,
    NoticeHeading,
    LegalNotice,
    Tail,
}

impl EndCut {
    /// What a reader of the report sees: the signal and its switch.
    pub(super) fn describe(self) -> &'static str {
        match self {
            EndCut::None => {
                "a label ending in a colon or an invitation to follow on a social network, \
                 at the text's end (drop_dangling_labels, drop_follow_lines)"
            }
            EndCut::NewsList => "a list of other news and what follows it (cut_news_lists)",
            EndCut::CommentHeading => {
                "a comment section's heading and what follows it (cut_at_comment_heading)"
            }
            EndCut::ReadersPosts => {
                "readers' posts under a comment heading (cut_over_readers_posts)"
            }
            EndCut::ClosingLabel => {
                "a box that follows articles, from its label on (cut_at_closing_label)"
            }
            EndCut::NoticeHeading => {
                "a notice or contact box, from its heading on (cut_at_legal_notice)"
            }
            EndCut::LegalNotice => {
                "a publisher's legal notice and what follows it (cut_at_legal_notice)"
            }
            EndCut::Tail => "a long link-led run of short lines after the text (cut_tail)",
        }
    }
}

/// Whether a page block between `kept[k - 1]` and `kept[k]` is a comment heading (not a
/// link: "Komentarze (3)" leads elsewhere). The pass may leave a section's heading out
/// while the posts under it are written: the cross-page template marks it (it repeats on
/// every page of a site), or the container stops above it and the posts join as a
/// sibling section. The heading still ends the article where it stands.
fn heading_left_out(
    page: &PageDom,
    config: &HeuristicConfig,
    kept: &[(usize, &Block)],
    k: usize,
) -> bool {
    page.blocks[kept[k - 1].0 + 1..kept[k].0]
        .iter()
        .any(|b| link_density(b) <= config.max_link_density && is_comment_heading(first_line(b)))
}

/// The first line of a block's text (a comment form's heading over its notice).
fn first_line(b: &Block) -> &str {
    b.text.lines().next().unwrap_or_default()
}

/// Whether a comment heading follows a paragraph's worth of evidence after another one: a
/// thread's posts (a question and its answers), each with its comments, not an article
/// with its one comment section (whose heading and form's heading may follow each other).
/// `value` and `heading`: each kept block's value and whether it is a comment heading.
fn comments_between_posts(value: &[f64], heading: &[bool], config: &HeuristicConfig) -> bool {
    let mut since_heading: Option<f64> = None;
    for (&v, &h) in value.iter().zip(heading) {
        if h {
            if since_heading.is_some_and(|e| e >= config.min_content_words as f64) {
                return true;
            }
            since_heading = Some(0.0);
        } else if let Some(e) = since_heading.as_mut() {
            *e += v.max(0.0);
        }
    }
    false
}

/// Whether link-dense page blocks from `from` to `to` (exclusive) number at least
/// [`TAIL_LINK_SHARE`] of a run of `lines` kept lines.
fn link_led_since(
    page: &PageDom,
    config: &HeuristicConfig,
    from: usize,
    to: usize,
    lines: usize,
) -> bool {
    let links = page.blocks[from..to.max(from)]
        .iter()
        .filter(|b| link_density(b) > config.max_link_density)
        .count();
    links as f64 >= TAIL_LINK_SHARE * lines as f64
}

/// `k`, or the kept block before it when that is a short heading of what follows (`Other
/// articles:`, an `<h3>`) and no evidence.
fn with_heading(kept: &[(usize, &Block)], k: usize, first: usize) -> usize {
    match k.checked_sub(1).map(|p| (p, kept[p].1)) {
        Some((p, b))
            if p > first
                && b.words <= NEWS_LIST_HEADING_MAX_WORDS
                && (matches!(b.kind, BlockKind::Heading(_))
                    || b.text.trim_end().ends_with(':')) =>
        {
            p
        }
        _ => k,
    }
}

/// Where a headed article's text starts among `kept`, with `start_at_headline`: not
/// before its headline when the kept blocks above it lie outside the article's element
/// and hold less than [`HEAD_DROP_SHARE`] of the evidence below, and when they are
/// link-led (at least [`TAIL_LINK_SHARE`] of them matched by link-dense blocks in their
/// span: the column's other stories above a short item); else at `first`.
pub(super) fn article_start(
    pass: &Pass,
    headed: Option<Headed>,
    kept: &[(usize, &Block)],
    first: usize,
) -> usize {
    let config = pass.config;
    let (
        true,
        Some(Headed {
            headline: h,
            article,
        }),
    ) = (config.start_at_headline, headed)
    else {
        return first;
    };
    let evidence = |s: &[(usize, &Block)]| -> f64 {
        s.iter()
            .map(|&(_, b)| block_value(b, false, config).max(0.0))
            .sum()
    };
    // Link-led, as the tail's run: other stories' teasers above a short item are their
    // linked titles; an introduction above a lower heading that repeats the title is
    // prose (WCXB articles lost up to 0.18 without this test).
    let link_led =
        |k: usize| link_led_since(pass.page, config, kept[first].0, kept[k].0, k - first);
    match kept
        .iter()
        .position(|&(i, b)| i >= h || pass.page.contains(article, b.elem))
    {
        Some(k)
            if k > first
                && evidence(&kept[first..k]) < HEAD_DROP_SHARE * evidence(&kept[k..])
                && link_led(k) =>
        {
            k
        }
        _ => first,
    }
}

/// The innermost element holding both `a` and `b`.
fn common_ancestor(page: &PageDom, mut a: ElemId, b: ElemId) -> ElemId {
    while !page.contains(a, b) && page.elements[a as usize].parent != NO_ELEM {
        a = page.elements[a as usize].parent;
    }
    a
}

#[cfg(test)]
mod tests {
    use super::super::tests::{run, run_without, ARTICLE};
    use super::super::{extract, HeuristicConfig};
    use crate::extract::dom::parse;

    /// A 2011-style table layout: the headline and a short article in the centre cell,
    /// followed in the same cell by `tail`.
    fn page(tail: &str) -> String {
        format!(
            "<html><head><title>Harbour cranes lifted the old ferry out of the water</title></head><body>\
             <table><tr><td><a href=/>Home</a></td><td>\
             <h1>Harbour cranes lifted the old ferry out of the water</h1>\
             <div class=text><p>{ARTICLE} First.</p><p>{ARTICLE} Second.</p><p>{ARTICLE} Third.</p>\
             <p>Source: the harbour office.</p>{tail}</div>\
             </td></tr></table></body></html>"
        )
    }

    #[test]
    fn a_run_of_dated_links_ends_the_article() {
        // "Latest news" below the text in the same cell: times and linked headlines, then
        // the site's legal notice, whose words pull the whole cell into the container.
        let latest: String = (0..12)
            .map(|h| {
                format!(
                    "<div class=time>{h:02}:30</div>\
                     <div class=item><a href=/n{h}>Other news of the day number {h}</a></div>"
                )
            })
            .collect();
        let html = page("").replace(
            "</div></td>",
            &format!(
                "</div><div class=latest>{latest}<p>Any use of the materials of this site requires a link to \
                 the site, unless the copyright belongs to third parties as stated.</p></div></td>"
            ),
        );
        let mut config = HeuristicConfig::default();
        let kept = |config: &HeuristicConfig| extract(&parse(&html), config).text;
        config.cut_tail = false;
        // (Its times over linked headlines are a news list too.)
        config.cut_news_lists = false;
        let without = kept(&config);
        assert!(
            without.contains("copyright"),
            "the layout leaks without cut_tail: {without}"
        );
        let out = run(&html);
        assert!(out.text.contains("Third."), "{}", out.text);
        assert!(
            out.text.contains("Source: the harbour office."),
            "{}",
            out.text
        );
        assert!(!out.text.contains("05:30"), "{}", out.text);
        assert!(!out.text.contains("copyright"), "{}", out.text);
    }

    #[test]
    fn dated_links_in_the_article_cell_end_the_article() {
        // A flat cell: the paragraphs and the site's other articles, each a date beside
        // a linked title on its own `<br>` line, all in one element, then a notice.
        let others: String = (1..8)
            .map(|d| format!("0{d}.04.2013 <a href=/o{d}>Port authority names a new harbour master {d}</a><br>"))
            .collect();
        let html = page(&format!(
            "<b>Other articles:</b><br>{others}<p>Any use of the materials of this site \
             requires a link to the site, unless the copyright belongs to third parties.</p>"
        ))
        .replace("<div class=text>", "")
        .replace("</div></td>", "</td>");
        let without = run_without(&html, |c| c.cut_news_lists = false);
        assert!(
            without.contains("copyright"),
            "the cell leaks without cut_news_lists: {without}"
        );
        let out = run(&html);
        assert!(out.text.contains("Third."), "{}", out.text);
        assert!(
            out.text.contains("Source: the harbour office."),
            "{}",
            out.text
        );
        assert!(!out.text.contains("Other articles"), "{}", out.text);
        assert!(!out.text.contains("harbour master"), "{}", out.text);
        assert!(!out.text.contains("copyright"), "{}", out.text);
    }

    /// Readers' posts under a comment form's heading in the article's own cell, without
    /// a class that names them.
    fn with_comments(heading: &str) -> String {
        let posts: String = (0..2)
            .map(|n| format!("<p>Reader {n}</p><p>I have watched these cranes from my window for years and never thought they could lift a ferry {n}.</p>"))
            .collect();
        page("")
            .replace("<div class=text>", "")
            .replace("</div></td>", &format!("<b>{heading}</b>{posts}</td>"))
    }

    /// The article of `with_comments("Post a comment:")` is written to its source line,
    /// without the heading and the posts.
    fn assert_ends_above_the_comments(text: &str) {
        assert!(text.contains("Source: the harbour office."), "{text}");
        assert!(!text.contains("Post a comment"), "{text}");
        assert!(!text.contains("from my window"), "{text}");
    }

    #[test]
    fn a_comment_heading_ends_the_article() {
        let html = with_comments("Post a comment:");
        let without = run_without(&html, |c| c.cut_at_comment_heading = false);
        assert!(
            without.contains("from my window"),
            "the posts leak without the cut: {without}"
        );
        let out = run(&html);
        assert_ends_above_the_comments(&out.text);
    }

    #[test]
    fn readers_posts_that_outweigh_the_article_end_it_at_their_heading() {
        // Five signed posts in classless tables after the article's cell, each longer
        // than a paragraph of the article: more evidence after the heading than before.
        let posts: String = (1..=5)
            .map(|n| {
                format!(
                    "<table><tr><td><b>Reader {n}</b></td></tr><tr><td>{ARTICLE} {ARTICLE} Post {n}.</td></tr>\
                     <tr><td>11:0{n} 17-January-2012</td></tr></table>"
                )
            })
            .collect();
        let html = page("").replace("<div class=text>", "").replace(
            "</div></td>",
            &format!("<b>Post a comment:</b></td></tr><tr><td>{posts}</td>"),
        );
        let without = run_without(&html, |c| c.cut_over_readers_posts = false);
        assert!(
            without.contains("Post 4."),
            "the posts leak without the cut: {without}"
        );
        let out = run(&html);
        assert!(
            out.text.contains("Source: the harbour office."),
            "{}",
            out.text
        );
        assert!(!out.text.contains("Post 1."), "{}", out.text);
        assert!(!out.text.contains("January"), "{}", out.text);
    }

    #[test]
    fn the_report_names_the_cut_that_ended_the_article() {
        let html = with_comments("Post a comment:");
        let page = parse(&html);
        let (_, traced) = crate::extract::trace::capture(|| run(&html));
        let chosen = traced.chosen_pass().unwrap();
        let posts = page
            .blocks
            .iter()
            .position(|b| b.text.contains("from my window"))
            .unwrap();
        let why = chosen.blocks[posts].1.as_ref().unwrap();
        assert_eq!(why.kind, "tail");
        assert!(
            why.label.contains("cut_at_comment_heading"),
            "{}",
            why.label
        );
    }

    #[test]
    fn a_comment_heading_the_template_marks_still_ends_the_article() {
        // The cross-page mask marks the heading (every page of the site has it); the
        // posts under it are the page's own and stay unmarked.
        let html = with_comments("Post a comment:");
        let page = parse(&html);
        let template: Vec<bool> = page
            .blocks
            .iter()
            .map(|b| b.text == "Post a comment:")
            .collect();
        assert!(template.contains(&true));
        let out = super::super::extract_with_template(
            &page,
            &HeuristicConfig::default(),
            Some(&template),
        );
        assert_ends_above_the_comments(&out.text);
    }

    #[test]
    fn comment_headings_of_other_languages_end_the_article() {
        for heading in [
            "Laisser un commentaire",
            "Kommentare (2)",
            "Deja un comentario",
            "コメント",
        ] {
            let out = run(&with_comments(heading));
            assert!(
                out.text.contains("Source: the harbour office."),
                "{heading}: {}",
                out.text
            );
            assert!(
                !out.text.contains("from my window"),
                "{heading}: {}",
                out.text
            );
        }
        // An opinion column's name or a sentence about comments is no heading.
        for line in ["Kommentar", "Les commentaires du ministre"] {
            let out = run(&with_comments(line));
            assert!(out.text.contains("from my window"), "{line}: {}", out.text);
        }
    }

    #[test]
    fn a_comment_heading_ends_an_unheaded_article_too() {
        // The title names only the site and no line says the story's headline.
        let html = with_comments("Post a comment:")
            .replace(
                "<title>Harbour cranes lifted the old ferry out of the water</title>",
                "<title>Harbour News</title>",
            )
            .replace("<h1>", "<b>")
            .replace("</h1>", "</b>");
        let out = run(&html);
        assert!(
            out.text.contains("Source: the harbour office."),
            "{}",
            out.text
        );
        assert!(!out.text.contains("from my window"), "{}", out.text);
    }

    /// The publisher's imprint after the article in the same cell: its notice, its
    /// address and telephones, its copyright line, one `<br>`-broken paragraph.
    const IMPRINT: &str = "<p>All materials of the site are protected by the law on copyright and \
         related rights; any use of them requires a link to the site.<br>Legal address of the \
         editors: 12 Dock Street, Port Town.<br>Telephones: 36-40-09, 36-42-14 (fax)<br>\
         © HARBOURNEWS.RU, 2004</p>";

    #[test]
    fn a_legal_notice_ends_the_article() {
        let html = page("").replace("</div></td>", &format!("</div>{IMPRINT}</td>"));
        let without = run_without(&html, |c| c.cut_at_legal_notice = false);
        assert!(
            without.contains("Dock Street"),
            "the imprint leaks without the cut: {without}"
        );
        let out = run(&html);
        assert!(
            out.text.contains("Source: the harbour office."),
            "{}",
            out.text
        );
        assert!(!out.text.contains("Dock Street"), "{}", out.text);
        assert!(!out.text.contains("HARBOURNEWS"), "{}", out.text);
    }

    #[test]
    fn legal_notices_of_other_languages_end_the_article() {
        for notice in [
            "Hafenbote Verlag, Kaistraße 4, Altstrand. Alle Rechte vorbehalten.",
            "みなと新聞社 無断転載を禁じます。",
            "Todos os direitos reservados. Rua do Porto 12, Porto Novo.",
        ] {
            let imprint = format!("<p>Redaktion: Telefon 36-40-09.<br>{notice}</p>");
            let html = page("").replace("</div></td>", &format!("</div>{imprint}</td>"));
            let out = run(&html);
            assert!(
                out.text.contains("Source: the harbour office."),
                "{notice}: {}",
                out.text
            );
            assert!(!out.text.contains("36-40-09"), "{notice}: {}", out.text);
        }
    }

    #[test]
    fn a_contact_box_under_its_heading_ends_the_article() {
        // A flat cell: the article's paragraphs, then the publisher's contact box.
        let html = page(
            "<p><b>Contact us</b></p><p>Back issues, subscriptions and offers of the paper: \
             write to the office at backissues@harbournews.example or call in person.</p>\
             <p>Advertising: ads@harbournews.example</p>",
        )
        .replace("<div class=text>", "")
        .replace("</div></td>", "</td>");
        let without = run_without(&html, |c| c.cut_at_legal_notice = false);
        assert!(
            without.contains("Back issues"),
            "the box leaks without the cut: {without}"
        );
        let out = run(&html);
        assert!(
            out.text.contains("Source: the harbour office."),
            "{}",
            out.text
        );
        assert!(!out.text.contains("Contact us"), "{}", out.text);
        assert!(!out.text.contains("Back issues"), "{}", out.text);
    }

    #[test]
    fn a_notice_inside_the_article_is_the_articles() {
        // A manual's copyright section (or a quoted boot screen) inside the text's own
        // element, with more of the text after it.
        let html = page(&format!(
            "<p>Copyright 1998-2005 Harbour Software Foundation, Inc.</p><p>{ARTICLE} Fourth.</p>"
        ));
        let out = run(&html);
        assert!(out.text.contains("Harbour Software"), "{}", out.text);
        assert!(out.text.contains("Fourth."), "{}", out.text);
    }

    #[test]
    fn comment_headings_between_posts_do_not_end_a_thread() {
        // A question and its answer, each followed by its own comments' heading.
        let answer = format!("<p>{ARTICLE} Answer.</p><b>Comments</b>");
        let html = with_comments("Comments")
            .replace("<b>Comments</b>", &format!("<b>Comments</b>{answer}"));
        let out = run(&html);
        assert!(out.text.contains("Answer."), "{}", out.text);
    }

    #[test]
    fn short_lines_inside_the_article_do_not_end_it() {
        let items: String = (0..12)
            .map(|n| format!("<li>Crane part {n}</li>"))
            .collect();
        let out = run(&page(&format!("<ul>{items}</ul><p>{ARTICLE} Fourth.</p>")));
        assert!(out.text.contains("Crane part 7"), "{}", out.text);
        assert!(out.text.contains("Fourth."), "{}", out.text);
    }

    /// Other stories' teasers (linked titles over short snippets) in the same cell above
    /// the headline of a short item.
    fn teasers_above(html: &str) -> String {
        let teasers: String = (0..5)
            .map(|n| {
                format!(
                    "<div class=t><a href=/s{n}>Special report about the regional dockyards number {n}</a></div>\
                     <div class=s>The dockyards of the region reported their figures for the season {n}.</div>"
                )
            })
            .collect();
        html.replace("<h1>", &format!("{teasers}<h1>"))
    }

    #[test]
    fn linked_teasers_above_the_headline_are_not_the_article() {
        let more = format!("<p>{ARTICLE} Fourth.</p><p>{ARTICLE} Fifth.</p><p>Source:");
        let html = teasers_above(&page("").replace("<p>Source:", &more));
        let without = run_without(&html, |c| c.start_at_headline = false);
        assert!(
            without.contains("season 3"),
            "the teasers leak without start_at_headline: {without}"
        );
        let out = run(&html);
        assert!(out.text.contains("Harbour cranes"), "{}", out.text);
        assert!(out.text.contains("Fifth."), "{}", out.text);
        assert!(!out.text.contains("season 3"), "{}", out.text);
    }

    #[test]
    fn an_introduction_above_a_heading_that_repeats_the_title_is_kept() {
        // Prose above the line that says the title (a lower heading of a long article):
        // not link-led, so it is the article's beginning.
        let html = page("").replace("<h1>", &format!("<p>{ARTICLE} Introduction.</p><h1>"));
        let out = run(&html);
        assert!(out.text.contains("Introduction."), "{}", out.text);
        assert!(out.text.contains("Third."), "{}", out.text);
    }
}
