//! The crawl: [`run_fetch`] opens the outputs (resuming an earlier run), reads the
//! `--previous` crawls' validators, sorts the URL list, builds the HTTP client (trusting
//! the `--ca-cert` authorities besides the system's) and the async runtime, queues the URLs per origin with
//! `per_host` workers draining each queue, and hands finished URLs to the writer thread.

use std::path::Path;
use std::sync::atomic::Ordering;
use std::sync::Arc;

use tokio::sync::mpsc::{Receiver, Sender};
use url::Url;

use super::ctx::Ctx;
use super::host::Host;
use super::manifest::{load_resume, manifest_path_for, FetchSummary};
use super::one_url::{fetch_one, Done};
use super::options::FetchConfig;
use super::previous::Previous;
use super::sink::Sink;
use super::urls::plan_urls;
use crate::error::{Error, Result};

/// Finished URLs waiting for the writer thread; workers wait when it is full. A few
/// dozen finished pages are enough to keep the writer busy while bounding the memory of
/// bodies in transit (hand-set, not measured).
const WRITER_QUEUE: usize = 64;

/// Fetch `urls` into `warc` (appending: URLs finished by an earlier run with the same
/// output are skipped) and its manifest ([`manifest_path_for`]).
pub fn run_fetch(
    urls: &[String],
    warc_path: &Path,
    cfg: &FetchConfig,
    progress: &indicatif::ProgressBar,
) -> Result<FetchSummary> {
    let start = std::time::Instant::now();
    let manifest_path = manifest_path_for(warc_path);
    if let Some(dir) = warc_path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
    }
    let previous = Previous::load(&cfg.previous, warc_path)?;
    let previous_urls = previous.len();
    // The client first: a configuration error (CA certificates) leaves no outputs behind.
    let ctx = Arc::new(Ctx::new(cfg, previous)?);
    let resume = load_resume(&manifest_path)?;
    let mut sink = Sink::open(warc_path, &manifest_path, resume.warc_end, cfg)?;
    let mut summary = FetchSummary {
        warc: warc_path.to_owned(),
        manifest: manifest_path.clone(),
        ..Default::default()
    };
    let (todo, immediate) = plan_urls(urls, &resume.done, &mut summary);
    progress.set_length(todo.len() as u64 + immediate.len() as u64);
    for d in immediate {
        sink.write(d)?;
        progress.inc(1);
    }

    summary.previous_urls = previous_urls;
    let rt = runtime(cfg.threads)?;
    let (tx, rx) = tokio::sync::mpsc::channel::<Done>(WRITER_QUEUE);
    let writer = spawn_writer(sink, rx, progress.clone());
    rt.block_on(crawl(&ctx, todo, tx));
    drop(rt);
    let sink = writer
        .join()
        .map_err(|_| Error::Config("the WARC writer panicked".into()))??;
    summary.outcomes = sink.outcomes;
    summary.failures = sink.failures;
    summary.requests = ctx.requests.load(Ordering::Relaxed);
    summary.seconds = start.elapsed().as_secs_f64();
    Ok(summary)
}

/// The tokio runtime (`threads` workers; 0: one per core).
fn runtime(threads: usize) -> Result<tokio::runtime::Runtime> {
    let mut rt = tokio::runtime::Builder::new_multi_thread();
    if threads > 0 {
        rt.worker_threads(threads);
    }
    rt.enable_all()
        .build()
        .map_err(|e| Error::Config(format!("async runtime: {e}")))
}

/// The writer thread: writes each finished URL as it arrives; returns the sink (with its
/// counts) when every worker is done.
fn spawn_writer(
    mut sink: Sink,
    mut rx: Receiver<Done>,
    bar: indicatif::ProgressBar,
) -> std::thread::JoinHandle<Result<Sink>> {
    std::thread::spawn(move || -> Result<Sink> {
        while let Some(done) = rx.blocking_recv() {
            sink.write(done)?;
            bar.inc(1);
        }
        Ok(sink)
    })
}

/// Queue the URLs per origin, in input order, and drain each queue with `per_host`
/// workers; finished URLs go to `tx`.
async fn crawl(ctx: &Arc<Ctx>, todo: Vec<Url>, tx: Sender<Done>) {
    let mut order: Vec<Arc<Host>> = Vec::new();
    for u in todo {
        let host = ctx.host(&u);
        let mut q = host.queue.lock().expect("lock");
        if q.is_empty() {
            order.push(host.clone());
        }
        q.push_back(u);
    }
    let mut workers = tokio::task::JoinSet::new();
    for host in order {
        let n = host
            .queue
            .lock()
            .expect("lock")
            .len()
            .min(ctx.cfg.per_host.max(1));
        for _ in 0..n {
            let ctx = ctx.clone();
            let host = host.clone();
            let tx = tx.clone();
            workers.spawn(async move {
                loop {
                    let next = host.queue.lock().expect("lock").pop_front();
                    let Some(url) = next else { break };
                    let done = fetch_one(&ctx, url).await;
                    if tx.send(done).await.is_err() {
                        break; // the writer failed; its error is reported below
                    }
                }
            });
        }
    }
    drop(tx);
    while workers.join_next().await.is_some() {}
}
