#!/usr/bin/env python3
"""Sites a cross-page method makes worse than local extraction: mean word F1 per site of two
extraction JSONLs of the same corpus (LOCAL: `--no-infholder`; CROSS: `--cross-page X`),
listing the sites whose mean drops by more than --max-drop (default 0.05).

    python3 bench/site_regressions.py out/ddm-local.jsonl out/ddm-inbreeding.jsonl
    python3 bench/site_regressions.py LOCAL CROSS --corpus ../shared/eval/daniel-dev --all

Per-page F1 comes from bench/score_halves.py (`--json` rows, the corpus scorer's tokens);
sites are the hosts of the manifest's URLs (the groups the cross-page methods see), pages
joined on the file name before the first dot. Exit code 1 when some site drops.
"""
import argparse, json, subprocess, sys
from collections import defaultdict
from pathlib import Path
from urllib.parse import urlsplit

HERE = Path(__file__).resolve().parent


def rows(corpus, pred):
    out = subprocess.run(
        [sys.executable, str(HERE / "score_halves.py"), str(corpus), str(pred), "--json"],
        check=True, capture_output=True, text=True,
    ).stdout
    return {r["id"]: r for r in map(json.loads, out.splitlines())}


def sites(manifest):
    by_id = {}
    for line in open(manifest, encoding="utf8"):
        if not line.strip():
            continue
        m = json.loads(line)
        host = (urlsplit(m["url"]).hostname or "").lower()
        by_id[Path(m["path"]).name.split(".")[0]] = host[4:] if host.startswith("www.") else host
    return by_id


def methods(pred):
    by_id = {}
    for line in open(pred, encoding="utf8"):
        r = json.loads(line)
        if "path" in r and "method" in r:
            by_id[Path(r["path"]).name.split(".")[0]] = r["method"]
    return by_id


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("local", help="extraction JSONL of the local method (--no-infholder)")
    ap.add_argument("cross", help="extraction JSONL of the cross-page method")
    ap.add_argument("--corpus", default=str(HERE.parents[1] / "shared" / "eval" / "daniel-dev"))
    ap.add_argument("--manifest", default=None, help="default: CORPUS/manifest.jsonl")
    ap.add_argument("--max-drop", type=float, default=0.05)
    ap.add_argument("--all", action="store_true", help="list every site with a cross-page page")
    a = ap.parse_args()
    site_of = sites(a.manifest or Path(a.corpus, "manifest.jsonl"))
    local, cross = rows(a.corpus, a.local), rows(a.corpus, a.cross)
    method = methods(a.cross)
    per_site = defaultdict(list)
    for k, r in cross.items():
        if k in local:
            per_site[site_of.get(k, r["site"])].append(k)
    listed = []
    for site, ks in per_site.items():
        lf = sum(local[k]["f1"] for k in ks) / len(ks)
        cf = sum(cross[k]["f1"] for k in ks) / len(ks)
        cleaned = sum(1 for k in ks if method.get(k, "heuristic") != "heuristic")
        if cf < lf - a.max_drop or (a.all and cleaned):
            listed.append((cf - lf, site, len(ks), cleaned, lf, cf))
    listed.sort()
    print(f"{'site':30} {'pages':>5} {'cross':>5} {'local':>6} {'method':>6} {'delta':>7}")
    for d, site, n, cleaned, lf, cf in listed:
        print(f"{site:30} {n:5d} {cleaned:5d} {lf:6.3f} {cf:6.3f} {d:+7.3f}")
    drops = [x for x in listed if x[0] < -a.max_drop]
    total = sum(len(ks) for ks in per_site.values())
    print(f"{len(drops)} of {len(per_site)} sites ({total} pages) drop by more than {a.max_drop}")
    sys.exit(1 if drops else 0)


if __name__ == "__main__":
    main()
