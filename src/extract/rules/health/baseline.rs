//! The memory `rules test --pages` compares with: a JSONL file, one [`PageProbe`] per
//! line (rule file, rule, page, URL, the words the rule kept and their start, and per
//! XPath the nodes, words and first words it selected), written by `--save-baseline FILE`
//! on pages where the rules work, read by `--baseline FILE` later. A page is known by its
//! rule file and URL (or its file when it has no URL), so a site's new crawl is compared
//! with the saved one page by page.

use std::collections::HashMap;
use std::io::BufRead;
use std::path::Path;

use super::PageProbe;
use crate::error::{Error, Result};

/// Saved probes by (rule file, page key).
#[derive(Debug, Default)]
pub struct Baseline {
    pages: HashMap<(String, String), PageProbe>,
}

/// How a page is known across runs: its URL, else its file.
pub fn page_key(p: &PageProbe) -> String {
    if p.url.is_empty() {
        p.page.clone()
    } else {
        p.url.clone()
    }
}

impl Baseline {
    /// Reads a baseline; a bad line is an error naming the file and line.
    pub fn read(path: &Path) -> Result<Self> {
        let file = std::fs::File::open(path).map_err(|e| Error::io(path, e))?;
        let mut pages = HashMap::new();
        for (n, line) in std::io::BufReader::new(file).lines().enumerate() {
            let line = line.map_err(|e| Error::io(path, e))?;
            if line.trim().is_empty() {
                continue;
            }
            let p: PageProbe = serde_json::from_str(&line).map_err(|e| Error::BadLine {
                path: path.to_path_buf(),
                line: n + 1,
                message: format!("not a rules baseline record: {e}"),
            })?;
            pages.insert((p.file.clone(), page_key(&p)), p);
        }
        Ok(Baseline { pages })
    }

    /// Writes `probes` as a baseline (atomically: a crash leaves the old file).
    pub fn write(path: &Path, probes: &[PageProbe]) -> Result<()> {
        let mut out = String::new();
        for p in probes {
            out.push_str(&serde_json::to_string(p).unwrap_or_default());
            out.push('\n');
        }
        crate::atomic_file::write_atomic(path, out.as_bytes())
    }

    /// The saved probe of the page `p` is about.
    pub fn get(&self, p: &PageProbe) -> Option<&PageProbe> {
        self.pages.get(&(p.file.clone(), page_key(p)))
    }

    pub fn len(&self) -> usize {
        self.pages.len()
    }

    pub fn is_empty(&self) -> bool {
        self.pages.is_empty()
    }
}
