//! An opt-in record of why each block of a page was kept or removed, for the operator
//! report (`thresher report`, `run --report`, `rules try --html`).
//!
//! Off by default: extractors check [`enabled`] (one thread-local read) at the points
//! where their final decisions are known — the heuristic after a pass chose its blocks,
//! the cross-page methods when they have a page's template mask, the rules when one
//! answers or falls back — and only then describe the decision. [`capture`] turns it on
//! for one call on the current thread (the cascade runs a page on one thread), so normal
//! runs build nothing and write the same bytes. Scoring code is not touched: reasons are
//! read off the pass's final state (marks, container, values), see
//! `heuristic/explain.rs`.

use std::cell::RefCell;

thread_local! {
    static CURRENT: RefCell<Option<PageTrace>> = const { RefCell::new(None) };
}

/// Why one block was removed.
#[derive(Debug, Clone, PartialEq)]
pub struct Reason {
    /// `rule`, `template`, `container`, `mark`, `links`, `rail`, `tail`, `trim`,
    /// `repeat`, `interface`, `chrome`, `label`, `box-title`, `date`, `appeal`, `empty`.
    pub kind: &'static str,
    /// What a reader sees: the rule and XPath, the signal and its value, the template.
    pub label: String,
}

/// One pass of the heuristic's cascade (all marks, tags and roles only, none).
#[derive(Debug, Clone, Default)]
pub struct PassTrace {
    /// `all`, `structural`, `off`.
    pub marks: &'static str,
    /// Words of the blocks the pass kept (the cascade keeps the longest answer).
    pub kept_words: u64,
    /// The content container (`<div class="entry">`), when the pass got that far.
    pub container: Option<String>,
    /// Per block of the page: its value in this pass and `None` when kept, else why not.
    /// Empty when the pass ended early (`empty_reason`).
    pub blocks: Vec<(f64, Option<Reason>)>,
    pub empty_reason: Option<String>,
}

/// What the rule that answered selected.
#[derive(Debug, Clone, Default)]
pub struct RuleTrace {
    /// `file#rule`.
    pub rule: String,
    pub content: Vec<String>,
    /// Each `remove` XPath with the texts of the nodes it selected (to tell which
    /// removed which block).
    pub remove: Vec<(String, Vec<String>)>,
}

/// Everything recorded for one page.
#[derive(Debug, Clone, Default)]
pub struct PageTrace {
    /// Heuristic passes in the order they ran; a run of the cascade starts with an
    /// `all` pass, so the last run is the passes from the last `all` on.
    pub passes: Vec<PassTrace>,
    /// Template masks, by method (`Infholder`, `style-inbreeding`).
    pub masks: Vec<(&'static str, Vec<bool>)>,
    /// The rule that answered.
    pub rule: Option<RuleTrace>,
    /// Why methods earlier in the cascade did not answer (a rule broke, no template…).
    pub notes: Vec<String>,
}

impl PageTrace {
    /// The passes of the last heuristic run and, among them, the one whose answer was
    /// kept (the first with the most words, as `extract_with_template` chooses).
    pub fn chosen_pass(&self) -> Option<&PassTrace> {
        let start = self.passes.iter().rposition(|p| p.marks == "all")?;
        let run = &self.passes[start..];
        let best = run.iter().map(|p| p.kept_words).max()?;
        run.iter().find(|p| p.kept_words == best)
    }

    /// The template methods whose mask has block `i`.
    pub fn template_of(&self, i: usize) -> Vec<&'static str> {
        self.masks
            .iter()
            .filter(|(_, m)| m.get(i).copied().unwrap_or(false))
            .map(|(name, _)| *name)
            .collect()
    }
}

/// Whether a trace is being recorded on this thread.
pub fn enabled() -> bool {
    CURRENT.with(|c| c.borrow().is_some())
}

/// Run `f` with tracing on for this thread; returns its result and the trace.
pub fn capture<R>(f: impl FnOnce() -> R) -> (R, PageTrace) {
    let outer = CURRENT.with(|c| c.replace(Some(PageTrace::default())));
    let r = f();
    let trace = CURRENT.with(|c| c.replace(outer)).unwrap_or_default();
    (r, trace)
}

/// Run `f` with recording paused: for a method's side computations (the local answer a
/// cross-page method compares with), whose heuristic passes are not the page's answer
/// and would otherwise be taken for it ([`PageTrace::chosen_pass`] reads the last run).
pub fn unrecorded<R>(f: impl FnOnce() -> R) -> R {
    let outer = CURRENT.with(|c| c.take());
    let r = f();
    CURRENT.with(|c| c.replace(outer));
    r
}

/// Change the trace being recorded (nothing when tracing is off).
pub fn record(f: impl FnOnce(&mut PageTrace)) {
    CURRENT.with(|c| {
        if let Some(t) = c.borrow_mut().as_mut() {
            f(t)
        }
    })
}

/// Note why a method did not answer (nothing when tracing is off).
pub fn note(f: impl FnOnce() -> String) {
    record(|t| t.notes.push(f()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nothing_is_recorded_outside_capture() {
        record(|t| t.notes.push("x".into()));
        assert!(!enabled());
        let ((), t) = capture(|| {
            assert!(enabled());
            note(|| "inside".into());
        });
        assert_eq!(t.notes, vec!["inside".to_string()]);
        assert!(!enabled());
    }

    #[test]
    fn the_chosen_pass_is_the_longest_of_the_last_run() {
        let p = |marks, kept_words| PassTrace {
            marks,
            kept_words,
            ..PassTrace::default()
        };
        let t = PageTrace {
            passes: vec![
                p("all", 500),
                p("all", 10),
                p("structural", 40),
                p("off", 40),
            ],
            ..PageTrace::default()
        };
        let chosen = t.chosen_pass().unwrap();
        assert_eq!((chosen.marks, chosen.kept_words), ("structural", 40));
    }
}
