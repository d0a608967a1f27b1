#!/usr/bin/env python3
"""Title accuracy of `thresher extract` output against WCXB's annotated titles.

usage: score_titles.py GT PRED.jsonl [--show N]
GT is WCXB's ground-truth folder, or a JSONL of {path, title} (sites-dev's gold/extraction.jsonl;
pages are matched by path there).
Prints exact-match rate (case and whitespace folded) and mean word-F1 over the pages
whose ground truth has a title; --show N lists N mismatches."""
import ast, json, re, sys
from collections import Counter
from pathlib import Path

TOK = re.compile(r"\w+", re.UNICODE)


def norm(t):
    return " ".join(TOK.findall((t or "").lower()))


def f1(a, b):
    a, b = TOK.findall(a.lower()), TOK.findall(b.lower())
    if not a or not b:
        return float(a == b)
    ov = sum((Counter(a) & Counter(b)).values())
    return 0.0 if not ov else 2 * ov / (len(a) + len(b))


def gold(gt, by_path):
    """(page key, record with a title) pairs."""
    if by_path:
        for line in open(gt, encoding="utf8"):
            d = json.loads(line)
            yield d["path"], d
        return
    for f in sorted(Path(gt).glob("*.json")):
        g = json.loads(f.read_text(encoding="utf8"))["ground_truth"]
        if isinstance(g, str):
            g = ast.literal_eval(g)
        yield f.stem, g


def main():
    gt_dir, pred_path = sys.argv[1], sys.argv[2]
    show = int(sys.argv[sys.argv.index("--show") + 1]) if "--show" in sys.argv else 0
    by_path = gt_dir.endswith(".jsonl")
    key = (lambda p: p) if by_path else (lambda p: Path(p).name.split(".")[0])
    pred = {}
    for line in open(pred_path, encoding="utf8"):
        d = json.loads(line)
        pred[key(d["path"])] = d.get("title") or ""
    n = exact = 0
    total_f1 = 0.0
    misses = []
    for page, g in gold(gt_dir, by_path):
        want = (g.get("title") or "").strip()
        if not want:
            continue
        got = pred.get(page, "")
        n += 1
        exact += norm(got) == norm(want)
        s = f1(got, want)
        total_f1 += s
        if norm(got) != norm(want):
            misses.append((s, page, want, got))
    print(json.dumps({"n": n, "exact": round(exact / n, 4), "word_f1": round(total_f1 / n, 4)}))
    for s, fid, want, got in sorted(misses)[:show]:
        print(f"{fid} f1={s:.2f}\n  want: {want}\n  got:  {got}")


if __name__ == "__main__":
    main()
