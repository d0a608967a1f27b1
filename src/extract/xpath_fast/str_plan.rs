//! String-valued expressions of the subset (rule files' `title` and `date`): string
//! functions over literals and location paths, compiled to a [`StrPlan`] (by
//! [`StrPlan::compile`] in `parse.rs`).

use super::arena::Arena;
use super::plan::Plan;
use super::strings::{normalize_space, translate};

/// A compiled string-valued expression (a `title` or `date` such as
/// `normalize-space(substring-before(substring-after(//div[@class='date'], 'on'), '|'))`):
/// string literals, location paths of the subset (the first node's string-value), and
/// `normalize-space`, `substring-before`, `substring-after`, `concat`, `translate`,
/// `string` of those.
#[derive(Debug, Clone)]
pub struct StrPlan(pub(super) TExpr);

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
