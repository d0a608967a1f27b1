//! The rules' side of the operator report (`crate::extract::trace`): which rule answered,
//! its `content` XPaths, and the texts each `remove` XPath selected (so the report can
//! say which XPath removed a block); why a matching rule did not answer. Only when a
//! trace is being recorded.

use super::eval::PageTrees;
use super::{Rule, RuleFile, RuleSet};
use crate::extract::dom::collapse;
use crate::extract::trace::{self, RuleTrace};

impl RuleSet {
    /// The rule `rule` of `file` answered this page.
    pub(super) fn trace_answer(&self, file: &RuleFile, rule: &Rule, trees: &PageTrees<'_>) {
        if !trace::enabled() {
            return;
        }
        let expr = |i: usize| self.xpaths[i].expr.to_string();
        let remove = rule
            .remove
            .iter()
            .map(|&i| {
                // sxd-xpath, the reference engine: the report may be slow, not wrong.
                let texts = self
                    .eval_nodes(i, trees.root())
                    .unwrap_or_default()
                    .into_iter()
                    .map(|n| collapse(&n.string_value()))
                    .filter(|t| !t.is_empty())
                    .collect();
                (expr(i), texts)
            })
            .collect();
        let found = RuleTrace {
            rule: format!("{}#{}", file.name, rule.name),
            content: rule.content.iter().map(|&i| expr(i)).collect(),
            remove,
        };
        trace::record(|t| t.rule = Some(found));
    }
}

/// Why the rule `file#rule` did not answer (broke, failed, disabled).
pub(super) fn trace_fallback(file: &RuleFile, rule: &Rule, why: &str) {
    trace::note(|| format!("rule {}#{} fell back: {why}", file.name, rule.name));
}
