//! String-valued expressions of the subset (rule files' `title` and `date`): string
//! functions over literals and location paths, compiled to a [`StrPlan`].

use super::arena::Arena;
use super::eval::{normalize_space, translate};
use super::parse::Parser;
use super::plan::Plan;
use super::tokens::{tokenize, Tok};

/// A compiled string-valued expression (a `title` or `date` such as
/// `normalize-space(substring-before(substring-after(//div[@class='date'], 'on'), '|'))`):
/// string literals, location paths of the subset (the first node's string-value), and
/// `normalize-space`, `substring-before`, `substring-after`, `concat`, `translate`,
/// `string` of those.
#[derive(Debug, Clone)]
pub struct StrPlan(TExpr);

#[derive(Debug, Clone)]
pub(super) enum TExpr {
    Lit(String),
    Path(Plan),
    NormalizeSpace(Box<TExpr>),
    Before(Box<TExpr>, Box<TExpr>),
    After(Box<TExpr>, Box<TExpr>),
    Concat(Vec<TExpr>),
    Translate(Box<TExpr>, Box<TExpr>, Box<TExpr>),
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

    pub fn eval(&self, arena: &Arena) -> String {
        self.0.eval(arena)
    }
}

impl TExpr {
    fn eval(&self, arena: &Arena) -> String {
        match self {
            TExpr::Lit(s) => s.clone(),
            TExpr::Path(p) => p
                .select(arena)
                .first()
                .map(|it| Plan::item_string(arena, it))
                .unwrap_or_default(),
            TExpr::NormalizeSpace(a) => normalize_space(&a.eval(arena)),
            TExpr::Before(a, b) => {
                let (a, b) = (a.eval(arena), b.eval(arena));
                a.find(b.as_str())
                    .map(|k| a[..k].to_string())
                    .unwrap_or_default()
            }
            TExpr::After(a, b) => {
                let (a, b) = (a.eval(arena), b.eval(arena));
                a.find(b.as_str())
                    .map(|k| a[k + b.len()..].to_string())
                    .unwrap_or_default()
            }
            TExpr::Concat(parts) => parts.iter().map(|p| p.eval(arena)).collect(),
            TExpr::Translate(s, from, to) => {
                translate(&s.eval(arena), &from.eval(arena), &to.eval(arena))
            }
        }
    }
}
