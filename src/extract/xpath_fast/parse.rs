//! The recursive-descent parser of the subset: location paths with predicates, boolean
//! and string expressions, string function calls ([`Plan::compile`],
//! [`StrPlan::compile`]). It returns `None` as soon as the expression leaves the subset.

use html5ever::LocalName;

use super::plan::{BExpr, Plan, Pred, SExpr, Step};
use super::str_plan::{StrPlan, TExpr};
use super::strings::is_xml_space;
use super::tokens::{tokenize, Tok};
use crate::extract::xml::is_xml_name;

/// `concat(' ', normalize-space(@a), ' ')` tested for `' w '` (one word, no spaces):
/// the class-token idiom, decided without building the strings.
fn word_test(parts: &[SExpr], v: &str) -> Option<BExpr> {
    let [SExpr::Lit(l), SExpr::NormalizeSpace(inner), SExpr::Lit(r)] = parts else {
        return None;
    };
    let SExpr::Attr(a) = &**inner else {
        return None;
    };
    let w = v.strip_prefix(' ')?.strip_suffix(' ')?;
    (l == " " && r == " " && !w.is_empty() && !w.contains(is_xml_space))
        .then(|| BExpr::AttrWord(a.clone(), w.to_string()))
}

impl Plan {
    /// Compile `expr` when it is inside the subset; `None` otherwise.
    pub fn compile(expr: &str) -> Option<Plan> {
        let tokens = tokenize(expr)?;
        let mut p = Parser { t: &tokens, i: 0 };
        let plan = p.path()?;
        (p.i == tokens.len()).then_some(plan)
    }
}

impl StrPlan {
    /// Compile a string function call of the subset; `None` otherwise (a bare path is
    /// a [`Plan`]).
    pub fn compile(expr: &str) -> Option<StrPlan> {
        let tokens = tokenize(expr)?;
        let mut p = Parser { t: &tokens, i: 0 };
        if !matches!(p.peek(), Some(Tok::Name(_))) {
            return None;
        }
        let e = p.text()?;
        (p.i == tokens.len()).then_some(StrPlan(e))
    }
}

pub(super) struct Parser<'t> {
    pub(super) t: &'t [Tok],
    pub(super) i: usize,
}

impl Parser<'_> {
    pub(super) fn peek(&self) -> Option<&Tok> {
        self.t.get(self.i)
    }

    fn peek_at(&self, k: usize) -> Option<&Tok> {
        self.t.get(self.i + k)
    }

    fn eat(&mut self, t: &Tok) -> bool {
        if self.peek() == Some(t) {
            self.i += 1;
            true
        } else {
            false
        }
    }

    pub(super) fn path(&mut self) -> Option<Plan> {
        let mut steps = Vec::new();
        let mut attr = None;
        loop {
            let descendant = match self.peek() {
                Some(Tok::Slash) => false,
                Some(Tok::DSlash) => true,
                _ if !steps.is_empty() => break,
                _ => return None,
            };
            self.i += 1;
            if self.eat(&Tok::At) {
                let Some(Tok::Name(n)) = self.peek().cloned() else {
                    return None;
                };
                self.i += 1;
                if !is_xml_name(&n) {
                    return None;
                }
                attr = Some((descendant, n));
                break;
            }
            let name = match self.peek().cloned() {
                Some(Tok::Star) => None,
                Some(Tok::Name(n)) => {
                    if self.peek_at(1) == Some(&Tok::LParen) {
                        return None; // node(), text()…
                    }
                    Some(LocalName::from(n.as_str()))
                }
                _ => return None,
            };
            self.i += 1;
            let mut preds = Vec::new();
            while self.eat(&Tok::LBracket) {
                let pred = match (self.peek().cloned(), self.peek_at(1)) {
                    (Some(Tok::Num(n)), Some(Tok::RBracket)) => {
                        self.i += 1;
                        let k: usize = n.parse().ok()?;
                        if k == 0 {
                            return None;
                        }
                        Pred::Position(k)
                    }
                    _ => Pred::Bool(self.or()?),
                };
                if !self.eat(&Tok::RBracket) {
                    return None;
                }
                preds.push(pred);
            }
            steps.push(Step {
                descendant,
                name,
                preds,
            });
        }
        if steps.is_empty() && attr.is_none() {
            return None;
        }
        Some(Plan { steps, attr })
    }

    /// The arguments of a function call up to and including its `)` (the name and `(`
    /// already consumed), each parsed by `arg`.
    fn call_args<T>(&mut self, arg: fn(&mut Self) -> Option<T>) -> Option<Vec<T>> {
        let mut args = Vec::new();
        if self.peek() != Some(&Tok::RParen) {
            loop {
                args.push(arg(self)?);
                if !self.eat(&Tok::Comma) {
                    break;
                }
            }
        }
        self.eat(&Tok::RParen).then_some(args)
    }

    /// A string expression at the top level (see [`StrPlan`](super::StrPlan)).
    pub(super) fn text(&mut self) -> Option<TExpr> {
        match self.peek().cloned()? {
            Tok::Lit(s) => {
                self.i += 1;
                Some(TExpr::Lit(s))
            }
            Tok::Slash | Tok::DSlash => Some(TExpr::Path(self.path()?)),
            Tok::Name(f) if self.peek_at(1) == Some(&Tok::LParen) => {
                self.i += 2;
                let args = self.call_args(Self::text)?;
                let mut a = args.into_iter().map(Box::new);
                let e = match (f.as_str(), a.len()) {
                    ("normalize-space", 1) => TExpr::NormalizeSpace(a.next()?),
                    ("string", 1) => *a.next()?,
                    ("substring-before", 2) => TExpr::Before(a.next()?, a.next()?),
                    ("substring-after", 2) => TExpr::After(a.next()?, a.next()?),
                    ("translate", 3) => TExpr::Translate(a.next()?, a.next()?, a.next()?),
                    ("concat", n) if n >= 2 => TExpr::Concat(a.map(|b| *b).collect()),
                    _ => return None,
                };
                Some(e)
            }
            _ => None,
        }
    }

    fn keyword(&self, k: &str) -> bool {
        matches!(self.peek(), Some(Tok::Name(n)) if n == k)
    }

    fn or(&mut self) -> Option<BExpr> {
        let mut left = self.and()?;
        while self.keyword("or") {
            self.i += 1;
            let right = self.and()?;
            left = BExpr::Or(Box::new(left), Box::new(right));
        }
        Some(left)
    }

    fn and(&mut self) -> Option<BExpr> {
        let mut left = self.comparison()?;
        while self.keyword("and") {
            self.i += 1;
            let right = self.comparison()?;
            left = BExpr::And(Box::new(left), Box::new(right));
        }
        Some(left)
    }

    /// A boolean primary, or a string expression compared with `=` / `!=`.
    fn comparison(&mut self) -> Option<BExpr> {
        // Boolean primaries first.
        match (self.peek().cloned(), self.peek_at(1)) {
            (Some(Tok::LParen), _) => {
                self.i += 1;
                let e = self.or()?;
                if !self.eat(&Tok::RParen) {
                    return None;
                }
                return self.no_comparison_after(e);
            }
            (Some(Tok::Name(n)), Some(Tok::LParen))
                if matches!(n.as_str(), "not" | "contains" | "starts-with") =>
            {
                self.i += 2;
                let e = match n.as_str() {
                    "not" => BExpr::Not(Box::new(self.or()?)),
                    _ => {
                        let a = self.string()?;
                        if !self.eat(&Tok::Comma) {
                            return None;
                        }
                        let b = self.string()?;
                        let contains = n == "contains";
                        match (a, b) {
                            (SExpr::Attr(a), SExpr::Lit(v)) => BExpr::AttrHas(a, v, !contains),
                            (SExpr::Concat(parts), SExpr::Lit(v)) if contains => {
                                match word_test(&parts, &v) {
                                    Some(e) => e,
                                    None => BExpr::Contains(SExpr::Concat(parts), SExpr::Lit(v)),
                                }
                            }
                            (a, b) if contains => BExpr::Contains(a, b),
                            (SExpr::Dot, SExpr::Lit(v)) => BExpr::TextStarts(v, false),
                            (SExpr::NormalizeSpace(a), SExpr::Lit(v))
                                if matches!(*a, SExpr::Dot) =>
                            {
                                BExpr::TextStarts(v, true)
                            }
                            (a, b) => BExpr::StartsWith(a, b),
                        }
                    }
                };
                if !self.eat(&Tok::RParen) {
                    return None;
                }
                return self.no_comparison_after(e);
            }
            _ => {}
        }
        let left = self.string()?;
        let neg = match self.peek() {
            Some(Tok::Eq) => false,
            Some(Tok::Ne) => true,
            _ => {
                // A bare string expression as a boolean: only `@a` (existence).
                return match left {
                    SExpr::Attr(a) => Some(BExpr::HasAttr(a)),
                    _ => None,
                };
            }
        };
        self.i += 1;
        let right = self.string()?;
        Some(match (left, right) {
            (SExpr::Attr(a), SExpr::Lit(v)) | (SExpr::Lit(v), SExpr::Attr(a)) => {
                BExpr::AttrCmp(a, v, neg)
            }
            // A bare attribute compared with anything else is a node-set comparison.
            (SExpr::Attr(_), _) | (_, SExpr::Attr(_)) => return None,
            (l, r) => BExpr::StrCmp(l, r, neg),
        })
    }

    /// `not(x) = …` compares booleans: outside the subset.
    fn no_comparison_after(&self, e: BExpr) -> Option<BExpr> {
        match self.peek() {
            Some(Tok::Eq) | Some(Tok::Ne) => None,
            _ => Some(e),
        }
    }

    fn string(&mut self) -> Option<SExpr> {
        match self.peek().cloned()? {
            Tok::At => {
                self.i += 1;
                let Some(Tok::Name(n)) = self.peek().cloned() else {
                    return None;
                };
                self.i += 1;
                if !is_xml_name(&n) || self.peek() == Some(&Tok::LParen) {
                    return None;
                }
                Some(SExpr::Attr(n))
            }
            Tok::Lit(s) => {
                self.i += 1;
                Some(SExpr::Lit(s))
            }
            Tok::Dot => {
                self.i += 1;
                Some(SExpr::Dot)
            }
            Tok::Name(f) if self.peek_at(1) == Some(&Tok::LParen) => {
                self.i += 2;
                let mut args = self.call_args(Self::string)?;
                match (f.as_str(), args.len()) {
                    ("normalize-space", 1) => {
                        Some(SExpr::NormalizeSpace(Box::new(args.pop().expect("one"))))
                    }
                    ("concat", n) if n >= 2 => Some(SExpr::Concat(args)),
                    ("translate", 3) => {
                        let to = args.pop().expect("three");
                        let from = args.pop().expect("three");
                        let s = args.pop().expect("three");
                        Some(SExpr::Translate(Box::new(s), Box::new(from), Box::new(to)))
                    }
                    _ => None,
                }
            }
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_subset_compiles_and_the_rest_does_not() {
        for ok in [
            "//div",
            "/html/body/div[2]",
            "//div[@class='a']/div[@class='b']",
            "//article//div[contains(@class, 'x')]",
            "//*[@id='a' or not(@class)]//p[1]",
            "//div[contains(concat(' ', normalize-space(@class), ' '), ' post ')]",
            "//meta[@property='og:title']/@content",
            "//a[starts-with(@href, 'http') and @rel != 'nofollow']",
            "//div[translate(@class, 'ABC', 'abc') = 'x']",
            "//@href",
            "//p[starts-with(normalize-space(.), 'Read also:')]",
            "//div[contains(., 'x') and . != '']",
            "//li[starts-with(., 'a')]",
            "//p[translate(normalize-space(.), 'R', 'r') = 'read']",
        ] {
            assert!(Plan::compile(ok).is_some(), "{ok}");
        }
        for no in [
            "//p/text()",
            "//div[1]/node()",
            "count(//p)",
            "normalize-space(//h1)",
            "//div | //p",
            "//div[position() < 3]",
            "//div[@a = 1]",
            "//div[p]",
            "//div[.]",
            "//div[./p]",
            "//div[.//a]",
            "//div[..]",
            "//div[. = @title]",
            "//div[.5 = 'x']",
            "//div[contains(.., 'x')]",
            ".//div",
            "descendant::div",
            "//svg:svg",
            "div",
            "//div[last()]",
            "//div[0]",
            "//div[@class='a'",
            "//div[$x]",
        ] {
            assert!(Plan::compile(no).is_none(), "{no}");
        }
    }
}
