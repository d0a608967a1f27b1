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
//! Wherever it stands, a line that is only an advertisement's label ("REKLAMA", "广告")
//! or a text-size control ("字号:T|T") is interface too ([`is_interface_line`]): the
//! advertisement and the control's letters are not text, so their label is nothing's.
//! So is a photo's credit, alone or ending a short caption ([`is_credit_line`]: "Fot.
//! Dreamstime", "Photo: Getty Images", "…, fot. AFP", and an editor's "责任编辑：王鹏"):
//! the annotators of both news and web pages leave credits out.

use std::collections::HashSet;
use std::sync::LazyLock;

use super::settings::{HeuristicConfig, LABEL_MAX_WORDS};
use crate::extract::dom::Block;

/// The end (exclusive) of the written text among `kept[first..end]` without the short
/// lines ending in a colon at its end ([`is_dangling_label`]), one after the other; the
/// first written block always stays. Only with `drop_dangling_labels`.
pub(super) fn without_dangling_labels(
    config: &HeuristicConfig,
    kept: &[(usize, &Block)],
    first: usize,
    end: usize,
) -> usize {
    if !config.drop_dangling_labels {
        return end;
    }
    end_without_trailing(kept, first, end, is_dangling_label)
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

/// A short line's letters (at most [`LABEL_MAX_WORDS`] words), lower-cased, with every
/// other character (punctuation, digits, size marks) a space; `None` for a longer line,
/// told without the copy (the label tests run on every written line). Turkish dotted and
/// dotless i are both `i` (`İLGİLİ` lower-cased is not `ilgili` otherwise).
fn label_letters(text: &str) -> Option<String> {
    if text
        .split_whitespace()
        .nth(LABEL_MAX_WORDS as usize)
        .is_some()
    {
        return None;
    }
    Some(
        text.chars()
            .map(|c| match c {
                'İ' | 'ı' => 'i',
                c if c.is_alphabetic() => c,
                _ => ' ',
            })
            .collect::<String>()
            .to_lowercase(),
    )
}

/// A short line as a label phrase: its [`label_letters`]' words joined by one space.
fn label_phrase(text: &str) -> Option<String> {
    let letters = label_letters(text)?;
    Some(letters.split_whitespace().collect::<Vec<_>>().join(" "))
}

/// A set of label phrases, each written as pages write it ("À lire aussi", "te-ar putea
/// interesa") and kept as [`label_phrase`] reads a line, so that case, accents' marks
/// that are no letters and punctuation are compared alike. Built once; a lookup is a hash.
fn phrase_set(phrases: &[&str]) -> HashSet<String> {
    phrases.iter().filter_map(|p| label_phrase(p)).collect()
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

/// The label an advertisement carries ("REKLAMA", "Реклама", "广告", "Anzeige",
/// "Publicidad", "広告", "광고", "إعلان"), as a whole line.
const AD_LABELS: &[&str] = &[
    "advertisement",
    "advertising",
    "sponsored",
    "anzeige",
    "werbung",
    "gesponsert",
    "publicité",
    "publicidad",
    "anuncio",
    "pubblicità",
    "publicidade",
    "publicitate",
    "advertentie",
    "reclame",
    "reklama",
    "реклама",
    "reklam",
    "annons",
    "annonse",
    "hirdetés",
    "διαφήμιση",
    "广告",
    "廣告",
    "広告",
    "광고",
    "إعلان",
    "विज्ञापन",
];

/// [`AD_LABELS`] as label phrases.
static AD_SET: LazyLock<HashSet<String>> = LazyLock::new(|| phrase_set(AD_LABELS));

/// The name of a text-size control ("字号:T|T", "調整字體︰大 中 小", "Font size: A+ A-",
/// "Schriftgröße: A A", "Taille du texte : A- A+", "文字サイズ 小 中 大", "글자 크기 + -"), by
/// stem; Chinese and Japanese names are found inside a run of letters ("調整字體").
const TEXT_SIZE_NAMES: &[&str] = &[
    "font",
    "шрифт",
    "czcionk",
    "γραμματοσειρ",
    "字号",
    "字號",
    "字体",
    "字體",
    "字级",
    "字級",
    "schrift",
    "texte",
    "texto",
    "文字",
    "글자",
];

/// Words a text-size control has besides its name and its one-letter size marks.
const TEXT_SIZE_WORDS: &[&str] = &[
    "text",
    "size",
    "размер",
    "rozmiar",
    "μέγεθος",
    "größe",
    "taille",
    "du",
    "tamaño",
    "del",
    "크기",
];

/// Whether a line is interface, not text, wherever it stands: an advertisement's label
/// alone, or a text-size control (its name and one-letter or `+`/`-` size marks).
pub(super) fn is_interface_line(text: &str) -> bool {
    let Some(cleaned) = label_letters(text) else {
        return false;
    };
    let words: Vec<&str> = cleaned.split_whitespace().collect();
    // An advertisement's label is one word; a script whose marks are no letters splits it.
    let ad = match words.as_slice() {
        [word] => AD_SET.contains(*word),
        [_, _] => AD_SET.contains(&words.join(" ")),
        _ => false,
    };
    if ad {
        return true;
    }
    let is_name = |w: &&str| TEXT_SIZE_NAMES.iter().any(|n| w.contains(n));
    let is_mark = |w: &&str| w.chars().count() == 1;
    let marked = words.iter().any(is_mark) || text.contains(['+', '↑', '↓']);
    marked
        && words.iter().any(is_name)
        && words
            .iter()
            .all(|w| is_name(w) || is_mark(w) || TEXT_SIZE_WORDS.contains(w))
}

/// The word that opens a photo credit ("Fot. PAP", "Фото: ИТАР-ТАСС", "Photo: Getty
/// Images", "Bild: dpa", "Foto: EFE", "写真：ロイター"), lower-cased, without its `.` or `:`.
const CREDIT_WORDS: &[&str] = &[
    "photo",
    "photos",
    "photograph",
    "picture",
    "image",
    "illustration",
    "credit",
    "fot",
    "foto",
    "zdjęcie",
    "фото",
    "фотография",
    "иллюстрация",
    "φωτο",
    "φωτογραφία",
    "图",
    "图片",
    "圖片",
    "摄影",
    "攝影",
    // German, Dutch, Scandinavian, Romance, Czech, Turkish, Hungarian, Japanese, Korean,
    // Arabic, Hindi
    "bild",
    "fotos",
    "fotó",
    "fotografía",
    "fotografia",
    "imagen",
    "immagine",
    "imagem",
    "ilustración",
    "illustrazione",
    "ilustração",
    "crédito",
    "créditos",
    "写真",
    "사진",
    "صورة",
    "الصورة",
    "फोटो",
];

/// The most words a credit's name has ("Ben Hasty/Getty Images").
const CREDIT_NAME_MAX_WORDS: usize = 8;

/// The most words a caption that ends with its credit has ("Były wiceminister zdrowia
/// Bolesław Piecha (fot. TVP Info)").
const CAPTION_MAX_WORDS: usize = 20;

/// Whether a line is a photo's credit ("Fot. Dreamstime", "Photo: Ben Hasty/Getty
/// Images", "Фото: ISRAland/AP") or a short caption that ends with one ("…, fot. AFP",
/// "… (fot. TVP Info)"): a credit word with its `.` or `:` and a name of a few words.
/// The credit word is capitalised or abbreviated (`image: nginx:1.14` is a setting).
pub(super) fn is_credit_line(text: &str) -> bool {
    let text = text.trim();
    if text.split_whitespace().nth(CAPTION_MAX_WORDS).is_some() {
        return false;
    }
    if credit(text) || is_editor_credit(text) {
        return true;
    }
    // A caption's trailing credit, in parentheses or after a comma or a slash.
    let tail = text
        .strip_suffix(')')
        .and_then(|t| t.rsplit_once('('))
        .map(|(_, c)| c);
    let tail = tail.or_else(|| {
        text.rsplit_once([',', '/'])
            .map(|(_, c)| c)
            .filter(|c| c.starts_with(' '))
    });
    tail.is_some_and(|c| credit(c.trim()))
}

/// The editor's credit of Chinese news items, in simplified and traditional script.
const EDITOR_WORDS: &[&str] = &["编辑", "編輯", "责任编辑", "責任編輯", "责编", "責編"];

/// Whether `text` is an editor's credit under a news item, bracketed or not: the editor
/// word with its colon before a name ("责任编辑：王鹏", "（责任编辑:于澄）", "[编辑：杨洁]")
/// or after a name ("(陈巍 编辑)"). The annotators leave it out like a photo's credit.
fn is_editor_credit(text: &str) -> bool {
    let inner = [("(", ")"), ("（", "）"), ("[", "]"), ("【", "】")]
        .iter()
        .find_map(|(open, close)| text.strip_prefix(open)?.strip_suffix(close))
        .unwrap_or(text)
        .trim();
    if let Some((word, name)) = inner.split_once([':', '：']) {
        return EDITOR_WORDS.contains(&word.trim())
            && (1..=2).contains(&name.split_whitespace().count());
    }
    let words: Vec<&str> = inner.split_whitespace().collect();
    matches!(words.as_slice(), [_, word] | [_, _, word] if EDITOR_WORDS.contains(word))
}

/// Whether `text` is a credit word with its `.` or `:` and a name of at most
/// [`CREDIT_NAME_MAX_WORDS`] words.
fn credit(text: &str) -> bool {
    let Some(end) = text.find(['.', ':', '：', '╱']) else {
        return false;
    };
    let (word, name) = (&text[..end], &text[end..]);
    let abbreviated = name.starts_with('.');
    let name = name[name.chars().next().map_or(0, char::len_utf8)..].trim();
    let capitalised = word.chars().next().is_some_and(|c| !c.is_lowercase());
    let words = name.split_whitespace().count();
    (capitalised || abbreviated)
        && CREDIT_WORDS.contains(&word.trim().to_lowercase().as_str())
        && (1..=CREDIT_NAME_MAX_WORDS).contains(&words)
}

/// `kept` without [`is_interface_line`] blocks (`drop_interface_lines`).
pub(super) fn without_interface_lines<'a>(
    config: &HeuristicConfig,
    mut kept: Vec<(usize, &'a Block)>,
) -> Vec<(usize, &'a Block)> {
    if config.drop_interface_lines {
        kept.retain(|&(_, b)| b.text.contains('\n') || !is_interface_line(&b.text));
    }
    kept
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

#[cfg(test)]
mod tests {
    use super::super::tests::{headed_page, run, ARTICLE};
    use super::super::{extract, HeuristicConfig};
    use super::{is_closing_label, is_credit_line, is_interface_line};
    use crate::extract::dom::parse;

    fn page(end: &str) -> String {
        headed_page(&format!(
            "<p>{ARTICLE} First.</p><p>{ARTICLE} Second.</p>{end}"
        ))
    }

    #[test]
    fn labels_of_links_left_out_do_not_end_the_text() {
        let html = page(
            "<p>Source: the harbour office.</p><b>Topics:</b><br>\
             <div><a href=/a>Ferry</a> <a href=/b>Cranes</a> <a href=/c>Harbour</a></div><p>Tags:</p>",
        );
        let mut config = HeuristicConfig::default();
        config.drop_dangling_labels = false;
        let without = extract(&parse(&html), &config).text;
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
    fn every_label_is_short_enough_to_match() {
        use super::{AD_LABELS, CLOSING_LABELS};
        for label in CLOSING_LABELS.iter().chain(AD_LABELS) {
            assert!(super::label_phrase(label).is_some(), "{label}");
            assert!(
                is_closing_label(label) || is_interface_line(label),
                "{label}"
            );
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
        let mut config = HeuristicConfig::default();
        config.cut_at_closing_label = false;
        let without = extract(&parse(&html), &config).text;
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
    fn interface_lines_are_known() {
        for line in [
            "REKLAMA",
            "Реклама",
            "Advertisement",
            "广告",
            "字号:T|T",
            "調整字體︰大 中 小",
        ] {
            assert!(is_interface_line(line), "{line}");
        }
        for line in [
            "Size: S M L",
            "Reklama na ulicach",
            "font:",
            "font-size: 18px;",
            "Choosing fonts",
            "字級設定：",
        ] {
            assert!(!is_interface_line(line), "{line}");
        }
    }

    #[test]
    fn interface_lines_of_other_languages_are_known() {
        for line in [
            "ANZEIGE",
            "Publicidad",
            "Pubblicità",
            "Advertentie",
            "広告",
            "광고",
            "إعلان",
            "विज्ञापन",
            "Schriftgröße: A A A",
            "Taille du texte : A- A+",
            "文字サイズ 小 中 大",
            "글자 크기 + -",
        ] {
            assert!(is_interface_line(line), "{line}");
        }
        for line in [
            "Anzeige erstattet",
            "Publicidad engañosa en la red",
            "Schriftgröße",
            "Taille du texte",
            "広告代理店",
        ] {
            assert!(!is_interface_line(line), "{line}");
        }
    }

    #[test]
    fn ad_labels_and_text_size_controls_are_dropped() {
        let html = page("<p>REKLAMA</p><p>字号:T|T</p><p>Third part of the story.</p>");
        let mut config = HeuristicConfig::default();
        config.drop_interface_lines = false;
        let without = extract(&parse(&html), &config).text;
        assert!(without.contains("REKLAMA"), "{without}");
        let out = run(&html);
        assert!(
            out.text.contains("Third part of the story."),
            "{}",
            out.text
        );
        assert!(!out.text.contains("REKLAMA"), "{}", out.text);
        assert!(!out.text.contains("字号"), "{}", out.text);
    }

    #[test]
    fn credit_lines_are_known() {
        for line in [
            "Fot. Dreamstime",
            "Photo: Ben Hasty/Getty Images",
            "Фото: ISRAland/AP",
            "Testowanie pocisków dalekiego zasięgu Ghader, fot. AFP",
            "Były wiceminister zdrowia Bolesław Piecha (fot. TVP Info)",
            "责任编辑：王鹏",
            "（责任编辑:于澄）",
            "[编辑：杨洁]",
            "(陈巍 编辑)",
            "(曹文明 編輯)",
        ] {
            assert!(is_credit_line(line), "{line}");
        }
        for line in [
            "image: nginx:1.14.2",
            "Fot.",
            "Photo: the crane lifted the ferry out of the water at dawn on Monday",
            "See the photo: it shows the ferry",
            "Photographers say the light was perfect.",
            "编辑：这篇文章讲述了很多事情 以及 其他 内容",
            "视频编辑",
            "编辑部",
        ] {
            assert!(!is_credit_line(line), "{line}");
        }
    }

    #[test]
    fn credit_lines_of_other_languages_are_known() {
        for line in [
            "Bild: picture alliance / dpa",
            "Foto: EFE",
            "Fotó: MTI",
            "Imagen: Reuters",
            "Il sindaco durante la conferenza (Foto: Ansa)",
            "写真：ロイター",
            "사진: 연합뉴스",
            "الصورة: رويترز",
            "फोटो: पीटीआई",
        ] {
            assert!(is_credit_line(line), "{line}");
        }
        for line in [
            "Bild: Der Hafen am Morgen, als die Kräne die alte Fähre aus dem Wasser hoben und trugen",
            "Imagen corporativa y reputación de la empresa",
            "写真",
        ] {
            assert!(!is_credit_line(line), "{line}");
        }
    }

    #[test]
    fn photo_credits_are_dropped() {
        let html = page("<p>Fot. Harbour Office</p><p>Third part of the story.</p>");
        let mut config = HeuristicConfig::default();
        config.drop_credit_lines = false;
        let without = extract(&parse(&html), &config).text;
        assert!(without.contains("Harbour Office"), "{without}");
        let out = run(&html);
        assert!(
            out.text.contains("Third part of the story."),
            "{}",
            out.text
        );
        assert!(!out.text.contains("Harbour Office"), "{}", out.text);
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
        let mut config = HeuristicConfig::default();
        config.drop_closing_labels = false;
        let without = extract(&parse(&html), &config).text;
        assert!(without.contains("Related stories"), "{without}");
    }
}
