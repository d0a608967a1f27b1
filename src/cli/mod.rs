//! Command-line interface: clap arguments → [`Config`] → pipeline. Exit codes: 0 all
//! pages processed, 1 some pages failed (the rest of the run is complete), 2 usage or
//! configuration error.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, FromArgMatches, Parser, Subcommand};

use crate::choose_main::MainOrder;
use crate::config::Config;
use crate::dedup::{self, ClusterMode, Measure, Method, Sketch};
use crate::error::{Error, Result};
use crate::extract::cross_page::CrossPage;
use crate::group::GroupDepth;
use crate::normalize::Preset;
use crate::pipeline::{self, DuplicatePolicy};
use crate::render::OutputFormat;
use crate::source::{self, Manifest};

mod error_args;
mod eval_cmd;
mod fetch;
mod help_defaults;
mod index;
mod parquet_cmd;
mod render_args;
mod report_cmd;
mod rules_cmd;
mod rules_suggest;
mod run_health;
mod suggest_fetch;

#[derive(Debug, Parser)]
#[command(
    name = "thresher",
    version,
    about = "Separate grain from chaff: boilerplate removal and near-duplicate detection for crawled web pages"
)]
pub struct Cli {
    /// More log output (-v info, -vv debug).
    #[arg(short, long, global = true, action = clap::ArgAction::Count)]
    verbose: u8,
    /// Worker threads (default: all cores).
    #[arg(long, global = true)]
    threads: Option<usize>,
    /// YAML configuration file overlaying the defaults (see ARCHITECTURE.md).
    #[arg(long, global = true)]
    config: Option<PathBuf>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Extract the main text of pages → JSONL, one record per page.
    Extract {
        #[command(flatten)]
        input: InputArgs,
        #[command(flatten)]
        rules: rules_cmd::RulesArgs,
        /// Output file (default: standard output).
        #[arg(short, long)]
        output: Option<PathBuf>,
        #[command(flatten)]
        error_args: error_args::ErrorArgs,
        /// Records as `jsonl` or `parquet` (needs -o).
        #[arg(long, value_enum, default_value_t = parquet_cmd::Format::Jsonl)]
        format: parquet_cmd::Format,
        #[command(flatten)]
        output_args: OutputArgs,
        #[command(flatten)]
        render_args: render_args::RenderArgs,
    },
    /// Find near-duplicate clusters among JSONL documents (`text` plus `id`/`path`/`url`).
    Dedup {
        /// JSONL files (`.jsonl` or `.jsonl.gz`) or Parquet records (`.parquet`).
        #[arg(required = true)]
        files: Vec<PathBuf>,
        #[command(flatten)]
        dedup: DedupArgs,
        /// Output file for clusters (default: standard output).
        #[arg(short, long)]
        output: Option<PathBuf>,
        /// Print the LSH parameters and the candidate-probability curve, then the run's counters.
        #[arg(long)]
        explain: bool,
        /// Keep the documents' shingles in memory up to this many MB; past it they are
        /// dropped and the documents to verify are read again (a second pass).
        #[arg(long, default_value_t = pipeline::DEFAULT_SHINGLE_MB)]
        shingle_memory: usize,
        #[command(flatten)]
        error_args: error_args::ErrorArgs,
        /// Clusters as `jsonl` or `parquet` (needs -o).
        #[arg(long, value_enum, default_value_t = parquet_cmd::Format::Jsonl)]
        format: parquet_cmd::Format,
    },
    /// Sign documents for the Spark job (spark/): one Parquet row per document with its
    /// key, main-order fields, band hashes, MinHash signature and shingle set.
    Sign {
        /// JSONL files (`.jsonl`, `.jsonl.gz`) or Parquet records (`.parquet`).
        #[arg(required = true)]
        files: Vec<PathBuf>,
        #[command(flatten)]
        dedup: DedupArgs,
        /// Output Parquet file.
        #[arg(short, long)]
        output: PathBuf,
    },
    /// Clusters computed elsewhere (the Spark job).
    Clusters {
        #[command(subcommand)]
        command: parquet_cmd::ClustersCommand,
    },
    /// The whole pipeline: extract, dedup, choose main documents.
    Run {
        #[command(flatten)]
        input: InputArgs,
        #[command(flatten)]
        rules: rules_cmd::RulesArgs,
        #[command(flatten)]
        rules_health: run_health::RunHealthArgs,
        #[command(flatten)]
        dedup: DedupArgs,
        /// Output directory: pages.jsonl, clusters.jsonl, summary.json.
        #[arg(long)]
        out: PathBuf,
        /// pages.jsonl: `mark` (every page plus cluster, is_main, main), `keep` (every
        /// page as extracted, no dedup fields) or `drop` (only mains and unclustered pages).
        #[arg(long, default_value = "mark", value_parser = ["keep", "mark", "drop"])]
        duplicates: String,
        /// Fetch first: the arguments (and --urls FILE) are URLs, fetched into
        /// DIR/crawl.warc.gz (resumable), which is then processed.
        #[arg(long)]
        fetch: bool,
        #[command(flatten)]
        fetch_args: fetch::FetchArgs,
        #[command(flatten)]
        error_args: error_args::ErrorArgs,
        /// Also write DIR/report/index.html: summary, sites, and every page's kept and
        /// removed blocks with the reason of each removal (the pages are extracted again
        /// with tracing on).
        #[arg(long)]
        report: bool,
        /// pages and clusters as `jsonl` or `parquet` (pages.parquet, clusters.parquet).
        #[arg(long, value_enum, default_value_t = parquet_cmd::Format::Jsonl)]
        format: parquet_cmd::Format,
        #[command(flatten)]
        output_args: OutputArgs,
        #[command(flatten)]
        render_args: render_args::RenderArgs,
    },
    /// Write OUT_DIR/report/index.html for an earlier `run`. Give the run's inputs (and
    /// its --rules, --cross-page…) to see removed blocks and their reasons; without them
    /// the page views show the kept text only.
    Report {
        /// The run's output directory (pages.jsonl, clusters.jsonl, summary.json).
        #[arg(value_name = "OUT_DIR")]
        out: PathBuf,
        #[command(flatten)]
        input: InputArgs,
        #[command(flatten)]
        rules: rules_cmd::RulesArgs,
    },
    /// Fetch URLs politely into a WARC file plus a manifest (resumable).
    Fetch {
        /// URLs (added to those of --urls).
        #[arg(value_name = "URL")]
        url_args: Vec<String>,
        /// Output WARC (`.warc.gz` or `.warc`); the manifest goes beside it
        /// (`crawl.warc.gz` → `crawl.manifest.jsonl`).
        #[arg(long)]
        out: PathBuf,
        #[command(flatten)]
        args: fetch::FetchArgs,
    },
    /// Per-site XPath rule files: check, test, try, bench.
    Rules {
        #[command(subcommand)]
        command: rules_cmd::RulesCommand,
    },
    /// Persistent dedup index for daily batches: add, query, remove, stats, check, export.
    Index {
        #[command(subcommand)]
        command: index::IndexCommand,
    },
    /// Evaluate outputs against labelled data.
    Eval {
        #[command(subcommand)]
        what: eval_cmd::EvalCommand,
    },
}

#[derive(Debug, Args)]
struct InputArgs {
    /// Files or directories (recursive): *.html, *.htm, *.html.gz, *.warc, *.warc.gz,
    /// Parquet; or a stream (`-` for standard input, a pipe, a FIFO) holding a page, a WARC
    /// or a Parquet file. Without paths, the manifest's entries are read.
    paths: Vec<PathBuf>,
    /// JSONL manifest: path (relative to the manifest), url, fetched_at, popularity, content_type.
    #[arg(long)]
    manifest: Option<PathBuf>,
    /// URL-prefix group depth: `parent` (up to the last segment) or a number of directories.
    #[arg(long)]
    group_depth: Option<GroupDepth>,
    /// Directory of Infholder templates: loaded before the run (pages of known groups are
    /// cleaned without relearning), updated and saved after learning.
    #[arg(long)]
    templates: Option<PathBuf>,
    /// Do not use any cross-page method (Infholder, style-inbreeding); skips the
    /// learning pass.
    #[arg(long, conflicts_with = "cross_page")]
    no_infholder: bool,
    /// Cross-page method for pages of URL-prefix groups: `infholder` (LCS of block
    /// vectors), `inbreeding` (shared path+text blocks and link columns) or `both` (their
    /// template masks united).
    #[arg(long, value_name = "METHOD")]
    cross_page: Option<CrossPage>,
    /// Keep comment sections (by default they are boilerplate unless the page is a
    /// discussion with no article of its own).
    #[arg(long)]
    include_comments: bool,
    /// Write each page's title as the first line of its text (unless the text already
    /// starts with it); by default the title is only in the record's `title` field.
    #[arg(long)]
    with_title: bool,
}

/// How records carry the main content besides `text`.
#[derive(Debug, Args)]
struct OutputArgs {
    /// Records carry, beside `text`: nothing more (`text`), a `markdown` field (`markdown`:
    /// headings, lists, tables, code blocks, quotes, emphasis) or an `html` field (`html`:
    /// clean HTML). Both are made of the same blocks as `text`.
    #[arg(long, value_name = "FORMAT")]
    output_format: Option<OutputFormat>,
    /// With markdown or html: write links as links, with their absolute address.
    #[arg(long)]
    links: bool,
    /// With markdown or html: write images, with their alt text and absolute address.
    #[arg(long)]
    images: bool,
}

impl OutputArgs {
    fn apply(&self, config: &mut Config) {
        if let Some(f) = self.output_format {
            config.output_format = f;
        }
        if self.links {
            config.output_links = true;
        }
        if self.images {
            config.output_images = true;
        }
    }
}

#[derive(Debug, Args)]
struct DedupArgs {
    /// Similarity at or above which documents are near-duplicates.
    #[arg(long)]
    threshold: Option<f64>,
    /// MinHash signature length.
    #[arg(long)]
    num_perm: Option<usize>,
    /// Words per shingle.
    #[arg(long)]
    shingle_length: Option<usize>,
    /// Normalization preset: `default` (lower-case, ё→е, numbers dropped), `words` (lower-cased
    /// word tokens, the dedup-dev truth's definition) or `lexical` (default + stop words and
    /// words of 3 letters or fewer dropped).
    #[arg(long)]
    normalize: Option<Preset>,
    /// Similarity measure: jaccard, dice, containment.
    #[arg(long)]
    measure: Option<Measure>,
    /// Clusters: `strict` (every member similar to the main), `components`, or
    /// `itemsets` (documents sharing `--itemset-support` elements of their bottom-k
    /// sketches: maximal frequent itemsets, FPmax).
    #[arg(long)]
    mode: Option<ClusterMode>,
    /// Mode itemsets: sketch elements all documents of a cluster must share
    /// [default: from --threshold and --num-perm, two standard deviations below the mean
    /// at the threshold: 106 of 128 at 0.8].
    #[arg(long)]
    itemset_support: Option<usize>,
    /// Main-document criteria in order, e.g. `published,fetched_at,popularity,boilerplate`
    /// (the default).
    #[arg(long)]
    main_order: Option<MainOrder>,
    /// Candidate keys: `minhash` (default) or a lexical signature: md5, tf, tfidf, tfridf,
    /// long-sent, heavy-sent, megashingles, lex-rand, log-shingles, descr-words, opt-freq,
    /// decomposition, 3+5 (or A0..A12).
    #[arg(long)]
    method: Option<Method>,
    /// MinHash sketch: oph (default), n-perm, bottom-k.
    #[arg(long)]
    sketch: Option<Sketch>,
    /// Sketch only shingles whose hash is divisible by M (mod-m sampling).
    #[arg(long)]
    sample_mod: Option<u64>,
    /// Supershingles MxN (M bands of N rows, e.g. 6x14) instead of the banding chosen
    /// from the threshold.
    #[arg(long)]
    bands: Option<String>,
    /// Take the method's matches as they are, without verifying the real similarity.
    #[arg(long)]
    no_verify: bool,
    /// Strict mode: list documents similar to a cluster's main among its members even
    /// when they belong first to another cluster (clusters overlap).
    #[arg(long)]
    overlap: bool,
    /// Do not treat documents sharing a canonical URL (`<link rel=canonical>`) as the
    /// same document.
    #[arg(long)]
    no_canonical: bool,
}

impl DedupArgs {
    fn apply(&self, config: &mut Config) -> Result<()> {
        let d = &mut config.dedup;
        if let Some(t) = self.threshold {
            d.threshold = t;
        }
        if let Some(n) = self.num_perm {
            d.num_perm = n;
        }
        if let Some(n) = self.shingle_length {
            d.shingle.length = n;
        }
        if let Some(p) = self.normalize {
            d.normalize = p;
        }
        if let Some(m) = self.measure {
            d.measure = m;
        }
        if let Some(m) = self.mode {
            d.mode = m;
        }
        if let Some(n) = self.itemset_support {
            d.itemset_support = Some(n);
        }
        if let Some(o) = &self.main_order {
            d.main_order = o.clone();
        }
        if let Some(m) = self.method {
            d.method = m;
        }
        if let Some(s) = self.sketch {
            d.sketch = s;
        }
        if let Some(m) = self.sample_mod {
            d.sample_mod = m;
        }
        if let Some(b) = &self.bands {
            let parsed = b
                .split_once(['x', 'X', '×'])
                .and_then(|(m, n)| Some([m.trim().parse().ok()?, n.trim().parse().ok()?]))
                .filter(|[m, n]: &[usize; 2]| *m > 0 && *n > 0);
            match parsed {
                Some(mn) => d.supershingles = Some(mn),
                None => {
                    return Err(Error::Config(format!(
                        "--bands must be MxN with M, N ≥ 1 (e.g. 6x14), not `{b}`"
                    )))
                }
            }
        }
        if self.no_verify {
            d.verify = false;
        }
        if self.overlap {
            d.overlap = true;
        }
        if self.no_canonical {
            d.canonical = false;
        }
        // Ranges of the flags and of the --config file alike.
        d.validate()
    }
}

/// Entry point of the binary.
pub fn main() -> ExitCode {
    // Parsed from the command whose help shows the configuration's defaults.
    let cli =
        Cli::from_arg_matches(&help_defaults::command().get_matches()).unwrap_or_else(|e| e.exit());
    init_logging(cli.verbose);
    match run(cli) {
        Ok(code) => code,
        Err(e @ Error::TooManyErrors { .. }) => {
            eprintln!("error: {e}");
            ExitCode::from(1)
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}

fn init_logging(verbose: u8) {
    let level = match verbose {
        0 => "warn",
        1 => "info",
        _ => "debug",
    };
    let filter = tracing_subscriber::EnvFilter::try_from_env("THRESHER_LOG")
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new(format!("{level},html5ever=error")));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .try_init();
}

fn progress_bar(len: Option<usize>) -> indicatif::ProgressBar {
    if !std::io::stderr().is_terminal() {
        return indicatif::ProgressBar::hidden();
    }
    let bar = match len {
        Some(n) => indicatif::ProgressBar::new(n as u64),
        None => indicatif::ProgressBar::new_spinner(),
    };
    bar.set_style(
        indicatif::ProgressStyle::with_template(
            "{spinner} {pos}/{len} pages {per_sec} eta {eta} {wide_bar} {msg}",
        )
        .expect("valid template"),
    );
    bar
}

/// A spinner with the stage's name and the time spent, for stages without a page count
/// (dedup); hidden when stderr is not a terminal.
fn stage_spinner(stage: &str) -> indicatif::ProgressBar {
    if !std::io::stderr().is_terminal() {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::new_spinner();
    bar.set_style(
        indicatif::ProgressStyle::with_template("{spinner} {msg} {elapsed}")
            .expect("valid template"),
    );
    bar.set_message(stage.to_string());
    bar.enable_steady_tick(std::time::Duration::from_millis(120));
    bar
}

/// Apply the input flags that are configuration (group depth, cross-page method).
fn apply_input_flags(input: &InputArgs, config: &mut Config) {
    if let Some(d) = input.group_depth {
        config.group_depth = d;
    }
    if input.include_comments {
        config.heuristic.include_comments = true;
    }
    if input.with_title {
        config.with_title = true;
    }
    if input.no_infholder {
        config.infholder.enabled = false;
    }
    if let Some(m) = input.cross_page {
        config.cross_page = m;
    }
}

fn load_inputs(input: &InputArgs, config: &mut Config) -> Result<source::Inputs> {
    apply_input_flags(input, config);
    let manifest = input.manifest.as_deref().map(Manifest::load).transpose()?;
    if input.paths.is_empty() && manifest.is_none() {
        return Err(Error::Config("give PATHs or a --manifest".into()));
    }
    Ok(source::discover(
        &input.paths,
        manifest.as_ref(),
        config.max_page_bytes,
    ))
}

fn run(cli: Cli) -> Result<ExitCode> {
    let mut config = match &cli.config {
        Some(p) => Config::load(p)?,
        None => Config::default(),
    };
    let mut pool = rayon::ThreadPoolBuilder::new().stack_size(16 << 20);
    if let Some(n) = cli.threads {
        pool = pool.num_threads(n);
    }
    pool.build_global()
        .map_err(|e| Error::Config(format!("thread pool: {e}")))?;

    match cli.command {
        Command::Rules { command } => rules_cmd::run(command, &config),
        Command::Index { command } => index::run(command, &config, cli.config.is_some()),
        Command::Extract {
            input,
            rules,
            output: final_output,
            error_args,
            format,
            output_args,
            render_args,
        } => {
            output_args.apply(&mut config);
            render_args.apply(&mut config, false)?;
            let output = parquet_cmd::jsonl_target(format, final_output.as_deref())?;
            let inputs = load_inputs(&input, &mut config)?;
            let front = rules_cmd::front(&rules, &config)?;
            let (cascade, learn) =
                pipeline::build_cascade(&inputs, &config, front, input.templates.as_deref())?;
            let bar = progress_bar(
                (inputs.warcs.is_empty() && inputs.parquets.is_empty())
                    .then_some(inputs.files.len()),
            );
            let mut out = pipeline::open_output(output.as_deref())?;
            let out_name = output.clone().unwrap_or_else(|| PathBuf::from("-"));
            let mut log = error_args.beside(final_output.as_deref())?;
            let summary = pipeline::run_extract(
                inputs, &config, &cascade, learn, &mut out, &out_name, &bar, &mut log,
            );
            let summary = error_args::finish(log, summary)?;
            out.commit()?;
            bar.finish_and_clear();
            parquet_cmd::finish(format, output.as_deref(), final_output.as_deref(), None)?;
            tracing::info!("{}", serde_json::to_string(&summary).unwrap_or_default());
            Ok(exit_for(
                summary.failed + error_args::no_pages(summary.pages),
            ))
        }
        Command::Fetch {
            url_args,
            out,
            args,
        } => {
            let urls = args.urls(url_args)?;
            let summary = fetch::fetch_to(&args, urls, &out, cli.threads)?;
            Ok(exit_for(summary.failed()))
        }
        Command::Run {
            input,
            rules,
            rules_health,
            dedup,
            out,
            duplicates,
            fetch,
            fetch_args,
            report,
            error_args,
            format,
            output_args,
            render_args,
        } => {
            dedup.apply(&mut config)?;
            output_args.apply(&mut config);
            render_args.apply(&mut config, fetch)?;
            let inputs =
                if fetch {
                    if input.manifest.is_some() {
                        return Err(Error::Config("--manifest does not go with --fetch".into()));
                    }
                    apply_input_flags(&input, &mut config);
                    let urls = fetch_args
                        .urls(input.paths.iter().map(|p| p.to_string_lossy().into_owned()))?;
                    let warc = out.join("crawl.warc.gz");
                    let fetched = fetch::fetch_to(&fetch_args, urls, &warc, cli.threads)?;
                    let mut inputs = source::discover(&[warc], None, config.max_page_bytes);
                    // A URL that could not be fetched is a failed record of the run, as a page
                    // that cannot be read is: in errors.jsonl and summary.json.
                    let manifest = fetched.manifest.display().to_string();
                    inputs.errors.extend(fetched.failures.into_iter().map(
                        |(url, kind, message)| crate::page::PageError {
                            path: manifest.clone(),
                            url,
                            kind: crate::page::ErrorKind::Fetch,
                            message: if kind.is_empty() {
                                message
                            } else {
                                format!("{kind}: {message}")
                            },
                        },
                    ));
                    inputs
                } else {
                    fetch_args.check_without_fetch()?;
                    load_inputs(&input, &mut config)?
                };
            let front = rules_cmd::front(&rules, &config)?;
            let (cascade, learn) =
                pipeline::build_cascade(&inputs, &config, front, input.templates.as_deref())?;
            let bar = progress_bar(
                (inputs.warcs.is_empty() && inputs.parquets.is_empty())
                    .then_some(inputs.files.len()),
            );
            let policy = match duplicates.as_str() {
                "drop" => DuplicatePolicy::Drop,
                "keep" => DuplicatePolicy::Keep,
                _ => DuplicatePolicy::Mark,
            };
            let again = (report || rules_health.wanted()).then(|| source::Inputs {
                files: inputs.files.clone(),
                warcs: inputs.warcs.clone(),
                parquets: inputs.parquets.clone(),
                errors: Vec::new(),
            });
            let mut log = error_args.open(Some(out.join("errors.jsonl")))?;
            let summary = pipeline::run_pipeline(
                inputs, &config, &cascade, learn, &out, policy, &bar, &mut log,
            );
            let summary = error_args::finish(log, summary)?;
            bar.finish_and_clear();
            eprintln!(
                "{} pages ({} failed) in {:.2} s, {} clusters, {} duplicates → {}",
                summary.pages,
                summary.failed,
                summary.timings_s.get("total").copied().unwrap_or_default(),
                summary.dedup.as_ref().map_or(0, |d| d.clusters),
                summary.dedup.as_ref().map_or(0, |d| d.duplicates),
                out.display()
            );
            let mut health_failed = false;
            match (&again, &rules.rules) {
                (Some(inputs), Some(dir)) if rules_health.wanted() => {
                    health_failed = rules_health.run(inputs, &config, dir, &out)?;
                }
                // An earlier run's findings would describe other pages.
                _ => {
                    let _ = std::fs::remove_file(out.join(pipeline::HEALTH_FILE));
                }
            }
            if let Some(inputs) = again.as_ref().filter(|_| report) {
                let tracer = crate::report::Tracer {
                    inputs,
                    config: &config,
                    cascade: &cascade,
                };
                report_cmd::write(&out, Some(tracer), &progress_bar(None))?;
            }
            // After the report, which reads pages.jsonl and clusters.jsonl.
            parquet_cmd::finish_run_dir(format, &out)?;
            Ok(exit_for(
                summary.failed + error_args::no_pages(summary.pages) + usize::from(health_failed),
            ))
        }
        Command::Report { out, input, rules } => {
            let inputs = if input.paths.is_empty() && input.manifest.is_none() {
                apply_input_flags(&input, &mut config);
                None
            } else {
                Some(load_inputs(&input, &mut config)?)
            };
            let front = rules_cmd::front(&rules, &config)?;
            report_cmd::report_command(&out, inputs, &config, front, input.templates.as_deref())
        }
        Command::Dedup {
            files,
            dedup: args,
            output: final_output,
            explain,
            shingle_memory,
            error_args,
            format,
        } => {
            let output = parquet_cmd::jsonl_target(format, final_output.as_deref())?;
            args.apply(&mut config)?;
            let banding = config.dedup.banding();
            if explain && config.dedup.method != Method::Minhash {
                eprintln!(
                    "method {}: documents sharing a signature are candidates{}",
                    config.dedup.method,
                    if config.dedup.verify {
                        ", verified at threshold "
                    } else {
                        " (not verified)"
                    }
                );
            } else if explain && config.dedup.mode == ClusterMode::Itemsets {
                let k = config.dedup.sketch_len();
                eprintln!(
                    "itemsets: bottom-k sketches of {k}; a cluster's documents share at least {} of their elements (maximal frequent itemsets)",
                    config.dedup.itemset_support.unwrap_or_else(|| dedup::itemsets::default_support(k, config.dedup.threshold))
                );
            } else if explain && config.dedup.sketch == Sketch::BottomK {
                eprintln!(
                    "bottom-k sketch of {}: documents sharing any of their k minima are candidates (no bands)",
                    config.dedup.num_perm
                );
            } else if explain {
                eprintln!(
                    "threshold {} · {} permutations · {} bands × {} rows · shingles of {} words",
                    config.dedup.threshold,
                    config.dedup.sketch_len(),
                    banding.bands,
                    banding.rows,
                    config.dedup.shingle.length
                );
                eprintln!("P[candidate] by similarity:");
                for j in [0.5, 0.6, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95, 1.0] {
                    eprintln!("  J = {j:.2}: {:.4}", banding.candidate_probability(j));
                }
            }
            let start = std::time::Instant::now();
            let spinner = stage_spinner("dedup: reading, signing and clustering");
            let mut log = error_args.beside(final_output.as_deref())?;
            let run = pipeline::dedup_paths(
                &files,
                &config.dedup,
                shingle_memory.saturating_mul(1 << 20),
                &mut |e| log.record(&e),
            );
            let failed = log.count();
            let by_kind = log.by_kind().clone();
            let run = error_args::finish(log, run)?;
            spinner.finish_and_clear();
            let (docs, skipped, clusters, stats) = (run.docs, run.skipped, run.clusters, run.stats);
            let signed_at = std::time::Duration::from_secs_f64(run.sign_seconds);
            let mut out = pipeline::open_output(output.as_deref())?;
            let out_name = output.clone().unwrap_or_else(|| PathBuf::from("-"));
            pipeline::write_clusters(&clusters, &docs, &mut out, &out_name)?;
            out.commit()?;
            parquet_cmd::finish(
                format,
                output.as_deref(),
                final_output.as_deref(),
                Some(crate::parquet_io::records::clusters_rewrite),
            )?;
            if skipped > 0 {
                eprintln!("note: {skipped} error records of `extract` skipped");
            }
            if failed > 0 {
                let kinds: Vec<String> = by_kind.iter().map(|(k, n)| format!("{k} {n}")).collect();
                eprintln!(
                    "{failed} records failed ({}); the other {} were clustered",
                    kinds.join(", "),
                    docs.len()
                );
            }
            if explain {
                eprintln!(
                    "{} documents ({} signed) read and signed in {:.3} s; {} candidate pairs + {} large buckets, {} verifications, {} similar pairs; {} clusters, {} duplicates, {} shared; total {:.3} s",
                    stats.documents,
                    stats.signed,
                    signed_at.as_secs_f64(),
                    stats.candidate_pairs,
                    stats.large_buckets,
                    stats.verifications,
                    stats.verified_pairs,
                    stats.clusters,
                    stats.duplicates,
                    stats.shared_members,
                    start.elapsed().as_secs_f64()
                );
                if run.second_pass {
                    eprintln!("shingles over --shingle-memory {shingle_memory} MB: dropped, and the candidates' texts read again");
                }
            }
            Ok(exit_for(failed + error_args::no_pages(docs.len() + failed)))
        }
        Command::Sign {
            files,
            dedup: args,
            output,
        } => {
            args.apply(&mut config)?;
            parquet_cmd::sign(&files, &config, &output)
        }
        Command::Clusters { command } => parquet_cmd::clusters(command),
        Command::Eval { what } => eval_cmd::run(what),
    }
}

pub(super) fn exit_for(failed: usize) -> ExitCode {
    if failed > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}
