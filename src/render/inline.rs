//! A block's text with its inline spans, written as Markdown or HTML inline content:
//! emphasis, strong, code, links (when asked) and images (when asked), their addresses
//! made absolute against the page's. Spans are applied nested (one starting inside
//! another ends with it at the latest); a span that cannot be written as markup (a link
//! without a usable address, emphasis inside a word) leaves its text as text.

use url::Url;

use crate::extract::dom::{Markup, Span, SpanKind};

use super::escape::{self, Mode};
use super::layout::Inline;

/// What inline rendering needs besides the text.
pub struct Context<'a> {
    pub markup: Option<&'a Markup>,
    pub base: Option<&'a Url>,
    pub links: bool,
    pub images: bool,
}

/// Address schemes written out; others (`javascript:`, `data:`) are dropped. `file:` only
/// on pages read from files without an address of their own (resolved against theirs).
const SCHEMES: &[&str] = &["http", "https", "mailto", "ftp"];

impl Context<'_> {
    /// `href` as an absolute address of an allowed scheme.
    pub fn resolve(&self, href: &str) -> Option<String> {
        let href = href.trim();
        if href.is_empty() || href.starts_with('#') {
            return None;
        }
        let url = match self.base {
            Some(base) => base.join(href).ok()?,
            None => Url::parse(href).ok()?,
        };
        let local = url.scheme() == "file" && self.base.is_some_and(|b| b.scheme() == "file");
        (SCHEMES.contains(&url.scheme()) || local).then(|| url.to_string())
    }

    /// The spans of `inline` that apply: within its text, wanted by the options.
    fn spans(&self, inline: &Inline<'_>) -> Vec<Span> {
        let (Some(m), Some(b)) = (self.markup, inline.block) else {
            return Vec::new();
        };
        let len = inline.text.len() as u32;
        m.spans(b)
            .iter()
            .filter(|s| s.start <= len)
            .filter(|s| match s.kind {
                SpanKind::Link(_) => self.links,
                SpanKind::Image { .. } => self.images,
                _ => true,
            })
            .map(|s| Span {
                end: s.end.min(len),
                ..s.clone()
            })
            .collect()
    }
}

/// How a span is opened in HTML.
enum Open {
    Tag(&'static str),
    Link(String),
    /// Written whole at its opening (code, images).
    Whole,
}

/// `inline` as Markdown.
pub fn markdown(inline: &Inline<'_>, ctx: &Context<'_>, mode: Mode) -> String {
    let text = inline.text;
    let mut out = String::with_capacity(text.len() + 16);
    let mut line_start = true;
    let mut pos = 0usize;
    let mut stack: Vec<(usize, SpanKind, String)> = Vec::new();
    let write = |out: &mut String, from: usize, to: usize, line_start: &mut bool| {
        if to > from {
            escape::markdown(out, text, from..to, mode, line_start);
        }
    };
    for span in ctx.spans(inline) {
        let (start, end) = (span.start as usize, span.end as usize);
        if start < pos || !text.is_char_boundary(start) || !text.is_char_boundary(end) {
            continue;
        }
        while let Some(&(top_end, _, _)) = stack.last() {
            if top_end > start {
                break;
            }
            write(&mut out, pos, top_end, &mut line_start);
            pos = top_end;
            let (_, _, closer) = stack.pop().expect("checked above");
            out.push_str(&closer);
        }
        let end = stack.last().map_or(end, |&(e, _, _)| end.min(e));
        if stack.iter().any(|(_, k, _)| same_kind(k, &span.kind)) {
            continue;
        }
        let Some((start, end)) = trimmed(text, start, end, &span.kind) else {
            continue;
        };
        write(&mut out, pos, start, &mut line_start);
        pos = start;
        match &span.kind {
            SpanKind::Emphasis | SpanKind::Strong => {
                if in_word(text, start, end) {
                    continue;
                }
                let marker = if span.kind == SpanKind::Strong {
                    "**"
                } else {
                    "*"
                };
                out.push_str(marker);
                line_start = false;
                stack.push((end, span.kind.clone(), marker.to_string()));
            }
            SpanKind::Code(_) => {
                if in_word(text, start, end) {
                    continue;
                }
                code_span(&mut out, &text[start..end], mode);
                line_start = false;
                pos = end;
            }
            SpanKind::Link(href) => {
                let Some(url) = ctx.resolve(href) else {
                    continue;
                };
                if out.ends_with('!') {
                    // `![` would open an image.
                    out.pop();
                    out.push_str("\\!");
                }
                out.push('[');
                line_start = false;
                stack.push((
                    end,
                    span.kind.clone(),
                    format!("]({})", escape::destination(&url)),
                ));
            }
            SpanKind::Image { src, alt } => {
                let Some(url) = ctx.resolve(src) else {
                    continue;
                };
                out.push_str("![");
                let mut ls = false;
                escape::markdown(&mut out, alt, 0..alt.len(), Mode::Cell, &mut ls);
                out.push_str("](");
                out.push_str(&escape::destination(&url));
                out.push(')');
                line_start = false;
            }
        }
    }
    while let Some((end, _, closer)) = stack.pop() {
        write(&mut out, pos, end, &mut line_start);
        pos = end;
        out.push_str(&closer);
    }
    write(&mut out, pos, text.len(), &mut line_start);
    out
}

/// `inline` as HTML.
pub fn html(inline: &Inline<'_>, ctx: &Context<'_>) -> String {
    let text = inline.text;
    let mut out = String::with_capacity(text.len() + 16);
    let mut pos = 0usize;
    let mut stack: Vec<(usize, SpanKind, &'static str)> = Vec::new();
    let write = |out: &mut String, from: usize, to: usize| {
        for (k, line) in text[from..to].split('\n').enumerate() {
            if k > 0 {
                out.push_str("<br>");
            }
            escape::html(out, line);
        }
    };
    for span in ctx.spans(inline) {
        let (start, end) = (span.start as usize, span.end as usize);
        if start < pos || !text.is_char_boundary(start) || !text.is_char_boundary(end) {
            continue;
        }
        while let Some(&(top_end, _, _)) = stack.last() {
            if top_end > start {
                break;
            }
            write(&mut out, pos, top_end);
            pos = top_end;
            let (_, _, closer) = stack.pop().expect("checked above");
            out.push_str(closer);
        }
        let end = stack.last().map_or(end, |&(e, _, _)| end.min(e));
        if stack.iter().any(|(_, k, _)| same_kind(k, &span.kind)) {
            continue;
        }
        let Some((start, end)) = trimmed(text, start, end, &span.kind) else {
            continue;
        };
        write(&mut out, pos, start);
        pos = start;
        let open = match &span.kind {
            SpanKind::Emphasis => Open::Tag("em"),
            SpanKind::Strong => Open::Tag("strong"),
            SpanKind::Code(_) => {
                out.push_str("<code>");
                write(&mut out, start, end);
                out.push_str("</code>");
                pos = end;
                Open::Whole
            }
            SpanKind::Link(href) => match ctx.resolve(href) {
                Some(url) => Open::Link(url),
                None => continue,
            },
            SpanKind::Image { src, alt } => {
                if let Some(url) = ctx.resolve(src) {
                    out.push_str("<img src=\"");
                    escape::html(&mut out, &url);
                    out.push_str("\" alt=\"");
                    escape::html(&mut out, alt);
                    out.push_str("\">");
                }
                Open::Whole
            }
        };
        match open {
            Open::Tag(tag) => {
                out.push('<');
                out.push_str(tag);
                out.push('>');
                let closer = if tag == "em" { "</em>" } else { "</strong>" };
                stack.push((end, span.kind.clone(), closer));
            }
            Open::Link(url) => {
                out.push_str("<a href=\"");
                escape::html(&mut out, &url);
                out.push_str("\">");
                stack.push((end, span.kind.clone(), "</a>"));
            }
            Open::Whole => {}
        }
    }
    while let Some((end, _, closer)) = stack.pop() {
        write(&mut out, pos, end);
        pos = end;
        out.push_str(closer);
    }
    write(&mut out, pos, text.len());
    out
}

fn same_kind(a: &SpanKind, b: &SpanKind) -> bool {
    std::mem::discriminant(a) == std::mem::discriminant(b)
}

/// The span's range without whitespace at its ends (emphasis and links cannot begin or
/// end with a space in Markdown); `None` when nothing is left (images are empty spans).
fn trimmed(text: &str, start: usize, end: usize, kind: &SpanKind) -> Option<(usize, usize)> {
    if matches!(kind, SpanKind::Image { .. }) {
        return Some((start, start));
    }
    let inner = &text[start..end];
    let lead = inner.len() - inner.trim_start().len();
    let trail = inner.len() - inner.trim_end().len();
    let (s, e) = (start + lead, end - trail);
    (s < e).then_some((s, e))
}

/// Whether `start..end` begins or ends inside a word (a letter or digit on both sides
/// of a boundary): emphasis or code markers there could split the word when they do not
/// pair (two code spans in a row, `` `a``b` ``).
fn in_word(text: &str, start: usize, end: usize) -> bool {
    let alnum = |c: Option<char>| c.is_some_and(char::is_alphanumeric);
    (alnum(text[..start].chars().next_back()) && alnum(text[start..].chars().next()))
        || (alnum(text[..end].chars().next_back()) && alnum(text[end..].chars().next()))
}

/// A code span: backticks one more than the longest run inside, padded when the code
/// begins or ends with a backtick; line breaks become spaces; in a table cell, `|`
/// escaped.
fn code_span(out: &mut String, code: &str, mode: Mode) {
    let mut code = code.replace('\n', " ");
    if mode == Mode::Cell {
        // GitHub tables split cells at every unescaped `|`, inside code too.
        code = code.replace('|', "\\|");
    }
    let longest = code.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(longest + 1);
    let pad = if code.starts_with('`') || code.ends_with('`') {
        " "
    } else {
        ""
    };
    out.push_str(&fence);
    out.push_str(pad);
    out.push_str(&code);
    out.push_str(pad);
    out.push_str(&fence);
}
