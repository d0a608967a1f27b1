//! The string functions of the subset, shared by the tokenizer, the parser and both
//! evaluators: XML whitespace, `normalize-space` and `translate`.

/// XML whitespace (XPath 1.0 `S`): space, tab, carriage return, line feed.
pub(super) fn is_xml_space(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\r' | '\n')
}

/// XPath `normalize-space`: runs of XML whitespace become one space, both ends trimmed.
pub(crate) fn normalize_space(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for w in s.split(is_xml_space).filter(|w| !w.is_empty()) {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(w);
    }
    out
}

/// XPath `translate`: each character of `from` becomes the one at the same place in
/// `to` (the first occurrence in `from` counts), or is dropped when `to` is shorter.
pub(super) fn translate(s: &str, from: &str, to: &str) -> String {
    let to: Vec<char> = to.chars().collect();
    s.chars()
        .filter_map(|c| match from.chars().position(|f| f == c) {
            Some(k) => to.get(k).copied(),
            None => Some(c),
        })
        .collect()
}
