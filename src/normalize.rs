//! Text normalization before any signature (algorithms.md §1), as a chain of small
//! token filters in the style of tantivy's `TextAnalyzer`:
//!
//! ```
//! use thresher::normalize::{Normalizer, LowerCase, FoldYo, Numbers};
//! let n = Normalizer::builder().filter(LowerCase).filter(FoldYo).filter(Numbers::Drop).build();
//! assert_eq!(n.tokens("Ёжик, 2025 — ЁЛКА!"), ["ежик", "елка"]);
//! ```
//!
//! Tokens are runs of word characters (letters, digits, `_`: Python's `\w`), so
//! punctuation, pseudo-graphics (box drawing, `*★*` runs) and whitespace never reach the
//! filters: they only separate tokens.

use std::str::FromStr;

/// One step of the chain: rewrite the token in place, or return `false` to drop it.
pub trait TokenFilter: Send + Sync + std::fmt::Debug {
    fn apply(&self, token: &mut String) -> bool;
    /// A filter that maps each character on its own (lower-casing, `ё`→`е`) says so;
    /// leading such filters run inside the tokenizer, character by character, which is
    /// several times faster than rewriting tokens. The result is the same.
    fn char_map(&self) -> Option<CharMap> {
        None
    }
}

/// Per-character rewrites the tokenizer applies itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CharMap {
    Lower,
    FoldYo,
}

/// Lower-case (Unicode).
#[derive(Debug, Clone, Copy)]
pub struct LowerCase;
impl TokenFilter for LowerCase {
    fn apply(&self, token: &mut String) -> bool {
        if token.chars().any(|c| c.is_uppercase()) {
            *token = token.to_lowercase();
        }
        true
    }
    fn char_map(&self) -> Option<CharMap> {
        Some(CharMap::Lower)
    }
}

/// `ё` → `е` (Russian texts write both for the same word).
#[derive(Debug, Clone, Copy)]
pub struct FoldYo;
impl TokenFilter for FoldYo {
    fn apply(&self, token: &mut String) -> bool {
        if token.contains(['ё', 'Ё']) {
            *token = token.replace('ё', "е").replace('Ё', "Е");
        }
        true
    }
    fn char_map(&self) -> Option<CharMap> {
        Some(CharMap::FoldYo)
    }
}

/// What to do with tokens made only of digits (dates, counters, prices).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Numbers {
    Keep,
    /// Drop them: auto-generated numbers make true duplicates differ.
    Drop,
    /// Replace each by `0`: keeps positions, forgets values.
    Mask,
}
impl TokenFilter for Numbers {
    fn apply(&self, token: &mut String) -> bool {
        if *self == Numbers::Keep || !token.chars().all(|c| c.is_numeric()) {
            return true;
        }
        if *self == Numbers::Mask {
            token.clear();
            token.push('0');
            return true;
        }
        false
    }
}

/// Drop tokens shorter than `n` characters.
#[derive(Debug, Clone, Copy)]
pub struct MinLength(pub usize);
impl TokenFilter for MinLength {
    fn apply(&self, token: &mut String) -> bool {
        token.chars().count() >= self.0
    }
}

/// Drop function words (stop words) of the given languages. The lists ship with
/// thresher (`src/stopwords/{en,ru}.txt`: the common English and Russian function
/// words, lower-case, `ё` folded); put this filter after `LowerCase`/`FoldYo`.
#[derive(Debug, Clone)]
pub struct StopWords(std::sync::Arc<std::collections::HashSet<&'static str>>);

impl StopWords {
    pub const EN: &'static str = include_str!("stopwords/en.txt");
    pub const RU: &'static str = include_str!("stopwords/ru.txt");

    /// English and Russian together (the corpora mix them; a word of one language is
    /// never a content word of the other).
    pub fn en_ru() -> StopWords {
        static SET: std::sync::OnceLock<std::sync::Arc<std::collections::HashSet<&'static str>>> =
            std::sync::OnceLock::new();
        StopWords(
            SET.get_or_init(|| {
                std::sync::Arc::new(
                    Self::EN
                        .split_whitespace()
                        .chain(Self::RU.split_whitespace())
                        .collect(),
                )
            })
            .clone(),
        )
    }
}

impl TokenFilter for StopWords {
    fn apply(&self, token: &mut String) -> bool {
        !self.0.contains(token.as_str())
    }
}

/// A normalizer: tokenizer plus filters.
#[derive(Debug)]
pub struct Normalizer {
    /// Leading per-character filters, applied while tokenizing.
    char_maps: Vec<CharMap>,
    filters: Vec<Box<dyn TokenFilter>>,
}

/// Builder for [`Normalizer`].
#[derive(Debug, Default)]
pub struct NormalizerBuilder {
    filters: Vec<Box<dyn TokenFilter>>,
}

impl NormalizerBuilder {
    pub fn filter(mut self, f: impl TokenFilter + 'static) -> Self {
        self.filters.push(Box::new(f));
        self
    }
    pub fn build(self) -> Normalizer {
        let mut filters = self.filters;
        let leading = filters
            .iter()
            .take_while(|f| f.char_map().is_some())
            .count();
        let char_maps = filters
            .drain(..leading)
            .filter_map(|f| f.char_map())
            .collect();
        Normalizer { char_maps, filters }
    }
}

/// Named filter chains for `--normalize`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Preset {
    /// Lower-case, `ё`→`е`, standalone numbers dropped (the design's default).
    #[default]
    Default,
    /// Lower-cased word tokens only (`\w+`), numbers kept: the definition the dedup-dev
    /// truth uses.
    Words,
    /// `default` plus stop words (en, ru) and words of 3 characters or fewer dropped:
    /// the canonization of the lexical methods (algorithms.md §1, [003]).
    Lexical,
}

impl FromStr for Preset {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "default" => Ok(Preset::Default),
            "words" => Ok(Preset::Words),
            "lexical" => Ok(Preset::Lexical),
            _ => Err(format!(
                "unknown normalization preset `{s}` (default, words, lexical)"
            )),
        }
    }
}

impl Normalizer {
    pub fn builder() -> NormalizerBuilder {
        NormalizerBuilder::default()
    }

    pub fn preset(preset: Preset) -> Normalizer {
        match preset {
            Preset::Default => Normalizer::builder()
                .filter(LowerCase)
                .filter(FoldYo)
                .filter(Numbers::Drop)
                .build(),
            Preset::Words => Normalizer::builder().filter(LowerCase).build(),
            Preset::Lexical => Normalizer::builder()
                .filter(LowerCase)
                .filter(FoldYo)
                .filter(Numbers::Drop)
                .filter(StopWords::en_ru())
                .filter(MinLength(4))
                .build(),
        }
    }

    /// Call `f` with every normalized token of `text`, in order.
    pub fn for_each_token(&self, text: &str, mut f: impl FnMut(&str)) {
        // Tokens are whole runs of characters (and the filters' output is a `String`),
        // so each is valid UTF-8 again.
        self.for_each_token_bytes(text, |t| {
            f(std::str::from_utf8(t).expect("tokens are whole characters"))
        });
    }

    /// [`Normalizer::for_each_token`] with each token as its UTF-8 bytes: the hot loop of
    /// signing (one call per word of every document), which only hashes them.
    ///
    /// Bytes are classified by one table look-up: ASCII word bytes that need no rewrite
    /// (`a`–`z`, digits, `_`) are the tight loop; the two-byte Cyrillic letters
    /// U+0400–U+045F (all of Russian) are recognised from their two bytes; every other
    /// character takes the general Unicode path. Tokens that need no rewrite are passed
    /// as slices of `text`. `tests::fast_paths_match_the_char_by_char_definition` holds
    /// this to the plain definition.
    pub fn for_each_token_bytes(&self, text: &str, mut f: impl FnMut(&[u8])) {
        let lower = self.char_maps.contains(&CharMap::Lower);
        let fold_yo = self.char_maps.contains(&CharMap::FoldYo);
        let mut buf = String::with_capacity(64);
        let mut word: Vec<u8> = Vec::with_capacity(64);
        let bytes = text.as_bytes();
        let n = bytes.len();
        let mut i = 0;
        loop {
            while i < n && BYTE_CLASS[bytes[i] as usize] == SEP {
                i += 1;
            }
            if i == n {
                return;
            }
            // A run of word characters; note whether a char map would change it.
            let start = i;
            let mut changes = false;
            let mut ascii = true;
            // Only ASCII and two-byte Cyrillic (U+0400–U+045F): rewritten byte-wise.
            let mut ascii_or_cyrillic = true;
            while i < n {
                while i < n && BYTE_CLASS[bytes[i] as usize] == PLAIN {
                    i += 1;
                }
                if i == n {
                    break;
                }
                match BYTE_CLASS[bytes[i] as usize] {
                    PLAIN => i += 1,
                    SEP => break,
                    UPPER => {
                        changes |= lower;
                        i += 1;
                    }
                    // U+0400–U+043F: capitals up to U+042F (second byte below B0), Ё is D0 81.
                    LEAD_D0 => {
                        ascii = false;
                        let second = bytes[i + 1];
                        changes |= (lower && second < 0xB0) || (fold_yo && second == 0x81);
                        i += 2 + lower_cyrillic_run(&bytes[i + 2..]);
                    }
                    // U+0440–U+045F: lower case, ё is D1 91.
                    LEAD_D1 if bytes[i + 1] < 0xA0 => {
                        ascii = false;
                        changes |= fold_yo && bytes[i + 1] == 0x91;
                        i += 2 + lower_cyrillic_run(&bytes[i + 2..]);
                    }
                    _ => {
                        ascii = false;
                        ascii_or_cyrillic = false;
                        let c = text[i..].chars().next().expect("char boundary");
                        if !is_word_char(c) {
                            break;
                        }
                        changes |= (fold_yo && matches!(c, 'ё' | 'Ё'))
                            || (lower && !matches!(c, 'а'..='я') && c.is_uppercase());
                        i += c.len_utf8();
                    }
                }
            }
            if i == start {
                // A character that is not a word character and not ASCII: skip it.
                i += text[i..].chars().next().map_or(1, char::len_utf8);
                continue;
            }
            let run = &bytes[start..i];
            if !changes && self.filters.is_empty() {
                f(run);
                continue;
            }
            buf.clear();
            let run = &text[start..i];
            if !changes {
                buf.push_str(run);
            } else if ascii {
                // Only ASCII capitals change (`changes` is set for them only when lowering).
                buf.push_str(run);
                buf.make_ascii_lowercase();
            } else if ascii_or_cyrillic {
                // A capitalised Russian word: rewritten byte pair by byte pair, without
                // decoding through `chars()` or the Unicode tables.
                word.clear();
                word.extend_from_slice(run.as_bytes());
                lower_cyrillic_word(&mut word, lower, fold_yo);
                if self.filters.is_empty() {
                    f(&word);
                    continue;
                }
                buf.push_str(std::str::from_utf8(&word).expect("letters rewritten to letters"));
            } else {
                for c in run.chars() {
                    if c.is_ascii() {
                        buf.push(if lower { c.to_ascii_lowercase() } else { c });
                        continue;
                    }
                    let c = if fold_yo { fold_yo_char(c) } else { c };
                    if !lower {
                        buf.push(c);
                    } else if let Some(l) = cyrillic_lower(c) {
                        buf.push(if fold_yo { fold_yo_char(l) } else { l });
                    } else if c.is_uppercase() {
                        buf.extend(c.to_lowercase());
                    } else {
                        buf.push(c);
                    }
                }
            }
            if self.filters.iter().all(|filter| filter.apply(&mut buf)) {
                f(buf.as_bytes());
            }
        }
    }

    /// The normalized tokens as owned strings (convenient; the hot path uses
    /// [`Normalizer::for_each_token`]).
    pub fn tokens(&self, text: &str) -> Vec<String> {
        let mut out = Vec::new();
        self.for_each_token(text, |t| out.push(t.to_string()));
        out
    }
}

/// Abbreviations after which a period does not end a sentence (lower-case, without
/// the final period). Single letters (initials: `A. S. Pushkin`, `А. С. Пушкин`) never
/// end one either.
const ABBREVIATIONS: &[&str] = &[
    "mr", "mrs", "ms", "dr", "prof", "st", "vs", "etc", "e.g", "i.e", "no", "fig", "jr", "sr",
    "inc", "ltd", "co", "cf", "approx", "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep",
    "sept", "oct", "nov", "dec", "т.е", "т.д", "т.п", "т.к", "т.н", "и.о", "г", "гг", "др", "им",
    "ул", "стр", "см", "напр", "англ", "рус", "проф", "акад", "тыс", "млн", "млрд", "руб", "коп",
    "т", "с", "п", "рис", "ок",
];

/// Split `text` into sentences (algorithms.md §1): a sentence ends at `.`, `!`, `?`, `…`
/// (with closing quotes/brackets) followed by whitespace and then a capital letter,
/// a digit or an opening quote — except after an initial (one letter) or a known
/// abbreviation — and at every line break (block boundaries: extracted text has one
/// block a line, and a heading or table cell has no final period). Sentences are
/// trimmed; empty ones are skipped.
pub fn sentences(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    for line in text.lines() {
        let mut start = 0;
        let chars: Vec<(usize, char)> = line.char_indices().collect();
        let mut k = 0;
        while k < chars.len() {
            let (pos, c) = chars[k];
            if !matches!(c, '.' | '!' | '?' | '…') {
                k += 1;
                continue;
            }
            // Swallow runs of terminators and closing quotes/brackets.
            let mut end = k + 1;
            while end < chars.len()
                && matches!(
                    chars[end].1,
                    '.' | '!' | '?' | '…' | '"' | '»' | '”' | ')' | '\''
                )
            {
                end += 1;
            }
            let next_visible = chars[end..].iter().find(|(_, c)| !c.is_whitespace());
            let spaced = end < chars.len() && chars[end].1.is_whitespace();
            let starts_new = next_visible.is_some_and(|&(_, n)| {
                n.is_uppercase() || n.is_numeric() || matches!(n, '"' | '«' | '“' | '(' | '—' | '-')
            });
            let boundary = if next_visible.is_none() {
                true
            } else if !spaced || !starts_new {
                false
            } else if c == '.' {
                // The word before the period.
                let before = &line[start..pos];
                let word = before
                    .rsplit(|ch: char| ch.is_whitespace() || ch == '(')
                    .next()
                    .unwrap_or("")
                    .to_lowercase();
                let initial = word.chars().count() == 1 && word.chars().all(char::is_alphabetic);
                !(initial || ABBREVIATIONS.contains(&word.as_str()))
            } else {
                true
            };
            if boundary {
                let end_byte = chars.get(end).map_or(line.len(), |&(p, _)| p);
                let s = line[start..end_byte].trim();
                if !s.is_empty() {
                    out.push(s);
                }
                start = end_byte;
            }
            k = end;
        }
        let s = line[start..].trim();
        if !s.is_empty() {
            out.push(s);
        }
    }
    out
}

const SEP: u8 = 0;
/// `a`–`z`, digits, `_`: word bytes no char map changes.
const PLAIN: u8 = 1;
const UPPER: u8 = 2;
/// Lead bytes of U+0400–U+043F and U+0440–U+047F.
const LEAD_D0: u8 = 3;
const LEAD_D1: u8 = 4;
/// Any other byte of a non-ASCII character.
const OTHER: u8 = 5;

/// The length in bytes of the run of lower-case Russian letters (а–п: D0 B0–BF, р–я:
/// D1 80–8F; no char map changes them) that `bytes` starts with: after a Cyrillic letter
/// the tokenizer takes the rest of a Russian word in this loop, two bytes a step,
/// instead of a class dispatch a letter.
#[inline]
fn lower_cyrillic_run(bytes: &[u8]) -> usize {
    let mut k = 0;
    while k + 1 < bytes.len() {
        match (bytes[k], bytes[k + 1]) {
            (0xD0, 0xB0..=0xBF) | (0xD1, 0x80..=0x8F) => k += 2,
            _ => break,
        }
    }
    k
}

/// `word` (ASCII and two-byte Cyrillic letters U+0400–U+045F only) lower-cased and/or
/// with `ё` folded, as the char-by-char definition does it (`ё`/`Ё` → `е`/`Е` first),
/// rewritten in place (every letter keeps its length): Ѐ–Џ (D0 80–8F) → ѐ–џ (D1 90–9F),
/// А–П (D0 90–9F) → а–п (D0 B0–BF), Р–Я (D0 A0–AF) → р–я (D1 80–8F); Ё is D0 81, ё D1 91,
/// Е D0 95, е D0 B5.
fn lower_cyrillic_word(word: &mut [u8], lower: bool, fold_yo: bool) {
    let mut k = 0;
    while k < word.len() {
        let b = word[k];
        if b < 0x80 {
            if lower {
                word[k] = b.to_ascii_lowercase();
            }
            k += 1;
            continue;
        }
        let (mut lead, mut second) = (b, word[k + 1]);
        if fold_yo {
            match (lead, second) {
                (0xD0, 0x81) => second = 0x95,
                (0xD1, 0x91) => (lead, second) = (0xD0, 0xB5),
                _ => {}
            }
        }
        if lower && lead == 0xD0 {
            match second {
                0x80..=0x8F => (lead, second) = (0xD1, second + 0x10),
                0x90..=0x9F => second += 0x20,
                0xA0..=0xAF => (lead, second) = (0xD1, second - 0x20),
                _ => {}
            }
        }
        word[k] = lead;
        word[k + 1] = second;
        k += 2;
    }
}

/// Byte classes for the tokenizer.
static BYTE_CLASS: [u8; 256] = {
    let mut t = [OTHER; 256];
    let mut b = 0;
    while b < 128 {
        let c = b as u8;
        t[b] = if c.is_ascii_uppercase() {
            UPPER
        } else if c.is_ascii_alphanumeric() || c == b'_' {
            PLAIN
        } else {
            SEP
        };
        b += 1;
    }
    t[0xD0] = LEAD_D0;
    t[0xD1] = LEAD_D1;
    t
};

/// Python's `\w`: letters, digits and the underscore (basic Cyrillic letters checked
/// first: most of the text this reads).
#[inline]
pub fn is_word_char(c: char) -> bool {
    matches!(c, 'а'..='я' | 'А'..='Я' | 'ё' | 'Ё') || c.is_alphanumeric() || c == '_'
}

#[inline]
fn cyrillic_lower(c: char) -> Option<char> {
    match c {
        'а'..='я' | 'ё' => Some(c),
        'А'..='Я' => char::from_u32(c as u32 + 0x20),
        'Ё' => Some('ё'),
        _ => None,
    }
}

#[inline]
fn fold_yo_char(c: char) -> char {
    match c {
        'ё' => 'е',
        'Ё' => 'Е',
        _ => c,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_preset_lowercases_folds_and_drops_numbers() {
        let n = Normalizer::preset(Preset::Default);
        assert_eq!(
            n.tokens("Всё ЁЛКИ 2024 г. — Hello, WORLD!"),
            ["все", "елки", "г", "hello", "world"]
        );
    }

    #[test]
    fn pseudo_graphics_and_punctuation_only_separate() {
        let n = Normalizer::preset(Preset::Default);
        assert_eq!(n.tokens("╔══╗ *L*O*V*E* ... ---"), ["l", "o", "v", "e"]);
    }

    #[test]
    fn words_preset_keeps_numbers() {
        let n = Normalizer::preset(Preset::Words);
        assert_eq!(
            n.tokens("In 2024, snake_case"),
            ["in", "2024", "snake_case"]
        );
    }

    #[test]
    fn numbers_can_be_masked() {
        let n = Normalizer::builder().filter(Numbers::Mask).build();
        assert_eq!(n.tokens("a 12 b"), ["a", "0", "b"]);
    }

    #[test]
    fn lexical_preset_drops_stop_words_and_short_words() {
        let n = Normalizer::preset(Preset::Lexical);
        assert_eq!(
            n.tokens("The cat and the Committee approved это очень важное решение 2024"),
            ["committee", "approved", "важное", "решение"]
        );
    }

    #[test]
    fn sentences_respect_initials_and_abbreviations() {
        let s = sentences(
            "Mr. Smith met A. S. Pushkin at 5 p.m. on Monday. They talked! Then e.g. tea.\n\
             Heading without period\nПисьмо от А. С. Пушкина, т.е. подлинник. Оно лежит в музее, см. рис. 5.",
        );
        assert_eq!(
            s,
            [
                "Mr. Smith met A. S. Pushkin at 5 p.m. on Monday.",
                "They talked!",
                "Then e.g. tea.",
                "Heading without period",
                "Письмо от А. С. Пушкина, т.е. подлинник.",
                "Оно лежит в музее, см. рис. 5.",
            ]
        );
    }

    /// The definition the tokenizer's fast paths must keep: runs of `\w` characters;
    /// in each, `ё`→`е` then lower-casing, character by character; then the filters.
    fn tokens_by_definition(n: &Normalizer, text: &str) -> Vec<String> {
        let lower = n.char_maps.contains(&CharMap::Lower);
        let fold_yo = n.char_maps.contains(&CharMap::FoldYo);
        let mut out = Vec::new();
        for run in text
            .split(|c: char| !is_word_char(c))
            .filter(|r| !r.is_empty())
        {
            let mut token = String::new();
            for c in run.chars() {
                let c = if fold_yo { fold_yo_char(c) } else { c };
                if lower && c.is_uppercase() {
                    token.extend(c.to_lowercase());
                } else {
                    token.push(c);
                }
            }
            if n.filters.iter().all(|f| f.apply(&mut token)) {
                out.push(token);
            }
        }
        out
    }

    #[test]
    fn fast_paths_match_the_char_by_char_definition() {
        // Every class the fast paths tell apart, and their neighbours: ASCII of each
        // class, all of U+0400–U+047F (the two-byte Cyrillic block, including the
        // historic letters past U+045F that take the general path), ё/Ё, other scripts,
        // characters whose lower case is longer (İ) or that are title case (ǅ), marks
        // and symbols that only separate, and 3- and 4-byte characters.
        let mut pool: Vec<char> = ('\u{20}'..='\u{7e}').collect();
        pool.extend('\u{400}'..='\u{47f}');
        pool.extend("ёЁαΩßẞİıǅǄÉéŁł中文١٢\u{a0}\u{301}—«»…№😀\t\n".chars());
        for _ in 0..3 {
            pool.extend('a'..='z'); // long lower-case runs (the tight ASCII loop)
            pool.extend("аоеи    ".chars());
        }
        let normalizers = [
            Normalizer::preset(Preset::Default),
            Normalizer::preset(Preset::Words),
            Normalizer::preset(Preset::Lexical),
            Normalizer::builder().filter(FoldYo).build(),
            Normalizer::builder().build(),
        ];
        let mut state = 0x2545_f491_4f6c_dd1du64;
        for case in 0..4000 {
            let len = case % 97;
            let text: String = (0..len)
                .map(|_| {
                    state = state
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    pool[(state >> 33) as usize % pool.len()]
                })
                .collect();
            for n in &normalizers {
                assert_eq!(
                    n.tokens(&text),
                    tokens_by_definition(n, &text),
                    "{n:?} on {text:?}"
                );
            }
        }
    }

    #[test]
    fn min_length_drops_short_words() {
        let n = Normalizer::builder().filter(MinLength(4)).build();
        assert_eq!(n.tokens("the quick fox jumps"), ["quick", "jumps"]);
    }
}
