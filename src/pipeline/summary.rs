//! `summary.json`: the run's counters (pages, methods, errors, extractors' reports,
//! dedup statistics) and timings, and writing it.

use std::collections::BTreeMap;
use std::path::Path;
use std::time::Instant;

use serde::Serialize;

use crate::dedup::DedupStats;
use crate::error::Result;
use crate::extract::Cascade;
use crate::page::{ExtractRecord, PageError};

use super::learn::LearnReport;
use super::output::round3;

/// Per-run counters that end up in `summary.json`.
#[derive(Debug, Default, Serialize)]
pub struct Summary {
    pub pages: usize,
    pub extracted: usize,
    pub failed: usize,
    pub empty_text: usize,
    pub methods: BTreeMap<String, usize>,
    pub errors: BTreeMap<&'static str, usize>,
    pub warc_records_skipped: usize,
    /// Pages longer than `max_page_bytes`, or with more opening tags than its budget
    /// allows, of which only the beginning was read, or with attributes past their budget
    /// dropped (their records carry `truncated_at`, `tags_cut_at` or
    /// `attributes_dropped`).
    pub pages_truncated: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub infholder: Option<LearnReport>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dedup: Option<DedupStats>,
    /// Each extractor's own counters (`rules`: per-rule matched/yielded/broke;
    /// Infholder: pages cleaned and fallbacks).
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub extractors: BTreeMap<String, serde_json::Value>,
    pub timings_s: BTreeMap<&'static str, f64>,
    pub pages_per_second: f64,
    pub threads: usize,
}

impl Summary {
    pub(super) fn count(&mut self, result: &Result<ExtractRecord, PageError>) {
        self.pages += 1;
        match result {
            Ok(r) => {
                self.extracted += 1;
                if let Some(max) = r.truncated_at {
                    eprintln!(
                        "warning: {}: longer than max_page_bytes ({max}); only its beginning was read (the record says `truncated_at`)",
                        r.path
                    );
                }
                if let Some(tags) = r.tags_cut_at {
                    eprintln!(
                        "warning: {}: more than {tags} opening tags (max_page_bytes / {}); only the part before them was parsed (the record says `tags_cut_at`)",
                        r.path,
                        crate::extract::dom::BYTES_PER_TAG
                    );
                }
                if let Some(n) = r.attributes_dropped {
                    eprintln!(
                        "warning: {}: {n} attributes dropped before parsing, past max_page_bytes / {} attributes in the page or {} in a tag (the record says `attributes_dropped`)",
                        r.path,
                        crate::extract::dom::BYTES_PER_ATTRIBUTE,
                        crate::extract::dom::MAX_ATTRIBUTES_PER_TAG
                    );
                }
                if r.truncated_at.is_some()
                    || r.tags_cut_at.is_some()
                    || r.attributes_dropped.is_some()
                {
                    self.pages_truncated += 1;
                }
                *self.methods.entry(r.method.clone()).or_default() += 1;
                if r.text.is_empty() {
                    self.empty_text += 1;
                }
            }
            Err(e) => {
                self.failed += 1;
                *self.errors.entry(e.kind.as_str()).or_default() += 1;
            }
        }
    }

    /// After the extraction pass: its skipped WARC records, the learning pass's report,
    /// the extractors' counters and the extraction time.
    pub(super) fn end_extraction(
        &mut self,
        warc_records_skipped: usize,
        learn: Option<LearnReport>,
        cascade: &Cascade,
        start: Instant,
    ) {
        self.warc_records_skipped = warc_records_skipped;
        self.infholder = learn;
        self.extractors = cascade.report();
        finish_timing(self, "extract", start);
    }

    /// The time since `start`, as `stage`'s timing.
    pub(super) fn time_stage(&mut self, stage: &'static str, start: Instant) {
        self.timings_s
            .insert(stage, round3(start.elapsed().as_secs_f64()));
    }

    /// The whole run's time: since `start`, plus the learning pass before it.
    pub(super) fn time_total(&mut self, start: Instant) {
        self.timings_s.insert(
            "total",
            round3(
                start.elapsed().as_secs_f64() + self.timings_s.get("learn").copied().unwrap_or(0.0),
            ),
        );
    }
}

/// Record the extraction time; pages/s counts the Infholder learning pass too, since a
/// user pays for both.
fn finish_timing(summary: &mut Summary, stage: &'static str, start: Instant) {
    let secs = start.elapsed().as_secs_f64();
    summary.timings_s.insert(stage, round3(secs));
    let learn = summary.infholder.as_ref().map_or(0.0, |l| l.seconds);
    if learn > 0.0 {
        summary.timings_s.insert("learn", learn);
    }
    summary.threads = rayon::current_num_threads();
    if secs + learn > 0.0 {
        summary.pages_per_second = (summary.pages as f64 / (secs + learn) * 10.0).round() / 10.0;
    }
}

/// Write `summary.json` (pretty-printed).
pub(super) fn write_summary(summary_path: &Path, summary: &Summary) -> Result<()> {
    let text = serde_json::to_string_pretty(summary).expect("summary serializes");
    crate::atomic_file::write_atomic(summary_path, (text + "\n").as_bytes())
}
