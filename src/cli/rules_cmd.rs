//! `thresher rules check|test|try|bench` and the `--rules DIR` / `--strict` options of
//! `extract` and `run`: the operator's side of per-site XPath rules.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use clap::{Args, Subcommand};

use crate::charset;
use crate::config::Config;
use crate::error::{Error, Result};
use crate::extract::rules::{self, RuleSet, Rules, TriedValue};
use crate::extract::{dom, heuristic, Extractor, PageContext};
use crate::source::{self, Manifest, PageJob, ReadLimits};

/// Options of `extract` and `run` for per-site rules.
#[derive(Debug, Args)]
pub struct RulesArgs {
    /// Directory of per-site XPath rule files (e.g. `site-rules/`), tried before the
    /// other methods. Bad files or rules are skipped with a warning.
    #[arg(long, value_name = "DIR")]
    pub rules: Option<PathBuf>,
    /// Make any problem in the rule files fatal (exit 2) instead of skipping it.
    #[arg(long, requires = "rules")]
    pub strict: bool,
}

/// The extractors `--rules` puts at the front of the cascade of `extract` and `run`
/// (none without `--rules`).
pub fn front(args: &RulesArgs, config: &Config) -> Result<Vec<Box<dyn Extractor>>> {
    rules::front(args.rules.as_deref(), args.strict, config.xpath_budget)
}

/// `rules test --pages`: breakage of the rules on a site's current pages.
#[derive(Debug, Args)]
pub struct HealthArgs {
    /// Pages to probe (HTML files or directories); their URLs (which pick the rule) come
    /// from --manifest.
    #[arg(long, num_args = 1.., value_name = "PATH")]
    pages: Vec<PathBuf>,
    /// JSONL manifest giving the pages' URLs (path relative to the manifest, url).
    #[arg(long, requires = "pages")]
    manifest: Option<PathBuf>,
    /// A baseline saved by --save-baseline: a page, rule or XPath keeping less than half
    /// of its words there is reported broken, with the text it kept then.
    #[arg(long, value_name = "FILE", requires = "pages")]
    baseline: Option<PathBuf>,
    /// Save what each rule and XPath keeps on these pages as a baseline (JSONL).
    #[arg(long, value_name = "FILE", requires = "pages")]
    save_baseline: Option<PathBuf>,
    /// Write the breakages found as JSON to FILE.
    #[arg(long, value_name = "FILE", requires = "pages")]
    breakage_json: Option<PathBuf>,
    /// Exit 1 when a breakage is found (for a scheduled job).
    #[arg(long, requires = "pages")]
    fail_on_breakage: bool,
}

#[derive(Debug, Subcommand)]
pub enum RulesCommand {
    /// Check that every rule file parses and every XPath compiles; name file, line and
    /// column of each problem. Exit 1 when there is one.
    Check {
        /// Rule directory.
        #[arg(default_value = "site-rules")]
        dir: PathBuf,
    },
    /// Run the rule files' embedded tests; print PASS/FAIL per test; exit 1 on a failure.
    /// With --pages, also report per rule the pages where it now keeps nothing or far
    /// less than it did (against --baseline), and rules empty on most of their pages.
    Test {
        /// Rule directory.
        #[arg(default_value = "site-rules")]
        dir: PathBuf,
        #[command(flatten)]
        health: HealthArgs,
    },
    /// Show what XPaths (or a rule file's rule) select on pages, and the text kept.
    Try {
        /// Content XPath to try (repeatable; kept in this order).
        #[arg(long)]
        xpath: Vec<String>,
        /// XPath of nodes to cut (repeatable).
        #[arg(long)]
        remove: Vec<String>,
        /// A rule file whose rule to try (the one matching --url, else --name, else the first).
        #[arg(long, value_name = "FILE")]
        rule: Option<PathBuf>,
        /// Which rule of --rule FILE.
        #[arg(long)]
        name: Option<String>,
        /// The pages' URL (for the rule's host/path match and the charset's TLD hint).
        #[arg(long)]
        url: Option<String>,
        /// HTML files.
        #[arg(required = true)]
        pages: Vec<PathBuf>,
        /// Also write the page's view (kept and removed blocks, each removal's XPath) as
        /// a self-contained HTML file, as `thresher report` shows pages (one page).
        #[arg(long, value_name = "FILE")]
        html: Option<PathBuf>,
    },
    /// Draft a rule file from three or more pages of a site: content XPaths where
    /// thresher finds the text, template blocks inside it to remove, title and date,
    /// embedded tests; checked by the engine before it is written. Exit 1 when a site
    /// gets no draft (the reason is printed; nothing is written for it).
    Suggest(super::rules_suggest::SuggestArgs),
    /// Measure rule matching and application against the local heuristic (single thread).
    #[command(hide = true)]
    Bench {
        /// Rule directory loaded besides the synthetic files.
        #[arg(long)]
        rules: Option<PathBuf>,
        /// Synthetic rule files (hosts nobody crawls) loaded too.
        #[arg(long, default_value_t = 200)]
        synthetic: usize,
        /// Repetitions per page.
        #[arg(long, default_value_t = 200)]
        iterations: usize,
        /// Manifest of the pages (gives their URLs).
        #[arg(long)]
        manifest: Option<PathBuf>,
        /// Page files or directories.
        paths: Vec<PathBuf>,
    },
}

pub fn run(command: RulesCommand, config: &Config) -> Result<ExitCode> {
    match command {
        RulesCommand::Check { dir } => check(&dir),
        RulesCommand::Test { dir, health } => test(&dir, &health, config),
        RulesCommand::Try {
            xpath,
            remove,
            rule,
            name,
            url,
            pages,
            html,
        } => {
            super::report_cmd::check_try_html(&html, &pages)?;
            try_rule(xpath, remove, rule, name, url, pages, html, config)
        }
        RulesCommand::Suggest(args) => super::rules_suggest::suggest(args, config),
        RulesCommand::Bench {
            rules,
            synthetic,
            iterations,
            manifest,
            paths,
        } => bench(config, rules, synthetic, iterations, manifest, paths),
    }
}

fn check(dir: &Path) -> Result<ExitCode> {
    let set = RuleSet::load_dir(dir)?;
    let mut problems: Vec<String> = set.problems().iter().map(|p| p.to_string()).collect();
    // Warnings, not problems: such a rule works on small pages.
    for w in set.costly_xpaths() {
        println!("warning: {w}");
    }
    for f in set.files() {
        for t in &f.tests {
            if !t.page.is_file() {
                problems.push(format!(
                    "{}:{}: test page {} does not exist (test skipped)",
                    f.path.display(),
                    t.line,
                    t.page.display()
                ));
            }
        }
    }
    for p in &problems {
        println!("{p}");
    }
    let hosts: usize = set.files().iter().map(|f| f.hosts.len()).sum();
    let tests: usize = set.files().iter().map(|f| f.tests.len()).sum();
    println!(
        "{}: {} files loaded, {} rules in force, {} hosts, {} tests; {} problem(s)",
        dir.display(),
        set.files().len(),
        set.active_rules(),
        hosts,
        tests,
        problems.len()
    );
    Ok(if problems.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

fn test(dir: &Path, health: &HealthArgs, config: &Config) -> Result<ExitCode> {
    let mut set = RuleSet::load_dir(dir)?;
    set.set_xpath_budget(config.xpath_budget);
    let mut failed = 0;
    for p in set.problems() {
        println!("FAIL {p}");
        failed += 1;
    }
    let outcomes = rules::run_tests(&set);
    let mut passed = 0;
    for o in &outcomes {
        if o.failures.is_empty() {
            passed += 1;
            println!("PASS {} {} ({})", o.place, o.page, o.method);
        } else {
            failed += 1;
            println!("FAIL {} {} ({})", o.place, o.page, o.method);
            for f in &o.failures {
                println!("     - {f}");
            }
        }
    }
    println!("{passed} passed, {failed} failed");
    let broke = !health.pages.is_empty() && probe_pages(&set, health, config)?;
    Ok(if failed == 0 && !(broke && health.fail_on_breakage) {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// `rules test --pages`: probes each page under its rule, saves or compares with a
/// baseline, prints the breakages; whether there is any.
fn probe_pages(set: &RuleSet, args: &HealthArgs, config: &Config) -> Result<bool> {
    use crate::extract::rules::health::{self, baseline::Baseline, findings};
    let baseline = args.baseline.as_deref().map(Baseline::read).transpose()?;
    let manifest = args.manifest.as_deref().map(Manifest::load).transpose()?;
    let inputs = source::discover(&args.pages, manifest.as_ref(), config.max_page_bytes);
    for e in &inputs.errors {
        eprintln!("warning: {}: {}", e.path, e.message);
    }
    if !inputs.warcs.is_empty() || !inputs.parquets.is_empty() {
        return Err(Error::Config(
            "rules test --pages reads HTML files (with --manifest for their URLs), not WARC or Parquet".into(),
        ));
    }
    let mut probes = Vec::new();
    let (mut unruled, mut unreadable) = (0, 0);
    for f in inputs.files {
        let (path, url) = (f.path.clone(), f.url.clone());
        let page = match load_page(&f.file, Some(&url), config.max_page_bytes) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("warning: {e}");
                unreadable += 1;
                continue;
            }
        };
        match health::probe(set, &page, &url, &path) {
            Some(p) => probes.push(p),
            None => unruled += 1,
        }
    }
    if let Some(out) = &args.save_baseline {
        health::baseline::Baseline::write(out, &probes)?;
        println!(
            "baseline of {} pages saved to {}",
            probes.len(),
            out.display()
        );
    }
    let found = findings::findings(&probes, baseline.as_ref());
    print!("{}", findings::render_text(&found));
    if unruled + unreadable > 0 {
        println!(
            "({unruled} pages of sites without a rule file, {unreadable} unreadable: not probed)"
        );
    }
    if let Some(out) = &args.breakage_json {
        let json = serde_json::to_vec_pretty(&found).unwrap_or_default();
        crate::atomic_file::write_atomic(out, &json)?;
    }
    Ok(found.has_breakage())
}

/// The page of `path`, read and parsed as a run would: its first `max_page_bytes`, its
/// first `max_page_bytes` / 64 opening tags.
fn load_page(path: &Path, url: Option<&str>, max_page_bytes: usize) -> Result<dom::ParsedPage> {
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|f| f.take(max_page_bytes as u64).read_to_end(&mut bytes))
        .map_err(|e| Error::io(path, e))?;
    let tld = url.and_then(|u| url::Url::parse(u).ok()).and_then(|u| {
        u.host_str()
            .and_then(|h| h.rsplit('.').next().map(str::to_string))
    });
    let decoded = charset::decode_html(&bytes, None, tld.as_deref().map(str::as_bytes));
    Ok(dom::parse_page_within(
        &decoded.text,
        dom::max_tags(max_page_bytes),
    ))
}

#[allow(clippy::too_many_arguments)]
fn try_rule(
    mut content: Vec<String>,
    mut remove: Vec<String>,
    rule: Option<PathBuf>,
    name: Option<String>,
    url: Option<String>,
    pages: Vec<PathBuf>,
    html: Option<PathBuf>,
    config: &Config,
) -> Result<ExitCode> {
    let mut set = None;
    let mut label = "--xpath".to_string();
    if let Some(file) = &rule {
        let text = std::fs::read_to_string(file).map_err(|e| Error::io(file, e))?;
        let mut s = RuleSet::from_sources(vec![(file.clone(), text)]);
        s.set_xpath_budget(config.xpath_budget);
        for p in s.problems() {
            eprintln!("warning: {p}");
        }
        let Some(f) = s.files().first() else {
            return Err(Error::Config(format!(
                "{}: no usable rules",
                file.display()
            )));
        };
        let index =
            match (&name, &url) {
                (Some(n), _) => f.rules.iter().position(|r| &r.name == n).ok_or_else(|| {
                    Error::Config(format!("{}: no rule named {n}", file.display()))
                })?,
                (None, Some(u)) => {
                    let path = url::Url::parse(u)
                        .map(|u| u.path().to_string())
                        .unwrap_or_default();
                    f.rules
                        .iter()
                        .position(|r| r.url_matches(&path))
                        .unwrap_or(0)
                }
                (None, None) => 0,
            };
        println!("rule {}#{}", f.name, f.rules[index].name);
        label = format!("{}#{}", f.name, f.rules[index].name);
        let (c, r) = rules::rule_xpaths(&s, 0, index);
        content.splice(0..0, c);
        remove.splice(0..0, r);
        set = Some(s);
    }
    if content.is_empty() {
        return Err(Error::Config("give --xpath EXPR or --rule FILE".into()));
    }
    for page_path in &pages {
        let page = load_page(page_path, url.as_deref(), config.max_page_bytes)?;
        println!("== {}", page_path.display());
        let (kept, removed, text) =
            rules::try_xpaths(&page, &content, &remove, config.xpath_budget);
        // As a run judges it: one XPath over the budget breaks the rule on this page.
        if let Some((expr, why)) = content
            .iter()
            .chain(&remove)
            .find_map(|e| rules::over_budget(&page, e, config.xpath_budget).map(|w| (e, w)))
        {
            println!(
                "broken on this page: XPath `{expr}` {why}; a run counts the rule as broken here and the page falls back to the next method"
            );
        }
        if let Some(html) = &html {
            let tried = super::report_cmd::tried_rule(&label, &kept, &removed);
            super::report_cmd::write_try_view(
                html,
                page_path,
                url.as_deref(),
                &page,
                &tried,
                &text,
            )?;
        }
        for (label, tried) in [("content", kept), ("remove", removed)] {
            for t in tried {
                match t.result {
                    Err(e) => println!("{label} {}: ERROR {e}", t.expr),
                    Ok(TriedValue::Scalar(s)) => println!("{label} {}: value {s:?}", t.expr),
                    Ok(TriedValue::Nodes(nodes)) => {
                        println!("{label} {}: {} node(s)", t.expr, nodes.len());
                        for (path, text) in nodes.iter().take(20) {
                            let words = text.split_whitespace().count();
                            println!("  {path}  ({words} words) {:?}", preview(text, 100));
                        }
                        if nodes.len() > 20 {
                            println!("  … {} more", nodes.len() - 20);
                        }
                    }
                }
            }
        }
        if let (Some(s), Some(u)) = (&set, &url) {
            let ctx = PageContext { url: u, group: "" };
            match s.apply(&page, &ctx) {
                Some(a) => println!(
                    "as a run would apply it: {} · title {:?} · date {:?}",
                    a.method,
                    a.title.unwrap_or_default(),
                    a.date.unwrap_or_default()
                ),
                None => println!(
                    "as a run would apply it: no rule answers for {u} (no match, or broken: falls back)"
                ),
            }
        }
        println!(
            "-- kept text ({} words):\n{text}\n",
            text.split_whitespace().count()
        );
    }
    Ok(ExitCode::SUCCESS)
}

fn preview(s: &str, n: usize) -> String {
    let flat = s.replace('\n', " ⏎ ");
    if flat.chars().count() <= n {
        flat
    } else {
        format!("{}…", flat.chars().take(n).collect::<String>())
    }
}

fn bench(
    config: &Config,
    dir: Option<PathBuf>,
    synthetic: usize,
    iterations: usize,
    manifest: Option<PathBuf>,
    paths: Vec<PathBuf>,
) -> Result<ExitCode> {
    let mut sources = Vec::new();
    if let Some(d) = &dir {
        let real = RuleSet::load_dir(d)?;
        for f in real.files() {
            let text = std::fs::read_to_string(&f.path).map_err(|e| Error::io(&f.path, e))?;
            sources.push((f.path.clone(), text));
        }
    }
    for i in 0..synthetic {
        sources.push((
            PathBuf::from(format!("synthetic-{i}.yaml")),
            format!(
                "site:\n  host: site{i}.bench.example\n  subdomains: true\nrules:\n  - name: article\n    path_prefix: /news/\n    content: [\"//div[@id='content']//p\"]\n    remove: [\"//div[@class='ad']\"]\n"
            ),
        ));
    }
    let mut slow_set = RuleSet::from_sources(sources.clone());
    slow_set.set_fast_path(false);
    let slow_rules = Rules::new(slow_set);
    let load_start = Instant::now();
    let set = RuleSet::from_sources(sources);
    let load_ms = load_start.elapsed().as_secs_f64() * 1e3;
    let files = set.files().len();
    let rules_count = set.active_rules();
    let ((fast_x, all_x), (fast_r, all_r)) = set.fast_share();
    let rules = Rules::new(set);
    let heuristic = heuristic::Heuristic::new(config.heuristic.clone());

    let manifest = manifest.as_deref().map(Manifest::load).transpose()?;
    let inputs = source::discover(&paths, manifest.as_ref(), config.max_page_bytes);
    let limits = ReadLimits {
        max_page_bytes: config.max_page_bytes,
    };
    let mut pages = Vec::new();
    for f in inputs.files {
        let Ok(page) = PageJob::File(f).load(limits) else {
            continue;
        };
        let decoded = charset::decode_html(&page.body, page.content_type.as_deref(), None);
        pages.push((page.url, decoded.text));
    }
    if pages.is_empty() {
        return Err(Error::Config("no pages to measure".into()));
    }
    println!(
        "{files} rule files ({rules_count} rules) loaded and checked in {load_ms:.1} ms; {} pages × {iterations} iterations, one thread",
        pages.len()
    );
    println!(
        "fast XPath evaluator: {fast_r} of {all_r} rules (content and remove), {fast_x} of {all_x} XPaths"
    );
    let mut parse_ns = 0f64;
    let mut heur_ns = 0f64;
    let mut miss_ns = 0f64;
    let mut hit_ns = 0f64;
    let mut heur_hit_ns = 0f64;
    let mut xml_ns = 0f64;
    let mut slow_ns = 0f64;
    // THRESHER_BENCH_FAST_ONLY=1: skip the sxd-only figure (for profiling the fast path).
    let slow_iterations = if std::env::var_os("THRESHER_BENCH_FAST_ONLY").is_some() {
        0
    } else {
        iterations
    };
    let mut arena_ns = 0f64;
    let mut hits = 0usize;
    for (url, html) in &pages {
        let t = Instant::now();
        for _ in 0..iterations.min(20) {
            std::hint::black_box(dom::parse_page(html));
        }
        parse_ns += t.elapsed().as_nanos() as f64 / iterations.min(20) as f64;
        let parsed = dom::parse_page(html);
        let ctx = PageContext { url, group: "" };
        let t = Instant::now();
        for _ in 0..iterations {
            std::hint::black_box(heuristic.extract(&parsed, &ctx));
        }
        let page_heur_ns = t.elapsed().as_nanos() as f64 / iterations as f64;
        heur_ns += page_heur_ns;
        // No rule applies: the same page under a host without a rule file.
        let path = url
            .find("://")
            .and_then(|i| url[i + 3..].find('/').map(|j| &url[i + 3 + j..]));
        let miss_url = format!("http://no-rule.example.org{}", path.unwrap_or("/"));
        let miss_ctx = PageContext {
            url: &miss_url,
            group: "",
        };
        let reps = iterations * 100;
        let t = Instant::now();
        for _ in 0..reps {
            std::hint::black_box(rules.answer(&parsed, &miss_ctx));
        }
        miss_ns += t.elapsed().as_nanos() as f64 / reps as f64;
        if rules.answer(&parsed, &ctx).is_some() {
            hits += 1;
            let t = Instant::now();
            for _ in 0..iterations {
                std::hint::black_box(crate::extract::xml::to_xml(
                    &parsed.tree,
                    Default::default(),
                ));
            }
            xml_ns += t.elapsed().as_nanos() as f64 / iterations as f64;
            let t = Instant::now();
            for _ in 0..iterations {
                std::hint::black_box(crate::extract::xpath_fast::Arena::build(&parsed.tree));
            }
            arena_ns += t.elapsed().as_nanos() as f64 / iterations as f64;
            let t = Instant::now();
            for _ in 0..slow_iterations {
                std::hint::black_box(slow_rules.answer(&parsed, &ctx));
            }
            slow_ns += t.elapsed().as_nanos() as f64 / slow_iterations.max(1) as f64;
            let t = Instant::now();
            for _ in 0..iterations {
                std::hint::black_box(rules.answer(&parsed, &ctx));
            }
            hit_ns += t.elapsed().as_nanos() as f64 / iterations as f64;
            heur_hit_ns += page_heur_ns;
        }
    }
    let n = pages.len() as f64;
    println!("per page, mean over pages:");
    println!(
        "  parse (html5ever + flat model)      {:>10.1} µs",
        parse_ns / n / 1e3
    );
    println!(
        "  local heuristic                     {:>10.1} µs",
        heur_ns / n / 1e3
    );
    println!(
        "  rules, no rule for the host         {:>10.3} µs",
        miss_ns / n / 1e3
    );
    if hits > 0 {
        println!(
            "  rules, a rule applies ({hits} pages)    {:>10.1} µs (page index + XPaths + text); local heuristic on the same pages {:.1} µs",
            hit_ns / hits as f64 / 1e3,
            heur_hit_ns / hits as f64 / 1e3
        );
        println!(
            "    of which the page index             {:>10.1} µs",
            arena_ns / hits as f64 / 1e3
        );
        println!(
            "  the same, all XPaths through sxd      {:>10.1} µs (of which XML conversion {:.1} µs)",
            slow_ns / hits as f64 / 1e3,
            xml_ns / hits as f64 / 1e3
        );
    }
    Ok(ExitCode::SUCCESS)
}
