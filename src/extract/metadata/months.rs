//! Month names of the languages thresher's corpora are written in (English, Russian,
//! Greek, Polish; Chinese writes months as numbers with 月), every declined form and the
//! usual abbreviations. A word is compared whole after lower-casing, dropping a final
//! period and Greek accents, so `Νοεμβρίου`, `ноября`, `listopada` and `Nov.` are all 11.
//! Written out as a table because no crate covers these declensions (chrono parses only
//! English names).

/// (form, month). Forms are lower-case, Greek without accents and with final `ς`.
const MONTHS: &[(&str, u32)] = &[
    // English
    ("january", 1),
    ("jan", 1),
    ("february", 2),
    ("feb", 2),
    ("march", 3),
    ("mar", 3),
    ("april", 4),
    ("apr", 4),
    ("may", 5),
    ("june", 6),
    ("jun", 6),
    ("july", 7),
    ("jul", 7),
    ("august", 8),
    ("aug", 8),
    ("september", 9),
    ("sep", 9),
    ("sept", 9),
    ("october", 10),
    ("oct", 10),
    ("november", 11),
    ("nov", 11),
    ("december", 12),
    ("dec", 12),
    // Russian: nominative, genitive, abbreviations
    ("январь", 1),
    ("января", 1),
    ("янв", 1),
    ("февраль", 2),
    ("февраля", 2),
    ("фев", 2),
    ("февр", 2),
    ("март", 3),
    ("марта", 3),
    ("мар", 3),
    ("апрель", 4),
    ("апреля", 4),
    ("апр", 4),
    ("май", 5),
    ("мая", 5),
    ("июнь", 6),
    ("июня", 6),
    ("июн", 6),
    ("июль", 7),
    ("июля", 7),
    ("июл", 7),
    ("август", 8),
    ("августа", 8),
    ("авг", 8),
    ("сентябрь", 9),
    ("сентября", 9),
    ("сен", 9),
    ("сент", 9),
    ("октябрь", 10),
    ("октября", 10),
    ("окт", 10),
    ("ноябрь", 11),
    ("ноября", 11),
    ("ноя", 11),
    ("нояб", 11),
    ("декабрь", 12),
    ("декабря", 12),
    ("дек", 12),
    // Greek (accents removed): nominative, genitive, the colloquial forms (Γενάρης,
    // Γενάρη, Νοέμβρη…), and
    // abbreviations
    ("ιανουαριος", 1),
    ("ιανουαριου", 1),
    ("γεναρης", 1),
    ("γεναρη", 1),
    ("ιαν", 1),
    ("φεβρουαριος", 2),
    ("φεβρουαριου", 2),
    ("φλεβαρης", 2),
    ("φλεβαρη", 2),
    ("φεβ", 2),
    ("μαρτιος", 3),
    ("μαρτιου", 3),
    ("μαρτης", 3),
    ("μαρτη", 3),
    ("μαρ", 3),
    ("απριλιος", 4),
    ("απριλιου", 4),
    ("απριλης", 4),
    ("απριλη", 4),
    ("απρ", 4),
    ("μαιος", 5),
    ("μαιου", 5),
    ("μαης", 5),
    ("μαη", 5),
    ("μαι", 5),
    ("ιουνιος", 6),
    ("ιουνιου", 6),
    ("ιουνης", 6),
    ("ιουνη", 6),
    ("ιουν", 6),
    ("ιουλιος", 7),
    ("ιουλιου", 7),
    ("ιουλης", 7),
    ("ιουλη", 7),
    ("ιουλ", 7),
    ("αυγουστος", 8),
    ("αυγουστου", 8),
    ("αυγ", 8),
    ("σεπτεμβριος", 9),
    ("σεπτεμβριου", 9),
    ("σεπτεμβρης", 9),
    ("σεπτεμβρη", 9),
    ("σεπ", 9),
    ("σεπτ", 9),
    ("οκτωβριος", 10),
    ("οκτωβριου", 10),
    ("οκτωβρης", 10),
    ("οκτωβρη", 10),
    ("οκτ", 10),
    ("νοεμβριος", 11),
    ("νοεμβριου", 11),
    ("νοεμβρης", 11),
    ("νοεμβρη", 11),
    ("νοε", 11),
    ("νοεμ", 11),
    ("δεκεμβριος", 12),
    ("δεκεμβριου", 12),
    ("δεκεμβρης", 12),
    ("δεκεμβρη", 12),
    ("δεκ", 12),
    // Polish: nominative, genitive, abbreviations
    ("styczeń", 1),
    ("stycznia", 1),
    ("sty", 1),
    ("luty", 2),
    ("lutego", 2),
    ("lut", 2),
    ("marzec", 3),
    ("marca", 3),
    ("kwiecień", 4),
    ("kwietnia", 4),
    ("kwi", 4),
    ("maj", 5),
    ("maja", 5),
    ("czerwiec", 6),
    ("czerwca", 6),
    ("cze", 6),
    ("lipiec", 7),
    ("lipca", 7),
    ("lip", 7),
    ("sierpień", 8),
    ("sierpnia", 8),
    ("sie", 8),
    ("wrzesień", 9),
    ("września", 9),
    ("wrz", 9),
    ("październik", 10),
    ("października", 10),
    ("paź", 10),
    ("listopad", 11),
    ("listopada", 11),
    ("lis", 11),
    ("grudzień", 12),
    ("grudnia", 12),
    ("gru", 12),
];

/// Lower-case, Greek accents and diaeresis removed, final period dropped.
pub fn fold(word: &str) -> String {
    word.trim_end_matches('.')
        .chars()
        .flat_map(char::to_lowercase)
        .map(|c| match c {
            'ά' => 'α',
            'έ' => 'ε',
            'ή' => 'η',
            'ί' | 'ϊ' | 'ΐ' => 'ι',
            'ό' => 'ο',
            'ύ' | 'ϋ' | 'ΰ' => 'υ',
            'ώ' => 'ω',
            c => c,
        })
        .collect()
}

/// The month a word names, if any.
pub fn month_of(word: &str) -> Option<u32> {
    if word.len() < 3 {
        return None;
    }
    let w = fold(word);
    MONTHS.iter().find(|(form, _)| *form == w).map(|&(_, m)| m)
}

#[cfg(test)]
mod tests {
    use super::month_of;

    #[test]
    fn declined_forms_and_abbreviations() {
        for (w, m) in [
            ("Νοεμβρίου", 11),
            ("Γενάρη", 1),
            ("ΜΑΪΟΥ", 5),
            ("Μαΐου", 5),
            ("ноября", 11),
            ("Мая", 5),
            ("listopada", 11),
            ("Października", 10),
            ("Nov.", 11),
            ("September", 9),
            ("янв.", 1),
        ] {
            assert_eq!(month_of(w), Some(m), "{w}");
        }
        for w in ["market", "mayor", "sieć", "ma", "lista"] {
            assert_eq!(month_of(w), None, "{w}");
        }
    }
}
