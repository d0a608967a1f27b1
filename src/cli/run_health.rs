//! `run`'s rule-health options: after a run with `--rules`, probe each page of a site
//! with a rule file under its rule (as `rules test --pages` does) and write what broke
//! (`pipeline::write_run_health`); `--fail-on-breakage` makes it the exit status.

use std::path::{Path, PathBuf};

use clap::Args;

use crate::config::Config;
use crate::error::Result;
use crate::extract::rules::health::findings;
use crate::pipeline;
use crate::source;

/// Options of `run` for rule health.
#[derive(Debug, Args)]
pub struct RunHealthArgs {
    /// With --rules: after the run, probe each page of a site with a rule file under its
    /// rule and write OUT/rule_health.json (rules empty on most of their pages, pages
    /// where a rule keeps fewer than min_words, remove XPaths selecting nothing), with
    /// counts in summary.json and in the report's "Broken rules".
    #[arg(long, requires = "rules")]
    pub rules_health: bool,
    /// Compare with this baseline (saved by --save-rules-baseline or `rules test
    /// --save-baseline`): pages and XPaths keeping less than half of their words then are
    /// broken too. Implies --rules-health.
    #[arg(long, value_name = "FILE", requires = "rules")]
    pub rules_baseline: Option<PathBuf>,
    /// Save what each rule and XPath keeps on this run's pages as a baseline (JSONL).
    /// Implies --rules-health.
    #[arg(long, value_name = "FILE", requires = "rules")]
    pub save_rules_baseline: Option<PathBuf>,
    /// Exit 1 when rule health finds a breakage or a rule empty on most of its pages (for
    /// a scheduled job). Implies --rules-health.
    #[arg(long, requires = "rules")]
    pub fail_on_breakage: bool,
}

impl RunHealthArgs {
    /// Whether rule health is asked for.
    pub fn wanted(&self) -> bool {
        self.rules_health
            || self.rules_baseline.is_some()
            || self.save_rules_baseline.is_some()
            || self.fail_on_breakage
    }

    /// Probe the run's pages, write the findings into `out`, print them on stderr;
    /// whether the run should exit 1 for them.
    pub fn run(
        &self,
        inputs: &source::Inputs,
        config: &Config,
        rules_dir: &Path,
        out: &Path,
    ) -> Result<bool> {
        let found = pipeline::write_run_health(
            inputs,
            config,
            rules_dir,
            out,
            self.rules_baseline.as_deref(),
            self.save_rules_baseline.as_deref(),
        )?;
        eprint!("rule health: {}", findings::render_text(&found));
        if let Some(b) = &self.save_rules_baseline {
            eprintln!(
                "rules baseline of {} pages saved to {}",
                found.pages,
                b.display()
            );
        }
        eprintln!(
            "rule health → {}",
            out.join(pipeline::HEALTH_FILE).display()
        );
        Ok(self.fail_on_breakage && found.has_breakage())
    }
}
