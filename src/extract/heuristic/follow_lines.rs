//! An invitation to follow the site, its section or its writer on a social network, at
//! the written text's end: "Follow me: twitter.com/…", "Присоединяйтесь к нам на
//! Facebook, Twitter, В контакте.", "For NDTV Updates, follow us on Twitter or join us on
//! Facebook", "Click here to follow Sabotage Times on Facebook", "Be a fan of Lifestyle on
//! Facebook | Follow us on Twitter!". News sites set it as the article's last paragraph,
//! in the article's own element and markup (an italic `<p>`), so no mark and no edge test
//! sees it; annotators leave it out, as they leave out the share buttons beside it.
//!
//! The line is known by its shape, not by its verbs: a short line that names a social
//! network (the networks' names are the same in every language; the few written in
//! another script are listed) and points to it — a link, or the network's address or an
//! `@handle` written out. The text's own sentences that mention a network ("the video was
//! viewed a million times on YouTube") do not point to it, and stand before the last
//! paragraph or are longer. Only lines at the end are dropped, one after the other: a
//! line about a network inside the text is the text's. Flat layouts write the text's last
//! paragraph, a "return to the blog" link and the invitation as `<br>` lines of one
//! block; there the block's last lines go ([`trim_last_block`]), while one line stays.

use super::labels::end_without_trailing;
use super::settings::{HeuristicConfig, FOLLOW_LINE_MAX_WORDS};
use crate::extract::dom::Block;
use crate::extract::Extracted;

/// The end (exclusive) of the written text among `kept[first..end]` without the
/// invitations to follow on a social network at its end ([`is_follow_line`]), one after
/// the other; the first written block always stays. Only with `drop_follow_lines`.
pub(super) fn without_follow_lines(
    config: &HeuristicConfig,
    kept: &[(usize, &Block)],
    first: usize,
    end: usize,
) -> usize {
    if !config.drop_follow_lines {
        return end;
    }
    end_without_trailing(kept, first, end, is_follow_line)
}

/// The written text without the invitations among the `<br>` lines at the end of its
/// last block ("… the story's last paragraph. / Return to the blog. / Follow me:
/// twitter.com/…" written as one block): each last line that names a social network and
/// points to it — an address or `@handle` in the line, or a link in the block — of at
/// most [`FOLLOW_LINE_MAX_WORDS`] words goes, one after the other, while a line of the
/// block stays. Only with `drop_follow_lines`.
pub(super) fn trim_last_block(config: &HeuristicConfig, out: &mut Extracted, last: Option<&Block>) {
    let Some(b) = last.filter(|b| config.drop_follow_lines && b.text.contains('\n')) else {
        return;
    };
    let start = out.text.len() - b.text.len();
    loop {
        let block = out.text[start..].trim_end();
        let Some(cut) = block.rfind('\n') else {
            return;
        };
        let line = &block[cut + 1..];
        let words = line.split_whitespace().count();
        if words > FOLLOW_LINE_MAX_WORDS as usize || !points_to_network(line, b.link_words > 0) {
            return;
        }
        out.kept_words = out.kept_words.saturating_sub(words as u64);
        let keep = start + block[..cut].trim_end().len();
        out.text.truncate(keep);
    }
}

/// Social networks and messengers with channels by the names readers see, lower-cased
/// (with the Cyrillic spellings news sites write).
const NETWORKS: &[&str] = &[
    "facebook",
    "twitter",
    "instagram",
    "linkedin",
    "youtube",
    "pinterest",
    "tumblr",
    "google+",
    "google plus",
    "vkontakte",
    "в контакте",
    "вконтакте",
    "фейсбук",
    "твиттер",
    "weibo",
    "telegram",
    "whatsapp",
    "tiktok",
    "snapchat",
    "xing",
    "mastodon",
];

/// Whether a block is a short line (at most [`FOLLOW_LINE_MAX_WORDS`] words) that names a
/// social network and points to it: it holds a link, or writes out an address or an
/// `@handle`.
fn is_follow_line(b: &Block) -> bool {
    if b.words == 0 || b.words > FOLLOW_LINE_MAX_WORDS || b.text.contains('\n') {
        return false;
    }
    points_to_network(&b.text, b.link_words > 0)
}

/// Whether a line names a social network and points to it: `linked` (it holds a link),
/// or it writes out an address or an `@handle`.
fn points_to_network(line: &str, linked: bool) -> bool {
    let lower = line.to_lowercase();
    NETWORKS.iter().any(|n| lower.contains(n))
        && (linked || lower.contains(".com/") || has_handle(&lower))
}

/// Whether a line writes out an `@handle` (an `@` followed by a letter, digit or `_`, not
/// inside an e-mail address).
fn has_handle(text: &str) -> bool {
    text.match_indices('@').any(|(i, _)| {
        let before = text[..i].chars().next_back();
        let after = text[i + 1..].chars().next();
        !before.is_some_and(char::is_alphanumeric)
            && after.is_some_and(|c| c.is_alphanumeric() || c == '_')
    })
}

#[cfg(test)]
mod tests {
    use super::super::tests::{headed_page, run, ARTICLE};
    use super::super::{extract, HeuristicConfig};
    use crate::extract::dom::parse;

    /// A headed article whose element ends with `last`.
    fn page(last: &str) -> String {
        headed_page(&format!(
            "<p>{ARTICLE} First.</p><p>{ARTICLE} Second.</p><p>Source: the harbour office.</p>{last}"
        ))
    }

    /// The text written with `drop_follow_lines` off.
    fn without_the_switch(html: &str) -> String {
        let mut config = HeuristicConfig::default();
        config.drop_follow_lines = false;
        extract(&parse(html), &config).text
    }

    #[test]
    fn an_invitation_to_follow_at_the_end_is_dropped() {
        for last in [
            "<p><em>Follow John Reynolds on Twitter </em><a href=https://twitter.com/jr>@jreynolds</a></p>",
            "<p>Follow me: twitter.com/HarbourWriter</p>",
            "<p><i>Присоединяйтесь к нам на <a href=/fb>Facebook</a>, <a href=/tw>Twitter</a>, \
             <a href=/vk>В контакте</a>.</i></p>",
            "<p>Click here to follow <a href=/tw>Harbour News on Twitter</a></p>\
             <p>Click here to follow <a href=/fb>Harbour News on Facebook</a></p>",
        ] {
            let html = page(last);
            let without = without_the_switch(&html);
            assert!(
                without.to_lowercase().contains("twitter"),
                "{last}: the line leaks without the switch: {without}"
            );
            let out = run(&html);
            assert!(
                out.text.contains("Source: the harbour office."),
                "{last}: {}",
                out.text
            );
            let written = out.text.to_lowercase();
            assert!(!written.contains("twitter"), "{last}: {}", out.text);
            assert!(!written.contains("facebook"), "{last}: {}", out.text);
        }
    }

    #[test]
    fn an_invitation_to_a_messenger_channel_at_the_end_is_dropped() {
        let html = page(
            "<p>¿Ya sabías que tenemos canal de Telegram? Únete en este \
             <a href=https://t.me/puerto>enlace de invitación</a>.</p>",
        );
        assert!(without_the_switch(&html).contains("Telegram"));
        let out = run(&html);
        assert!(
            out.text.contains("Source: the harbour office."),
            "{}",
            out.text
        );
        assert!(!out.text.contains("Telegram"), "{}", out.text);
    }

    #[test]
    fn an_invitation_among_the_last_blocks_lines_is_dropped() {
        // The text's last paragraph, a pointer back to the blog and the invitation, one
        // block of `<br>` lines.
        let html = page(&format!(
            "<div>{ARTICLE} Third.<br><br>Return to <a href=/blog>the harbour blog</a>.<br><br>\
             Follow me: twitter.com/HarbourWriter<br></div>"
        ));
        let without = without_the_switch(&html);
        assert!(
            without.contains("twitter.com/HarbourWriter"),
            "the line leaks without the switch: {without}"
        );
        let out = run(&html);
        assert!(
            out.text.contains("Return to the harbour blog."),
            "{}",
            out.text
        );
        assert!(!out.text.contains("twitter.com"), "{}", out.text);
    }

    #[test]
    fn the_texts_own_lines_about_a_network_stay() {
        // A sentence of the text that mentions a network without pointing to it, at the
        // end; and a line that points to one followed by more of the text.
        let out = run(&page(
            "<p>The video of the lift was watched on YouTube by many.</p>",
        ));
        assert!(out.text.contains("on YouTube by many"), "{}", out.text);
        let out = run(&page(&format!(
            "<p>Follow me: twitter.com/HarbourWriter</p><p>{ARTICLE} Third.</p>"
        )));
        assert!(
            out.text.contains("twitter.com/HarbourWriter"),
            "{}",
            out.text
        );
        assert!(out.text.contains("Third."), "{}", out.text);
        // An e-mail address is no handle.
        assert!(!super::has_handle("write to editor@twitter-watch.example"));
        assert!(super::has_handle("follow @harbour_news"));
    }
}
