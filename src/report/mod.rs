//! The operator report (`thresher report OUT_DIR`, `run --report`, `rules try --html`):
//! a static site in `OUT_DIR/report/` that opens from disk with no server or network.
//!
//! - `index.html`: the run's summary (pages, errors by kind, methods, clusters, timings
//!   from `summary.json`), a per-site table and the list of pages, filtered by site,
//!   method, error and cluster role and paginated in the browser (`assets/index.js`);
//!   the page list is a JSON island of one short row per page, so a 1,000-page run's
//!   index is a few hundred KB.
//! - `pages/N.html`: the view of page N of `pages.jsonl` (`page_html.rs`): its blocks,
//!   kept and removed, each removed one with its reason, and its duplicate cluster.
//!
//! Reasons need the page's HTML: given the run's inputs ([`Tracer`]), the pages are
//! extracted again with tracing on (`extract::trace`; the normal run builds nothing and
//! writes the same bytes). Without inputs, a page view shows the kept text only.

mod health;
mod index;
pub mod page_html;
mod rows;
pub mod view;

use std::collections::HashMap;
use std::path::Path;

use crate::config::Config;
use crate::error::{Error, Result};
use crate::extract::{title, trace, Cascade, PageContext};
use crate::group::group_key;
use crate::pipeline::{decode_and_parse, stream_pages};
use crate::source;

pub use page_html::ClusterView;
use rows::{read_clusters, read_rows, Row};
pub use view::PageView;

/// What re-extracts the run's pages with tracing on: the run's inputs, configuration
/// and cascade (built as the run built it).
pub struct Tracer<'a> {
    pub inputs: &'a source::Inputs,
    pub config: &'a Config,
    pub cascade: &'a Cascade,
}

/// What was written.
#[derive(Debug, Clone, Default)]
pub struct ReportStats {
    pub pages: usize,
    /// Page views with every block's reason (the page's HTML was read again).
    pub traced: usize,
    /// Traced pages whose text differs from `pages.jsonl` (the run used other inputs,
    /// rules or learned state).
    pub differs: usize,
    pub index: std::path::PathBuf,
}

/// Write `out_dir/report/`: `index.html` and one view per page of `pages.jsonl`.
pub fn write_report(
    out_dir: &Path,
    tracer: Option<Tracer<'_>>,
    progress: &indicatif::ProgressBar,
) -> Result<ReportStats> {
    let summary_path = out_dir.join("summary.json");
    let summary: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(&summary_path).map_err(|e| Error::io(&summary_path, e))?,
    )
    .map_err(|e| {
        Error::Config(format!(
            "{}: not a thresher run's summary: {e}",
            summary_path.display()
        ))
    })?;
    let pages_path = out_dir.join("pages.jsonl");
    let mut rows = read_rows(&pages_path)?;
    let clusters = read_clusters(&out_dir.join("clusters.jsonl"))?;
    let dir = out_dir.join("report");
    let pages_dir = dir.join("pages");
    std::fs::create_dir_all(&pages_dir).map_err(|e| Error::io(&pages_dir, e))?;
    let by_path: HashMap<String, usize> = rows
        .iter()
        .enumerate()
        .map(|(i, r)| (r.path.clone(), i))
        .collect();
    let href_of = |path: &str| by_path.get(path).map(|i| format!("{i}.html"));
    let cluster_of = |r: &Row| {
        r.cluster.as_ref().and_then(|c| clusters.get(c)).map(|c| {
            let mut c = c.clone();
            for m in &mut c.members {
                m.2 = href_of(&m.0);
            }
            c
        })
    };
    let mut stats = ReportStats {
        pages: rows.len(),
        ..ReportStats::default()
    };
    progress.set_length(rows.len() as u64);
    if let Some(t) = tracer {
        stream_pages(
            t.inputs,
            t.config,
            |page| {
                let Ok((parsed, _)) = decode_and_parse(&page) else {
                    return Ok(None);
                };
                let group = group_key(&page.url, t.config.group_depth);
                let ctx = PageContext {
                    url: &page.url,
                    group: &group,
                };
                let (answer, tr) = trace::capture(|| t.cascade.answer(&parsed, &ctx));
                let mut v = PageView::traced(&parsed.dom, &answer, &tr);
                v.title = answer
                    .title
                    .clone()
                    .unwrap_or_else(|| title::page_title(&parsed.dom, Some(&page.url)));
                v.url = page.url;
                v.path = page.path;
                Ok(Some((v, answer.extracted.text)))
            },
            || t.cascade.end_batch(),
            |res| {
                let Ok(Some((mut v, text))) = res else {
                    return Ok(());
                };
                let Some(&i) = by_path.get(&v.path) else {
                    return Ok(());
                };
                let row = &mut rows[i];
                if row.text_hash != Some(rows::hash_text(&text)) || row.method != v.method {
                    stats.differs += 1;
                    v.notes.push(format!(
                        "extracted again for this report: method {} (pages.jsonl: {}); the text differs from pages.jsonl",
                        v.method, row.method
                    ));
                }
                row.traced = true;
                row.rule_fallbacks = v.notes.iter().filter(|n| n.starts_with("rule ")).count();
                stats.traced += 1;
                progress.inc(1);
                write_view(&pages_dir, i, &v, cluster_of(row).as_ref())
            },
        )?;
    }
    rows::views_from_records(&pages_path, &rows, |i, v| {
        progress.inc(1);
        write_view(&pages_dir, i, v, cluster_of(&rows[i]).as_ref())
    })?;
    let index = dir.join("index.html");
    // Rule health of `run --rules-health`, when the run wrote it.
    let health: Option<serde_json::Value> =
        std::fs::read_to_string(out_dir.join(crate::pipeline::HEALTH_FILE))
            .ok()
            .and_then(|t| serde_json::from_str(&t).ok());
    std::fs::write(&index, index::render(&summary, health.as_ref(), &rows))
        .map_err(|e| Error::io(&index, e))?;
    stats.index = index;
    Ok(stats)
}

fn write_view(dir: &Path, i: usize, v: &PageView, c: Option<&ClusterView>) -> Result<()> {
    let p = dir.join(format!("{i}.html"));
    std::fs::write(&p, page_html::render(v, c, Some("../index.html"))).map_err(|e| Error::io(&p, e))
}
