//! The tokens of an expression; a character outside the subset's syntax ends the
//! compilation (the expression goes to sxd-xpath).

use super::strings::is_xml_space;

#[derive(Debug, Clone, PartialEq)]
pub(super) enum Tok {
    Slash,
    DSlash,
    LBracket,
    RBracket,
    LParen,
    RParen,
    At,
    Eq,
    Ne,
    Comma,
    Star,
    /// `.`: the context node (only as a string argument in the subset).
    Dot,
    Name(String),
    Lit(String),
    Num(String),
    /// Anything else (`..`, `|`, `::`, `$`, `<`…): the expression is outside the subset.
    Other,
}

pub(super) fn tokenize(expr: &str) -> Option<Vec<Tok>> {
    let mut out = Vec::new();
    let cs: Vec<char> = expr.chars().collect();
    let mut i = 0;
    while i < cs.len() {
        let c = cs[i];
        if is_xml_space(c) {
            i += 1;
            continue;
        }
        let tok = match c {
            '/' if cs.get(i + 1) == Some(&'/') => {
                i += 1;
                Tok::DSlash
            }
            '/' => Tok::Slash,
            '[' => Tok::LBracket,
            ']' => Tok::RBracket,
            '(' => Tok::LParen,
            ')' => Tok::RParen,
            '@' => Tok::At,
            '=' => Tok::Eq,
            '!' if cs.get(i + 1) == Some(&'=') => {
                i += 1;
                Tok::Ne
            }
            ',' => Tok::Comma,
            '*' => Tok::Star,
            // `.` alone: the context node. `..` (the parent) and `.5` are outside.
            '.' if !cs
                .get(i + 1)
                .is_some_and(|&n| n == '.' || n.is_ascii_digit()) =>
            {
                Tok::Dot
            }
            '\'' | '"' => {
                let close = cs[i + 1..].iter().position(|&x| x == c)?;
                let s: String = cs[i + 1..i + 1 + close].iter().collect();
                i += close + 1;
                Tok::Lit(s)
            }
            d if d.is_ascii_digit() => {
                let start = i;
                while i + 1 < cs.len() && (cs[i + 1].is_ascii_digit() || cs[i + 1] == '.') {
                    i += 1;
                }
                Tok::Num(cs[start..=i].iter().collect())
            }
            a if a.is_alphabetic() || a == '_' => {
                let start = i;
                while i + 1 < cs.len()
                    && (cs[i + 1].is_alphanumeric() || matches!(cs[i + 1], '-' | '_' | '.'))
                {
                    i += 1;
                }
                // `a:b` and `axis::` are outside the subset.
                if cs.get(i + 1) == Some(&':') {
                    return None;
                }
                Tok::Name(cs[start..=i].iter().collect())
            }
            _ => Tok::Other,
        };
        if tok == Tok::Other {
            return None;
        }
        out.push(tok);
        i += 1;
    }
    Some(out)
}
