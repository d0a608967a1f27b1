//! The attribute budget: before parsing, attributes past [`MAX_ATTRIBUTES_PER_TAG`] in one
//! tag, or past the page's budget ([`max_attributes`](super::settings::max_attributes)),
//! are dropped from the source, the tags and all text kept. Attributes cost memory by
//! their number, not their bytes (html5ever keeps each as a qualified name and a value:
//! about 44 bytes each in work for a 3-byte `ab`), and html5ever's tokenizer compares each
//! attribute with the tag's earlier ones (a tag of 20,000 attributes: minutes), so both
//! bounds are counts.

use std::borrow::Cow;

use super::boxes::BOX_ATTR;
use super::limits::find_end_tag;
use super::settings::MAX_ATTRIBUTES_PER_TAG;

/// `html` without the attributes past `MAX_ATTRIBUTES_PER_TAG` in a tag or past `max` in
/// the page, and how many were dropped (0: `html` is returned as it is).
pub fn limit_attributes(html: &str, max: usize) -> (Cow<'_, str>, usize) {
    let bytes = html.as_bytes();
    // An attribute takes two bytes at least (a separator and a name): a page this short
    // cannot exceed either bound.
    if bytes.len() / 2 <= max.min(MAX_ATTRIBUTES_PER_TAG) {
        return (Cow::Borrowed(html), 0);
    }
    let mut out: Option<String> = None;
    let mut copied = 0; // bytes of `html` already handled when rewriting
    let mut total = 0usize;
    let mut dropped = 0usize;
    let mut pos = 0;
    while let Some(off) = memchr::memchr(b'<', &bytes[pos..]) {
        let start = pos + off;
        let rest = &bytes[start + 1..];
        if rest.starts_with(b"!--") {
            pos = memchr::memmem::find(rest, b"-->").map_or(bytes.len(), |e| start + 1 + e + 3);
            continue;
        }
        if !rest.first().is_some_and(u8::is_ascii_alphabetic) {
            // An end tag, a doctype, or a `<` in text: no attributes to count.
            pos = start + 1;
            continue;
        }
        let name_end = start
            + 1
            + rest
                .iter()
                .take_while(|b| !b.is_ascii_whitespace() && **b != b'>' && **b != b'/')
                .count();
        let name = &bytes[start + 1..name_end];
        // The attributes of this tag: each one's span, in order, to the tag's `>`.
        let mut at = name_end;
        let mut in_tag = 0usize;
        loop {
            while at < bytes.len() && (bytes[at].is_ascii_whitespace() || bytes[at] == b'/') {
                at += 1;
            }
            if at >= bytes.len() || bytes[at] == b'>' {
                break;
            }
            let attr_start = at;
            // The name: up to whitespace, `/`, `>` or `=` (a first `=` is part of it).
            at += 1;
            while at < bytes.len()
                && !matches!(bytes[at], b'>' | b'/' | b'=')
                && !bytes[at].is_ascii_whitespace()
            {
                at += 1;
            }
            let attr_name_end = at;
            let mut value_at = at;
            while value_at < bytes.len() && bytes[value_at].is_ascii_whitespace() {
                value_at += 1;
            }
            if value_at < bytes.len() && bytes[value_at] == b'=' {
                at = value_at + 1;
                while at < bytes.len() && bytes[at].is_ascii_whitespace() {
                    at += 1;
                }
                match bytes.get(at) {
                    Some(&q @ (b'"' | b'\'')) => {
                        at =
                            memchr::memchr(q, &bytes[at + 1..]).map_or(bytes.len(), |e| at + 2 + e);
                    }
                    _ => {
                        while at < bytes.len()
                            && bytes[at] != b'>'
                            && !bytes[at].is_ascii_whitespace()
                        {
                            at += 1;
                        }
                    }
                }
            }
            // The browser's box stamp (`boxes.rs`) is not the page's: it costs nothing.
            if bytes[attr_start..attr_name_end].eq_ignore_ascii_case(BOX_ATTR.as_bytes()) {
                continue;
            }
            in_tag += 1;
            total += 1;
            if in_tag > MAX_ATTRIBUTES_PER_TAG || total > max {
                dropped += 1;
                let buf = out.get_or_insert_with(|| String::with_capacity(html.len()));
                // Spans end at ASCII bytes or at the end: character boundaries.
                buf.push_str(&html[copied..attr_start]);
                copied = at.min(bytes.len());
            }
        }
        pos = (at + 1).min(bytes.len());
        if is_raw_text(name) {
            // Its content is text, not tags: skip to its end tag.
            pos = find_end_tag(bytes, pos, name).unwrap_or(bytes.len());
        }
        if pos >= bytes.len() {
            break;
        }
    }
    match out {
        None => (Cow::Borrowed(html), 0),
        Some(mut buf) => {
            buf.push_str(&html[copied..]);
            (Cow::Owned(buf), dropped)
        }
    }
}

/// Elements whose content html5ever reads as text, not markup.
fn is_raw_text(name: &[u8]) -> bool {
    [
        &b"script"[..],
        b"style",
        b"textarea",
        b"title",
        b"xmp",
        b"noembed",
        b"noframes",
        b"iframe",
        b"plaintext",
    ]
    .iter()
    .any(|n| n.eq_ignore_ascii_case(name))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn attributes_past_the_page_budget_are_dropped_keeping_tags_and_text() {
        let page =
            "<p class=a id='x y' title>one</p><p data-x=\"1 > 2\" lang=en>two</p><p a b>three</p>";
        assert_eq!(limit_attributes(page, 100), (Cow::Borrowed(page), 0));
        let (limited, dropped) = limit_attributes(page, 4);
        assert_eq!(dropped, 3);
        assert_eq!(
            limited,
            "<p class=a id='x y' title>one</p><p data-x=\"1 > 2\" >two</p><p  >three</p>"
        );
        let parsed = crate::extract::dom::parse(&limited);
        let text: Vec<&str> = parsed.blocks.iter().map(|b| b.text.as_str()).collect();
        assert_eq!(text.concat(), "onetwothree");
    }

    #[test]
    fn a_tag_keeps_at_most_its_share_of_attributes() {
        let many: String = (0..MAX_ATTRIBUTES_PER_TAG + 5)
            .map(|i| format!(" a{i}=v"))
            .collect();
        let page = format!("<div{many}>text</div><script>var s = '<b x y z>';</script>");
        let (limited, dropped) = limit_attributes(&page, usize::MAX);
        assert_eq!(dropped, 5);
        assert!(limited.ends_with(">text</div><script>var s = '<b x y z>';</script>"));
        assert!(limited.contains(&format!(" a{}=v", MAX_ATTRIBUTES_PER_TAG - 1)));
        assert!(!limited.contains(&format!(" a{}=v", MAX_ATTRIBUTES_PER_TAG)));
    }

    #[test]
    fn cut_tags_and_odd_bytes_do_not_panic() {
        for page in [
            "<p a=\"never closed",
            "<p a=",
            "<p a='x' b",
            "<p é=ü ü>é</p>",
            "<<<<a b c",
            "<!-- <p a b c> -->",
        ] {
            let long = page.repeat(MAX_ATTRIBUTES_PER_TAG);
            let _ = limit_attributes(&long, 3);
        }
    }
}
