//! `thresher rules suggest`: a draft rule file from a few pages of one site, built from
//! what thresher already answers on them. The cascade's answer (style-inbreeding where
//! it cleaned the page, else the local heuristic: the blocks it kept) is located in the
//! html5ever tree (`align.rs`); the elements holding it become XPaths in the form a
//! person writes (`steps.rs`, `candidates.rs`); the XPath set that selects the text on
//! the most pages wins, one rule per layout when the pages need more than one
//! (`layouts.rs`); the headline and other short pieces of each page's own text outside
//! that element, which the answer keeps on some of the pages, join it (`pieces.rs`);
//! template blocks inside it that the cross-page answer and the heuristic
//! both leave out become `remove` XPaths (`remove.rs`); `title` and `date` come from one
//! place when the pages agree (`fields.rs`). The draft then goes through the rule engine
//! itself (`check.rs`): its comments give the pages where it selected the text as a run
//! would, and its embedded tests (`snippets.rs`) are checked as `rules test` checks them
//! before the file (`yaml.rs`) is written. When no rule can be drafted with confidence
//! (fewer than three pages with text, no XPath selecting the text on most pages) the
//! answer is why, and nothing is written.

mod align;
mod candidates;
mod check;
mod fields;
mod labels;
mod layouts;
mod path_shapes;
mod pieces;
mod remove;
mod select;
mod snippets;
mod steps;
mod yaml;

use std::collections::BTreeMap;

use crate::extract::dom::ParsedPage;
use crate::extract::xpath_fast::{Arena, Plan};
use crate::extract::Extracted;
use align::PageMap;

pub use check::validate;
pub use snippets::DraftTest;
pub use yaml::render;

/// A page answering with fewer words than this has no text to locate (an error page, a
/// gallery): it does not count towards the pages of a draft.
const MIN_ANSWER_WORDS: u64 = 10;

/// One page of a site, with what the cascade and the local heuristic answered on it.
pub struct SitePage {
    pub url: String,
    pub parsed: ParsedPage,
    /// The cascade's answer (its `blocks` name the kept blocks).
    pub answer: Extracted,
    /// Which method gave it (`inbreeding+heuristic`, `heuristic`, …).
    pub method: String,
    /// The local heuristic alone on the page.
    pub heuristic: Extracted,
}

/// How sure a draft must be.
#[derive(Debug, Clone)]
pub struct SuggestOptions {
    /// Fewer pages with text than this: no draft (a template needs pages to compare).
    pub min_pages: usize,
    /// Share of a rule's pages on which its XPaths must select the text.
    pub min_share: f64,
    /// F1 against the cascade's answer at which an XPath "selects the text" of a page.
    pub min_f1: f64,
    /// Embedded tests to write.
    pub tests: usize,
}

impl Default for SuggestOptions {
    fn default() -> Self {
        SuggestOptions {
            min_pages: 3,
            // "Most pages", with a margin: 2 of 3, 3 of 5, 5 of 8.
            min_share: 0.6,
            // A rule that keeps four fifths of the answer's words and little else is the
            // same extraction as far as a reader can tell.
            min_f1: 0.8,
            tests: 3,
        }
    }
}

/// An XPath of the draft and its comment.
#[derive(Debug, Clone)]
pub struct Commented {
    pub xpath: String,
    pub comment: String,
}

/// One drafted rule.
#[derive(Debug, Clone)]
pub struct DraftRule {
    pub name: String,
    pub path_prefix: Option<String>,
    /// A glob over the whole URL path (`*`: any characters), when a path pattern rather
    /// than a directory tells the layout apart.
    pub path_glob: Option<String>,
    /// Comment lines over the rule (how it does as a whole).
    pub summary: Vec<String>,
    pub content: Vec<Commented>,
    pub remove: Vec<Commented>,
    pub title: Option<Commented>,
    pub date: Option<Commented>,
}

/// A drafted rule file for one site.
#[derive(Debug, Clone)]
pub struct Draft {
    pub host: String,
    /// Comment lines at the top of the file.
    pub header: Vec<String>,
    pub rules: Vec<DraftRule>,
    pub tests: Vec<DraftTest>,
    /// The URL of each input page (tests name pages by index).
    pub urls: Vec<String>,
}

/// A page as the drafting works on it: the page index of the tree and the alignment.
struct PageData<'a> {
    /// Index in the input pages.
    index: usize,
    page: &'a SitePage,
    /// The URL's path.
    path: String,
    arena: Arena,
    map: PageMap,
}

fn url_path(url: &str) -> String {
    url::Url::parse(url)
        .map(|u| u.path().to_string())
        .unwrap_or_else(|_| "/".into())
}

/// A rule name from a directory (`/news/` → `news`).
fn rule_name(prefix: Option<&str>, taken: &[String]) -> String {
    let base: String = match prefix {
        None => "main".into(),
        Some(p) => p
            .chars()
            .filter(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
            .collect(),
    };
    let base = if base.is_empty() {
        "layout".to_string()
    } else {
        base
    };
    let mut name = base.clone();
    let mut n = 2;
    while taken.contains(&name) {
        name = format!("{base}-{n}");
        n += 1;
    }
    name
}

fn preview(s: &str) -> String {
    let words: Vec<&str> = s.split_whitespace().take(8).collect();
    format!("\"{}\"", words.join(" "))
}

/// Draft the rule file of `host` from `pages` (all of that host), or say why not.
pub fn draft(host: &str, pages: &[SitePage], opts: &SuggestOptions) -> Result<Draft, String> {
    let datas: Vec<PageData> = pages
        .iter()
        .enumerate()
        .map(|(index, page)| {
            let arena = Arena::build(&page.parsed.tree);
            let map = PageMap::build(
                &arena,
                &page.parsed.dom,
                &page.answer.blocks,
                &page.heuristic.blocks,
            );
            PageData {
                index,
                page,
                path: url_path(&page.url),
                arena,
                map,
            }
        })
        .collect();
    let usable: Vec<&PageData> = datas
        .iter()
        .filter(|d| {
            d.page.answer.kept_words >= MIN_ANSWER_WORDS && !d.page.answer.blocks.is_empty()
        })
        .collect();
    if usable.len() < opts.min_pages {
        return Err(format!(
            "{} page(s), {} with text to locate (at least {MIN_ANSWER_WORDS} words extracted); a draft needs {} to tell the site's template from one page's content",
            pages.len(),
            usable.len(),
            opts.min_pages
        ));
    }
    let layouts = layouts::layouts(&usable, opts)?;
    let mut rules: Vec<DraftRule> = Vec::new();
    let mut removes: Vec<(String, Vec<&Plan>)> = Vec::new();
    let mut chosen_removals = Vec::new();
    for l in &layouts {
        let taken: Vec<String> = rules.iter().map(|r| r.name.clone()).collect();
        let label = l.glob.as_deref().map(path_shapes::name);
        let name = rule_name(label.as_deref().or(l.prefix.as_deref()), &taken);
        let n = l.pages.len();
        let plans = l.choice.plans();
        let mut content = Vec::new();
        for (i, c) in l.choice.xpaths.iter().enumerate() {
            let comment = if i == 0 && l.choice.xpaths.len() == 1 {
                let alone = candidates::Score::of(&l.pages, &[&c.plan], &[]);
                format!(
                    "selects the text on {} of {n} pages",
                    alone.selected(opts.min_f1)
                )
            } else {
                let others: Vec<&Plan> = plans
                    .iter()
                    .copied()
                    .filter(|p| !std::ptr::eq(*p, &c.plan))
                    .collect();
                let adds = l
                    .pages
                    .iter()
                    .filter(|p| {
                        let a = select::kept(p, &plans, &[]).map_or(0, |k| k.answer);
                        let b = select::kept(p, &others, &[]).map_or(0, |k| k.answer);
                        a > b
                    })
                    .count();
                format!("holds part of the text on {adds} of {n} pages")
            };
            content.push(Commented {
                xpath: c.xpath.clone(),
                comment,
            });
        }
        // The headline and other pieces of the page's own text outside the text's
        // element, which the answer has on some pages.
        let mut plans = plans;
        let own = pieces::pieces(&l.pages, &plans);
        for (k, piece) in own.iter().enumerate() {
            content.insert(
                k,
                Commented {
                    xpath: piece.xpath.clone(),
                    comment: format!(
                        "{}, outside the text's element: on {} of {n} pages, in thresher's answer on {}",
                        if piece.headline {
                            "the headline"
                        } else {
                            "a line of the page's own (its text differs from page to page)"
                        },
                        piece.present,
                        piece.kept
                    ),
                },
            );
            plans.insert(k, &piece.plan);
        }
        let rem = remove::removals(&l.pages, &plans);
        let remove: Vec<Commented> = rem
            .iter()
            .map(|r| Commented {
                xpath: r.cand.xpath.clone(),
                comment: format!(
                    "{} inside the content on {} of {n} pages: {}",
                    if r.label {
                        "a labelled line thresher's answer leaves out"
                    } else {
                        "template"
                    },
                    r.pages,
                    preview(&r.preview)
                ),
            })
            .collect();
        let field = |f: Option<fields::Field>, what: &str| {
            f.map(|f| Commented {
                comment: format!("the page's {what} on {} of {n} pages", f.pages),
                xpath: f.xpath,
            })
        };
        rules.push(DraftRule {
            name: name.clone(),
            path_prefix: l.prefix.clone(),
            path_glob: l.glob.clone(),
            summary: Vec::new(),
            content,
            remove,
            title: field(fields::title(&l.pages), "title"),
            date: field(fields::date(&l.pages), "date"),
        });
        chosen_removals.push((name, rem));
    }
    for (name, rem) in &chosen_removals {
        removes.push((name.clone(), rem.iter().map(|r| &r.cand.plan).collect()));
    }
    let mut draft = Draft {
        host: host.to_string(),
        header: Vec::new(),
        rules,
        tests: Vec::new(),
        urls: pages.iter().map(|p| p.url.clone()).collect(),
    };
    // Through the engine: what the file as written keeps on each page.
    let answers = check::apply(&render(&draft, &[]), &usable)?;
    let texts: Vec<Option<(String, String)>> = answers
        .iter()
        .map(|a| {
            a.as_ref().map(|a| {
                let rule = a.method.rsplit('#').next().unwrap_or_default().to_string();
                (a.extracted.text.clone(), rule)
            })
        })
        .collect();
    for (r, l) in draft.rules.iter_mut().zip(&layouts) {
        let f1: Vec<f64> = l
            .pages
            .iter()
            .map(|p| {
                let i = usable
                    .iter()
                    .position(|u| u.index == p.index)
                    .expect("a usable page");
                texts[i]
                    .as_ref()
                    .filter(|(_, rule)| *rule == r.name)
                    .map_or(0.0, |(t, _)| check::word_f1(t, &p.page.answer.text))
            })
            .collect();
        let good = f1.iter().filter(|&&f| f >= opts.min_f1).count();
        let mean = f1.iter().sum::<f64>() / f1.len().max(1) as f64;
        if (good as f64) < opts.min_share * f1.len() as f64 {
            return Err(format!(
                "rule `{}` as written selects the text on only {good} of {} pages (word F1 ≥ {} against thresher's answer)",
                r.name,
                f1.len(),
                opts.min_f1
            ));
        }
        r.summary.push(format!(
            "as written, its text has word F1 ≥ {} against thresher's answer on {good} of {} pages (mean {mean:.3})",
            opts.min_f1,
            f1.len()
        ));
    }
    draft.tests = snippets::pick(&usable, &texts, &removes, opts.tests);
    let mut methods: BTreeMap<&str, usize> = BTreeMap::new();
    for p in &usable {
        *methods.entry(p.page.method.as_str()).or_default() += 1;
    }
    let methods: Vec<String> = methods.iter().map(|(m, n)| format!("{m} on {n}")).collect();
    draft.header = vec![
        format!(
            "Drafted by `thresher rules suggest` from {} pages of {host} ({} with text; thresher's answers: {}).",
            pages.len(),
            usable.len(),
            methods.join(", ")
        ),
        "A draft: review the XPaths, the removals and the tests, then run `thresher rules test`.".into(),
    ];
    Ok(draft)
}
