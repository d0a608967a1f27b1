//! Language of the extracted text with whatlang (trigram profiles of 69 languages plus
//! the script), as an ISO 639-1 code (isolang maps whatlang's ISO 639-3). whatlang over
//! lingua: it is a single small crate with no model files, builds in seconds and reads a
//! page in microseconds; measured on daniel-dev by `bench/lang_eval.py` (ARCHITECTURE.md).

use whatlang::{Detector, Lang};

/// Characters of the text given to whatlang: the first few paragraphs say the language
/// as well as the whole article, and the cost stays bounded on long pages. 1,500 and
/// 3,000 both give 888 of 888 on daniel-dev; the shorter costs half.
const MAX_CHARS: usize = 1500;

/// Below this many letters a text says too little; the title and description are added.
const MIN_LETTERS: usize = 40;

/// ISO 639-1 code of a whatlang language (ISO 639-3 when the language has no 639-1
/// code). Mandarin and Iranian Persian are individual languages in 639-3 whose 639-1
/// codes belong to their macrolanguages (`zh`, `fa`).
pub fn iso639_1(lang: Lang) -> String {
    match lang {
        Lang::Cmn => "zh".into(),
        Lang::Pes => "fa".into(),
        _ => isolang::Language::from_639_3(lang.code())
            .and_then(|l| l.to_639_1())
            .unwrap_or(lang.code())
            .to_string(),
    }
}

fn letters(s: &str) -> usize {
    s.chars().filter(|c| c.is_alphabetic()).count()
}

/// The language of `text`; when the text is too short, of the text with the title and
/// description. `None` when there are no letters to read.
pub fn detect(text: &str, title: &str, description: Option<&str>) -> Option<String> {
    let mut sample: String = text.chars().take(MAX_CHARS).collect();
    if letters(&sample) < MIN_LETTERS {
        sample = format!("{title}\n{}\n{sample}", description.unwrap_or(""));
    }
    if letters(&sample) == 0 {
        return None;
    }
    Detector::new()
        .detect(&sample)
        .map(|info| iso639_1(info.lang()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn five_languages() {
        let cases = [
            ("Правительство России объявило о новых мерах поддержки малого бизнеса в регионах страны.", "ru"),
            ("The government announced new measures to support small businesses across the country.", "en"),
            ("政府宣布了支持全国中小企业的新措施，包括减税和贷款担保。", "zh"),
            ("Η κυβέρνηση ανακοίνωσε νέα μέτρα στήριξης των μικρών επιχειρήσεων σε όλη τη χώρα.", "el"),
            ("Rząd ogłosił nowe środki wsparcia dla małych firm w całym kraju i w regionach.", "pl"),
        ];
        for (text, want) in cases {
            assert_eq!(detect(text, "", None).as_deref(), Some(want), "{text}");
        }
        assert_eq!(detect("", "", None), None);
        // Short text: the title decides.
        assert_eq!(
            detect(
                "OK",
                "Правительство объявило о новых мерах поддержки бизнеса",
                None
            )
            .as_deref(),
            Some("ru")
        );
    }
}
