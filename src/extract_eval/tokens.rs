//! Tokens as the benchmarks' Python scorers cut them, so that `eval extract` gives their
//! figures to the last digit: Python's `re` `\w` is a letter (general category L*), a
//! number (N*) or `_`, which is `[\p{L}\p{N}_]` (Rust's own `\w` also takes combining
//! marks and every connector punctuation, and would split Hindi or Thai words
//! differently). Lower-casing is Unicode's full mapping with the final-sigma rule in both
//! languages (`str.lower()`, `str::to_lowercase`).

use std::sync::LazyLock;

use regex::Regex;

static WORD: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"[\p{L}\p{N}_]+").expect("word pattern"));
static LETTER: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"[\p{L}\p{N}]").expect("letter pattern"));

/// `re.findall(r"\w+", text)`: words, case kept.
pub fn words(text: &str) -> Vec<&str> {
    WORD.find_iter(text).map(|m| m.as_str()).collect()
}

/// The WCXB measure's tokens: lower-cased words, or for Chinese (written without spaces
/// between words) each letter or digit (`c.isalnum()`) on its own.
pub fn lower_tokens(text: &str, chinese: bool) -> Vec<String> {
    let low = text.to_lowercase();
    let re = if chinese { &*LETTER } else { &*WORD };
    re.find_iter(&low).map(|m| m.as_str().to_string()).collect()
}

/// Python's `str.isspace()`: Unicode White_Space plus the four ASCII information
/// separators U+001C–U+001F, which Python counts as space and Rust does not.
fn py_space(c: char) -> bool {
    c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c)
}

/// `re.sub(r"\s+", " ", t).strip()`: runs of white space as one space, none at the ends.
pub fn squash_space(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut gap = false;
    for c in text.chars() {
        if py_space(c) {
            gap = true;
        } else {
            if gap && !out.is_empty() {
                out.push(' ');
            }
            gap = false;
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_follow_python() {
        assert_eq!(words("a_b, c-d 42x"), ["a_b", "c", "d", "42x"]);
        // U+0301 (combining acute) is not a Python word character: it splits the word.
        assert_eq!(words("cafe\u{301} ok"), ["cafe", "ok"]);
        assert_eq!(words("x\u{203f}y"), ["x", "y"]);
        assert_eq!(words("²³ Ⅻ"), ["²³", "Ⅻ"]);
    }

    #[test]
    fn lower_tokens_and_chinese() {
        assert_eq!(lower_tokens("ΟΔΟΣ Ab", false), ["οδος", "ab"]);
        assert_eq!(
            lower_tokens("中文，ab_1", true),
            ["中", "文", "a", "b", "1"]
        );
    }

    #[test]
    fn squash_like_python() {
        assert_eq!(squash_space("  a \t\n b\u{1f}c  "), "a b c");
        assert_eq!(squash_space(" \u{a0} "), "");
    }
}
