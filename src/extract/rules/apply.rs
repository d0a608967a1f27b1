//! Applying a rule set to a page: find the page's rule file and the first rule whose URL
//! pattern and `when` match, select its `content` minus its `remove` (on the page index
//! when the fast evaluator takes every XPath, else on the XML document), and either
//! answer with the kept text, title and date, or fall back (`None`) so the next method of
//! the cascade (Infholder, the heuristic) runs: when no rule matches, when the rule is
//! disabled or an XPath fails at run time, or when the rule broke (`breakage.rs`).

use std::collections::HashSet;
use std::sync::atomic::Ordering;

use sxd_document::dom::Root;
use sxd_xpath::nodeset::Node;

use super::breakage::Verdict;
use super::eval::PageTrees;
use super::sxd::ancestors_or_self;
use super::text::{Selection, TextWriter};
use super::{Rule, RuleFile, RuleSet};
use crate::extract::dom::ParsedPage;
use crate::extract::xpath_fast::{Arena, Item, Plan};
use crate::extract::{Answer, Extracted, PageContext};

/// Marks of page-index nodes in `select_fast`: removed, already written.
const SKIP: u8 = 1;
const DONE: u8 = 2;

impl RuleSet {
    /// An XPath of `rule` failed on the page at `url`: counted, and warned about once
    /// per XPath.
    fn runtime_error(&self, file: &RuleFile, rule: &Rule, idx: usize, url: &str, err: &str) {
        rule.stats.count_failed(url);
        let x = &self.xpaths[idx];
        super::explain::trace_fallback(file, rule, &format!("XPath `{}` {err}", x.expr));
        if !x.warned.swap(true, Ordering::Relaxed) {
            tracing::warn!(
                "{}:{}:{}: rule `{}`: XPath `{}` {err} on {url}; such pages fall back to the next method",
                file.path.display(),
                x.line,
                x.column,
                rule.name,
                x.expr
            );
        }
    }

    /// The first XPath of `rule` whose estimated cost on `page` is over the budget, and
    /// why ([`super::cost`]).
    fn over_budget(&self, rule: &Rule, page: &ParsedPage) -> Option<(usize, String)> {
        let elements = page.dom.elements.len();
        let all = rule
            .when
            .iter()
            .chain(&rule.content)
            .chain(&rule.remove)
            .chain(&rule.title)
            .chain(&rule.date);
        all.copied().find_map(|i| {
            let nesting = self.xpaths[i].nesting;
            let cost = super::cost::estimate(elements, nesting);
            (nesting > 0 && cost > self.xpath_budget).then(|| {
                (
                    i,
                    format!(
                        "would visit about {cost} nodes on this page of {elements} elements (an absolute path inside a predicate), over xpath_budget {}; not run",
                        self.xpath_budget
                    ),
                )
            })
        })
    }

    /// Apply the rules to a page. `None` when no rule of the page's site matches it, or
    /// when the matching rule broke or failed (then the next method runs).
    pub fn apply(&self, page: &ParsedPage, ctx: &PageContext<'_>) -> Option<Answer> {
        let (file, path) = self.file_for(ctx.url)?;
        let trees = PageTrees::new(page);
        for rule in &file.rules {
            if !rule.url_matches(path) {
                continue;
            }
            if let Some((idx, e)) = self.over_budget(rule, page) {
                rule.stats.count_matched();
                self.runtime_error(file, rule, idx, ctx.url, &e);
                return None;
            }
            if let Some(w) = rule.when {
                match self.eval_bool(w, &trees) {
                    Ok(v) => {
                        if !v {
                            continue;
                        }
                    }
                    Err(e) if !rule.disabled => {
                        rule.stats.count_matched();
                        self.runtime_error(file, rule, w, ctx.url, &e);
                        return None;
                    }
                    Err(_) => {}
                }
            }
            rule.stats.count_matched();
            if rule.disabled {
                super::explain::trace_fallback(
                    file,
                    rule,
                    "disabled (a bad XPath, see `rules check`)",
                );
                rule.stats.count_failed(ctx.url);
                return None;
            }
            let selection = match self.select(rule, &trees) {
                Ok(s) => s,
                Err((idx, e)) => {
                    self.runtime_error(file, rule, idx, ctx.url, &e);
                    return None;
                }
            };
            let stats = &rule.stats;
            let words = selection.words;
            if let Verdict::Broke { usual } = stats.verdict(words, rule.min_words, rule.min_ratio) {
                stats.count_broke(ctx.url);
                let usual = match usual {
                    Some(u) => format!("usually {u:.0}"),
                    None => "no usual count yet".to_string(),
                };
                super::explain::trace_fallback(
                    file,
                    rule,
                    &format!("broke: {words} words kept ({usual})"),
                );
                tracing::debug!(
                    "rules:{}#{} broke on {}: {words} words ({usual})",
                    file.name,
                    rule.name,
                    ctx.url
                );
                return None;
            }
            stats.count_yield(words, ctx.url);
            self.trace_answer(file, rule, &trees);
            let field = |idx: Option<usize>| {
                idx.and_then(|i| self.eval_text(i, &trees))
                    .filter(|s| !s.is_empty())
            };
            let empty_reason = selection
                .text
                .is_empty()
                .then(|| format!("rule {}#{} selected no text", file.name, rule.name));
            return Some(Answer {
                extracted: Extracted {
                    text: selection.text,
                    kept_words: words,
                    empty_reason,
                    ..Extracted::default()
                },
                method: format!("rules:{}#{}", file.name, rule.name),
                title: field(rule.title),
                date: field(rule.date),
            });
        }
        file.no_rule.fetch_add(1, Ordering::Relaxed);
        None
    }

    /// Evaluate a rule's `remove` and `content` XPaths and write out the kept text: on
    /// the page index when the fast evaluator takes all of them, else on the XML document.
    fn select(&self, rule: &Rule, trees: &PageTrees<'_>) -> Result<Selection, (usize, String)> {
        let plans: Option<Vec<&Plan>> = rule
            .remove
            .iter()
            .chain(&rule.content)
            .map(|&i| self.plan(i))
            .collect();
        match plans {
            Some(plans) => self.select_fast(rule, &plans, trees.arena()),
            None => self.select_sxd(rule, trees.root()),
        }
    }

    /// [`select`](Self::select) on the page index (same output as `select_sxd`).
    pub(super) fn select_fast(
        &self,
        rule: &Rule,
        plans: &[&Plan],
        arena: &Arena,
    ) -> Result<Selection, (usize, String)> {
        let (remove_plans, content_plans) = plans.split_at(rule.remove.len());
        // marks: SKIP = removed, DONE = written.
        let mut marks = vec![0u8; arena.len()];
        let mut skip_attrs: Vec<(u32, String)> = Vec::new();
        let mut done_attrs: Vec<(u32, String)> = Vec::new();
        for (&idx, plan) in rule.remove.iter().zip(remove_plans) {
            for it in self.fast_nodes(plan, arena).map_err(|e| (idx, e))? {
                match it {
                    Item::Node(i) => marks[i as usize] |= SKIP,
                    Item::Attr(i, n) => skip_attrs.push((i, n)),
                }
            }
        }
        let mut writer = TextWriter::default();
        for (&idx, plan) in rule.content.iter().zip(content_plans) {
            for it in self.fast_nodes(plan, arena).map_err(|e| (idx, e))? {
                let owner = it.owner();
                if let Item::Attr(i, n) = &it {
                    let key = (*i, n.clone());
                    if skip_attrs.contains(&key) || done_attrs.contains(&key) {
                        continue;
                    }
                }
                let mut a = owner;
                let covered = loop {
                    if marks[a as usize] != 0 {
                        break true;
                    }
                    if a == 0 {
                        break false;
                    }
                    a = arena.nodes[a as usize].parent;
                };
                if covered {
                    continue;
                }
                match it {
                    Item::Node(i) => {
                        writer.write_arena(arena, i, &marks);
                        marks[i as usize] |= DONE;
                    }
                    Item::Attr(i, n) => {
                        writer.flush();
                        writer.push_text(&arena.attr(i, &n).unwrap_or_default());
                        writer.flush();
                        done_attrs.push((i, n));
                    }
                }
            }
        }
        Ok(writer.finish())
    }

    /// [`select`](Self::select) on the XML document, with sxd-xpath.
    pub(super) fn select_sxd(
        &self,
        rule: &Rule,
        root: Root<'_>,
    ) -> Result<Selection, (usize, String)> {
        let mut skip: HashSet<Node<'_>> = HashSet::new();
        for &idx in &rule.remove {
            for n in self.eval_nodes(idx, root).map_err(|e| (idx, e))? {
                skip.insert(n);
            }
        }
        let mut writer = TextWriter::default();
        let mut emitted: HashSet<Node<'_>> = HashSet::new();
        for &idx in &rule.content {
            for n in self.eval_nodes(idx, root).map_err(|e| (idx, e))? {
                if ancestors_or_self(n).any(|a| emitted.contains(&a) || skip.contains(&a)) {
                    continue;
                }
                writer.write(n, &skip, &emitted);
                emitted.insert(n);
            }
        }
        Ok(writer.finish())
    }
}
