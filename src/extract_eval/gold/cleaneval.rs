//! CleanEval gold standard: a folder of text files (`<id>.txt`), each starting with a
//! `URL: …` line, paragraphs marked `<p>`, headings `<h>`, list items `<l>`. Read as
//! CleanEval's own `cleaneval.py` normalises them — every line starting with `URL`
//! dropped, the three markers (any case) dropped — and scored with the word measure (bag
//! of lower-cased words per page, averaged over pages), not CleanEval's alignment of
//! whitespace-split words, so that figures compare with WCXB's. The URL of the header
//! line matches records by `url` when no file name does.

use std::path::Path;

use super::{files_ending, page_id, read_text, GoldPage, Truth};
use crate::error::Result;

pub(super) fn read(dir: &Path) -> Result<Vec<GoldPage>> {
    let mut pages = Vec::new();
    for file in files_ending(dir, ".txt")? {
        let (url, text) = parse(&read_text(&file)?);
        let name = file.file_name().unwrap_or_default().to_string_lossy();
        let id = page_id(&name).to_string();
        pages.push(GoldPage {
            id: id.clone(),
            keys: vec![id, name.to_string()],
            url,
            page_type: None,
            language: None,
            truth: Truth::Words {
                text,
                chinese: false,
                snippets: None,
            },
        });
    }
    Ok(pages)
}

/// The header's URL and the text without `URL` lines and segment markers.
pub(super) fn parse(raw: &str) -> (Option<String>, String) {
    let mut url = None;
    let mut out = String::with_capacity(raw.len());
    for line in raw.lines() {
        let trimmed = line.trim_start();
        if let Some(rest) = trimmed.strip_prefix("URL") {
            if url.is_none() {
                let u = rest.trim_start_matches([':', ' ', '\t']).trim();
                url = (!u.is_empty()).then(|| u.to_string());
            }
            continue;
        }
        out.push_str(&strip_markers(line));
        out.push('\n');
    }
    (url, out)
}

/// `line` without `<p>`, `<h>`, `<l>` (any case), each replaced by a space.
fn strip_markers(line: &str) -> String {
    let b = line.as_bytes();
    let mut out = String::with_capacity(line.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'<'
            && i + 2 < b.len()
            && matches!(b[i + 1].to_ascii_lowercase(), b'p' | b'h' | b'l')
            && b[i + 2] == b'>'
        {
            out.push(' ');
            i += 3;
            continue;
        }
        let ch = line[i..].chars().next().unwrap_or(' ');
        out.push(ch);
        i += ch.len_utf8();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_and_markers_go() {
        let (url, text) = parse("URL: http://e.org/a.html\n<h>Title\n<P> One two.\n<l>item<p>x\n");
        assert_eq!(url.as_deref(), Some("http://e.org/a.html"));
        assert_eq!(text, " Title\n  One two.\n item x\n");
    }
}
