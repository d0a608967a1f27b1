//! Running one XPath of a rule set on a page, with whichever engine takes it: the fast
//! evaluator (`xpath_fast/`) on the page index when the XPath is inside its subset and
//! the fast path is on, else sxd-xpath on the page converted to XML. Both trees are
//! built per page on first use (`PageTrees`); sxd-xpath's compiled expressions are
//! kept per thread (`COMPILED`), since they are neither `Send` nor `Sync`.

use std::cell::{OnceCell, RefCell};
use std::collections::HashMap;

use sxd_document::dom::Root;
use sxd_xpath::nodeset::Node;
use sxd_xpath::{Value, XPath};

use super::compile::compile;
use super::descendant::descendant_steps;
use super::sxd::{is_whole_document, node_path, to_bool, value_kind, value_text, XPATH_CONTEXT};
use super::RuleSet;
use crate::extract::dom::{self, ParsedPage};
use crate::extract::xml::{to_xml, XmlOptions};
use crate::extract::xpath_fast::{Arena, Item, Plan};

/// One page's trees for rule evaluation, each built on first use: the page index of the
/// fast evaluator, and the sxd-document for the XPaths outside its subset.
pub(super) struct PageTrees<'p> {
    page: &'p ParsedPage,
    arena: OnceCell<Arena>,
    package: OnceCell<sxd_document::Package>,
}

impl<'p> PageTrees<'p> {
    pub(super) fn new(page: &'p ParsedPage) -> Self {
        PageTrees {
            page,
            arena: OnceCell::new(),
            package: OnceCell::new(),
        }
    }

    pub(super) fn arena(&self) -> &Arena {
        self.arena.get_or_init(|| Arena::build(&self.page.tree))
    }

    pub(super) fn root(&self) -> Root<'_> {
        self.package
            .get_or_init(|| to_xml(&self.page.tree, XmlOptions::default()))
            .as_document()
            .root()
    }
}

thread_local! {
    /// Compiled XPaths of each rule set, per thread (sxd-xpath's are not `Send`).
    static COMPILED: RefCell<HashMap<u64, Vec<Option<XPath>>>> = RefCell::new(HashMap::new());
}

impl RuleSet {
    /// Turn the fast evaluator off (every XPath through sxd-xpath) or on (the default).
    pub fn set_fast_path(&mut self, on: bool) {
        self.fast_path = on;
    }

    /// XPaths of the rules in force that the fast evaluator takes, and all of them:
    /// `(fast, total)` over XPaths, and the same over rules (a rule is fast when all its
    /// `content` and `remove` XPaths are).
    pub fn fast_share(&self) -> ((usize, usize), (usize, usize)) {
        let (mut fx, mut tx, mut fr, mut tr) = (0, 0, 0, 0);
        for r in self
            .files
            .iter()
            .flat_map(|f| &f.rules)
            .filter(|r| !r.disabled)
        {
            let all: Vec<usize> = r
                .when
                .iter()
                .chain(&r.content)
                .chain(&r.remove)
                .chain(r.title.iter())
                .chain(r.date.iter())
                .copied()
                .collect();
            tx += all.len();
            fx += all
                .iter()
                .filter(|&&i| self.xpaths[i].fast.is_some() || self.xpaths[i].fast_str.is_some())
                .count();
            tr += 1;
            fr += r
                .content
                .iter()
                .chain(&r.remove)
                .all(|&i| self.xpaths[i].fast.is_some()) as usize;
        }
        ((fx, tx), (fr, tr))
    }

    pub(super) fn plan(&self, idx: usize) -> Option<&Plan> {
        self.xpaths[idx].fast.as_ref().filter(|_| self.fast_path)
    }

    /// Whether an XPath (a `when`) is true on the page.
    pub(super) fn eval_bool(&self, idx: usize, trees: &PageTrees<'_>) -> Result<bool, String> {
        match self.plan(idx) {
            Some(p) => Ok(!p.select(trees.arena()).is_empty()),
            None => self.eval(idx, trees.root()).map(|v| to_bool(&v)),
        }
    }

    /// A title or date: the first selected node's text, or the string the XPath gives.
    pub(super) fn eval_text(&self, idx: usize, trees: &PageTrees<'_>) -> Option<String> {
        match self.plan(idx) {
            Some(p) => {
                let arena = trees.arena();
                Some(
                    p.select(arena)
                        .first()
                        .map(|it| dom::collapse(&Plan::item_string(arena, it)))
                        .unwrap_or_default(),
                )
            }
            None => match self.xpaths[idx]
                .fast_str
                .as_ref()
                .filter(|_| self.fast_path)
            {
                Some(p) => Some(dom::collapse(&p.eval(trees.arena()))),
                None => self.eval(idx, trees.root()).ok().map(|v| value_text(&v)),
            },
        }
    }

    /// `content`/`remove` nodes by the fast evaluator.
    pub(super) fn fast_nodes(&self, plan: &Plan, arena: &Arena) -> Result<Vec<Item>, String> {
        let items = plan.select(arena);
        if let Some(it) = items
            .iter()
            .find(|it| matches!(it, Item::Node(i) if arena.is_whole_document(*i)))
        {
            return Err(format!(
                "selects the whole document (`{}`)",
                arena.node_path(it.clone())
            ));
        }
        Ok(items)
    }

    pub(super) fn eval<'d>(&self, idx: usize, root: Root<'d>) -> Result<Value<'d>, String> {
        COMPILED.with(|cache| {
            let mut cache = cache.borrow_mut();
            let compiled = cache.entry(self.id).or_default();
            if compiled.len() < self.xpaths.len() {
                compiled.resize_with(self.xpaths.len(), || None);
            }
            if compiled[idx].is_none() {
                let expr = &self.xpaths[idx].expr;
                let fast = compile(&descendant_steps(expr));
                let x = match fast {
                    Ok(x) => x,
                    Err(_) => compile(expr).map_err(|e| e.message)?,
                };
                compiled[idx] = Some(x);
            }
            let xpath = compiled[idx].as_ref().expect("compiled above");
            XPATH_CONTEXT.with(|ctx| xpath.evaluate(ctx, root).map_err(|e| e.to_string()))
        })
    }

    pub(super) fn eval_nodes<'d>(
        &self,
        idx: usize,
        root: Root<'d>,
    ) -> Result<Vec<Node<'d>>, String> {
        match self.eval(idx, root)? {
            Value::Nodeset(ns) => {
                let nodes = ns.document_order();
                if let Some(n) = nodes.iter().find(|n| is_whole_document(**n)) {
                    return Err(format!("selects the whole document (`{}`)", node_path(*n)));
                }
                Ok(nodes)
            }
            other => Err(format!("gives a {}, not nodes", value_kind(&other))),
        }
    }
}
