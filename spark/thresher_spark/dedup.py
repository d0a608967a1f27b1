"""Near-duplicate clusters from signature rows, the distributed form of src/dedup/.

Input: a DataFrame with `thresher sign`'s columns (doc, key, order, signed, bands, shingles,
canonical_url, url_key) and the signer's dedup configuration (the JSON that `thresher sign`
keeps in its Parquet footer). Output: one row per cluster member (main, member,
similarity, first, main_degree, strict, canonical_with), members named by `doc`.
See spark/thresher_dedup.py for the steps and their correspondence with src/dedup/.
"""

import json

from pyspark.sql import functions as F, types as T

from .log import JobError, log

# src/dedup/lsh.rs MAX_BUCKET_ALL_PAIRS: buckets up to this size are expanded into pairs.
MAX_BUCKET_ALL_PAIRS = 64
CONFIG_KEY = "thresher.dedup_config"


def read_config(spark, path):
    """The signer's dedup configuration, from the Parquet footer of every input file."""
    jvm = spark._jvm
    conf = spark._jsc.hadoopConfiguration()
    hpath = jvm.org.apache.hadoop.fs.Path(path)
    fs = hpath.getFileSystem(conf)
    status = fs.getFileStatus(hpath)
    if status.isFile():
        files = [status.getPath()]
    else:
        files = [s.getPath() for s in fs.listStatus(hpath)
                 if s.getPath().getName().endswith(".parquet")
                 and not s.getPath().getName().startswith(("_", "."))]
    configs = set()
    for f in files:
        reader = jvm.org.apache.parquet.hadoop.ParquetFileReader.open(
            jvm.org.apache.parquet.hadoop.util.HadoopInputFile.fromPath(f, conf))
        try:
            kv = reader.getFooter().getFileMetaData().getKeyValueMetaData()
            configs.add(kv.get(CONFIG_KEY))
        finally:
            reader.close()
    if not configs or None in configs:
        raise JobError(f"{path}: not a `thresher sign` file (no {CONFIG_KEY} metadata)")
    if len(configs) > 1:
        raise JobError(f"{path}: files signed with different configurations")
    return json.loads(configs.pop())


def similarity(a, b, measure):
    """The measure of src/dedup/mod.rs on two sorted, deduplicated shingle arrays, in
    the same floating-point operations."""
    inter = F.size(F.array_intersect(a, b)).cast("double")
    la, lb = F.size(a).cast("double"), F.size(b).cast("double")
    if measure == "jaccard":
        return inter / (la + lb - inter)
    if measure == "dice":
        return (F.lit(2.0) * inter) / (la + lb)
    if measure == "containment":
        return inter / F.least(la, lb)
    raise JobError(f"unknown measure {measure}")


class Checkpointer:
    def __init__(self, spark, directory):
        self.reliable = bool(directory)
        if directory:
            spark.sparkContext.setCheckpointDir(directory)

    def __call__(self, df):
        return df.checkpoint() if self.reliable else df.localCheckpoint()


def candidate_edges(docs, threshold, measure, max_rounds, checkpoint):
    """Verified pairs (a, b, s), a ranked before b, as dedup finds them."""
    entries = docs.select("doc", F.explode("bands").alias("band")).distinct()
    sizes = entries.groupBy("band").agg(F.count("*").alias("n")).where("n >= 2")
    entries = checkpoint(entries.join(sizes, "band"))
    shingles = docs.select("doc", "shingles")

    small = entries.where(F.col("n") <= MAX_BUCKET_ALL_PAIRS)
    pairs = (small.alias("x").join(small.alias("y"), "band")
             .where(F.col("x.doc") < F.col("y.doc"))
             .select(F.col("x.doc").alias("a"), F.col("y.doc").alias("b")).distinct())
    verified = (pairs
                .join(shingles.withColumnRenamed("doc", "a").withColumnRenamed("shingles", "sa"), "a")
                .join(shingles.withColumnRenamed("doc", "b").withColumnRenamed("shingles", "sb"), "b")
                .select("a", "b", similarity(F.col("sa"), F.col("sb"), measure).alias("s"))
                .where(F.col("s") >= F.lit(threshold)))
    found = [checkpoint(verified)]

    # Large buckets: rounds of leaders. A pair (leader, member) met in several buckets
    # (copies share most of their bands) is verified once per round, as dedup remembers it.
    rest = checkpoint(entries.where(F.col("n") > MAX_BUCKET_ALL_PAIRS).select("band", "doc"))
    rounds = 0
    while True:
        leaders = (rest.groupBy("band").agg(F.min("doc").alias("leader"), F.count("*").alias("m"))
                   .where("m >= 2").select("band", "leader"))
        members = checkpoint(rest.join(leaders, "band").where(F.col("doc") != F.col("leader")))
        if members.isEmpty():
            break
        if rounds == max_rounds > 0:
            log(f"--max-leader-rounds {max_rounds} reached; "
                f"{members.count()} bucket members left unverified")
            break
        rounds += 1
        pairs = members.select("leader", "doc").distinct()
        checked = checkpoint(
            pairs.join(shingles.withColumnRenamed("doc", "leader").withColumnRenamed("shingles", "ls"), "leader")
            .join(shingles, "doc")
            .select("leader", "doc", similarity(F.col("ls"), F.col("shingles"), measure).alias("s")))
        found.append(checked.where(F.col("s") >= F.lit(threshold))
                     .select(F.col("leader").alias("a"), F.col("doc").alias("b"), "s"))
        rest = checkpoint(members.join(checked.where(F.col("s") < F.lit(threshold)), ["leader", "doc"])
                          .select("band", "doc"))
    edges = found[0]
    for f in found[1:]:
        edges = edges.unionByName(f)
    edges = checkpoint(edges.dropDuplicates(["a", "b"]))
    log(f"{edges.count()} similar pairs ({rounds} leader rounds over large buckets)")
    return edges


def canonical_url_edges(docs, edges, floor, measure, checkpoint):
    """Pairs sharing a canonical URL that are not already edges, verified at the
    canonical floor (src/dedup/canonical.rs `pairs`, src/dedup/mod.rs)."""
    declared = (docs.where(F.col("canonical_url").isNotNull())
                .select(F.col("canonical_url").alias("ckey"), "doc"))
    keys = declared.select("ckey").distinct()
    # A page whose own URL others declare joins their group (once, if it does not
    # declare that URL itself).
    by_url = (docs.where(F.col("url_key").isNotNull()
                         & (F.col("canonical_url").isNull() | (F.col("canonical_url") != F.col("url_key"))))
              .select(F.col("url_key").alias("ckey"), "doc").join(keys, "ckey"))
    groups = declared.unionByName(by_url).distinct()
    sizes = (groups.groupBy("ckey").agg(F.count("*").alias("n"), F.min("doc").alias("best"))
             .where("n >= 2"))
    groups = checkpoint(groups.join(sizes, "ckey"))
    small = groups.where(F.col("n") <= MAX_BUCKET_ALL_PAIRS)
    pairs = (small.alias("x").join(small.alias("y"), "ckey")
             .where(F.col("x.doc") < F.col("y.doc"))
             .select(F.col("x.doc").alias("a"), F.col("y.doc").alias("b"))
             .unionByName(groups.where((F.col("n") > MAX_BUCKET_ALL_PAIRS) & (F.col("doc") != F.col("best")))
                          .select(F.col("best").alias("a"), F.col("doc").alias("b")))
             .distinct()
             .join(edges.select("a", "b"), ["a", "b"], "left_anti"))
    shingles = docs.select("doc", "shingles")
    joined = checkpoint(
        pairs.join(shingles.withColumnRenamed("doc", "a").withColumnRenamed("shingles", "sa"), "a")
        .join(shingles.withColumnRenamed("doc", "b").withColumnRenamed("shingles", "sb"), "b")
        .select("a", "b", similarity(F.col("sa"), F.col("sb"), measure).alias("s"))
        .where(F.col("s") >= F.lit(floor)))
    log(f"{joined.count()} pairs joined by a shared canonical URL")
    return joined


def canonical(df, x, y):
    return (df.where(F.col(x) != F.col(y))
            .select(F.greatest(x, y).alias("u"), F.least(x, y).alias("v")).distinct())


def both_ways(e):
    return e.select("u", "v").union(e.select(F.col("v").alias("u"), F.col("u").alias("v")))


def large_star(e):
    n = both_ways(e)
    m = n.groupBy("u").agg(F.least(F.min("v"), F.col("u")).alias("m"))
    out = n.where(F.col("v") > F.col("u")).join(m, "u").select(F.col("v").alias("x"), F.col("m").alias("y"))
    return canonical(out, "x", "y")


def small_star(e):
    n = both_ways(e).where(F.col("v") < F.col("u"))
    m = n.groupBy("u").agg(F.min("v").alias("m"))
    out = (n.join(m, "u").select(F.col("v").alias("x"), F.col("m").alias("y"))
           .union(m.select(F.col("u").alias("x"), F.col("m").alias("y"))))
    return canonical(out, "x", "y")


def components(edges, checkpoint):
    """(doc, comp): comp = the smallest document number of the component."""
    e = checkpoint(canonical(edges, "a", "b"))
    rounds = 0
    while True:
        nxt = checkpoint(small_star(checkpoint(large_star(e))))
        rounds += 1
        if nxt.exceptAll(e).isEmpty() and e.exceptAll(nxt).isEmpty():
            break
        e = nxt
    log(f"connected components in {rounds} large/small-star rounds")
    # At the fixed point every component is a star around its smallest member.
    return checkpoint(e.select(F.col("u").alias("doc"), F.col("v").alias("comp"))
                      .union(e.select(F.col("v").alias("doc"), F.col("v").alias("comp"))).distinct())


STAR_ROW = T.StructType([
    T.StructField("main", T.LongType(), False),
    T.StructField("member", T.LongType(), False),
    T.StructField("similarity", T.DoubleType(), False),
    T.StructField("first", T.BooleanType(), False),
    T.StructField("main_degree", T.LongType(), False),
])


def stars(nodes, edges):
    """dedup's strict clusters of one component (src/dedup/cluster.rs `stars` with the
    ranking of src/dedup/mod.rs): main-order criteria, then more near-duplicates, then the
    rank (`doc`: the key, then the input position)."""
    rank = {n["doc"]: (list(n["order"]), -n["degree"], n["doc"]) for n in nodes}
    degree = {n["doc"]: n["degree"] for n in nodes}
    by_rank = sorted(rank, key=rank.__getitem__)
    adj = {d: [] for d in by_rank}
    for e in edges:
        adj[e["a"]].append((e["b"], e["s"]))
        adj[e["b"]].append((e["a"], e["s"]))
    first, mains = {}, []
    for d in by_rank:
        if not adj[d] or d in first:
            continue
        first[d] = d
        mains.append(d)
        for v, _ in adj[d]:
            first.setdefault(v, d)
    out = []
    for m in mains:
        out.append((m, m, 1.0, True, degree[m]))
        out.extend((m, v, s, first[v] == m, degree[m]) for v, s in adj[m])
    return out


def cluster_rows(sigs, config, mode, checkpoint, max_leader_rounds=0):
    """The clusters of the signed documents of `sigs` under `config` (`mode`: strict or
    components), one row per member, documents named by their `doc` number."""
    threshold = float(config["threshold"])
    measure = config["measure"]
    # Documents are numbered by dedup's rank (the main order, then the key, then the input
    # position): after a global sort, monotonically_increasing_id grows with the order.
    # From here on `doc` is that rank; `docno` is the signatures' number.
    docs = checkpoint(sigs.where("signed").orderBy("order", "key", "doc").select(
        F.monotonically_increasing_id().alias("doc"), F.col("doc").alias("docno"),
        "order", "bands", "shingles", "canonical_url", "url_key"))

    log(f"{docs.count()} signed documents")
    edges = candidate_edges(docs, threshold, measure, max_leader_rounds, checkpoint)
    if config.get("canonical", False):
        by_canonical = canonical_url_edges(
            docs, edges, float(config["canonical_min_similarity"]), measure, checkpoint)
        edges = checkpoint(edges.unionByName(by_canonical))
    else:
        by_canonical = None
    comp = components(edges, checkpoint)
    if mode == "components":
        # The component's label is its smallest rank: its best member, the main.
        mains = comp.select("comp", F.col("comp").alias("main")).distinct()
        sh = docs.select("doc", "shingles")
        out = (comp.join(mains, "comp")
               .join(sh.withColumnRenamed("doc", "main").withColumnRenamed("shingles", "ms"), "main")
               .join(sh.withColumnRenamed("doc", "member").withColumnRenamed("shingles", "xs"),
                     F.col("doc") == F.col("member"))
               .select("main", "member",
                       F.when(F.col("main") == F.col("member"), F.lit(1.0))
                       .otherwise(similarity(F.col("ms"), F.col("xs"), measure)).alias("similarity"),
                       F.lit(True).alias("first"), F.lit(0).cast("long").alias("main_degree"),
                       F.lit(False).alias("strict")))
    else:
        deg = (edges.select(F.col("a").alias("doc")).union(edges.select(F.col("b").alias("doc")))
               .groupBy("doc").agg(F.count("*").alias("degree")))
        nodes = (comp.join(deg, "doc").join(docs.select("doc", "order"), "doc")
                 .groupBy("comp").agg(F.collect_list(F.struct("doc", "order", "degree")).alias("nodes")))
        comp_edges = (edges.join(comp.withColumnRenamed("doc", "a"), "a")
                      .groupBy("comp").agg(F.collect_list(F.struct("a", "b", "s")).alias("edges")))
        star_udf = F.udf(stars, T.ArrayType(STAR_ROW))
        out = (nodes.join(comp_edges, "comp")
               .select(F.explode(star_udf("nodes", "edges")).alias("r"))
               .select("r.*", F.lit(True).alias("strict")))
    number = docs.select("doc", "docno")
    out = (out.join(number.withColumnRenamed("doc", "main"), "main")
           .select(F.col("docno").alias("main"), "member", "similarity", "first", "main_degree", "strict")
           .join(number.withColumnRenamed("doc", "member"), "member")
           .select("main", F.col("docno").alias("member"), "similarity", "first", "main_degree", "strict"))
    if by_canonical is None:
        out = out.withColumn("canonical_with", F.array().cast("array<long>"))
    else:
        ends = (by_canonical.select(F.col("a").alias("doc"), F.col("b").alias("other"))
                .unionByName(by_canonical.select(F.col("b").alias("doc"), F.col("a").alias("other")))
                .join(number.withColumnRenamed("doc", "other").withColumnRenamed("docno", "other_no"), "other")
                .join(number, "doc")
                .groupBy(F.col("docno").alias("member"))
                .agg(F.array_sort(F.collect_list("other_no")).alias("canonical_with")))
        out = (out.join(ends, "member", "left")
               .withColumn("canonical_with",
                           F.coalesce("canonical_with", F.array().cast("array<long>"))))
    return out.select("main", "member", "similarity", "first", "main_degree", "strict", "canonical_with")
