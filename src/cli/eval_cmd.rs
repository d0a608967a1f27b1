//! `thresher eval`: scoring outputs against labelled data — clusters against duplicate
//! pairs (`eval dedup`), extraction records against a gold standard (`eval extract`).

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Subcommand;

use crate::dedup;
use crate::error::{Error, Result};
use crate::extract_eval::{self, GroupBy};

#[derive(Debug, Subcommand)]
pub(super) enum EvalCommand {
    /// Pairwise precision/recall/F1 of clusters against labelled pairs, and the pairs
    /// unique to each side.
    Dedup {
        /// TSV of labelled duplicate pairs: id_a, id_b[, similarity].
        #[arg(long)]
        truth: PathBuf,
        /// clusters.jsonl written by `dedup` or `run`.
        clusters: PathBuf,
        /// Truth pairs below this similarity (third column) are neither required nor penalised.
        #[arg(long, default_value_t = 0.0)]
        min_similarity: f64,
        /// How many unique pairs of each side to list (0: none; all with a large number).
        #[arg(long, default_value_t = 20)]
        show: usize,
    },
    /// Precision/recall/F1 of extraction records against a gold standard, overall, per
    /// page type or language and per page, with the figures of the benchmarks' scorers.
    Extract {
        /// KIND:PATH — `wcxb:DIR` (WCXB or daniel-dev ground-truth folder),
        /// `scrapinghub:FILE` (ground-truth.json), `withwithout:FILE` (trafilatura's
        /// evaldata.json), `cleaneval:DIR` (CleanEval gold text files), `text:DIR`
        /// (plain `<id>.txt` files).
        #[arg(long)]
        gold: String,
        /// Extraction records (JSONL or Parquet of `path`/`url`/`text`, or a JSON object
        /// `{id: {articleBody}}`); each file is scored on its own.
        #[arg(required = true)]
        predictions: Vec<PathBuf>,
        /// Figures per page type, per language, or none.
        #[arg(long, value_enum, default_value_t = GroupBy::Type)]
        by: GroupBy,
        /// List the N pages of lowest F1.
        #[arg(long, default_value_t = 0)]
        worst: usize,
        /// Output as text or as one JSON object per prediction file.
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(super) enum Format {
    Text,
    Json,
}

pub(super) fn run(what: EvalCommand) -> Result<ExitCode> {
    match what {
        EvalCommand::Dedup {
            truth,
            clusters,
            min_similarity,
            show,
        } => {
            let read = |p: &PathBuf| std::fs::read_to_string(p).map_err(|e| Error::io(p, e));
            let (truth_pairs, soft) = dedup::eval::parse_truth(&read(&truth)?, min_similarity);
            let s = dedup::eval::score(&truth_pairs, &soft, &read(&clusters)?)
                .map_err(|e| Error::Config(format!("{}: {e}", clusters.display())))?;
            println!(
                "truth pairs {}  predicted pairs {}  found {}\nprecision {:.4}  recall {:.4}  F1 {:.4}",
                s.truth_pairs, s.predicted_pairs, s.found, s.precision, s.recall, s.f1
            );
            for (title, pairs) in [
                ("only in truth (missed)", &s.missed),
                ("only in clusters (false)", &s.extra),
            ] {
                println!("{title}: {}", pairs.len());
                for (a, b) in pairs.iter().take(show) {
                    println!("  {a}\t{b}");
                }
            }
            println!("{}", serde_json::to_string(&s).unwrap_or_default());
            Ok(ExitCode::SUCCESS)
        }
        EvalCommand::Extract {
            gold,
            predictions,
            by,
            worst,
            format,
        } => {
            let gold = extract_eval::gold::read(&gold)?;
            for (i, path) in predictions.iter().enumerate() {
                let preds = extract_eval::preds::Predictions::read(path)?;
                let e = extract_eval::evaluate(&gold, &preds, by, worst);
                match format {
                    Format::Json => println!("{}", extract_eval::report::json(&e)),
                    Format::Text => {
                        if i > 0 {
                            println!();
                        }
                        print!("{}", extract_eval::report::text(&e));
                    }
                }
            }
            Ok(ExitCode::SUCCESS)
        }
    }
}
