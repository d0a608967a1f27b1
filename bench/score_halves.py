#!/usr/bin/env python3
"""Word F1 of an extraction JSONL against a WCXB-layout ground truth (wcxb-dev, daniel-dev),
per page type (daniel-dev: per language) and per site half.

The halves split sites, not pages, by a hash of the site's host (md5, even/odd of the first
byte), so a mechanism that helps only the sites it was looked at shows as a gain on one half.

    python3 bench/score_halves.py ../shared/eval/daniel-dev out/dd.jsonl [--worst N] [--lang L]

Uses the scorer of ../shared/eval (same tokens, same F1) so figures match it exactly.
"""
import argparse, hashlib, json, sys
from pathlib import Path
from urllib.parse import urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "shared" / "eval"))
import score_extraction as se  # noqa: E402


def site_of(url):
    host = (urlsplit(url).hostname or "").lower()
    return host[4:] if host.startswith("www.") else host


def half_of(site):
    return "A" if hashlib.md5(site.encode()).digest()[0] % 2 == 0 else "B"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("corpus", help="folder with ground-truth/ (and html/)")
    ap.add_argument("pred", help="thresher extract JSONL")
    ap.add_argument("--worst", type=int, default=0, help="list the N worst pages per type")
    ap.add_argument("--lang", default=None, help="only this page type in --worst")
    ap.add_argument("--json", action="store_true", help="print per-page rows as JSON lines")
    a = ap.parse_args()
    pred = se.load_pred(a.pred)
    rows = []
    for f in sorted(Path(a.corpus, "ground-truth").glob("*.json")):
        rec = json.loads(f.read_text(encoding="utf8"))
        g = rec["ground_truth"]
        internal = rec.get("_internal") or {}
        ptype = ((internal.get("page_type") or {}).get("primary")) or "unknown"
        text = pred.get(f.stem, "")
        p, r, f1 = se.word_prf(text, g.get("main_content") or "", rec.get("lang"))
        site = site_of(rec.get("url") or g.get("url") or "")
        rows.append(dict(id=f.stem, type=ptype, site=site, half=half_of(site), p=p, r=r, f1=f1))
    if a.json:
        for row in rows:
            print(json.dumps(row))
        return
    types = sorted({r["type"] for r in rows})
    def mean(xs):
        return sum(xs) / len(xs) if xs else float("nan")
    print(f"{'':10} {'all':>6} " + " ".join(f"{t[:8]:>8}" for t in types))
    for h in ("all", "A", "B"):
        sel = [r for r in rows if h == "all" or r["half"] == h]
        line = f"{h:10} {mean([r['f1'] for r in sel]):6.4f} "
        line += " ".join(f"{mean([r['f1'] for r in sel if r['type'] == t]):8.4f}" for t in types)
        print(line + f"   (n={len(sel)}, P={mean([r['p'] for r in sel]):.3f} R={mean([r['r'] for r in sel]):.3f})")
    if a.worst:
        for t in types:
            if a.lang and t != a.lang:
                continue
            bad = sorted((r for r in rows if r["type"] == t), key=lambda r: r["f1"])[: a.worst]
            print(f"\n{t}: worst {len(bad)}")
            for r in bad:
                print(f"  {r['id']} {r['site']:30} P={r['p']:.2f} R={r['r']:.2f} F1={r['f1']:.2f}")


if __name__ == "__main__":
    main()
