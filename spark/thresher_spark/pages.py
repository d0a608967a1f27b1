"""Pages in, records and signatures out, on the executors.

Input pages come from Parquet (`url`, `html` string or binary, optional `path`,
`fetched_at`, `popularity`, `content_type`, as `thresher run` reads them) or from WARC
files (one task per file, `warc.py`). They are partitioned by site (the host of
`dedup/canonical.rs`'s URL key, a union of the CLI's widest URL-prefix groups), sorted by
it, and each site's pages go through the `thresher` package in one task:
`GroupExtractor` learns the cross-page methods from the site's pages and extracts them
(the CLI's learning pass keeps its samples and models per URL prefix, so a site's pages
are all it needs), then `sign_arrow` signs the records as `thresher sign` does (the
site-template dates, counted per host, are forgotten there over the whole site).
"""

import json
from urllib.parse import urlsplit

import pyarrow as pa
from pyspark.sql import functions as F, types as T
from pyspark.sql.pandas.types import from_arrow_schema

from .log import JobError

PAGE_COLUMNS = ["path", "url", "html", "fetched_at", "popularity", "content_type"]
PAGE_SCHEMA = T.StructType([
    T.StructField("path", T.StringType()),
    T.StructField("url", T.StringType()),
    T.StructField("html", T.BinaryType()),
    T.StructField("fetched_at", T.StringType()),
    T.StructField("popularity", T.DoubleType()),
    T.StructField("content_type", T.StringType()),
    T.StructField("read_error", T.StringType()),
])
SIG_PREFIX = "sig_"
CONFIG_KEY = b"thresher.dedup_config"


def site(url):
    """The host whose pages share templates and template dates: lower case, no port,
    no leading `www.` (as `url_key` strips them); the URL itself when it has no host."""
    try:
        host = urlsplit(url.strip()).hostname
    except ValueError:
        host = None
    if not host:
        return url
    while host.startswith("www."):
        host = host[4:]
    return host


def read_parquet_pages(spark, paths):
    """Pages of Parquet files; rows without a `path` are named `FILE#row N` (N from 0 in
    the file) as the CLI names them."""
    df = spark.read.parquet(*paths)
    cols = set(df.columns)
    for needed in ("url", "html"):
        if needed not in cols:
            raise JobError(f"{', '.join(paths)}: no `{needed}` column (pages in Parquet need "
                           "`url` and `html`; optional `path`, `fetched_at`, `popularity`, "
                           "`content_type`)")
    default_path = F.concat(
        F.regexp_replace(F.col("_metadata.file_path"), "^file:(//)?", ""),
        F.lit("#row "), F.col("_metadata.row_index").cast("string"))
    pick = {
        "path": F.coalesce(F.col("path").cast("string"), default_path) if "path" in cols else default_path,
        "url": F.col("url").cast("string"),
        "html": F.col("html").cast("binary"),
        "fetched_at": F.col("fetched_at").cast("string") if "fetched_at" in cols else F.lit(None).cast("string"),
        "popularity": F.col("popularity").cast("double") if "popularity" in cols else F.lit(None).cast("double"),
        "content_type": F.col("content_type").cast("string") if "content_type" in cols else F.lit(None).cast("string"),
    }
    return df.select(*[pick[c].alias(c) for c in PAGE_COLUMNS], F.lit(None).cast("string").alias("read_error"))


def read_warc_pages(spark, paths, max_bytes):
    """Pages of WARC files, each file read whole by one task."""
    files = spark.createDataFrame([(p,) for p in paths], "file string").repartition(len(paths), "file")

    def read(batches):
        from thresher_spark import warc
        names = [f.name for f in PAGE_SCHEMA.fields]
        for batch in batches:
            for file in batch.column("file").to_pylist():
                rows = []
                for path, url, html, fetched, ctype, error in warc.pages(file, max_bytes):
                    rows.append((path, url, html, fetched, None, ctype, error))
                    if len(rows) == 256:
                        yield page_batch(rows, names)
                        rows = []
                if rows:
                    yield page_batch(rows, names)

    return files.mapInArrow(read, PAGE_SCHEMA)


ARROW_PAGE_TYPES = [pa.string(), pa.string(), pa.binary(), pa.string(), pa.float64(),
                    pa.string(), pa.string()]


def page_batch(rows, names):
    return pa.RecordBatch.from_arrays(
        [pa.array(c, type=t) for c, t in zip(zip(*rows), ARROW_PAGE_TYPES)], names=names)


def read_pages(spark, paths, max_bytes):
    """Pages of the inputs: `*.warc`, `*.warc.gz` files, else Parquet files or folders."""
    warcs = [p for p in paths if p.endswith((".warc", ".warc.gz"))]
    parquets = [p for p in paths if p not in warcs]
    parts = []
    if warcs:
        parts.append(read_warc_pages(spark, warcs, max_bytes))
    if parquets:
        parts.append(read_parquet_pages(spark, parquets))
    if not parts:
        raise JobError("no inputs")
    out = parts[0]
    for p in parts[1:]:
        out = out.unionByName(p)
    return out


def output_schema(options, dedup_options):
    """The Spark schema of what `extract_and_sign` yields: the record's columns, then
    the signature's columns prefixed `sig_`, learnt from the package on a tiny page."""
    import thresher
    probe = pa.table({"url": ["http://example.com/a"], "html": [b"<p>probe</p>"],
                      "path": ["probe"]})
    records = thresher.GroupExtractor(**options)
    records.add_arrow(probe)
    rec = records.extract_arrow(threads=1)
    sig = thresher.sign_arrow(rec, **dedup_options)
    fields = list(rec.schema) + [f.with_name(SIG_PREFIX + f.name) for f in sig.schema]
    return pa.schema(fields), json.loads(sig.schema.metadata[CONFIG_KEY])


def extract_and_sign(pages, options, dedup_options, partitions, threads=1):
    """Records and signatures of every page, a site per task group (see the module's
    text). Returns (DataFrame, dedup configuration as the signer wrote it)."""
    arrow_schema, config = output_schema(options, dedup_options)
    spark_schema = from_arrow_schema(arrow_schema)
    site_udf = F.udf(site, T.StringType())
    grouped = (pages.withColumn("site", site_udf(F.coalesce("url", F.lit(""))))
               .repartition(partitions, "site").sortWithinPartitions("site"))

    def run_sites(batches):
        import thresher
        extractor = thresher.GroupExtractor(**options)
        current, parts = None, []

        def flush():
            table = pa.Table.from_batches(parts).drop(["site", "read_error"])
            extractor.clear()
            extractor.add_arrow(table)
            records = extractor.extract_arrow(threads=threads)
            return join_signatures(records, thresher.sign_arrow, dedup_options, arrow_schema)

        for batch in batches:
            sites = batch.column("site").to_pylist()
            start = 0
            for i in range(1, len(sites) + 1):
                if i == len(sites) or sites[i] != sites[start]:
                    if sites[start] != current and parts:
                        yield from flush().to_batches()
                        parts = []
                    current = sites[start]
                    parts.append(batch.slice(start, i - start))
                    start = i
        if parts:
            yield from flush().to_batches()

    return grouped.mapInArrow(run_sites, spark_schema), config


def join_signatures(records, sign, dedup_options, schema):
    """`records` with their signature columns (`sig_*`, null for error records), in
    `schema`'s column order."""
    n = records.num_rows
    errors = records.column("error").to_pylist() if "error" in records.column_names else [None] * n
    ok = [i for i, e in enumerate(errors) if e is None]
    sig_fields = [f for f in schema if f.name.startswith(SIG_PREFIX)]
    if ok:
        sigs = sign(records.take(ok), **dedup_options)
        # sign_arrow numbers the documents in the order given: document d is row ok[d].
        where = [None] * n
        for row, d in enumerate(sigs.column("doc").to_pylist()):
            where[ok[d]] = row
        taken = sigs.take(pa.array(where, type=pa.int64()))
        sig_cols = {f.name: taken.column(f.name[len(SIG_PREFIX):]) for f in sig_fields}
    else:
        sig_cols = {f.name: pa.nulls(n, type=f.type) for f in sig_fields}
    arrays = [records.column(f.name) if f.name in records.column_names else sig_cols[f.name]
              for f in schema]
    return pa.Table.from_arrays([a.cast(f.type) for a, f in zip(arrays, schema)], schema=schema)
