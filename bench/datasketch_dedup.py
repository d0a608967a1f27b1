#!/usr/bin/env python3
"""datasketch MinHashLSH on the same documents, for side-by-side figures (issue 6).

usage: datasketch_dedup.py DOCS.jsonl[.gz] OUT.jsonl [--threshold 0.8] [--perms 128]
       [--bands B --rows R] [--verify]

Same shingles as the truth (lower-cased \\w+ words, 5-shingles). Writes clusters as
connected components of the LSH candidate pairs (raw, or --verify: only pairs whose
exact Jaccard is >= threshold), main = smallest id, so score_pairs.py can score it.
Prints signing docs/s and peak RSS on stderr.
"""
import argparse, gzip, json, re, resource, sys, time
from datasketch import MinHash, MinHashLSH

ap = argparse.ArgumentParser()
ap.add_argument("docs"); ap.add_argument("out")
ap.add_argument("--threshold", type=float, default=0.8)
ap.add_argument("--perms", type=int, default=128)
ap.add_argument("--bands", type=int); ap.add_argument("--rows", type=int)
ap.add_argument("--verify", action="store_true")
a = ap.parse_args()
t0 = time.time()
opener = gzip.open if a.docs.endswith(".gz") else open
word = re.compile(r"\w+")
ids, sets = [], []
with opener(a.docs, "rt", encoding="utf-8") as f:
    for line in f:
        d = json.loads(line)
        w = word.findall(d["text"].lower())
        sh = {" ".join(w[i:i + 5]) for i in range(max(1, len(w) - 4))} if w else set()
        ids.append(str(d["id"])); sets.append(sh)
t1 = time.time()
params = dict(threshold=a.threshold, num_perm=a.perms)
if a.bands:
    params["params"] = (a.bands, a.rows)
lsh = MinHashLSH(**params)
mhs = []
for i, sh in enumerate(sets):
    m = MinHash(num_perm=a.perms)
    m.update_batch([s.encode("utf-8") for s in sh])
    mhs.append(m)
t2 = time.time()
for i, m in enumerate(mhs):
    lsh.insert(str(i), m)
pairs = set()
for i, m in enumerate(mhs):
    for j in lsh.query(m):
        j = int(j)
        if j > i:
            pairs.add((i, j))
if a.verify:
    pairs = {(i, j) for i, j in pairs
             if len(sets[i] & sets[j]) / max(1, len(sets[i] | sets[j])) >= a.threshold}
parent = list(range(len(ids)))
def find(x):
    while parent[x] != x:
        parent[x] = parent[parent[x]]; x = parent[x]
    return x
for i, j in pairs:
    parent[find(i)] = find(j)
comps = {}
for i in range(len(ids)):
    comps.setdefault(find(i), []).append(ids[i])
with open(a.out, "w") as out:
    for members in comps.values():
        if len(members) > 1:
            members.sort()
            out.write(json.dumps({"main": members[0], "members": members}) + "\n")
t3 = time.time()
rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(f"datasketch: {len(ids)} docs; read+shingle {t1 - t0:.1f} s; MinHash {t2 - t1:.1f} s "
      f"({len(ids) / (t2 - t1):.0f} docs/s); LSH+components {t3 - t2:.1f} s; total {t3 - t0:.1f} s; "
      f"{len(pairs)} pairs; peak RSS {rss:.0f} MB", file=sys.stderr)
