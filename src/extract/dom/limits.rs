//! Bounds on pathological nesting. Before parsing, [`limit_nesting`] drops opening tags
//! nested deeper than [`MAX_SOURCE_DEPTH`](super::MAX_SOURCE_DEPTH) in the source
//! (html5ever's tree builder is slow on deep stacks of open elements); while walking,
//! elements deeper than [`MAX_DEPTH`](super::MAX_DEPTH) get no arena entry of their own
//! (see `build.rs`). Both keep all the text. The depth settings live in `settings.rs`.

/// Drop opening tags (and as many closing tags) nested deeper than `max` in the source,
/// keeping all text. Elements whose end tags are optional (`p`, `li`, `td`, …) and void
/// elements are not counted. Pages that stay within `max` are returned as they are.
pub fn limit_nesting(html: &str, max: usize) -> std::borrow::Cow<'_, str> {
    let bytes = html.as_bytes();
    if opening_tags_bound(bytes) <= max {
        // Nesting deeper than `max` takes more than `max` opening tags: this count (one
        // pass of `memchr`) clears most pages (all of ScrapingHub's) without the
        // tag-by-tag scan below, which was 3 % of extraction's time there.
        return std::borrow::Cow::Borrowed(html);
    }
    let mut out: Option<String> = None;
    let mut copied = 0; // bytes of `html` already handled when rewriting
    let mut depth = 0usize;
    let mut suppressed = 0usize;
    let mut pos = 0;
    while let Some(off) = memchr::memchr(b'<', &bytes[pos..]) {
        let start = pos + off;
        let rest = &bytes[start + 1..];
        if rest.starts_with(b"!--") {
            pos = memchr::memmem::find(rest, b"-->").map_or(bytes.len(), |e| start + 1 + e + 3);
            continue;
        }
        let closing = rest.first() == Some(&b'/');
        let name_start = start + 1 + closing as usize;
        let name_len = bytes[name_start..]
            .iter()
            .take_while(|b| b.is_ascii_alphanumeric())
            .count();
        let Some(end) = memchr::memchr(b'>', &bytes[name_start..]).map(|e| name_start + e + 1)
        else {
            break;
        };
        pos = end;
        if name_len == 0 {
            continue;
        }
        // Tag names are short: lower-case into a stack buffer (a longer one is a custom
        // element, counted like any other), compared as bytes (the name is ASCII).
        let mut buf = [0u8; 16];
        let name: &[u8] = if name_len <= buf.len() {
            for (d, s) in buf
                .iter_mut()
                .zip(&bytes[name_start..name_start + name_len])
            {
                *d = s.to_ascii_lowercase();
            }
            &buf[..name_len]
        } else {
            b"-"
        };
        if !closing
            && matches!(
                name,
                b"script"
                    | b"style"
                    | b"textarea"
                    | b"title"
                    | b"xmp"
                    | b"noembed"
                    | b"noframes"
                    | b"iframe"
            )
        {
            // Raw text: skip to the matching end tag (case-insensitive, no copying).
            pos = find_end_tag(bytes, end, name).unwrap_or(bytes.len());
            continue;
        }
        let counted = !bytes[end - 2..end].starts_with(b"/")
            && !matches!(
                name,
                b"p" | b"li"
                    | b"dt"
                    | b"dd"
                    | b"tr"
                    | b"td"
                    | b"th"
                    | b"option"
                    | b"optgroup"
                    | b"thead"
                    | b"tbody"
                    | b"tfoot"
                    | b"colgroup"
                    | b"caption"
                    | b"rp"
                    | b"rt"
                    | b"html"
                    | b"head"
                    | b"body"
                    | b"br"
                    | b"img"
                    | b"input"
                    | b"meta"
                    | b"link"
                    | b"hr"
                    | b"area"
                    | b"base"
                    | b"col"
                    | b"embed"
                    | b"param"
                    | b"source"
                    | b"track"
                    | b"wbr"
            );
        if !counted {
            continue;
        }
        let drop_tag = if closing {
            if suppressed > 0 {
                suppressed -= 1;
                true
            } else {
                depth = depth.saturating_sub(1);
                false
            }
        } else if depth >= max {
            suppressed += 1;
            true
        } else {
            depth += 1;
            false
        };
        if drop_tag {
            let buf = out.get_or_insert_with(|| String::with_capacity(html.len()));
            buf.push_str(&html[copied..start]);
            copied = end;
        }
    }
    match out {
        None => std::borrow::Cow::Borrowed(html),
        Some(mut buf) => {
            buf.push_str(&html[copied..]);
            std::borrow::Cow::Owned(buf)
        }
    }
}

/// `html` cut before its opening tag number `max + 1` (counting every `<` not followed by
/// `/`, as [`opening_tags_bound`] does), and whether it was cut: the bound on a page's
/// nodes, whose memory the tree follows whatever the page's bytes (`settings.rs`,
/// [`max_tags`](super::settings::max_tags)). A page within `max` is returned as it is.
pub fn limit_tags(html: &str, max: usize) -> (&str, bool) {
    let bytes = html.as_bytes();
    if bytes.len() / 2 <= max {
        // An opening tag takes two bytes at least (`<` and a character after it).
        return (html, false);
    }
    let cut = memchr::memchr_iter(b'<', bytes)
        .filter(|&i| bytes.get(i + 1) != Some(&b'/'))
        .nth(max);
    match cut {
        // `<` is ASCII: a character boundary.
        Some(at) => (&html[..at], true),
        None => (html, false),
    }
}

/// An upper bound on the number of opening tags in `bytes`: every `<` not followed by
/// `/` (a comment, a `<` in a script or in text counts too).
fn opening_tags_bound(bytes: &[u8]) -> usize {
    memchr::memchr_iter(b'<', bytes)
        .filter(|&i| bytes.get(i + 1) != Some(&b'/'))
        .count()
}

/// Position of the first `</name` (ASCII case-insensitive) at or after `from`.
pub(super) fn find_end_tag(bytes: &[u8], from: usize, name: &[u8]) -> Option<usize> {
    let mut at = from;
    while let Some(off) = memchr::memmem::find(&bytes[at..], b"</") {
        let start = at + off;
        let rest = &bytes[start + 2..];
        if rest.len() >= name.len() && rest[..name.len()].eq_ignore_ascii_case(name) {
            return Some(start);
        }
        at = start + 2;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::super::parse;
    use super::*;

    #[test]
    fn nesting_beyond_the_limit_is_flattened_keeping_text() {
        let html = format!("{}<b>x</b>{}", "<div>".repeat(10), "</div>".repeat(10));
        assert!(matches!(
            limit_nesting(&html, 11),
            std::borrow::Cow::Borrowed(_)
        ));
        let limited = limit_nesting(&html, 4);
        assert_eq!(
            limited,
            format!("{}x{}", "<div>".repeat(4), "</div>".repeat(4))
        );
        let with_optional = "<p><p><p><li><li><div>t</div><script>\"<div><div>\"</script>";
        assert!(matches!(
            limit_nesting(with_optional, 1),
            std::borrow::Cow::Borrowed(_)
        ));
    }

    #[test]
    fn pages_are_cut_before_the_tag_past_the_budget() {
        let page = "<p>a</p><p>b</p><p>c</p>";
        assert_eq!(limit_tags(page, 3), (page, false));
        assert_eq!(limit_tags(page, 2), ("<p>a</p><p>b</p>", true));
        assert_eq!(limit_tags(page, 0), ("", true));
        let short = "<p>é</p>";
        assert_eq!(limit_tags(short, 100), (short, false));
    }

    #[test]
    fn opening_tags_are_bounded_by_the_brackets_before_a_name() {
        assert_eq!(opening_tags_bound(b""), 0);
        assert_eq!(opening_tags_bound(b"<"), 1);
        assert_eq!(opening_tags_bound(b"<p>a</p><!-- c --><br/>x<y"), 4);
        // At the bound the scan is skipped, and the page is returned as it is.
        let html = "<div><div></div></div>";
        assert_eq!(opening_tags_bound(html.as_bytes()), 2);
        assert!(matches!(
            limit_nesting(html, 2),
            std::borrow::Cow::Borrowed(_)
        ));
        assert_eq!(limit_nesting(html, 1), "<div></div>");
    }

    #[test]
    fn deep_nesting_does_not_overflow_and_keeps_text() {
        let depth = 100_000;
        let html = format!(
            "{}deep text{}",
            "<div>".repeat(depth),
            "</div>".repeat(depth)
        );
        let page = parse(&html);
        assert_eq!(page.blocks.len(), 1);
        assert_eq!(page.blocks[0].text, "deep text");
    }
}
