#!/usr/bin/env python3
"""`thresher run` on Spark: pages from WARC files or Parquet in, pages and near-duplicate
clusters out as Parquet, every step on the executors.

    spark-submit --master yarn --archives thresher-venv.tar.gz#venv \\
        --conf spark.pyspark.python=./venv/bin/python \\
        spark/thresher_run.py crawl/*.warc.gz --out out/

Steps (spark/README.md has the details):
1. Pages: WARC files (one task per file) or Parquet (`url`, `html`, optional `path`,
   `fetched_at`, `popularity`, `content_type`).
2. Extraction and signing (`thresher_spark/pages.py`): the cross-page methods learn
   each site's state from a sample of its pages (SiteLearner: the sample from the URLs,
   the sampled pages parsed anywhere), the pages are extracted by SiteModel in chunks of
   at most `--site-chunk` pages of a site, and a site's records are signed together
   (sign_arrow: `thresher sign`'s rows, template dates forgotten per site).
3. Clusters (`thresher_spark/dedup.py`, as spark/thresher_dedup.py): band join, leader
   rounds over large buckets, verification, canonical-URL pairs, connected components,
   mains and strict stars.
4. Cluster records by the package's clusters_from_rows (ids, members, shared, reasons
   as `thresher run` writes them), pages marked with `cluster`, `is_main`, `main`.

Output: OUT/pages (the records of `thresher run --format parquet`'s pages.parquet,
one per page, error records included) and OUT/clusters (its clusters.parquet), as
Parquet part files.

Options: `--config FILE` takes the keys of the CLI's `--config` file (JSON, or YAML when
PyYAML is installed); its `dedup:` section is the signer's.
"""

import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from pyspark.sql import functions as F  # noqa: E402

from thresher_spark import session  # noqa: E402
from thresher_spark.clusters import cluster_records, mark_pages  # noqa: E402
from thresher_spark.dedup import Checkpointer, cluster_rows  # noqa: E402
from thresher_spark.log import NAME, JobError, log  # noqa: E402
from thresher_spark.pages import (  # noqa: E402
    DEFAULT_SITE_CHUNK, SIG_PREFIX, extract_and_sign, read_pages)

NAME[0] = "thresher_run"
# src/config.rs `max_page_bytes`: bytes of a page kept (the rest is cut).
MAX_PAGE_BYTES = 32 << 20
# Rows per Arrow batch handed to a task (see main).
ARROW_BATCH_ROWS = 256


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("inputs", nargs="+", help="WARC files (*.warc, *.warc.gz) and Parquet files or folders")
    p.add_argument("--out", required=True, help="output directory: pages/ and clusters/ (Parquet)")
    p.add_argument("--config", help="options as the CLI's --config file (JSON or YAML)")
    session.add_cluster_arguments(p)
    p.add_argument("--partitions", type=int,
                   help="partitions of the sites for extraction (default: the default parallelism x 4)")
    p.add_argument("--site-chunk", type=int, default=DEFAULT_SITE_CHUNK,
                   help=f"pages of a site per extraction task: a bigger site is split into "
                        f"ceil(pages / N) tasks (default {DEFAULT_SITE_CHUNK})")
    p.add_argument("--threads", type=int, default=1,
                   help="threads of the package per task (default 1: Spark runs a task per core)")
    return p.parse_args(argv)


def load_options(path):
    if not path:
        return {}
    text = open(path).read()
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        pass
    try:
        import yaml
    except ImportError:
        raise JobError(f"{path}: not JSON, and PyYAML is not installed to read YAML")
    return yaml.safe_load(text) or {}


def main(argv):
    args = parse_args(argv)
    options = load_options(args.config)
    dedup_options = options.get("dedup", {})
    # Pages cross to the Python workers in Arrow batches of this many rows: what an
    # extraction task holds at once (Spark's default, 10,000 pages, is ~1 GB of HTML).
    spark = session.start("thresher-run", args.master, args.shuffle_partitions,
                          conf=[("spark.sql.execution.arrow.maxRecordsPerBatch", str(ARROW_BATCH_ROWS))])
    checkpoint = Checkpointer(spark, args.checkpoint_dir)
    partitions = args.partitions or spark.sparkContext.defaultParallelism * 4
    max_bytes = int(options.get("max_page_bytes", MAX_PAGE_BYTES))
    log("started")

    pages = read_pages(spark, args.inputs, max_bytes)
    if args.site_chunk < 1:
        raise JobError(f"--site-chunk {args.site_chunk}: give at least 1 page")
    extracted, config = extract_and_sign(pages, options, dedup_options, partitions, args.threads,
                                         args.site_chunk)
    # Every document gets a number of its own across the sites (sign_arrow numbers them
    # within a site); it only breaks ties between equal keys, as the input position does.
    extracted = checkpoint(extracted.withColumn("_doc", F.monotonically_increasing_id()))
    names = extracted.columns
    records = extracted.select(*[c for c in names if not c.startswith(SIG_PREFIX) and c != "_doc"])
    sigs = checkpoint(
        extracted.where(F.col(SIG_PREFIX + "signed").isNotNull())
        .select(F.col("_doc").alias("doc"),
                *[F.col(c).alias(c[len(SIG_PREFIX):]) for c in names
                  if c.startswith(SIG_PREFIX) and c != SIG_PREFIX + "doc"]))
    log(f"{records.count()} pages extracted, {sigs.where('signed').count()} signed")

    mode = args.mode or config.get("mode", "strict")
    rows = cluster_rows(sigs, config, mode, checkpoint, args.max_leader_rounds)
    clusters = checkpoint(cluster_records(rows, sigs, config, partitions))
    log(f"{clusters.count()} {mode} clusters")
    mark_pages(records, clusters).write.mode("overwrite").parquet(os.path.join(args.out, "pages"))
    clusters.write.mode("overwrite").parquet(os.path.join(args.out, "clusters"))
    log(f"pages and clusters written to {args.out}")
    spark.stop()


if __name__ == "__main__":
    try:
        main(sys.argv[1:])
    except JobError as e:
        sys.exit(f"thresher_run: {e}")
