#!/usr/bin/env python3
"""Metadata on a corpus with per-page truth (daniel-dev): language accuracy per language
(the truth's `lang`), and the share of pages with a publication date, per language and per
source, plus a random sample of dates to check by hand.

    thresher extract --manifest ../shared/eval/daniel-dev/manifest.jsonl -o out/ddm.jsonl
    python3 bench/metadata_eval.py ../shared/eval/daniel-dev/ground-truth out/ddm.jsonl [--sample 20]
"""
import argparse, collections, json, os, random

NAMES = {"Russian": "ru", "English": "en", "Chinese": "zh", "Greek": "el", "Polish": "pl"}

ap = argparse.ArgumentParser()
ap.add_argument("truth_dir")
ap.add_argument("pred")
ap.add_argument("--sample", type=int, default=0, help="print N random pages with their dates")
ap.add_argument("--seed", type=int, default=16)
a = ap.parse_args()

truth = {}
for f in os.listdir(a.truth_dir):
    if f.endswith(".json"):
        d = json.load(open(os.path.join(a.truth_dir, f)))
        truth[f.split(".")[0]] = NAMES.get(d.get("lang"), d.get("lang"))

recs = {}
for line in open(a.pred, encoding="utf-8"):
    r = json.loads(line)
    recs[os.path.basename(r["path"]).split(".")[0]] = r

per = collections.defaultdict(lambda: [0, 0, 0])  # pages, lang right, dated
wrong = collections.Counter()
sources = collections.Counter()
for pid, want in sorted(truth.items()):
    r = recs.get(pid, {})
    p = per[want]
    p[0] += 1
    got = r.get("lang")
    if got == want:
        p[1] += 1
    else:
        wrong[(want, got)] += 1
    if r.get("published"):
        p[2] += 1
        sources[r.get("published_source")] += 1

tot = [sum(v[i] for v in per.values()) for i in range(3)]
print(f"{'lang':6} {'pages':>5} {'lang ok':>8} {'acc':>6} {'dated':>6} {'share':>6}")
for k in sorted(per):
    n, ok, dated = per[k]
    print(f"{k:6} {n:5} {ok:8} {ok/n:6.3f} {dated:6} {dated/n:6.3f}")
print(f"{'all':6} {tot[0]:5} {tot[1]:8} {tot[1]/tot[0]:6.3f} {tot[2]:6} {tot[2]/tot[0]:6.3f}")
print("wrong (truth -> got):", dict(wrong.most_common()))
print("date sources:", dict(sources.most_common()))
if a.sample:
    dated = sorted(p for p in truth if recs.get(p, {}).get("published"))
    random.Random(a.seed).shuffle(dated)
    for pid in sorted(dated[: a.sample]):
        r = recs[pid]
        print(f"{pid} {truth[pid]} {r['published']:25} {r['published_source']:9} {r['title'][:60]}")
