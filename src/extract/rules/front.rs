//! The extractors a rule directory puts at the front of the extraction cascade (`--rules
//! DIR` of `extract` and `run`, the `rules` option of the Python binding): the rule set
//! loaded, its problems reported, fatal under `strict`.

use std::path::Path;

use super::{RuleSet, Rules};
use crate::error::{Error, Result};
use crate::extract::Extractor;

/// The front extractors for rule directory `dir` (none without one). Problems in the rule
/// files are printed to stderr as warnings and skipped, or (`strict`) are an error.
pub fn front(dir: Option<&Path>, strict: bool) -> Result<Vec<Box<dyn Extractor>>> {
    let Some(dir) = dir else {
        return Ok(Vec::new());
    };
    let set = RuleSet::load_dir(dir)?;
    for p in set.problems() {
        eprintln!("{}: {p}", if strict { "error" } else { "warning" });
    }
    if strict && !set.problems().is_empty() {
        return Err(Error::Config(format!(
            "{} problem(s) in the rule files of {} (--strict)",
            set.problems().len(),
            dir.display()
        )));
    }
    tracing::info!(
        "{} rule files, {} rules from {}",
        set.files().len(),
        set.active_rules(),
        dir.display()
    );
    Ok(vec![Box::new(Rules::new(set))])
}
