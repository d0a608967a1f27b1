//! The `//name[...]` → `/descendant::name[...]` rewrite applied before an XPath is
//! compiled for sxd-xpath, where it means the same: sxd-xpath walks `//` literally and
//! builds the set of every node of the page first (the rewrite measured 335 → 226 µs
//! per rule application).

/// `//name[...]` → `/descendant::name[...]` where that means the same (no positional
/// predicate on the step). sxd-xpath evaluates `//` literally, as
/// `/descendant-or-self::node()/child::name`, building the set of every node of the
/// page first; `descendant::` walks the page once. Other text is left as it is.
pub fn descendant_steps(expr: &str) -> std::borrow::Cow<'_, str> {
    let b = expr.as_bytes();
    let mut out: Option<String> = None;
    let mut copied = 0;
    let mut i = 0;
    while i + 1 < b.len() {
        let c = b[i];
        if c == b'\'' || c == b'"' {
            i = memchr::memchr(c, &b[i + 1..]).map_or(b.len(), |e| i + 1 + e + 1);
            continue;
        }
        if c == b'/' && b[i + 1] == b'/' {
            let name_start = i + 2;
            let mut j = name_start;
            if j < b.len() && b[j] == b'*' {
                j += 1;
            } else {
                while j < b.len()
                    && (b[j].is_ascii_alphanumeric() || matches!(b[j], b'-' | b'_' | b'.'))
                {
                    j += 1;
                }
            }
            let named =
                j > name_start && (b[name_start].is_ascii_alphabetic() || b[name_start] == b'*');
            let next = b.get(j).copied();
            let plain = named && !matches!(next, Some(b'(') | Some(b':'));
            if plain && predicates_not_positional(&expr[j..]) {
                let buf = out.get_or_insert_with(|| String::with_capacity(expr.len() + 16));
                buf.push_str(&expr[copied..i]);
                buf.push_str("/descendant::");
                copied = i + 2;
            }
            i = j.max(i + 2);
            continue;
        }
        i += 1;
    }
    match out {
        None => std::borrow::Cow::Borrowed(expr),
        Some(mut buf) => {
            buf.push_str(&expr[copied..]);
            std::borrow::Cow::Owned(buf)
        }
    }
}

/// Whether the predicates at the start of `rest` (`[..][..]`) are surely boolean and do
/// not depend on the position: no numbers, arithmetic, `position()`, `last()`, or
/// number-valued functions. Conservative: anything doubtful counts as positional.
fn predicates_not_positional(rest: &str) -> bool {
    let b = rest.as_bytes();
    let mut i = 0;
    while i < b.len() && b[i] == b'[' {
        let mut depth = 0;
        let mut j = i;
        let mut quote: Option<u8> = None;
        let mut inner = String::new();
        while j < b.len() {
            let c = b[j];
            match quote {
                Some(q) => {
                    if c == q {
                        quote = None;
                    }
                    inner.push(' ');
                }
                None => {
                    match c {
                        b'\'' | b'"' => quote = Some(c),
                        b'[' => depth += 1,
                        b']' => {
                            depth -= 1;
                            if depth == 0 {
                                break;
                            }
                        }
                        _ => {}
                    }
                    inner.push(c as char);
                }
            }
            j += 1;
        }
        if j >= b.len() {
            return false;
        }
        let ib = inner.as_bytes();
        let numeric = ib.iter().enumerate().any(|(k, &c)| {
            c.is_ascii_digit()
                && (k == 0
                    || !(ib[k - 1].is_ascii_alphanumeric()
                        || ib[k - 1] == b'-'
                        || ib[k - 1] == b'_'))
        });
        let arithmetic = inner.contains('+')
            || inner.contains('*')
            || inner.contains(" - ")
            || inner.contains(" div ")
            || inner.contains(" mod ");
        let functions = [
            "position",
            "last",
            "count",
            "sum",
            "number",
            "string-length",
            "floor",
            "ceiling",
            "round",
        ]
        .iter()
        .any(|f| inner.contains(f));
        if numeric || arithmetic || functions {
            return false;
        }
        i = j + 1;
        while i < b.len() && b[i].is_ascii_whitespace() {
            i += 1;
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extract::dom;
    use crate::extract::xml::{to_xml, XmlOptions};

    #[test]
    fn descendant_rewrite_only_where_equivalent() {
        assert_eq!(
            descendant_steps("//div[@class='a//b']//p"),
            "/descendant::div[@class='a//b']/descendant::p"
        );
        assert_eq!(
            descendant_steps(".//td[contains(@class, 'x')]/p"),
            "./descendant::td[contains(@class, 'x')]/p"
        );
        for same in [
            "//p[1]",
            "//p[last()]",
            "//@content",
            "//text()",
            "//li[position() < 3]",
            "//div[@n + 1]",
            "//p[2][@a]",
        ] {
            assert_eq!(descendant_steps(same), same);
        }
        assert_eq!(
            descendant_steps("//h1[@id='x']|//h2"),
            "/descendant::h1[@id='x']|/descendant::h2"
        );
        // Same results on a page.
        let page =
            dom::parse_page("<div class=a><p>1</p><div><p>2</p><p>3</p></div></div><p>4</p>");
        let package = to_xml(&page.tree, XmlOptions::default());
        let doc = package.as_document();
        for expr in ["//div[@class='a']//p", "//p", "//div//div/p", "//*[@class]"] {
            let a = sxd_xpath::evaluate_xpath(&doc, expr).unwrap();
            let b = sxd_xpath::evaluate_xpath(&doc, &descendant_steps(expr)).unwrap();
            assert_eq!(a, b, "{expr}");
        }
    }
}
