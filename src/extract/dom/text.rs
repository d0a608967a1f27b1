//! The text of the block being built: whitespace collapsed, `<pre>` newlines kept, words
//! and words inside links counted, the block closed at a block-level boundary. (The text
//! helpers on rcdom subtrees are in `node_text.rs`.)

use std::borrow::Cow;

use super::build::Builder;
use super::mojibake;
use super::node_text::unspaced_word_len;
use super::{Block, BlockKind, Element, NO_ELEM};

/// A text node's text as a reader sees it: double-encoded UTF-8 read back
/// ([`mojibake::repair`]) and decomposed letters composed ([`composed`]). The flat page
/// model, the title and the rules' text all read text through it, so every method keeps
/// the same words.
pub(crate) fn read_text(s: &str) -> Cow<'_, str> {
    let text = mojibake::repair(s).map_or(Cow::Borrowed(s), Cow::Owned);
    match composed(&text) {
        Some(c) => Cow::Owned(c),
        None => text,
    }
}

/// `s` in Unicode's composed form (NFC), or `None` when it is in it already (all ASCII
/// text, nearly all other text). Text written on some systems (macOS file names and
/// editors) stores `ü` as `u` and a combining diaeresis: a browser shows both the same,
/// but search, dedup and every comparison with text typed elsewhere see other letters,
/// and a word counter sees two words ("gepru" "ft"). trafilatura writes NFC too.
fn composed(s: &str) -> Option<String> {
    if s.is_ascii() {
        return None;
    }
    match icu_normalizer::ComposingNormalizerBorrowed::new_nfc().normalize(s) {
        Cow::Borrowed(_) => None,
        Cow::Owned(t) => Some(t),
    }
}

impl Builder {
    /// Append a text node to the block being built: whitespace runs become one space
    /// (a newline inside `<pre>`), and each run of alphanumeric characters is a word (a
    /// link word inside `<a href>`), except in scripts written without spaces between
    /// words, where runs are sentences: there every [`unspaced_word_len`] letters count
    /// as a word. The text is first read as a reader sees it ([`read_text`]).
    pub(super) fn push_text(&mut self, s: &str) {
        let read = read_text(s);
        let s = &*read;
        if self.pre_depth > 0 {
            self.push_raw(s);
        }
        let in_link = self.link_depth > 0;
        let mut in_word = false;
        // Letters so far in the current run of one unspaced script.
        let mut unspaced_run = 0u32;
        let mut rest = s;
        while let Some(c) = rest.chars().next() {
            // Runs of ASCII are taken whole, with the outcome of the character-by-character
            // loop below (which is what the rest of the text goes through): most text is
            // ASCII, and that loop was the walk's largest cost.
            if c.is_ascii() && !is_ascii_space(c as u8) {
                let run = self.push_ascii_word_run(rest, in_link, &mut in_word);
                unspaced_run = 0;
                rest = &rest[run..];
                continue;
            }
            if c.is_ascii() && self.pre_depth == 0 {
                // Spaces outside `<pre>`: one pending space, as for each of them below.
                in_word = false;
                if !self.text.is_empty() && !self.text.ends_with('\n') {
                    self.space_pending = true;
                }
                let run = rest.bytes().take_while(|&b| is_ascii_space(b)).count();
                rest = &rest[run..];
                continue;
            }
            rest = &rest[c.len_utf8()..];
            if c.is_whitespace() {
                in_word = false;
                if self.pre_depth > 0 && c == '\n' {
                    self.text.push('\n');
                    self.space_pending = false;
                } else if !self.text.is_empty() && !self.text.ends_with('\n') {
                    self.space_pending = true;
                }
                continue;
            }
            if self.space_pending {
                self.text.push(' ');
                self.space_pending = false;
            }
            self.text.push(c);
            if let Some(len) = unspaced_word_len(c) {
                if unspaced_run % len == 0 {
                    self.count_word(in_link, c);
                }
                unspaced_run += 1;
                in_word = false;
                continue;
            }
            unspaced_run = 0;
            let word_char = c.is_alphanumeric();
            if word_char && !in_word {
                self.count_word(in_link, c);
            }
            in_word = word_char;
        }
    }

    /// Append the run of ASCII characters other than whitespace at the start of `rest`
    /// as the loop of [`Builder::push_text`] would, character by character: a pending
    /// space first, then a word at each letter or digit that follows none. Returns the
    /// run's length.
    fn push_ascii_word_run(&mut self, rest: &str, in_link: bool, in_word: &mut bool) -> usize {
        if self.space_pending {
            self.text.push(' ');
            self.space_pending = false;
        }
        let at = self.text.len();
        let mut run = 0;
        for &b in rest.as_bytes() {
            if !b.is_ascii() || is_ascii_space(b) {
                break;
            }
            let word_char = b.is_ascii_alphanumeric();
            if word_char && !*in_word {
                self.count_word_at(in_link, at + run);
            }
            *in_word = word_char;
            run += 1;
        }
        self.text.push_str(&rest[..run]);
        run
    }

    /// Count one word of the block being built, linked or not (its first character
    /// `c` was just pushed).
    fn count_word(&mut self, in_link: bool, c: char) {
        self.count_word_at(in_link, self.text.len() - c.len_utf8());
    }

    /// Count one word of the block being built that starts at byte `at` of its text.
    fn count_word_at(&mut self, in_link: bool, at: usize) {
        self.words += 1;
        self.total_words += 1;
        if in_link {
            self.link_words += 1;
            if !self.unlinked_seen {
                self.lead_link_words += 1;
            }
        } else if !self.unlinked_seen {
            self.unlinked_seen = true;
            self.first_unlinked = at as u32;
        }
    }

    /// End the current block (if it has any text) at a block-level boundary.
    pub(super) fn flush(&mut self) {
        self.space_pending = false;
        if self.words == 0 && self.text.trim().is_empty() {
            self.text.clear();
            self.flush_markup(false);
            return;
        }
        if is_server_error_output(&self.text) {
            // Not the page's text: what the site's software printed about itself.
            self.text.clear();
            self.flush_markup(false);
            self.reset_counts();
            return;
        }
        // Copied out at its size; the buffer keeps its capacity for the next block.
        let text = self.text.trim_end_matches(['\n', ' ']).to_string();
        self.text.clear();
        let elem = if self.current == NO_ELEM {
            0
        } else {
            self.current
        };
        if self.page.elements.is_empty() {
            // Text before any element (only possible in odd documents): give it a root.
            self.page.elements.push(Element {
                tag: "html".into(),
                parent: NO_ELEM,
                end: 1,
                id_class: "".into(),
                role: "".into(),
                sig: 0,
            });
        }
        self.page.blocks.push(Block {
            text,
            words: self.words,
            link_words: self.link_words,
            links: self.links,
            lead_link_words: self.lead_link_words,
            first_unlinked: self.first_unlinked,
            elem,
            kind: self.kind.unwrap_or(BlockKind::Other),
        });
        self.flush_markup(true);
        self.reset_counts();
    }

    /// Zero the word and link counts of the block being built.
    fn reset_counts(&mut self) {
        self.words = 0;
        self.link_words = 0;
        self.links = 0;
        self.lead_link_words = 0;
        self.unlinked_seen = false;
        self.first_unlinked = 0;
    }
}

/// Whether every line of a block is an error message PHP printed into the page
/// ("Warning: Use of undefined constant … in /…/plugin.php on line 928", "Deprecated: …",
/// "Notice: …", "Fatal error: …"): a site's software reporting on itself, never its
/// text, and long enough to outweigh a short post beside it. PHP writes these lines in
/// one format in every language of the page.
fn is_server_error_output(text: &str) -> bool {
    const KINDS: &[&str] = &[
        "Warning:",
        "Notice:",
        "Deprecated:",
        "Strict Standards:",
        "Fatal error:",
        "Parse error:",
        "Catchable fatal error:",
    ];
    let mut lines = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .peekable();
    lines.peek().is_some()
        && lines.all(|l| {
            let l = l.strip_prefix("PHP ").unwrap_or(l);
            KINDS.iter().any(|k| l.starts_with(k))
                && l.rsplit_once(" on line ").is_some_and(|(head, n)| {
                    head.contains(".php") && !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit())
                })
        })
}

/// ASCII whitespace as `char::is_whitespace` has it: tab to carriage return, and space.
fn is_ascii_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t'..=b'\r')
}

#[cfg(test)]
mod tests {
    use super::super::parse;

    fn words_of(html: &str) -> Vec<(u32, u32)> {
        parse(html)
            .blocks
            .iter()
            .map(|b| (b.words, b.link_words))
            .collect()
    }

    #[test]
    fn ascii_runs_read_as_character_by_character() {
        // Whitespace runs, words split by punctuation, a link, non-ASCII letters, and
        // `<pre>`'s newlines (the ASCII runs of `push_text` and its character loop).
        let page =
            parse("<p>  One-two\n <a href=/x>three</a> četiri\t five </p><pre>a\n  b c</pre>");
        let texts: Vec<&str> = page.blocks.iter().map(|b| b.text.as_str()).collect();
        assert_eq!(texts, ["One-two three četiri five", "a\nb c"]);
        assert_eq!(words_of_page(&page), [(5, 1), (3, 0)]);
        assert_eq!(page.blocks[0].first_unlinked, 0);
    }

    fn words_of_page(page: &super::super::PageDom) -> Vec<(u32, u32)> {
        page.blocks
            .iter()
            .map(|b| (b.words, b.link_words))
            .collect()
    }

    #[test]
    fn unspaced_scripts_count_letters_not_runs() {
        // Chinese: one word a letter (punctuation is no letter), links too.
        assert_eq!(words_of("<p>市民借书更方便。</p>"), [(7, 0)]);
        assert_eq!(words_of("<p><a href=/x>国内新闻</a> 2011年</p>"), [(6, 4)]);
        // Japanese kana and kanji alike.
        assert_eq!(words_of("<p>きょうは晴れ</p>"), [(6, 0)]);
        // Thai: three letters a word.
        assert_eq!(words_of("<p>สวัสดีครับ</p>").len(), 1);
        assert!(words_of("<p>สวัสดีครับ</p>")[0].0 >= 2);
        // Spaced scripts and their punctuation: one word a run of letters.
        assert_eq!(
            words_of("<p>Жители Заречья — получат «мост».</p>"),
            [(4, 0)]
        );
        assert_eq!(words_of("<p>Νέα ωράρια; Ναι!</p>"), [(3, 0)]);
        assert_eq!(
            words_of("<p>Radni zdecydowali o budowie hali…</p>"),
            [(5, 0)]
        );
    }
    #[test]
    fn decomposed_letters_are_composed() {
        // `ü` as `u` + U+0308 and `é` as `e` + U+0301, in the text and the title.
        let page = parse(
            "<title>Gepru\u{308}ft</title><p>Besonders bei Babyschalen sollte gepru\u{308}ft werden, cafe\u{301}.</p>",
        );
        assert_eq!(page.title, "Geprüft");
        assert_eq!(
            page.blocks[0].text,
            "Besonders bei Babyschalen sollte geprüft werden, café."
        );
        // One word each, not "gepru" and "ft".
        assert_eq!(page.blocks[0].words, 7);
    }
    #[test]
    fn php_error_output_is_no_block() {
        let page = parse(
            "<div><b>Warning</b>:  Use of undefined constant comments - assumed 'comments' in \
             <b>/var/www/site/wp-content/plugins/recent/recent.php</b> on line <b>928</b><br />\
             <b>Deprecated</b>: Function create_function() is deprecated in <b>/var/www/x.php</b> on line <b>12</b></div>\
             <p>Warning: do not feed the swans on line 4 of the lake path.</p>",
        );
        let texts: Vec<&str> = page.blocks.iter().map(|b| b.text.as_str()).collect();
        assert_eq!(
            texts,
            ["Warning: do not feed the swans on line 4 of the lake path."]
        );
    }
}
