//! Wires the stages: Source → group → extract → normalize/sign → dedup → choose main →
//! Sink. Pages stream through in chunks; each chunk is processed in parallel (rayon) and
//! written in input order, so outputs are reproducible. Only signatures stay in memory.

use std::collections::BTreeMap;
use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

use rayon::prelude::*;
use serde::Serialize;

use crate::choose_main::DocMeta;
use crate::config::Config;
use crate::dedup::{self, Cluster, DedupStats, DocEntry, Signer};
use crate::error::{Error, Result};
use crate::extract::{dom, title, Cascade, PageContext};
use crate::group::group_key;
use crate::page::{ErrorKind, ErrorRecord, ExtractRecord, Page, PageError};
use crate::source::{self, charset, PageJob, ReadLimits};

/// Pages handed to the worker pool at a time: big enough to keep both cores busy,
/// small enough that a chunk's bodies never weigh much.
const CHUNK: usize = 64;

/// Decode a page's bytes and parse them; empty and binary pages are errors.
pub fn decode_and_parse(page: &Page) -> Result<(dom::ParsedPage, charset::Decoded), PageError> {
    let fail = |kind, message: String| PageError {
        path: page.path.clone(),
        url: page.url.clone(),
        kind,
        message,
    };
    if page.body.iter().all(|b| b.is_ascii_whitespace()) {
        return Err(fail(ErrorKind::Empty, "empty page".into()));
    }
    let host = url::Url::parse(&page.url)
        .ok()
        .and_then(|u| u.host_str().map(str::to_string));
    let tld = host
        .as_deref()
        .and_then(|h| h.rsplit('.').next())
        .map(str::as_bytes);
    let decoded = charset::decode_html(&page.body, page.content_type.as_deref(), tld);
    if looks_binary(&decoded.text) {
        return Err(fail(
            ErrorKind::Binary,
            "not text: binary data or an undecodable encoding".into(),
        ));
    }
    let parsed = dom::parse_page(&decoded.text);
    Ok((parsed, decoded))
}

/// Extract one page: decode, parse, run the cascade.
pub fn extract_page(
    page: &Page,
    cascade: &Cascade,
    config: &Config,
) -> Result<ExtractRecord, PageError> {
    let (parsed, decoded) = decode_and_parse(page)?;
    let group = group_key(&page.url, config.group_depth);
    let ctx = PageContext {
        url: &page.url,
        group: &group,
    };
    let answer = cascade.answer(&parsed, &ctx);
    let found = answer.extracted;
    let visible = parsed.dom.visible_words();
    let boilerplate_ratio = if visible == 0 {
        0.0
    } else {
        1.0 - found.kept_words.min(visible) as f64 / visible as f64
    };
    Ok(ExtractRecord {
        path: page.path.clone(),
        url: page.url.clone(),
        group,
        title: answer
            .title
            .unwrap_or_else(|| title::page_title(&parsed.dom, Some(&page.url))),
        text: found.text,
        method: answer.method,
        date: answer.date,
        fetched_at: page.fetched_at,
        popularity: page.popularity,
        boilerplate_ratio: (boilerplate_ratio * 10_000.0).round() / 10_000.0,
        template_ratio: found.template_ratio,
        charset: decoded.label(),
        empty_reason: found.empty_reason,
    })
}

/// Control characters (other than whitespace) or replacement characters in more than
/// a tenth of the first 4,096 characters: not a text page.
fn looks_binary(text: &str) -> bool {
    let mut total = 0usize;
    let mut bad = 0usize;
    for c in text.chars().take(4096) {
        total += 1;
        if c == '\u{FFFD}' || (c.is_control() && !matches!(c, '\t' | '\n' | '\r' | '\u{0C}')) {
            bad += 1;
        }
    }
    total > 0 && bad * 10 > total
}

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
    fn count(&mut self, result: &Result<ExtractRecord, PageError>) {
        self.pages += 1;
        match result {
            Ok(r) => {
                self.extracted += 1;
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
}

/// Streams the pages of `inputs` through `work` on the thread pool, calling `sink` with
/// the results in input order. `chunk_done` runs after each chunk's work, before its
/// results are sunk (extractors that learn from earlier pages advance there, so results
/// do not depend on the thread count). Returns the number of WARC records skipped.
pub fn stream_pages<T: Send>(
    inputs: &source::Inputs,
    config: &Config,
    work: impl Fn(Page) -> Result<T, PageError> + Sync,
    chunk_done: impl Fn(),
    mut sink: impl FnMut(Result<T, PageError>) -> Result<()>,
) -> Result<usize> {
    let limits = ReadLimits {
        max_page_bytes: config.max_page_bytes,
    };
    let mut warc_skipped = 0;
    let mut file_jobs = inputs
        .errors
        .iter()
        .cloned()
        .map(PageJob::Failed)
        .chain(inputs.files.iter().cloned().map(PageJob::File));
    let mut warc_files = inputs.warcs.iter();
    let mut warc: Option<source::warc::WarcPages> = None;
    loop {
        // Fill a chunk: files first, then the records of each WARC file in turn.
        let mut chunk: Vec<PageJob> = Vec::with_capacity(CHUNK);
        while chunk.len() < CHUNK {
            if let Some(job) = file_jobs.next() {
                chunk.push(job);
                continue;
            }
            if let Some(pages) = warc.as_mut() {
                if let Some(job) = pages.next() {
                    chunk.push(job);
                    continue;
                }
                for (uri, reason) in &pages.skipped {
                    tracing::info!("WARC record skipped: {uri}: {reason}");
                }
                warc_skipped += pages.skipped.len();
                warc = None;
            }
            match warc_files.next() {
                Some(path) => match source::warc::WarcPages::open(path, config.max_page_bytes) {
                    Ok(pages) => warc = Some(pages),
                    Err(e) => chunk.push(PageJob::Failed(e)),
                },
                None => break,
            }
        }
        if chunk.is_empty() {
            break;
        }
        let results: Vec<_> = chunk
            .into_par_iter()
            .map(|job| work(job.load(limits)?))
            .collect();
        chunk_done();
        for r in results {
            sink(r)?;
        }
    }
    Ok(warc_skipped)
}

/// Streams the pages of `inputs` through extraction, calling `sink` in input order.
/// `per_page` runs in the worker right after extraction (e.g. to sign the text) and
/// its result travels with the record.
pub fn extract_all<T: Send>(
    inputs: &source::Inputs,
    config: &Config,
    cascade: &Cascade,
    progress: &indicatif::ProgressBar,
    per_page: impl Fn(&ExtractRecord) -> T + Sync,
    mut sink: impl FnMut(Result<(ExtractRecord, T), PageError>) -> Result<()>,
) -> Result<usize> {
    stream_pages(
        inputs,
        config,
        |page| {
            let record = extract_page(&page, cascade, config)?;
            let extra = per_page(&record);
            Ok((record, extra))
        },
        || cascade.end_batch(),
        |result| {
            progress.inc(1);
            sink(result)
        },
    )
}

/// What the Infholder learning pass did (for `summary.json`).
#[derive(Debug, Default, Clone, Serialize)]
pub struct LearnReport {
    pub pages_parsed: usize,
    pub templates_learned: usize,
    pub templates_loaded: usize,
    /// Saved templates replaced because most of this run's pages no longer matched them.
    pub templates_relearned: usize,
    pub seconds: f64,
}

/// Build the extraction cascade for a run: `front` extractors (e.g. site rules) first,
/// then Infholder with templates learned from `inputs` (and loaded from / saved to
/// `templates_dir`), then the local heuristic.
pub fn build_cascade(
    inputs: &source::Inputs,
    config: &Config,
    front: Vec<Box<dyn crate::extract::Extractor>>,
    templates_dir: Option<&Path>,
) -> Result<(Cascade, Option<LearnReport>)> {
    use crate::extract::infholder::{self, Infholder, Learner, TemplateStore};
    let mut steps = front;
    let mut report = None;
    if config.infholder.enabled {
        let start = Instant::now();
        let saved = match templates_dir {
            Some(dir) => TemplateStore::load(dir)?,
            None => TemplateStore::default(),
        };
        let probe = Infholder::new(
            saved.clone(),
            config.infholder.clone(),
            config.heuristic.clone(),
        );
        let mut learner = Learner::new(&config.infholder);
        // Per saved template: pages of this run it was tried on, and how many it did not fit.
        let mut fit: std::collections::HashMap<String, (usize, usize)> = Default::default();
        let mut pages_seen = 0;
        // Without saved templates to check, only the pages some sample needs are parsed
        // (URLs of files are known before reading); WARC records are all read.
        let learn_inputs;
        let pass_inputs = if saved.templates.is_empty() {
            let sample = infholder::sample_urls(
                inputs.files.iter().map(|f| f.url.as_str()),
                &config.infholder,
            );
            let (sampled, counted): (Vec<_>, Vec<_>) = inputs
                .files
                .iter()
                .cloned()
                .partition(|f| sample.contains(f.url.as_str()));
            for f in &counted {
                learner.count(&f.url);
            }
            learn_inputs = source::Inputs {
                files: sampled,
                warcs: inputs.warcs.clone(),
                errors: Vec::new(),
            };
            &learn_inputs
        } else {
            inputs
        };
        stream_pages(
            pass_inputs,
            config,
            |page| {
                let (parsed, _) = decode_and_parse(&page)?;
                let vector = infholder::block_vector(&parsed.dom);
                let saved_fit = saved.candidates(&page.url).next().map(|t| {
                    let ok = probe.template_mask(&vector, &page.url).is_ok();
                    (t.group.clone(), ok)
                });
                Ok((page.url, vector, saved_fit))
            },
            || {},
            |result| {
                if let Ok((url, vector, saved_fit)) = result {
                    pages_seen += 1;
                    learner.add(&url, vector);
                    if let Some((group, ok)) = saved_fit {
                        let e = fit.entry(group).or_default();
                        e.0 += 1;
                        e.1 += usize::from(!ok);
                    }
                }
                Ok(())
            },
        )?;
        let learned = learner.learn(&config.infholder);
        let mut store = saved.clone();
        let mut r = LearnReport {
            pages_parsed: pages_seen,
            templates_loaded: saved.templates.len(),
            ..LearnReport::default()
        };
        for (group, template) in learned.templates {
            match saved.templates.get(&group) {
                None => {
                    r.templates_learned += 1;
                    store.templates.insert(group, template);
                }
                Some(_) => {
                    let (tried, misfit) = fit.get(&group).copied().unwrap_or_default();
                    if tried > 0 && misfit * 2 > tried {
                        tracing::info!(
                            "template {group} no longer fits {misfit} of {tried} pages: relearned"
                        );
                        r.templates_relearned += 1;
                        store.templates.insert(group, template);
                    }
                }
            }
        }
        if let Some(dir) = templates_dir {
            store.save(dir)?;
        }
        r.seconds = round3(start.elapsed().as_secs_f64());
        report = Some(r);
        steps.push(Box::new(Infholder::new(
            store,
            config.infholder.clone(),
            config.heuristic.clone(),
        )));
    }
    steps.push(Box::new(crate::extract::heuristic::Heuristic::new(
        config.heuristic.clone(),
    )));
    Ok((Cascade::new(steps), report))
}

fn print_page_error(e: &PageError) {
    eprintln!(
        "error: {}{}: {}",
        e.path,
        if e.url.is_empty() {
            String::new()
        } else {
            format!(" ({})", e.url)
        },
        e.message
    );
}

/// Open an output file (or stdout for `-`), creating parent directories.
pub fn open_output(path: Option<&Path>) -> Result<Box<dyn Write>> {
    match path {
        None => Ok(Box::new(std::io::BufWriter::new(std::io::stdout()))),
        Some(p) if p == Path::new("-") => Ok(Box::new(std::io::BufWriter::new(std::io::stdout()))),
        Some(p) => {
            if let Some(dir) = p.parent().filter(|d| !d.as_os_str().is_empty()) {
                std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
            }
            let f = std::fs::File::create(p).map_err(|e| Error::io(p, e))?;
            Ok(Box::new(std::io::BufWriter::with_capacity(1 << 16, f)))
        }
    }
}

fn write_json(out: &mut dyn Write, value: &impl Serialize, path: &Path) -> Result<()> {
    serde_json::to_writer(&mut *out, value).map_err(|e| Error::Output {
        path: path.to_owned(),
        source: e.into(),
    })?;
    out.write_all(b"\n").map_err(|e| Error::Output {
        path: path.to_owned(),
        source: e,
    })
}

/// `thresher extract`: one JSON record per page. Returns the summary.
pub fn run_extract(
    inputs: source::Inputs,
    config: &Config,
    cascade: &Cascade,
    learn: Option<LearnReport>,
    out: &mut dyn Write,
    out_path: &Path,
    progress: &indicatif::ProgressBar,
) -> Result<Summary> {
    let start = Instant::now();
    let mut summary = Summary::default();
    let skipped = extract_all(
        &inputs,
        config,
        cascade,
        progress,
        |_| (),
        |result| {
            let result = result.map(|(r, ())| r);
            summary.count(&result);
            match &result {
                Ok(record) => write_json(out, record, out_path),
                Err(e) => {
                    print_page_error(e);
                    write_json(out, &ErrorRecord::from(e), out_path)
                }
            }
        },
    )?;
    out.flush().map_err(|e| Error::Output {
        path: out_path.to_owned(),
        source: e,
    })?;
    summary.warc_records_skipped = skipped;
    summary.infholder = learn;
    summary.extractors = cascade.report();
    finish_timing(&mut summary, "extract", start);
    Ok(summary)
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

/// A cluster as written to `clusters.jsonl`.
#[derive(Debug, Serialize)]
pub struct ClusterRecord<'a> {
    pub cluster: &'a str,
    pub main: &'a str,
    pub size: usize,
    pub members: Vec<&'a str>,
    /// Each member's similarity to the main.
    pub similarity: BTreeMap<&'a str, f64>,
    /// Members listed here too but belonging first to a better main's cluster.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub shared: Vec<&'a str>,
    pub reason: &'a str,
}

/// Write clusters as JSONL.
pub fn write_clusters(
    clusters: &[Cluster],
    docs: &[DocEntry],
    out: &mut dyn Write,
    out_path: &Path,
) -> Result<()> {
    for c in clusters {
        let rec = ClusterRecord {
            cluster: &c.id,
            main: &docs[c.main].meta.key,
            size: c.members.len(),
            members: c
                .members
                .iter()
                .map(|m| docs[m.0].meta.key.as_str())
                .collect(),
            similarity: c
                .members
                .iter()
                .map(|m| {
                    (
                        docs[m.0].meta.key.as_str(),
                        (m.1 * 10_000.0).round() / 10_000.0,
                    )
                })
                .collect(),
            shared: c
                .shared
                .iter()
                .map(|&m| docs[m].meta.key.as_str())
                .collect(),
            reason: &c.reason,
        };
        write_json(out, &rec, out_path)?;
    }
    out.flush().map_err(|e| Error::Output {
        path: out_path.to_owned(),
        source: e,
    })
}

/// What `thresher run` writes into `pages.jsonl` (clusters.jsonl is always complete).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum DuplicatePolicy {
    /// Every page, as extracted: no dedup fields (the clusters are in clusters.jsonl).
    Keep,
    /// Every page plus `cluster`, `is_main`, `main` (default).
    #[default]
    Mark,
    /// Only main documents and pages outside clusters (with the same fields).
    Drop,
}

/// `thresher run`: extract, dedup, choose main; write `pages.jsonl`, `clusters.jsonl`
/// and `summary.json` into `out_dir`.
pub fn run_pipeline(
    inputs: source::Inputs,
    config: &Config,
    cascade: &Cascade,
    learn: Option<LearnReport>,
    out_dir: &Path,
    duplicates: DuplicatePolicy,
    progress: &indicatif::ProgressBar,
) -> Result<Summary> {
    let start = Instant::now();
    std::fs::create_dir_all(out_dir).map_err(|e| Error::io(out_dir, e))?;
    // Pass 1: extraction records go to a temporary file; signatures stay in memory.
    let tmp_path = out_dir.join(".pages.partial.jsonl");
    let mut tmp = open_output(Some(&tmp_path))?;
    let signer = Signer::new(&config.dedup);
    let mut docs: Vec<DocEntry> = Vec::new();
    let mut summary = Summary::default();
    let skipped = extract_all(
        &inputs,
        config,
        cascade,
        progress,
        // Methods that need collection statistics sign after this pass.
        |record| {
            if config.dedup.method.needs_stats() {
                None
            } else {
                signer.sign(&record.text)
            }
        },
        |result| {
            let plain = result
                .as_ref()
                .map(|(r, _)| r.clone())
                .map_err(Clone::clone);
            summary.count(&plain);
            match result {
                Ok((record, signature)) => {
                    docs.push(DocEntry {
                        meta: DocMeta {
                            key: record.path.clone(),
                            fetched_at: record.fetched_at,
                            popularity: record.popularity,
                            boilerplate_ratio: record.boilerplate_ratio,
                        },
                        signature,
                    });
                    write_json(&mut *tmp, &record, &tmp_path)
                }
                Err(e) => {
                    print_page_error(&e);
                    write_json(&mut *tmp, &ErrorRecord::from(&e), &tmp_path)
                }
            }
        },
    )?;
    tmp.flush().map_err(|e| Error::Output {
        path: tmp_path.clone(),
        source: e,
    })?;
    drop(tmp);
    summary.warc_records_skipped = skipped;
    summary.infholder = learn;
    summary.extractors = cascade.report();
    finish_timing(&mut summary, "extract", start);

    let dedup_start = Instant::now();
    if config.dedup.method.needs_stats() {
        // Second pass over the extracted texts, now with df/cf/N (same record order).
        let stats = collection_stats(std::slice::from_ref(&tmp_path))?;
        let signer = Signer::with_stats(&config.dedup, Some(std::sync::Arc::new(stats)));
        let (signed, _) = read_and_sign(std::slice::from_ref(&tmp_path), &signer)?;
        for (doc, s) in docs.iter_mut().zip(signed) {
            doc.signature = s.signature;
        }
    }
    let (clusters, stats) = dedup::find_clusters(&docs, &config.dedup);
    summary
        .timings_s
        .insert("dedup", round3(dedup_start.elapsed().as_secs_f64()));
    summary.dedup = Some(stats);

    let write_start = Instant::now();
    let clusters_path = out_dir.join("clusters.jsonl");
    let mut out = open_output(Some(&clusters_path))?;
    write_clusters(&clusters, &docs, &mut *out, &clusters_path)?;
    drop(out);

    // Pass 2: add the cluster fields to each page record.
    let mut membership: std::collections::HashMap<&str, (&str, &str)> = Default::default();
    for c in &clusters {
        let main = docs[c.main].meta.key.as_str();
        for m in c.members.iter().filter(|m| !c.shared.contains(&m.0)) {
            membership.insert(docs[m.0].meta.key.as_str(), (c.id.as_str(), main));
        }
    }
    let pages_path = out_dir.join("pages.jsonl");
    let mut out = open_output(Some(&pages_path))?;
    let tmp_in = std::fs::File::open(&tmp_path).map_err(|e| Error::io(&tmp_path, e))?;
    for (n, line) in std::io::BufReader::new(tmp_in).lines().enumerate() {
        let line = line.map_err(|e| Error::io(&tmp_path, e))?;
        let mut value: serde_json::Value =
            serde_json::from_str(&line).map_err(|e| Error::BadLine {
                path: tmp_path.clone(),
                line: n + 1,
                message: e.to_string(),
            })?;
        if let Some(obj) = value.as_object_mut().filter(|o| !o.contains_key("error")) {
            let path = obj
                .get("path")
                .and_then(|p| p.as_str())
                .unwrap_or("")
                .to_string();
            let (cluster, main) = match membership.get(path.as_str()) {
                Some(&(id, main)) => (Some(id.to_string()), Some(main.to_string())),
                None => (None, None),
            };
            let is_main = main.as_deref().is_none_or(|m| m == path);
            if duplicates == DuplicatePolicy::Drop && !is_main {
                continue;
            }
            if duplicates == DuplicatePolicy::Keep {
                write_json(&mut *out, &value, &pages_path)?;
                continue;
            }
            obj.insert("cluster".into(), cluster.into());
            obj.insert("is_main".into(), is_main.into());
            obj.insert("main".into(), main.into());
        }
        write_json(&mut *out, &value, &pages_path)?;
    }
    out.flush().map_err(|e| Error::Output {
        path: pages_path.clone(),
        source: e,
    })?;
    drop(out);
    let _ = std::fs::remove_file(&tmp_path);
    summary
        .timings_s
        .insert("write", round3(write_start.elapsed().as_secs_f64()));
    summary.timings_s.insert(
        "total",
        round3(
            start.elapsed().as_secs_f64() + summary.timings_s.get("learn").copied().unwrap_or(0.0),
        ),
    );
    let summary_path = out_dir.join("summary.json");
    let text = serde_json::to_string_pretty(&summary).expect("summary serializes");
    std::fs::write(&summary_path, text + "\n").map_err(|e| Error::Output {
        path: summary_path,
        source: e,
    })?;
    Ok(summary)
}

fn round3(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}

/// A record read by `thresher dedup`.
#[derive(Debug, serde::Deserialize)]
struct DedupInput {
    #[serde(default)]
    id: Option<serde_json::Value>,
    #[serde(default)]
    path: Option<String>,
    #[serde(default)]
    url: Option<String>,
    #[serde(default)]
    text: Option<String>,
    #[serde(default)]
    fetched_at: Option<chrono::DateTime<chrono::Utc>>,
    #[serde(default)]
    popularity: Option<f64>,
    #[serde(default)]
    boilerplate_ratio: Option<f64>,
    #[serde(default)]
    error: Option<serde_json::Value>,
}

fn open_jsonl(file: &Path) -> Result<Box<dyn BufRead>> {
    let f = std::fs::File::open(file).map_err(|e| Error::io(file, e))?;
    Ok(if file.extension().is_some_and(|e| e == "gz") {
        Box::new(std::io::BufReader::new(flate2::read::MultiGzDecoder::new(
            f,
        )))
    } else {
        Box::new(std::io::BufReader::new(f))
    })
}

/// First pass of the lexical methods: df, cf, N and lengths of the collection's terms
/// (texts of the JSONL records that are not error records).
pub fn collection_stats(files: &[PathBuf]) -> Result<dedup::CollectionStats> {
    #[derive(serde::Deserialize)]
    struct TextOnly {
        #[serde(default)]
        text: Option<String>,
        #[serde(default)]
        error: Option<serde_json::Value>,
    }
    let normalizer = dedup::lexical::LexicalSigner::stats_normalizer();
    let mut stats = dedup::CollectionStats::default();
    for file in files {
        let mut lines = open_jsonl(file)?.lines();
        loop {
            let chunk: Vec<String> = lines
                .by_ref()
                .take(1024)
                .collect::<std::io::Result<_>>()
                .map_err(|e| Error::io(file, e))?;
            if chunk.is_empty() {
                break;
            }
            let part = chunk
                .par_iter()
                .fold(dedup::CollectionStats::default, |mut st, line| {
                    if let Ok(TextOnly {
                        text: Some(t),
                        error: None,
                    }) = serde_json::from_str(line)
                    {
                        st.add_text(&normalizer, &t);
                    }
                    st
                })
                .reduce(dedup::CollectionStats::default, |a, b| a.merge(b));
            stats = stats.merge(part);
        }
    }
    Ok(stats)
}

/// Read JSONL documents (optionally `.gz`) and sign them in parallel. Lines that are
/// error records or have no key are skipped with a warning; invalid JSON is an error
/// naming the file and line.
pub fn read_and_sign(files: &[PathBuf], signer: &Signer) -> Result<(Vec<DocEntry>, usize)> {
    let mut docs = Vec::new();
    let mut skipped = 0;
    for file in files {
        let f = std::fs::File::open(file).map_err(|e| Error::io(file, e))?;
        let reader: Box<dyn BufRead> = if file.extension().is_some_and(|e| e == "gz") {
            Box::new(std::io::BufReader::new(flate2::read::MultiGzDecoder::new(
                f,
            )))
        } else {
            Box::new(std::io::BufReader::new(f))
        };
        let mut reader = reader;
        let mut line_no = 0usize;
        loop {
            // Raw lines: serde_json checks UTF-8 itself, once.
            let mut chunk: Vec<(usize, Vec<u8>)> = Vec::with_capacity(1024);
            while chunk.len() < 1024 {
                let mut line = Vec::new();
                let n = reader
                    .read_until(b'\n', &mut line)
                    .map_err(|e| Error::io(file, e))?;
                if n == 0 {
                    break;
                }
                line_no += 1;
                chunk.push((line_no, line));
            }
            if chunk.is_empty() {
                break;
            }
            let parsed: Vec<Result<Option<DocEntry>>> = chunk
                .par_iter()
                .map(|(n, line)| {
                    if line.trim_ascii().is_empty() {
                        return Ok(None);
                    }
                    let rec: DedupInput =
                        serde_json::from_slice(line).map_err(|e| Error::BadLine {
                            path: file.clone(),
                            line: *n,
                            message: e.to_string(),
                        })?;
                    let key = match (&rec.id, &rec.path, &rec.url) {
                        (Some(serde_json::Value::String(s)), _, _) => s.clone(),
                        (Some(v), _, _) if !v.is_null() => v.to_string(),
                        (_, Some(p), _) => p.clone(),
                        (_, _, Some(u)) => u.clone(),
                        _ => return Ok(None),
                    };
                    if rec.error.is_some() {
                        return Ok(None);
                    }
                    let text = rec.text.unwrap_or_default();
                    Ok(Some(DocEntry {
                        meta: DocMeta {
                            key,
                            fetched_at: rec.fetched_at,
                            popularity: rec.popularity.unwrap_or(0.0),
                            boilerplate_ratio: rec.boilerplate_ratio.unwrap_or(0.0),
                        },
                        signature: signer.sign(&text),
                    }))
                })
                .collect();
            for p in parsed {
                match p? {
                    Some(d) => docs.push(d),
                    None => skipped += 1,
                }
            }
        }
    }
    Ok((docs, skipped))
}
