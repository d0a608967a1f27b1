"""Pages in, records and signatures out, on the executors.

Input pages come from Parquet (`url`, `html` string or binary, optional `path`,
`fetched_at`, `popularity`, `content_type`, as `thresher run` reads them) or from WARC
files (one task per file, `warc.py`). A page's site is the host of `dedup/canonical.rs`'s
URL key (a union of the CLI's widest URL-prefix groups). No task holds a site's pages:
1. learning (`learn_sites`): a site's URLs give the pages the cross-page methods parse
   (`thresher.learning_sample`, the CLI's sample per URL prefix); those pages are parsed
   in any task (`learning_contributions`); a task per site feeds the contributions and
   the other URLs (only counted) to a `SiteLearner`, a batch at a time, whose state
   (templates and models, bytes) is one row per site;
2. extraction: pages go to tasks by (site, bucket), a site of more than `site_chunk`
   pages having ceil(pages / site_chunk) buckets by a hash of the path, each task after
   its site's state row; `SiteModel` extracts them a batch at a time;
3. signing: a site's records (texts, not pages) are signed in one task by `sign_arrow`
   as `thresher sign` signs them (the site-template dates, counted per host, forgotten
   over the whole site).
"""

import json
from urllib.parse import urlsplit

import pyarrow as pa
from pyspark.sql import functions as F, types as T
from pyspark.sql.pandas.types import from_arrow_schema

from .log import JobError, log

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


# Pages of a site per extraction task (`--site-chunk`): a site with more pages is split
# into ceil(pages / chunk) buckets by a hash of the page's path. Bounds what a task holds.
DEFAULT_SITE_CHUNK = 5000
STATE_SCHEMA = "site string, state binary"


def keyed_slices(batches, keys):
    """(key, slice) for each run of rows with equal `keys` columns in `batches` (rows
    sorted by those keys: a key's rows are consecutive, maybe across batches)."""
    for batch in batches:
        cols = [batch.column(k).to_pylist() for k in keys]
        n = batch.num_rows
        start = 0
        for i in range(1, n + 1):
            if i == n or any(c[i] != c[start] for c in cols):
                yield tuple(c[start] for c in cols), batch.slice(start, i - start)
                start = i


def with_loadable(pages, options):
    """`pages` with `site` (see `site`) and `_loads` (the row is a page, not an error
    record: only pages count for the learning pass, as `thresher.loadable` says)."""
    site_udf = F.udf(site, T.StringType())
    pages = pages.withColumn("site", site_udf(F.coalesce("url", F.lit(""))))
    schema = T.StructType(pages.schema.fields + [T.StructField("_loads", T.BooleanType())])

    def mark(batches):
        import thresher
        for batch in batches:
            loads = thresher.loadable(batch.select(PAGE_COLUMNS), **options)
            yield batch.append_column("_loads", pa.array(loads, type=pa.bool_()))

    return pages.mapInArrow(mark, schema)


def learn_sites(pages, options, partitions, threads):
    """One row per site: `state`, what the cross-page methods learn from the site's pages
    (`thresher.SiteLearner`), in three steps that never hold a site's pages in one task:
    the URLs of its pages give the sample to parse (`learning_sample`); the sampled pages
    are parsed anywhere (`learning_contributions`); the contributions and the other URLs
    (only counted) feed the site's learner, a batch at a time."""
    urls = pages.where("_loads").select("site", "url")

    def sample(batches):
        import thresher
        current, site_urls = None, []

        def chosen():
            flags = thresher.learning_sample(site_urls, **options)
            picked = sorted({u for u, f in zip(site_urls, flags) if f})
            return pa.RecordBatch.from_arrays(
                [pa.array([current] * len(picked), pa.string()), pa.array(picked, pa.string())],
                names=["site", "url"])

        for (s,), part in keyed_slices(batches, ["site"]):
            if s != current and site_urls:
                yield chosen()
                site_urls = []
            current = s
            site_urls.extend(part.column("url").to_pylist())
        if site_urls:
            yield chosen()

    sampled = (urls.repartition(partitions, "site").sortWithinPartitions("site")
               .mapInArrow(sample, "site string, url string"))

    def contribute(batches):
        import thresher
        for batch in batches:
            rows = batch.select(PAGE_COLUMNS)
            cs = thresher.learning_contributions(rows, threads=threads, **options)
            yield pa.RecordBatch.from_arrays(
                [batch.column("site"), batch.column("url"), pa.array(cs, pa.binary()),
                 pa.array([True] * batch.num_rows)],
                names=["site", "url", "contribution", "sampled"])

    contributions = (pages.where("_loads").join(sampled, ["site", "url"], "left_semi")
                     .mapInArrow(contribute, "site string, url string, contribution binary, sampled boolean"))
    counted = (urls.join(sampled, ["site", "url"], "left_anti")
               .select("site", "url", F.lit(None).cast("binary").alias("contribution"),
                       F.lit(False).alias("sampled")))

    def learn(batches):
        import thresher
        current, learner = None, None

        def state():
            return pa.RecordBatch.from_arrays(
                [pa.array([current], pa.string()), pa.array([learner.state()], pa.binary())],
                names=["site", "state"])

        for (s,), part in keyed_slices(batches, ["site"]):
            if s != current:
                if learner is not None:
                    yield state()
                current, learner = s, thresher.SiteLearner(**options)
            flags = part.column("sampled").to_pylist()
            urls_ = part.column("url").to_pylist()
            cs = part.column("contribution").to_pylist()
            learner.count([u for u, f in zip(urls_, flags) if not f])
            learner.add([u for u, f in zip(urls_, flags) if f], [c for c, f in zip(cs, flags) if f])
        if learner is not None:
            yield state()

    return (contributions.unionByName(counted).repartition(partitions, "site")
            .sortWithinPartitions("site").mapInArrow(learn, STATE_SCHEMA))


def extract_and_sign(pages, options, dedup_options, partitions, threads=1,
                     site_chunk=DEFAULT_SITE_CHUNK):
    """Records and signatures of every page (see the module's text). Returns (DataFrame,
    dedup configuration as the signer wrote it)."""
    arrow_schema, config = output_schema(options, dedup_options)
    record_fields = [f for f in arrow_schema if not f.name.startswith(SIG_PREFIX)]
    record_schema = pa.schema(record_fields + [pa.field("site", pa.string())])
    # Not persisted: a cached partition is read back whole, and a WARC file is one
    # partition (a 150 MB WARC of 4,824 pages overflowed a 1 GB heap); each step reads
    # the pages again from their files instead, as a stream.
    pages = with_loadable(pages, options)
    states = learn_sites(pages, options, partitions, threads)

    # Buckets: only sites over the chunk size are split, and they are few, so their
    # bucket counts are broadcast (the pages are shuffled once, by (site, bucket)).
    big = (pages.groupBy("site").count().where(F.col("count") > site_chunk)
           .select("site", F.ceil(F.col("count") / F.lit(site_chunk)).cast("int").alias("buckets")))
    split = big.agg(F.count("*").alias("sites"), F.sum("buckets").alias("chunks")).first()
    if split["sites"]:
        log(f"{split['sites']} sites over {site_chunk} pages split into {split['chunks']} chunks")
    page_rows = (pages.join(F.broadcast(big), "site", "left")
                 .withColumn("bucket", F.when(F.col("buckets").isNull(), F.lit(0))
                             .otherwise(F.pmod(F.xxhash64("path"), F.col("buckets"))).cast("int"))
                 .select(*PAGE_COLUMNS, "site", "bucket", F.lit(1).alias("_kind"),
                         F.lit(None).cast("binary").alias("state")))
    state_rows = (states.join(F.broadcast(big), "site", "left")
                  .select("site", F.explode(F.sequence(F.lit(0), F.coalesce(F.col("buckets"), F.lit(1)) - 1)).alias("bucket"),
                          "state")
                  .select(*[F.lit(None).cast(f.dataType).alias(f.name) for f in PAGE_SCHEMA.fields
                            if f.name in PAGE_COLUMNS],
                          "site", F.col("bucket").cast("int").alias("bucket"), F.lit(0).alias("_kind"), "state"))
    chunks = (page_rows.unionByName(state_rows)
              .repartition(partitions, "site", "bucket")
              .sortWithinPartitions("site", "bucket", "_kind"))

    def extract_chunks(batches):
        import thresher
        nothing_learned = thresher.SiteLearner(**options).state()
        current, model = None, None
        for key, part in keyed_slices(batches, ["site", "bucket"]):
            if key != current:
                current, model = key, None
            kinds = part.column("_kind").to_pylist()
            if model is None:
                # The site's state row sorts first; a site without one learned nothing.
                state = part.column("state")[0].as_py() if kinds[0] == 0 else nothing_learned
                model = thresher.SiteModel(state, **options)
            rows = [i for i, k in enumerate(kinds) if k == 1]
            if not rows:
                continue
            page_part = part.take(pa.array(rows, pa.int64()))
            records = model.extract_arrow(page_part.select(PAGE_COLUMNS), threads=threads)
            records = records.append_column("site", page_part.column("site"))
            yield from records.to_batches()

    records = chunks.mapInArrow(extract_chunks, from_arrow_schema(record_schema))

    # Signing forgets the dates a site's template repeats, counted over the site's records:
    # a site's records (texts, not pages) are signed in one task.
    def sign_sites(batches):
        import thresher
        current, parts = None, []

        def flush():
            table = pa.Table.from_batches(parts).drop(["site"])
            return join_signatures(table, thresher.sign_arrow, dedup_options, arrow_schema)

        for (s,), part in keyed_slices(batches, ["site"]):
            if s != current and parts:
                yield from flush().to_batches()
                parts = []
            current = s
            parts.append(part)
        if parts:
            yield from flush().to_batches()

    signed = (records.repartition(partitions, "site").sortWithinPartitions("site")
              .mapInArrow(sign_sites, from_arrow_schema(arrow_schema)))
    return signed, config


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
