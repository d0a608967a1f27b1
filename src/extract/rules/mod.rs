//! Per-site XPath rules (algorithms.md §2, "global, human XPath rules"): YAML files in a
//! directory (`site-rules/`), one per site or family of sites, each with a host matcher
//! and rules that say which nodes hold the content (`content`), which to cut (`remove`),
//! and optionally where the title and the date are. The schema is documented in
//! `site-rules/README.md`.
//!
//! - Loading never fails as a whole: a file that does not parse, an XPath that does not
//!   compile, a host claimed by two files… each becomes a [`Problem`] naming the file,
//!   line and column; the file (or only the rule) is skipped and every other site works.
//!   `thresher rules check` prints the problems; `--strict` makes them fatal.
//! - Host lookup is one hash-map probe per host suffix, so pages of sites without rules
//!   cost next to nothing.
//! - XPaths are parsed and checked once when the directory is loaded. Those inside the
//!   subset rule files use are also compiled into plans of the fast evaluator
//!   (`xpath_fast.rs`), which runs on an index of the html5ever tree; the rest go through
//!   sxd-xpath on the page converted to XML (built only when needed). sxd-xpath's
//!   compiled expressions are neither `Send` nor `Sync`, so each worker thread compiles
//!   those the first time it needs them and keeps them for the rest of the run (at most
//!   threads × XPaths compilations per run, never one per page).
//! - A rule that matches a page but selects nothing, or far less text than it usually
//!   does, is *broken* on that page: the page falls back to the next method, and the
//!   rule's counters (in `summary.json`) say so, with example URLs. "Usually" is the mean
//!   of the words the rule yielded in the batches of pages before this one, so the
//!   decision does not depend on the number of threads.

use std::cell::{OnceCell, RefCell};
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;

use serde::Deserialize;
use serde_saphyr::Spanned;
use sxd_document::dom::Root;
use sxd_xpath::nodeset::Node;
use sxd_xpath::{Context, Value, XPath};

use super::dom::{self, ParsedPage, TagClass};
use super::xml::{to_xml, XmlOptions};
use super::xpath_fast::{Arena, Item, Kind, Plan, StrPlan};
use super::{Answer, Extracted, Extractor, PageContext};

/// Marks of page-index nodes in `select_fast`: removed, already written.
const SKIP: u8 = 1;
const DONE: u8 = 2;
/// Pages a rule must have yielded before "far less text than usual" is judged.
const MIN_HISTORY: u64 = 5;
/// Example URLs kept per counter (the smallest ones, so the choice is reproducible).
const EXAMPLES: usize = 3;

// ───────────────────────────── the file format ─────────────────────────────

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFile {
    site: RawSite,
    rules: Vec<RawRule>,
    #[serde(default)]
    tests: Vec<RawTest>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSite {
    #[serde(default)]
    host: Option<Spanned<String>>,
    #[serde(default)]
    hosts: Vec<Spanned<String>>,
    #[serde(default)]
    subdomains: bool,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawRule {
    name: Spanned<String>,
    #[serde(default)]
    path_prefix: Option<String>,
    #[serde(default)]
    path_glob: Option<String>,
    #[serde(default)]
    when: Option<Spanned<String>>,
    content: Vec<Spanned<String>>,
    #[serde(default)]
    remove: Vec<Spanned<String>>,
    #[serde(default)]
    title: Option<Spanned<String>>,
    #[serde(default)]
    date: Option<Spanned<String>>,
    #[serde(default)]
    min_words: Option<u64>,
    #[serde(default)]
    min_ratio: Option<f64>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawTest {
    page: Spanned<String>,
    url: String,
    #[serde(default)]
    content_type: Option<String>,
    #[serde(default)]
    rule: Option<String>,
    #[serde(default)]
    title: Option<String>,
    #[serde(default)]
    must_contain: Vec<String>,
    #[serde(default)]
    must_not_contain: Vec<String>,
}

// ───────────────────────────── loaded rules ─────────────────────────────

/// Something wrong in a rule file, with its place.
#[derive(Debug, Clone, PartialEq)]
pub struct Problem {
    pub path: PathBuf,
    pub line: usize,
    pub column: usize,
    pub message: String,
    /// What was skipped because of it: `file`, `rule <name>` or `test`.
    pub skipped: String,
}

impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}:{}:{}: {} ({} skipped)",
            self.path.display(),
            self.line,
            self.column,
            self.message,
            self.skipped
        )
    }
}

/// What an XPath is for; decides which results are acceptable.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    Content,
    Remove,
    When,
    Field,
}

#[derive(Debug)]
struct XpathSrc {
    expr: String,
    line: usize,
    column: usize,
    /// Warned about a run-time failure already.
    warned: AtomicBool,
    /// The expression compiled for the fast evaluator, when it is inside its subset.
    fast: Option<Plan>,
    /// The same for a string-valued expression (a `title` or `date`).
    fast_str: Option<StrPlan>,
}

/// One rule of a file.
#[derive(Debug)]
pub struct Rule {
    pub name: String,
    pub line: usize,
    path_prefix: Option<String>,
    path_glob: Option<String>,
    when: Option<usize>,
    content: Vec<usize>,
    remove: Vec<usize>,
    title: Option<usize>,
    date: Option<usize>,
    min_words: u64,
    min_ratio: f64,
    /// Skipped because of a problem found when loading: pages it matches fall back.
    disabled: bool,
    stats: RuleStats,
}

#[derive(Debug, Default)]
struct RuleStats {
    matched: AtomicU64,
    yielded: AtomicU64,
    broke: AtomicU64,
    errors: AtomicU64,
    /// Words and pages of accepted yields in finished batches ("usual" = words / pages).
    base_words: AtomicU64,
    base_pages: AtomicU64,
    /// The same for the batch in progress.
    batch_words: AtomicU64,
    batch_pages: AtomicU64,
    examples: Mutex<Examples>,
}

#[derive(Debug, Default)]
struct Examples {
    yielded: BTreeSet<String>,
    broke: BTreeSet<String>,
    errors: BTreeSet<String>,
}

fn keep_example(set: &mut BTreeSet<String>, url: &str) {
    if set.len() < EXAMPLES || set.last().is_some_and(|l| url < l.as_str()) {
        set.insert(url.to_string());
        while set.len() > EXAMPLES {
            set.pop_last();
        }
    }
}

/// An embedded test of a rule file.
#[derive(Debug, Clone)]
pub struct TestCase {
    pub line: usize,
    pub page: PathBuf,
    pub url: String,
    pub content_type: Option<String>,
    pub rule: Option<String>,
    pub title: Option<String>,
    pub must_contain: Vec<String>,
    pub must_not_contain: Vec<String>,
}

/// One rule file.
#[derive(Debug)]
pub struct RuleFile {
    pub path: PathBuf,
    /// The file name without `.yaml`/`.yml`: the `<file>` of `rules:<file>#<rule>`.
    pub name: String,
    pub hosts: Vec<String>,
    pub subdomains: bool,
    pub rules: Vec<Rule>,
    pub tests: Vec<TestCase>,
    /// Pages of the site that none of its rules matched.
    no_rule: AtomicU64,
}

/// All rule files of a directory, ready to apply.
#[derive(Debug)]
pub struct RuleSet {
    id: u64,
    files: Vec<RuleFile>,
    /// Host (lower-case, no `www.`, punycode) → (file, subdomains too).
    hosts: HashMap<String, (usize, bool)>,
    xpaths: Vec<XpathSrc>,
    problems: Vec<Problem>,
    /// Use the fast evaluator for the XPaths inside its subset (off: sxd-xpath for all).
    fast_path: bool,
}

/// One page's trees for rule evaluation, each built on first use: the page index of the
/// fast evaluator, and the sxd-document for the XPaths outside its subset.
struct PageTrees<'p> {
    page: &'p ParsedPage,
    arena: OnceCell<Arena>,
    package: OnceCell<sxd_document::Package>,
}

impl<'p> PageTrees<'p> {
    fn new(page: &'p ParsedPage) -> Self {
        PageTrees {
            page,
            arena: OnceCell::new(),
            package: OnceCell::new(),
        }
    }

    fn arena(&self) -> &Arena {
        self.arena.get_or_init(|| Arena::build(&self.page.tree))
    }

    fn root(&self) -> Root<'_> {
        self.package
            .get_or_init(|| to_xml(&self.page.tree, XmlOptions::default()))
            .as_document()
            .root()
    }
}

static NEXT_SET_ID: AtomicU64 = AtomicU64::new(1);

thread_local! {
    /// Compiled XPaths of each rule set, per thread (sxd-xpath's are not `Send`).
    static COMPILED: RefCell<HashMap<u64, Vec<Option<XPath>>>> = RefCell::new(HashMap::new());
    /// The XPath 1.0 core function library, built once per thread.
    static XPATH_CONTEXT: Context<'static> = Context::new();
}

impl RuleSet {
    /// Load every `*.yaml` / `*.yml` file of `dir` (not recursive; `README.md` and other
    /// files are ignored). Problems are collected, not returned as errors; only an
    /// unreadable directory is an error.
    pub fn load_dir(dir: &Path) -> crate::Result<RuleSet> {
        let entries = std::fs::read_dir(dir).map_err(|e| crate::Error::io(dir, e))?;
        let mut paths: Vec<PathBuf> = entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.is_file() && p.extension().is_some_and(|x| x == "yaml" || x == "yml"))
            .collect();
        paths.sort();
        let mut sources = Vec::new();
        for p in paths {
            let text = std::fs::read_to_string(&p).map_err(|e| crate::Error::io(&p, e))?;
            sources.push((p, text));
        }
        Ok(RuleSet::from_sources(sources))
    }

    /// Build a rule set from `(path, YAML text)` pairs, in that order (an earlier file
    /// keeps a host that a later one claims too).
    pub fn from_sources(sources: Vec<(PathBuf, String)>) -> RuleSet {
        let mut set = RuleSet {
            id: NEXT_SET_ID.fetch_add(1, Ordering::Relaxed),
            files: Vec::new(),
            hosts: HashMap::new(),
            xpaths: Vec::new(),
            problems: Vec::new(),
            fast_path: true,
        };
        let mut names: HashMap<String, PathBuf> = HashMap::new();
        for (path, text) in sources {
            let name = path
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default();
            if let Some(other) = names.get(&name) {
                set.problems.push(Problem {
                    path: path.clone(),
                    line: 1,
                    column: 1,
                    message: format!(
                        "another file has the same name `{name}`: {}",
                        other.display()
                    ),
                    skipped: "file".into(),
                });
                continue;
            }
            names.insert(name.clone(), path.clone());
            set.add_file(path, name, &text);
        }
        set
    }

    fn add_file(&mut self, path: PathBuf, name: String, text: &str) {
        let problem = |line: usize, column: usize, message: String, skipped: &str| Problem {
            path: path.clone(),
            line,
            column,
            message,
            skipped: skipped.into(),
        };
        let raw: RawFile = match serde_saphyr::from_str(text) {
            Ok(r) => r,
            Err(e) => {
                let (line, column) = e
                    .location()
                    .map_or((1, 1), |l| (l.line() as usize, l.column() as usize));
                self.problems
                    .push(problem(line, column, yaml_message(&e), "file"));
                return;
            }
        };
        // Hosts.
        let mut hosts = Vec::new();
        for h in raw.site.host.iter().chain(raw.site.hosts.iter()) {
            match normalize_host(&h.value) {
                Some(n) => hosts.push((n.strip_prefix("www.").map(str::to_string).unwrap_or(n), h)),
                None => {
                    let (l, c) = loc(&h.referenced);
                    self.problems.push(problem(
                        l,
                        c,
                        format!("`{}` is not a host name", h.value),
                        "file",
                    ));
                    return;
                }
            }
        }
        if hosts.is_empty() {
            self.problems.push(problem(
                1,
                1,
                "`site` names no `host` (or `hosts`)".into(),
                "file",
            ));
            return;
        }
        for (h, spanned) in &hosts {
            if let Some(&(other, _)) = self.hosts.get(h) {
                let (l, c) = loc(&spanned.referenced);
                self.problems.push(problem(
                    l,
                    c,
                    format!(
                        "host `{h}` is already claimed by {}; two files cannot share a host",
                        self.files[other].path.display()
                    ),
                    "file",
                ));
                return;
            }
        }
        // Rules.
        let file_index = self.files.len();
        let mut rules = Vec::new();
        let mut seen_names = HashSet::new();
        for r in raw.rules {
            let (line, column) = loc(&r.name.referenced);
            let rule_name = r.name.value.trim().to_string();
            let skipped = format!("rule {rule_name}");
            let mut bad = Vec::new();
            if rule_name.is_empty() || rule_name.contains(['#', ' ']) {
                bad.push(problem(
                    line,
                    column,
                    format!("rule name `{rule_name}` must be non-empty, without spaces or `#`"),
                    &skipped,
                ));
            }
            if !seen_names.insert(rule_name.clone()) {
                bad.push(problem(
                    line,
                    column,
                    format!("a rule named `{rule_name}` comes earlier in this file"),
                    &skipped,
                ));
            }
            if r.content.is_empty() {
                bad.push(problem(
                    line,
                    column,
                    "`content` needs at least one XPath".into(),
                    &skipped,
                ));
            }
            if let Some(ratio) = r.min_ratio {
                if !(0.0..=1.0).contains(&ratio) {
                    bad.push(problem(
                        line,
                        column,
                        format!("`min_ratio` must be within 0..1, not {ratio}"),
                        &skipped,
                    ));
                }
            }
            if let Some(g) = &r.path_glob {
                if !g.starts_with(['/', '*']) {
                    bad.push(problem(
                        line,
                        column,
                        format!("`path_glob` `{g}` must start with `/` or `*`"),
                        &skipped,
                    ));
                }
            }
            let mut add = |x: &Spanned<String>, role: Role, bad: &mut Vec<Problem>| -> usize {
                let (l, c) = loc(&x.referenced);
                let quoted = text
                    .as_bytes()
                    .get(x.referenced.span().byte_offset().unwrap_or(u64::MAX) as usize)
                    .is_some_and(|b| *b == b'\'' || *b == b'"');
                if let Err(e) = check_xpath(&x.value, role) {
                    let (line, col) = match e.offset {
                        Some(off) if !x.value.contains('\n') => {
                            (l, c + quoted as usize + x.value[..off].chars().count())
                        }
                        _ => (l, c),
                    };
                    bad.push(Problem {
                        path: path.clone(),
                        line,
                        column: col,
                        message: format!("XPath `{}`: {}", x.value, e.message),
                        skipped: skipped.clone(),
                    });
                }
                self.xpaths.push(XpathSrc {
                    expr: x.value.clone(),
                    line: l,
                    column: c,
                    warned: AtomicBool::new(false),
                    fast: Plan::compile(&x.value),
                    fast_str: StrPlan::compile(&x.value),
                });
                self.xpaths.len() - 1
            };
            let when = r.when.as_ref().map(|x| add(x, Role::When, &mut bad));
            let content = r
                .content
                .iter()
                .map(|x| add(x, Role::Content, &mut bad))
                .collect();
            let remove = r
                .remove
                .iter()
                .map(|x| add(x, Role::Remove, &mut bad))
                .collect();
            let title = r.title.as_ref().map(|x| add(x, Role::Field, &mut bad));
            let date = r.date.as_ref().map(|x| add(x, Role::Field, &mut bad));
            let disabled = !bad.is_empty();
            self.problems.extend(bad);
            rules.push(Rule {
                name: rule_name,
                line,
                path_prefix: r.path_prefix,
                path_glob: r.path_glob,
                when,
                content,
                remove,
                title,
                date,
                min_words: r.min_words.unwrap_or(1),
                min_ratio: r.min_ratio.unwrap_or(0.25),
                disabled,
                stats: RuleStats::default(),
            });
        }
        if rules.is_empty() {
            self.problems
                .push(problem(1, 1, "the file has no rules".into(), "file"));
            return;
        }
        // Tests.
        let base = path.parent().unwrap_or(Path::new("."));
        let mut tests = Vec::new();
        for t in raw.tests {
            let (line, column) = loc(&t.page.referenced);
            if let Some(r) = &t.rule {
                if !rules.iter().any(|x| &x.name == r) {
                    self.problems.push(problem(
                        line,
                        column,
                        format!("test names rule `{r}`, which this file does not have"),
                        "test",
                    ));
                }
            }
            tests.push(TestCase {
                line,
                page: base.join(&t.page.value),
                url: t.url,
                content_type: t.content_type,
                rule: t.rule,
                title: t.title,
                must_contain: t.must_contain,
                must_not_contain: t.must_not_contain,
            });
        }
        for (h, _) in &hosts {
            self.hosts
                .insert(h.clone(), (file_index, raw.site.subdomains));
        }
        self.files.push(RuleFile {
            path,
            name,
            hosts: hosts.into_iter().map(|(h, _)| h).collect(),
            subdomains: raw.site.subdomains,
            rules,
            tests,
            no_rule: AtomicU64::new(0),
        });
    }

    /// Turn the fast evaluator off (every XPath through sxd-xpath) or on (the default).
    pub fn set_fast_path(&mut self, on: bool) {
        self.fast_path = on;
    }

    /// XPaths of the rules in force that the fast evaluator takes, and all of them:
    /// `(fast, total)` over XPaths, and the same over rules (a rule is fast when all its
    /// `content` and `remove` XPaths are).
    pub fn fast_share(&self) -> ((usize, usize), (usize, usize)) {
        let (mut fx, mut tx, mut fr, mut tr) = (0, 0, 0, 0);
        for r in self
            .files
            .iter()
            .flat_map(|f| &f.rules)
            .filter(|r| !r.disabled)
        {
            let all: Vec<usize> = r
                .when
                .iter()
                .chain(&r.content)
                .chain(&r.remove)
                .chain(r.title.iter())
                .chain(r.date.iter())
                .copied()
                .collect();
            tx += all.len();
            fx += all
                .iter()
                .filter(|&&i| self.xpaths[i].fast.is_some() || self.xpaths[i].fast_str.is_some())
                .count();
            tr += 1;
            fr += r
                .content
                .iter()
                .chain(&r.remove)
                .all(|&i| self.xpaths[i].fast.is_some()) as usize;
        }
        ((fx, tx), (fr, tr))
    }

    fn plan(&self, idx: usize) -> Option<&Plan> {
        self.xpaths[idx].fast.as_ref().filter(|_| self.fast_path)
    }

    /// Whether an XPath (a `when`) is true on the page.
    fn eval_bool(&self, idx: usize, trees: &PageTrees<'_>) -> Result<bool, String> {
        match self.plan(idx) {
            Some(p) => Ok(!p.select(trees.arena()).is_empty()),
            None => self.eval(idx, trees.root()).map(|v| to_bool(&v)),
        }
    }

    /// A title or date: the first selected node's text, or the string the XPath gives.
    fn eval_text(&self, idx: usize, trees: &PageTrees<'_>) -> Option<String> {
        match self.plan(idx) {
            Some(p) => {
                let arena = trees.arena();
                Some(
                    p.select(arena)
                        .first()
                        .map(|it| dom::collapse(&Plan::item_string(arena, it)))
                        .unwrap_or_default(),
                )
            }
            None => match self.xpaths[idx]
                .fast_str
                .as_ref()
                .filter(|_| self.fast_path)
            {
                Some(p) => Some(dom::collapse(&p.eval(trees.arena()))),
                None => self.eval(idx, trees.root()).ok().map(|v| value_text(&v)),
            },
        }
    }

    /// `content`/`remove` nodes by the fast evaluator.
    fn fast_nodes(&self, plan: &Plan, arena: &Arena) -> Result<Vec<Item>, String> {
        let items = plan.select(arena);
        if let Some(it) = items
            .iter()
            .find(|it| matches!(it, Item::Node(i) if arena.is_whole_document(*i)))
        {
            return Err(format!(
                "selects the whole document (`{}`)",
                arena.node_path(it.clone())
            ));
        }
        Ok(items)
    }

    /// Problems found while loading (empty when every file is fine).
    pub fn problems(&self) -> &[Problem] {
        &self.problems
    }

    /// The files that loaded (possibly with some rules disabled).
    pub fn files(&self) -> &[RuleFile] {
        &self.files
    }

    /// Number of rules that are in force.
    pub fn active_rules(&self) -> usize {
        self.files
            .iter()
            .flat_map(|f| &f.rules)
            .filter(|r| !r.disabled)
            .count()
    }

    /// The file whose site the URL belongs to: one hash probe for the host and one per
    /// parent domain (for files with `subdomains: true`).
    pub fn file_for<'u>(&self, url: &'u str) -> Option<(&RuleFile, &'u str)> {
        let (host, path) = split_url(url)?;
        let host = host.strip_prefix("www.").unwrap_or(&host);
        if let Some(&(i, _)) = self.hosts.get(host) {
            return Some((&self.files[i], path));
        }
        let mut rest = host;
        while let Some(dot) = rest.find('.') {
            rest = &rest[dot + 1..];
            if let Some(&(i, true)) = self.hosts.get(rest) {
                return Some((&self.files[i], path));
            }
        }
        None
    }

    fn eval<'d>(&self, idx: usize, root: Root<'d>) -> Result<Value<'d>, String> {
        COMPILED.with(|cache| {
            let mut cache = cache.borrow_mut();
            let compiled = cache.entry(self.id).or_default();
            if compiled.len() < self.xpaths.len() {
                compiled.resize_with(self.xpaths.len(), || None);
            }
            if compiled[idx].is_none() {
                let expr = &self.xpaths[idx].expr;
                let fast = compile(&descendant_steps(expr));
                let x = match fast {
                    Ok(x) => x,
                    Err(_) => compile(expr).map_err(|e| e.message)?,
                };
                compiled[idx] = Some(x);
            }
            let xpath = compiled[idx].as_ref().expect("compiled above");
            XPATH_CONTEXT.with(|ctx| xpath.evaluate(ctx, root).map_err(|e| e.to_string()))
        })
    }

    fn eval_nodes<'d>(&self, idx: usize, root: Root<'d>) -> Result<Vec<Node<'d>>, String> {
        match self.eval(idx, root)? {
            Value::Nodeset(ns) => {
                let nodes = ns.document_order();
                if let Some(n) = nodes.iter().find(|n| is_whole_document(**n)) {
                    return Err(format!("selects the whole document (`{}`)", node_path(*n)));
                }
                Ok(nodes)
            }
            other => Err(format!("gives a {}, not nodes", value_kind(&other))),
        }
    }

    fn runtime_error(&self, file: &RuleFile, rule: &Rule, idx: usize, url: &str, err: &str) {
        rule.stats.errors.fetch_add(1, Ordering::Relaxed);
        keep_example(
            &mut rule.stats.examples.lock().expect("not poisoned").errors,
            url,
        );
        let x = &self.xpaths[idx];
        if !x.warned.swap(true, Ordering::Relaxed) {
            tracing::warn!(
                "{}:{}:{}: rule `{}`: XPath `{}` {err} on {url}; such pages fall back to the next method",
                file.path.display(),
                x.line,
                x.column,
                rule.name,
                x.expr
            );
        }
    }

    /// Apply the rules to a page. `None` when no rule of the page's site matches it, or
    /// when the matching rule broke or failed (then the next method runs).
    pub fn apply(&self, page: &ParsedPage, ctx: &PageContext<'_>) -> Option<Answer> {
        let (file, path) = self.file_for(ctx.url)?;
        let trees = PageTrees::new(page);
        for rule in &file.rules {
            if !rule.url_matches(path) {
                continue;
            }
            if let Some(w) = rule.when {
                match self.eval_bool(w, &trees) {
                    Ok(v) => {
                        if !v {
                            continue;
                        }
                    }
                    Err(e) if !rule.disabled => {
                        rule.stats.matched.fetch_add(1, Ordering::Relaxed);
                        self.runtime_error(file, rule, w, ctx.url, &e);
                        return None;
                    }
                    Err(_) => {}
                }
            }
            rule.stats.matched.fetch_add(1, Ordering::Relaxed);
            if rule.disabled {
                rule.stats.errors.fetch_add(1, Ordering::Relaxed);
                keep_example(
                    &mut rule.stats.examples.lock().expect("not poisoned").errors,
                    ctx.url,
                );
                return None;
            }
            let selection = match self.select(rule, &trees) {
                Ok(s) => s,
                Err((idx, e)) => {
                    self.runtime_error(file, rule, idx, ctx.url, &e);
                    return None;
                }
            };
            let stats = &rule.stats;
            let words = selection.words;
            let base_pages = stats.base_pages.load(Ordering::Relaxed);
            let usual = (base_pages >= MIN_HISTORY)
                .then(|| stats.base_words.load(Ordering::Relaxed) as f64 / base_pages as f64);
            let too_little = usual.is_some_and(|u| (words as f64) < rule.min_ratio * u);
            if words < rule.min_words || too_little {
                stats.broke.fetch_add(1, Ordering::Relaxed);
                keep_example(
                    &mut stats.examples.lock().expect("not poisoned").broke,
                    ctx.url,
                );
                tracing::debug!(
                    "rules:{}#{} broke on {}: {words} words (usual {usual:?})",
                    file.name,
                    rule.name,
                    ctx.url
                );
                return None;
            }
            stats.yielded.fetch_add(1, Ordering::Relaxed);
            stats.batch_words.fetch_add(words, Ordering::Relaxed);
            stats.batch_pages.fetch_add(1, Ordering::Relaxed);
            keep_example(
                &mut stats.examples.lock().expect("not poisoned").yielded,
                ctx.url,
            );
            let field = |idx: Option<usize>| {
                idx.and_then(|i| self.eval_text(i, &trees))
                    .filter(|s| !s.is_empty())
            };
            let empty_reason = selection
                .text
                .is_empty()
                .then(|| format!("rule {}#{} selected no text", file.name, rule.name));
            return Some(Answer {
                extracted: Extracted {
                    text: selection.text,
                    kept_words: words,
                    empty_reason,
                    ..Extracted::default()
                },
                method: format!("rules:{}#{}", file.name, rule.name),
                title: field(rule.title),
                date: field(rule.date),
            });
        }
        file.no_rule.fetch_add(1, Ordering::Relaxed);
        None
    }

    /// Evaluate a rule's `remove` and `content` XPaths and write out the kept text: on
    /// the page index when the fast evaluator takes all of them, else on the XML document.
    fn select(&self, rule: &Rule, trees: &PageTrees<'_>) -> Result<Selection, (usize, String)> {
        let plans: Option<Vec<&Plan>> = rule
            .remove
            .iter()
            .chain(&rule.content)
            .map(|&i| self.plan(i))
            .collect();
        match plans {
            Some(plans) => self.select_fast(rule, &plans, trees.arena()),
            None => self.select_sxd(rule, trees.root()),
        }
    }

    /// [`select`](Self::select) on the page index (same output as `select_sxd`).
    fn select_fast(
        &self,
        rule: &Rule,
        plans: &[&Plan],
        arena: &Arena,
    ) -> Result<Selection, (usize, String)> {
        let (remove_plans, content_plans) = plans.split_at(rule.remove.len());
        // marks: SKIP = removed, DONE = written.
        let mut marks = vec![0u8; arena.len()];
        let mut skip_attrs: Vec<(u32, String)> = Vec::new();
        let mut done_attrs: Vec<(u32, String)> = Vec::new();
        for (&idx, plan) in rule.remove.iter().zip(remove_plans) {
            for it in self.fast_nodes(plan, arena).map_err(|e| (idx, e))? {
                match it {
                    Item::Node(i) => marks[i as usize] |= SKIP,
                    Item::Attr(i, n) => skip_attrs.push((i, n)),
                }
            }
        }
        let mut writer = TextWriter::default();
        for (&idx, plan) in rule.content.iter().zip(content_plans) {
            for it in self.fast_nodes(plan, arena).map_err(|e| (idx, e))? {
                let owner = it.owner();
                if let Item::Attr(i, n) = &it {
                    let key = (*i, n.clone());
                    if skip_attrs.contains(&key) || done_attrs.contains(&key) {
                        continue;
                    }
                }
                let mut a = owner;
                let covered = loop {
                    if marks[a as usize] != 0 {
                        break true;
                    }
                    if a == 0 {
                        break false;
                    }
                    a = arena.nodes[a as usize].parent;
                };
                if covered {
                    continue;
                }
                match it {
                    Item::Node(i) => {
                        writer.write_arena(arena, i, &marks);
                        marks[i as usize] |= DONE;
                    }
                    Item::Attr(i, n) => {
                        writer.flush();
                        writer.push_text(&arena.attr(i, &n).unwrap_or_default());
                        writer.flush();
                        done_attrs.push((i, n));
                    }
                }
            }
        }
        Ok(writer.finish())
    }

    /// [`select`](Self::select) on the XML document, with sxd-xpath.
    fn select_sxd(&self, rule: &Rule, root: Root<'_>) -> Result<Selection, (usize, String)> {
        let mut skip: HashSet<Node<'_>> = HashSet::new();
        for &idx in &rule.remove {
            for n in self.eval_nodes(idx, root).map_err(|e| (idx, e))? {
                skip.insert(n);
            }
        }
        let mut writer = TextWriter::default();
        let mut emitted: HashSet<Node<'_>> = HashSet::new();
        for &idx in &rule.content {
            for n in self.eval_nodes(idx, root).map_err(|e| (idx, e))? {
                if ancestors_or_self(n).any(|a| emitted.contains(&a) || skip.contains(&a)) {
                    continue;
                }
                writer.write(n, &skip, &emitted);
                emitted.insert(n);
            }
        }
        Ok(writer.finish())
    }

    /// Move this batch's yields into the "usual" baseline (called between batches).
    pub fn end_batch(&self) {
        for rule in self.files.iter().flat_map(|f| &f.rules) {
            let s = &rule.stats;
            let w = s.batch_words.swap(0, Ordering::Relaxed);
            let p = s.batch_pages.swap(0, Ordering::Relaxed);
            s.base_words.fetch_add(w, Ordering::Relaxed);
            s.base_pages.fetch_add(p, Ordering::Relaxed);
        }
    }

    /// Counters for `summary.json`: per rule that saw pages (or could not be loaded),
    /// pages matched, yielded, broken and failed, with example URLs; and the problems.
    pub fn report(&self) -> serde_json::Value {
        let mut rules = BTreeMap::new();
        let mut totals = [0u64; 4];
        for f in &self.files {
            for r in &f.rules {
                let s = &r.stats;
                let c = [
                    s.matched.load(Ordering::Relaxed),
                    s.yielded.load(Ordering::Relaxed),
                    s.broke.load(Ordering::Relaxed),
                    s.errors.load(Ordering::Relaxed),
                ];
                for (t, v) in totals.iter_mut().zip(c) {
                    *t += v;
                }
                if c[0] == 0 && !r.disabled {
                    continue;
                }
                let ex = s.examples.lock().expect("not poisoned");
                let pages =
                    s.base_pages.load(Ordering::Relaxed) + s.batch_pages.load(Ordering::Relaxed);
                let words =
                    s.base_words.load(Ordering::Relaxed) + s.batch_words.load(Ordering::Relaxed);
                let mut v = serde_json::json!({
                    "matched": c[0],
                    "yielded": c[1],
                    "broke": c[2],
                    "errors": c[3],
                    "mean_words": if pages > 0 { (words as f64 / pages as f64).round() } else { 0.0 },
                    "examples": {
                        "yielded": ex.yielded,
                        "broke": ex.broke,
                        "errors": ex.errors,
                    },
                });
                if r.disabled {
                    v["disabled"] = true.into();
                }
                rules.insert(format!("{}#{}", f.name, r.name), v);
            }
        }
        let no_rule: BTreeMap<&str, u64> = self
            .files
            .iter()
            .map(|f| (f.name.as_str(), f.no_rule.load(Ordering::Relaxed)))
            .filter(|(_, n)| *n > 0)
            .collect();
        serde_json::json!({
            "files": self.files.len(),
            "rules": self.active_rules(),
            "pages_matched": totals[0],
            "pages_yielded": totals[1],
            "pages_broke": totals[2],
            "pages_failed": totals[3],
            "site_pages_without_rule": no_rule,
            "per_rule": rules,
            "problems": self.problems.iter().map(|p| p.to_string()).collect::<Vec<_>>(),
        })
    }
}

impl Rule {
    /// Whether the rule's `path_prefix` / `path_glob` accept this URL path.
    pub fn url_matches(&self, path: &str) -> bool {
        self.path_prefix
            .as_deref()
            .is_none_or(|p| path.starts_with(p))
            && self
                .path_glob
                .as_deref()
                .is_none_or(|g| glob_match(g, path))
    }
}

/// The rule set as the first step of the extraction cascade.
pub struct Rules {
    set: RuleSet,
}

impl Rules {
    pub fn new(set: RuleSet) -> Self {
        Rules { set }
    }

    pub fn set(&self) -> &RuleSet {
        &self.set
    }
}

impl Extractor for Rules {
    fn name(&self) -> &str {
        "rules"
    }

    fn extract(&self, page: &ParsedPage, ctx: &PageContext<'_>) -> Option<Extracted> {
        self.set.apply(page, ctx).map(|a| a.extracted)
    }

    fn answer(&self, page: &ParsedPage, ctx: &PageContext<'_>) -> Option<Answer> {
        self.set.apply(page, ctx)
    }

    fn end_batch(&self) {
        self.set.end_batch();
    }

    fn report(&self) -> Option<serde_json::Value> {
        Some(self.set.report())
    }
}

// ───────────────────────────── XPath checks ─────────────────────────────

/// Why an XPath is not acceptable, and where in it (byte offset), when known.
#[derive(Debug, Clone, PartialEq)]
pub struct XpathError {
    pub offset: Option<usize>,
    pub message: String,
}

/// XPath 1.0 core functions, the ones sxd-xpath provides.
const FUNCTIONS: &[&str] = &[
    "last",
    "position",
    "count",
    "local-name",
    "namespace-uri",
    "name",
    "string",
    "concat",
    "starts-with",
    "contains",
    "substring-before",
    "substring-after",
    "substring",
    "string-length",
    "normalize-space",
    "translate",
    "boolean",
    "not",
    "true",
    "false",
    "number",
    "sum",
    "floor",
    "ceiling",
    "round",
];

/// Parse an XPath; on failure, find where it goes wrong.
pub fn compile(expr: &str) -> Result<XPath, XpathError> {
    let factory = sxd_xpath::Factory::new();
    match factory.build(expr) {
        Ok(Some(x)) => Ok(x),
        Ok(None) => Err(XpathError {
            offset: None,
            message: "empty XPath".into(),
        }),
        Err(e) => Err(XpathError {
            offset: Some(error_offset(&factory, expr)),
            message: format!("does not parse: {}", parse_error_text(&e.to_string())),
        }),
    }
}

fn parse_error_text(raw: &str) -> String {
    let known = [
        (
            "RightHandSideExpressionMissing",
            "an operator has no right-hand side",
        ),
        (
            "ExtraUnparsedTokens",
            "unexpected text after the end of the expression",
        ),
        (
            "RanOutOfInput",
            "the expression ends too early (an unclosed `[` or `(`?)",
        ),
        ("TrailingSlash", "it ends with `/`"),
        ("EmptyPredicate", "empty predicate `[]`"),
        ("ArgumentMissing", "a function argument is missing"),
        ("MismatchedQuoteCharacters", "unclosed string literal"),
    ];
    known
        .iter()
        .find(|(k, _)| raw.contains(k))
        .map_or_else(|| raw.to_string(), |(_, v)| v.to_string())
}

/// The offset of the first character after which no continuation can make `expr`
/// valid. sxd-xpath's errors carry no position, so each prefix is tried with a few
/// plausible endings (close the open string, add an operand, close the open brackets).
fn error_offset(factory: &sxd_xpath::Factory, expr: &str) -> usize {
    for (i, c) in expr.char_indices() {
        let prefix = &expr[..i + c.len_utf8()];
        let (quote, closers) = open_constructs(prefix);
        let viable = ["", "x", "'x'", "1", "*", "/x", "x='x'"]
            .iter()
            .any(|middle| {
                let mut candidate = prefix.to_string();
                if let Some(q) = quote {
                    candidate.push(q);
                }
                candidate.push_str(middle);
                candidate.extend(closers.iter().rev());
                matches!(factory.build(&candidate), Ok(Some(_)))
            });
        if !viable {
            return i;
        }
    }
    expr.len()
}

/// The string quote still open at the end of `prefix`, and the brackets to close.
fn open_constructs(prefix: &str) -> (Option<char>, Vec<char>) {
    let mut quote = None;
    let mut closers = Vec::new();
    for c in prefix.chars() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None => match c {
                '\'' | '"' => quote = Some(c),
                '[' => closers.push(']'),
                '(' => closers.push(')'),
                ']' | ')' => {
                    closers.pop();
                }
                _ => {}
            },
        }
    }
    (quote, closers)
}

/// `//name[...]` → `/descendant::name[...]` where that means the same (no positional
/// predicate on the step). sxd-xpath evaluates `//` literally, as
/// `/descendant-or-self::node()/child::name`, building the set of every node of the
/// page first; `descendant::` walks the page once. Other text is left as it is.
pub fn descendant_steps(expr: &str) -> std::borrow::Cow<'_, str> {
    let b = expr.as_bytes();
    let mut out: Option<String> = None;
    let mut copied = 0;
    let mut i = 0;
    while i + 1 < b.len() {
        let c = b[i];
        if c == b'\'' || c == b'"' {
            i = memchr::memchr(c, &b[i + 1..]).map_or(b.len(), |e| i + 1 + e + 1);
            continue;
        }
        if c == b'/' && b[i + 1] == b'/' {
            let name_start = i + 2;
            let mut j = name_start;
            if j < b.len() && b[j] == b'*' {
                j += 1;
            } else {
                while j < b.len()
                    && (b[j].is_ascii_alphanumeric() || matches!(b[j], b'-' | b'_' | b'.'))
                {
                    j += 1;
                }
            }
            let named =
                j > name_start && (b[name_start].is_ascii_alphabetic() || b[name_start] == b'*');
            let next = b.get(j).copied();
            let plain = named && !matches!(next, Some(b'(') | Some(b':'));
            if plain && predicates_not_positional(&expr[j..]) {
                let buf = out.get_or_insert_with(|| String::with_capacity(expr.len() + 16));
                buf.push_str(&expr[copied..i]);
                buf.push_str("/descendant::");
                copied = i + 2;
            }
            i = j.max(i + 2);
            continue;
        }
        i += 1;
    }
    match out {
        None => std::borrow::Cow::Borrowed(expr),
        Some(mut buf) => {
            buf.push_str(&expr[copied..]);
            std::borrow::Cow::Owned(buf)
        }
    }
}

/// Whether the predicates at the start of `rest` (`[..][..]`) are surely boolean and do
/// not depend on the position: no numbers, arithmetic, `position()`, `last()`, or
/// number-valued functions. Conservative: anything doubtful counts as positional.
fn predicates_not_positional(rest: &str) -> bool {
    let b = rest.as_bytes();
    let mut i = 0;
    while i < b.len() && b[i] == b'[' {
        let mut depth = 0;
        let mut j = i;
        let mut quote: Option<u8> = None;
        let mut inner = String::new();
        while j < b.len() {
            let c = b[j];
            match quote {
                Some(q) => {
                    if c == q {
                        quote = None;
                    }
                    inner.push(' ');
                }
                None => {
                    match c {
                        b'\'' | b'"' => quote = Some(c),
                        b'[' => depth += 1,
                        b']' => {
                            depth -= 1;
                            if depth == 0 {
                                break;
                            }
                        }
                        _ => {}
                    }
                    inner.push(c as char);
                }
            }
            j += 1;
        }
        if j >= b.len() {
            return false;
        }
        let ib = inner.as_bytes();
        let numeric = ib.iter().enumerate().any(|(k, &c)| {
            c.is_ascii_digit()
                && (k == 0
                    || !(ib[k - 1].is_ascii_alphanumeric()
                        || ib[k - 1] == b'-'
                        || ib[k - 1] == b'_'))
        });
        let arithmetic = inner.contains('+')
            || inner.contains('*')
            || inner.contains(" - ")
            || inner.contains(" div ")
            || inner.contains(" mod ");
        let functions = [
            "position",
            "last",
            "count",
            "sum",
            "number",
            "string-length",
            "floor",
            "ceiling",
            "round",
        ]
        .iter()
        .any(|f| inner.contains(f));
        if numeric || arithmetic || functions {
            return false;
        }
        i = j + 1;
        while i < b.len() && b[i].is_ascii_whitespace() {
            i += 1;
        }
    }
    true
}

/// Everything `rules check` can know about an XPath without a page: it parses, calls
/// only functions that exist, uses no variables or namespace prefixes, and on a small
/// probe document gives the kind of result its role needs without selecting the whole
/// document.
pub fn check_xpath(expr: &str, role: Role) -> Result<(), XpathError> {
    let compiled = compile(expr)?;
    static_check(expr)?;
    let package = sxd_document::parser::parse(PROBE).expect("probe document parses");
    let doc = package.as_document();
    let v = XPATH_CONTEXT
        .with(|ctx| compiled.evaluate(ctx, doc.root()))
        .map_err(|e| XpathError {
            offset: None,
            message: format!("fails when evaluated: {e}"),
        })?;
    match (&v, role) {
        (Value::Nodeset(ns), Role::Content | Role::Remove) => {
            if let Some(n) = ns.iter().find(|n| is_whole_document(*n)) {
                return Err(XpathError {
                    offset: None,
                    message: format!(
                        "selects the whole document (`{}` on every page)",
                        node_path(n)
                    ),
                });
            }
            Ok(())
        }
        (_, Role::Content | Role::Remove) => Err(XpathError {
            offset: None,
            message: format!("must select nodes, but gives a {}", value_kind(&v)),
        }),
        _ => Ok(()),
    }
}

/// A small page with the usual skeleton, to evaluate XPaths on in `check`.
const PROBE: &str = "<html><head><title>t</title><meta name=\"description\" content=\"d\"/></head>\
<body><div id=\"page\" class=\"page\"><h1>h</h1><p class=\"text\">p <a href=\"/\">a</a></p></div></body></html>";

fn static_check(expr: &str) -> Result<(), XpathError> {
    let b = expr.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c == b'\'' || c == b'"' {
            i = memchr::memchr(c, &b[i + 1..]).map_or(b.len(), |e| i + 1 + e + 1);
            continue;
        }
        if c == b'$' {
            return Err(XpathError {
                offset: Some(i),
                message: "variables are not available in rules".into(),
            });
        }
        if c.is_ascii_alphabetic() || c == b'_' {
            let start = i;
            while i < b.len()
                && (b[i].is_ascii_alphanumeric() || matches!(b[i], b'-' | b'_' | b'.'))
            {
                i += 1;
            }
            let name = &expr[start..i];
            if i + 1 < b.len() && b[i] == b':' && b[i + 1] != b':' {
                return Err(XpathError {
                    offset: Some(start),
                    message: format!(
                        "namespace prefix `{name}:` cannot match: elements have no namespace"
                    ),
                });
            }
            let mut j = i;
            while j < b.len() && b[j].is_ascii_whitespace() {
                j += 1;
            }
            if j < b.len()
                && b[j] == b'('
                && !FUNCTIONS.contains(&name)
                && !matches!(
                    name,
                    "node"
                        | "text"
                        | "comment"
                        | "processing-instruction"
                        | "and"
                        | "or"
                        | "div"
                        | "mod"
                )
            {
                return Err(XpathError {
                    offset: Some(start),
                    message: format!("unknown function `{name}()` (XPath 1.0 core functions only)"),
                });
            }
            continue;
        }
        i += 1;
    }
    Ok(())
}

fn is_whole_document(n: Node<'_>) -> bool {
    match n {
        Node::Root(_) => true,
        Node::Element(e) => {
            let name = e.name().local_part();
            match e.parent() {
                Some(sxd_document::dom::ParentOfChild::Root(_)) => true,
                Some(sxd_document::dom::ParentOfChild::Element(p)) => {
                    name == "body"
                        && matches!(p.parent(), Some(sxd_document::dom::ParentOfChild::Root(_)))
                }
                None => false,
            }
        }
        _ => false,
    }
}

fn value_kind(v: &Value<'_>) -> &'static str {
    match v {
        Value::Boolean(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Nodeset(_) => "node-set",
    }
}

fn to_bool(v: &Value<'_>) -> bool {
    match v {
        Value::Boolean(b) => *b,
        Value::Number(n) => *n != 0.0 && !n.is_nan(),
        Value::String(s) => !s.is_empty(),
        Value::Nodeset(ns) => ns.size() > 0,
    }
}

/// A title or date: the first selected node's text, or the string the XPath gives.
fn value_text(v: &Value<'_>) -> String {
    match v {
        Value::Nodeset(ns) => ns
            .document_order_first()
            .map(|n| dom::collapse(&n.string_value()))
            .unwrap_or_default(),
        Value::String(s) => dom::collapse(s),
        Value::Number(n) => n.to_string(),
        Value::Boolean(b) => b.to_string(),
    }
}

fn ancestors_or_self(n: Node<'_>) -> impl Iterator<Item = Node<'_>> {
    std::iter::successors(Some(n), |n| n.parent())
}

/// `/html/body/div[@id='content']/p`: where a node is, for people writing rules.
pub fn node_path(n: Node<'_>) -> String {
    let mut parts = Vec::new();
    for a in ancestors_or_self(n) {
        match a {
            Node::Element(e) => {
                let name = e.name().local_part().to_string();
                let part = if let Some(id) = e.attribute_value("id") {
                    format!("{name}[@id='{id}']")
                } else if let Some(class) = e.attribute_value("class") {
                    format!("{name}[@class='{class}']")
                } else {
                    name
                };
                parts.push(part);
            }
            Node::Attribute(at) => parts.push(format!("@{}", at.name().local_part())),
            Node::Text(_) => parts.push("text()".into()),
            _ => {}
        }
    }
    parts.reverse();
    format!("/{}", parts.join("/"))
}

fn yaml_message(e: &serde_saphyr::Error) -> String {
    let s = e.to_string();
    let first = s.lines().next().unwrap_or("").trim();
    let first = first.strip_prefix("error: ").unwrap_or(first);
    // "line 3 column 5: message"
    if let Some(rest) = first.strip_prefix("line ") {
        if let Some(pos) = rest.find(": ") {
            return rest[pos + 2..].to_string();
        }
    }
    first.to_string()
}

fn loc(l: &serde_saphyr::Location) -> (usize, usize) {
    (l.line() as usize, l.column() as usize)
}

// ───────────────────────────── URLs ─────────────────────────────

/// Lower-case, no trailing dot, IDNs in punycode.
pub fn normalize_host(host: &str) -> Option<String> {
    let h = host.trim().trim_end_matches('.').to_lowercase();
    if h.is_empty() || h.contains(['/', ' ', ':', '@']) {
        return None;
    }
    let h = if h.is_ascii() {
        h
    } else {
        url::Url::parse(&format!("http://{h}/"))
            .ok()?
            .host_str()?
            .to_string()
    };
    Some(h)
}

/// Host (lower-case) and path (without query or fragment) of a URL, without a full
/// URL parse: this runs for every page.
fn split_url(url: &str) -> Option<(std::borrow::Cow<'_, str>, &str)> {
    let rest = &url[url.find("://")? + 3..];
    let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let authority = &rest[..end];
    let authority = authority.rsplit('@').next().unwrap_or(authority);
    let host = match authority.rfind(':') {
        Some(p) if !authority.ends_with(']') => &authority[..p],
        _ => authority,
    };
    let host = host.trim_end_matches('.');
    let path_and_more = &rest[end..];
    let path_end = path_and_more
        .find(['?', '#'])
        .unwrap_or(path_and_more.len());
    let path = if path_end == 0 {
        "/"
    } else {
        &path_and_more[..path_end]
    };
    let host = if host
        .bytes()
        .any(|b| b.is_ascii_uppercase() || !b.is_ascii())
    {
        std::borrow::Cow::Owned(normalize_host(host)?)
    } else {
        std::borrow::Cow::Borrowed(host)
    };
    Some((host, path))
}

/// `*` matches any run of characters (including `/`); everything else literally; the
/// whole path must match.
fn glob_match(pattern: &str, text: &str) -> bool {
    let (p, t) = (pattern.as_bytes(), text.as_bytes());
    let (mut pi, mut ti) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while ti < t.len() {
        if pi < p.len() && p[pi] == b'*' {
            star = Some((pi, ti));
            pi += 1;
        } else if pi < p.len() && p[pi] == t[ti] {
            pi += 1;
            ti += 1;
        } else if let Some((sp, st)) = star {
            pi = sp + 1;
            ti = st + 1;
            star = Some((sp, st + 1));
        } else {
            return false;
        }
    }
    p[pi..].iter().all(|&c| c == b'*')
}

// ───────────────────────────── text output ─────────────────────────────

/// `char::is_alphanumeric`, with ASCII and the Russian alphabet decided without the
/// Unicode table lookup.
fn is_word_char(c: char) -> bool {
    if c.is_ascii() {
        c.is_ascii_alphanumeric()
    } else if matches!(c, 'а'..='я' | 'А'..='Я' | 'ё' | 'Ё') {
        true
    } else {
        c.is_alphanumeric()
    }
}

/// The text a rule keeps.
#[derive(Debug, Default)]
struct Selection {
    text: String,
    words: u64,
}

/// Writes the text of selected subtrees as blocks (one per block-level element, as in
/// the flat page model), skipping scripts, hidden elements and removed nodes.
#[derive(Default)]
struct TextWriter {
    out: String,
    block: String,
    space_pending: bool,
    pre_depth: u32,
    words: u64,
}

enum Walk<'d> {
    Enter(Node<'d>),
    ExitBlock(bool),
}

/// What a text walker does with an element, decided by its tag class (shared by the
/// sxd and the fast-path walkers, so both write the same text).
enum Visit {
    /// Not visible (or a `<br>`, already written).
    Skip,
    /// Inline: walk the children.
    Children,
    /// Block-level: a block was started; walk the children, then end it.
    Block { pre: bool },
}

impl TextWriter {
    fn visit(&mut self, tag: &str) -> Visit {
        match dom::classify(tag) {
            TagClass::Skip
            | TagClass::NoScript
            | TagClass::Frame
            | TagClass::Title
            | TagClass::Meta => Visit::Skip,
            TagClass::Br => {
                if !self.block.is_empty() {
                    self.block.push('\n');
                    self.space_pending = false;
                }
                Visit::Skip
            }
            TagClass::Inline | TagClass::Link => Visit::Children,
            TagClass::Block(kind) => {
                self.flush();
                let pre = kind == dom::BlockKind::Preformatted;
                if pre {
                    self.pre_depth += 1;
                }
                Visit::Block { pre }
            }
        }
    }

    fn write<'d>(&mut self, node: Node<'d>, skip: &HashSet<Node<'d>>, emitted: &HashSet<Node<'d>>) {
        match node {
            Node::Attribute(a) => {
                self.flush();
                self.push_text(a.value());
                self.flush();
                return;
            }
            Node::Text(_) | Node::Element(_) => {}
            _ => return,
        }
        self.flush();
        let mut stack = vec![Walk::Enter(node)];
        while let Some(step) = stack.pop() {
            match step {
                Walk::ExitBlock(was_pre) => {
                    self.flush();
                    if was_pre {
                        self.pre_depth -= 1;
                    }
                }
                Walk::Enter(n) => {
                    if skip.contains(&n) || emitted.contains(&n) {
                        continue;
                    }
                    match n {
                        Node::Text(t) => self.push_text(t.text()),
                        Node::Element(e) => {
                            let attr = |name: &str| e.attribute_value(name);
                            if dom::is_hidden(&attr) {
                                continue;
                            }
                            let children = n.children();
                            let push_children = |stack: &mut Vec<Walk<'d>>| {
                                for c in children.iter().rev() {
                                    stack.push(Walk::Enter(*c));
                                }
                            };
                            match self.visit(e.name().local_part()) {
                                Visit::Skip => {}
                                Visit::Children => push_children(&mut stack),
                                Visit::Block { pre } => {
                                    stack.push(Walk::ExitBlock(pre));
                                    push_children(&mut stack);
                                }
                            }
                        }
                        _ => {}
                    }
                }
            }
        }
        self.flush();
    }

    /// [`write`](Self::write) for a node of the page index; `marks` are the removed and
    /// already written nodes.
    fn write_arena(&mut self, arena: &Arena, node: u32, marks: &[u8]) {
        enum W {
            Enter(u32),
            ExitBlock(bool),
        }
        self.flush();
        let mut stack = vec![W::Enter(node)];
        while let Some(step) = stack.pop() {
            match step {
                W::ExitBlock(was_pre) => {
                    self.flush();
                    if was_pre {
                        self.pre_depth -= 1;
                    }
                }
                W::Enter(n) => {
                    if marks[n as usize] != 0 {
                        continue;
                    }
                    match arena.nodes[n as usize].kind {
                        Kind::Text => arena.with_text(n, |s| self.push_text(s)),
                        Kind::Element => {
                            let hidden = arena.with_attrs(n, |attrs| {
                                let look = |name: &str| {
                                    attrs
                                        .iter()
                                        .rev()
                                        .find(|a| &*a.name.local == name)
                                        .map(|a| &*a.value)
                                };
                                dom::is_hidden(&look)
                            });
                            if hidden {
                                continue;
                            }
                            let push_children = |stack: &mut Vec<W>| {
                                let start = stack.len();
                                stack.extend(arena.children(n).map(W::Enter));
                                stack[start..].reverse();
                            };
                            let name = arena.name(n).map_or("", |l| &**l);
                            match self.visit(name) {
                                Visit::Skip => {}
                                Visit::Children => push_children(&mut stack),
                                Visit::Block { pre } => {
                                    stack.push(W::ExitBlock(pre));
                                    push_children(&mut stack);
                                }
                            }
                        }
                        Kind::Root => {}
                    }
                }
            }
        }
        self.flush();
    }

    /// Append text: whitespace runs collapse to one pending space (newlines kept in
    /// `<pre>`), words (runs of alphanumeric characters) are counted. One pass over the
    /// bytes, ASCII without decoding.
    fn push_text(&mut self, s: &str) {
        let b = s.as_bytes();
        let mut in_word = false;
        let mut i = 0;
        let mut run_start = usize::MAX;
        while i < b.len() {
            let (c, len, space) = if b[i] < 0x80 {
                let c = b[i] as char;
                (c, 1, c.is_ascii_whitespace() || c == '\x0b')
            } else {
                let c = s[i..].chars().next().expect("char boundary");
                (c, c.len_utf8(), c.is_whitespace())
            };
            if space {
                if run_start != usize::MAX {
                    self.block.push_str(&s[run_start..i]);
                    run_start = usize::MAX;
                }
                in_word = false;
                if self.pre_depth > 0 && c == '\n' {
                    self.block.push('\n');
                    self.space_pending = false;
                } else if !self.block.is_empty() && !self.block.ends_with('\n') {
                    self.space_pending = true;
                }
            } else {
                if run_start == usize::MAX {
                    if self.space_pending {
                        self.block.push(' ');
                        self.space_pending = false;
                    }
                    run_start = i;
                }
                let word_char = if len == 1 {
                    c.is_ascii_alphanumeric()
                } else {
                    is_word_char(c)
                };
                if word_char && !in_word {
                    self.words += 1;
                }
                in_word = word_char;
            }
            i += len;
        }
        if run_start != usize::MAX {
            self.block.push_str(&s[run_start..]);
        }
    }

    /// The plain per-character `push_text` the fast one must equal (tests).
    #[cfg(test)]
    fn push_text_reference(&mut self, s: &str) {
        let mut in_word = false;
        for c in s.chars() {
            if c.is_whitespace() {
                in_word = false;
                if self.pre_depth > 0 && c == '\n' {
                    self.block.push('\n');
                    self.space_pending = false;
                } else if !self.block.is_empty() && !self.block.ends_with('\n') {
                    self.space_pending = true;
                }
                continue;
            }
            if self.space_pending {
                self.block.push(' ');
                self.space_pending = false;
            }
            self.block.push(c);
            let word_char = c.is_alphanumeric();
            if word_char && !in_word {
                self.words += 1;
            }
            in_word = word_char;
        }
    }

    fn flush(&mut self) {
        self.space_pending = false;
        let t = self.block.trim_end_matches(['\n', ' ']);
        if !t.trim().is_empty() {
            if !self.out.is_empty() {
                self.out.push('\n');
            }
            self.out.push_str(t);
        }
        self.block.clear();
    }

    fn finish(mut self) -> Selection {
        self.flush();
        Selection {
            text: self.out,
            words: self.words,
        }
    }
}

// ───────────────────────────── operator tools ─────────────────────────────

/// What one XPath selects on a page, for `thresher rules try`.
#[derive(Debug)]
pub struct Tried {
    pub expr: String,
    /// `Err` when the XPath does not parse or fails on this page.
    pub result: Result<TriedValue, String>,
}

#[derive(Debug)]
pub enum TriedValue {
    /// Each selected node: its path and its text.
    Nodes(Vec<(String, String)>),
    Scalar(String),
}

/// Evaluate free-standing XPaths on a page, and the text a rule made of them would keep.
pub fn try_xpaths(
    page: &ParsedPage,
    content: &[String],
    remove: &[String],
) -> (Vec<Tried>, Vec<Tried>, String) {
    let package = to_xml(&page.tree, XmlOptions::default());
    let doc = package.as_document();
    let root = doc.root();
    let run = |expr: &String| -> Tried {
        let result = compile(expr)
            .map_err(|e| match e.offset {
                Some(o) => format!(
                    "{} (at character {})",
                    e.message,
                    expr[..o].chars().count() + 1
                ),
                None => e.message,
            })
            .and_then(|x| {
                XPATH_CONTEXT
                    .with(|ctx| x.evaluate(ctx, root))
                    .map_err(|e| format!("fails: {e}"))
            })
            .map(|v| match v {
                Value::Nodeset(ns) => TriedValue::Nodes(
                    ns.document_order()
                        .into_iter()
                        .map(|n| {
                            let mut w = TextWriter::default();
                            w.write(n, &HashSet::new(), &HashSet::new());
                            (node_path(n), w.finish().text)
                        })
                        .collect(),
                ),
                other => TriedValue::Scalar(value_text(&other)),
            });
        Tried {
            expr: expr.clone(),
            result,
        }
    };
    let kept_tried: Vec<Tried> = content.iter().map(run).collect();
    let removed_tried: Vec<Tried> = remove.iter().map(run).collect();
    // The kept text, as a rule with these XPaths would write it.
    let mut skip = HashSet::new();
    for expr in remove {
        if let Ok(x) = compile(expr) {
            if let Ok(Value::Nodeset(ns)) = XPATH_CONTEXT.with(|ctx| x.evaluate(ctx, root)) {
                skip.extend(ns.iter());
            }
        }
    }
    let mut writer = TextWriter::default();
    let mut emitted = HashSet::new();
    for expr in content {
        if let Ok(x) = compile(expr) {
            if let Ok(Value::Nodeset(ns)) = XPATH_CONTEXT.with(|ctx| x.evaluate(ctx, root)) {
                for n in ns.document_order() {
                    if ancestors_or_self(n).any(|a| emitted.contains(&a) || skip.contains(&a)) {
                        continue;
                    }
                    writer.write(n, &skip, &emitted);
                    emitted.insert(n);
                }
            }
        }
    }
    (kept_tried, removed_tried, writer.finish().text)
}

/// The XPaths of a rule (for `rules try --rule FILE`): content, remove.
pub fn rule_xpaths(set: &RuleSet, file: usize, rule: usize) -> (Vec<String>, Vec<String>) {
    let r = &set.files[file].rules[rule];
    (
        r.content
            .iter()
            .map(|&i| set.xpaths[i].expr.clone())
            .collect(),
        r.remove
            .iter()
            .map(|&i| set.xpaths[i].expr.clone())
            .collect(),
    )
}

/// Outcome of one embedded test.
#[derive(Debug)]
pub struct TestOutcome {
    /// `file.yaml:line`
    pub place: String,
    pub page: String,
    pub method: String,
    pub failures: Vec<String>,
}

/// Run the embedded tests of every file: each page must be handled by a rule of its
/// file (the named one, if any) and keep / drop the listed snippets.
pub fn run_tests(set: &RuleSet) -> Vec<TestOutcome> {
    let mut outcomes = Vec::new();
    for file in &set.files {
        for t in &file.tests {
            let mut failures = Vec::new();
            let place = format!("{}:{}", file.path.display(), t.line);
            let bytes = match std::fs::read(&t.page) {
                Ok(b) => b,
                Err(e) => {
                    outcomes.push(TestOutcome {
                        place,
                        page: t.page.display().to_string(),
                        method: String::new(),
                        failures: vec![format!("cannot read the page: {e}")],
                    });
                    continue;
                }
            };
            let tld = split_url(&t.url)
                .and_then(|(h, _)| h.rsplit('.').next().map(|s| s.as_bytes().to_vec()));
            let decoded = crate::source::charset::decode_html(
                &bytes,
                t.content_type.as_deref(),
                tld.as_deref(),
            );
            let parsed = dom::parse_page(&decoded.text);
            let ctx = PageContext {
                url: &t.url,
                group: "",
            };
            let answer = set.apply(&parsed, &ctx);
            let method = answer
                .as_ref()
                .map_or("(no rule)".to_string(), |a| a.method.clone());
            match &answer {
                None => failures.push(format!(
                    "no rule of {} handled {} (no rule matched, or the rule broke)",
                    file.name, t.url
                )),
                Some(a) => {
                    let expected = match &t.rule {
                        Some(r) => a.method == format!("rules:{}#{r}", file.name),
                        None => a.method.starts_with(&format!("rules:{}#", file.name)),
                    };
                    if !expected {
                        failures.push(format!(
                            "handled by {}, expected rules:{}#{}",
                            a.method,
                            file.name,
                            t.rule.as_deref().unwrap_or("*")
                        ));
                    }
                    let text = &a.extracted.text;
                    for s in &t.must_contain {
                        if !text.contains(s.as_str()) {
                            failures.push(format!("missing: {s:?}"));
                        }
                    }
                    for s in &t.must_not_contain {
                        if text.contains(s.as_str()) {
                            failures.push(format!("kept but must not be: {s:?}"));
                        }
                    }
                    if let Some(title) = &t.title {
                        let got = a
                            .title
                            .clone()
                            .unwrap_or_else(|| super::title::page_title(&parsed.dom, Some(&t.url)));
                        if &got != title {
                            failures.push(format!("title {got:?}, expected {title:?}"));
                        }
                    }
                }
            }
            outcomes.push(TestOutcome {
                place,
                page: t.page.display().to_string(),
                method,
                failures,
            });
        }
    }
    outcomes
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set_of(files: &[(&str, &str)]) -> RuleSet {
        RuleSet::from_sources(
            files
                .iter()
                .map(|(p, t)| (PathBuf::from(p), t.to_string()))
                .collect(),
        )
    }

    const SITE: &str = "site:\n  host: a.example\n  subdomains: true\nrules:\n  - name: article\n    path_prefix: /news/\n    content: [\"//h1\", \"//div[@class='body']\"]\n    remove: [\"//div[@class='ad']\"]\n    title: \"//h1\"\n    date: \"//meta[@name='date']/@content\"\n";

    const PAGE: &str = "<html><head><meta name=date content='2025-01-02'></head><body><nav>Home News</nav><h1>The headline</h1><div class=body><p>First paragraph of the body.</p><div class=ad>Buy now</div><p>Second <b>one</b>.</p><script>x()</script></div><footer>(c) site</footer></body></html>";

    fn ctx(url: &str) -> PageContext<'_> {
        PageContext { url, group: "" }
    }

    #[test]
    fn a_rule_keeps_its_content_in_order_and_cuts_what_it_removes() {
        let set = set_of(&[("r/a.example.yaml", SITE)]);
        assert!(set.problems().is_empty(), "{:?}", set.problems());
        let page = dom::parse_page(PAGE);
        let a = set
            .apply(&page, &ctx("https://www.A.example/news/x.html?q=1"))
            .unwrap();
        assert_eq!(a.method, "rules:a.example#article");
        assert_eq!(
            a.extracted.text,
            "The headline\nFirst paragraph of the body.\nSecond one."
        );
        assert_eq!(a.title.as_deref(), Some("The headline"));
        assert_eq!(a.date.as_deref(), Some("2025-01-02"));
        // Subdomain, but a path no rule covers: next method.
        assert!(set
            .apply(&page, &ctx("http://m.a.example/about/"))
            .is_none());
        // Another host.
        assert!(set
            .apply(&page, &ctx("http://b.example/news/x.html"))
            .is_none());
    }

    #[test]
    fn a_rule_that_selects_nothing_is_broken_and_counted() {
        let set = set_of(&[("a.example.yaml", SITE)]);
        let page = dom::parse_page("<html><body><p>A different layout entirely.</p></body></html>");
        assert!(set.apply(&page, &ctx("http://a.example/news/1")).is_none());
        let r = set.report();
        assert_eq!(r["per_rule"]["a.example#article"]["broke"], 1);
        assert_eq!(
            r["per_rule"]["a.example#article"]["examples"]["broke"][0],
            "http://a.example/news/1"
        );
    }

    #[test]
    fn far_less_text_than_usual_is_broken_after_a_history() {
        let set = set_of(&[("a.example.yaml", SITE)]);
        let page = dom::parse_page(PAGE);
        for _ in 0..MIN_HISTORY {
            assert!(set.apply(&page, &ctx("http://a.example/news/1")).is_some());
        }
        set.end_batch();
        let thin = dom::parse_page("<html><body><h1>Only</h1><div class=body></div></body></html>");
        assert!(set.apply(&thin, &ctx("http://a.example/news/2")).is_none());
        assert_eq!(set.report()["per_rule"]["a.example#article"]["broke"], 1);
    }

    #[test]
    fn bad_files_and_rules_are_reported_with_their_place() {
        let set = set_of(&[
            ("ok.yaml", SITE),
            ("dup.yaml", "site: {host: a.example}\nrules:\n  - name: x\n    content: ['//p']\n"),
            ("unknown.yaml", "site:\n  host: c.example\n  colour: red\nrules: []\n"),
            (
                "badxpath.yaml",
                "site:\n  host: d.example\nrules:\n  - name: x\n    content: [\"//div[@class=='a']\"]\n  - name: y\n    content: ['//p']\n",
            ),
            ("whole.yaml", "site:\n  host: e.example\nrules:\n  - name: all\n    content: ['//body']\n"),
            ("func.yaml", "site:\n  host: f.example\nrules:\n  - name: f\n    content: ['//div[matches(@class, \"x\")]']\n"),
            ("num.yaml", "site:\n  host: g.example\nrules:\n  - name: n\n    content: ['count(//p)']\n"),
        ]);
        let msgs: Vec<String> = set.problems().iter().map(|p| p.to_string()).collect();
        let find = |needle: &str| {
            msgs.iter()
                .find(|m| m.contains(needle))
                .unwrap_or_else(|| panic!("no problem mentioning {needle}: {msgs:#?}"))
                .clone()
        };
        assert!(find("dup.yaml").contains("already claimed by ok.yaml"));
        assert!(find("unknown.yaml").starts_with("unknown.yaml:3:3: unknown field `colour`"));
        // The second `=` of `==` is character 15 of the XPath; the XPath starts at
        // column 15 after its quote.
        assert!(
            find("badxpath.yaml").starts_with("badxpath.yaml:5:29: XPath"),
            "{msgs:#?}"
        );
        assert!(find("whole.yaml").contains("selects the whole document"));
        assert!(find("func.yaml").contains("unknown function `matches()`"));
        assert!(find("num.yaml").contains("must select nodes"));
        // The good rule of badxpath.yaml still works; the bad one is disabled.
        assert_eq!(set.active_rules(), 1 + 1 + 0 + 0 + 0);
    }

    #[test]
    fn globs_and_urls() {
        assert!(glob_match("/news/*.print.html", "/news/a/b.print.html"));
        assert!(!glob_match("/news/*.print.html", "/news/a.html"));
        assert!(glob_match("*", "/"));
        assert_eq!(
            split_url("http://u@Www.X.org:8080/a/b?c#d").map(|(h, p)| (h.into_owned(), p)),
            Some(("www.x.org".into(), "/a/b"))
        );
        assert_eq!(
            split_url("https://x.org").map(|(h, p)| (h.into_owned(), p)),
            Some(("x.org".into(), "/"))
        );
        assert_eq!(
            normalize_host("Президент.РФ").as_deref(),
            Some("xn--d1abbgf6aiiy.xn--p1ai")
        );
    }

    #[test]
    fn descendant_rewrite_only_where_equivalent() {
        assert_eq!(
            descendant_steps("//div[@class='a//b']//p"),
            "/descendant::div[@class='a//b']/descendant::p"
        );
        assert_eq!(
            descendant_steps(".//td[contains(@class, 'x')]/p"),
            "./descendant::td[contains(@class, 'x')]/p"
        );
        for same in [
            "//p[1]",
            "//p[last()]",
            "//@content",
            "//text()",
            "//li[position() < 3]",
            "//div[@n + 1]",
            "//p[2][@a]",
        ] {
            assert_eq!(descendant_steps(same), same);
        }
        assert_eq!(
            descendant_steps("//h1[@id='x']|//h2"),
            "/descendant::h1[@id='x']|/descendant::h2"
        );
        // Same results on a page.
        let page =
            dom::parse_page("<div class=a><p>1</p><div><p>2</p><p>3</p></div></div><p>4</p>");
        let package = to_xml(&page.tree, XmlOptions::default());
        let doc = package.as_document();
        for expr in ["//div[@class='a']//p", "//p", "//div//div/p", "//*[@class]"] {
            let a = sxd_xpath::evaluate_xpath(&doc, expr).unwrap();
            let b = sxd_xpath::evaluate_xpath(&doc, &descendant_steps(expr)).unwrap();
            assert_eq!(a, b, "{expr}");
        }
    }

    #[test]
    fn error_offsets_point_into_the_expression() {
        let e = compile("//div[@class=='a']").unwrap_err();
        assert_eq!(e.offset, Some(13));
        let e = compile("//div[@id='a']]").unwrap_err();
        assert_eq!(e.offset, Some(14));
        let e = compile("//div[contains(@class 'x')]").unwrap_err();
        assert_eq!(e.offset, Some(22));
    }

    // ─────────── differential tests: fast evaluator against sxd-xpath ───────────

    /// Every HTML page under `fixtures/`, parsed.
    fn fixture_pages() -> Vec<(PathBuf, ParsedPage)> {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
        let mut stack = vec![root];
        let mut files = Vec::new();
        while let Some(d) = stack.pop() {
            for e in std::fs::read_dir(&d).unwrap().flatten() {
                let p = e.path();
                if p.is_dir() {
                    stack.push(p);
                } else if p.extension().is_some_and(|x| x == "html" || x == "htm") {
                    files.push(p);
                }
            }
        }
        files.sort();
        assert!(files.len() >= 16, "{files:?}");
        files
            .into_iter()
            .map(|p| {
                let bytes = std::fs::read(&p).unwrap();
                let text = crate::source::charset::decode_html(&bytes, None, None).text;
                (p, dom::parse_page(&text))
            })
            .collect()
    }

    /// Each sxd node's document-order index, numbered as the page index numbers them.
    fn sxd_numbers<'d>(root: Root<'d>) -> HashMap<Node<'d>, u32> {
        let mut out = HashMap::new();
        let mut stack = vec![Node::Root(root)];
        while let Some(n) = stack.pop() {
            match n {
                Node::Root(_) | Node::Element(_) | Node::Text(_) => {
                    out.insert(n, out.len() as u32);
                    for c in n.children().into_iter().rev() {
                        stack.push(c);
                    }
                }
                _ => {}
            }
        }
        out
    }

    fn sxd_items<'d>(v: &Value<'d>, numbers: &HashMap<Node<'d>, u32>) -> Vec<Item> {
        let Value::Nodeset(ns) = v else {
            panic!("not nodes: {v:?}")
        };
        ns.document_order()
            .into_iter()
            .map(|n| match n {
                Node::Attribute(a) => Item::Attr(
                    numbers[&Node::Element(a.parent().unwrap())],
                    a.name().local_part().to_string(),
                ),
                n => Item::Node(numbers[&n]),
            })
            .collect()
    }

    /// Expressions of the subset, page-independent ones and ones made from the classes
    /// and ids found on the page.
    fn generated_xpaths(arena: &Arena) -> Vec<String> {
        let mut out: Vec<String> = [
            "/html",
            "/html/body",
            "/html/body/*",
            "/html/body/div[1]",
            "/html/body/*[2]",
            "/html/head/title",
            "//div",
            "//p",
            "//*",
            "//div[1]",
            "//p[2]",
            "//div/p[1]",
            "//div//p[1]",
            "//div[@id]",
            "//div[not(@id)]",
            "//*[@id][1]",
            "//div[@class][2]",
            "//div[2][@class]",
            "//span[1][@class]",
            "//a/@href",
            "//@href",
            "//@class",
            "//meta/@content",
            "//meta[@name='description']/@content",
            "//div//a[starts-with(@href, 'http')]",
            "//a[@href != '#']",
            "//a[@href = '#']",
            "//li[2]//a",
            "//ul/li[1]",
            "//table//tr[2]/td[1]",
            "//tr/td[2]//p",
            "//div[@class and @id]",
            "//div[@class or @id]",
            "//*[contains(@class, 'a') and not(contains(@class, 'nav'))]",
            "//*[(@id or @class) and not(@style)]",
            "//div[translate(@class, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz') = 'content']",
            "//*[normalize-space(@class) = 'post-body']",
            "//*[concat(@class, 'x') = 'textx']",
            "//*[contains(@class, '')]",
            "//*[starts-with(@id, '')][3]",
            "//body//*[3]",
            "//body/div/div/div",
            "//div/*/*[1]",
            "//head/*",
            "//script",
            "//*[@lang]",
            "//p[@class='text'][1]",
            "//h1 | //h2",
            "//p/text()",
            "//div[position() = 1]",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        let mut seen = HashSet::new();
        for i in 0..arena.len() as u32 {
            let Some(tag) = arena.name(i).map(|t| t.to_string()) else {
                continue;
            };
            for (attr, v) in [
                ("class", arena.attr(i, "class")),
                ("id", arena.attr(i, "id")),
            ] {
                let Some(v) = v else { continue };
                if v.contains(['\'', '"'])
                    || !seen.insert((tag.clone(), v.clone()))
                    || seen.len() > 40
                {
                    continue;
                }
                let tok = v.split_whitespace().next().unwrap_or("").to_string();
                out.push(format!("//{tag}[@{attr}='{v}']"));
                out.push(format!("//*[@{attr}='{v}']/*"));
                out.push(format!("//*[@{attr}='{v}']//p[1]"));
                out.push(format!("//*[contains(@{attr}, '{tok}')]"));
                out.push(format!(
                    "//{tag}[contains(concat(' ', normalize-space(@{attr}), ' '), ' {tok} ')][1]"
                ));
                out.push(format!("//{tag}[starts-with(@{attr}, '{tok}')]/@{attr}"));
            }
        }
        out
    }

    /// String-valued expressions of the subset (titles, dates).
    const STRING_XPATHS: &[&str] = &[
        "normalize-space(//h1)",
        "string(//title)",
        "substring-after(//title, ' ')",
        "substring-before(//p, '.')",
        "substring-after(//p, '')",
        "substring-before(//p, '')",
        "substring-after(//p, 'no such text anywhere')",
        "concat(//h1, ' | ', //title)",
        "translate(//h1, 'abcdefghijklmnopqrstuvwxyz', 'ABCDEFGHIJKLMNOPQRSTUVWXYZ')",
        "translate(//h1, 'aeiou', 'AE')",
        "string(//meta[@name='description']/@content)",
        "normalize-space(substring-before(substring-after(//div[@class='date'], 'Опубликовано'), '|'))",
        "normalize-space(//*[@class='nothing-has-this'])",
        "normalize-space('  a  b ')",
    ];

    #[test]
    fn the_fast_evaluator_selects_what_sxd_selects_on_every_fixture_page() {
        let set =
            RuleSet::load_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join("site-rules")).unwrap();
        let shipped: Vec<String> = set.xpaths.iter().map(|x| x.expr.clone()).collect();
        let mut compared = 0;
        let mut fast_shipped = HashSet::new();
        for (path, page) in fixture_pages() {
            let arena = Arena::build(&page.tree);
            let package = to_xml(&page.tree, XmlOptions::default());
            let doc = package.as_document();
            let numbers = sxd_numbers(doc.root());
            assert_eq!(numbers.len(), arena.len(), "{}", path.display());
            let generated = generated_xpaths(&arena);
            for expr in shipped.iter().chain(&generated) {
                let Some(plan) = Plan::compile(expr) else {
                    continue;
                };
                if shipped.contains(expr) {
                    fast_shipped.insert(expr.clone());
                }
                let v = XPATH_CONTEXT
                    .with(|ctx| compile(expr).unwrap().evaluate(ctx, doc.root()))
                    .unwrap_or_else(|e| panic!("{expr}: {e}"));
                let want = sxd_items(&v, &numbers);
                let got = plan.select(&arena);
                assert_eq!(got, want, "{expr} on {}", path.display());
                // Titles and dates: the first node's text.
                let got_text = got
                    .first()
                    .map(|it| dom::collapse(&Plan::item_string(&arena, it)))
                    .unwrap_or_default();
                assert_eq!(got_text, value_text(&v), "{expr} on {}", path.display());
                compared += 1;
            }
            // String expressions (titles, dates).
            let strings: Vec<String> = STRING_XPATHS.iter().map(|s| s.to_string()).collect();
            for expr in shipped.iter().chain(&strings) {
                let Some(plan) = StrPlan::compile(expr) else {
                    continue;
                };
                if shipped.contains(expr) {
                    fast_shipped.insert(expr.clone());
                }
                let v = XPATH_CONTEXT
                    .with(|ctx| compile(expr).unwrap().evaluate(ctx, doc.root()))
                    .unwrap_or_else(|e| panic!("{expr}: {e}"));
                assert_eq!(
                    dom::collapse(&plan.eval(&arena)),
                    value_text(&v),
                    "{expr} on {}",
                    path.display()
                );
                compared += 1;
            }
            // Outside the subset: left to sxd-xpath.
            assert!(Plan::compile("//h1 | //h2").is_none());
        }
        assert!(compared > 2_000, "{compared}");
        // Every shipped XPath takes the fast path.
        let slow: Vec<&String> = shipped
            .iter()
            .filter(|x| !fast_shipped.contains(*x))
            .collect();
        assert!(slow.is_empty(), "{slow:?}");
        for x in STRING_XPATHS {
            assert!(StrPlan::compile(x).is_some(), "{x}");
        }
    }

    #[test]
    fn rules_write_the_same_text_with_and_without_the_fast_evaluator() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("site-rules");
        let mut sources: Vec<(PathBuf, String)> = std::fs::read_dir(&dir)
            .unwrap()
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "yaml"))
            .map(|p| {
                let t = std::fs::read_to_string(&p).unwrap();
                (p, t)
            })
            .collect();
        sources.sort();
        let pages = fixture_pages();
        // Generated rules: content and remove from the generated expressions of each page.
        for (k, (_, page)) in pages.iter().enumerate() {
            let arena = Arena::build(&page.tree);
            let g: Vec<String> = generated_xpaths(&arena)
                .into_iter()
                .filter(|x| Plan::compile(x).is_some())
                .collect();
            let mut yaml = format!("site:\n  host: gen{k}.example\nrules:\n");
            for i in 0..g.len() {
                let q = |s: &str| format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""));
                yaml.push_str(&format!(
                    "  - name: r{i}\n    content: [{}, {}]\n    remove: [{}]\n    title: {}\n",
                    q(&g[i]),
                    q(&g[(i + 7) % g.len()]),
                    q(&g[(i * 3 + 1) % g.len()]),
                    q(&g[(i + 2) % g.len()]),
                ));
            }
            sources.push((PathBuf::from(format!("gen{k}.yaml")), yaml));
        }
        let set = RuleSet::from_sources(sources);
        let mut compared = 0;
        for (_, page) in &pages {
            let trees = PageTrees::new(page);
            for file in &set.files {
                for rule in file.rules.iter().filter(|r| !r.disabled) {
                    let plans: Vec<&Plan> = rule
                        .remove
                        .iter()
                        .chain(&rule.content)
                        .map(|&i| set.xpaths[i].fast.as_ref().unwrap())
                        .collect();
                    let fast = set.select_fast(rule, &plans, trees.arena());
                    let slow = set.select_sxd(rule, trees.root());
                    match (fast, slow) {
                        (Ok(f), Ok(s)) => {
                            assert_eq!(f.text, s.text, "{}#{}", file.name, rule.name);
                            assert_eq!(f.words, s.words, "{}#{}", file.name, rule.name);
                        }
                        (Err(f), Err(s)) => assert_eq!(f, s, "{}#{}", file.name, rule.name),
                        (f, s) => panic!("{}#{}: {f:?} vs {s:?}", file.name, rule.name),
                    }
                    for idx in rule.title.iter().chain(rule.date.iter()) {
                        if set.xpaths[*idx].fast.is_some() || set.xpaths[*idx].fast_str.is_some() {
                            let f = set.eval_text(*idx, &trees);
                            let s = set.eval(*idx, trees.root()).ok().map(|v| value_text(&v));
                            assert_eq!(f, s, "{}", set.xpaths[*idx].expr);
                        }
                    }
                    compared += 1;
                }
            }
        }
        assert!(compared > 1_000, "{compared}");
    }

    #[test]
    fn push_text_equals_the_per_character_reference() {
        let mut texts: Vec<String> = vec![
            "  a  b\t\nc \u{a0}d\u{2003}e\u{3000}f\u{85}g\x0b\x0ch ".into(),
            "wo-rd don't 3.14 ½ Ⅻ ٣ 漢字 ёЁ Ωμέγα  \r\n".into(),
            String::new(),
            "\n\n".into(),
        ];
        for (_, page) in fixture_pages() {
            let arena = Arena::build(&page.tree);
            for i in 0..arena.len() as u32 {
                arena.with_text(i, |t| texts.push(t.to_string()));
            }
        }
        for pre in [0, 1] {
            let mut fast = TextWriter {
                pre_depth: pre,
                ..TextWriter::default()
            };
            let mut slow = TextWriter {
                pre_depth: pre,
                ..TextWriter::default()
            };
            for (k, t) in texts.iter().enumerate() {
                fast.push_text(t);
                slow.push_text_reference(t);
                assert_eq!(fast.block, slow.block, "{t:?}");
                assert_eq!(fast.words, slow.words, "{t:?}");
                assert_eq!(fast.space_pending, slow.space_pending, "{t:?}");
                if k % 7 == 0 {
                    fast.flush();
                    slow.flush();
                }
            }
            assert_eq!(fast.out, slow.out);
        }
    }

    #[test]
    fn the_fast_evaluator_agrees_on_pages_deeper_than_the_depth_cap() {
        let depth = dom::MAX_DEPTH + 100;
        let html = format!(
            "<html><body>{}<p class=x>deep <b>text</b></p>{}<p class=x>after</p></body></html>",
            "<div class='d e'><span>s</span>".repeat(depth),
            "</div>".repeat(depth)
        );
        let page = dom::parse_page(&html);
        let arena = Arena::build(&page.tree);
        let package = to_xml(&page.tree, XmlOptions::default());
        let doc = package.as_document();
        let numbers = sxd_numbers(doc.root());
        assert_eq!(numbers.len(), arena.len());
        for expr in [
            "//p",
            "//div/p",
            "//div[@class='d e'][1]",
            "//div[contains(concat(' ', normalize-space(@class), ' '), ' e ')][2]",
            "//span[1]",
            "//div/span/@class",
            "//p[@class='x']",
            "//div[1]/div[1]/div[1]",
        ] {
            let v = XPATH_CONTEXT
                .with(|ctx| compile(expr).unwrap().evaluate(ctx, doc.root()))
                .unwrap();
            let got = Plan::compile(expr).unwrap().select(&arena);
            assert_eq!(got, sxd_items(&v, &numbers), "{expr}");
        }
    }

    #[test]
    fn plans_are_shared_between_threads() {
        fn shared<T: Send + Sync>() {}
        shared::<Plan>();
        shared::<StrPlan>();
        shared::<RuleSet>();
    }
}
