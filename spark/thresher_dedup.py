#!/usr/bin/env python3
"""Near-duplicate clusters on Spark from `thresher sign` signatures, equal to `thresher dedup`.

    thresher sign docs.jsonl.gz -o sigs.parquet
    spark-submit spark/thresher_dedup.py --signatures sigs.parquet --out clusters/
    thresher clusters import --signatures sigs.parquet clusters/ -o clusters.jsonl

Steps, each the distributed form of what src/dedup/ does on one machine:
1. Candidates: documents sharing a band hash. Buckets of at most 64 documents
   (MAX_BUCKET_ALL_PAIRS, src/dedup/lsh.rs) give all their pairs (a self-join per band).
2. Larger buckets are not expanded (a band shared by 100,000 documents would give 5·10^9
   pairs): as in dedup, the best-ranked member leads, every other member is verified
   against it once, the members not similar to it form the rest of the bucket, led by
   their best, and so on. Each round is one join of the remaining members with their
   bucket's leader (one row per bucket), so a huge bucket costs one verification per
   member and round, spread over the cluster; the rounds of a bucket are the number of
   mutually dissimilar groups in it (1 for copies). This is the skew guard; see
   `--max-leader-rounds` for the cap.
3. Verification: the exact similarity of the two shingle sets (jaccard, dice or
   containment, the signer's measure), kept at or above the signer's threshold.
3b. Canonical URLs (src/dedup/canonical.rs, on unless signed with --no-canonical):
   documents declaring the same canonical URL, and the document whose own URL another
   declares, are paired (all pairs in a group of at most 64, else a star around the
   group's best-ranked member); a pair that is not already an edge becomes one when its
   similarity reaches the signer's canonical_min_similarity. Such pairs are reported per
   member (`canonical_with`) for the clusters' reasons.
4. Connected components of the verified pairs by large-star/small-star (Kiveris et al.,
   "Connected Components in MapReduce and Beyond", SoCC 2014): O(log² n) rounds of
   DataFrame joins and aggregations; nothing is collected to the driver.
5. Clusters per component. `components`: the component, main = best by the main order.
   `strict` (dedup's default; `--strict`): within each component, dedup's stars
   (src/dedup/cluster.rs): documents by main order, then more near-duplicates first; one
   becomes a main unless similar to a main already chosen, every other document belongs
   to the best main it is similar to and is `shared` in other mains' clusters. Only
   components go through Python, one at a time.

Output (Parquet, one row per cluster member, the main included): main, member (document
numbers of the signatures file), similarity to the main, first (the member belongs first
to this main), main_degree, strict, canonical_with (the documents this member is joined
to by a shared canonical URL rather than by its shingles). `thresher clusters import` writes clusters.jsonl.
"""

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from thresher_spark import session  # noqa: E402
from thresher_spark.dedup import Checkpointer, cluster_rows, read_config  # noqa: E402
from thresher_spark.log import NAME, JobError, log  # noqa: E402

NAME[0] = "thresher_dedup"


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--signatures", required=True, help="Parquet file (or directory) of `thresher sign`")
    p.add_argument("--out", required=True, help="output directory (Parquet)")
    session.add_cluster_arguments(p)
    return p.parse_args(argv)


def main(argv):
    args = parse_args(argv)
    spark = session.start("thresher-dedup", args.master, args.shuffle_partitions)
    checkpoint = Checkpointer(spark, args.checkpoint_dir)

    config = read_config(spark, args.signatures)
    mode = args.mode or config.get("mode", "strict")

    sigs = spark.read.parquet(args.signatures)
    if sigs.groupBy("doc").count().where("count > 1").limit(1).count():
        raise JobError(f"{args.signatures}: document numbers repeat (several `thresher sign` runs?)")
    log("started")
    out = cluster_rows(sigs, config, mode, checkpoint, args.max_leader_rounds)
    out.write.mode("overwrite").parquet(args.out)
    log(f"{mode} clusters written to {args.out}")
    spark.stop()


if __name__ == "__main__":
    try:
        main(sys.argv[1:])
    except JobError as e:
        sys.exit(f"thresher_dedup: {e}")
