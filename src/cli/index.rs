//! `thresher index`: the persistent dedup index's subcommands (add, query, remove, stats,
//! check, export) on top of [`crate::index`].

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Subcommand;

use super::DedupArgs;
use crate::config::Config;
use crate::dedup::DedupConfig;
use crate::error::{Error, Result};
use crate::index::{self, store, Index};

#[derive(Debug, Subcommand)]
pub(super) enum IndexCommand {
    /// Add a batch of JSONL documents (as `dedup` reads them) and write the clusters of
    /// the part of the index the batch touched, mains chosen over all history. The first
    /// add creates the index with the given dedup options; later adds must use the same.
    Add {
        /// Index directory (created by the first add).
        #[arg(long)]
        index: PathBuf,
        /// JSONL files (`.jsonl` or `.jsonl.gz`).
        #[arg(required = true)]
        files: Vec<PathBuf>,
        #[command(flatten)]
        dedup: DedupArgs,
        /// Clusters touched by the batch, in `dedup`'s format (default: standard output).
        #[arg(short, long)]
        output: Option<PathBuf>,
        /// Documents per transaction (crash tests; see index::DEFAULT_COMMIT_EVERY).
        #[arg(long, hide = true, default_value_t = index::DEFAULT_COMMIT_EVERY)]
        commit_every: usize,
    },
    /// Which stored documents are near each JSONL record (the index is not changed):
    /// one line per record, `{"id", "near": [{"id", "similarity"}]}`.
    Query {
        #[arg(long)]
        index: PathBuf,
        #[arg(required = true)]
        files: Vec<PathBuf>,
        #[arg(short, long)]
        output: Option<PathBuf>,
        #[command(flatten)]
        wait: WaitArg,
    },
    /// Remove documents by key; exit 1 when a key is not in the index (the others are
    /// removed).
    Remove {
        #[arg(long)]
        index: PathBuf,
        /// Document keys (`id`, else `path`, else `url` of the added records).
        #[arg(required = true, value_name = "ID")]
        ids: Vec<String>,
        /// Write the clusters of the documents that shared a bucket with a removed one.
        #[arg(short, long)]
        output: Option<PathBuf>,
    },
    /// Counters of the index (JSON): documents, buckets, batches, size, options.
    Stats {
        #[arg(long)]
        index: PathBuf,
        #[command(flatten)]
        wait: WaitArg,
    },
    /// Verify every document's checksums and the index's invariants, read-only; exit 1
    /// with the problems on damage (every damaged document listed).
    Check {
        #[arg(long)]
        index: PathBuf,
        #[command(flatten)]
        wait: WaitArg,
    },
    /// Every cluster of two or more documents, in `dedup`'s format.
    Export {
        #[arg(long)]
        index: PathBuf,
        #[arg(short, long)]
        output: Option<PathBuf>,
        #[command(flatten)]
        wait: WaitArg,
    },
    /// Repair a damaged index: redb's page check, then every document that fails its
    /// checksums is removed and the keys, postings and date counters are rebuilt from
    /// the intact ones. Lists what was lost (exit 1 when anything was): re-add the
    /// batches that held it.
    Repair {
        #[arg(long)]
        index: PathBuf,
    },
}

/// How long a reader waits for an index held exclusively by another process.
#[derive(Debug, clap::Args)]
pub(super) struct WaitArg {
    /// Seconds to wait for an index another process holds exclusively before reporting
    /// it busy (a running `index add` does not hold it so: its last commit is read).
    #[arg(long, value_name = "SECONDS", default_value_t = 0.0)]
    wait: f64,
}

impl WaitArg {
    fn duration(&self) -> Result<std::time::Duration> {
        std::time::Duration::try_from_secs_f64(self.wait)
            .map_err(|e| Error::Config(format!("--wait {}: {e}", self.wait)))
    }
}

/// The dedup options of an `add`: those stored in an existing index (or the defaults and
/// `--config` for a new one), overlaid with the flags given.
fn add_config(
    dir: &Path,
    args: &DedupArgs,
    config: &Config,
    config_file: bool,
) -> Result<DedupConfig> {
    let stored = if store::db_path(dir).exists() {
        store::Store::open_read(dir, std::time::Duration::ZERO)?.config()?
    } else {
        None
    };
    let base = match stored {
        Some(stored) if !config_file => stored,
        _ => config.dedup.clone(),
    };
    let mut c = Config {
        dedup: base,
        ..config.clone()
    };
    args.apply(&mut c)?;
    Ok(c.dedup)
}

pub(super) fn run(command: IndexCommand, config: &Config, config_file: bool) -> Result<ExitCode> {
    let dir = match &command {
        IndexCommand::Add { index, .. }
        | IndexCommand::Query { index, .. }
        | IndexCommand::Remove { index, .. }
        | IndexCommand::Stats { index, .. }
        | IndexCommand::Check { index, .. }
        | IndexCommand::Export { index, .. }
        | IndexCommand::Repair { index } => index.clone(),
    };
    store::catch_store_panics(&store::db_path(&dir), || {
        run_command(command, config, config_file)
    })
}

fn run_command(command: IndexCommand, config: &Config, config_file: bool) -> Result<ExitCode> {
    match command {
        IndexCommand::Add {
            index: dir,
            files,
            dedup,
            output,
            commit_every,
        } => {
            let start = std::time::Instant::now();
            let given = add_config(&dir, &dedup, config, config_file)?;
            let idx = Index::open(&dir, Some(&given), true)?;
            let report = idx.add(&files, commit_every)?;
            let mut ids = report.ids.clone();
            ids.sort_unstable();
            ids.dedup();
            let comps = idx.components_of(&ids)?;
            let (clusters, members) = idx.write_clusters(&comps, output.as_deref())?;
            if report.failed > 0 {
                eprintln!(
                    "batch {}: {} lines failed (above); the other records are stored and the batch is complete",
                    report.batch, report.failed
                );
            }
            eprintln!(
                "batch {}: {} added, {} updated, {} unchanged, {} without words, {} lines skipped; {} clusters ({} documents) touched; in {:.2} s",
                report.batch,
                report.added,
                report.updated,
                report.unchanged,
                report.without_words,
                report.skipped_lines,
                clusters,
                members,
                start.elapsed().as_secs_f64()
            );
            Ok(super::exit_for(report.failed))
        }
        IndexCommand::Query {
            index: dir,
            files,
            output,
            wait,
        } => {
            let idx = Index::open_read(&dir, wait.duration()?)?;
            let (records, matched, failed) = idx.query(&files, output.as_deref())?;
            eprintln!("{records} records, {matched} near stored documents");
            if failed > 0 {
                eprintln!("{failed} lines failed (above); the other records are answered");
            }
            Ok(super::exit_for(failed))
        }
        IndexCommand::Remove {
            index: dir,
            ids,
            output,
        } => {
            let idx = Index::open(&dir, None, false)?;
            let (missing, neighbours) = idx.remove(&ids)?;
            for k in &missing {
                eprintln!("warning: not in the index: {k}");
            }
            if output.is_some() {
                let comps = idx.components_of(&neighbours)?;
                idx.write_clusters(&comps, output.as_deref())?;
            }
            eprintln!(
                "removed {} of {} documents",
                ids.len() - missing.len(),
                ids.len()
            );
            Ok(if missing.is_empty() {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            })
        }
        IndexCommand::Stats { index: dir, wait } => {
            let idx = Index::open_read(&dir, wait.duration()?)?;
            println!(
                "{}",
                serde_json::to_string_pretty(&idx.stats()?).expect("stats serialize")
            );
            Ok(ExitCode::SUCCESS)
        }
        IndexCommand::Check { index: dir, wait } => {
            if !store::db_path(&dir).exists() {
                return Err(Error::Config(format!("{}: no index here", dir.display())));
            }
            let path = store::db_path(&dir).display().to_string();
            let report = match index::check::check(&dir, wait.duration()?) {
                Ok(r) => r,
                // Held by another process: not damage (exit 2, as any error).
                Err(e) if store::is_busy(&e) => return Err(e),
                Err(e) => {
                    eprintln!("index {path}: DAMAGED: {e}");
                    return Ok(ExitCode::from(1));
                }
            };
            if report.ok() {
                println!(
                    "index {path}: ok ({} documents, {} postings{})",
                    report.documents,
                    report.postings,
                    if report.repaired {
                        "; the store was repaired after an unclean shutdown"
                    } else {
                        ""
                    }
                );
                Ok(ExitCode::SUCCESS)
            } else {
                eprintln!(
                    "index {path}: DAMAGED ({} problems):",
                    report.problems.len() + report.more_problems + report.damaged.len()
                );
                for d in &report.damaged {
                    eprintln!("  - damaged {d}");
                }
                if !report.damaged.is_empty() {
                    eprintln!(
                        "  ({} damaged documents: `thresher index repair` removes them and keeps the rest)",
                        report.damaged.len()
                    );
                }
                for p in &report.problems {
                    eprintln!("  - {p}");
                }
                if report.more_problems > 0 {
                    eprintln!("  … and {} more", report.more_problems);
                }
                Ok(ExitCode::from(1))
            }
        }
        IndexCommand::Export {
            index: dir,
            output,
            wait,
        } => {
            let idx = Index::open_read(&dir, wait.duration()?)?;
            let comps = idx.all_components()?;
            let (clusters, members) = idx.write_clusters(&comps, output.as_deref())?;
            eprintln!("{clusters} clusters ({members} documents)");
            Ok(ExitCode::SUCCESS)
        }
        IndexCommand::Repair { index: dir } => {
            let path = store::db_path(&dir).display().to_string();
            let report = index::repair::repair(&dir)?;
            if report.store_repaired {
                eprintln!("index {path}: the store's pages were repaired (unclean shutdown)");
            }
            for lost in &report.lost {
                eprintln!("  - lost {lost}");
            }
            eprintln!(
                "index {path}: {} documents intact, {} lost{}",
                report.kept,
                report.lost.len(),
                if report.lost.is_empty() {
                    ""
                } else {
                    "; add the batches that held them again to restore them"
                }
            );
            Ok(super::exit_for(report.lost.len()))
        }
    }
}
