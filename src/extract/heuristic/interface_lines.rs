//! Lines that are interface, not text, wherever they stand: a line that is only an
//! advertisement's label ("REKLAMA", "广告") or a text-size control ("字号:T|T")
//! ([`is_interface_line`]): the advertisement and the control's letters are not text, so
//! their label is nothing's. So is a photo's credit, alone or ending a short caption
//! ([`is_credit_line`]: "Fot. Dreamstime", "Photo: Getty Images", "…, fot. AFP", "… |
//! © Augusta National/Getty Images", and an editor's "责任编辑：王鹏"): the annotators of
//! both news and web pages leave credits out.

use std::collections::HashSet;
use std::sync::LazyLock;

use super::label_phrases::{label_letters, phrase_set};
use super::settings::HeuristicConfig;
use crate::extract::dom::Block;

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
fn is_interface_line(text: &str) -> bool {
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
/// Images", "Bild: dpa", "Foto: EFE", "写真：ロイター"), lower-cased, without its `.` or `:`;
/// German names the picture it credits ("Titelbild:", "Beitragsbild:", "Bildquelle:").
const CREDIT_WORDS: &[&str] = &[
    "photo",
    "photos",
    "photograph",
    "picture",
    "image",
    "illustration",
    "credit",
    "photo credit",
    "photo credits",
    "image credit",
    "photographer",
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
    "titelbild",
    "beitragsbild",
    "symbolbild",
    "aufmacherbild",
    "vorschaubild",
    "titelfoto",
    "symbolfoto",
    "bildquelle",
    "bildnachweis",
    "fotonachweis",
    "fotograf",
    "fotografin",
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
    if credit(text) || is_editor_credit(text) || copyright_credit(text) {
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

/// Whether `text` ends with a copyright sign and a name of at most
/// [`CREDIT_NAME_MAX_WORDS`] words without a year: a photo's credit alone ("© Getty
/// Images", "© dpa | Kay Nietfeld") or ending its caption ("Lee Elder war beim Masters
/// 1975 der Zuschauermagnet. | © Augusta National/Getty Images", "… /© Panthermedia").
/// A notice with a year ("© 2020 Springer Nature") is the legal notices' (`legal_notices.rs`);
/// a line that goes on after the name (a colon, a sentence's end) is no credit.
fn copyright_credit(text: &str) -> bool {
    let Some((_, name)) = text.rsplit_once('©') else {
        return false;
    };
    let name = name.trim();
    let words = name.split_whitespace().count();
    let year = name
        .split(|c: char| !c.is_ascii_digit())
        .any(|d| d.len() == 4 && (d.starts_with("19") || d.starts_with("20")));
    (1..=CREDIT_NAME_MAX_WORDS).contains(&words) && !year && !name.ends_with([':', '.', '!', '?'])
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

/// Whether `drop_interface_lines` drops block `b`: one line that [`is_interface_line`].
pub(super) fn drops_interface_line(config: &HeuristicConfig, b: &Block) -> bool {
    config.drop_interface_lines && !b.text.contains('\n') && is_interface_line(&b.text)
}

/// `kept` without the blocks [`drops_interface_line`] drops.
pub(super) fn without_interface_lines<'a>(
    config: &HeuristicConfig,
    mut kept: Vec<(usize, &'a Block)>,
) -> Vec<(usize, &'a Block)> {
    kept.retain(|&(_, b)| !drops_interface_line(config, b));
    kept
}

#[cfg(test)]
mod tests {
    use super::super::tests::{page_ending_with as page, run, run_without};
    use super::{is_credit_line, is_interface_line};

    #[test]
    fn every_ad_label_is_short_enough_to_match() {
        for label in super::AD_LABELS {
            assert!(
                super::super::label_phrases::label_phrase(label).is_some(),
                "{label}"
            );
            assert!(is_interface_line(label), "{label}");
        }
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
        let without = run_without(&html, |c| c.drop_interface_lines = false);
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
            "© Getty Images",
            "© dpa | Kay Nietfeld",
            "Lee Elder war beim Masters 1975 der Zuschauermagnet. | © Augusta National/Getty Images",
            "Meningokoki zagrażają nie tylko dzieciom, ale także dorosłym /© Panthermedia",
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
            "© 2020 Springer Nature Switzerland AG",
            "Bestellung gilt auch für das Wake News © Feiertags-Angebot):",
            "Der Verlag hält das © an allen Texten und Bildern dieser Ausgabe des Magazins.",
        ] {
            assert!(!is_credit_line(line), "{line}");
        }
    }

    #[test]
    fn credit_lines_of_other_languages_are_known() {
        for line in [
            "Bild: picture alliance / dpa",
            "Titelbild: Geyres Christophe/ABACA/picture-alliance",
            "Beitragsbild: Titelseite der Zeitung vom 2.4.2019, Ausriss.",
            "Photo credit: Catwalkpictures",
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
        let without = run_without(&html, |c| c.drop_credit_lines = false);
        assert!(without.contains("Harbour Office"), "{without}");
        let out = run(&html);
        assert!(
            out.text.contains("Third part of the story."),
            "{}",
            out.text
        );
        assert!(!out.text.contains("Harbour Office"), "{}", out.text);
    }
}
