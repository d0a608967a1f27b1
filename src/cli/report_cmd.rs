//! The report's commands: `thresher report OUT_DIR` (on an earlier run, with or without
//! its inputs), `run --report` (after the run) and `rules try --html FILE` (one page's
//! view for a rule being tried).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::config::Config;
use crate::error::{Error, Result};
use crate::extract::dom::{collapse, ParsedPage};
use crate::extract::rules::{Tried, TriedValue};
use crate::extract::trace::RuleTrace;
use crate::report::{self, page_html, PageView, Tracer};
use crate::{pipeline, source};

/// Write `out/report/` and say where; `tracer` re-extracts the pages for the reasons.
pub(super) fn write(
    out: &Path,
    tracer: Option<Tracer<'_>>,
    bar: &indicatif::ProgressBar,
) -> Result<report::ReportStats> {
    let start = std::time::Instant::now();
    let stats = report::write_report(out, tracer, bar)?;
    bar.finish_and_clear();
    eprintln!(
        "report: {} pages ({} with reasons{}) in {:.2} s → {}",
        stats.pages,
        stats.traced,
        if stats.differs > 0 {
            format!(", {} extracted differently from pages.jsonl", stats.differs)
        } else {
            String::new()
        },
        start.elapsed().as_secs_f64(),
        stats.index.display()
    );
    Ok(stats)
}

/// `thresher report OUT_DIR [inputs]`: with the run's inputs (and the same `--rules`,
/// `--cross-page`…), every page's blocks and reasons; without, the kept text only.
pub(super) fn report_command(
    out: &Path,
    inputs: Option<source::Inputs>,
    config: &Config,
    front: Vec<Box<dyn crate::extract::Extractor>>,
    templates: Option<&Path>,
) -> Result<ExitCode> {
    let bar = super::progress_bar(None);
    match inputs {
        Some(inputs) => {
            let (cascade, _) = pipeline::build_cascade(&inputs, config, front, templates)?;
            let tracer = Tracer {
                inputs: &inputs,
                config,
                cascade: &cascade,
            };
            write(out, Some(tracer), &bar)?;
        }
        None => {
            write(out, None, &bar)?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// What `rules try` tried, as the rule trace of a page view.
pub(super) fn tried_rule(label: &str, kept: &[Tried], removed: &[Tried]) -> RuleTrace {
    let texts = |t: &Tried| match &t.result {
        Ok(TriedValue::Nodes(nodes)) => nodes
            .iter()
            .map(|(_, text)| collapse(text))
            .filter(|t| !t.is_empty())
            .collect(),
        _ => Vec::new(),
    };
    RuleTrace {
        rule: label.to_string(),
        content: kept.iter().map(|t| t.expr.clone()).collect(),
        remove: removed.iter().map(|t| (t.expr.clone(), texts(t))).collect(),
    }
}

/// `rules try --html FILE`: the page's view with the tried XPaths' decisions.
pub(super) fn write_try_view(
    html: &Path,
    page_path: &Path,
    url: Option<&str>,
    page: &ParsedPage,
    rule: &RuleTrace,
    text: &str,
) -> Result<()> {
    let blocks = report::view::by_rule(&page.dom, text, rule);
    let view = PageView {
        url: url.unwrap_or_default().to_string(),
        path: page_path.display().to_string(),
        title: crate::extract::title::page_title(&page.dom, url),
        method: format!("rules try ({})", rule.rule),
        kept_words: text.split_whitespace().count() as u64,
        blocks,
        ..PageView::default()
    };
    if let Some(dir) = html.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
    }
    std::fs::write(html, page_html::render(&view, None, None)).map_err(|e| Error::io(html, e))?;
    eprintln!("page view → {}", html.display());
    Ok(())
}

/// `--html FILE` takes one page.
pub(super) fn check_try_html(html: &Option<PathBuf>, pages: &[PathBuf]) -> Result<()> {
    if html.is_some() && pages.len() != 1 {
        return Err(Error::Config(format!(
            "--html writes one page's view: give one page, not {}",
            pages.len()
        )));
    }
    Ok(())
}
