#!/usr/bin/env python3
"""Drafted rules against the methods they are drafted from, on pages they were not drafted on.

For every site of daniel-dev and sites-dev (sites from each manifest) with at least four
pages: `thresher rules suggest` drafts the site's rule file from the first half of its
pages (ceil(n/2), by path order; one run over all sites' halves with --out-dir); then the
whole corpus is extracted three times with its manifest: with the drafted rules in front
(`--rules DIR`), with the default cascade (style-inbreeding), and with the local heuristic
alone (`--no-infholder`). Scored on the held-back half only, word F1 per page against the
gold text (daniel-dev: score_extraction.word_prf, the WCXB scorer, Chinese per letter;
sites-dev: score_sites' lower-cased token bag), mean over pages; per site half A/B as
bench/score_halves.py splits sites (md5 of the host).

    python3 bench/rules_suggest_eval.py [--thresher target/release/thresher] [--out out/rules_suggest]

Prints, per corpus: sites with >= 4 pages, the share that got a rule, held-back pages the
rules handled, and on those pages the mean F1 of the rule's answer, the cross-page answer
and the heuristic's (all halves, A, B); then F1 on all held-back pages of each run.
"""
import argparse, collections, hashlib, json, os, subprocess, sys
from pathlib import Path
from urllib.parse import urlsplit

EVAL = Path(__file__).resolve().parents[2] / "shared" / "eval"
sys.path.insert(0, str(EVAL))
import score_extraction as se  # noqa: E402
import score_sites as ss  # noqa: E402


def site_of(url):
    host = (urlsplit(url).hostname or "").lower()
    return host[4:] if host.startswith("www.") else host


def half_of(site):
    return "A" if hashlib.md5(site.encode()).digest()[0] % 2 == 0 else "B"


def gold_daniel(corpus):
    out = {}
    for f in (corpus / "ground-truth").glob("*.json"):
        rec = json.loads(f.read_text(encoding="utf8"))
        out[f.stem] = (rec["ground_truth"].get("main_content") or "", rec.get("lang"))
    return out


def f1_daniel(gold, key, text):
    g, lang = gold[key]
    return se.word_prf(text, g, lang)[2]


def gold_sites(corpus):
    return {r["path"]: r["main_text"] for r in ss.read_jsonl(str(corpus / "gold" / "extraction.jsonl"))}


def f1_sites(gold, key, text):
    tp, fp, fn = ss.tp_fp_fn(ss.bag(gold[key], 1, True), ss.bag(text, 1, True))
    return 2 * tp / (2 * tp + fp + fn) if tp else (1.0 if not (fp or fn) else 0.0)


def run(cmd):
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode not in (0, 1):
        sys.exit(f"{' '.join(map(str, cmd))} failed ({r.returncode}):\n{r.stderr[-2000:]}")
    return r


def records(path):
    return {r["path"]: r for r in map(json.loads, open(path, encoding="utf8"))}


def mean(xs):
    return sum(xs) / len(xs) if xs else float("nan")


def corpus_eval(name, thresher, out):
    corpus = EVAL / name
    manifest = [json.loads(l) for l in open(corpus / "manifest.jsonl", encoding="utf8")]
    by_site = collections.defaultdict(list)
    for r in manifest:
        by_site[site_of(r["url"])].append(r)
    sites = {s: sorted(rs, key=lambda r: r["path"]) for s, rs in by_site.items() if len(rs) >= 4}
    train, held = [], {}
    for s, rs in sites.items():
        k = (len(rs) + 1) // 2
        for r in rs[:k]:
            e = {x: r[x] for x in ("path", "url", "fetched_at", "popularity", "content_type") if x in r}
            e["path"] = str(corpus / r["path"])
            train.append(e)
        for r in rs[k:]:
            held[r["path"]] = s
    work = out / name
    rules = work / "rules"
    work.mkdir(parents=True, exist_ok=True)
    for f in rules.glob("*.yaml") if rules.exists() else []:
        f.unlink()
    (work / "train.jsonl").write_text("".join(json.dumps(e) + "\n" for e in train))
    r = run([thresher, "rules", "suggest", "--manifest", work / "train.jsonl", "--out-dir", rules,
             "--fixtures", work / "fixtures", "--force"])
    (work / "suggest.log").write_text(r.stderr)
    drafted = {p.stem for p in rules.glob("*.yaml")}
    runs = {}
    for label, extra in (("rules", ["--rules", rules]), ("cross", []), ("local", ["--no-infholder"])):
        o = work / f"{label}.jsonl"
        run([thresher, "extract", "--manifest", corpus / "manifest.jsonl", "-o", o, *extra])
        runs[label] = records(o)
    if name == "daniel-dev":
        gold = gold_daniel(corpus)
        key = lambda p: se.page_id(p)  # noqa: E731
        score = f1_daniel
    else:
        gold = gold_sites(corpus)
        key = lambda p: p  # noqa: E731
        score = f1_sites
    rows = []
    for path, site in held.items():
        k = key(path)
        if k not in gold:
            continue
        f = {lab: score(gold, k, runs[lab].get(path, {}).get("text", "")) for lab in runs}
        handled = runs["rules"].get(path, {}).get("method", "").startswith("rules:")
        rows.append(dict(site=site, half=half_of(site), handled=handled, **f))
    n_sites = len(sites)
    got = sum(1 for s in sites if s in drafted)
    print(f"\n{name}: {n_sites} sites with >= 4 pages; {got} got a rule ({got / n_sites:.0%}); "
          f"{len(rows)} held-back pages, {sum(r['handled'] for r in rows)} handled by a rule")
    print(f"  {'pages':28} {'half':>4} {'n':>4} {'rules':>7} {'cross':>7} {'local':>7}")
    for what, sel in (("handled by a drafted rule", lambda r: r["handled"]), ("all held-back pages", lambda r: True)):
        for h in ("all", "A", "B"):
            rs = [r for r in rows if sel(r) and (h == "all" or r["half"] == h)]
            print(f"  {what:28} {h:>4} {len(rs):4d} {mean([r['rules'] for r in rs]):7.4f} "
                  f"{mean([r['cross'] for r in rs]):7.4f} {mean([r['local'] for r in rs]):7.4f}")
    worse = collections.defaultdict(list)
    for r in rows:
        if r["handled"]:
            worse[r["site"]].append(r["rules"] - r["cross"])
    bad = sorted(((mean(d), s) for s, d in worse.items()), key=lambda x: x[0])[:8]
    print("  sites where the rule is furthest below cross-page (mean F1 difference on handled pages):")
    for d, s in bad:
        print(f"    {s:32} {d:+.4f}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--thresher", default="target/release/thresher")
    ap.add_argument("--out", default="out/rules_suggest")
    ap.add_argument("--corpus", action="append", choices=["daniel-dev", "sites-dev"])
    a = ap.parse_args()
    for name in a.corpus or ["daniel-dev", "sites-dev"]:
        corpus_eval(name, os.path.abspath(a.thresher), Path(a.out).resolve())


if __name__ == "__main__":
    main()
