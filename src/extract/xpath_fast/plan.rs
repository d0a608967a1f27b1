//! Compiled location paths of the subset: a [`Plan`] is its steps (axis, name test,
//! predicates) and an optional final attribute step; the predicates are boolean
//! ([`BExpr`]) and string ([`SExpr`]) expression trees. [`Item`] is what a plan selects.
//! Parsing (and [`Plan::compile`]) is in `parse.rs`, evaluation in `eval.rs`.

use html5ever::LocalName;

/// A compiled expression of the subset: an absolute location path.
#[derive(Debug, Clone)]
pub struct Plan {
    pub(super) steps: Vec<Step>,
    /// Final attribute step: (preceded by `//`, name).
    pub(super) attr: Option<(bool, String)>,
}

#[derive(Debug, Clone)]
pub(super) struct Step {
    /// Preceded by `//` (descendant-or-self of the context, then child).
    pub(super) descendant: bool,
    /// `None` = `*`.
    pub(super) name: Option<LocalName>,
    pub(super) preds: Vec<Pred>,
}

#[derive(Debug, Clone)]
pub(super) enum Pred {
    Position(usize),
    Bool(BExpr),
}

#[derive(Debug, Clone)]
pub(super) enum BExpr {
    Or(Box<BExpr>, Box<BExpr>),
    And(Box<BExpr>, Box<BExpr>),
    Not(Box<BExpr>),
    /// `@a`: the attribute exists.
    HasAttr(String),
    /// `contains(@a, 'v')` / `starts-with(@a, 'v')` (`true` for starts-with).
    AttrHas(String, String, bool),
    /// `contains(concat(' ', normalize-space(@a), ' '), ' v ')`: `v` is one of the
    /// space-separated words of `@a`.
    AttrWord(String, String),
    /// `@a = 'v'`: there is such an attribute with that value. `@a != 'v'` is, as in
    /// sxd-xpath, `not(@a = 'v')` (also true when there is no such attribute).
    AttrCmp(String, String, bool),
    /// `S = S` (or `!=`) on strings, neither side a bare attribute.
    StrCmp(SExpr, SExpr, bool),
    Contains(SExpr, SExpr),
    StartsWith(SExpr, SExpr),
    /// `starts-with(normalize-space(.), 'v')` (`true`) or `starts-with(., 'v')`: decided
    /// on the first characters of the string-value, without building all of it (a label
    /// test on every `div` of a page would otherwise copy each subtree's text).
    TextStarts(String, bool),
}

#[derive(Debug, Clone)]
pub(super) enum SExpr {
    /// `@a` as a string ("" when missing).
    Attr(String),
    /// `.`: the context node's string-value (all text below it, in order).
    Dot,
    Lit(String),
    NormalizeSpace(Box<SExpr>),
    Concat(Vec<SExpr>),
    Translate(Box<SExpr>, Box<SExpr>, Box<SExpr>),
}

/// A selected node: a tree node, or an attribute of an element.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Item {
    Node(u32),
    Attr(u32, String),
}

impl Item {
    pub fn owner(&self) -> u32 {
        match self {
            Item::Node(i) | Item::Attr(i, _) => *i,
        }
    }
}
