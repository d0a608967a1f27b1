#!/usr/bin/env python3
"""Per-page WCXB scores, for finding what fails: loss (sum of 1 - F1), P and R per page type,
and a JSON list of [id, type, P, R, F1, gold words, predicted words] per page.

usage: wcxb_per_page.py PRED.jsonl ROWS_OUT.json [GT_DIR]   (run from the project root)"""
import ast, glob, json, re, sys
from collections import Counter

sys.path.insert(0, "../shared/eval")
from score_extraction import load_pred, word_prf  # noqa: E402

pred = load_pred(sys.argv[1])
gt_dir = sys.argv[3] if len(sys.argv) > 3 else "../shared/eval/wcxb-dev/ground-truth"
rows = []
for f in sorted(glob.glob(f"{gt_dir}/*.json")):
    rec = json.load(open(f, encoding="utf8"))
    g = rec["ground_truth"]
    if isinstance(g, str):
        g = ast.literal_eval(g)
    internal = rec.get("_internal") or {}
    if isinstance(internal, str):
        internal = ast.literal_eval(internal)
    kind = (internal.get("page_type") or {}).get("primary") or "unknown"
    fid = f.split("/")[-1][:-5]
    gold = g.get("main_content") or ""
    p, r, f1 = word_prf(pred.get(fid, ""), gold)
    rows.append((fid, kind, p, r, f1, len(re.findall(r"\w+", gold)), len(re.findall(r"\w+", pred.get(fid, "")))))
json.dump(rows, open(sys.argv[2], "w"))
count, loss = Counter(r[1] for r in rows), Counter()
for r in rows:
    loss[r[1]] += 1 - r[4]
for kind in sorted(count):
    mine = [r for r in rows if r[1] == kind]
    print(f"{kind:14} pages {count[kind]:4}  loss {loss[kind]:5.1f}  F1 {sum(r[4] for r in mine) / len(mine):.4f}"
          f"  P {sum(r[2] for r in mine) / len(mine):.3f}  R {sum(r[3] for r in mine) / len(mine):.3f}")
for half in (0, 1):
    mine = [r for r in rows if int(r[0]) % 2 == half]
    print(f"{'odd' if half else 'even'} ids: F1 {sum(r[4] for r in mine) / len(mine):.4f}")
