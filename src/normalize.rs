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

/// A normalizer: tokenizer plus filters.
#[derive(Debug)]
pub struct Normalizer {
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
        Normalizer {
            filters: self.filters,
        }
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
}

impl FromStr for Preset {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "default" => Ok(Preset::Default),
            "words" => Ok(Preset::Words),
            _ => Err(format!(
                "unknown normalization preset `{s}` (default, words)"
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
        }
    }

    /// Call `f` with every normalized token of `text`, in order.
    pub fn for_each_token(&self, text: &str, mut f: impl FnMut(&str)) {
        let mut buf = String::new();
        'tokens: for raw in text.split(|c: char| !is_word_char(c)) {
            if raw.is_empty() {
                continue;
            }
            buf.clear();
            buf.push_str(raw);
            for filter in &self.filters {
                if !filter.apply(&mut buf) {
                    continue 'tokens;
                }
            }
            f(&buf);
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

/// Python's `\w`: letters, digits and the underscore.
pub fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
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
    fn min_length_drops_short_words() {
        let n = Normalizer::builder().filter(MinLength(4)).build();
        assert_eq!(n.tokens("the quick fox jumps"), ["quick", "jumps"]);
    }
}
