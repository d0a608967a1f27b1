//! Text written into Markdown so that it reads back as the same characters (no
//! character of the page's text becomes markup), and text and attribute values written
//! into HTML.

/// Where Markdown text goes: a paragraph keeps line breaks (as hard breaks); a heading
/// and a table cell hold one line; a heading also ends at a `#` run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    Paragraph,
    Heading,
    Cell,
}

/// Appends `text[range]` to `out` escaped for Markdown. `line_start`: whether `out` is
/// at the beginning of a line of content (where `#`, `>`, `-`, `1.` … would start a
/// block); updated. The characters around the range decide whether an `_` could be
/// emphasis.
pub fn markdown(
    out: &mut String,
    text: &str,
    range: std::ops::Range<usize>,
    mode: Mode,
    line_start: &mut bool,
) {
    let seg = &text[range.clone()];
    let before = text[..range.start].chars().next_back();
    let mut prev = before;
    let mut chars = seg.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        let next = seg[i + c.len_utf8()..]
            .chars()
            .next()
            .or_else(|| text[range.end..].chars().next());
        if c == '\n' {
            match mode {
                Mode::Paragraph => {
                    out.push_str("\\\n");
                    *line_start = true;
                }
                Mode::Heading | Mode::Cell => out.push(' '),
            }
            prev = Some(c);
            continue;
        }
        if *line_start {
            *line_start = false;
            if matches!(c, '#' | '>' | '-' | '+' | '=' | '~' | '|' | ':') {
                out.push('\\');
                out.push(c);
                prev = Some(c);
                continue;
            }
            if c.is_ascii_digit() {
                // `2024. ` or `1) ` would begin an ordered list item.
                let run: String = seg[i..].chars().take_while(char::is_ascii_digit).collect();
                let after = seg[i + run.len()..].chars().next();
                if matches!(after, Some('.' | ')')) {
                    out.push_str(&run);
                    out.push('\\');
                    out.push(after.unwrap_or('.'));
                    for _ in 0..run.chars().count() {
                        chars.next();
                    }
                    prev = after;
                    continue;
                }
            }
        }
        let escape = match c {
            '\\' | '`' | '*' | '[' | ']' | '|' | '~' => true,
            '#' => mode == Mode::Heading,
            '_' => {
                !prev.is_some_and(char::is_alphanumeric) || !next.is_some_and(char::is_alphanumeric)
            }
            '<' => next.is_some_and(|n| n.is_ascii_alphabetic() || matches!(n, '/' | '!' | '?')),
            '&' => next.is_some_and(|n| n.is_alphanumeric() || n == '#'),
            _ => false,
        };
        if escape {
            out.push('\\');
        }
        out.push(c);
        prev = Some(c);
    }
}

/// Appends `s` with `&`, `<`, `>` and `"` as HTML character references.
pub fn html(out: &mut String, s: &str) {
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            _ => out.push(c),
        }
    }
}

/// A Markdown link destination: `<…>` when it holds spaces, parentheses escaped.
pub fn destination(url: &str) -> String {
    let mut out = String::with_capacity(url.len() + 2);
    for c in url.chars() {
        match c {
            '(' | ')' | '<' | '>' | '\\' => {
                out.push('\\');
                out.push(c);
            }
            ' ' => out.push_str("%20"),
            _ => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn md(s: &str, mode: Mode) -> String {
        let mut out = String::new();
        markdown(&mut out, s, 0..s.len(), mode, &mut true);
        out
    }

    #[test]
    fn block_starts_and_inline_markup_are_escaped() {
        assert_eq!(md("# not a heading", Mode::Paragraph), "\\# not a heading");
        assert_eq!(md("2024. A year", Mode::Paragraph), "2024\\. A year");
        assert_eq!(
            md("a *b* [c] <div> &amp;", Mode::Paragraph),
            "a \\*b\\* \\[c\\] \\<div> \\&amp;"
        );
        assert_eq!(md("snake_case _x_", Mode::Paragraph), "snake_case \\_x\\_");
        assert_eq!(md("one\n- two", Mode::Paragraph), "one\\\n\\- two");
        assert_eq!(md("a | b\nc", Mode::Cell), "a \\| b c");
        assert_eq!(md("C# 5 #", Mode::Heading), "C\\# 5 \\#");
    }
}
