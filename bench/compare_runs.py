#!/usr/bin/env python3
"""Per-page word-F1 differences between two extraction runs of one corpus (wcxb-dev or
daniel-dev layout), to see what a change won and lost before trusting an average:

    python3 bench/compare_runs.py ../shared/eval/daniel-dev out/before/dd.jsonl out/after/dd.jsonl [--top 15] [--min 0.02]

Prints the mean change per type (language) and site half, the count of pages that moved, and
the pages that gained and lost most (id, site, type, half, F1 before -> after).
"""
import argparse, json, subprocess, sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def rows(corpus, pred):
    out = subprocess.run([sys.executable, str(HERE / "score_halves.py"), corpus, pred, "--json"],
                         check=True, capture_output=True, text=True).stdout
    return {r["id"]: r for r in map(json.loads, out.splitlines())}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("corpus")
    ap.add_argument("before")
    ap.add_argument("after")
    ap.add_argument("--top", type=int, default=15)
    ap.add_argument("--min", type=float, default=0.02, help="a page moved if |delta F1| >= this")
    a = ap.parse_args()
    b, f = rows(a.corpus, a.before), rows(a.corpus, a.after)
    deltas = [(f[k]["f1"] - b[k]["f1"], k) for k in b]
    n = len(deltas)
    print(f"all: {sum(d for d, _ in deltas) / n:+.4f} over {n} pages; "
          f"up {sum(d >= a.min for d, _ in deltas)}, down {sum(d <= -a.min for d, _ in deltas)}")
    for key in ("type", "half"):
        for v in sorted({b[k][key] for k in b}):
            sel = [d for d, k in deltas if b[k][key] == v]
            print(f"  {key} {v:12} {sum(sel) / len(sel):+.4f} (n={len(sel)}, "
                  f"up {sum(d >= a.min for d in sel)}, down {sum(d <= -a.min for d in sel)})")
    deltas.sort()
    def show(title, items):
        print(title)
        for d, k in items:
            r = b[k]
            print(f"  {k} {r['site'][:28]:28} {r['type'][:10]:10} {r['half']} {r['f1']:.3f} -> {f[k]['f1']:.3f} ({d:+.3f})")
    show("lost most:", [x for x in deltas[: a.top] if x[0] < 0])
    show("gained most:", [x for x in reversed(deltas[-a.top:]) if x[0] > 0])


if __name__ == "__main__":
    main()
