//! Gold standards of `eval extract`: `KIND:PATH` parsed, each format read into the same
//! list of [`GoldPage`]s (one file per format beside this one). Errors name the file and,
//! for JSON, the line; a gold that cannot be read whole is an error, not a partial score.

use std::path::{Path, PathBuf};

use crate::error::{Error, Result};

mod cleaneval;
mod scrapinghub;
mod text;
mod wcxb;
mod withwithout;

/// The formats `--gold` reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum GoldKind {
    /// A WCXB ground-truth folder (`NNNN.json`; also daniel-dev's).
    Wcxb,
    /// ScrapingHub's `ground-truth.json`.
    Scrapinghub,
    /// trafilatura's `evaldata.json` of `with`/`without` snippets.
    Withwithout,
    /// A folder of CleanEval gold text files.
    Cleaneval,
    /// A folder of plain `<id>.txt` files.
    Text,
}

impl GoldKind {
    pub fn name(self) -> &'static str {
        match self {
            GoldKind::Wcxb => "wcxb",
            GoldKind::Scrapinghub => "scrapinghub",
            GoldKind::Withwithout => "withwithout",
            GoldKind::Cleaneval => "cleaneval",
            GoldKind::Text => "text",
        }
    }

    /// The measure the format is scored with, in words.
    pub fn measure(self) -> &'static str {
        match self {
            GoldKind::Scrapinghub => {
                "shingles: case-kept 4-word shingles, P and R averaged over pages, F1 of the averages"
            }
            GoldKind::Withwithout => {
                "snippets: `with` found = true positive, `without` found = false positive, counted over all snippets"
            }
            _ => "words: bag of lower-cased words per page, P, R and F1 averaged over pages",
        }
    }
}

/// What a gold page holds.
#[derive(Debug, Clone)]
pub enum Truth {
    /// The page's main text, scored by the word measure; `chinese` counts letters, not
    /// words; `snippets` (WCXB) adds the with/without rates.
    Words {
        text: String,
        chinese: bool,
        snippets: Option<(Vec<String>, Vec<String>)>,
    },
    /// The page's main text, scored by ScrapingHub's shingle measure.
    Shingles(String),
    /// Snippets that must and must not be in the text.
    Snippets {
        with: Vec<String>,
        without: Vec<String>,
    },
}

/// One page of a gold standard.
#[derive(Debug, Clone)]
pub struct GoldPage {
    /// How the page is named in the output.
    pub id: String,
    /// Prediction keys tried in order (a record's file name before the first dot, or its
    /// whole file name), as the Python scorers match.
    pub keys: Vec<String>,
    /// The page's URL, tried against the records' `url` when no key matched.
    pub url: Option<String>,
    pub page_type: Option<String>,
    pub language: Option<String>,
    pub truth: Truth,
}

/// A gold standard read whole.
#[derive(Debug, Clone)]
pub struct Gold {
    pub kind: GoldKind,
    pub path: PathBuf,
    pub pages: Vec<GoldPage>,
}

/// Reads `KIND:PATH`.
pub fn read(spec: &str) -> Result<Gold> {
    let (kind, path) = spec.split_once(':').ok_or_else(|| {
        Error::Config(format!(
            "--gold {spec}: expected KIND:PATH, KIND one of wcxb, scrapinghub, withwithout, cleaneval, text"
        ))
    })?;
    let kind = match kind {
        "wcxb" => GoldKind::Wcxb,
        "scrapinghub" => GoldKind::Scrapinghub,
        "withwithout" => GoldKind::Withwithout,
        "cleaneval" => GoldKind::Cleaneval,
        "text" => GoldKind::Text,
        other => {
            return Err(Error::Config(format!(
                "--gold {spec}: unknown kind {other:?} (wcxb, scrapinghub, withwithout, cleaneval, text)"
            )))
        }
    };
    let path = PathBuf::from(path);
    let pages = match kind {
        GoldKind::Wcxb => wcxb::read(&path)?,
        GoldKind::Scrapinghub => scrapinghub::read(&path)?,
        GoldKind::Withwithout => withwithout::read(&path)?,
        GoldKind::Cleaneval => cleaneval::read(&path)?,
        GoldKind::Text => text::read(&path)?,
    };
    if pages.is_empty() {
        return Err(Error::Config(format!(
            "--gold {spec}: no gold pages found in {}",
            path.display()
        )));
    }
    Ok(Gold { kind, path, pages })
}

/// A JSON file parsed whole; a syntax error names the file and line.
pub(super) fn read_json(path: &Path) -> Result<serde_json::Value> {
    let raw = std::fs::read(path).map_err(|e| Error::io(path, e))?;
    serde_json::from_slice(&raw).map_err(|e| Error::BadLine {
        path: path.to_path_buf(),
        line: e.line(),
        message: format!("bad JSON: {e}"),
    })
}

/// A JSON file holding one object, its entries in key order; `shape` says what the object
/// should hold (for the error when the file holds something else).
pub(super) fn read_json_object(
    path: &Path,
    shape: &str,
) -> Result<Vec<(String, serde_json::Value)>> {
    let serde_json::Value::Object(map) = read_json(path)? else {
        return Err(Error::BadLine {
            path: path.to_path_buf(),
            line: 1,
            message: format!("expected an object {shape}"),
        });
    };
    let mut entries: Vec<(String, serde_json::Value)> = map.into_iter().collect();
    entries.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(entries)
}

/// The files of `dir` whose names end with `suffix`, sorted by name (as Python's
/// `sorted(Path(dir).glob(...))`).
pub(super) fn files_ending(dir: &Path, suffix: &str) -> Result<Vec<PathBuf>> {
    let entries = std::fs::read_dir(dir).map_err(|e| Error::io(dir, e))?;
    let mut out = Vec::new();
    for entry in entries {
        let entry = entry.map_err(|e| Error::io(dir, e))?;
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if name.ends_with(suffix) && !name.starts_with('.') && entry.path().is_file() {
            out.push(entry.path());
        }
    }
    out.sort();
    Ok(out)
}

/// A file's name before its first dot (`html/0001.html.gz` → `0001`).
pub fn page_id(path: &str) -> &str {
    let name = path.rsplit('/').next().unwrap_or(path);
    name.split('.').next().unwrap_or(name)
}

/// A JSON value as a list of strings (snippets); anything else is none.
pub(super) fn strings(v: Option<&serde_json::Value>) -> Vec<String> {
    v.and_then(|v| v.as_array())
        .map(|a| {
            a.iter()
                .filter_map(|s| s.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

/// A plain-text gold file (text or CleanEval), read as UTF-8 with bad bytes replaced.
pub(super) fn read_text(path: &Path) -> Result<String> {
    let raw = std::fs::read(path).map_err(|e| Error::io(path, e))?;
    Ok(String::from_utf8_lossy(&raw).into_owned())
}
