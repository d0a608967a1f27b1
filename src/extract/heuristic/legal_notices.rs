//! A publisher's legal notice, known by its words: "© ZABINFO.RU, 2004", "Copyright ©
//! 2011 HealthDay. All rights reserved.", "© 2004 Ukrinform, Все права защищены.",
//! "Wszelkie prawa zastrzeżone", "版权所有". Flat layouts of the 2000s write the site's
//! imprint (the notice, the registration, the editors' address and telephones) in the
//! article's own cell or table, without a class that names it (so `marks.rs` does not
//! see it), and its long lines outweigh the run test of the tail cut. A block with such a
//! line outside the text's element ends the article ([`article_edges`](super::article_edges)),
//! headed or not, when less evidence follows it. So does a line that only names such a box ("声明：", "Disclaimer",
//! "ΕΠΙΚΟΙΝΩΝΙΑ", "Contact us"), inside the text's element too, when less evidence follows
//! the box's first block. A photo credit ("© Tate, London 2011" inside a caption's prose)
//! is a long line, and a bare "©" beside a name without a year is a credit too.

/// Phrases that reserve a publisher's rights, lower-cased.
const RESERVED: &[&str] = &[
    "all rights reserved",
    "все права защищены",
    "всі права захищені",
    "wszelkie prawa zastrzeżone",
    "παντός δικαιώματος",
    "版权所有",
    "版權所有",
    "tous droits réservés",
    "alle rechte vorbehalten",
    "todos los derechos reservados",
    "tutti i diritti riservati",
];

/// A notice line holds at most this many words: a copyright sign in a longer line is a
/// credit inside prose.
const NOTICE_MAX_WORDS: usize = 25;

/// Whether a line is a publisher's legal notice: a copyright sign or word with a year,
/// or a phrase that reserves all rights, in a line of at most [`NOTICE_MAX_WORDS`] words.
pub(super) fn is_legal_notice_line(line: &str) -> bool {
    if line.split_whitespace().nth(NOTICE_MAX_WORDS).is_some() {
        return false;
    }
    let lower = line.to_lowercase();
    if RESERVED.iter().any(|p| lower.contains(p)) {
        return true;
    }
    (lower.contains('©') || lower.contains("(c)") || lower.contains("copyright"))
        && has_year(&lower)
}

/// What names a publisher's notice or contact box as a heading of its own, lower-cased:
/// "声明：" over the site's reprint disclaimer and its telephones, "ΕΠΙΚΟΙΝΩΝΙΑ" over the
/// addresses for back issues and advertising, "Disclaimer", "Contact us".
const NOTICE_HEADINGS: &[&str] = &[
    "声明",
    "聲明",
    "免责声明",
    "免責聲明",
    "版权声明",
    "版權聲明",
    "联系我们",
    "聯絡我們",
    "聯繫我們",
    "επικοινωνια",
    "επικοινωνία",
    "контакты",
    "kontakt",
    "disclaimer",
    "legal notice",
    "contact us",
];

/// Whether a line is only the heading of a notice or contact box (a colon allowed). A
/// line that goes on after the name ("免责声明：本文仅代表作者个人观点…", kept by some golds
/// as the article's) is no heading.
pub(super) fn is_notice_heading(line: &str) -> bool {
    // The longest heading is three words; most lines are longer and are told at once.
    if line.len() > 40 {
        return false;
    }
    let name = line
        .trim()
        .trim_end_matches([':', '：'])
        .trim()
        .to_lowercase();
    NOTICE_HEADINGS.contains(&name.as_str())
}

/// Whether a block holds a legal notice line.
pub(super) fn holds_legal_notice(text: &str) -> bool {
    text.lines().any(is_legal_notice_line)
}

/// Four digits, no digit around them, from 1990 to 2039 (`2004`, `1997-2013`).
fn has_year(text: &str) -> bool {
    let b = text.as_bytes();
    (0..b.len().saturating_sub(3)).any(|i| {
        let four = &b[i..i + 4];
        four.iter().all(u8::is_ascii_digit)
            && (i == 0 || !b[i - 1].is_ascii_digit())
            && b.get(i + 4).is_none_or(|c| !c.is_ascii_digit())
            && matches!(four, [b'1', b'9', b'9', _] | [b'2', b'0', b'0'..=b'3', _])
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notices_are_known() {
        for line in [
            "© ZABINFO.RU, 2004",
            "Copyright © 2011 HealthDay. All rights reserved.",
            "© 2004 Ukrinform, Все права защищены.",
            "Copyright © 1997-Thu Apr 11 09:36:16 GMT+02 2013 ΡΙΖΟΣΠΑΣΤΗΣ",
            "(c) 2010 Gazeta. Wszelkie prawa zastrzeżone",
            "版权所有 新民网",
        ] {
            assert!(is_legal_notice_line(line), "{line}");
        }
    }

    #[test]
    fn notice_headings_are_known() {
        for line in [
            "声明：",
            "ΕΠΙΚΟΙΝΩΝΙΑ",
            "Disclaimer:",
            "Contact Us",
            "Контакты",
        ] {
            assert!(is_notice_heading(line), "{line}");
        }
        for line in [
            "免责声明：本文仅代表作者个人观点，与本网无关。",
            "Contact us for a free quote today",
            "Disclaimers and warranties",
        ] {
            assert!(!is_notice_heading(line), "{line}");
        }
    }

    #[test]
    fn credits_and_prose_are_no_notices() {
        for line in [
            "© Экспертный канал «ФедералПресс» Мария Захарова",
            "(© FOT. JANUSZ WOJTOWICZ)",
            "The copyright of the photographs stays with the agency",
            "William Turner Study of Clouds Tate London © Tate, London 2011 Klimat i patriotyzm, \
             czyli angielski defekt zamieniony w efekt, pisze autor w swoim eseju o malarstwie \
             angielskim dziewiętnastego wieku i jego wpływie na Europę",
        ] {
            assert!(!is_legal_notice_line(line), "{line}");
        }
    }
}
