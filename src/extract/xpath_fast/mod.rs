//! A fast evaluator for the XPath subset that rule files use, directly on the html5ever
//! tree (no sxd-document copy, no per-step allocation of node sets by sxd-xpath).
//!
//! - [`Plan::compile`] parses an expression once (per rule set load) into a small plan,
//!   or returns `None` when the expression is outside the subset; such expressions keep
//!   going through sxd-xpath (`rules/`). Plans are plain data (`Send + Sync`).
//! - The subset: absolute location paths of `/` and `//` steps with a name test or `*`,
//!   an optional final attribute step `/@name` (or `//@name`), and predicates made of
//!   `@a`, `@a = 'v'`, `@a != 'v'`, `contains(S, S)`, `starts-with(S, S)`, `not(..)`,
//!   `and`, `or`, parentheses and positional `[n]`, where `S` is `@a`, a string literal,
//!   `.` (the element's string-value: all text below it), `normalize-space(S)`,
//!   `concat(S, S, ..)` or `translate(S, S, S)`. `.` is read only where a predicate asks
//!   for it, and `starts-with(normalize-space(.), 'v')` (a label test: "Read also:")
//!   reads only the first characters of the text. Everything else (other axes, `..`,
//!   relative paths such as `.//a`, a bare `[.]`, `text()`, `node()`, numbers other than
//!   a bare `[n]`, unions, string-valued top-level expressions…) is left to sxd-xpath.
//! - [`Arena::build`] indexes the tree once per page in document order, exactly as
//!   `xml::to_xml` converts it (elements and text only; only the first root element;
//!   elements deeper than `MAX_DEPTH` flattened into their ancestor; attribute names that
//!   are not XML names invisible), so a plan selects the nodes sxd-xpath would select on
//!   the converted document — the differential tests in `rules/differential_tests.rs` check this on every
//!   fixture page.
//!
//! Files: `arena.rs` (the page index), `strings.rs` (the string functions),
//! `tokens.rs` (the expression's tokens), `parse.rs` (the recursive-descent parser of
//! the subset, and the `compile` entry points), `plan.rs` (the compiled location paths
//! and their predicates), `eval.rs` (running a plan on the index), `str_plan.rs`
//! (string-valued expressions for `title` / `date`).

mod arena;
mod eval;
mod parse;
mod plan;
mod str_plan;
mod strings;
mod tokens;

pub use arena::{ANode, Arena, Kind};
pub use plan::{Item, Plan};
pub use str_plan::StrPlan;
pub(crate) use strings::normalize_space;
