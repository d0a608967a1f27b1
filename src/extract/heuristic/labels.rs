//! Interface labels at the written text's end: "Tagi:", "Share this on:", "分享到:",
//! "Оцените статью:", "Статьи по теме:". A label ending in a colon introduces what
//! follows it (tag links, share buttons, a rating widget, related links, a code box);
//! what followed was left out as links or boilerplate, so the label dangles as the
//! text's last line. A text does not end by introducing something: such short lines at
//! the end are the page's interface, whatever their language.
//!
//! A line that is only the name of what pages put after their articles — "read also",
//! "related stories", "share", "rate this article", in the languages of the corpora
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
    let mut end = end;
    while config.drop_dangling_labels && end > first + 1 && is_dangling_label(kept[end - 1].1) {
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
/// told without the copy (the label tests run on every written line).
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
            .map(|c| if c.is_alphabetic() { c } else { ' ' })
            .collect::<String>()
            .to_lowercase(),
    )
}

/// "Read also", "see also", "related", "more on the topic", "share", "rate this": the
/// name of a box that follows an article, as a whole line (punctuation, digits and case
/// ignored). A line that goes on after the name ("Read also: <a title>") is no label.
const CLOSING_LABELS: &[&str] = &[
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
    "διαβάστε επίσης",
    "δείτε επίσης",
    "σχετικά άρθρα",
    "σχετικές ειδήσεις",
    "σχετικά θέματα",
    "κοινοποίηση",
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
];

/// Whether a line is only the name of a box that follows an article ([`CLOSING_LABELS`]).
pub(super) fn is_closing_label(text: &str) -> bool {
    let Some(cleaned) = label_letters(text) else {
        return false;
    };
    let phrase = cleaned.split_whitespace().collect::<Vec<_>>().join(" ");
    CLOSING_LABELS.contains(&phrase.as_str()) || more_from(&phrase)
}

/// "More" words that open a pointer to more of a site's stories.
const MORE_WORDS: &[&str] = &["more", "więcej", "больше", "ещё", "еще", "περισσότερα"];
/// What follows "more" in such a pointer: a preposition of the place or a news noun.
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
];

/// "More news on <site>", "More from <section>", "Więcej w <newspaper>": a pointer to more
/// of the site's stories, of at least three words.
fn more_from(phrase: &str) -> bool {
    let words: Vec<&str> = phrase.split(' ').collect();
    words.len() >= 3 && MORE_WORDS.contains(&words[0]) && MORE_OBJECTS.contains(&words[1])
}

/// The label an advertisement carries ("REKLAMA", "Реклама", "广告"), as a whole line.
const AD_LABELS: &[&str] = &[
    "advertisement",
    "advertising",
    "sponsored",
    "anzeige",
    "werbung",
    "publicité",
    "reklama",
    "реклама",
    "διαφήμιση",
    "广告",
    "廣告",
];

/// The name of a text-size control ("字号:T|T", "調整字體︰大 中 小", "Font size: A+ A-"),
/// by stem; Chinese names are found inside a run of letters ("調整字體").
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
];

/// Words a text-size control has besides its name and its one-letter size marks.
const TEXT_SIZE_WORDS: &[&str] = &["text", "size", "размер", "rozmiar", "μέγεθος"];

/// Whether a line is interface, not text, wherever it stands: an advertisement's label
/// alone, or a text-size control (its name and one-letter or `+`/`-` size marks).
pub(super) fn is_interface_line(text: &str) -> bool {
    let Some(cleaned) = label_letters(text) else {
        return false;
    };
    let words: Vec<&str> = cleaned.split_whitespace().collect();
    if let [word] = words.as_slice() {
        if AD_LABELS.contains(word) {
            return true;
        }
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
/// Images"), lower-cased, without its `.` or `:`.
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
    use super::super::tests::{run, ARTICLE};
    use super::super::{extract, HeuristicConfig};
    use super::{is_closing_label, is_credit_line, is_interface_line};
    use crate::extract::dom::parse;

    fn page(end: &str) -> String {
        format!(
            "<html><head><title>Harbour cranes lifted the old ferry out of the water</title></head><body>\
             <div class=text><h1>Harbour cranes lifted the old ferry out of the water</h1>\
             <p>{ARTICLE} First.</p><p>{ARTICLE} Second.</p>{end}</div></body></html>"
        )
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
