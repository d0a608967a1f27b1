#!/usr/bin/env python3
"""Recall of the copies and false merges of a dedup run on the benchmark WARC
(bench/gen_dup_warc.py), from each system's output.

    python3 bench/score_pipeline.py TRUTH.tsv --thresher OUT/pages.jsonl
    python3 bench/score_pipeline.py TRUTH.tsv --spark OUT/pages          (Parquet)
    python3 bench/score_pipeline.py TRUTH.tsv --datatrove OUT/clusters.tsv

Pages are named by URL (unique in the WARC). The truth's pairs are joined into
components (a page, its copy and, for sites-dev, its gold cluster). A predicted cluster
pair of two pages in different truth components is a false merge. Prints one JSON line:
pages seen, clusters, copy pairs found / all, all truth pairs found / all, false-merge
pairs and the pages in them.
"""

import argparse
import collections
import json
import sys


class Components:
    def __init__(self):
        self.parent = {}

    def find(self, x):
        self.parent.setdefault(x, x)
        while self.parent[x] != x:
            self.parent[x] = self.parent[self.parent[x]]
            x = self.parent[x]
        return x

    def union(self, a, b):
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            self.parent[ra] = rb


def from_thresher(path):
    """url -> cluster id (None: in no cluster) from `thresher run`'s pages.jsonl."""
    out = {}
    for line in open(path):
        r = json.loads(line)
        if "error" not in r:
            out[r["url"]] = r.get("cluster")
    return out


def from_spark(path):
    import pyarrow.parquet as pq
    t = pq.read_table(path, columns=["url", "cluster"])
    return dict(zip(t.column("url").to_pylist(), t.column("cluster").to_pylist()))


def from_tsv(path):
    """`url<TAB>cluster` lines (empty cluster: none)."""
    out = {}
    for line in open(path):
        url, _, cluster = line.rstrip("\n").partition("\t")
        out[url] = cluster or None
    return out


def score(truth_path, predicted):
    truth = Components()
    copies = []
    pairs = []
    for line in open(truth_path):
        a, b, kind = line.rstrip("\n").split("\t")
        truth.union(a, b)
        pairs.append((a, b))
        if kind == "copy":
            copies.append((a, b))
    same = lambda a, b: (predicted.get(a) is not None and predicted.get(a) == predicted.get(b))
    clusters = collections.defaultdict(list)
    for url, c in predicted.items():
        if c is not None:
            clusters[c].append(url)
    false_pairs, false_pages = 0, set()
    for members in clusters.values():
        by_truth = collections.Counter(truth.find(u) for u in members)
        n = len(members)
        # Pairs across truth components: all pairs minus the pairs within each.
        bad = n * (n - 1) // 2 - sum(k * (k - 1) // 2 for k in by_truth.values())
        if bad:
            false_pairs += bad
            top = by_truth.most_common(1)[0][0]
            false_pages.update(u for u in members if truth.find(u) != top)
    return {
        "pages": len(predicted),
        "clusters": len(clusters),
        "copies_found": sum(same(a, b) for a, b in copies),
        "copies": len(copies),
        "copy_recall": round(sum(same(a, b) for a, b in copies) / max(1, len(copies)), 4),
        "truth_pairs_found": sum(same(a, b) for a, b in pairs),
        "truth_pairs": len(pairs),
        "false_merge_pairs": false_pairs,
        "falsely_merged_pages": len(false_pages),
    }


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("truth")
    g = p.add_mutually_exclusive_group(required=True)
    g.add_argument("--thresher", help="pages.jsonl of `thresher run`")
    g.add_argument("--spark", help="pages Parquet of spark/thresher_run.py")
    g.add_argument("--datatrove", help="url<TAB>cluster TSV of bench/datatrove_pipeline.py")
    a = p.parse_args()
    if a.thresher:
        predicted = from_thresher(a.thresher)
    elif a.spark:
        predicted = from_spark(a.spark)
    else:
        predicted = from_tsv(a.datatrove)
    json.dump(score(a.truth, predicted), sys.stdout)
    print()


if __name__ == "__main__":
    main()
