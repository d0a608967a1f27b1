//! Interface labels at the written text's end: "Tagi:", "Share this on:", "分享到:",
//! "Оцените статью:", "Статьи по теме:". A label ending in a colon introduces what
//! follows it (tag links, share buttons, a rating widget, related links, a code box);
//! what followed was left out as links or boilerplate, so the label dangles as the
//! text's last line. A text does not end by introducing something: such short lines at
//! the end are the page's interface, whatever their language.
//!
//! A line that is only the name of what pages put after their articles — "read also",
//! "related stories", "share", "rate this article", in the languages of the corpora and
//! the widely used web languages beyond them
//! ([`is_closing_label`]) — ends a headed article's text like a comment heading
//! ([`article_edges`](super::article_edges)): what follows it is other stories' teasers,
//! share buttons or widgets, whose few long lines the other tail tests keep.
//!
//! Inside the text, a section heading whose following blocks up to the next written line
//! were all left out as links ([`without_headings_over_links`]) titles a box of other
//! stories set between two parts of the text ("Mehr zum Thema", "Related"): it goes too.
//!
//! Lines that are interface wherever they stand (advertisement labels, text-size
//! controls, photo credits) are in [`interface_lines`](super::interface_lines).

use std::collections::HashSet;
use std::sync::LazyLock;

use super::features::{ends_a_sentence, is_prose_heading};
use super::interface_lines::is_credit_line;
use super::label_phrases::{label_phrase, phrase_set};
use super::settings::{HeuristicConfig, BOX_TITLE_MAX_WORDS, LABEL_MAX_WORDS};
use super::structures::Structures;
use super::Pass;
use crate::extract::dom::{Block, BlockKind, NO_ELEM};

/// The end (exclusive) of the written text among `kept[first..end]` without the short
/// lines ending in a colon ([`is_dangling_label`]) and the section headings
/// ([`is_dangling_heading`]) at its end, one after the other; the first written block
/// always stays. Only with `drop_dangling_labels`.
pub(super) fn without_dangling_labels(
    pass: &Pass,
    st: &Structures,
    kept: &[(usize, &Block)],
    first: usize,
    end: usize,
) -> usize {
    let config = pass.config;
    if !config.drop_dangling_labels {
        return end;
    }
    // Headings not in a list's items: a grid of products named in headings, whose
    // prices and buttons were left out, ends on an item's name.
    let headings = config.drop_dangling_headings;
    let mut end = end;
    while end > first + 1 {
        let (b, before) = (kept[end - 1].1, kept[end - 2].1);
        let dangling = is_dangling_label(b)
            || headings && is_dangling_heading(b, config) && !names_an_item(pass, st, b, before);
        if !dangling {
            break;
        }
        end -= 1;
    }
    end
}

/// Whether a heading names an item of a content-like group (a product or a post over
/// its other lines): its item holds more than the heading, or the block written before
/// it is of the same group (a grid whose items are names alone). A heading that is its
/// item's only line after other text is a box's title, as on pages built of repeated
/// heading boxes and text boxes.
fn names_an_item(pass: &Pass, st: &Structures, b: &Block, before: &Block) -> bool {
    let group = st.item_group[b.elem as usize];
    if group == u32::MAX {
        return false;
    }
    if st.item_group[before.elem as usize] == group {
        return true;
    }
    let (page, config) = (pass.page, pass.config);
    let mut e = b.elem;
    while e != NO_ELEM {
        let g = st.group_of[e as usize];
        if g != u32::MAX && st.groups[g as usize].content_like(config) {
            return st.words[e as usize] > u64::from(b.words);
        }
        e = page.elements[e as usize].parent;
    }
    false
}

/// Whether a block is a heading (`<h1>`–`<h6>`) that is no paragraph set as one
/// ([`is_prose_heading`]): at the text's end it titles a section that was not written —
/// "Related posts", "Share it!", "Recommended", "More on this topic" over a box of
/// links or buttons left out — whatever its wording or language. A text does not end
/// with the title of what would follow it.
fn is_dangling_heading(b: &Block, config: &HeuristicConfig) -> bool {
    matches!(b.kind, BlockKind::Heading(_)) && !is_prose_heading(b, config)
}

/// The end (exclusive) of `kept[first..end]` without the blocks at its end that
/// `dropped` says are no text, one after the other; the first written block always stays.
pub(super) fn end_without_trailing(
    kept: &[(usize, &Block)],
    first: usize,
    end: usize,
    dropped: impl Fn(&Block) -> bool,
) -> usize {
    let mut end = end;
    while end > first + 1 && dropped(kept[end - 1].1) {
        end -= 1;
    }
    end
}

/// Whether a block is one short line that ends in a colon (an asterisk of a required
/// field after it allowed): a label of something that is not written.
fn is_dangling_label(b: &Block) -> bool {
    let text = b
        .text
        .trim_end_matches(|c: char| c.is_whitespace() || c == '*');
    b.words <= LABEL_MAX_WORDS && !text.contains('\n') && text.ends_with([':', '：', '︰'])
}

/// "Read also", "see also", "related", "more on the topic", "share", "rate this": the
/// name of a box that follows an article, as a whole line (punctuation, digits and case
/// ignored). A line that goes on after the name ("Read also: <a title>") is no label.
/// Grouped by language; a bare "related", "read more" or "part" word is left out (a
/// link's text, or "Deel 2"/"Del 2" heading a part of the text). In the languages added
/// after the corpora's (German to Hindi) the list holds what follows an article (related
/// or other stories, share, rate), not "read also" / "see also" / "you may also like"
/// ("Lesen Sie auch", "À lire aussi", "Leggi anche"): their news sites set that pointer
/// inside the text, between two paragraphs, over one other story's link. As a closing
/// label, a ScrapingHub Italian article lost its last paragraph under an inline "Leggi
/// anche" (F1 0.9696 → 0.9689); only dropped as a line, the page's gold keeps it (0.9695).
const CLOSING_LABELS: &[&str] = &[
    // English
    "see also",
    "read also",
    "also read",
    "related stories",
    "related articles",
    "related news",
    "related links",
    "related posts",
    "share",
    "share this",
    "share this article",
    "share this story",
    "rate this",
    "rate this article",
    // Russian
    "читайте также",
    "читай также",
    "смотрите также",
    "см также",
    "по теме",
    "новости по теме",
    "статьи по теме",
    "материалы по теме",
    "читайте другие материалы по теме",
    "другие новости",
    "другие статьи",
    "похожие новости",
    "похожие статьи",
    "поделиться",
    "оцените статью",
    // Polish
    "zobacz także",
    "zobacz też",
    "zobacz również",
    "czytaj także",
    "czytaj też",
    "czytaj również",
    "przeczytaj także",
    "przeczytaj też",
    "polecamy",
    "podobne artykuły",
    "powiązane artykuły",
    "udostępnij",
    "podziel się",
    "oceń artykuł",
    // Greek
    "διαβάστε επίσης",
    "δείτε επίσης",
    "σχετικά άρθρα",
    "σχετικές ειδήσεις",
    "σχετικά θέματα",
    "κοινοποίηση",
    // Chinese
    "相关新闻",
    "相关报道",
    "相关阅读",
    "相关文章",
    "相关链接",
    "相關新聞",
    "相關報導",
    "相關閱讀",
    "相關文章",
    "相關鏈接",
    "相關連結",
    "延伸阅读",
    "延伸閱讀",
    "分享到",
    "分享",
    // German
    "weitere artikel",
    "weitere nachrichten",
    "weitere meldungen",
    "ähnliche artikel",
    "verwandte artikel",
    "teilen",
    "artikel teilen",
    "diesen artikel teilen",
    "artikel bewerten",
    // Dutch
    "gerelateerde artikelen",
    "gerelateerd nieuws",
    "andere artikelen",
    "deel dit artikel",
    "delen",
    // French
    "dans la même rubrique",
    "articles similaires",
    "articles liés",
    "articles associés",
    "autres articles",
    "vous aimerez aussi",
    "vous aimerez aussi lire",
    "vous pourriez aussi aimer",
    "partager",
    "partagez",
    "partager cet article",
    "partagez cet article",
    "noter cet article",
    // Spanish, Catalan
    "noticias relacionadas",
    "artículos relacionados",
    "notas relacionadas",
    "otras noticias",
    "compartir",
    "comparte",
    "comparte esta noticia",
    "compartir esta noticia",
    "valora este artículo",
    "notícies relacionades",
    // Italian
    "articoli correlati",
    "notizie correlate",
    "altre notizie",
    "altri articoli",
    "condividi",
    "condividi questo articolo",
    // Portuguese
    "notícias relacionadas",
    "artigos relacionados",
    "matérias relacionadas",
    "outras notícias",
    "você também pode gostar",
    "compartilhe",
    "compartilhar",
    "partilhe",
    "partilhar",
    // Romanian
    "articole similare",
    "articole asemănătoare",
    "știri similare",
    "alte articole",
    "distribuie",
    // Ukrainian
    "новини за темою",
    "статті за темою",
    "інші новини",
    "інші статті",
    "схожі новини",
    "схожі статті",
    "поділитися",
    "оцініть статтю",
    // Czech, Slovak
    "související články",
    "další články",
    "sdílet",
    "sdílejte",
    "súvisiace články",
    "ďalšie články",
    "zdieľať",
    // Turkish
    "ilgili haberler",
    "benzer haberler",
    "diğer haberler",
    "ilgili yazılar",
    "paylaş",
    "bu haberi paylaş",
    // Swedish, Norwegian, Danish
    "relaterade artiklar",
    "dela",
    "dela artikeln",
    "relaterte artikler",
    "del artikkelen",
    "relaterede artikler",
    "del artiklen",
    // Hungarian
    "kapcsolódó cikkek",
    "ajánlott cikkek",
    "további cikkek",
    "megosztás",
    // Japanese
    "関連記事",
    "関連ニュース",
    "こちらもおすすめ",
    "おすすめ記事",
    "シェアする",
    "この記事をシェアする",
    // Korean
    "관련기사",
    "관련 기사",
    "관련뉴스",
    "관련 뉴스",
    "함께 보면 좋은 기사",
    "공유하기",
    // Arabic
    "مقالات ذات صلة",
    "أخبار ذات صلة",
    "اخبار ذات صلة",
    "مواضيع ذات صلة",
    "شارك",
    // Hindi
    "संबंधित खबरें",
    "संबंधित लेख",
    "शेयर करें",
];

/// [`CLOSING_LABELS`] as label phrases.
static CLOSING_SET: LazyLock<HashSet<String>> = LazyLock::new(|| phrase_set(CLOSING_LABELS));

/// Whether a line is only the name of a box that follows an article ([`CLOSING_LABELS`]).
pub(super) fn is_closing_label(text: &str) -> bool {
    let Some(phrase) = label_phrase(text) else {
        return false;
    };
    CLOSING_SET.contains(&phrase) || more_from(&phrase)
}

/// "More" words that open a pointer to more of a site's stories (English, Polish,
/// Russian, Greek, German, Dutch, Swedish, Danish, Spanish, Portuguese, Ukrainian, Czech,
/// Slovak; French "plus de" and Italian "più" also open "more than 200 people").
const MORE_WORDS: &[&str] = &[
    "more",
    "więcej",
    "больше",
    "ещё",
    "еще",
    "περισσότερα",
    "mehr",
    "meer",
    "mer",
    "mere",
    "más",
    "mais",
    "більше",
    "více",
    "viac",
];
/// What follows "more" in such a pointer: a preposition of the place or a news noun ("of"
/// or "de" is left out: "Más de 200 personas"; so is "en": French "Mer en furie").
const MORE_OBJECTS: &[&str] = &[
    "from",
    "in",
    "at",
    "news",
    "stories",
    "articles",
    "w",
    "na",
    "z",
    "wiadomości",
    "informacji",
    "в",
    "на",
    "из",
    "новостей",
    "статей",
    "από",
    "στο",
    "στη",
    "ειδήσεις",
    "aus",
    "von",
    "vom",
    "nachrichten",
    "artikel",
    "over",
    "van",
    "nieuws",
    "från",
    "om",
    "nyheter",
    "fra",
    "nyheder",
    "noticias",
    "artículos",
    "notícias",
    "artigos",
    "з",
    "новин",
    "článků",
    "zpráv",
    "článkov",
    "správ",
];

/// "More news on <site>", "More from <section>", "Więcej w <newspaper>": a pointer to more
/// of the site's stories, of at least three words.
fn more_from(phrase: &str) -> bool {
    let words: Vec<&str> = phrase.split(' ').collect();
    words.len() >= 3 && MORE_WORDS.contains(&words[0]) && MORE_OBJECTS.contains(&words[1])
}

/// The written blocks without [`is_credit_line`] ones (`drop_credit_lines`) and, with
/// `drop_closing_labels`, [`is_closing_label`] ones (a "Related stories" or "ZOBACZ
/// TAKŻE" line whose box above or inside the text was left out as links). After the
/// text's edges are found: a closing label is how its end is found, a caption is no
/// chrome above the text, and where the text starts does not move when one goes.
pub(super) fn without_written_labels<'a>(
    config: &HeuristicConfig,
    written: &[(usize, &'a Block)],
) -> Vec<(usize, &'a Block)> {
    let label = |b: &Block| {
        config.drop_credit_lines && is_credit_line(&b.text)
            || config.drop_closing_labels && is_closing_label(&b.text)
    };
    written
        .iter()
        .copied()
        .filter(|&(_, b)| b.text.contains('\n') || !label(b))
        .collect()
}

/// The written blocks without the section headings that title a box of links left out
/// inside the text: a heading, neither the first nor the last written line nor an
/// `<h1>`, whose following blocks up to the next written one were left out and hold at
/// least two links that carry at least half of their words ("Mehr zum Thema", "Related
/// posts" over a list of other stories, between two parts of the text). A heading over
/// a section the text goes on with has that section written right after it; the first
/// written line may be a deck over share links, and an `<h1>` a post's headline under
/// its blog's title. Only with `drop_headings_over_links`; with `drop_box_titles_over_links`,
/// also a short line set in no heading tag ([`is_box_title`]).
pub(super) fn without_headings_over_links<'a>(
    pass: &Pass,
    written: &[(usize, &'a Block)],
) -> Vec<(usize, &'a Block)> {
    if !pass.config.drop_headings_over_links {
        return written.to_vec();
    }
    let blocks = &pass.page.blocks;
    let over_links = |j: usize| {
        let (h, b) = written[j];
        let Some(&(next, _)) = written.get(j + 1) else {
            return false;
        };
        if j == 0
            || b.kind == BlockKind::Heading(1)
            || !(is_dangling_heading(b, pass.config)
                || pass.config.drop_box_titles_over_links && is_box_title(b))
            || next <= h + 1
        {
            return false;
        }
        let gap = &blocks[h + 1..next];
        let words: u32 = gap.iter().map(|g| g.words).sum();
        let link_words: u32 = gap.iter().map(|g| g.link_words).sum();
        let links: u32 = gap.iter().map(|g| g.links).sum();
        links >= 2 && 2 * link_words >= words
    };
    (0..written.len())
        .filter(|&j| !over_links(j))
        .map(|j| written[j])
        .collect()
}

/// Whether a block is a line short enough to title a box ("Mehr zum Thema", "Inhaltsverzeichnis",
/// "Weitere Informationen:" in a `<div>`, `<p>` or `<strong>`, not a heading tag): at most
/// [`BOX_TITLE_MAX_WORDS`] words, none linked, one line, no sentence's end.
fn is_box_title(b: &Block) -> bool {
    b.words <= BOX_TITLE_MAX_WORDS
        && b.link_words == 0
        && !b.text.contains('\n')
        && !ends_a_sentence(&b.text)
}

#[cfg(test)]
mod tests {
    use super::super::tests::{headed_page, page_ending_with as page, run, run_without, ARTICLE};
    use super::is_closing_label;

    #[test]
    fn every_closing_label_is_short_enough_to_match() {
        for label in super::CLOSING_LABELS {
            assert!(super::label_phrase(label).is_some(), "{label}");
            assert!(is_closing_label(label), "{label}");
        }
    }

    #[test]
    fn labels_of_links_left_out_do_not_end_the_text() {
        let html = page(
            "<p>Source: the harbour office.</p><b>Topics:</b><br>\
             <div><a href=/a>Ferry</a> <a href=/b>Cranes</a> <a href=/c>Harbour</a></div><p>Tags:</p>",
        );
        // (A box title over the links left out too: that switch off as well.)
        let without = run_without(&html, |c| {
            c.drop_dangling_labels = false;
            c.drop_box_titles_over_links = false;
        });
        assert!(without.ends_with("Topics:\nTags:"), "{without}");
        let out = run(&html);
        assert!(out.text.contains("Second."), "{}", out.text);
        assert!(
            out.text.contains("Source: the harbour office."),
            "{}",
            out.text
        );
        assert!(!out.text.contains("Topics"), "{}", out.text);
        assert!(!out.text.contains("Tags"), "{}", out.text);
    }

    /// A page built of heading boxes and text boxes, one after the other (`box` the
    /// class of each heading's box): its last heading box titles the links left out.
    fn boxed_page(tail: &str) -> String {
        let sections: String = [
            "The crane arrives at the quay",
            "The old ferry rises from the water",
            "The quay fills with the whole town",
        ]
        .iter()
        .enumerate()
        .map(|(n, h)| {
            format!(
                "<div class=box><h2>{h}</h2></div><div class=text><p>{ARTICLE} Part {n}.</p></div>"
            )
        })
        .collect();
        headed_page(&format!("{sections}{tail}"))
    }

    #[test]
    fn a_heading_box_over_links_left_out_ends_no_text() {
        let html = boxed_page(
            "<div class=box><h2>You might like these too</h2></div>\
             <div class=tiles><a href=/1>Other story</a> <a href=/2>Another one</a></div>",
        );
        let out = run(&html);
        assert!(out.text.contains("with the whole town\n"), "{}", out.text);
        assert!(out.text.contains("Part 2."), "{}", out.text);
        assert!(!out.text.contains("You might like"), "{}", out.text);
    }

    /// A box titled `title` (in `title_html`) whose two links were left out, between the
    /// text's second paragraph and one more: the title is written only with `switch_off`.
    fn box_title_goes(
        title_html: &str,
        title: &str,
        switch_off: impl Fn(&mut super::HeuristicConfig),
    ) {
        let html = page(&format!(
            "<div class=box>{title_html}<ul>\
             <li><a href=/1>The ferry was late again on Monday</a></li>\
             <li><a href=/2>New cranes for the quay</a></li></ul></div>\
             <p>The harbour master thanked the crane drivers after the lift.</p>"
        ));
        let without = run_without(&html, switch_off);
        assert!(without.contains(&format!("{title}\n")), "{without}");
        let out = run(&html).text;
        assert!(!out.contains(title), "{out}");
        assert!(out.contains("Second.\nThe harbour master thanked"), "{out}");
    }

    #[test]
    fn a_heading_over_links_left_out_inside_the_text_goes() {
        box_title_goes("<h3>More on the harbour</h3>", "More on the harbour", |c| {
            c.drop_headings_over_links = false
        });
    }

    #[test]
    fn a_box_title_over_links_left_out_inside_the_text_goes() {
        box_title_goes(
            "<div class=box-title>Mehr zum Thema</div>",
            "Mehr zum Thema",
            |c| c.drop_box_titles_over_links = false,
        );
    }

    #[test]
    fn a_heading_over_its_own_section_stays() {
        // Over one linked photo, and over a paragraph with two links in it: the text goes
        // on under the heading.
        let html = page(
            "<h3>The crane</h3><p><a href=/photo>Photo of the crane at the quay</a></p>\
             <p>The crane came from <a href=/r>Rotterdam</a> by barge and was set up in a day.</p>\
             <h3>The ferry</h3><p>It was lifted <a href=/a>at dawn</a>, <a href=/b>before the tide</a>, \
             and set down on the quay by noon without a scratch on its old hull.</p>",
        );
        let out = run(&html).text;
        assert!(out.contains("The crane\n"), "{out}");
        assert!(out.contains("The ferry\nIt was lifted"), "{out}");
    }

    #[test]
    fn a_grid_of_names_alone_keeps_its_last_names() {
        let cards: String = (1..=8)
            .map(|n| {
                format!(
                    "<div class=card><h3><a href=/c/{n}>Candle number {n} of glass</a></h3></div>"
                )
            })
            .collect();
        let out = run(&format!(
            "<html><head><title>Candles</title></head><body><div class=shop><h1>Candles</h1>\
             <p>Our candles are poured by hand in the harbour town from local wax.</p>\
             <div class=grid>{cards}</div></div></body></html>"
        ));
        assert!(
            out.text.ends_with("Candle number 8 of glass"),
            "{}",
            out.text
        );
    }

    #[test]
    fn a_label_with_its_text_after_it_stays() {
        let out = run(&page("<p>The harbour master said:</p><p>We are glad.</p>"));
        assert!(
            out.text.contains("The harbour master said:"),
            "{}",
            out.text
        );
        assert!(out.text.contains("We are glad."), "{}", out.text);
    }

    #[test]
    fn closing_labels_are_known() {
        for line in [
            "Читайте также:",
            "Статьи по теме",
            "ZOBACZ TAKŻE",
            "Related Stories",
            "Share this:",
            "Σχετικά άρθρα",
            "相关报道：",
            "More from the Harbour Gazette",
            "Więcej w \"Gazecie Portowej\".",
            "Podziel się",
        ] {
            assert!(is_closing_label(line), "{line}");
        }
        for line in [
            "Читай также: Какие супы спасают от похмелья",
            "Related",
            "Read More",
            "Share prices fell",
            "More than 200 people came",
            "More on remote work",
            "Podziel się opinią z innymi czytelnikami",
        ] {
            assert!(!is_closing_label(line), "{line}");
        }
    }

    #[test]
    fn closing_labels_of_other_languages_are_known() {
        for line in [
            "Weitere Artikel",
            "Ähnliche Artikel:",
            "Gerelateerde artikelen",
            "Articles similaires",
            "Partager cet article :",
            "Noticias relacionadas",
            "Comparte esta noticia",
            "Articoli correlati",
            "Notícias relacionadas",
            "Articole similare",
            "Схожі новини",
            "Související články",
            "Súvisiace články",
            "İLGİLİ HABERLER",
            "Diğer Haberler",
            "Relaterade artiklar",
            "Kapcsolódó cikkek",
            "関連記事",
            "관련기사",
            "مقالات ذات صلة",
            "संबंधित खबरें",
            "Mehr aus Berlin und Brandenburg",
            "Meer nieuws uit de regio",
        ] {
            assert!(is_closing_label(line), "{line}");
        }
        for line in [
            // A pointer inside the text, a label with its title, prose, a part's heading.
            "Lesen Sie auch",
            "À lire aussi",
            "Leggi anche",
            "Weitere Artikel zum Thema Wohnungsbau",
            "Noticias relacionadas con la crisis del agua",
            "Teilen ist Sache der Kommune",
            "Deel 2",
            "Del 2",
            "Plus de 200 personnes",
            "Más de 200 personas",
            "Mer en furie",
            "関連記事によると",
        ] {
            assert!(!is_closing_label(line), "{line}");
        }
    }

    #[test]
    fn a_closing_label_of_another_language_ends_the_article() {
        let html = page(
            "<p>Quelle: das Hafenamt.</p><b>Ähnliche Artikel</b>\
             <p>Der alte Leuchtturm der Bucht bekommt diesen Sommer eine neue Lampe und einen Anstrich.</p>",
        );
        let out = run(&html);
        assert!(out.text.contains("Quelle: das Hafenamt."), "{}", out.text);
        assert!(!out.text.contains("Ähnliche Artikel"), "{}", out.text);
        assert!(!out.text.contains("Leuchtturm"), "{}", out.text);
    }

    #[test]
    fn a_closing_label_ends_the_article() {
        // Another story's teaser under "Read also", in the article's own element.
        let html = page(
            "<p>Source: the harbour office.</p><b>Read also</b>\
             <p>The old lighthouse of the bay gets a new lamp and a coat of paint this summer.</p>",
        );
        let without = run_without(&html, |c| c.cut_at_closing_label = false);
        assert!(without.contains("lighthouse"), "{without}");
        let out = run(&html);
        assert!(
            out.text.contains("Source: the harbour office."),
            "{}",
            out.text
        );
        assert!(!out.text.contains("Read also"), "{}", out.text);
        assert!(!out.text.contains("lighthouse"), "{}", out.text);
    }

    #[test]
    fn a_closing_label_inside_the_text_is_dropped() {
        // A "related" box inside the article, after its first paragraph, whose links were
        // left out.
        let html = page("<p>Third part of the story.</p>").replacen(
            "</p>",
            "</p><b>Related stories</b><ul><li><a href=/a>Ferry</a></li><li><a href=/b>Cranes</a></li></ul>",
            1,
        );
        let out = run(&html);
        assert!(
            out.text.contains("Third part of the story."),
            "{}",
            out.text
        );
        assert!(!out.text.contains("Related stories"), "{}", out.text);
        let without = run_without(&html, |c| {
            c.drop_closing_labels = false;
            c.drop_box_titles_over_links = false;
        });
        assert!(without.contains("Related stories"), "{without}");
    }
}
