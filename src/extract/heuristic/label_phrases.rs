//! A short line read as a label phrase: its letters lower-cased, every other character a
//! space, words joined by one space, so that the label lists (closing labels,
//! advertisement labels) and a page's lines compare alike whatever their case and
//! punctuation.

use std::collections::HashSet;

use super::settings::LABEL_MAX_WORDS;

/// A short line's letters (at most [`LABEL_MAX_WORDS`] words), lower-cased, with every
/// other character (punctuation, digits, size marks) a space; `None` for a longer line,
/// told without the copy (the label tests run on every written line). Turkish dotted and
/// dotless i are both `i` (`İLGİLİ` lower-cased is not `ilgili` otherwise).
pub(super) fn label_letters(text: &str) -> Option<String> {
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
pub(super) fn label_phrase(text: &str) -> Option<String> {
    let letters = label_letters(text)?;
    Some(letters.split_whitespace().collect::<Vec<_>>().join(" "))
}

/// A set of label phrases, each written as pages write it ("À lire aussi", "te-ar putea
/// interesa") and kept as [`label_phrase`] reads a line, so that case, accents' marks
/// that are no letters and punctuation are compared alike. Built once; a lookup is a hash.
pub(super) fn phrase_set(phrases: &[&str]) -> HashSet<String> {
    phrases.iter().filter_map(|p| label_phrase(p)).collect()
}
