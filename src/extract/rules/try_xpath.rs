//! `thresher rules try`: what free-standing XPaths (or a rule's) select on a page, node
//! by node, and the text a rule made of them would keep. Always through sxd-xpath, the
//! reference engine, under the same `xpath_budget` as a run ([`super::cost`]): an XPath
//! estimated over it is not run, and is reported as a run would count it (the rule broken
//! on that page).

use std::collections::HashSet;

use sxd_xpath::Value;

use super::compile::compile;
use super::sxd::{ancestors_or_self, node_path, value_text, XPATH_CONTEXT};
use super::text::TextWriter;
use super::RuleSet;
use crate::extract::dom::ParsedPage;
use crate::extract::xml::{to_xml, XmlOptions};

/// What one XPath selects on a page, for `thresher rules try`.
#[derive(Debug)]
pub struct Tried {
    pub expr: String,
    /// `Err` when the XPath does not parse or fails on this page.
    pub result: Result<TriedValue, String>,
}

#[derive(Debug)]
pub enum TriedValue {
    /// Each selected node: its path and its text.
    Nodes(Vec<(String, String)>),
    Scalar(String),
}

/// Why `expr` is not run on `page` under `budget` node visits (as `apply` judges it), or
/// `None` when it is within it.
pub fn over_budget(page: &ParsedPage, expr: &str, budget: u64) -> Option<String> {
    let elements = page.dom.elements.len();
    let nesting = super::cost::nesting(expr);
    let cost = super::cost::estimate(elements, nesting);
    (nesting > 0 && cost > budget).then(|| {
        format!(
            "would visit about {cost} nodes on this page of {elements} elements (an absolute path inside a predicate), over xpath_budget {budget}; not run"
        )
    })
}

/// Evaluate free-standing XPaths on a page, and the text a rule made of them would keep.
/// An XPath over `budget` (node visits, [`over_budget`]) is not run: its result is that
/// error, and it adds nothing to the text.
pub fn try_xpaths(
    page: &ParsedPage,
    content: &[String],
    remove: &[String],
    budget: u64,
) -> (Vec<Tried>, Vec<Tried>, String) {
    let package = to_xml(&page.tree, XmlOptions::default());
    let doc = package.as_document();
    let root = doc.root();
    let within = |expr: &String| over_budget(page, expr, budget).is_none();
    let run = |expr: &String| -> Tried {
        if let Some(why) = over_budget(page, expr, budget) {
            return Tried {
                expr: expr.clone(),
                result: Err(why),
            };
        }
        let result = compile(expr)
            .map_err(|e| match e.offset {
                Some(o) => format!(
                    "{} (at character {})",
                    e.message,
                    expr[..o].chars().count() + 1
                ),
                None => e.message,
            })
            .and_then(|x| {
                XPATH_CONTEXT
                    .with(|ctx| x.evaluate(ctx, root))
                    .map_err(|e| format!("fails: {e}"))
            })
            .map(|v| match v {
                Value::Nodeset(ns) => TriedValue::Nodes(
                    ns.document_order()
                        .into_iter()
                        .map(|n| {
                            let mut w = TextWriter::default();
                            w.write(n, &HashSet::new(), &HashSet::new());
                            (node_path(n), w.finish().text)
                        })
                        .collect(),
                ),
                other => TriedValue::Scalar(value_text(&other)),
            });
        Tried {
            expr: expr.clone(),
            result,
        }
    };
    let kept_tried: Vec<Tried> = content.iter().map(run).collect();
    let removed_tried: Vec<Tried> = remove.iter().map(run).collect();
    // The kept text, as a rule with these XPaths would write it.
    let mut skip = HashSet::new();
    for expr in remove.iter().filter(|e| within(e)) {
        if let Ok(x) = compile(expr) {
            if let Ok(Value::Nodeset(ns)) = XPATH_CONTEXT.with(|ctx| x.evaluate(ctx, root)) {
                skip.extend(ns.iter());
            }
        }
    }
    let mut writer = TextWriter::default();
    let mut emitted = HashSet::new();
    for expr in content.iter().filter(|e| within(e)) {
        if let Ok(x) = compile(expr) {
            if let Ok(Value::Nodeset(ns)) = XPATH_CONTEXT.with(|ctx| x.evaluate(ctx, root)) {
                for n in ns.document_order() {
                    if ancestors_or_self(n).any(|a| emitted.contains(&a) || skip.contains(&a)) {
                        continue;
                    }
                    writer.write(n, &skip, &emitted);
                    emitted.insert(n);
                }
            }
        }
    }
    (kept_tried, removed_tried, writer.finish().text)
}

/// The XPaths of a rule (for `rules try --rule FILE`): content, remove.
pub fn rule_xpaths(set: &RuleSet, file: usize, rule: usize) -> (Vec<String>, Vec<String>) {
    let r = &set.files[file].rules[rule];
    (
        r.content
            .iter()
            .map(|&i| set.xpaths[i].expr.clone())
            .collect(),
        r.remove
            .iter()
            .map(|&i| set.xpaths[i].expr.clone())
            .collect(),
    )
}
