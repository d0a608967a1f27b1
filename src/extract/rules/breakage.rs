//! The per-rule counters and what "broke" means. A rule that matches a page but keeps
//! fewer than `min_words` words, or far less text than it usually does, is *broken* on
//! that page: the page falls back to the next method and the rule's `broke` counter says
//! so, with example URLs, in `summary.json`. "Usually" is the mean of the words the rule
//! yielded in the batches of pages before this one ([`RuleSet::end_batch`] moves a
//! finished batch into that baseline), so the decision does not depend on the number of
//! threads or their timing.
//!
//! Counters per rule: `matched` (pages the rule's URL pattern and `when` accepted),
//! `yielded` (answered), `broke` (fell back for too little text), `errors` (fell back
//! because the rule is disabled or an XPath failed on the page; `pages_failed` in the
//! totals); per file, `site_pages_without_rule`.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

use super::RuleSet;

/// `min_words` of a rule that does not set it: a rule that keeps no word at all on a
/// page is broken there (the layout changed and its `content` XPaths select nothing).
/// Hand-set, not swept. Documented for rule writers in `site-rules/README.md`.
pub(super) const DEFAULT_MIN_WORDS: u64 = 1;
/// `min_ratio` of a rule that does not set it: a page where the rule keeps less than a
/// quarter of its usual words is broken (e.g. the selected node is still there but the
/// text moved out of it). Hand-set, not swept. Documented in `site-rules/README.md`.
pub(super) const DEFAULT_MIN_RATIO: f64 = 0.25;
/// Pages a rule must have yielded (in finished batches) before "far less text than
/// usual" is judged (the mean of fewer pages says little). Hand-set, not swept.
/// Documented in `site-rules/README.md` and ARCHITECTURE.md ("after 5 yields in earlier
/// batches").
pub(super) const MIN_HISTORY: u64 = 5;
/// Example URLs kept per counter (the smallest ones, so the choice is reproducible).
/// Enough to open a few pages of a broken rule without bloating `summary.json`.
/// Hand-set.
const EXAMPLES: usize = 3;

/// A rule's counters, shared by the worker threads (atomics; the example URLs behind a
/// mutex).
#[derive(Debug, Default)]
pub(super) struct RuleStats {
    matched: AtomicU64,
    yielded: AtomicU64,
    broke: AtomicU64,
    errors: AtomicU64,
    /// Words and pages of accepted yields in finished batches ("usual" = words / pages).
    base_words: AtomicU64,
    base_pages: AtomicU64,
    /// The same for the batch in progress.
    batch_words: AtomicU64,
    batch_pages: AtomicU64,
    examples: Mutex<Examples>,
}

#[derive(Debug, Default)]
struct Examples {
    yielded: BTreeSet<String>,
    broke: BTreeSet<String>,
    errors: BTreeSet<String>,
}

fn keep_example(set: &mut BTreeSet<String>, url: &str) {
    if set.len() < EXAMPLES || set.last().is_some_and(|l| url < l.as_str()) {
        set.insert(url.to_string());
        while set.len() > EXAMPLES {
            set.pop_last();
        }
    }
}

/// What the words a rule kept on a page say about the rule.
pub(super) enum Verdict {
    /// Enough text: the page is answered.
    Yield,
    /// Too little text: the page falls back. `usual` is the mean it was judged against
    /// (`None` before the rule has `MIN_HISTORY` pages of history).
    Broke { usual: Option<f64> },
}

impl RuleStats {
    /// The rule's URL pattern and `when` accepted a page.
    pub(super) fn count_matched(&self) {
        self.matched.fetch_add(1, Ordering::Relaxed);
    }

    /// The rule could not run on the page at `url` (disabled, or an XPath failed).
    pub(super) fn count_failed(&self, url: &str) {
        self.errors.fetch_add(1, Ordering::Relaxed);
        keep_example(&mut self.examples.lock().expect("not poisoned").errors, url);
    }

    /// Whether keeping `words` words on a page is a yield or a breakage: fewer than
    /// `min_words`, or — once the rule has a history — less than `min_ratio` × its usual
    /// words (the mean over finished batches only, so no thread sees another's page of
    /// the same batch).
    pub(super) fn verdict(&self, words: u64, min_words: u64, min_ratio: f64) -> Verdict {
        let base_pages = self.base_pages.load(Ordering::Relaxed);
        let usual = (base_pages >= MIN_HISTORY)
            .then(|| self.base_words.load(Ordering::Relaxed) as f64 / base_pages as f64);
        let too_little = usual.is_some_and(|u| (words as f64) < min_ratio * u);
        if words < min_words || too_little {
            Verdict::Broke { usual }
        } else {
            Verdict::Yield
        }
    }

    /// The rule broke on the page at `url`.
    pub(super) fn count_broke(&self, url: &str) {
        self.broke.fetch_add(1, Ordering::Relaxed);
        keep_example(&mut self.examples.lock().expect("not poisoned").broke, url);
    }

    /// The rule answered the page at `url` with `words` words (they join the batch in
    /// progress, and the "usual" baseline at [`RuleSet::end_batch`]).
    pub(super) fn count_yield(&self, words: u64, url: &str) {
        self.yielded.fetch_add(1, Ordering::Relaxed);
        self.batch_words.fetch_add(words, Ordering::Relaxed);
        self.batch_pages.fetch_add(1, Ordering::Relaxed);
        keep_example(
            &mut self.examples.lock().expect("not poisoned").yielded,
            url,
        );
    }
}

impl RuleSet {
    /// Move this batch's yields into the "usual" baseline (called between batches).
    pub fn end_batch(&self) {
        for rule in self.files.iter().flat_map(|f| &f.rules) {
            let s = &rule.stats;
            let w = s.batch_words.swap(0, Ordering::Relaxed);
            let p = s.batch_pages.swap(0, Ordering::Relaxed);
            s.base_words.fetch_add(w, Ordering::Relaxed);
            s.base_pages.fetch_add(p, Ordering::Relaxed);
        }
    }

    /// Counters for `summary.json`: per rule that saw pages (or could not be loaded),
    /// pages matched, yielded, broken and failed, with example URLs; and the problems.
    pub fn report(&self) -> serde_json::Value {
        let mut rules = BTreeMap::new();
        let mut totals = [0u64; 4];
        for f in &self.files {
            for r in &f.rules {
                let s = &r.stats;
                let c = [
                    s.matched.load(Ordering::Relaxed),
                    s.yielded.load(Ordering::Relaxed),
                    s.broke.load(Ordering::Relaxed),
                    s.errors.load(Ordering::Relaxed),
                ];
                for (t, v) in totals.iter_mut().zip(c) {
                    *t += v;
                }
                if c[0] == 0 && !r.disabled {
                    continue;
                }
                let ex = s.examples.lock().expect("not poisoned");
                let pages =
                    s.base_pages.load(Ordering::Relaxed) + s.batch_pages.load(Ordering::Relaxed);
                let words =
                    s.base_words.load(Ordering::Relaxed) + s.batch_words.load(Ordering::Relaxed);
                let mut v = serde_json::json!({
                    "matched": c[0],
                    "yielded": c[1],
                    "broke": c[2],
                    "errors": c[3],
                    "mean_words": if pages > 0 { (words as f64 / pages as f64).round() } else { 0.0 },
                    "examples": {
                        "yielded": ex.yielded,
                        "broke": ex.broke,
                        "errors": ex.errors,
                    },
                });
                if r.disabled {
                    v["disabled"] = true.into();
                }
                rules.insert(format!("{}#{}", f.name, r.name), v);
            }
        }
        let no_rule: BTreeMap<&str, u64> = self
            .files
            .iter()
            .map(|f| (f.name.as_str(), f.no_rule.load(Ordering::Relaxed)))
            .filter(|(_, n)| *n > 0)
            .collect();
        serde_json::json!({
            "files": self.files.len(),
            "rules": self.active_rules(),
            "pages_matched": totals[0],
            "pages_yielded": totals[1],
            "pages_broke": totals[2],
            "pages_failed": totals[3],
            "site_pages_without_rule": no_rule,
            "per_rule": rules,
            "problems": self.problems.iter().map(|p| p.to_string()).collect::<Vec<_>>(),
        })
    }
}
