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

/// Phrases that reserve a publisher's rights, lower-cased (Turkish also with the `i` that
/// lower-casing a capital `I` gives), grouped by language.
const RESERVED: &[&str] = &[
    "all rights reserved",
    // Russian, Ukrainian, Polish, Czech, Slovak
    "все права защищены",
    "всі права захищені",
    "усі права захищені",
    "wszelkie prawa zastrzeżone",
    "všechna práva vyhrazena",
    "všetky práva vyhradené",
    // Greek, Chinese, Japanese, Korean
    "παντός δικαιώματος",
    "版权所有",
    "版權所有",
    "無断転載を禁じます",
    "無断転載禁止",
    "무단 전재",
    "무단전재",
    // French, German, Dutch, Spanish, Catalan, Italian, Portuguese, Romanian
    "tous droits réservés",
    "alle rechte vorbehalten",
    "alle rechten voorbehouden",
    "todos los derechos reservados",
    "tots els drets reservats",
    "tutti i diritti riservati",
    "riproduzione riservata",
    "todos os direitos reservados",
    "toate drepturile rezervate",
    // Swedish, Danish, Norwegian, Hungarian, Turkish
    "alla rättigheter förbehållna",
    "alle rettigheder forbeholdes",
    "alle rettigheter reservert",
    "minden jog fenntartva",
    "tüm hakları saklıdır",
    "tüm haklari saklidir",
    "her hakkı saklıdır",
    "her hakki saklidir",
    // Arabic, Hindi
    "جميع الحقوق محفوظة",
    "सर्वाधिकार सुरक्षित",
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
/// addresses for back issues and advertising, "Disclaimer", "Contact us", "Impressum",
/// "Mentions légales", "Contatti", "お問い合わせ".
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
    // German, Dutch, French, Spanish, Italian, Portuguese (a bare "Contact" is an English
    // page's section too)
    "impressum",
    "haftungsausschluss",
    "colofon",
    "mentions légales",
    "contactez-nous",
    "nous contacter",
    "aviso legal",
    "contacto",
    "contáctenos",
    "contatti",
    "note legali",
    "contato",
    "fale conosco",
    // Ukrainian, Czech, Slovak, Turkish, Scandinavian, Hungarian
    "контакти",
    "kontakty",
    "iletişim",
    "kontakta oss",
    "kontakt oss",
    "kontakt os",
    "impresszum",
    "kapcsolat",
    // Japanese, Korean, Arabic, Hindi
    "お問い合わせ",
    "免責事項",
    "연락처",
    "اتصل بنا",
    "संपर्क",
    "संपर्क करें",
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
    fn notices_of_other_languages_are_known() {
        for line in [
            "© 2012 Hafenzeitung GmbH. Alle Rechte vorbehalten.",
            "Tous droits réservés - Le Journal du Port",
            "Todos os direitos reservados",
            "Riproduzione riservata",
            "Alle rechten voorbehouden.",
            "Všechna práva vyhrazena.",
            "Усі права захищені",
            "TÜM HAKLARI SAKLIDIR",
            "Her hakkı saklıdır.",
            "Alla rättigheter förbehållna",
            "Minden jog fenntartva.",
            "Toate drepturile rezervate.",
            "無断転載を禁じます。",
            "무단 전재 및 재배포 금지",
            "جميع الحقوق محفوظة",
            "सर्वाधिकार सुरक्षित",
        ] {
            assert!(is_legal_notice_line(line), "{line}");
        }
        for line in [
            "Die Rechte der Mieter wurden gestärkt",
            "Les droits des salariés sont réservés aux syndiqués",
        ] {
            assert!(!is_legal_notice_line(line), "{line}");
        }
        for line in [
            "Impressum",
            "Mentions légales",
            "Contatti:",
            "お問い合わせ",
            "Kapcsolat",
        ] {
            assert!(is_notice_heading(line), "{line}");
        }
        for line in [
            "Impressum und Datenschutz der Stadtwerke",
            "Contact",
            "Contactos de prensa",
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
