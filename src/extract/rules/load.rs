//! Finding and reading rule files: every `*.yaml`/`*.yml` of a directory, parsed into
//! the schema (`schema.rs`), checked, and turned into a [`RuleSet`]. Loading never fails
//! as a whole: a YAML error, a bad host, a host claimed twice, a bad rule or XPath
//! becomes a [`Problem`] with its file, line and column, and only the file (or the rule,
//! or the test) is skipped.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use serde_saphyr::Spanned;

use super::breakage::{RuleStats, DEFAULT_MIN_RATIO, DEFAULT_MIN_WORDS};
use super::compile::check_xpath;
use super::lookup::normalize_host;
use super::schema::RawFile;
use super::{Role, Rule, RuleFile, RuleSet, TestCase, XpathSrc};
use crate::extract::xpath_fast::{Plan, StrPlan};

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

impl Problem {
    /// `file:line:column: message`, without what was skipped (`--strict` skips nothing:
    /// it stops).
    pub fn located(&self) -> String {
        format!(
            "{}:{}:{}: {}",
            self.path.display(),
            self.line,
            self.column,
            self.message
        )
    }
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

/// The next rule set's id: the key of its compiled XPaths in each thread's cache
/// (`eval.rs`).
static NEXT_SET_ID: AtomicU64 = AtomicU64::new(1);

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
            xpath_budget: super::cost::DEFAULT_XPATH_BUDGET,
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
                    nesting: super::cost::nesting(&x.value),
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
                min_words: r.min_words.unwrap_or(DEFAULT_MIN_WORDS),
                min_ratio: r.min_ratio.unwrap_or(DEFAULT_MIN_RATIO),
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
