//! What the report reads of a run's output folder: one short row per line of
//! `pages.jsonl` (the text itself is read again only for the views of pages not
//! extracted again), and the clusters of `clusters.jsonl`.

use std::collections::HashMap;
use std::io::BufRead;
use std::path::Path;

use serde_json::Value;

use super::page_html::ClusterView;
use super::view::{BlockView, PageView};
use crate::error::{Error, Result};

/// A page of `pages.jsonl` as the index lists it.
#[derive(Debug, Clone, Default)]
pub(super) struct Row {
    pub path: String,
    pub url: String,
    /// Host without `www.` (the group's first segment when the URL does not parse).
    pub site: String,
    pub title: String,
    /// `error` for an error record.
    pub method: String,
    pub words: usize,
    /// 1 − `boilerplate_ratio`: share of the page's visible words kept.
    pub kept_share: Option<f64>,
    pub template_ratio: Option<f64>,
    pub error_kind: Option<String>,
    pub error: Option<String>,
    pub empty_reason: Option<String>,
    pub cluster: Option<String>,
    pub is_main: Option<bool>,
    pub text_hash: Option<u64>,
    /// The page's view was made from its HTML, with reasons.
    pub traced: bool,
    /// Rules of the page's site that matched but fell back (broke, failed).
    pub rule_fallbacks: usize,
}

pub(super) fn hash_text(text: &str) -> u64 {
    xxhash_rust::xxh3::xxh3_64(text.as_bytes())
}

fn site_of(url: &str, group: &str) -> String {
    let host = url::Url::parse(url)
        .ok()
        .and_then(|u| u.host_str().map(str::to_string))
        .unwrap_or_else(|| group.split('/').next().unwrap_or_default().to_string());
    match host.strip_prefix("www.").unwrap_or(&host) {
        "" => "(no host)".to_string(),
        h => h.to_string(),
    }
}

/// Each JSON object line of `path` with its index among them (lines that are not JSON
/// objects are skipped, the same way every time).
fn for_each_record(path: &Path, mut f: impl FnMut(usize, Value) -> Result<()>) -> Result<()> {
    let file = std::fs::File::open(path).map_err(|e| Error::io(path, e))?;
    let mut n = 0;
    for line in std::io::BufReader::new(file).lines() {
        let line = line.map_err(|e| Error::io(path, e))?;
        if let Ok(v @ Value::Object(_)) = serde_json::from_str::<Value>(&line) {
            f(n, v)?;
            n += 1;
        }
    }
    Ok(())
}

fn str_of(v: &Value, k: &str) -> Option<String> {
    v.get(k).and_then(Value::as_str).map(str::to_string)
}

pub(super) fn read_rows(path: &Path) -> Result<Vec<Row>> {
    let mut rows = Vec::new();
    for_each_record(path, |_, v| {
        let text = v.get("text").and_then(Value::as_str);
        let url = str_of(&v, "url").unwrap_or_default();
        let group = str_of(&v, "group").unwrap_or_default();
        rows.push(Row {
            path: str_of(&v, "path").unwrap_or_default(),
            site: site_of(&url, &group),
            url,
            title: str_of(&v, "title").unwrap_or_default(),
            method: str_of(&v, "method").unwrap_or_else(|| "error".into()),
            words: text.map_or(0, |t| t.split_whitespace().count()),
            kept_share: v
                .get("boilerplate_ratio")
                .and_then(Value::as_f64)
                .map(|b| 1.0 - b),
            template_ratio: v.get("template_ratio").and_then(Value::as_f64),
            error_kind: str_of(&v, "error_kind"),
            error: str_of(&v, "error"),
            empty_reason: str_of(&v, "empty_reason"),
            cluster: str_of(&v, "cluster"),
            is_main: v.get("is_main").and_then(Value::as_bool),
            text_hash: text.map(hash_text),
            ..Row::default()
        });
        Ok(())
    })?;
    Ok(rows)
}

/// `clusters.jsonl` by cluster id (empty when the file is missing: `extract` output).
pub(super) fn read_clusters(path: &Path) -> Result<HashMap<String, ClusterView>> {
    let mut out = HashMap::new();
    if !path.exists() {
        return Ok(out);
    }
    for_each_record(path, |_, v| {
        let id = str_of(&v, "cluster").unwrap_or_default();
        let sim = v.get("similarity");
        let members = v
            .get("members")
            .and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .filter_map(Value::as_str)
                    .map(|m| {
                        let s = sim.and_then(|s| s.get(m)).and_then(Value::as_f64);
                        (m.to_string(), s, None)
                    })
                    .collect()
            })
            .unwrap_or_default();
        out.insert(
            id.clone(),
            ClusterView {
                id,
                main: str_of(&v, "main").unwrap_or_default(),
                reason: str_of(&v, "reason").unwrap_or_default(),
                members,
            },
        );
        Ok(())
    })?;
    Ok(out)
}

/// Views of the pages not extracted again, from their records: the kept text, one
/// block a line, or the error.
pub(super) fn views_from_records(
    path: &Path,
    rows: &[Row],
    mut write: impl FnMut(usize, &PageView) -> Result<()>,
) -> Result<()> {
    if rows.iter().all(|r| r.traced) {
        return Ok(());
    }
    for_each_record(path, |i, v| {
        let Some(row) = rows.get(i).filter(|r| !r.traced) else {
            return Ok(());
        };
        let mut notes = Vec::new();
        if let Some(e) = &row.error {
            notes.push(format!(
                "error ({}): {e}",
                row.error_kind.as_deref().unwrap_or("?")
            ));
        } else {
            notes.push(
                "kept text only: removed blocks and their reasons need the page's HTML — \
                 `thresher run --report`, or `thresher report OUT_DIR` with the run's inputs"
                    .into(),
            );
        }
        let blocks = v
            .get("text")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .lines()
            .map(|l| BlockView {
                text: l.to_string(),
                tag: String::new(),
                kept: true,
                value: None,
                reason: None,
            })
            .collect();
        let view = PageView {
            url: row.url.clone(),
            path: row.path.clone(),
            title: row.title.clone(),
            method: row.method.clone(),
            kept_words: row.words as u64,
            empty_reason: row.empty_reason.clone(),
            template_ratio: row.template_ratio,
            notes,
            blocks,
            ..PageView::default()
        };
        write(i, &view)
    })
}
