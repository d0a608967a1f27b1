#!/usr/bin/env python3
"""trafilatura's with/without snippet metric (as ../shared/eval/score_extraction.py withwithout)
over the whole set and per site half, plus the pages that miss or leak snippets.

The halves split sites, not pages, by a hash of the site's host (md5, even/odd of the first
byte, as bench/score_halves.py), so a mechanism that helps only the sites it was looked at
shows as a gain on one half only.

    python3 bench/score_withwithout_halves.py ../shared/eval/trafilatura-dev/evaldata.json out/td.jsonl [--pages]

--pages lists, per page, the count of `with` snippets missed and `without` snippets kept.
"""
import argparse, json, sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "shared" / "eval"))
import score_extraction as se  # noqa: E402
from score_halves import half_of, site_of  # noqa: E402


def counts(item, text):
    if text is None:
        return 0, len(item["with"]), 0, len(item["without"])
    r = se._norm(text)
    a = sum(se._norm(w) in r for w in item["with"])
    b = sum(se._norm(w) in r for w in item["without"])
    return a, len(item["with"]) - a, b, len(item["without"]) - b


def prf(tp, fn, fp):
    p = tp / (tp + fp) if tp + fp else 0.0
    r = tp / (tp + fn) if tp + fn else 0.0
    return p, r, (2 * tp / (2 * tp + fp + fn) if tp else 0.0)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("evaldata")
    ap.add_argument("pred")
    ap.add_argument("--pages", action="store_true", help="list pages with misses or leaks")
    a = ap.parse_args()
    ev = json.loads(Path(a.evaldata).read_text(encoding="utf8"))
    pred = se.load_pred(a.pred)
    tot = {h: [0, 0, 0, 0] for h in ("all", "A", "B")}
    rows = []
    for url, item in ev.items():
        text = pred.get(url, pred.get(Path(item["file"]).name))
        c = counts(item, text)
        h = half_of(site_of(url))
        for k in ("all", h):
            for i in range(4):
                tot[k][i] += c[i]
        rows.append((item["file"], h, c))
    for h in ("all", "A", "B"):
        tp, fn, fp, _ = tot[h]
        p, r, f1 = prf(tp, fn, fp)
        print(f"{h:4} F1={f1:.4f} P={p:.4f} R={r:.4f}  tp={tp} fn={fn} fp={fp}")
    if a.pages:
        for f, h, (tp, fn, fp, tn) in sorted(rows, key=lambda x: -(x[2][1] + x[2][2])):
            if fn or fp:
                print(f"  {f:40} {h} missed={fn}/{tp + fn} leaked={fp}/{fp + tn}")


if __name__ == "__main__":
    main()
