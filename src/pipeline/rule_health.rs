//! Rule health of a run (`run --rules --rules-health`): after the run, each page of a
//! site with a rule file is read again and probed under its rule as `rules test --pages`
//! probes it (`extract::rules::health`), the findings (against a baseline when given)
//! are written to `rule_health.json` beside `summary.json`, their counts into
//! `summary.json` (`rule_health`), and a baseline of the probes when asked. Pages of
//! sites without a rule file are read but not parsed.

use std::path::Path;

use crate::atomic_file::write_atomic;
use crate::config::Config;
use crate::error::{Error, Result};
use crate::extract::rules::health::{self, baseline::Baseline, findings, PageProbe};
use crate::extract::rules::RuleSet;
use crate::source;

use super::extract::decode_and_parse_within;
use super::stream::stream_pages;

/// The file of the findings in a run's output directory.
pub const HEALTH_FILE: &str = "rule_health.json";

/// Probe every page of `inputs` that a file of `set` claims, in input order.
pub fn probe_inputs(
    inputs: &source::Inputs,
    config: &Config,
    set: &RuleSet,
) -> Result<Vec<PageProbe>> {
    let mut probes = Vec::new();
    stream_pages(
        inputs,
        config,
        |page| {
            if set.file_for(&page.url).is_none() {
                return Ok(None);
            }
            let (parsed, _) = decode_and_parse_within(&page, config.max_page_bytes)?;
            Ok(health::probe(set, &parsed, &page.url, &page.path))
        },
        || {},
        |res| {
            // A page that cannot be read is the run's error already (errors.jsonl).
            if let Ok(Some(p)) = res {
                probes.push(p);
            }
            Ok(())
        },
    )?;
    Ok(probes)
}

/// Probe the run's pages under the rules of `rules_dir`, write `rule_health.json` and
/// the counts into `summary.json` of `out_dir`, and `save_baseline` when given; the
/// findings.
pub fn write_run_health(
    inputs: &source::Inputs,
    config: &Config,
    rules_dir: &Path,
    out_dir: &Path,
    baseline: Option<&Path>,
    save_baseline: Option<&Path>,
) -> Result<findings::Health> {
    let baseline = baseline.map(Baseline::read).transpose()?;
    let mut set = RuleSet::load_dir(rules_dir)?;
    set.set_xpath_budget(config.xpath_budget);
    let probes = probe_inputs(inputs, config, &set)?;
    if let Some(path) = save_baseline {
        Baseline::write(path, &probes)?;
    }
    let found = findings::findings(&probes, baseline.as_ref());
    let json = serde_json::to_vec_pretty(&found).unwrap_or_default();
    write_atomic(&out_dir.join(HEALTH_FILE), &json)?;
    let summary_path = out_dir.join("summary.json");
    let text = std::fs::read_to_string(&summary_path).map_err(|e| Error::io(&summary_path, e))?;
    let mut summary: serde_json::Value = serde_json::from_str(&text).map_err(|e| {
        Error::Config(format!(
            "{}: not a run's summary: {e}",
            summary_path.display()
        ))
    })?;
    summary["rule_health"] = serde_json::json!({
        "file": HEALTH_FILE,
        "pages_probed": found.pages,
        "breakages": found.broken.len(),
        "rules_broken": rules_broken(&found),
        "empty_rules": found.empty_rules.len(),
        "idle_removes": found.idle_removes.len(),
        "baseline": baseline.as_ref().map(|b| b.len()),
    });
    let mut out = serde_json::to_vec_pretty(&summary).unwrap_or_default();
    out.push(b'\n');
    write_atomic(&summary_path, &out)?;
    Ok(found)
}

/// Distinct rules with a breakage or empty on most of their pages.
fn rules_broken(h: &findings::Health) -> usize {
    let mut rules: Vec<(&str, &str)> = h
        .broken
        .iter()
        .map(|b| (b.file.as_str(), b.rule.as_str()))
        .chain(
            h.empty_rules
                .iter()
                .map(|e| (e.file.as_str(), e.rule.as_str())),
        )
        .collect();
    rules.sort_unstable();
    rules.dedup();
    rules.len()
}
