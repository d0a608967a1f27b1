//! `thresher rules suggest`: draft rule files from pages of a site and write them after
//! the engine has checked them (`rules check` and `rules test` as written). Where the
//! files go, which test pages they name (a page file in place, relative to the rule
//! file; a WARC record or a compressed page copied next to it or under `--fixtures`),
//! and not overwriting a reviewed file.

use std::collections::HashSet;
use std::path::{Component, Path, PathBuf};
use std::process::ExitCode;

use clap::Args;

use crate::atomic_file::write_atomic;
use crate::config::Config;
use crate::error::{Error, Result};
use crate::extract::rules::suggest::{render, validate, Draft, SuggestOptions};
use crate::pipeline::{draft_sites, read_pages, InputPage};
use crate::source::{self, Manifest};

use super::fetch::FetchArgs;
use super::suggest_fetch::{fetch_urls, split_urls};

/// Options of `thresher rules suggest`.
#[derive(Debug, Args)]
pub struct SuggestArgs {
    /// Pages of the site: files, directories, WARC files, or http(s) URLs to fetch (at
    /// least three pages of a site; with --out-dir, of any number of sites). Without
    /// paths, the manifest's entries are read.
    #[arg(value_name = "PATH|URL")]
    pub paths: Vec<PathBuf>,
    /// JSONL manifest giving the pages' URLs (path relative to the manifest, url).
    #[arg(long)]
    pub manifest: Option<PathBuf>,
    /// Write the draft to this file (pages of one site only).
    #[arg(short = 'o', long, value_name = "FILE", conflicts_with = "out_dir")]
    pub output: Option<PathBuf>,
    /// Write one draft per site into this directory, as `<host>.yaml`.
    #[arg(long, value_name = "DIR")]
    pub out_dir: Option<PathBuf>,
    /// Copy the embedded tests' pages into DIR/<host>/ (default: page files are named
    /// where they are; WARC records and compressed pages are copied beside the rule
    /// file, into `<host>.pages/`).
    #[arg(long, value_name = "DIR")]
    pub fixtures: Option<PathBuf>,
    /// Embedded tests per draft (pages, each with a snippet kept and one left out).
    #[arg(long, default_value_t = 3)]
    pub tests: usize,
    /// Overwrite rule files that exist (a reviewed file is not replaced otherwise).
    #[arg(long)]
    pub force: bool,
    /// Keep the fetched pages in this WARC (its manifest beside it; a second run with
    /// the same file fetches only the URLs not done) instead of a temporary file.
    #[arg(long, value_name = "WARC")]
    pub crawl: Option<PathBuf>,
    /// URL arguments and --urls FILE are fetched politely, as `thresher fetch` does.
    #[command(flatten)]
    pub fetch: FetchArgs,
}

/// `to` relative to the directory `from` (both absolute).
fn relative(from: &Path, to: &Path) -> PathBuf {
    let a: Vec<Component> = from.components().collect();
    let b: Vec<Component> = to.components().collect();
    let common = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let mut out = PathBuf::new();
    for _ in common..a.len() {
        out.push("..");
    }
    for c in &b[common..] {
        out.push(c);
    }
    out
}

fn absolute(p: &Path) -> PathBuf {
    std::fs::canonicalize(p).unwrap_or_else(|_| {
        std::env::current_dir()
            .map(|d| d.join(p))
            .unwrap_or_else(|_| p.to_owned())
    })
}

/// A file name for a copied test page, from its URL's last segment.
fn page_file_name(url: &str, taken: &mut HashSet<String>) -> String {
    let last = url
        .split(['?', '#'])
        .next()
        .unwrap_or_default()
        .trim_end_matches('/')
        .rsplit('/')
        .next()
        .unwrap_or_default();
    let mut base: String = last
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.') {
                c
            } else {
                '_'
            }
        })
        .collect();
    if base.is_empty() || base.contains("://") {
        base = "page".into();
    }
    let stem = base
        .trim_end_matches(".html")
        .trim_end_matches(".htm")
        .to_string();
    let mut name = format!("{stem}.html");
    let mut n = 2;
    while !taken.insert(name.clone()) {
        name = format!("{stem}-{n}.html");
        n += 1;
    }
    name
}

/// Where the draft's test pages are, relative to `target` (copying those that have no
/// plain file of their own); the files it wrote.
fn test_pages(
    draft: &Draft,
    pages: &[InputPage],
    target: &Path,
    fixtures: Option<&Path>,
) -> Result<(Vec<Option<String>>, Vec<PathBuf>)> {
    let dir = absolute(target.parent().unwrap_or(Path::new(".")));
    let mut paths = vec![None; pages.len()];
    let mut written = Vec::new();
    let mut taken = HashSet::new();
    for t in &draft.tests {
        let p = &pages[t.page];
        let plain = p.file.as_ref().filter(|f| {
            let n = f.to_string_lossy().to_ascii_lowercase();
            n.ends_with(".html") || n.ends_with(".htm")
        });
        let file = match (plain, fixtures) {
            (Some(f), None) => absolute(f),
            _ => {
                let into = match fixtures {
                    Some(d) => d.join(&draft.host),
                    None => dir.join(format!("{}.pages", draft.host)),
                };
                std::fs::create_dir_all(&into).map_err(|e| Error::io(&into, e))?;
                let f = into.join(page_file_name(&p.page.url, &mut taken));
                std::fs::write(&f, &p.page.body).map_err(|e| Error::io(&f, e))?;
                written.push(f.clone());
                absolute(&f)
            }
        };
        paths[t.page] = Some(relative(&dir, &file).to_string_lossy().into_owned());
    }
    Ok((paths, written))
}

/// Write one site's draft to `target` (stdout when `None`) once the engine passes it;
/// `Err` with the reason when it does not.
fn write_draft(
    mut draft: Draft,
    pages: &[InputPage],
    target: Option<&Path>,
    args: &SuggestArgs,
) -> Result<std::result::Result<String, String>> {
    let shown = target.map_or(PathBuf::from("suggested.yaml"), Path::to_owned);
    if let Some(t) = target {
        if t.exists() && !args.force {
            return Ok(Err(format!(
                "{} exists (a reviewed rule file is not replaced; give --force to overwrite it)",
                t.display()
            )));
        }
        if let Some(d) = t.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(d).map_err(|e| Error::io(d, e))?;
        }
    }
    let (paths, written) = match target {
        Some(t) => test_pages(&draft, pages, t, args.fixtures.as_deref())?,
        None => {
            // On stdout: tests name page files relative to the current directory.
            let cwd = absolute(Path::new("."));
            let paths = pages
                .iter()
                .map(|p| {
                    p.file
                        .as_ref()
                        .filter(|f| f.to_string_lossy().ends_with(".html"))
                        .map(|f| relative(&cwd, &absolute(f)).to_string_lossy().into_owned())
                })
                .collect();
            (paths, Vec::new())
        }
    };
    let at = target.map_or_else(|| absolute(Path::new(".")).join("suggested.yaml"), absolute);
    let mut yaml = render(&draft, &paths);
    let failures = match validate(&yaml, &at) {
        Ok(f) => f,
        Err(e) => return Ok(Err(format!("the draft does not pass `rules check`: {e}"))),
    };
    if failures.iter().any(|f| !f.is_empty()) {
        // Keep the tests that pass as written; a draft's failing test says nothing.
        let named: Vec<usize> = draft
            .tests
            .iter()
            .enumerate()
            .filter(|(_, t)| paths[t.page].is_some())
            .map(|(i, _)| i)
            .collect();
        let failing: HashSet<usize> = named
            .iter()
            .zip(&failures)
            .filter(|(_, f)| !f.is_empty())
            .map(|(&i, _)| i)
            .collect();
        for (&i, f) in named.iter().zip(&failures) {
            if !f.is_empty() {
                eprintln!(
                    "{}: test on {} left out: {}",
                    draft.host,
                    draft.urls[draft.tests[i].page],
                    f.join("; ")
                );
            }
        }
        let mut i = 0;
        draft.tests.retain(|_| {
            i += 1;
            !failing.contains(&(i - 1))
        });
        for f in &written {
            if !draft.tests.iter().any(|t| {
                paths[t.page]
                    .as_deref()
                    .is_some_and(|p| f.ends_with(p.rsplit('/').next().unwrap_or(p)))
            }) {
                let _ = std::fs::remove_file(f);
            }
        }
        yaml = render(&draft, &paths);
        if let Ok(f) = validate(&yaml, &at) {
            if f.iter().any(|x| !x.is_empty()) {
                return Ok(Err("the draft's tests do not pass `rules test`".into()));
            }
        }
    }
    let tests = draft
        .tests
        .iter()
        .filter(|t| paths[t.page].is_some())
        .count();
    match target {
        Some(t) => write_atomic(t, yaml.as_bytes())?,
        None => print!("{yaml}"),
    }
    Ok(Ok(format!(
        "{}: {} rule(s), {} test(s) → {}",
        draft.host,
        draft.rules.len(),
        tests,
        shown.display()
    )))
}

pub fn suggest(args: SuggestArgs, config: &Config) -> Result<ExitCode> {
    let manifest = args.manifest.as_deref().map(Manifest::load).transpose()?;
    let (mut paths, urls) = split_urls(&args.paths);
    if paths.is_empty() && urls.is_empty() && manifest.is_none() && !args.fetch.has_url_file() {
        return Err(Error::Config(
            "give PATHs, URLs, --urls FILE or a --manifest".into(),
        ));
    }
    // Held until the pages are read: a temporary WARC is deleted when it is dropped.
    let fetched = fetch_urls(&args.fetch, urls, args.crawl.as_deref(), None)?;
    if let Some(f) = &fetched {
        paths.push(f.warc.clone());
    }
    let inputs = source::discover(&paths, manifest.as_ref(), config.max_page_bytes);
    let (pages, errors) = read_pages(inputs, config);
    drop(fetched);
    for e in &errors {
        if e.url.is_empty() {
            eprintln!("warning: {}: {}", e.path, e.message);
        } else {
            eprintln!("warning: {} ({}): {}", e.url, e.path, e.message);
        }
    }
    if pages.is_empty() {
        eprintln!(
            "no rule drafted, nothing written: no page could be read (a draft needs 3 pages of a site)"
        );
        return Ok(ExitCode::from(1));
    }
    let opts = SuggestOptions {
        tests: args.tests,
        ..SuggestOptions::default()
    };
    let sites = draft_sites(&pages, config, &opts)?;
    if args.output.is_some() && sites.len() > 1 {
        let hosts: Vec<&str> = sites.iter().map(|s| s.host.as_str()).collect();
        return Err(Error::Config(format!(
            "pages of {} sites ({}): -o writes one site's rules; use --out-dir DIR for one file per site",
            sites.len(),
            hosts.join(", ")
        )));
    }
    let mut refused = 0;
    for site in sites {
        let draft = match site.draft {
            Ok(d) => d,
            Err(why) => {
                eprintln!("{}: no rule drafted, nothing written: {why}", site.host);
                refused += 1;
                continue;
            }
        };
        let target = match (&args.output, &args.out_dir) {
            (Some(f), _) => Some(f.clone()),
            (None, Some(d)) => Some(d.join(format!("{}.yaml", site.host))),
            (None, None) => None,
        };
        match write_draft(draft, &pages, target.as_deref(), &args)? {
            Ok(done) => eprintln!("{done}"),
            Err(why) => {
                eprintln!("{}: no rule drafted, nothing written: {why}", site.host);
                refused += 1;
            }
        }
    }
    Ok(if refused == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
