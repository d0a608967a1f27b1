//! The records that flow between the pipeline stages. Plain data, no handles into
//! another stage's internals, so that each stage can also run alone on JSONL.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

/// One fetched or stored page, before decoding.
#[derive(Debug, Clone)]
pub struct Page {
    /// The path as the user knows it: the manifest's `path`, else the file path as found
    /// from the command-line argument (for WARC records: `file.warc.gz#<record number>`).
    pub path: String,
    /// Absolute URL of the page.
    pub url: String,
    /// When the page was first seen.
    pub fetched_at: Option<DateTime<Utc>>,
    /// Popularity of the page or its site (higher is more popular).
    pub popularity: f64,
    /// HTTP `Content-Type` (from a manifest or a WARC response), used for the charset.
    pub content_type: Option<String>,
    /// Raw bytes of the body, not yet decoded.
    pub body: Vec<u8>,
    /// Bytes past `max_page_bytes` were dropped: `body` is the page's beginning.
    pub cut: bool,
    /// The WARC file the page is a record of (the file on disk, which for a stream is a
    /// temporary copy): a rendered page's requests for other records of it (scripts,
    /// stylesheets, data, frames) are answered from them. `None` for other inputs.
    pub warc_file: Option<std::sync::Arc<std::path::Path>>,
}

impl Page {
    /// Keep only the first `max_page_bytes` bytes of the body, marking the page as cut
    /// when bytes were dropped (its record then says `truncated_at`).
    pub fn cut_to(&mut self, max_page_bytes: usize) {
        if self.body.len() > max_page_bytes {
            self.body.truncate(max_page_bytes);
            self.cut = true;
        }
    }
}

/// Why a page produced no record. The `kind` is what `summary.json` counts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PageError {
    pub path: String,
    pub url: String,
    pub kind: ErrorKind,
    pub message: String,
}

/// Kinds of per-page failures, counted separately in `summary.json`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorKind {
    /// The file could not be read.
    Read,
    /// The gzip stream is corrupt or truncated.
    Decompress,
    /// The file is empty.
    Empty,
    /// The bytes are not text (binary data).
    Binary,
    /// A WARC record could not be parsed.
    Warc,
    /// A JSONL line (dedup input, manifest) that is not a JSON object of the expected shape.
    Json,
    /// A dedup input record without a `text` string.
    NoText,
    /// A dedup input record without a key (`id`, `path` or `url`).
    NoKey,
    /// A manifest line that cannot be used (not JSON, no `path`/`url`).
    Manifest,
    /// An input path (directory, WARC) that yielded no pages at all.
    NoPages,
    /// A Parquet file of pages that cannot be read, or a row of it without `url` or
    /// `html` (`source/parquet_pages.rs`).
    Parquet,
    /// A URL of `run --fetch` that could not be fetched (outcome `error` or `refused` in
    /// the crawl manifest).
    Fetch,
    /// `--render --render-fallback error`: the browser could not render the page (missing,
    /// crashed, hung).
    Render,
}

impl ErrorKind {
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorKind::Read => "read",
            ErrorKind::Decompress => "decompress",
            ErrorKind::Empty => "empty",
            ErrorKind::Binary => "binary",
            ErrorKind::Warc => "warc",
            ErrorKind::Json => "json",
            ErrorKind::NoText => "no_text",
            ErrorKind::NoKey => "no_key",
            ErrorKind::Manifest => "manifest",
            ErrorKind::NoPages => "no_pages",
            ErrorKind::Parquet => "parquet",
            ErrorKind::Fetch => "fetch",
            ErrorKind::Render => "render",
        }
    }
}

impl std::fmt::Display for PageError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.path, self.message)
    }
}

/// The record `thresher extract` writes for each page (one JSON object a line), and the
/// part of `pages.jsonl` that `thresher run` writes before the dedup fields.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct ExtractRecord {
    pub path: String,
    pub url: String,
    /// URL-prefix group of the page (see `group`).
    pub group: String,
    pub title: String,
    /// The main text, blocks separated by `\n`.
    pub text: String,
    /// The main text as Markdown (`output_format: markdown`): the same blocks as `text`.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub markdown: Option<String>,
    /// The main text as clean HTML (`output_format: html`): the same blocks as `text`.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub html: Option<String>,
    /// Which extractor produced `text` (e.g. `heuristic`, `rules:<file>#<rule>`).
    pub method: String,
    /// Publication date as the page shows it, when the method knows where it is (rules).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub date: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub fetched_at: Option<DateTime<Utc>>,
    #[serde(default)]
    pub popularity: f64,
    /// Share of the page's visible words that were removed as boilerplate.
    pub boilerplate_ratio: f64,
    /// Share of the page's visible words removed as cross-page template (Infholder).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub template_ratio: Option<f64>,
    /// The encoding the bytes were decoded with, and how it was chosen.
    pub charset: String,
    /// When the text is empty: why.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub empty_reason: Option<String>,
    /// `max_page_bytes` when the page was longer and only its beginning was read (absent
    /// for whole pages).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub truncated_at: Option<usize>,
    /// The tag budget (`max_page_bytes` / 64 opening tags, `dom::max_tags`) when the page had more tags
    /// and only its part before them was parsed (absent for pages within it).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub tags_cut_at: Option<usize>,
    /// How many attributes were dropped before parsing, past the page's attribute budget
    /// (`max_page_bytes` / 16, `dom::max_attributes`) or a tag's 1,000
    /// (`dom::MAX_ATTRIBUTES_PER_TAG`); absent for pages within them.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub attributes_dropped: Option<usize>,
    /// Publication date, language, canonical URL, author, site name, description
    /// (`extract::metadata`), written after the fields above.
    #[serde(flatten)]
    pub metadata: crate::extract::metadata::Metadata,
}

/// The record of a page that failed, as written into the JSONL outputs.
#[derive(Debug, Clone, Serialize)]
pub struct ErrorRecord<'a> {
    pub path: &'a str,
    pub url: &'a str,
    pub error: String,
    pub error_kind: &'static str,
}

impl<'a> From<&'a PageError> for ErrorRecord<'a> {
    fn from(e: &'a PageError) -> Self {
        ErrorRecord {
            path: &e.path,
            url: &e.url,
            error: e.message.clone(),
            error_kind: e.kind.as_str(),
        }
    }
}
