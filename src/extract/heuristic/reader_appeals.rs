//! An appeal to the reader about the text itself among the written text's last lines:
//! "Like this story? Share it with a friend!", "Fandest du den Artikel hilfreich?",
//! "Gefällt dir dieser Beitrag?", "We want to hear what you think about this article.",
//! "If you enjoyed reading this post – would you consider supporting our work?", "¡Mira
//! lo que tiene nuestro canal de YouTube!". Sites set it in the article's own element, as a
//! paragraph under the story, so no mark sees it; it asks the reader to rate, share,
//! comment on or pay for what they read and says nothing of the subject.
//!
//! The line is known by two things at once: it names the text it closes or the
//! publication's own channel ("this article", "diesen Beitrag", "cet article", "esta
//! noticia", "nuestro canal"), and it speaks to the reader (a question or an exclamation,
//! or a second-person word). The text's own closing sentences that mention "this
//! article" ("In this article we looked at three ways to…") speak to no one or are
//! longer. Only the last [`APPEAL_TAIL_BLOCKS`] one-line blocks are asked, and never the
//! first written block: an appeal may be followed by its buttons' words or a credit line.

use std::sync::LazyLock;

use regex::Regex;

use super::settings::{HeuristicConfig, APPEAL_MAX_WORDS, APPEAL_TAIL_BLOCKS};
use crate::extract::dom::Block;

/// The text itself or the publication's own channel, by language (lower-cased text):
/// English, German, French, Spanish, Polish, Russian.
static NAMES_THE_TEXT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?x)\b(
            this\ (article|post|story|piece|blog\ post) | our\ channel
          | (dieser|diesen|diesem|dieses|den)\ (artikel|beitrag|text) | unseren\ kanal
          | cet\ article | ce\ billet | notre\ chaîne
          | (esta|este)\ (noticia|nota|artículo|articulo|contenido) | nuestro\ canal
          | ten\ (artykuł|wpis) | tego\ (artykułu|wpisu)
          | (эту|этой)\ (статью|статьи) | (этот|этого)\ материал[а]?
        )\b",
    )
    .expect("the text's names")
});

/// A second-person word (lower-cased text): you, du/dir/dich/dein/ihr, vous/votre/tu,
/// usted/tú, Polish pan/pani/państwo, Russian вы/вас/вам/ты. German formal `Sie` is
/// told apart from `sie` (she, they) by its capital, in [`speaks_to_the_reader`].
static SECOND_PERSON: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"\b(you|your|du|dir|dich|dein|deine|ihr|euch|vous|votre|tu|usted|tú|pan|pani|państwo|вы|вас|вам|ты)\b",
    )
    .expect("second-person words")
});

/// German formal address, capitalized as written.
static GERMAN_FORMAL: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\b(Sie|Ihnen|Ihr|Ihre)\b").expect("German formal address"));

/// The written blocks `body` without the reader appeals among the last
/// [`APPEAL_TAIL_BLOCKS`] ([`is_reader_appeal`]); the first block always stays. Only with
/// `drop_reader_appeals`.
pub(super) fn without_reader_appeals<'a>(
    config: &HeuristicConfig,
    body: &[(usize, &'a Block)],
) -> Vec<(usize, &'a Block)> {
    if !config.drop_reader_appeals {
        return body.to_vec();
    }
    let tail = body.len().saturating_sub(APPEAL_TAIL_BLOCKS).max(1);
    body.iter()
        .enumerate()
        .filter(|&(k, (_, b))| k < tail || !is_reader_appeal(b))
        .map(|(_, &kept)| kept)
        .collect()
}

/// Whether a block is one line of at most [`APPEAL_MAX_WORDS`] words that names the
/// text itself (or the publication's channel) and speaks to the reader.
fn is_reader_appeal(b: &Block) -> bool {
    if b.words == 0 || b.words > APPEAL_MAX_WORDS || b.text.contains('\n') {
        return false;
    }
    let lower = b.text.to_lowercase();
    NAMES_THE_TEXT.is_match(&lower) && speaks_to_the_reader(&b.text, &lower)
}

/// A question or an exclamation, or a second-person word.
fn speaks_to_the_reader(text: &str, lower: &str) -> bool {
    text.contains(['?', '!', '¿', '¡'])
        || SECOND_PERSON.is_match(lower)
        || GERMAN_FORMAL.is_match(text)
}

#[cfg(test)]
mod tests {
    use super::super::tests::{headed_page, ARTICLE};
    use super::super::{extract, HeuristicConfig};
    use crate::extract::dom::parse;

    /// The text written with `drop_reader_appeals` on and off.
    fn written(last: &str) -> (String, String) {
        let html = headed_page(&format!(
            "<p>{ARTICLE} First.</p><p>{ARTICLE} Second.</p>{last}<p>Foto: Hafenamt</p>"
        ));
        let page = parse(&html);
        let mut off = HeuristicConfig::default();
        off.drop_reader_appeals = false;
        (
            extract(&page, &HeuristicConfig::default()).text,
            extract(&page, &off).text,
        )
    }

    #[test]
    fn appeals_about_the_text_go() {
        for line in [
            "Like this story? Share it with a friend!",
            "Fandest du den Artikel hilfreich?",
            "Gefällt dir dieser Beitrag?",
            "We want to hear what you think about this article. Write to the editor.",
            "Unterstützen Sie diesen Text mit einer kleinen Spende.",
            "¡Mira lo que tiene nuestro canal de YouTube!",
        ] {
            let (on, off) = written(&format!("<p>{line}</p>"));
            assert!(!on.contains(line), "{line}");
            assert!(off.contains(line), "{line}");
        }
    }

    #[test]
    fn the_texts_own_sentences_stay() {
        for line in [
            // Speaks to no one.
            "In this article the harbour office explained the new rules.",
            // Speaks to no text.
            "Do you know the harbour?",
            // German `sie` (they) is no address.
            "Dieser Beitrag entstand, als sie den Hafen besuchten.",
        ] {
            let (on, _) = written(&format!("<p>{line}</p>"));
            assert!(on.contains(line), "{line}");
        }
    }

    #[test]
    fn only_the_last_lines_are_asked() {
        let appeal = "Gefällt dir dieser Beitrag?";
        let html = headed_page(&format!(
            "<p>{ARTICLE} First.</p><p>{appeal}</p><p>{ARTICLE} Second.</p>\
             <p>{ARTICLE} Third.</p><p>{ARTICLE} Fourth.</p><p>{ARTICLE} Fifth.</p>"
        ));
        let text = extract(&parse(&html), &HeuristicConfig::default()).text;
        assert!(text.contains(appeal));
    }
}
