//! CLI of the Parquet side: `thresher sign` (signatures for the Spark job),
//! `thresher clusters import` (the job's clusters → `clusters.jsonl`), and `--format
//! parquet` of `extract`/`run`/`dedup` (records written as JSONL, then converted).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Subcommand, ValueEnum};

use crate::config::Config;
use crate::error::{Error, Result};
use crate::parquet_io::{records, signatures, spark_clusters};
use crate::pipeline;

/// Output format of records.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, ValueEnum)]
pub enum Format {
    #[default]
    Jsonl,
    Parquet,
}

#[derive(Debug, Subcommand)]
pub enum ClustersCommand {
    /// Turn the Spark job's clusters (spark/thresher_dedup.py --out DIR) into the
    /// clusters.jsonl that `thresher dedup` writes, mains and reasons chosen the same way.
    Import {
        /// The signatures file the job read (`thresher sign -o SIGS.parquet`).
        #[arg(long)]
        signatures: PathBuf,
        /// The job's output directory (Parquet part files) or one Parquet file.
        clusters: PathBuf,
        /// Output file (default: standard output).
        #[arg(short, long)]
        output: Option<PathBuf>,
        /// Write Parquet instead of JSONL (needs -o).
        #[arg(long, value_enum, default_value_t = Format::Jsonl)]
        format: Format,
    },
}

/// `thresher sign`: read and sign the documents as `dedup` does, write the signatures.
pub fn sign(files: &[PathBuf], config: &Config, output: &Path) -> Result<ExitCode> {
    signatures::check_supported(&config.dedup)?;
    let start = std::time::Instant::now();
    // A bad line costs that line (said on stderr), as in `dedup`.
    let mut failed = 0usize;
    let (docs, skipped, template_dates) = pipeline::signed_docs(files, &config.dedup, &mut |e| {
        eprintln!("error: {e}");
        failed += 1;
        Ok(())
    })?;
    if failed > 0 {
        eprintln!(
            "{failed} records failed; the other {} were signed",
            docs.len()
        );
    }
    if skipped > 0 {
        eprintln!("warning: {skipped} lines had no text key (id, path or url) or were error records; skipped");
    }
    // As `dedup` does before clustering, a date the site's template repeats does not
    // order mains (forgotten by `signed_docs`); the signatures carry the others.
    if template_dates > 0 {
        eprintln!("{template_dates} publication dates ignored as their site template's");
    }
    write_atomically(output, |file| {
        signatures::write_signatures(&docs, &config.dedup, file, output)
    })?;
    eprintln!(
        "{} documents ({} signed) → {} in {:.2} s",
        docs.len(),
        docs.iter().filter(|d| d.signature.is_some()).count(),
        output.display(),
        start.elapsed().as_secs_f64()
    );
    Ok(ExitCode::SUCCESS)
}

/// Write `path` through `write` to a file beside it, renamed into place when complete.
fn write_atomically(
    path: &Path,
    write: impl FnOnce(std::io::BufWriter<std::fs::File>) -> Result<()>,
) -> Result<()> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
    }
    let partial = path.with_extension("parquet.partial");
    let file = std::fs::File::create(&partial).map_err(|e| Error::io(&partial, e))?;
    write(std::io::BufWriter::with_capacity(1 << 20, file))?;
    std::fs::rename(&partial, path).map_err(|e| Error::io(path, e))
}

pub fn clusters(command: ClustersCommand) -> Result<ExitCode> {
    match command {
        ClustersCommand::Import {
            signatures,
            clusters,
            output,
            format,
        } => {
            let (found, docs, _) = spark_clusters::import(&signatures, &clusters)?;
            let target = jsonl_target(format, output.as_deref())?;
            let mut out = pipeline::open_output(target.as_deref())?;
            let name = target.clone().unwrap_or_else(|| PathBuf::from("-"));
            pipeline::write_clusters(&found, &docs, &mut out, &name)?;
            out.commit()?;
            finish(
                format,
                target.as_deref(),
                output.as_deref(),
                Some(records::clusters_rewrite),
            )?;
            eprintln!("{} clusters imported", found.len());
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// Where a command writes its JSONL: the output itself, or, for Parquet, a temporary
/// JSONL beside it that [`finish`] converts.
pub fn jsonl_target(format: Format, output: Option<&Path>) -> Result<Option<PathBuf>> {
    match (format, output) {
        (Format::Jsonl, o) => Ok(o.map(Path::to_path_buf)),
        (Format::Parquet, Some(o)) if o != Path::new("-") => {
            Ok(Some(o.with_extension("partial.jsonl")))
        }
        (Format::Parquet, _) => Err(Error::Config(
            "--format parquet needs an output file (-o FILE.parquet)".into(),
        )),
    }
}

/// For Parquet: convert the JSONL written at `jsonl` into `output`.
pub fn finish(
    format: Format,
    jsonl: Option<&Path>,
    output: Option<&Path>,
    rewrite: Option<records::Rewrite>,
) -> Result<()> {
    if let (Format::Parquet, Some(src), Some(dest)) = (format, jsonl, output) {
        records::replace_jsonl_with_parquet(src, dest, rewrite)?;
    }
    Ok(())
}

/// `run --format parquet`: pages.jsonl and clusters.jsonl of `dir` become .parquet files.
pub fn finish_run_dir(format: Format, dir: &Path) -> Result<()> {
    if format != Format::Parquet {
        return Ok(());
    }
    for (name, rewrite) in [
        ("pages", None),
        (
            "clusters",
            Some(records::clusters_rewrite as records::Rewrite),
        ),
    ] {
        let src = dir.join(format!("{name}.jsonl"));
        if src.exists() {
            records::replace_jsonl_with_parquet(
                &src,
                &dir.join(format!("{name}.parquet")),
                rewrite,
            )?;
        }
    }
    Ok(())
}
