//! XPaths compiled and validated once, when the rule files are loaded: parsing with
//! sxd-xpath (and, since its errors carry no position, finding where the expression goes
//! wrong), and everything else `rules check` can know without a page — only XPath 1.0
//! core functions, no variables or namespace prefixes, and on a small probe page a
//! result of the kind the XPath's [`Role`] needs, never the whole document.

use sxd_xpath::{Value, XPath};

use super::sxd::{is_whole_document, node_path, value_kind, XPATH_CONTEXT};
use super::Role;

/// Why an XPath is not acceptable, and where in it (byte offset), when known.
#[derive(Debug, Clone, PartialEq)]
pub struct XpathError {
    pub offset: Option<usize>,
    pub message: String,
}

/// XPath 1.0 core functions, the ones sxd-xpath provides.
const FUNCTIONS: &[&str] = &[
    "last",
    "position",
    "count",
    "local-name",
    "namespace-uri",
    "name",
    "string",
    "concat",
    "starts-with",
    "contains",
    "substring-before",
    "substring-after",
    "substring",
    "string-length",
    "normalize-space",
    "translate",
    "boolean",
    "not",
    "true",
    "false",
    "number",
    "sum",
    "floor",
    "ceiling",
    "round",
];

/// Parse an XPath; on failure, find where it goes wrong.
pub fn compile(expr: &str) -> Result<XPath, XpathError> {
    let factory = sxd_xpath::Factory::new();
    match factory.build(expr) {
        Ok(Some(x)) => Ok(x),
        Ok(None) => Err(XpathError {
            offset: None,
            message: "empty XPath".into(),
        }),
        Err(e) => Err(XpathError {
            offset: Some(error_offset(&factory, expr)),
            message: format!("does not parse: {}", parse_error_text(&e.to_string())),
        }),
    }
}

fn parse_error_text(raw: &str) -> String {
    let known = [
        (
            "RightHandSideExpressionMissing",
            "an operator has no right-hand side",
        ),
        (
            "ExtraUnparsedTokens",
            "unexpected text after the end of the expression",
        ),
        (
            "RanOutOfInput",
            "the expression ends too early (an unclosed `[` or `(`?)",
        ),
        ("TrailingSlash", "it ends with `/`"),
        ("EmptyPredicate", "empty predicate `[]`"),
        ("ArgumentMissing", "a function argument is missing"),
        ("MismatchedQuoteCharacters", "unclosed string literal"),
    ];
    known
        .iter()
        .find(|(k, _)| raw.contains(k))
        .map_or_else(|| raw.to_string(), |(_, v)| v.to_string())
}

/// The offset of the first character after which no continuation can make `expr`
/// valid. sxd-xpath's errors carry no position, so each prefix is tried with a few
/// plausible endings (close the open string, add an operand, close the open brackets).
fn error_offset(factory: &sxd_xpath::Factory, expr: &str) -> usize {
    for (i, c) in expr.char_indices() {
        let prefix = &expr[..i + c.len_utf8()];
        let (quote, closers) = open_constructs(prefix);
        let viable = ["", "x", "'x'", "1", "*", "/x", "x='x'"]
            .iter()
            .any(|middle| {
                let mut candidate = prefix.to_string();
                if let Some(q) = quote {
                    candidate.push(q);
                }
                candidate.push_str(middle);
                candidate.extend(closers.iter().rev());
                matches!(factory.build(&candidate), Ok(Some(_)))
            });
        if !viable {
            return i;
        }
    }
    expr.len()
}

/// The string quote still open at the end of `prefix`, and the brackets to close.
fn open_constructs(prefix: &str) -> (Option<char>, Vec<char>) {
    let mut quote = None;
    let mut closers = Vec::new();
    for c in prefix.chars() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None => match c {
                '\'' | '"' => quote = Some(c),
                '[' => closers.push(']'),
                '(' => closers.push(')'),
                ']' | ')' => {
                    closers.pop();
                }
                _ => {}
            },
        }
    }
    (quote, closers)
}
/// Everything `rules check` can know about an XPath without a page: it parses, calls
/// only functions that exist, uses no variables or namespace prefixes, and on a small
/// probe document gives the kind of result its role needs without selecting the whole
/// document.
pub fn check_xpath(expr: &str, role: Role) -> Result<(), XpathError> {
    let compiled = compile(expr)?;
    static_check(expr)?;
    let package = sxd_document::parser::parse(PROBE).expect("probe document parses");
    let doc = package.as_document();
    let v = XPATH_CONTEXT
        .with(|ctx| compiled.evaluate(ctx, doc.root()))
        .map_err(|e| XpathError {
            offset: None,
            message: format!("fails when evaluated: {e}"),
        })?;
    match (&v, role) {
        (Value::Nodeset(ns), Role::Content | Role::Remove) => {
            if let Some(n) = ns.iter().find(|n| is_whole_document(*n)) {
                return Err(XpathError {
                    offset: None,
                    message: format!(
                        "selects the whole document (`{}` on every page)",
                        node_path(n)
                    ),
                });
            }
            Ok(())
        }
        (_, Role::Content | Role::Remove) => Err(XpathError {
            offset: None,
            message: format!("must select nodes, but gives a {}", value_kind(&v)),
        }),
        _ => Ok(()),
    }
}

/// A small page with the usual skeleton, to evaluate XPaths on in `check`.
const PROBE: &str = "<html><head><title>t</title><meta name=\"description\" content=\"d\"/></head>\
<body><div id=\"page\" class=\"page\"><h1>h</h1><p class=\"text\">p <a href=\"/\">a</a></p></div></body></html>";

fn static_check(expr: &str) -> Result<(), XpathError> {
    let b = expr.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c == b'\'' || c == b'"' {
            i = memchr::memchr(c, &b[i + 1..]).map_or(b.len(), |e| i + 1 + e + 1);
            continue;
        }
        if c == b'$' {
            return Err(XpathError {
                offset: Some(i),
                message: "variables are not available in rules".into(),
            });
        }
        if c.is_ascii_alphabetic() || c == b'_' {
            let start = i;
            while i < b.len()
                && (b[i].is_ascii_alphanumeric() || matches!(b[i], b'-' | b'_' | b'.'))
            {
                i += 1;
            }
            let name = &expr[start..i];
            if i + 1 < b.len() && b[i] == b':' && b[i + 1] != b':' {
                return Err(XpathError {
                    offset: Some(start),
                    message: format!(
                        "namespace prefix `{name}:` cannot match: elements have no namespace"
                    ),
                });
            }
            let mut j = i;
            while j < b.len() && b[j].is_ascii_whitespace() {
                j += 1;
            }
            if j < b.len()
                && b[j] == b'('
                && !FUNCTIONS.contains(&name)
                && !matches!(
                    name,
                    "node"
                        | "text"
                        | "comment"
                        | "processing-instruction"
                        | "and"
                        | "or"
                        | "div"
                        | "mod"
                )
            {
                return Err(XpathError {
                    offset: Some(start),
                    message: format!("unknown function `{name}()` (XPath 1.0 core functions only)"),
                });
            }
            continue;
        }
        i += 1;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn error_offsets_point_into_the_expression() {
        let e = compile("//div[@class=='a']").unwrap_err();
        assert_eq!(e.offset, Some(13));
        let e = compile("//div[@id='a']]").unwrap_err();
        assert_eq!(e.offset, Some(14));
        let e = compile("//div[contains(@class 'x')]").unwrap_err();
        assert_eq!(e.offset, Some(22));
    }
}
