//! The pages `thresher rules suggest` drafts from: read from the inputs (files, a
//! manifest, WARC files), answered by the same cascade `extract` runs on them (the
//! cross-page method learns on these pages, as it would in a run over them), then
//! grouped by site and handed to `extract::rules::suggest::draft`, one site at a time
//! (only one site's parsed pages are in memory at once).

use std::collections::BTreeMap;
use std::path::PathBuf;

use crate::config::Config;
use crate::error::Result;
use crate::extract::rules::normalize_host;
use crate::extract::rules::suggest::{draft, Draft, SitePage, SuggestOptions};
use crate::extract::{heuristic, PageContext};
use crate::group::group_key;
use crate::page::{Page, PageError};
use crate::source::{self, PageJob, ReadLimits};

use super::extract::decode_and_parse_within;
use super::learn::build_cascade_for_pages;

/// A page read for drafting, with the file it came from when it is a page file of its
/// own (a WARC record has none).
pub struct InputPage {
    pub page: Page,
    pub file: Option<PathBuf>,
}

/// Every page of `inputs` (page files and WARC records), and the pages that could not
/// be read.
pub fn read_pages(inputs: source::Inputs, config: &Config) -> (Vec<InputPage>, Vec<PageError>) {
    let limits = ReadLimits {
        max_page_bytes: config.max_page_bytes,
    };
    let mut errors = inputs.errors;
    let mut out = Vec::new();
    for f in inputs.files {
        let file = f.file.clone();
        match PageJob::File(f).load(limits) {
            Ok(page) => out.push(InputPage {
                page,
                file: Some(file),
            }),
            Err(e) => errors.push(e),
        }
    }
    for w in &inputs.warcs {
        match source::warc::WarcPages::open_as(&w.file, &w.shown, config.max_page_bytes) {
            Ok(records) => {
                for job in records {
                    match job.load(limits) {
                        Ok(page) => out.push(InputPage { page, file: None }),
                        Err(e) => errors.push(e),
                    }
                }
            }
            Err(e) => errors.push(PageError {
                path: w.shown.display().to_string(),
                url: String::new(),
                kind: crate::page::ErrorKind::Read,
                message: e.to_string(),
            }),
        }
    }
    (out, errors)
}

/// One site's outcome: its host, the indices of its pages, the draft or why none.
pub struct SiteDraft {
    pub host: String,
    pub pages: Vec<usize>,
    pub draft: std::result::Result<Draft, String>,
}

/// The host a page's rule file would claim (lower-case, no `www.`).
fn host_of(url: &str) -> Option<String> {
    let host = url::Url::parse(url).ok()?.host_str()?.to_string();
    let h = normalize_host(&host)?;
    Some(h.strip_prefix("www.").map(str::to_string).unwrap_or(h))
}

/// Draft a rule file for each site of `pages`.
pub fn draft_sites(
    pages: &[InputPage],
    config: &Config,
    opts: &SuggestOptions,
) -> Result<Vec<SiteDraft>> {
    let raw: Vec<Page> = pages.iter().map(|p| p.page.clone()).collect();
    let (cascade, _) = build_cascade_for_pages(&raw, config, Vec::new(), None)?;
    let mut sites: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    for (i, p) in pages.iter().enumerate() {
        let host = host_of(&p.page.url).unwrap_or_default();
        sites.entry(host).or_default().push(i);
    }
    let mut out = Vec::new();
    for (host, members) in sites {
        if host.is_empty() {
            out.push(SiteDraft {
                host: "(no host)".into(),
                pages: members,
                draft: Err(
                    "pages without an http(s) URL: give a --manifest with their URLs".into(),
                ),
            });
            continue;
        }
        let mut site_pages = Vec::new();
        let mut parsed_members = Vec::new();
        for &i in &members {
            let page = &pages[i].page;
            let Ok((parsed, _)) = decode_and_parse_within(page, config.max_page_bytes) else {
                continue;
            };
            let group = group_key(&page.url, config.group_depth);
            let ctx = PageContext {
                url: &page.url,
                group: &group,
            };
            let answer = cascade.answer(&parsed, &ctx);
            let local = heuristic::extract(&parsed.dom, &config.heuristic);
            parsed_members.push(i);
            site_pages.push(SitePage {
                url: page.url.clone(),
                parsed,
                answer: answer.extracted,
                method: answer.method,
                heuristic: local,
            });
        }
        let result = draft(&host, &site_pages, opts).map(|mut d| {
            // Tests name pages by their index among the site's pages; the caller's
            // indices are over all pages.
            for t in &mut d.tests {
                t.page = parsed_members[t.page];
            }
            d.urls = pages.iter().map(|p| p.page.url.clone()).collect();
            d
        });
        out.push(SiteDraft {
            host,
            pages: members,
            draft: result,
        });
    }
    Ok(out)
}
