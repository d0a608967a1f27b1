//! Per-site XPath rules (algorithms.md §2, "global, human XPath rules"): YAML files in a
//! directory (`site-rules/`), one per site or family of sites, each with a host matcher
//! and rules that say which nodes hold the content (`content`), which to cut (`remove`),
//! and optionally where the title and the date are. The schema is documented in
//! `site-rules/README.md`.
//!
//! - Loading never fails as a whole: a file that does not parse, an XPath that does not
//!   compile, a host claimed by two files… each becomes a [`Problem`] naming the file,
//!   line and column; the file (or only the rule) is skipped and every other site works.
//!   `thresher rules check` prints the problems; `--strict` makes them fatal.
//! - Host lookup is one hash-map probe per host suffix, so pages of sites without rules
//!   cost next to nothing.
//! - XPaths are parsed and checked once when the directory is loaded. Those inside the
//!   subset rule files use are also compiled into plans of the fast evaluator
//!   (`xpath_fast/`), which runs on an index of the html5ever tree; the rest go through
//!   sxd-xpath on the page converted to XML (built only when needed). sxd-xpath's
//!   compiled expressions are neither `Send` nor `Sync`, so each worker thread compiles
//!   those the first time it needs them and keeps them for the rest of the run (at most
//!   threads × XPaths compilations per run, never one per page).
//! - A rule that matches a page but selects nothing, or far less text than it usually
//!   does, is *broken* on that page: the page falls back to the next method, and the
//!   rule's counters (in `summary.json`) say so, with example URLs. "Usually" is the mean
//!   of the words the rule yielded in the batches of pages before this one, so the
//!   decision does not depend on the number of threads.
//!
//! This file holds the loaded types ([`RuleSet`], [`RuleFile`], [`Rule`], [`TestCase`])
//! and the cascade step ([`Rules`]). The rest, in the order a page meets it:
//!
//! - `schema.rs`: the YAML structs of a rule file, as serde reads them.
//! - `load.rs`: reading a directory of rule files, checking them, [`Problem`]s with
//!   file:line:column (YAML errors included); problems are what `rules check` prints.
//! - `compile.rs`: XPaths parsed and validated at load time ([`compile`],
//!   [`check_xpath`], error positions inside an expression).
//! - `descendant.rs`: the `//name` → `/descendant::name` rewrite for sxd-xpath.
//! - `lookup.rs`: which file a URL's host belongs to, which rule its path matches.
//! - `eval.rs`: one XPath on one page, fast evaluator or sxd-xpath; per-page trees and
//!   per-thread compiled XPaths; the fast-path switch and its share of the XPaths.
//! - `sxd.rs`: helpers over sxd-xpath values and nodes (truth, text, node paths).
//! - `apply.rs`: a rule set applied to a page; the fall-back cases.
//! - `text.rs`: the kept text written out as blocks, words counted.
//! - `breakage.rs`: the per-rule counters (matched, yielded, broke, errors), what
//!   "broke" means and its thresholds, the `summary.json` report.
//! - `embedded_tests.rs`: the rule files' own tests (`rules test`).
//! - `try_xpath.rs`: `rules try` (free-standing XPaths on a page).
//! - `tests.rs` (rule sets loaded and applied end to end) and `differential_tests.rs`
//!   (the fast evaluator against sxd-xpath on every fixture page).

mod apply;
mod breakage;
mod compile;
pub mod cost;
mod descendant;
mod embedded_tests;
mod eval;
mod explain;
mod front;
pub mod health;
mod load;
mod lookup;
mod schema;
pub mod suggest;
mod sxd;
mod text;
mod try_xpath;

#[cfg(test)]
mod differential_tests;
#[cfg(test)]
mod tests;

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64};

use super::dom::ParsedPage;
use super::xpath_fast::{Plan, StrPlan};
use super::{Answer, Extracted, Extractor, PageContext};
use breakage::RuleStats;

pub use compile::{check_xpath, compile, XpathError};
pub use descendant::descendant_steps;
pub use embedded_tests::{run_tests, TestOutcome};
pub use front::front;
pub use load::Problem;
pub use lookup::normalize_host;
pub use sxd::node_path;
pub use try_xpath::{over_budget, rule_xpaths, try_xpaths, Tried, TriedValue};

/// What an XPath is for; decides which results are acceptable.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    Content,
    Remove,
    When,
    Field,
}

/// One XPath of the rule set (rules refer to theirs by index in `RuleSet::xpaths`): its
/// text, where it was written, and its fast-evaluator plans.
#[derive(Debug)]
struct XpathSrc {
    expr: String,
    line: usize,
    column: usize,
    /// Warned about a run-time failure already.
    warned: AtomicBool,
    /// The expression compiled for the fast evaluator, when it is inside its subset.
    fast: Option<Plan>,
    /// The same for a string-valued expression (a `title` or `date`).
    fast_str: Option<StrPlan>,
    /// Predicates deep of its deepest nested absolute path ([`cost::nesting`]).
    nesting: u32,
}

/// One rule of a file.
#[derive(Debug)]
pub struct Rule {
    pub name: String,
    pub line: usize,
    path_prefix: Option<String>,
    path_glob: Option<String>,
    when: Option<usize>,
    content: Vec<usize>,
    remove: Vec<usize>,
    title: Option<usize>,
    date: Option<usize>,
    min_words: u64,
    min_ratio: f64,
    /// Skipped because of a problem found when loading: pages it matches fall back.
    disabled: bool,
    stats: RuleStats,
}

/// An embedded test of a rule file.
#[derive(Debug, Clone)]
pub struct TestCase {
    pub line: usize,
    pub page: PathBuf,
    pub url: String,
    pub content_type: Option<String>,
    pub rule: Option<String>,
    pub title: Option<String>,
    pub must_contain: Vec<String>,
    pub must_not_contain: Vec<String>,
}

/// One rule file.
#[derive(Debug)]
pub struct RuleFile {
    pub path: PathBuf,
    /// The file name without `.yaml`/`.yml`: the `<file>` of `rules:<file>#<rule>`.
    pub name: String,
    pub hosts: Vec<String>,
    pub subdomains: bool,
    pub rules: Vec<Rule>,
    pub tests: Vec<TestCase>,
    /// Pages of the site that none of its rules matched.
    no_rule: AtomicU64,
}

/// All rule files of a directory, ready to apply.
#[derive(Debug)]
pub struct RuleSet {
    id: u64,
    files: Vec<RuleFile>,
    /// Host (lower-case, no `www.`, punycode) → (file, subdomains too).
    hosts: HashMap<String, (usize, bool)>,
    xpaths: Vec<XpathSrc>,
    problems: Vec<Problem>,
    /// Use the fast evaluator for the XPaths inside its subset (off: sxd-xpath for all).
    fast_path: bool,
    /// Node visits an XPath may cost on a page ([`cost`]).
    xpath_budget: u64,
}

impl RuleSet {
    /// Set the node visits an XPath may cost on a page (`xpath_budget`, [`cost`]).
    pub fn set_xpath_budget(&mut self, budget: u64) {
        self.xpath_budget = budget;
    }

    /// The XPaths whose cost grows faster than the page (a nested absolute path), as
    /// `file:line:column: …` warnings for `rules check`.
    pub fn costly_xpaths(&self) -> Vec<String> {
        let mut seen = std::collections::HashSet::new();
        let mut out = Vec::new();
        for f in &self.files {
            for r in &f.rules {
                let all = r
                    .when
                    .iter()
                    .chain(&r.content)
                    .chain(&r.remove)
                    .chain(&r.title)
                    .chain(&r.date);
                for &i in all {
                    let x = &self.xpaths[i];
                    if x.nesting > 0 && seen.insert(i) {
                        out.push(format!(
                            "{}:{}:{}: rule `{}`: XPath `{}` has an absolute path (or a preceding/following axis) inside a predicate: its cost grows as the page's elements to the power {}, and on pages where that is over xpath_budget ({}) the rule is not run (use a relative path, e.g. `.//p` or `ancestor::…`)",
                            f.path.display(),
                            x.line,
                            x.column,
                            r.name,
                            x.expr,
                            x.nesting + 1,
                            self.xpath_budget
                        ));
                    }
                }
            }
        }
        out
    }
    /// Problems found while loading (empty when every file is fine).
    pub fn problems(&self) -> &[Problem] {
        &self.problems
    }

    /// The files that loaded (possibly with some rules disabled).
    pub fn files(&self) -> &[RuleFile] {
        &self.files
    }

    /// Number of rules that are in force.
    pub fn active_rules(&self) -> usize {
        self.files
            .iter()
            .flat_map(|f| &f.rules)
            .filter(|r| !r.disabled)
            .count()
    }
}

/// The rule set as the first step of the extraction cascade.
pub struct Rules {
    set: RuleSet,
}

impl Rules {
    pub fn new(set: RuleSet) -> Self {
        Rules { set }
    }

    pub fn set(&self) -> &RuleSet {
        &self.set
    }
}

impl Extractor for Rules {
    fn name(&self) -> &str {
        "rules"
    }

    fn extract(&self, page: &ParsedPage, ctx: &PageContext<'_>) -> Option<Extracted> {
        self.set.apply(page, ctx).map(|a| a.extracted)
    }

    fn answer(&self, page: &ParsedPage, ctx: &PageContext<'_>) -> Option<Answer> {
        self.set.apply(page, ctx)
    }

    fn end_batch(&self) {
        self.set.end_batch();
    }

    fn report(&self) -> Option<serde_json::Value> {
        Some(self.set.report())
    }
}
