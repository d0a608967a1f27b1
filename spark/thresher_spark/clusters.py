"""From the job's member rows (`dedup.cluster_rows`) to what `thresher run` writes:
cluster records (id, main, members, similarities, shared members, the main's reason),
made on the executors by the package's `clusters_from_rows` (the library's
`make_cluster`, as `thresher clusters import` makes them), a group of mains per task;
and the pages' cluster fields (`cluster`, `is_main`, `main`).
"""

import json

import pyarrow as pa
from pyspark.sql import functions as F, types as T

META_COLUMNS = ["doc", "key", "fetched_at", "popularity", "boilerplate_ratio", "published",
                "published_at", "canonical_url", "url_key"]
ROW_COLUMNS = ["main", "member", "similarity", "first", "main_degree", "strict", "canonical_with"]
CLUSTER_SCHEMA = T.StructType([
    T.StructField("cluster", T.StringType()),
    T.StructField("main", T.StringType()),
    T.StructField("size", T.LongType()),
    T.StructField("members", T.ArrayType(T.StringType())),
    # Each member's similarity to the main, in the order of `members` (as `thresher run
    # --format parquet` writes it).
    T.StructField("similarity", T.ArrayType(T.DoubleType())),
    T.StructField("shared", T.ArrayType(T.StringType())),
    T.StructField("reason", T.StringType()),
])


def cluster_records(rows, sigs, config, partitions):
    """Cluster records of the member rows; `sigs` gives each document's main-order
    fields (the signature columns), `config` the signer's dedup configuration."""
    metas = sigs.select(*META_COLUMNS)
    # Every document named by a row is a member of its main's rows (the main included).
    joined = (rows.join(metas.withColumnRenamed("doc", "member"), "member")
              .repartition(partitions, "main"))
    config_json = json.dumps(config).encode()

    def make(batches):
        import thresher
        tables = [pa.Table.from_batches([b]) for b in batches]
        tables = [t for t in tables if t.num_rows]
        if not tables:
            return
        t = pa.concat_tables(tables)
        member_rows = t.select(ROW_COLUMNS)
        meta = t.select(["member"] + META_COLUMNS[1:]).rename_columns(META_COLUMNS)
        keep = sorted(set(range(meta.num_rows)) - duplicates(meta.column("doc").to_pylist()))
        meta = meta.take(keep).replace_schema_metadata({b"thresher.dedup_config": config_json})
        records = thresher.clusters_from_rows(meta, member_rows)
        out = {f.name: [] for f in CLUSTER_SCHEMA.fields}
        for r in records:
            out["cluster"].append(r["cluster"])
            out["main"].append(r["main"])
            out["size"].append(r["size"])
            out["members"].append(r["members"])
            out["similarity"].append([r["similarity"][m] for m in r["members"]])
            out["shared"].append(r.get("shared", []))
            out["reason"].append(r["reason"])
        yield pa.RecordBatch.from_pydict(out, schema=arrow_cluster_schema())

    return joined.mapInArrow(make, CLUSTER_SCHEMA)


def duplicates(values):
    """Positions of the values seen before in `values`."""
    seen, out = set(), set()
    for i, v in enumerate(values):
        if v in seen:
            out.add(i)
        seen.add(v)
    return out


def arrow_cluster_schema():
    return pa.schema([
        ("cluster", pa.string()), ("main", pa.string()), ("size", pa.int64()),
        ("members", pa.list_(pa.string())), ("similarity", pa.list_(pa.float64())),
        ("shared", pa.list_(pa.string())), ("reason", pa.string()),
    ])


def mark_pages(records, clusters):
    """The records with `thresher run`'s cluster fields (its `--duplicates mark`): the
    cluster a page belongs to first and its main (null for a page in no cluster), and
    `is_main` (true also for a page in no cluster). Error records get nulls."""
    own = (clusters.select("cluster", "main", F.explode("members").alias("path"), "shared")
           .where(~F.array_contains("shared", F.col("path")))
           .select("path", "cluster", "main"))
    out = records.join(own, "path", "left")
    is_main = F.when(F.col("error").isNotNull(), F.lit(None).cast("boolean")) \
        .otherwise(F.col("main").isNull() | (F.col("main") == F.col("path"))) \
        if "error" in records.columns else (F.col("main").isNull() | (F.col("main") == F.col("path")))
    return out.withColumn("is_main", is_main)
