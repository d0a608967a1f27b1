//! The budget of a rule's XPaths on a page. Neither engine can be stopped mid-evaluation,
//! so the cost is estimated before: an XPath visits about N nodes of an N-element page,
//! but each absolute path (`//p`, `/html/…`) or `preceding::`/`following::` axis inside
//! a predicate is walked again for every node the predicate tests, so the cost is
//! N^(1 + nesting) where nesting is how many predicates deep the deepest of them is
//! (`//p[count(//p) > 0]`: N²; 20,000 paragraphs took sxd-xpath 93 s). An XPath whose
//! estimate is over the budget (`xpath_budget`, node visits per XPath per page) is not
//! run on that page: the rule fails there (counted in its `errors`, the page falls back
//! to the next method). `rules check` warns about every such XPath.

/// Node visits an XPath may cost on one page unless the configuration says otherwise:
/// 10 million, which sxd-xpath walks in about 2.5 s (4 M visits/s measured on the
/// quadratic example above) and which a quadratic XPath reaches at about 3,160 elements,
/// more than most pages have. Linear XPaths never reach it (a page has at most
/// `max_page_bytes` / 64 tags, 524,288 at the default).
pub const DEFAULT_XPATH_BUDGET: u64 = 10_000_000;

/// How many predicates deep the deepest absolute path or `preceding::`/`following::`
/// axis inside a predicate is (0: none; the XPath is linear in the page's size).
pub fn nesting(expr: &str) -> u32 {
    let bytes = expr.as_bytes();
    let mut depth = 0u32; // predicates (`[`) open
    let mut deepest = 0u32;
    let mut quote: Option<u8> = None;
    let mut prev: Option<u8> = None; // the last byte that is not whitespace
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if let Some(q) = quote {
            if b == q {
                quote = None;
                prev = Some(b);
            }
            i += 1;
            continue;
        }
        match b {
            b'\'' | b'"' => quote = Some(b),
            b'[' => depth += 1,
            b']' => depth = depth.saturating_sub(1),
            // A `/` that starts a path: not after a step (a name, `*`, `.`, `)`, `]`,
            // `@…` or another `/`), so after `[`, `(`, `,`, an operator or a keyword.
            b'/' if depth > 0 && starts_path(prev, &expr[..i]) => deepest = deepest.max(depth),
            _ if depth > 0
                && (bytes[i..].starts_with(b"preceding::")
                    || bytes[i..].starts_with(b"following::")) =>
            {
                deepest = deepest.max(depth)
            }
            _ => {}
        }
        if !b.is_ascii_whitespace() {
            prev = Some(b);
        }
        i += 1;
    }
    deepest
}

/// Whether a `/` after `before` (whose last non-blank byte is `prev`) starts a path.
fn starts_path(prev: Option<u8>, before: &str) -> bool {
    match prev {
        None => true,
        Some(b'[' | b'(' | b',' | b'=' | b'<' | b'>' | b'|' | b'+' | b'-' | b'!') => true,
        Some(_) => {
            let word = before
                .trim_end()
                .rsplit(|c: char| !c.is_ascii_alphanumeric())
                .next()
                .unwrap_or("");
            let keyword = matches!(word, "and" | "or" | "div" | "mod");
            // `and` ends a name too (`band`): only a separate word is the operator.
            keyword && before.trim_end().len() > word.len() && {
                let rest = &before.trim_end()[..before.trim_end().len() - word.len()];
                rest.ends_with(|c: char| c.is_whitespace() || c == ')' || c == ']')
            }
        }
    }
}

/// The estimated node visits of an XPath of `nesting` on a page of `elements`.
pub fn estimate(elements: usize, nesting: u32) -> u64 {
    (elements.max(1) as u64).saturating_pow(nesting + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nested_absolute_paths_are_found() {
        for (expr, want) in [
            ("//article//p", 0),
            ("//div[@class = 'a']/p", 0),
            ("//div[p/span]", 0),
            ("//p[count(//p) > 0]", 1),
            ("//p[. = /html/head/title]", 1),
            ("//a[//b[//c]]", 2),
            ("//p[preceding::h1]", 1),
            ("//p[contains(., '//x')]", 0),
            ("//p[position() = last()]/a", 0),
            ("//div[@id and //p]", 1),
            ("//div[@band//p]", 0),
            ("(//p)[1]", 0),
        ] {
            assert_eq!(nesting(expr), want, "{expr}");
        }
        assert_eq!(estimate(3000, 0), 3000);
        assert_eq!(estimate(20_000, 1), 400_000_000);
        assert_eq!(estimate(1 << 20, 9), u64::MAX);
    }
}
